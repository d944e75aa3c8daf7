//! Per-tensor quantization plans: which format each tensor of a checkpoint is stored in.
//!
//! Real checkpoints are rarely one format. A `quantization_config` names targets and exclusions
//! (compressed-tensors' `config_groups` and `ignore`, ModelOpt's `exclude_modules`, the
//! `modules_to_not_convert` of `fp8`, `mxfp4`, GPTQ and AWQ, bitsandbytes'
//! `llm_int8_skip_modules`), by module name, class or pattern. A [`QuantPlan`] holds those rules
//! as read; [`price`] gives every tensor of the architecture the Hugging Face module name it has
//! in the checkpoint, decides its format by the rules, and prices it with the bytes of the scales,
//! zero points and shape tensors that format writes.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::error::{Error, OrOverflow, Result};
use crate::model::{Architecture, Mixer};
use crate::pattern::{Regex, glob_matches};
use crate::precision::WeightFormat;
use crate::tensor::{Role, Tensor};
use crate::tensors::{Priced, quantized_bytes};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// How a rule's entry is compared with a module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum MatchKind {
    /// compressed-tensors: the module's full name or its class name (`Linear`), exactly.
    Exact,
    /// A Python regular expression matched at the start of the name (`re:` entries).
    Regex,
    /// A module path, or a shell wildcard, matching the module or any module above it
    /// (`modules_to_not_convert`, `exclude_modules`); a plain entry also matches as a part of the
    /// path (`lm_head`, `self_attn`), as `transformers` compares them.
    Module,
    /// What the format's tools quantize by default (the linear layers of the blocks; experts only
    /// for MXFP4 in a mixture of experts).
    Default,
}

/// One entry of a target or exclusion list.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Matcher {
    /// How it compares.
    pub kind: MatchKind,
    /// The entry as written (without a `re:` prefix).
    pub text: String,
    /// Where it was read (`quantization_config.ignore[2]`), for messages.
    pub field: String,
}

impl Matcher {
    /// An entry, checked: a regex must compile.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the field and the fault.
    pub fn new(kind: MatchKind, text: &str, field: &str) -> Result<Matcher> {
        if kind == MatchKind::Regex {
            Regex::new(text).map_err(|why| {
                Error::invalid(
                    "quantization_config",
                    format!("{field} `re:{text}` is not a valid pattern: {why}"),
                )
            })?;
        }
        Ok(Matcher { kind, text: text.into(), field: field.into() })
    }
}

/// A group of modules stored in one format.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct QuantRule {
    /// The modules it covers (any entry).
    pub targets: Vec<Matcher>,
    /// Their format.
    pub format: WeightFormat,
}

/// A checkpoint's quantization, tensor by tensor.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct QuantPlan {
    /// The `quant_method` it was read from.
    pub method: String,
    /// The format that holds the most weights: the checkpoint's format in menus and links.
    pub headline: WeightFormat,
    /// The groups, first match wins.
    pub rules: Vec<QuantRule>,
    /// Modules kept unquantized whatever the rules say.
    pub ignore: Vec<Matcher>,
    /// The format of what no rule quantizes (the checkpoint's `torch_dtype`).
    pub base: WeightFormat,
    /// Each tensor's format and bytes, in inventory order, once decided for the architecture the
    /// plan was read with (patterns are matched once, not at every estimate).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub resolved: Vec<(WeightFormat, u64)>,
}

/// A tensor's module in the checkpoint: its names (the text model's usual prefixes) and class.
struct Module {
    names: Vec<String>,
    class: &'static str,
}

struct Compiled<'a> {
    m: &'a Matcher,
    regex: Option<Regex>,
    /// The layer a plain (wildcard-free) name entry names (`model.layers.12.self_attn`): it
    /// cannot match another layer's module, which is checked first.
    layer: Option<u32>,
}

