//! Flags of the `headroom` command, as `spec/cli.md` names them.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand};
use headroom_core::Error;
use headroom_core::catalog::device::DeviceKind;
use headroom_core::cost::CostSettings;
use headroom_core::hardware::{DeviceChoice, MyMachine};
use headroom_core::inference::Runtime;
use headroom_core::precision::{KvDtype, WeightFormat};
use headroom_core::scenario::{DEFAULT_CONTEXT, ModelSource, Scenario, parse_params};
use headroom_core::training::{
    Checkpointing, Framework, LoraTargets, LossKernel, Mode, Offload, Optimizer, TrainPrecision,
};

/// How much memory, disk, speed and money a language model needs — term by term.
#[derive(Parser, Debug)]
#[command(name = "headroom", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Estimate memory, disk and compute for a model and a workload (with --device: fit, speed, cost).
    Estimate(Box<EstimateArgs>),
    /// The scenario against every catalog device: verdict, headroom, speed and cost, sorted.
    Fit(Box<FitArgs>),
    /// Reverse questions: longest context, best quantization, cheapest device, models for a device.
    Recommend(Box<RecommendArgs>),
    /// List the catalog models.
    Models(ListArgs),
    /// List the catalog devices (GPUs, Apple chips, laptops, CPUs, cloud instances).
    Devices(DevicesArgs),
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print a JSON array.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct DevicesArgs {
    /// Only this kind: gpu, apple, apu (a shared-memory PC), laptop, cpu, cloud.
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// Print a JSON array.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct EstimateArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// Print one JSON object (sizes in bytes).
    #[arg(long, conflicts_with = "link")]
    pub json: bool,

    /// Print the share link's query for this scenario.
    #[arg(long)]
    pub link: bool,
}

#[derive(Args, Debug)]
pub struct FitArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// Only devices of this kind: gpu, apple, apu, laptop, cpu, cloud.
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,

    /// Print a JSON array of fit objects with their speed.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("question").required(true).args(["max_context", "max_batch", "best_quant", "cheapest", "models", "llama_fit"])))]
pub struct RecommendArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// The longest context that fits --device.
    #[arg(long)]
    pub max_context: bool,

    /// The most sequences at once that fit --device at --context: concurrent requests in
    /// inference, the micro-batch in training.
    #[arg(long)]
    pub max_batch: bool,

    /// The most faithful quantization that fits --device.
    #[arg(long)]
    pub best_quant: bool,

    /// The cheapest devices or instances where the scenario fits.
    #[arg(long)]
    pub cheapest: bool,

    /// The catalog models that run on --device, at the best quantization that fits.
    #[arg(long)]
    pub models: bool,

    /// What llama-server's --fit settles on for --device: the context (when --context is not
    /// given), then -ngl or --n-cpu-moe, keeping --fit-target free; as a command.
    #[arg(long)]
    pub llama_fit: bool,

    /// With --llama-fit: the MiB kept free on each GPU (llama.cpp's --fit-target).
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub fit_target: u64,

    /// With --cheapest: at least this many tokens per second for one sequence.
    #[arg(long, value_name = "TPS")]
    pub min_tps: Option<f64>,

    /// With --cheapest: only this kind of device (gpu, apple, apu, laptop, cpu, cloud).
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,

    /// How many answers to print (--cheapest, --models).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,

    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Parses a device kind.
pub fn parse_kind(s: &str) -> Result<DeviceKind, String> {
    Ok(match s.trim().to_ascii_lowercase().as_str() {
        "gpu" | "gpus" => DeviceKind::Gpu,
        "apple" | "mac" => DeviceKind::Apple,
        "laptop" | "laptops" => DeviceKind::Laptop,
        "cpu" | "cpus" => DeviceKind::Cpu,
        "cloud" => DeviceKind::Cloud,
        "apu" | "apus" => DeviceKind::Apu,
        other => {
            return Err(format!(
                "invalid kind: `{other}` is not a device kind; accepted: gpu apple apu laptop cpu cloud"
            ));
        }
    })
}

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("source").required(true).multiple(true).args(["model", "config", "params", "from_link", "gguf", "safetensors", "command"])))]
pub struct ScenarioArgs {
    /// A share link (or its query, `?v=1&model=…`): the whole scenario as the page shows it; the
    /// other flags are ignored.
    #[arg(long, value_name = "URL")]
    pub from_link: Option<String>,

    /// A runtime command as you would run it (`llama-server -m … -c … -np …`, `ollama run …`, with
    /// environment assignments): its runtime, context, sequences, layers, cache types and batch
    /// sizes; its model when no other flag names one (a GGUF file here, or a catalog model the
    /// file name or tag names). Pieces it does not model are listed, never fatal.
    #[arg(long, value_name = "CMD")]
    pub command: Option<String>,

    /// A catalog model, e.g. llama-3.1-8b (`headroom models` lists them).
    #[arg(long, value_name = "ID")]
    pub model: Option<String>,

    /// A Hugging Face config.json (with --safetensors: the config of those weights).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// NVIDIA ModelOpt's hf_quant_config.json, for a checkpoint whose config.json has no
    /// quantization_config (read by default when it sits beside the config).
    #[arg(long, value_name = "FILE")]
    pub quant_config: Option<PathBuf>,

    /// A GGUF file (any part of a split one): its header only is read, for exact bytes per tensor.
    #[arg(long, value_name = "FILE")]
    pub gguf: Option<PathBuf>,

    /// With --gguf: the model's multimodal projector (llama.cpp's mmproj GGUF); its header gives
    /// the encoder's exact bytes.
    #[arg(long, value_name = "FILE", requires = "gguf")]
    pub mmproj: Option<PathBuf>,

