//! Inference memory: weights, KV cache, activations and workspace, runtime overhead — per device.
//!
//! The KV cache follows the conventions of `DESIGN.md`: per layer, K and V rows of
//! `kv_heads × head_dim` values per token; MLA layers one latent of `kv_lora_rank +
//! qk_rope_head_dim`; sliding-window layers hold `min(context, window)` tokens; quantized caches
//! pay for their block scales. It is exact. Activations and overhead depend on the runtime and are
//! modelled, each with a band.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::breakdown::{Term, TermKind};
use crate::error::{Error, OrOverflow, Result};
use crate::model::{Architecture, LayerCache, Mixer, Span};
use crate::precision::{KvDtype, WeightFormat};
use crate::text::{Arg, Msg, MsgId};
use crate::units::{Bytes, MIB};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The program that runs the model; it decides workspace and overhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Runtime {
    /// Hugging Face `transformers` on PyTorch (CUDA).
    Transformers,
    /// vLLM: preallocates `gpu_memory_utilization` of the GPU, CUDA graphs, paged KV.
    Vllm,
    /// SGLang: keeps `mem_fraction_static` of the free memory for weights and its KV pool.
    Sglang,
    /// llama.cpp (`llama-server`, `llama-cli`).
    LlamaCpp,
    /// Ollama: llama.cpp underneath, with its own defaults.
    Ollama,
    /// Apple MLX (`mlx-lm`) on unified memory.
    Mlx,
    /// CPU only (llama.cpp or PyTorch without a GPU): no CUDA context.
    Cpu,
}

impl Runtime {
    /// Every runtime.
    pub const ALL: [Runtime; 7] = [
        Runtime::Transformers,
        Runtime::Vllm,
        Runtime::Sglang,
        Runtime::LlamaCpp,
        Runtime::Ollama,
        Runtime::Mlx,
        Runtime::Cpu,
    ];

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            Runtime::Transformers => "transformers",
            Runtime::Vllm => "vllm",
            Runtime::Sglang => "sglang",
            Runtime::LlamaCpp => "llama.cpp",
            Runtime::Ollama => "ollama",
            Runtime::Mlx => "mlx",
            Runtime::Cpu => "cpu",
        }
    }

    /// The display name.
    pub const fn label(self) -> &'static str {
        match self {
            Runtime::Transformers => "Transformers",
            Runtime::Vllm => "vLLM",
            Runtime::Sglang => "SGLang",
            Runtime::LlamaCpp => "llama.cpp",
            Runtime::Ollama => "Ollama",
            Runtime::Mlx => "MLX",
            Runtime::Cpu => "CPU",
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `runtime` naming the accepted values.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().as_str() {
            "transformers" | "hf" | "pytorch" | "torch" => Runtime::Transformers,
            "vllm" => Runtime::Vllm,
            "sglang" | "sgl" => Runtime::Sglang,
            "llama.cpp" | "llamacpp" | "llama-cpp" | "llama_cpp" | "gguf" => Runtime::LlamaCpp,
            "ollama" => Runtime::Ollama,
            "mlx" | "mlx-lm" | "mlx_lm" => Runtime::Mlx,
            "cpu" => Runtime::Cpu,
            _ => {
                return Err(Error::invalid(
                    "runtime",
                    format!(
                        "`{t}` is not a known runtime; accepted: transformers vllm sglang llama.cpp ollama mlx cpu"
                    ),
                ));
            }
        })
    }

    /// [`Runtime::default_for`] for a model: one with cross-attention layers runs with
    /// `transformers`.
    pub fn default_for_model(format: WeightFormat, cross_attention: bool) -> Runtime {
        // Cross-attention to an image encoder (Llama 3.2 Vision): transformers is the only runtime
        // that runs it.
        if cross_attention { Runtime::Transformers } else { Runtime::default_for(format) }
    }

    /// The runtime a format is usually run with: GGUF files with llama.cpp, FP8/AWQ/GPTQ/MXFP4
    /// checkpoints with vLLM, everything else with `transformers`.
    pub fn default_for(format: WeightFormat) -> Runtime {
        match format {
            WeightFormat::Gguf(_) => Runtime::LlamaCpp,
            WeightFormat::Fp8
            | WeightFormat::Fp8Scaled { .. }
            | WeightFormat::IntScaled { .. }
            | WeightFormat::Awq { .. }
            | WeightFormat::Gptq { .. }
            | WeightFormat::Mxfp4
            | WeightFormat::Nvfp4
            | WeightFormat::Nvfp4A16 => Runtime::Vllm,
            _ => Runtime::Transformers,
        }
    }

    /// Whether the runtime splits every layer's tensors over its GPUs (vLLM, SGLang).
    pub const fn tensor_parallel(self) -> bool {
        matches!(self, Runtime::Vllm | Runtime::Sglang)
    }

    /// Whether the runtime is llama.cpp underneath.
    pub const fn is_llama_cpp(self) -> bool {
        matches!(self, Runtime::LlamaCpp | Runtime::Ollama)
    }

    /// Whether the runtime uses an NVIDIA/AMD GPU with a CUDA (or ROCm) context.
    pub const fn has_gpu_context(self) -> bool {
        !matches!(self, Runtime::Mlx | Runtime::Cpu)
    }
}

/// vLLM's default share of GPU memory it claims (`--gpu-memory-utilization`).
pub const VLLM_GPU_MEMORY_UTILIZATION: f64 = 0.9;
/// vLLM's default token budget per scheduler step (`--max-num-batched-tokens`, V1 serving).
pub const VLLM_MAX_BATCHED_TOKENS: u64 = 8192;
/// vLLM's default maximum concurrent sequences (`--max-num-seqs`), sized in its profile run.
pub const VLLM_MAX_NUM_SEQS: u64 = 256;
/// mlx-lm's prefill step (tokens per chunk).
pub const MLX_PREFILL_STEP: u64 = 2048;

