//! The command line to run the scenario: the runtime's own flags, ready to copy (vLLM
//! `--max-model-len`, llama.cpp `-c` and `-ngl`, Ollama's context and parallelism, MLX, and the
//! training launchers' options).

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::catalog;
use crate::estimate::Estimate;
use crate::fit::{Fit, Verdict};
use crate::inference::Runtime;
use crate::precision::{KvDtype, WeightFormat};
use crate::scenario::{ModelSource, Scenario};
use crate::training::{Batching, Checkpointing, Framework, LossKernel, Mode, Offload, Optimizer};

/// The model's name as a runtime wants it: the Hugging Face repository for catalog models, else
/// a placeholder the user replaces.
fn repo(s: &Scenario) -> String {
    match &s.model {
        ModelSource::Catalog(id) => {
            catalog::model(id).map(|m| String::from(m.hf_repo)).unwrap_or_else(|_| id.clone())
        }
        ModelSource::Custom(c) => c.name.clone(),
        ModelSource::Params(_) => "your/model".into(),
    }
}

fn gguf_file(s: &Scenario, format: WeightFormat) -> String {
    if let ModelSource::Custom(c) = &s.model
        && let Some(f) = c.file.as_ref().and_then(|f| f.file_name.as_ref())
        && (s.weights.is_none() || s.weights == c.format)
    {
        // The file read, by its own name (the first part of a split model loads the rest).
        return f.rsplit('/').next().unwrap_or(f).into();
    }
    let base = match &s.model {
        ModelSource::Catalog(id) => id.clone(),
        _ => "model".into(),
    };
    format!("{base}.{}.gguf", format.id().trim_start_matches("gguf-").to_ascii_uppercase())
}

