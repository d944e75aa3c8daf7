//! How fast it runs: decode tokens per second (bandwidth-bound), prefill (compute-bound), time to
//! first token, throughput under concurrency, and training time.
//!
//! Decode reads every active weight and the sequence's KV cache once per token:
//! `time = bytes / (bandwidth × efficiency) + layers × per-layer latency`. The efficiencies and
//! latencies per runtime and device class are fitted once on llama.cpp's Apple Silicon table
//! (discussion #4167: ten chips from 68 to 819 GB/s, Llama 2 7B Q4_0; efficiency 0.9 and
//! 0.17 ms per layer reproduce all ten within 9%) and set from runtime behaviour elsewhere
//! (`docs/FORMULAS.md`). Prefill is `2 × active parameters` FLOPs per token over the peak
//! throughput times a utilisation.

use crate::catalog::device::LinkKind;
use crate::estimate::Estimate;
use crate::hardware::{Capability, Class};
use crate::inference::Runtime;
use crate::model::Architecture;
use crate::precision::{GgufMix, WeightFormat};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// What limits a speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Limit {
    /// Reading the weights from device memory.
    WeightBandwidth,
    /// Reading the KV cache from device memory.
    KvBandwidth,
    /// Arithmetic.
    Compute,
    /// Layers held in system RAM, read by the CPU.
    HostMemory,
    /// Per-layer launch and synchronisation latency of the runtime.
    Latency,
}

impl Limit {
    /// The id used in JSON.
    pub const fn id(self) -> &'static str {
        match self {
            Limit::WeightBandwidth => "weight_bandwidth",
            Limit::KvBandwidth => "kv_bandwidth",
            Limit::Compute => "compute",
            Limit::HostMemory => "host_memory",
            Limit::Latency => "latency",
        }
    }
}

/// Speeds of a scenario on a device.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Speed {
    /// Tokens generated per second for one sequence at the scenario's context.
    pub decode_tokens_per_s: f64,
    /// Prompt tokens processed per second.
    pub prefill_tokens_per_s: f64,
    /// Time to first token for a prompt of the scenario's context.
    pub ttft_s: f64,
    /// Tokens per second over all `batch` sequences decoding together.
    pub aggregate_tokens_per_s: f64,
    /// What limits single-sequence decoding.
    pub decode_limit: Limit,
    /// What limits decoding at the scenario's concurrency.
    pub aggregate_limit: Limit,
    /// For training: seconds for the whole run (dataset × epochs).
    pub training_s: Option<f64>,
    /// The model FLOPs utilisation assumed for training.
    pub training_mfu: Option<f64>,
    /// The GPU class that set it ([`MfuClass`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub training_mfu_class: Option<MfuClass>,
    /// For training: seconds of the run spent waiting on exchanges between GPUs and with the
    /// CPU, `(point, low, high)` ([`TrainingTime::waiting`]); included in `training_s`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub training_waiting_s: Option<(f64, f64, f64)>,
    /// The link those exchanges cross, and whether the catalog stated it (else PCIe 4.0 ×16
    /// without peer-to-peer stood in).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub training_link: Option<(LinkKind, bool)>,
    /// For training: the run's band in seconds, `(low, high)` ([`TrainingTime::band`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub training_band_s: Option<(f64, f64)>,
}

/// Efficiency of memory reads (share of peak bandwidth) and per-layer latency (seconds) of a
/// runtime on a class of device.
pub fn decode_efficiency(runtime: Runtime, class: Class) -> (f64, f64) {
    match (class, runtime) {
        // Fitted on llama.cpp's Metal table (see the module docs).
        (Class::Apple, Runtime::Mlx) => (0.9, 0.12e-3),
        (Class::Apple, _) => (0.9, 0.17e-3),
        // CPUs reach 0.65-0.85 of theoretical bandwidth (notes.md §3).
        (Class::Cpu, _) | (_, Runtime::Cpu) => (0.7, 0.05e-3),
        // Fitted on the CUDA scoreboard (discussion #15013: 16 cards, Llama 2 7B Q4_0 tg128, least
        // squares of time per token on bytes over bandwidth: 0.846 and 0.038 ms per layer).
        (Class::Gpu, Runtime::LlamaCpp | Runtime::Ollama) => (0.85, 0.038e-3),
        (Class::Gpu, Runtime::Vllm | Runtime::Sglang) => (0.85, 0.03e-3),
        // Eager PyTorch: Python and kernel-launch overhead per layer.
        (Class::Gpu, Runtime::Transformers) => (0.7, 0.3e-3),
        (Class::Gpu, Runtime::Mlx) => (0.7, 0.1e-3),
    }
}

/// Seconds one tensor-parallel all-reduce of a decode step adds on NVIDIA GPUs (two per layer:
/// after attention and after the MLP), fitted on published single-request decode of dense 70B
/// models with vLLM and SGLang (Llama-3.3-70B FP8 on 2×H100, NIM 1.8: 18.58 ms per token;
/// Qwen2.5-72B on 2×H100: 30.9 ms; Llama-3.1-70B on 8×A100, SGLang: 18.6 ms): 15 µs.
pub const TP_ALL_REDUCE_S: f64 = 15e-6;

/// Seconds each routed expert a token picks adds to a decode step in vLLM and SGLang on NVIDIA
/// GPUs (routing, top-k, the fused expert kernels' work per expert and their small-matrix
/// inefficiency), fitted on published single-request decode at concurrency 1 (SGLang cookbook,
/// TensorRT-LLM and vLLM posts, 2025–2026: DeepSeek-R1 on 8×B200 9.16 ms per token, Kimi-K2.5 on
/// 8×H200 9.22 ms, Qwen3-235B on 8×B200 10.1 ms, MiniMax-M2.5 on 8×H100 8.05 ms, Gemma 4 26B-A4B
/// on one H200 5.6 ms — all eight experts a token: 60 µs per MoE layer — and gpt-oss-120b on
/// 8×B200 2.31 ms with four, which a fixed cost per layer put at 4.4 ms): 7.5 µs per expert.
pub const MOE_EXPERT_S: f64 = 7.5e-6;

/// The same on AMD Instinct GPUs with vLLM and SGLang (ROCm), fitted on DeepSeek-V3.1 on
/// 8×MI300X (SGLang 0.5.7: 23.8 ms per token) and Qwen3-Coder-480B FP8 on 8×MI300X (17.1 ms),
/// eight experts a token: 250 µs per MoE layer, 31.25 µs per expert; and 40 µs per all-reduce
/// (Llama-3.1-405B FP8 on 8×MI300X, vLLM: 27.8 ms per token with the prompt).
pub const MOE_EXPERT_INSTINCT_S: f64 = 31.25e-6;
/// [`TP_ALL_REDUCE_S`] on AMD Instinct.
pub const TP_ALL_REDUCE_INSTINCT_S: f64 = 45e-6;

/// Bytes per second of weights copied from system RAM to a GPU (transformers' offloaded layers):
/// PCIe 4.0 ×16 carries 31.5 GB/s each way, and pageable copies reach about 80% of it.
pub const PCIE_STREAM_BYTES_PER_S: f64 = 25e9;

/// Share of peak bandwidth llama.cpp's decode reaches on AMD Instinct (CDNA) accelerators,
/// fitted on the ROCm scoreboard (discussion #15021, Llama 2 7B Q4_0 tg128: MI100 0.39, MI210
/// 0.34 once the per-layer latency is taken out); Radeon (RDNA) cards reach what NVIDIA's do
/// (RX 7900 XTX 0.82).
pub const LLAMA_CPP_INSTINCT_DECODE: f64 = 0.36;

