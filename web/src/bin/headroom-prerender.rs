//! Writes the page's first view into a built `index.html` (Trunk's post-build hook runs it on
//! the staged file): the frame and the default scenario's answer, in English and French, rendered
//! by the same components and core as the WASM, so the page is readable before the WASM runs and
//! the WASM takes over without a change on screen.
//!
//! Usage: `headroom-prerender path/to/index.html`

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use std::process::ExitCode;
    let code = match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("headroom-prerender: {e}");
            ExitCode::FAILURE
        }
    };
    std::process::exit(if code == ExitCode::SUCCESS { 0 } else { 1 });
}

#[cfg(not(target_arch = "wasm32"))]
fn run() -> Result<(), String> {
    let path = std::env::args().nth(1).ok_or("usage: headroom-prerender path/to/index.html")?;
    let page = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let html = headroom_web::prerender_page(&page)?;
    std::fs::write(&path, html).map_err(|e| format!("{path}: {e}"))
}
