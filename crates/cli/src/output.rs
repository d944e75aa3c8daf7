//! Printing an estimate: the JSON of the contract and a readable table.

use std::fmt::Write;

use headroom_core::catalog;
use headroom_core::estimate::{Estimate, MemoryKeys, TermKind};
use headroom_core::model::{LayerSummary, ParamBreakdown};
use headroom_core::text::{Lang, Msg, format_int, format_size};
use headroom_core::{Scenario, share};
use serde::Serialize;

#[derive(Serialize)]
struct Json<'a> {
    schema: u32,
    model: JsonModel<'a>,
    memory: MemoryKeys,
    trainable_params: u64,
    disk: JsonDisk,
    link: String,
    format: String,
    runtime: &'static str,
    devices: u64,
    host: MemoryKeys,
    weights_total: u64,
    weights_exact: bool,
    kv_cache_total: u64,
    kv_bytes_per_token: u64,
    compute: JsonCompute,
    #[serde(skip_serializing_if = "Option::is_none")]
    training: Option<JsonTraining>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fit: Option<JsonFit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speed: Option<JsonSpeed>,
    breakdown: Vec<JsonTerm>,
    notes: Vec<String>,
    warnings: Vec<String>,
    state_bytes_per_sequence: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    llama_cpp: Option<headroom_core::estimate::LlamaCppBuffers>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    llama_gpus: Vec<JsonGpuShare>,
    /// transformers' device_map split between one GPU and system RAM (sizes in bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    device_map: Option<headroom_core::estimate::DeviceMap>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vllm: Option<JsonVllm>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sglang: Option<JsonSglang>,
    /// Where the chosen runtime does not run it entirely and llama.cpp would do better there.
    #[serde(skip_serializing_if = "Option::is_none")]
    better_runtime: Option<JsonFit>,
    /// Published measurements for this model, format and device, each with the estimate at its
    /// own setting.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    measured: Vec<JsonMeasured>,
}

/// A published measurement beside the estimate for its setting.
#[derive(Serialize)]
struct JsonMeasured {
    phase: &'static str,
    test: String,
    tokens_per_s: f64,
    estimated_tokens_per_s: Option<f64>,
    runtime: &'static str,
    build: &'static str,
    hardware: &'static str,
    date: &'static str,
    source: &'static str,
}

/// The measurements for the scenario (none when it names no catalog model and device).
fn measured(scenario: &Scenario, e: &Estimate) -> Vec<headroom_core::measured::Beside> {
    headroom_core::measured::for_scenario(scenario, e.format).unwrap_or_default()
}

/// One GPU under llama.cpp's layer split (sizes in bytes).
#[derive(Serialize)]
struct JsonGpuShare {
    gpu: usize,
    first_layer: u64,
    end_layer: u64,
    output_layer: bool,
    weights: u64,
    cache: u64,
    compute: u64,
    total: u64,
}

/// SGLang's startup budget, as its log states it (sizes in bytes).
#[derive(Serialize)]
struct JsonSglang {
    free_at_start: u64,
    mem_fraction_static: f64,
    heuristic_reserve: u64,
    chunked_prefill_size: u64,
    cuda_graph_max_bs: u64,
    model_weights: u64,
    dynamic_memory: u64,
    kv_pool: i64,
    cell_size: u64,
    max_total_num_tokens: u64,
    context_len: u64,
    max_running_requests: u64,
    requests_at_context: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    swa_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    swa_cell_size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_mamba_cache_size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mamba_slot_bytes: Option<u64>,
    log: Vec<String>,
}

fn json_sglang(b: &headroom_core::sglang::SglangBudget) -> JsonSglang {
    JsonSglang {
        free_at_start: b.free_at_start.get(),
        mem_fraction_static: b.mem_fraction_static,
        heuristic_reserve: b.heuristic_reserve.get(),
        chunked_prefill_size: b.chunked_prefill_size,
        cuda_graph_max_bs: b.cuda_graph_max_bs,
        model_weights: b.weights.get(),
        dynamic_memory: b.dynamic.get(),
        kv_pool: b.pool,
        cell_size: b.cell_size,
        max_total_num_tokens: b.max_total_num_tokens,
        context_len: b.context_len,
        max_running_requests: b.max_running_requests,
        requests_at_context: b.requests_at_context,
        swa_tokens: b.swa.map(|s| s.0),
        swa_cell_size: b.swa.map(|s| s.1),
        max_mamba_cache_size: b.mamba.as_ref().map(|m| m.slots),
        mamba_slot_bytes: b.mamba.as_ref().map(|m| m.slot_bytes),
        log: b.log_lines(),
    }
}

#[derive(Serialize)]
struct JsonBudgetRow {
    context: u64,
    requests: u64,
}

/// vLLM's startup budget, as its log states it (sizes in bytes).
#[derive(Serialize)]
struct JsonVllm {
    version: String,
    total_gpu_memory: u64,
    gpu_memory_utilization: f64,
    requested_memory: u64,
    model_weights: u64,
    peak_activation: u64,
    non_torch_memory: u64,
    cuda_graph_memory: u64,
    /// The V2 runner's sampler state (penalty counts), built after the weights.
    sampler_state: u64,
    available_kv_cache_memory: i64,
    available_kv_cache_low: i64,
    available_kv_cache_high: i64,
    max_num_batched_tokens: u64,
    max_num_seqs: u64,
    block_size: u64,
    block_bytes: u64,
    num_gpu_blocks: u64,
    kv_cache_tokens: u64,
    max_model_len: u64,
    max_concurrency: f64,
    request_fits: bool,
    longest_request: u64,
    layout_exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    mamba: Option<JsonMamba>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    stages: Vec<JsonStage>,
    budget: Vec<JsonBudgetRow>,
    log: Vec<String>,
    /// Why vLLM stops on this setup before loading anything (its log is then the error alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    refused: Option<String>,
    /// vLLM 0.34's extensible KV cache: the size measured after warmup, which the blocks, tokens
    /// and concurrency follow (`available_kv_cache_memory` is then the profile step's reservation).
    #[serde(skip_serializing_if = "Option::is_none")]
    measured: Option<JsonMeasuredKv>,
    /// `--max-model-len auto`: the model's length and the one vLLM settles on.
    #[serde(skip_serializing_if = "Option::is_none")]
    auto_fit: Option<headroom_core::vllm::AutoFit>,
}

/// The KV cache sized after warmup and CUDA-graph capture.
#[derive(Serialize)]
struct JsonMeasuredKv {
    kv_cache_memory: i64,
    kv_cache_low: i64,
    kv_cache_high: i64,
    cuda_context: u64,
    in_use: u64,
    transient: u64,
    margin: u64,
    reserved_blocks: u64,
}

