//! Small form controls that keep their raw text, so a half-typed value is never clobbered, and
//! say what is wrong beside themselves.

use headroom_core::number::{Quantity, parse_number};
use headroom_core::text::format_int;
use leptos::prelude::*;

/// A whole-number field with an optional slider (logarithmic for contexts).
///
/// * `id`: the input's id (the label points at it).
/// * `label`: the label text.
/// * `value`: the current value.
/// * `set`: called with every valid value typed or slid.
/// * `min`, `max`: the accepted range.
/// * `log_slider`: show a slider on a log₂ scale (contexts, batch sizes).
#[component]
pub fn CountField(
    /// The input's id.
    id: &'static str,
    /// The label text.
    #[prop(into)]
    label: Signal<&'static str>,
    /// The current value.
    #[prop(into)]
    value: Signal<u64>,
    /// Called with every valid value.
    set: Callback<u64>,
    /// Smallest accepted value.
    min: u64,
    /// Largest accepted value.
    max: u64,
    /// Show a slider on a log₂ scale.
    #[prop(optional)]
    log_slider: bool,
) -> impl IntoView {
    let ui = crate::state::ui();
    let lang = ui.lang;
    let text = RwSignal::new(value.get_untracked().to_string());
    let error = RwSignal::new(None::<String>);
    let read = move |t: &str| parse_number(t, lang.get_untracked(), Quantity::Tokens);
    // Follow outside changes (slider, link) unless the text already says the same number.
    Effect::new(move |_| {
        let v = value.get();
        if read(&text.get_untracked()) != Ok(v) {
            text.set(v.to_string());
            error.set(None);
            ui.set_pending(id, false);
        }
    });
    let on_input = move |ev| {
        let t = event_target_value(&ev);
        text.set(t.clone());
        let l = lang.get_untracked();
        match read(&t) {
            Ok(v) if (min..=max).contains(&v) => {
                error.set(None);
                ui.set_pending(id, false);
                set.run(v);
            }
            Ok(_) => {
                error.set(Some(format!("{} – {}", format_int(min, l), format_int(max, l))));
                ui.set_pending(id, true);
            }
            Err(e) => {
                error.set(Some(e.message(l)));
                ui.set_pending(id, true);
            }
        }
    };
    let slider_max = log2(max) * 100;
    let slider_min = log2(min.max(1)) * 100;
    let error_id = format!("{id}-error");
    let error_id2 = error_id.clone();
    view! {
        <div class="hr-field">
            <label for=id>{move || label.get()}</label>
            <div class="hr-field-row">
                {log_slider.then(|| view! {
                    <input type="range" class="hr-slider" min=slider_min max=slider_max step="1"
                        aria-label=move || label.get()
                        value=(log2f(value.get_untracked()) * 100.0) as u64
                        prop:value=move || (log2f(value.get()) * 100.0) as u64
                        on:input=move |ev| {
                            if let Ok(x) = event_target_value(&ev).parse::<f64>() {
                                let v = headroom_core::ops::round(headroom_core::ops::powf(2.0, x / 100.0)) as u64;
                                set.run(v.clamp(min, max));
                            }
                        }/>
                })}
                <input type="text" inputmode="numeric" id=id class="hr-number"
                    value=text.get_untracked()
                    prop:value=move || text.get()
                    aria-invalid=move || error.get().is_some().to_string()
                    aria-describedby=error_id
                    on:input=on_input/>
            </div>
            <small id=error_id2 class="hr-error">{move || error.get()}</small>
        </div>
    }
}

fn log2(n: u64) -> u64 {
    63 - u64::from(n.max(1).leading_zeros())
}

fn log2f(n: u64) -> f64 {
    headroom_core::ops::log2(n.max(1) as f64)
}

