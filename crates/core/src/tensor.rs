//! The vocabulary of stored tensors: what a tensor does ([`Role`]), which part of the model it
//! belongs to ([`Part`]) and its shape ([`Tensor`]). The model's layers emit these; pricing,
//! placement and stored-name reading use them. It depends on nothing else in the crate.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// What a tensor does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
#[allow(missing_docs)]
pub enum Role {
    TokenEmbd,
    PosEmbd,
    Output,
    AttnQ,
    AttnK,
    AttnV,
    AttnQkv,
    AttnOut,
    AttnQA,
    AttnQB,
    AttnKvA,
    AttnKvB,
    /// The first half of a low-rank output projection (DeepSeek V4's grouped `wo_a`).
    AttnOutA,
    /// A KV compressor's projections (DeepSeek V4's `compressor.wkv` / `wgate`: stored in 16
    /// bits, never quantized).
    Compressor,
    /// Query/key norms, MLA's latent norms: vectors inside the attention block.
    AttnNorm,
    /// The sparse-attention indexer's query, key and head-weight projections (DeepSeek V3.2).
    IdxQ,
    IdxK,
    IdxWeights,
    FfnGate,
    FfnUp,
    FfnGateUp,
    FfnDown,
    ExpGate,
    ExpUp,
    ExpDown,
    ShGate,
    ShUp,
    ShDown,
    ShExpGate,
    Router,
    /// The projections into and out of a MoE's latent width around its experts (Nemotron 3's
    /// `fc1_latent_proj`/`fc2_latent_proj`, Kimi K3's `routed_expert_down_proj`/`up_proj`, Muse
    /// Spark's pooler): `ReplicatedLinear` in vLLM, whole on every tensor-parallel rank.
    MoeLatent,
    /// Input projection of a recurrent mixer (Mamba `in_proj`, Gated DeltaNet `in_proj_qkvz`…).
    MixIn,
    /// Output projection of a recurrent mixer.
    MixOut,
    /// A small projection inside a recurrent mixer (Mamba's `x_proj`, `dt_proj`).
    MixProj,
    /// The causal convolution of a recurrent mixer (depthwise, a few taps per channel).
    MixConv,
    /// Per-channel or per-head vectors of a recurrent mixer (`A_log`, `D`, `dt_bias`, gated norms).
    MixState,
    /// A multi-token-prediction module's projection of `[embedding; hidden]` (`eh_proj`).
    MtpProj,
    /// A block matrix of a family-specific extra (Gemma 3n's AltUp and LAuReL projections).
    Extra,
    /// An embedding table beside the token embeddings (Gemma 3n's per-layer embeddings).
    ExtraEmbd,
    Norm,
    Bias,
    Sinks,
    /// A tensor every checkpoint keeps in FP32 whatever the model's dtype (DeepSeek V4's
    /// hyper-connection mixers, attention sinks and compressor position biases).
    Fp32,
    /// An integer routing table, int64 (DeepSeek V4's hash-routed layers' `tid2eid`).
    HashTable,
    /// A vector the checkpoint stores but training never updates (HRM-Text's `z_L_init`, built
    /// with `requires_grad=False`): weights only, no gradient or optimizer state.
    Frozen,
    /// A tensor of a vision or audio encoder or its projector (multimodal checkpoints).
    Encoder,
    /// A tensor of an omni model's speech output (the talker and its vocoder: `talker.*`,
    /// `code2wav.*`, `token2wav.*`): built by transformers, dropped by vLLM and SGLang.
    Speech,
}

/// The part of the model a tensor is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
#[allow(missing_docs)]
pub enum Part {
    Embeddings,
    Positions,
    Attention,
    Recurrent,
    Mlp,
    Experts,
    SharedExperts,
    Router,
    Norms,
    Output,
    Other,
    Encoders,
}

impl Role {
    /// A matrix multiplied with activations inside a block: what GPTQ, AWQ, bitsandbytes and
    /// FP8 checkpoints quantize.
    pub fn is_block_linear(self) -> bool {
        use Role::*;
        matches!(
            self,
            AttnQ
                | AttnK
                | AttnV
                | AttnQkv
                | AttnOut
                | AttnQA
                | AttnQB
                | AttnKvA
                | AttnKvB
                | AttnOutA
                | IdxQ
                | IdxK
                | FfnGate
                | FfnUp
                | FfnGateUp
                | FfnDown
                | ExpGate
                | ExpUp
                | ExpDown
                | ShGate
                | ShUp
                | ShDown
                | MixIn
                | MixOut
                | MtpProj
                | Extra
        )
    }

    /// A routed-expert matrix.
    pub fn is_expert(self) -> bool {
        matches!(self, Role::ExpGate | Role::ExpUp | Role::ExpDown)
    }

    /// A vector or tiny tensor (norm weights, biases, sinks, convolution taps, SSM vectors):
    /// stored in full precision by every tool.
    pub fn is_vector(self) -> bool {
        matches!(
            self,
            Role::Norm
                | Role::AttnNorm
                | Role::Bias
                | Role::Sinks
                | Role::MixConv
                | Role::MixState
                | Role::Frozen
        )
    }

    /// Bytes of one value whatever the weights' format, for tensors stored at a fixed width
    /// (FP32 state, int64 tables).
    pub fn fixed_width(self) -> Option<u64> {
        match self {
            Role::Fp32 => Some(4),
            Role::HashTable => Some(8),
            _ => None,
        }
    }

    /// The part of the model the tensor is counted in. Biases (and FP32 vectors) count with the
    /// norms here; the layers' own parameter breakdown attributes them to their block.
    pub fn part(self) -> Part {
        use Role::*;
        match self {
            TokenEmbd => Part::Embeddings,
            PosEmbd => Part::Positions,
            Output => Part::Output,
            AttnQ | AttnK | AttnV | AttnQkv | AttnOut | AttnQA | AttnQB | AttnKvA | AttnKvB | AttnOutA
            | Compressor | AttnNorm | IdxQ | IdxK | IdxWeights | Sinks => Part::Attention,
            FfnGate | FfnUp | FfnGateUp | FfnDown => Part::Mlp,
            ExpGate | ExpUp | ExpDown => Part::Experts,
            ShGate | ShUp | ShDown | ShExpGate => Part::SharedExperts,
            Router | HashTable => Part::Router,
            MixIn | MixOut | MixProj | MixConv | MixState => Part::Recurrent,
            MtpProj | Extra | ExtraEmbd | MoeLatent => Part::Other,
            Norm | Bias | Fp32 | Frozen => Part::Norms,
            Encoder | Speech => Part::Encoders,
        }
    }
}

/// One tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Tensor {
    /// What it does.
    pub role: Role,
    /// Its layer, or `None` for embeddings, head and the final norm.
    pub layer: Option<u32>,
    /// Output features (rows); 1 for vectors.
    pub rows: u64,
    /// Input features (the length of one row, ggml's `ne[0]`).
    pub cols: u64,
    /// Experts stacked in this tensor (ggml's `ne[2]`); 1 for everything else.
    pub experts: u64,
}

impl Tensor {
    /// Number of elements (saturating: shapes are validated before).
    pub fn elements(&self) -> u64 {
        self.rows.saturating_mul(self.cols).saturating_mul(self.experts)
    }
}