    /// A .safetensors file or a model.safetensors.index.json: headers only are read, for exact
    /// bytes per tensor; the config.json beside it (or --config) gives the shape.
    #[arg(long, value_name = "FILE")]
    pub safetensors: Option<PathBuf>,

    /// A bare parameter count (7e9, 7B, 500M): the seed guide's rule-of-thumb mode.
    #[arg(long, value_name = "N")]
    pub params: Option<String>,

    /// Weight format: fp32 fp16 bf16 fp8 int8 int4 nf4 mxfp4 nvfp4, fp8-channel fp8-tensor, int4-g128 int4-g32 (-asym), int8-channel, GGUF types (q8_0 q4_k_m iq4_xs…), gptq-4bit awq-4bit.
    #[arg(long, value_name = "DTYPE")]
    pub weights: Option<String>,

    /// KV-cache format: fp32 fp16 bf16 fp8 q8_0 q4_0 (`auto`, as vLLM names it: the 16-bit type).
    #[arg(long, value_name = "DTYPE", default_value = "fp16")]
    pub kv: String,

    /// Tokens per sequence.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CONTEXT)]
    pub context: u64,

    /// Sequences at once (inference: concurrent requests).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub batch: u64,

    /// Runtime: transformers vllm llama.cpp ollama mlx cpu (default: by format).
    #[arg(long, value_name = "NAME")]
    pub runtime: Option<String>,

    /// How many devices the model is split across.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub gpus: u64,

    /// Assume attention without flash attention (materialised score matrix).
    #[arg(long)]
    pub no_flash_attention: bool,

    /// A multimodal model served as text only: its vision and audio encoders are not loaded
    /// (vLLM's --limit-mm-per-prompt at 0, llama.cpp without --mmproj).
    #[arg(long)]
    pub text_only: bool,

    /// llama.cpp/Ollama: layers on the GPU (-ngl); the others stay in system RAM. Default: all.
    #[arg(long, value_name = "N")]
    pub gpu_layers: Option<u64>,

    /// llama.cpp/Ollama: micro-batch, tokens per graph (-ub, n_ubatch). Default 512.
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub ubatch: u64,

    /// llama.cpp/Ollama: logical batch, tokens per decode call (-b, n_batch). Default 2048.
    #[arg(long, value_name = "N", default_value_t = 2048)]
    pub batch_tokens: u64,

    /// llama.cpp/Ollama: the V cache's type when it differs from --kv, which then sets K only (-ctk/-ctv).
    #[arg(long, value_name = "DTYPE")]
    pub kv_v: Option<String>,

    /// llama.cpp: full-size caches for sliding-window layers (--swa-full).
    #[arg(long)]
    pub swa_full: bool,

    /// llama.cpp: one KV cache shared by all --batch sequences (--kv-unified).
    #[arg(long)]
    pub kv_unified: bool,

    /// llama.cpp: keep the MoE experts of the first N layers in system RAM (--n-cpu-moe N).
    #[arg(long, value_name = "N", conflicts_with = "cpu_moe")]
    pub n_cpu_moe: Option<u64>,

    /// llama.cpp: keep every MoE expert in system RAM (--cpu-moe, -ot exps=CPU).
    #[arg(long)]
    pub cpu_moe: bool,

    /// llama.cpp: a catalog model drafting for speculative decoding (-md), in the same format.
    #[arg(long, value_name = "ID")]
    pub draft: Option<String>,

    /// llama.cpp: the most tokens drafted per step (--draft-max).
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub draft_max: u64,

    /// Ollama: its num_batch (PARAMETER num_batch), llama-server's -b and -ub alike [default:
    /// Ollama's own choice, 512 to 2048 by context and memory].
    #[arg(long, value_name = "N")]
    pub num_batch: Option<u64>,

    /// llama.cpp: more GPUs beside --device, in order (--device rtx-4090 --with-gpus
    /// rtx-3090,rtx-3060-12gb); each card holds layers by its memory unless --tensor-split says
    /// otherwise. --gpus becomes the number of cards.
    #[arg(long, value_name = "IDS")]
    pub with_gpus: Option<String>,

    /// llama.cpp over several GPUs: each GPU's share of the layers (-ts 3,1) [default: by free
    /// memory, equal for equal cards].
    #[arg(long, value_name = "SHARES")]
    pub tensor_split: Option<String>,

    /// vLLM: the release whose rules and defaults apply (0.8 or later) [default: 0.34].
    #[arg(long, value_name = "VERSION")]
    pub vllm_version: Option<String>,

    /// vLLM: share of the GPU it claims, above 0 and at most 1 [default: 0.92 from v0.21, 0.9 before].
    #[arg(long, value_name = "SHARE")]
    pub gpu_memory_utilization: Option<f64>,

    /// vLLM: the most requests scheduled at once [default: 1024 on 70 GiB cards other than A100s, else 256].
    #[arg(long, value_name = "N")]
    pub max_num_seqs: Option<u64>,

    /// vLLM: the most tokens per scheduler step [default: 8192 on 70 GiB cards other than A100s, else 2048].
    #[arg(long, value_name = "N")]
    pub max_num_batched_tokens: Option<u64>,

    /// vLLM: tokens per KV block [default: 64 from v0.34, 16 before; a hybrid model's attention
    /// blocks are raised to hold a Mamba state].
    #[arg(long, value_name = "N")]
    pub block_size: Option<u64>,

    /// vLLM: the KV cache's size, without profiling (bytes, or with GiB/GB).
    #[arg(long, value_name = "BYTES")]
    pub kv_cache_memory: Option<String>,

    /// vLLM: no CUDA graphs (--enforce-eager).
    #[arg(long)]
    pub enforce_eager: bool,

