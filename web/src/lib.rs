//! Headroom's web calculator. The page renders what `headroom-core` computes; it never estimates.
//!
//! One `RwSignal<Scenario>` is the source of truth; a `Memo` calls the core; an effect writes the
//! whole state into the link with `history.replaceState`. Inputs keep their raw text so
//! half-typed values are not clobbered. `?embed=1` renders a compact view for iframes.

// The type-erased page is a deep type; rendering it to HTML at build time needs the room.
#![recursion_limit = "512"]

mod api;
mod byom;
mod detect;
mod embed;
mod fields;
mod i18n;
mod import;
mod inputs;
mod link;
pub mod morph;
#[cfg(not(target_arch = "wasm32"))]
mod prerender;
mod render;
mod results;
mod state;

use headroom_core::share::Theme;
use headroom_core::text::Lang;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use i18n::{T, tr};
use state::Ui;

pub use api::estimate_js;

/// Whether this document is the calculator's own page (its `<body>` carries
/// `data-headroom-app`). A documentation page that imports the module for its JavaScript API
/// gets no user interface.
pub fn is_app_page() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
        .is_some_and(|b| b.has_attribute("data-headroom-app"))
}

/// Removes the first view the build wrote into the page (`data-hr-prerender`), before the live
/// page is mounted in its place.
pub fn drop_first_view() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    while let Ok(Some(el)) = doc.query_selector("[data-hr-prerender]") {
        el.remove();
    }
}

/// Says on `<body>` (`data-hr-live`) that the live page is mounted: scripts and tests that drive
/// the page wait for it (the build-time first view looks the same but does nothing).
pub fn mark_live() {
    mark("headroom-live");
    if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
        let _ = body.set_attribute("data-hr-live", "");
    }
}

/// Writes a link still waiting for changes to pause when the page is hidden or left.
pub fn flush_link_on_leave() {
    link::flush_on_leave();
}

/// The calculator.
#[component]
pub fn App() -> impl IntoView {
    app(link::read(), state::browser_lang())
}

/// The calculator for a decoded link, in `fallback` when the link names no language.
fn app(decoded: headroom_core::share::DecodedLink, fallback: Option<Lang>) -> impl IntoView + use<> {
    let ui = Ui::new(decoded.link, decoded.ignored, fallback);
    provide_context(ui);

    // The link follows the page off the input path: written once changes pause (and at once when
    // the page is left), while `data-hr-link-pending` on <body> says a write is due.
    Effect::new(move |_| link::write_soon(ui.link()));
    Effect::new(move |_| apply_theme(ui.theme.get()));
    Effect::new(move |_| set_document_lang(ui.lang.get()));
    // Marks the first result once it is painted (the frame after it enters the document), for
    // the time-to-first-result measurement; the figure also carries `elementtiming`.
    Effect::new(move |prev: Option<()>| {
        if prev.is_none() && ui.result.with(|r| r.is_ok()) {
            request_animation_frame(|| {
                set_timeout(|| mark("headroom-first-result"), std::time::Duration::ZERO);
            });
        }
    });

    if ui.embed { view! { <embed::EmbedView/> }.into_any() } else { view! { <Page/> }.into_any() }
}

#[cfg(not(target_arch = "wasm32"))]
pub use prerender::prerender_page;

fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

fn apply_theme(theme: Option<Theme>) {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else {
        return;
    };
    match theme {
        Some(t) => {
            let _ = root.set_attribute("data-hr-theme", t.id());
        }
        None => {
            let _ = root.remove_attribute("data-hr-theme");
        }
    }
}

fn set_document_lang(lang: Lang) {
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.set_attribute("lang", lang.code());
    }
}

/// The full page: header, inputs, results.
#[component]
fn Page() -> impl IntoView {
    let ui = state::ui();
    let lang = ui.lang;
    view! {
        <main class="hr-app">
            <Header/>
            <results::Notices/>
            <results::Answer/>
            <inputs::Goals/>
            <div class="hr-layout">
                <aside class="hr-inputs" aria-label=move || tr(lang.get(), T::Model)>
                    <inputs::ModelInput/>
                    <inputs::ModeTabs/>
                    <inputs::WorkloadInputs/>
                    <inputs::HardwareInputs/>
                    <inputs::CostInputs/>
                </aside>
                <section class="hr-results" aria-live="polite">
                    <results::Results/>
                </section>
            </div>
            <footer class="hr-footer">
                <p>{move || tr(lang.get(), T::Footer)}</p>
            </footer>
        </main>
    }
}