/// Share of peak bandwidth llama.cpp's decode reaches on Intel's Arc iGPUs (SYCL back end),
/// fitted on Llama 2 7B Q4_0 tg figures: llama.cpp's SYCL.md (Meteor Lake 16, Arrow Lake-H 17
/// tokens/s) and a Core Ultra 7 258V (13.5 tokens/s, SYCL FP16, b4008): 0.36–0.49 of the
/// LPDDR5X peak once the per-layer latency is taken out; Intel's own IPEX-LLM reaches 0.64.
pub const LLAMA_CPP_INTEL_IGPU_DECODE: f64 = 0.45;

/// Share of the XMX FP16 peak llama.cpp's prompt processing reaches on an Arc iGPU (the 258V:
/// 526 tokens/s on Llama 2 7B Q4_0, SYCL FP16 — 7.1 of 32 TFLOPS).
pub const LLAMA_CPP_INTEL_IGPU_PREFILL: f64 = 0.22;

/// [`decode_efficiency`] on a given device: llama.cpp on an AMD Instinct and on an Intel iGPU
/// takes its own fitted efficiency.
pub fn decode_efficiency_on(runtime: Runtime, class: Class, cap: &Capability) -> (f64, f64) {
    let (e, latency) = decode_efficiency(runtime, class);
    if class == Class::Gpu && runtime.is_llama_cpp() && cap.amd_instinct {
        (LLAMA_CPP_INSTINCT_DECODE, latency)
    } else if class == Class::Gpu && runtime.is_llama_cpp() && cap.intel_igpu {
        (LLAMA_CPP_INTEL_IGPU_DECODE, latency)
    } else {
        (e, latency)
    }
}

/// Share of peak FLOP/s reached in prefill.
pub fn prefill_utilisation(runtime: Runtime, class: Class) -> f64 {
    match (class, runtime) {
        // llama.cpp's Metal pp512 figures: 0.62-0.70 of the GPU's FP16 peak.
        (Class::Apple, _) => 0.65,
        (Class::Cpu, _) | (_, Runtime::Cpu) => 0.5,
        (Class::Gpu, Runtime::Transformers) => 0.45,
        (Class::Gpu, _) => 0.6,
    }
}

/// Utilisation of the INT8 tensor peak by llama.cpp's quantized matrix kernels (MMQ) in prefill,
/// fitted on the CUDA scoreboard (discussion #15013, Llama 2 7B Q4_0 pp512: 0.21–0.33 across
/// Ampere, Ada and Blackwell cards, median 0.25).
pub const MMQ_INT8_UTILISATION: f64 = 0.25;

/// Utilisation of the FP16 peak by llama.cpp on AMD's RDNA GPUs (Radeon cards and APUs, WMMA
/// matrix units) in prefill, fitted on the ROCm scoreboard (discussion #15021, Llama 2 7B Q4_0
/// pp512: RX 7900 XTX 0.39; its Vulkan run 0.41) and a Ryzen AI Max+ 395 under ROCm 7.2.3
/// (0.35).
pub const LLAMA_CPP_AMD_UTILISATION: f64 = 0.39;

/// The same on AMD Instinct (CDNA, MFMA matrix units): MI100 0.20, MI210 0.19 on the ROCm
/// scoreboard.
pub const LLAMA_CPP_INSTINCT_UTILISATION: f64 = 0.195;

/// The peak rate prefill runs at and the share of it reached, for a runtime, weight format and
/// device. llama.cpp multiplies quantized GGUF weights with its own kernels (MMQ): on NVIDIA
/// GPUs with INT8 tensor cores (compute capability 7.5 and newer) it always does, on INT8 (the
/// activations are quantized to 8 bits), so the INT8 peak decides where the catalog knows it; on
/// AMD GPUs its kernels reach a smaller share of the FP16 peak than vendor BLAS. Everything else
/// runs on the FP16 (or FP8) units at [`prefill_utilisation`].
pub fn prefill_rate(runtime: Runtime, format: WeightFormat, cap: &Capability, class: Class) -> (f64, f64) {
    // gpt-oss's MXFP4_MOE file: its expert kernels run at the MXFP4 rate the mixture-of-experts
    // share ([`MOE_PREFILL_HALF_TOKENS`]) was fitted with, not MMQ's INT8 one.
    let format = if format == WeightFormat::Gguf(GgufMix::MXFP4_MOE) { WeightFormat::Mxfp4 } else { format };
    let quantized_gguf =
        matches!(format, WeightFormat::Gguf(m) if !matches!(m, GgufMix::F32 | GgufMix::F16 | GgufMix::BF16));
    if class == Class::Gpu && runtime.is_llama_cpp() && cap.intel_igpu {
        return (cap.fp16.get(), LLAMA_CPP_INTEL_IGPU_PREFILL);
    }
    if class == Class::Gpu && runtime.is_llama_cpp() && quantized_gguf {
        if cap.cuda_cc >= 75 && cap.int8.get() > 0.0 {
            return (cap.int8.get(), MMQ_INT8_UTILISATION);
        }
        if cap.amd_instinct {
            return (cap.fp16.get(), LLAMA_CPP_INSTINCT_UTILISATION);
        }
        if cap.amd {
            return (cap.fp16.get(), LLAMA_CPP_AMD_UTILISATION);
        }
    }
    (cap.peak(format).get(), prefill_utilisation(runtime, class))
}

/// Tokens per expert at which llama.cpp's mixture-of-experts prompt kernels reach half their dense
/// rate, fitted on the published gpt-oss runs (DGX Spark with `-ub 2048`, a Ryzen AI Max with the
/// default 512: 16 to 256 tokens per expert; `t / (t + 48)` leaves them within −6% and +33%).
pub const MOE_PREFILL_HALF_TOKENS: f64 = 48.0;

/// The share of its dense prompt rate llama.cpp keeps on a mixture of experts: a micro-batch of
/// `min(ubatch, context)` tokens spreads over the experts, `k/E` of its tokens each, and small
/// matrices run far from the peak: `t / (t + 48)` with `t` the tokens per expert. 1 for dense
/// models and for other runtimes (no measurement to fit them on).
pub fn moe_prefill_share(e: &Estimate, arch: Option<&Architecture>, context: u64) -> f64 {
    let (Some(m), Some(b)) = (arch.and_then(|a| a.moe()), e.llama_cpp.as_ref()) else { return 1.0 };
    if !e.runtime.is_llama_cpp() || m.num_experts == 0 {
        return 1.0;
    }
    let tokens = b.n_ubatch.min(context.max(1)) as f64;
    let t = tokens * m.experts_per_token as f64 / m.num_experts as f64;
    t / (t + MOE_PREFILL_HALF_TOKENS)
}

/// The GPU classes a training run's utilisation is set by. Published runs differ by generation:
/// the same PyTorch stack reaches a smaller share of a Hopper's peak than of an A100's (MosaicML's
/// llm-foundry, MPT-7B and 70B: 43.0% and 40.9% on H100 against 59.4% and 51.1% on A100;
/// torchtitan's Llama 3 8B: 32.5% against 45.9%), the memory and the launch overheads not having
/// grown with the tensor cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum MfuClass {
    /// NVIDIA A100 and A30 (compute capability 8.0).
    Ampere,
    /// NVIDIA H100, H200, GH200 (9.0).
    Hopper,
    /// NVIDIA B200, B300, GB200, GB300 (10.0, 10.3).
    Blackwell,
    /// NVIDIA's RTX cards, GeForce and workstation: Ampere GA10x, Ada, Blackwell GB20x (8.6,
    /// 8.9, 12.0), at their FP32-accumulate peak.
    Rtx,
    /// AMD Instinct (CDNA).
    Instinct,
    /// Another GPU: Volta, Turing, Radeon, Intel, Jetson, DGX Spark, or one whose generation is
    /// not stated.
    OtherGpu,
    /// Apple Silicon (MLX, at the GPU's ALU peak).
    Apple,
    /// A CPU.
    Cpu,
}

