//! The question a user asks: which model, which workload, which hardware and runtime.
//!
//! A [`Scenario`] is plain data. Front ends build one from flags, form inputs or a link
//! ([`crate::share`]) and hand it to [`crate::estimate::estimate`].

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cost::CostSettings;
use crate::error::{Error, Result};
use crate::hardware::DeviceChoice;
use crate::inference::Runtime;
use crate::model::Architecture;
use crate::precision::{KvDtype, WeightFormat};
use crate::training::{
    Checkpointing, DEFAULT_DATASET_TOKENS, DEFAULT_GPUS_PER_NODE, DEFAULT_LORA_RANK, Framework, LoraTargets,
    Mode, Offload, Optimizer, TrainOptions, TrainPrecision,
};
use crate::units::{Bytes, Params};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A model read from a file (a pasted `config.json`, a GGUF or safetensors header).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct CustomModel {
    /// A name to show (the file's `_name_or_path`, the file name…).
    pub name: String,
    /// The architecture.
    pub architecture: Architecture,
    /// The checkpoint's own format, when known.
    pub format: Option<WeightFormat>,
    /// What the checkpoint's own files say (GGUF or safetensors headers), when they were read.
    pub file: Option<FileFacts>,
    /// How far the architecture can be trusted (from its config reader).
    pub confidence: crate::model::Confidence,
    /// What was assumed while reading it.
    pub notices: Vec<crate::text::Msg>,
}

/// Exact facts read from a checkpoint's files: every tensor's bytes, so weights, placement and
/// download are not estimates.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct FileFacts {
    /// Every stored tensor with its bytes, layer and role.
    pub tensors: crate::tensors::Priced,
    /// Parameters stored, when the file's element counts are parameters (GGUF, unquantized
    /// safetensors); `None` when packed quantized tensors hide them.
    pub params: Option<Params>,
    /// Bytes on disk: headers and data of every file.
    pub disk: Bytes,
    /// The file to name in commands (`model-Q4_K_M.gguf`), when one file holds the model.
    pub file_name: Option<String>,
    /// The multimodal projector GGUF read beside it (`mmproj-F16.gguf`), named in llama.cpp's
    /// `--mmproj`; its tensors are in `tensors` as [`crate::tensor::Role::Encoder`].
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mmproj_name: Option<String>,
}

/// Where the model's facts come from.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum ModelSource {
    /// A bare parameter count: the seed guide's rule-of-thumb mode.
    Params(Params),
    /// A catalog model, by id (`llama-3.1-8b`).
    Catalog(String),
    /// A model read from a file.
    Custom(Box<CustomModel>),
}

/// The default context: a sensible working value, never silently the model's maximum.
pub const DEFAULT_CONTEXT: u64 = 4096;

/// The longest context accepted (2^24 tokens, far beyond any model's).
pub const MAX_CONTEXT: u64 = 1 << 24;

/// The most sequences or micro-batch accepted.
pub const MAX_BATCH: u64 = 1 << 16;

/// The most GPUs accepted.
pub const MAX_GPUS: u64 = 1 << 16;

