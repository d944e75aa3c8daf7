//! The page's state: one scenario signal as the source of truth, the pinned comparison, the
//! language and theme, and the derived estimate (computed by the core, never here).

use headroom_core::fit;

use crate::render::Outcome;
use headroom_core::import::hub::{DEFAULT_HUB, HubRef};
use headroom_core::scenario::Scenario;
use headroom_core::share::{Ignored, Link, Pinned, Theme};
use headroom_core::text::{Lang, Units};
use leptos::prelude::*;

/// Everything the components share, all `Copy` handles.
#[derive(Clone, Copy)]
pub struct Ui {
    /// The scenario being looked at.
    pub scenario: RwSignal<Scenario>,
    /// The scenarios pinned for comparison, with their names.
    pub compare: RwSignal<Vec<Pinned>>,
    /// How sizes are written.
    pub units: RwSignal<Units>,
    /// The language.
    pub lang: RwSignal<Lang>,
    /// Whether the language was chosen (by the link or the switch) rather than taken from the
    /// browser: only a chosen one travels in the link.
    pub lang_chosen: RwSignal<bool>,
    /// The chosen theme (`None`: the system's).
    pub theme: RwSignal<Option<Theme>>,
    /// The compact view for iframes.
    pub embed: bool,
    /// The Hugging Face model being shown, when it came from the Hub (it travels in the link).
    pub hf: RwSignal<Option<HubRef>>,
    /// The hub the link named, when not the public one.
    pub hub: StoredValue<Option<String>>,
    /// What the link said that could not be used.
    pub ignored: RwSignal<Vec<Ignored>>,
    /// The estimate and, with a device, its fit.
    pub result: Memo<Outcome>,
    /// Each pinned scenario's estimate and fit, in order.
    pub pinned: Memo<Vec<Outcome>>,
    /// Fields whose text is not a valid value: the figures shown are for their last valid one.
    pub pending: RwSignal<Vec<&'static str>>,
}

/// The browser's preferred language, when it is one the page speaks.
pub fn browser_lang() -> Option<Lang> {
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    let nav = web_sys::window()?.navigator();
    nav.language().and_then(|l| Lang::from_tag(&l))
}

impl Ui {
    /// State from a decoded link; `fallback` is the language when the link names none.
    pub fn new(link: Link, ignored: Vec<Ignored>, fallback: Option<Lang>) -> Ui {
        let scenario = RwSignal::new(link.scenario);
        let compare = RwSignal::new(link.compare);
        let lang = RwSignal::new(link.lang.or(fallback).unwrap_or(Lang::En));
        let lang_chosen = RwSignal::new(link.lang.is_some());
        let result = Memo::new(move |_| scenario.with(fit::estimate_with_device));
        let pinned = Memo::new(move |_| {
            compare.with(|c| c.iter().map(|p| fit::estimate_with_device(&p.scenario)).collect())
        });
        Ui {
            scenario,
            compare,
            units: RwSignal::new(link.units),
            lang,
            lang_chosen,
            theme: RwSignal::new(link.theme),
            embed: link.embed,
            hf: RwSignal::new(link.hf),
            hub: StoredValue::new(link.hub),
            ignored: RwSignal::new(ignored),
            result,
            pinned,
            pending: RwSignal::new(Vec::new()),
        }
    }

    /// The hub to read models from.
    /// Marks field `id` as holding an invalid text (`true`) or a valid one.
    pub fn set_pending(&self, id: &'static str, invalid: bool) {
        self.pending.update(|p| {
            let at = p.iter().position(|x| *x == id);
            match (invalid, at) {
                (true, None) => p.push(id),
                (false, Some(i)) => {
                    p.remove(i);
                }
                _ => {}
            }
        });
    }

    pub fn hub_base(&self) -> String {
        self.hub.get_value().unwrap_or_else(|| DEFAULT_HUB.into())
    }

    /// The link of the current state, without subscribing to it.
    pub fn link_untracked(&self) -> Link {
        untrack(|| self.link())
    }

    /// The link of the current state.
    pub fn link(&self) -> Link {
        Link {
            scenario: self.scenario.get(),
            compare: self.compare.get(),
            lang: self.lang_chosen.get().then(|| self.lang.get()),
            theme: self.theme.get(),
            embed: self.embed,
            hf: self.hf.get(),
            hub: self.hub.get_value(),
            units: self.units.get(),
        }
    }
}

/// The shared state (provided by `App`).
pub fn ui() -> Ui {
    expect_context::<Ui>()
}