    /// vLLM: reserve its CUDA-graph estimate before sizing the cache (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS): on or off [default: on from v0.21].
    #[arg(long, value_name = "ON|OFF")]
    pub cudagraph_estimate: Option<String>,

    /// vLLM: prefix caching on or off (--enable-prefix-caching / --no-enable-prefix-caching); it
    /// decides how many Mamba states a hybrid model's request keeps [default: on, except hybrid
    /// models before v0.26].
    #[arg(long, value_name = "ON|OFF")]
    pub prefix_caching: Option<String>,

    /// vLLM: async scheduling on or off (--async-scheduling / --no-async-scheduling); with it a
    /// second batch is in flight, whose tokens sliding-window layers keep blocks for [default: on
    /// from v0.34].
    #[arg(long, value_name = "ON|OFF")]
    pub async_scheduling: Option<String>,

    /// vLLM: the KV cache sized from the memory measured after warmup and CUDA-graph capture, on
    /// or off (--enable-extensible-kv-cache / --no-enable-extensible-kv-cache) [default: on from
    /// v0.34, off with --kv-cache-memory].
    #[arg(long, value_name = "ON|OFF")]
    pub extensible_kv_cache: Option<String>,

    /// vLLM: a speculative drafter, as vLLM's JSON ({"method": "mtp", "num_speculative_tokens": 1},
    /// {"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4}) or mtp:N, eagle:N, draft:MODEL:N.
    #[arg(long, value_name = "CONFIG")]
    pub speculative_config: Option<String>,

    /// vLLM: a hybrid model's Mamba convolution state dtype (--mamba-cache-dtype): auto, float32, bfloat16.
    #[arg(long, value_name = "DTYPE")]
    pub mamba_cache_dtype: Option<String>,

    /// vLLM: a hybrid model's SSM state dtype (--mamba-ssm-cache-dtype): auto, float32, bfloat16.
    #[arg(long, value_name = "DTYPE")]
    pub mamba_ssm_cache_dtype: Option<String>,

    /// vLLM: pipeline stages of consecutive layers (--pipeline-parallel-size); --gpus is each
    /// stage's tensor-parallel size.
    #[arg(long, value_name = "N")]
    pub pipeline_parallel_size: Option<u64>,

    /// vLLM: ranks of the tensor-parallel group that split each request's attention cache by
    /// tokens (--decode-context-parallel-size); it divides --gpus.
    #[arg(long, value_name = "N")]
    pub decode_context_parallel_size: Option<u64>,

    /// vLLM: the largest batch captured as a CUDA graph (--max-cudagraph-capture-size); fewer
    /// graphs take less memory [default: 2 × max-num-seqs × decode tokens, at most 512, 1,024 on
    /// data-centre Blackwell].
    #[arg(long, value_name = "N")]
    pub max_cudagraph_capture_size: Option<u64>,

    /// vLLM: replicas of the tensor-parallel group (--data-parallel-size); --gpus is each one's size.
    #[arg(long, value_name = "N")]
    pub data_parallel_size: Option<u64>,

    /// vLLM: routed experts spread whole over every GPU of every replica (--enable-expert-parallel).
    #[arg(long)]
    pub enable_expert_parallel: bool,

    /// vLLM: a multimodal model's encoder sharded over the tensor-parallel GPUs (weights, the
    /// default) or whole on each of them with the images split (data).
    #[arg(long, value_name = "WEIGHTS|DATA")]
    pub mm_encoder_tp_mode: Option<String>,

    /// vLLM: GiB of each GPU's weights kept in CPU memory (--cpu-offload-gb).
    #[arg(long, value_name = "GIB")]
    pub cpu_offload_gb: Option<f64>,

    /// SGLang: share of the memory free at start for weights and KV pool [default: SGLang's heuristic for the card].
    #[arg(long, value_name = "SHARE")]
    pub mem_fraction_static: Option<f64>,

    /// SGLang: tokens per prefill chunk [default: by the card].
    #[arg(long, value_name = "N")]
    pub chunked_prefill_size: Option<u64>,

    /// SGLang: the largest CUDA-graph batch [default: by the card].
    #[arg(long, value_name = "N")]
    pub cuda_graph_max_bs: Option<u64>,

    /// SGLang: tokens per KV page [default: 1].
    #[arg(long, value_name = "N")]
    pub page_size: Option<u64>,

    /// SGLang: no CUDA graphs.
    #[arg(long)]
    pub disable_cuda_graph: bool,

    /// SGLang: sliding-window tokens per full-attention token in a hybrid model's pools [default: 0.8].
    #[arg(long, value_name = "RATIO")]
    pub swa_full_tokens_ratio: Option<f64>,

    /// SGLang: one pool over every layer at full length for hybrid sliding-window models.
    #[arg(long)]
    pub disable_hybrid_swa_memory: bool,

    /// SGLang: Mamba-state bytes per full-attention KV byte in a hybrid Mamba model [default: 0.9].
    #[arg(long, value_name = "RATIO")]
    pub mamba_full_memory_ratio: Option<f64>,

    /// SGLang: Mamba state slots [default: from --mamba-full-memory-ratio].
    #[arg(long, value_name = "N")]
    pub max_mamba_cache_size: Option<u64>,

    /// What to estimate: inference, full (fine-tuning), lora, qlora.
    #[arg(long, value_name = "MODE", default_value = "inference")]
    pub mode: String,

    /// Training framework whose defaults to follow: custom hf trl unsloth axolotl llama-factory
    /// torchtune litgpt deepspeed fsdp. Flags given beside it override its defaults.
    #[arg(long, value_name = "NAME")]
    pub framework: Option<String>,

    /// Optimizer: adamw adamw-8bit paged-adamw paged-adamw-8bit sgd sgd-momentum adafactor lion [default: adamw].
    #[arg(long, value_name = "NAME")]
    pub optimizer: Option<String>,