/// Everything an estimate depends on.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Scenario {
    /// The model.
    pub model: ModelSource,
    /// Weight format; `None` means the model's own (bf16 for a bare count).
    pub weights: Option<WeightFormat>,
    /// KV-cache format.
    pub kv: KvDtype,
    /// Tokens per sequence.
    pub context: u64,
    /// Sequences at once (inference: concurrent requests; training: micro-batch).
    pub batch: u64,
    /// The runtime; `None` means the usual one for the format.
    pub runtime: Option<Runtime>,
    /// Devices the work is split across.
    pub gpus: u64,
    /// Flash attention (no materialised attention scores).
    pub flash_attention: bool,
    /// Serve a multimodal checkpoint as text only: the runtime skips its vision and audio encoders
    /// (vLLM with every `--limit-mm-per-prompt` at 0, llama.cpp `--no-mmproj`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub text_only: bool,
    /// llama.cpp's `-ngl`: how many of the last layers run on the GPU (`None`: all, with the
    /// output head); the rest, and their KV cache, stay in system RAM.
    pub gpu_layers: Option<u64>,
    /// llama.cpp's context parameters beyond the context and sequences (`-b`, `-ub`, `-ctv`,
    /// `--swa-full`, `--kv-unified`); other runtimes ignore them.
    #[cfg_attr(feature = "serde", serde(default))]
    pub llama: LlamaOptions,
    /// vLLM's serving parameters (`--gpu-memory-utilization`, `--max-num-seqs`, …); other
    /// runtimes ignore them.
    #[cfg_attr(feature = "serde", serde(default))]
    pub vllm: crate::vllm::VllmOptions,
    /// SGLang's serving parameters (`--mem-fraction-static`, `--chunked-prefill-size`, …).
    #[cfg_attr(feature = "serde", serde(default))]
    pub sglang: crate::sglang::SglangOptions,
    /// Inference or a kind of training.
    pub mode: Mode,
    /// The optimizer (training).
    pub optimizer: Optimizer,
    /// Full fine-tuning's precision recipe.
    pub precision: TrainPrecision,
    /// LoRA rank.
    pub lora_rank: u64,
    /// LoRA target modules.
    pub lora_targets: LoraTargets,
    /// Activation checkpointing (training).
    pub checkpointing: Checkpointing,
    /// ZeRO stage 0–3 (training over several GPUs).
    pub zero: u8,
    /// ZeRO offload to CPU memory.
    pub offload: Offload,
    /// Tensor-parallel degree for training (1 = none).
    pub tp: u64,
    /// How the training framework runs the step (loss kernel, adapters' dropout and dtype,
    /// k-bit preparation, accumulation, offloads), set by a preset or by hand.
    #[cfg_attr(feature = "serde", serde(default))]
    pub train: TrainOptions,
    /// Training dataset size in tokens (for time and cost).
    pub dataset_tokens: u64,
    /// Passes over the dataset.
    pub epochs: u64,
    /// GPUs per node, for per-node memory.
    pub gpus_per_node: u64,
    /// The device to check and time it on.
    pub device: Option<DeviceChoice>,
    /// Share of a Mac's unified memory its GPU may use (`None`: macOS's default, 67–75%).
    pub mac_gpu_fraction: Option<f64>,
    /// Memory kept free for the desktop, the OS and other programs.
    #[cfg_attr(feature = "serde", serde(default))]
    pub reserve: crate::hardware::Reserve,
    /// The system RAM beside a catalog GPU or laptop, in GiB (`None`: not known, and then an
    /// offload's need for RAM is said but not checked). Cloud instances, Macs and CPU machines
    /// have their own.
    #[cfg_attr(feature = "serde", serde(default))]
    pub host_ram_gib: Option<f64>,
    /// Cost assumptions.
    pub costs: CostSettings,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            model: ModelSource::Catalog(DEFAULT_MODEL.into()),
            weights: None,
            kv: KvDtype::F16,
            context: DEFAULT_CONTEXT,
            batch: 1,
            runtime: None,
            gpus: 1,
            flash_attention: true,
            text_only: false,
            gpu_layers: None,
            llama: LlamaOptions::default(),
            vllm: crate::vllm::VllmOptions::default(),
            sglang: crate::sglang::SglangOptions::default(),
            mode: Mode::Inference,
            optimizer: Optimizer::AdamW,
            precision: TrainPrecision::Mixed,
            lora_rank: DEFAULT_LORA_RANK,
            lora_targets: LoraTargets::AllLinear,
            checkpointing: Checkpointing::None,
            zero: 0,
            offload: Offload::None,
            tp: 1,
            train: TrainOptions::default(),
            dataset_tokens: DEFAULT_DATASET_TOKENS,
            epochs: 1,
            gpus_per_node: DEFAULT_GPUS_PER_NODE,
            device: None,
            mac_gpu_fraction: None,
            reserve: crate::hardware::Reserve::None,
            host_ram_gib: None,
            costs: CostSettings::default(),
        }
    }
}

