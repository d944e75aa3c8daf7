//! Model architectures as stacks of layers, and exact parameter counting.
//!
//! An [`Architecture`] is a decoder: token embeddings, a stack of layers and an output head. The
//! stack is stored as run-length [`LayerGroup`]s (a 128-layer model with two alternating kinds of
//! layer is a few groups, not 128 copies). Each layer has its *mixers* — usually one: full,
//! sliding or chunked attention ([`attention`]), multi-head latent attention with or without a
//! sparse-attention indexer ([`mla`]), Gated DeltaNet linear attention ([`linear`]), a Mamba or
//! Mamba-2 state-space model or a short convolution ([`ssm`]); none for the MLP-only layers of
//! Nemotron-H; two in parallel for Falcon-H1 — and a feed-forward ([`ffn`]: dense gated or
//! plain, a mixture of experts, or none).
//!
//! Every kind of block knows its tensors, its cache or state, and its attention FLOPs. Parameter
//! counting, weight pricing, KV cache and state, activations, speed and LoRA targets all walk the
//! same stack. Counts follow the tensors `safetensors` stores (tied embeddings once, every
//! expert), which is what Hugging Face `transformers` reports; multi-token-prediction modules are
//! stored in some checkpoints but not built by `transformers`, so they are counted apart.
//!
//! Design anchors: vLLM's per-layer-group `KVCacheSpec`, llama.cpp's per-layer hyper-parameter
//! arrays and `transformers`' `layer_types` key.

pub mod attention;
pub mod csa;
pub mod encoder;
pub mod ffn;
pub mod linear;
pub mod mla;
pub mod ssm;

pub use encoder::{Encoder, Modality, SpeechOutput, TokenRule};

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, OrOverflow, Result};
use crate::tensor::{Part, Role, Tensor};
use crate::units::Params;

pub use attention::{Attention, Mova, QkNorm, Span};
pub use csa::{CompressedAttention, Shares};
pub use ffn::{Ffn, Mlp, Moe};
pub use linear::{GatedDeltaNet, KimiDeltaAttention, LightningAttention};
pub use mla::{Indexer, Mla};
pub use ssm::{ConvState, Mamba, MambaVersion, ShortConv};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The largest layer count accepted: real models have at most a few hundred; anything far above
/// is a corrupt or hostile file, refused before any per-layer work.
pub const MAX_LAYERS: u64 = 4096;

/// The most run-length groups a stack may have (one per layer at worst).
pub const MAX_GROUPS: usize = MAX_LAYERS as usize;

/// How far an architecture can be trusted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Confidence {
    /// The checkpoint's own tensors (safetensors or GGUF headers) fix every weight.
    Exact,
    /// A family Headroom reads key by key, as `transformers` builds it.
    #[default]
    Config,
    /// An unknown family read from the structural keys Headroom understands: the band widens.
    Inferred,
    /// No shape at all: a bare parameter count with a stand-in model's shape.
    StandIn,
}

impl Confidence {
    /// The id written in JSON and links (`exact`, `config`, `inferred`, `stand_in`).
    pub const fn id(self) -> &'static str {
        match self {
            Confidence::Exact => "exact",
            Confidence::Config => "config",
            Confidence::Inferred => "inferred",
            Confidence::StandIn => "stand_in",
        }
    }
}

/// A decoder-only model.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Architecture {
    /// Family, as Hugging Face's `model_type` names it (`llama`, `qwen3_moe`…).
    pub family: String,
    /// Vocabulary size (rows of the embedding matrix).
    pub vocab_size: u64,
    /// Width of the residual stream.
    pub hidden_size: u64,
    /// The layers, bottom to top, as run-length groups.
    pub groups: Vec<LayerGroup>,
    /// The kind of every hidden-size norm (in the layers and the final one).
    pub norm: NormKind,
    /// Learned absolute position embeddings (GPT-2), in rows; 0 for rotary or none.
    pub learned_positions: u64,
    /// Whether the output head shares the input embedding matrix.
    pub tie_word_embeddings: bool,
    /// A bias on the output head (Phi-1/2).
    pub head_bias: bool,
    /// A norm on the embeddings before the first layer (BLOOM's `word_embeddings_layernorm`).
    pub embedding_norm: bool,
    /// Tensors outside the layers beside embeddings, final norm and head (Gemma 3n's per-layer
    /// embeddings and AltUp projections).
    pub extras: Vec<Extra>,
    /// Multi-token-prediction modules the checkpoint stores after the last layer.
    pub mtp: Option<Mtp>,
    /// The longest context the model was trained for.
    pub max_context: u64,
    /// Bytes per value of the recurrent (SSM / delta-rule) state the checkpoint asks runtimes
    /// to keep (`mamba_ssm_cache_dtype: float32` → 4); `None`: the model's dtype.
    pub ssm_state_bytes: Option<u64>,
    /// The checkpoint's quantization tensor by tensor, when its config states one.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub quant: Option<crate::quant::QuantPlan>,
    /// Vision and audio encoders with their projectors (multimodal checkpoints).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub encoders: Vec<Encoder>,
    /// The speech-output stack transformers builds beside the thinker (Qwen3-Omni's talker and
    /// code2wav), which vLLM and SGLang do not load.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub speech_output: Option<SpeechOutput>,
    /// The vision config's `num_hidden_layers` (or `depth`) and `hidden_size` as a runtime reads
    /// them (24 and 1,024 when absent), for a model whose config has one (SGLang sizes its memory
    /// fraction by them).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub vision_config_size: Option<(u64, u64)>,
    /// A block-diffusion model's canvas: the tokens it denoises at once after writing the cache
    /// causally (DiffusionGemma's `canvas_length`); 0 for a model that decodes token by token.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub canvas: u64,
    /// Hidden states of every token a forward pass keeps beside its working set: Kimi K3's
    /// attention residuals keep one per block of `attn_res_block_size` layers (vLLM's
    /// `block_residual`); 0 for a plain residual stream.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub residual_blocks: u64,
    /// Distances a global layer's learned relative-position bias spans, in place of rotary
    /// positions (Inkling's `rel_extent`; its sliding layers span their window); 0 without.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub rel_extent: u64,
    /// Taps of the short convolutions beside every attention layer whose last inputs a sequence
    /// keeps (Inkling's `sconv_kernel_size`, on K, V and the attention's and MLP's outputs); 0
    /// without.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub short_conv_taps: u64,
    /// Rotary widths of the distinct cos/sin caches vLLM builds when layers differ in rotary
    /// width, base or scaling (Step 5: its sliding layers' full-width rotary, its full layers'
    /// third, its indexer's 32), one each; empty: one cache of the widest head.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub rotary_widths: Vec<u64>,
    /// Cache layers `[start, end)` that run without gradients in training (HRM-Text's early low
    /// cycles, under `torch.no_grad()`): they keep no activations for the backward pass.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub no_grad: Vec<(u64, u64)>,
    /// What runtimes pick their implementation by, as the config names it (empty when the model
    /// was not read from a config: a GGUF header, a bare shape).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Checkpoint::is_empty"))]
    pub checkpoint: Checkpoint,
}

#[cfg(feature = "serde")]
fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// The keys of a checkpoint's `config.json` by which runtimes pick their implementation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Checkpoint {
    /// The class `architectures` names first (`LlamaForCausalLM`): llama.cpp's converter,
    /// Ollama, vLLM and SGLang pick by it. Empty when the config names none.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "String::is_empty"))]
    pub class: String,
    /// The class a multimodal config's text config names (`text_config.architectures`), which
    /// llama.cpp's converter reads for the text model; empty when it names none.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "String::is_empty"))]
    pub text_class: String,
    /// The top-level `model_type` as written (mlx-lm picks its model by it).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "String::is_empty"))]
    pub model_type: String,
    /// The config names its own configuration class in `auto_map` (`AutoConfig`): runtimes
    /// that do not know its `model_type` build it from the repository's code, which vLLM and
    /// SGLang run only with `--trust-remote-code`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "core::ops::Not::not"))]
    pub remote_code: bool,
}

