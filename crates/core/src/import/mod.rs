//! Readers of model files: Hugging Face `config.json`, safetensors headers and indexes, and GGUF
//! headers. Bytes in, facts out, never panicking on hostile input and never allocating by a size
//! a file claims.

pub(crate) mod encoders;
pub mod gguf;
pub mod hf;
pub mod hub;
pub(crate) mod quant_config;
pub mod safetensors;

use alloc::vec::Vec;

/// HRM-Text's cache layers in the order its forward pass writes them (transformers'
/// `HrmTextModel`, vLLM's `hrm_text.py`, llama.cpp's `hrm-text.cpp`): per high cycle, the low
/// stack `low` times, then the high stack once; the first run of each stack stores its weights,
/// the later ones reuse them (`tied`).
fn hrm_cache_layers(
    low_stack: &[crate::model::LayerGroup],
    high_stack: &[crate::model::LayerGroup],
    high: u64,
    low: u64,
) -> Vec<crate::model::LayerGroup> {
    let mut out = Vec::new();
    for h in 0..high {
        for l in 0..=low {
            let first = h == 0 && (l == 0 || l == low);
            for g in if l == low { high_stack } else { low_stack } {
                out.push(crate::model::LayerGroup { tied: !first, ..g.clone() });
            }
        }
    }
    out
}

/// Bytes summed per key (a tensor type, a dtype), largest first.
fn totals_by<K: Copy + PartialEq>(items: impl Iterator<Item = (K, u64)>) -> Vec<(K, u64)> {
    let mut v: Vec<(K, u64)> = Vec::new();
    for (k, b) in items {
        match v.iter_mut().find(|(x, _)| *x == k) {
            Some((_, t)) => *t = t.saturating_add(b),
            None => v.push((k, b)),
        }
    }
    crate::sort::sort_by_key(&mut v, |e| core::cmp::Reverse(e.1));
    v
}
