//! State-space mixers: Mamba (Jamba, Falcon-Mamba), Mamba-2 (Nemotron-H, Bamba, Granite 4,
//! Falcon-H1, Codestral Mamba) and LFM2's gated short convolution.
//!
//! Mamba-2 tensors: `in_proj` (`2 × inner + 2 × groups × state + heads` rows: gate, x, B, C and
//! dt), a depthwise convolution over `inner + 2 × groups × state` channels, `dt_bias`, `A_log`
//! and `D` (one per head), a gated RMSNorm of `inner` and `out_proj`. State per sequence: the
//! convolution's last `kernel − 1` inputs and `heads × head_dim × state` SSM values.
//!
//! Mamba tensors: `in_proj` (`2 × inner`), the convolution over `inner` channels, `x_proj`
//! (`dt_rank + 2 × state` rows), `dt_proj` (with a bias), `A_log` (`inner × state`), `D` and
//! `out_proj`; Jamba adds RMSNorms on dt, B and C. State: `(kernel − 1) × inner` and
//! `inner × state`.
//!
//! Short convolution (LFM2): `in_proj` (`3 × hidden`: B, C and x), a depthwise convolution of
//! `L_cache` taps over `hidden` channels and `out_proj`; state `(L_cache − 1) × hidden`.

use super::{Emit, LayerCache, bounded, positive, size};
use crate::error::Result;
use crate::tensor::Role;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Which Mamba.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum MambaVersion {
    /// Mamba (S6): per-channel state, `x_proj` and `dt_proj`.
    V1,
    /// Mamba-2 (SSD): per-head scalar decay, grouped B and C.
    V2,
}

/// A Mamba or Mamba-2 mixer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Mamba {
    /// Mamba or Mamba-2.
    pub version: MambaVersion,
    /// Inner width (`expand × hidden`, or `heads × head_dim`).
    pub inner: u64,
    /// State size per channel (`d_state`, `ssm_state_size`).
    pub state: u64,
    /// Groups of B and C (Mamba-2; 1 for Mamba).
    pub groups: u64,
    /// Heads (Mamba-2; 0 for Mamba).
    pub heads: u64,
    /// Convolution taps (`d_conv`, `conv_kernel`).
    pub conv_kernel: u64,
    /// Rank of the dt projection (Mamba).
    pub dt_rank: u64,
    /// Bias on the convolution.
    pub conv_bias: bool,
    /// Biases on `in_proj` and `out_proj`.
    pub proj_bias: bool,
    /// The gated RMSNorm before `out_proj` (Mamba-2; Falcon-H1 may leave it out).
    pub gated_norm: bool,
    /// RMSNorms on dt, B and C (Jamba's Mamba).
    pub inner_norms: bool,
}

impl Mamba {
    fn conv_channels(&self) -> u64 {
        match self.version {
            MambaVersion::V1 => self.inner,
            MambaVersion::V2 => self.inner + 2 * self.groups * self.state,
        }
    }

