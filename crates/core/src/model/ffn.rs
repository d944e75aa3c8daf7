//! Feed-forward blocks: dense MLPs (gated or plain, with or without biases) and mixtures of
//! experts (shared experts, router and expert biases, score-correction biases).
//!
//! Dense: gate, up and down matrices (`gate_up` fused in Phi-3), or up and down for a plain MLP.
//! MoE: a router of `experts` rows, every expert's matrices (gated or plain), optional shared
//! experts of their own width with an optional sigmoid gate.

use super::{Emit, bounded, mul, positive};
use crate::error::{Error, Result};
use crate::tensor::{Part, Role};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The feed-forward block of a layer.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "kind", rename_all = "snake_case"))]
pub enum Ffn {
    /// None (the mixer-only layers of Nemotron-H and Granite 4).
    None,
    /// A dense MLP.
    Dense(Mlp),
    /// A mixture of experts.
    Moe(Moe),
}

/// A dense feed-forward block.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Mlp {
    /// Inner width.
    pub intermediate_size: u64,
    /// Gated (SwiGLU, GeGLU: gate, up and down matrices) or plain (up and down).
    pub gated: bool,
    /// Biases on the projections.
    pub bias: bool,
    /// Gate and up stored as one matrix (Phi-3 `gate_up_proj`).
    pub fused_gate_up: bool,
}

impl Mlp {
    /// A gated MLP without biases.
    pub fn gated(intermediate_size: u64) -> Self {
        Mlp { intermediate_size, gated: true, bias: false, fused_gate_up: false }
    }

    /// A plain (up, activation, down) MLP.
    pub fn plain(intermediate_size: u64, bias: bool) -> Self {
        Mlp { intermediate_size, gated: false, bias, fused_gate_up: false }
    }

    /// Matrices that read the hidden state (2 gated, 1 plain).
    pub fn inputs(&self) -> u64 {
        if self.gated { 2 } else { 1 }
    }

    fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        let i = self.intermediate_size;
        if self.gated {
            if self.fused_gate_up {
                e.push(Role::FfnGateUp, 2 * i, h);
            } else {
                e.push(Role::FfnGate, i, h);
                e.push(Role::FfnUp, i, h);
            }
        } else {
            e.push(Role::FfnUp, i, h);
        }
        e.push(Role::FfnDown, h, i);
        e.bias(self.bias, self.inputs() * i);
        e.bias(self.bias, h);
    }
}

/// A mixture of experts.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Moe {
    /// Routed experts.
    pub num_experts: u64,
    /// Experts each token is routed to.
    pub experts_per_token: u64,
    /// Inner width of one routed expert.
    pub expert_intermediate: u64,
    /// Experts gated (gate, up, down) or plain (up, down: Nemotron-H's squared ReLU).
    pub gated: bool,
    /// Total inner width of the always-on shared expert(s); 0 when none.
    pub shared_intermediate: u64,
    /// A sigmoid gate on the shared expert's output (Qwen2-MoE: a `hidden × 1` matrix).
    pub shared_expert_gate: bool,
    /// Bias on the router (gpt-oss).
    pub router_bias: bool,
    /// A score-correction bias per expert (DeepSeek V3's `e_score_correction_bias`).
    pub score_bias: bool,
    /// Biases inside each expert (gpt-oss: gate-up and down biases).
    pub expert_bias: bool,
    /// Experts work in a smaller latent width, projected down and back up around them
    /// (Nemotron 3's `moe_latent_size`); 0 when they read the hidden state directly.
    pub latent: u64,
    /// A second set of routed experts, with its own router and correction bias, that only the
    /// other modality's tokens go through (ERNIE 4.5 VL's vision experts: loaded beside the text
    /// experts, never used by a text token); 0 when none.
    #[cfg_attr(feature = "serde", serde(default))]
    pub modality_experts: u64,
    /// Inner width of one of those experts.
    #[cfg_attr(feature = "serde", serde(default))]
    pub modality_intermediate: u64,
    /// A router that is an MLP `router_hidden` wide rather than one linear (ZAYA's: a biased
    /// projection down, two biased layers and a norm, logits for the experts and a skip class,
    /// and the skip class's FP32 balancing biases); 0 for a linear router.
    #[cfg_attr(feature = "serde", serde(default))]
    pub router_hidden: u64,
}

impl Moe {
    /// `num_experts` gated experts `expert_intermediate` wide, `experts_per_token` a token, behind a
    /// plain linear router: no shared expert, biases, latent or second expert set.
    pub fn routed(num_experts: u64, experts_per_token: u64, expert_intermediate: u64) -> Self {
        Moe {
            num_experts,
            experts_per_token,
            expert_intermediate,
            gated: true,
            shared_intermediate: 0,
            shared_expert_gate: false,
            router_bias: false,
            score_bias: false,
            expert_bias: false,
            latent: 0,
            modality_experts: 0,
            modality_intermediate: 0,
            router_hidden: 0,
        }
    }

    /// Parameters of one routed expert.
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn expert_params(&self, h: u64) -> Result<u64> {
        self.expert_params_at(h, self.expert_intermediate)
    }

    /// Parameters of one expert `i` wide (either set's).
    fn expert_params_at(&self, h: u64, i: u64) -> Result<u64> {
        let h = if self.latent > 0 { self.latent } else { h };
        let mats = if self.gated { 3 } else { 2 };
        let w = mul(&[h, i, mats])?;
        let b = if self.expert_bias { (mats - 1) * i + h } else { 0 };
        Ok(w.saturating_add(b))
    }