/// llama.cpp's context parameters that change its buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct LlamaOptions {
    /// Logical batch (`-b`, `n_batch`): the most tokens per decode call, and the outputs the
    /// host output buffer holds. llama.cpp's default: 2048.
    pub batch: u64,
    /// Micro-batch (`-ub`, `n_ubatch`): the tokens one graph computes. Default: 512.
    pub ubatch: u64,
    /// The V cache's type when it differs from K's (`-ctv`); `None`: the scenario's KV format.
    pub v_type: Option<KvDtype>,
    /// Full-size caches for sliding-window layers (`--swa-full`).
    pub swa_full: bool,
    /// One cache shared by all sequences (`--kv-unified`).
    pub unified: bool,
    /// The routed experts kept in system RAM: those of the first `n` layers (`--n-cpu-moe n`;
    /// [`ALL_LAYERS`] for `--cpu-moe` / `-ot exps=CPU`). Attention, shared experts and the KV
    /// cache stay on the GPU.
    pub cpu_moe: Option<u64>,
    /// A catalog model drafting tokens for speculative decoding (`-md`), in the target's
    /// format, with its own KV cache and compute buffer on the GPU.
    pub draft: Option<String>,
    /// The most tokens drafted per step (`--draft-max`, llama.cpp's default 16).
    pub draft_max: u64,
    /// Each GPU's share of the layers (`--tensor-split 3,1`), in thousandths of the values
    /// given; empty: by each GPU's free memory (equal for equal cards).
    pub tensor_split: Vec<u32>,
    /// Ollama's `num_batch` (`PARAMETER num_batch`), its `-b` and `-ub` alike; `None`: Ollama's
    /// own choice by context and memory ([`crate::ollama::auto_batch`]).
    pub num_batch: Option<u64>,
    /// More GPUs beside the scenario's device, by catalog id, in llama.cpp's device order after
    /// it (a 4090 with a 3090 and a 3060): each holds its share of the layers; by default the
    /// shares follow each card's memory, as llama.cpp splits by free memory.
    pub with_gpus: Vec<String>,
}

/// Every layer (`--cpu-moe`).
pub const ALL_LAYERS: u64 = u64::MAX;

impl Default for LlamaOptions {
    fn default() -> Self {
        LlamaOptions {
            batch: 2048,
            ubatch: 512,
            v_type: None,
            swa_full: false,
            unified: false,
            cpu_moe: None,
            draft: None,
            draft_max: 16,
            tensor_split: Vec::new(),
            num_batch: None,
            with_gpus: Vec::new(),
        }
    }
}

/// The largest `-b` / `-ub` accepted (llama.cpp takes any; a million tokens per graph is far past
/// any real use).
pub const MAX_LLAMA_BATCH: u64 = 1 << 20;

/// A common question, as a starting point: what people mean by "chat on my GPU", "serve a few
/// dozen users", "a LoRA", "a QLoRA" or "a full fine-tune on a node", written into a scenario's
/// knobs (the model and, where the goal does not need another, the device stay as they are).
/// Every knob it sets stays visible and changeable, and travels in the link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// One person chatting on their own GPU: llama.cpp with Q4_K_M (the most downloaded GGUF
    /// mix), an 8,192-token context, one sequence.
    Chat,
    /// An API for a team: vLLM with the model's own weights, 32 concurrent requests of 8,192
    /// tokens.
    Serve,
    /// A LoRA with TRL's `SFTTrainer` defaults: rank 16 on every linear layer, 1,024-token
    /// sequences (`SFTConfig.max_length`), micro-batch 8 (`per_device_train_batch_size`).
    Lora,
    /// The QLoRA recipe (Dettmers et al. 2023, as peft and TRL run it): NF4 base, rank 64 on every
    /// linear layer, paged 8-bit AdamW, gradient checkpointing, 2,048-token sequences,
    /// micro-batch 1.
    Qlora,
    /// A full fine-tune on one node of eight GPUs with DeepSpeed ZeRO-3: 4,096-token sequences,
    /// micro-batch 1 per GPU; on H100 SXM when no device is chosen.
    FullNode,
}

impl Goal {
    /// Every goal, in the order the page offers them.
    pub const ALL: [Goal; 5] = [Goal::Chat, Goal::Serve, Goal::Lora, Goal::Qlora, Goal::FullNode];

