//! A checkpoint's `quantization_config`, read into a per-tensor [`QuantPlan`].
//!
//! Each method's keys are read as its library writes them (sources in `docs/FORMULAS.md`):
//! compressed-tensors (`config_groups` with `targets`, `weights` and `input_activations`,
//! `ignore`, `kv_cache_scheme`), ModelOpt (`quant_algo`, `exclude_modules`, `quantized_layers`),
//! `fp8` (`weight_block_size`, `activation_scheme`, `ignored_layers` or `modules_to_not_convert`), `fbgemm_fp8`,
//! `mxfp4`, GPTQ (`bits`, `group_size`, `lm_head`, GPTQModel's `dynamic`), AWQ, bitsandbytes
//! (`llm_int8_skip_modules`), HQQ and AMD Quark (`global_quant_config`, `layer_quant_config`,
//! `exclude`). A key that is malformed or contradicts another is reported by its path; the
//! caller then falls back with a warning and a widened band.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::json::Value;
use crate::model::Architecture;
use crate::precision::{Grain, WeightFormat};
use crate::quant::{MatchKind, Matcher, QuantPlan, QuantRule};
use crate::text::{Arg, Msg, MsgId};

/// What reading a `quantization_config` gave.
pub(crate) struct Read {
    /// The per-tensor plan (its headline set later, from the architecture).
    pub plan: Option<QuantPlan>,
    /// A single format when only that is known (a fallback).
    pub fallback: Option<WeightFormat>,
    /// Notices: faults, approximations, KV-cache scales.
    pub notices: Vec<Msg>,
}

type Fault = String;

fn fault(field: &str, why: &str) -> Fault {
    format!("`{field}` {why}")
}

/// Reads `q` for a checkpoint whose unquantized tensors are in `base`.
pub(crate) fn read(q: &Value, base: WeightFormat) -> Read {
    // A ModelOpt export may name itself only as the producer (`"producer": {"name": "modelopt"}`).
    let producer = q.get("producer").and_then(|p| p.get("name")).and_then(Value::as_str);
    let method = q
        .get("quant_method")
        .and_then(Value::as_str)
        .or(producer.filter(|p| p.eq_ignore_ascii_case("modelopt")))
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut notices = Vec::new();
    let planned = match method.as_str() {
        "compressed-tensors" => compressed_tensors(q, base, &mut notices),
        "modelopt" => modelopt(q, base, &mut notices),
        "fp8" | "fbgemm_fp8" => fp8(q, &method, base),
        "mxfp4" => single(q, &method, base, WeightFormat::Mxfp4, "modules_to_not_convert"),
        "gptq" | "awq" => gptq_awq(q, &method, base),
        "bitsandbytes" => bitsandbytes(q, base),
        "hqq" => hqq(q, base, &mut notices),
        "quark" => quark(q, base, &mut notices),
        _ => {
            notices.push(Msg::new(
                MsgId::NoticeUnknownQuant,
                vec![Arg::Text(if method.is_empty() { "(unnamed)".into() } else { method.clone() })],
            ));
            return Read { plan: None, fallback: None, notices };
        }
    };
    match planned {
        Ok(plan) => Read { plan: Some(plan), fallback: None, notices },
        Err(why) => {
            let fallback = legacy_guess(q, &method);
            notices.push(Msg::new(
                MsgId::NoticeQuantInvalid,
                vec![
                    Arg::Text(method),
                    Arg::Text(why),
                    Arg::Text(fallback.map_or_else(|| base.label(), WeightFormat::label)),
                ],
            ));
            Read { plan: None, fallback, notices }
        }
    }
}