/// A hybrid model's Mamba states in vLLM's cache.
#[derive(Serialize)]
struct JsonMamba {
    layers: u64,
    page_bytes: u64,
    padding_pct: f64,
    block_raised: bool,
    mode: String,
    pages_per_request: u64,
}

/// One pipeline stage's budget.
#[derive(Serialize)]
struct JsonStage {
    layers: u64,
    model_weights: u64,
    peak_activation: u64,
    available_kv_cache_memory: i64,
    num_gpu_blocks: u64,
}

/// What a refused setup breaks, in a few words (the advice gives the whole reason).
fn reason_short(r: &headroom_core::vllm::TpRefusal) -> &'static str {
    use headroom_core::text::MsgId;
    match r.reason.id {
        MsgId::AdviceVllmOneGpu => "this model runs on one GPU only",
        MsgId::AdviceVllmTpHeads => "the attention heads do not divide among the GPUs",
        MsgId::AdviceVllmStep5Block => "the cache block cannot hold Step 5's rings of indexer keys",
        MsgId::AdviceVllmSparseMlaBlock => "no sparse attention kernel takes this cache block",
        MsgId::AdviceVllmKernelBlock => "no attention kernel takes this cache block",
        MsgId::AdviceVllmDcpTp => "the decode-context-parallel ranks do not divide the tensor-parallel group",
        MsgId::AdviceVllmDcpKvHeads | MsgId::AdviceVllmDcpSize => {
            "decode context parallelism does not fit the key/value heads"
        }
        MsgId::AdviceVllmDcpSliding => "sliding-window caches cannot be split by decode context parallelism",
        MsgId::AdviceVllmExtensibleKvMemory => "the extensible KV cache cannot have a fixed size",
        MsgId::AdviceVllmExtensibleOld => "this release has no extensible KV cache",
        _ => "the key/value heads do not divide among the GPUs",
    }
}

fn json_vllm(b: &headroom_core::vllm::VllmBudget) -> JsonVllm {
    JsonVllm {
        version: b.version.clone(),
        total_gpu_memory: b.total.get(),
        gpu_memory_utilization: b.utilization,
        requested_memory: b.requested.get(),
        model_weights: b.weights.get(),
        peak_activation: b.activation_peak.get(),
        non_torch_memory: b.non_torch.get(),
        cuda_graph_memory: b.cuda_graphs.get(),
        sampler_state: b.sampler_state.get(),
        available_kv_cache_memory: b.available_kv,
        available_kv_cache_low: b.available_kv_band.0,
        available_kv_cache_high: b.available_kv_band.1,
        max_num_batched_tokens: b.max_num_batched_tokens,
        max_num_seqs: b.max_num_seqs,
        block_size: b.block_size,
        block_bytes: b.block_bytes,
        num_gpu_blocks: b.num_blocks,
        kv_cache_tokens: b.kv_tokens,
        max_model_len: b.max_model_len,
        max_concurrency: headroom_core::ops::round(b.max_concurrency * 100.0) / 100.0,
        request_fits: b.request_fits,
        longest_request: b.longest_request,
        layout_exact: b.layout_exact,
        mamba: b.mamba.as_ref().map(|m| JsonMamba {
            layers: m.layers,
            page_bytes: m.page,
            padding_pct: headroom_core::ops::round(m.padding_pct * 100.0) / 100.0,
            block_raised: m.block_raised,
            mode: m.mode.clone(),
            pages_per_request: m.pages_per_request,
        }),
        stages: b
            .stages
            .iter()
            .map(|s| JsonStage {
                layers: s.layers,
                model_weights: s.weights.get(),
                peak_activation: s.activation_peak.get(),
                available_kv_cache_memory: s.available_kv,
                num_gpu_blocks: s.num_blocks,
            })
            .collect(),
        budget: if b.tp_refused.is_some() {
            Vec::new()
        } else {
            b.table.iter().map(|&(context, requests)| JsonBudgetRow { context, requests }).collect()
        },
        log: b.log_lines(),
        refused: b.tp_refused.as_ref().map(|r| r.reason.render(Lang::En)),
        measured: b.measured.as_ref().map(|m| JsonMeasuredKv {
            kv_cache_memory: m.kv,
            kv_cache_low: m.kv_band.0,
            kv_cache_high: m.kv_band.1,
            cuda_context: m.context.get(),
            in_use: m.in_use.get(),
            transient: m.transient.get(),
            margin: m.margin.get(),
            reserved_blocks: m.reserved_blocks,
        }),
        auto_fit: b.auto_fit,
    }
}

#[derive(Serialize)]
struct JsonModel<'a> {
    name: &'a str,
    params_total: u64,
    params_active: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    architecture: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    params_breakdown: Option<&'a ParamBreakdown>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stand_in: Option<&'a str>,
    max_context: u64,
    confidence: &'static str,
    layers: &'a [LayerSummary],
}

#[derive(Serialize)]
struct JsonDisk {
    weights: u64,
}

#[derive(Serialize)]
struct JsonCompute {
    flops_per_token: f64,
}

#[derive(Serialize)]
struct JsonRemedy {
    step: String,
    label: String,
    need: u64,
    fits: bool,
    link: String,
}

#[derive(Serialize)]
struct JsonAdvice {
    remedies: Vec<JsonRemedy>,
    max_context: Option<u64>,
    max_micro_batch: Option<u64>,
    /// LoRA's rank/targets trade-off (LoRA and QLoRA).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lora: Vec<JsonLora>,
}

#[derive(Serialize)]
struct JsonLora {
    rank: u64,
    targets: String,
    trainable: u64,
    need: u64,
    fits: Option<bool>,
    current: bool,
}

/// For a training scenario on a device: what would make it fit, and the longest sequence and
/// the largest micro-batch that fit as it is.
fn training_advice(scenario: &Scenario) -> Option<JsonAdvice> {
    let a = headroom_core::fit::training_advice(scenario).ok()??;
    Some(JsonAdvice {
        remedies: a
            .remedies
            .into_iter()
            .map(|r| JsonRemedy {
                label: en(&r.label),
                step: r.step,
                need: r.need.get(),
                fits: r.fits,
                link: share::encode(&r.scenario),
            })
            .collect(),
        max_context: a.max_context,
        max_micro_batch: a.max_micro_batch,
        lora: a
            .lora
            .into_iter()
            .map(|o| JsonLora {
                rank: o.rank,
                targets: o.targets.id(),
                trainable: o.trainable,
                need: o.need.get(),
                fits: o.fits,
                current: o.current,
            })
            .collect(),
    })
}