impl MfuClass {
    /// The class of a device.
    pub const fn of(cap: &Capability) -> Self {
        match cap.class {
            Class::Cpu => MfuClass::Cpu,
            Class::Apple => MfuClass::Apple,
            Class::Gpu if cap.amd_instinct => MfuClass::Instinct,
            Class::Gpu => match cap.cuda_cc {
                80 => MfuClass::Ampere,
                90 => MfuClass::Hopper,
                100 | 103 => MfuClass::Blackwell,
                86 | 89 | 120 => MfuClass::Rtx,
                _ => MfuClass::OtherGpu,
            },
        }
    }

    /// The share of the peak a run reaches on it, for the FLOPs it performs (recomputed layers
    /// included: `training::flops_per_token`), before the run's own factors
    /// (`training::throughput_factor`). Published runs, their MFU converted to the FLOPs done
    /// (× 8/6 for full fine-tuning with full checkpointing, × 6/4 for LoRA; every run with its
    /// source in `docs/research/training-mfu.md`):
    ///
    /// * Ampere 0.45: llm-foundry 47–68%, torchtitan 46–58%, TinyLlama 51%, Qwen's LoRA and
    ///   QLoRA runs with Hugging Face and PEFT 42–53%, torchtune's 70B runs 35–59%;
    /// * Hopper 0.38: llm-foundry 43–55%, torchtitan 33–36%, NeMo AutoModel's LoRA 30–44%
    ///   (NVIDIA's Megatron recipes reach 52–61%, a stack none of the presets is);
    /// * Blackwell 0.33, not measured in BF16: Hopper's figure × 0.88, the ratio of the same
    ///   Megatron-Bridge FP8 recipe on B200 and H100 (33% against 37.6% of the FP8 peak);
    /// * RTX 0.40: torchtune on an RTX 4090 48% (full), PEFT with bitsandbytes 41–45% (QLoRA),
    ///   FMEngine on RTX 3090s 46%;
    /// * Instinct 0.40: llm-foundry on MI250 44–46%, a MI300X FSDP proxy about 40%;
    /// * Apple 0.35: MLX LoRA 35–39% of the GPU's ALU peak;
    /// * other GPUs 0.35 and CPUs 0.25: nothing measured ([`MfuClass::measured`]).
    pub const fn utilisation(self) -> f64 {
        match self {
            MfuClass::Ampere => 0.45,
            MfuClass::Hopper => 0.38,
            MfuClass::Blackwell => 0.33,
            MfuClass::Rtx | MfuClass::Instinct => 0.40,
            MfuClass::Apple | MfuClass::OtherGpu => 0.35,
            MfuClass::Cpu => 0.25,
        }
    }

    /// Whether published training runs on the class set its utilisation; where none does, the
    /// figure is a stand-in, said, and its band wider ([`MfuClass::band`]).
    pub const fn measured(self) -> bool {
        !matches!(self, MfuClass::Blackwell | MfuClass::OtherGpu | MfuClass::Cpu)
    }

    /// The band around [`MfuClass::utilisation`], as factors of it: 0.625 to 1.375 where runs
    /// were published (they spread from about 0.6× to 1.4× of each class's point: 27–61% on
    /// Hopper around 42%), 0.5 to 1.6 where none was.
    pub const fn band(self) -> (f64, f64) {
        if self.measured() { TRAINING_MFU_BAND } else { (0.5, 1.6) }
    }

    /// The id used in JSON.
    pub const fn id(self) -> &'static str {
        match self {
            MfuClass::Ampere => "ampere",
            MfuClass::Hopper => "hopper",
            MfuClass::Blackwell => "blackwell",
            MfuClass::Rtx => "rtx",
            MfuClass::Instinct => "instinct",
            MfuClass::OtherGpu => "other_gpu",
            MfuClass::Apple => "apple",
            MfuClass::Cpu => "cpu",
        }
    }

    /// Its name in prose (the same in English and French).
    pub const fn label(self) -> &'static str {
        match self {
            MfuClass::Ampere => "A100",
            MfuClass::Hopper => "Hopper",
            MfuClass::Blackwell => "Blackwell",
            MfuClass::Rtx => "RTX",
            MfuClass::Instinct => "Instinct",
            MfuClass::OtherGpu => "GPU",
            MfuClass::Apple => "Apple",
            MfuClass::Cpu => "CPU",
        }
    }
}

/// The band of a measured class's utilisation, as factors of its point: 0.625 to 1.375.
pub const TRAINING_MFU_BAND: (f64, f64) = (0.625, 1.375);

/// Bytes read per decoded token and where they live.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenReads {
    /// Active weights on the accelerators (all devices together).
    pub weights_device: f64,
    /// Active weights in system RAM (offloaded layers).
    pub weights_host: f64,
    /// KV cache of one sequence at full context on the accelerators.
    pub kv_device: f64,
    /// KV cache of one sequence in system RAM.
    pub kv_host: f64,
}