/// The whole-checkpoint format a method most often means, for a config whose details are broken.
fn legacy_guess(q: &Value, method: &str) -> Option<WeightFormat> {
    let bits = q.get("bits").and_then(Value::as_u64).unwrap_or(4);
    match method {
        "fp8" | "fbgemm_fp8" => Some(WeightFormat::Fp8),
        "mxfp4" => Some(WeightFormat::Mxfp4),
        "modelopt" => {
            match q.get("quant_algo").and_then(Value::as_str).map(str::to_ascii_uppercase).as_deref() {
                Some("NVFP4") => Some(WeightFormat::Nvfp4),
                Some("W4A16_NVFP4") => Some(WeightFormat::Nvfp4A16),
                Some("FP8") => {
                    Some(WeightFormat::Fp8Scaled { grain: Grain::Tensor, scale_bytes: 4, input_bytes: 4 })
                }
                _ => None,
            }
        }
        "compressed-tensors" => match q.get("format").and_then(Value::as_str) {
            Some("nvfp4-pack-quantized") => Some(WeightFormat::Nvfp4),
            Some("float-quantized") => {
                Some(WeightFormat::Fp8Scaled { grain: Grain::Channel, scale_bytes: 2, input_bytes: 0 })
            }
            Some("pack-quantized") => Some(WeightFormat::IntScaled {
                bits: 4,
                grain: Grain::Group(128),
                zero_point: false,
                packed: true,
            }),
            _ => None,
        },
        "gptq" if matches!(bits, 2 | 3 | 4 | 8) => Some(WeightFormat::Gptq { bits: bits as u8, group: 128 }),
        "awq" => Some(WeightFormat::Awq { bits: 4, group: 128 }),
        "bitsandbytes" => Some(WeightFormat::Nf4 { double_quant: false }),
        _ => None,
    }
}

/// Bytes of one value in the checkpoint's float dtype (its scales are stored so).
fn dtype_bytes(base: WeightFormat) -> u8 {
    if base == WeightFormat::F32 { 4 } else { 2 }
}

fn strings<'a>(v: &'a Value, field: &str) -> Result<Vec<&'a str>, Fault> {
    if v.is_null() {
        return Ok(Vec::new());
    }
    if let Some(s) = v.as_str() {
        return Ok(vec![s]);
    }
    let list = v.as_array().ok_or_else(|| fault(field, "must be a list of module names or patterns"))?;
    if list.len() > 100_000 {
        return Err(fault(field, "lists more than 100000 entries"));
    }
    list.iter()
        .enumerate()
        .map(|(i, x)| x.as_str().ok_or_else(|| fault(&format!("{field}[{i}]"), "is not a string")))
        .collect()
}

/// A list of entries: `re:` patterns, else compared as `plain` says (compressed-tensors: the exact
/// module or class name; `modules_to_not_convert` and the like: a module path or wildcard).
fn matchers(v: Option<&Value>, field: &str, plain: MatchKind) -> Result<Vec<Matcher>, Fault> {
    let Some(v) = v else { return Ok(Vec::new()) };
    strings(v, field)?
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let f = format!("{field}[{i}]");
            match s.strip_prefix("re:") {
                Some(r) => Matcher::new(MatchKind::Regex, r, &f),
                None => Matcher::new(plain, s, &f),
            }
            .map_err(|e| e.to_string())
        })
        .collect()
}

/// compressed-tensors' entries.
fn ct_matchers(v: Option<&Value>, field: &str) -> Result<Vec<Matcher>, Fault> {
    matchers(v, field, MatchKind::Exact)
}

/// `modules_to_not_convert`-style entries.
fn module_matchers(v: Option<&Value>, field: &str) -> Result<Vec<Matcher>, Fault> {
    matchers(v, field, MatchKind::Module)
}

fn default_target() -> Vec<Matcher> {
    vec![Matcher { kind: MatchKind::Default, text: String::new(), field: String::new() }]
}

fn plan(method: &str, rules: Vec<QuantRule>, ignore: Vec<Matcher>, base: WeightFormat) -> QuantPlan {
    let headline = rules.first().map_or(base, |r| r.format);
    QuantPlan { method: method.into(), headline, rules, ignore, base, resolved: Vec::new() }
}

fn single(
    q: &Value,
    method: &str,
    base: WeightFormat,
    f: WeightFormat,
    key: &str,
) -> Result<QuantPlan, Fault> {
    let ignore = module_matchers(q.get(key), &format!("quantization_config.{key}"))?;
    Ok(plan(method, vec![QuantRule { targets: default_target(), format: f }], ignore, base))
}