    /// The share of the routed experts' parameters in the first (text) set: 1 without a second
    /// set. What a text token reads of the experts is this share's `k / E`.
    pub fn first_set_share(&self, h: u64) -> f64 {
        if self.modality_experts == 0 {
            return 1.0;
        }
        let one = |i: u64| self.expert_params_at(h, i).unwrap_or(u64::MAX) as f64;
        let first = self.num_experts as f64 * one(self.expert_intermediate);
        let second = self.modality_experts as f64 * one(self.modality_intermediate);
        if first + second > 0.0 { first / (first + second) } else { 1.0 }
    }

    /// Parameters of the second expert set's router and its biases: stored, but passed by no
    /// token of the first modality.
    pub fn modality_router_params(&self, h: u64) -> u64 {
        if self.modality_experts == 0 {
            return 0;
        }
        let vectors = u64::from(self.router_bias) + u64::from(self.score_bias);
        self.modality_experts.saturating_mul(h.saturating_add(vectors))
    }

    /// One set of `n` routed experts `i` wide over `h`: the router's biases, then the experts'
    /// matrices and biases.
    fn expert_set(&self, n: u64, i: u64, h: u64, e: &mut Emit<'_>) {
        e.within(Part::Router, |e| {
            e.bias(self.router_bias, n);
            // DeepSeek's correction bias is stored in FP32 whatever the model's dtype.
            if self.score_bias {
                e.push(Role::Fp32, 1, n);
            }
        });
        e.within(Part::Experts, |e| {
            if self.gated {
                e.push_experts(Role::ExpGate, i, h, n);
            }
            e.push_experts(Role::ExpUp, i, h, n);
            e.push_experts(Role::ExpDown, h, i, n);
            if self.expert_bias {
                e.push_experts(Role::Bias, 1, if self.gated { 2 * i } else { i }, n);
                e.push_experts(Role::Bias, 1, h, n);
            }
        });
    }

    fn tensors(&self, hidden: u64, e: &mut Emit<'_>) {
        let (n, i) = (self.num_experts, self.expert_intermediate);
        if self.router_hidden > 0 {
            let r = self.router_hidden;
            e.within(Part::Router, |e| {
                e.push(Role::Router, r, hidden);
                e.bias(true, r);
                for _ in 0..2 {
                    e.push(Role::Router, r, r);
                    e.bias(true, r);
                }
                e.push(Role::Norm, 1, r);
                e.push(Role::Router, n + 1, r);
                e.push(Role::Fp32, 1, n + 1);
            });
        } else {
            e.push(Role::Router, n, hidden);
        }
        // The experts' own width: the latent when they work in one.
        let h = if self.latent > 0 {
            e.push(Role::MoeLatent, self.latent, hidden);
            e.push(Role::MoeLatent, hidden, self.latent);
            self.latent
        } else {
            hidden
        };
        self.expert_set(n, i, h, e);
        // The other modality's experts: their router, correction bias and matrices.
        if self.modality_experts > 0 {
            e.push(Role::Router, self.modality_experts, hidden);
            self.expert_set(self.modality_experts, self.modality_intermediate, h, e);
        }
        let h = hidden;
        if self.shared_intermediate > 0 {
            let s = self.shared_intermediate;
            if self.gated {
                e.push(Role::ShGate, s, h);
            }
            e.push(Role::ShUp, s, h);
            e.push(Role::ShDown, h, s);
            if self.shared_expert_gate {
                e.push(Role::ShExpGate, 1, h);
            }
        }
    }
}

impl Ffn {
    pub(crate) fn validate(&self) -> Result<()> {
        match self {
            Ffn::None => Ok(()),
            Ffn::Dense(m) => {
                positive("intermediate_size", m.intermediate_size)?;
                bounded("intermediate_size", m.intermediate_size)
            }
            Ffn::Moe(m) => {
                positive("num_experts", m.num_experts)?;
                positive("num_experts_per_tok", m.experts_per_token)?;
                positive("moe_intermediate_size", m.expert_intermediate)?;
                bounded("num_experts", m.num_experts.saturating_mul(m.expert_intermediate))?;
                bounded("shared_expert_intermediate_size", m.shared_intermediate)?;
                bounded("modality experts", m.modality_experts.saturating_mul(m.modality_intermediate))?;
                if (m.modality_experts == 0) != (m.modality_intermediate == 0) {
                    return Err(Error::invalid(
                        "moe_intermediate_size",
                        "a second expert set needs both a count and a width",
                    ));
                }
                if m.experts_per_token > m.num_experts {
                    return Err(Error::invalid(
                        "num_experts_per_tok",
                        alloc::format!(
                            "{} experts per token but only {} experts",
                            m.experts_per_token,
                            m.num_experts
                        ),
                    ));
                }
                Ok(())
            }
        }
    }

    pub(crate) fn tensors(&self, h: u64, e: &mut Emit<'_>) {
        match self {
            Ffn::None => {}
            Ffn::Dense(m) => e.within(Part::Mlp, |e| m.tensors(h, e)),
            Ffn::Moe(m) => e.within(Part::SharedExperts, |e| m.tensors(h, e)),
        }
    }

    /// Inner width a token passes through (dense width; MoE: its experts and the shared ones).
    pub fn active_width(&self) -> u64 {
        match self {
            Ffn::None => 0,
            Ffn::Dense(m) => m.intermediate_size,
            Ffn::Moe(m) => m
                .expert_intermediate
                .saturating_mul(m.experts_per_token)
                .saturating_add(m.shared_intermediate),
        }
    }
}