    /// Full fine-tuning precision: mixed (the seed's 16 B/param with AdamW), amp (FP32 weights under BF16 autocast), mixed-fp32-grads, pure-bf16, fp32 [default: mixed].
    #[arg(long, value_name = "RECIPE")]
    pub precision: Option<String>,

    /// The loss over the vocabulary: full (transformers: FP32 logits), chunked (torchtune, LitGPT), fused (Liger, Unsloth, Cut Cross-Entropy) [default: full].
    #[arg(long, value_name = "KERNEL")]
    pub loss: Option<String>,

    /// LoRA dropout before each adapter: on (each adapted module keeps a copy of its input) or off [default: on].
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub lora_dropout: Option<String>,

    /// Adapters' dtype: fp32 (peft) or bf16 (torchtune, LitGPT) [default: fp32].
    #[arg(long, value_name = "DTYPE")]
    pub adapters: Option<String>,

    /// QLoRA: upcast every unquantized parameter to FP32 (peft's prepare_model_for_kbit_training): on or off [default: on].
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub kbit_upcast: Option<String>,

    /// Micro-batches per optimizer step (gradient accumulation) [default: 1].
    #[arg(long, value_name = "N")]
    pub grad_accum: Option<u64>,

    /// With full or offloaded checkpointing, checkpoint every K-th layer only; the others keep all
    /// their activations (torchtune's ac_option, torchtitan's selective_ac_option as a number) [default: 1].
    #[arg(long, value_name = "K")]
    pub checkpoint_every: Option<u64>,

    /// Step each parameter in the backward pass (torchtune's optimizer_in_bwd): on or off.
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub optimizer_in_backward: Option<String>,

    /// Offload saved activations to CPU memory (torchtune's enable_activation_offloading): on or off.
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub activation_offload: Option<String>,

    /// torch.compile the model (fewer kept intermediates, a stated factor): on or off.
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub compile: Option<String>,

    /// Model parallelism (device_map="auto"): one replica, its layers split over the --gpus: on or off.
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub device_map: Option<String>,

    /// Context parallelism: each sequence split over N of the --gpus (ring attention) [default: 1].
    #[arg(long, value_name = "N")]
    pub cp: Option<u64>,

    /// DeepSpeed-Ulysses sequence parallelism (accelerate's sp_size, Arctic ALST): each sequence
    /// split over N of the --gpus, attention heads divided among them [default: 1].
    #[arg(long, value_name = "N")]
    pub ulysses: Option<u64>,

    /// With --tp: norms and residual stream split along the sequence too (Megatron's
    /// --sequence-parallel, torchtitan): on or off [default: off, as transformers' and
    /// torchtune's tensor-parallel plans].
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub sequence_parallel: Option<String>,

    /// How samples become batches: padded (to each micro-batch's longest), packed, padding-free
    /// [default: padded]. Matters for time with --mean-sample-tokens.
    #[arg(long, value_name = "WAY")]
    pub batching: Option<String>,

    /// The dataset's mean sample length in tokens (0: samples fill --context) [default: 0].
    #[arg(long, value_name = "N")]
    pub mean_sample_tokens: Option<u64>,

    /// Float8 training (torchao's Float8Linear; full fine-tuning on FP8 tensor cores): on or off.
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub float8: Option<String>,

    /// DeepSpeed ZeRO: reduce_bucket_size in elements (5e8 is DeepSpeed's own default) or auto
    /// (the Trainer's hidden²) [default: auto].
    #[arg(long, value_name = "N|auto")]
    pub reduce_bucket_size: Option<String>,

    /// DeepSpeed ZeRO: overlap_comm on or off (two gradient buckets at ZeRO-1/2) [default: on at
    /// ZeRO-3, off at 1 and 2].
    #[arg(long, value_name = "ON|OFF")]
    pub overlap_comm: Option<String>,

    /// DoRA (peft's use_dora): a trained magnitude per output row, more kept activations: on or off.
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on")]
    pub dora: Option<String>,

    /// LoRA rank.
    #[arg(long, value_name = "R", default_value_t = headroom_core::training::DEFAULT_LORA_RANK)]
    pub lora_rank: u64,

    /// LoRA targets: all-linear, or module kinds such as q,k,v,o,gate,up,down (qkv, gate_up for fused models).
    #[arg(long, value_name = "LIST", default_value = "all-linear")]
    pub lora_targets: String,

    /// Recompute activations (full gradient checkpointing).
    #[arg(long, conflicts_with = "checkpointing")]
    pub grad_checkpointing: bool,

    /// Activation checkpointing: none, selective (PyTorch's per-operation policy, as torchtitan: every second matrix product and attention kept), full, offloaded (Unsloth's: layer inputs in CPU memory).
    #[arg(long, value_name = "MODE")]
    pub checkpointing: Option<String>,

    /// ZeRO stage 0-3 for data-parallel training over --gpus (FSDP: 3) [default: 0].
    #[arg(long, value_name = "N")]
    pub zero: Option<u8>,

    /// Offload to CPU memory: none, optimizer, all (ZeRO-Offload / ZeRO-Infinity; FSDP's CPU offload with all) [default: none].
    #[arg(long, value_name = "WHAT")]
    pub offload: Option<String>,

    /// Tensor-parallel degree for training: each replica spans this many of the --gpus (ZeRO
    /// partitions over --gpus / --tp replicas).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub tp: u64,

    /// Training dataset size in tokens (10M, 2B…), for time and cost.
    #[arg(long, value_name = "N", default_value = "10M")]
    pub dataset_tokens: String,

    /// Passes over the dataset.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub epochs: u64,