impl Compiled<'_> {
    fn hits(&self, a: &Architecture, t: &Tensor, module: &Module, format: WeightFormat) -> Result<bool> {
        if self.layer.is_some() && self.layer != t.layer {
            return Ok(false);
        }
        match self.m.kind {
            MatchKind::Default => Ok(default_target(a, t, format)),
            MatchKind::Exact => Ok(module.class == self.m.text || module.names.contains(&self.m.text)),
            MatchKind::Module => Ok(module.names.iter().any(|n| module_hits(&self.m.text, n))),
            MatchKind::Regex => {
                let Some(r) = &self.regex else { return Ok(false) };
                for n in &module.names {
                    match r.matches_start(n) {
                        Ok(true) => return Ok(true),
                        Ok(false) => {}
                        Err(_) => {
                            return Err(Error::invalid(
                                "quantization_config",
                                format!(
                                    "{} `re:{}` takes too long to match `{n}`: simplify the pattern",
                                    self.m.field, self.m.text
                                ),
                            ));
                        }
                    }
                }
                Ok(false)
            }
        }
    }
}

/// `transformers`' and ModelOpt's comparison of an exclusion with a module path: a wildcard
/// matching the path or a module above it, else the entry as a run of whole path components.
fn module_hits(entry: &str, name: &str) -> bool {
    if entry.bytes().any(|b| matches!(b, b'*' | b'?' | b'[')) {
        let mut prefix = name;
        loop {
            if glob_matches(entry, prefix) {
                return true;
            }
            match prefix.rfind('.') {
                Some(i) => prefix = &prefix[..i],
                None => return false,
            }
        }
    }
    let e = entry.trim_matches('.');
    if e.is_empty() || e.len() > name.len() {
        return false;
    }
    if e.len() == name.len() {
        return e == name;
    }
    // `e` as a run of whole components: at a start or after a dot, ending at a dot or the end.
    let (n, eb) = (name.as_bytes(), e.as_bytes());
    let mut from = 0;
    while let Some(at) = name.get(from..).and_then(|rest| rest.find(e)).map(|k| k + from) {
        let before = at == 0 || n[at - 1] == b'.';
        let end = at + eb.len();
        let after = end == n.len() || n[end] == b'.';
        if before && after {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Whether the format's tools quantize this tensor when nothing else is said.
fn default_target(a: &Architecture, t: &Tensor, format: WeightFormat) -> bool {
    match format {
        WeightFormat::Mxfp4 => t.role.is_expert() || (a.moe().is_none() && t.role.is_block_linear()),
        WeightFormat::Nf4 { .. } => t.role.is_block_linear() || t.role == Role::Router,
        _ => t.role.is_block_linear(),
    }
}

fn compile(ms: &[Matcher]) -> Vec<Compiled<'_>> {
    ms.iter()
        .map(|m| Compiled {
            m,
            regex: (m.kind == MatchKind::Regex).then(|| Regex::new(&m.text).ok()).flatten(),
            layer: match m.kind {
                MatchKind::Exact | MatchKind::Module => layer_named(&m.text),
                _ => None,
            },
        })
        .collect()
}

/// The layer number a module path names after `layers.`, when whole and before any wildcard
/// (`model.layers.12.self_attn*` names layer 12; `model.layers.1*` names none).
fn layer_named(path: &str) -> Option<u32> {
    let at = path.find("layers.")? + "layers.".len();
    if path[..at].contains(['*', '?', '[']) {
        return None;
    }
    let rest = &path[at..];
    let end = rest.find('.').unwrap_or(rest.len());
    let digits = &rest[..end];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Every tensor of `a` priced by the plan, with each tensor's format.
///
/// # Errors
/// [`Error::Invalid`] for a shape that does not validate or a pattern too costly to match,
/// [`Error::Overflow`] for absurd sizes.
pub fn price(a: &Architecture, plan: &QuantPlan) -> Result<Priced> {
    let tensors = a.inventory()?;
    if plan.resolved.len() == tensors.len() {
        return Ok(Priced {
            bytes: plan.resolved.iter().map(|(_, b)| *b).collect(),
            formats: plan.resolved.iter().map(|(f, _)| *f).collect(),
            tensors,
            gguf_types: Vec::new(),
        });
    }
    let mut priced =
        Priced { tensors: Vec::new(), bytes: Vec::with_capacity(tensors.len()), ..Priced::default() };
    let rules = compiled_rules(plan);
    let ignore = compile(&plan.ignore);
    let style = prefix_of(plan);
    for (t, nth) in tensors.iter().zip(numbered(&tensors)) {
        let (bytes, format) = price_tensor(a, t, nth, style, plan, &rules, &ignore)?;
        priced.bytes.push(bytes);
        priced.formats.push(format);
    }
    priced.tensors = tensors;
    Ok(priced)
}

/// Each tensor's number among the tensors of its role in its layer (Qwen3-Next's two input
/// projections, DeepSeek V4's compressors).
fn numbered(tensors: &[Tensor]) -> Vec<usize> {
    let mut seen: Vec<Role> = Vec::new();
    let mut current: Option<Option<u32>> = None;
    tensors
        .iter()
        .map(|t| {
            if current != Some(t.layer) {
                seen.clear();
                current = Some(t.layer);
            }
            let nth = seen.iter().filter(|r| **r == t.role).count();
            seen.push(t.role);
            nth
        })
        .collect()
}

/// Which of the plan's rules decide at least one of the model's tensors (a rule whose targets
/// name no module as Headroom names them leaves weights in the wrong format).
///
/// # Errors
/// As [`price`].
pub fn rules_hit(a: &Architecture, plan: &QuantPlan) -> Result<Vec<bool>> {
    let tensors = a.inventory()?;
    let rules = compiled_rules(plan);
    let ignore = compile(&plan.ignore);
    let style = prefix_of(plan);
    let mut hit = alloc::vec![false; rules.len()];
    for (t, nth) in tensors.iter().zip(numbered(&tensors)) {
        let experts: &[Option<u64>] =
            if t.experts > 1 && t.role.is_expert() { &[Some(0), Some(t.experts - 1)] } else { &[None] };
        for e in experts {
            if let (_, Some(i)) = decide_rule(a, t, &module_of(a, t, nth, *e, style), plan, &rules, &ignore)?
            {
                hit[i] = true;
            }
        }
    }
    Ok(hit)
}

/// For each of the plan's rules, the first of its targets that names no module of the model
/// (as Headroom names them), with how many of its targets do so; `None` when every target finds
/// one. A per-module list (ModelOpt's `quantized_layers`, compressed-tensors' explicit targets)
/// with an entry that finds nothing leaves that module in the wrong format.
///
/// # Errors
/// As [`price`].
pub fn targets_missed(a: &Architecture, plan: &QuantPlan) -> Result<Vec<Option<(usize, usize)>>> {
    let tensors = a.inventory()?;
    let rules = compiled_rules(plan);
    let style = prefix_of(plan);
    let mut hit: Vec<Vec<bool>> = rules.iter().map(|(t, _)| alloc::vec![false; t.len()]).collect();
    for (t, nth) in tensors.iter().zip(numbered(&tensors)) {
        if t.role.is_vector() || t.role.fixed_width().is_some() {
            continue;
        }
        let experts: &[Option<u64>] =
            if t.experts > 1 && t.role.is_expert() { &[Some(0), Some(t.experts - 1)] } else { &[None] };
        for e in experts {
            let module = module_of(a, t, nth, *e, style);
            for ((targets, format), seen) in rules.iter().zip(hit.iter_mut()) {
                for (c, s) in targets.iter().zip(seen.iter_mut()) {
                    if !*s && c.hits(a, t, &module, *format)? {
                        *s = true;
                    }
                }
            }
        }
        // Entries naming the experts between the first and the last (ModelOpt lists every one):
        // the first expert's names with the entry's expert number put back.
        if t.experts > 2 && t.role.is_expert() {
            let first = module_of(a, t, nth, Some(0), style);
            for ((targets, _), seen) in rules.iter().zip(hit.iter_mut()) {
                for (c, s) in targets.iter().zip(seen.iter_mut()) {
                    if *s || (c.layer.is_some() && c.layer != t.layer) {
                        continue;
                    }
                    let Some(as_first) = expert_as_first(&c.m.text, t.experts) else { continue };
                    *s = match c.m.kind {
                        MatchKind::Exact => first.names.contains(&as_first),
                        MatchKind::Module => first.names.iter().any(|n| module_hits(&as_first, n)),
                        _ => false,
                    };
                }
            }
        }
    }
    Ok(hit
        .iter()
        .map(|seen| {
            let missed = seen.iter().filter(|s| !**s).count();
            seen.iter().position(|s| !*s).map(|first| (first, missed))
        })
        .collect())
}

/// A name with `.experts.K.` for an expert `K` below `experts`, as the first expert's
/// (`.experts.0.`); `None` for any other name.
fn expert_as_first(name: &str, experts: u64) -> Option<String> {
    let at = name.find(".experts.")? + ".experts.".len();
    let rest = &name[at..];
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let k: u64 = rest[..digits].parse().ok()?;
    (k < experts).then(|| format!("{}0{}", &name[..at], &rest[digits..]))
}

/// One tensor priced by the plan (the multi-token-prediction modules).
///
/// # Errors
/// As [`price`].
pub fn price_one(a: &Architecture, t: &Tensor, plan: &QuantPlan) -> Result<u64> {
    let rules = compiled_rules(plan);
    Ok(price_tensor(a, t, 0, prefix_of(plan), plan, &rules, &compile(&plan.ignore))?.0)
}

/// The plan's rules with their targets compiled, in order.
fn compiled_rules(plan: &QuantPlan) -> Vec<(Vec<Compiled<'_>>, WeightFormat)> {
    plan.rules.iter().map(|r| (compile(&r.targets), r.format)).collect()
}

/// The format the plan gives one module, and the rule that decided it (none: the base).
fn decide_rule(
    a: &Architecture,
    t: &Tensor,
    module: &Module,
    plan: &QuantPlan,
    rules: &[(Vec<Compiled<'_>>, WeightFormat)],
    ignore: &[Compiled<'_>],
) -> Result<(WeightFormat, Option<usize>)> {
    // Vectors (norms, biases, convolution taps) and fixed-width state are never quantized.
    if t.role.is_vector() || t.role.fixed_width().is_some() {
        return Ok((plan.base, None));
    }
    for c in ignore {
        if c.hits(a, t, module, plan.base)? {
            return Ok((plan.base, None));
        }
    }
    for (i, (targets, format)) in rules.iter().enumerate() {
        for c in targets {
            if c.hits(a, t, module, *format)? {
                return Ok((*format, Some(i)));
            }
        }
    }
    Ok((plan.base, None))
}

fn price_tensor(
    a: &Architecture,
    t: &Tensor,
    nth: usize,
    style: Prefix,
    plan: &QuantPlan,
    rules: &[(Vec<Compiled<'_>>, WeightFormat)],
    ignore: &[Compiled<'_>],
) -> Result<(u64, WeightFormat)> {
    let one = |format: WeightFormat, tensor: &Tensor| -> Result<u64> {
        quantized_bytes(tensor, format).or_overflow("weight memory")
    };
    if t.experts <= 1 || !t.role.is_expert() {
        let f = decide_rule(a, t, &module_of(a, t, nth, None, style), plan, rules, ignore)?.0;
        return Ok((one(f, t)?, f));
    }
    // Stacked experts: the first and last decide for all when they agree (patterns rarely name
    // one expert); else each expert on its own.
    let first = decide_rule(a, t, &module_of(a, t, nth, Some(0), style), plan, rules, ignore)?.0;
    let last = decide_rule(a, t, &module_of(a, t, nth, Some(t.experts - 1), style), plan, rules, ignore)?.0;
    if first == last {
        return Ok((one(first, t)?, first));
    }
    let single = Tensor { experts: 1, ..*t };
    let (mut total, mut count_first) = (0u64, 0u64);
    for e in 0..t.experts {
        let f = decide_rule(a, t, &module_of(a, t, nth, Some(e), style), plan, rules, ignore)?.0;
        count_first += u64::from(f == first);
        total = total.checked_add(one(f, &single)?).or_overflow("weight memory")?;
    }
    Ok((total, if count_first * 2 >= t.experts { first } else { last }))
}

/// Where the text model's layers sit in the checkpoint's names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prefix {
    /// `model.layers.N` (`backbone.layers.N` for Mamba-style families).
    Model,
    /// `model.language_model.layers.N` (transformers 5's multimodal wrappers).
    ModelLanguageModel,
    /// `language_model.model.layers.N` (LLaVA-style wrappers, Kimi K2.5).
    LanguageModel,
}

/// The naming the plan's own entries use (a regex starting `.*` fits any).
fn prefix_of(plan: &QuantPlan) -> Prefix {
    let entries = plan.ignore.iter().chain(plan.rules.iter().flat_map(|r| r.targets.iter()));
    let mut style = Prefix::Model;
    for m in entries {
        if m.text.contains("model.language_model.") {
            return Prefix::ModelLanguageModel;
        }
        if m.text.contains("language_model.model.") {
            style = Prefix::LanguageModel;
        }
    }
    style
}

/// The first token mixer of layer `l`.
fn mixer_at(a: &Architecture, l: u64) -> Option<&Mixer> {
    let mut start = 0u64;
    for g in &a.groups {
        if l < start.saturating_add(g.count) {
            return g.mixers.first();
        }
        start = start.saturating_add(g.count);
    }
    None
}

/// The name and class a tensor's module has in a Hugging Face checkpoint of this family.
fn module_of(a: &Architecture, t: &Tensor, nth: usize, expert: Option<u64>, style: Prefix) -> Module {
    let family = a.family.as_str();
    let mamba_style = matches!(family, "nemotron_h" | "mamba" | "mamba2" | "falcon_mamba");
    // Mixtral's `block_sparse_moe` with `w1`, `w2`, `w3` experts (Kimi Linear's and Kimi K3's too).
    let mixtral = matches!(family, "mixtral" | "minimax" | "phimoe" | "minimax_m3" | "kimi_linear");
    let e = expert.map_or_else(|| "0".to_string(), |e| e.to_string());
    let mixer_of_layer = t.layer.and_then(|l| mixer_at(a, u64::from(l)));
    let mixer = match mixer_of_layer {
        Some(Mixer::GatedDeltaNet(_)) => "linear_attn",
        Some(Mixer::Mamba(_)) if !mamba_style => "mamba",
        Some(Mixer::ShortConv(_)) => "conv",
        _ if mamba_style => "mixer",
        _ => "self_attn",
    };
    let moe = if mixtral { "block_sparse_moe" } else { "mlp" };
    let shared = if matches!(family, "qwen2_moe" | "qwen3_next" | "qwen3_5_moe") {
        "shared_expert"
    } else {
        "shared_experts"
    };
    let (local, class): (String, &'static str) = match t.role {
        Role::TokenEmbd => ("embed_tokens".into(), "Embedding"),
        Role::PosEmbd => ("embed_positions".into(), "Embedding"),
        Role::ExtraEmbd => ("embed_tokens_per_layer".into(), "Embedding"),
        Role::Output => ("lm_head".into(), "Linear"),
        Role::AttnQ => (format!("{mixer}.q_proj"), "Linear"),
        Role::AttnK => (format!("{mixer}.k_proj"), "Linear"),
        Role::AttnV => (format!("{mixer}.v_proj"), "Linear"),
        Role::AttnQkv => (format!("{mixer}.qkv_proj"), "Linear"),
        Role::AttnOut if family.starts_with("deepseek_v4") => (format!("{mixer}.o_b_proj"), "Linear"),
        Role::AttnOut => (format!("{mixer}.o_proj"), "Linear"),
        Role::AttnQA => (format!("{mixer}.q_a_proj"), "Linear"),
        Role::AttnQB => (format!("{mixer}.q_b_proj"), "Linear"),
        Role::AttnKvA if family.starts_with("deepseek_v4") => (format!("{mixer}.kv_proj"), "Linear"),
        Role::AttnOutA => (format!("{mixer}.o_a_proj"), "Linear"),
        Role::Compressor => (
            format!("{mixer}.compressor.{}", if nth.is_multiple_of(2) { "kv_proj" } else { "gate_proj" }),
            "Linear",
        ),
        Role::AttnKvA => (format!("{mixer}.kv_a_proj_with_mqa"), "Linear"),
        Role::AttnKvB => (format!("{mixer}.kv_b_proj"), "Linear"),
        Role::IdxQ => (format!("{mixer}.indexer.wq_b"), "Linear"),
        Role::IdxK => (format!("{mixer}.indexer.wk"), "Linear"),
        Role::IdxWeights => (format!("{mixer}.indexer.weights_proj"), "Linear"),
        Role::FfnGate => (format!("{}.gate_proj", if mamba_style { "mixer" } else { "mlp" }), "Linear"),
        Role::FfnUp => (format!("{}.up_proj", if mamba_style { "mixer" } else { "mlp" }), "Linear"),
        Role::FfnGateUp => ("mlp.gate_up_proj".into(), "Linear"),
        Role::FfnDown => (format!("{}.down_proj", if mamba_style { "mixer" } else { "mlp" }), "Linear"),
        Role::ExpGate | Role::ExpUp | Role::ExpDown if family == "gpt_oss" => {
            let w = if t.role == Role::ExpDown { "down_proj" } else { "gate_up_proj" };
            (format!("mlp.experts.{w}"), "Experts")
        }
        Role::ExpGate => {
            (format!("{moe}.experts.{e}.{}", if mixtral { "w1" } else { "gate_proj" }), "Linear")
        }
        Role::ExpUp => (format!("{moe}.experts.{e}.{}", if mixtral { "w3" } else { "up_proj" }), "Linear"),
        Role::ExpDown => {
            (format!("{moe}.experts.{e}.{}", if mixtral { "w2" } else { "down_proj" }), "Linear")
        }
        Role::ShGate => (format!("{moe}.{shared}.gate_proj"), "Linear"),
        Role::ShUp => (format!("{moe}.{shared}.up_proj"), "Linear"),
        Role::ShDown => (format!("{moe}.{shared}.down_proj"), "Linear"),
        Role::ShExpGate => ("mlp.shared_expert_gate".into(), "Linear"),
        // Routers are custom modules in most families (DeepSeek's MoEGate, gpt-oss's router):
        // quantized only when a rule names them.
        Role::Router if family == "gpt_oss" => ("mlp.router".into(), "Router"),
        Role::Router => (format!("{moe}.gate"), "Router"),
        // Kimi K3's projections into and out of its experts' latent: stored in 16 bits beside
        // MXFP4 experts whose rule targets every `Linear` (the checkpoint's way, and vLLM's), so
        // quantized only when a rule names them.
        Role::MoeLatent if family == "kimi_linear" => {
            (format!("{moe}.routed_expert_{}", if nth == 0 { "down_proj" } else { "up_proj" }), "Latent")
        }
        Role::MoeLatent if family == "nemotron_h" => (format!("mixer.fc{}_latent_proj", nth + 1), "Linear"),
        Role::MoeLatent => (format!("{moe}.latent.{nth}"), "Linear"),
        // Lightning attention's fused q/k/v, output gate and output (MiniMax's names).
        Role::MixIn if matches!(mixer_of_layer, Some(Mixer::Lightning(_))) => {
            (format!("{mixer}.qkv_proj"), "Linear")
        }
        Role::MixProj if matches!(mixer_of_layer, Some(Mixer::Lightning(_))) => {
            (format!("{mixer}.output_gate"), "Linear")
        }
        Role::MixIn => {
            let split = matches!(mixer_of_layer, Some(Mixer::GatedDeltaNet(g)) if g.split_in_proj);
            let name = match (mixer, split, nth) {
                ("linear_attn", true, 0) => "in_proj_qkv",
                ("linear_attn", true, 1) => "in_proj_z",
                ("linear_attn", true, 2) => "in_proj_b",
                ("linear_attn", true, _) => "in_proj_a",
                ("linear_attn", false, 1) => "in_proj_ba",
                ("linear_attn", false, _) => "in_proj_qkvz",
                _ => "in_proj",
            };
            (format!("{mixer}.{name}"), "Linear")
        }
        Role::MixOut => (format!("{mixer}.out_proj"), "Linear"),
        Role::MixProj => (format!("{mixer}.x_proj"), "Linear"),
        Role::MtpProj => ("eh_proj".into(), "Linear"),
        // MiniMax-M3's block indexer (its sparse layers' first two extras).
        Role::Extra if family == "minimax_m3" && nth < 2 => {
            (format!("{mixer}.{}", if nth == 0 { "index_q_proj" } else { "index_k_proj" }), "Linear")
        }
        Role::Extra => (format!("extra.{nth}"), "Linear"),
        Role::MixConv => (format!("{mixer}.conv1d"), "Conv1d"),
        Role::MixState
        | Role::AttnNorm
        | Role::Norm
        | Role::Bias
        | Role::Sinks
        | Role::Fp32
        | Role::Frozen => ("norm".into(), "Norm"),
        Role::HashTable => (format!("{moe}.gate.tid2eid"), "Buffer"),
        Role::Encoder => ("visual".into(), "Encoder"),
        Role::Speech => ("talker".into(), "Speech"),
    };
    let root = match style {
        Prefix::Model if mamba_style => "backbone",
        Prefix::Model => "model",
        Prefix::ModelLanguageModel => "model.language_model",
        Prefix::LanguageModel => "language_model.model",
    };
    let mut names = match (t.layer, t.role) {
        (_, Role::Output) => alloc::vec!["lm_head".into(), "language_model.lm_head".into()],
        (Some(l), _) => alloc::vec![format!("{root}.layers.{l}.{local}")],
        (None, _) => alloc::vec![format!("{root}.{local}")],
    };
    if family == "deepseek_v4" || family == "deepseek_v41" {
        names.extend(deepseek_v4_names(a, t, nth, &e));
    }
    if family.starts_with("bailing") || family == "param2moe" {
        // Ling's checkpoints (vLLM's `bailing_moe*.py`): `word_embeddings`, `attention.` with a
        // fused `query_key_value`, a `dense` output and a `g_proj` gate.
        let ling = |n: &String| {
            n.replace("embed_tokens", "word_embeddings")
                .replace(".self_attn.", ".attention.")
                .replace("qkv_proj", "query_key_value")
                .replace("o_proj", "dense")
                .replace("out_proj", "dense")
                .replace("output_gate", "g_proj")
        };
        let more: Vec<String> = names.iter().map(ling).filter(|n| !names.contains(n)).collect();
        names.extend(more);
    }
    Module { names, class }
}

/// DeepSeek V4's tensors as its own checkpoints name them (`layers.N.attn.wq_a`,
/// `layers.N.ffn.experts.E.w1`, `embed`, `head`: the names NVIDIA's ModelOpt lists refer to), and
/// as vLLM's model names them (`model.layers.N.attn.fused_wqa_wkv`,
/// `model.layers.N.ffn.experts.E.gate_proj`: what llm-compressor's targets match).
///
/// DeepSeek V4.1's Engram tensors (`layers.N.engram.embed`, `.wkv`) and DSpark's shared ones
/// (`mtp.0.main_proj`, `mtp.2.markov_head.*`, `mtp.2.confidence_head.proj`).
fn deepseek_v4_names(a: &Architecture, t: &Tensor, nth: usize, e: &str) -> Vec<String> {
    let in_stack = t.layer.is_some_and(|l| u64::from(l) < a.num_layers());
    let last = a.mtp.as_ref().map_or(0, |m| m.modules.saturating_sub(1));
    let (native, vllm): (&str, &str) = match t.role {
        Role::ExtraEmbd if in_stack => ("engram.embed", "engram.embed_tokens"),
        Role::Extra if in_stack => ("engram.wkv", "engram.wkv"),
        Role::MtpProj => return alloc::vec!["mtp.0.main_proj".into()],
        Role::ExtraEmbd => {
            let part = ["markov_head.embed", "markov_head.head", "confidence_head.proj"];
            return alloc::vec![format!("mtp.{last}.{}", part[nth.min(2)])];
        }
        Role::TokenEmbd => return alloc::vec!["embed".into(), "model.embed_tokens".into()],
        Role::Output => return alloc::vec!["head".into()],
        Role::AttnQA => ("attn.wq_a", "attn.fused_wqa_wkv"),
        Role::AttnKvA => ("attn.wkv", "attn.fused_wqa_wkv"),
        Role::AttnQB => ("attn.wq_b", "attn.wq_b"),
        Role::AttnOutA => ("attn.wo_a", "attn.wo_a"),
        Role::AttnOut => ("attn.wo_b", "attn.wo_b"),
        Role::Compressor => match nth {
            0 => ("attn.compressor.wkv", "attn.compressor.wkv"),
            1 => ("attn.compressor.wgate", "attn.compressor.wgate"),
            2 => ("attn.indexer.compressor.wkv", "attn.indexer.compressor.wkv"),
            _ => ("attn.indexer.compressor.wgate", "attn.indexer.compressor.wgate"),
        },
        Role::IdxQ => ("attn.indexer.wq_b", "attn.indexer.wq_b"),
        Role::IdxWeights => ("attn.indexer.weights_proj", "attn.indexer.weights_proj"),
        Role::Router => ("ffn.gate", "ffn.gate"),
        Role::ShGate => ("ffn.shared_experts.w1", "ffn.shared_experts.gate_proj"),
        Role::ShUp => ("ffn.shared_experts.w3", "ffn.shared_experts.up_proj"),
        Role::ShDown => ("ffn.shared_experts.w2", "ffn.shared_experts.down_proj"),
        Role::ExpGate | Role::ExpUp | Role::ExpDown => {
            let (w, proj) = match t.role {
                Role::ExpGate => ("w1", "gate_proj"),
                Role::ExpUp => ("w3", "up_proj"),
                _ => ("w2", "down_proj"),
            };
            let l = t.layer.unwrap_or(0);
            return alloc::vec![
                format!("layers.{l}.ffn.experts.{e}.{w}"),
                format!("model.layers.{l}.ffn.experts.{e}.{proj}"),
            ];
        }
        _ => return Vec::new(),
    };
    match t.layer {
        Some(l) => alloc::vec![format!("layers.{l}.{native}"), format!("model.layers.{l}.{vllm}")],
        None => Vec::new(),
    }
}

/// Bytes per format of a priced model, largest first (one entry for a single-format pricing).
pub fn bytes_by_format(p: &Priced, uniform: WeightFormat) -> Vec<(WeightFormat, u64)> {
    if p.formats.len() != p.bytes.len() {
        return alloc::vec![(uniform, p.total().get())];
    }
    let mut out: Vec<(WeightFormat, u64)> = Vec::new();
    for (f, b) in p.formats.iter().zip(&p.bytes) {
        match out.iter_mut().find(|(g, _)| g == f) {
            Some((_, s)) => *s = s.saturating_add(*b),
            None => out.push((*f, *b)),
        }
    }
    crate::sort::sort_by_key(&mut out, |x| core::cmp::Reverse(x.1));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_is_named_only_when_whole() {
        assert_eq!(layer_named("model.layers.12.self_attn"), Some(12));
        assert_eq!(layer_named("language_model.model.layers.0.self_attn*"), Some(0));
        assert_eq!(layer_named("model.layers.7"), Some(7));
        assert_eq!(layer_named("model.layers.1*"), None);
        assert_eq!(layer_named("*.layers.1.mlp"), None);
        assert_eq!(layer_named("lm_head"), None);
    }

    #[test]
    fn exclusions_match_whole_path_components() {
        assert!(module_hits("lm_head", "lm_head"));
        assert!(module_hits("self_attn", "model.layers.3.self_attn.q_proj"));
        assert!(!module_hits("gate", "model.layers.3.mlp.gate_proj"));
        assert!(module_hits("gate", "model.layers.3.mlp.gate"));
        assert!(module_hits("model.layers.3", "model.layers.3.mlp.gate"));
        assert!(!module_hits("model.layers.3", "model.layers.31.mlp.gate"));
        assert!(module_hits("model.layers.*.self_attn", "model.layers.31.self_attn.o_proj"));
        assert!(module_hits("*mlp.gate", "model.layers.31.mlp.gate"));
        assert!(!module_hits("*mlp.gate", "model.layers.31.mlp.gate_up_proj"));
    }
}
