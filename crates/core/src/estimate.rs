//! From a [`Scenario`] to an [`Estimate`]: every number the front ends show, as a breakdown
//! whose terms each carry their formula, assumptions and band.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::catalog;
use crate::catalog::device::{Device, DeviceKind};
use crate::error::{Error, OrOverflow, Result};
use crate::inference::{
    self, InferenceSetup, Runtime, activation_term, activation_term_flat, kv_cache_bytes, kv_share,
    overhead_term,
};
use crate::model::{Architecture, Confidence, LayerSummary, Mixer, ParamBreakdown, Span};
use crate::precision::WeightFormat;
use crate::scenario::{ModelSource, Scenario};
use crate::tensors::{self, Priced, Role};
use crate::text::{Arg, Msg, MsgId};
use crate::training::{Mode, TrainPrecision, TrainingSetup, training_memory};
use crate::units::{Bytes, Params};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

pub use crate::breakdown::{Memory, MemoryKeys, Term, TermKind};

/// The model as the estimate saw it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ModelSummary {
    /// Catalog id, file name, or the parameter count.
    pub name: String,
    /// Every parameter stored in the checkpoint.
    pub params_total: Params,
    /// Parameters used per token (MoE: shared parts plus the routed experts' share).
    pub params_active: Params,
    /// Parameters by part, when the architecture is known.
    pub breakdown: Option<ParamBreakdown>,
    /// A one-line description of the architecture, when known.
    pub architecture: Option<String>,
    /// For a bare parameter count: the catalog model whose shape stands in for the KV cache and
    /// activations.
    pub stand_in: Option<String>,
    /// The longest context the model was trained for (0 when unknown).
    pub max_context: u64,
    /// How far the shape can be trusted (headers, a known family's config, an inferred family,
    /// a stand-in).
    pub confidence: Confidence,
    /// Each run of identical layers, when the architecture is known.
    #[cfg_attr(feature = "serde", serde(skip_deserializing))]
    pub layers: Vec<LayerSummary>,
    /// What its vision and audio encoders read (empty for a text model).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub inputs: Vec<crate::model::Modality>,
    /// What runtimes pick their implementation by, as its config names it (empty when not read
    /// from a config).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "crate::model::Checkpoint::is_empty")
    )]
    pub checkpoint: crate::model::Checkpoint,
}

/// Download size.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Disk {
    /// Bytes of the weight files in the chosen format (with their headers).
    pub weights: Bytes,
}

/// Everything computed for a scenario.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Estimate {
    /// The model.
    pub model: ModelSummary,
    /// The weight format in effect.
    pub format: WeightFormat,
    /// The runtime in effect.
    pub runtime: Runtime,
    /// Devices the work is split across.
    pub devices: u64,
    /// Memory of one accelerator (the busiest, when split); for CPU inference, system RAM.
    pub memory: Memory,
    /// System RAM needed beside the accelerators (offloaded layers, embeddings kept on the CPU,
    /// the runtime's process).
    pub host: Memory,
    /// Weight bytes over all devices.
    pub weights_total: Bytes,
    /// KV-cache bytes over all devices.
    pub kv_total: Bytes,
    /// KV-cache bytes per token of one sequence (all layers, full-attention ones counted fully).
    pub kv_per_token: Bytes,
    /// Whether the weight bytes are exact (a known architecture and format) or a rule of thumb.
    pub weights_exact: bool,
    /// Bytes of the input embedding table (looked up per token, never read whole; 0 when it is
    /// tied to the output head, which reads it whole), and of the tables layers look rows up in
    /// (DeepSeek V4.1's Engram n-gram tables).
    pub embedding_bytes: Bytes,
    /// Bytes of the input embedding tables however they are used: llama.cpp keeps this copy in
    /// system RAM and only looks rows up in it.
    pub input_embedding_bytes: Bytes,
    /// Bytes of the routed experts (read only for the experts a token picks).
    pub expert_bytes: Bytes,
    /// Of those, the bytes llama.cpp keeps in system RAM (`--n-cpu-moe`, or offloaded layers').
    pub expert_bytes_host: Bytes,
    /// Download size.
    pub disk: Disk,
    /// Parameters the optimizer updates (0 for inference).
    pub trainable_params: u64,
    /// FLOPs per token: forward per generated token for inference (2 × active parameters plus
    /// attention); forward and backward per trained token for training.
    pub flops_per_token: f64,
    /// The training run, for training modes.
    pub training: Option<TrainingInfo>,
    /// Remarks worth showing beside the numbers.
    pub notes: Vec<Msg>,
    /// What the answer takes on trust and widens its band: an inferred family, a stand-in shape,
    /// a quantization or an encoder not read. Shown as a warning beside the result.
    pub warnings: Vec<Msg>,
    /// Recurrent-state bytes of one sequence (linear-attention and SSM layers; 0 for none).
    pub state_per_sequence: Bytes,
    /// llama.cpp's own buffers (llama.cpp, Ollama and CPU runtimes with a known shape).
    pub llama_cpp: Option<LlamaCppBuffers>,
    /// llama.cpp over several GPUs: each GPU's layers and memory under its layer split (empty on
    /// one GPU and for other runtimes).
    pub llama_gpus: Vec<crate::llama_cpp::GpuShare>,
    /// vLLM's startup budget on the scenario's GPU (vLLM with a known shape and a GPU device).
    pub vllm: Option<crate::vllm::VllmBudget>,
    /// SGLang's startup budget on the scenario's GPU (SGLang with a known shape and a GPU).
    pub sglang: Option<crate::sglang::SglangBudget>,
    /// transformers' `device_map="auto"` split on one GPU, when the scenario places layers
    /// (`gpu_layers`) under transformers.
    pub device_map: Option<DeviceMap>,
    /// GPUs the routed experts are spread over whole (vLLM's `--enable-expert-parallel`: every GPU
    /// of every replica); 0 or 1 when each expert is split by tensor parallelism instead.
    #[cfg_attr(feature = "serde", serde(default))]
    pub expert_gpus: u64,
}

/// How accelerate's `device_map` splits a model between one GPU and system RAM: the input
/// embeddings and the first `gpu_layers` decoder layers on the GPU (and the head when every layer
/// is), the rest in RAM, each offloaded module copied to the GPU while it runs.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct DeviceMap {
    /// Decoder layers on the GPU (from the first).
    pub gpu_layers: u64,
    /// Decoder layers in all.
    pub layers: u64,
    /// Weight bytes placed on the GPU.
    pub gpu_weights: Bytes,
    /// Weight bytes left in system RAM.
    pub host_weights: Bytes,
    /// The largest module accelerate keeps free room for on the GPU (a decoder layer, the
    /// embeddings or the head): it reserves that much when it places layers.
    pub largest_module: Bytes,
    /// The largest offloaded module, on the GPU while it runs.
    pub streamed: Bytes,
}

/// accelerate's share of one GPU's free memory for weights when `device_map="auto"` is given no
/// `max_memory` (`get_balanced_memory` on one GPU: "90% is a good compromise").
pub const ACCELERATE_SHARE: f64 = 0.9;

impl Estimate {
    /// Whether the model carries a vision or audio encoder (loaded, or skipped as text only).
    pub fn has_encoders(&self) -> bool {
        self.memory.term(TermKind::Encoders).is_some()
            || self.notes.iter().any(|n| n.id == MsgId::NoteTextOnly)
    }
}

/// What a training run involves beyond memory.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct TrainingInfo {
    /// Full, LoRA or QLoRA.
    pub mode: Mode,
    /// Tokens processed: dataset × epochs.
    pub tokens: u64,
    /// Total training FLOPs: FLOPs per token × tokens.
    pub flops_total: f64,
    /// Bytes of the saved weights (16-bit full model, or FP32 adapters).
    pub checkpoint: Bytes,
    /// Bytes of a resumable checkpoint with master weights and optimizer states.
    pub checkpoint_with_optimizer: Bytes,
    /// The frozen base's format (LoRA, QLoRA) or the training recipe's weight format.
    pub base_format: WeightFormat,
    /// What PyTorch's allocator would report as its peak (`torch.cuda.max_memory_allocated`):
    /// the total without the CUDA context and allocator slack, and without paged optimizer
    /// states, which bitsandbytes keeps in CUDA unified memory outside the allocator (they
    /// still occupy the device as `nvidia-smi` sees it).
    pub pytorch_peak: Bytes,
    /// How the framework's kernels and choices scale the device class's assumed utilisation
    /// ([`crate::training::throughput_factor`]).
    pub mfu_factor: f64,
    /// DeepSpeed ZeRO's gradient buckets (inside the gradients term), when they apply.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub zero_buckets: Option<crate::training::ZeroBuckets>,
    /// Float8 training applied (full fine-tuning with torchao's float8 linears).
    #[cfg_attr(feature = "serde", serde(default))]
    pub float8: bool,
    /// Tokens computed per token of data (padded micro-batches compute their padding; 1 when
    /// packed, padding-free or of one sample), in [`Self::flops_total`]: `(point, low, high)`.
    #[cfg_attr(feature = "serde", serde(default = "no_padding"))]
    pub padding: (f64, f64, f64),
    /// What each GPU sends to the others and to the CPU (for the time).
    #[cfg_attr(feature = "serde", serde(default))]
    pub traffic: crate::training::Traffic,
    /// Tokens of one micro-batch of one sequence-parallel group (`micro-batch × sequence`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub micro_tokens: u64,
    /// Micro-batches per optimizer step (gradient accumulation).
    #[cfg_attr(feature = "serde", serde(default))]
    pub grad_accum: u64,
    /// GPUs that work on one sequence together (tensor, context and Ulysses parallelism): the
    /// run's micro-batches are shared by `gpus / group` of them.
    #[cfg_attr(feature = "serde", serde(default))]
    pub group: u64,
}

#[cfg(feature = "serde")]
fn no_padding() -> (f64, f64, f64) {
    (1.0, 1.0, 1.0)
}

/// A model with its facts resolved (borrowing a custom model's architecture from the scenario).
pub struct Resolved<'a> {
    /// Display name.
    pub name: String,
    /// The architecture, when known.
    pub architecture: Option<Cow<'a, Architecture>>,
    /// For a bare count: the stand-in model for shape-dependent terms.
    pub stand_in: Option<(&'static str, Architecture)>,
    /// The checkpoint's own format.
    pub native_format: Option<WeightFormat>,
    /// Exact facts read from the checkpoint's files, when available.
    pub file: Option<crate::scenario::FileFacts>,
    /// Parameters.
    pub params: Params,
    /// Notices from reading.
    pub notices: Vec<Msg>,
    /// How far the shape can be trusted.
    pub confidence: Confidence,
    /// The architecture's parameters by part, counted once.
    pub breakdown: Option<ParamBreakdown>,
    /// llama.cpp compute buffers already replayed for this model, by context parameters: a fit
    /// asks the same ones for every device and every offload it tries.
    pub compute_cache: core::cell::RefCell<Vec<(crate::llama_cpp::Setup, crate::llama_cpp::ComputeBuffer)>>,
}

impl Resolved<'_> {
    /// llama.cpp's compute buffer of this model's `a` under `s`, replayed once per `s`.
    pub fn compute_buffer(
        &self,
        a: &Architecture,
        s: &crate::llama_cpp::Setup,
    ) -> crate::llama_cpp::ComputeBuffer {
        if let Some((_, cb)) = self.compute_cache.borrow().iter().find(|(k, _)| k == s) {
            return *cb;
        }
        let cb = crate::llama_cpp::compute_buffer(a, s);
        let mut cache = self.compute_cache.borrow_mut();
        if cache.len() >= 16 {
            cache.remove(0);
        }
        cache.push((*s, cb));
        cb
    }
}

/// Looks up or reads the model of a scenario.
///
/// # Errors
/// [`crate::Error::UnknownModel`], or what reading the config reports.
pub fn resolve(source: &ModelSource) -> Result<Resolved<'_>> {
    match source {
        ModelSource::Params(p) => {
            let stand_in = stand_in_for(*p);
            Ok(Resolved {
                name: crate::scenario::format_params(*p),
                architecture: None,
                stand_in,
                native_format: None,
                file: None,
                params: *p,
                notices: Vec::new(),
                confidence: Confidence::StandIn,
                breakdown: None,
                compute_cache: Default::default(),
            })
        }
        ModelSource::Catalog(id) => {
            let entry = catalog::model(id)?;
            // Every entry `catalog::model` returns is one of the catalog's, read once and kept.
            let (m, breakdown) =
                entry.cached()?.ok_or_else(|| Error::UnknownModel { id: entry.id.into() })?;
            Ok(Resolved {
                name: entry.id.into(),
                architecture: Some(Cow::Borrowed(&m.architecture)),
                stand_in: None,
                native_format: m.format,
                file: None,
                params: Params::new(breakdown.total()),
                notices: m.notices.clone(),
                confidence: m.confidence,
                breakdown: Some(breakdown.clone()),
                compute_cache: Default::default(),
            })
        }
        ModelSource::Custom(c) => {
            let breakdown = c.architecture.param_breakdown()?;
            let params = match c.file.as_ref().and_then(|f| f.params) {
                Some(p) => p,
                None => Params::new(breakdown.total()),
            };
            Ok(Resolved {
                name: c.name.clone(),
                architecture: Some(Cow::Borrowed(&c.architecture)),
                stand_in: None,
                native_format: c.format,
                file: c.file.clone(),
                params,
                notices: c.notices.clone(),
                confidence: if c.file.is_some() { Confidence::Exact } else { c.confidence },
                breakdown: Some(breakdown),
                compute_cache: Default::default(),
            })
        }
    }
}

/// The dense catalog model closest in size (on a log scale) to a bare parameter count, whose
/// shape stands in for the KV cache and activations. Only the mainstream GQA families (Llama,
/// Mistral, Qwen) stand in: their shapes are what an unnamed model of that size most likely has,
/// unlike Gemma's 256-wide heads or GPT-2's full multi-head attention.
fn stand_in_for(p: Params) -> Option<(&'static str, Architecture)> {
    let target = crate::ops::ln(p.get().max(1) as f64);
    let mut best: Option<(f64, &'static str, Architecture)> = None;
    for m in catalog::models() {
        let Ok(a) = m.architecture() else { continue };
        if a.moe().is_some() || !matches!(a.family.as_str(), "llama" | "mistral" | "qwen2" | "qwen3") {
            continue;
        }
        let Ok(n) = a.params_total() else { continue };
        let d = crate::ops::abs(crate::ops::ln(n.get() as f64) - target);
        if best.as_ref().is_none_or(|(bd, _, _)| d < *bd) {
            best = Some((d, m.id, a));
        }
    }
    best.map(|(_, id, a)| (id, a))
}

/// Estimates memory, disk and compute for a scenario.
///
/// Weights are priced tensor by tensor ([`crate::tensors`]); for a bare parameter count, by the
/// seed guide's bytes per parameter. The KV cache is exact ([`inference::kv_cache_bytes`]);
/// activations and overhead are modelled per runtime, with a band.
///
/// # Errors
/// [`crate::Error::Invalid`] for out-of-range inputs, [`crate::Error::UnknownModel`],
/// [`crate::Error::Overflow`] for absurd sizes.
///
/// # Example
/// ```
/// use headroom_core::{estimate::{estimate, TermKind}, precision::WeightFormat, scenario::Scenario, units::Params};
/// let s = Scenario::params(Params::new(7_000_000_000), Some(WeightFormat::F16));
/// assert_eq!(estimate(&s).unwrap().memory.get(TermKind::Weights).get(), 14_000_000_000);
/// ```
pub fn estimate(scenario: &Scenario) -> Result<Estimate> {
    scenario.validate()?;
    let r = resolve(&scenario.model)?;
    estimate_resolved(scenario, &r)
}

/// One point of a memory-versus-context curve.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SweepPoint {
    /// Tokens per sequence.
    pub context: u64,
    /// Memory of one device.
    pub total: Bytes,
    /// Lower end of the band.
    pub low: Bytes,
    /// Upper end of the band.
    pub high: Bytes,
    /// The KV cache's part.
    pub kv_cache: Bytes,
}