/// Speeds of an inference estimate on a device.
///
/// `arch` gives the layer count and the experts; `gpus` accelerators split the model (vLLM: every
/// layer, adding their bandwidth; the others: layers in turn, which does not speed one sequence).
pub fn inference_speed(
    e: &Estimate,
    cap: &Capability,
    arch: Option<&Architecture>,
    context: u64,
    batch: u64,
    gpus: u64,
) -> Speed {
    let class = if e.runtime == Runtime::Cpu { Class::Cpu } else { cap.class };
    let (eff, layer_latency) = decode_efficiency_on(e.runtime, class, cap);
    let layers = arch.map_or(32, |a| a.num_layers()) as f64;
    let n = gpus.max(1) as f64;
    let tp = e.runtime.tensor_parallel() && gpus > 1;
    // Bandwidth of the memory holding the device part: the accelerators (several in parallel
    // only under tensor parallelism), or system RAM for the CPU runtime.
    let device_bw = if class == Class::Cpu {
        cap.host_bandwidth.get()
    } else if tp {
        cap.bandwidth.get() * n * 0.9
    } else {
        cap.bandwidth.get()
    };
    // Offloaded weights: llama.cpp runs those layers on the CPU from system RAM; transformers'
    // device_map copies each to the GPU over PCIe every forward pass.
    let streams = e.runtime == Runtime::Transformers;
    let host_bw = if streams {
        PCIE_STREAM_BYTES_PER_S.min(cap.host_bandwidth.get() * 0.7)
    } else {
        cap.host_bandwidth.get() * 0.7
    };
    let reads = token_reads(e, arch, batch, false);
    let t_weights = reads.weights_device / (device_bw * eff);
    let t_kv = reads.kv_device / (device_bw * eff);
    let t_host = (reads.weights_host + reads.kv_host) / host_bw;
    // Serving engines: each tensor-parallel layer synchronises twice, and each mixture-of-experts
    // layer routes the token and runs the experts it picked (fitted on published single-request
    // decode).
    let serving = class == Class::Gpu && matches!(e.runtime, Runtime::Vllm | Runtime::Sglang);
    let picked = arch.and_then(|a| a.moe()).map_or(0, |m| m.experts_per_token) as f64;
    let moe_layer = if serving && cap.amd_instinct {
        MOE_EXPERT_INSTINCT_S * picked
    } else if serving {
        MOE_EXPERT_S * picked
    } else {
        0.0
    };
    // The two all-reduces of a layer carry one hidden-sized BF16 vector per sequence of the step:
    // their latency over NVLink, their bandwidth too over PCIe at high concurrency
    // (`crate::comm`). The AMD Instinct's fitted latency stands for its Infinity Fabric.
    let net = crate::comm::Net::of(cap, gpus, 8);
    let hidden_bytes = arch.map_or(0, |a| a.hidden_size) as f64 * 2.0;
    let sync_at = |sequences: f64| {
        if tp { layers * 2.0 * net.all_reduce(gpus, hidden_bytes * sequences) } else { 0.0 }
    };
    let moe_layers = arch.map_or(0, |a| a.moe_layers()) as f64;
    // vLLM's pipeline stages hand each step's hidden states to the next stage: one send over the
    // link per boundary (its latency; the bytes are one hidden vector per sequence).
    let stages = e.vllm.as_ref().map_or(1, |v| v.stages.len().max(1)) as f64;
    let handoff = if stages > 1.0 { (stages - 1.0) * net.latency_s } else { 0.0 };
    let t_latency = layers * layer_latency + sync_at(1.0) + moe_layers * moe_layer + handoff;
    // Expert parallelism: whole experts live on one GPU each, and a step waits for the GPU that
    // holds the most of the experts its tokens picked.
    let ep_wait = |sequences: u64| -> f64 {
        let (Some(a), true) = (arch, e.expert_gpus > 1) else { return 0.0 };
        let Some(m) = a.moe() else { return 0.0 };
        let (k, total) = (m.experts_per_token as f64, m.num_experts.max(1) as f64);
        let picked = total * (1.0 - crate::ops::powf(1.0 - k / total, sequences.max(1) as f64));
        let per_expert = e.expert_bytes.get() as f64 * m.first_set_share(a.hidden_size) / total;
        let busiest =
            busiest_gpu_experts(m.num_experts, crate::ops::round_u64(picked).unwrap_or(1), e.expert_gpus);
        let ep = per_expert * busiest / (cap.bandwidth.get() * 0.9 * eff);
        let tp = per_expert * picked / (device_bw * eff);
        (ep - tp).max(0.0)
    };
    let t_weights = t_weights + if class == Class::Gpu { ep_wait(1) } else { 0.0 };
    let decode_time = t_weights + t_kv + t_host + t_latency;
    let decode = if decode_time > 0.0 { 1.0 / decode_time } else { 0.0 };
    let decode_limit = largest(&[
        (t_weights, Limit::WeightBandwidth),
        (t_kv, Limit::KvBandwidth),
        (t_host, Limit::HostMemory),
        (t_latency, Limit::Latency),
    ]);

    // Prefill: compute-bound.
    let (peak, util) = if class == Class::Cpu {
        (cap.fp16.get(), prefill_utilisation(e.runtime, class))
    } else {
        let (p, u) = prefill_rate(e.runtime, e.format, cap, class);
        (p * if tp { n } else { 1.0 }, u)
    };
    let active = e.model.params_active.get() as f64;
    let attn_per_token = (e.flops_per_token - 2.0 * active).max(0.0) / 2.0;
    let prefill_flops = 2.0 * active + attn_per_token;
    let prefill_util = util * moe_prefill_share(e, arch, context);
    let mut prefill_time_per_token =
        if peak > 0.0 { prefill_flops / (peak * prefill_util) } else { f64::INFINITY };
    // A prompt's activations cross the link twice per layer (the latency paid once per chunk).
    if tp {
        prefill_time_per_token += layers * 2.0 * net.all_reduce_bytes(gpus, hidden_bytes);
    }
    // Offloaded layers: their weights pass once per micro-batch of 512 (llama.cpp), once per
    // forward pass over the whole prompt (transformers).
    if reads.weights_host > 0.0 {
        let per = if streams { context.max(1) as f64 } else { 512.0 };
        prefill_time_per_token += reads.weights_host / host_bw / per;
    }
    let prefill = if prefill_time_per_token.is_finite() && prefill_time_per_token > 0.0 {
        1.0 / prefill_time_per_token
    } else {
        0.0
    };
    let ttft = if prefill > 0.0 { context as f64 / prefill } else { f64::INFINITY };

    // Concurrency: one step reads the weights once (MoE: the experts the batch touches) and every
    // sequence's cache; compute grows with the batch.
    let b = batch.max(1) as f64;
    let step_reads = token_reads(e, arch, batch, true);
    let step_weights = step_reads.weights_device / (device_bw * eff)
        + if class == Class::Gpu { ep_wait(batch) } else { 0.0 };
    let step_kv = reads.kv_device * b / (device_bw * eff);
    let step_host = (step_reads.weights_host + reads.kv_host * b) / host_bw;
    let step_compute = if peak > 0.0 { b * 2.0 * active / (peak * util) } else { f64::INFINITY };
    let step_memory = step_weights + step_kv + step_host;
    let step_latency = t_latency - sync_at(1.0) + sync_at(b);
    let step = step_memory.max(step_compute) + step_latency;
    let aggregate = if step.is_finite() && step > 0.0 { b / step } else { 0.0 };
    let aggregate_limit = if step_compute > step_memory {
        Limit::Compute
    } else {
        largest(&[
            (step_weights, Limit::WeightBandwidth),
            (step_kv, Limit::KvBandwidth),
            (step_host, Limit::HostMemory),
            (step_latency, Limit::Latency),
        ])
    };
    Speed {
        decode_tokens_per_s: decode,
        prefill_tokens_per_s: prefill,
        ttft_s: ttft,
        aggregate_tokens_per_s: aggregate,
        decode_limit,
        aggregate_limit,
        training_s: None,
        training_mfu: None,
        training_mfu_class: None,
        training_waiting_s: None,
        training_link: None,
        training_band_s: None,
    }
}

/// A training run's time on a device.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingTime {
    /// Seconds for the whole run.
    pub seconds: f64,
    /// The model FLOPs utilisation assumed.
    pub mfu: f64,
    /// The GPU class that set it.
    pub class: MfuClass,
    /// Seconds of it spent waiting on the link and the CPU (communication and offload not
    /// hidden behind compute): `(point, low, high)` — low when every overlappable exchange hides
    /// behind the whole micro-batch's compute, high when none does.
    pub waiting: (f64, f64, f64),
    /// The link the exchanges cross, when GPUs exchange anything.
    pub net: Option<crate::comm::Net>,
    /// The run's band: the compute at the top of [`MfuClass::band`] with the least waiting,
    /// and at its bottom with the most.
    pub band: (f64, f64),
}