/// What the inference terms depend on, besides the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InferenceSetup {
    /// The runtime.
    pub runtime: Runtime,
    /// KV cache format.
    pub kv: KvDtype,
    /// Tokens per sequence (vLLM: rounded up to whole blocks).
    pub context: u64,
    /// vLLM's profile step: `max_num_batched_tokens` in effect.
    pub vllm_tokens: u64,
    /// vLLM's profile step: requests sampled (`min(max_num_seqs, tokens)`).
    pub vllm_seqs: u64,
    /// vLLM's sampler profile, bytes per logit ×4 ([`crate::vllm::sampler_bytes_x4`]).
    pub vllm_sampler_x4: u64,
    /// Sequences at once.
    pub batch: u64,
    /// Devices the model is split across (1 = one GPU).
    pub gpus: u64,
    /// Flash attention (no materialised score matrix).
    pub flash_attention: bool,
    /// Served text only: the encoders are neither loaded nor profiled.
    pub text_only: bool,
    /// vLLM's `--mm-encoder-tp-mode data`: the encoder whole on every GPU.
    pub mm_encoder_data: bool,
    /// vLLM's `--decode-context-parallel-size`: ranks that split each request's full-attention
    /// and latent caches by tokens (1: none).
    pub dcp: u64,
    /// llama.cpp's context parameters (llama.cpp, Ollama and CPU runtimes).
    pub llama: crate::llama_cpp::Setup,
}

/// Bytes of a DeepSeek V3.2 indexer key of `width` values: FP8 values with one FP32 scale per
/// 128 (what DeepSeek's reference inference code and vLLM store).
pub fn indexer_key_bytes(width: u64) -> u64 {
    width.saturating_add(width.div_ceil(128).saturating_mul(4))
}

/// Bytes one layer caches per token (attention K and V, an MLA latent and an indexer key); 0 for
/// recurrent layers and layers that share another layer's cache.
pub fn layer_kv_bytes_per_token(cache: LayerCache, kv: KvDtype) -> u64 {
    match cache {
        // K and V are separate rows (V absent when values are the keys).
        LayerCache::Kv { k, v, index, .. } => kv
            .row_bytes(k)
            .saturating_add(if v == 0 { 0 } else { kv.row_bytes(v) })
            .saturating_add(index.saturating_mul(2)),
        LayerCache::Latent { width, indexer, .. } => {
            kv.row_bytes(width).saturating_add(if indexer == 0 { 0 } else { indexer_key_bytes(indexer) })
        }
        // One row (and indexer key) per `ratio` tokens: the rate, rounded down.
        LayerCache::Compressed { ratio, .. } if ratio > 0 => compressed_row_bytes(cache, kv) / ratio,
        LayerCache::None | LayerCache::State { .. } | LayerCache::Compressed { .. } => 0,
    }
}

/// Bytes of one compressed row of a DeepSeek V4 layer and its indexer key (the key as DeepSeek's
/// reference code and vLLM store it: FP8 with a scale per 128).
fn compressed_row_bytes(cache: LayerCache, kv: KvDtype) -> u64 {
    match cache {
        LayerCache::Compressed { width, indexer, .. } => {
            kv.row_bytes(width).saturating_add(if indexer == 0 { 0 } else { indexer_key_bytes(indexer) })
        }
        _ => 0,
    }
}

/// The growing part of a DeepSeek V4 layer's cache after `tokens` tokens: one row per whole
/// `ratio` tokens (the rest waits in the compressor's state).
fn compressed_kv_bytes(cache: LayerCache, kv: KvDtype, tokens: u64) -> u64 {
    match cache {
        LayerCache::Compressed { ratio, .. } if ratio > 0 => {
            (tokens / ratio).saturating_mul(compressed_row_bytes(cache, kv))
        }
        _ => 0,
    }
}

/// Bytes of KV cache per token of one sequence over every layer, before any window applies
/// (cross-attention layers cache their encoder positions, not the text's tokens: not counted).
pub fn kv_bytes_per_token(a: &Architecture, kv: KvDtype) -> u64 {
    a.mixers().fold(0u64, |acc, (n, m)| match m.cache(a.hidden_size) {
        LayerCache::Kv { span: Span::Cross { .. }, .. } => acc,
        cache => acc.saturating_add(layer_kv_bytes_per_token(cache, kv).saturating_mul(n)),
    })
}

/// Bytes of the recurrent state of one sequence (convolution and SSM / delta-rule state of every
/// Mamba, Gated DeltaNet and short-convolution layer), as vLLM's `MambaStateShapeCalculator`
/// shapes them: the convolution state at `elem` bytes per value (the model's dtype; llama.cpp:
/// F32), the recurrent state at the checkpoint's `mamba_ssm_cache_dtype` when it names one
/// (vLLM follows it), else also `elem`; an `elem` of 4 (llama.cpp) keeps both in F32.
pub fn state_bytes_per_sequence(a: &Architecture, elem: u64) -> u64 {
    a.mixers().fold(0u64, |acc, (n, m)| acc.saturating_add(mixer_state_bytes(a, m, elem).saturating_mul(n)))
}