impl Checkpoint {
    /// Nothing read from a config.
    pub fn is_empty(&self) -> bool {
        *self == Checkpoint::default()
    }
}

/// `count` consecutive layers of the same kind.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct LayerGroup {
    /// How many layers in a row.
    pub count: u64,
    /// The token mixers of each layer (none, one, or several in parallel).
    pub mixers: Vec<Mixer>,
    /// The feed-forward block.
    pub ffn: Ffn,
    /// Hidden-size norms in each layer (2 for most; 4 for Gemma 2/3; 1 for Falcon-7B, Nemotron-H).
    pub norms: u64,
    /// Family-specific tensors of each layer (Gemma 3n's AltUp and LAuReL).
    pub extras: Vec<Extra>,
    /// The layers run weights stored by earlier layers (a looped model's later passes: IQuest's
    /// LoopCoder): they cost compute, activations and their own cache, but store no tensor.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "core::ops::Not::not"))]
    pub tied: bool,
    /// What a `tied` layer stores itself beside the weights it reuses; `None`: nothing.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub own: Option<Own>,
}

/// The part of a tied layer that is its own (Zamba2's hybrid layers run a transformer block
/// stored by the first layers that use it, but each keeps its Mamba-2 mixer, that mixer's norm
/// and the projection after the block): the last `mixers` of [`LayerGroup::mixers`], `norms` of
/// its hidden norms and the last `extras` of its [`LayerGroup::extras`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Own {
    /// Mixers, counted from the last.
    pub mixers: u64,
    /// Hidden-size norms.
    pub norms: u64,
    /// Extras, counted from the last.
    pub extras: u64,
}

/// A token mixer: how a layer reads the other tokens.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "kind", rename_all = "snake_case"))]
pub enum Mixer {
    /// Softmax attention over keys and values (full, sliding window or chunked).
    Attention(Attention),
    /// Multi-head latent attention (DeepSeek V2/V3, Kimi K2), optionally with DSA's indexer.
    Mla(Mla),
    /// DeepSeek V4's compressed attention: a sliding window and rows pooled every few tokens.
    Compressed(CompressedAttention),
    /// Gated DeltaNet linear attention (Qwen3-Next, Qwen3.5).
    GatedDeltaNet(GatedDeltaNet),
    /// Kimi Delta Attention (Kimi Linear).
    Kda(KimiDeltaAttention),
    /// Lightning attention (MiniMax-M1, Ling 2.5/2.6).
    Lightning(LightningAttention),
    /// A Mamba or Mamba-2 selective state-space model.
    Mamba(Mamba),
    /// A gated short convolution (LFM2).
    ShortConv(ShortConv),
    /// The state a convolutional attention keeps beside its cache (ZAYA); no tensor of its own.
    ConvState(ConvState),
}

/// A family-specific tensor: its role, and its shape for one layer (or the model).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Extra {
    /// [`Role::Extra`] (a matrix), [`Role::ExtraEmbd`] (an embedding table) or [`Role::Norm`].
    pub role: Role,
    /// Rows.
    pub rows: u64,
    /// Columns.
    pub cols: u64,
}

/// Multi-token-prediction modules (DeepSeek V3, GLM-4.5, MiMo, Qwen3-Next): each one decoder
/// layer like the stack's last, two norms and a projection of `[embedding; hidden]`, and a norm
/// before the shared head; some checkpoints store their own copies of the embedding and head.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Mtp {
    /// Modules.
    pub modules: u64,
    /// Each module stores its own embedding table and head (DeepSeek V3's checkpoint does).
    pub own_embeddings: bool,
    /// The module's own layer when it is not like the stack's last (DeepSeek V4's attends
    /// through its window only).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub layer: Option<alloc::boxed::Box<LayerGroup>>,
    /// Tensors of the module beside its layer, projection and norms (DeepSeek V4's own
    /// hyper-connection head).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub extras: Vec<Extra>,
    /// The modules are their layers only, with no norms and projection of the embedding and
    /// hidden state of their own (DeepSeek V4.1's DSpark stages).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "core::ops::Not::not"))]
    pub bare: bool,
    /// Tensors the modules share, stored once (DSpark's projection of the target layers' hidden
    /// states, its final norm, Markov and confidence heads), numbered with the first module.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub shared: Vec<Extra>,
    /// Each module's own layer, in order, where they differ from one module to the next
    /// (Inkling's depths attend through the window or the whole context by their own list);
    /// empty: [`Mtp::layer`] for every module.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub layers: Vec<LayerGroup>,
}

/// What one layer keeps between tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerCache {
    /// Nothing (an MLP-only layer, or attention reading another layer's cache).
    None,
    /// Keys and values: `k` and `v` elements per cached token (`v` = 0 when values are keys).
    Kv {
        /// Key elements per token.
        k: u64,
        /// Value elements per token.
        v: u64,
        /// Which tokens are cached.
        span: Span,
        /// A sparse indexer's key elements per token (MiniMax-M3's: one head, in BF16, whole on
        /// every GPU); 0 without one.
        index: u64,
    },
    /// One latent per token (MLA), and the indexer's keys per token when present.
    Latent {
        /// Latent elements per token (`kv_lora_rank + qk_rope_head_dim`).
        width: u64,
        /// Indexer key elements per token (0 without an indexer).
        indexer: u64,
        /// Which tokens are cached (a sliding latent keeps its window only).
        span: Span,
    },
    /// DeepSeek V4: one `width`-wide row per `ratio` tokens (and an `indexer`-wide key), the
    /// last `window` raw rows, and `state` FP32 values of the compressor per sequence; a
    /// `ratio` of 0 keeps the window only.
    Compressed {
        /// Row width (`head_dim`).
        width: u64,
        /// Indexer key width (0 without an indexer).
        indexer: u64,
        /// Tokens per compressed row (0: window only).
        ratio: u64,
        /// Raw rows of the sliding window.
        window: u64,
        /// FP32 values of the compressor's pending state.
        state: u64,
    },
    /// A fixed state per sequence: convolution taps and the SSM / delta-rule state, in elements.
    State {
        /// Convolution state elements (`(kernel − 1) × channels`).
        conv: u64,
        /// Recurrent state elements.
        recurrent: u64,
    },
}

/// One run of identical layers, described for people and for the CLI's JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct LayerSummary {
    /// Layers in the run.
    pub count: u64,
    /// Its mixers; empty for an MLP-only layer.
    pub mixers: Vec<MixerSummary>,
    /// Its feed-forward.
    pub ffn: FfnSummary,
    /// Parameters one layer of the run stores (0 when it runs earlier layers' weights; its own
    /// part when it reuses a shared block).
    pub params_per_layer: u64,
    /// Whether the run's layers run weights earlier layers store (a looped model's later passes,
    /// Zamba2's later uses of a shared block).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub tied: bool,
    /// Whether, running earlier layers' weights, they also store weights of their own.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub own: bool,
    /// KV-cache elements one layer keeps per token (K + V, or the latent and indexer key).
    pub kv_elements_per_token: u64,
    /// Recurrent-state elements one layer keeps per sequence.
    pub state_elements_per_sequence: u64,
}

