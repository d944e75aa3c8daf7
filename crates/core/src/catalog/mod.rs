//! Curated catalogs: models (exact Hugging Face configs, each with its source) and, later,
//! hardware. Everything here is plain static data, compiled in, read through the same importer
//! as a user's own `config.json`.

/// A source citation. Builds with the `sources` feature (the CLI, the tests) keep it; the web
/// bundle drops it to stay small, and links to the repository's data files instead.
macro_rules! src {
    ($s:literal) => {
        if cfg!(feature = "sources") { $s } else { "" }
    };
}

pub mod device;
mod devices;
mod models;

use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::import::hf::{HfModel, parse_config};
use crate::model::{Architecture, ParamBreakdown};
use once_cell::race::OnceBox;

pub use devices::DEVICES;
pub use models::MODELS;

use device::{Device, DeviceKind};

/// One catalog model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelEntry {
    /// Stable kebab-case id (`llama-3.1-8b`), used by the CLI and in links: never renamed.
    pub id: &'static str,
    /// Other names it answers to (instruct variants with the same shapes, common spellings).
    pub aliases: &'static [&'static str],
    /// Display name.
    pub name: &'static str,
    /// The Hugging Face repository.
    pub hf_repo: &'static str,
    /// Release month (`2024-07`).
    pub released: &'static str,
    /// Where the config text was copied from.
    pub source: &'static str,
    /// The model's `config.json`, as published (noise keys such as token ids removed).
    pub config: &'static str,
}

impl ModelEntry {
    /// The family and the kinds of layers, for lists (`nemotron_h · hybrid, moe`).
    pub fn family_tags(&self) -> alloc::string::String {
        let mut out = alloc::string::String::new();
        for t in model_types(self.config) {
            if !out.split(' ').any(|w| w == t) {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(t);
            }
        }
        let tags: Vec<&str> = KINDS
            .iter()
            .filter(|(marker, _, _)| self.config.contains(marker))
            .map(|(_, tag, _)| *tag)
            .collect();
        let mut unique: Vec<&str> = Vec::new();
        for t in tags {
            if !unique.contains(&t) {
                unique.push(t);
            }
        }
        if !unique.is_empty() {
            out.push_str(" · ");
            out.push_str(&unique.join(", "));
        }
        out
    }

    /// The config, read.
    ///
    /// # Errors
    /// Only if the catalog itself is broken (a test reads every entry).
    pub fn import(&self) -> Result<HfModel> {
        match self.cached()? {
            Some((m, _)) => Ok(m.clone()),
            None => parse_config(self.config.as_bytes()),
        }
    }

    /// This entry's config read and its parameters counted, once per process (the page resolves
    /// the same model for every estimate, device row and point of a curve); `Ok(None)` for an
    /// entry that is not one of [`MODELS`] (a copy built elsewhere).
    ///
    /// # Errors
    /// What reading or counting the config reports (only for a broken catalog: a test reads every
    /// entry); it is not kept, so each call reports it again.
    pub fn cached(&self) -> Result<Option<(&'static HfModel, &'static ParamBreakdown)>> {
        let Some(slot) = MODELS.iter().position(|m| core::ptr::eq(m.config, self.config)) else {
            return Ok(None);
        };
        let Some(cell) = IMPORTED.get(slot) else { return Ok(None) };
        let imported = cell.get_or_try_init(|| {
            let model = parse_config(self.config.as_bytes())?;
            let breakdown = model.architecture.param_breakdown()?;
            Ok::<_, Error>(alloc::boxed::Box::new(Imported { model, breakdown }))
        })?;
        Ok(Some((&imported.model, &imported.breakdown)))
    }

    /// The architecture.
    ///
    /// # Errors
    /// Only if the catalog itself is broken (a test reads every entry).
    pub fn architecture(&self) -> Result<Architecture> {
        Ok(self.import()?.architecture)
    }

    /// Whether `query` names this model: its id, an alias or its repository, ignoring case.
    pub fn answers_to(&self, query: &str) -> bool {
        let q = query.trim();
        self.id.eq_ignore_ascii_case(q)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(q))
            || self.hf_repo.eq_ignore_ascii_case(q)
    }
}

/// A catalog model read once: its config and its parameters by part.
struct Imported {
    model: HfModel,
    breakdown: ParamBreakdown,
}

/// Slots of the read-once cache, one per catalog entry in order (a test checks the catalog fits).
const CACHE_SLOTS: usize = 256;

/// The catalog's configs, each read on first use (`OnceBox`: set once, lock-free, safe to read
/// from any thread).
static IMPORTED: [OnceBox<Imported>; CACHE_SLOTS] = [const { OnceBox::new() }; CACHE_SLOTS];