/// One mixer's recurrent state for one sequence: the convolution's values in `elem` bytes, the
/// recurrent part in the checkpoint's state dtype (or `elem` when that is 4: llama.cpp's F32).
fn mixer_state_bytes(a: &Architecture, m: &Mixer, elem: u64) -> u64 {
    let recurrent_elem = if elem >= 4 { elem } else { a.ssm_state_bytes.unwrap_or(elem) };
    match m.cache(a.hidden_size) {
        LayerCache::State { conv, recurrent } => {
            conv.saturating_mul(elem).saturating_add(recurrent.saturating_mul(recurrent_elem))
        }
        // DeepSeek V4: the window's raw rows (keys and values apart on a window-only layer, as
        // transformers' sliding cache keeps them; one row doubling as both beside a compressor)
        // and the compressor's FP32 state.
        LayerCache::Compressed { width, ratio, window, state, .. } => {
            let copies = if ratio == 0 { 2 } else { 1 };
            window
                .saturating_mul(width)
                .saturating_mul(elem)
                .saturating_mul(copies)
                .saturating_add(state.saturating_mul(4))
        }
        _ => 0,
    }
}

/// The KV cache of `batch` sequences of `context` tokens, exact.
///
/// Per layer: K and V rows (that layer's `kv_heads × head_dim` values each) per cached token, or
/// one MLA latent (`kv_lora_rank + qk_rope_head_dim`) and the indexer's key; full-attention layers
/// cache `context` tokens, sliding-window layers `min(context, window)`, chunked layers
/// `min(context, chunk)`. Recurrent state is apart ([`state_bytes_per_sequence`]).
///
/// # Errors
/// [`Error::Overflow`] for absurd inputs.
///
/// # Example
/// ```
/// use headroom_core::{catalog, inference::kv_cache_bytes, precision::KvDtype};
/// let a = catalog::model("llama-3.1-8b").unwrap().architecture().unwrap();
/// assert_eq!(kv_cache_bytes(&a, KvDtype::Bf16, 4096, 1).unwrap().get(), 536_870_912);
/// ```
pub fn kv_cache_bytes(a: &Architecture, kv: KvDtype, context: u64, batch: u64) -> Result<Bytes> {
    kv_bytes_by_cells(a, kv, batch, |cache| match cache {
        LayerCache::Kv { span, .. } | LayerCache::Latent { span, .. } => span.tokens(context),
        _ => context,
    })
}

/// The KV cache of `batch` sequences when each layer keeps `cells(its cache)` tokens.
fn kv_bytes_by_cells(
    a: &Architecture,
    kv: KvDtype,
    batch: u64,
    cells: impl Fn(LayerCache) -> u64,
) -> Result<Bytes> {
    let mut one: u64 = 0;
    for (n, m) in a.mixers() {
        let cache = m.cache(a.hidden_size);
        let layer = match cache {
            LayerCache::Compressed { .. } => Some(compressed_kv_bytes(cache, kv, cells(cache))),
            _ => layer_kv_bytes_per_token(cache, kv).checked_mul(cells(cache)),
        };
        let bytes = layer.and_then(|x| x.checked_mul(n)).or_overflow("KV cache")?;
        one = one.checked_add(bytes).or_overflow("KV cache")?;
    }
    one.checked_mul(batch).map(Bytes::new).or_overflow("KV cache")
}

/// Families whose sliding-window layers llama.cpp gives a sliding cache (`hparams.swa_type` set
/// by its model loader); every other family's layers get the full cache there, whatever the
/// Hugging Face config says (Mistral v0.1's `sliding_window`, Qwen's `use_sliding_window`).
/// (Hugging Face names; a GGUF's architecture name is looked up in [`crate::llama_cpp::swa_rule`].)
pub const LLAMA_CPP_SWA_FAMILIES: &[&str] = &[
    "gemma2",
    "gemma3_text",
    "gemma3n_text",
    "gemma4_text",
    "cohere2",
    "gpt_oss",
    "llama4_text",
    "exaone4",
    "olmo3",
    // Its sliding latent layers (llama.cpp's `dots3note`, the pattern from the header).
    "dots3_note",
];

/// Whether llama.cpp gives this family's sliding-window layers their own, smaller cache.
pub fn llama_cpp_slides(a: &Architecture) -> bool {
    LLAMA_CPP_SWA_FAMILIES.contains(&a.family.as_str())
        || crate::llama_cpp::swa_rule(&a.family, a.num_layers()).is_some()
}

/// The KV cache as llama.cpp allocates it for `batch` sequences of `context` tokens, one stream
/// per sequence (not unified): full-attention layers keep `pad256(context)` cells per stream;
/// sliding layers of the families llama.cpp treats as sliding keep
/// `pad256(min(context, window + n_ubatch))` (chunked layers likewise with their chunk), other
/// families' sliding layers the full cache; MLA keeps its latent.
///
/// # Errors
/// [`Error::Overflow`] for absurd inputs.
pub fn kv_cache_bytes_llama_cpp(a: &Architecture, s: &crate::llama_cpp::Setup) -> Result<Bytes> {
    let swa = llama_cpp_slides(a);
    let mut total: u64 = 0;
    for (n, m) in a.mixers() {
        let Some((cells, row)) = llama_cpp_cache_row(m, a.hidden_size, s, swa) else { continue };
        let bytes = row
            .checked_mul(cells)
            .and_then(|x| x.checked_mul(n))
            .and_then(|x| x.checked_mul(s.streams()))
            .or_overflow("KV cache")?;
        total = total.checked_add(bytes).or_overflow("KV cache")?;
    }
    Ok(Bytes::new(total))
}