/// A mixer of a [`LayerSummary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct MixerSummary {
    /// `attention`, `sliding attention`, `chunked attention`, `MLA`, `MLA + indexer`,
    /// `Gated DeltaNet`, `Mamba`, `Mamba-2`, `short conv`.
    pub kind: &'static str,
    /// Query heads (value heads for Gated DeltaNet, SSM heads for Mamba-2; 0 where none).
    pub heads: u64,
    /// Key/value heads (attention), key heads (Gated DeltaNet); 0 where none.
    pub kv_heads: u64,
    /// Head width (attention), the latent (MLA), the state size (Mamba).
    pub width: u64,
    /// Window or chunk of a sliding or chunked layer (0: the whole context).
    pub window: u64,
    /// Reads another layer's cache.
    pub shared_kv: bool,
}

/// The feed-forward of a [`LayerSummary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct FfnSummary {
    /// `none`, `dense` (gated), `plain` or `moe`.
    pub kind: &'static str,
    /// Inner width (of one expert for a MoE).
    pub width: u64,
    /// Routed experts (0 for dense).
    pub experts: u64,
    /// Experts per token.
    pub top_k: u64,
    /// Shared experts' width.
    pub shared: u64,
}

impl FfnSummary {
    /// A short description (`dense 14336`, `MoE 128 × 768, top 8, shared 512`, `none`).
    pub fn describe(&self) -> String {
        match self.kind {
            "none" => String::from("none"),
            "moe" => {
                let mut d = alloc::format!("MoE {} × {}, top {}", self.experts, self.width, self.top_k);
                if self.shared > 0 {
                    d.push_str(&alloc::format!(", shared {}", self.shared));
                }
                d
            }
            kind => alloc::format!("{kind} {}", self.width),
        }
    }
}

impl MixerSummary {
    /// A short description (`attention 32/8 × 128`, `sliding attention 16/8 × 256, window 1024`,
    /// `Mamba-2 128 heads, state 128`).
    pub fn describe(&self) -> String {
        use core::fmt::Write;
        let mut s = String::from(self.kind);
        match self.kind {
            "attention" | "sliding attention" | "chunked attention" => {
                let _ = write!(s, " {}/{} × {}", self.heads, self.kv_heads, self.width);
                if self.window > 0 {
                    let _ = write!(s, ", window {}", self.window);
                }
                if self.shared_kv {
                    s.push_str(", shared KV");
                }
            }
            "compressed sparse attention" | "heavily compressed attention" | "windowed latent attention" => {
                let _ = write!(s, " {} heads, row {}, window {}", self.heads, self.width, self.window);
            }
            "MLA" | "MLA + indexer" => {
                let _ = write!(s, " {} heads, latent {}", self.heads, self.width);
            }
            "Gated DeltaNet" | "Kimi Delta Attention" => {
                let _ = write!(s, " {}/{} heads × {}", self.kv_heads, self.heads, self.width);
            }
            "Mamba-2" => {
                let _ = write!(s, " {} heads, state {}", self.heads, self.width);
            }
            "Mamba" => {
                let _ = write!(s, ", state {}", self.width);
            }
            _ => {
                let _ = write!(s, ", {} taps", self.width);
            }
        }
        s
    }

    fn of(m: &Mixer) -> Self {
        let blank =
            MixerSummary { kind: m.label(), heads: 0, kv_heads: 0, width: 0, window: 0, shared_kv: false };
        match m {
            Mixer::Attention(a) => MixerSummary {
                heads: a.num_heads,
                kv_heads: a.num_kv_heads,
                width: a.head_dim,
                window: match a.span {
                    Span::Full => 0,
                    Span::Sliding { window } => window,
                    Span::Chunked { chunk } => chunk,
                    Span::Cross { tokens } => tokens,
                },
                shared_kv: a.shares_kv,
                ..blank
            },
            Mixer::Mla(m) => MixerSummary {
                heads: m.num_heads,
                kv_heads: 1,
                width: m.kv_lora_rank,
                window: match m.span {
                    Span::Sliding { window } => window,
                    _ => 0,
                },
                ..blank
            },
            Mixer::Compressed(c) => {
                MixerSummary { heads: c.num_heads, kv_heads: 1, width: c.head_dim, window: c.window, ..blank }
            }
            Mixer::GatedDeltaNet(g) => {
                MixerSummary { heads: g.value_heads, kv_heads: g.key_heads, width: g.key_head_dim, ..blank }
            }
            Mixer::Kda(k) => MixerSummary { heads: k.heads, kv_heads: k.heads, width: k.head_dim, ..blank },
            Mixer::Lightning(l) => {
                MixerSummary { heads: l.heads, kv_heads: l.heads, width: l.head_dim, ..blank }
            }
            Mixer::Mamba(mb) => MixerSummary { heads: mb.heads, width: mb.state, ..blank },
            Mixer::ShortConv(c) => MixerSummary { width: c.kernel, ..blank },
            Mixer::ConvState(c) => MixerSummary { width: c.history, ..blank },
        }
    }
}

/// Kind of normalisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum NormKind {
    /// RMSNorm: one weight vector.
    Rms,
    /// LayerNorm with weight and bias.
    LayerNorm,
    /// LayerNorm with a weight and no bias (Cohere, StableLM-2 without bias, OLMo-2 style).
    LayerNormNoBias,
    /// A norm without parameters (OLMo 1).
    NoParams,
}

impl NormKind {
    /// Parameters of one norm of width `w`.
    pub fn params(self, w: u64) -> u64 {
        match self {
            NormKind::Rms | NormKind::LayerNormNoBias => w,
            NormKind::LayerNorm => w.saturating_mul(2),
            NormKind::NoParams => 0,
        }
    }
}

/// Parameters by part of the model. The parts sum to [`ParamBreakdown::total`]; `mtp` is apart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ParamBreakdown {
    /// Input token embeddings.
    pub embeddings: u64,
    /// Learned position embeddings.
    pub positions: u64,
    /// Attention projections, their biases, query/key norms, sinks, MLA norms and indexers.
    pub attention: u64,
    /// Recurrent mixers: Mamba, Gated DeltaNet and short convolutions.
    pub recurrent: u64,
    /// Dense MLPs, all dense layers.
    pub mlp: u64,
    /// Routed experts, all of them in all MoE layers.
    pub experts: u64,
    /// Shared experts and their gates.
    pub shared_experts: u64,
    /// Routers (and their score-correction biases).
    pub router: u64,
    /// Layer norms and the final norm.
    pub norms: u64,
    /// Output head, when not tied to the embeddings.
    pub output: u64,
    /// Family-specific extras (Gemma 3n's per-layer embeddings, AltUp, LAuReL).
    pub other: u64,
    /// Multi-token-prediction modules stored in the checkpoint (not in [`Self::total`]).
    pub mtp: u64,
}

impl ParamBreakdown {
    /// Every parameter the model is built with (without multi-token-prediction modules).
    pub fn total(&self) -> u64 {
        [
            self.embeddings,
            self.positions,
            self.attention,
            self.recurrent,
            self.mlp,
            self.experts,
            self.shared_experts,
            self.router,
            self.norms,
            self.output,
            self.other,
        ]
        .iter()
        .fold(0u64, |a, b| a.saturating_add(*b))
    }

    fn add(&mut self, part: Part, n: u64) -> Result<()> {
        let slot = match part {
            Part::Embeddings => &mut self.embeddings,
            Part::Positions => &mut self.positions,
            Part::Attention => &mut self.attention,
            Part::Recurrent => &mut self.recurrent,
            Part::Mlp => &mut self.mlp,
            Part::Experts => &mut self.experts,
            Part::SharedExperts => &mut self.shared_experts,
            Part::Router => &mut self.router,
            Part::Norms => &mut self.norms,
            Part::Output => &mut self.output,
            // The language model's breakdown: encoders are counted beside it.
            Part::Other | Part::Encoders => &mut self.other,
        };
        *slot = slot.checked_add(n).or_overflow("parameter count")?;
        Ok(())
    }
}