    /// Its id (the page's button, `--goal` in the CLI).
    pub const fn id(self) -> &'static str {
        match self {
            Goal::Chat => "chat",
            Goal::Serve => "serve",
            Goal::Lora => "lora",
            Goal::Qlora => "qlora",
            Goal::FullNode => "full-node",
        }
    }

    /// The goal with this id.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the ids.
    pub fn parse(id: &str) -> Result<Goal> {
        Goal::ALL.iter().copied().find(|g| g.id() == id.trim()).ok_or_else(|| {
            Error::invalid(
                "goal",
                format!("`{}` is not one of chat, serve, lora, qlora, full-node", id.trim()),
            )
        })
    }

    /// Writes the goal into `s`.
    pub fn apply(self, s: &mut Scenario) {
        match self {
            Goal::Chat => {
                s.switch_mode(Mode::Inference);
                s.weights = Some(WeightFormat::Gguf(crate::precision::GgufMix::Q4_K_M));
                s.runtime = Some(Runtime::LlamaCpp);
                s.context = 8192;
                s.batch = 1;
                s.gpus = 1;
            }
            Goal::Serve => {
                s.switch_mode(Mode::Inference);
                s.weights = None;
                s.runtime = Some(Runtime::Vllm);
                s.context = 8192;
                s.batch = 32;
            }
            Goal::Lora => {
                s.switch_mode(Mode::Lora);
                s.apply_framework(Framework::Trl);
                s.weights = None;
                s.lora_rank = 16;
                s.lora_targets = LoraTargets::AllLinear;
                s.context = 1024;
                s.batch = 8;
            }
            Goal::Qlora => {
                s.switch_mode(Mode::Qlora);
                s.apply_framework(Framework::HfTrainer);
                s.lora_rank = 64;
                s.lora_targets = LoraTargets::AllLinear;
                s.optimizer = Optimizer::PagedAdamW8bit;
                s.checkpointing = Checkpointing::Full;
                s.context = 2048;
                s.batch = 1;
            }
            Goal::FullNode => {
                s.switch_mode(Mode::Full);
                s.apply_framework(Framework::Deepspeed);
                s.zero = 3;
                s.gpus = 8;
                s.gpus_per_node = 8;
                s.context = 4096;
                s.batch = 1;
                if s.device.is_none() {
                    s.device = Some(DeviceChoice::Catalog("h100-sxm".into()));
                }
            }
        }
    }
}

/// The most system RAM accepted beside a GPU, in GiB (64 TiB: past any single machine).
pub const MAX_HOST_RAM_GIB: f64 = 65_536.0;

/// The model the calculator opens with: a popular 8B.
pub const DEFAULT_MODEL: &str = "llama-3.1-8b";