/// Memory of one device at each context in `contexts`, everything else as in `scenario`: the
/// curve the page draws. The model is resolved once.
///
/// # Errors
/// As [`estimate`].
pub fn sweep_context(scenario: &Scenario, contexts: &[u64]) -> Result<Vec<SweepPoint>> {
    scenario.validate()?;
    let r = resolve(&scenario.model)?;
    let mut s = scenario.clone();
    let mut out = Vec::with_capacity(contexts.len());
    for &c in contexts {
        s.context = c;
        s.validate()?;
        let e = estimate_resolved(&s, &r)?;
        out.push(SweepPoint {
            context: c,
            total: e.memory.total,
            low: e.memory.total_low,
            high: e.memory.total_high,
            kv_cache: e.memory.get(TermKind::KvCache),
        });
    }
    Ok(out)
}

/// [`estimate`] for a model already resolved.
///
/// # Errors
/// As [`estimate`].
pub fn estimate_resolved(scenario: &Scenario, r: &Resolved) -> Result<Estimate> {
    let device = scenario.device.as_ref().and_then(|d| crate::fit::device_of(d).ok());
    estimate_on(scenario, r, device.as_ref())
}

/// Whether a layer attends an encoder's positions rather than the text (Llama 3.2 Vision).
pub fn has_cross_attention(a: &Architecture) -> bool {
    a.mixers().any(|(_, m)| matches!(m, Mixer::Attention(at) if matches!(at.span, Span::Cross { .. })))
}

/// [`estimate_resolved`] on `device` (which decides vLLM's defaults and budget) rather than the
/// scenario's own.
///
/// # Errors
/// As [`estimate`]; a runtime that cannot run the model's cross-attention layers.
pub fn estimate_on(scenario: &Scenario, r: &Resolved, device: Option<&Device>) -> Result<Estimate> {
    let e = estimate_once(scenario, r, device)?;
    // vLLM's `--max-model-len auto`: when the model's length does not fit, everything at the
    // length vLLM settles on, the fit said in its log.
    let Some(fit) = e.vllm.as_ref().and_then(|b| b.auto_fit).filter(|f| f.to > 0 && f.to < scenario.context)
    else {
        return Ok(e);
    };
    let at = Scenario {
        context: fit.to,
        vllm: crate::vllm::VllmOptions { max_model_len_auto: false, ..scenario.vllm.clone() },
        ..scenario.clone()
    };
    let mut again = estimate_once(&at, r, device)?;
    if let Some(b) = again.vllm.as_mut() {
        b.auto_fit = Some(fit);
    }
    Ok(again)
}