/// Collects the tensors of one layer (or of the model's ends), with the part each counts in.
pub struct Emit<'a> {
    sink: &'a mut dyn FnMut(Role, Part, u64, u64, u64),
    /// The block being emitted: biases count in it.
    block: Part,
}

impl Emit<'_> {
    /// A tensor of `rows × cols`.
    pub fn push(&mut self, role: Role, rows: u64, cols: u64) {
        self.push_experts(role, rows, cols, 1);
    }

    /// A stack of `experts` tensors of `rows × cols`.
    pub fn push_experts(&mut self, role: Role, rows: u64, cols: u64, experts: u64) {
        let part = if matches!(role, Role::Bias | Role::Fp32) { self.block } else { role.part() };
        (self.sink)(role, part, rows, cols, experts);
    }

    /// A bias vector of `n` values, when `on`.
    pub fn bias(&mut self, on: bool, n: u64) {
        if on {
            self.push(Role::Bias, 1, n);
        }
    }

    /// Runs `f` with biases counted in `part`.
    pub fn within(&mut self, part: Part, f: impl FnOnce(&mut Self)) {
        let before = self.block;
        self.block = part;
        f(self);
        self.block = before;
    }
}

/// Checked product of counts.
pub(crate) fn mul(values: &[u64]) -> Result<u64> {
    values.iter().try_fold(1u64, |a, v| a.checked_mul(*v)).or_overflow("parameter count")
}

/// Checked sum of counts.
pub(crate) fn add(values: &[u64]) -> Result<u64> {
    values.iter().try_fold(0u64, |a, v| a.checked_add(*v)).or_overflow("parameter count")
}

/// A size that must be positive, or an error naming the field.
#[inline]
pub(crate) fn positive(field: &'static str, v: u64) -> Result<()> {
    if v == 0 { Err(Error::invalid(field, "must be more than zero")) } else { Ok(()) }
}

/// A size that must be positive and real: [`positive`] then [`bounded`].
#[inline]
pub(crate) fn size(field: &'static str, v: u64) -> Result<()> {
    positive(field, v)?;
    bounded(field, v)
}

/// Sizes beyond any real model (2^32): a width or count above it is a corrupt or hostile file.
pub(crate) const MAX_DIM: u64 = 1 << 32;

#[inline]
pub(crate) fn bounded(field: &'static str, v: u64) -> Result<()> {
    if v > MAX_DIM { Err(Error::invalid(field, alloc::format!("{v} is not a real size"))) } else { Ok(()) }
}

impl Mixer {
    /// Checks the mixer's sizes.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the field.
    pub fn validate(&self) -> Result<()> {
        match self {
            Mixer::Attention(a) => a.validate(),
            Mixer::Mla(m) => m.validate(),
            Mixer::Compressed(c) => c.validate(),
            Mixer::GatedDeltaNet(g) => g.validate(),
            Mixer::Kda(k) => k.validate(),
            Mixer::Lightning(l) => l.validate(),
            Mixer::Mamba(m) => m.validate(),
            Mixer::ShortConv(c) => c.validate(),
            Mixer::ConvState(c) => c.validate(),
        }
    }

    /// Emits the mixer's tensors for one layer.
    pub fn tensors(&self, hidden: u64, e: &mut Emit<'_>) {
        let part = match self {
            Mixer::Attention(_) | Mixer::Mla(_) | Mixer::Compressed(_) => Part::Attention,
            _ => Part::Recurrent,
        };
        e.within(part, |e| match self {
            Mixer::Attention(a) => a.tensors(hidden, e),
            Mixer::Mla(m) => m.tensors(hidden, e),
            Mixer::Compressed(c) => c.tensors(hidden, e),
            Mixer::GatedDeltaNet(g) => g.tensors(hidden, e),
            Mixer::Kda(k) => k.tensors(hidden, e),
            Mixer::Lightning(l) => l.tensors(hidden, e),
            Mixer::Mamba(m) => m.tensors(hidden, e),
            Mixer::ShortConv(c) => c.tensors(hidden, e),
            Mixer::ConvState(_) => {}
        });
    }

    /// Whether it scans the sequence with a recurrent state (Mamba, Gated DeltaNet, KDA, a short
    /// convolution) rather than attending to it.
    pub fn is_recurrent(&self) -> bool {
        match self {
            Mixer::Attention(_) | Mixer::Mla(_) | Mixer::Compressed(_) => false,
            Mixer::GatedDeltaNet(_)
            | Mixer::Kda(_)
            | Mixer::Lightning(_)
            | Mixer::Mamba(_)
            | Mixer::ShortConv(_)
            | Mixer::ConvState(_) => true,
        }
    }

    /// What one layer of this mixer keeps between tokens, in a model of width `hidden`.
    pub fn cache(&self, hidden: u64) -> LayerCache {
        match self {
            Mixer::Attention(a) => a.cache(),
            Mixer::Mla(m) => m.cache(),
            Mixer::Compressed(c) => c.cache(),
            Mixer::GatedDeltaNet(g) => g.cache(),
            Mixer::Kda(k) => k.cache(),
            Mixer::Lightning(l) => l.cache(),
            Mixer::Mamba(m) => m.cache(),
            Mixer::ShortConv(c) => c.cache(hidden),
            Mixer::ConvState(c) => c.cache(),
        }
    }

    /// Elements of one request's recurrent state on one of `tp` GPUs with `spec` speculative
    /// tokens, as the serving engines shape it (vLLM's `MambaStateShapeCalculator`, SGLang's
    /// `mamba_utils`): `(convolution, SSM)`; `None` for attention. Mamba-2's B and C groups are
    /// padded to a multiple of `tp` when they do not divide among the GPUs (one group on four GPUs:
    /// four); the convolution keeps `spec` more inputs (not Mamba-1's).
    pub fn state_per_gpu(&self, hidden: u64, tp: u64, spec: u64) -> Option<(u64, u64)> {
        let tp = tp.max(1);
        let per = |x: u64| x.div_ceil(tp);
        match self {
            Mixer::Mamba(x) => match x.version {
                MambaVersion::V2 => {
                    let groups =
                        if x.groups.is_multiple_of(tp) { x.groups } else { x.groups.next_multiple_of(tp) };
                    let channels = x.inner + 2 * groups * x.state;
                    Some(((x.conv_kernel.saturating_sub(1) + spec) * per(channels), per(x.inner) * x.state))
                }
                MambaVersion::V1 => {
                    Some((x.conv_kernel.saturating_sub(1) * per(x.inner), per(x.inner) * x.state))
                }
            },
            Mixer::GatedDeltaNet(g) => {
                let channels = 2 * g.key_heads * g.key_head_dim + g.value_heads * g.value_head_dim;
                Some((
                    (g.conv_kernel.saturating_sub(1) + spec) * per(channels),
                    per(g.value_heads) * g.value_head_dim * g.key_head_dim,
                ))
            }
            Mixer::Kda(k) => Some((
                (k.conv_kernel.saturating_sub(1) + spec) * per(3 * k.heads * k.head_dim),
                per(k.heads) * k.head_dim * k.head_dim,
            )),
            Mixer::Lightning(l) => Some((0, per(l.heads) * l.head_dim * l.head_dim)),
            Mixer::ShortConv(c) => Some(((c.kernel.saturating_sub(1) + spec) * per(hidden), 0)),
            // vLLM keeps it whole on every GPU (`is_kv_cache_tp_replicated`); ZAYA refuses
            // speculative decoding.
            Mixer::ConvState(c) => Some((c.elements(), 0)),
            _ => None,
        }
    }

    /// Width of the query–key products per attended token (for the attention FLOPs: scores and
    /// weighted sum cost `4 × width` per token attended); 0 for recurrent mixers, whose cost is in
    /// their parameters.
    pub fn score_width(&self) -> u64 {
        match self {
            Mixer::Attention(a) => a.num_heads.saturating_mul(a.head_dim),
            Mixer::Mla(m) => m.num_heads.saturating_mul(m.qk_nope_head_dim + m.qk_rope_head_dim),
            Mixer::Compressed(c) => c.num_heads.saturating_mul(c.head_dim),
            _ => 0,
        }
    }