    pub(crate) fn validate(&self) -> Result<()> {
        for (f, v) in [
            ("mamba inner width", self.inner),
            ("ssm_state_size", self.state),
            ("conv_kernel", self.conv_kernel),
        ] {
            size(f, v)?;
        }
        bounded("n_groups", self.groups)?;
        bounded("mamba heads", self.heads)?;
        bounded("time_step_rank", self.dt_rank)?;
        bounded("mamba state", self.groups.saturating_mul(self.state))?;
        match self.version {
            MambaVersion::V1 => positive("time_step_rank", self.dt_rank),
            MambaVersion::V2 => {
                positive("mamba_num_heads", self.heads)?;
                positive("n_groups", self.groups)?;
                if !self.inner.is_multiple_of(self.heads) {
                    return Err(crate::Error::invalid(
                        "mamba_num_heads",
                        "the heads must divide the inner width",
                    ));
                }
                Ok(())
            }
        }
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        let i = self.inner;
        let conv = self.conv_channels();
        match self.version {
            MambaVersion::V2 => {
                let rows = 2 * i + 2 * self.groups * self.state + self.heads;
                e.push(Role::MixIn, rows, h);
                e.bias(self.proj_bias, rows);
                e.push(Role::MixConv, conv, self.conv_kernel);
                e.bias(self.conv_bias, conv);
                e.push(Role::MixState, 1, self.heads);
                e.push(Role::MixState, 1, self.heads);
                e.push(Role::MixState, 1, self.heads);
                if self.gated_norm {
                    e.push(Role::MixState, 1, i);
                }
            }
            MambaVersion::V1 => {
                e.push(Role::MixIn, 2 * i, h);
                e.bias(self.proj_bias, 2 * i);
                e.push(Role::MixConv, conv, self.conv_kernel);
                e.bias(self.conv_bias, conv);
                e.push(Role::MixProj, self.dt_rank + 2 * self.state, i);
                e.push(Role::MixProj, i, self.dt_rank);
                e.push(Role::Bias, 1, i);
                e.push(Role::MixState, i, self.state);
                e.push(Role::MixState, 1, i);
                if self.inner_norms {
                    e.push(Role::MixState, 1, self.dt_rank);
                    e.push(Role::MixState, 1, self.state);
                    e.push(Role::MixState, 1, self.state);
                }
            }
        }
        e.push(Role::MixOut, h, i);
        e.bias(self.proj_bias, h);
    }

    pub(crate) fn cache(&self) -> LayerCache {
        let conv = self.conv_kernel.saturating_sub(1).saturating_mul(self.conv_channels());
        let recurrent = self.inner.saturating_mul(self.state);
        LayerCache::State { conv, recurrent }
    }
}

/// LFM2's gated short convolution.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ShortConv {
    /// Taps (`conv_L_cache`).
    pub kernel: u64,
    /// Biases on the projections and the convolution (`conv_bias`).
    pub bias: bool,
}

impl ShortConv {
    pub(crate) fn validate(&self) -> Result<()> {
        positive("conv_L_cache", self.kernel)?;
        bounded("conv_L_cache", self.kernel)
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        e.push(Role::MixIn, 3 * h, h);
        e.bias(self.bias, 3 * h);
        e.push(Role::MixConv, h, self.kernel);
        e.bias(self.bias, h);
        e.push(Role::MixOut, h, h);
        e.bias(self.bias, h);
    }

    pub(crate) fn cache(&self, hidden: u64) -> LayerCache {
        // The channels are the hidden width: (taps − 1) inputs of each.
        LayerCache::State { conv: self.kernel.saturating_sub(1).saturating_mul(hidden), recurrent: 0 }
    }
}

/// The state a convolutional attention keeps beside its key/value cache: ZAYA's compressed
/// convolutional attention (vLLM's `ZayaCCA`, a Mamba-style layer there: `_cca_state_shapes`)
/// keeps the last `history` raw query and key inputs of its `channels` (for the convolutions over
/// them) and `carried` values of the previous token's value half. Its weights are the attention's;
/// the state, in the model's dtype, is whole on every tensor-parallel GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ConvState {
    /// Channels convolved (`(heads + kv_heads) × head_dim`).
    pub channels: u64,
    /// Earlier inputs kept of each (`cca_time0 + cca_time1 − 2`).
    pub history: u64,
    /// Values carried to the next token (`kv_heads × head_dim / 2`).
    pub carried: u64,
}

impl ConvState {
    pub(crate) fn validate(&self) -> Result<()> {
        bounded("convolutional attention channels", self.channels)?;
        bounded("convolutional attention history", self.history)?;
        bounded("convolutional attention carried values", self.carried)
    }

    /// Elements one sequence keeps.
    pub fn elements(&self) -> u64 {
        self.channels.saturating_mul(self.history).saturating_add(self.carried)
    }

    pub(crate) fn cache(&self) -> LayerCache {
        LayerCache::State { conv: self.elements(), recurrent: 0 }
    }
}