/// [`estimate_on`] once, at the scenario's own context.
fn estimate_once(scenario: &Scenario, r: &Resolved, device: Option<&Device>) -> Result<Estimate> {
    if scenario.mode.is_training() {
        return estimate_training(scenario, r);
    }
    let requested = scenario.weights.or(r.native_format).unwrap_or(WeightFormat::Bf16);
    // Cross-attention to an image encoder (Llama 3.2 Vision): transformers runs it; vLLM dropped
    // encoder-decoder models in 0.10.2, llama.cpp never had them, and SGLang's and Ollama's own
    // engines are not modelled.
    let cross = r.architecture.as_deref().is_some_and(has_cross_attention);
    let runtime = scenario.runtime.unwrap_or_else(|| {
        // The usual runtime for the format, unless it refuses the model and transformers loads it.
        crate::loads::usable_default(
            Runtime::default_for_model(requested, cross),
            &[Runtime::Transformers],
            r.architecture.as_deref().map(|a| &a.checkpoint),
            scenario.vllm.version,
        )
    });
    if cross && runtime != Runtime::Transformers {
        return Err(Error::invalid(
            "runtime",
            format!(
                "{} does not run this model's cross-attention layers (Llama 3.2 Vision: vLLM dropped encoder-decoder models in 0.10.2 and llama.cpp never ran them; Ollama's own engine is not modelled): choose transformers",
                runtime.label()
            ),
        ));
    }
    // llama.cpp runs GGUF files: a float checkpoint becomes the GGUF file of the same precision.
    let format = match (runtime.is_llama_cpp(), requested) {
        (true, WeightFormat::F32) => WeightFormat::Gguf(crate::precision::GgufMix::F32),
        (true, WeightFormat::F16) => WeightFormat::Gguf(crate::precision::GgufMix::F16),
        (true, WeightFormat::Bf16) => WeightFormat::Gguf(crate::precision::GgufMix::BF16),
        // An MXFP4 checkpoint (gpt-oss) runs in llama.cpp as its MXFP4_MOE GGUF: the experts
        // kept in MXFP4, every other tensor in Q8_0 (`llama_tensor_get_type`; the 12.1 GB file of
        // gpt-oss-20b). Ollama ships its own file, with 16-bit attention.
        (true, WeightFormat::Mxfp4) if runtime == Runtime::LlamaCpp => {
            WeightFormat::Gguf(crate::precision::GgufMix::MXFP4_MOE)
        }
        (_, f) => f,
    };
    let gpus = if runtime == Runtime::Cpu { 1 } else { scenario.gpus };
    let mut notes: Vec<Msg> = r.notices.clone();
    // A runtime whose own list of models lacks this one: said beside the numbers.
    if let Some(a) = r.architecture.as_deref() {
        match crate::loads::loads(runtime, &a.checkpoint, scenario.vllm.version) {
            crate::loads::Loads::No(m) | crate::loads::Loads::Unsure(m) => notes.push(m),
            crate::loads::Loads::Yes => {}
        }
    }
    if runtime == Runtime::Cpu && scenario.gpus > 1 {
        notes.push(Msg::new(MsgId::NoteCpuIgnoresGpus, vec![]));
    }
    // vLLM: the card decides the profile step's defaults; the cache holds whole blocks.
    let vllm_card = device.filter(|d| !matches!(d.kind, DeviceKind::Apple | DeviceKind::Cpu));
    let (vllm_tokens, vllm_seqs) = if runtime == Runtime::Sglang {
        // SGLang: one chunk of its chunked prefill; no sampler profile.
        (scenario.sglang.sizes(vllm_card.map(|d| d.memory_mib), gpus).0, 0)
    } else {
        scenario.vllm.batch(
            vllm_card.map(crate::vllm::cuda_total),
            vllm_card.map_or("", |d| d.name),
            vllm_card.map_or(0, |d| d.compute_capability),
        )
    };
    let page = match runtime {
        // Under decode context parallelism a block of the scheduler's spans `dcp` ranks' blocks.
        Runtime::Vllm => scenario.vllm.block_size().saturating_mul(scenario.vllm.dcp()),
        Runtime::Sglang => scenario.sglang.page_size(),
        _ => 1,
    };
    let context = scenario.context.div_ceil(page).saturating_mul(page);
    let mut setup = InferenceSetup {
        runtime,
        kv: scenario.kv,
        context,
        vllm_tokens,
        vllm_seqs,
        vllm_sampler_x4: r
            .architecture
            .as_deref()
            .or(r.stand_in.as_ref().map(|(_, a)| a))
            .map_or(crate::vllm::SAMPLER_BYTES_PER_LOGIT_X4, |a| {
                crate::vllm::sampler_bytes_x4(&scenario.vllm, a)
            }),
        batch: scenario.batch,
        gpus,
        flash_attention: scenario.flash_attention,
        text_only: scenario.text_only,
        mm_encoder_data: runtime == Runtime::Vllm && scenario.vllm.mm_encoder_data,
        dcp: if runtime == Runtime::Vllm { scenario.vllm.dcp() } else { 1 },
        llama: scenario.llama_setup(),
    };

    // The architecture that shapes the KV cache and activations.
    let shape: Option<&Architecture> = r.architecture.as_deref().or(r.stand_in.as_ref().map(|(_, a)| a));
    // (Ollama sets llama.cpp's parameters itself: it falls back to an F16 cache without flash
    // attention rather than refusing.)
    if matches!(runtime, Runtime::LlamaCpp | Runtime::Cpu) {
        llama_cpp_refusals(&setup.llama, shape)?;
    }

    // Weights.
    // The file's own tensors when the scenario keeps its format; else each tensor priced by rule.
    let from_file =
        r.file.as_ref().filter(|_| scenario.weights.is_none() || scenario.weights == r.native_format);
    // A multimodal checkpoint's encoder tensors go to their own term.
    let (priced, encoder_file): (Option<Priced>, Option<u64>) = match (from_file, &r.architecture) {
        (Some(f), _) => {
            // An omni checkpoint's speech output is loaded by transformers only.
            let (lm, enc, speech) = f.tensors.without_encoders();
            let enc = enc.saturating_add(if speech_runtime(runtime) { speech } else { 0 });
            (Some(lm), (enc > 0).then_some(enc))
        }
        (None, Some(a)) => (Some(tensors::weight_bytes(a, format)?), None),
        (None, None) => (None, None),
    };
    // transformers 5.24 dequantizes Inkling-2-Mini's NVFP4 and MXFP8 experts on load
    // (`Inkling2LoopDequantizeExperts`): each MoE layer's experts in 16 bits, whatever the files.
    let mut priced = priced;
    if runtime == Runtime::Transformers
        && let (Some(p), Some(a)) = (priced.as_mut(), r.architecture.as_deref())
        && crate::loads::transformers_dequantizes_experts(a)
        && let Some(m) = a.moe()
    {
        let per_layer = m
            .num_experts
            .saturating_mul(m.expert_intermediate)
            .saturating_mul(a.hidden_size)
            .saturating_mul(if m.gated { 3 } else { 2 })
            .saturating_mul(2);
        let mut seen: Vec<u32> = Vec::new();
        let before = p.sum_where(|t| t.role.is_expert());
        for (t, b) in p.tensors.iter().zip(p.bytes.iter_mut()).filter(|(t, _)| t.role.is_expert()) {
            // The layer's experts as one 16-bit whole, on its first expert tensor.
            let layer = t.layer.unwrap_or(u32::MAX);
            *b = if seen.contains(&layer) { 0 } else { per_layer };
            if !seen.contains(&layer) {
                seen.push(layer);
            }
        }
        let after = p.sum_where(|t| t.role.is_expert());
        if after > before {
            notes.push(Msg::new(
                MsgId::NoteTransformersDequantExperts,
                vec![Arg::Size(Bytes::new(after - before))],
            ));
        }
    }
    let (weights_total, weights_exact) = match &priced {
        Some(p) => (p.total(), true),
        None => ((r.params * format.flat_bits_per_weight()).or_overflow("weight memory")?, format.is_seed()),
    };
    // llama.cpp's -ngl counts the output layer as one more layer and offloads it first
    // (llama.cpp PR #18148, December 2025): `-ngl k` puts the head and the last `k − 1` layers
    // on the GPU; `k > layers` is everything.
    let layers = shape.map_or(0, |a| a.num_layers());
    let hf_map = runtime == Runtime::Transformers && gpus == 1 && r.architecture.is_some();
    let place = match (scenario.gpu_layers, runtime.is_llama_cpp(), &r.architecture) {
        (Some(k), true, Some(_)) if k <= layers => Placement {
            first_gpu_layer: (layers + 1 - k).min(layers),
            head_on_gpu: k > 0,
            hf_prefix: None,
            cpu_moe: 0,
        },
        (Some(k), false, Some(_)) if hf_map && k < layers => {
            Placement { first_gpu_layer: 0, head_on_gpu: false, hf_prefix: Some(k), cpu_moe: 0 }
        }
        _ => Placement { first_gpu_layer: 0, head_on_gpu: true, hf_prefix: None, cpu_moe: 0 },
    };
    if scenario.gpu_layers.is_some() && !runtime.is_llama_cpp() && !hf_map {
        notes.push(Msg::new(MsgId::NoteGpuLayersLlamaCpp, vec![]));
    }
    let place = Placement {
        cpu_moe: scenario.llama.cpu_moe.filter(|_| runtime.is_llama_cpp()).unwrap_or(0),
        ..place
    };
    // llama.cpp over several GPUs: its layer split, GPU by GPU; different cards share the layers
    // by their memory unless `--tensor-split` says otherwise.
    let cards = mixed_cards(scenario);
    if runtime.is_llama_cpp() && scenario.llama.tensor_split.len() as u64 > gpus {
        // As llama.cpp: the shares past the last GPU are not used.
        notes.push(Msg::new(
            MsgId::NoteTensorSplitExtra,
            vec![Arg::Int(scenario.llama.tensor_split.len() as u64), Arg::Int(gpus)],
        ));
    }
    let shares = (runtime.is_llama_cpp() && gpus > 1 && r.architecture.is_some()).then(|| {
        let offloaded = (layers - place.first_gpu_layer) + u64::from(place.head_on_gpu);
        let by_memory: Vec<u32> =
            cards.iter().map(|d| u32::try_from(d.memory_mib).unwrap_or(u32::MAX)).collect();
        let split =
            if scenario.llama.tensor_split.is_empty() { &by_memory } else { &scenario.llama.tensor_split };
        crate::llama_cpp::layer_split(layers, offloaded, gpus, split)
    });
    // vLLM's expert parallelism: routed experts over every GPU of every replica.
    let expert_gpus = if runtime == Runtime::Vllm && scenario.vllm.expert_parallel {
        gpus.saturating_mul(scenario.vllm.data_parallel())
    } else {
        gpus
    };
    let (mut weights_device, mut weights_host, experts_host, weights_per_gpu) = split_weights(
        &priced,
        weights_total,
        runtime,
        gpus,
        r.architecture.as_deref(),
        place,
        shares.as_deref(),
        expert_gpus,
    );
    // vLLM's MXFP4 experts padded to its kernel's tiles, with their biases in its dtype.
    let mut mxfp4_added = 0u64;
    let mxfp4 = match (runtime == Runtime::Vllm, &priced, r.architecture.as_deref(), vllm_card) {
        (true, Some(p), Some(a), Some(d)) => crate::vllm::mxfp4_moe_layout(
            scenario.vllm.version,
            a,
            p,
            format,
            gpus,
            (expert_gpus, scenario.vllm.expert_parallel),
            d,
        ),
        _ => None,
    };
    if let Some(l) = mxfp4 {
        weights_device = weights_device.saturating_add(l.vllm).saturating_sub(l.ours);
        mxfp4_added = l.vllm.get().saturating_sub(l.ours.get());
        if l.vllm != l.ours {
            notes.push(Msg::new(
                MsgId::NoteVllmMxfp4Layout,
                vec![
                    Arg::Text(l.backend.into()),
                    Arg::Int(l.hidden),
                    Arg::Int(l.intermediate),
                    Arg::Size(Bytes::new(mxfp4_added)),
                ],
            ));
        }
    }
    // DeepSeek V4.1 under vLLM: the Engram tables in pinned host memory, not on the GPUs; its
    // 32 × 32-block FP8 matrices loaded as MXFP8 (`ModelOptLinearMethod`), a scale byte per 32
    // values of each row in place of one per block.
    if runtime == Runtime::Vllm
        && let (Some(p), Some(a)) = (&priced, r.architecture.as_deref())
    {
        if let Some(h) = crate::vllm::engram_host(a, p, gpus, scenario.vllm.data_parallel()) {
            let on_gpu =
                tensor_parallel_bytes_where(p, a, gpus, expert_gpus, &|t| crate::vllm::is_engram_table(a, t));
            weights_device = weights_device.saturating_sub(Bytes::new(on_gpu));
            weights_host = weights_host.saturating_add(h.host);
            notes.push(Msg::new(
                if h.rounded { MsgId::NoteVllmEngramPinned } else { MsgId::NoteVllmEngramShared },
                vec![Arg::Size(h.tables), Arg::Size(h.host), Arg::Int(h.shards)],
            ));
        }
        // The expert routers its class builds in FP32 (whole on every GPU).
        if crate::vllm::fp32_router(a) {
            let gate = |t: &tensors::Tensor| t.role == Role::Router && t.cols == a.hidden_size;
            let loaded: u64 = p
                .tensors
                .iter()
                .filter(|t| gate(t))
                .map(|t| t.rows.saturating_mul(t.cols).saturating_mul(4))
                .fold(0, u64::saturating_add);
            let added = loaded.saturating_sub(tensor_parallel_bytes_where(p, a, gpus, expert_gpus, &gate));
            if added > 0 {
                weights_device = weights_device.saturating_add(Bytes::new(added));
                notes.push(Msg::new(MsgId::NoteVllmFp32Router, vec![Arg::Size(Bytes::new(added))]));
            }
        }
        // By the checkpoint's format, not the family: UE8M0 bytes over 32 × 32 blocks.
        let mxfp8 = WeightFormat::Fp8Scaled {
            grain: crate::precision::Grain::Block(32, 32),
            scale_bytes: 1,
            input_bytes: 0,
        };
        if p.formats.contains(&mxfp8) {
            let mut loaded = p.clone();
            for ((t, b), f) in loaded.tensors.iter().zip(loaded.bytes.iter_mut()).zip(&p.formats) {
                if *f == mxfp8 {
                    let values = t.rows.saturating_mul(t.cols).saturating_mul(t.experts.max(1));
                    *b = values.saturating_add(values / 32);
                }
            }
            let keep = |t: &tensors::Tensor| !crate::vllm::is_engram_table(a, t);
            let added = tensor_parallel_bytes_where(&loaded, a, gpus, expert_gpus, &keep)
                .saturating_sub(tensor_parallel_bytes_where(p, a, gpus, expert_gpus, &keep));
            if added > 0 {
                weights_device = weights_device.saturating_add(Bytes::new(added));
                notes.push(Msg::new(MsgId::NoteVllmMxfp8Scales, vec![Arg::Size(Bytes::new(added))]));
            }
        }
    }
    // accelerate's device_map: each offloaded module is copied to the GPU while it runs, so the
    // largest of them is on the GPU too.
    let device_map = match (place.hf_prefix, &priced, r.architecture.as_deref()) {
        (Some(k), Some(p), Some(a)) => {
            let sums = p.layer_sums(a.num_layers());
            let input = p.sum_where(|t| matches!(t.role, Role::TokenEmbd | Role::PosEmbd));
            let head =
                p.sum_where(|t| t.layer.is_none() && !matches!(t.role, Role::TokenEmbd | Role::PosEmbd));
            let biggest_layer = |from: usize| sums.iter().skip(from).copied().max().unwrap_or(0);
            let largest = biggest_layer(0).max(input).max(head);
            let streamed = biggest_layer(k as usize).max(head);
            let map = DeviceMap {
                gpu_layers: k,
                layers,
                gpu_weights: weights_device,
                host_weights: weights_host,
                largest_module: Bytes::new(largest),
                streamed: Bytes::new(streamed),
            };
            weights_device = weights_device.saturating_add(map.streamed);
            notes.push(Msg::new(
                MsgId::NoteDeviceMap,
                vec![Arg::Int(k), Arg::Int(layers), Arg::Size(map.host_weights), Arg::Size(map.streamed)],
            ));
            Some(map)
        }
        _ => None,
    };
    // vLLM's pipeline parallelism: consecutive layers on each stage, the input embeddings on the
    // first, the final norm and head on the last (with the embeddings when tied; gpt-oss builds
    // both on every stage); the busiest stage's GPU is the estimate's device.
    let mut pp_stages: Vec<(u64, u64, Bytes)> = Vec::new();
    if runtime == Runtime::Vllm
        && scenario.vllm.pipeline_parallel() > 1
        && let (Some(p), Some(a)) = (&priced, r.architecture.as_deref())
    {
        let ranges = crate::vllm::pp_stages(layers, scenario.vllm.pipeline_parallel());
        let last = ranges.len().saturating_sub(1);
        let everywhere = a.family == "gpt_oss";
        for (k, &(start, end)) in ranges.iter().enumerate() {
            let keep = |t: &tensors::Tensor| match t.layer {
                Some(l) => (start..end).contains(&u64::from(l)),
                None if matches!(t.role, Role::TokenEmbd | Role::PosEmbd) => {
                    k == 0 || everywhere || (k == last && a.tie_word_embeddings)
                }
                None => k == last || everywhere,
            };
            let padded = mxfp4_added.saturating_mul(end - start) / layers.max(1);
            let w = tensor_parallel_bytes_where(p, a, gpus, expert_gpus, &keep).saturating_add(padded);
            pp_stages.push((start, end, Bytes::new(w)));
        }
        if let Some(busiest) = pp_stages.iter().map(|s| s.2).max() {
            weights_device = busiest;
        }
        notes.push(Msg::new(
            MsgId::NoteVllmPipeline,
            vec![
                Arg::Int(pp_stages.len() as u64),
                Arg::Text(pp_stages.iter().map(|s| format!("{}", s.1 - s.0)).collect::<Vec<_>>().join(", ")),
                Arg::Int(gpus.saturating_mul(pp_stages.len() as u64)),
            ],
        ));
    }
    if runtime == Runtime::Vllm && scenario.vllm.cpu_offload > 0 {
        // `--cpu-offload-gb`: that much of each GPU's weights stays in CPU memory.
        for s in &mut pp_stages {
            s.2 = s.2.saturating_sub(Bytes::new(scenario.vllm.cpu_offload));
        }
        let moved = weights_device.min(Bytes::new(scenario.vllm.cpu_offload));
        weights_device = weights_device.saturating_sub(moved);
        weights_host = weights_host.saturating_add(Bytes::new(moved.get().saturating_mul(gpus)));
        notes.push(Msg::new(MsgId::NoteVllmCpuOffload, vec![Arg::Size(moved)]));
    }
    // llama.cpp's CPU repacking: the weights its CPU runs in a repackable type go to its own
    // buffer; tied embeddings whose type repacks get a second, repacked copy as the head (as they
    // get one on a GPU).
    let llama_family = runtime.is_llama_cpp() || runtime == Runtime::Cpu;
    let (repacked, repack_dup, head_on_cpu) = match (&priced, r.architecture.as_deref(), llama_family) {
        (Some(p), Some(a), true) if !p.gguf_types.is_empty() => {
            let isa = if device.is_some_and(|d| d.kind == DeviceKind::Apple) {
                crate::llama_cpp::CpuIsa::ArmNeon
            } else {
                crate::llama_cpp::CpuIsa::X86Avx2
            };
            cpu_repack(p, a, runtime, place, isa)
        }
        _ => (Bytes::ZERO, Bytes::ZERO, false),
    };
    // (The tied head's copy on a GPU is in the GPU's weights; on the CPU, in the repack buffer.)
    let weights_total = weights_total.saturating_add(repack_dup);
    let repack_dup_cpu = if head_on_cpu { repack_dup } else { Bytes::ZERO };
    let mut weights_term = weights_term(
        r,
        format,
        (weights_device, weights_total, weights_exact),
        from_file.and(priced.as_ref()).map(|p| p.tensors.len()),
        gpus,
        runtime,
    );
    if let (Some(p), None) = (&priced, from_file) {
        plan_assumptions(&mut weights_term, p, r.architecture.as_deref());
    }

    // Ollama passes one `num_batch` as llama-server's `-b` and `-ub`; unset, it picks it by the
    // context and the memory it predicts for the weights and the cache on the GPUs.
    if runtime == Runtime::Ollama {
        let gpu = device.filter(|d| !matches!(d.kind, DeviceKind::Cpu));
        let n = match scenario.llama.num_batch {
            Some(n) => n,
            None => {
                let mut input = crate::ollama::BatchInput {
                    context: setup.llama.context.saturating_mul(setup.llama.sequences.max(1)),
                    flash_attention_off: !scenario.flash_attention,
                    cuda_memory: gpu
                        .filter(|d| crate::hardware::support(d).cuda)
                        .map(|d| Bytes::new(d.memory_mib.saturating_mul(crate::units::MIB))),
                    predicted: None,
                };
                let first = crate::ollama::auto_batch(&input);
                match (gpu, shape) {
                    (Some(d), Some(a)) if first > 512 => {
                        let trial = crate::llama_cpp::Setup { batch: first, ubatch: first, ..setup.llama };
                        let kv = inference::kv_cache_bytes_llama_cpp(a, &trial)?;
                        let gpus_memory = crate::ollama::total_vram(d, gpus);
                        input.predicted = Some((weights_total.saturating_add(kv), gpus_memory));
                        crate::ollama::auto_batch(&input)
                    }
                    _ => first,
                }
            }
        };
        setup.llama.batch = n;
        setup.llama.ubatch = n;
        if let Some(d) = gpu {
            let vram = crate::ollama::total_vram(d, gpus);
            let trained = shape.map_or(0, |a| a.max_context);
            let own = crate::ollama::default_context(vram, trained);
            if own != scenario.context {
                notes.push(Msg::new(
                    MsgId::NoteOllamaContext,
                    vec![Arg::Int(own), Arg::Int(trained), Arg::Int(scenario.context)],
                ));
            }
        }
        if scenario.llama.num_batch.is_none() {
            notes.push(Msg::new(MsgId::NoteOllamaBatch, vec![Arg::Int(n)]));
        }
    }

    // KV cache.
    let (kv_total, kv_per_token) = match shape {
        Some(a) => (
            if runtime.is_llama_cpp() || runtime == Runtime::Cpu {
                inference::kv_cache_bytes_llama_cpp(a, &setup.llama)?
            } else {
                kv_cache_bytes(a, scenario.kv, context, scenario.batch)?
            },
            Bytes::new(inference::kv_bytes_per_token(a, scenario.kv)),
        ),
        None => (Bytes::ZERO, Bytes::ZERO),
    };
    let encoder_term = encoders_term(r, scenario, runtime, format, gpus, encoder_file, &mut notes);
    let encoder_device = encoder_term.as_ref().map_or(Bytes::ZERO, |t| t.bytes);
    let mut terms = vec![weights_term];
    let encoders_loaded = encoder_term.is_some();
    terms.extend(encoder_term);
    let mut llama_compute = None;
    let mut kv_host = Bytes::ZERO;
    let mut state_host = Bytes::ZERO;
    if let Some(a) = shape {
        let (term, host) = kv_term(a, r, &setup, place, kv_total)?;
        kv_host = host;
        terms.push(term);
        if let Some(state) = state_term(a, &setup, place, &mut state_host) {
            terms.push(state);
        }
        let replayed =
            (runtime.is_llama_cpp() || runtime == Runtime::Cpu).then(|| r.compute_buffer(a, &setup.llama));
        let (term, buffers) = activation_term(a, &setup, &mut notes, replayed)?;
        llama_compute = buffers;
        terms.push(term);
    } else {
        terms.push(activation_term_flat(weights_device));
    }
    // vLLM's speculative drafter: its weights and the KV its layers add for the requests.
    let drafter = match (runtime, shape, &scenario.vllm.speculative) {
        (Runtime::Vllm, Some(a), Some(sp)) => Some(crate::vllm::drafter(a, sp, format, scenario.kv, gpus)?),
        _ => None,
    };
    if let (Some(d), Some(sp)) = (drafter, &scenario.vllm.speculative) {
        let kv =
            d.layer_bytes.saturating_mul(d.layers).saturating_mul(context).saturating_mul(scenario.batch);
        let bytes = d.weights.saturating_add(Bytes::new(kv));
        terms.push(inference::banded(
            TermKind::Draft,
            bytes,
            if d.exact { (0.98, 1.05) } else { (0.6, 1.6) },
            if d.layer_bytes == 0 && d.layers > 0 {
                Msg::new(
                    MsgId::DraftVllmWindows,
                    vec![Arg::Text(sp.id()), Arg::Size(d.weights), Arg::Int(d.layers)],
                )
            } else {
                Msg::new(
                    MsgId::DraftVllm,
                    vec![
                        Arg::Text(sp.id()),
                        Arg::Size(d.weights),
                        Arg::Int(d.layers),
                        Arg::Size(Bytes::new(kv)),
                    ],
                )
            },
            vec![],
        ));
    }
    if runtime.is_llama_cpp()
        && let Some(id) = &scenario.llama.draft
    {
        terms.push(draft_term(id, shape, format, &setup.llama, scenario.llama.draft_max, &mut notes)?);
    }
    let variable = terms.iter().skip(1).fold(Bytes::ZERO, |acc, t| acc.saturating_add(t.bytes));
    let sglang = match (runtime, shape, vllm_card) {
        (Runtime::Sglang, Some(a), Some(d)) => Some(crate::sglang::budget(
            &scenario.sglang,
            &crate::sglang::SglangInput {
                arch: a,
                kv: scenario.kv,
                context_len: scenario.context,
                tp: gpus,
                weights: weights_device.saturating_add(encoder_device),
                total: crate::vllm::cuda_total_with(d, scenario.mac_gpu_fraction),
                gpu_mem_mib: d.memory_mib,
                vision: !scenario.text_only && a.vision_config_size.is_some(),
            },
        )),
        _ => None,
    };
    terms.push(match (runtime, shape, &sglang) {
        (Runtime::Vllm, Some(a), _) => {
            let cc = vllm_card.map_or(0, |d| d.compute_capability);
            inference::vllm_overhead_term(a, &scenario.vllm, (vllm_tokens, vllm_seqs), (gpus, cc))
        }
        (Runtime::Sglang, Some(_), Some(b)) => {
            let act = terms.iter().find(|t| t.kind == TermKind::Activations).map_or(Bytes::ZERO, |t| t.bytes);
            inference::sglang_overhead_term(b, act, &mut notes)
        }
        _ => {
            // llama.cpp's GPU back end on this device: Metal on a Mac, ROCm on AMD, else CUDA.
            let backend = match device {
                Some(d) if d.kind == DeviceKind::Apple => "Metal",
                Some(d) if d.vendor.eq_ignore_ascii_case("amd") => "ROCm",
                _ => "CUDA",
            };
            overhead_term(runtime, gpus, variable, backend)
        }
    });
    // llama.cpp over several GPUs: each GPU's weights, caches and compute buffer (only the one
    // with the output layer computes the logits); the busiest GPU is the estimate's device.
    let mut llama_gpus = Vec::new();
    if let (Some(sh), Some(a), Some(cb)) = (&shares, shape, llama_compute) {
        let kv_layers = inference::kv_bytes_per_layer_llama_cpp(a, &setup.llama);
        let state_layers = inference::state_bytes_per_layer(a, 4, setup.llama.sequences.max(1));
        let layers_only = Bytes::new(crate::llama_cpp::compute_buffer_layers(a, &setup.llama));
        let sum = |v: &[u64], from: u64, to: u64| {
            Bytes::new(
                v.iter()
                    .skip(from as usize)
                    .take(to.saturating_sub(from) as usize)
                    .fold(0u64, |x, y| x.saturating_add(*y)),
            )
        };
        let others = terms
            .iter()
            .filter(|t| {
                !matches!(
                    t.kind,
                    TermKind::Weights | TermKind::KvCache | TermKind::State | TermKind::Activations
                )
            })
            .fold(Bytes::ZERO, |x, t| x.saturating_add(t.bytes));
        let mut parts = Vec::with_capacity(sh.len());
        for (g, &(first, end, head)) in sh.iter().enumerate() {
            let weights = Bytes::new(weights_per_gpu.get(g).copied().unwrap_or(0));
            let (kv, state) = (sum(&kv_layers, first, end), sum(&state_layers, first, end));
            let compute = if head {
                Bytes::new(cb.bytes)
            } else if end > first {
                layers_only
            } else {
                Bytes::ZERO
            };
            let total = weights
                .saturating_add(kv)
                .saturating_add(state)
                .saturating_add(compute)
                .saturating_add(others);
            parts.push((kv, state));
            llama_gpus.push(crate::llama_cpp::GpuShare {
                first,
                end,
                head,
                weights,
                cache: kv.saturating_add(state),
                compute,
                total,
            });
        }
        if let Some((i, busiest)) =
            llama_gpus.iter().enumerate().max_by_key(|(i, g)| (g.total, core::cmp::Reverse(*i)))
        {
            let (kv, state) = parts[i];
            for t in &mut terms {
                match t.kind {
                    TermKind::Weights => t.rescale(busiest.weights),
                    TermKind::KvCache => t.rescale(kv),
                    TermKind::State => t.rescale(state),
                    TermKind::Activations => t.rescale(busiest.compute),
                    _ => {}
                }
            }
            weights_device = busiest.weights;
        }
    }
    // The repack buffer: its tied-head copy is more memory; the rest doubles file pages the system
    // may drop, so it is the top of the band. On the CPU runtime it is the device's own memory.
    let repack_term = (repacked > Bytes::ZERO).then(|| Term {
        kind: TermKind::Repacked,
        bytes: repack_dup_cpu,
        low: repack_dup_cpu,
        high: repacked,
        formula: Msg::new(
            MsgId::HostRepacked,
            vec![
                Arg::Text(if device.is_some_and(|d| d.kind == DeviceKind::Apple) {
                    "Q4_0, Q4_K, Q5_K, Q6_K, Q8_0, IQ4_NL, MXFP4".into()
                } else {
                    "Q4_0, Q4_K, IQ4_NL, MXFP4".into()
                }),
                Arg::Size(repacked),
            ],
        ),
        assumptions: vec![],
    });
    if runtime == Runtime::Cpu
        && let Some(t) = repack_term.clone()
    {
        terms.push(t);
        crate::sort::sort_by_key(&mut terms, |t| TermKind::ALL.iter().position(|k| *k == t.kind));
    }
    widen_for_confidence(&mut terms, r.confidence);
    widen_for_quant(&mut terms, &r.notices);
    let memory = Memory::from_terms(terms)?;
    let vllm = match (runtime, shape, vllm_card) {
        (Runtime::Vllm, Some(a), Some(d)) => Some(crate::vllm::budget(
            &scenario.vllm,
            &crate::vllm::BudgetInput {
                arch: a,
                kv: scenario.kv,
                max_model_len: scenario.context,
                tp: gpus,
                weights: weights_device.saturating_add(encoder_device),
                total: crate::vllm::cuda_total_with(d, scenario.mac_gpu_fraction),
                device_name: d.name,
                cuda_cc: d.compute_capability,
                rocm: d.vendor.eq_ignore_ascii_case("amd"),
                outside: scenario.reserve.bytes_on(d),
                stages: &pp_stages,
                drafter,
                encoders: if !encoders_loaded {
                    &[]
                } else {
                    r.architecture.as_deref().map_or(&[], |a| a.encoders.as_slice())
                },
            },
        )),
        _ => None,
    };
    // Tensor parallelism vLLM refuses for this model (Dory on more than one GPU, heads that do
    // not divide among them).
    if runtime == Runtime::Vllm
        && let Some(r) = shape.and_then(|a| crate::vllm::tp_refusal(a, gpus))
    {
        notes.push(r.reason);
    }

    // System RAM beside the accelerators.
    let cpu_layers = place.first_gpu_layer > 0;
    let cpu_compute = if cpu_layers { memory.get(TermKind::Activations) } else { Bytes::ZERO };
    let mut host = host_memory(runtime, weights_host, (kv_host, state_host), cpu_compute, &memory)?;
    if let Some(term) = repack_term.filter(|_| runtime != Runtime::Cpu) {
        let mut terms = host.terms.clone();
        terms.push(term);
        crate::sort::sort_by_key(&mut terms, |t| TermKind::ALL.iter().position(|k| *k == t.kind));
        host = Memory::from_terms(terms)?;
    }
    if cpu_layers {
        notes.push(Msg::new(MsgId::NoteOffloaded, vec![Arg::Int(place.first_gpu_layer), Arg::Int(layers)]));
    }

    let disk = Disk {
        weights: inference_disk(r, from_file, format, weights_total, priced.as_ref())?
            .saturating_add(if from_file.is_some() { Bytes::ZERO } else { encoder_download(r, format) }),
    };
    inference_notes(r, scenario, format, runtime, &mut notes);

    let model = model_summary(r)?;
    let flops_per_token = flops_per_token(model.params_active, shape, scenario.context);
    Ok(Estimate {
        model,
        format,
        runtime,
        devices: gpus,
        memory,
        host,
        weights_total,
        kv_total,
        kv_per_token,
        weights_exact,
        embedding_bytes: priced.as_ref().map_or(Bytes::ZERO, |p| {
            Bytes::new(
                // With the tables a layer looks rows up in (DeepSeek V4.1's Engram tables).
                p.sum_where(|t| {
                    (matches!(t.role, Role::TokenEmbd | Role::PosEmbd) && !shares_head(t, r))
                        || (t.role == Role::ExtraEmbd && t.layer.is_some())
                }),
            )
        }),
        input_embedding_bytes: priced.as_ref().map_or(Bytes::ZERO, |p| {
            Bytes::new(p.sum_where(|t| matches!(t.role, Role::TokenEmbd | Role::PosEmbd)))
        }),
        expert_bytes: priced
            .as_ref()
            .map_or(Bytes::ZERO, |p| Bytes::new(p.sum_where(|t| t.role.is_expert()))),
        expert_bytes_host: experts_host,
        disk,
        trainable_params: 0,
        flops_per_token,
        training: None,
        warnings: warnings_of(r, &notes),
        state_per_sequence: state_per_sequence(r, runtime),
        llama_gpus,
        device_map,
        expert_gpus: if runtime == Runtime::Vllm && scenario.vllm.expert_parallel {
            expert_gpus.max(1)
        } else {
            1
        },
        llama_cpp: llama_compute.map(|cb| {
            let state = state_per_sequence(r, runtime).get().saturating_mul(setup.llama.sequences);
            LlamaCppBuffers {
                n_ctx: setup.llama.context.saturating_mul(setup.llama.sequences),
                n_batch: setup.llama.batch,
                n_ubatch: setup.llama.tokens(),
                n_seq: setup.llama.sequences,
                model_bytes: weights_total.get(),
                kv_bytes: kv_total.get(),
                state_bytes: state,
                context_bytes: kv_total.get().saturating_add(state),
                compute_bytes: cb.bytes,
                output_bytes: cb.output,
                graph_exact: cb.exact,
                repacked_bytes: repacked.get(),
            }
        }),
        vllm,
        sglang,
        notes,
    })
}