/// The commands that run this scenario with its runtime (one string per line), given the
/// estimate and, when a device was chosen, its fit (which may have picked offloaded layers).
pub fn commands(s: &Scenario, e: &Estimate, fit: Option<&Fit>) -> Vec<String> {
    let mut out = Vec::new();
    if s.mode.is_training() {
        training(s, &mut out);
        return out;
    }
    // No command for a runtime that refuses the model, or vLLM's tensor parallelism over GPUs
    // it refuses for it: it would only fail.
    let vllm_refuses = e.runtime == Runtime::Vllm
        && fit.and_then(|f| f.vllm.as_ref()).or(e.vllm.as_ref()).is_some_and(|b| b.tp_refused.is_some());
    if crate::loads::refusal(&e.notes).is_some() || vllm_refuses {
        return out;
    }
    // Nor a llama.cpp command for weights it has no type for: the GGUF file would be invented.
    if e.runtime == Runtime::LlamaCpp
        && !e.format.is_gguf()
        && !matches!(e.format, WeightFormat::Nvfp4 | WeightFormat::Nvfp4A16)
    {
        return out;
    }
    let ctx = s.context;
    let gpus = e.devices.max(1);
    match e.runtime {
        Runtime::Vllm => {
            let v = &s.vllm;
            // The longest request the cache holds when the asked one does not fit.
            let budget = fit.and_then(|f| f.vllm.as_ref()).or(e.vllm.as_ref());
            let len = match budget {
                // `--max-model-len auto` settles the length itself.
                _ if v.max_model_len_auto => String::from("auto"),
                Some(b) if !b.request_fits && b.longest_request > 0 => format!("{}", b.longest_request),
                _ => format!("{ctx}"),
            };
            let mut c = String::new();
            if let Some(g) = v.graph_estimate {
                c.push_str(&format!("VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS={} ", u8::from(g)));
            }
            c.push_str(&format!("vllm serve {} --max-model-len {len}", repo(s)));
            // A config that brings its own configuration class (`auto_map.AutoConfig`): vLLM
            // and SGLang build it from the repository's code only with `--trust-remote-code` when
            // neither transformers nor they know its `model_type` (InternLM2, Kimi K2), and the
            // flag changes nothing where they do.
            if e.model.checkpoint.remote_code {
                c.push_str(" --trust-remote-code");
            }
            // Rnj-1.5's block-local layers run on vLLM's Triton attention only (its layers pass a
            // look-back that FlashAttention and FlashInfer do not take), which vLLM does not pick
            // by itself.
            if e.model.checkpoint.class == "Rnj1ForCausalLM" {
                c.push_str(" --attention-backend TRITON_ATTN");
            }
            if gpus > 1 {
                c.push_str(&format!(" --tensor-parallel-size {gpus}"));
            }
            if let Some(u) = v.utilization {
                c.push_str(&format!(" --gpu-memory-utilization {}", f64::from(u) / 10_000.0));
            }
            for (flag, value) in [
                ("--max-num-seqs", v.max_num_seqs),
                ("--max-num-batched-tokens", v.max_num_batched_tokens),
                ("--block-size", v.block_size),
                ("--kv-cache-memory", v.kv_cache_memory),
            ] {
                if let Some(n) = value {
                    c.push_str(&format!(" {flag} {n}"));
                }
            }
            if v.enforce_eager {
                c.push_str(" --enforce-eager");
            }
            if v.cpu_offload > 0 {
                c.push_str(&format!(" --cpu-offload-gb {}", v.cpu_offload as f64 / (1u64 << 30) as f64));
            }
            if let Some(sp) = &v.speculative {
                c.push_str(&format!(" --speculative-config '{}'", sp.json()));
            }
            for (flag, b) in [
                ("--mamba-cache-dtype", v.mamba_cache_bytes),
                ("--mamba-ssm-cache-dtype", v.mamba_ssm_cache_bytes),
            ] {
                if let Some(b) = b {
                    c.push_str(&format!(" {flag} {}", crate::vllm::mamba_dtype_id(b)));
                }
            }
            if let Some(p) = v.pipeline_parallel.filter(|p| *p > 1) {
                c.push_str(&format!(" --pipeline-parallel-size {p}"));
            }
            if let Some(n) = v.max_cudagraph_capture_size.filter(|_| !v.enforce_eager) {
                c.push_str(&format!(" --max-cudagraph-capture-size {n}"));
            }
            if let Some(d) = v.decode_context_parallel.filter(|d| *d > 1) {
                c.push_str(&format!(" --decode-context-parallel-size {d}"));
            }
            if let Some(d) = v.data_parallel {
                c.push_str(&format!(" --data-parallel-size {d}"));
            }
            if v.expert_parallel {
                c.push_str(" --enable-expert-parallel");
            }
            match v.prefix_caching {
                Some(true) => c.push_str(" --enable-prefix-caching"),
                Some(false) => c.push_str(" --no-enable-prefix-caching"),
                None => {}
            }
            match v.async_scheduling {
                Some(true) => c.push_str(" --async-scheduling"),
                Some(false) => c.push_str(" --no-async-scheduling"),
                None => {}
            }
            if v.version >= crate::vllm::VllmVersion::EXTENSIBLE_KV {
                match v.extensible_kv_cache {
                    Some(true) => c.push_str(" --enable-extensible-kv-cache"),
                    Some(false) => c.push_str(" --no-enable-extensible-kv-cache"),
                    None => {}
                }
            }
            if v.mm_encoder_data && e.has_encoders() && !s.text_only {
                c.push_str(" --mm-encoder-tp-mode data");
            }
            match s.kv {
                KvDtype::Fp8 => c.push_str(" --kv-cache-dtype fp8"),
                KvDtype::F32 => c.push_str(" --kv-cache-dtype float32"),
                _ => {}
            }
            c.push_str(torch_format_flag(e.format));
            if s.text_only && e.has_encoders() {
                // vLLM's text-only mode: every modality the model reads limited to 0 skips
                // loading its encoders.
                c.push_str(&format!(" --limit-mm-per-prompt '{}'", mm_limits_off(&e.model.inputs)));
            }
            out.push(c);
        }
        Runtime::LlamaCpp | Runtime::Cpu => {
            let ngl = match fit {
                Some(f) if f.verdict == Verdict::Cpu => 0,
                Some(f) if f.verdict == Verdict::Offload && f.cpu_moe.is_some() => 999,
                Some(f) if f.verdict == Verdict::Offload => f.gpu_layers.unwrap_or(0),
                _ => s.gpu_layers.unwrap_or(999),
            };
            let ngl = if e.runtime == Runtime::Cpu { 0 } else { ngl };
            let mut c = format!(
                "llama-server -m {} -c {} -np {} -ngl {ngl}",
                gguf_file(s, e.format),
                ctx * s.batch,
                s.batch
            );
            if !s.text_only && e.memory.term(crate::estimate::TermKind::Encoders).is_some() {
                let name = match &s.model {
                    ModelSource::Custom(m) => m.file.as_ref().and_then(|f| f.mmproj_name.clone()),
                    _ => None,
                };
                c.push_str(&format!(" --mmproj {}", name.as_deref().unwrap_or("mmproj-F16.gguf")));
            } else if s.text_only && e.has_encoders() {
                c.push_str(" --no-mmproj");
            }
            // llama.cpp refuses a quantized V cache without flash attention (`-fa off -ctv q8_0`
            // fails at context creation; the estimate refuses it too): a quantized V turns it on.
            let v_type = s.llama.v_type.unwrap_or(s.kv);
            let quantized_v = v_type.is_quantized();
            c.push_str(if s.flash_attention || quantized_v { " -fa on" } else { " -fa off" });
            for (flag, t) in [("-ctk", s.kv), ("-ctv", v_type)] {
                if let Some(name) = ggml_cache_type(t).filter(|n| *n != "f16") {
                    c.push_str(&format!(" {flag} {name}"));
                }
            }
            let d = crate::scenario::LlamaOptions::default();
            if s.llama.batch != d.batch {
                c.push_str(&format!(" -b {}", s.llama.batch));
            }
            if s.llama.ubatch != d.ubatch {
                c.push_str(&format!(" -ub {}", s.llama.ubatch));
            }
            if s.llama.swa_full {
                c.push_str(" --swa-full");
            }
            if s.llama.unified {
                c.push_str(" --kv-unified");
            }
            match fit.and_then(|f| f.cpu_moe).or(s.llama.cpu_moe) {
                Some(crate::scenario::ALL_LAYERS) => c.push_str(" --cpu-moe"),
                Some(n) => c.push_str(&format!(" --n-cpu-moe {n}")),
                None => {}
            }
            if let Some(d) = &s.llama.draft {
                let draft = Scenario { model: ModelSource::Catalog(d.clone()), ..Scenario::default() };
                c.push_str(&format!(" -md {} -ngld 999", gguf_file(&draft, e.format)));
                if s.llama.draft_max != crate::scenario::LlamaOptions::default().draft_max {
                    c.push_str(&format!(" --draft-max {}", s.llama.draft_max));
                }
            }
            if gpus > 1 && e.runtime != Runtime::Cpu {
                c.push_str(" --split-mode layer");
                if !s.llama.tensor_split.is_empty() {
                    let shares = crate::scenario::format_tensor_split(&s.llama.tensor_split);
                    c.push_str(&format!(" --tensor-split {shares}"));
                }
            }
            out.push(c);
        }
        Runtime::Ollama => {
            // Ollama quantizes the KV cache only with flash attention on.
            let quantized = matches!(s.kv, KvDtype::Q8_0 | KvDtype::Q4_0);
            let kv_type =
                if quantized { format!(" OLLAMA_KV_CACHE_TYPE={}", s.kv.id()) } else { String::new() };
            out.push(format!(
                "OLLAMA_CONTEXT_LENGTH={ctx} OLLAMA_NUM_PARALLEL={} OLLAMA_FLASH_ATTENTION={}{kv_type} ollama serve",
                s.batch,
                u8::from(s.flash_attention || quantized)
            ));
        }
        Runtime::Sglang => {
            let o = &s.sglang;
            let mut c =
                format!("python -m sglang.launch_server --model-path {} --context-length {ctx}", repo(s));
            if e.model.checkpoint.remote_code {
                c.push_str(" --trust-remote-code");
            }
            if gpus > 1 {
                c.push_str(&format!(" --tp {gpus}"));
            }
            if let Some(f) = o.mem_fraction_static {
                c.push_str(&format!(" --mem-fraction-static {}", f64::from(f) / 10_000.0));
            }
            for (flag, value) in [
                ("--chunked-prefill-size", o.chunked_prefill_size),
                ("--cuda-graph-max-bs", o.cuda_graph_max_bs),
                ("--page-size", o.page_size),
            ] {
                if let Some(n) = value {
                    c.push_str(&format!(" {flag} {n}"));
                }
            }
            if o.disable_cuda_graph {
                c.push_str(" --disable-cuda-graph");
            }
            for (flag, value) in [
                ("--swa-full-tokens-ratio", o.swa_full_tokens_ratio),
                ("--mamba-full-memory-ratio", o.mamba_full_memory_ratio),
            ] {
                if let Some(r) = value {
                    c.push_str(&format!(" {flag} {}", f64::from(r) / 10_000.0));
                }
            }
            if let Some(n) = o.max_mamba_cache_size {
                c.push_str(&format!(" --max-mamba-cache-size {n}"));
            }
            if o.disable_hybrid_swa_memory {
                c.push_str(" --disable-hybrid-swa-memory");
            }
            match s.kv {
                KvDtype::Fp8 => c.push_str(" --kv-cache-dtype fp8_e4m3"),
                KvDtype::Bf16 => c.push_str(" --kv-cache-dtype bf16"),
                _ => {}
            }
            c.push_str(torch_format_flag(e.format));
            if s.text_only && e.has_encoders() {
                // SGLang's text-only mode: the encoders are not loaded, nor sized for.
                c.push_str(" --language-model-only");
            }
            out.push(c);
        }
        Runtime::Mlx => {
            out.push(format!("mlx_lm.server --model {} --max-kv-size {ctx}", repo(s)));
        }
        Runtime::Transformers => {
            transformers(s, e, &mut out);
        }
    }
    // On a Mac, macOS lets the GPU wire only part of the memory; the limit can be raised.
    if let Some(f) = fit
        && f.kind == catalog::device::DeviceKind::Apple
        && f.verdict != Verdict::No
    {
        let mib = crate::ops::ceil(e.memory.total.as_mib()) as u64 + 2048;
        out.push(format!("sudo sysctl iogpu.wired_limit_mb={mib}  # if macOS refuses the memory"));
    }
    out
}