/// Bytes per token of one attention layer's cache on one of the GPUs its `heads` key/value heads
/// are split over (`per_rank` of them there): an indexer's key stays whole on each.
pub fn attention_kv_bytes_on_rank(cache: LayerCache, kv: KvDtype, heads: u64, per_rank: u64) -> u64 {
    let whole = match cache {
        LayerCache::Kv { index, .. } => index.saturating_mul(2),
        _ => 0,
    };
    let split = layer_kv_bytes_per_token(cache, kv).saturating_sub(whole);
    (split.saturating_mul(per_rank) / heads.max(1)).saturating_add(whole)
}

/// One mixer's llama.cpp cache, as (cells per stream, bytes per cell): K and V rows in their own
/// types (V absent when values are the keys); an MLA latent and its indexer key in the K type, one
/// type for K and V. `None` for mixers with no KV cache (recurrent state is apart).
fn llama_cpp_cache_row(m: &Mixer, hidden: u64, s: &crate::llama_cpp::Setup, swa: bool) -> Option<(u64, u64)> {
    match m.cache(hidden) {
        LayerCache::None | LayerCache::State { .. } => None,
        LayerCache::Kv { k, v, span, index } => Some((
            s.cells(span, swa),
            s.k_type
                .row_bytes(k)
                .saturating_add(if v == 0 { 0 } else { s.v_type.row_bytes(v) })
                .saturating_add(if index == 0 { 0 } else { s.k_type.row_bytes(index) }),
        )),
        LayerCache::Latent { width, indexer, span } => Some((
            s.cells(span, swa),
            s.k_type.row_bytes(width).saturating_add(if indexer == 0 {
                0
            } else {
                s.k_type.row_bytes(indexer)
            }),
        )),
        // DeepSeek V4 (not checked against llama.cpp's `deepseek4` graph): one row in the K
        // type per `ratio` cells, the window apart.
        LayerCache::Compressed { width, indexer, ratio, .. } => Some((
            s.cells(Span::Full, swa) / ratio.max(1) * u64::from(ratio > 0),
            s.k_type.row_bytes(width).saturating_add(s.k_type.row_bytes(indexer)),
        )),
    }
}

/// llama.cpp's KV cache of each layer, bottom to top (the terms of
/// [`kv_cache_bytes_llama_cpp`], layer by layer).
pub fn kv_bytes_per_layer_llama_cpp(a: &Architecture, s: &crate::llama_cpp::Setup) -> Vec<u64> {
    let swa = llama_cpp_slides(a);
    let mut out = Vec::new();
    for g in &a.groups {
        let layer =
            g.mixers.iter().fold(0u64, |acc, m| match llama_cpp_cache_row(m, a.hidden_size, s, swa) {
                Some((cells, row)) => {
                    acc.saturating_add(row.saturating_mul(cells).saturating_mul(s.streams()))
                }
                None => acc,
            });
        out.extend(core::iter::repeat_n(layer, g.count.min(crate::model::MAX_LAYERS) as usize));
    }
    out
}

/// Recurrent state of each layer for `sequences` sequences, bottom to top (the terms of
/// [`state_bytes_per_sequence`], layer by layer).
pub fn state_bytes_per_layer(a: &Architecture, elem: u64, sequences: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for g in &a.groups {
        let layer = g.mixers.iter().fold(0u64, |acc, m| acc.saturating_add(mixer_state_bytes(a, m, elem)));
        out.extend(core::iter::repeat_n(
            layer.saturating_mul(sequences),
            g.count.min(crate::model::MAX_LAYERS) as usize,
        ));
    }
    out
}

/// Share of the KV cache one GPU holds when the model is split across `gpus` by the runtime, as
/// (numerator, denominator).
///
/// Tensor parallelism (vLLM) splits key/value heads, replicating them when there are fewer heads
/// than GPUs, and replicates the MLA latent on every GPU; layer splits (llama.cpp, transformers'
/// `device_map`) give each GPU its layers' share. A stack mixing both kinds takes the share of
/// its attention layers' heads (each layer is weighed by its own in [`kv_device_bytes_tp`]).
pub fn kv_share(a: &Architecture, runtime: Runtime, gpus: u64) -> (u64, u64) {
    if gpus <= 1 {
        return (1, 1);
    }
    let layers = a.num_layers();
    match (runtime, a.first_attention()) {
        (r, Some(Mixer::Attention(s))) if r.tensor_parallel() => {
            let kv = s.num_kv_heads.max(1);
            if kv >= gpus { (1, gpus) } else { (1, kv) }
        }
        (r, Some(Mixer::Mla(_) | Mixer::Compressed(_))) if r.tensor_parallel() => (1, 1),
        (r, None) if r.tensor_parallel() => (1, gpus),
        _ => (layers.div_ceil(gpus), layers),
    }
}