#[derive(Serialize)]
struct JsonTraining {
    mode: &'static str,
    tokens: u64,
    flops_total: f64,
    checkpoint_bytes: u64,
    checkpoint_with_optimizer_bytes: u64,
    base_format: String,
    pytorch_peak_bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    advice: Option<JsonAdvice>,
    framework: &'static str,
    optimizer: &'static str,
    precision: &'static str,
    checkpointing: &'static str,
    loss: &'static str,
    lora_dropout: bool,
    adapters: &'static str,
    kbit_upcast: bool,
    grad_accum: u64,
    optimizer_in_backward: bool,
    activation_offload: bool,
    compile: bool,
    dora: bool,
    cp: u64,
    ulysses: u64,
    sequence_parallel: bool,
    batching: &'static str,
    mean_sample_tokens: u64,
    /// Tokens computed per token of data (padding), in flops_total.
    padding_factor: f64,
    device_map: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    zero_buckets: Option<JsonBuckets>,
}

/// DeepSpeed ZeRO's gradient buckets (inside the gradients term).
#[derive(Serialize)]
struct JsonBuckets {
    buffers: u64,
    reduce_bucket_size: u64,
    bytes: u64,
    scratch_bytes: u64,
}

#[derive(Serialize)]
struct JsonTerm {
    term: &'static str,
    bytes: u64,
    low: u64,
    high: u64,
    exact: bool,
    formula: String,
    assumptions: Vec<String>,
}

fn en(m: &Msg) -> String {
    m.render(Lang::En)
}

/// [`headroom_core::fit::better_runtime_here`]'s fit.
fn better(scenario: &Scenario, f: Option<&Fit>) -> Option<Fit> {
    headroom_core::fit::better_runtime_here(scenario, f?).map(|(_, f)| f)
}

/// The `--json` object of `spec/cli.md`: every size in bytes, absent terms as 0.
pub fn json(scenario: &Scenario, e: &Estimate, fit: Option<&Fit>) -> String {
    let doc = Json {
        better_runtime: better(scenario, fit).map(|f| json_fit(&f, true)),
        measured: measured(scenario, e)
            .into_iter()
            .map(|b| JsonMeasured {
                phase: b.measured.phase.id(),
                test: b.measured.test(),
                tokens_per_s: b.measured.tokens_per_s,
                estimated_tokens_per_s: b.estimated,
                runtime: b.measured.runtime.id(),
                build: b.measured.build,
                hardware: b.measured.hardware,
                date: b.measured.date,
                source: b.measured.source,
            })
            .collect(),
        fit: fit.map(|f| json_fit(f, false)),
        speed: fit.and_then(|f| f.speed.as_ref()).map(json_speed),
        schema: 1,
        model: JsonModel {
            name: &e.model.name,
            params_total: e.model.params_total.get(),
            params_active: e.model.params_active.get(),
            architecture: e.model.architecture.as_deref(),
            params_breakdown: e.model.breakdown.as_ref(),
            stand_in: e.model.stand_in.as_deref(),
            max_context: e.model.max_context,
            confidence: e.model.confidence.id(),
            layers: &e.model.layers,
        },
        memory: MemoryKeys::of(&e.memory),
        trainable_params: e.trainable_params,
        disk: JsonDisk { weights: e.disk.weights.get() },
        link: share::encode(scenario),
        format: e.format.id(),
        runtime: e.runtime.id(),
        devices: e.devices,
        host: MemoryKeys::of(&e.host),
        device_map: e.device_map,
        weights_total: e.weights_total.get(),
        weights_exact: e.weights_exact,
        kv_cache_total: e.kv_total.get(),
        kv_bytes_per_token: e.kv_per_token.get(),
        compute: JsonCompute { flops_per_token: e.flops_per_token },
        training: e.training.as_ref().map(|t| JsonTraining {
            mode: t.mode.id(),
            tokens: t.tokens,
            flops_total: t.flops_total,
            checkpoint_bytes: t.checkpoint.get(),
            checkpoint_with_optimizer_bytes: t.checkpoint_with_optimizer.get(),
            base_format: t.base_format.id(),
            pytorch_peak_bytes: t.pytorch_peak.get(),
            advice: training_advice(scenario),
            framework: scenario.train.framework.id(),
            optimizer: scenario.optimizer.id(),
            precision: scenario.precision.id(),
            checkpointing: scenario.checkpointing.id(),
            loss: scenario.train.loss.id(),
            lora_dropout: scenario.train.lora_dropout,
            adapters: if scenario.train.adapters_fp32 { "fp32" } else { "bf16" },
            kbit_upcast: scenario.train.kbit_upcast,
            grad_accum: scenario.train.grad_accum,
            optimizer_in_backward: scenario.train.optimizer_in_backward,
            activation_offload: scenario.train.activation_offload,
            compile: scenario.train.compile,
            dora: scenario.train.dora,
            cp: scenario.train.cp,
            ulysses: scenario.train.ulysses,
            sequence_parallel: scenario.train.sequence_parallel,
            batching: scenario.train.batching.id(),
            mean_sample_tokens: scenario.train.mean_sample,
            padding_factor: t.padding.0,
            device_map: scenario.train.device_map,
            zero_buckets: t.zero_buckets.map(|b| JsonBuckets {
                buffers: b.buffers,
                reduce_bucket_size: b.elements,
                bytes: b.held.get(),
                scratch_bytes: b.scratch.get(),
            }),
        }),
        breakdown: e
            .memory
            .terms
            .iter()
            .map(|t| JsonTerm {
                term: t.kind.key(),
                bytes: t.bytes.get(),
                low: t.low.get(),
                high: t.high.get(),
                exact: t.is_exact(),
                formula: en(&t.formula),
                assumptions: t.assumptions.iter().map(en).collect(),
            })
            .collect(),
        notes: e.notes.iter().map(en).collect(),
        warnings: e.warnings.iter().map(en).collect(),
        state_bytes_per_sequence: e.state_per_sequence.get(),
        llama_cpp: e.llama_cpp,
        llama_gpus: e
            .llama_gpus
            .iter()
            .enumerate()
            .map(|(gpu, g)| JsonGpuShare {
                gpu,
                first_layer: g.first,
                end_layer: g.end,
                output_layer: g.head,
                weights: g.weights.get(),
                cache: g.cache.get(),
                compute: g.compute.get(),
                total: g.total.get(),
            })
            .collect(),
        vllm: e.vllm.as_ref().map(json_vllm),
        sglang: e.sglang.as_ref().map(json_sglang),
    };
    // Serializing plain structs of integers and strings cannot fail.
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

fn signed_gib(b: i64) -> String {
    format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64)
}

fn term_name(k: TermKind) -> String {
    Msg::new(k.name(), Vec::new()).render(Lang::En)
}

fn band(low: headroom_core::units::Bytes, high: headroom_core::units::Bytes) -> String {
    format!("{} – {}", format_size(low, Lang::En), format_size(high, Lang::En))
}