fn group_size(v: Option<&Value>, field: &str) -> Result<Option<u32>, Fault> {
    match v {
        None => Ok(None),
        Some(x) if x.is_null() => Ok(None),
        Some(x) => match x.as_f64() {
            Some(-1.0) => Ok(Some(0)),
            Some(g) if (1.0..=65_536.0).contains(&g) && g == (g as u32) as f64 => Ok(Some(g as u32)),
            _ => Err(fault(field, "must be a positive whole number of inputs (or -1 for per-channel)")),
        },
    }
}

fn compressed_tensors(q: &Value, base: WeightFormat, notices: &mut Vec<Msg>) -> Result<QuantPlan, Fault> {
    const F: &str = "quantization_config";
    let top_format = q.get("format").and_then(Value::as_str);
    let groups = q
        .get("config_groups")
        .and_then(Value::as_object)
        .ok_or_else(|| fault("quantization_config.config_groups", "is missing or not an object"))?;
    let mut rules = Vec::new();
    for (name, g) in groups {
        let gf = format!("{F}.config_groups.{name}");
        let targets = ct_matchers(g.get("targets"), &format!("{gf}.targets"))?;
        if targets.is_empty() {
            return Err(fault(&format!("{gf}.targets"), "is empty: the group quantizes nothing"));
        }
        let Some(w) = g.get("weights").filter(|w| !w.is_null()) else {
            // Activations only (W16A8 …): the weights stay in the model's dtype.
            continue;
        };
        let wf = format!("{gf}.weights");
        let bits = w
            .get("num_bits")
            .and_then(Value::as_u64)
            .ok_or_else(|| fault(&format!("{wf}.num_bits"), "is missing"))?;
        let kind = w.get("type").and_then(Value::as_str).unwrap_or("int");
        let symmetric = w.get("symmetric").and_then(Value::as_bool).unwrap_or(true);
        let strategy = w.get("strategy").and_then(Value::as_str).unwrap_or("tensor");
        let gs = group_size(w.get("group_size"), &format!("{wf}.group_size"))?;
        let grain = match strategy {
            "tensor" | "channel" if gs.is_some_and(|g| g > 0) => {
                return Err(fault(
                    &format!("{wf}.group_size"),
                    &format!("is set but the strategy `{strategy}` has no groups: the two contradict"),
                ));
            }
            "tensor" => Grain::Tensor,
            "channel" => Grain::Channel,
            "group" | "tensor_group" => match gs {
                Some(g) if g > 0 => Grain::Group(g),
                _ => {
                    return Err(fault(
                        &format!("{wf}.group_size"),
                        &format!("is needed by the strategy `{strategy}`"),
                    ));
                }
            },
            "block" => {
                let b = w.get("block_structure");
                let dims: Option<(u32, u32)> = match b {
                    Some(Value::Array(d)) if d.len() == 2 => match (d[0].as_u64(), d[1].as_u64()) {
                        (Some(r), Some(c)) if (1..=65_536).contains(&r) && (1..=65_536).contains(&c) => {
                            Some((r as u32, c as u32))
                        }
                        _ => None,
                    },
                    Some(Value::String(s)) => {
                        s.split_once('x').and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
                    }
                    _ => None,
                };
                let (r, c) = dims.ok_or_else(|| {
                    fault(&format!("{wf}.block_structure"), "must be [rows, cols] for the strategy `block`")
                })?;
                Grain::Block(r, c)
            }
            other => {
                return Err(fault(
                    &format!("{wf}.strategy"),
                    &format!("`{other}` is not a compressed-tensors strategy"),
                ));
            }
        };
        let format = g.get("format").and_then(Value::as_str).or(top_format).unwrap_or("");
        let static_input = g
            .get("input_activations")
            .filter(|a| !a.is_null())
            .is_some_and(|a| a.get("dynamic").and_then(Value::as_bool) == Some(false));
        let sb = dtype_bytes(base);
        let f = match (kind, bits, format) {
            ("int", 2 | 4 | 8, "pack-quantized") => WeightFormat::IntScaled {
                bits: bits as u8,
                grain,
                zero_point: !symmetric && matches!(grain, Grain::Group(_) | Grain::Channel),
                packed: true,
            },
            ("int", 8, "int-quantized" | "naive-quantized") => {
                WeightFormat::IntScaled { bits: 8, grain, zero_point: !symmetric, packed: false }
            }
            ("float", 8, "float-quantized" | "naive-quantized") => WeightFormat::Fp8Scaled {
                grain,
                scale_bytes: sb,
                input_bytes: if static_input { sb } else { 0 },
            },
            // W4A4 stores an input global scale beside the weight's; NVFP4A16 does not.
            ("float", 4, "nvfp4-pack-quantized") if grain == Grain::Group(16) => {
                if g.get("input_activations").is_some_and(|a| !a.is_null()) {
                    WeightFormat::Nvfp4
                } else {
                    WeightFormat::Nvfp4A16
                }
            }
            ("float", 4, "mxfp4-pack-quantized") if grain == Grain::Group(32) => WeightFormat::Mxfp4,
            ("float", 4, _) => {
                return Err(fault(
                    &format!("{wf}.group_size"),
                    &format!(
                        "{grain:?} with format `{format}`: NVFP4 packs groups of 16, MXFP4 groups of 32"
                    ),
                ));
            }
            ("int" | "float", _, "") => {
                return Err(fault(&format!("{gf}.format"), "is missing (and no top-level format)"));
            }
            ("int" | "float", _, _) => {
                return Err(fault(
                    &format!("{gf}.format"),
                    &format!("`{format}` does not store {bits}-bit {kind} weights in a way Headroom reads"),
                ));
            }
            (other, _, _) => {
                return Err(fault(&format!("{wf}.type"), &format!("`{other}` is neither int nor float")));
            }
        };
        rules.push(QuantRule { targets, format: f });
    }
    if rules.is_empty() {
        return Err(fault("quantization_config.config_groups", "quantizes no weights"));
    }
    let ignore = ct_matchers(q.get("ignore"), "quantization_config.ignore")?;
    if q.get("kv_cache_scheme").is_some_and(|k| !k.is_null()) {
        notices.push(Msg::new(MsgId::NoticeKvScales, vec![]));
    }
    Ok(plan("compressed-tensors", rules, ignore, base))
}