    /// Which tokens a softmax or latent attention caches and attends; `None` for the others.
    pub fn span(&self) -> Option<Span> {
        match self {
            Mixer::Attention(a) => Some(a.span),
            Mixer::Mla(m) => Some(m.span),
            _ => None,
        }
    }

    /// Tokens one query attends at `context` (bounded by a window or chunk); 0 for recurrent mixers.
    pub fn attended(&self, context: u64) -> u64 {
        match self {
            Mixer::Attention(a) => a.span.tokens(context),
            Mixer::Mla(m) => match &m.indexer {
                Some(ix) => m.span.tokens(context).min(ix.topk),
                None => m.span.tokens(context),
            },
            Mixer::Compressed(c) => c.attended(context),
            _ => 0,
        }
    }

    /// A short name (`attention`, `sliding attention`, `MLA`, `Gated DeltaNet`, `Mamba-2`…).
    pub fn label(&self) -> &'static str {
        match self {
            Mixer::Attention(a) => match a.span {
                Span::Full => "attention",
                Span::Sliding { .. } => "sliding attention",
                Span::Chunked { .. } => "chunked attention",
                Span::Cross { .. } => "cross-attention",
            },
            Mixer::Mla(m) if m.indexer.is_some() => "MLA + indexer",
            Mixer::Mla(m) if m.span != Span::Full => "sliding MLA",
            Mixer::Mla(_) => "MLA",
            Mixer::Compressed(c) if c.ratio == 0 => "windowed latent attention",
            Mixer::Compressed(c) if c.indexer.is_some() => "compressed sparse attention",
            Mixer::Compressed(_) => "heavily compressed attention",
            Mixer::GatedDeltaNet(_) => "Gated DeltaNet",
            Mixer::Kda(_) => "Kimi Delta Attention",
            Mixer::Lightning(_) => "lightning attention",
            Mixer::Mamba(m) => match m.version {
                MambaVersion::V1 => "Mamba",
                MambaVersion::V2 => "Mamba-2",
            },
            Mixer::ShortConv(_) => "short conv",
            Mixer::ConvState(_) => "convolution state",
        }
    }
}

impl LayerGroup {
    /// One layer of `mixer` and `ffn` with `norms` hidden norms, repeated `count` times.
    pub fn new(count: u64, mixer: Mixer, ffn: Ffn, norms: u64) -> Self {
        LayerGroup {
            count,
            mixers: alloc::vec![mixer],
            ffn,
            norms,
            extras: Vec::new(),
            tied: false,
            own: None,
        }
    }

    /// Emits the tensors one layer of the group stores (for a group that runs earlier layers'
    /// weights, only its [`Own`] part).
    pub fn tensors(&self, a: &Architecture, e: &mut Emit<'_>) {
        let h = a.hidden_size;
        if self.tied {
            let Some(own) = self.own else { return };
            let last = |n: usize, k: u64| n.saturating_sub(usize::try_from(k).unwrap_or(usize::MAX));
            e.within(Part::Norms, |e| {
                for _ in 0..own.norms.min(self.norms) {
                    norm(a.norm, h, e);
                }
            });
            for m in &self.mixers[last(self.mixers.len(), own.mixers)..] {
                m.tensors(h, e);
            }
            e.within(Part::Other, |e| {
                for x in &self.extras[last(self.extras.len(), own.extras)..] {
                    e.push(x.role, x.rows, x.cols);
                }
            });
            return;
        }
        e.within(Part::Norms, |e| {
            for _ in 0..self.norms {
                norm(a.norm, h, e);
            }
        });
        for m in &self.mixers {
            m.tensors(h, e);
        }
        self.ffn.tensors(h, e);
        e.within(Part::Other, |e| {
            for x in &self.extras {
                e.push(x.role, x.rows, x.cols);
            }
        });
    }
}

/// Builds a stack layer by layer, merging consecutive equal layers into one group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stack {
    /// The groups so far.
    pub groups: Vec<LayerGroup>,
}

impl Stack {
    /// Appends `g` (its `count` layers), merged into the last group when the layers are equal.
    pub fn push(&mut self, g: LayerGroup) {
        if let Some(last) = self.groups.last_mut()
            && last.mixers == g.mixers
            && last.ffn == g.ffn
            && last.norms == g.norms
            && last.extras == g.extras
            && last.tied == g.tied
            && last.own == g.own
        {
            last.count = last.count.saturating_add(g.count);
            return;
        }
        self.groups.push(g);
    }
}

fn norm(kind: NormKind, w: u64, e: &mut Emit<'_>) {
    match kind {
        NormKind::Rms | NormKind::LayerNormNoBias => e.push(Role::Norm, 1, w),
        NormKind::LayerNorm => {
            e.push(Role::Norm, 1, w);
            e.push(Role::Bias, 1, w);
        }
        NormKind::NoParams => {}
    }
}

impl Architecture {
    /// A model of `groups`, RMS norms, untied, no extras: the common shape, for builders.
    pub fn new(family: &str, vocab_size: u64, hidden_size: u64, groups: Vec<LayerGroup>) -> Self {
        Architecture {
            family: family.into(),
            vocab_size,
            hidden_size,
            groups,
            norm: NormKind::Rms,
            learned_positions: 0,
            tie_word_embeddings: false,
            head_bias: false,
            embedding_norm: false,
            extras: Vec::new(),
            mtp: None,
            max_context: 4096,
            ssm_state_bytes: None,
            quant: None,
            encoders: Vec::new(),
            speech_output: None,
            vision_config_size: None,
            canvas: 0,
            residual_blocks: 0,
            rel_extent: 0,
            short_conv_taps: 0,
            rotary_widths: Vec::new(),
            no_grad: Vec::new(),
            checkpoint: Checkpoint::default(),
        }
    }

    /// Each group's kind as an index into the distinct kinds of layer (groups of equal layers
    /// that are not adjacent share one: a 128-layer hybrid of three kinds is three), so the work
    /// per kind of layer is done once.
    fn kinds(&self) -> (Vec<&LayerGroup>, Vec<usize>) {
        let mut distinct: Vec<&LayerGroup> = Vec::new();
        let mut index = Vec::with_capacity(self.groups.len());
        for g in &self.groups {
            let same = |k: &&LayerGroup| {
                k.mixers == g.mixers
                    && k.ffn == g.ffn
                    && k.norms == g.norms
                    && k.extras == g.extras
                    && k.tied == g.tied
                    && k.own == g.own
            };
            match distinct.iter().position(same) {
                Some(i) => index.push(i),
                None => {
                    index.push(distinct.len());
                    distinct.push(g);
                }
            }
        }
        (distinct, index)
    }

    /// Number of layers.
    pub fn num_layers(&self) -> u64 {
        self.groups.iter().fold(0u64, |a, g| a.saturating_add(g.count))
    }