/// A readable table: each term with its size and formula, the total, the disk and the link.
pub fn human(scenario: &Scenario, e: &Estimate, fit: Option<&Fit>) -> String {
    let lang = Lang::En;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Model    {} — {} parameters ({} active)",
        e.model.name,
        format_int(e.model.params_total.get(), lang),
        format_int(e.model.params_active.get(), lang)
    );
    if let Some(a) = &e.model.architecture {
        let _ = writeln!(s, "         {a}");
    }
    match &e.training {
        None => {
            // vLLM's `--max-model-len auto` may settle on less than the model's length.
            let fitted =
                e.vllm.as_ref().and_then(|b| b.auto_fit).filter(|f| f.to > 0 && f.to < scenario.context);
            let _ = writeln!(
                s,
                "Workload inference, {} × {} tokens{}, weights {}, KV {}, {}{}",
                scenario.batch,
                format_int(fitted.map_or(scenario.context, |f| f.to), lang),
                if fitted.is_some() { " (--max-model-len auto)" } else { "" },
                e.format.label(),
                scenario.kv.id(),
                e.runtime.label(),
                if e.devices > 1 { format!(", {} devices", e.devices) } else { String::new() }
            );
        }
        Some(t) => {
            let _ = writeln!(
                s,
                "Workload {} training, micro-batch {} × {} tokens, {} trainable parameters, optimizer {}, checkpointing {}{}",
                t.mode.id(),
                scenario.batch,
                format_int(scenario.context, lang),
                format_int(e.trainable_params, lang),
                scenario.optimizer.id(),
                scenario.checkpointing.id(),
                if e.devices > 1 {
                    format!(", {} GPUs, ZeRO-{}", e.devices, scenario.zero)
                } else {
                    String::new()
                }
            );
        }
    }
    let _ = writeln!(s);
    let per = if e.devices > 1 { "Memory per device (the busiest)" } else { "Memory" };
    let _ = writeln!(s, "{per}");
    for t in &e.memory.terms {
        let range = if t.is_exact() { "exact".to_string() } else { band(t.low, t.high) };
        let _ = writeln!(s, "  {:<18} {:>24}  {}", term_name(t.kind), format_size(t.bytes, lang), range);
        let _ = writeln!(s, "  {:<18}   {}", "", en(&t.formula));
        // A checkpoint quantized tensor by tensor: the bytes of each format.
        for a in t.assumptions.iter().filter(|a| a.id == headroom_core::text::MsgId::AssumePlanFormat) {
            let _ = writeln!(s, "  {:<18}     {}", "", en(a));
        }
    }
    let _ = writeln!(
        s,
        "  {:<18} {:>24}  {}",
        "Total",
        format_size(e.memory.total, lang),
        band(e.memory.total_low, e.memory.total_high)
    );
    if !e.llama_gpus.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "llama.cpp layer split (--split-mode layer), GPU by GPU");
        for (i, g) in e.llama_gpus.iter().enumerate() {
            let layers = if g.end > g.first {
                format!("layers {}–{}", g.first, g.end - 1)
            } else {
                "no layers".to_string()
            };
            let _ = writeln!(
                s,
                "  GPU {i}  {layers}{}: weights {}, KV and state {}, compute {}, total {}",
                if g.head { " and the output layer" } else { "" },
                format_size(g.weights, lang),
                format_size(g.cache, lang),
                format_size(g.compute, lang),
                format_size(g.total, lang),
            );
        }
    }
    let _ = writeln!(s);
    let per_node = if e.training.is_some() { " (per node)" } else { "" };
    let _ = writeln!(s, "System RAM beside it{per_node}   {}", format_size(e.host.total, lang));
    let _ = writeln!(s, "Disk (download)        {}", format_size(e.disk.weights, lang));
    if e.training.is_none() {
        let _ = writeln!(s, "KV cache per token     {}", format_size(e.kv_per_token, lang));
    }
    if let Some(t) = &e.training {
        let tr = &scenario.train;
        let _ = writeln!(
            s,
            "Training as run by     {}: {} optimizer, {} precision, {} checkpointing, {} loss{}",
            tr.framework.label(),
            scenario.optimizer.id(),
            scenario.precision.id(),
            scenario.checkpointing.id(),
            tr.loss.id(),
            if scenario.mode.is_training() && scenario.mode != headroom_core::training::Mode::Full {
                format!(
                    ", LoRA dropout {}, {} adapters",
                    if tr.lora_dropout { "on" } else { "off" },
                    if tr.adapters_fp32 { "FP32" } else { "BF16" }
                )
            } else {
                String::new()
            }
        );
        let _ = writeln!(
            s,
            "Training compute       {:.3e} FLOP for {} tokens ({:.1} × active parameters per token{})",
            t.flops_total,
            format_int(t.tokens, lang),
            e.flops_per_token / e.model.params_active.get().max(1) as f64,
            if t.padding.0 > 1.0 { format!(", × {:.2} for padding", t.padding.0) } else { String::new() }
        );
        let _ = writeln!(
            s,
            "Checkpoint             {} ({} with optimizer states)",
            format_size(t.checkpoint, lang),
            format_size(t.checkpoint_with_optimizer, lang)
        );
    }
    for n in &e.notes {
        let _ = writeln!(s, "{}: {}", if e.warnings.contains(n) { "Warning" } else { "Note" }, en(n));
    }
    if let Some(f) = fit {
        let _ = writeln!(s);
        // A refusal holds whatever the memory: the headroom is said as what the memory alone
        // would give, not as the verdict's reason.
        let verdict = match f.refusal() {
            Some(_) if f.headroom >= 0.0 => {
                format!("no, refused (the memory alone would fit: {:.0}% headroom)", f.headroom * 100.0)
            }
            Some(_) => format!("no, refused (nor would the memory fit: {:.0}% headroom)", f.headroom * 100.0),
            None => format!("{} ({:.0}% headroom)", f.verdict.id(), f.headroom * 100.0),
        };
        let _ = writeln!(
            s,
            "Device   {} — {verdict}: needs {} of {} usable per device, {} runtime",
            f.name,
            format_size(f.need, lang),
            format_size(f.capacity, lang),
            scenario.runner_label(f.runtime)
        );
        if let Some(a) = training_advice(scenario) {
            if !a.remedies.is_empty() {
                let _ =
                    writeln!(s, "To make it fit, in the order people try (each step keeps the ones before):");
                for r in &a.remedies {
                    let _ = writeln!(
                        s,
                        "  {:<52} {}{}",
                        r.step,
                        format_size(headroom_core::units::Bytes::new(r.need), lang),
                        if r.fits { "  fits" } else { "" }
                    );
                }
                if !a.remedies.iter().any(|r| r.fits) {
                    let _ = writeln!(
                        s,
                        "  none of these is enough: a bigger card or more GPUs (`headroom fit` lists them)"
                    );
                }
            }
            if !a.lora.is_empty() {
                let _ = writeln!(s, "LoRA rank and targets (trainable parameters, per device):");
                for o in &a.lora {
                    let _ = writeln!(
                        s,
                        "  r={:<4} {:<11} {:>15}  {}{}{}",
                        o.rank,
                        o.targets,
                        format_int(o.trainable, lang),
                        format_size(headroom_core::units::Bytes::new(o.need), lang),
                        match o.fits {
                            Some(true) => "  fits",
                            Some(false) => "  does not fit",
                            None => "",
                        },
                        if o.current { "  ← as set" } else { "" }
                    );
                }
            }
            if let (Some(c), Some(b)) = (a.max_context, a.max_micro_batch) {
                let _ = writeln!(
                    s,
                    "Fits as set up with up to {} tokens per sequence, or up to {} sequences per micro-batch",
                    format_int(c, lang),
                    format_int(b, lang)
                );
            }
        }
        if let Some(sp) = &f.speed {
            if let Some(t) = sp.training_s {
                let (lo, hi) = sp.training_band_s.unwrap_or((t, t));
                let _ = write!(
                    s,
                    "Training {} ({} to {}) at {:.0}% MFU",
                    run_duration(t),
                    run_duration(lo),
                    run_duration(hi),
                    sp.training_mfu.unwrap_or(0.0) * 100.0
                );
                if let Some(c) = sp.training_mfu_class {
                    let _ = write!(
                        s,
                        " ({}{})",
                        c.label(),
                        if c.measured() { ", as published runs reach" } else { ", a stand-in" }
                    );
                }
                if let (Some((w, lo, hi)), Some((link, stated))) = (sp.training_waiting_s, sp.training_link) {
                    let _ = write!(
                        s,
                        ", of which {} ({} to {}) waiting on the {}{} (gradient, weight and offload exchanges the compute does not hide)",
                        run_duration(w),
                        run_duration(lo),
                        run_duration(hi),
                        link_name(link),
                        if stated { "" } else { ", assumed: the device does not state its link" }
                    );
                }
                let _ = writeln!(s);
            } else {
                let _ = writeln!(
                    s,
                    "Speed    {} tokens/s per sequence (limited by {}), prefill {} tokens/s, first token after {:.2} s; {} tokens/s over {} sequences",
                    tps(sp.decode_tokens_per_s),
                    sp.decode_limit.id().replace('_', " "),
                    tps(sp.prefill_tokens_per_s),
                    sp.ttft_s,
                    tps(sp.aggregate_tokens_per_s),
                    scenario.batch
                );
            }
        }
        let c = &f.cost;
        let mut parts = Vec::new();
        if let Some(h) = c.usd_per_hour {
            parts.push(format!("{}/hour", money(Some(h))));
        }
        if let Some(p) = c.purchase_usd {
            parts.push(format!("{} to buy", money(Some(p))));
        }
        if let Some(e) = c.energy_usd_per_hour {
            parts.push(format!("{}/hour of electricity", money(Some(e))));
        }
        if let Some(m) = c.usd_per_million_tokens {
            parts.push(format!("{} per million tokens", money(Some(m))));
        }
        if let Some(r) = c.training_run_usd {
            parts.push(format!("{} for the run", money(Some(r))));
        }
        if let Some(b) = c.break_even_months {
            parts.push(format!("buying beats renting after {b:.1} months"));
        }
        if !parts.is_empty() {
            let _ = writeln!(s, "Cost     {}", parts.join(", "));
        }
        for a in &f.advice {
            let _ = writeln!(s, "Advice   {}", en(a));
        }
        for b in measured(scenario, e) {
            let m = &b.measured;
            let est = match (b.estimated, b.error()) {
                (Some(x), Some(err)) => format!("estimate there {} ({:+.0}%)", tps(x), err * 100.0),
                _ => "no estimate there".into(),
            };
            let _ = writeln!(
                s,
                "Measured {} tokens/s {} ({}) on {}, {} {}, {}; {est}; {}",
                tps(m.tokens_per_s),
                m.phase.id(),
                m.test(),
                m.hardware,
                m.runtime.label(),
                m.build,
                m.date,
                m.url()
            );
        }
        if let Some(b) = better(scenario, Some(f)) {
            let layers = b.gpu_layers.map_or(String::new(), |k| format!(", {k} layers on the GPU"));
            let _ = writeln!(
                s,
                "Better   with {}: {}{layers} (--runtime {})",
                b.runtime.label(),
                b.verdict.id(),
                b.runtime.id()
            );
        }
    }
    if let Some((b, r)) = fit
        .and_then(|f| f.vllm.as_ref())
        .or(e.vllm.as_ref())
        .and_then(|b| b.tp_refused.as_ref().map(|r| (b, r)))
    {
        // vLLM stops on the setup before loading anything, or on the cache's layout once the
        // weights are in: no budget, only the error.
        let _ = writeln!(s);
        let when = if r.loaded { "after loading the model" } else { "before loading the model" };
        let _ = writeln!(s, "vLLM {} at start: stops {when} ({})", b.version, reason_short(r));
        for line in b.log_lines() {
            let _ = writeln!(s, "  log  {line}");
        }
    } else if let Some(b) = fit.and_then(|f| f.vllm.as_ref()).or(e.vllm.as_ref()) {
        let _ = writeln!(s);
        let approx = if b.layout_exact {
            ""
        } else {
            "; the layout of recurrent or mixed-size layers is approximated"
        };
        let _ = match &b.measured {
            // vLLM 0.34's extensible cache: reserved from the profile step, sized after warmup
            // from its share (when that binds first) or from the free memory.
            Some(m) => {
                let from = if m.capped {
                    format!("its share less {} in use", format_size(m.in_use, Lang::En))
                } else {
                    format!(
                        "the card less the CUDA context {}, {} in use",
                        format_size(m.context, Lang::En),
                        format_size(m.in_use, Lang::En)
                    )
                };
                let margin = if m.capped {
                    String::from(" and")
                } else {
                    format!(", a margin of {} and", format_size(m.margin, Lang::En))
                };
                writeln!(
                    s,
                    "vLLM {} at start: sized after warmup, the KV cache gets {} ({} – {}) of {} × {:.2} = {}: {from} (weights, non-torch memory, CUDA graphs){margin} {} kept free for activations{approx}",
                    b.version,
                    signed_gib(m.kv),
                    signed_gib(m.kv_band.0),
                    signed_gib(m.kv_band.1),
                    format_size(b.total, Lang::En),
                    b.utilization,
                    format_size(b.requested, Lang::En),
                    format_size(m.transient, Lang::En),
                )
            }
            None => writeln!(
                s,
                "vLLM {} at start: {} × {:.2} = {} for it; the KV cache gets {} ({} – {}){approx}",
                b.version,
                format_size(b.total, Lang::En),
                b.utilization,
                format_size(b.requested, Lang::En),
                signed_gib(b.available_kv),
                signed_gib(b.available_kv_band.0),
                signed_gib(b.available_kv_band.1),
            ),
        };
        for line in b.log_lines() {
            let _ = writeln!(s, "  log  {line}");
        }
        let rows: Vec<String> = b
            .table
            .iter()
            .map(|(c, n)| format!("{} tokens: {}", format_int(*c, Lang::En), format_int(*n, Lang::En)))
            .collect();
        let _ = writeln!(s, "  requests at once  {}", rows.join(" · "));
    }
    if let Some(b) = fit.and_then(|f| f.sglang.as_ref()).or(e.sglang.as_ref()) {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "SGLang at start: {} free × mem_fraction_static {:.3} − weights {} = KV pool {} ({} tokens of {} bytes{})",
            format_size(b.free_at_start, Lang::En),
            b.mem_fraction_static,
            format_size(b.weights, Lang::En),
            signed_gib(b.pool),
            format_int(b.max_total_num_tokens, Lang::En),
            b.cell_size,
            match (&b.mamba, b.swa) {
                (Some(m), _) => format!(
                    ", after {} Mamba state slots of {} bytes, {} per running request",
                    format_int(m.slots, Lang::En),
                    format_int(m.slot_bytes, Lang::En),
                    m.slots_per_request
                ),
                (None, Some((t, c))) => format!(
                    " in the full-attention layers; sliding-window layers {} tokens of {} bytes",
                    format_int(t, Lang::En),
                    c
                ),
                _ => String::new(),
            },
        );
        for line in b.log_lines() {
            let _ = writeln!(s, "  log  {line}");
        }
    }
    let cmds = headroom_core::flags::commands(scenario, e, fit);
    if !cmds.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "Run with");
        for c in cmds {
            let _ = writeln!(s, "  {c}");
        }
    }
    let _ = writeln!(s, "Link   {}", share::encode(scenario));
    s
}

