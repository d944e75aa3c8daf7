//! Multi-head latent attention (DeepSeek V2/V3, Kimi K2) and DeepSeek V3.2's sparse-attention
//! indexer.
//!
//! Tensors: the query path (`q_a` → norm → `q_b`, or one `q` when `q_lora_rank` is absent), the
//! joint key/value compression `kv_a` (`kv_lora_rank + qk_rope_head_dim` rows) and its norm, the
//! decompression `kv_b`, and `o`. Cache: one latent of `kv_lora_rank + qk_rope_head_dim` per token
//! (what vLLM, SGLang and llama.cpp store), the same on every tensor-parallel rank.
//!
//! The indexer (DeepSeek V3.2, "DSA") scores past tokens with its own small heads and keeps
//! the top `index_topk`: its tensors are `wq_b` (`index_n_heads × index_head_dim` rows from the
//! query latent), `wk` (`index_head_dim` rows from the hidden state), a LayerNorm on the keys and
//! `weights_proj` (one weight per index head); it caches one `index_head_dim` key per token.

use super::{Emit, LayerCache, Span, bounded, positive, size};
use crate::error::Result;
use crate::tensor::Role;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// DeepSeek V2/V3 multi-head latent attention.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Mla {
    /// Query heads.
    pub num_heads: u64,
    /// Rank of the query compression; `None` when queries are projected directly (V2-Lite).
    pub q_lora_rank: Option<u64>,
    /// Rank of the key/value latent: what the cache stores per token, with the rope part.
    pub kv_lora_rank: u64,
    /// Per-head query/key width without rotary embedding.
    pub qk_nope_head_dim: u64,
    /// Per-head rotary width (shared across heads for keys).
    pub qk_rope_head_dim: u64,
    /// Per-head value width.
    pub v_head_dim: u64,
    /// The sparse-attention indexer, when the layer has one.
    pub indexer: Option<Indexer>,
    /// The layer reads an earlier layer's latent (Mistral Large 4's `kv_source_layers`): no
    /// `kv_a` projection or norm of its own, and no latent cached.
    #[cfg_attr(feature = "serde", serde(default))]
    pub shares_latent: bool,
    /// A gate on the attention's output, projected from the hidden state (`g_proj`, `heads ×
    /// v_head_dim` rows: Kimi K3's `mla_use_output_gate`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub output_gate: bool,
    /// Which tokens the layer caches and attends: the whole context, or the last `window`
    /// (dots3-note's sliding layers attend through a window over their latent).
    #[cfg_attr(feature = "serde", serde(default))]
    pub span: Span,
}

/// DeepSeek V3.2's lightning indexer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Indexer {
    /// Index heads (`index_n_heads`).
    pub heads: u64,
    /// Width of one index head (`index_head_dim`): what its key cache keeps per token.
    pub head_dim: u64,
    /// Tokens each query attends (`index_topk`).
    pub topk: u64,
    /// Tokens whose keys are pooled into one cached key (GLM-5-Next's `index_kpool`); 0 or 1 for
    /// one key a token.
    #[cfg_attr(feature = "serde", serde(default))]
    pub pool: u64,
}

impl Mla {
    pub(crate) fn validate(&self) -> Result<()> {
        size("num_attention_heads", self.num_heads)?;
        size("kv_lora_rank", self.kv_lora_rank)?;
        // A layer without rotary positions (Mistral Large 4's NoPE layers) has no rotary part.
        bounded("qk_rope_head_dim", self.qk_rope_head_dim)?;
        size(
            "qk_nope_head_dim + qk_rope_head_dim",
            self.qk_nope_head_dim.saturating_add(self.qk_rope_head_dim),
        )?;
        size("v_head_dim", self.v_head_dim)?;
        bounded("qk_nope_head_dim", self.qk_nope_head_dim)?;
        bounded("q_lora_rank", self.q_lora_rank.unwrap_or(0))?;
        let h = self.num_heads;
        for w in [
            h.saturating_mul(self.qk_nope_head_dim.saturating_add(self.qk_rope_head_dim)),
            h.saturating_mul(self.qk_nope_head_dim.saturating_add(self.v_head_dim)),
        ] {
            bounded("MLA width", w)?;
        }
        match self.span {
            Span::Full => {}
            Span::Sliding { window } => positive("sliding_window_size", window)?,
            Span::Chunked { .. } | Span::Cross { .. } => {
                return Err(crate::error::Error::invalid(
                    "span",
                    "a latent attention attends the whole context or a sliding window",
                ));
            }
        }
        if let Some(ix) = &self.indexer {
            bounded("indexer width", ix.heads.saturating_mul(ix.head_dim))?;
            size("index_n_heads", ix.heads)?;
            size("index_head_dim", ix.head_dim)?;
            positive("index_topk", ix.topk)?;
            // Without a query latent (Mistral Large 4) the indexer's query reads the hidden state.
        }
        Ok(())
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        let qk = self.qk_nope_head_dim + self.qk_rope_head_dim;
        match self.q_lora_rank {
            Some(r) => {
                e.push(Role::AttnQA, r, h);
                e.push(Role::AttnNorm, 1, r);
                e.push(Role::AttnQB, self.num_heads * qk, r);
            }
            None => e.push(Role::AttnQ, self.num_heads * qk, h),
        }
        if !self.shares_latent {
            e.push(Role::AttnKvA, self.kv_lora_rank + self.qk_rope_head_dim, h);
            e.push(Role::AttnNorm, 1, self.kv_lora_rank);
        }
        e.push(Role::AttnKvB, self.num_heads * (self.qk_nope_head_dim + self.v_head_dim), self.kv_lora_rank);
        e.push(Role::AttnOut, h, self.num_heads * self.v_head_dim);
        if self.output_gate {
            // A query-side projection of the hidden state, as a gated softmax attention's gate
            // rows are counted with its queries.
            e.push(Role::AttnQ, self.num_heads * self.v_head_dim, h);
        }
        if let Some(ix) = &self.indexer {
            let r = self.q_lora_rank.unwrap_or(h);
            e.push(Role::IdxQ, ix.heads * ix.head_dim, r);
            e.push(Role::IdxK, ix.head_dim, h);
            // The key LayerNorm: weight and bias.
            e.push(Role::AttnNorm, 1, ix.head_dim);
            e.push(Role::AttnNorm, 1, ix.head_dim);
            e.push(Role::IdxWeights, ix.heads, h);
        }
    }

    pub(crate) fn cache(&self) -> LayerCache {
        let width =
            if self.shares_latent { 0 } else { self.kv_lora_rank.saturating_add(self.qk_rope_head_dim) };
        let indexer = self.indexer.as_ref().map_or(0, |ix| ix.head_dim.div_ceil(ix.pool.max(1)));
        if width == 0 && indexer == 0 {
            LayerCache::None
        } else {
            LayerCache::Latent { width, indexer, span: self.span }
        }
    }
}