fn modelopt_format(algo: &str, field: &str, group: Option<u32>) -> Result<WeightFormat, Fault> {
    match algo.to_ascii_uppercase().as_str() {
        "FP8" => Ok(WeightFormat::Fp8Scaled { grain: Grain::Tensor, scale_bytes: 4, input_bytes: 4 }),
        "FP8_PER_CHANNEL_PER_TOKEN" => {
            Ok(WeightFormat::Fp8Scaled { grain: Grain::Channel, scale_bytes: 4, input_bytes: 0 })
        }
        // MXFP8: E4M3 weights with an E8M0 (one-byte) scale per 32 inputs.
        "MXFP8" => Ok(WeightFormat::Fp8Scaled { grain: Grain::Group(32), scale_bytes: 1, input_bytes: 0 }),
        "FP8_PB_WO" => {
            Ok(WeightFormat::Fp8Scaled { grain: Grain::Block(128, 128), scale_bytes: 4, input_bytes: 0 })
        }
        // W4A16_NVFP4: the same weights (E2M1, an FP8 scale per 16, a per-tensor FP32 scale), the
        // activations left in 16 bits.
        a @ ("NVFP4" | "W4A16_NVFP4") => match group {
            None | Some(16) if a == "NVFP4" => Ok(WeightFormat::Nvfp4),
            None | Some(16) => Ok(WeightFormat::Nvfp4A16),
            Some(g) => Err(fault(
                "quantization_config.group_size",
                &format!("is {g}, but NVFP4 scales groups of 16"),
            )),
        },
        other => Err(fault(
            field,
            &format!(
                "`{other}` is not a ModelOpt algorithm Headroom reads (FP8, FP8_PER_CHANNEL_PER_TOKEN, FP8_PB_WO, MXFP8, NVFP4, W4A16_NVFP4, MIXED_PRECISION)"
            ),
        )),
    }
}

