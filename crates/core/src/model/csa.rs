//! DeepSeek V4's compressed attention: one shared 512-wide key/value row per token (a single
//! KV head, values are the keys), a sliding window of the last `window` raw rows on every
//! layer, and on most layers a compressor that pools `ratio` tokens into one row — every 4
//! tokens with overlapping windows and a lightning indexer choosing the rows each query reads
//! ("CSA"), or every 128 ("HCA").
//!
//! Tensors (transformers 5.24 `DeepseekV4Attention`, the checkpoint's `attn.*`): the query path
//! `wq_a` → norm → `wq_b` (`heads × head_dim` rows), the key/value projection `wkv`
//! (`head_dim` rows) and its norm, the grouped low-rank output `wo_a` (`o_groups × o_lora_rank`
//! rows, each group reading `heads × head_dim / o_groups` values) and `wo_b`, one attention sink
//! per head; the compressor's `wkv` and `wgate` (`coff × head_dim` rows, `coff` = 2 when windows
//! overlap), its learned position bias (`ratio × coff·head_dim`) and norm; the indexer's query
//! projection from the query latent, its per-head weights and its own overlapping compressor
//! at `index_head_dim`.
//!
//! DeepSeek V4.1 (vLLM 0.34's `deepseek_v41`) compresses by 1 or 2 and shares: only its
//! KV-source layers (`kv_source_layer_ids`) hold a compressor (`wkv`, and `wgate` when pooling
//! more than one token; no position bias) and keep compressed rows, which every later layer up to
//! the next source reads; only its index-source layers score rows (the indexer's `wq_b` and
//! `weights_proj`), and of those only the KV sources project the indexer's keys (`wk` and its norm,
//! from the compressed row) and keep them. Every layer keeps its own window.
//!
//! Cache per sequence: the window's rows, one compressed row per `ratio` tokens (and one
//! indexer key), and the compressor's pending state in FP32 (`kv` and `score`, `coff·ratio`
//! slots of `coff·head_dim` each, as DeepSeek's reference code and vLLM's
//! `CompressorStateCache` keep them).

use super::{Emit, Indexer, LayerCache, bounded, positive, size};
use crate::error::{Error, Result};
use crate::tensor::Role;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A DeepSeek V4 attention layer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct CompressedAttention {
    /// Query heads.
    pub num_heads: u64,
    /// Width of a head and of the shared key/value row (`head_dim`).
    pub head_dim: u64,
    /// Rotary part of a head (`qk_rope_head_dim`).
    pub rope_dim: u64,
    /// Rank of the query compression (`q_lora_rank`).
    pub q_lora_rank: u64,
    /// Groups of the low-rank output projection (`o_groups`).
    pub o_groups: u64,
    /// Rank of each output group (`o_lora_rank`).
    pub o_lora_rank: u64,
    /// Raw rows kept for the sliding window (`sliding_window`).
    pub window: u64,
    /// Tokens pooled into one compressed row; 0 for a window-only layer.
    pub ratio: u64,
    /// Whether pooling windows overlap (the compressor keeps two rows a slot: CSA).
    pub overlap: bool,
    /// The lightning indexer on overlapping layers (DeepSeek V4.1: on every compressed layer,
    /// whose top-k it picks; which layer holds its weights is in `shares`).
    pub indexer: Option<Indexer>,
    /// DeepSeek V4.1's sharing of compressed rows and indexer keys; `None` for V4, where every
    /// layer compresses for itself.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub shares: Option<Shares>,
}

/// What a DeepSeek V4.1 layer holds of the compression its layers share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Shares {
    /// A KV source: its compressor, and the compressed rows later layers read.
    pub kv_source: bool,
    /// An index source: the indexer's query and head weights.
    pub index_query: bool,
    /// The indexer's key projection and cached keys (index sources that are KV sources).
    pub index_key: bool,
}

impl CompressedAttention {
    pub(crate) fn validate(&self) -> Result<()> {
        size("num_attention_heads", self.num_heads)?;
        size("head_dim", self.head_dim)?;
        size("q_lora_rank", self.q_lora_rank)?;
        size("o_groups", self.o_groups)?;
        size("o_lora_rank", self.o_lora_rank)?;
        positive("sliding_window", self.window)?;
        bounded("compress_ratios", self.ratio)?;
        bounded("qk_rope_head_dim", self.rope_dim)?;
        if self.rope_dim > self.head_dim {
            return Err(Error::invalid("qk_rope_head_dim", "is wider than head_dim"));
        }
        bounded("attention width", self.num_heads.saturating_mul(self.head_dim))?;
        bounded("o_groups × o_lora_rank", self.o_groups.saturating_mul(self.o_lora_rank))?;
        bounded("compressor width", self.ratio.saturating_mul(self.head_dim).saturating_mul(2))?;
        if !(self.num_heads.saturating_mul(self.head_dim)).is_multiple_of(self.o_groups) {
            return Err(Error::invalid("o_groups", "does not divide num_attention_heads × head_dim"));
        }
        if let Some(ix) = &self.indexer {
            size("index_n_heads", ix.heads)?;
            size("index_head_dim", ix.head_dim)?;
            positive("index_topk", ix.topk)?;
            bounded("indexer width", ix.heads.saturating_mul(ix.head_dim))?;
        }
        Ok(())
    }