    /// GPUs per node, for per-node CPU memory.
    #[arg(long, value_name = "N", default_value_t = headroom_core::training::DEFAULT_GPUS_PER_NODE)]
    pub gpus_per_node: u64,

    /// A catalog device (`headroom devices` lists them); adds fit, speed and cost.
    #[arg(long, value_name = "ID", conflicts_with = "my_ram")]
    pub device: Option<String>,

    /// My machine: its RAM in GiB (a Mac's unified memory); adds fit, speed and cost.
    #[arg(long, value_name = "GIB")]
    pub my_ram: Option<f64>,

    /// My machine: GPU memory in GiB (0 or absent for none).
    #[arg(long, value_name = "GIB", requires = "my_ram")]
    pub my_vram: Option<f64>,

    /// My machine: GPU (or Mac, or RAM) bandwidth in GB/s.
    #[arg(long, value_name = "GBS", requires = "my_ram")]
    pub my_bandwidth: Option<f64>,

    /// My machine: GPU FP16 TFLOP/s.
    #[arg(long, value_name = "TFLOPS", requires = "my_ram")]
    pub my_tflops: Option<f64>,

    /// My machine is a Mac (unified memory).
    #[arg(long, requires = "my_ram")]
    pub my_mac: bool,

    /// Memory kept free for the desktop, the OS and other programs: none, auto (by device:
    /// 512 MiB of a display GPU, 4 GiB of a Mac, 2 GiB of a CPU machine), or GiB.
    #[arg(long, value_name = "GIB|auto")]
    pub reserve: Option<String>,

    /// Share of a unified memory its GPU may use: a Mac's (macOS default: 2/3 below 36 GiB of RAM,
    /// 0.75 from 36 GiB) or an APU's (Ryzen AI Max under Linux: 0.5, TTM's default; DGX Spark: what
    /// DGX OS leaves, 0.88).
    #[arg(long, visible_alias = "gpu-share", value_name = "SHARE")]
    pub mac_gpu_limit: Option<f64>,

    /// The system RAM beside a catalog GPU or laptop (--device), in GiB: an offload to RAM is
    /// then checked against it (without it, the RAM an offload needs is said, not checked).
    #[arg(long, value_name = "GIB")]
    pub host_ram: Option<f64>,

    /// Electricity price, USD per kWh.
    #[arg(long, value_name = "USD", default_value_t = 0.15)]
    pub kwh_price: f64,

    /// Hours of use per day (monthly costs, break-even).
    #[arg(long, value_name = "H", default_value_t = 8.0)]
    pub hours_per_day: f64,

    /// Cooling factor (PUE) on the device's power: 1.0 at home, about 1.4 in a data centre.
    #[arg(long, value_name = "PUE", default_value_t = 1.0)]
    pub cooling: f64,

    /// Upkeep per year as a share of the purchase price.
    #[arg(long, value_name = "SHARE", default_value_t = 0.05)]
    pub upkeep: f64,
}

