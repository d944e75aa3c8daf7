//! The page's address is its state: read the scenario from `location.search` on load and write
//! it back with `history.replaceState` (never a new history entry per keystroke).

use headroom_core::share::{self, Decoded};

/// Decodes the current page's query; an empty scenario when there is no window.
pub fn read() -> Decoded {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    share::decode(&search)
}

/// Replaces the current history entry's query with `query` (which starts with `?`), keeping the
/// path so the page works under any sub-path.
pub fn write(query: &str) {
    let Some(window) = web_sys::window() else { return };
    let Ok(path) = window.location().pathname() else { return };
    if let Ok(history) = window.history() {
        let url = format!("{path}{query}");
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}