/// Seconds of a training run: total FLOPs over the GPUs' peak times the assumed MFU, plus the
/// exchanges between GPUs and with the CPU that the compute does not hide.
///
/// Each GPU runs `M = tokens / (gpus / group × micro-batch × sequence)` micro-batches and
/// `M / accumulation` optimizer steps. Per micro-batch: ZeRO-2/3 and FSDP reduce-scatter the
/// gradients during the backward pass (hidden behind its two thirds of the compute), ZeRO-3 and
/// FSDP gather the weights before the forward and the backward pass (prefetched: hidden behind the
/// whole micro-batch), CPU-offloaded weights cross PCIe likewise; tensor parallelism's
/// all-reduces wait (Megatron-style layers block on them). Per step: DDP all-reduces the
/// gradients during the last micro-batch's backward pass, ZeRO-1 reduce-scatters them; ZeRO-1 and
/// 2 all-gather the updated weights after the step, and ZeRO-Offload copies gradients and
/// weights over PCIe and runs Adam on the CPU, all waited for.
pub fn training_time(e: &Estimate, cap: &Capability, gpus: u64, per_node: u64) -> Option<TrainingTime> {
    let t = e.training.as_ref()?;
    // Float8 training's gain needs FP8 tensor cores; elsewhere it runs at the 16-bit rate.
    let fp8_lost = if t.float8 && cap.fp8.get() <= 0.0 { crate::training::FLOAT8_SPEEDUP } else { 1.0 };
    let class = MfuClass::of(cap);
    let mfu = (class.utilisation() * t.mfu_factor / fp8_lost).clamp(0.05, 0.65);
    let gpus = gpus.max(1);
    let peak = cap.fp16.get() * gpus as f64;
    if peak <= 0.0 {
        return None;
    }
    let compute = t.flops_total / (peak * mfu);
    // The utilisation's own band, clamped as the point is.
    let at = |f: f64| t.flops_total / (peak * (mfu * f).clamp(0.05, 0.65));
    let (fast, slow) = (at(class.band().1), at(class.band().0));
    let x = &t.traffic;
    let dp = x.dp.max(1);
    let exchanges = dp > 1 || x.tp > 1 || x.offload_step_bytes > 0.0 || x.offload_micro_bytes > 0.0;
    if !exchanges || t.micro_tokens == 0 {
        return Some(TrainingTime {
            seconds: compute,
            mfu,
            class,
            waiting: (0.0, 0.0, 0.0),
            net: None,
            band: (fast.min(compute), slow.max(compute)),
        });
    }
    let net = crate::comm::Net::of(cap, gpus, per_node);
    // Tensor-parallel groups stay inside a machine.
    let tp_net = crate::comm::Net::of(cap, x.tp.max(1), per_node.max(x.tp));
    let groups = (gpus / t.group.max(1)).max(1) as f64;
    let micro = (t.tokens as f64 * t.padding.0 / (groups * t.micro_tokens as f64)).max(1.0);
    let steps = (micro / t.grad_accum.max(1) as f64).max(1.0);
    let per_micro = compute / micro;
    let pcie = PCIE_STREAM_BYTES_PER_S;
    // Hidden behind the backward pass (two thirds of a micro-batch's compute) where the GPUs
    // reach each other directly; through system memory (consumer cards without peer-to-peer)
    // NCCL's copies contend with the step, and the point counts them all (measured on 2 and 4
    // RTX 4090s: data parallelism 0.15–0.75 as efficient per GPU as one card — research notes in
    // FORMULAS.md).
    let overlaps = !matches!(net.kind, LinkKind::PcieHost | LinkKind::None);
    let per_micro_hiding = if overlaps { per_micro } else { 0.0 };
    let backward = 2.0 / 3.0 * per_micro_hiding;
    let reduce = if x.zero >= 2 { net.all_gather(dp, x.grad_bytes) } else { 0.0 };
    let gather = 2.0 * net.all_gather(dp, x.gather_bytes);
    let fetch = x.offload_micro_bytes / pcie;
    let hidden_micro = (reduce - backward).max(0.0) + (gather + fetch - per_micro_hiding).max(0.0);
    let hidden_micro = hidden_micro.max(reduce + gather + fetch - per_micro_hiding);
    let tp = x.tp_collectives * tp_net.all_reduce(x.tp, x.tp_bytes);
    let step_sync = match x.zero {
        0 => net.all_reduce(dp, x.grad_bytes),
        1 => net.all_gather(dp, x.grad_bytes),
        _ => 0.0,
    };
    let step_gather = net.all_gather(dp, x.step_gather_bytes);
    let cpu_share = gpus.min(per_node.max(1)) as f64;
    let offload = x.offload_step_bytes / pcie
        + x.offload_cpu_bytes * cpu_share / (cap.host_bandwidth.get() * 0.7).max(1.0);
    let point =
        micro * (hidden_micro + tp) + steps * ((step_sync - backward).max(0.0) + step_gather + offload);
    let all = micro * (reduce + gather + fetch + tp) + steps * (step_sync + step_gather + offload);
    let low = micro * ((reduce + gather + fetch - per_micro).max(0.0) + tp)
        + steps * ((step_sync - per_micro).max(0.0) + step_gather + offload);
    let low = low.min(point);
    Some(TrainingTime {
        seconds: compute + point,
        mfu,
        class,
        waiting: (point, low, all),
        net: Some(net),
        band: ((fast + low).min(compute + point), (slow + all).max(compute + point)),
    })
}

/// The expected number of experts on the busiest GPU when `picked` distinct experts of `experts`
/// are drawn at random and the experts are spread whole over `gpus` (`experts / gpus` each, the
/// remainder one more on the first): `Σ_m (1 − P(max ≤ m))`, with `P(max ≤ m)` the share of the
/// `C(experts, picked)` draws that put at most `m` on every GPU — the coefficient of `x^picked`
/// in `Π_g Σ_{j ≤ m} C(s_g, j) x^j`. Beyond 32 picks, the normal approximation `μ + σ√(2 ln n)`
/// (capped at a GPU's experts).
pub fn busiest_gpu_experts(experts: u64, picked: u64, gpus: u64) -> f64 {
    let (e, d, n) = (experts.max(1), picked.min(experts.max(1)), gpus.max(1));
    if n == 1 || d == 0 {
        return d as f64;
    }
    if n >= e {
        return 1.0;
    }
    let sizes: alloc::vec::Vec<u64> = (0..n).map(|g| e / n + u64::from(g < e % n)).collect();
    let largest = sizes.iter().copied().max().unwrap_or(0);
    let mean = d as f64 / n as f64;
    if d > 32 {
        let p = d as f64 / e as f64;
        let sd = libm::sqrt(mean * (1.0 - p) * (1.0 - 1.0 / n as f64));
        return (mean + sd * libm::sqrt(2.0 * libm::log(n as f64))).clamp(mean, largest as f64);
    }
    let choose = |a: u64, b: u64| -> f64 { (0..b).fold(1.0, |acc, i| acc * (a - i) as f64 / (i + 1) as f64) };
    let all = choose(e, d);
    let d = d as usize;
    let mut expected = 0.0;
    for m in 0..=largest.min(d as u64) {
        // Draws with at most m experts on every GPU.
        let mut poly = alloc::vec![0.0; d + 1];
        poly[0] = 1.0;
        for &sz in &sizes {
            let mut next = alloc::vec![0.0; d + 1];
            for (i, &c) in poly.iter().enumerate().filter(|(_, c)| **c != 0.0) {
                for j in 0..=(m.min(sz) as usize).min(d - i) {
                    next[i + j] += c * choose(sz, j as u64);
                }
            }
            poly = next;
        }
        expected += 1.0 - (poly[d] / all).min(1.0);
    }
    expected.max(mean)
}