#[derive(Serialize)]
struct JsonModelEntry {
    id: &'static str,
    name: &'static str,
    aliases: &'static [&'static str],
    hf_repo: &'static str,
    family: String,
    params_total: u64,
    params_active: u64,
    format: Option<String>,
    max_context: u64,
    released: &'static str,
    source: &'static str,
}

fn entries() -> Vec<JsonModelEntry> {
    catalog::models()
        .iter()
        .filter_map(|m| {
            let imported = m.import().ok()?;
            let a = &imported.architecture;
            Some(JsonModelEntry {
                id: m.id,
                name: m.name,
                aliases: m.aliases,
                hf_repo: m.hf_repo,
                family: a.family.clone(),
                params_total: a.params_total().ok()?.get(),
                params_active: a.params_active().ok()?.get(),
                format: imported.format.map(|f| f.id()),
                max_context: a.max_context,
                released: m.released,
                source: m.source,
            })
        })
        .collect()
}

/// `headroom models --json`.
pub fn models_json() -> String {
    let mut s = serde_json::to_string_pretty(&entries()).unwrap_or_default();
    s.push('\n');
    s
}

/// `headroom models`.
pub fn models_table() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<28} {:<13} {:>10} {:>10} {:>8} {:>9}",
        "ID", "FAMILY", "PARAMS", "ACTIVE", "FORMAT", "CONTEXT"
    );
    for m in entries() {
        let p = headroom_core::units::Params::new(m.params_total);
        let a = headroom_core::units::Params::new(m.params_active);
        let _ = writeln!(
            s,
            "{:<28} {:<13} {:>10} {:>10} {:>8} {:>9}",
            m.id,
            m.family,
            p.to_string(),
            a.to_string(),
            m.format.unwrap_or_else(|| "-".into()),
            m.max_context
        );
    }
    s
}

