//! Headroom's web calculator. The page renders what `headroom-core` computes; it never estimates.
//!
//! One `RwSignal<Scenario>` is the source of truth; a `Memo` calls the core; an effect writes the
//! scenario into the link. Inputs keep their raw text so half-typed values are not clobbered.

mod link;

use headroom_core::estimate::TermKind;
use headroom_core::precision::{ALL_FORMATS, WeightFormat};
use headroom_core::scenario::{ModelSource, Scenario, format_params, parse_params};
use headroom_core::share;
use headroom_core::text::{Lang, format_int, format_size};
use leptos::prelude::*;

/// The calculator.
#[component]
pub fn App() -> impl IntoView {
    let decoded = link::read();
    let scenario = RwSignal::new(decoded.scenario);
    let ignored = decoded.ignored;
    let estimate = Memo::new(move |_| headroom_core::estimate(&scenario.get()));

    Effect::new(move |_| link::write(&share::encode(&scenario.get())));

    let initial_params = match scenario.get_untracked().model {
        ModelSource::Params(p) => format_params(p),
        _ => String::new(),
    };
    let params_text = RwSignal::new(initial_params);
    let params_error = RwSignal::new(None::<String>);

    let on_params = move |ev| {
        let text = event_target_value(&ev);
        params_text.set(text.clone());
        match parse_params(&text) {
            Ok(p) => {
                params_error.set(None);
                scenario.update(|s| s.model = ModelSource::Params(p));
            }
            Err(e) => params_error.set(Some(e.to_string())),
        }
    };
    let on_weights = move |ev| {
        if let Ok(w) = WeightFormat::parse(&event_target_value(&ev)) {
            scenario.update(|s| s.weights = Some(w));
        }
    };
    let selected = move || estimate.with(|e| e.as_ref().ok().map(|e| e.format));

    view! {
        <main class="hr-app">
            <header class="hr-header">
                <h1>"Headroom"</h1>
                <p class="hr-tagline">"How much memory a language model needs, before you buy or rent."</p>
            </header>
            {(!ignored.is_empty()).then(|| view! {
                <div class="hr-notice" role="status">
                    "Some settings in this link were ignored: "
                    {ignored.iter().map(|i| format!("{} ({})", i.key, i.reason)).collect::<Vec<_>>().join("; ")}
                </div>
            })}
            <section class="hr-inputs" aria-label="Inputs">
                <label class="hr-field">
                    <span>"Parameters"</span>
                    <input
                        id="hr-params"
                        type="text"
                        inputmode="decimal"
                        prop:value=move || params_text.get()
                        on:input=on_params
                        aria-invalid=move || params_error.get().is_some().to_string()
                        aria-describedby="hr-params-error"
                    />
                    <small id="hr-params-error" class="hr-error">{move || params_error.get()}</small>
                </label>
                <label class="hr-field">
                    <span>"Weight precision"</span>
                    <select id="hr-weights" on:change=on_weights>
                        {ALL_FORMATS.iter().map(|f| {
                            let f = *f;
                            view! { <option value=f.id() selected=move || selected() == Some(f)>{f.label()}</option> }
                        }).collect::<Vec<_>>()}
                    </select>
                </label>
            </section>
            <section class="hr-results" aria-live="polite">
                {move || match estimate.get() {
                    Ok(e) => {
                        let weights = e.memory.get(TermKind::Weights);
                        view! {
                            <div class="hr-figure">
                                <span class="hr-figure-label">"Weights"</span>
                                <output id="hr-weights-bytes" data-bytes=weights.get().to_string()>
                                    {format_size(weights, Lang::En)}
                                </output>
                                <span class="hr-figure-detail">{format_int(weights.get(), Lang::En)} " bytes"</span>
                            </div>
                        }.into_any()
                    }
                    Err(err) => view! { <p class="hr-error" role="alert">{err.to_string()}</p> }.into_any(),
                }}
            </section>
        </main>
    }
}

/// The scenario the page starts from when the link says nothing.
pub fn default_scenario() -> Scenario {
    Scenario::default()
}