/// vLLM's and SGLang's flag for a weight format (`--quantization …`, `--dtype …`); empty for a
/// format the checkpoint's config states itself.
fn torch_format_flag(f: WeightFormat) -> &'static str {
    match f {
        WeightFormat::Fp8 => " --quantization fp8",
        WeightFormat::Awq { .. } => " --quantization awq",
        WeightFormat::Gptq { .. } => " --quantization gptq",
        WeightFormat::Nf4 { .. } => " --quantization bitsandbytes",
        WeightFormat::F16 => " --dtype float16",
        WeightFormat::Bf16 => " --dtype bfloat16",
        _ => "",
    }
}

/// llama.cpp's name for a cache type (`-ctk`/`-ctv`); FP8 has none there.
fn ggml_cache_type(t: KvDtype) -> Option<&'static str> {
    match t {
        KvDtype::F32 => Some("f32"),
        KvDtype::F16 => Some("f16"),
        KvDtype::Bf16 => Some("bf16"),
        KvDtype::Q8_0 => Some("q8_0"),
        KvDtype::Q4_0 => Some("q4_0"),
        KvDtype::Fp8 => None,
    }
}

fn transformers(s: &Scenario, e: &Estimate, out: &mut Vec<String>) {
    let dtype = match e.format {
        WeightFormat::F32 => "torch.float32",
        WeightFormat::F16 => "torch.float16",
        _ => "torch.bfloat16",
    };
    let quant = match e.format {
        WeightFormat::Nf4 { double_quant } => format!(
            ", quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", bnb_4bit_use_double_quant={})",
            if double_quant { "True" } else { "False" }
        ),
        WeightFormat::Int8 => ", quantization_config=BitsAndBytesConfig(load_in_8bit=True)".into(),
        _ => String::new(),
    };
    let eager_only = crate::loads::transformers_eager_only(&e.model.checkpoint);
    let attn = if s.flash_attention && !eager_only { "sdpa" } else { "eager" };
    // A model whose encoder is loaded (Llama 3.2 Vision, Qwen-VL…) loads through its
    // image-text class; the causal-LM class builds the language model alone.
    let with_encoder = e.memory.term(crate::breakdown::TermKind::Encoders).is_some_and(|t| t.bytes.get() > 0);
    let class = if with_encoder { "AutoModelForImageTextToText" } else { "AutoModelForCausalLM" };
    // A model type transformers does not build itself loads from the repository's own code.
    let c = &e.model.checkpoint;
    let remote =
        if c.remote_code && !crate::loads::transformers_native(c) { ", trust_remote_code=True" } else { "" };
    out.push(format!(
        "{class}.from_pretrained(\"{}\", torch_dtype={dtype}, device_map=\"auto\", attn_implementation=\"{attn}\"{quant}{remote})",
        repo(s)
    ));
}

