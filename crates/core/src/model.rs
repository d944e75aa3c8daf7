//! Model architectures and exact parameter counting.
//!
//! An [`Architecture`] describes a decoder-only transformer with enough detail to count every
//! tensor a checkpoint stores: attention (MHA, GQA, MQA or DeepSeek's MLA), dense or gated MLPs,
//! mixtures of experts with shared experts and dense-first layers, norms, biases, learned position
//! embeddings, tied or untied embeddings, and which layers use a sliding window.
//!
//! Counts follow the tensors `safetensors` stores (tied embeddings once, every expert), which is
//! what Hugging Face `transformers` reports and what `../shared/validation/reference.jsonl` holds.

use alloc::string::String;

use crate::error::{Error, OrOverflow, Result};
use crate::units::Params;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The largest layer count accepted: real models have at most a few hundred; anything far above
/// is a corrupt or hostile file, refused before any per-layer work.
pub const MAX_LAYERS: u64 = 4096;

/// A decoder-only transformer.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Architecture {
    /// Family, as Hugging Face's `model_type` names it (`llama`, `qwen3_moe`…).
    pub family: String,
    /// Vocabulary size (rows of the embedding matrix).
    pub vocab_size: u64,
    /// Width of the residual stream.
    pub hidden_size: u64,
    /// Number of transformer blocks.
    pub num_layers: u64,
    /// The attention block.
    pub attention: Attention,
    /// The dense MLP (used by every layer without experts).
    pub mlp: Mlp,
    /// Mixture of experts, when some layers route tokens to experts.
    pub moe: Option<Moe>,
    /// Normalisation layers.
    pub norms: Norms,
    /// Learned absolute position embeddings (GPT-2), in rows; 0 for rotary or none.
    pub learned_positions: u64,
    /// Whether the output head shares the input embedding matrix.
    pub tie_word_embeddings: bool,
    /// How many layers attend within a sliding window rather than to the whole context.
    pub sliding_layers: u64,
    /// The window of those layers, in tokens.
    pub sliding_window: Option<u64>,
    /// The longest context the model was trained for.
    pub max_context: u64,
}

/// The attention block of every layer.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "kind", rename_all = "snake_case"))]
pub enum Attention {
    /// Multi-head attention with separate key/value heads: MHA (kv = heads), GQA, MQA (kv = 1).
    Standard(StandardAttention),
    /// DeepSeek's multi-head latent attention.
    Mla(MlaAttention),
}

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
}

/// Standard multi-head attention with grouped key/value heads.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct StandardAttention {
    /// Query heads.
    pub num_heads: u64,
    /// Key/value heads (equal to `num_heads` for MHA, 1 for MQA).
    pub num_kv_heads: u64,
    /// Width of one head (not always hidden / heads: Qwen3, Gemma).
    pub head_dim: u64,
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
}

/// DeepSeek V2/V3 multi-head latent attention.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MlaAttention {
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
}

/// A feed-forward block.
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

/// A mixture of experts.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Moe {
    /// Routed experts per MoE layer.
    pub num_experts: u64,
    /// Experts each token is routed to.
    pub experts_per_token: u64,
    /// Inner width of one routed expert (gated, like the dense MLP).
    pub expert_intermediate: u64,
    /// Total inner width of the always-on shared expert(s); 0 when none.
    pub shared_intermediate: u64,
    /// A sigmoid gate on the shared expert's output (Qwen2-MoE: a `hidden × 1` matrix).
    pub shared_expert_gate: bool,
    /// Bias on the router (gpt-oss).
    pub router_bias: bool,
    /// Biases inside each expert (gpt-oss: gate-up and down biases).
    pub expert_bias: bool,
    /// Number of layers that use experts; the others use the dense MLP.
    pub moe_layers: u64,
}

/// Kind of normalisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum NormKind {
    /// RMSNorm: one weight vector.
    Rms,
    /// LayerNorm with weight and bias.
    LayerNorm,
}

/// The hidden-size norms of the model.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Norms {
    /// RMSNorm or LayerNorm.
    pub kind: NormKind,
    /// Hidden-size norms in each layer (2 for most; 4 for Gemma 2/3; 1 for Falcon-7B).
    pub per_layer: u64,
}

/// Parameters by part of the model. The parts sum to [`ParamBreakdown::total`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ParamBreakdown {
    /// Input token embeddings.
    pub embeddings: u64,
    /// Learned position embeddings.
    pub positions: u64,
    /// Attention projections, their biases, query/key norms, sinks and MLA norms, all layers.
    pub attention: u64,
    /// Dense MLPs, all dense layers.
    pub mlp: u64,
    /// Routed experts, all of them in all MoE layers.
    pub experts: u64,
    /// Shared experts and their gates.
    pub shared_experts: u64,
    /// Routers.
    pub router: u64,
    /// Layer norms and the final norm.
    pub norms: u64,
    /// Output head, when not tied to the embeddings.
    pub output: u64,
}