/// Bytes read per token for one sequence (or per step for `batch` sequences, for the weights),
/// split between accelerator and system memory.
///
/// Dense weights are read whole once per step; routed experts only for the experts the step's
/// tokens pick: `k/E` of them for one token, about `1 − (1 − k/E)^B` of them for `B` tokens.
/// The input embedding table is looked up, not read.
pub fn token_reads(e: &Estimate, arch: Option<&Architecture>, batch: u64, step: bool) -> TokenReads {
    let emb = e.embedding_bytes.get() as f64;
    let experts = e.expert_bytes.get() as f64;
    let total = (e.weights_total.get() as f64 - emb).max(0.0);
    let dense = (total - experts).max(0.0);
    // A second, image-only expert set (ERNIE 4.5 VL) is never read for text tokens.
    let expert_share = match arch.and_then(|a| a.moe().map(|m| (m, a.hidden_size))) {
        Some((m, h)) => {
            let f = m.experts_per_token as f64 / m.num_experts as f64;
            let picked = if step { 1.0 - crate::ops::powf(1.0 - f, batch.max(1) as f64) } else { f };
            picked * m.first_set_share(h)
        }
        None => 0.0,
    };
    // A looped model's later passes read the layers they reuse again, at the stored weights'
    // bytes per parameter.
    let reused = arch.map_or(0.0, |a| a.reused_params().unwrap_or(0) as f64);
    let looked_up = e.model.breakdown.as_ref().map_or(0, |b| b.embeddings.saturating_add(b.positions));
    let stored = e.model.params_total.get().saturating_sub(looked_up) as f64;
    let again = if stored > 0.0 && reused > 0.0 { reused * total / stored } else { 0.0 };
    let read = dense + experts * expert_share + again;
    let kv_one = e.kv_total.get() as f64 / batch.max(1) as f64;
    // transformers' device_map copies every offloaded module whole (all its experts) to the GPU
    // each forward pass; the cache stays on the GPU.
    let streamed = e.host.get(crate::estimate::TermKind::Weights).get() as f64;
    if e.runtime == Runtime::Transformers && streamed > 0.0 {
        let on_gpu = if total > 0.0 { (1.0 - streamed / total).clamp(0.0, 1.0) } else { 1.0 };
        return TokenReads {
            weights_device: read * on_gpu,
            weights_host: streamed,
            kv_device: kv_one,
            kv_host: 0.0,
        };
    }
    // llama.cpp's host copy of the input embeddings is only looked up (tied or not: a tied head
    // has its own copy on the GPU); the layers it keeps in RAM are read whole.
    let host_weights = if e.runtime.is_llama_cpp() {
        let input = e.input_embedding_bytes.get() as f64;
        (e.host.get(crate::estimate::TermKind::Weights).get() as f64 - input).max(0.0)
    } else {
        0.0
    };
    // Experts kept in RAM (`--n-cpu-moe`) are read there for the experts a token picks; the
    // rest of the host's share (offloaded layers) in proportion.
    let host_experts = (e.expert_bytes_host.get() as f64).min(host_weights);
    let host_fraction = if total > 0.0 { ((host_weights - host_experts) / total).min(1.0) } else { 0.0 };
    let weights_host = (read * host_fraction + host_experts * expert_share).min(read);
    let kv_host = e.host.get(crate::estimate::TermKind::KvCache).get() as f64 / batch.max(1) as f64;
    TokenReads {
        weights_device: read - weights_host,
        weights_host,
        kv_device: (kv_one - kv_host).max(0.0),
        kv_host,
    }
}