fn training(s: &Scenario, out: &mut Vec<String>) {
    match s.train.framework {
        Framework::Unsloth => unsloth(s, out),
        Framework::Torchtune => torchtune(s, out),
        Framework::Litgpt => litgpt(s, out),
        Framework::LlamaFactory => llama_factory(s, out),
        Framework::Axolotl => axolotl(s, out),
        _ => trl(s, out),
    }
    // Checkpointing every k-th layer is torchtune's distributed full recipe's `ac_option` (set
    // above) and torchtitan's `selective_ac_option`; the others checkpoint every layer.
    let every = s.train.ckpt_every;
    if every > 1
        && s.checkpointing.recomputes()
        && !(s.train.framework == Framework::Torchtune && torchtune_ac_option(s))
    {
        out.push(format!(
            "# checkpointing one layer in {every}: torchtune's full_finetune_distributed (ac_mode=selective ac_option={every}) and torchtitan (activation_checkpoint mode \"selective\", selective_ac_option \"{every}\") take it; this command checkpoints every layer"
        ));
    }
}

/// Whether torchtune's recipe for the scenario takes `ac_mode`/`ac_option` (only
/// `full_finetune_distributed` reads them).
fn torchtune_ac_option(s: &Scenario) -> bool {
    s.mode == Mode::Full && s.gpus > 1
}

fn hf_optim(o: Optimizer) -> &'static str {
    match o {
        Optimizer::AdamW => "adamw_torch_fused",
        Optimizer::AdamW8bit => "adamw_bnb_8bit",
        Optimizer::PagedAdamW => "paged_adamw_32bit",
        Optimizer::PagedAdamW8bit => "paged_adamw_8bit",
        Optimizer::Sgd | Optimizer::SgdMomentum => "sgd",
        Optimizer::Adafactor => "adafactor",
        Optimizer::Lion => "lion_32bit",
    }
}

/// The LoRA dropout a command writes: 0.05 (the common recipe value) when on.
fn dropout(s: &Scenario) -> &'static str {
    if s.train.lora_dropout { "0.05" } else { "0" }
}