fn modelopt(q: &Value, base: WeightFormat, notices: &mut Vec<Msg>) -> Result<QuantPlan, Fault> {
    // Either flat (config.json) or as `hf_quant_config.json` writes it, under `quantization`.
    let q = q.get("quantization").filter(|v| v.as_object().is_some()).unwrap_or(q);
    let algo = q
        .get("quant_algo")
        .and_then(Value::as_str)
        .ok_or_else(|| fault("quantization_config.quant_algo", "is missing"))?;
    let group = group_size(q.get("group_size"), "quantization_config.group_size")?;
    let exclude_key = if q.get("exclude_modules").is_some() { "exclude_modules" } else { "ignore" };
    let ignore = module_matchers(q.get(exclude_key), &format!("quantization_config.{exclude_key}"))?;
    if q.get("kv_cache_quant_algo").is_some_and(|k| !k.is_null()) {
        notices.push(Msg::new(MsgId::NoticeKvScales, vec![]));
    }
    let rules = if algo.eq_ignore_ascii_case("MIXED_PRECISION") {
        let layers = q
            .get("quantized_layers")
            .and_then(Value::as_object)
            .ok_or_else(|| fault("quantization_config.quantized_layers", "is needed by MIXED_PRECISION"))?;
        let mut rules: Vec<QuantRule> = Vec::new();
        for (name, l) in layers {
            let f = format!("quantization_config.quantized_layers.{name}.quant_algo");
            let a = l.get("quant_algo").and_then(Value::as_str).ok_or_else(|| fault(&f, "is missing"))?;
            let g = group_size(l.get("group_size"), &f)?;
            let format = modelopt_format(a, &f, g)?;
            let m = Matcher::new(MatchKind::Module, name, &f).map_err(|e| e.to_string())?;
            match rules.iter_mut().find(|r| r.format == format) {
                Some(r) => r.targets.push(m),
                None => rules.push(QuantRule { targets: vec![m], format }),
            }
        }
        rules
    } else {
        vec![QuantRule {
            targets: default_target(),
            format: modelopt_format(algo, "quantization_config.quant_algo", group)?,
        }]
    };
    Ok(plan("modelopt", rules, ignore, base))
}

fn fp8(q: &Value, method: &str, base: WeightFormat) -> Result<QuantPlan, Fault> {
    let format = if method == "fbgemm_fp8" {
        // FBGEMM: an FP32 scale per output row.
        WeightFormat::Fp8Scaled { grain: Grain::Channel, scale_bytes: 4, input_bytes: 0 }
    } else {
        let static_input = match q.get("activation_scheme").and_then(Value::as_str) {
            None | Some("dynamic") => false,
            Some("static") => true,
            Some(other) => {
                return Err(fault(
                    "quantization_config.activation_scheme",
                    &format!("`{other}` is neither dynamic nor static"),
                ));
            }
        };
        match q.get("weight_block_size").filter(|v| !v.is_null()) {
            None => WeightFormat::Fp8Scaled {
                grain: Grain::Tensor,
                scale_bytes: 4,
                input_bytes: if static_input { 4 } else { 0 },
            },
            Some(b) => {
                let d = b
                    .as_array()
                    .filter(|d| d.len() == 2)
                    .ok_or_else(|| fault("quantization_config.weight_block_size", "must be [rows, cols]"))?;
                let ok = |v: &Value| v.as_u64().filter(|n| (1..=65_536).contains(n)).map(|n| n as u32);
                let (Some(r), Some(c)) = (ok(&d[0]), ok(&d[1])) else {
                    return Err(fault("quantization_config.weight_block_size", "must be two positive sizes"));
                };
                if static_input {
                    return Err(fault(
                        "quantization_config.activation_scheme",
                        "is static, but block-scaled FP8 quantizes activations dynamically: the two contradict",
                    ));
                }
                // DeepSeek's `weight_scale_inv`: FP32 per block (also with UE8M0 scale values).
                if (r, c) == (128, 128) {
                    WeightFormat::Fp8
                } else {
                    WeightFormat::Fp8Scaled { grain: Grain::Block(r, c), scale_bytes: 4, input_bytes: 0 }
                }
            }
        }
    };
    // vLLM's `Fp8Config` reads `ignored_layers` first (MiMo-V2.5 lists every `o_proj` there),
    // `modules_to_not_convert` when that is absent or empty.
    let listed = |k: &str| q.get(k).and_then(Value::as_array).is_some_and(|a| !a.is_empty());
    let key = if method != "fbgemm_fp8" && listed("ignored_layers") {
        "ignored_layers"
    } else {
        "modules_to_not_convert"
    };
    single(q, method, base, format, key)
}