/// KV bytes on the busiest GPU under tensor parallelism (vLLM): each attention layer keeps its
/// share of key/value heads (`max(1, kv_heads / gpus)` of `kv_heads`), each MLA layer its whole
/// latent; `total` is [`kv_cache_bytes`] and is returned unchanged for one GPU. With decode
/// context parallelism over `dcp` of the GPUs, each keeps `1/dcp` of a request's tokens in its
/// full-attention and latent caches (vLLM's `FullAttentionSpec` under DCP).
pub fn kv_device_bytes_tp(
    a: &Architecture,
    kv: KvDtype,
    context: u64,
    batch: u64,
    (gpus, dcp): (u64, u64),
) -> Result<Bytes> {
    if gpus <= 1 {
        return kv_cache_bytes(a, kv, context, batch);
    }
    let share =
        |span: Span, tokens: u64| if span == Span::Full { tokens.div_ceil(dcp.max(1)) } else { tokens };
    let mut one: u128 = 0;
    for (n, m) in a.mixers() {
        let cache = m.cache(a.hidden_size);
        let (tokens, num, den, whole) = match (m, cache) {
            (Mixer::Attention(at), LayerCache::Kv { span, index, .. }) => {
                let heads = at.num_kv_heads.max(1);
                (
                    share(span, span.tokens(context)),
                    heads.div_ceil(gpus).max(1),
                    heads,
                    index.saturating_mul(2),
                )
            }
            // A latent is whole on every GPU.
            (_, LayerCache::Latent { span, .. }) => (share(span, span.tokens(context)), 1, 1, 0),
            _ => (context, 1, 1, 0),
        };
        // The key/value heads split over the GPUs; an indexer's single key head on every one.
        let split = layer_kv_bytes_per_token(cache, kv).saturating_sub(whole);
        let per = |b: u64| b as u128 * tokens as u128 * n as u128;
        one += (per(split) * num as u128).div_ceil(den as u128) + per(whole);
    }
    u64::try_from(one * batch as u128).ok().map(Bytes::new).or_overflow("KV cache")
}

fn mib(n: u64) -> Bytes {
    Bytes::new(n * MIB)
}