/// Every catalog model.
pub fn models() -> &'static [ModelEntry] {
    MODELS
}

/// The model with this id, alias or Hugging Face repository name.
///
/// # Errors
/// [`Error::UnknownModel`] when nothing matches.
pub fn model(query: &str) -> Result<&'static ModelEntry> {
    MODELS.iter().find(|m| m.answers_to(query)).ok_or_else(|| Error::UnknownModel { id: query.trim().into() })
}

/// Every catalog device.
pub fn devices() -> &'static [Device] {
    DEVICES
}

/// The device with this id or alias, ignoring case.
///
/// # Errors
/// [`Error::UnknownDevice`] when nothing matches.
pub fn device(query: &str) -> Result<&'static Device> {
    let q = query.trim();
    DEVICES
        .iter()
        .find(|d| d.id.eq_ignore_ascii_case(q) || d.aliases.iter().any(|a| a.eq_ignore_ascii_case(q)))
        .ok_or_else(|| Error::UnknownDevice { id: q.into() })
}

/// Devices a person's words find: an id or alias names one device; otherwise every device whose
/// id, aliases, name and vendor contain every word (case-insensitive), where a word that is a
/// memory size (`24GB`, `24 GB`, `24G`, `80gib`) keeps the devices with that much memory per
/// accelerator (to the GiB or to the GB, as cards are sold either way). Catalog order; empty for
/// an empty query.
pub fn search_devices(query: &str) -> Vec<&'static Device> {
    if let Ok(d) = device(query) {
        return alloc::vec![d];
    }
    // "24 GB" is one size: join a number with the unit that follows it.
    let mut words: Vec<alloc::string::String> = Vec::new();
    for w in query.split_whitespace().map(str::to_ascii_lowercase) {
        let unit = matches!(w.as_str(), "gb" | "gib" | "g" | "go");
        match words.last_mut() {
            Some(prev) if unit && prev.chars().all(|c| c.is_ascii_digit() || c == '.') => prev.push_str(&w),
            _ => words.push(w),
        }
    }
    if words.is_empty() {
        return Vec::new();
    }
    DEVICES
        .iter()
        .filter(|d| {
            let hay = alloc::format!("{} {} {} {}", d.id, d.aliases.join(" "), d.name, d.vendor)
                .to_ascii_lowercase();
            words.iter().all(|w| match memory_words(w) {
                Some(gb) => {
                    let gib = d.memory_mib as f64 / 1024.0;
                    let dec = d.memory_mib as f64 * 1_048_576.0 / 1e9;
                    (gib - gb).abs() < 0.5 || (dec - gb).abs() < 0.5
                }
                None => hay.contains(w.as_str()),
            })
        })
        .collect()
}

/// The size a word names in GB or GiB (`24gb`, `24g`, `24gib`, `24go`), if it is one.
fn memory_words(w: &str) -> Option<f64> {
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &w[digits.len()..];
    if digits.is_empty() || !matches!(unit, "gb" | "gib" | "g" | "go") {
        return None;
    }
    digits.parse::<f64>().ok().filter(|v| *v > 0.0 && v.is_finite())
}

/// Catalog devices a GPU vendor and architecture name (as WebGPU's adapter information gives
/// them: `nvidia` + `lovelace`, `amd` + `rdna-3`, `apple`): that generation of the vendor's
/// single cards, a family, never one card; empty when the architecture says nothing known.
pub fn devices_of_family(vendor: &str, architecture: &str) -> Vec<&'static Device> {
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
    DEVICES
        .iter()
        .filter(|d| d.kind != DeviceKind::Cloud && d.count <= 1)
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
        .collect()
}

/// Devices of a kind, in catalog order.
pub fn devices_of(kind: DeviceKind) -> impl Iterator<Item = &'static Device> {
    DEVICES.iter().filter(move |d| d.kind == kind)
}