// ---- fit, devices, recommend ----

use headroom_core::catalog::device::{Device, DeviceKind, LinkKind};
use headroom_core::fit::{Fit, Verdict};
use headroom_core::speed::Speed;

#[derive(Serialize)]
struct JsonSpeed {
    decode_tokens_per_s: f64,
    prefill_tokens_per_s: f64,
    ttft_s: f64,
    aggregate_tokens_per_s: f64,
    decode_limit: &'static str,
    aggregate_limit: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    training_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    training_mfu: Option<f64>,
    /// The GPU class that set the utilisation (`ampere`, `hopper`, `blackwell`, `rtx`,
    /// `instinct`, `other_gpu`, `apple`, `cpu`).
    #[serde(skip_serializing_if = "Option::is_none")]
    training_mfu_class: Option<&'static str>,
    /// Whether published runs on that class set it (else a stand-in with a wider band).
    #[serde(skip_serializing_if = "Option::is_none")]
    training_mfu_measured: Option<bool>,
    /// Seconds of the run waiting on exchanges the compute does not hide: `[point, low, high]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    training_waiting_s: Option<[f64; 3]>,
    /// The link those exchanges cross (`nvlink`, `pcie`, `pcie_host`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    training_link: Option<&'static str>,
    /// Whether the catalog states that link (else PCIe 4.0 ×16 without peer-to-peer stood in).
    #[serde(skip_serializing_if = "Option::is_none")]
    training_link_stated: Option<bool>,
    /// The run's band in seconds: `[low, high]` (the utilisation's band and the waiting's).
    #[serde(skip_serializing_if = "Option::is_none")]
    training_band_s: Option<[f64; 2]>,
}

fn json_speed(s: &Speed) -> JsonSpeed {
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    JsonSpeed {
        decode_tokens_per_s: finite(s.decode_tokens_per_s),
        prefill_tokens_per_s: finite(s.prefill_tokens_per_s),
        ttft_s: finite(s.ttft_s),
        aggregate_tokens_per_s: finite(s.aggregate_tokens_per_s),
        decode_limit: s.decode_limit.id(),
        aggregate_limit: s.aggregate_limit.id(),
        training_s: s.training_s,
        training_waiting_s: s.training_waiting_s.map(|(a, b, c)| [a, b, c]),
        training_link: s.training_link.map(|(k, _)| k.id()),
        training_link_stated: s.training_link.map(|(_, stated)| stated),
        training_band_s: s.training_band_s.map(|(a, b)| [a, b]),
        training_mfu: s.training_mfu,
        training_mfu_class: s.training_mfu_class.map(|c| c.id()),
        training_mfu_measured: s.training_mfu_class.map(|c| c.measured()),
    }
}

#[derive(Serialize)]
struct JsonFit {
    device: &'static str,
    name: &'static str,
    kind: &'static str,
    capacity: u64,
    verdict: &'static str,
    headroom: f64,
    need: u64,
    need_high: u64,
    gpus: u64,
    runtime: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    gpu_layers: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cpu_moe: Option<u64>,
    host_need: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    host_capacity: Option<u64>,
    cost: headroom_core::cost::Cost,
    advice: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speed: Option<JsonSpeed>,
}