    /// Each layer's group, bottom to top (`MAX_LAYERS` at most once validated).
    pub fn layers(&self) -> impl Iterator<Item = &LayerGroup> + '_ {
        self.groups.iter().flat_map(|g| core::iter::repeat_n(g, g.count.min(MAX_LAYERS) as usize))
    }

    /// Every mixer of every group with its layer count.
    pub fn mixers(&self) -> impl Iterator<Item = (u64, &Mixer)> + '_ {
        self.groups.iter().flat_map(|g| g.mixers.iter().map(move |m| (g.count, m)))
    }

    /// The first attention-like mixer (for labels and defaults).
    pub fn first_attention(&self) -> Option<&Mixer> {
        self.mixers()
            .map(|(_, m)| m)
            .find(|m| matches!(m, Mixer::Attention(_) | Mixer::Mla(_) | Mixer::Compressed(_)))
    }

    /// The mixture of experts of the first MoE layer, if any.
    pub fn moe(&self) -> Option<&Moe> {
        self.groups.iter().find_map(|g| match &g.ffn {
            Ffn::Moe(m) => Some(m),
            _ => None,
        })
    }

    /// The dense MLP of the first dense layer, if any.
    pub fn dense_mlp(&self) -> Option<&Mlp> {
        self.groups.iter().find_map(|g| match &g.ffn {
            Ffn::Dense(m) => Some(m),
            _ => None,
        })
    }

    /// Key/value heads of the first attention layer (MLA: 1 shared latent; 0 without attention).
    pub fn num_kv_heads(&self) -> u64 {
        match self.first_attention() {
            Some(Mixer::Attention(a)) => a.num_kv_heads,
            Some(_) => 1,
            None => 0,
        }
    }

    /// Query heads of the first attention layer (0 without attention).
    pub fn num_heads(&self) -> u64 {
        match self.first_attention() {
            Some(Mixer::Attention(a)) => a.num_heads,
            Some(Mixer::Mla(m)) => m.num_heads,
            Some(Mixer::Compressed(c)) => c.num_heads,
            _ => 0,
        }
    }

    /// Layers whose feed-forward is a mixture of experts.
    pub fn moe_layers(&self) -> u64 {
        self.groups.iter().filter(|g| matches!(g.ffn, Ffn::Moe(_))).map(|g| g.count).sum()
    }

    /// Checks that the shape is usable: every size positive where it must be, heads that divide,
    /// layer counts within [`MAX_LAYERS`].
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the field.
    pub fn validate(&self) -> Result<()> {
        positive("vocab_size", self.vocab_size)?;
        positive("hidden_size", self.hidden_size)?;
        bounded("vocab_size", self.vocab_size)?;
        bounded("hidden_size", self.hidden_size)?;
        if self.groups.len() > MAX_GROUPS {
            return Err(Error::invalid("layer_types", "more layer groups than layers"));
        }
        let layers = self.groups.iter().try_fold(0u64, |a, g| a.checked_add(g.count));
        let layers = layers.ok_or_else(|| Error::invalid("num_hidden_layers", "not a real layer count"))?;
        positive("num_hidden_layers", layers)?;
        if layers > MAX_LAYERS {
            return Err(Error::invalid(
                "num_hidden_layers",
                alloc::format!("{layers} layers is not a real model (at most {MAX_LAYERS})"),
            ));
        }
        for g in &self.groups {
            positive("layer count", g.count)?;
            if g.mixers.len() > 4 || g.norms > 16 || g.extras.len() > 64 {
                return Err(Error::invalid("layer", "too many blocks in one layer"));
            }
            for m in &g.mixers {
                m.validate()?;
            }
            g.ffn.validate()?;
            for x in &g.extras {
                bounded("extra tensor", x.rows)?;
                bounded("extra tensor", x.cols)?;
            }
        }
        if self.extras.len() > 64 {
            return Err(Error::invalid("extras", "too many extra tensors"));
        }
        if let Some(m) = &self.mtp
            && m.modules > 16
        {
            return Err(Error::invalid("num_nextn_predict_layers", "more than 16 prediction modules"));
        }
        Ok(())
    }

    /// Emits the tensors of the model's ends: `before` the layers (embeddings) or after them
    /// (final norm, head).
    fn ends(&self, before: bool, e: &mut Emit<'_>) {
        let h = self.hidden_size;
        if before {
            e.push(Role::TokenEmbd, self.vocab_size, h);
            if self.learned_positions > 0 {
                e.push(Role::PosEmbd, self.learned_positions, h);
            }
            if self.embedding_norm {
                e.within(Part::Norms, |e| norm(self.norm, h, e));
            }
            e.within(Part::Other, |e| {
                for x in &self.extras {
                    e.push(x.role, x.rows, x.cols);
                }
            });
        } else {
            e.within(Part::Norms, |e| norm(self.norm, h, e));
            if !self.tie_word_embeddings {
                e.push(Role::Output, self.vocab_size, h);
            }
            if self.head_bias {
                e.within(Part::Output, |e| e.push(Role::Bias, 1, self.vocab_size));
            }
        }
    }

    /// Emits the `k`-th multi-token-prediction module's tensors.
    fn mtp_module(&self, m: &Mtp, k: usize, e: &mut Emit<'_>) {
        let h = self.hidden_size;
        if let Some(layer) = m.layers.get(k).or(m.layer.as_deref()).or(self.groups.last()) {
            layer.tensors(self, e);
        }
        e.within(Part::Other, |e| {
            // enorm, hnorm, the norm before the shared head, and eh_proj.
            if !m.bare {
                for _ in 0..3 {
                    norm(self.norm, h, e);
                }
                e.push(Role::MtpProj, h, h.saturating_mul(2));
            }
            for x in &m.extras {
                e.push(x.role, x.rows, x.cols);
            }
        });
        if m.own_embeddings {
            e.push(Role::TokenEmbd, self.vocab_size, h);
            e.push(Role::Output, self.vocab_size, h);
        }
    }

    /// Every parameter, by part.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a shape that does not validate; [`Error::Overflow`] for absurd sizes.
    ///
    /// # Example
    /// ```
    /// use headroom_core::catalog;
    /// let m = catalog::model("llama-3.1-8b").unwrap().architecture().unwrap();
    /// assert_eq!(m.param_breakdown().unwrap().total(), 8_030_261_248);
    /// ```
    pub fn param_breakdown(&self) -> Result<ParamBreakdown> {
        self.validate()?;
        let mut b = ParamBreakdown::default();
        let mut err: Option<Error> = None;
        let mut count = |b: &mut ParamBreakdown, times: u64, f: &dyn Fn(&mut Emit<'_>)| {
            let mut overflow = false;
            let mut sink = |_: Role, part: Part, rows: u64, cols: u64, experts: u64| {
                let n = rows
                    .checked_mul(cols)
                    .and_then(|x| x.checked_mul(experts))
                    .and_then(|n| n.checked_mul(times));
                match n {
                    Some(n) if b.add(part, n).is_ok() => {}
                    _ => overflow = true,
                }
            };
            f(&mut Emit { sink: &mut sink, block: Part::Norms });
            if overflow {
                err.get_or_insert(Error::Overflow { what: "parameter count" });
            }
        };
        count(&mut b, 1, &|e| self.ends(true, e));
        let (kinds, index) = self.kinds();
        for (k, g) in kinds.iter().enumerate() {
            let layers = self.groups.iter().zip(&index).filter(|(_, i)| **i == k).map(|(g, _)| g.count).sum();
            count(&mut b, layers, &|e| g.tensors(self, e));
        }
        count(&mut b, 1, &|e| self.ends(false, e));
        if let Some(m) = &self.mtp {
            let mut extra = ParamBreakdown::default();
            if m.layers.is_empty() {
                count(&mut extra, m.modules, &|e| self.mtp_module(m, 0, e));
            } else {
                for k in 0..m.layers.len() {
                    count(&mut extra, 1, &|e| self.mtp_module(m, k, e));
                }
            }
            count(&mut extra, 1, &|e| {
                e.within(Part::Other, |e| {
                    for x in &m.shared {
                        e.push(x.role, x.rows, x.cols);
                    }
                })
            });
            b.mtp = extra.total();
        }
        if let Some(e) = err {
            return Err(e);
        }
        // The sum must fit too.
        add(&[
            b.embeddings,
            b.positions,
            b.attention,
            b.recurrent,
            b.mlp,
            b.experts,
            b.shared_experts,
            b.router,
            b.norms,
            b.output,
            b.other,
            b.mtp,
        ])?;
        Ok(b)
    }

    /// Every tensor of the model in file order: embeddings, layer by layer, final norm, head
    /// (without multi-token-prediction modules).
    ///
    /// # Errors
    /// [`Error::Invalid`] when the architecture does not validate.
    pub fn inventory(&self) -> Result<Vec<Tensor>> {
        self.validate()?;
        let mut t = Vec::with_capacity(self.groups.len().saturating_mul(16).saturating_add(8));
        let mut layer: Option<u32> = None;
        {
            let mut sink = |role: Role, _: Part, rows: u64, cols: u64, experts: u64| {
                t.push(Tensor { role, layer: None, rows, cols, experts });
            };
            self.ends(true, &mut Emit { sink: &mut sink, block: Part::Norms });
        }
        // One layer's tensors per kind of layer, copied to each of its layers.
        let (kinds, index) = self.kinds();
        let shapes: Vec<Vec<Tensor>> = kinds
            .iter()
            .map(|g| {
                let mut one = Vec::new();
                let mut sink = |role: Role, _: Part, rows: u64, cols: u64, experts: u64| {
                    one.push(Tensor { role, layer: None, rows, cols, experts });
                };
                g.tensors(self, &mut Emit { sink: &mut sink, block: Part::Norms });
                one
            })
            .collect();
        let mut i: u32 = 0;
        for (g, k) in self.groups.iter().zip(&index) {
            for _ in 0..g.count {
                layer = Some(i);
                t.extend(shapes[*k].iter().map(|x| Tensor { layer, ..*x }));
                i += 1;
            }
        }
        let _ = layer;
        let mut sink = |role: Role, _: Part, rows: u64, cols: u64, experts: u64| {
            t.push(Tensor { role, layer: None, rows, cols, experts });
        };
        self.ends(false, &mut Emit { sink: &mut sink, block: Part::Norms });
        Ok(t)
    }

    /// The tensors of the multi-token-prediction modules (layers numbered after the stack).
    ///
    /// # Errors
    /// [`Error::Invalid`] when the architecture does not validate.
    pub fn mtp_inventory(&self) -> Result<Vec<Tensor>> {
        self.validate()?;
        let mut t = Vec::new();
        if let Some(m) = &self.mtp {
            let first = self.num_layers() as u32;
            for k in 0..m.modules as u32 {
                let layer = Some(first + k);
                let mut sink = |role: Role, _: Part, rows: u64, cols: u64, experts: u64| {
                    t.push(Tensor { role, layer, rows, cols, experts });
                };
                self.mtp_module(m, k as usize, &mut Emit { sink: &mut sink, block: Part::Norms });
                if k == 0 {
                    for x in &m.shared {
                        sink(x.role, Part::Other, x.rows, x.cols, 1);
                    }
                }
            }
        }
        Ok(t)
    }

    /// Parameters of one layer of group `g` (of this model's width and norms).
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn layer_params(&self, g: &LayerGroup) -> Result<u64> {
        let mut total: u64 = 0;
        let mut overflow = false;
        let mut sink = |_: Role, _: Part, rows: u64, cols: u64, experts: u64| match rows
            .checked_mul(cols)
            .and_then(|x| x.checked_mul(experts))
            .and_then(|n| total.checked_add(n))
        {
            Some(t) => total = t,
            None => overflow = true,
        };
        g.tensors(self, &mut Emit { sink: &mut sink, block: Part::Norms });
        if overflow { Err(Error::Overflow { what: "parameter count" }) } else { Ok(total) }
    }

    /// Each run of identical layers, described.
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn layer_summaries(&self) -> Result<Vec<LayerSummary>> {
        let mut out = Vec::with_capacity(self.groups.len());
        for g in &self.groups {
            let mut kv = 0u64;
            let mut state = 0u64;
            for m in &g.mixers {
                match m.cache(self.hidden_size) {
                    LayerCache::Kv { k, v, index, .. } => {
                        kv = kv.saturating_add(k).saturating_add(v).saturating_add(index)
                    }
                    LayerCache::Latent { width, indexer, .. } => {
                        kv = kv.saturating_add(width).saturating_add(indexer)
                    }
                    LayerCache::State { conv, recurrent } => {
                        state = state.saturating_add(conv).saturating_add(recurrent)
                    }
                    LayerCache::Compressed { width, indexer, ratio, window, state: s } => {
                        if let Some(rate) = width.saturating_add(indexer).checked_div(ratio) {
                            kv = kv.saturating_add(rate);
                        }
                        state = state.saturating_add(window.saturating_mul(width)).saturating_add(s);
                    }
                    LayerCache::None => {}
                }
            }
            let mixers = g.mixers.iter().map(MixerSummary::of).collect();
            let ffn = match &g.ffn {
                Ffn::None => FfnSummary { kind: "none", width: 0, experts: 0, top_k: 0, shared: 0 },
                Ffn::Dense(m) => FfnSummary {
                    kind: if m.gated { "dense" } else { "plain" },
                    width: m.intermediate_size,
                    experts: 0,
                    top_k: 0,
                    shared: 0,
                },
                Ffn::Moe(m) => FfnSummary {
                    kind: "moe",
                    width: m.expert_intermediate,
                    experts: m.num_experts,
                    top_k: m.experts_per_token,
                    shared: m.shared_intermediate,
                },
            };
            out.push(LayerSummary {
                count: g.count,
                mixers,
                ffn,
                params_per_layer: self.layer_params(g)?,
                tied: g.tied,
                own: g.own.is_some(),
                kv_elements_per_token: kv,
                state_elements_per_sequence: state,
            });
        }
        Ok(out)
    }

    /// Every parameter the model is built with (tied embeddings once, every expert).
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn params_total(&self) -> Result<Params> {
        Ok(Params::new(self.param_breakdown()?.total()))
    }

    /// Parameters used per token: everything except the routed experts, plus each MoE layer's
    /// `experts_per_token / num_experts` share (embeddings and output head included). A second,
    /// image-only expert set (ERNIE 4.5 VL) and its router count for no text token, nor do the
    /// tables a layer looks a few rows up in (DeepSeek V4.1's Engram n-gram tables).
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn params_active(&self) -> Result<Params> {
        self.params_active_of(&self.param_breakdown()?)
    }

    /// [`Self::params_active`] from a breakdown already counted.
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn params_active_of(&self, b: &ParamBreakdown) -> Result<Params> {
        let mut active_experts: u128 = 0;
        let mut idle_routers: u128 = 0;
        for g in self.groups.iter().filter(|g| !g.tied) {
            if let Ffn::Moe(m) = &g.ffn {
                let one = m.expert_params(self.hidden_size)? as u128 * m.experts_per_token as u128;
                active_experts += one * g.count as u128;
                idle_routers += m.modality_router_params(self.hidden_size) as u128 * g.count as u128;
            }
            for x in g.extras.iter().filter(|x| x.role == Role::ExtraEmbd) {
                idle_routers += x.rows as u128 * x.cols as u128 * g.count as u128;
            }
            // K2 Horizon's value experts: a token runs `per_token` of them.
            for m in &g.mixers {
                if let Mixer::Attention(at) = m
                    && let Some(v) = at.mova
                {
                    let one = at.v_width() as u128 * self.hidden_size as u128;
                    idle_routers += one * v.experts.saturating_sub(v.per_token) as u128 * g.count as u128;
                }
            }
        }
        let active = ((b.total() - b.experts) as u128).saturating_sub(idle_routers) + active_experts;
        Ok(Params::new(u64::try_from(active).unwrap_or(u64::MAX)))
    }

    /// Parameters a token runs again through layers that reuse earlier layers' weights (a looped
    /// model's later passes; for a MoE layer its shared parts and the experts a token picks); 0
    /// for a model without such layers. Compute and the weights read per token count them; the
    /// stored parameters do not.
    ///
    /// # Errors
    /// [`Error::Overflow`] for absurd sizes.
    pub fn reused_params(&self) -> Result<u64> {
        let mut total: u64 = 0;
        for g in self.groups.iter().filter(|g| g.tied) {
            let stored = LayerGroup { tied: false, own: None, ..g.clone() };
            let mut one = self.layer_params(&stored)?.saturating_sub(self.layer_params(g)?);
            if let Ffn::Moe(m) = &g.ffn {
                let experts = m.expert_params(self.hidden_size)?;
                let idle = experts.saturating_mul(m.num_experts.saturating_sub(m.experts_per_token));
                one = one.saturating_sub(idle).saturating_sub(m.modality_router_params(self.hidden_size));
            }
            total =
                one.checked_mul(g.count).and_then(|x| total.checked_add(x)).or_overflow("parameter count")?;
        }
        Ok(total)
    }

    /// Each group's layers that keep activations for the backward pass (all but those in
    /// [`Self::no_grad`]), in group order.
    pub fn grad_layers(&self) -> Vec<u64> {
        let mut start = 0u64;
        self.groups
            .iter()
            .map(|g| {
                let end = start.saturating_add(g.count);
                let off: u64 =
                    self.no_grad.iter().map(|&(a, b)| b.min(end).saturating_sub(a.max(start))).sum();
                start = end;
                g.count.saturating_sub(off)
            })
            .collect()
    }

    /// Layers that run earlier layers' weights and store none of their own.
    pub fn reused_layers(&self) -> u64 {
        self.groups.iter().filter(|g| g.tied && g.own.is_none()).map(|g| g.count).sum()
    }

    /// Layers that run a block stored by earlier layers beside weights of their own (Zamba2's
    /// hybrid layers after the first uses of its shared blocks).
    pub fn shared_block_uses(&self) -> u64 {
        self.groups.iter().filter(|g| g.tied && g.own.is_some()).map(|g| g.count).sum()
    }

    /// A one-line description of the shape (`32 layers, hidden 4096, attention GQA 32/8 heads × 128`).
    pub fn summary(&self) -> String {
        use core::fmt::Write;
        let mut s = String::new();
        let _ = write!(s, "{} layers, hidden {}", self.num_layers(), self.hidden_size);
        let reused = self.reused_layers();
        if reused > 0 {
            let _ = write!(
                s,
                " ({} stored, {reused} passes through them again)",
                self.num_layers().saturating_sub(reused)
            );
        }
        let shared = self.shared_block_uses();
        if shared > 0 {
            let _ = write!(s, " ({shared} run a shared block stored by earlier layers)");
        }
        // Each distinct mixer (by its summary's numbers) with its layer count; words at the end.
        let mut kinds: Vec<(MixerSummary, u64)> = Vec::new();
        for (n, m) in self.mixers() {
            let key = MixerSummary::of(m);
            match kinds.iter_mut().find(|(k, _)| *k == key) {
                Some(k) => k.1 += n,
                None => kinds.push((key, n)),
            }
        }
        let kinds: Vec<(&'static str, u64, String)> = kinds
            .iter()
            .map(|(k, n)| {
                let m = self.mixers().map(|(_, m)| m).find(|m| MixerSummary::of(m) == *k);
                (k.kind, *n, m.map(detail).unwrap_or_default())
            })
            .collect();
        let single = kinds.len() == 1;
        for (label, n, detail) in kinds {
            if single {
                let _ = write!(s, ", {label} {detail}");
            } else {
                let _ = write!(s, ", {n}× {label} {detail}");
            }
        }
        if let Some(moe) = self.moe() {
            let _ = write!(s, ", MoE {} experts (top {})", moe.num_experts, moe.experts_per_token);
            if moe.modality_experts > 0 {
                let _ = write!(s, " + {} for image tokens", moe.modality_experts);
            }
        }
        s
    }
}

