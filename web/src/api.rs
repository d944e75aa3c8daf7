//! A small JavaScript API for documentation pages: compute the figures of a Headroom link
//! without the user interface.
//!
//! ```js
//! import init, { estimate } from "https://example.org/headroom/headroom-web.js";
//! await init();
//! const r = estimate("?model=llama-3.1-8b&weights=q4_k_m&ctx=32768&device=rtx-4090");
//! r.memory.total;          // bytes per device
//! r.fit.verdict;           // "fits"
//! ```

use headroom_core::estimate::MemoryKeys;
use headroom_core::fit;
use headroom_core::share;
use headroom_core::text::Lang;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct ApiFit {
    device: &'static str,
    name: &'static str,
    verdict: &'static str,
    capacity: u64,
    headroom: f64,
    decode_tokens_per_s: f64,
    prefill_tokens_per_s: f64,
    ttft_s: f64,
}

#[derive(Serialize)]
struct ApiResult {
    model: String,
    params_total: u64,
    params_active: u64,
    format: String,
    runtime: &'static str,
    memory: MemoryKeys,
    host_total: u64,
    disk: u64,
    trainable_params: u64,
    link: String,
    ignored: Vec<String>,
    fit: Option<ApiFit>,
    explanation: Vec<String>,
}

/// Computes a link's figures: sizes in bytes, the fit when the link names a device.
///
/// # Errors
/// A JavaScript `Error` with the core's message when the scenario cannot be computed.
#[wasm_bindgen(js_name = estimate)]
pub fn estimate_js(query: &str) -> Result<JsValue, JsError> {
    let d = share::decode_link(query);
    if let Some(r) = &d.link.hf {
        // Reading a repository takes network requests; this function answers at once.
        return Err(JsError::new(&format!(
            "this link reads {} from Hugging Face, which only the page does; use a catalog model, `params`, or open the page",
            r.repo
        )));
    }
    let (e, f) = fit::estimate_with_device(&d.link.scenario).map_err(|e| JsError::new(&e.to_string()))?;
    let m = &e.memory;
    let lang = d.link.lang.unwrap_or(Lang::En);
    let r = ApiResult {
        model: e.model.name.clone(),
        params_total: e.model.params_total.get(),
        params_active: e.model.params_active.get(),
        format: e.format.id(),
        runtime: e.runtime.id(),
        memory: MemoryKeys::of(m),
        host_total: e.host.total.get(),
        disk: e.disk.weights.get(),
        trainable_params: e.trainable_params,
        link: share::encode_link(&d.link),
        ignored: d.ignored.iter().map(|i| format!("{}: {}", i.key, i.reason)).collect(),
        fit: f.map(|f| {
            let s = f.speed.clone().unwrap_or_else(headroom_core::speed::Speed::none);
            ApiFit {
                device: f.device,
                name: f.name,
                verdict: f.verdict.id(),
                capacity: f.capacity.get(),
                headroom: f.headroom,
                decode_tokens_per_s: s.decode_tokens_per_s,
                prefill_tokens_per_s: s.prefill_tokens_per_s,
                ttft_s: if s.ttft_s.is_finite() { s.ttft_s } else { 0.0 },
            }
        }),
        explanation: m.terms.iter().map(|t| t.formula.render(lang)).collect(),
    };
    serde_wasm_bindgen::to_value(&r).map_err(|e| JsError::new(&e.to_string()))
}