impl Scenario {
    /// The software the scenario runs under, as the answer and the device line name it: a
    /// fine-tune runs under its framework (torchtune, Unsloth, TRL…), not under the inference
    /// runtime its model would load with; inference and a "Custom" fine-tune name `runtime`.
    pub fn runner_label(&self, runtime: Runtime) -> &'static str {
        if self.mode.is_training() && self.train.framework != Framework::Custom {
            self.train.framework.label()
        } else {
            runtime.label()
        }
    }

    /// Sets every training knob the way `framework` does by default for the scenario's mode
    /// (see [`crate::training::preset()`]); knobs changed afterwards stay changed. A ZeRO stage the
    /// framework implies is set only where the scenario has none.
    pub fn apply_framework(&mut self, framework: Framework) {
        let p = crate::training::preset(framework, self.mode);
        self.train = p.options;
        self.optimizer = p.optimizer;
        self.precision = p.precision;
        self.checkpointing = p.checkpointing;
        if let Some(z) = p.zero
            && self.zero == 0
        {
            self.zero = z;
        }
    }

    /// Switches to `mode` the way a user means it: a framework's preset follows the mode (its
    /// defaults differ between full fine-tuning, LoRA and QLoRA), and QLoRA on peft's path
    /// (k-bit preparation on) starts with gradient checkpointing, which
    /// `prepare_model_for_kbit_training` turns on by default. Every changed knob stays visible
    /// in the scenario (and its link).
    pub fn switch_mode(&mut self, mode: Mode) {
        if self.mode == mode {
            return;
        }
        self.mode = mode;
        if self.train.framework != Framework::Custom {
            let zero = self.zero;
            self.apply_framework(self.train.framework);
            self.zero = zero.max(self.zero);
        } else if mode == Mode::Qlora && self.train.kbit_upcast && self.checkpointing == Checkpointing::None {
            self.checkpointing = Checkpointing::Full;
        }
    }

    /// A scenario for a bare parameter count at a format, everything else default.
    pub fn params(params: Params, weights: Option<WeightFormat>) -> Self {
        Scenario { model: ModelSource::Params(params), weights, ..Scenario::default() }
    }

    /// llama.cpp's context parameters for this scenario: `batch` sequences of `context` tokens.
    pub fn llama_setup(&self) -> crate::llama_cpp::Setup {
        crate::llama_cpp::Setup {
            context: self.context,
            sequences: self.batch.max(1),
            batch: self.llama.batch,
            ubatch: self.llama.ubatch,
            flash_attention: self.flash_attention,
            k_type: self.kv,
            v_type: self.llama.v_type.unwrap_or(self.kv),
            swa_full: self.llama.swa_full,
            unified: self.llama.unified,
        }
    }

    /// A scenario for a catalog model, everything else default.
    pub fn catalog(id: &str) -> Self {
        Scenario { model: ModelSource::Catalog(id.into()), ..Scenario::default() }
    }

    /// Checks the numbers a user typed.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the field.
    pub fn validate(&self) -> Result<()> {
        if self.train.cp == 0 || self.train.cp > MAX_GPUS {
            return Err(Error::invalid(
                "cp",
                format!("{} is out of range; use 1 to {MAX_GPUS}", self.train.cp),
            ));
        }
        if self.train.ulysses == 0 || self.train.ulysses > MAX_GPUS {
            return Err(Error::invalid(
                "ulysses",
                format!("{} is out of range; use 1 to {MAX_GPUS}", self.train.ulysses),
            ));
        }
        if self.train.mean_sample > MAX_CONTEXT {
            return Err(Error::invalid(
                "mean_sample",
                format!(
                    "{} is out of range; use 0 (samples fill the sequence) to {MAX_CONTEXT} tokens",
                    self.train.mean_sample
                ),
            ));
        }
        let split = self.train.cp.saturating_mul(self.train.ulysses);
        if self.mode.is_training() && split > 1 && split.saturating_mul(self.tp.max(1)) > self.gpus {
            return Err(Error::invalid(
                if self.train.cp > 1 { "cp" } else { "ulysses" },
                format!(
                    "each sequence split over {split} GPUs (context parallel {}, Ulysses {}) with tensor parallelism {} needs at least {} GPUs; --gpus is {}",
                    self.train.cp,
                    self.train.ulysses,
                    self.tp.max(1),
                    split.saturating_mul(self.tp.max(1)),
                    self.gpus
                ),
            ));
        }
        if self.train.grad_accum == 0 || self.train.grad_accum > 1 << 20 {
            return Err(Error::invalid(
                "grad_accum",
                format!("{} is out of range; use 1 to 1048576 micro-batches per step", self.train.grad_accum),
            ));
        }
        self.vllm.validate()?;
        self.sglang.validate()?;
        if let Some(d) = &self.llama.draft {
            crate::catalog::model(d).map_err(|e| Error::invalid("draft", format!("{e}")))?;
        }
        if !self.llama.with_gpus.is_empty() {
            if self.llama.with_gpus.len() > 63 {
                return Err(Error::invalid("with-gpus", "at most 63 more GPUs (llama.cpp's 64 devices)"));
            }
            for id in &self.llama.with_gpus {
                let d = crate::catalog::device(id)?;
                if !matches!(
                    d.kind,
                    crate::catalog::device::DeviceKind::Gpu | crate::catalog::device::DeviceKind::Laptop
                ) || d.count > 1
                {
                    return Err(Error::invalid(
                        "with-gpus",
                        format!(
                            "`{id}` is not a single GPU card; list cards such as rtx-3090, rtx-3060-12gb"
                        ),
                    ));
                }
            }
            if self.gpus != 1 + self.llama.with_gpus.len() as u64 {
                return Err(Error::invalid(
                    "with-gpus",
                    format!(
                        "{} more GPU(s) beside the device make {} cards, but --gpus is {}",
                        self.llama.with_gpus.len(),
                        1 + self.llama.with_gpus.len(),
                        self.gpus
                    ),
                ));
            }
            if !matches!(self.device, Some(DeviceChoice::Catalog(_))) {
                return Err(Error::invalid(
                    "with-gpus",
                    "more GPUs go beside a catalog device: give --device too",
                ));
            }
        }
        if let Some(n) = self.llama.num_batch
            && (n == 0 || n > MAX_LLAMA_BATCH)
        {
            return Err(Error::invalid(
                "num-batch",
                format!("{n} is out of range; use 1 to {MAX_LLAMA_BATCH}"),
            ));
        }
        if self.llama.draft_max == 0 || self.llama.draft_max > 1024 {
            return Err(Error::invalid(
                "draft-max",
                format!("{} is out of range; use 1 to 1024", self.llama.draft_max),
            ));
        }
        for (name, n) in [("ubatch", self.llama.ubatch), ("batch-tokens", self.llama.batch)] {
            if n == 0 || n > MAX_LLAMA_BATCH {
                return Err(Error::invalid(
                    name,
                    format!("{n} tokens is out of range; use 1 to {MAX_LLAMA_BATCH}"),
                ));
            }
        }
        if self.context == 0 || self.context > MAX_CONTEXT {
            return Err(Error::invalid(
                "context",
                format!("{} tokens is out of range; use 1 to {MAX_CONTEXT}", self.context),
            ));
        }
        if self.batch == 0 || self.batch > MAX_BATCH {
            return Err(Error::invalid(
                "batch",
                format!("{} is out of range; use 1 to {MAX_BATCH}", self.batch),
            ));
        }
        if self.gpus == 0 || self.gpus > MAX_GPUS {
            return Err(Error::invalid(
                "gpus",
                format!("{} is out of range; use 1 to {MAX_GPUS}", self.gpus),
            ));
        }
        if self.zero > 3 {
            return Err(Error::invalid(
                "zero",
                format!("ZeRO stage {} does not exist; use 0 to 3", self.zero),
            ));
        }
        if self.lora_rank == 0 || self.lora_rank > 65_536 {
            return Err(Error::invalid(
                "lora_rank",
                format!("{} is out of range; use 1 to 65536", self.lora_rank),
            ));
        }
        if self.tp == 0 || self.tp > MAX_GPUS {
            return Err(Error::invalid("tp", format!("{} is out of range; use 1 to {MAX_GPUS}", self.tp)));
        }
        if self.epochs == 0 || self.epochs > 10_000 {
            return Err(Error::invalid("epochs", format!("{} is out of range; use 1 to 10000", self.epochs)));
        }
        if self.dataset_tokens == 0 || self.dataset_tokens > 1 << 50 {
            return Err(Error::invalid("dataset_tokens", "out of range; use 1 to 2^50 tokens"));
        }
        if self.gpus_per_node == 0 || self.gpus_per_node > 1024 {
            return Err(Error::invalid("gpus_per_node", "out of range; use 1 to 1024"));
        }
        if let Some(f) = self.mac_gpu_fraction
            && !(f.is_finite() && (0.1..=1.0).contains(&f))
        {
            return Err(Error::invalid("mac_gpu_limit", "use a share of memory between 0.1 and 1.0"));
        }
        if let Some(g) = self.host_ram_gib
            && !(g.is_finite() && (1.0..=MAX_HOST_RAM_GIB).contains(&g))
        {
            return Err(Error::invalid("host_ram", "use 1 to 65,536 GiB of system RAM"));
        }
        self.costs.validate()?;
        if let Some(DeviceChoice::Mine(m)) = &self.device {
            m.validate()?;
        }
        if let ModelSource::Params(p) = &self.model
            && p.get() == 0
        {
            return Err(Error::invalid("params", "must be more than zero"));
        }
        Ok(())
    }
}