fn gptq_awq(q: &Value, method: &str, base: WeightFormat) -> Result<QuantPlan, Fault> {
    let bits = q.get("bits").or_else(|| q.get("w_bit")).and_then(Value::as_u64).unwrap_or(4);
    let group =
        group_size(q.get("group_size").or_else(|| q.get("q_group_size")), "quantization_config.group_size")?
            .unwrap_or(128);
    let make = |bits: u64, group: u32, field: &str| -> Result<WeightFormat, Fault> {
        if method == "gptq" {
            if !matches!(bits, 2 | 3 | 4 | 8) {
                return Err(fault(field, &format!("is {bits}: GPTQ stores 2, 3, 4 or 8 bits")));
            }
            Ok(WeightFormat::Gptq { bits: bits as u8, group })
        } else {
            if bits != 4 {
                return Err(fault(field, &format!("is {bits}: AWQ stores 4 bits")));
            }
            if group == 0 {
                return Err(fault("quantization_config.group_size", "is -1: AWQ needs groups"));
            }
            Ok(WeightFormat::Awq { bits: 4, group })
        }
    };
    let main = make(bits, group, "quantization_config.bits")?;
    let mut ignore =
        module_matchers(q.get("modules_to_not_convert"), "quantization_config.modules_to_not_convert")?;
    let mut rules = Vec::new();
    // GPTQModel's per-module overrides: `-:pattern` skips, `+:pattern` (or a bare pattern) sets
    // its own bits and group size.
    if let Some(d) = q.get("dynamic").filter(|v| !v.is_null()) {
        let d = d
            .as_object()
            .ok_or_else(|| fault("quantization_config.dynamic", "must be an object of patterns"))?;
        for (k, v) in d {
            let field = format!("quantization_config.dynamic.{k}");
            if let Some(r) = k.strip_prefix("-:") {
                ignore.push(Matcher::new(MatchKind::Regex, r, &field).map_err(|e| e.to_string())?);
                continue;
            }
            let r = k.strip_prefix("+:").unwrap_or(k);
            let b = v.get("bits").and_then(Value::as_u64).unwrap_or(bits);
            let g = group_size(v.get("group_size"), &format!("{field}.group_size"))?.unwrap_or(group);
            let f = make(b, g, &format!("{field}.bits"))?;
            rules.push(QuantRule {
                targets: vec![Matcher::new(MatchKind::Regex, r, &field).map_err(|e| e.to_string())?],
                format: f,
            });
        }
    }
    if q.get("lm_head").and_then(Value::as_bool) == Some(true) {
        rules.push(QuantRule {
            targets: vec![
                Matcher::new(MatchKind::Exact, "lm_head", "quantization_config.lm_head")
                    .map_err(|e| e.to_string())?,
            ],
            format: main,
        });
    }
    rules.push(QuantRule { targets: default_target(), format: main });
    let mut p = plan(method, rules, ignore, base);
    p.headline = main;
    Ok(p)
}

fn bitsandbytes(q: &Value, base: WeightFormat) -> Result<QuantPlan, Fault> {
    let four = q.get("load_in_4bit").and_then(Value::as_bool) == Some(true);
    let eight = q.get("load_in_8bit").and_then(Value::as_bool) == Some(true);
    let format = match (four, eight) {
        (true, true) => {
            return Err(fault(
                "quantization_config.load_in_4bit",
                "and load_in_8bit are both true: they contradict",
            ));
        }
        (true, false) => WeightFormat::Nf4 {
            double_quant: q.get("bnb_4bit_use_double_quant").and_then(Value::as_bool).unwrap_or(false),
        },
        (false, true) => WeightFormat::Int8,
        (false, false) => {
            return Err(fault(
                "quantization_config.load_in_4bit",
                "and load_in_8bit are both unset: nothing is quantized",
            ));
        }
    };
    // transformers keeps the output head unquantized when no skip list is given.
    let mut p = single(q, "bitsandbytes", base, format, "llm_int8_skip_modules")?;
    if q.get("llm_int8_skip_modules").is_none_or(Value::is_null) {
        p.ignore.push(Matcher { kind: MatchKind::Module, text: "lm_head".into(), field: "(default)".into() });
    }
    Ok(p)
}

