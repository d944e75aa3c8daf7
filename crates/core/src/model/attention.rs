//! Softmax attention: MHA, GQA and MQA, over the whole context, a sliding window or fixed
//! chunks (Llama 4's local layers), with each layer's own head counts and widths.
//!
//! Tensors: `q` (`heads × head_dim` rows, twice that with an output gate), `k` and `v`
//! (`kv_heads × head_dim` each; no `v` when values are the keys), `o`, optional biases, query/key
//! norms and sinks. Cache: K and V rows of `kv_heads × head_dim` per cached token; none for a
//! layer that reads an earlier layer's cache (Gemma 3n's KV sharing).

use super::{Emit, LayerCache, bounded, positive, size};
use crate::error::{Error, Result};
use crate::tensor::{Part, Role};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Per-head query/key normalisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum QkNorm {
    /// None.
    None,
    /// One weight vector of `head_dim` for queries and one for keys (Qwen3, Gemma 3).
    PerHead,
    /// Norms over the whole query and key projections (OLMo 2: heads × head_dim and kv × head_dim).
    Full,
    /// Per-head LayerNorms with a weight per head (Cohere's `use_qk_norm`: heads × head_dim and
    /// kv × head_dim weights, no bias).
    PerHeadEach,
}

/// Which tokens an attention layer caches and attends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "kind", rename_all = "snake_case"))]
pub enum Span {
    /// The whole context.
    #[default]
    Full,
    /// The last `window` tokens.
    Sliding {
        /// Tokens.
        window: u64,
    },
    /// Tokens of the same `chunk`-sized block (at most `chunk`).
    Chunked {
        /// Tokens.
        chunk: u64,
    },
    /// Cross-attention to `tokens` encoder positions (Llama 3.2 Vision's image tiles), whose keys
    /// and values are computed once per sequence; none of the text's own tokens are cached.
    Cross {
        /// Encoder positions.
        tokens: u64,
    },
}

impl Span {
    /// Tokens one sequence caches at `context` by the generic rule (a runtime's own rule wins).
    pub fn tokens(self, context: u64) -> u64 {
        match self {
            Span::Full => context,
            Span::Sliding { window } => context.min(window),
            Span::Chunked { chunk } => context.min(chunk),
            Span::Cross { tokens } => tokens,
        }
    }
}

/// Multi-head attention with grouped key/value heads.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Attention {
    /// Query heads.
    pub num_heads: u64,
    /// Key/value heads (equal to `num_heads` for MHA, 1 for MQA).
    pub num_kv_heads: u64,
    /// Width of one query/key head (not always hidden / heads: Qwen3, Gemma).
    pub head_dim: u64,
    /// Width of one value head (equal to `head_dim` but in a few families).
    pub v_head_dim: u64,
    /// Biases on the query, key and value projections.
    pub qkv_bias: bool,
    /// Bias on the output projection.
    pub o_bias: bool,
    /// Query/key norms.
    pub qk_norm: QkNorm,
    /// One fused query-key-value matrix (Phi-3 `qkv_proj`, GPT-2 `c_attn`, GPT-NeoX, Falcon).
    pub fused_qkv: bool,
    /// Learned attention sinks, one scalar per head (gpt-oss).
    pub sinks: bool,
    /// A sigmoid gate on the output, projected with the queries (Qwen3-Next, Qwen3.5): `q` has
    /// twice the rows.
    pub output_gate: bool,
    /// Values are projected by the keys' matrix (no `v` projection; Gemma 4's global layers). The
    /// cache still holds both: keys are normed and rotated, values only normed.
    pub k_eq_v: bool,
    /// The layer reads an earlier layer's cache and stores none (Gemma 3n's last layers).
    pub shares_kv: bool,
    /// Which tokens it attends.
    pub span: Span,
    /// Elements per token of a block-sparse indexer's key cached beside K and V (MiniMax-M3's
    /// sparse layers: `index_head_dim`, one head); 0 without an indexer.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub index_key: u64,
    /// Width of the input the query, key and value projections read; 0 for the model's hidden
    /// size. Zamba2's shared blocks attend over the hidden state concatenated with the
    /// embeddings (`attention_hidden_size = 2 × hidden`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub input_width: u64,
    /// Values from a mixture of value experts in place of the `v` projection (K2 Horizon's MoVA).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mova: Option<Mova>,
}

/// A mixture of value experts (K2 Horizon's MoVA, vLLM's `K2HorizonMoVAAttention`): a router over
/// `experts` value projections (`v_experts.{e}`, each as wide as the values), of which each token
/// takes `per_token`; the cache holds the mixed values as plain attention's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Mova {
    /// Value experts.
    pub experts: u64,
    /// Experts a token takes.
    pub per_token: u64,
    /// The router's selection bias, stored in FP32 (`v_router.bias`).
    pub router_bias: bool,
}