/// A select of `(id, label)` options.
#[component]
pub fn Choice(
    /// The select's id.
    id: &'static str,
    /// The label text.
    #[prop(into)]
    label: Signal<&'static str>,
    /// The options, as `(value, label)`.
    #[prop(into)]
    options: Signal<Vec<(String, String)>>,
    /// The selected value.
    #[prop(into)]
    selected: Signal<String>,
    /// Called with the chosen value.
    set: Callback<String>,
    /// What the choice changes, in a sentence, shown under it.
    #[prop(optional)]
    help: Option<crate::i18n::T>,
) -> impl IntoView {
    // Memos: the options are rebuilt when they or the choice change, not on every change of the
    // scenario they are derived from.
    let options = Memo::new(move |_| options.get());
    let selected = Memo::new(move |_| selected.get());
    let lang = crate::state::ui().lang;
    let help_id = help.map(|_| format!("{id}-help"));
    view! {
        <div class="hr-field">
            <label for=id>{move || label.get()}</label>
            <select id=id aria-describedby=help_id.clone() on:change=move |ev| set.run(event_target_value(&ev))>
                {move || {
                    let sel = selected.get();
                    options.get().into_iter().map(|(v, l)| {
                        let is = v == sel;
                        view! { <option value=v selected=is>{l}</option> }
                    }).collect_view()
                }}
            </select>
            {help.map(|h| view! {
                <small class="hr-hint" id=help_id.clone()>{move || crate::i18n::tr(lang.get(), h)}</small>
            })}
        </div>
    }
}

/// A checkbox.
#[component]
pub fn Toggle(
    /// The input's id.
    id: &'static str,
    /// The label text.
    #[prop(into)]
    label: Signal<&'static str>,
    /// Whether it is checked.
    #[prop(into)]
    checked: Signal<bool>,
    /// Called with the new state.
    set: Callback<bool>,
) -> impl IntoView {
    view! {
        <div class="hr-field hr-check">
            <input type="checkbox" id=id checked=checked.get_untracked() prop:checked=move || checked.get()
                on:change=move |ev| set.run(event_target_checked(&ev))/>
            <label for=id>{move || label.get()}</label>
        </div>
    }
}

/// A free-text field read by `apply`, which takes the text (empty: back to the default) and
/// returns what is wrong with it, shown beside the field; the result is marked stale meanwhile.
#[component]
pub fn TextField(
    /// The input's id.
    id: &'static str,
    /// The label text.
    #[prop(into)]
    label: Signal<&'static str>,
    /// The current value, as text.
    #[prop(into)]
    value: Signal<String>,
    /// Reads and applies the text; `Some(message)` when it cannot.
    apply: Callback<String, Option<String>>,
    /// Shown while empty.
    placeholder: &'static str,
) -> impl IntoView {
    let ui = crate::state::ui();
    let text = RwSignal::new(value.get_untracked());
    let error = RwSignal::new(None::<String>);
    // Follow outside changes (a link, a pasted command) unless an error is being shown.
    Effect::new(move |_| {
        let v = value.get();
        if error.get_untracked().is_none() {
            text.set(v);
        }
    });
    let on_input = move |ev| {
        let t = event_target_value(&ev);
        text.set(t.clone());
        let e = apply.run(t);
        ui.set_pending(id, e.is_some());
        error.set(e);
    };
    let error_id = format!("{id}-error");
    let error_id2 = error_id.clone();
    view! {
        <div class="hr-field">
            <label for=id>{move || label.get()}</label>
            <input type="text" id=id class="hr-text" placeholder=placeholder spellcheck="false"
                value=text.get_untracked()
                prop:value=move || text.get()
                aria-invalid=move || error.get().is_some().to_string()
                aria-describedby=error_id
                on:input=on_input/>
            <small id=error_id2 class="hr-error">{move || error.get()}</small>
        </div>
    }
}

/// The ARIA tabs pattern's keys on a tablist: the arrows move to the previous or next tab
/// (wrapping), Home and End to the first and last; the tab reached is focused and chosen (tabs
/// here activate on focus, as their panels are instant).
pub fn tab_keys(ev: leptos::ev::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let key = ev.key();
    if !matches!(key.as_str(), "ArrowRight" | "ArrowLeft" | "ArrowDown" | "ArrowUp" | "Home" | "End") {
        return;
    }
    let Some(list) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let mut tabs = Vec::new();
    let mut next = list.first_element_child();
    while let Some(el) = next {
        next = el.next_element_sibling();
        if el.get_attribute("role").as_deref() == Some("tab") {
            tabs.push(el);
        }
    }
    let Some(from) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let Some(at) = tabs.iter().position(|t| *t == from) else { return };
    let n = tabs.len();
    let to = match key.as_str() {
        "ArrowRight" | "ArrowDown" => (at + 1) % n,
        "ArrowLeft" | "ArrowUp" => (at + n - 1) % n,
        "Home" => 0,
        _ => n - 1,
    };
    ev.prevent_default();
    if let Ok(tab) = tabs[to].clone().dyn_into::<web_sys::HtmlElement>() {
        let _ = tab.focus();
        tab.click();
    }
}