/// TRL's `sft.py` (the Trainer's arguments), launched by accelerate on several GPUs, with
/// DeepSpeed's or FSDP's configuration beside it.
fn trl(s: &Scenario, out: &mut Vec<String>) {
    let mut c = format!(
        "--per_device_train_batch_size {} --max_length {} --optim {} --bf16",
        s.batch,
        s.context,
        hf_optim(s.optimizer)
    );
    if s.train.grad_accum > 1 {
        c.push_str(&format!(" --gradient_accumulation_steps {}", s.train.grad_accum));
    }
    c.push_str(if s.checkpointing.recomputes() {
        " --gradient_checkpointing"
    } else {
        " --gradient_checkpointing False"
    });
    if s.train.loss == LossKernel::Fused {
        c.push_str(" --use_liger_kernel");
    }
    match s.train.batching {
        Batching::Padded => {}
        Batching::Packed => c.push_str(" --packing"),
        Batching::PaddingFree => c.push_str(" --padding_free"),
    }
    if s.epochs != 1 {
        c.push_str(&format!(" --num_train_epochs {}", s.epochs));
    }
    if s.mode != Mode::Full {
        c.push_str(&format!(
            " --use_peft --lora_r {} --lora_alpha {} --lora_dropout {} --lora_target_modules {}",
            s.lora_rank,
            2 * s.lora_rank,
            dropout(s),
            s.lora_targets.id()
        ));
        if s.mode == Mode::Qlora {
            c.push_str(" --load_in_4bit --bnb_4bit_quant_type nf4 --use_bnb_nested_quant");
        }
    }
    let fsdp = s.train.framework == Framework::Fsdp;
    let launcher = if s.gpus > 1 || fsdp {
        format!(
            "accelerate launch --num_processes {}{}",
            s.gpus,
            if fsdp {
                format!(
                    " --use_fsdp --fsdp_version 2 --fsdp_offload_params {}",
                    if s.offload == Offload::None { "false" } else { "true" }
                )
            } else {
                String::new()
            }
        )
    } else {
        "python".into()
    };
    if s.train.device_map {
        // One process: transformers places the layers over the GPUs.
        out.push(format!(
            "python sft.py --model_name_or_path {} {c} --model_init_kwargs '{{\"device_map\": \"auto\"}}'",
            repo(s)
        ));
        return;
    }
    out.push(format!("{launcher} sft.py --model_name_or_path {} {c}", repo(s)));
    if s.zero > 0 && !fsdp {
        let offload = match s.offload {
            Offload::None => "",
            Offload::Optimizer => ", \"offload_optimizer\": {\"device\": \"cpu\"}",
            Offload::OptimizerAndParams => {
                ", \"offload_optimizer\": {\"device\": \"cpu\"}, \"offload_param\": {\"device\": \"cpu\"}"
            }
        };
        out.push(format!("# DeepSpeed: {{\"zero_optimization\": {{\"stage\": {}{offload}}}, \"bf16\": {{\"enabled\": true}}}}", s.zero));
    }
}

/// Unsloth's Python: its loader, its LoRA and its trainer arguments.
fn unsloth(s: &Scenario, out: &mut Vec<String>) {
    let lora = s.mode != Mode::Full;
    out.push("from unsloth import FastLanguageModel".into());
    out.push(format!(
        "model, tokenizer = FastLanguageModel.from_pretrained(\"{}\", max_seq_length={}, load_in_4bit={}, full_finetuning={})",
        repo(s),
        s.context,
        if s.mode == Mode::Qlora { "True" } else { "False" },
        if lora { "False" } else { "True" }
    ));
    if lora {
        out.push(format!(
            "model = FastLanguageModel.get_peft_model(model, r={}, lora_alpha={}, lora_dropout={}, target_modules={}, use_gradient_checkpointing={})",
            s.lora_rank,
            s.lora_rank,
            dropout(s),
            python_targets(s),
            match s.checkpointing {
                Checkpointing::Offloaded => "\"unsloth\"",
                Checkpointing::None => "False",
                _ => "True",
            }
        ));
    }
    out.push(format!(
        "# SFTConfig(per_device_train_batch_size={}, gradient_accumulation_steps={}, optim=\"{}\", bf16=True)",
        s.batch,
        s.train.grad_accum,
        hf_optim(s.optimizer).replace("adamw_bnb_8bit", "adamw_8bit")
    ));
}

/// The module names peft takes for the targets.
fn python_targets(s: &Scenario) -> String {
    use crate::training::{LoraTarget, LoraTargets};
    let names: Vec<&str> = match &s.lora_targets {
        LoraTargets::AllLinear => {
            vec!["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
        }
        LoraTargets::Some(list) => list
            .iter()
            .map(|t| match t {
                LoraTarget::Q => "q_proj",
                LoraTarget::K => "k_proj",
                LoraTarget::V => "v_proj",
                LoraTarget::O => "o_proj",
                LoraTarget::Qkv => "qkv_proj",
                LoraTarget::Gate => "gate_proj",
                LoraTarget::Up => "up_proj",
                LoraTarget::Down => "down_proj",
                LoraTarget::GateUp => "gate_up_proj",
                LoraTarget::Head => "lm_head",
                LoraTarget::Embed => "embed_tokens",
            })
            .collect(),
    };
    format!("[{}]", names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", "))
}

