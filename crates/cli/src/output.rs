//! Printing an estimate: the JSON of the contract and a readable table.

use std::fmt::Write;

use headroom_core::estimate::{Estimate, TermKind};
use headroom_core::text::{Lang, format_int, format_size};
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
    breakdown: Vec<JsonTerm>,
    notes: Vec<String>,
}

#[derive(Serialize)]
struct JsonModel<'a> {
    name: &'a str,
    params_total: u64,
    params_active: u64,
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

#[derive(Serialize)]
struct JsonDisk {
    weights: u64,
}

#[derive(Serialize)]
struct JsonTerm {
    term: &'static str,
    bytes: u64,
    low: u64,
    high: u64,
    formula: String,
    assumptions: Vec<String>,
}

/// The `--json` object of `spec/cli.md`: every size in bytes, absent terms as 0.
pub fn json(scenario: &Scenario, e: &Estimate) -> String {
    let m = &e.memory;
    let g = |k| m.get(k).get();
    let doc = Json {
        schema: 1,
        model: JsonModel {
            name: &e.model.name,
            params_total: e.model.params_total.get(),
            params_active: e.model.params_active.get(),
        },
        memory: JsonMemory {
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
        },
        trainable_params: 0,
        disk: JsonDisk { weights: e.disk.weights.get() },
        link: share::encode(scenario),
        breakdown: m
            .terms
            .iter()
            .map(|t| JsonTerm {
                term: t.kind.key(),
                bytes: t.bytes.get(),
                low: t.low.get(),
                high: t.high.get(),
                formula: t.formula.render(Lang::En),
                assumptions: t.assumptions.iter().map(|a| a.render(Lang::En)).collect(),
            })
            .collect(),
        notes: e.notes.iter().map(|n| n.render(Lang::En)).collect(),
    };
    // Serializing plain structs of integers and strings cannot fail.
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// A readable table: each term with its size and formula, the total, the disk and the link.
pub fn human(scenario: &Scenario, e: &Estimate) -> String {
    let lang = Lang::En;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Model   {} ({} parameters, {} active)",
        e.model.name,
        format_int(e.model.params_total.get(), lang),
        format_int(e.model.params_active.get(), lang)
    );
    let _ = writeln!(s, "Weights {}", scenario.weight_format().label());
    let _ = writeln!(s);
    let _ = writeln!(s, "Memory per device");
    for t in &e.memory.terms {
        let band = if t.is_exact() {
            "exact".to_string()
        } else {
            format!("{} – {}", format_size(t.low, lang), format_size(t.high, lang))
        };
        let _ = writeln!(s, "  {:<18} {:>26}  {}", t.kind.name_en(), format_size(t.bytes, lang), band);
        let _ = writeln!(s, "  {:<18} = {}", "", t.formula.render(lang));
    }
    let _ = writeln!(s, "  {:<18} {:>26}", "Total", format_size(e.memory.total, lang));
    let _ = writeln!(s);
    let _ = writeln!(s, "Disk    {} to download", format_size(e.disk.weights, lang));
    for n in &e.notes {
        let _ = writeln!(s, "Note    {}", n.render(lang));
    }
    let _ = writeln!(s, "Link    {}", share::encode(scenario));
    s
}

trait NameEn {
    fn name_en(self) -> String;
}

impl NameEn for TermKind {
    fn name_en(self) -> String {
        headroom_core::text::Msg::new(self.name(), Vec::new()).render(Lang::En)
    }
}