#[cfg(feature = "serde")]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Attention {
    /// Plain grouped-query attention without biases or norms, over the whole context.
    pub fn gqa(num_heads: u64, num_kv_heads: u64, head_dim: u64) -> Self {
        Attention {
            num_heads,
            num_kv_heads,
            head_dim,
            v_head_dim: head_dim,
            qkv_bias: false,
            o_bias: false,
            qk_norm: QkNorm::None,
            fused_qkv: false,
            sinks: false,
            output_gate: false,
            k_eq_v: false,
            shares_kv: false,
            span: Span::Full,
            index_key: 0,
            input_width: 0,
            mova: None,
        }
    }

    /// Width of all query heads together.
    pub fn q_width(&self) -> u64 {
        self.num_heads.saturating_mul(self.head_dim)
    }

    /// Width of all key heads together.
    pub fn kv_width(&self) -> u64 {
        self.num_kv_heads.saturating_mul(self.head_dim)
    }

    /// Width of all value heads together (0 when values are the keys).
    pub fn v_width(&self) -> u64 {
        if self.k_eq_v { 0 } else { self.num_kv_heads.saturating_mul(self.v_head_dim) }
    }

    pub(crate) fn validate(&self) -> Result<()> {
        size("num_attention_heads", self.num_heads)?;
        positive("num_key_value_heads", self.num_kv_heads)?;
        size("head_dim", self.head_dim)?;
        size("v_head_dim", self.v_head_dim)?;
        // Every width a tensor takes fits well within 64 bits once these hold.
        for w in
            [self.q_width(), self.num_heads.saturating_mul(self.v_head_dim), self.v_width(), self.input_width]
        {
            bounded("attention width", w)?;
        }
        if self.num_kv_heads > self.num_heads || !self.num_heads.is_multiple_of(self.num_kv_heads) {
            return Err(Error::invalid(
                "num_key_value_heads",
                alloc::format!(
                    "{} key/value heads must divide {} attention heads",
                    self.num_kv_heads,
                    self.num_heads
                ),
            ));
        }
        match self.span {
            Span::Sliding { window: 0 } => {
                Err(Error::invalid("sliding_window", "a window of at least 1 token"))
            }
            Span::Chunked { chunk: 0 } => {
                Err(Error::invalid("attention_chunk_size", "a chunk of at least 1 token"))
            }
            _ => Ok(()),
        }
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        let x = if self.input_width > 0 { self.input_width } else { h };
        let q = self.q_width() * if self.output_gate { 2 } else { 1 };
        // A layer reading another layer's cache has no key/value projections of its own.
        let k = if self.shares_kv { 0 } else { self.kv_width() };
        let v = if self.shares_kv || self.mova.is_some() { 0 } else { self.v_width() };
        if self.fused_qkv {
            e.push(Role::AttnQkv, q + k + v, x);
        } else {
            e.push(Role::AttnQ, q, x);
            if k > 0 {
                e.push(Role::AttnK, k, x);
            }
            if v > 0 {
                e.push(Role::AttnV, v, x);
            }
        }
        e.bias(self.qkv_bias, q + k + v);
        if let Some(m) = self.mova {
            e.within(Part::Router, |e| {
                e.push(Role::Router, m.experts, x);
                if m.router_bias {
                    e.push(Role::Fp32, 1, m.experts);
                }
            });
            e.push_experts(Role::AttnV, self.v_width(), x, m.experts);
        }
        e.push(Role::AttnOut, h, self.num_heads * self.v_head_dim);
        e.bias(self.o_bias, h);
        match self.qk_norm {
            QkNorm::None => {}
            QkNorm::PerHead => {
                e.push(Role::AttnNorm, 1, self.head_dim);
                if k > 0 {
                    e.push(Role::AttnNorm, 1, self.head_dim);
                }
            }
            QkNorm::Full | QkNorm::PerHeadEach => {
                e.push(Role::AttnNorm, 1, self.q_width());
                e.push(Role::AttnNorm, 1, k);
            }
        }
        if self.sinks {
            e.push(Role::Sinks, 1, self.num_heads);
        }
    }

    pub(crate) fn cache(&self) -> LayerCache {
        if self.shares_kv {
            LayerCache::None
        } else {
            // With K = V the values still differ from the keys once normed and rotated: both cached.
            LayerCache::Kv {
                k: self.kv_width(),
                v: self.num_kv_heads.saturating_mul(self.v_head_dim),
                span: self.span,
                index: self.index_key,
            }
        }
    }
}
