//! Gated DeltaNet linear attention (Qwen3-Next, Qwen3.5): a delta-rule recurrent state per head
//! in place of a KV cache.
//!
//! Tensors: the joint input projection of queries, keys, values and the output gate
//! (`2 × key_dim + 2 × value_dim` rows, `key_dim = key_heads × key_head_dim`, `value_dim =
//! value_heads × value_head_dim`; Qwen3.5 stores it as `in_proj_qkv` + `in_proj_z`), the beta
//! and decay projections (`2 × value_heads` rows, `in_proj_ba` or `in_proj_b` + `in_proj_a`), a
//! depthwise causal convolution over `2 × key_dim + value_dim` channels, `dt_bias` and `A_log`
//! (one per value head), a gated RMSNorm of `value_head_dim` and `out_proj`.
//!
//! State per sequence: the convolution's last `kernel − 1` inputs of every channel and one
//! `key_head_dim × value_head_dim` matrix per value head, constant in the context.

use super::{Emit, LayerCache, bounded, size};
use crate::error::Result;
use crate::tensor::Role;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Gated DeltaNet.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct GatedDeltaNet {
    /// Query/key heads (`linear_num_key_heads`).
    pub key_heads: u64,
    /// Value heads (`linear_num_value_heads`).
    pub value_heads: u64,
    /// Width of a key head (`linear_key_head_dim`).
    pub key_head_dim: u64,
    /// Width of a value head (`linear_value_head_dim`).
    pub value_head_dim: u64,
    /// Convolution taps (`linear_conv_kernel_dim`).
    pub conv_kernel: u64,
    /// The input projections stored apart, as Qwen3.5 does (`in_proj_qkv`, `in_proj_z`,
    /// `in_proj_b`, `in_proj_a`), rather than fused (`in_proj_qkvz`, `in_proj_ba`): the same
    /// parameters, but a quantization config can name each.
    #[cfg_attr(feature = "serde", serde(default))]
    pub split_in_proj: bool,
}

impl GatedDeltaNet {
    fn key_dim(&self) -> u64 {
        self.key_heads * self.key_head_dim
    }

    fn value_dim(&self) -> u64 {
        self.value_heads * self.value_head_dim
    }

    fn conv_channels(&self) -> u64 {
        2 * self.key_dim() + self.value_dim()
    }

    pub(crate) fn validate(&self) -> Result<()> {
        for (f, v) in [
            ("linear_num_key_heads", self.key_heads),
            ("linear_num_value_heads", self.value_heads),
            ("linear_key_head_dim", self.key_head_dim),
            ("linear_value_head_dim", self.value_head_dim),
            ("linear_conv_kernel_dim", self.conv_kernel),
        ] {
            size(f, v)?;
        }
        bounded("linear attention width", self.key_heads.saturating_mul(self.key_head_dim))?;
        bounded("linear attention width", self.value_heads.saturating_mul(self.value_head_dim))?;
        Ok(())
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        if self.split_in_proj {
            e.push(Role::MixIn, 2 * self.key_dim() + self.value_dim(), h);
            e.push(Role::MixIn, self.value_dim(), h);
            e.push(Role::MixIn, self.value_heads, h);
            e.push(Role::MixIn, self.value_heads, h);
        } else {
            e.push(Role::MixIn, 2 * self.key_dim() + 2 * self.value_dim(), h);
            e.push(Role::MixIn, 2 * self.value_heads, h);
        }
        e.push(Role::MixConv, self.conv_channels(), self.conv_kernel);
        e.push(Role::MixState, 1, self.value_heads);
        e.push(Role::MixState, 1, self.value_heads);
        e.push(Role::MixState, 1, self.value_head_dim);
        e.push(Role::MixOut, h, self.value_dim());
    }

    pub(crate) fn cache(&self) -> LayerCache {
        LayerCache::State {
            conv: self.conv_kernel.saturating_sub(1).saturating_mul(self.conv_channels()),
            recurrent: self.value_heads.saturating_mul(self.key_head_dim).saturating_mul(self.value_head_dim),
        }
    }
}