impl ScenarioArgs {
    /// The scenario these flags describe.
    pub fn scenario(&self) -> Result<Scenario, String> {
        if let Some(link) = &self.from_link {
            let d = headroom_core::share::decode_link(link);
            for i in &d.ignored {
                eprintln!("note: ignored {}={}: {}", i.key, i.value, i.reason);
            }
            if let Some(r) = &d.link.hf {
                return Err(format!(
                    "this link reads {} from Hugging Face on the page; the CLI does not fetch: download its config.json (and headers) and use --config or --safetensors, or --gguf for a GGUF file",
                    r.repo
                ));
            }
            d.link.scenario.validate().map_err(|e| e.to_string())?;
            return Ok(d.link.scenario);
        }
        let given =
            [self.model.is_some(), self.params.is_some(), self.gguf.is_some(), self.safetensors.is_some()]
                .iter()
                .filter(|b| **b)
                .count()
                + usize::from(self.config.is_some() && self.safetensors.is_none());
        let command = self
            .command
            .as_deref()
            .map(headroom_core::command::parse)
            .transpose()
            .map_err(|e| e.to_string())?;
        if let Some(c) = &command {
            for i in &c.ignored {
                eprintln!("note: ignored `{}` in the command: {}", i.piece, i.reason);
            }
        }
        if given > 1 || (given == 0 && command.is_none()) {
            return Err("give one model: --model, --config, --params, --gguf or --safetensors (--config may go with --safetensors)".into());
        }
        let from_command = if given == 0 { command.as_ref().map(command_model).transpose()? } else { None };
        let model = if let Some(m) = from_command {
            m
        } else if let Some(id) = &self.model {
            let entry = headroom_core::catalog::model(id).map_err(|e| e.to_string())?;
            ModelSource::Catalog(entry.id.into())
        } else if let Some(path) = &self.gguf {
            let mut r = crate::files::read_gguf(path)?;
            for n in &r.notices {
                eprintln!("note: {n}");
            }
            if let Some(mm) = &self.mmproj {
                crate::files::attach_mmproj(&mut r.model, mm)?;
            }
            ModelSource::Custom(Box::new(r.model))
        } else if let Some(path) = &self.safetensors {
            let r =
                crate::files::read_safetensors(path, self.config.as_deref(), self.quant_config.as_deref())?;
            for n in &r.notices {
                eprintln!("note: {n}");
            }
            ModelSource::Custom(Box::new(r.model))
        } else if let Some(path) = &self.config {
            let bytes = read_file(path)?;
            let m = crate::files::parse_config_beside(path, &bytes, self.quant_config.as_deref())?;
            let name = m.name.clone().unwrap_or_else(|| path.display().to_string());
            for n in &m.notices {
                eprintln!("note: {}", n.render(headroom_core::text::Lang::En));
            }
            ModelSource::Custom(Box::new(m.into_custom(name)))
        } else if let Some(p) = &self.params {
            ModelSource::Params(parse_params(p).map_err(|e| e.to_string())?)
        } else {
            return Err("give a model: --model, --config or --params".into());
        };
        let core = |r: Result<_, Error>| r.map_err(|e| e.to_string());
        let scenario = Scenario {
            model,
            weights: self
                .weights
                .as_deref()
                .map(WeightFormat::parse)
                .transpose()
                .map_err(|e| e.to_string())?,
            kv: core(KvDtype::parse(&self.kv))?,
            context: self.context,
            batch: self.batch,
            runtime: self.runtime.as_deref().map(Runtime::parse).transpose().map_err(|e| e.to_string())?,
            gpus: self.gpus,
            flash_attention: !self.no_flash_attention,
            text_only: self.text_only,
            gpu_layers: self.gpu_layers,
            llama: headroom_core::scenario::LlamaOptions {
                batch: self.batch_tokens,
                ubatch: self.ubatch,
                v_type: self.kv_v.as_deref().map(KvDtype::parse).transpose().map_err(|e| e.to_string())?,
                swa_full: self.swa_full,
                unified: self.kv_unified,
                cpu_moe: if self.cpu_moe {
                    Some(headroom_core::scenario::ALL_LAYERS)
                } else {
                    self.n_cpu_moe
                },
                draft: self
                    .draft
                    .as_deref()
                    .map(|d| headroom_core::catalog::model(d).map(|m| m.id.to_string()))
                    .transpose()
                    .map_err(|e| e.to_string())?,
                draft_max: self.draft_max,
                tensor_split: self
                    .tensor_split
                    .as_deref()
                    .map(headroom_core::scenario::parse_tensor_split)
                    .transpose()
                    .map_err(|e| e.to_string())?
                    .unwrap_or_default(),
                num_batch: self.num_batch,
                with_gpus: match &self.with_gpus {
                    Some(list) => list
                        .split(',')
                        .map(str::trim)
                        .filter(|x| !x.is_empty())
                        .map(|id| headroom_core::catalog::device(id).map(|d| d.id.to_string()))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| e.to_string())?,
                    None => Vec::new(),
                },
            },
            mode: Mode::parse(&self.mode).map_err(|e| e.to_string())?,
            lora_rank: self.lora_rank,
            lora_targets: LoraTargets::parse(&self.lora_targets).map_err(|e| e.to_string())?,
            tp: self.tp,
            dataset_tokens: parse_params(&self.dataset_tokens)
                .map_err(|_| {
                    format!(
                        "invalid dataset-tokens: `{}` is not a token count (like 10M or 2B)",
                        self.dataset_tokens
                    )
                })?
                .get(),
            epochs: self.epochs,
            gpus_per_node: self.gpus_per_node,
            device: match (&self.device, self.my_ram) {
                (Some(id), _) => {
                    let d = headroom_core::catalog::device(id).map_err(|e| e.to_string())?;
                    Some(DeviceChoice::Catalog(d.id.into()))
                }
                (None, Some(ram)) => Some(DeviceChoice::Mine(MyMachine {
                    vram_gib: self.my_vram.unwrap_or(0.0),
                    ram_gib: ram,
                    unified: self.my_mac,
                    bandwidth_gbs: self.my_bandwidth.unwrap_or(0.0),
                    tflops: self.my_tflops.unwrap_or(0.0),
                })),
                (None, None) => None,
            },
            mac_gpu_fraction: self.mac_gpu_limit,
            host_ram_gib: self.host_ram,
            reserve: self
                .reserve
                .as_deref()
                .map(headroom_core::hardware::Reserve::parse)
                .transpose()
                .map_err(|e| e.to_string())?
                .unwrap_or_default(),
            costs: CostSettings {
                usd_per_kwh: self.kwh_price,
                hours_per_day: self.hours_per_day,
                cooling_factor: self.cooling,
                upkeep_per_year: self.upkeep,
            },
            ..Scenario::default()
        };
        let mut scenario = scenario;
        if !scenario.llama.with_gpus.is_empty() && scenario.gpus == 1 {
            scenario.gpus = 1 + scenario.llama.with_gpus.len() as u64;
        }
        self.training_knobs(&mut scenario)?;
        self.vllm_knobs(&mut scenario)?;
        if let Some(c) = &command {
            // The command's own file is read with its own format: no format guessed from its name.
            let read_file = matches!(scenario.model, ModelSource::Custom(_));
            if let Some(n) = c.apply_with_model(&mut scenario) {
                if c.runtime == Runtime::Ollama {
                    eprintln!(
                        "note: the command sets no OLLAMA_CONTEXT_LENGTH: Ollama's default for this device's VRAM is {n} tokens (4k under 23 GiB, 32k under 47 GiB, 256k beyond, at most the model's)"
                    );
                } else if c.vllm.max_model_len_auto {
                    eprintln!(
                        "note: --max-model-len auto: vLLM starts from the model's longest context, {n} tokens, and lowers it to what its cache holds"
                    );
                } else {
                    eprintln!(
                        "note: the command sets no --max-model-len: vLLM serves the model's longest context, {n} tokens"
                    );
                }
            }
            if read_file && self.weights.is_none() {
                scenario.weights = None;
            }
        }
        scenario.validate().map_err(|e| e.to_string())?;
        Ok(scenario)
    }

    /// vLLM's serving flags.
    fn vllm_knobs(&self, scenario: &mut Scenario) -> Result<(), String> {
        let v = &mut scenario.vllm;
        if let Some(t) = &self.vllm_version {
            v.version = headroom_core::vllm::VllmVersion::parse(t).map_err(|e| e.to_string())?;
        }
        if let Some(u) = self.gpu_memory_utilization {
            v.utilization = Some(utilization(u)?);
        }
        v.max_num_seqs = self.max_num_seqs.or(v.max_num_seqs);
        v.max_num_batched_tokens = self.max_num_batched_tokens.or(v.max_num_batched_tokens);
        v.block_size = self.block_size.or(v.block_size);
        if let Some(m) = &self.kv_cache_memory {
            v.kv_cache_memory = Some(byte_size(m)?);
        }
        v.enforce_eager |= self.enforce_eager;
        if let Some(g) = &self.cudagraph_estimate {
            v.graph_estimate = Some(switch("cudagraph-estimate", g)?);
        }
        let g = &mut scenario.sglang;
        if let Some(f) = self.mem_fraction_static {
            g.mem_fraction_static = Some(headroom_core::vllm::utilization_of(f).ok_or_else(|| {
                format!("invalid mem-fraction-static: {f} is out of range; SGLang takes a share above 0 and at most 1")
            })?);
        }
        g.chunked_prefill_size = self.chunked_prefill_size.or(g.chunked_prefill_size);
        g.cuda_graph_max_bs = self.cuda_graph_max_bs.or(g.cuda_graph_max_bs);
        g.page_size = self.page_size.or(g.page_size);
        g.disable_cuda_graph |= self.disable_cuda_graph;
        g.disable_hybrid_swa_memory |= self.disable_hybrid_swa_memory;
        for (name, v, slot) in [
            ("swa-full-tokens-ratio", self.swa_full_tokens_ratio, &mut g.swa_full_tokens_ratio),
            ("mamba-full-memory-ratio", self.mamba_full_memory_ratio, &mut g.mamba_full_memory_ratio),
        ] {
            if let Some(r) = v {
                *slot = Some(headroom_core::vllm::utilization_of(r).ok_or_else(|| {
                    format!("invalid {name}: {r} is out of range; SGLang takes a ratio above 0 and at most 1")
                })?);
            }
        }
        g.max_mamba_cache_size = self.max_mamba_cache_size.or(g.max_mamba_cache_size);
        let v = &mut scenario.vllm;
        v.data_parallel = self.data_parallel_size.or(v.data_parallel);
        v.pipeline_parallel = self.pipeline_parallel_size.or(v.pipeline_parallel);
        v.decode_context_parallel = self.decode_context_parallel_size.or(v.decode_context_parallel);
        v.max_cudagraph_capture_size = self.max_cudagraph_capture_size.or(v.max_cudagraph_capture_size);
        if let Some(d) = &self.mamba_cache_dtype {
            v.mamba_cache_bytes = headroom_core::vllm::mamba_dtype_bytes(d).map_err(|e| e.to_string())?;
        }
        if let Some(d) = &self.mamba_ssm_cache_dtype {
            v.mamba_ssm_cache_bytes = headroom_core::vllm::mamba_dtype_bytes(d).map_err(|e| e.to_string())?;
        }
        v.expert_parallel |= self.enable_expert_parallel;
        if let Some(m) = &self.mm_encoder_tp_mode {
            v.mm_encoder_data = match m.trim().to_ascii_lowercase().as_str() {
                "data" => true,
                "weights" => false,
                other => {
                    return Err(format!("invalid mm-encoder-tp-mode: `{other}` is neither weights nor data"));
                }
            };
        }
        if let Some(p) = &self.prefix_caching {
            v.prefix_caching = Some(match p.trim().to_ascii_lowercase().as_str() {
                "on" | "1" | "true" | "yes" => true,
                "off" | "0" | "false" | "no" => false,
                other => return Err(format!("invalid prefix-caching: `{other}` is neither on nor off")),
            });
        }
        if let Some(p) = &self.async_scheduling {
            v.async_scheduling = Some(match p.trim().to_ascii_lowercase().as_str() {
                "on" | "1" | "true" | "yes" => true,
                "off" | "0" | "false" | "no" => false,
                other => return Err(format!("invalid async-scheduling: `{other}` is neither on nor off")),
            });
        }
        if let Some(p) = &self.extensible_kv_cache {
            v.extensible_kv_cache = Some(match p.trim().to_ascii_lowercase().as_str() {
                "on" | "1" | "true" | "yes" => true,
                "off" | "0" | "false" | "no" => false,
                other => return Err(format!("invalid extensible-kv-cache: `{other}` is neither on nor off")),
            });
        }
        if let Some(c) = &self.speculative_config {
            v.speculative = Some(headroom_core::vllm::Speculative::parse(c).map_err(|e| e.to_string())?);
        }
        if let Some(g) = self.cpu_offload_gb {
            if !(g.is_finite() && (0.0..=65536.0).contains(&g)) {
                return Err(format!("invalid cpu-offload-gb: {g} is out of range; use 0 to 65536 GiB"));
            }
            v.cpu_offload = (g * (1u64 << 30) as f64) as u64;
        }
        Ok(())
    }

    /// The framework's defaults, then every training flag given explicitly over them.
    fn training_knobs(&self, scenario: &mut Scenario) -> Result<(), String> {
        fn core<T>(r: Result<T, Error>) -> Result<T, String> {
            r.map_err(|e| e.to_string())
        }
        if let Some(f) = &self.framework {
            scenario.apply_framework(core(Framework::parse(f))?);
        }
        if let Some(o) = &self.optimizer {
            scenario.optimizer = core(Optimizer::parse(o))?;
        }
        if let Some(p) = &self.precision {
            scenario.precision = core(TrainPrecision::parse(p))?;
        }
        match (&self.checkpointing, self.grad_checkpointing) {
            (Some(c), _) => scenario.checkpointing = core(Checkpointing::parse(c))?,
            (None, true) => scenario.checkpointing = Checkpointing::Full,
            (None, false) => {}
        }
        if let Some(z) = self.zero {
            scenario.zero = z;
        }
        if let Some(o) = &self.offload {
            scenario.offload = core(Offload::parse(o))?;
        }
        let t = &mut scenario.train;
        if let Some(l) = &self.loss {
            t.loss = core(LossKernel::parse(l))?;
        }
        if let Some(v) = &self.lora_dropout {
            t.lora_dropout = switch("lora-dropout", v)?;
        }
        if let Some(a) = &self.adapters {
            t.adapters_fp32 = match a.trim().to_ascii_lowercase().as_str() {
                "fp32" | "float32" | "f32" => true,
                "bf16" | "bfloat16" | "fp16" | "f16" => false,
                other => {
                    return Err(format!(
                        "invalid adapters: `{other}` is not an adapter dtype; accepted: fp32 bf16"
                    ));
                }
            };
        }
        if let Some(v) = &self.kbit_upcast {
            t.kbit_upcast = switch("kbit-upcast", v)?;
        }
        if let Some(n) = self.grad_accum {
            t.grad_accum = n;
        }
        if let Some(k) = self.checkpoint_every {
            if !(1..=1024).contains(&k) {
                return Err(format!(
                    "invalid checkpoint-every: {k} is not a checkpointing interval: every 1 to 1024 layers"
                ));
            }
            t.ckpt_every = k;
        }
        if let Some(v) = &self.optimizer_in_backward {
            t.optimizer_in_backward = switch("optimizer-in-backward", v)?;
        }
        if let Some(v) = &self.activation_offload {
            t.activation_offload = switch("activation-offload", v)?;
        }
        if let Some(v) = &self.compile {
            t.compile = switch("compile", v)?;
        }
        if let Some(v) = &self.device_map {
            t.device_map = switch("device-map", v)?;
        }
        if let Some(n) = self.cp {
            t.cp = n;
        }
        if let Some(n) = self.ulysses {
            t.ulysses = n;
        }
        if let Some(v) = &self.sequence_parallel {
            t.sequence_parallel = switch("sequence-parallel", v)?;
        }
        if let Some(b) = &self.batching {
            t.batching = headroom_core::training::Batching::parse(b).map_err(|e| e.to_string())?;
        }
        if let Some(n) = self.mean_sample_tokens {
            t.mean_sample = n;
        }
        if let Some(b) = &self.reduce_bucket_size {
            t.reduce_bucket = headroom_core::training::parse_bucket(b).map_err(|e| e.to_string())?;
        }
        if let Some(v) = &self.overlap_comm {
            t.overlap_comm = Some(switch("overlap-comm", v)?);
        }
        if let Some(v) = &self.float8 {
            t.fp8 = switch("float8", v)?;
        }
        if let Some(v) = &self.dora {
            t.dora = switch("dora", v)?;
        }
        Ok(())
    }
}