fn hqq(q: &Value, base: WeightFormat, notices: &mut Vec<Msg>) -> Result<QuantPlan, Fault> {
    let params = q
        .get("quant_config")
        .and_then(|c| c.get("weight_quant_params").or(Some(c)))
        .ok_or_else(|| fault("quantization_config.quant_config", "is missing"))?;
    let bits = params
        .get("nbits")
        .and_then(Value::as_u64)
        .ok_or_else(|| fault("quantization_config.quant_config.weight_quant_params.nbits", "is missing"))?;
    if !matches!(bits, 2 | 4 | 8) {
        return Err(fault(
            "quantization_config.quant_config.weight_quant_params.nbits",
            &format!("is {bits}: Headroom reads 2, 4 or 8"),
        ));
    }
    let g = group_size(
        params.get("group_size"),
        "quantization_config.quant_config.weight_quant_params.group_size",
    )?
    .unwrap_or(64);
    if g == 0 {
        return Err(fault(
            "quantization_config.quant_config.weight_quant_params.group_size",
            "must be a group size",
        ));
    }
    notices.push(Msg::new(MsgId::NoticeQuantApprox, vec![Arg::Text("hqq".into())]));
    // HQQ: packed codes with a 16-bit scale and a 16-bit zero per group: priced as packed codes
    // with scales and packed zero points, a few percent under.
    let format =
        WeightFormat::IntScaled { bits: bits as u8, grain: Grain::Group(g), zero_point: true, packed: true };
    single(q, "hqq", base, format, "skip_modules")
}

fn quark_format(w: &Value, field: &str) -> Result<WeightFormat, Fault> {
    let dtype = w
        .get("dtype")
        .and_then(Value::as_str)
        .ok_or_else(|| fault(&format!("{field}.dtype"), "is missing"))?;
    let scheme = w.get("qscheme").and_then(Value::as_str).unwrap_or("per_tensor");
    let g = group_size(w.get("group_size"), &format!("{field}.group_size"))?;
    let grain = match scheme {
        "per_tensor" => Grain::Tensor,
        "per_channel" => Grain::Channel,
        "per_group" => Grain::Group(
            g.filter(|g| *g > 0)
                .ok_or_else(|| fault(&format!("{field}.group_size"), "is needed by per_group"))?,
        ),
        other => return Err(fault(&format!("{field}.qscheme"), &format!("`{other}` is not a Quark scheme"))),
    };
    Ok(match (dtype, grain) {
        ("fp8_e4m3" | "fp8_e5m2", Grain::Tensor | Grain::Channel) => {
            WeightFormat::Fp8Scaled { grain, scale_bytes: 4, input_bytes: 0 }
        }
        ("fp4" | "mx_fp4" | "mxfp4", Grain::Group(32)) => WeightFormat::Mxfp4,
        ("int8" | "uint8", _) => {
            WeightFormat::IntScaled { bits: 8, grain, zero_point: dtype == "uint8", packed: false }
        }
        ("int4" | "uint4", Grain::Group(_) | Grain::Channel) => {
            WeightFormat::IntScaled { bits: 4, grain, zero_point: dtype == "uint4", packed: true }
        }
        _ => {
            return Err(fault(
                &format!("{field}.dtype"),
                &format!("`{dtype}` with `{scheme}` is not a layout Headroom reads"),
            ));
        }
    })
}