/// The words of [`Architecture::summary`] for one mixer.
fn detail(m: &Mixer) -> String {
    use core::fmt::Write;
    match m {
        Mixer::Attention(a) => {
            let kind = if a.num_kv_heads == a.num_heads {
                "MHA"
            } else if a.num_kv_heads == 1 {
                "MQA"
            } else {
                "GQA"
            };
            let mut d = alloc::format!("{kind} {}/{} heads × {}", a.num_heads, a.num_kv_heads, a.head_dim);
            match a.span {
                Span::Sliding { window } => {
                    let _ = write!(d, ", window {window}");
                }
                Span::Chunked { chunk } => {
                    let _ = write!(d, ", chunks of {chunk}");
                }
                Span::Cross { tokens } => {
                    let _ = write!(d, " to {tokens} image positions");
                }
                Span::Full => {}
            }
            // A sparse indexer's keys or summaries cached beside K and V (MiniMax-M3's sparse
            // layers, Qwen4-Exp's QSA, Step 5's full layers).
            if a.index_key > 0 {
                d.push_str(", sparse indexer");
            }
            d
        }
        Mixer::Mla(m) => match m.span {
            Span::Sliding { window } => alloc::format!(
                "{} heads, latent {}+{}, window {window}",
                m.num_heads,
                m.kv_lora_rank,
                m.qk_rope_head_dim
            ),
            _ => alloc::format!("{} heads, latent {}+{}", m.num_heads, m.kv_lora_rank, m.qk_rope_head_dim),
        },
        Mixer::Compressed(c) if c.ratio == 0 => {
            alloc::format!("{} heads, row {}, window {}", c.num_heads, c.head_dim, c.window)
        }
        Mixer::Compressed(c) => alloc::format!(
            "{} heads, row {} every {} tokens, window {}",
            c.num_heads,
            c.head_dim,
            c.ratio,
            c.window
        ),
        Mixer::GatedDeltaNet(g) => alloc::format!("{}/{} heads", g.key_heads, g.value_heads),
        Mixer::Kda(k) => alloc::format!("{} heads × {}", k.heads, k.head_dim),
        Mixer::Lightning(l) => alloc::format!("{} heads × {}", l.heads, l.head_dim),
        Mixer::Mamba(m) => alloc::format!("state {}", m.state),
        Mixer::ShortConv(c) => alloc::format!("kernel {}", c.kernel),
        Mixer::ConvState(c) => alloc::format!("{} channels × {}", c.channels, c.history),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Llama-2-7B by hand: 32 layers, MHA 32 × 128, SwiGLU 11008, vocab 32000, untied.
    pub(crate) fn llama2_7b() -> Architecture {
        let attn = Attention::gqa(32, 32, 128);
        let group = LayerGroup::new(32, Mixer::Attention(attn), Ffn::Dense(Mlp::gated(11008)), 2);
        Architecture::new("llama", 32000, 4096, alloc::vec![group])
    }

    #[test]
    fn llama2_7b_is_exact() {
        let a = llama2_7b();
        let b = a.param_breakdown().unwrap();
        assert_eq!(b.total(), 6_738_415_616);
        assert_eq!(b.embeddings, 131_072_000);
        assert_eq!(a.params_active().unwrap().get(), 6_738_415_616);
        assert_eq!(a.inventory().unwrap().iter().map(Tensor::elements).sum::<u64>(), 6_738_415_616);
    }

    #[test]
    fn absurd_sizes_are_errors_not_panics() {
        let mut a = llama2_7b();
        a.hidden_size = u64::MAX / 3;
        assert!(a.param_breakdown().is_err());
        a.hidden_size = 4096;
        a.groups[0].count = 1 << 40;
        assert!(a.validate().is_err());
        a.groups[0].count = 32;
        if let Mixer::Attention(att) = &mut a.groups[0].mixers[0] {
            att.num_kv_heads = 5;
        }
        assert!(a.validate().is_err());
    }
}
