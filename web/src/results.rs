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
    // The table of every device is computed after the first paint, so the first figures show at once.
    let ready = RwSignal::new(false);
    if cfg!(target_arch = "wasm32") {
        request_animation_frame(move || ready.set(true));
    }
    let fits = Memo::new(move |_| {
        if !ready.get() {
            return None;
        }
        Some(ui.scenario.with(fit::fit_all).unwrap_or_default())
    });
    let chart = Memo::new(move |_| {
        ui.result.with(|r| {
            let (e, f) = r.as_ref().ok()?;
            let capacity = f.as_ref().map(|f| f.capacity);
            let max_ctx = e.model.max_context;
            ui.scenario.with(|s| {
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
                if let Some(svg) = chart.get() {
                    h.push_str(&svg);
                }
                ui.pinned.with(|p| h.push_str(&render::compare(p.as_ref(), (e, f.as_ref()), l)));
                h.push_str(&render::seed_table(e, l));
                match fits.get() {
                    Some(all) => h.push_str(&render::devices(&all, kind.get(), shown.get(), l)),
                    None => h.push_str(&format!(
                        "<div class=\"hr-card hr-devices\"><h2>{}</h2><p>…</p></div>",
                        tr(l, T::Devices)
                    )),
                }
                h
            }),
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
    }
}
