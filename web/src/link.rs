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
