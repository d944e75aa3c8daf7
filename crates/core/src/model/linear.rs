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

use super::{Emit, LayerCache, bounded, positive};
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
            positive(f, v)?;
            bounded(f, v)?;
        }
        bounded("linear attention width", self.key_heads.saturating_mul(self.key_head_dim))?;
        bounded("linear attention width", self.value_heads.saturating_mul(self.value_head_dim))?;
        Ok(())
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        e.push(Role::MixIn, 2 * self.key_dim() + 2 * self.value_dim(), h);
        e.push(Role::MixIn, 2 * self.value_heads, h);
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