/// A draft model's memory on the GPU (llama.cpp `-md`): its weights in the target's format, a KV
/// cache of the target's cells and its own compute buffer, each by the rules the target's follow.
///
/// # Errors
/// [`Error::Invalid`] on `draft` for an unknown model, or a vocabulary llama.cpp would refuse
/// (more than 128 tokens apart from the target's, `SPEC_VOCAB_MAX_SIZE_DIFFERENCE`).
fn draft_term(
    id: &str,
    target: Option<&Architecture>,
    format: WeightFormat,
    s: &crate::llama_cpp::Setup,
    draft_max: u64,
    notes: &mut Vec<Msg>,
) -> Result<Term> {
    let entry = catalog::model(id).map_err(|e| Error::invalid("draft", format!("{e}")))?;
    let a = entry.architecture()?;
    if let Some(t) = target
        && t.vocab_size.abs_diff(a.vocab_size) > 128
    {
        return Err(Error::invalid(
            "draft",
            format!(
                "llama.cpp refuses a draft whose vocabulary differs from the target's by more than 128 tokens ({} has {}, the target {}): pick a smaller model of the same family",
                entry.id, a.vocab_size, t.vocab_size
            ),
        ));
    }
    let weights = tensors::weight_bytes(&a, format)?.total();
    let kv = inference::kv_cache_bytes_llama_cpp(&a, s)?;
    let compute = Bytes::new(crate::llama_cpp::compute_buffer(&a, s).bytes);
    let bytes = weights.saturating_add(kv).saturating_add(compute);
    notes.push(Msg::new(MsgId::AssumeDraftSpeedup, vec![]));
    Ok(inference::banded(
        TermKind::Draft,
        bytes,
        (0.95, 1.1),
        Msg::new(
            MsgId::DraftTerm,
            vec![
                Arg::Text(entry.id.into()),
                Arg::Int(draft_max),
                Arg::Size(weights),
                Arg::Size(kv),
                Arg::Size(compute),
            ],
        ),
        vec![],
    ))
}

/// The contexts llama.cpp refuses to create (`llama_init_from_model`), refused here with its
/// reason rather than estimated.
fn llama_cpp_refusals(s: &crate::llama_cpp::Setup, shape: Option<&Architecture>) -> Result<()> {
    if s.v_type.is_quantized() && !s.flash_attention {
        return Err(Error::invalid(
            "kv-v",
            format!(
                "llama.cpp refuses a quantized V cache ({}) without flash attention: turn flash attention on (-fa on) or keep V in fp16",
                s.v_type.id()
            ),
        ));
    }
    let mla = shape.is_some_and(|a| a.mixers().any(|(_, m)| matches!(m, Mixer::Mla(_))));
    if mla && s.k_type != s.v_type {
        return Err(Error::invalid(
            "kv-v",
            format!(
                "llama.cpp caches this model's latent attention (MLA) once, in one type: K ({}) and V ({}) must be the same",
                s.k_type.id(),
                s.v_type.id()
            ),
        ));
    }
    Ok(())
}

/// What llama.cpp allocates for a context, in its own terms (`llama_get_memory_breakdown` and
/// its start-up log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct LlamaCppBuffers {
    /// `n_ctx`: cells asked for, all sequences together.
    pub n_ctx: u64,
    /// `n_batch`.
    pub n_batch: u64,
    /// `n_ubatch`.
    pub n_ubatch: u64,
    /// `n_seq_max`.
    pub n_seq: u64,
    /// The model's tensors, every device and the host together.
    pub model_bytes: u64,
    /// KV cache (every layer, every stream).
    pub kv_bytes: u64,
    /// Recurrent state (every recurrent layer, one state per sequence).
    pub state_bytes: u64,
    /// What llama.cpp's memory breakdown calls the context: KV cache and recurrent state.
    pub context_bytes: u64,
    /// Compute buffer of one device holding every layer.
    pub compute_bytes: u64,
    /// The host output buffer (logits of one token per sequence until more are asked for).
    pub output_bytes: u64,
    /// The compute graph was rebuilt node for node (false: some layers stood in for).
    pub graph_exact: bool,
    /// What its CPU backend repacks into `CPU_REPACK` of the weights the CPU runs.
    pub repacked_bytes: u64,
}