fn json_fit(f: &Fit, with_speed: bool) -> JsonFit {
    JsonFit {
        device: f.device,
        name: f.name,
        kind: f.kind.id(),
        capacity: f.capacity.get(),
        verdict: f.verdict.id(),
        headroom: headroom_core::ops::round(f.headroom * 1e4) / 1e4,
        need: f.need.get(),
        need_high: f.need_high.get(),
        gpus: f.gpus,
        runtime: f.runtime.id(),
        gpu_layers: f.gpu_layers,
        cpu_moe: f.cpu_moe,
        host_need: f.host_need.get(),
        host_capacity: f.host_capacity.map(|b| b.get()),
        cost: f.cost.clone(),
        advice: f.advice.iter().map(en).collect(),
        speed: if with_speed { f.speed.as_ref().map(json_speed) } else { None },
    }
}

/// `headroom fit --json`: an array of fit objects with their speed.
pub fn fits_json(fits: &[Fit]) -> String {
    let list: Vec<JsonFit> = fits.iter().map(|f| json_fit(f, true)).collect();
    let mut s = serde_json::to_string_pretty(&list).unwrap_or_default();
    s.push('\n');
    s
}

fn money(x: Option<f64>) -> String {
    match x {
        Some(v) if v >= 100.0 => format!("${v:.0}"),
        Some(v) if v >= 1.0 => format!("${v:.2}"),
        Some(v) => format!("${v:.3}"),
        None => "-".into(),
    }
}

fn tps(x: f64) -> String {
    headroom_core::text::format_rate(x).unwrap_or_else(|| "-".into())
}

/// `headroom fit`: one line per device, best first.
pub fn fits_table(scenario: &Scenario, fits: &[Fit]) -> String {
    let mut s = String::new();
    let training = scenario.mode.is_training();
    let _ = writeln!(
        s,
        "{:<30} {:<8} {:>5} {:>11} {:>11} {:>9} {:>9} {:>10} {:>9}",
        "DEVICE",
        "VERDICT",
        "GPUS",
        "NEED",
        "CAPACITY",
        "HEADROOM",
        if training { "TRAIN h" } else { "TOK/S" },
        "$/HOUR",
        if training { "$/RUN" } else { "$/M TOK" }
    );
    for f in fits {
        let sp = f.speed.as_ref();
        let speed = if training {
            sp.and_then(|x| x.training_s).map_or("-".into(), |t| format!("{:.1}", t / 3600.0))
        } else {
            sp.map_or("-".into(), |x| tps(x.decode_tokens_per_s))
        };
        let per_hour = f.cost.usd_per_hour.or(f.cost.energy_usd_per_hour);
        let last = if training { f.cost.training_run_usd } else { f.cost.usd_per_million_tokens };
        let _ = writeln!(
            s,
            "{:<30} {:<8} {:>5} {:>11} {:>11} {:>8.0}% {:>9} {:>10} {:>9}",
            f.device,
            f.verdict.id(),
            f.gpus,
            format!("{:.1} GiB", f.need.as_gib()),
            format!("{:.1} GiB", f.capacity.as_gib()),
            f.headroom * 100.0,
            speed,
            money(per_hour),
            money(last)
        );
    }
    s
}

#[derive(Serialize)]
struct JsonDevice<'a> {
    #[serde(flatten)]
    device: &'a Device,
    kind_id: &'static str,
    memory_bytes: u64,
    formats: Vec<&'static str>,
    default_reserve_bytes: u64,
}

fn filtered(kind: Option<DeviceKind>) -> impl Iterator<Item = &'static Device> {
    catalog::devices().iter().filter(move |d| kind.is_none_or(|k| d.kind == k))
}

/// `headroom devices --json`.
pub fn devices_json(kind: Option<DeviceKind>) -> String {
    let list: Vec<JsonDevice<'_>> = filtered(kind)
        .map(|d| JsonDevice {
            device: d,
            kind_id: d.kind.id(),
            memory_bytes: d.memory_mib * (1 << 20),
            formats: headroom_core::hardware::formats(d),
            default_reserve_bytes: headroom_core::hardware::default_reserve(d).get(),
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&list).unwrap_or_default();
    s.push('\n');
    s
}

/// `headroom devices`.
pub fn devices_table(kind: Option<DeviceKind>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<34} {:<7} {:>5} {:>10} {:>9} {:>8} {:>9} {:>9}  LINK (GB/S EACH WAY)",
        "ID", "KIND", "COUNT", "MEMORY", "GB/S", "TFLOPS", "PRICE", "$/HOUR"
    );
    for d in filtered(kind) {
        let link = match d.link.kind {
            LinkKind::None => "-".to_string(),
            k => format!("{} {}", k.id(), d.link.gbs),
        };
        let _ = writeln!(
            s,
            "{:<34} {:<7} {:>5} {:>10} {:>9.0} {:>8.1} {:>9} {:>9}  {link}",
            d.id,
            d.kind.id(),
            d.count,
            format!("{:.0} GiB", d.memory_mib as f64 / 1024.0),
            d.bandwidth_gbs,
            d.fp16_tflops,
            if d.price_usd > 0.0 { format!("${:.0}", d.price_usd) } else { "-".into() },
            if d.usd_per_hour > 0.0 { format!("${:.2}", d.usd_per_hour) } else { "-".into() }
        );
    }
    s
}

