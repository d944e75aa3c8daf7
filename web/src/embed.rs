//! The compact view for iframes (`?embed=1`): the headline figures, the breakdown bar and the
//! verdict, with a link to the full calculator. It reports its height to the host page.

use leptos::prelude::*;

use crate::i18n::{T, tr};
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
    let html = move || {
        let l = lang.get();
        let _units = crate::render::write_sizes_in(ui.units.get());
        ui.result.with(|r| match r {
            Err(e) => crate::render::error(e, l),
            Ok((e, f)) => ui.scenario.with(|s| crate::render::embed(e, f.as_ref(), s, l)),
        })
    };
    view! {
        <main class="hr-app hr-embed">
            <div inner_html=html></div>
            <a class="hr-open" href=full target="_blank" rel="noopener">{move || tr(lang.get(), T::OpenFull)}" ↗"</a>
        </main>
    }
}
