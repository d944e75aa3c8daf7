//! The answers, rendered by [`crate::render`] into one container whose buttons are handled
//! here in one place (`data-action`, `data-arg`).

use headroom_core::estimate::sweep_context;
use headroom_core::fit;
use headroom_core::hardware::DeviceChoice;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::share::Pinned;
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
        let _units = render::write_sizes_in(ui.units.get());
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

/// The answer first: one sentence above the inputs and the figures (first on a phone too).
#[component]
pub fn Answer() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    // Where the chosen runtime needs it all on the GPU and llama.cpp would place the rest in
    // system RAM: said beside the verdict, with the switch.
    let better = Memo::new(move |_| {
        ui.result.with(|r| {
            let f = r.as_ref().ok()?.1.as_ref()?;
            ui.scenario.with(|s| fit::better_runtime_here(s, f))
        })
    });
    let html = move || {
        let l = lang.get();
        let _units = render::write_sizes_in(ui.units.get());
        ui.result.with(|r| match r {
            Ok((e, f)) => ui.scenario.with(|s| {
                let mut h = render::answer(e, f.as_ref(), s, l);
                if let Some((runtime, f)) = better.get() {
                    h.push_str(&render::better_runtime(runtime, &f, l));
                }
                h
            }),
            Err(_) => String::new(),
        })
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some((action, arg)) = target_action(&ev)
            && action == "runtime"
            && let Ok(r) = headroom_core::inference::Runtime::parse(&arg)
        {
            ui.scenario.update(|s| s.runtime = Some(r));
        }
    };
    view! {
        <div class="hr-answer-wrap" class:hr-stale=move || !ui.pending.get().is_empty() aria-live="polite"
            on:click=on_click inner_html=html></div>
    }
}

/// One card of the results: drawn whole at first (the build-time first view has it), then
/// updated in place ([`crate::morph`]) when its HTML changes.
fn part_view(p: Memo<String>) -> impl IntoView {
    view! { <div class="hr-part" node_ref=morphed(p) inner_html=p.get_untracked()></div> }
}

/// A node whose content follows `html` after its first drawing, updated in place.
fn morphed(html: Memo<String>) -> NodeRef<leptos::html::Div> {
    let node = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |prev: Option<()>| {
        let h = html.get();
        if prev.is_some()
            && let Some(el) = node.get_untracked()
        {
            crate::morph::morph(&el, &h);
        }
    });
    node
}

/// What one card of the results is drawn from.
struct PartCtx<'a> {
    e: &'a headroom_core::estimate::Estimate,
    f: Option<&'a fit::Fit>,
    s: &'a Scenario,
    l: headroom_core::text::Lang,
    open: RwSignal<Vec<String>>,
    answer: Memo<Option<String>>,
}

