//! Hugging Face `config.json` → [`Architecture`].
//!
//! Each family is read the way `transformers` builds the model: the same keys, the same defaults
//! when a key is absent (a published Gemma 3 config omits the head counts because they equal the
//! defaults), the same biases and norms. Nested `text_config` (Gemma 3, multimodal wrappers) is
//! read as the language model, with the outer config's dtype and quantization.
//!
//! An unknown `model_type` is read as a Llama-style decoder with a notice naming what was
//! assumed; a config missing what no default can supply is an error, never a silent guess.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::json::{self, Value};
use crate::model::{
    Architecture, Attention, MlaAttention, Mlp, Moe, NormKind, Norms, QkNorm, StandardAttention,
};
use crate::precision::WeightFormat;
use crate::text::{Arg, Msg, MsgId};

const FORMAT: &str = "config.json";

/// A model read from its `config.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct HfModel {
    /// The architecture.
    pub architecture: Architecture,
    /// The checkpoint's weight format: its quantization if any, else its `torch_dtype`.
    pub format: Option<WeightFormat>,
    /// What was assumed while reading (defaults, unknown family, unknown quantization).
    pub notices: Vec<Msg>,
    /// `_name_or_path`, when present.
    pub name: Option<String>,
}

/// Reads a `config.json`.
///
/// # Errors
/// [`Error::Parse`] when the text is not JSON or lacks what the family needs;
/// [`Error::Invalid`] when the shape does not make sense (heads that do not divide…).
///
/// # Example
/// ```
/// let cfg = br#"{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
///   "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000}"#;
/// let m = headroom_core::import::hf::parse_config(cfg).unwrap();
/// assert_eq!(m.architecture.params_total().unwrap().get(), 6_738_415_616);
/// ```
pub fn parse_config(bytes: &[u8]) -> Result<HfModel> {
    let root = json::parse(bytes, FORMAT)?;
    if root.as_object().is_none() {
        return Err(Error::parse(FORMAT, "the file is not a JSON object"));
    }
    let mut notices = Vec::new();
    // Multimodal wrappers keep the language model in `text_config`.
    let text = root.get("text_config").filter(|v| v.as_object().is_some());
    let cfg = Cfg { main: text.unwrap_or(&root), outer: &root };
    let outer_type = root.get("model_type").and_then(Value::as_str).unwrap_or("");
    let model_type = cfg.str("model_type").unwrap_or(outer_type).to_string();
    let family = normalise_family(&model_type, outer_type);
    let architecture = read_family(&cfg, &family, &model_type, &mut notices)?;
    architecture.validate().map_err(|e| match e {
        Error::Invalid { field, reason } => Error::parse(FORMAT, format!("{field}: {reason}")),
        other => other,
    })?;
    architecture.param_breakdown()?;
    if root.get("vision_config").is_some() || root.get("audio_config").is_some() {
        notices.push(Msg::new(MsgId::NoticeEncoderNotCounted, Vec::new()));
    }
    let format = read_format(&root, &cfg, &mut notices);
    let name = root.get("_name_or_path").and_then(Value::as_str).filter(|s| !s.is_empty()).map(String::from);
    Ok(HfModel { architecture, format, notices, name })
}

/// The text config with a fallback to the outer one.
struct Cfg<'a> {
    main: &'a Value,
    outer: &'a Value,
}