fn quark(q: &Value, base: WeightFormat, notices: &mut Vec<Msg>) -> Result<QuantPlan, Fault> {
    let mut rules = Vec::new();
    if let Some(layers) = q.get("layer_quant_config").and_then(Value::as_object) {
        for (pattern, c) in layers {
            let field = format!("quantization_config.layer_quant_config.{pattern}.weight");
            let Some(w) = c.get("weight").filter(|w| !w.is_null()) else { continue };
            let m = Matcher::new(MatchKind::Module, pattern, &field).map_err(|e| e.to_string())?;
            rules.push(QuantRule { targets: vec![m], format: quark_format(w, &field)? });
        }
    }
    let g = q
        .get("global_quant_config")
        .ok_or_else(|| fault("quantization_config.global_quant_config", "is missing"))?;
    if let Some(w) = g.get("weight").filter(|w| !w.is_null()) {
        rules.push(QuantRule {
            targets: default_target(),
            format: quark_format(w, "quantization_config.global_quant_config.weight")?,
        });
    }
    if rules.is_empty() {
        return Err(fault("quantization_config.global_quant_config.weight", "quantizes no weights"));
    }
    notices.push(Msg::new(MsgId::NoticeQuantApprox, vec![Arg::Text("quark".into())]));
    let ignore = module_matchers(q.get("exclude"), "quantization_config.exclude")?;
    let mut p = plan("quark", rules, ignore, base);
    p.headline = p.rules.last().map_or(base, |r| r.format);
    Ok(p)
}

/// Sets the plan's headline to the format that holds the most bytes of `a`.
/// DeepSeek V4's checkpoints beside their `fp8` block config (the reference `inference/model.py`
/// and vLLM's `DeepseekV4FP8Config`): the FP8 matrices' block scales are stored as one UE8M0
/// byte each (`.scale`, not DeepSeek V3's FP32 `weight_scale_inv`), and the routed experts
/// follow `expert_dtype` — `fp4` (the default when the key is absent, as vLLM reads it): E2M1
/// pairs with one E8M0 scale per 32 values, MXFP4's bytes; `fp8`: the FP8 blocks of the rest.
/// The compressors, the indexer's head weights and the routers carry no quantization.
///
/// # Errors
/// The reason, naming the field, when `expert_dtype` is neither `fp4` nor `fp8`.
///
/// DeepSeek V4.1 (`engram`): the same with 32 × 32 blocks (its `weight_block_size`), and the
/// Engram n-gram tables in FP8 with a UE8M0 scale per 32 values of a row (`engram.embed.weight`
/// and `.scale`).
pub(crate) fn deepseek_v4(
    plan: &mut QuantPlan,
    expert_dtype: Option<&str>,
    engram: bool,
) -> Result<(), String> {
    let fp4 = match expert_dtype {
        None | Some("fp4") => true,
        Some("fp8") => false,
        Some(other) => return Err(format!("expert_dtype `{other}` is neither fp4 nor fp8")),
    };
    for r in &mut plan.rules {
        let block = match r.format {
            WeightFormat::Fp8 => (128, 128),
            WeightFormat::Fp8Scaled { grain: Grain::Block(rows, cols), .. } => (rows, cols),
            _ => continue,
        };
        r.format =
            WeightFormat::Fp8Scaled { grain: Grain::Block(block.0, block.1), scale_bytes: 1, input_bytes: 0 };
    }
    if fp4 {
        plan.rules.insert(0, QuantRule { targets: default_target(), format: WeightFormat::Mxfp4 });
    }
    if engram {
        let table = Matcher {
            kind: MatchKind::Regex,
            text: r"layers\.\d+\.engram\.embed$".into(),
            field: "engram.embed".into(),
        };
        plan.rules.insert(
            0,
            QuantRule {
                targets: vec![table],
                format: WeightFormat::Fp8Scaled {
                    grain: Grain::Block(1, 32),
                    scale_bytes: 1,
                    input_bytes: 0,
                },
            },
        );
    }
    Ok(())
}

pub(crate) fn settle(plan: &mut QuantPlan, a: &Architecture) {
    let Ok(p) = crate::quant::price(a, plan) else { return };
    plan.resolved = p.formats.iter().copied().zip(p.bytes.iter().copied()).collect();
    if let Some((f, _)) =
        crate::quant::bytes_by_format(&p, plan.headline).into_iter().find(|(f, _)| *f != plan.base)
    {
        plan.headline = f;
    }
}