/// The training branch of [`estimate`]: [`crate::training::training_memory`] per GPU, CPU memory
/// per node, FLOPs and checkpoints.
fn estimate_training(scenario: &Scenario, r: &Resolved) -> Result<Estimate> {
    let mut notes: Vec<Msg> = r.notices.clone();
    let (arch, stand_in) = match (&r.architecture, &r.stand_in) {
        (Some(a), _) => (a.as_ref().clone(), None),
        (None, Some((id, a))) => (a.clone(), Some(*id)),
        (None, None) => {
            return Err(Error::invalid("model", "training needs an architecture or a parameter count"));
        }
    };
    let base_format = match scenario.mode {
        Mode::Qlora => {
            if scenario.weights.is_some_and(|w| !matches!(w, WeightFormat::Nf4 { .. })) {
                notes.push(Msg::new(MsgId::NoteQloraIsNf4, vec![]));
            }
            WeightFormat::Nf4 { double_quant: true }
        }
        Mode::Lora => match scenario.weights.or(r.native_format).unwrap_or(WeightFormat::Bf16) {
            // A LoRA base is trained through 16-bit matmuls: formats without a training path
            // (FP8, FP4, GGUF) are loaded dequantized to BF16, and said so. An FP32 base stays
            // FP32, under autocast.
            f @ (WeightFormat::Fp8
            | WeightFormat::Fp8Scaled { .. }
            | WeightFormat::IntScaled { .. }
            | WeightFormat::Mxfp4
            | WeightFormat::Nvfp4
            | WeightFormat::Nvfp4A16
            | WeightFormat::Gguf(_)) => {
                notes.push(Msg::new(MsgId::NoteLoraBaseDequantized, vec![Arg::Text(f.label())]));
                WeightFormat::Bf16
            }
            f => f,
        },
        _ => {
            if scenario.weights.is_some() {
                notes.push(Msg::new(MsgId::NoteFullIgnoresWeights, vec![]));
            }
            if scenario.precision == TrainPrecision::Fp32 { WeightFormat::F32 } else { WeightFormat::Bf16 }
        }
    };
    // transformers builds some models with eager attention unless told otherwise (no SDPA for
    // them): under the frameworks that train its classes, the figure keeps their scores, the
    // band's bottom is flash attention's.
    let eager_default = scenario.flash_attention
        && scenario.train.framework.builds_with_transformers()
        && crate::loads::transformers_eager_only(&arch.checkpoint);
    let setup = TrainingSetup {
        mode: scenario.mode,
        optimizer: scenario.optimizer,
        precision: scenario.precision,
        lora_rank: scenario.lora_rank,
        lora_targets: scenario.lora_targets.clone(),
        checkpointing: scenario.checkpointing,
        zero: scenario.zero,
        offload: scenario.offload,
        gpus: scenario.gpus,
        tp: scenario.tp,
        seq: scenario.context,
        micro_batch: scenario.batch,
        flash: scenario.flash_attention && !eager_default,
        gpus_per_node: scenario.gpus_per_node,
        params_override: stand_in.map(|_| r.params.get()),
        opts: scenario.train,
        cpu: scenario.runtime == Some(Runtime::Cpu),
    };
    let tm = training_memory(&arch, base_format, &setup)?;
    let traffic = tm.traffic;
    let mut gpu_terms = tm.gpu;
    if eager_default {
        let flash = training_memory(&arch, base_format, &TrainingSetup { flash: true, ..setup.clone() })?;
        for t in gpu_terms.iter_mut().filter(|t| t.kind == TermKind::Activations) {
            if let Some(f) = flash.gpu.iter().find(|f| f.kind == TermKind::Activations) {
                t.low = t.low.min(f.low);
            }
        }
        notes.push(Msg::new(MsgId::WarnEagerAttention, vec![Arg::Text(arch.checkpoint.model_type.clone())]));
    }
    let trainable = tm.trainable;
    // Ring attention and Ulysses split attention over a sequence's GPUs; a recurrent layer runs
    // its scan across the whole sequence, which their implementations may not split: the band's
    // top counts those layers' share of the activations whole.
    let split = scenario.train.cp.saturating_mul(scenario.train.ulysses).max(1);
    let recurrent = arch
        .groups
        .iter()
        .filter(|g| g.mixers.iter().any(Mixer::is_recurrent))
        .map(|g| g.count as f64)
        .sum::<f64>()
        / arch.num_layers().max(1) as f64;
    if split > 1 && recurrent > 0.0 {
        for t in gpu_terms.iter_mut().filter(|t| t.kind == TermKind::Activations) {
            t.high = t.high.scale(1.0 + recurrent * (split - 1) as f64);
        }
        notes.push(Msg::new(MsgId::NoteSequenceSplitRecurrent, vec![]));
    }
    if let Some(id) = stand_in {
        // A bare count: per-parameter states are exact for it; the shape-dependent terms come
        // from the stand-in architecture, with a wide band.
        for t in &mut gpu_terms {
            let band = match t.kind {
                TermKind::Activations => (0.25, 4.0),
                TermKind::Adapters => (0.5, 2.0),
                _ => continue,
            };
            t.low = t.bytes.scale(band.0);
            t.high = t.bytes.scale(band.1);
            t.assumptions.push(Msg::new(MsgId::AssumeStandIn, vec![Arg::Text(id.into())]));
        }
    }
    // A multimodal model's encoders are loaded with it (frozen in a text fine-tune), on every
    // data-parallel device.
    let encoder_file = r
        .file
        .as_ref()
        .map(|f| f.tensors.sum_where(|t| matches!(t.role, Role::Encoder | Role::Speech)))
        .filter(|b| *b > 0);
    gpu_terms.extend(encoders_term(
        r,
        scenario,
        Runtime::Transformers,
        base_format,
        1,
        encoder_file,
        &mut notes,
    ));
    crate::sort::sort_by_key(&mut gpu_terms, |t| TermKind::ALL.iter().position(|k| *k == t.kind));
    widen_for_confidence(&mut gpu_terms, r.confidence);
    widen_for_quant(&mut gpu_terms, &r.notices);
    let memory = Memory::from_terms(gpu_terms)?;
    let outside: u64 = memory
        .terms
        .iter()
        .filter(|t| {
            t.kind == TermKind::Overhead || (t.kind == TermKind::Optimizer && scenario.optimizer.is_paged())
        })
        .map(|t| t.bytes.get())
        .sum();
    let pytorch_peak = Bytes::new(memory.total.get().saturating_sub(outside));
    if scenario.optimizer.is_paged() {
        notes.push(Msg::new(MsgId::NotePagedOutsideAllocator, vec![Arg::Size(pytorch_peak)]));
    }
    if scenario.offload != crate::training::Offload::None && scenario.zero == 0 {
        notes.push(Msg::new(MsgId::NoteOffloadNeedsZero, vec![]));
    }
    let t = &scenario.train;
    if t.fp8 && scenario.mode != Mode::Full {
        notes.push(Msg::new(MsgId::NoteFloat8FullOnly, vec![]));
    }
    if (t.reduce_bucket > 0 || t.overlap_comm.is_some())
        && (scenario.zero == 0 || t.framework == crate::training::Framework::Fsdp)
    {
        notes.push(Msg::new(MsgId::NoteBucketsNeedDeepspeed, vec![]));
    }
    if scenario.zero > 0 && (scenario.gpus / scenario.tp.max(1) <= 1 || scenario.train.device_map) {
        notes.push(Msg::new(MsgId::NoteZeroOneGpu, vec![Arg::Int(u64::from(scenario.zero))]));
    }
    let mut host_terms = tm.host;
    host_terms.push(Term {
        kind: TermKind::Overhead,
        bytes: Bytes::from_mib(4096),
        low: Bytes::from_mib(2048),
        high: Bytes::from_mib(8192),
        formula: Msg::new(MsgId::HostTrainingProcess, vec![]),
        assumptions: vec![],
    });
    let host = Memory::from_terms(host_terms)?;
    let model = model_summary(r)?;
    let flops_per_token = crate::training::flops_per_token(
        scenario.mode,
        model.params_active.get(),
        scenario.checkpointing,
        scenario.train.ckpt_every,
    );
    let tokens = scenario.dataset_tokens.saturating_mul(scenario.epochs);
    let t = &scenario.train;
    if t.mean_sample > scenario.context {
        notes.push(Msg::new(
            MsgId::NoteMeanSampleTruncated,
            vec![Arg::Int(t.mean_sample), Arg::Int(scenario.context)],
        ));
    }
    let mean = t.mean_sample.min(scenario.context);
    let padding = t.batching.padding_factor(mean, scenario.context, scenario.batch);
    if padding.2 > 1.0 {
        notes.push(Msg::new(
            MsgId::NotePadding,
            vec![Arg::Int(scenario.batch), Arg::Int(mean), Arg::Num(padding.0, 2), Arg::Num(padding.2, 2)],
        ));
    }
    if t.sequence_parallel && scenario.tp <= 1 {
        notes.push(Msg::new(MsgId::NoteSequenceParallelNoTp, vec![]));
    }
    let weights_total = match &r.architecture {
        Some(a) => tensors::weight_bytes(a, base_format)?.total(),
        None => (r.params * base_format.flat_bits_per_weight()).or_overflow("weight memory")?,
    };
    if scenario.zero == 0 && scenario.gpus / scenario.tp.max(1) > 1 && !scenario.train.device_map {
        notes.push(Msg::new(MsgId::NoteDataParallelReplicates, vec![Arg::Int(scenario.gpus)]));
    }
    let download = match &r.architecture {
        Some(a) => tensors::weight_bytes(a, r.native_format.unwrap_or(WeightFormat::Bf16))?
            .total()
            .saturating_add(encoder_download(r, r.native_format.unwrap_or(WeightFormat::Bf16))),
        None => weights_total,
    };
    Ok(Estimate {
        model,
        format: base_format,
        runtime: Runtime::Transformers,
        devices: scenario.gpus,
        memory,
        host,
        weights_total,
        kv_total: Bytes::ZERO,
        kv_per_token: Bytes::ZERO,
        weights_exact: r.architecture.is_some(),
        embedding_bytes: Bytes::ZERO,
        input_embedding_bytes: Bytes::ZERO,
        expert_bytes: Bytes::ZERO,
        expert_bytes_host: Bytes::ZERO,
        disk: Disk { weights: download },
        trainable_params: trainable,
        flops_per_token,
        training: Some(TrainingInfo {
            mode: scenario.mode,
            tokens,
            flops_total: flops_per_token * tokens as f64 * padding.0,
            padding,
            checkpoint: Bytes::new(tm.checkpoint),
            checkpoint_with_optimizer: Bytes::new(tm.checkpoint_with_optimizer),
            base_format,
            pytorch_peak,
            zero_buckets: tm.zero_buckets,
            float8: scenario.train.fp8 && scenario.mode == Mode::Full,
            // Under device_map one GPU works at a time.
            mfu_factor: crate::training::throughput_factor(
                scenario.mode,
                scenario.checkpointing,
                &scenario.train,
            ) / if scenario.train.device_map {
                (scenario.gpus / scenario.tp.max(1)).max(1) as f64
            } else {
                1.0
            },
            traffic,
            micro_tokens: scenario.batch.max(1).saturating_mul(scenario.context.max(1)),
            grad_accum: scenario.train.grad_accum.max(1),
            group: scenario
                .tp
                .max(1)
                .saturating_mul(scenario.train.cp.max(1))
                .saturating_mul(scenario.train.ulysses.max(1)),
        }),
        warnings: warnings_of(r, &notes),
        state_per_sequence: state_per_sequence(r, Runtime::Transformers),
        llama_cpp: None,
        llama_gpus: Vec::new(),
        device_map: None,
        expert_gpus: 1,
        vllm: None,
        sglang: None,
        notes,
    })
}

