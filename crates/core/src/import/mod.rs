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
