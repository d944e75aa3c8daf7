//! The page's address is its state: read the whole link from `location.search` on load and write
//! it back with `history.replaceState` (never a new history entry per keystroke).

use headroom_core::share::{self, DecodedLink, Link};

/// The current page's link; defaults when there is no window.
pub fn read() -> DecodedLink {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    share::decode_link(&search)
}

/// The page's path with this link's query.
pub fn href(link: &Link) -> String {
    let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
    format!("{path}{}", share::encode_link(link))
}

/// The absolute address of this link (for copying and embedding).
pub fn absolute(link: &Link) -> String {
    let origin = web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
    format!("{origin}{}", href(link))
}

/// Replaces the current history entry's query, keeping the path so the page works under any
/// sub-path.
pub fn write(link: &Link) {
    let Some(window) = web_sys::window() else { return };
    let url = href(link);
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// How long the link waits for changes to pause before it is written.
const SETTLE_MS: u64 = 150;

thread_local! {
    /// The link waiting to be written, and the timer that will write it.
    static DUE: core::cell::RefCell<(Option<Link>, Option<leptos::prelude::TimeoutHandle>)> =
        const { core::cell::RefCell::new((None, None)) };
}

/// Writes `link` once changes pause for [`SETTLE_MS`] (a later call replaces it), or when the page
/// is hidden or left, whichever comes first; `<body data-hr-link-pending>` meanwhile.
pub fn write_soon(link: Link) {
    if !cfg!(target_arch = "wasm32") {
        return;
    }
    let first = DUE.with(|d| {
        let mut d = d.borrow_mut();
        if let Some(h) = d.1.take() {
            h.clear();
        }
        let first = d.0.is_none();
        d.0 = Some(link);
        d.1 = leptos::prelude::set_timeout_with_handle(flush, core::time::Duration::from_millis(SETTLE_MS))
            .ok();
        first
    });
    if first {
        set_pending(true);
    }
}

/// Writes the waiting link now, if any.
pub fn flush() {
    let due = DUE.with(|d| {
        let mut d = d.borrow_mut();
        if let Some(h) = d.1.take() {
            h.clear();
        }
        d.0.take()
    });
    if let Some(link) = due {
        write(&link);
        set_pending(false);
    }
}

/// Flushes the waiting link when the page is hidden or left (a reload, a closed tab).
pub fn flush_on_leave() {
    let Some(window) = web_sys::window() else { return };
    let on_leave = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(flush);
    for event in ["pagehide", "visibilitychange"] {
        let _ = window
            .add_event_listener_with_callback(event, wasm_bindgen::JsCast::unchecked_ref(on_leave.as_ref()));
    }
    // The listener lives as long as the page.
    on_leave.forget();
}

fn set_pending(on: bool) {
    if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
        let _ = if on {
            body.set_attribute("data-hr-link-pending", "")
        } else {
            body.remove_attribute("data-hr-link-pending")
        };
    }
}