/// The KV-cache term of one device and the bytes of it kept in system RAM (llama.cpp's offloaded
/// layers): the runtime's split (vLLM's heads per GPU, layer splits), the sliding and chunked
/// layers named, a wide band for a stand-in shape.
fn kv_term(
    a: &Architecture,
    r: &Resolved,
    s: &InferenceSetup,
    place: Placement,
    kv_total: Bytes,
) -> Result<(Term, Bytes)> {
    let mut kv_host = Bytes::ZERO;
    let (mut num, mut den) = kv_share(a, s.runtime, s.gpus);
    let n_layers = a.num_layers();
    let mut kv_device = Bytes::new(((kv_total.get() as u128 * num as u128).div_ceil(den as u128)) as u64);
    if s.runtime.tensor_parallel() && s.gpus > 1 {
        // Each layer's own heads decide its share (MLA latents stay whole on every GPU).
        kv_device = inference::kv_device_bytes_tp(a, s.kv, s.context, s.batch, (s.gpus, s.dcp))?;
    }
    if place.first_gpu_layer > 0 {
        // Each layer's cache lives with the layer: the offloaded share on the GPUs.
        let on_gpu = n_layers - place.first_gpu_layer;
        num = on_gpu.div_ceil(s.gpus);
        den = n_layers;
        kv_host = Bytes::new(
            ((kv_total.get() as u128 * place.first_gpu_layer as u128).div_ceil(n_layers as u128)) as u64,
        );
        kv_device = Bytes::new(((kv_total.get() as u128 * num as u128).div_ceil(den as u128)) as u64);
    }
    let mut assumptions = Vec::new();
    let cross: Vec<(u64, u64)> = a
        .mixers()
        .filter_map(|(n, m)| match m {
            Mixer::Attention(at) => match at.span {
                Span::Cross { tokens } => Some((n, tokens)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    if let Some(&(_, tokens)) = cross.first() {
        let layers = cross.iter().map(|c| c.0).sum();
        assumptions.push(Msg::new(MsgId::AssumeCrossImage, vec![Arg::Int(layers), Arg::Int(tokens)]));
    }
    let sliding: u64 = a
        .mixers()
        .filter(|(_, m)| matches!(m.span(), Some(Span::Sliding { .. } | Span::Chunked { .. })))
        .map(|(n, _)| n)
        .sum();
    let llama = s.runtime.is_llama_cpp() || s.runtime == Runtime::Cpu;
    let llama_swa = inference::llama_cpp_slides(a);
    if llama {
        assumptions.push(Msg::new(
            if sliding > 0 && !llama_swa {
                MsgId::AssumeLlamaCppFullCache
            } else {
                MsgId::AssumeLlamaCppCells
            },
            vec![Arg::Int(crate::llama_cpp::KV_PAD), Arg::Int(s.llama.tokens())],
        ));
    }
    if sliding > 0 && (!llama || llama_swa) {
        let window = a
            .mixers()
            .find_map(|(_, m)| match m.span() {
                Some(Span::Sliding { window }) => Some(window),
                Some(Span::Chunked { chunk }) => Some(chunk),
                _ => None,
            })
            .unwrap_or(0);
        assumptions.push(Msg::new(
            MsgId::AssumeSlidingLayers,
            vec![Arg::Int(sliding), Arg::Int(n_layers), Arg::Int(window)],
        ));
    }
    if s.gpus > 1 {
        assumptions.push(Msg::new(MsgId::AssumeKvSplit, vec![Arg::Int(num), Arg::Int(den)]));
    }
    if s.gpus > 1 && s.dcp > 1 && s.runtime.tensor_parallel() && place.first_gpu_layer == 0 {
        assumptions.push(Msg::new(MsgId::AssumeKvDcp, vec![Arg::Int(s.dcp)]));
    }
    let (layout, cached) = inference::kv_layout_label(a);
    let formula = Msg::new(
        MsgId::KvFormula,
        vec![
            Arg::Int(s.batch),
            Arg::Int(s.context),
            Arg::Int(if cached > 0 { cached } else { a.num_layers() }),
            Arg::Text(layout),
            Arg::Text(s.kv.id().into()),
        ],
    );
    let term = if r.architecture.is_some() {
        Term::exact(TermKind::KvCache, kv_device, formula, assumptions)
    } else {
        assumptions.push(Msg::new(
            MsgId::AssumeStandIn,
            vec![Arg::Text(r.stand_in.as_ref().map_or("", |s| s.0).into())],
        ));
        inference::banded(TermKind::KvCache, kv_device, (0.25, 4.0), formula, assumptions)
    };
    Ok((term, kv_host))
}

/// The encoders of a multimodal checkpoint on the busiest device, unless served text only: the
/// headers' own bytes when read, else the encoders counted from the config at 16 bits (32 for an
/// FP32 checkpoint); vLLM and SGLang split the blocks' matrices over tensor parallelism.
fn encoders_term(
    r: &Resolved,
    scenario: &Scenario,
    runtime: Runtime,
    format: WeightFormat,
    gpus: u64,
    from_file: Option<u64>,
    notes: &mut Vec<Msg>,
) -> Option<Term> {
    let encoders: &[crate::model::Encoder] = r.architecture.as_deref().map_or(&[], |a| a.encoders.as_slice());
    let elem: u64 = if format == WeightFormat::F32 { 4 } else { 2 };
    let speech = speech_loaded(r, runtime);
    let counted: u64 =
        encoders.iter().map(|e| e.params()).sum::<u64>().saturating_add(speech.map_or(0, |s| s.params()));
    // A GGUF file holds no encoder: llama.cpp reads it from an mmproj file, which only a model
    // whose config describes the encoder (a catalog model) is known to have.
    let total = match from_file {
        Some(b) => b,
        None if counted > 0 => counted.saturating_mul(if runtime.is_llama_cpp() { 2 } else { elem }),
        None => return None,
    };
    // Every encoder (and a speech stack) the term holds, named together (`dots3_moe_vit +
    // dots3_audio`): the notes speak of all of them.
    let kinds: Vec<&str> =
        encoders.iter().map(|e| e.kind.as_str()).chain(speech.map(|s| s.kind.as_str())).collect();
    let kind = if kinds.is_empty() { String::from("vision") } else { kinds.join(" + ") };
    if scenario.text_only {
        notes.push(Msg::new(MsgId::NoteTextOnly, vec![Arg::Text(kind), Arg::Size(Bytes::new(total))]));
        return None;
    }
    let mut assumptions = Vec::new();
    let device = if runtime == Runtime::Vllm && scenario.vllm.mm_encoder_data && gpus > 1 {
        // `--mm-encoder-tp-mode data`: the whole encoder on every GPU, its inputs split.
        assumptions.push(Msg::new(MsgId::AssumeEncoderDataParallel, vec![Arg::Int(gpus)]));
        total
    } else if runtime.tensor_parallel() && gpus > 1 {
        // vLLM's default `--mm-encoder-tp-mode weights` shards the whole encoder: its log for
        // Qwen3-VL-235B on 8 GPUs (PR #26000) loads 0.94 GiB less than with the encoder copied
        // on each GPU, 7/8 of the encoder's 1.07 GiB. An encoder vLLM takes from transformers
        // (plain linears) stays whole on each GPU.
        let whole_params: u64 =
            encoders.iter().filter(|e| runtime == Runtime::Vllm && e.whole_in_vllm).map(|e| e.params()).sum();
        // Its share of the bytes (of the headers' own, when read).
        let whole = (total as u128 * whole_params as u128 / counted.max(1) as u128) as u64;
        for e in encoders.iter().filter(|e| runtime == Runtime::Vllm && e.whole_in_vllm) {
            assumptions.push(Msg::new(
                MsgId::AssumeEncoderWholeVllm,
                vec![Arg::Text(e.kind.clone()), Arg::Int(gpus)],
            ));
        }
        if whole < total {
            assumptions.push(Msg::new(
                MsgId::AssumeEncoderTp,
                vec![Arg::Text(runtime.label().into()), Arg::Int(gpus)],
            ));
        }
        whole.saturating_add((total - whole.min(total)).div_ceil(gpus))
    } else {
        if gpus > 1 && !runtime.is_llama_cpp() {
            assumptions.push(Msg::new(MsgId::AssumeEncoderFirstGpu, vec![]));
        }
        total
    };
    if runtime.is_llama_cpp() {
        assumptions.push(Msg::new(MsgId::AssumeEncoderMmproj, vec![]));
    }
    // What vLLM builds beside an encoder's weights once loaded, whole on every GPU.
    let mut device = device;
    if runtime == Runtime::Vllm {
        for e in encoders.iter().filter(|e| e.vllm_buffers > 0) {
            device = device.saturating_add(e.vllm_buffers);
            assumptions.push(Msg::new(
                MsgId::AssumeEncoderVllmBuffers,
                vec![Arg::Text(e.kind.clone()), Arg::Size(Bytes::new(e.vllm_buffers))],
            ));
        }
    }
    notes.push(Msg::new(
        MsgId::NoteEncoderLoaded,
        vec![Arg::Text(kind.clone()), Arg::Size(Bytes::new(device))],
    ));
    let bytes_each = if runtime.is_llama_cpp() { 2 } else { elem };
    // An encoder the text reads through cross-attention (Llama 3.2 Vision): an image is one
    // token of the context, its positions attended by those layers (the KV term says their cache).
    let cross = r.architecture.as_deref().is_some_and(has_cross_attention);
    let line = |e: &crate::model::Encoder| {
        let (id, input) = match e.modality {
            crate::model::Modality::Image if cross => (MsgId::EncodersTermCross, 1024),
            crate::model::Modality::Image => (MsgId::EncodersTerm, 1024),
            crate::model::Modality::Audio => (MsgId::EncodersTermAudio, 30),
        };
        Msg::new(
            id,
            vec![
                Arg::Text(e.kind.clone()),
                Arg::Int(e.params()),
                Arg::Int(e.layers),
                Arg::Int(bytes_each),
                Arg::Int(e.tokens_per_image(input)),
            ],
        )
    };
    let speech_line = |s: &crate::model::SpeechOutput| {
        Msg::new(
            MsgId::EncodersTermSpeech,
            vec![
                Arg::Text(s.kind.clone()),
                Arg::Int(s.params()),
                Arg::Int(s.talker),
                Arg::Int(s.vocoder),
                Arg::Int(bytes_each),
            ],
        )
    };
    let formula = match (from_file, encoders.first()) {
        (None, Some(e)) => {
            // A model with several encoders (vision and audio): the others' lines beside it,
            // and the speech output transformers loads with them.
            assumptions.extend(encoders.iter().skip(1).map(line));
            assumptions.extend(speech.map(speech_line));
            line(e)
        }
        (None, None) if let Some(s) = speech => speech_line(s),
        _ => Msg::new(MsgId::EncodersFromFile, vec![]),
    };
    let device = Bytes::new(device);
    if runtime == Runtime::Vllm {
        // The same log shows about 0.2 GiB more beside the encoder's weights in both modes
        // (buffers of its own): the top of the band.
        return Some(Term {
            kind: TermKind::Encoders,
            bytes: device,
            low: device,
            high: device.saturating_add(Bytes::from_mib(210)),
            formula,
            assumptions,
        });
    }
    Some(Term::exact(TermKind::Encoders, device, formula, assumptions))
}

/// The speech-output stack `runtime` loads beside the thinker: transformers' `from_pretrained`
/// builds Qwen3-Omni's talker and code2wav (`enable_audio_output`); vLLM and SGLang map the
/// checkpoint to its thinker class and skip the `talker.` and `code2wav.` weights; llama.cpp,
/// Ollama, MLX and the CPU runtime have no talker.
fn speech_loaded<'a>(r: &'a Resolved<'_>, runtime: Runtime) -> Option<&'a crate::model::SpeechOutput> {
    if speech_runtime(runtime) { r.architecture.as_deref()?.speech_output.as_ref() } else { None }
}

/// Whether `runtime` loads an omni checkpoint's speech output (transformers' `from_pretrained`
/// builds it; vLLM and SGLang serve the thinker; the others read other files).
fn speech_runtime(runtime: Runtime) -> bool {
    match runtime {
        Runtime::Transformers => true,
        Runtime::Vllm
        | Runtime::Sglang
        | Runtime::LlamaCpp
        | Runtime::Ollama
        | Runtime::Mlx
        | Runtime::Cpu => false,
    }
}

/// Bytes the encoders add to a download counted from the config, the speech output included
/// (the checkpoint ships it whatever the runtime loads); a GGUF download has none: its mmproj
/// file is separate.
fn encoder_download(r: &Resolved, format: WeightFormat) -> Bytes {
    if format.is_gguf() {
        return Bytes::ZERO;
    }
    let elem = if format == WeightFormat::F32 { 4 } else { 2 };
    let params: u64 = r.architecture.as_deref().map_or(0, |a| {
        a.encoders
            .iter()
            .map(|e| e.params())
            .sum::<u64>()
            .saturating_add(a.speech_output.as_ref().map_or(0, |s| s.params()))
    });
    Bytes::new(params.saturating_mul(elem))
}

/// Download size: the file's own bytes when read, else the tensors in the format with their
/// headers, plus the multi-token-prediction modules a checkpoint in its own format ships with.
fn inference_disk(
    r: &Resolved,
    from_file: Option<&crate::scenario::FileFacts>,
    format: WeightFormat,
    weights_total: Bytes,
    priced: Option<&Priced>,
) -> Result<Bytes> {
    Ok(match from_file {
        Some(f) => f.disk,
        None => {
            // The checkpoint as it ships also holds its multi-token-prediction modules.
            let mtp = match (&r.architecture, r.native_format) {
                (Some(a), Some(native)) if native == format => tensors::mtp_bytes(a, format)?,
                _ => Bytes::ZERO,
            };
            disk_bytes(format, weights_total, priced, r.architecture.as_deref()).saturating_add(mtp)
        }
    })
}

/// Remarks on an inference scenario: beyond the trained context, every expert resident, a GGUF
/// outside llama.cpp or the reverse.
fn inference_notes(
    r: &Resolved,
    scenario: &Scenario,
    format: WeightFormat,
    runtime: Runtime,
    notes: &mut Vec<Msg>,
) {
    if let Some(a) = &r.architecture {
        if a.max_context > 0 && scenario.context > a.max_context {
            notes.push(Msg::new(
                MsgId::NoteBeyondTrainedContext,
                vec![Arg::Int(scenario.context), Arg::Int(a.max_context)],
            ));
        }
        if a.moe().is_some() {
            notes.push(Msg::new(MsgId::NoteMoeAllResident, vec![]));
        }
    }
    if format.is_gguf() && !runtime.is_llama_cpp() && runtime != Runtime::Cpu {
        notes.push(Msg::new(MsgId::NoteGgufRuntime, vec![Arg::Text(runtime.label().into())]));
    }
    if !format.is_gguf() && runtime.is_llama_cpp() {
        // llama.cpp has an NVFP4 type its converter repacks into (ggml's `block_nvfp4`: 64
        // codes and four E4M3 scales, 36 bytes); FP8, integer, AWQ/GPTQ and NF4 weights have none.
        let id = if matches!(format, WeightFormat::Nvfp4 | WeightFormat::Nvfp4A16) {
            MsgId::NoteLlamaCppNvfp4
        } else {
            MsgId::NoteNeedsGguf
        };
        notes.push(Msg::new(id, vec![Arg::Text(runtime.label().into()), Arg::Text(format.label())]));
    }
}

/// The recurrent state of the linear-attention and SSM layers: per sequence, constant in the
/// context; F32 under llama.cpp, the model's 16-bit dtype elsewhere. Split like the KV cache:
/// by heads under vLLM's tensor parallelism, by layers otherwise; offloaded layers keep theirs in
/// system RAM (added to `host`).
fn state_term(a: &Architecture, s: &InferenceSetup, place: Placement, host: &mut Bytes) -> Option<Term> {
    let llama = s.runtime.is_llama_cpp() || s.runtime == Runtime::Cpu;
    let elem = if llama { 4 } else { 2 };
    let per_seq = inference::state_bytes_per_sequence(a, elem);
    if per_seq == 0 {
        return None;
    }
    let total = per_seq.saturating_mul(s.batch);
    let layers = a.num_layers().max(1);
    let recurrent: u64 = a
        .mixers()
        .filter(|(_, m)| matches!(m.cache(a.hidden_size), crate::model::LayerCache::State { .. }))
        .map(|(n, _)| n)
        .sum();
    let share = |num: u64, den: u64| ((total as u128 * num as u128).div_ceil(den.max(1) as u128)) as u64;
    let device = if place.first_gpu_layer > 0 {
        *host = host.saturating_add(Bytes::new(share(place.first_gpu_layer, layers)));
        share((layers - place.first_gpu_layer).div_ceil(s.gpus.max(1)), layers)
    } else if s.gpus > 1 && s.runtime.tensor_parallel() {
        total.div_ceil(s.gpus)
    } else if s.gpus > 1 {
        share(layers.div_ceil(s.gpus), layers)
    } else {
        total
    };
    // A model whose SSM / delta-rule state the runtime keeps in FP32 beside a 16-bit convolution
    // state (Kimi Delta Attention, Nemotron-H under vLLM).
    let ssm = a.ssm_state_bytes.filter(|b| !llama && *b != elem);
    let assumption = Msg::new(
        match (llama, ssm) {
            (true, _) => MsgId::AssumeStateF32,
            (false, Some(_)) => MsgId::AssumeStateSsmF32,
            (false, None) => MsgId::AssumeStateModelDtype,
        },
        vec![],
    );
    let windowed = a.mixers().find_map(|(_, m)| match m {
        Mixer::Compressed(c) => Some(c.window),
        _ => None,
    });
    let formula = match windowed {
        Some(window) => Msg::new(
            MsgId::StateFormulaCompressed,
            vec![Arg::Int(s.batch), Arg::Size(Bytes::new(per_seq)), Arg::Int(layers), Arg::Int(window)],
        ),
        None => match ssm {
            Some(b) => Msg::new(
                MsgId::StateFormulaSplit,
                vec![
                    Arg::Int(s.batch),
                    Arg::Size(Bytes::new(per_seq)),
                    Arg::Int(recurrent),
                    Arg::Int(elem),
                    Arg::Int(b),
                ],
            ),
            None => Msg::new(
                MsgId::StateFormula,
                vec![Arg::Int(s.batch), Arg::Size(Bytes::new(per_seq)), Arg::Int(recurrent), Arg::Int(elem)],
            ),
        },
    };
    Some(Term::exact(TermKind::State, Bytes::new(device), formula, vec![assumption]))
}

/// Widens the shape-dependent terms of an architecture read from an unknown family's config:
/// weights −15 % … +25 %, KV cache and state ×0.5 … ×2.
fn widen_for_confidence(terms: &mut [Term], confidence: Confidence) {
    if confidence != Confidence::Inferred {
        return;
    }
    for t in terms {
        let (lo, hi) = match t.kind {
            TermKind::Weights | TermKind::Gradients | TermKind::Optimizer | TermKind::MasterWeights => {
                (0.85, 1.25)
            }
            TermKind::KvCache | TermKind::State | TermKind::Activations => (0.5, 2.0),
            _ => continue,
        };
        t.low = t.low.min(t.bytes.scale(lo));
        t.high = t.high.max(t.bytes.scale(hi));
        t.assumptions.push(Msg::new(MsgId::AssumeInferredFamily, vec![]));
    }
}

/// Widens the weights when the checkpoint's quantization was not fully read: a config Headroom
/// could not read prices everything in one guessed format (the truth may be anywhere from 4-bit
/// to 16-bit: ×0.3 … ×1.15); entries of a rule that name no module ×0.7 … ×1; an approximated
/// layout (HQQ, Quark) ±6 %.
fn widen_for_quant(terms: &mut [Term], notices: &[Msg]) {
    let (lo, hi) = if notices.iter().any(|n| {
        matches!(n.id, MsgId::NoticeQuantInvalid | MsgId::NoticeUnknownQuant | MsgId::NoticeQuantUnmatched)
    }) {
        (0.3, 1.15)
    } else if notices.iter().any(|n| n.id == MsgId::NoticeQuantEntriesUnmatched) {
        // Modules a rule lists but Headroom did not find are priced in the base format: the
        // truth can only be lower.
        (0.7, 1.0)
    } else if notices.iter().any(|n| n.id == MsgId::NoticeQuantApprox) {
        (0.94, 1.06)
    } else {
        return;
    };
    for t in terms.iter_mut().filter(|t| t.kind == TermKind::Weights) {
        t.low = t.low.min(t.bytes.scale(lo));
        t.high = t.high.max(t.bytes.scale(hi));
        t.assumptions.push(Msg::new(MsgId::AssumeQuantUnread, vec![]));
    }
}

/// The warnings of an estimate: the notices that put the shape or the format on trust, and the
/// confidence itself when it is below a known family's.
fn warnings_of(r: &Resolved, notes: &[Msg]) -> Vec<Msg> {
    let mut w: Vec<Msg> = notes.iter().filter(|m| m.id.warns()).cloned().collect();
    match r.confidence {
        Confidence::Inferred => w.push(Msg::new(MsgId::WarnInferredBand, vec![])),
        Confidence::StandIn => w.push(Msg::new(
            MsgId::WarnStandIn,
            vec![Arg::Text(r.stand_in.as_ref().map_or("", |s| s.0).into())],
        )),
        _ => {}
    }
    w
}

/// Recurrent-state bytes per sequence at the runtime's state dtype.
fn state_per_sequence(r: &Resolved, runtime: Runtime) -> Bytes {
    let elem = if runtime.is_llama_cpp() || runtime == Runtime::Cpu { 4 } else { 2 };
    Bytes::new(r.architecture.as_deref().map_or(0, |a| inference::state_bytes_per_sequence(a, elem)))
}

/// The model as the estimate saw it: counts, shape, layers and how far they can be trusted.
fn model_summary(r: &Resolved) -> Result<ModelSummary> {
    Ok(match &r.architecture {
        Some(a) => {
            let b = match &r.breakdown {
                Some(b) => b.clone(),
                None => a.param_breakdown()?,
            };
            ModelSummary {
                name: r.name.clone(),
                params_total: Params::new(b.total()),
                // A looped model's later passes run stored layers again: more compute per token.
                params_active: Params::new(a.params_active_of(&b)?.get().saturating_add(a.reused_params()?)),
                breakdown: Some(b),
                architecture: Some(a.summary()),
                stand_in: None,
                max_context: a.max_context,
                confidence: r.confidence,
                layers: a.layer_summaries()?,
                inputs: {
                    let mut inputs: Vec<crate::model::Modality> = Vec::new();
                    for e in &a.encoders {
                        if !inputs.contains(&e.modality) {
                            inputs.push(e.modality);
                        }
                    }
                    inputs
                },
                checkpoint: a.checkpoint.clone(),
            }
        }
        None => ModelSummary {
            name: r.name.clone(),
            params_total: r.params,
            params_active: r.params,
            breakdown: None,
            architecture: None,
            stand_in: r.stand_in.as_ref().map(|(id, _)| String::from(*id)),
            max_context: 0,
            confidence: Confidence::StandIn,
            layers: Vec::new(),
            inputs: Vec::new(),
            checkpoint: crate::model::Checkpoint::default(),
        },
    })
}

/// Whether a token embedding is also the output head (tied): then it is read whole every token.
fn shares_head(t: &tensors::Tensor, r: &Resolved) -> bool {
    t.role == Role::TokenEmbd && r.architecture.as_deref().is_some_and(|a| a.tie_word_embeddings)
}

/// Forward FLOPs per token: 2 per active parameter, plus attention over the context
/// (`4 × layers × context × query width`, scores and weighted sum).
fn flops_per_token(active: Params, shape: Option<&Architecture>, context: u64) -> f64 {
    let dense = 2.0 * active.get() as f64;
    let attn = shape.map_or(0.0, |a| {
        a.mixers()
            .map(|(n, m)| 4.0 * m.score_width() as f64 * m.attended(context) as f64 * n as f64)
            .sum::<f64>()
    });
    dense + attn
}

/// llama.cpp's CPU repacking: the bytes of the weights its CPU runs that it repacks
/// ([`crate::llama_cpp::repacks`]) — every matrix under the CPU runtime, else the layers left in
/// system RAM (`-ngl`) and the head when it stays there — and of the tied head's repacked copy.
/// Input embeddings are looked up, not multiplied: never repacked. (Experts placed in RAM by a
/// tensor override, `--n-cpu-moe`, use the plain CPU buffer.)
fn cpu_repack(
    p: &Priced,
    a: &Architecture,
    runtime: Runtime,
    place: Placement,
    isa: crate::llama_cpp::CpuIsa,
) -> (Bytes, Bytes, bool) {
    let all_cpu = runtime == Runtime::Cpu;
    let mut repacked = 0u64;
    let mut embd: Option<(u64, crate::precision::GgmlType, u64)> = None;
    for ((t, b), ty) in p.tensors.iter().zip(&p.bytes).zip(&p.gguf_types) {
        if matches!(t.role, Role::TokenEmbd) {
            embd = Some((*b, *ty, t.rows));
            continue;
        }
        if matches!(t.role, Role::PosEmbd) {
            continue;
        }
        let on_cpu = all_cpu
            || match t.layer {
                Some(l) => u64::from(l) < place.first_gpu_layer,
                None => !place.head_on_gpu,
            };
        if on_cpu && crate::llama_cpp::repacks(*ty, t.rows, isa) {
            repacked = repacked.saturating_add(*b);
        }
    }
    // The tied head: a second copy wherever the head runs (a GPU's buffer, or the CPU's repack
    // buffer when its type repacks); counted here only when it repacks, as on a CPU run.
    let dup = match embd {
        Some((b, ty, rows)) if a.tie_word_embeddings && crate::llama_cpp::repacks(ty, rows, isa) => b,
        _ => 0,
    };
    let head_on_cpu = all_cpu || !place.head_on_gpu;
    if head_on_cpu {
        repacked = repacked.saturating_add(dup);
    }
    (Bytes::new(repacked), Bytes::new(dup), head_on_cpu)
}

/// The cards of a llama.cpp scenario over different GPUs: its device, then `--with-gpus`, in
/// llama.cpp's device order (empty when the GPUs are all the same card).
pub fn mixed_cards(s: &Scenario) -> Vec<Device> {
    if s.llama.with_gpus.is_empty() {
        return Vec::new();
    }
    let Some(first) = s.device.as_ref().and_then(|d| crate::fit::device_of(d).ok()) else {
        return Vec::new();
    };
    let mut out = alloc::vec![first];
    out.extend(s.llama.with_gpus.iter().filter_map(|id| catalog::device(id).ok().copied()));
    out
}

/// Which layers live on the accelerators: `[first_gpu_layer, layers)`, and whether the output
/// head is there too (llama.cpp's `-ngl`: the last N layers, the head only when all are).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placement {
    first_gpu_layer: u64,
    head_on_gpu: bool,
    /// transformers' `device_map`: the first this many decoder layers on the GPU, the rest in RAM.
    hf_prefix: Option<u64>,
    /// The routed experts of the layers below this one stay in system RAM (`--n-cpu-moe`).
    cpu_moe: u64,
}

/// Weight bytes on the busiest accelerator, on the host, and of the routed experts on the host.
#[allow(clippy::too_many_arguments)]
fn split_weights(
    priced: &Option<Priced>,
    total: Bytes,
    runtime: Runtime,
    gpus: u64,
    arch: Option<&Architecture>,
    place: Placement,
    shares: Option<&[(u64, u64, bool)]>,
    expert_gpus: u64,
) -> (Bytes, Bytes, Bytes, Vec<u64>) {
    match runtime {
        Runtime::Cpu | Runtime::Mlx => return (total, Bytes::ZERO, Bytes::ZERO, Vec::new()),
        _ => {}
    }
    let (Some(p), Some(a)) = (priced, arch) else {
        return (Bytes::new(total.get().div_ceil(gpus.max(1))), Bytes::ZERO, Bytes::ZERO, Vec::new());
    };
    let input = |t: &tensors::Tensor| matches!(t.role, Role::TokenEmbd | Role::PosEmbd);
    let head = |t: &tensors::Tensor| t.layer.is_none() && !input(t);
    if runtime.tensor_parallel() && (gpus > 1 || expert_gpus > 1) {
        // Inkling's input embedding is whole on every vLLM rank (vLLM 0.34
        // `InklingReplicatedEmbedding`, `inkling/nvidia/model.py`: a plain table, not
        // vocabulary-parallel; its head is split, and SGLang splits both).
        let whole = if runtime == Runtime::Vllm && a.family == "inkling" {
            let e = p.sum_where(|t| t.role == Role::TokenEmbd);
            e - e.div_ceil(gpus.max(1))
        } else {
            0
        };
        return (
            Bytes::new(tensor_parallel_bytes(p, a, gpus, expert_gpus).saturating_add(whole)),
            Bytes::ZERO,
            Bytes::ZERO,
            Vec::new(),
        );
    }
    let mut sums = p.layer_sums(a.num_layers());
    // accelerate's device_map: the embeddings and the first layers on the GPU, the rest (and the
    // head, unless tied to the embeddings) in RAM.
    if let Some(k) = place.hf_prefix {
        let k = (k as usize).min(sums.len());
        let gpu = sums[..k].iter().fold(p.sum_where(input), |x, y| x.saturating_add(*y));
        let host = sums[k..].iter().fold(p.sum_where(head), |x, y| x.saturating_add(*y));
        return (Bytes::new(gpu), Bytes::new(host), Bytes::ZERO, vec![gpu]);
    }
    // `--n-cpu-moe`: the routed experts of the first layers on the GPU's share go to RAM.
    let mut experts_host = 0u64;
    if runtime.is_llama_cpp() && place.cpu_moe > place.first_gpu_layer {
        for (t, b) in p.tensors.iter().zip(&p.bytes) {
            if let Some(l) = t.layer.map(u64::from)
                && t.role.is_expert()
                && (place.first_gpu_layer..place.cpu_moe).contains(&l)
                && let Some(sum) = sums.get_mut(l as usize)
            {
                *sum = sum.saturating_sub(*b);
                experts_host = experts_host.saturating_add(*b);
            }
        }
    }
    let llama = runtime.is_llama_cpp();
    // llama.cpp keeps the input embeddings in system RAM, and the layers it does not offload.
    let mut host = 0u64;
    if llama {
        host = p.sum_where(input);
        host = host.saturating_add(
            sums.iter().take(place.first_gpu_layer as usize).fold(0, |a, b| a.saturating_add(*b)),
        );
        if !place.head_on_gpu {
            host = host.saturating_add(p.sum_where(head));
        }
    }
    // Layer split over the GPUs: llama.cpp's own (`shares`), else contiguous chunks; embeddings
    // with the first, head with the last.
    let n_layers = a.num_layers();
    let on_gpu = n_layers - place.first_gpu_layer;
    let per = on_gpu.div_ceil(gpus.max(1)).max(1);
    let chunks: Vec<(u64, u64, bool)> = match shares {
        Some(sh) => sh.to_vec(),
        None => (0..gpus.max(1))
            .map(|g| {
                let start = place.first_gpu_layer + g * per;
                (start, (start + per).min(n_layers), g + 1 == gpus.max(1) && place.head_on_gpu)
            })
            .collect(),
    };
    let per_gpu: Vec<u64> = chunks
        .iter()
        .enumerate()
        .map(|(g, &(start, end, has_head))| {
            let mut b: u64 = sums
                .iter()
                .skip(start as usize)
                .take(end.saturating_sub(start) as usize)
                .fold(0u64, |a, b| a.saturating_add(*b));
            if g == 0 && !llama {
                b = b.saturating_add(p.sum_where(input));
            }
            if has_head {
                b = b.saturating_add(p.sum_where(head));
                // With tied embeddings llama.cpp loads token_embd a second time as the output head.
                if llama && a.tie_word_embeddings {
                    b = b.saturating_add(p.sum_where(|t| t.role == Role::TokenEmbd));
                }
            }
            b
        })
        .collect();
    let busiest = per_gpu.iter().copied().max().unwrap_or(0);
    (Bytes::new(busiest), Bytes::new(host.saturating_add(experts_host)), Bytes::new(experts_host), per_gpu)
}

/// Weight bytes on one GPU under vLLM's tensor parallelism: column- and row-parallel matrices,
/// the vocabulary and every expert sharded `1/gpus`; what vLLM keeps whole on every rank
/// replicated: norms, routers, the shared experts' gate and a latent MoE's projections
/// (`ReplicatedLinear`), MLA's down
/// projections `q_a` and `kv_a`, the DSA indexer; key and value projections of a layer with fewer
/// KV heads than GPUs keep one head per rank (`max(1, kv/gpus)` of `kv`).
fn tensor_parallel_bytes(p: &Priced, a: &Architecture, gpus: u64, expert_gpus: u64) -> u64 {
    tensor_parallel_bytes_where(p, a, gpus, expert_gpus, &|_| true)
}

/// [`tensor_parallel_bytes`] of the tensors `keep` selects (one pipeline stage's).
pub(crate) fn tensor_parallel_bytes_where(
    p: &Priced,
    a: &Architecture,
    gpus: u64,
    expert_gpus: u64,
    keep: &dyn Fn(&tensors::Tensor) -> bool,
) -> u64 {
    // Each layer's KV heads (0 for layers without attention).
    let kv_heads = per_layer_with_mtp(a, |m| match m {
        Mixer::Attention(at) => Some(at.num_kv_heads),
        _ => None,
    });
    // dots3-note's head-wise output gate (a row a head): a `ReplicatedLinear` in vLLM 0.34
    // (`dots3_note/nvidia/model.py`), whole on every GPU; its element-wise gate is split.
    let gate_rows = if a.family == "dots3_note" {
        per_layer_with_mtp(a, |m| match m {
            Mixer::Mla(ml) => Some(ml.num_heads),
            _ => None,
        })
    } else {
        Vec::new()
    };
    let headwise_gate = |t: &tensors::Tensor| {
        t.role == Role::Extra
            && t.layer.and_then(|l| gate_rows.get(l as usize)).is_some_and(|h| *h > 0 && *h == t.rows)
    };
    let mut total: u128 = 0;
    for (t, b) in p.tensors.iter().zip(&p.bytes).filter(|(t, _)| keep(t)) {
        let b = *b as u128;
        total += match t.role {
            Role::Norm | Role::AttnNorm | Role::Router | Role::ShExpGate | Role::AttnQA | Role::AttnKvA => b,
            // DeepSeek V4's compressors and FP32 hyper-connection maps: whole on every GPU
            // (`disable_tp`, plain parameters).
            Role::Compressor | Role::Fp32 => b,
            Role::MoeLatent => b,
            // Step 5's indexer queries and head weights split by its provider groups (one a KV
            // head: `index_tp_size` = `num_attention_groups`), repeated past them (vLLM 0.34
            // `_step5_group_partition`); its key and `z` whole on every GPU.
            Role::IdxQ | Role::IdxWeights if a.family == "step5" => {
                let kv = t.layer.and_then(|l| kv_heads.get(l as usize)).copied().unwrap_or(1).max(1);
                b.div_ceil(gpus.clamp(1, kv) as u128)
            }
            Role::IdxQ | Role::IdxK | Role::IdxWeights | Role::Sinks => b,
            Role::Extra if headwise_gate(t) => b,
            // A prediction module's projection of the embedding and hidden state: a plain
            // `nn.Linear` or `ReplicatedLinear` in most of vLLM 0.34's MTP classes (DeepSeek, GLM,
            // Step, dots3, MiniMax, Kimi, Inkling…), column-parallel in Qwen3-Next's, Qwen3.5's,
            // Qwen4-Exp's, EXAONE-MoE's and Nemotron-H's.
            Role::MtpProj
                if !matches!(
                    a.family.as_str(),
                    "qwen3_next" | "qwen3_5" | "qwen3_5_moe" | "qwen4_exp" | "exaone_moe" | "nemotron_h"
                ) =>
            {
                b
            }
            Role::AttnK | Role::AttnV => {
                let kv = t.layer.and_then(|l| kv_heads.get(l as usize)).copied().unwrap_or(0) as u128;
                let g = gpus as u128;
                if kv > 0 && kv < g { b.div_ceil(kv) } else { b.div_ceil(g) }
            }
            // Routed experts: split over the group, or whole experts over every GPU (EP).
            _ if t.role.is_expert() => b.div_ceil(expert_gpus.max(gpus) as u128),
            _ => b.div_ceil(gpus as u128),
        };
    }
    u64::try_from(total).unwrap_or(u64::MAX)
}

/// One value for each layer from its first mixer `f` answers for (0 where none does), the
/// prediction modules' layers numbered after the stack's, as their tensors are.
fn per_layer_with_mtp(a: &Architecture, f: impl Fn(&Mixer) -> Option<u64>) -> Vec<u64> {
    let of = |g: &crate::model::LayerGroup| g.mixers.iter().find_map(&f).unwrap_or(0);
    let mut out: Vec<u64> = a.layers().map(of).collect();
    if let Some(m) = &a.mtp {
        for k in 0..usize::try_from(m.modules.min(64)).unwrap_or(0) {
            out.push(m.layers.get(k).or(m.layer.as_deref()).or(a.groups.last()).map_or(0, of));
        }
    }
    out
}

/// The weights term: `(device, total, exact)` bytes; `file_tensors`, the count of tensors read
/// from the checkpoint's own headers when they price the weights.
fn weights_term(
    r: &Resolved,
    format: WeightFormat,
    (device, total, exact): (Bytes, Bytes, bool),
    file_tensors: Option<usize>,
    gpus: u64,
    runtime: Runtime,
) -> Term {
    let label = format.label();
    let (formula, mut assumptions) = if let Some(a) = &r.architecture {
        // Per parameter of the language model the weights term holds (a checkpoint's encoder
        // tensors are a term of their own).
        let params = a.param_breakdown().map_or(r.params.get(), |b| b.total().saturating_add(b.mtp));
        let bpw = if params > 0 { total.get() as f64 * 8.0 / params as f64 } else { 0.0 };
        (
            match file_tensors {
                Some(n) => Msg::new(
                    MsgId::WeightsFromFile,
                    vec![Arg::Int(n as u64), Arg::Text(label.clone()), Arg::Num(bpw, 3)],
                ),
                None => Msg::new(
                    MsgId::WeightsTensors,
                    vec![Arg::Int(r.params.get()), Arg::Text(label.clone()), Arg::Num(bpw, 3)],
                ),
            },
            vec![Msg::new(format_assumption(format), vec![Arg::Text(label.clone())])],
        )
    } else {
        (
            Msg::new(
                MsgId::WeightsFlat,
                vec![
                    Arg::Int(r.params.get()),
                    Arg::Num(format.flat_bits_per_weight().bytes_per_weight(), 4),
                    Arg::Text(label.clone()),
                ],
            ),
            vec![Msg::new(
                if format.is_seed() { MsgId::AssumeUniformFormat } else { MsgId::AssumeFlatQuant },
                vec![Arg::Text(label.clone())],
            )],
        )
    };
    if gpus > 1 {
        assumptions.push(Msg::new(
            MsgId::AssumeWeightSplit,
            vec![Arg::Int(gpus), Arg::Text(runtime.label().into())],
        ));
    }
    if runtime.is_llama_cpp() && r.architecture.is_some() {
        assumptions.push(Msg::new(MsgId::AssumeEmbeddingsOnCpu, vec![]));
    }
    if exact {
        Term::exact(TermKind::Weights, device, formula, assumptions)
    } else {
        // A GGUF mix or quantized format applied to a bare count: real files keep some tensors at
        // more bits (Q4_K_M is 4.9 bits on Llama 3.1 8B, not 4.5).
        Term {
            kind: TermKind::Weights,
            bytes: device,
            low: device,
            high: device.scale(1.12),
            formula,
            assumptions,
        }
    }
}

/// The weights of a checkpoint priced by its quantization plan, format by format, in place of the
/// single format's assumption.
fn plan_assumptions(term: &mut Term, p: &Priced, a: Option<&Architecture>) {
    let (Some(a), false) = (a, p.formats.is_empty()) else { return };
    let method = a.quant.as_ref().map_or("", |q| q.method.as_str());
    term.assumptions.retain(|m| !is_format_assumption(m.id));
    term.assumptions.insert(0, Msg::new(MsgId::AssumeQuantPlan, vec![Arg::Text(method.into())]));
    for (i, (f, bytes)) in crate::quant::bytes_by_format(p, WeightFormat::Bf16).into_iter().enumerate() {
        let count = p.formats.iter().filter(|g| **g == f).count() as u64;
        term.assumptions.insert(
            1 + i,
            Msg::new(
                MsgId::AssumePlanFormat,
                vec![Arg::Text(f.label()), Arg::Size(Bytes::new(bytes)), Arg::Int(count)],
            ),
        );
    }
}

fn is_format_assumption(id: MsgId) -> bool {
    matches!(
        id,
        MsgId::AssumeFloatAll
            | MsgId::AssumeGgufRules
            | MsgId::AssumeMxfp4Experts
            | MsgId::AssumeNvfp4
            | MsgId::AssumeNvfp4A16
            | MsgId::AssumeFp8Blocks
            | MsgId::AssumeFp8Scaled
            | MsgId::AssumeIntScaled
            | MsgId::AssumeNf4
            | MsgId::AssumeGroupQuant
            | MsgId::AssumeIntLinear
    )
}

fn format_assumption(format: WeightFormat) -> MsgId {
    match format {
        WeightFormat::F32 | WeightFormat::F16 | WeightFormat::Bf16 => MsgId::AssumeFloatAll,
        WeightFormat::Gguf(_) => MsgId::AssumeGgufRules,
        WeightFormat::Mxfp4 => MsgId::AssumeMxfp4Experts,
        WeightFormat::Nvfp4 => MsgId::AssumeNvfp4,
        WeightFormat::Nvfp4A16 => MsgId::AssumeNvfp4A16,
        WeightFormat::Fp8 => MsgId::AssumeFp8Blocks,
        WeightFormat::Fp8Scaled { .. } => MsgId::AssumeFp8Scaled,
        WeightFormat::IntScaled { .. } => MsgId::AssumeIntScaled,
        WeightFormat::Nf4 { .. } => MsgId::AssumeNf4,
        WeightFormat::Gptq { .. } | WeightFormat::Awq { .. } => MsgId::AssumeGroupQuant,
        WeightFormat::Int8 | WeightFormat::Int4 => MsgId::AssumeIntLinear,
    }
}

/// System RAM beside the accelerators: embeddings and offloaded layers, plus the process.
fn host_memory(
    runtime: Runtime,
    weights_host: Bytes,
    (kv_host, state_host): (Bytes, Bytes),
    compute: Bytes,
    device: &Memory,
) -> Result<Memory> {
    if matches!(runtime, Runtime::Cpu | Runtime::Mlx) {
        // The device is the system memory itself.
        return Ok(device.clone());
    }
    let mut terms = Vec::new();
    if weights_host > Bytes::ZERO {
        terms.push(Term::exact(
            TermKind::Weights,
            weights_host,
            Msg::new(MsgId::HostWeights, vec![]),
            vec![],
        ));
    }
    if kv_host > Bytes::ZERO {
        terms.push(Term::exact(TermKind::KvCache, kv_host, Msg::new(MsgId::HostKv, vec![]), vec![]));
    }
    if state_host > Bytes::ZERO {
        terms.push(Term::exact(TermKind::State, state_host, Msg::new(MsgId::HostState, vec![]), vec![]));
    }
    if compute > Bytes::ZERO {
        terms.push(inference::banded(
            TermKind::Activations,
            compute,
            (0.7, 1.5),
            Msg::new(MsgId::HostCompute, vec![]),
            vec![],
        ));
    }
    let (process, low, high) = match runtime {
        Runtime::LlamaCpp | Runtime::Ollama => {
            (Bytes::from_mib(300), Bytes::from_mib(150), Bytes::from_mib(800))
        }
        _ => (Bytes::from_mib(2048), Bytes::from_mib(1024), Bytes::from_mib(4096)),
    };
    terms.push(Term {
        kind: TermKind::Overhead,
        bytes: process,
        low,
        high,
        formula: Msg::new(MsgId::HostProcess, vec![Arg::Text(runtime.label().into())]),
        assumptions: vec![],
    });
    Memory::from_terms(terms)
}

/// Bytes to download: the weights plus the files' headers (GGUF metadata with the tokenizer,
/// about 24 bytes per vocabulary entry and 100 per tensor; safetensors headers about 150 bytes
/// per tensor).
fn disk_bytes(
    format: WeightFormat,
    weights: Bytes,
    priced: Option<&Priced>,
    arch: Option<&Architecture>,
) -> Bytes {
    let (Some(p), Some(a)) = (priced, arch) else { return weights };
    let n = p.tensors.len() as u64;
    let header = if format.is_gguf() {
        a.vocab_size.saturating_mul(24).saturating_add(n.saturating_mul(100))
    } else {
        n.saturating_mul(150)
    };
    weights.saturating_add(Bytes::new(header))
}

/// A short statement of the estimate's main figure, for logs and tests.
pub fn headline(e: &Estimate) -> String {
    format!("{} {} on {}: {}", e.model.name, e.format.label(), e.runtime.label(), e.memory.total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precision::{SEED_TABLE, WeightFormat};

    #[test]
    fn seed_table_for_seven_billion() {
        for row in SEED_TABLE {
            let s = Scenario::params(Params::new(7_000_000_000), Some(row.format));
            let e = estimate(&s).unwrap();
            let expected = (7.0 * row.gb_per_billion * 1e9) as u64;
            assert_eq!(e.memory.get(TermKind::Weights).get(), expected, "{:?}", row.format);
            assert_eq!(e.disk.weights.get(), expected);
            assert!(e.memory.total > e.memory.get(TermKind::Weights));
        }
    }

    #[test]
    fn absurd_counts_overflow_cleanly() {
        let s = Scenario::params(Params::new(u64::MAX), Some(WeightFormat::F32));
        assert!(matches!(estimate(&s), Err(Error::Overflow { .. })));
    }

    #[test]
    fn zero_context_is_refused_with_the_field() {
        let s = Scenario { context: 0, ..Scenario::default() };
        assert_eq!(estimate(&s).unwrap_err().field(), Some("context"));
    }
}

#[cfg(test)]
mod tensor_parallel_tests {
    use super::*;

    fn vllm(id: &str, gpus: u64) -> Estimate {
        let s = Scenario { runtime: Some(Runtime::Vllm), gpus, ..Scenario::catalog(id) };
        estimate(&s).unwrap()
    }

    #[test]
    fn replicated_tensors_are_whole_on_every_rank() {
        // DeepSeek-V3: the MLA down-projections, the routers and their FP32 correction biases
        // (and every norm) are whole on each of 8 GPUs; everything else is an eighth.
        let e = vllm("deepseek-v3", 8);
        let a = catalog::model("deepseek-v3").unwrap().architecture().unwrap();
        let p = tensors::weight_bytes(&a, e.format).unwrap();
        let whole = p.sum_where(|t| {
            matches!(
                t.role,
                Role::AttnQA | Role::AttnKvA | Role::Router | Role::Norm | Role::AttnNorm | Role::Fp32
            )
        });
        let rest = p.total().get() - whole;
        let device = e.memory.get(TermKind::Weights).get();
        assert!(
            device >= whole + rest / 8 && device <= whole + rest / 8 + p.tensors.len() as u64,
            "{device}"
        );
        // Llama-3.1-8B has 8 KV heads: on 16 GPUs each rank keeps one head of K and V (an eighth).
        let on16 = vllm("llama-3.1-8b", 16).memory.get(TermKind::Weights).get();
        let on8 = vllm("llama-3.1-8b", 8).memory.get(TermKind::Weights).get();
        assert!(on16 > on8 / 2, "K and V cannot split below one head: {on16} vs {on8}");
        assert!(on16 < on8, "{on16} vs {on8}");
    }
}

#[cfg(test)]
mod cpu_moe_tests {
    use super::*;
    use crate::scenario::{ALL_LAYERS, LlamaOptions};

    fn run(cpu_moe: Option<u64>, gpu_layers: Option<u64>) -> Estimate {
        let s = Scenario {
            weights: WeightFormat::parse("q4_k_m").ok(),
            gpu_layers,
            llama: LlamaOptions { cpu_moe, ..LlamaOptions::default() },
            ..Scenario::catalog("qwen3-30b-a3b")
        };
        estimate(&s).unwrap()
    }

    /// `--n-cpu-moe N` moves exactly the routed experts of the first N layers to RAM, never
    /// more VRAM with more layers' experts on the CPU, and leaves the KV cache on the GPU.
    #[test]
    fn experts_in_ram_move_only_the_experts() {
        let base = run(None, None);
        let all = run(Some(ALL_LAYERS), None);
        let moved = base.memory.get(TermKind::Weights).get() - all.memory.get(TermKind::Weights).get();
        assert_eq!(moved, all.expert_bytes.get());
        assert_eq!(all.expert_bytes_host, all.expert_bytes);
        assert_eq!(all.host.get(TermKind::Weights).get() - base.host.get(TermKind::Weights).get(), moved);
        assert_eq!(all.memory.get(TermKind::KvCache), base.memory.get(TermKind::KvCache));
        let mut last = u64::MAX;
        for n in [0, 1, 8, 24, 47, 48, 200] {
            let e = run(Some(n), None);
            let vram = e.memory.get(TermKind::Weights).get();
            assert!(vram <= last, "--n-cpu-moe {n}: {vram} > {last}");
            last = vram;
        }
        assert_eq!(last, all.memory.get(TermKind::Weights).get());
        // With -ngl, the layers already in RAM hold their experts there: nothing counted twice.
        let both = run(Some(ALL_LAYERS), Some(24));
        assert_eq!(
            both.host.get(TermKind::Weights).get() + both.memory.get(TermKind::Weights).get(),
            run(None, Some(24)).host.get(TermKind::Weights).get()
                + run(None, Some(24)).memory.get(TermKind::Weights).get()
        );
    }
}

#[cfg(test)]
mod speech_output_tests {
    use super::*;
    use crate::import::hf::parse_config;
    use crate::scenario::ModelSource;

    /// transformers' defaults for Qwen3-Omni with its speech output on and the talker's shared
    /// expert at the published 768 (its config class has no default for it).
    fn omni(runtime: Runtime) -> (Estimate, u64, u64) {
        let json = include_str!("../../../tests/fixtures/configs/transformers-defaults/qwen3_omni_moe.json")
            .replace(r#""enable_audio_output": false"#, r#""enable_audio_output": true"#)
            .replacen(
                r#""moe_intermediate_size": 384,"#,
                r#""moe_intermediate_size": 384, "shared_expert_intermediate_size": 768,"#,
                1,
            );
        let m = parse_config(json.as_bytes()).unwrap();
        let encoders: u64 = m.architecture.encoders.iter().map(|e| e.params()).sum();
        let speech = m.architecture.speech_output.as_ref().unwrap().params();
        assert!(m.notices.iter().any(|n| n.id == MsgId::NoticeSpeechOutputCounted));
        assert!(m.notices.iter().all(|n| n.id != MsgId::NoticeSpeechOutputNotCounted));
        let s = Scenario {
            model: ModelSource::Custom(alloc::boxed::Box::new(m.into_custom("qwen3-omni".into()))),
            runtime: Some(runtime),
            ..Scenario::default()
        };
        (estimate(&s).unwrap(), encoders, speech)
    }

    /// transformers loads the talker and code2wav with the thinker; vLLM and SGLang skip their
    /// weights; every download holds them.
    #[test]
    fn the_speech_output_is_loaded_by_transformers_only() {
        let (t, encoders, speech) = omni(Runtime::Transformers);
        assert_eq!(speech, 3_344_516_864 + 216_016_577);
        let term =
            |e: &Estimate| e.memory.terms.iter().find(|t| t.kind == TermKind::Encoders).unwrap().clone();
        let tt = term(&t);
        assert_eq!(tt.bytes.get(), 2 * (encoders + speech));
        assert!(tt.assumptions.iter().any(|m| m.id == MsgId::EncodersTermSpeech));
        for runtime in [Runtime::Vllm, Runtime::Sglang] {
            let (e, _, _) = omni(runtime);
            let et = term(&e);
            assert_eq!(et.bytes.get(), 2 * encoders, "{runtime:?}");
            assert!(et.assumptions.iter().all(|m| m.id != MsgId::EncodersTermSpeech));
            assert_eq!(e.disk.weights, t.disk.weights, "{runtime:?}: the checkpoint ships it");
        }
        assert!(t.disk.weights.get() >= 2 * (encoders + speech));
    }
}