/// `on`/`off` (and the usual spellings) of a switch flag.
fn switch(flag: &str, v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        other => Err(format!("invalid {flag}: `{other}` is not a switch; accepted: on off")),
    }
}

/// `--gpu-memory-utilization` as ten-thousandths.
fn utilization(u: f64) -> Result<u32, String> {
    headroom_core::vllm::utilization_of(u).ok_or_else(|| {
        format!(
            "invalid gpu-memory-utilization: {u} is out of range; vLLM accepts a share above 0 and at most 1"
        )
    })
}

/// A size in bytes: a plain integer (as vLLM takes it) or a number with GiB, GB, MiB or MB.
fn byte_size(t: &str) -> Result<u64, String> {
    let s = t.trim();
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "gib" | "g" => (1u64 << 30) as f64,
        "gb" => 1e9,
        "mib" | "m" => (1u64 << 20) as f64,
        "mb" => 1e6,
        _ => {
            return Err(format!(
                "invalid kv-cache-memory: `{t}` is not a size; write bytes, or a number with GiB, GB, MiB or MB"
            ));
        }
    };
    let n: f64 = num.parse().map_err(|_| {
        format!(
            "invalid kv-cache-memory: `{t}` is not a size; write bytes, or a number with GiB, GB, MiB or MB"
        )
    })?;
    let bytes = n * scale;
    if !(bytes.is_finite() && (1.0..1e15).contains(&bytes)) {
        return Err(format!("invalid kv-cache-memory: `{t}` is out of range"));
    }
    Ok(bytes as u64)
}