/// `--tensor-split` as llama.cpp takes it (`3,1`, `0.6,0.4`): the shares kept in thousandths,
/// written back the way [`parse_tensor_split`] reads them.
pub fn format_tensor_split(shares: &[u32]) -> String {
    let parts: Vec<String> = shares.iter().map(|w| crate::number::thousandths(*w)).collect();
    parts.join(",")
}

/// Reads llama.cpp's `--tensor-split` (`3,1`, `0.6,0.4`, `24/24/12`): one non-negative share
/// per GPU, kept in thousandths (llama.cpp only uses their proportions).
///
/// # Errors
/// [`Error::Invalid`] for an empty list, a value that is not a number, a negative or huge one,
/// or more than 1,024 values. All zero is llama.cpp's default split: an empty list.
pub fn parse_tensor_split(s: &str) -> Result<Vec<u32>> {
    let bad = |why: String| Error::invalid("tensor-split", why);
    let parts: Vec<&str> = s.split([',', '/']).map(str::trim).collect();
    if parts.iter().all(|p| p.is_empty()) {
        return Err(bad("empty: give one share per GPU, e.g. 3,1".into()));
    }
    if parts.len() > 1024 {
        return Err(bad(format!("{} shares: at most 1,024", parts.len())));
    }
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        let v: f64 =
            p.parse().map_err(|_| bad(format!("`{p}` is not a number (shares look like 3,1 or 0.6,0.4)")))?;
        if !v.is_finite() || !(0.0..=1_000_000.0).contains(&v) {
            return Err(bad(format!("`{p}` is out of range; shares are 0 to 1,000,000")));
        }
        out.push(crate::ops::round(v * 1000.0) as u32);
    }
    // All zero is llama.cpp's default split (by free memory).
    if out.iter().all(|w| *w == 0) {
        out.clear();
    }
    Ok(out)
}