/// Activations and workspace of one device during the largest step (a prefill chunk), by runtime.
///
/// * llama.cpp / Ollama / CPU: the compute buffer of one micro-batch (`ub` = 512 tokens). Without
///   flash attention it holds the f32 score matrix `n_ctx × ub × heads × 4` plus the mask
///   `n_ctx × ub × 4` and four f32 hidden-state buffers `4 × ub × hidden × 4` — this reproduces
///   llama.cpp's logged 164 MiB (Llama-2-7B, n_ctx 2048) and 560 MiB (Llama-3-8B, n_ctx 8192).
///   With flash attention the score matrix is not stored; the gated MLP's `2 × ub × ffn × 4`
///   takes its place.
/// * transformers: a whole-prompt prefill of `batch × context` tokens in 16-bit: hidden states
///   and the MLP's gate, up and product (`tokens × (2·hidden + 3·ffn) × 2`), and without flash
///   attention the `batch × heads × context²` scores in 16 and 32 bits.
/// * vLLM: its profile run of 8192 batched tokens through the same per-token working set, plus
///   the sampler's logits for up to 256 sequences (`seqs × vocab × 4 × 2`).
/// * MLX: a 2048-token prefill step.
///
/// Also returns llama.cpp's buffers when the runtime is llama.cpp's; `replayed` is that buffer
/// when the caller already has it (the replay is done once per model and setup).
pub fn activation_term(
    a: &Architecture,
    s: &InferenceSetup,
    lang_note: &mut Vec<Msg>,
    replayed: Option<crate::llama_cpp::ComputeBuffer>,
) -> Result<(Term, Option<crate::llama_cpp::ComputeBuffer>)> {
    let mut llama = None;
    let h = a.hidden_size;
    // The widest feed-forward a token passes through (MoE: its top-k experts and the shared ones).
    let ffn = a.groups.iter().map(|g| g.ffn.active_width()).max().unwrap_or(0);
    // The most query heads of any attention layer (recurrent layers keep no score matrix).
    let heads = a
        .mixers()
        .map(|(_, m)| match m {
            Mixer::Attention(at) => at.num_heads,
            Mixer::Mla(ml) => ml.num_heads,
            Mixer::Compressed(c) => c.num_heads,
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    let q_width = a.mixers().map(|(_, m)| m.score_width()).max().unwrap_or(0);
    let ctx_total = s.context.saturating_mul(s.batch);
    let _ = lang_note;
    let (bytes, formula, assumptions, band): (u64, Msg, Vec<Msg>, (f64, f64)) = match s.runtime {
        Runtime::LlamaCpp | Runtime::Ollama | Runtime::Cpu => {
            let cb = replayed.unwrap_or_else(|| crate::llama_cpp::compute_buffer(a, &s.llama));
            llama = Some(cb);
            let ub = s.llama.tokens();
            let msg = Msg::new(
                if s.flash_attention { MsgId::ActLlamaCppFa } else { MsgId::ActLlamaCppNoFa },
                vec![Arg::Int(ub), Arg::Size(Bytes::new(cb.logits)), Arg::Int(a.vocab_size)],
            );
            let mut assumptions = vec![Msg::new(MsgId::AssumeUbatch, vec![Arg::Int(ub)])];
            let band = if cb.exact {
                (0.95, 1.1)
            } else {
                assumptions.push(Msg::new(MsgId::AssumeLlamaCppGraphStandIn, vec![]));
                (0.6, 1.6)
            };
            (cb.bytes, msg, assumptions, band)
        }
        Runtime::Transformers => {
            let tokens = ctx_total;
            let per_token = 2u64.saturating_mul(h).saturating_add(3u64.saturating_mul(ffn)).saturating_mul(2);
            let mut bytes = tokens.saturating_mul(per_token);
            let mut assumptions = vec![Msg::new(MsgId::AssumeWholePromptPrefill, vec![])];
            if !s.flash_attention || crate::loads::transformers_eager_only(&a.checkpoint) {
                let scores = s
                    .batch
                    .saturating_mul(heads)
                    .saturating_mul(s.context)
                    .saturating_mul(s.context)
                    .saturating_mul(6);
                bytes = bytes.saturating_add(scores);
                assumptions.push(Msg::new(MsgId::AssumeEagerScores, vec![]));
            }
            let logits = s.batch.saturating_mul(a.vocab_size).saturating_mul(4);
            bytes = bytes.saturating_add(logits);
            let _ = q_width;
            (
                bytes,
                Msg::new(MsgId::ActTransformers, vec![Arg::Int(tokens), Arg::Int(h), Arg::Int(ffn)]),
                assumptions,
                (0.6, 1.6),
            )
        }
        Runtime::Vllm => {
            let (tokens, seqs) = (s.vllm_tokens, s.vllm_seqs);
            let encoders = if s.text_only { &[][..] } else { a.encoders.as_slice() };
            let (bytes, encoder, band) = crate::vllm::profile_with_encoders(
                a,
                encoders,
                tokens,
                seqs,
                s.context,
                (s.gpus, s.vllm_sampler_x4),
                s.mm_encoder_data,
            );
            let mut assumptions =
                vec![Msg::new(MsgId::AssumeVllmProfile, vec![Arg::Int(tokens), Arg::Int(seqs)])];
            if let Some(e) = encoder {
                assumptions.push(Msg::new(
                    MsgId::AssumeVllmEncoderProfile,
                    vec![
                        Arg::Int(e.items),
                        Arg::Int(e.item_tokens),
                        Arg::Int(e.budget_tokens),
                        Arg::Size(e.peak),
                        Arg::Size(e.outputs),
                    ],
                ));
            }
            (
                bytes.get(),
                if a.canvas > 0 {
                    Msg::new(
                        MsgId::ActVllmCanvas,
                        vec![Arg::Int(tokens), Arg::Int(a.canvas), Arg::Int(a.vocab_size)],
                    )
                } else if s.vllm_sampler_x4 != crate::vllm::SAMPLER_BYTES_PER_LOGIT_X4 {
                    Msg::new(
                        MsgId::ActVllmV2,
                        vec![
                            Arg::Int(tokens),
                            Arg::Int(seqs),
                            Arg::Int(a.vocab_size),
                            Arg::Int(s.vllm_sampler_x4 / 4),
                        ],
                    )
                } else {
                    Msg::new(MsgId::ActVllm, vec![Arg::Int(tokens), Arg::Int(seqs), Arg::Int(a.vocab_size)])
                },
                assumptions,
                band,
            )
        }
        Runtime::Sglang => {
            // One chunk of `chunked_prefill_size` tokens through a layer, split over the GPUs.
            let tokens = s.vllm_tokens;
            let per_token = 2u64.saturating_mul(h).saturating_add(3u64.saturating_mul(ffn) / s.gpus.max(1));
            let bytes = tokens.saturating_mul(per_token).saturating_mul(2);
            (
                bytes,
                Msg::new(MsgId::ActSglang, vec![Arg::Int(tokens), Arg::Int(h), Arg::Int(ffn)]),
                vec![],
                (0.6, 1.6),
            )
        }
        Runtime::Mlx => {
            let tokens = MLX_PREFILL_STEP.min(ctx_total.max(1));
            let per_token = 2u64.saturating_mul(h).saturating_add(3u64.saturating_mul(ffn)).saturating_mul(2);
            let bytes = tokens
                .saturating_mul(per_token)
                .saturating_add(s.batch.saturating_mul(a.vocab_size).saturating_mul(4));
            (
                bytes,
                Msg::new(MsgId::ActMlx, vec![Arg::Int(tokens), Arg::Int(h), Arg::Int(ffn)]),
                vec![],
                (0.6, 1.6),
            )
        }
    };
    let (bytes, band, assumptions) = with_encoder(a, s, bytes, band, assumptions);
    Ok((banded(TermKind::Activations, Bytes::new(bytes), band, formula, assumptions), llama))
}

/// The activations with a multimodal model's encoder at work on its largest input (vLLM's
/// profile has its own rule): llama.cpp runs the `mmproj` graph in a context of its own, beside
/// the language model's buffer; transformers, MLX and SGLang run the encoder before the prompt's
/// prefill, so the larger of the two counts. The encoder's working set follows the language
/// model rule's shape (16-bit values; llama.cpp's CLIP graph keeps F32), with a wide band.
fn with_encoder(
    a: &Architecture,
    s: &InferenceSetup,
    text: u64,
    band: (f64, f64),
    mut assumptions: Vec<Msg>,
) -> (u64, (f64, f64), Vec<Msg>) {
    if s.text_only || matches!(s.runtime, Runtime::Vllm) {
        return (text, band, assumptions);
    }
    let Some(e) = a.encoders.iter().max_by_key(|e| e.activation(e.max_positions(), 1)) else {
        return (text, band, assumptions);
    };
    let beside = matches!(s.runtime, Runtime::LlamaCpp | Runtime::Ollama | Runtime::Cpu);
    let positions = e.max_positions();
    let enc = e.activation(positions, 1).saturating_mul(if beside { 2 } else { 1 });
    let total = if beside { text.saturating_add(enc) } else { text.max(enc) };
    if total == 0 {
        return (text, band, assumptions);
    }
    let (lo, hi) = (text as f64 * band.0, text as f64 * band.1);
    // llama.cpp reserves the mmproj graph for a smaller warm-up image (`clip.cpp`'s
    // `warmup_image_size` / `set_warmup_n_tokens`) and grows it with the first large one.
    let (enc_lo, enc_hi) =
        if beside { (enc as f64 * 0.3, enc as f64 * 3.0) } else { (enc as f64 * 0.5, enc as f64 * 2.0) };
    let (low, high) = if beside { (lo + enc_lo, hi + enc_hi) } else { (lo.max(enc_lo), hi.max(enc_hi)) };
    assumptions.push(Msg::new(
        if beside { MsgId::AssumeEncoderActivationBeside } else { MsgId::AssumeEncoderActivationBefore },
        vec![Arg::Text(e.kind.clone()), Arg::Int(positions), Arg::Size(Bytes::new(enc))],
    ));
    (total, (low / total as f64, high / total as f64), assumptions)
}

/// Activations for a bare parameter count: the seed guide's "temporary computation", taken as
/// 5% of the weights with a wide band, since no shape is known.
pub fn activation_term_flat(weights: Bytes) -> Term {
    banded(
        TermKind::Activations,
        weights.scale(0.05),
        (0.2, 3.0),
        Msg::new(MsgId::ActFlat, vec![]),
        vec![Msg::new(MsgId::AssumeNoShape, vec![])],
    )
}

/// The CUDA context and PyTorch's own allocations under transformers, before any weight.
pub const TRANSFORMERS_CUDA_CONTEXT: Bytes = Bytes::new(500 * MIB);

/// Runtime overhead of one device: CUDA context, allocator slack, CUDA graphs, NCCL buffers.
///
/// * transformers: CUDA context and cuBLAS workspaces ≈ 500 MiB (300 MiB–1.4 GiB: the
///   transformers docs measured 1,343 MB on a V100 before lazy module loading), plus 5% of the
///   KV cache and activations as caching-allocator fragmentation.
/// * vLLM: CUDA context ≈ 500 MiB, CUDA graphs ≈ 1 GiB, non-torch memory ≈ 200 MiB; its
///   preallocation of `gpu_memory_utilization` (0.9) is applied to the capacity in the fit, not here.
/// * llama.cpp / Ollama: the GPU back end's context (CUDA, ROCm, Metal) and its math library ≈ 300 MiB.
/// * MLX: the Metal runtime and the Python process ≈ 300 MiB. CPU: the process ≈ 200 MiB, no
///   CUDA context.
///
/// `backend` names the GPU back end llama.cpp runs on (`CUDA`, `ROCm`, `Metal`).
pub fn overhead_term(runtime: Runtime, gpus: u64, variable: Bytes, backend: &str) -> Term {
    let (base, low, high, msg) = match runtime {
        Runtime::Transformers => {
            (TRANSFORMERS_CUDA_CONTEXT, mib(300), mib(1400), MsgId::OverheadTransformers)
        }
        Runtime::Vllm => (mib(1700), mib(1000), mib(3000), MsgId::OverheadVllm),
        Runtime::Sglang => (mib(832), mib(500), mib(3000), MsgId::OverheadSglang),
        Runtime::LlamaCpp | Runtime::Ollama => (mib(300), mib(150), mib(600), MsgId::OverheadLlamaCpp),
        Runtime::Mlx => (mib(300), mib(150), mib(800), MsgId::OverheadMlx),
        Runtime::Cpu => (mib(200), mib(100), mib(500), MsgId::OverheadCpu),
    };
    let slack = if runtime == Runtime::Transformers { variable.scale(0.05) } else { Bytes::ZERO };
    let nccl = if gpus > 1 && runtime.has_gpu_context() { mib(300) } else { Bytes::ZERO };
    let bytes = base.saturating_add(slack).saturating_add(nccl);
    let mut assumptions = Vec::new();
    if gpus > 1 && runtime.has_gpu_context() {
        assumptions.push(Msg::new(MsgId::AssumeNccl, vec![]));
    }
    Term {
        kind: TermKind::Overhead,
        bytes,
        low: low.saturating_add(nccl),
        high: high.saturating_add(variable.scale(0.10)).saturating_add(nccl),
        formula: Msg::new(
            msg,
            vec![Arg::Size(base), Arg::Size(slack), Arg::Size(Bytes::ZERO), Arg::Text(backend.into())],
        ),
        assumptions,
    }
}

/// vLLM's memory beside the weights, KV cache and profile peak, inside its budget: non-torch
/// memory, the CUDA graphs' reserve (v0.21 and later, without `--enforce-eager`) and the rotary
/// cache it loads with the weights. The CUDA context lives outside `gpu_memory_utilization`'s
/// share and is checked against what that share leaves.
pub fn vllm_overhead_term(
    a: &Architecture,
    o: &crate::vllm::VllmOptions,
    (tokens, seqs): (u64, u64),
    (gpus, cc): (u64, u16),
) -> Term {
    let (nt, nt_lo, nt_hi) = crate::vllm::non_torch(gpus);
    let (g, g_lo, g_hi) = if o.reserves_graphs() {
        crate::vllm::graph_estimate(o, seqs, tokens, cc)
    } else {
        (Bytes::ZERO, Bytes::ZERO, Bytes::ZERO)
    };
    // The rotary caches built with the model and the V2 runner's sampler state built after it.
    let rope = crate::vllm::rotary_cache(a).saturating_add(crate::vllm::sampler_state(o, a, seqs));
    let mut assumptions = Vec::new();
    if gpus > 1 {
        assumptions.push(Msg::new(MsgId::AssumeNccl, vec![]));
    }
    // A block-diffusion model's per-request canvas state, which vLLM's budget leaves out.
    let state = crate::vllm::diffusion_state(a, seqs, tokens);
    if !state.is_zero() {
        assumptions.push(Msg::new(MsgId::AssumeDiffusionState, vec![Arg::Size(state), Arg::Int(seqs)]));
    }
    let fixed = rope.saturating_add(state);
    Term {
        kind: TermKind::Overhead,
        bytes: nt.saturating_add(g).saturating_add(fixed),
        low: nt_lo.saturating_add(g_lo).saturating_add(fixed),
        high: nt_hi.saturating_add(g_hi).saturating_add(fixed),
        formula: Msg::new(MsgId::OverheadVllm, vec![Arg::Size(nt), Arg::Size(g), Arg::Size(rope)]),
        assumptions,
    }
}

/// What SGLang keeps free beside the activations `act`: the rest of its dynamic share
/// `free × (1 − mem_fraction_static)`; a note when a prefill chunk needs more than that share.
pub fn sglang_overhead_term(b: &crate::sglang::SglangBudget, act: Bytes, notes: &mut Vec<Msg>) -> Term {
    let rest = b.dynamic.saturating_sub(act);
    if act > b.dynamic {
        notes.push(Msg::new(MsgId::NoteSglangDynamicShort, vec![Arg::Size(act), Arg::Size(b.dynamic)]));
    }
    Term {
        kind: TermKind::Overhead,
        bytes: rest,
        low: rest,
        high: rest,
        formula: Msg::new(MsgId::OverheadSglang, vec![Arg::Size(rest)]),
        assumptions: Vec::new(),
    }
}

/// A term whose band is `bytes × (low, high)`.
pub fn banded(kind: TermKind, bytes: Bytes, band: (f64, f64), formula: Msg, assumptions: Vec<Msg>) -> Term {
    Term { kind, bytes, low: bytes.scale(band.0), high: bytes.scale(band.1), formula, assumptions }
}

/// A short label of the KV layout for messages, and how many layers keep a cache (hybrids,
/// Llama-Nemotron's attention-free layers and Gemma 3n's sharing layers keep none).
pub fn kv_layout_label(a: &Architecture) -> (String, u64) {
    let mut parts: Vec<(String, u64)> = Vec::new();
    for (n, m) in a.mixers() {
        let label = match m {
            Mixer::Attention(s) if s.shares_kv => continue,
            Mixer::Attention(s) if s.k_eq_v => {
                format!("2 × {} kv heads × {} (V from K's projection)", s.num_kv_heads, s.head_dim)
            }
            Mixer::Attention(s) => match s.span {
                Span::Cross { tokens } => {
                    format!("2 × {} kv heads × {} over {tokens} image positions", s.num_kv_heads, s.head_dim)
                }
                _ => format!("2 × {} kv heads × {}", s.num_kv_heads, s.head_dim),
            },
            Mixer::Mla(m) if m.indexer.is_some() => {
                format!(
                    "MLA latent {} + {}, indexer key {}",
                    m.kv_lora_rank,
                    m.qk_rope_head_dim,
                    m.indexer.as_ref().map_or(0, |i| i.head_dim)
                )
            }
            Mixer::Mla(m) => format!("MLA latent {} + {}", m.kv_lora_rank, m.qk_rope_head_dim),
            // (DeepSeek V4.1: only the layers that compress for the others keep rows.)
            Mixer::Compressed(c) => match m.cache(a.hidden_size) {
                LayerCache::Compressed { ratio, indexer, .. } if ratio > 0 && indexer > 0 => {
                    format!("one row of {} and an indexer key of {indexer} per {ratio} tokens", c.head_dim)
                }
                LayerCache::Compressed { ratio, .. } if ratio > 0 => {
                    format!("one row of {} per {ratio} tokens", c.head_dim)
                }
                _ => continue,
            },
            _ => continue,
        };
        match parts.iter_mut().find(|(l, _)| *l == label) {
            Some(p) => p.1 += n,
            None => parts.push((label, n)),
        }
    }
    let cached = parts.iter().map(|p| p.1).sum();
    if parts.len() == 1 {
        return (parts.pop().map(|p| p.0).unwrap_or_default(), cached);
    }
    let mut out = String::new();
    for (i, (label, n)) in parts.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        out.push_str(&format!("{n} layers {label}"));
    }
    (out, cached)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtimes_parse_their_ids() {
        for r in Runtime::ALL {
            assert_eq!(Runtime::parse(r.id()), Ok(r));
        }
        assert!(Runtime::parse("tgi").is_err());
    }
}

#[cfg(test)]
mod llama_cpp_kv_tests {
    use super::*;
    use crate::catalog;

    fn kv(id: &str, context: u64) -> u64 {
        let a = catalog::model(id).unwrap().architecture().unwrap();
        kv_cache_bytes_llama_cpp(&a, &crate::llama_cpp::Setup::new(context, 1)).unwrap().get()
    }

    #[test]
    fn cells_are_padded_and_sliding_layers_keep_window_plus_a_micro_batch() {
        // Llama-3.1-8B at 10,000 tokens: 10,240 cells × 32 layers × (2 × 8 × 128 × 2 bytes).
        assert_eq!(kv("llama-3.1-8b", 10_000), 10_240 * 32 * 4096);
        // Mistral v0.1's 4,096-token window is not a sliding cache in llama.cpp: full.
        assert_eq!(kv("mistral-7b-v0.1", 10_000), 10_240 * 32 * 4096);
        // Gemma 2 2B: 13 full layers of 10,240 cells, 13 sliding of pad256(4,096 + 512) = 4,608.
        assert_eq!(kv("gemma-2-2b", 10_000), (13 * 10_240 + 13 * 4_608) * 4096);
        // gpt-oss-20b: 12 sliding layers of pad256(128 + 512) = 768 cells.
        assert_eq!(kv("gpt-oss-20b", 10_000), (12 * 10_240 + 12 * 768) * 2048);
        // A short context caps the sliding cache at the context, padded.
        assert_eq!(kv("gpt-oss-20b", 100), (12 * 256 + 12 * 256) * 2048);
    }
}
