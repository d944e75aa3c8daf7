//! "Detect my device": what the browser tells of this machine — WebGPU's adapter information
//! (vendor and architecture, never the exact card or its memory), `navigator.deviceMemory`
//! (RAM in GB, rounded and capped at 8 by browsers) and the CPU's thread count — turned into
//! catalog devices that match, with how sure that is. Nothing leaves the page.

use headroom_core::catalog;
use headroom_core::text::Lang;
use wasm_bindgen::{JsCast, JsValue};

use crate::i18n::{T, tr};

/// What the browser said, and the catalog devices it points to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Detected {
    /// WebGPU's adapter vendor and architecture (lowercase, as browsers report them).
    pub vendor: Option<String>,
    /// The adapter's architecture (`ada`, `ampere`, `rdna-3`, `metal-3`…), when given.
    pub architecture: Option<String>,
    /// `navigator.deviceMemory`: GB of RAM, at least this much (browsers cap it at 8).
    pub memory_gb: Option<f64>,
    /// CPU threads.
    pub threads: Option<u32>,
    /// Catalog devices matching the vendor and architecture: `(id, name)`.
    pub candidates: Vec<(&'static str, &'static str)>,
}

impl Detected {
    /// One sentence on what was found and how sure it is.
    pub fn describe(&self, l: Lang) -> String {
        let mut parts = Vec::new();
        match (&self.vendor, &self.architecture) {
            (Some(v), Some(a)) if !a.is_empty() => {
                parts.push(tr(l, T::DetectGpu).replace("{0}", &format!("{v} {a}")))
            }
            (Some(v), _) if !v.is_empty() => parts.push(tr(l, T::DetectGpu).replace("{0}", v)),
            _ => parts.push(tr(l, T::DetectNoGpu).to_string()),
        }
        if let Some(m) = self.memory_gb {
            parts.push(tr(l, T::DetectRam).replace("{0}", &headroom_core::text::format_num(m, 0, l)));
        }
        if let Some(t) = self.threads {
            parts.push(tr(l, T::DetectThreads).replace("{0}", &t.to_string()));
        }
        parts.push(
            tr(l, if self.candidates.is_empty() { T::DetectUnsure } else { T::DetectPick }).to_string(),
        );
        parts.join(" ")
    }
}

fn get(target: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(target, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

/// Asks the browser (WebGPU's adapter, `deviceMemory`, `hardwareConcurrency`).
pub async fn detect() -> Detected {
    let mut d = Detected::default();
    let Some(window) = web_sys::window() else { return d };
    let nav: JsValue = window.navigator().into();
    d.memory_gb = get(&nav, "deviceMemory").and_then(|v| v.as_f64());
    d.threads = get(&nav, "hardwareConcurrency").and_then(|v| v.as_f64()).map(|t| t as u32);
    if let Some(gpu) = get(&nav, "gpu")
        && let Some(request) = get(&gpu, "requestAdapter").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        && let Ok(promise) = request.call0(&gpu).and_then(|p| p.dyn_into::<js_sys::Promise>())
        && let Ok(adapter) = wasm_bindgen_futures::JsFuture::from(promise).await
        && let Some(info) = get(&adapter, "info")
    {
        d.vendor = get(&info, "vendor").and_then(|v| v.as_string()).filter(|s| !s.is_empty());
        d.architecture = get(&info, "architecture").and_then(|v| v.as_string());
    }
    if let Some(v) = &d.vendor {
        d.candidates = catalog::devices_of_family(v, d.architecture.as_deref().unwrap_or(""))
            .into_iter()
            .map(|d| (d.id, d.name))
            .collect();
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_was_found_is_said_with_how_sure() {
        let none = Detected { memory_gb: Some(8.0), threads: Some(16), ..Detected::default() };
        let s = none.describe(Lang::En);
        assert!(s.contains("does not expose") && s.contains("8 GB") && s.contains("16"), "{s}");
    }
}