/// Parses a parameter count as people write it: `7B`, `7e9`, `500M`, `1.5b`, `124_439_808`,
/// `1T`, `70 B`.
///
/// # Errors
/// [`Error::Invalid`] on `params` for anything that is not a positive count below 2^64.
///
/// # Example
/// ```
/// use headroom_core::scenario::parse_params;
/// assert_eq!(parse_params("7B").unwrap().get(), 7_000_000_000);
/// assert_eq!(parse_params("500M").unwrap().get(), 500_000_000);
/// assert!(parse_params("-3B").is_err());
/// ```
pub fn parse_params(s: &str) -> Result<Params> {
    parse_params_in(s, crate::text::Lang::En)
}

/// [`parse_params`] by the decimal and grouping marks of `lang` (`7,5B` in French; refused as
/// ambiguous in English, where `7.5B` is meant).
///
/// # Errors
/// [`Error::Invalid`] on `params`, with the reason in `lang`'s words.
pub fn parse_params_in(s: &str, lang: crate::text::Lang) -> Result<Params> {
    use crate::number::{NumberError, Quantity, parse_number};
    let bad = |why: String| {
        Error::invalid("params", format!("`{}`: {why}; write it like 7B, 500M, 7e9 or 7000000000", s.trim()))
    };
    match parse_number(s, lang, Quantity::Params) {
        Ok(0) => Err(bad("must be more than zero".into())),
        Ok(n) => Ok(Params::new(n)),
        Err(NumberError::UnknownUnit(_)) => Err(bad(NumberError::NotANumber.message(crate::text::Lang::En))),
        Err(e) => Err(bad(e.message(crate::text::Lang::En))),
    }
}