/// torchtune's recipes with config overrides (the config named after the model's family is the
/// user's to pick: `tune ls` lists them).
fn torchtune(s: &Scenario, out: &mut Vec<String>) {
    let distributed = s.gpus > 1;
    let recipe = match (s.mode, distributed) {
        (Mode::Full, false) => "full_finetune_single_device",
        (Mode::Full, true) => "full_finetune_distributed",
        (_, false) => "lora_finetune_single_device",
        (_, true) => "lora_finetune_distributed",
    };
    let kind = match s.mode {
        Mode::Full => "full",
        Mode::Lora => "lora",
        _ => "qlora",
    };
    let launch =
        if distributed { format!("tune run --nproc_per_node {} ", s.gpus) } else { "tune run ".into() };
    let mut c = format!(
        "{launch}{recipe} --config <model>/<size>_{kind}{} batch_size={} tokenizer.max_seq_len={} gradient_accumulation_steps={} enable_activation_checkpointing={} enable_activation_offloading={} compile={}",
        if distributed { "" } else { "_single_device" },
        s.batch,
        s.context,
        s.train.grad_accum,
        py_bool(s.checkpointing.recomputes() && !(s.train.ckpt_every > 1 && torchtune_ac_option(s))),
        py_bool(s.train.activation_offload),
        py_bool(s.train.compile),
    );
    if s.train.ckpt_every > 1 && s.checkpointing.recomputes() && torchtune_ac_option(s) {
        c.push_str(&format!(" ac_mode=selective ac_option={}", s.train.ckpt_every));
    }
    if s.mode == Mode::Full {
        c.push_str(&format!(" optimizer_in_bwd={}", py_bool(s.train.optimizer_in_backward)));
    } else {
        c.push_str(&format!(" model.lora_rank={} model.lora_dropout={}", s.lora_rank, dropout(s)));
    }
    out.push(c);
    out.push(format!("# model: {} (tune ls lists the configs of its family)", repo(s)));
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// LitGPT's command line.
fn litgpt(s: &Scenario, out: &mut Vec<String>) {
    let (cmd, extra) = match s.mode {
        Mode::Full => ("finetune_full", String::new()),
        Mode::Lora => ("finetune_lora", format!(" --lora_r {} --lora_dropout {}", s.lora_rank, dropout(s))),
        _ => (
            "finetune_lora",
            format!(" --lora_r {} --lora_dropout {} --quantize bnb.nf4-dq", s.lora_rank, dropout(s)),
        ),
    };
    let precision = match s.precision {
        crate::training::TrainPrecision::Amp | crate::training::TrainPrecision::Mixed => "bf16-mixed",
        crate::training::TrainPrecision::Fp32 => "32-true",
        _ => "bf16-true",
    };
    out.push(format!(
        "litgpt {cmd} {} --precision {precision} --devices {} --train.micro_batch_size {} --train.global_batch_size {} --train.max_seq_length {}{extra}",
        repo(s),
        s.gpus,
        s.batch,
        s.batch.saturating_mul(s.train.grad_accum).saturating_mul(s.gpus),
        s.context
    ));
}

/// LLaMA-Factory's command line.
fn llama_factory(s: &Scenario, out: &mut Vec<String>) {
    let mut c = format!(
        "llamafactory-cli train --stage sft --do_train --model_name_or_path {} --finetuning_type {} --per_device_train_batch_size {} --gradient_accumulation_steps {} --cutoff_len {} --optim {} --bf16",
        repo(s),
        if s.mode == Mode::Full { "full" } else { "lora" },
        s.batch,
        s.train.grad_accum,
        s.context,
        hf_optim(s.optimizer)
    );
    if s.mode != Mode::Full {
        c.push_str(&format!(" --lora_rank {} --lora_dropout {} --lora_target all", s.lora_rank, dropout(s)));
    }
    if s.mode == Mode::Qlora {
        c.push_str(" --quantization_bit 4 --double_quantization");
    }
    if !s.checkpointing.recomputes() {
        c.push_str(" --disable_gradient_checkpointing");
    }
    if s.train.loss == LossKernel::Fused {
        c.push_str(" --enable_liger_kernel");
    }
    match s.train.batching {
        Batching::Padded => {}
        Batching::Packed => c.push_str(" --packing true"),
        Batching::PaddingFree => c.push_str(" --neat_packing true"),
    }
    out.push(c);
}

/// Axolotl's YAML, then its command.
fn axolotl(s: &Scenario, out: &mut Vec<String>) {
    out.push(format!("# config.yml: base_model: {}", repo(s)));
    match s.mode {
        Mode::Full => {}
        Mode::Lora => out.push(format!(
            "#   adapter: lora, lora_r: {}, lora_dropout: {}, lora_target_linear: true",
            s.lora_rank,
            dropout(s)
        )),
        _ => out.push(format!(
            "#   adapter: qlora, load_in_4bit: true, lora_r: {}, lora_dropout: {}, lora_target_linear: true",
            s.lora_rank,
            dropout(s)
        )),
    }
    out.push(format!(
        "#   sequence_len: {}, micro_batch_size: {}, gradient_accumulation_steps: {}, gradient_checkpointing: {}, optimizer: {}, bf16: auto, flash_attention: true{}{}",
        s.context,
        s.batch,
        s.train.grad_accum,
        if s.checkpointing.recomputes() { "true" } else { "false" },
        hf_optim(s.optimizer),
        if s.train.loss == LossKernel::Fused { ", plugins: [axolotl.integrations.liger.LigerPlugin]" } else { "" },
        // Axolotl's sample packing keeps attention within each sample (variable-length kernels).
        if s.train.batching == Batching::Padded { "" } else { ", sample_packing: true" }
    ));
    out.push(if s.gpus > 1 {
        format!("axolotl train config.yml --num-processes {}", s.gpus)
    } else {
        "axolotl train config.yml".into()
    });
}

/// vLLM's `--limit-mm-per-prompt` JSON with every modality of `inputs` at 0 (images come with
/// video; a model whose inputs are unknown gets the image ones).
fn mm_limits_off(inputs: &[crate::model::Modality]) -> String {
    use crate::model::Modality;
    let mut parts: Vec<&str> = Vec::new();
    if inputs.is_empty() || inputs.contains(&Modality::Image) {
        parts.extend([r#""image": 0"#, r#""video": 0"#]);
    }
    if inputs.contains(&Modality::Audio) {
        parts.push(r#""audio": 0"#);
    }
    format!("{{{}}}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::estimate;

    #[test]
    fn vllm_and_llama_cpp_flags() {
        let s = Scenario {
            runtime: Some(Runtime::Vllm),
            context: 8192,
            batch: 16,
            gpus: 2,
            ..Scenario::catalog("llama-3.1-8b")
        };
        let e = estimate(&s).unwrap();
        let c = commands(&s, &e, None);
        assert_eq!(
            c[0],
            "vllm serve meta-llama/Llama-3.1-8B --max-model-len 8192 --tensor-parallel-size 2 --dtype bfloat16"
        );
        let s = Scenario {
            weights: WeightFormat::parse("q4_k_m").ok(),
            kv: KvDtype::Q8_0,
            context: 4096,
            batch: 2,
            ..Scenario::catalog("qwen3-8b")
        };
        let e = estimate(&s).unwrap();
        let c = commands(&s, &e, None);
        assert_eq!(
            c[0],
            "llama-server -m qwen3-8b.Q4_K_M.gguf -c 8192 -np 2 -ngl 999 -fa on -ctk q8_0 -ctv q8_0"
        );
    }

    /// llama.cpp's context parameters reach its command as its own flags, defaults left out.
    #[test]
    fn llama_cpp_commands_carry_the_context_parameters() {
        let s = Scenario {
            weights: WeightFormat::parse("q4_k_m").ok(),
            kv: KvDtype::Q8_0,
            batch: 2,
            llama: crate::scenario::LlamaOptions {
                batch: 1024,
                ubatch: 256,
                v_type: Some(KvDtype::F16),
                swa_full: true,
                unified: true,
                cpu_moe: None,
                draft: Some("llama-3.2-1b".into()),
                draft_max: 8,
                tensor_split: Vec::new(),
                num_batch: None,
                with_gpus: Vec::new(),
            },
            ..Scenario::catalog("llama-3.1-8b")
        };
        let e = estimate(&s).unwrap();
        let c = commands(&s, &e, None);
        assert!(
            c[0].ends_with(
                "-fa on -ctk q8_0 -b 1024 -ub 256 --swa-full --kv-unified -md llama-3.2-1b.Q4_K_M.gguf -ngld 999 --draft-max 8"
            ),
            "{}",
            c[0]
        );
        let plain =
            Scenario { weights: WeightFormat::parse("q4_k_m").ok(), ..Scenario::catalog("llama-3.1-8b") };
        let c = commands(&plain, &estimate(&plain).unwrap(), None);
        assert!(
            !c[0].contains("-ub") && !c[0].contains("-ctk") && !c[0].contains("--kv-unified"),
            "{}",
            c[0]
        );
    }

    /// llama.cpp's own rule: a quantized V cache needs flash attention. No generated command
    /// asks for both `-fa off` and a quantized `-ctv`, whatever the scenario says.
    #[test]
    fn llama_cpp_commands_never_quantize_v_without_flash_attention() {
        for kv in [KvDtype::F16, KvDtype::Q8_0, KvDtype::Q4_0] {
            for flash_attention in [false, true] {
                let s = Scenario {
                    weights: WeightFormat::parse("q4_k_m").ok(),
                    kv,
                    flash_attention,
                    ..Scenario::catalog("llama-3.1-8b")
                };
                let ollama = Scenario { runtime: Some(Runtime::Ollama), ..s.clone() };
                let e = match estimate(&s) {
                    Ok(e) => e,
                    // llama.cpp refuses the context, and so does the estimate, saying why.
                    Err(err) => {
                        assert!(kv.is_quantized() && !flash_attention, "{err}");
                        assert!(alloc::format!("{err}").contains("flash attention"), "{err}");
                        continue;
                    }
                };
                let oe = estimate(&ollama).unwrap();
                for c in commands(&ollama, &oe, None) {
                    assert!(
                        !(c.contains("OLLAMA_FLASH_ATTENTION=0") && c.contains("KV_CACHE_TYPE=q")),
                        "{c}"
                    );
                }
                for c in commands(&s, &e, None) {
                    assert!(!(c.contains("-fa off") && c.contains("-ctv q")), "{c}");
                    if c.starts_with("llama-server") {
                        assert!(
                            c.contains(if flash_attention || kv != KvDtype::F16 {
                                "-fa on"
                            } else {
                                "-fa off"
                            }),
                            "{c}"
                        );
                    }
                }
            }
        }
    }

    /// A config that brings its own configuration class gets `--trust-remote-code` in the vLLM and
    /// SGLang commands, and the flag reads back as a known one; others get none.
    #[test]
    fn remote_configuration_code_is_trusted_where_the_config_asks() {
        for (id, wanted) in
            [("internlm2.5-7b", true), ("kimi-k2", true), ("llama-3.1-8b", false), ("qwen3-8b", false)]
        {
            for runtime in [Runtime::Vllm, Runtime::Sglang] {
                let s = Scenario { runtime: Some(runtime), ..Scenario::catalog(id) };
                let e = estimate(&s).unwrap();
                let c = &commands(&s, &e, None)[0];
                assert_eq!(c.contains(" --trust-remote-code"), wanted, "{c}");
                let back = crate::command::parse(c).unwrap();
                assert!(back.ignored.is_empty(), "{c}: {:?}", back.ignored);
            }
        }
    }

    /// transformers loads a model type of its own without remote code, and another one (InternLM2's)
    /// from the repository's code with `trust_remote_code=True`.
    #[test]
    fn transformers_trusts_remote_code_only_for_types_it_lacks() {
        for (id, wanted) in [("internlm2.5-7b", true), ("llama-3.1-8b", false), ("nemotron-h-56b", false)] {
            let s = Scenario { runtime: Some(Runtime::Transformers), ..Scenario::catalog(id) };
            let e = estimate(&s).unwrap();
            let c = &commands(&s, &e, None)[0];
            assert!(c.starts_with("AutoModelForCausalLM.from_pretrained("), "{c}");
            assert_eq!(c.contains(", trust_remote_code=True)"), wanted, "{c}");
        }
    }

    /// A text-only vLLM command limits every modality the model reads to 0, and reads back as
    /// text only: images (with video) for a vision model, audio for Voxtral.
    #[test]
    fn text_only_vllm_commands_name_the_models_inputs() {
        for (id, json) in
            [("qwen3-vl-8b", r#"'{"image": 0, "video": 0}'"#), ("voxtral-mini-3b", r#"'{"audio": 0}'"#)]
        {
            let s = Scenario { runtime: Some(Runtime::Vllm), text_only: true, ..Scenario::catalog(id) };
            let e = estimate(&s).unwrap();
            let c = commands(&s, &e, None).into_iter().find(|c| c.starts_with("vllm serve")).unwrap();
            assert!(c.contains(&alloc::format!("--limit-mm-per-prompt {json}")), "{c}");
            assert!(crate::command::parse(&c).unwrap().text_only, "{c}");
        }
        // SGLang's: `--language-model-only`, read back as text only.
        let s =
            Scenario { runtime: Some(Runtime::Sglang), text_only: true, ..Scenario::catalog("qwen3-vl-8b") };
        let e = estimate(&s).unwrap();
        let c = commands(&s, &e, None).into_iter().find(|c| c.contains("sglang")).unwrap();
        assert!(c.ends_with(" --language-model-only") && crate::command::parse(&c).unwrap().text_only, "{c}");
    }

    #[test]
    fn training_flags() {
        let s = Scenario {
            mode: Mode::Qlora,
            checkpointing: Checkpointing::Full,
            gpus: 2,
            zero: 2,
            ..Scenario::catalog("llama-3.1-8b")
        };
        let e = estimate(&s).unwrap();
        let c = commands(&s, &e, None);
        assert!(c[0].starts_with(
            "accelerate launch --num_processes 2 sft.py --model_name_or_path meta-llama/Llama-3.1-8B"
        ));
        assert!(c[0].contains("--gradient_checkpointing") && c[0].contains("--load_in_4bit"));
        assert!(c[1].contains("\"stage\": 2"));
    }

    /// Each framework's own command, carrying the knobs it has names for.
    #[test]
    fn framework_commands() {
        use crate::training::Framework;
        let run = |fw: Framework, mode: Mode| {
            let mut s = Scenario { mode, context: 2048, batch: 2, ..Scenario::catalog("llama-3.1-8b") };
            s.apply_framework(fw);
            s.train.grad_accum = 4;
            let e = estimate(&s).unwrap();
            commands(&s, &e, None).join("\n")
        };
        let t = run(Framework::Torchtune, Mode::Lora);
        assert!(t.starts_with("tune run lora_finetune_single_device --config <model>/<size>_lora_single_device batch_size=2 tokenizer.max_seq_len=2048 gradient_accumulation_steps=4"), "{t}");
        assert!(run(Framework::Torchtune, Mode::Full).contains("optimizer_in_bwd=True"));
        let u = run(Framework::Unsloth, Mode::Qlora);
        assert!(
            u.contains("load_in_4bit=True") && u.contains("use_gradient_checkpointing=\"unsloth\""),
            "{u}"
        );
        let l = run(Framework::Litgpt, Mode::Qlora);
        assert!(l.contains("--quantize bnb.nf4-dq") && l.contains("--train.global_batch_size 8"), "{l}");
        let f = run(Framework::LlamaFactory, Mode::Lora);
        assert!(f.starts_with("llamafactory-cli train") && f.contains("--lora_dropout 0 "), "{f}");
        let a = run(Framework::Axolotl, Mode::Qlora);
        assert!(a.contains("adapter: qlora") && a.ends_with("axolotl train config.yml"), "{a}");
        let h = run(Framework::Trl, Mode::Lora);
        assert!(
            h.contains("--gradient_accumulation_steps 4 --gradient_checkpointing")
                && h.contains("--lora_dropout 0.05"),
            "{h}"
        );
        let mut s = Scenario { mode: Mode::Full, gpus: 8, ..Scenario::catalog("llama-3.1-8b") };
        s.apply_framework(Framework::Fsdp);
        s.offload = Offload::OptimizerAndParams;
        let e = estimate(&s).unwrap();
        let c = commands(&s, &e, None).join("\n");
        assert!(
            c.contains("--use_fsdp --fsdp_version 2 --fsdp_offload_params true") && !c.contains("DeepSpeed"),
            "{c}"
        );
    }
}