    /// Rows a compressor slot keeps: two when windows overlap.
    fn coff(&self) -> u64 {
        if self.overlap { 2 } else { 1 }
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        let (heads, hd, r) = (self.num_heads, self.head_dim, self.q_lora_rank);
        e.push(Role::AttnQA, r, h);
        e.push(Role::AttnNorm, 1, r);
        e.push(Role::AttnQB, heads * hd, r);
        e.push(Role::AttnKvA, hd, h);
        e.push(Role::AttnNorm, 1, hd);
        e.push(Role::AttnOutA, self.o_groups * self.o_lora_rank, heads * hd / self.o_groups);
        e.push(Role::AttnOut, h, self.o_groups * self.o_lora_rank);
        e.push(Role::Fp32, 1, heads);
        if let Some(s) = self.shares {
            if s.kv_source && self.ratio > 0 {
                // One token pools without a gate: the checkpoint stores none.
                e.push(Role::Compressor, hd, h);
                if self.ratio > 1 {
                    e.push(Role::Compressor, hd, h);
                }
                e.push(Role::AttnNorm, 1, hd);
            }
            if let (Some(ix), true) = (&self.indexer, s.index_query) {
                e.push(Role::IdxQ, ix.heads * ix.head_dim, r);
                e.push(Role::IdxWeights, ix.heads, h);
                if s.index_key {
                    // The key read off the compressed row, unquantized (a compressor-side
                    // projection).
                    e.push(Role::Compressor, ix.head_dim, hd);
                    e.push(Role::AttnNorm, 1, ix.head_dim);
                }
            }
            return;
        }
        if self.ratio > 0 {
            let c = self.coff();
            compressor(e, h, c * hd, self.ratio, hd);
            if let Some(ix) = &self.indexer {
                e.push(Role::IdxQ, ix.heads * ix.head_dim, r);
                e.push(Role::IdxWeights, ix.heads, h);
                compressor(e, h, 2 * ix.head_dim, self.ratio, ix.head_dim);
            }
        }
    }

    /// Rows one query reads at `context`: the window, and the compressed rows (the indexer's
    /// top-k of them on overlapping layers).
    pub fn attended(&self, context: u64) -> u64 {
        let window = context.min(self.window);
        if self.ratio == 0 {
            return window;
        }
        let rows = context / self.ratio;
        window.saturating_add(self.indexer.as_ref().map_or(rows, |ix| rows.min(ix.topk)))
    }

    pub(crate) fn cache(&self) -> LayerCache {
        if let Some(s) = self.shares {
            // V4.1: a layer that compresses for none keeps its window only; a source its rows,
            // its indexer keys, and (pooling several tokens) the open group's `kv` and `score`.
            let ratio = if s.kv_source { self.ratio } else { 0 };
            let pooled = if ratio > 1 { 2u64.saturating_mul(ratio).saturating_mul(self.head_dim) } else { 0 };
            return LayerCache::Compressed {
                width: self.head_dim,
                indexer: match (&self.indexer, s.index_key && ratio > 0) {
                    (Some(ix), true) => ix.head_dim,
                    _ => 0,
                },
                ratio,
                window: self.window,
                state: pooled,
            };
        }
        let c = self.coff();
        let slots = c * self.ratio;
        let state = |width: u64| 2u64.saturating_mul(slots).saturating_mul(c.saturating_mul(width));
        LayerCache::Compressed {
            width: self.head_dim,
            indexer: self.indexer.as_ref().map_or(0, |ix| ix.head_dim),
            ratio: self.ratio,
            window: self.window,
            state: if self.ratio == 0 {
                0
            } else {
                let ix =
                    self.indexer.as_ref().map_or(0, |ix| slots.saturating_mul(4).saturating_mul(ix.head_dim));
                state(self.head_dim).saturating_add(ix)
            },
        }
    }
}

/// A compressor: `wkv` and `wgate` of `rows` rows, its position bias (`ratio × rows`, FP32) and
/// the norm of its `width`-wide output.
fn compressor(e: &mut Emit<'_>, h: u64, rows: u64, ratio: u64, width: u64) {
    e.push(Role::Compressor, rows, h);
    e.push(Role::Compressor, rows, h);
    e.push(Role::Fp32, ratio, rows);
    e.push(Role::AttnNorm, 1, width);
}