/// Writes a parameter count in the shortest form [`parse_params`] reads back exactly
/// (`7B`, `500M`, `1.5B`, else the integer).
pub fn format_params(p: Params) -> String {
    let n = p.get();
    for (unit, scale) in [("T", 1_000_000_000_000u64), ("B", 1_000_000_000), ("M", 1_000_000), ("K", 1_000)] {
        let whole = n / scale;
        if n >= scale && (whole < 1000 || unit == "T") && n.is_multiple_of((scale / 1000).max(1)) {
            let frac = n % scale;
            if frac == 0 {
                return format!("{whole}{unit}");
            }
            // Up to three decimals when exact.
            let thousandths = frac / (scale / 1000);
            if thousandths * (scale / 1000) == frac {
                let mut s = format!("{whole}.{thousandths:03}");
                while s.ends_with('0') {
                    s.pop();
                }
                s.push_str(unit);
                return s;
            }
        }
    }
    format!("{n}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_set_what_they_say_and_travel_in_the_link() {
        for g in Goal::ALL {
            assert_eq!(Goal::parse(g.id()).unwrap(), g);
            // From a training scenario and from an inference one: the goal decides the mode.
            for start in [
                Scenario::catalog("qwen3-8b"),
                Scenario { mode: Mode::Lora, ..Scenario::catalog("qwen3-8b") },
            ] {
                let mut s = start.clone();
                g.apply(&mut s);
                assert!(s.validate().is_ok(), "{g:?}");
                assert_eq!(s.model, start.model, "the model stays");
                let back = crate::share::decode(&crate::share::encode(&s));
                assert!(back.ignored.is_empty(), "{g:?}: {:?}", back.ignored);
                assert_eq!(back.scenario, s, "{g:?} travels in the link");
            }
        }
        let mut s = Scenario::catalog("qwen3-8b");
        Goal::Chat.apply(&mut s);
        assert_eq!(
            (s.mode, s.runtime, s.context, s.batch),
            (Mode::Inference, Some(Runtime::LlamaCpp), 8192, 1)
        );
        Goal::Qlora.apply(&mut s);
        assert_eq!(
            (s.mode, s.optimizer, s.checkpointing, s.lora_rank),
            (Mode::Qlora, Optimizer::PagedAdamW8bit, Checkpointing::Full, 64)
        );
        Goal::Serve.apply(&mut s);
        assert_eq!((s.mode, s.runtime, s.batch, s.weights), (Mode::Inference, Some(Runtime::Vllm), 32, None));
        let d = Some(DeviceChoice::Catalog("rtx-4090".into()));
        let mut s = Scenario { device: d.clone(), ..Scenario::catalog("qwen3-8b") };
        Goal::FullNode.apply(&mut s);
        assert_eq!((s.mode, s.zero, s.gpus, &s.device), (Mode::Full, 3, 8, &d), "a chosen device stays");
        let mut s = Scenario::catalog("qwen3-8b");
        Goal::FullNode.apply(&mut s);
        assert_eq!(s.device, Some(DeviceChoice::Catalog("h100-sxm".into())));
        assert!(crate::catalog::device("h100-sxm").is_ok());
        assert!(
            alloc::string::ToString::to_string(&Goal::parse("fast").unwrap_err()).contains("chat, serve")
        );
    }

    #[test]
    fn switching_mode_follows_the_framework() {
        let mut s = Scenario::catalog("llama-3.1-8b");
        s.switch_mode(Mode::Qlora);
        assert_eq!(s.checkpointing, Checkpointing::Full, "peft's k-bit preparation turns it on");
        let mut s = Scenario::catalog("llama-3.1-8b");
        s.train.kbit_upcast = false;
        s.switch_mode(Mode::Qlora);
        assert_eq!(s.checkpointing, Checkpointing::None);
        let mut s = Scenario { mode: Mode::Lora, ..Scenario::catalog("llama-3.1-8b") };
        s.apply_framework(Framework::Torchtune);
        assert_eq!(s.optimizer, Optimizer::AdamW);
        s.switch_mode(Mode::Full);
        assert_eq!(s.optimizer, Optimizer::PagedAdamW8bit);
        assert!(s.train.optimizer_in_backward);
        s.switch_mode(Mode::Lora);
        assert!(!s.train.optimizer_in_backward);
    }

    #[test]
    fn written_counts_read_back_exactly() {
        for n in [
            4_096_002_000_000_000u64,
            10_000_000_001_000_000_000,
            18_446_744_073_000_000_000,
            u64::MAX,
            1,
            1500,
            7_000_000_001,
        ] {
            let p = Params::new(n);
            assert_eq!(parse_params(&format_params(p)).unwrap(), p, "{}", format_params(p));
        }
        assert!(parse_params("18446744.073709551616T").is_err(), "one past u64::MAX");
        assert_eq!(parse_params("1.5B").unwrap().get(), 1_500_000_000);
        assert_eq!(parse_params(".5B").unwrap().get(), 500_000_000);
    }

    #[test]
    fn parses_the_usual_spellings() {
        for (s, n) in [
            ("7B", 7_000_000_000u64),
            ("7b", 7_000_000_000),
            ("7e9", 7_000_000_000),
            ("7000000000", 7_000_000_000),
            ("1.5B", 1_500_000_000),
            ("500M", 500_000_000),
            ("124_439_808", 124_439_808),
            ("70 B", 70_000_000_000),
            ("1T", 1_000_000_000_000),
            ("0.5B", 500_000_000),
        ] {
            assert_eq!(parse_params(s).map(Params::get), Ok(n), "{s}");
        }
    }

    #[test]
    fn refuses_nonsense() {
        for s in ["", "B", "-7B", "0", "abc", "1e30", "NaN", "inf", "7BB", "0.0000000001"] {
            assert!(parse_params(s).is_err(), "{s}");
        }
    }

    #[test]
    fn formats_round_trip() {
        for n in [7_000_000_000u64, 1_500_000_000, 500_000_000, 8_030_261_248, 124_439_808, 1, 1_234] {
            let p = Params::new(n);
            assert_eq!(parse_params(&format_params(p)), Ok(p), "{n}");
        }
        assert_eq!(format_params(Params::new(7_000_000_000)), "7B");
        assert_eq!(format_params(Params::new(1_500_000_000)), "1.5B");
    }
}
