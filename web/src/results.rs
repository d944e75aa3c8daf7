//! The answers, rendered by [`crate::render`] into one container whose buttons are handled
//! here in one place (`data-action`, `data-arg`).

use headroom_core::catalog::device::DeviceKind;
use headroom_core::estimate::sweep_context;
use headroom_core::fit;
use headroom_core::hardware::DeviceChoice;
use headroom_core::scenario::ModelSource;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::{T, tr};
use crate::render::{self, Ctx, esc};
use crate::state::ui;

/// Link problems and the note about models read from files.
#[component]
pub fn Notices() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let html = move || {
        let l = lang.get();
        let mut s = String::new();
        let ignored = ui.ignored.get();
        if !ignored.is_empty() {
            s.push_str(&format!(
                "<div class=\"hr-notice\" role=\"status\"><strong>{}</strong><ul>",
                tr(l, T::IgnoredLink)
            ));
            for i in &ignored {
                s.push_str(&format!(
                    "<li><code>{}={}</code> — {}</li>",
                    esc(&i.key),
                    esc(&i.value),
                    esc(&i.reason)
                ));
            }
            s.push_str(
                "</ul><button type=\"button\" class=\"hr-dismiss\" aria-label=\"close\">×</button></div>",
            );
        }
        if ui.scenario.with(|s| matches!(s.model, ModelSource::Custom(_))) {
            let words = if ui.hf.with(Option::is_some) { T::HubLinked } else { T::CustomNotLinked };
            s.push_str(&format!("<div class=\"hr-notice hr-info\" role=\"status\">{}</div>", tr(l, words)));
        }
        s
    };
    view! {
        <div class="hr-notices" inner_html=html
            on:click=move |ev| {
                if target_action(&ev).is_some() || is_dismiss(&ev) {
                    ui.ignored.set(Vec::new());
                }
            }></div>
    }
}

fn is_dismiss(ev: &leptos::ev::MouseEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest(".hr-dismiss").ok().flatten())
        .is_some()
}

/// The element's `data-action` and `data-arg`, from the clicked element or its ancestors.
fn target_action(ev: &leptos::ev::MouseEvent) -> Option<(String, String)> {
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?.closest("[data-action]").ok()??;
    Some((el.get_attribute("data-action")?, el.get_attribute("data-arg").unwrap_or_default()))
}