/// Models whose id, aliases, name or repository contain every word of `query` (case-insensitive),
/// in catalog order; all models for an empty query.
pub fn search(query: &str) -> Vec<&'static ModelEntry> {
    let words: Vec<alloc::string::String> =
        query.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
    MODELS
        .iter()
        .filter(|m| {
            let hay = alloc::format!(
                "{} {} {} {} {}",
                m.id,
                m.aliases.join(" "),
                m.name,
                m.hf_repo,
                family_words(m.config)
            )
            .to_ascii_lowercase();
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}

/// Config markers of the kinds of layers, their short tag, and the words a search finds them by.
const KINDS: &[(&str, &str, &str)] = &[
    ("hybrid_override_pattern", "hybrid", "hybrid mamba ssm"),
    ("linear_attention", "hybrid", "hybrid linear attention gated deltanet"),
    ("mamba", "mamba", "mamba ssm"),
    ("\"conv\"", "hybrid", "hybrid conv"),
    ("kv_lora_rank", "mla", "mla latent"),
    ("index_topk", "dsa", "dsa sparse attention indexer"),
    ("experts", "moe", "moe mixture of experts"),
];

/// Every `model_type` of a config text (outer and nested), without parsing it.
fn model_types(config: &str) -> Vec<&str> {
    let key = "\"model_type\"";
    let mut out = Vec::new();
    let mut rest = config;
    while let Some(i) = rest.find(key) {
        rest = &rest[i + key.len()..];
        let value = rest.trim_start().trim_start_matches(':').trim_start();
        if let Some(v) = value.strip_prefix('"').and_then(|v| v.split('"').next()) {
            out.push(v);
        }
    }
    out
}

/// Words a search by family finds a model by: every `model_type` of its config (`qwen3_next`,
/// `nemotron_h`; also spelled with spaces and without the underscore) and the kinds of layers it
/// mixes (`hybrid`, `mamba`, `moe`, `mla`, `linear attention`).
fn family_words(config: &str) -> alloc::string::String {
    let mut out = alloc::string::String::new();
    for v in model_types(config) {
        out.push_str(&alloc::format!("{v} {} {} ", v.replace('_', " "), v.replace('_', "")));
    }
    for (marker, _, words) in KINDS {
        if config.contains(marker) {
            out.push_str(words);
            out.push(' ');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every catalog entry has a slot, and reading it once gives what parsing it again gives; an
    /// entry built elsewhere (not one of the catalog's) is parsed, not cached.
    #[test]
    fn catalog_models_are_read_once_and_the_same() {
        assert!(MODELS.len() <= CACHE_SLOTS, "{} models for {CACHE_SLOTS} cache slots", MODELS.len());
        for m in MODELS {
            let (cached, breakdown) = m.cached().unwrap().unwrap_or_else(|| panic!("{} is not cached", m.id));
            let fresh = parse_config(m.config.as_bytes()).unwrap();
            assert_eq!(cached, &fresh, "{}", m.id);
            assert_eq!(breakdown, &fresh.architecture.param_breakdown().unwrap(), "{}", m.id);
            assert!(core::ptr::eq(m.cached().unwrap().unwrap().0, cached), "{} read twice", m.id);
        }
        let config = alloc::format!("{} ", MODELS[0].config);
        let other = ModelEntry { config: alloc::boxed::Box::leak(config.into_boxed_str()), ..MODELS[0] };
        assert!(other.cached().unwrap().is_none());
        assert_eq!(other.import().unwrap(), MODELS[0].import().unwrap());
    }

    #[test]
    fn every_card_states_how_it_reaches_the_others() {
        use device::LinkKind;
        for d in devices() {
            let accelerator = matches!(d.kind, DeviceKind::Gpu | DeviceKind::Cloud);
            assert_eq!(accelerator, d.link.kind != LinkKind::None, "{}", d.id);
            assert!(d.link.kind == LinkKind::None || d.link.gbs > 0.0, "{}", d.id);
            // An SXM/OAM board talks over its fabric, a GeForce or Radeon card through system
            // memory.
            let name = d.name.to_ascii_lowercase();
            if name.contains("sxm") {
                assert_eq!(d.link.kind, LinkKind::NvLink, "{}", d.id);
            }
            if accelerator && (name.contains("geforce") || name.contains("radeon")) {
                assert_eq!(d.link.kind, LinkKind::PcieHost, "{}", d.id);
            }
        }
    }

    #[test]
    fn an_architecture_points_to_its_generation_never_one_card() {
        let ada = devices_of_family("nvidia", "lovelace");
        assert!(ada.iter().any(|d| d.id == "rtx-4090") && ada.len() > 3);
        assert!(ada.iter().all(|d| d.compute_capability == 89));
        assert!(devices_of_family("NVIDIA", "ampere").iter().any(|d| d.id == "rtx-3090"));
        assert!(
            devices_of_family("apple", "metal-3")
                .iter()
                .all(|d| d.name.to_ascii_lowercase().contains("apple"))
        );
        assert!(devices_of_family("nvidia", "").is_empty(), "no architecture: no guess");
        assert!(devices_of_family("qualcomm", "adreno").is_empty());
    }

    #[test]
    fn devices_are_found_by_id_alias_words_and_memory() {
        assert_eq!(search_devices("rtx-4090").iter().map(|d| d.id).collect::<Vec<_>>(), ["rtx-4090"]);
        assert_eq!(search_devices("4090")[0].id, "rtx-4090");
        let words = search_devices("geforce 3060");
        assert!(!words.is_empty() && words.iter().all(|d| d.name.contains("3060")), "{words:?}");
        // Memory sizes, written as people write them, per accelerator.
        for q in ["24GB", "24 GB", "24g", "24 gib", "24 Go"] {
            let found = search_devices(q);
            assert!(found.iter().any(|d| d.id == "rtx-4090"), "{q}");
            assert!(
                found.iter().all(|d| (d.memory_mib as f64 / 1024.0 - 24.0).abs() < 0.5
                    || (d.memory_mib as f64 * 1_048_576.0 / 1e9 - 24.0).abs() < 0.5),
                "{q}"
            );
        }
        let mac = search_devices("m3 max 128gb");
        assert!(!mac.is_empty() && mac.iter().all(|d| d.memory_mib == 128 * 1024), "{mac:?}");
        assert!(search_devices("").is_empty());
        assert!(search_devices("   ").is_empty());
        assert!(search_devices("no such card 7777gb").is_empty());
        assert!(
            memory_words("gb").is_none() && memory_words("24").is_none() && memory_words("24tb").is_none()
        );
    }

    #[test]
    fn every_entry_reads_and_ids_are_unique_kebab_case() {
        for (i, m) in MODELS.iter().enumerate() {
            let imported = m.import().unwrap_or_else(|e| panic!("{}: {e}", m.id));
            assert!(imported.architecture.params_total().is_ok(), "{}", m.id);
            assert!(
                m.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.'),
                "{} is not kebab-case",
                m.id
            );
            for other in &MODELS[i + 1..] {
                assert_ne!(m.id, other.id);
                assert!(!other.answers_to(m.id), "{} is shadowed by {}", m.id, other.id);
                for a in m.aliases {
                    assert!(!other.answers_to(a), "alias {a} of {} also names {}", m.id, other.id);
                }
            }
        }
    }

    #[test]
    fn devices_are_unique_and_sourced() {
        for (i, d) in DEVICES.iter().enumerate() {
            assert!(!d.source.is_empty() || !cfg!(feature = "sources"), "{} has no source", d.id);
            assert!(!d.date.is_empty(), "{} has no date", d.id);
            assert!(d.memory_mib > 0, "{} has no memory", d.id);
            assert!(d.count >= 1, "{}", d.id);
            assert!(
                d.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.'),
                "{} is not kebab-case",
                d.id
            );
            for other in &DEVICES[i + 1..] {
                assert_ne!(d.id, other.id);
                for a in d.aliases {
                    assert!(
                        !other.id.eq_ignore_ascii_case(a)
                            && !other.aliases.iter().any(|b| b.eq_ignore_ascii_case(a)),
                        "{a}"
                    );
                }
            }
        }
        let count = |k| devices_of(k).count();
        assert!(count(DeviceKind::Gpu) >= 40);
        assert!(count(DeviceKind::Apple) >= 10);
        assert!(count(DeviceKind::Laptop) >= 5);
        assert!(count(DeviceKind::Cpu) >= 5);
        assert!(count(DeviceKind::Cloud) >= 40);
        assert_eq!(device("RTX-4090").map(|d| d.memory_mib), Ok(24 * 1024));
        assert!(matches!(device("rtx-9999"), Err(Error::UnknownDevice { .. })));
    }

    #[test]
    fn lookups() {
        assert_eq!(model("LLAMA-3.1-8B").map(|m| m.id), Ok("llama-3.1-8b"));
        assert!(matches!(model("nope"), Err(Error::UnknownModel { .. })));
        assert!(search("llama 8b").iter().any(|m| m.id == "llama-3.1-8b"));
        assert_eq!(search("").len(), MODELS.len());
        // By family, as people name them.
        assert!(search("nemotron h").iter().any(|m| m.id == "nemotron-3-nano-30b-a3b"));
        assert!(search("qwen3_next").iter().any(|m| m.id == "qwen3-next-80b-a3b"));
        assert!(search("hybrid").iter().any(|m| m.id == "qwen3.5-35b-a3b"));
        assert!(search("mamba").iter().any(|m| m.id == "falcon-mamba-7b"));
        assert!(search("gpt bigcode").iter().any(|m| m.id == "santacoder"));
        assert!(search("mla").iter().any(|m| m.id == "kimi-k2"));
        assert!(!search("mamba").iter().any(|m| m.id == "llama-3.1-8b"));
        assert_eq!(
            model("nemotron-3-nano-30b-a3b").unwrap().family_tags(),
            "nemotron_h · hybrid, mamba, moe"
        );
        assert_eq!(model("llama-3.1-8b").unwrap().family_tags(), "llama");
    }
}