/// `headroom recommend`.
pub fn recommend(a: &crate::args::RecommendArgs) -> Result<String, String> {
    use headroom_core::fit;
    let scenario = a.scenario.scenario()?;
    let device = || -> Result<Device, String> {
        let choice =
            scenario.device.as_ref().ok_or("this question needs a device: --device ID or --my-ram GIB")?;
        fit::device_of(choice).map_err(|e| e.to_string())
    };
    let err = |e: headroom_core::Error| e.to_string();
    let mut s = String::new();
    if a.max_context {
        let d = device()?;
        let c = fit::max_context(&scenario, &d).map_err(err)?;
        if a.json {
            s = serde_json::json!({ "device": d.id, "max_context": c }).to_string();
            s.push('\n');
        } else {
            match c {
                Some(c) => {
                    let _ = writeln!(
                        s,
                        "Longest context that fits {}: {} tokens per sequence",
                        d.name,
                        format_int(c, Lang::En)
                    );
                }
                None => {
                    let _ = writeln!(s, "Nothing fits {} entirely, even at 1 token of context.", d.name);
                }
            }
        }
    } else if a.max_batch {
        let d = device()?;
        let b = fit::max_micro_batch(&scenario, &d).map_err(err)?;
        if a.json {
            s = serde_json::json!({ "device": d.id, "context": scenario.context, "max_batch": b })
                .to_string();
            s.push('\n');
        } else {
            let what =
                if scenario.mode.is_training() { "sequences per micro-batch" } else { "concurrent requests" };
            match b {
                Some(b) => {
                    let _ = writeln!(
                        s,
                        "Most {what} that fit {} at {} tokens: {}",
                        d.name,
                        format_int(scenario.context, Lang::En),
                        format_int(b, Lang::En)
                    );
                }
                None => {
                    let _ = writeln!(s, "Nothing fits {} entirely, even one sequence.", d.name);
                }
            }
        }
    } else if a.llama_fit {
        let d = device()?;
        if a.fit_target > headroom_core::hardware::MAX_RESERVE_MIB {
            return Err(format!(
                "--fit-target {} is out of range; use 0 to {} MiB",
                a.fit_target,
                headroom_core::hardware::MAX_RESERVE_MIB
            ));
        }
        // As llama.cpp: a context on the command line (or in the pasted command) is kept.
        let given = std::env::args().any(|x| x == "--context" || x.starts_with("--context="))
            || a.scenario
                .command
                .as_deref()
                .and_then(|c| headroom_core::command::parse(c).ok())
                .is_some_and(|c| c.context.is_some());
        let margin = headroom_core::units::Bytes::new(a.fit_target.saturating_mul(headroom_core::units::MIB));
        let f = fit::llama_fit(&scenario, &d, margin, given).map_err(err)?;
        if a.json {
            s = serde_json::to_string_pretty(&serde_json::json!({
                "device": d.id,
                "context": f.context,
                "context_reduced": f.context_reduced,
                "fit_target": f.margin.get(),
                "verdict": f.fit.verdict.id(),
                "gpu_layers": f.fit.gpu_layers,
                "cpu_moe": f.fit.cpu_moe,
                "need": f.fit.need.get(),
                "capacity": f.fit.capacity.get(),
                "command": f.command,
            }))
            .unwrap_or_default();
            s.push('\n');
        } else {
            let placed = match (f.fit.verdict, f.fit.gpu_layers, f.fit.cpu_moe) {
                (Verdict::Fits, _, _) => "every layer on the GPU".to_string(),
                (Verdict::Offload, _, Some(n)) => {
                    format!("the experts of the first {n} layers in system RAM (--n-cpu-moe {n})")
                }
                (Verdict::Offload, Some(k), _) => format!(
                    "-ngl {k}: the output layer and {} layers on the GPU, the rest in system RAM",
                    k.saturating_sub(1)
                ),
                (Verdict::Cpu, _, _) => "on the CPU from system RAM".to_string(),
                _ => "nothing: it does not fit".to_string(),
            };
            let _ = writeln!(
                s,
                "llama-server --fit on {} ({} kept free): context {} tokens{}, {placed}",
                d.name,
                format_size(f.margin, Lang::En),
                format_int(f.context, Lang::En),
                if f.context_reduced {
                    " (the model's longest does not fit, so --fit lowers it)"
                } else {
                    ""
                },
            );
            let _ = writeln!(
                s,
                "needs {} of {} usable",
                format_size(f.fit.need, Lang::En),
                format_size(f.fit.capacity, Lang::En)
            );
            if !f.command.is_empty() && f.fit.verdict != Verdict::No {
                let _ = writeln!(s, "Run with\n  {}", f.command);
            }
        }
    } else if a.best_quant {
        let d = device()?;
        let b = fit::best_quant(&scenario, &d).map_err(err)?;
        if a.json {
            s = serde_json::to_string_pretty(&serde_json::json!({
                "device": d.id,
                "format": b.as_ref().map(|(f, _)| f.id()),
                "fit": b.as_ref().map(|(_, f)| json_fit(f, true)),
            }))
            .unwrap_or_default();
            s.push('\n');
        } else {
            match b {
                Some((f, fit)) => {
                    let _ = writeln!(
                        s,
                        "Best format that fits {}: {} — needs {} of {} ({:.0}% headroom), about {} tokens/s",
                        d.name,
                        f.label(),
                        format_size(fit.need, Lang::En),
                        format_size(fit.capacity, Lang::En),
                        fit.headroom * 100.0,
                        fit.speed.as_ref().map_or("-".into(), |x| tps(x.decode_tokens_per_s))
                    );
                }
                None => {
                    let _ = writeln!(s, "No format down to IQ1_M fits {} entirely.", d.name);
                }
            }
        }
    } else if a.cheapest {
        let kind = a.kind.as_deref().map(crate::args::parse_kind).transpose()?;
        let list = fit::cheapest(&scenario, a.min_tps, kind).map_err(err)?;
        let list: Vec<Fit> = list.into_iter().take(a.top).collect();
        if a.json {
            s = fits_json(&list);
        } else if list.is_empty() {
            let _ = writeln!(
                s,
                "No priced device in the catalog fits this scenario{}.",
                if a.min_tps.is_some() { " at that speed" } else { "" }
            );
        } else {
            s = fits_table(&scenario, &list);
        }
    } else {
        let d = device()?;
        let list = fit::models_for(&d, &scenario).map_err(err)?;
        let list: Vec<_> = list.into_iter().take(a.top).collect();
        if a.json {
            let v: Vec<serde_json::Value> = list
                .iter()
                .map(|m| serde_json::json!({ "model": m.model, "format": m.format.id(), "fit": json_fit(&m.fit, true) }))
                .collect();
            s = serde_json::to_string_pretty(&v).unwrap_or_default();
            s.push('\n');
        } else {
            let _ = writeln!(
                s,
                "{:<28} {:<14} {:>11} {:>9} {:>8}",
                "MODEL", "FORMAT", "NEED", "HEADROOM", "TOK/S"
            );
            for m in &list {
                let _ = writeln!(
                    s,
                    "{:<28} {:<14} {:>11} {:>8.0}% {:>8}",
                    m.model,
                    m.format.label(),
                    format!("{:.1} GiB", m.fit.need.as_gib()),
                    m.fit.headroom * 100.0,
                    m.fit.speed.as_ref().map_or("-".into(), |x| tps(x.decode_tokens_per_s))
                );
            }
        }
    }
    let _ = Verdict::Fits;
    Ok(s)
}

/// A run's length: minutes below two hours, hours above.
fn run_duration(seconds: f64) -> String {
    if seconds < 60.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} hours", seconds / 3600.0)
    }
}

/// How a link reads in a sentence.
fn link_name(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::NvLink => "NVLink",
        LinkKind::InfinityFabric => "Infinity Fabric",
        LinkKind::Ethernet => "cards' Ethernet links",
        LinkKind::Pcie => "PCIe bus",
        LinkKind::PcieHost | LinkKind::None => "PCIe bus through system memory (no peer-to-peer)",
    }
}