/// The model a pasted command names: its GGUF file when it is here, else the catalog model its
/// file name or tag names.
fn command_model(c: &headroom_core::command::Command) -> Result<ModelSource, String> {
    if let Some(path) = c.model.as_deref().filter(|p| p.ends_with(".gguf"))
        && std::path::Path::new(path).is_file()
    {
        let r = crate::files::read_gguf(std::path::Path::new(path))?;
        for n in &r.notices {
            eprintln!("note: {n}");
        }
        return Ok(ModelSource::Custom(Box::new(r.model)));
    }
    match (&c.catalog, &c.model) {
        (Some((id, _)), _) => Ok(ModelSource::Catalog(id.clone())),
        (None, Some(m)) => Err(format!(
            "the command's model `{m}` is neither a GGUF file here nor a catalog model (`headroom models` lists them): add --model ID or --gguf FILE"
        )),
        (None, None) => Err("the command names no model: add --model ID or --gguf FILE".into()),
    }
}

/// Reads a file the user named, refusing anything absurdly large for a config.
pub fn read_file(path: &PathBuf) -> Result<Vec<u8>, String> {
    const LIMIT: u64 = 64 << 20;
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    if meta.len() > LIMIT {
        return Err(format!("{} is {} bytes; a config.json is a few kilobytes", path.display(), meta.len()));
    }
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}