impl ParamBreakdown {
    /// Every parameter.
    pub fn total(&self) -> u64 {
        self.embeddings
            .saturating_add(self.positions)
            .saturating_add(self.attention)
            .saturating_add(self.mlp)
            .saturating_add(self.experts)
            .saturating_add(self.shared_experts)
            .saturating_add(self.router)
            .saturating_add(self.norms)
            .saturating_add(self.output)
    }
}

/// Checked arithmetic helper: a product of counts or an overflow error.
fn mul(values: &[u64]) -> Result<u64> {
    let mut acc: u64 = 1;
    for v in values {
        acc = acc.checked_mul(*v).or_overflow("parameter count")?;
    }
    Ok(acc)
}

fn add(values: &[u64]) -> Result<u64> {
    let mut acc: u64 = 0;
    for v in values {
        acc = acc.checked_add(*v).or_overflow("parameter count")?;
    }
    Ok(acc)
}

impl StandardAttention {
    /// Width of all query heads together.
    pub fn q_width(&self) -> u64 {
        self.num_heads.saturating_mul(self.head_dim)
    }

    /// Width of all key (or value) heads together.
    pub fn kv_width(&self) -> u64 {
        self.num_kv_heads.saturating_mul(self.head_dim)
    }
}

impl Architecture {
    /// Checks that the shape is usable: every size positive where it must be, heads that divide,
    /// layer counts within [`MAX_LAYERS`].
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the field.
    pub fn validate(&self) -> Result<()> {
        let positive = |field: &'static str, v: u64| {
            if v == 0 { Err(Error::invalid(field, "must be more than zero")) } else { Ok(()) }
        };
        positive("vocab_size", self.vocab_size)?;
        positive("hidden_size", self.hidden_size)?;
        positive("num_hidden_layers", self.num_layers)?;
        if self.num_layers > MAX_LAYERS {
            return Err(Error::invalid(
                "num_hidden_layers",
                alloc::format!("{} layers is not a real model (at most {MAX_LAYERS})", self.num_layers),
            ));
        }
        match &self.attention {
            Attention::Standard(a) => {
                positive("num_attention_heads", a.num_heads)?;
                positive("num_key_value_heads", a.num_kv_heads)?;
                positive("head_dim", a.head_dim)?;
                if a.num_kv_heads > a.num_heads || a.num_heads % a.num_kv_heads != 0 {
                    return Err(Error::invalid(
                        "num_key_value_heads",
                        alloc::format!(
                            "{} key/value heads must divide {} attention heads",
                            a.num_kv_heads,
                            a.num_heads
                        ),
                    ));
                }
            }
            Attention::Mla(m) => {
                positive("num_attention_heads", m.num_heads)?;
                positive("kv_lora_rank", m.kv_lora_rank)?;
                positive("qk_rope_head_dim", m.qk_rope_head_dim)?;
                positive("v_head_dim", m.v_head_dim)?;
            }
        }
        if let Some(moe) = &self.moe {
            positive("num_experts", moe.num_experts)?;
            positive("num_experts_per_tok", moe.experts_per_token)?;
            positive("moe_intermediate_size", moe.expert_intermediate)?;
            if moe.experts_per_token > moe.num_experts {
                return Err(Error::invalid(
                    "num_experts_per_tok",
                    alloc::format!(
                        "{} experts per token but only {} experts",
                        moe.experts_per_token,
                        moe.num_experts
                    ),
                ));
            }
            if moe.moe_layers > self.num_layers {
                return Err(Error::invalid("moe layers", "more MoE layers than layers"));
            }
        }
        if self.sliding_layers > self.num_layers {
            return Err(Error::invalid("layer_types", "more sliding-window layers than layers"));
        }
        if self.sliding_layers > 0 && self.sliding_window.unwrap_or(0) == 0 {
            return Err(Error::invalid("sliding_window", "sliding layers need a window of at least 1 token"));
        }
        Ok(())
    }

    /// Layers that use the dense MLP.
    pub fn dense_layers(&self) -> u64 {
        self.num_layers - self.moe.as_ref().map_or(0, |m| m.moe_layers.min(self.num_layers))
    }

    /// Parameters of one layer's attention block.
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn attention_params_per_layer(&self) -> Result<u64> {
        let h = self.hidden_size;
        match &self.attention {
            Attention::Standard(a) => {
                let q = a.q_width();
                let kv = a.kv_width();
                let proj = add(&[mul(&[h, q])?, mul(&[h, kv, 2])?, mul(&[q, h])?])?;
                let qkv_bias = if a.qkv_bias { add(&[q, kv, kv])? } else { 0 };
                let o_bias = if a.o_bias { h } else { 0 };
                let norms = match a.qk_norm {
                    QkNorm::None => 0,
                    QkNorm::PerHead => mul(&[a.head_dim, 2])?,
                    QkNorm::Full => add(&[q, kv])?,
                };
                let sinks = if a.sinks { a.num_heads } else { 0 };
                add(&[proj, qkv_bias, o_bias, norms, sinks])
            }
            Attention::Mla(m) => {
                let qk_head = add(&[m.qk_nope_head_dim, m.qk_rope_head_dim])?;
                let q = match m.q_lora_rank {
                    Some(r) => add(&[mul(&[h, r])?, r, mul(&[r, m.num_heads, qk_head])?])?,
                    None => mul(&[h, m.num_heads, qk_head])?,
                };
                let kv_a = mul(&[h, add(&[m.kv_lora_rank, m.qk_rope_head_dim])?])?;
                let kv_norm = m.kv_lora_rank;
                let kv_b = mul(&[m.kv_lora_rank, m.num_heads, add(&[m.qk_nope_head_dim, m.v_head_dim])?])?;
                let o = mul(&[m.num_heads, m.v_head_dim, h])?;
                add(&[q, kv_a, kv_norm, kv_b, o])
            }
        }
    }

    /// Parameters of one dense MLP.
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn mlp_params(&self, intermediate: u64, bias: bool) -> Result<u64> {
        let h = self.hidden_size;
        let mats = if self.mlp.gated { 3 } else { 2 };
        let weights = mul(&[h, intermediate, mats])?;
        let b = if bias { add(&[mul(&[intermediate, mats - 1])?, h])? } else { 0 };
        add(&[weights, b])
    }

    /// Parameters of one routed expert (gated, like the dense MLP, with gpt-oss's biases).
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn expert_params(&self, moe: &Moe) -> Result<u64> {
        let h = self.hidden_size;
        let i = moe.expert_intermediate;
        let weights = mul(&[h, i, 3])?;
        let b = if moe.expert_bias { add(&[mul(&[i, 2])?, h])? } else { 0 };
        add(&[weights, b])
    }

    /// Every parameter, by part.
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    ///
    /// # Example
    /// ```
    /// use headroom_core::catalog;
    /// let m = catalog::model("llama-3.1-8b").unwrap().architecture().unwrap();
    /// assert_eq!(m.param_breakdown().unwrap().total(), 8_030_261_248);
    /// ```
    pub fn param_breakdown(&self) -> Result<ParamBreakdown> {
        let h = self.hidden_size;
        let l = self.num_layers;
        let embeddings = mul(&[self.vocab_size, h])?;
        let positions = mul(&[self.learned_positions, h])?;
        let attention = mul(&[self.attention_params_per_layer()?, l])?;
        let dense = self.dense_layers();
        let mlp = mul(&[self.mlp_params(self.mlp.intermediate_size, self.mlp.bias)?, dense])?;
        let (experts, shared_experts, router) = match &self.moe {
            Some(moe) => {
                let layers = moe.moe_layers;
                let experts = mul(&[self.expert_params(moe)?, moe.num_experts, layers])?;
                let shared_one = if moe.shared_intermediate > 0 {
                    add(&[
                        self.mlp_params(moe.shared_intermediate, false)?,
                        if moe.shared_expert_gate { h } else { 0 },
                    ])?
                } else {
                    0
                };
                let shared = mul(&[shared_one, layers])?;
                let router_one =
                    add(&[mul(&[moe.num_experts, h])?, if moe.router_bias { moe.num_experts } else { 0 }])?;
                (experts, shared, mul(&[router_one, layers])?)
            }
            None => (0, 0, 0),
        };
        let norm_width = match self.norms.kind {
            NormKind::Rms => h,
            NormKind::LayerNorm => mul(&[h, 2])?,
        };
        let norms = add(&[mul(&[norm_width, self.norms.per_layer, l])?, norm_width])?;
        let output = if self.tie_word_embeddings { 0 } else { embeddings };
        let b = ParamBreakdown {
            embeddings,
            positions,
            attention,
            mlp,
            experts,
            shared_experts,
            router,
            norms,
            output,
        };
        // The sum must fit too.
        add(&[
            b.embeddings,
            b.positions,
            b.attention,
            b.mlp,
            b.experts,
            b.shared_experts,
            b.router,
            b.norms,
            b.output,
        ])?;
        Ok(b)
    }

    /// Every stored parameter (tied embeddings once, every expert).
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn params_total(&self) -> Result<Params> {
        Ok(Params::new(self.param_breakdown()?.total()))
    }

    /// Parameters used per token: everything except the routed experts, plus their
    /// `experts_per_token / num_experts` share (embeddings and output head included).
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn params_active(&self) -> Result<Params> {
        let b = self.param_breakdown()?;
        let total = b.total();
        Ok(Params::new(match &self.moe {
            Some(moe) => {
                let active_experts =
                    (b.experts as u128 * moe.experts_per_token as u128 / moe.num_experts as u128) as u64;
                total - b.experts + active_experts
            }
            None => total,
        }))
    }

    /// Key/value elements cached per token in one full-attention layer (both K and V; for MLA the
    /// single latent of `kv_lora_rank + qk_rope_head_dim`).
    pub fn kv_elements_per_token_per_layer(&self) -> u64 {
        match &self.attention {
            Attention::Standard(a) => a.kv_width().saturating_mul(2),
            Attention::Mla(m) => m.kv_lora_rank.saturating_add(m.qk_rope_head_dim),
        }
    }

    /// Query heads.
    pub fn num_heads(&self) -> u64 {
        match &self.attention {
            Attention::Standard(a) => a.num_heads,
            Attention::Mla(m) => m.num_heads,
        }
    }

    /// Key/value heads (MLA: 1 shared latent).
    pub fn num_kv_heads(&self) -> u64 {
        match &self.attention {
            Attention::Standard(a) => a.num_kv_heads,
            Attention::Mla(_) => 1,
        }
    }

    /// A one-line description of the shape (`32 layers, GQA 32/8 heads × 128, SwiGLU 14336`).
    pub fn summary(&self) -> String {
        use core::fmt::Write;
        let mut s = String::new();
        let _ = write!(s, "{} layers, hidden {}", self.num_layers, self.hidden_size);
        match &self.attention {
            Attention::Standard(a) => {
                let kind = if a.num_kv_heads == a.num_heads {
                    "MHA"
                } else if a.num_kv_heads == 1 {
                    "MQA"
                } else {
                    "GQA"
                };
                let _ = write!(s, ", {kind} {}/{} heads × {}", a.num_heads, a.num_kv_heads, a.head_dim);
            }
            Attention::Mla(m) => {
                let _ = write!(
                    s,
                    ", MLA {} heads, latent {}+{}",
                    m.num_heads, m.kv_lora_rank, m.qk_rope_head_dim
                );
            }
        }
        if let Some(moe) = &self.moe {
            let _ = write!(s, ", MoE {} experts (top {})", moe.num_experts, moe.experts_per_token);
        }
        if self.sliding_layers > 0 {
            let _ = write!(
                s,
                ", {} of {} layers sliding ({} tokens)",
                self.sliding_layers,
                self.num_layers,
                self.sliding_window.unwrap_or(0)
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Llama-2-7B by hand: 32 layers, MHA 32 × 128, SwiGLU 11008, vocab 32000, untied.
    pub(crate) fn llama2_7b() -> Architecture {
        Architecture {
            family: "llama".into(),
            vocab_size: 32000,
            hidden_size: 4096,
            num_layers: 32,
            attention: Attention::Standard(StandardAttention {
                num_heads: 32,
                num_kv_heads: 32,
                head_dim: 128,
                qkv_bias: false,
                o_bias: false,
                qk_norm: QkNorm::None,
                fused_qkv: false,
                sinks: false,
            }),
            mlp: Mlp { intermediate_size: 11008, gated: true, bias: false, fused_gate_up: false },
            moe: None,
            norms: Norms { kind: NormKind::Rms, per_layer: 2 },
            learned_positions: 0,
            tie_word_embeddings: false,
            sliding_layers: 0,
            sliding_window: None,
            max_context: 4096,
        }
    }

    #[test]
    fn llama2_7b_is_exact() {
        let a = llama2_7b();
        let b = a.param_breakdown().unwrap();
        assert_eq!(b.total(), 6_738_415_616);
        assert_eq!(b.embeddings, 131_072_000);
        assert_eq!(a.params_active().unwrap().get(), 6_738_415_616);
        assert_eq!(a.kv_elements_per_token_per_layer(), 8192);
    }

    #[test]
    fn absurd_sizes_are_errors_not_panics() {
        let mut a = llama2_7b();
        a.hidden_size = u64::MAX / 3;
        assert!(matches!(a.param_breakdown(), Err(Error::Overflow { .. })));
        a.hidden_size = 4096;
        a.num_layers = 1 << 40;
        assert!(a.validate().is_err());
        a.num_layers = 32;
        if let Attention::Standard(att) = &mut a.attention {
            att.num_kv_heads = 5;
        }
        assert!(a.validate().is_err());
    }
}