impl Cfg<'_> {
    fn raw(&self, key: &str) -> Option<&Value> {
        self.main.get(key).or_else(|| self.outer.get(key)).filter(|v| !v.is_null())
    }

    fn str(&self, key: &str) -> Option<&str> {
        self.main.get(key).and_then(Value::as_str)
    }

    /// A count: absent or null is `None`; present but not a non-negative integer is an error.
    fn count(&self, key: &str) -> Result<Option<u64>> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| Error::parse(FORMAT, format!("`{key}` must be a non-negative integer"))),
        }
    }

    fn count_or(&self, key: &str, default: u64) -> Result<u64> {
        Ok(self.count(key)?.unwrap_or(default))
    }

    /// The first of several spellings that is present.
    fn count_any(&self, keys: &[&str]) -> Result<Option<u64>> {
        for k in keys {
            if let Some(v) = self.count(k)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    fn required(&self, keys: &[&str]) -> Result<u64> {
        self.count_any(keys)?.ok_or_else(|| {
            Error::parse(FORMAT, format!("`{}` is missing and this family has no default for it", keys[0]))
        })
    }

    fn flag(&self, key: &str) -> Option<bool> {
        self.raw(key).and_then(Value::as_bool)
    }

    fn layer_types(&self) -> Option<Vec<bool>> {
        let list = self.raw("layer_types")?.as_array()?;
        Some(
            list.iter()
                .map(|v| matches!(v.as_str(), Some("sliding_attention" | "sliding" | "local")))
                .collect(),
        )
    }
}

fn normalise_family(model_type: &str, outer: &str) -> String {
    let t = if model_type.is_empty() { outer } else { model_type };
    match t {
        "gemma3" => "gemma3_text".into(),
        other => other.to_string(),
    }
}

/// Per-family defaults of `transformers`' config classes, for keys a published config omits.
struct Defaults {
    vocab: u64,
    hidden: u64,
    inter: u64,
    layers: u64,
    heads: u64,
    /// `None`: equal to the head count.
    kv: Option<u64>,
    head_dim: Option<u64>,
    tie: bool,
}

fn defaults(family: &str) -> Option<Defaults> {
    let d = |vocab, hidden, inter, layers, heads, kv, head_dim, tie| Defaults {
        vocab,
        hidden,
        inter,
        layers,
        heads,
        kv,
        head_dim,
        tie,
    };
    Some(match family {
        "llama" | "granite" | "olmo2" => d(32000, 4096, 11008, 32, 32, None, None, false),
        "mistral" => d(32000, 4096, 14336, 32, 32, Some(8), None, false),
        "mixtral" => d(32000, 4096, 14336, 32, 32, Some(8), None, false),
        "qwen2" => d(151936, 4096, 22016, 32, 32, Some(32), None, false),
        "qwen2_moe" => d(151936, 2048, 5632, 24, 16, Some(16), None, false),
        "qwen3" => d(151936, 4096, 22016, 32, 32, Some(32), Some(128), false),
        "qwen3_moe" => d(151936, 2048, 6144, 24, 32, Some(4), None, false),
        "gemma" => d(256000, 3072, 24576, 28, 16, Some(16), Some(256), true),
        "gemma2" => d(256000, 2304, 9216, 26, 8, Some(4), Some(256), true),
        "gemma3_text" => d(262208, 2304, 9216, 26, 8, Some(4), Some(256), true),
        "phi3" => d(32064, 3072, 8192, 32, 32, None, None, false),
        "deepseek_v2" => d(102400, 4096, 11008, 30, 32, Some(32), None, false),
        "deepseek_v3" => d(129280, 7168, 18432, 61, 128, Some(128), None, false),
        "gpt_oss" => d(201088, 2880, 2880, 36, 64, Some(8), Some(64), false),
        "gpt_neox" => d(50432, 6144, 24576, 44, 64, None, None, false),
        _ => return None,
    })
}

fn read_family(
    cfg: &Cfg<'_>,
    family: &str,
    model_type: &str,
    notices: &mut Vec<Msg>,
) -> Result<Architecture> {
    match family {
        "gpt2" => read_gpt2(cfg),
        "gpt_neox" => read_neox(cfg),
        "falcon" => read_falcon(cfg),
        _ => read_decoder(cfg, family, model_type, notices),
    }
}

/// Llama-style decoders and their relatives: every family but GPT-2, GPT-NeoX and Falcon.
fn read_decoder(
    cfg: &Cfg<'_>,
    family: &str,
    model_type: &str,
    notices: &mut Vec<Msg>,
) -> Result<Architecture> {
    let known = defaults(family);
    if known.is_none() && !matches!(family, "llama" | "granite" | "olmo2") {
        let shown = if model_type.is_empty() { "(none)" } else { model_type };
        notices.push(Msg::new(MsgId::NoticeUnknownFamily, vec![Arg::Text(shown.into())]));
    }
    let (vocab, hidden, layers, heads, inter);
    match &known {
        Some(d) => {
            vocab = cfg.count_or("vocab_size", d.vocab)?;
            hidden = cfg.count_any(&["hidden_size"])?.unwrap_or(d.hidden);
            layers = cfg.count_or("num_hidden_layers", d.layers)?;
            heads = cfg.count_or("num_attention_heads", d.heads)?;
            inter = cfg.count_or("intermediate_size", d.inter)?;
        }
        None => {
            vocab = cfg.required(&["vocab_size", "n_vocab", "padded_vocab_size"])?;
            hidden = cfg.required(&["hidden_size", "n_embd", "d_model", "dim"])?;
            layers = cfg.required(&["num_hidden_layers", "n_layer", "num_layers", "n_layers"])?;
            heads = cfg.required(&["num_attention_heads", "n_head", "num_heads", "n_heads"])?;
            inter = cfg.required(&["intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size"])?;
        }
    }
    let kv_default = known.as_ref().and_then(|d| d.kv).unwrap_or(heads);
    let kv = cfg.count_any(&["num_key_value_heads", "num_kv_heads", "n_head_kv"])?.unwrap_or(kv_default);
    let head_dim_default =
        known.as_ref().and_then(|d| d.head_dim).unwrap_or(hidden.checked_div(heads).unwrap_or(0));
    let head_dim = cfg.count("head_dim")?.unwrap_or(head_dim_default);
    let tie = cfg.flag("tie_word_embeddings").unwrap_or(known.as_ref().is_some_and(|d| d.tie));
    // transformers' default `max_position_embeddings` per config class, for configs that omit it.
    let context_default = match family {
        "gemma3_text" | "mistral" | "mixtral" => 131_072,
        "qwen2" | "qwen2_moe" | "qwen3" | "qwen3_moe" => 32_768,
        "gemma" | "gemma2" => 8192,
        "phi3" => 4096,
        _ => 2048,
    };
    let max_context = cfg
        .count_any(&["max_position_embeddings", "n_positions", "seq_length", "max_seq_len"])?
        .unwrap_or(context_default);

    let attention_bias = cfg.flag("attention_bias");
    let mlp_bias = cfg.flag("mlp_bias").unwrap_or(false);
    let (qkv_bias, o_bias) = match family {
        // Qwen2 (and its MoE) always bias q, k and v, never o.
        "qwen2" | "qwen2_moe" => (true, false),
        "gpt_oss" => (true, true),
        _ => {
            let b = attention_bias.unwrap_or(false);
            (b, b)
        }
    };
    let qk_norm = match family {
        "qwen3" | "qwen3_moe" | "gemma3_text" => QkNorm::PerHead,
        "olmo2" => QkNorm::Full,
        _ => QkNorm::None,
    };
    let norms_per_layer = match family {
        "gemma2" | "gemma3_text" => 4,
        _ => 2,
    };

    let attention = if family.starts_with("deepseek") || cfg.raw("kv_lora_rank").is_some() {
        Attention::Mla(MlaAttention {
            num_heads: heads,
            q_lora_rank: match cfg.raw("q_lora_rank") {
                None if family == "deepseek_v2" || family == "deepseek_v3" => {
                    // Absent means the class default (1536); an explicit null means no q LoRA.
                    if cfg.main.get("q_lora_rank").is_some() || cfg.outer.get("q_lora_rank").is_some() {
                        None
                    } else {
                        Some(1536)
                    }
                }
                None => None,
                Some(_) => cfg.count("q_lora_rank")?,
            },
            kv_lora_rank: cfg.count_or("kv_lora_rank", 512)?,
            qk_nope_head_dim: cfg.count_or("qk_nope_head_dim", 128)?,
            qk_rope_head_dim: cfg.count_or("qk_rope_head_dim", 64)?,
            v_head_dim: cfg.count_or("v_head_dim", 128)?,
        })
    } else {
        Attention::Standard(StandardAttention {
            num_heads: heads,
            num_kv_heads: kv,
            head_dim,
            qkv_bias,
            o_bias,
            qk_norm,
            fused_qkv: family == "phi3",
            sinks: family == "gpt_oss",
        })
    };

    let moe = read_moe(cfg, family, layers, inter)?;
    let (sliding_layers, sliding_window) = read_sliding(cfg, family, layers)?;
    if known.is_none() && sliding_layers > 0 {
        notices.push(Msg::new(MsgId::NoticeSlidingAllLayers, vec![Arg::Int(sliding_layers)]));
    }

    Ok(Architecture {
        family: family.to_string(),
        vocab_size: vocab,
        hidden_size: hidden,
        num_layers: layers,
        attention,
        mlp: Mlp { intermediate_size: inter, gated: true, bias: mlp_bias, fused_gate_up: family == "phi3" },
        moe,
        norms: Norms { kind: NormKind::Rms, per_layer: norms_per_layer },
        learned_positions: 0,
        tie_word_embeddings: tie,
        sliding_layers,
        sliding_window,
        max_context,
    })
}

fn read_moe(cfg: &Cfg<'_>, family: &str, layers: u64, inter: u64) -> Result<Option<Moe>> {
    let experts = match family {
        "mixtral" | "gpt_oss" => {
            Some(cfg.count_any(&["num_local_experts", "num_experts"])?.unwrap_or(if family == "mixtral" {
                8
            } else {
                128
            }))
        }
        "qwen2_moe" => Some(cfg.count_or("num_experts", 60)?),
        "qwen3_moe" => Some(cfg.count_or("num_experts", 128)?),
        "deepseek_v2" | "deepseek_v3" => {
            cfg.count("n_routed_experts")?.or(if family == "deepseek_v3" { Some(256) } else { None })
        }
        _ => cfg.count_any(&["num_local_experts", "num_experts", "n_routed_experts"])?,
    };
    let Some(num_experts) = experts.filter(|e| *e > 1) else {
        return Ok(None);
    };
    let k_default = match family {
        "mixtral" => 2,
        "qwen2_moe" => 4,
        "gpt_oss" => 4,
        "qwen3_moe" | "deepseek_v3" => 8,
        _ => 0,
    };
    let experts_per_token = cfg
        .count_any(&["num_experts_per_tok", "experts_per_token", "moe_topk", "top_k"])?
        .unwrap_or(k_default);
    if experts_per_token == 0 {
        return Err(Error::parse(FORMAT, "`num_experts_per_tok` is missing for a mixture of experts"));
    }
    let expert_intermediate = match family {
        "mixtral" | "gpt_oss" => inter,
        "qwen2_moe" => cfg.count_or("moe_intermediate_size", 1408)?,
        "qwen3_moe" => cfg.count_or("moe_intermediate_size", 768)?,
        "deepseek_v2" => cfg.count_or("moe_intermediate_size", 1407)?,
        "deepseek_v3" => cfg.count_or("moe_intermediate_size", 2048)?,
        _ => cfg.count("moe_intermediate_size")?.unwrap_or(inter),
    };
    let shared_intermediate = match family {
        "qwen2_moe" => cfg.count_or("shared_expert_intermediate_size", 5632)?,
        "deepseek_v2" | "deepseek_v3" => {
            let n = cfg.count("n_shared_experts")?.unwrap_or(if family == "deepseek_v3" { 1 } else { 0 });
            n.checked_mul(expert_intermediate).ok_or(Error::Overflow { what: "shared experts" })?
        }
        _ => cfg.count("shared_expert_intermediate_size")?.unwrap_or(0),
    };
    // Which layers carry experts.
    let moe_layers = match family {
        "deepseek_v2" | "deepseek_v3" => {
            let first = cfg.count_or("first_k_dense_replace", if family == "deepseek_v3" { 3 } else { 0 })?;
            let freq = cfg.count_or("moe_layer_freq", 1)?.max(1);
            (0..layers.min(crate::model::MAX_LAYERS)).filter(|i| *i >= first && i % freq == 0).count() as u64
        }
        "qwen2_moe" | "qwen3_moe" => {
            let step = cfg.count_or("decoder_sparse_step", 1)?.max(1);
            let only_mlp: Vec<u64> = cfg
                .raw("mlp_only_layers")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            (0..layers.min(crate::model::MAX_LAYERS))
                .filter(|i| !only_mlp.contains(i) && (i + 1) % step == 0)
                .count() as u64
        }
        _ => {
            let first = cfg.count_or("first_k_dense_replace", 0)?;
            layers.saturating_sub(first)
        }
    };
    Ok(Some(Moe {
        num_experts,
        experts_per_token,
        expert_intermediate,
        shared_intermediate,
        shared_expert_gate: family == "qwen2_moe",
        router_bias: family == "gpt_oss",
        expert_bias: family == "gpt_oss",
        moe_layers,
    }))
}

/// Which layers attend within a window, by the conventions of `../shared/validation/README.md`:
/// `layer_types` decides per layer where present; Gemma 2 alternates starting with a sliding
/// layer; Gemma 3 slides five layers of six; Qwen slides only with `use_sliding_window` (and then
/// from `max_window_layers` on); otherwise a set `sliding_window` makes every layer slide.
fn read_sliding(cfg: &Cfg<'_>, family: &str, layers: u64) -> Result<(u64, Option<u64>)> {
    let window = cfg.count("sliding_window")?.filter(|w| *w > 0);
    let default_window = match family {
        "gemma2" | "gemma3_text" => Some(4096),
        "gpt_oss" => Some(128),
        _ => None,
    };
    let window = window.or(default_window);
    if let Some(types) = cfg.layer_types() {
        let sliding =
            types.iter().take(layers.min(crate::model::MAX_LAYERS) as usize).filter(|s| **s).count() as u64;
        return Ok(if sliding > 0 && window.is_some() { (sliding, window) } else { (0, None) });
    }
    let Some(w) = window else { return Ok((0, None)) };
    let sliding = match family {
        "gemma2" => layers.div_ceil(2),
        "gemma3_text" => {
            let pattern = cfg.count_or("sliding_window_pattern", 6)?.max(1);
            layers - layers / pattern
        }
        "gpt_oss" => layers.div_ceil(2),
        "qwen2" | "qwen2_moe" | "qwen3" | "qwen3_moe" => {
            if cfg.flag("use_sliding_window").unwrap_or(false) {
                let from = cfg.count_or("max_window_layers", layers)?;
                layers.saturating_sub(from.min(layers))
            } else {
                0
            }
        }
        "llama" | "granite" | "olmo2" | "gemma" | "deepseek_v2" | "deepseek_v3" => 0,
        _ => {
            if cfg.flag("use_sliding_window") == Some(false) {
                0
            } else {
                layers
            }
        }
    };
    Ok(if sliding > 0 { (sliding, Some(w)) } else { (0, None) })
}

fn read_gpt2(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_any(&["n_embd", "hidden_size"])?.unwrap_or(768);
    let heads = cfg.count_any(&["n_head", "num_attention_heads"])?.unwrap_or(12);
    let inner = cfg.count("n_inner")?.unwrap_or(hidden.saturating_mul(4));
    let positions = cfg.count_any(&["n_positions", "max_position_embeddings"])?.unwrap_or(1024);
    Ok(Architecture {
        family: "gpt2".into(),
        vocab_size: cfg.count_or("vocab_size", 50257)?,
        hidden_size: hidden,
        num_layers: cfg.count_any(&["n_layer", "num_hidden_layers"])?.unwrap_or(12),
        attention: Attention::Standard(StandardAttention {
            num_heads: heads,
            num_kv_heads: heads,
            head_dim: hidden.checked_div(heads).unwrap_or(0),
            qkv_bias: true,
            o_bias: true,
            qk_norm: QkNorm::None,
            fused_qkv: true,
            sinks: false,
        }),
        mlp: Mlp { intermediate_size: inner, gated: false, bias: true, fused_gate_up: false },
        moe: None,
        norms: Norms { kind: NormKind::LayerNorm, per_layer: 2 },
        learned_positions: positions,
        tie_word_embeddings: cfg.flag("tie_word_embeddings").unwrap_or(true),
        sliding_layers: 0,
        sliding_window: None,
        max_context: positions,
    })
}

fn read_neox(cfg: &Cfg<'_>) -> Result<Architecture> {
    let d = defaults("gpt_neox").ok_or(Error::parse(FORMAT, "gpt_neox defaults"))?;
    let hidden = cfg.count_or("hidden_size", d.hidden)?;
    let heads = cfg.count_or("num_attention_heads", d.heads)?;
    let bias = cfg.flag("attention_bias").unwrap_or(true);
    Ok(Architecture {
        family: "gpt_neox".into(),
        vocab_size: cfg.count_or("vocab_size", d.vocab)?,
        hidden_size: hidden,
        num_layers: cfg.count_or("num_hidden_layers", d.layers)?,
        attention: Attention::Standard(StandardAttention {
            num_heads: heads,
            num_kv_heads: heads,
            head_dim: hidden.checked_div(heads).unwrap_or(0),
            qkv_bias: bias,
            o_bias: bias,
            qk_norm: QkNorm::None,
            fused_qkv: true,
            sinks: false,
        }),
        mlp: Mlp {
            intermediate_size: cfg.count_or("intermediate_size", d.inter)?,
            gated: false,
            bias: true,
            fused_gate_up: false,
        },
        moe: None,
        norms: Norms { kind: NormKind::LayerNorm, per_layer: 2 },
        learned_positions: 0,
        tie_word_embeddings: cfg.flag("tie_word_embeddings").unwrap_or(false),
        sliding_layers: 0,
        sliding_window: None,
        max_context: cfg.count_or("max_position_embeddings", 2048)?,
    })
}

fn read_falcon(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_any(&["hidden_size", "n_embed"])?.unwrap_or(4544);
    let heads = cfg.count_any(&["num_attention_heads", "n_head"])?.unwrap_or(71);
    let head_dim = hidden.checked_div(heads).unwrap_or(0);
    let new_arch = cfg.flag("new_decoder_architecture").unwrap_or(false);
    let multi_query = cfg.flag("multi_query").unwrap_or(true);
    let kv = if new_arch {
        cfg.count_any(&["num_kv_heads", "n_head_kv"])?.unwrap_or(heads)
    } else if multi_query {
        1
    } else {
        heads
    };
    let bias = cfg.flag("bias").unwrap_or(false);
    let parallel = cfg.flag("parallel_attn").unwrap_or(true);
    let norms_per_layer = if new_arch {
        cfg.count_or("num_ln_in_parallel_attn", 2)?
    } else if parallel {
        1
    } else {
        2
    };
    Ok(Architecture {
        family: "falcon".into(),
        vocab_size: cfg.count_or("vocab_size", 65024)?,
        hidden_size: hidden,
        num_layers: cfg.count_any(&["num_hidden_layers", "n_layer"])?.unwrap_or(32),
        attention: Attention::Standard(StandardAttention {
            num_heads: heads,
            num_kv_heads: kv,
            head_dim,
            qkv_bias: bias,
            o_bias: bias,
            qk_norm: QkNorm::None,
            fused_qkv: true,
            sinks: false,
        }),
        mlp: Mlp {
            intermediate_size: cfg.count("ffn_hidden_size")?.unwrap_or(hidden.saturating_mul(4)),
            gated: false,
            bias,
            fused_gate_up: false,
        },
        moe: None,
        norms: Norms { kind: NormKind::LayerNorm, per_layer: norms_per_layer },
        learned_positions: 0,
        tie_word_embeddings: cfg.flag("tie_word_embeddings").unwrap_or(true),
        sliding_layers: 0,
        sliding_window: None,
        max_context: cfg.count_or("max_position_embeddings", 2048)?,
    })
}

/// The checkpoint's own format: `quantization_config` first, else `torch_dtype` (or `dtype`).
fn read_format(root: &Value, cfg: &Cfg<'_>, notices: &mut Vec<Msg>) -> Option<WeightFormat> {
    if let Some(q) = root.get("quantization_config").or_else(|| cfg.main.get("quantization_config")) {
        let method = q.get("quant_method").and_then(Value::as_str).unwrap_or("").to_ascii_lowercase();
        let bits = q.get("bits").and_then(Value::as_u64).unwrap_or(4);
        let group = match q.get("group_size").and_then(Value::as_f64) {
            Some(g) if g < 0.0 => 0,
            Some(g) => g as u32,
            None => 128,
        };
        let f = match method.as_str() {
            "fp8" | "fbgemm_fp8" => Some(WeightFormat::Fp8),
            "mxfp4" => Some(WeightFormat::Mxfp4),
            "gptq" if matches!(bits, 2 | 3 | 4 | 8) => Some(WeightFormat::Gptq { bits: bits as u8, group }),
            "awq" if bits == 4 => {
                Some(WeightFormat::Awq { bits: 4, group: if group == 0 { 128 } else { group } })
            }
            "bitsandbytes" => {
                if q.get("load_in_4bit").and_then(Value::as_bool) == Some(true) {
                    let dq = q.get("bnb_4bit_use_double_quant").and_then(Value::as_bool).unwrap_or(false);
                    Some(WeightFormat::Nf4 { double_quant: dq })
                } else if q.get("load_in_8bit").and_then(Value::as_bool) == Some(true) {
                    Some(WeightFormat::Int8)
                } else {
                    None
                }
            }
            _ => None,
        };
        match f {
            Some(f) => return Some(f),
            None => notices.push(Msg::new(
                MsgId::NoticeUnknownQuant,
                vec![Arg::Text(if method.is_empty() { "(unnamed)".into() } else { method })],
            )),
        }
    }
    let dtype = cfg.raw("torch_dtype").or_else(|| cfg.raw("dtype")).and_then(Value::as_str)?;
    match dtype {
        "bfloat16" => Some(WeightFormat::Bf16),
        "float16" | "half" => Some(WeightFormat::F16),
        "float32" | "float" => Some(WeightFormat::F32),
        _ => None,
    }
}