/// Kimi Delta Attention (Kimi Linear): a gated delta rule like Gated DeltaNet, with a decay per
/// channel. Tensors: `q`, `k`, `v` (`heads × head_dim` rows each), a depthwise convolution over
/// the three, the forget gate (`f_a`: `head_dim` rows, `f_b`: back to `heads × head_dim`, a
/// `dt_bias` per channel and `A_log` per head), the beta projection (`heads` rows), the output
/// gate (`g_a`, `g_b`), a gated RMSNorm of `head_dim` and `o`. State per sequence: the
/// convolution's last `kernel − 1` inputs of `3 × heads × head_dim` channels and one
/// `head_dim × head_dim` matrix per head (vLLM's `kda_state_shape`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct KimiDeltaAttention {
    /// Heads (`linear_num_heads`).
    pub heads: u64,
    /// Width of a head (`linear_head_dim`).
    pub head_dim: u64,
    /// Convolution taps (`linear_conv_kernel_dim`, `short_conv_kernel_size`).
    pub conv_kernel: u64,
    /// The forget and output gates as one full-rank projection each (`f_proj`, `g_proj`: Ling 3's
    /// `no_kda_lora`) rather than Kimi Linear's low-rank pairs (`f_a`/`f_b`, `g_a`/`g_b`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub full_rank_gates: bool,
    /// The output gate alone full-rank (`g_proj`), the forget gate a low-rank pair: Kimi K3's
    /// `use_full_rank_gate`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub full_rank_output_gate: bool,
}

impl KimiDeltaAttention {
    fn width(&self) -> u64 {
        self.heads * self.head_dim
    }

    pub(crate) fn validate(&self) -> Result<()> {
        for (f, v) in [
            ("linear_num_heads", self.heads),
            ("linear_head_dim", self.head_dim),
            ("linear_conv_kernel_dim", self.conv_kernel),
        ] {
            size(f, v)?;
        }
        bounded("linear attention width", self.heads.saturating_mul(self.head_dim))
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        let w = self.width();
        for _ in 0..3 {
            e.push(Role::MixIn, w, h);
        }
        e.push(Role::MixConv, 3 * w, self.conv_kernel);
        self.gate(h, e);
        e.push(Role::MixState, 1, w);
        e.push(Role::MixState, 1, self.heads);
        e.push(Role::MixIn, self.heads, h);
        if self.full_rank_output_gate {
            e.push(Role::MixProj, self.width(), h);
        } else {
            self.gate(h, e);
        }
        e.push(Role::MixState, 1, self.head_dim);
        e.push(Role::MixOut, h, w);
    }

    /// A gate's projection from the hidden state to `heads × head_dim`: one matrix, or a rank
    /// `head_dim` pair.
    fn gate(&self, h: u64, e: &mut Emit<'_>) {
        if self.full_rank_gates {
            e.push(Role::MixProj, self.width(), h);
        } else {
            e.push(Role::MixProj, self.head_dim, h);
            e.push(Role::MixProj, self.width(), self.head_dim);
        }
    }

    pub(crate) fn cache(&self) -> LayerCache {
        LayerCache::State {
            conv: self.conv_kernel.saturating_sub(1).saturating_mul(self.width().saturating_mul(3)),
            recurrent: self.heads.saturating_mul(self.head_dim).saturating_mul(self.head_dim),
        }
    }
}

/// Lightning attention (MiniMax-Text-01/M1, Ling 2.5/2.6's linear layers): linear attention with a
/// fixed per-head decay. Tensors: the fused `qkv` projection (`3 × heads × head_dim` rows), per-head
/// q/k RMS norms where the family has them (Ling's `use_qk_norm`), the output gate (`heads ×
/// head_dim` rows), a (group) RMSNorm over the heads' outputs and the output projection. State per
/// sequence: one `head_dim × head_dim` matrix per head (vLLM's `linear_attention_state_shape`), no
/// convolution; the decay is computed from the layer's index, not stored.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct LightningAttention {
    /// Heads (`num_attention_heads`; keys and values have as many).
    pub heads: u64,
    /// Width of a head (`head_dim`).
    pub head_dim: u64,
    /// Per-head RMS norms on queries and keys.
    pub qk_norm: bool,
    /// A bias on the `qkv` projection.
    pub qkv_bias: bool,
    /// A bias on the output projection.
    pub o_bias: bool,
}

impl LightningAttention {
    fn width(&self) -> u64 {
        self.heads * self.head_dim
    }

    pub(crate) fn validate(&self) -> Result<()> {
        size("num_attention_heads", self.heads)?;
        size("head_dim", self.head_dim)?;
        bounded("linear attention width", self.heads.saturating_mul(self.head_dim))
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        let w = self.width();
        e.push(Role::MixIn, 3 * w, h);
        e.bias(self.qkv_bias, 3 * w);
        if self.qk_norm {
            e.push(Role::MixState, 1, self.head_dim);
            e.push(Role::MixState, 1, self.head_dim);
        }
        e.push(Role::MixProj, w, h);
        e.push(Role::MixState, 1, w);
        e.push(Role::MixOut, h, w);
        e.bias(self.o_bias, h);
    }

    pub(crate) fn cache(&self) -> LayerCache {
        LayerCache::State {
            conv: 0,
            recurrent: self.heads.saturating_mul(self.head_dim).saturating_mul(self.head_dim),
        }
    }
}