/// Every result card.
#[component]
pub fn Results() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let open = RwSignal::new(Vec::<String>::new());
    let filter = RwSignal::new(render::DeviceFilter::default());
    let shown = RwSignal::new(12usize);
    let order = RwSignal::new(fit::FitOrder::Fit);
    // The reverse question asked, with the scenario it was asked for: its answer shows while the
    // scenario is that one (any change takes it away rather than leave it stale).
    let asked = RwSignal::new(None::<(String, Scenario)>);
    let answer = Memo::new(move |_| {
        let l = lang.get();
        let _units = render::write_sizes_in(ui.units.get());
        asked.with(|a| {
            let (q, at) = a.as_ref()?;
            if !ui.scenario.with(|s| s == at) {
                return None;
            }
            let min = filter.with(render::DeviceFilter::min_tokens_per_s);
            Some(ask(q, at, min, &ui, l))
        })
    });
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
                    // A later change has its own turn coming: skip this one; and nothing to do
                    // once the page is gone (unmounted before its turn).
                    if generation.try_get_value() != Some(g) {
                        return;
                    }
                    let Some(all) = ui.scenario.try_with_untracked(fit::fit_all) else { return };
                    fits.try_set(Some(all.unwrap_or_default()));
                    settled.try_update(|n| *n += 1);
                    pending.try_set(false);
                },
                std::time::Duration::ZERO,
            );
        });
    });
    // Drawn for the scenario as it is when it settles (and at once on the first render, so the
    // first view has it); the language redraws it at once.
    let chart = Memo::new(move |_| {
        settled.track();
        let _units = render::write_sizes_in(ui.units.get());
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
    // The results, one part per card: each part's HTML is a memo, so a change rebuilds the
    // strings but replaces only the cards whose HTML differs (an input's frame lays out what
    // changed, not every card).
    let part = move |f: fn(&PartCtx) -> String| {
        Memo::new(move |_| {
            let l = lang.get();
            let _units = render::write_sizes_in(ui.units.get());
            ui.result.with(|r| match r {
                Err(_) => String::new(),
                Ok((e, fit)) => ui.scenario.with(|s| f(&PartCtx { e, f: fit.as_ref(), s, l, open, answer })),
            })
        })
    };
    let error = Memo::new(move |_| {
        let l = lang.get();
        ui.result.with(|r| match r {
            Err(e) => render::error(e, l),
            Ok(_) => String::new(),
        })
    });
    let stale = Memo::new(move |_| {
        let l = lang.get();
        if ui.pending.with(|p| p.is_empty()) || ui.result.with(|r| r.is_err()) {
            String::new()
        } else {
            render::stale(l)
        }
    });
    let parts = [
        part(|c| render::resources(c.e, c.f, c.l)),
        part(|c| render::warnings(c.e, c.l)),
        part(|c| {
            let Some(f) = c.f else { return String::new() };
            let mut h = render::verdict(f, c.l);
            if let Ok(Some(a)) = fit::training_advice(c.s) {
                h.push_str(&render::training_advice(&a, c.l));
                h.push_str(&render::lora_tradeoff(&a.lora, c.s, c.l));
            }
            h
        }),
        part(|c| {
            render::questions(c.s.device.is_some(), c.s.mode.is_training(), c.answer.get().as_deref(), c.l)
        }),
        part(|c| {
            let mut h = render::llama_gpus(&c.e.llama_gpus, c.l);
            if let Some(b) = c.f.and_then(|f| f.vllm.as_ref()).or(c.e.vllm.as_ref()) {
                h.push_str(&render::vllm_budget(b, c.l));
            }
            if let Some(b) = c.f.and_then(|f| f.sglang.as_ref()).or(c.e.sglang.as_ref()) {
                h.push_str(&render::sglang_budget(b, c.l));
            }
            h
        }),
        part(|c| c.open.with(|o| render::breakdown(c.e, &Ctx { lang: c.l, open: o }))),
        part(|c| {
            let Some(f) = c.f else { return String::new() };
            let mut h = render::speed(c.e, f, c.l);
            if !c.s.mode.is_training() {
                let found = headroom_core::measured::for_scenario(c.s, c.e.format).unwrap_or_default();
                h.push_str(&render::measured(&found, c.l));
            }
            h
        }),
        part(|c| render::commands(&headroom_core::flags::commands(c.s, c.e, c.f), c.l)),
    ];
    let chart_html = Memo::new(move |_| {
        if ui.result.with(|r| r.is_err()) {
            return String::new();
        }
        chart.get().unwrap_or_default()
    });
    let tail_html = Memo::new(move |_| {
        let l = lang.get();
        let _units = render::write_sizes_in(ui.units.get());
        ui.result.with(|r| match r {
            Err(_) => String::new(),
            Ok((e, f)) => {
                let mut h = ui.compare.with(|pins| {
                    ui.pinned.with(|outs| {
                        let both: Vec<_> = pins.iter().zip(outs.iter()).collect();
                        ui.scenario.with(|s| render::compare(&both, (s, e, f.as_ref()), l))
                    })
                });
                h.push_str(&render::seed_table(e, l));
                h
            }
        })
    });
    let devices_html = Memo::new(move |_| {
        let l = lang.get();
        let _units = render::write_sizes_in(ui.units.get());
        // No table under an error: the scenario itself has no answer.
        if ui.result.with(|r| r.is_err()) {
            return String::new();
        }
        fits.with(|f| match f {
            Some(all) => {
                let selected = ui.scenario.with(|s| match &s.device {
                    Some(DeviceChoice::Catalog(id)) => Some(id.clone()),
                    _ => None,
                });
                let o = order.get();
                if o == fit::FitOrder::Fit {
                    filter.with(|k| render::devices(all, k, shown.get(), selected.as_deref(), o, l))
                } else {
                    let mut sorted = all.clone();
                    fit::sort_fits_by(&mut sorted, o);
                    filter.with(|k| render::devices(&sorted, k, shown.get(), selected.as_deref(), o, l))
                }
            }
            None => {
                let training = ui.scenario.with(|s| s.mode.is_training());
                filter.with(|k| render::devices_waiting(k, training, l))
            }
        })
    });
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
            "pin" => ui.compare.update(|c| {
                if c.len() < headroom_core::share::MAX_PINNED {
                    c.push(Pinned::new(c.len(), "", ui.scenario.get_untracked()));
                }
            }),
            "open" => {
                let at = arg.parse::<usize>().ok();
                if let Some(p) = at.and_then(|i| ui.compare.with_untracked(|c| c.get(i).cloned())) {
                    ui.scenario.set(p.scenario);
                }
            }
            "ask" => asked.set(Some((arg, ui.scenario.get_untracked()))),
            "unpin" => ui.compare.update(|c| match arg.parse::<usize>() {
                Ok(i) => headroom_core::share::unpin(c, i),
                Err(_) => c.clear(),
            }),
            "device" => ui.scenario.update(|s| s.device = Some(DeviceChoice::Catalog(arg))),
            "more" => shown.update(|n| *n += 24),
            "sort" => {
                if let Some(o) = fit::FitOrder::parse(&arg) {
                    order.set(o);
                }
            }
            "kind" => {
                let k = render::KINDS.iter().find(|(_, _, id)| *id == arg).and_then(|(k, _, _)| *k);
                filter.update(|f| f.kind = k);
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
    // The fields inside the cards (a pinned scenario's name, the minimum speed), read once left
    // (or on Enter).
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        let action = input.get_attribute("data-action").unwrap_or_default();
        if action == "min-speed" {
            let text = input.value();
            let l = lang.get_untracked();
            let read = if text.trim().is_empty() {
                None
            } else {
                Some(
                    headroom_core::number::parse_number(&text, l, headroom_core::number::Quantity::Tokens)
                        .map_err(|e| e.message(l)),
                )
            };
            filter.update(|f| {
                f.min_speed = read;
                f.min_speed_text = text;
            });
            shown.set(12);
            return;
        }
        if action != "rename" {
            return;
        }
        let Some(i) = input.get_attribute("data-arg").and_then(|a| a.parse::<usize>().ok()) else { return };
        let name = input.value();
        ui.compare.update(|c| {
            if i < c.len() {
                let p = Pinned::new(i, &name, c[i].scenario.clone());
                c[i].name = p.name;
            }
        });
    };
    view! {
        <div class="hr-results-body" class:hr-stale=move || !ui.pending.get().is_empty() on:click=on_click>
            <div class="hr-part" inner_html=error></div>
            <div class="hr-part" inner_html=stale></div>
            {parts.map(part_view)}
        </div>
        <div class="hr-chart-body" class:hr-updating=move || pending.get()
            aria-busy=move || pending.get().to_string() node_ref=morphed(chart_html) inner_html=chart_html.get_untracked()></div>
        <div class="hr-results-tail" on:click=on_click on:change=on_change
            node_ref=morphed(tail_html) inner_html=tail_html.get_untracked()></div>
        <div class="hr-devices-body" class:hr-updating=move || pending.get()
            aria-busy=move || pending.get().to_string()
            on:click=on_click on:change=on_change node_ref=morphed(devices_html) inner_html=devices_html.get_untracked()></div>
    }
}

/// The answer to reverse question `q` for scenario `s`, in `l`: what the core finds, each
/// proposed scenario as a link (the page's other settings kept).
fn ask(
    q: &str,
    s: &Scenario,
    min_speed: Option<f64>,
    ui: &crate::state::Ui,
    l: headroom_core::text::Lang,
) -> String {
    use render::Found;
    let href = |scenario: Scenario| {
        let mut link = ui.link_untracked();
        link.scenario = scenario;
        crate::link::href(&link)
    };
    let device = s.device.as_ref().and_then(|c| fit::device_of(c).ok());
    let run = || -> Result<String, headroom_core::Error> {
        if q == "cheapest" {
            let fits = fit::cheapest(s, min_speed, None)?;
            let list = fits
                .iter()
                .map(|f| {
                    let to = Scenario { device: Some(DeviceChoice::Catalog(f.device.into())), ..s.clone() };
                    (f, href(to))
                })
                .collect();
            return Ok(render::question_answer(&Found::Cheapest(list, min_speed), None, l));
        }
        let Some(d) = device.as_ref() else { return Ok(String::new()) };
        Ok(match q {
            "ctx" => {
                let c = fit::max_context(s, d)?;
                let apply = c.map(|c| href(Scenario { context: c, ..s.clone() }));
                render::question_answer(&Found::Context(c, d.name), apply.as_deref(), l)
            }
            "quant" => {
                let b = fit::best_quant(s, d)?;
                let apply = b.as_ref().map(|(f, _)| href(fit::with_format(s, *f)));
                render::question_answer(
                    &Found::Quant(b.as_ref().map(|(f, fit)| (*f, fit)), d.name),
                    apply.as_deref(),
                    l,
                )
            }
            "users" => {
                let b = fit::max_micro_batch(s, d)?;
                let apply = b.map(|b| href(Scenario { batch: b, ..s.clone() }));
                let found = Found::Users(b, s.context, d.name, s.mode.is_training());
                render::question_answer(&found, apply.as_deref(), l)
            }
            "models" => {
                let all = fit::models_for(d, s)?;
                let list = all
                    .iter()
                    .map(|m| {
                        let name = headroom_core::catalog::model(m.model).map_or(m.model, |e| e.name);
                        let to = fit::with_format(
                            &Scenario { model: ModelSource::Catalog(m.model.into()), ..s.clone() },
                            m.format,
                        );
                        (name, m.format, &m.fit, href(to))
                    })
                    .collect();
                let found = Found::Models(list, headroom_core::catalog::models().len(), d.name);
                render::question_answer(&found, None, l)
            }
            _ => String::new(),
        })
    };
    run().unwrap_or_else(|e| render::error(&e, l))
}
