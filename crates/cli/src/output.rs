//! Printing an estimate: the JSON of the contract and a readable table.

use std::fmt::Write;

use headroom_core::catalog;
use headroom_core::estimate::{Estimate, Memory, TermKind};
use headroom_core::model::ParamBreakdown;
use headroom_core::text::{Lang, Msg, format_int, format_size};
use headroom_core::{Scenario, share};
use serde::Serialize;

#[derive(Serialize)]
struct Json<'a> {
    schema: u32,
    model: JsonModel<'a>,
    memory: JsonMemory,
    trainable_params: u64,
    disk: JsonDisk,
    link: String,
    format: String,
    runtime: &'static str,
    devices: u64,
    host: JsonMemory,
    weights_total: u64,
    weights_exact: bool,
    kv_cache_total: u64,
    kv_bytes_per_token: u64,
    compute: JsonCompute,
    #[serde(skip_serializing_if = "Option::is_none")]
    training: Option<JsonTraining>,
    breakdown: Vec<JsonTerm>,
    notes: Vec<String>,
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
}

#[derive(Serialize)]
struct JsonMemory {
    weights: u64,
    kv_cache: u64,
    activations: u64,
    gradients: u64,
    optimizer: u64,
    master_weights: u64,
    adapters: u64,
    overhead: u64,
    total: u64,
    total_low: u64,
    total_high: u64,
}

impl JsonMemory {
    fn of(m: &Memory) -> Self {
        let g = |k| m.get(k).get();
        JsonMemory {
            weights: g(TermKind::Weights),
            kv_cache: g(TermKind::KvCache),
            activations: g(TermKind::Activations),
            gradients: g(TermKind::Gradients),
            optimizer: g(TermKind::Optimizer),
            master_weights: g(TermKind::MasterWeights),
            adapters: g(TermKind::Adapters),
            overhead: g(TermKind::Overhead),
            total: m.total.get(),
            total_low: m.total_low.get(),
            total_high: m.total_high.get(),
        }
    }
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
struct JsonTraining {
    mode: &'static str,
    tokens: u64,
    flops_total: f64,
    checkpoint_bytes: u64,
    checkpoint_with_optimizer_bytes: u64,
    base_format: String,
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

/// The `--json` object of `spec/cli.md`: every size in bytes, absent terms as 0.
pub fn json(scenario: &Scenario, e: &Estimate) -> String {
    let doc = Json {
        schema: 1,
        model: JsonModel {
            name: &e.model.name,
            params_total: e.model.params_total.get(),
            params_active: e.model.params_active.get(),
            architecture: e.model.architecture.as_deref(),
            params_breakdown: e.model.breakdown.as_ref(),
            stand_in: e.model.stand_in.as_deref(),
            max_context: e.model.max_context,
        },
        memory: JsonMemory::of(&e.memory),
        trainable_params: e.trainable_params,
        disk: JsonDisk { weights: e.disk.weights.get() },
        link: share::encode(scenario),
        format: e.format.id(),
        runtime: e.runtime.id(),
        devices: e.devices,
        host: JsonMemory::of(&e.host),
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
    };
    // Serializing plain structs of integers and strings cannot fail.
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

fn term_name(k: TermKind) -> String {
    Msg::new(k.name(), Vec::new()).render(Lang::En)
}

fn band(low: headroom_core::units::Bytes, high: headroom_core::units::Bytes) -> String {
    format!("{} – {}", format_size(low, Lang::En), format_size(high, Lang::En))
}

/// A readable table: each term with its size and formula, the total, the disk and the link.
pub fn human(scenario: &Scenario, e: &Estimate) -> String {
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
            let _ = writeln!(
                s,
                "Workload inference, {} × {} tokens, weights {}, KV {}, {}{}",
                scenario.batch,
                format_int(scenario.context, lang),
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
    }
    let _ = writeln!(
        s,
        "  {:<18} {:>24}  {}",
        "Total",
        format_size(e.memory.total, lang),
        band(e.memory.total_low, e.memory.total_high)
    );
    let _ = writeln!(s);
    let per_node = if e.training.is_some() { " (per node)" } else { "" };
    let _ = writeln!(s, "System RAM beside it{per_node}   {}", format_size(e.host.total, lang));
    let _ = writeln!(s, "Disk (download)        {}", format_size(e.disk.weights, lang));
    if e.training.is_none() {
        let _ = writeln!(s, "KV cache per token     {}", format_size(e.kv_per_token, lang));
    }
    if let Some(t) = &e.training {
        let _ = writeln!(
            s,
            "Training compute       {:.3e} FLOP for {} tokens ({:.1} × active parameters per token)",
            t.flops_total,
            format_int(t.tokens, lang),
            e.flops_per_token / e.model.params_active.get().max(1) as f64
        );
        let _ = writeln!(
            s,
            "Checkpoint             {} ({} with optimizer states)",
            format_size(t.checkpoint, lang),
            format_size(t.checkpoint_with_optimizer, lang)
        );
    }
    for n in &e.notes {
        let _ = writeln!(s, "Note: {}", en(n));
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