/// Every result card.
#[component]
pub fn Results() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let open = RwSignal::new(Vec::<String>::new());
    let kind = RwSignal::new(None::<DeviceKind>);
    let shown = RwSignal::new(12usize);
    // The chart (an estimate per context) and the table of every device (a fit per catalog
    // device) follow after the frame that shows the scenario's own figures, so an input reaches
    // the screen first; until they are done they say they are being updated (dimmed after a
    // moment, `aria-busy`), never silently stale.
    let fits = RwSignal::new(None::<Vec<fit::Fit>>);
    let pending = RwSignal::new(true);
    let settled = RwSignal::new(0u64);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        ui.scenario.track();
        pending.set(true);
        let g = generation.get_value() + 1;
        generation.set_value(g);
        request_animation_frame(move || {
            set_timeout(
                move || {
                    // A later change has its own turn coming: skip this one.
                    if generation.get_value() != g {
                        return;
                    }
                    fits.set(Some(ui.scenario.with_untracked(fit::fit_all).unwrap_or_default()));
                    settled.update(|n| *n += 1);
                    pending.set(false);
                },
                std::time::Duration::ZERO,
            );
        });
    });
    // Drawn for the scenario as it is when it settles (and at once on the first render, so the
    // first view has it); the language redraws it at once.
    let chart = Memo::new(move |_| {
        settled.track();
        ui.result.with_untracked(|r| {
            let (e, f) = r.as_ref().ok()?;
            let capacity = f.as_ref().map(|f| f.capacity);
            let max_ctx = e.model.max_context;
            ui.scenario.with_untracked(|s| {
                let pts = sweep_context(s, &render::chart_contexts(s.context, max_ctx)).ok()?;
                Some(render::chart(&pts, capacity, s.context, lang.get()))
            })
        })
    });
    let html = move || {
        let l = lang.get();
        let open = open.get();
        ui.result.with(|r| match r {
            Err(e) => render::error(e, l),
            Ok((e, f)) => ui.scenario.with(|s| {
                let c = Ctx { lang: l, open: &open };
                let mut h = String::new();
                let pending = ui.pending.get();
                if !pending.is_empty() {
                    h.push_str(&render::stale(l));
                }
                h.push_str(&render::resources(e, f.as_ref(), l));
                h.push_str(&render::warnings(e, l));
                if let Some(f) = f {
                    h.push_str(&render::verdict(f, l));
                    if let Ok(Some(a)) = fit::training_advice(s) {
                        h.push_str(&render::training_advice(&a, l));
                    }
                }
                h.push_str(&render::llama_gpus(&e.llama_gpus, l));
                if let Some(b) = f.as_ref().and_then(|f| f.vllm.as_ref()).or(e.vllm.as_ref()) {
                    h.push_str(&render::vllm_budget(b, l));
                }
                if let Some(b) = f.as_ref().and_then(|f| f.sglang.as_ref()).or(e.sglang.as_ref()) {
                    h.push_str(&render::sglang_budget(b, l));
                }
                h.push_str(&render::breakdown(e, &c));
                if let Some(f) = f {
                    h.push_str(&render::speed(e, f, l));
                }
                h.push_str(&render::commands(&headroom_core::flags::commands(s, e, f.as_ref()), l));
                h
            }),
        })
    };
    let chart_html = move || {
        if ui.result.with(|r| r.is_err()) {
            return String::new();
        }
        chart.get().unwrap_or_default()
    };
    let tail_html = move || {
        let l = lang.get();
        ui.result.with(|r| match r {
            Err(_) => String::new(),
            Ok((e, f)) => {
                let mut h = ui.pinned.with(|p| render::compare(p.as_ref(), (e, f.as_ref()), l));
                h.push_str(&render::seed_table(e, l));
                h
            }
        })
    };
    let devices_html = move || {
        let l = lang.get();
        // No table under an error: the scenario itself has no answer.
        if ui.result.with(|r| r.is_err()) {
            return String::new();
        }
        fits.with(|f| match f {
            Some(all) => render::devices(all, kind.get(), shown.get(), l),
            None => format!("<div class=\"hr-card hr-devices\"><h2>{}</h2><p>…</p></div>", tr(l, T::Devices)),
        })
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some((action, arg)) = target_action(&ev) else { return };
        match action.as_str() {
            "toggle" => open.update(|o| {
                if let Some(i) = o.iter().position(|k| *k == arg) {
                    o.remove(i);
                } else {
                    o.push(arg);
                }
            }),
            "pin" => ui.compare.set(Some(ui.scenario.get_untracked())),
            "unpin" => ui.compare.set(None),
            "device" => ui.scenario.update(|s| s.device = Some(DeviceChoice::Catalog(arg))),
            "more" => shown.update(|n| *n += 24),
            "kind" => {
                kind.set(render::KINDS.iter().find(|(_, _, id)| *id == arg).and_then(|(k, _, _)| *k));
                shown.set(12);
            }
            "copy-commands" => {
                let text = ui.result.with_untracked(|r| match r {
                    Ok((e, f)) => ui
                        .scenario
                        .with_untracked(|s| headroom_core::flags::commands(s, e, f.as_ref()).join("\n")),
                    Err(_) => String::new(),
                });
                if let Some(w) = web_sys::window() {
                    let _ = w.navigator().clipboard().write_text(&text);
                }
            }
            _ => {}
        }
    };
    view! {
        <div class="hr-results-body" class:hr-stale=move || !ui.pending.get().is_empty()
            on:click=on_click inner_html=html></div>
        <div class="hr-chart-body" class:hr-updating=move || pending.get()
            aria-busy=move || pending.get().to_string() inner_html=chart_html></div>
        <div class="hr-results-tail" on:click=on_click inner_html=tail_html></div>
        <div class="hr-devices-body" class:hr-updating=move || pending.get()
            aria-busy=move || pending.get().to_string()
            on:click=on_click inner_html=devices_html></div>
    }
}