fn largest(items: &[(f64, Limit)]) -> Limit {
    let mut best = items[0];
    for it in &items[1..] {
        if it.0 > best.0 {
            best = *it;
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefill_runs_on_int8_only_where_llama_cpp_multiplies_quantized_weights_on_nvidia() {
        use crate::catalog::device;
        let q4 = WeightFormat::Gguf(GgufMix::Q4_K_M);
        let f16 = WeightFormat::Gguf(GgufMix::F16);
        let cap = |id: &str| Capability::of(device(id).unwrap(), Runtime::LlamaCpp, None);
        let c = cap("rtx-4090");
        assert_eq!(prefill_rate(Runtime::LlamaCpp, q4, &c, Class::Gpu), (c.int8.get(), MMQ_INT8_UTILISATION));
        assert_eq!(prefill_rate(Runtime::Ollama, q4, &c, Class::Gpu).0, c.int8.get());
        // F16 GGUF goes to cuBLAS; vLLM and transformers dequantize onto the FP16 units.
        assert_eq!(prefill_rate(Runtime::LlamaCpp, f16, &c, Class::Gpu).0, c.fp16.get());
        assert_eq!(prefill_rate(Runtime::Vllm, WeightFormat::Bf16, &c, Class::Gpu).0, c.fp16.get());
        // Volta has no INT8 tensor cores: the FP16 rate; AMD: its own share of the FP16 rate.
        let v = cap("v100-sxm2-16gb");
        assert_eq!(prefill_rate(Runtime::LlamaCpp, q4, &v, Class::Gpu).0, v.fp16.get());
        let a = cap("mi210");
        assert!(a.amd && a.amd_instinct && a.cuda_cc == 0);
        assert_eq!(decode_efficiency_on(Runtime::LlamaCpp, Class::Gpu, &a).0, LLAMA_CPP_INSTINCT_DECODE);
        assert_eq!(
            decode_efficiency_on(Runtime::Vllm, Class::Gpu, &a),
            decode_efficiency(Runtime::Vllm, Class::Gpu)
        );
        let x = cap("rx-7900-xtx");
        assert!(x.amd && !x.amd_instinct);
        assert_eq!(
            decode_efficiency_on(Runtime::LlamaCpp, Class::Gpu, &x),
            decode_efficiency(Runtime::LlamaCpp, Class::Gpu)
        );
        assert_eq!(
            prefill_rate(Runtime::LlamaCpp, q4, &a, Class::Gpu),
            (a.fp16.get(), LLAMA_CPP_INSTINCT_UTILISATION)
        );
        assert_eq!(
            prefill_rate(Runtime::LlamaCpp, q4, &x, Class::Gpu),
            (x.fp16.get(), LLAMA_CPP_AMD_UTILISATION)
        );
        // A Mac is not a CUDA device.
        let m = Capability::of(device("m2-max-64gb").unwrap(), Runtime::LlamaCpp, None);
        let apple = prefill_utilisation(Runtime::LlamaCpp, Class::Apple);
        assert_eq!(prefill_rate(Runtime::LlamaCpp, q4, &m, Class::Apple).1, apple);
    }
}

#[cfg(test)]
mod moe_tests {
    use super::*;

    /// A training run's time on `gpus` of a catalog device: (seconds, waiting).
    fn train(
        device_id: &str,
        gpus: u64,
        zero: u8,
        edit: &dyn Fn(&mut crate::scenario::Scenario),
    ) -> (f64, (f64, f64, f64)) {
        use crate::scenario::Scenario;
        use crate::training::Mode;
        let mut s = Scenario {
            mode: Mode::Full,
            gpus,
            zero,
            context: 2048,
            batch: 2,
            dataset_tokens: 100_000_000,
            checkpointing: crate::training::Checkpointing::Full,
            ..Scenario::catalog("qwen2.5-0.5b")
        };
        edit(&mut s);
        let d = crate::catalog::device(device_id).unwrap();
        let f = crate::fit::fit(&s, d).unwrap();
        let sp = f.speed.unwrap_or_else(|| panic!("{device_id} ×{gpus} ZeRO-{zero}: {:?}", f.verdict));
        (sp.training_s.unwrap(), sp.training_waiting_s.unwrap_or((0.0, 0.0, 0.0)))
    }

    /// A looped model (IQuest's LoopCoder at 2 × 8 layers here) reads the layers it runs again and
    /// does their compute again: the same stored weights as one pass, about twice the bytes read
    /// and the FLOPs per token.
    #[test]
    fn a_looped_model_reads_and_computes_its_layers_on_every_pass() {
        use crate::scenario::{CustomModel, ModelSource, Scenario};
        let speed = |loops: u64| {
            let text = alloc::format!(
                r#"{{"model_type": "iquestloopcoder", "hidden_size": 4096, "num_hidden_layers": 8,
                "intermediate_size": 11008, "num_attention_heads": 32, "num_key_value_heads": 8,
                "vocab_size": 32000, "loop_num": {loops}}}"#
            );
            let m = crate::import::hf::parse_config(text.as_bytes()).unwrap();
            let arch = m.architecture.clone();
            let s = Scenario {
                model: ModelSource::Custom(alloc::boxed::Box::new(CustomModel {
                    name: "loop".into(),
                    architecture: m.architecture,
                    format: None,
                    file: None,
                    confidence: m.confidence,
                    notices: m.notices,
                })),
                ..Scenario::default()
            };
            let e = crate::estimate::estimate(&s).unwrap();
            let reads = token_reads(&e, Some(&arch), 1, false).weights_device;
            (e.weights_total, reads, e.flops_per_token)
        };
        let (one, two) = (speed(1), speed(2));
        assert!(two.0 > one.0 && (two.0.get() as f64) < one.0.get() as f64 * 1.001, "the gates only");
        let (reads, flops) = (two.1 / one.1, two.2 / one.2);
        assert!((1.8..2.0).contains(&reads), "{reads}");
        // The FLOPs count the embeddings once and the second pass's attention over its window.
        assert!((1.6..2.0).contains(&flops), "{flops}");
    }

    #[test]
    fn the_busiest_gpu_under_expert_parallelism_holds_more_than_the_mean() {
        // Exact values (the same sums in exact integers; a 50,000-draw simulation agrees to 0.3%):
        // DeepSeek's 8 of 256 over 8 GPUs 2.5637, gpt-oss's 4 of 128 over 8 1.6197, 8 of 256
        // over 4 3.5122, 6 of 160 over 3 (uneven split) 3.2113.
        for (e, d, n, want) in
            [(256, 8, 8, 2.563_748), (128, 4, 8, 1.619_738), (256, 8, 4, 3.512_226), (160, 6, 3, 3.211_282)]
        {
            let got = busiest_gpu_experts(e, d, n);
            assert!((got - want).abs() < 1e-5, "{e} {d} {n}: {got}");
        }
        assert_eq!(busiest_gpu_experts(256, 8, 1), 8.0);
        assert_eq!(busiest_gpu_experts(8, 2, 16), 1.0);
        // Many picks: the approximation stays between the mean and a GPU's experts, nearing the
        // mean as every expert is picked.
        let many = busiest_gpu_experts(256, 128, 8);
        assert!(many > 16.0 && many <= 32.0, "{many}");
        assert!((busiest_gpu_experts(256, 256, 8) - 32.0).abs() < 1e-9);
    }

    #[test]
    fn a_link_the_device_does_not_state_is_assumed_and_said() {
        use crate::hardware::MyMachine;
        use crate::scenario::Scenario;
        use crate::text::MsgId;
        let s = Scenario { runtime: Some(Runtime::Vllm), gpus: 2, ..Scenario::catalog("qwen2.5-7b") };
        let mine =
            MyMachine { vram_gib: 24.0, ram_gib: 64.0, unified: false, bandwidth_gbs: 0.0, tflops: 0.0 }
                .device();
        let said = |d: &crate::catalog::device::Device| {
            crate::fit::fit(&s, d).unwrap().advice.iter().any(|m| m.id == MsgId::NoteLinkAssumed)
        };
        assert!(said(&mine));
        assert!(!said(crate::catalog::device("rtx-4090").unwrap()));
        // One GPU exchanges nothing: nothing to say.
        let one = Scenario { gpus: 1, ..s.clone() };
        assert!(!crate::fit::fit(&one, &mine).unwrap().advice.iter().any(|m| m.id == MsgId::NoteLinkAssumed));
    }

    #[test]
    fn pipeline_stages_hand_each_token_over_the_link() {
        use crate::hardware::DeviceChoice;
        use crate::scenario::Scenario;
        let mut s = Scenario {
            runtime: Some(Runtime::Vllm),
            gpus: 2,
            device: Some(DeviceChoice::Catalog("h100-sxm".into())),
            ..Scenario::catalog("llama-3.1-70b")
        };
        s.vllm.pipeline_parallel = Some(4);
        let r = crate::estimate::resolve(&s.model).unwrap();
        let e = crate::estimate::estimate_resolved(&s, &r).unwrap();
        assert_eq!(e.vllm.as_ref().unwrap().stages.len(), 4);
        let cap = Capability::of(crate::catalog::device("h100-sxm").unwrap(), Runtime::Vllm, None);
        let a = r.architecture.as_deref();
        let with = inference_speed(&e, &cap, a, 4096, 1, 2);
        let mut one = e.clone();
        one.vllm.as_mut().unwrap().stages.clear();
        let without = inference_speed(&one, &cap, a, 4096, 1, 2);
        let added = 1.0 / with.decode_tokens_per_s - 1.0 / without.decode_tokens_per_s;
        // Three boundaries, NVLink's latency each.
        assert!((added - 3.0 * crate::comm::latency(LinkKind::NvLink)).abs() < 1e-9, "{added}");
    }

    #[test]
    fn expert_parallelism_waits_for_the_busiest_gpu() {
        use crate::scenario::Scenario;
        let run = |ep: bool, batch: u64| {
            let mut s = Scenario {
                runtime: Some(Runtime::Vllm),
                gpus: 8,
                batch,
                context: 2048,
                ..Scenario::catalog("deepseek-v3")
            };
            s.vllm.expert_parallel = ep;
            let f = crate::fit::fit(&s, crate::catalog::device("h200-sxm").unwrap()).unwrap();
            f.speed.unwrap()
        };
        let (tp, ep) = (run(false, 1), run(true, 1));
        assert!(
            ep.decode_tokens_per_s < tp.decode_tokens_per_s,
            "{} {}",
            ep.decode_tokens_per_s,
            tp.decode_tokens_per_s
        );
        // A few percent at one sequence (latency dominates), never more than the expert reads.
        assert!(ep.decode_tokens_per_s > 0.8 * tp.decode_tokens_per_s);
        let (tp64, ep64) = (run(false, 64), run(true, 64));
        assert!(ep64.aggregate_tokens_per_s <= tp64.aggregate_tokens_per_s);
    }

    #[test]
    fn training_utilisation_follows_the_gpu_class_and_says_when_nothing_was_measured() {
        use crate::catalog::device;
        use crate::scenario::Scenario;
        use crate::text::MsgId;
        use crate::training::Mode;
        let class =
            |id: &str| MfuClass::of(&Capability::of(device(id).unwrap(), Runtime::Transformers, None));
        assert_eq!(class("a100-sxm-80gb"), MfuClass::Ampere);
        assert_eq!(class("h100-sxm"), MfuClass::Hopper);
        assert_eq!(class("h200"), MfuClass::Hopper);
        assert_eq!(class("b200"), MfuClass::Blackwell);
        assert_eq!(class("rtx-4090"), MfuClass::Rtx);
        assert_eq!(class("rtx-3090"), MfuClass::Rtx);
        assert_eq!(class("rtx-a6000"), MfuClass::Rtx);
        assert_eq!(class("mi300x"), MfuClass::Instinct);
        assert_eq!(class("v100-sxm-32gb"), MfuClass::OtherGpu);
        assert_eq!(class("m2-ultra-192gb"), MfuClass::Apple);
        for c in [
            MfuClass::Ampere,
            MfuClass::Hopper,
            MfuClass::Blackwell,
            MfuClass::Rtx,
            MfuClass::Instinct,
            MfuClass::OtherGpu,
            MfuClass::Apple,
            MfuClass::Cpu,
        ] {
            let (lo, hi) = c.band();
            assert!(lo < 1.0 && hi > 1.0 && c.utilisation() * hi <= 0.65, "{c:?}");
            // A stand-in's band is wider than a measured class's.
            assert_eq!(c.measured(), hi - lo < 1.0, "{c:?}");
        }
        let run = |id: &str| {
            let s = Scenario { mode: Mode::Lora, context: 2048, ..Scenario::catalog("llama-3.2-1b") };
            crate::fit::fit(&s, device(id).unwrap()).unwrap()
        };
        let (a100, h100, b200) = (run("a100-sxm-80gb"), run("h100-sxm"), run("b200"));
        let sp = |f: &crate::fit::Fit| f.speed.clone().unwrap();
        assert_eq!(sp(&a100).training_mfu_class, Some(MfuClass::Ampere));
        assert_eq!(sp(&h100).training_mfu, Some(0.38));
        // An H100 is faster than an A100, by less than its peak's 3.2×: its share of the peak is
        // smaller.
        let ratio = sp(&a100).training_s.unwrap() / sp(&h100).training_s.unwrap();
        assert!(ratio > 2.0 && ratio < 989.0 / 312.0, "{ratio}");
        // Blackwell's figure is a stand-in: said, with a wider band.
        let said = |f: &crate::fit::Fit| f.advice.iter().any(|m| m.id == MsgId::NoteMfuUnmeasured);
        assert!(said(&b200) && !said(&h100) && !said(&a100));
        let width = |f: &crate::fit::Fit| {
            let (lo, hi) = sp(f).training_band_s.unwrap();
            hi / lo
        };
        assert!(width(&b200) > width(&h100), "{} {}", width(&b200), width(&h100));
    }

    #[test]
    fn training_waits_on_what_the_link_cannot_hide() {
        let none = |_: &mut crate::scenario::Scenario| {};
        // One GPU exchanges nothing.
        let (one, w) = train("h100-sxm", 1, 0, &none);
        assert_eq!(w, (0.0, 0.0, 0.0));
        // Eight NVLink GPUs hide DDP's all-reduce behind the backward pass: nearly linear.
        let (eight, w) = train("h100-sxm", 8, 0, &none);
        assert!(w.1 <= w.0 && w.0 <= w.2, "{w:?}");
        assert!(one / (8.0 * eight) > 0.95, "{one} {eight}");
        // GeForce cards without peer-to-peer wait for every byte: far from linear, and worse
        // than workstation cards with peer-to-peer at the same bus.
        let (g1, _) = train("rtx-4090", 1, 0, &none);
        let (g4, gw) = train("rtx-4090", 4, 0, &none);
        let eff = g1 / (4.0 * g4);
        assert!(eff < 0.9 && eff > 0.2, "{eff}");
        assert!(gw.0 > 0.0 && gw.0 <= gw.2);
        let (_, aw) = train("rtx-6000-ada", 4, 0, &none);
        assert!(aw.0 < gw.0, "{aw:?} {gw:?}");
        // Gradient accumulation all-reduces once per step: less waiting.
        let (_, acc) = train("rtx-4090", 4, 0, &|s| s.train.grad_accum = 4);
        assert!(acc.0 < gw.0 / 3.0, "{acc:?} {gw:?}");
        // ZeRO-3 gathers the weights twice per micro-batch on top of the gradients' exchange.
        let (_, z3) = train("rtx-4090", 4, 3, &none);
        assert!(z3.0 > gw.0, "{z3:?} {gw:?}");
        // Across machines the NIC per GPU is narrower than NVLink.
        let (_, node) = train("h100-sxm", 16, 3, &|s| s.gpus_per_node = 8);
        let (_, within) = train("h100-sxm", 16, 3, &|s| s.gpus_per_node = 16);
        assert!(node.2 > within.2, "{node:?} {within:?}");
        // ZeRO-Offload steps on the CPU: its pass over the states is waited for.
        let (_, off) = train("a100-sxm-80gb", 4, 2, &|s| s.offload = crate::training::Offload::Optimizer);
        let (_, on_gpu) = train("a100-sxm-80gb", 4, 2, &none);
        assert!(off.0 > on_gpu.0 + 1.0, "{off:?} {on_gpu:?}");
    }

    #[test]
    fn tensor_parallel_decode_pays_the_link_latency_and_at_high_concurrency_its_bytes() {
        use crate::scenario::Scenario;
        let run = |device_id: &str, batch: u64| {
            let s = Scenario {
                runtime: Some(Runtime::Vllm),
                weights: Some(WeightFormat::Awq { bits: 4, group: 128 }),
                gpus: 4,
                batch,
                context: 2048,
                ..Scenario::catalog("llama-3.1-70b")
            };
            let f = crate::fit::fit(&s, crate::catalog::device(device_id).unwrap()).unwrap();
            f.speed.unwrap()
        };
        // The same bandwidth and compute, reached over NVLink or through system memory.
        let a6000 = run("rtx-a6000", 1);
        let a6000_host = {
            let d = crate::catalog::device::Device {
                link: crate::catalog::device::links::HOST4_X16,
                ..*crate::catalog::device("rtx-a6000").unwrap()
            };
            let s = Scenario {
                runtime: Some(Runtime::Vllm),
                weights: Some(WeightFormat::Awq { bits: 4, group: 128 }),
                gpus: 4,
                context: 2048,
                ..Scenario::catalog("llama-3.1-70b")
            };
            crate::fit::fit(&s, &d).unwrap().speed.unwrap()
        };
        assert!(a6000_host.decode_tokens_per_s < a6000.decode_tokens_per_s);
        assert!(a6000_host.prefill_tokens_per_s < a6000.prefill_tokens_per_s);
        // At 64 sequences the all-reduces carry 64 hidden vectors: the aggregate grows less than
        // the batch.
        let many = run("rtx-a6000", 64);
        assert!(many.aggregate_tokens_per_s < 64.0 * a6000.aggregate_tokens_per_s);
    }

    #[test]
    fn llama_cpp_reads_a_mixture_of_experts_prompt_slower_the_fewer_tokens_each_expert_gets() {
        use crate::scenario::Scenario;
        let at = |model: &str, ub: u64, runtime: Runtime| {
            let mut s = Scenario { runtime: Some(runtime), context: 4096, ..Scenario::catalog(model) };
            s.llama.ubatch = ub;
            s.llama.batch = s.llama.batch.max(ub);
            let r = crate::estimate::resolve(&s.model).unwrap();
            let e = crate::estimate::estimate_resolved(&s, &r).unwrap();
            moe_prefill_share(&e, r.architecture.as_deref(), s.context)
        };
        // gpt-oss-120b: 4 of 128 experts; 512 tokens give each expert 16, 2048 give 64.
        assert!((at("gpt-oss-120b", 512, Runtime::LlamaCpp) - 16.0 / 64.0).abs() < 1e-9);
        assert!((at("gpt-oss-120b", 2048, Runtime::LlamaCpp) - 64.0 / 112.0).abs() < 1e-9);
        // Dense models and other runtimes keep their rate.
        assert_eq!(at("llama-3.1-8b", 512, Runtime::LlamaCpp), 1.0);
        assert_eq!(at("gpt-oss-120b", 512, Runtime::Vllm), 1.0);
    }
}