/// Title, language and theme switches, link and embed buttons.
#[component]
fn Header() -> impl IntoView {
    let ui = state::ui();
    let lang = ui.lang;
    let copied = RwSignal::new(false);
    let show_embed = RwSignal::new(false);
    let copy = move |_| {
        let url = link::absolute(&ui.link());
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(&url);
        }
        copied.set(true);
    };
    let toggle_lang = move |_| {
        ui.lang.update(|l| *l = if *l == Lang::En { Lang::Fr } else { Lang::En });
        ui.lang_chosen.set(true);
    };
    let toggle_theme = move |_| {
        let dark_now = match ui.theme.get() {
            Some(t) => t == Theme::Dark,
            None => prefers_dark(),
        };
        ui.theme.set(Some(if dark_now { Theme::Light } else { Theme::Dark }));
    };
    let snippet = move || {
        let mut l = ui.link();
        l.embed = true;
        let src = link::absolute(&l);
        let base = src.split('?').next().unwrap_or("").trim_end_matches("index.html").to_string();
        format!(
            "<iframe class=\"headroom-embed\" src=\"{src}\" width=\"100%\" height=\"420\" style=\"border:0\" title=\"Headroom\"></iframe>\n<script src=\"{base}embed.js\" defer></script>"
        )
    };
    view! {
        <header class="hr-header">
            <div class="hr-brand">
                <h1>"Headroom"</h1>
                <p class="hr-tagline">{move || tr(lang.get(), T::Tagline)}</p>
            </div>
            <nav class="hr-actions">
                <button type="button" id="hr-lang" on:click=toggle_lang
                    aria-label=move || tr(lang.get(), T::Language)>
                    {move || if lang.get() == Lang::En { "FR" } else { "EN" }}
                </button>
                <select id="hr-units" aria-label=move || tr(lang.get(), T::SizeUnits)
                    on:change=move |ev| {
                        if let Some(u) = headroom_core::text::Units::parse(&event_target_value(&ev)) {
                            ui.units.set(u);
                        }
                    }>
                    {headroom_core::text::Units::ALL.into_iter().map(|u| view! {
                        <option value=u.id() selected=move || ui.units.get() == u>
                            {move || tr(lang.get(), match u {
                                headroom_core::text::Units::Both => T::UnitsBoth,
                                headroom_core::text::Units::Decimal => T::UnitsGb,
                                headroom_core::text::Units::Binary => T::UnitsGib,
                            })}
                        </option>
                    }).collect_view()}
                </select>
                <button type="button" id="hr-theme" on:click=toggle_theme>
                    {move || tr(lang.get(), T::Theme)}
                </button>
                <button type="button" id="hr-copy" on:click=copy>
                    {move || tr(lang.get(), if copied.get() { T::Copied } else { T::CopyLink })}
                </button>
                <button type="button" id="hr-embed-button" aria-expanded=move || show_embed.get().to_string()
                    on:click=move |_| show_embed.update(|v| *v = !*v)>
                    {move || tr(lang.get(), T::Embed)}
                </button>
            </nav>
            {move || show_embed.get().then(|| view! {
                <div class="hr-embed-snippet">
                    <label for="hr-embed-code">{tr(lang.get(), T::EmbedHelp)}</label>
                    <textarea id="hr-embed-code" readonly rows="4">{snippet()}</textarea>
                </div>
            })}
        </header>
    }
}

fn prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Height reporting for iframes: posts `{type: "headroom:height", height}` to the parent
/// whenever the page's height changes (see `web/embed.js`).
pub fn report_height() {
    let Some(window) = web_sys::window() else { return };
    let Some(body) = window.document().and_then(|d| d.body()) else { return };
    // The content's height (the body's box), not the viewport's: a frame taller than its
    // content shrinks to it as well as a shorter one grows.
    let height = body.offset_height();
    // At the top level the parent is the window itself, and the message goes nowhere.
    if let Ok(Some(parent)) = window.parent() {
        let msg = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&msg, &"type".into(), &"headroom:height".into());
        let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
        let _ = parent.post_message(&msg, "*");
    }
}

/// Keeps the parent informed of the page's height as it changes.
pub fn observe_height() {
    let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) else { return };
    let callback = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(report_height);
    if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        observer.observe(&body);
        // The observer lives as long as the page.
        std::mem::forget(observer);
    }
    callback.forget();
    report_height();
}
