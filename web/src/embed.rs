//! The compact view for iframes (`?embed=1`): the headline figures, the breakdown bar and the
//! verdict, with a link to the full calculator. It reports its height to the host page.

use headroom_core::text::format_size;
use leptos::prelude::*;

use crate::i18n::{T, tr};
use crate::results::{term_name, verdict_text};
use crate::state::ui;

/// The embedded view.
#[component]
pub fn EmbedView() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    Effect::new(move |first: Option<()>| {
        ui.result.track();
        if first.is_none() {
            crate::observe_height();
        } else {
            crate::report_height();
        }
    });
    let full = move || {
        let mut l = ui.link();
        l.embed = false;
        crate::link::absolute(&l)
    };
    view! {
        <main class="hr-app hr-embed">
            {move || {
                let l = lang.get();
                ui.result.with(|r| match r {
                    Err(e) => view! { <p class="hr-error" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok((e, f)) => {
                        let total = e.memory.total.get().max(1) as f64;
                        let head = format!(
                            "{} · {} · {} tokens × {}",
                            e.model.name,
                            e.format.label(),
                            ui.scenario.with(|s| s.context),
                            ui.scenario.with(|s| s.batch)
                        );
                        view! {
                            <p class="hr-embed-head">{head}</p>
                            <p class="hr-embed-total">
                                <span>{tr(l, T::Vram1)}</span>
                                <strong id="hr-total-bytes" data-bytes=e.memory.total.get().to_string()>{format_size(e.memory.total, l)}</strong>
                                <small>{format!("{} {}", tr(l, T::Disk), format_size(e.disk.weights, l))}</small>
                            </p>
                            <div class="hr-bar">
                                {e.memory.terms.iter().filter(|t| t.bytes.get() > 0).map(|t| {
                                    let w = t.bytes.get() as f64 / total * 100.0;
                                    view! {
                                        <div class=format!("hr-seg hr-seg-{}", t.kind.key()) style=format!("width:{w:.2}%")
                                            title=format!("{}: {}", term_name(t.kind, l), format_size(t.bytes, l))></div>
                                    }
                                }).collect_view()}
                            </div>
                            <ul class="hr-legend">
                                {e.memory.terms.iter().filter(|t| t.bytes.get() > 0).map(|t| view! {
                                    <li><span class=format!("hr-swatch hr-seg-{}", t.kind.key())></span>
                                        {format!("{} {}", term_name(t.kind, l), format_size(t.bytes, l))}</li>
                                }).collect_view()}
                            </ul>
                            {f.as_ref().map(|f| view! {
                                <p class=format!("hr-embed-verdict hr-verdict-{}", f.verdict.id())>
                                    {format!("{}: {}", f.name, verdict_text(f.verdict, l))}
                                </p>
                            })}
                        }
                        .into_any()
                    }
                })
            }}
            <a class="hr-open" href=full target="_blank" rel="noopener">{move || tr(lang.get(), T::OpenFull)}" ↗"</a>
        </main>
    }
}
