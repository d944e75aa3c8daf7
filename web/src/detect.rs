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

/// Catalog devices a WebGPU vendor and architecture point to: the architecture's generation
/// of the vendor's cards (a family, never one card: the browser does not say which).
pub fn candidates(vendor: &str, architecture: &str) -> Vec<(&'static str, &'static str)> {
    let v = vendor.to_ascii_lowercase();
    let a = architecture.to_ascii_lowercase();
    // Compute capabilities (NVIDIA) or name words (others) of each architecture's cards.
    let nvidia: Option<&[u16]> = match a.as_str() {
        x if x.contains("blackwell") => Some(&[100, 120]),
        x if x.contains("hopper") => Some(&[90]),
        x if x.contains("lovelace") || x.contains("ada") => Some(&[89]),
        x if x.contains("ampere") => Some(&[80, 86]),
        x if x.contains("turing") => Some(&[75]),
        x if x.contains("volta") => Some(&[70]),
        _ => None,
    };
    let words: &[&str] = if v.contains("apple") {
        &["apple"]
    } else if v.contains("amd") || v.contains("ati") {
        match a.as_str() {
            x if x.contains("rdna-3") || x.contains("rdna3") => &["rx 7"],
            x if x.contains("rdna-4") || x.contains("rdna4") => &["rx 9"],
            x if x.contains("rdna-2") || x.contains("rdna2") => &["rx 6"],
            x if x.contains("cdna") => &["instinct"],
            _ => &["amd"],
        }
    } else if v.contains("intel") {
        &["intel"]
    } else {
        &[]
    };
    catalog::devices()
        .iter()
        .filter(|d| d.kind != catalog::device::DeviceKind::Cloud && d.count <= 1)
        .filter(|d| {
            if v.contains("nvidia") {
                d.vendor == "NVIDIA" && nvidia.is_some_and(|cc| cc.contains(&d.compute_capability))
            } else if words.is_empty() {
                false
            } else {
                let name = d.name.to_ascii_lowercase();
                words.iter().any(|w| name.contains(w))
            }
        })
        .map(|d| (d.id, d.name))
        .collect()
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
        d.candidates = candidates(v, d.architecture.as_deref().unwrap_or(""));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_architecture_points_to_its_generation_never_one_card() {
        let ada = candidates("nvidia", "lovelace");
        assert!(ada.iter().any(|(id, _)| *id == "rtx-4090") && ada.len() > 3, "{ada:?}");
        assert!(ada.iter().all(|(id, _)| catalog::device(id).unwrap().compute_capability == 89));
        let ampere = candidates("NVIDIA", "ampere");
        assert!(ampere.iter().any(|(id, _)| *id == "rtx-3090"));
        assert!(candidates("apple", "metal-3").iter().all(|(_, n)| n.to_ascii_lowercase().contains("apple")));
        assert!(candidates("nvidia", "").is_empty(), "no architecture: no guess");
        assert!(candidates("qualcomm", "adreno").is_empty());
        let none = Detected { memory_gb: Some(8.0), threads: Some(16), ..Detected::default() };
        let s = none.describe(Lang::En);
        assert!(s.contains("does not expose") && s.contains("8 GB") && s.contains("16"), "{s}");
    }
}
