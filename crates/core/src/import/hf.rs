//! Hugging Face `config.json` → [`Architecture`], layer by layer.
//!
//! Each family is read the way `transformers` builds the model: the same keys (transformers 5
//! names such as `num_local_experts` and `rope_parameters` and the older ones), the same defaults
//! when a key is absent, the same biases and norms, and each layer's own kind: `layer_types`
//! (`full_attention`, `sliding_attention`, `chunked_attention`, `linear_attention`, `mamba`,
//! `conv`…), hybrid patterns (`hybrid_override_pattern`, `attn_layer_period`,
//! `attn_layer_indices`, `full_attention_interval`) and the MoE placement keys
//! (`first_k_dense_replace`, `mlp_only_layers`, `decoder_sparse_step`,
//! `interleave_moe_layer_step`, `moe_layer_freq`, `moe_layers`). Nested `text_config` is read as
//! the language model, with the outer config's dtype and quantization.
//!
//! **Never a silent guess.** A `model_type` Headroom does not know is read from the structural
//! keys it understands only when no structural key is left unread; then the result carries
//! [`Confidence::Inferred`] and a warning. Otherwise it is refused with a message naming the keys
//! it could not interpret.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::json::{self, Number, Value};
pub use crate::model::Confidence;
use crate::model::{
    Architecture, Attention, CompressedAttention, ConvState, Extra, Ffn, GatedDeltaNet, Indexer, LayerGroup,
    MAX_LAYERS, Mamba, MambaVersion, Mixer, Mla, Mlp, Moe, Mtp, NormKind, Own, QkNorm, ShortConv, Span,
    Stack,
};
use crate::precision::WeightFormat;
use crate::tensor::Role;
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
    /// How far the shape can be trusted.
    pub confidence: Confidence,
}

impl HfModel {
    /// The model as a scenario's custom model named `name` (no file facts: tensors priced by rule).
    pub fn into_custom(self, name: String) -> crate::scenario::CustomModel {
        crate::scenario::CustomModel {
            name,
            architecture: self.architecture,
            format: self.format,
            file: None,
            confidence: self.confidence,
            notices: self.notices,
        }
    }
}

/// Reads a `config.json`.
///
/// # Errors
/// [`Error::Parse`] when the text is not JSON, lacks what the family needs, or is an unknown
/// family with structural keys Headroom cannot interpret; [`Error::Invalid`] when the shape does
/// not make sense (heads that do not divide…).
///
/// # Example
/// ```
/// let cfg = br#"{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
///   "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000}"#;
/// let m = headroom_core::import::hf::parse_config(cfg).unwrap();
/// assert_eq!(m.architecture.params_total().unwrap().get(), 6_738_415_616);
/// ```
pub fn parse_config(bytes: &[u8]) -> Result<HfModel> {
    parse_config_with_quant(bytes, None)
}

/// Reads a `config.json` with, when given, the `hf_quant_config.json` NVIDIA ModelOpt writes beside
/// it (its checkpoints' `config.json` often carries no `quantization_config`); a config that has
/// its own `quantization_config` keeps it.
///
/// # Errors
/// As [`parse_config`]; [`Error::Parse`] when the quantization file is not a JSON object.
pub fn parse_config_with_quant(bytes: &[u8], hf_quant: Option<&[u8]>) -> Result<HfModel> {
    let mut root = json::parse(bytes, FORMAT)?;
    if root.as_object().is_none() {
        return Err(Error::parse(FORMAT, "the file is not a JSON object"));
    }
    if let Some(q) = hf_quant {
        let q = json::parse(q, "hf_quant_config.json")?;
        if q.as_object().is_none() {
            return Err(Error::parse("hf_quant_config.json", "the file is not a JSON object"));
        }
        let has_own = root.get("quantization_config").is_some()
            || root.get("text_config").and_then(|t| t.get("quantization_config")).is_some();
        if let (false, Value::Object(members)) = (has_own, &mut root) {
            let mut inner = q.get("quantization").cloned().unwrap_or(q);
            if let Value::Object(m) = &mut inner
                && !m.iter().any(|(k, _)| k == "quant_method")
            {
                m.push(("quant_method".into(), Value::String("modelopt".into())));
            }
            members.push(("quantization_config".into(), inner));
        }
    }
    dory_blocks_to_layers(&mut root)?;
    let mut notices = Vec::new();
    // Multimodal wrappers keep the language model in `text_config` (or `llm_config`); Qwen3-Omni
    // and Qwen2.5-Omni in their thinker's, or in the thinker's own keys.
    let thinker = super::encoders::thinker(&root);
    let text = thinker
        .get("text_config")
        .or_else(|| {
            (!core::ptr::eq(thinker, &root) && thinker.get("hidden_size").is_some()).then_some(thinker)
        })
        .or_else(|| root.get("llm_config"))
        // DeepSeek-VL2 and DeepSeek-OCR (`deepseek_vl_v2`) keep it in `language_config`.
        .or_else(|| root.get("language_config"))
        // A text config that names its class but leaves its sizes out (Qwen2-Audio's) is read
        // with that class's defaults, as transformers builds it.
        .filter(|v| {
            v.as_object().is_some()
                && (v.get("hidden_size").is_some()
                    || v.get("model_type").and_then(Value::as_str).is_some_and(|t| {
                        defaults(&normalise_family(
                            t,
                            root.get("model_type").and_then(Value::as_str).unwrap_or(""),
                        ))
                        .is_some()
                    }))
        });
    let cfg = Cfg { main: text.unwrap_or(&root), outer: &root };
    let outer_type = root.get("model_type").and_then(Value::as_str).unwrap_or("");
    let model_type = cfg.str("model_type").unwrap_or(outer_type).to_string();
    let mut family = normalise_family(&model_type, outer_type);
    if !is_known(&family)
        && let Some((class, known)) =
            family_of_architecture(cfg.main).or_else(|| family_of_architecture(&root))
    {
        // vLLM picks the model class by `architectures`, whatever `model_type` says (SGLang's
        // DeepSeek V4 FP8 conversions name their type `deepseek_ref`).
        notices.push(Msg::new(
            MsgId::NoticeFamilyByArchitecture,
            vec![
                Arg::Text(if model_type.is_empty() { "(none)".into() } else { model_type.clone() }),
                Arg::Text(class.into()),
            ],
        ));
        family = known.into();
    }
    let mut confidence = Confidence::Config;
    let mut architecture = if is_known(&family) {
        read_family(&cfg, &family, &mut notices)?
    } else {
        let unread = unread_structural_keys(cfg.main);
        if !unread.is_empty() {
            let shown = if model_type.is_empty() { "(none)".into() } else { model_type.clone() };
            return Err(Error::parse(
                FORMAT,
                format!(
                    "model_type `{shown}` is not one Headroom knows, and its config has structural keys Headroom cannot interpret: {}. Give the checkpoint's safetensors headers (model.safetensors.index.json) or a GGUF file instead: their tensors fix the weights exactly",
                    unread.join(", ")
                ),
            ));
        }
        let shown = if model_type.is_empty() { "(none)" } else { model_type.as_str() };
        // The generic reading assumes Llama's gated SiLU MLP; an activation that says otherwise
        // (squared ReLU, xIELU, plain GELU MLPs) would make every MLP a third too big.
        let act = cfg.str("hidden_act").or(cfg.str("hidden_activation")).unwrap_or("silu");
        if !matches!(act, "silu" | "swish" | "swiglu") {
            return Err(Error::parse(
                FORMAT,
                format!(
                    "model_type `{shown}` is not one Headroom knows, and its `hidden_act` `{act}` does not say whether its MLP is gated. Give the checkpoint's safetensors headers (model.safetensors.index.json) or a GGUF file instead: their tensors fix the weights exactly"
                ),
            ));
        }
        notices.push(Msg::new(MsgId::NoticeUnknownFamily, vec![Arg::Text(shown.into())]));
        confidence = Confidence::Inferred;
        read_decoder(&cfg, &family, &mut notices)?
    };
    if architecture.canvas > 0 {
        notices.push(Msg::new(MsgId::NoticeBlockDiffusion, vec![Arg::Int(architecture.canvas)]));
    }
    if outer_type == "qwen2_5_omni" {
        // transformers ties Qwen2.5-Omni's head by the thinker config's own flag
        // (`Qwen2_5OmniThinkerConfig.tie_word_embeddings`, default false), whatever its text
        // config says (`Qwen2_5OmniTextConfig`'s default is true).
        architecture.tie_word_embeddings =
            thinker.get("tie_word_embeddings").and_then(Value::as_bool).unwrap_or(false);
    }
    architecture.validate().map_err(|e| match e {
        Error::Invalid { field, reason } => Error::parse(FORMAT, format!("{field}: {reason}")),
        other => other,
    })?;
    architecture.param_breakdown()?;
    let text_hidden = architecture.hidden_size;
    if let Some(vc) = super::encoders::thinker(&root).get("vision_config").filter(|v| v.as_object().is_some())
    {
        let get = |k: &str| vc.get(k).and_then(Value::as_u64);
        architecture.vision_config_size = Some((
            get("num_hidden_layers").or(get("depth")).unwrap_or(24),
            get("hidden_size").unwrap_or(1024),
        ));
    }
    let found =
        [super::encoders::vision(&root, &family, text_hidden), super::encoders::audio(&root, text_hidden)];
    for found in found.into_iter().flatten() {
        match found {
            Ok(e) => architecture.encoders.push(e),
            Err(kind) => notices.push(Msg::new(MsgId::NoticeEncoderNotCounted, vec![Arg::Text(kind)])),
        }
    }
    match super::encoders::speech_output(&root) {
        Some(Ok(s)) => {
            notices.push(Msg::new(
                MsgId::NoticeSpeechOutputCounted,
                vec![Arg::Text(s.kind.clone()), Arg::Int(s.params())],
            ));
            architecture.speech_output = Some(s);
        }
        Some(Err(stack)) => {
            notices.push(Msg::new(MsgId::NoticeSpeechOutputNotCounted, vec![Arg::Text(stack)]))
        }
        None => {}
    }
    // What runtimes pick their implementation by: the first `architectures` class (and the text
    // config's, which llama.cpp's converter reads for the text model) and the top-level
    // `model_type`.
    let first_class = |v: &Value| {
        v.get("architectures")
            .and_then(|a| a.as_array().and_then(|a| a.first()).or(Some(a)))
            .and_then(Value::as_str)
            .map(String::from)
    };
    architecture.checkpoint = crate::model::Checkpoint {
        class: first_class(&root).unwrap_or_default(),
        text_class: if core::ptr::eq(cfg.main, &root) {
            String::new()
        } else {
            first_class(cfg.main).unwrap_or_default()
        },
        model_type: outer_type.into(),
        remote_code: root.get("auto_map").and_then(|m| m.get("AutoConfig")).is_some(),
    };
    let format = read_format(&root, &cfg, &mut architecture, &mut notices);
    let name = root.get("_name_or_path").and_then(Value::as_str).filter(|s| !s.is_empty()).map(String::from);
    Ok(HfModel { architecture, format, notices, name, confidence })
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

    fn present(&self, key: &str) -> bool {
        self.main.get(key).is_some() || self.outer.get(key).is_some()
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

    fn num(&self, key: &str) -> Option<f64> {
        self.raw(key).and_then(Value::as_f64)
    }

    /// A list of counts (layer indices), bounded by the layer cap.
    fn indices(&self, key: &str) -> Result<Option<Vec<u64>>> {
        let Some(v) = self.raw(key) else { return Ok(None) };
        let list = v.as_array().ok_or_else(|| Error::parse(FORMAT, format!("`{key}` must be a list")))?;
        if list.len() as u64 > MAX_LAYERS {
            return Err(Error::parse(FORMAT, format!("`{key}` lists more than {MAX_LAYERS} entries")));
        }
        list.iter()
            .map(|x| {
                x.as_u64().ok_or_else(|| Error::parse(FORMAT, format!("`{key}` must list layer numbers")))
            })
            .collect::<Result<Vec<u64>>>()
            .map(Some)
    }

    /// A per-layer list of 0/1 flags (MiMo-V2's `hybrid_layer_pattern`, `moe_layer_freq`), checked
    /// against the layer count.
    fn layer_flags(&self, key: &str, layers: u64) -> Result<Option<Vec<bool>>> {
        let Some(list) = self.indices(key)? else { return Ok(None) };
        if list.len() as u64 != layers {
            return Err(Error::parse(
                FORMAT,
                format!("`{key}` lists {} layers but the model has {layers}", list.len()),
            ));
        }
        list.iter()
            .map(|x| match x {
                0 => Ok(false),
                1 => Ok(true),
                _ => Err(Error::parse(FORMAT, format!("`{key}` must list 0 or 1 per layer"))),
            })
            .collect::<Result<Vec<bool>>>()
            .map(Some)
    }

    /// `layer_types` (or another per-layer list of strings), checked against the layer count. A
    /// list that goes on with one entry per multi-token-prediction layer (Step-3.5's hub config)
    /// is read for the stack's layers.
    fn strings(&self, key: &str, layers: u64) -> Result<Option<Vec<&str>>> {
        let Some(v) = self.raw(key) else { return Ok(None) };
        let list = v.as_array().ok_or_else(|| Error::parse(FORMAT, format!("`{key}` must be a list")))?;
        let mtp = self.raw("num_nextn_predict_layers").and_then(Value::as_u64).unwrap_or(0);
        let list = if mtp > 0 && list.len() as u64 == layers.saturating_add(mtp) {
            &list[..layers as usize]
        } else {
            list
        };
        if list.len() as u64 != layers {
            return Err(Error::parse(
                FORMAT,
                format!("`{key}` lists {} layers but the model has {layers}", list.len()),
            ));
        }
        list.iter()
            .map(|x| x.as_str().ok_or_else(|| Error::parse(FORMAT, format!("`{key}` must list strings"))))
            .collect::<Result<Vec<&str>>>()
            .map(Some)
    }
}

fn normalise_family(model_type: &str, outer: &str) -> String {
    let t = if model_type.is_empty() { outer } else { model_type };
    match t {
        "gemma3" => "gemma3_text".into(),
        "gemma3n" => "gemma3n_text".into(),
        "gemma4" => "gemma4_text".into(),
        "llama4" => "llama4_text".into(),
        "qwen3_5_text" => "qwen3_5".into(),
        "qwen3_5_moe_text" => "qwen3_5_moe".into(),
        "qwen3_vl_text" | "qwen3_vl" => "qwen3".into(),
        "qwen3_vl_moe_text" | "qwen3_vl_moe" => "qwen3_moe".into(),
        "qwen2_5_vl_text" | "qwen2_5_vl" | "qwen2_vl" | "qwen2_vl_text" => "qwen2".into(),
        // Qwen3-Omni's thinker text model is Qwen3-MoE's (`Qwen3OmniMoeThinkerTextModel`).
        "qwen3_omni_moe_text" | "qwen3_omni_moe" => "qwen3_moe".into(),
        // Qwen2.5-Omni's thinker text model is Qwen2's (`Qwen2_5OmniThinkerTextModel`: biased q, k,
        // v, a bias-free output projection, a gated MLP).
        "qwen2_5_omni_text" | "qwen2_5_omni_thinker" | "qwen2_5_omni" => "qwen2".into(),
        // GLM-4.1V / GLM-4.6V-Flash's text model is GLM-4's (four norms a layer, fused gate/up,
        // biased q/k/v); GLM-4.5V / GLM-4.6V's is GLM-4.5's MoE.
        "glm4v_text" | "glm4v" | "glm46v" => "glm4".into(),
        "glm4v_moe_text" | "glm4v_moe" => "glm4_moe".into(),
        // GLM-OCR's text model is GLM-4's (`GlmOcrTextModel`: four norms a layer, fused gate/up).
        "glm_ocr_text" | "glm_ocr" => "glm4".into(),
        // Gemma 4's unified model: Gemma 4's text layers (per-layer head widths, no per-layer
        // inputs unless its config names them).
        "gemma4_unified_text" | "gemma4_unified" => "gemma4_text".into(),
        // DiffusionGemma's backbone is Gemma 4's text model, run causally to write the cache and
        // bidirectionally over its canvas with the same weights (vLLM's `diffusion_gemma.py`).
        "diffusion_gemma_text" | "diffusion_gemma" => "gemma4_text".into(),
        // GLM-5-Next's language model (`Glm5NextTextModel`).
        "glm5_next_text" | "glm5_next" => "glm5_next".into(),
        "domynedge" => "domyn_edge".into(),
        "PanguEmbedded" => "pangu_embedded".into(),
        // MiMo-V2.5 and its Pro (`MiMoV2ForCausalLM`): MiMo-V2-Flash's model class in vLLM
        // (`mimo_v2.py`: a subclass whose checkpoint fuses q, k and v).
        "mimo_v2" => "mimo_v2_flash".into(),
        // Qwen4-Exp's (Qwen3.8-Flash-Next) language model.
        "qwen4_exp_text" | "qwen4_exp" => "qwen4_exp".into(),
        // DeepSeek V4.1's language model (vLLM's `DeepseekV41Config` flattens `text_config`).
        "deepseek_v41_text" | "deepseek_v41" => "deepseek_v41".into(),
        // Molmo 2's language model (`Molmo2TextModel`).
        "molmo2_text" | "molmo2" => "molmo2".into(),
        // Mistral Large 4's language model (`MistralLarge4TextModel`).
        "mistral_large4_text" | "mistral_large4" => "mistral_large4".into(),
        // Cohere's MoE (`Cohere2MoeForCausalLM`): Cohere 2's layers (one LayerNorm, parallel
        // attention and feed-forward, sliding layers) with routed experts.
        "cohere2_moe" => "cohere2".into(),
        // Apertus 1.5's language model is Apertus' (`Apertus1p5TextModel`, a larger vocabulary).
        "apertus1p5_text" | "apertus1p5" => "apertus".into(),
        // Thinking Machines' Inkling (`InklingTextConfig`, the multimodal model's text model). The
        // released checkpoints name the multimodal wrapper (`inkling_mm_model`, its `text_config`
        // with no type of its own) and vLLM's flat text config names `inkling_model`.
        "inkling_text" | "inkling" | "inkling_mm_model" | "inkling_model" => "inkling".into(),
        // Inkling 2 (transformers 5.24 `Inkling2Config`, its text model `inkling2_text`).
        "inkling2_text" | "inkling2" => "inkling2".into(),
        // Inkling-2-Mini (`Inkling2LoopConfig`): Inkling 2's layers, a core of them run in passes.
        "inkling2_loop_text" | "inkling2_loop" => "inkling2_loop".into(),
        // dots3-note's text model: flat in the released config, `text_config` in transformers'.
        "dots3_note" | "dots3_note_text" => "dots3_note".into(),
        // HunyuanOCR / HunYuan-VL's text model is HunYuan's dense one (per-head q/k norms).
        "hunyuan_vl_text" | "hunyuan_vl" => "hunyuan_v1_dense".into(),
        // PaddleOCR-VL's text model is ERNIE 4.5's (`PaddleOCRTextModel`: biases by `use_bias`).
        "paddleocr_vl_text" | "paddleocr_vl" => "ernie4_5".into(),
        // ERNIE 4.5 VL's language model: ERNIE 4.5's MoE with a second, vision-only expert set
        // (transformers' `ernie4_5_vl_moe`, the hub's `ernie4_5_moe_vl`).
        "ernie4_5_vl_moe_text" | "ernie4_5_vl_moe" | "ernie4_5_moe_vl" => "ernie4_5_vl_moe".into(),
        // HunYuan V4 VL's language model is HunYuan V4's (`HYV4VLTextConfig`: the same keys).
        "hy_v4_vl_text" | "hy_v4_vl" => "hy_v4".into(),
        // Unlimited-OCR's language model (`UnlimitedOcrTextModel`: DeepSeek-V2's MoE with plain
        // attention, vLLM's `unlimited_ocr.py`).
        "unlimited_ocr_text" | "unlimited_ocr" => "unlimited_ocr".into(),
        // transformers' own DeepSeek-OCR-2 (`DeepseekOcr2TextModel`: DeepSeek-V2's MoE with plain
        // attention, its MoE layers by `mlp_layer_types`).
        "deepseek_ocr2_text" | "deepseek_ocr2" => "deepseek_ocr2".into(),
        // Meta's Muse Glimmer language model (`MuseGlimmerTextModel`).
        "muse_glimmer_text" | "muse_glimmer" => "muse_glimmer".into(),
        // Meta's Muse Spark Open language model (`MuseSparkTextModel`).
        "muse_spark_text" | "muse_spark" => "muse_spark".into(),
        "kimi_k2" | "deepseek_v3" | "kimi_vl" => "deepseek_v3".into(),
        "mistral3" | "ministral" => "mistral".into(),
        // Phi-4-multimodal keeps Phi-4-mini's Phi-3 text model in its flat config.
        "phi4_multimodal" => "phi3".into(),
        "falcon_mamba" => "mamba".into(),
        // MiMo-7B is Qwen2 with multi-token-prediction modules (vLLM's `MiMoForCausalLM`).
        "mimo" => "qwen2".into(),
        // Step-3.7-Flash's flat config reads as Step-3.5-Flash's text model (transformers'
        // `Step3p7TextConfig` is `step3p5`).
        "step3p7" => "step3p5".into(),
        // Step 5 (vLLM 0.34's `Step5Config`, text model `step5` under `step5_vl`); the September
        // 2026 preview's own names for the same schema (`step4` under `step3p5v`).
        "step5" | "step5_text" | "step5_vl" | "step4" | "step3p5v" => "step5".into(),
        // Cosmos 3 Edge's language model (`Cosmos3EdgeTextModel`).
        "cosmos3_edge_text" | "cosmos3_edge" => "cosmos3_edge".into(),
        // MiniMax-M3's language model (transformers' `MiniMaxM3VLTextConfig`).
        "minimax_m3_vl_text" | "minimax_m3_vl" => "minimax_m3".into(),
        // Llama 3.2 Vision's language model (`MllamaTextModel`).
        "mllama_text_model" | "mllama" => "mllama".into(),
        // Llama-Nemotron Super/Ultra's neural-architecture-searched Llama (`DeciLMForCausalLM`).
        "deci" | "decilm" => "nemotron-nas".into(),
        // DeepSeek-VL2's and DeepSeek-OCR's language model is DeepSeek-V2's MoE (vLLM's
        // `DeepseekVLV2Config` builds its text config as `DeepseekV2Config(**language_config)`).
        "deepseek_vl_v2" => "deepseek_v2".into(),
        // IQuest-Coder's looped variant (vLLM's `IQuestLoopCoderForCausalLM`): IQuest-Coder's
        // layers run `loop_num` times.
        "iquestloopcoder" | "iquest_loopcoder" => "iquestcoder".into(),
        other => other.to_string(),
    }
}

/// Families read key by key.
const KNOWN: &[&str] = &[
    "llama",
    "mistral",
    "mixtral",
    "qwen2",
    "qwen2_moe",
    "qwen3",
    "qwen3_moe",
    "granite",
    "olmo2",
    "olmo3",
    "smollm3",
    "gemma",
    "gemma2",
    "gemma3_text",
    "gemma4_text",
    "phi3",
    "deepseek_v2",
    "deepseek_v3",
    "deepseek_v32",
    "gpt_oss",
    "gpt2",
    "gpt_neox",
    "falcon",
    "phi",
    "gpt_bigcode",
    "mpt",
    "opt",
    "bloom",
    "stablelm",
    "starcoder2",
    "cohere",
    "cohere2",
    "glm",
    "glm4",
    "glm4_moe",
    "glm4_moe_lite",
    "glm_moe_dsa",
    "afmoe",
    "mimo_v2_flash",
    "lfm2_moe",
    "exaone_moe",
    "step3p5",
    "step5",
    "laguna",
    "minimax_m3",
    "mllama",
    "nemotron-nas",
    "apertus",
    "arcee",
    "cosmos3_edge",
    "nemotron",
    "jais2",
    "nanochat",
    "olmoe",
    "minimax_m2",
    "llama4_text",
    "nemotron_h",
    "qwen3_next",
    "qwen3_5",
    "qwen3_5_moe",
    "mamba",
    "mamba2",
    "bamba",
    "jamba",
    "falcon_h1",
    "granitemoehybrid",
    "lfm2",
    "ernie4_5",
    "ernie4_5_moe",
    "ernie4_5_vl_moe",
    "muse_glimmer",
    "muse_spark",
    "unlimited_ocr",
    "deepseek_ocr2",
    "hy_v3",
    "mellum",
    "ministral3",
    "mistral4",
    "cwm",
    "internlm3",
    "iquestcoder",
    "granitemoe",
    "granitemoeshared",
    "exaone",
    "helium",
    "minicpm3",
    "youtu",
    "solar_open",
    "sarvam_moe",
    "flint",
    "axk1",
    "phimoe",
    "beam",
    "dory",
    "zaya",
    "zamba2",
    "exaone4",
    "hunyuan_v1_dense",
    "hunyuan_v1_moe",
    "seed_oss",
    "internlm2",
    "olmo",
    "gemma3n_text",
    "dbrx",
    "kimi_linear",
    "deepseek_v4",
    "deepseek_v41",
    "qwen4_exp",
    "bailing_moe",
    "bailing_hybrid",
    "bailing_moe_linear",
    "minimax",
    "inkling",
    "inkling2",
    "inkling2_loop",
    "dots3_note",
    "lfm3",
    "mistral_large4",
    "olmo_hybrid",
    "longcat_flash",
    "molmo2",
    "hy_v4",
    "glm5_next",
    "hrm_text",
    "ricursive",
    "k2_horizon",
    "param2moe",
    "alice_ai",
    "domyn_edge",
    "pangu_embedded",
    "moondream3",
    "granite_swa",
    "granitemoe_swa",
];

/// The family of the first `architectures` class a known reader covers: `(class, family)`.
fn family_of_architecture(v: &Value) -> Option<(&str, &'static str)> {
    v.get("architectures")?.as_array()?.iter().filter_map(Value::as_str).find_map(|class| {
        let family = match class {
            "LlamaForCausalLM" => "llama",
            "MistralForCausalLM" => "mistral",
            "MixtralForCausalLM" => "mixtral",
            "Qwen2ForCausalLM" => "qwen2",
            "Qwen2MoeForCausalLM" => "qwen2_moe",
            "Qwen3ForCausalLM" => "qwen3",
            "Qwen3MoeForCausalLM" => "qwen3_moe",
            "Qwen3NextForCausalLM" => "qwen3_next",
            "DeepseekV2ForCausalLM" => "deepseek_v2",
            "DeepseekV3ForCausalLM" => "deepseek_v3",
            "DeepseekV32ForCausalLM" => "deepseek_v32",
            "DeepseekV4ForCausalLM" => "deepseek_v4",
            "DeepseekV41ForCausalLM" => "deepseek_v41",
            "InklingForCausalLM" | "InklingForConditionalGeneration" => "inkling",
            "Inkling2ForCausalLM" | "Inkling2ForConditionalGeneration" => "inkling2",
            "Inkling2LoopForCausalLM" | "Inkling2LoopForConditionalGeneration" => "inkling2_loop",
            "Dots3NoteForCausalLM" | "Dots3NoteForConditionalGeneration" => "dots3_note",
            "Step5ForCausalLM"
            | "Step5ForConditionalGeneration"
            | "Step4ForCausalLM"
            | "MMGPTStepRoboticsForCausalLM" => "step5",
            "Qwen4ExpForCausalLM" | "Qwen4ExpForConditionalGeneration" => "qwen4_exp",
            "Glm4MoeForCausalLM" => "glm4_moe",
            "GptOssForCausalLM" => "gpt_oss",
            "MiniMaxM2ForCausalLM" => "minimax_m2",
            "KimiLinearForCausalLM" => "kimi_linear",
            "NemotronHForCausalLM" => "nemotron_h",
            "BailingMoeForCausalLM" | "BailingMoeV2ForCausalLM" => "bailing_moe",
            "BailingMoeV2_5ForCausalLM" | "BailingMoeV3ForCausalLM" => "bailing_hybrid",
            "HrmTextForCausalLM" => "hrm_text",
            "RicursiveForCausalLM" => "ricursive",
            "K2HorizonForCausalLM" => "k2_horizon",
            // BharatGen's Param2 (vLLM's `param2moe.py`): its released config names no model_type.
            "Param2MoEForCausalLM" => "param2moe",
            "AliceAIForCausalLM" => "alice_ai",
            "DomynEdgeForCausalLM" => "domyn_edge",
            "PanguEmbeddedForCausalLM" => "pangu_embedded",
            "HfMoondream" | "Moondream3ForCausalLM" => "moondream3",
            _ => return None,
        };
        Some((class, family))
    })
}

fn is_known(family: &str) -> bool {
    KNOWN.contains(&family)
}

/// Keys of any `config.json` that say nothing about the shape of the weights.
const NON_STRUCTURAL: &[&str] = &[
    // Scales, initialisers and routing switches that change no weight's shape.
    "dim_model_base",
    "embedding_initializer_range",
    "enable_moe_fp32_combine",
    "moe_renormalize",
    "mtp_loss_scaling_factor",
    "moe_routed_scaling_factor",
    "moe_router_logit_softcapping",
    "layer_rope_theta",
    "architectures",
    "model_type",
    "_name_or_path",
    "transformers_version",
    "torch_dtype",
    "dtype",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "sep_token_id",
    "unk_token_id",
    "decoder_start_token_id",
    "use_cache",
    "initializer_range",
    "rms_norm_eps",
    "layer_norm_eps",
    "layer_norm_epsilon",
    "norm_eps",
    "rope_theta",
    "rope_scaling",
    "rope_parameters",
    "rope_type",
    "partial_rotary_factor",
    "attention_dropout",
    "hidden_dropout",
    "embd_pdrop",
    "resid_pdrop",
    "attn_pdrop",
    "dropout",
    "hidden_act",
    "hidden_activation",
    "activation_function",
    "quantization_config",
    "auto_map",
    "tie_word_embeddings",
    "max_position_embeddings",
    "pretraining_tp",
    "tokenizer_class",
    "pad_vocab_size_multiple",
    "output_attentions",
    "output_hidden_states",
    "return_dict",
    "id2label",
    "label2id",
    "torchscript",
    "task_specific_params",
    "problem_type",
    "use_return_dict",
    "is_encoder_decoder",
    "chat_template",
    "attn_implementation",
    "_attn_implementation",
    "router_aux_loss_coef",
    "output_router_logits",
    "router_jitter_noise",
    "logits_scaling",
    "embedding_multiplier",
    "residual_multiplier",
    "attention_multiplier",
    "num_logits_to_keep",
    "bias",
    "attention_bias",
    "mlp_bias",
    "use_bias",
    "qkv_bias",
    "no_rope_layers",
    "no_rope_layer_interval",
    "use_sliding_window",
    "sliding_window",
    "max_window_layers",
    "layer_types",
    "head_dim",
    "num_key_value_heads",
    "num_attention_heads",
    "num_hidden_layers",
    "hidden_size",
    "intermediate_size",
    "vocab_size",
    // Keys every config transformers writes carries, about generation and training only.
    "chunk_size_feed_forward",
    "cross_attention_hidden_size",
    "add_cross_attention",
    "tie_encoder_decoder",
    "pruned_heads",
    "finetuning_task",
    "prefix",
    "tf_legacy_loss",
    "use_bfloat16",
    "_commit_hash",
    "max_length",
    "min_length",
    "num_beams",
    "num_return_sequences",
];

/// Keys the generic decoder reading understands, in every spelling it accepts.
const GENERIC_READS: &[&str] = &[
    "n_vocab",
    "padded_vocab_size",
    "n_embd",
    "d_model",
    "dim",
    "n_layer",
    "num_layers",
    "n_layers",
    "n_head",
    "num_heads",
    "n_heads",
    "ffn_dim",
    "n_inner",
    "ffn_hidden_size",
    "num_kv_heads",
    "n_head_kv",
    "n_positions",
    "seq_length",
    "max_seq_len",
];

/// The keys of a mixture of experts, of multi-head latent attention (and its sparse indexer) and
/// of multi-token prediction that the generic reading understands in any family, with the
/// meaning DeepSeek's and Qwen-MoE's configs give them; routing-only keys among them
/// (`n_group`, `topk_group`) change no weight.
const GENERIC_MOE_MLA_READS: &[&str] = &[
    "num_experts",
    "num_local_experts",
    "n_routed_experts",
    "moe_num_experts",
    "num_experts_per_tok",
    "num_experts_per_token",
    "moe_intermediate_size",
    "n_shared_experts",
    "num_shared_experts",
    "shared_expert_intermediate_size",
    "shared_intermediate_size",
    "first_k_dense_replace",
    "mlp_layer_types",
    "mlp_only_layers",
    "decoder_sparse_step",
    "n_group",
    "topk_group",
    "num_expert_group",
    "kv_lora_rank",
    "q_lora_rank",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "qk_head_dim",
    "v_head_dim",
    "index_topk",
    "index_head_dim",
    "index_n_heads",
    "indexer_types",
    "index_topk_pattern",
    "index_topk_freq",
    "index_skip_topk_offset",
    "num_nextn_predict_layers",
];

/// Words that mark a key as describing the weights' shape.
const STRUCTURAL_WORDS: &[&str] = &[
    "layer", "expert", "head", "dim", "size", "rank", "ssm", "mamba", "conv", "window", "moe", "pattern",
    "block", "linear", "kv", "lora", "num_", "n_", "group", "state", "chunk", "shared", "dense", "nextn",
    "mtp", "index", "latent", "ffn", "mlp", "inner", "proj", "embed", "hc_", "sink", "gate",
];

/// Structural keys of an unknown family's config that the generic decoder reading would ignore.
fn unread_structural_keys(cfg: &Value) -> Vec<String> {
    let Some(obj) = cfg.as_object() else { return Vec::new() };
    let mut out = Vec::new();
    for (k, v) in obj {
        let k = k.as_str();
        if NON_STRUCTURAL.contains(&k) || v.is_null() || v.as_str().is_some() {
            continue;
        }
        if matches!(v.as_bool(), Some(false)) {
            continue;
        }
        if k.ends_with("_token_id")
            || k.ends_with("_token_ids")
            || GENERIC_READS.contains(&k)
            || GENERIC_MOE_MLA_READS.contains(&k)
        {
            continue;
        }
        if matches!(k, "vision_config" | "audio_config" | "speech_config" | "quantization_config") {
            // Other towers are reported apart (the encoder notice); quantization is read apart.
            continue;
        }
        let lower = k.to_ascii_lowercase();
        if STRUCTURAL_WORDS.iter().any(|w| lower.contains(w)) {
            out.push(format!("`{k}`"));
        }
        if out.len() >= 12 {
            break;
        }
    }
    out
}

/// What every decoder family's config gives: widths, counts and the context.
struct Common {
    vocab: u64,
    hidden: u64,
    layers: u64,
    heads: u64,
    kv: u64,
    head_dim: u64,
    inter: u64,
    tie: bool,
    max_context: u64,
}

/// (vocab, hidden, intermediate, layers, heads, kv heads, head_dim, tied).
type Defaults = (u64, u64, u64, u64, u64, u64, u64, bool);

/// Per-family defaults of `transformers`' config classes, for keys a published config omits:
/// (vocab, hidden, intermediate, layers, heads, kv heads or 0 for "= heads", head_dim or 0 for
/// "hidden / heads", tied).
fn defaults(family: &str) -> Option<Defaults> {
    Some(match family {
        "llama" | "granite" | "olmo2" => (32000, 4096, 11008, 32, 32, 0, 0, false),
        "mistral" | "mixtral" => (32000, 4096, 14336, 32, 32, 8, 0, false),
        "qwen2" => (151936, 4096, 22016, 32, 32, 32, 0, false),
        "qwen2_moe" => (151936, 2048, 5632, 24, 16, 16, 0, false),
        "qwen3" => (151936, 4096, 22016, 32, 32, 32, 128, false),
        "qwen3_moe" => (151936, 2048, 6144, 24, 32, 4, 0, false),
        "gemma" => (256000, 3072, 24576, 28, 16, 16, 256, true),
        "gemma2" => (256000, 2304, 9216, 26, 8, 4, 256, true),
        "gemma3_text" => (262208, 2304, 9216, 26, 8, 4, 256, true),
        "phi3" => (32064, 3072, 8192, 32, 32, 0, 0, false),
        "deepseek_v2" => (102400, 4096, 11008, 30, 32, 32, 0, false),
        "deepseek_v3" | "deepseek_v32" => (129280, 7168, 18432, 61, 128, 128, 0, false),
        "glm4_moe_lite" => (154880, 2048, 10240, 47, 20, 20, 0, false),
        "glm_moe_dsa" => (154880, 6144, 12288, 78, 64, 64, 0, false),
        "apertus" => (131072, 4096, 14336, 32, 32, 0, 0, false),
        "afmoe" => (200192, 2048, 6144, 32, 16, 0, 128, false),
        "mimo_v2_flash" => (152576, 4096, 16384, 48, 64, 4, 192, false),
        "lfm2_moe" => (65536, 2048, 7168, 32, 32, 8, 0, true),
        "step3p5" => (128815, 4096, 11264, 45, 64, 8, 128, false),
        // Step 5: the preview release's geometry (vLLM's `Step5Config` defaults are placeholders
        // its own model class refuses).
        "step5" => (128896, 4096, 13824, 92, 64, 4, 192, false),
        "mllama" => (128256, 4096, 14336, 40, 32, 8, 0, false),
        "laguna" => (100352, 2048, 8192, 40, 48, 8, 128, false),
        "minimax_m3" => (200064, 6144, 3072, 60, 64, 4, 128, false),
        "arcee" => (32000, 2560, 18432, 32, 32, 0, 0, false),
        "cosmos3_edge" => (131072, 2048, 9216, 28, 16, 8, 128, false),
        "nemotron" => (256000, 6144, 24576, 32, 48, 0, 0, false),
        "gpt_oss" => (201088, 2880, 2880, 36, 64, 8, 64, false),
        "bailing_hybrid" => (157184, 2560, 6144, 42, 32, 32, 0, false),
        "minimax" => (32000, 4096, 14336, 32, 32, 8, 0, false),
        "inkling" => (201024, 6144, 24576, 66, 64, 8, 128, false),
        // Inkling 2 (`Inkling2TextConfig`'s defaults, Inkling-2-Small's shape: `intermediate_size`
        // is its alias of the experts' width).
        "inkling2" => (201024, 4608, 2304, 48, 48, 8, 128, false),
        "inkling2_loop" => (201024, 2304, 1152, 24, 24, 8, 128, false),
        // dots3-note (transformers' `Dots3NoteTextConfig`, whose defaults are the release's).
        "dots3_note" => (152064, 5120, 13824, 46, 128, 128, 0, false),
        "lfm3" => (128000, 2048, 7680, 24, 16, 4, 128, true),
        "muse_glimmer" => (202048, 6656, 19968, 52, 32, 2, 128, false),
        "muse_spark" => (202048, 8192, 16384, 62, 128, 16, 64, false),
        "unlimited_ocr" => (129280, 1280, 6848, 12, 10, 10, 0, false),
        "deepseek_ocr2" => (102400, 4096, 11008, 32, 32, 32, 128, false),
        // Tencent's Hy3 (`HYV3Config`) and JetBrains' Mellum 2 (`MellumConfig`).
        "hy_v3" => (120832, 4096, 13312, 80, 64, 8, 128, false),
        "mellum" => (98304, 2304, 7168, 28, 32, 4, 128, false),
        // Ministral 3's and Mistral Small 4's text models (`Ministral3Config`, `Mistral4Config`:
        // DeepSeek V3's latent attention and experts in Mistral 4).
        "ministral3" => (131072, 4096, 14336, 34, 32, 8, 128, false),
        "mistral4" => (131072, 4096, 12288, 36, 32, 32, 128, false),
        // Families the generic reading builds exactly (transformers 5.24's class defaults): Meta's
        // CWM, InternLM3, IQuest-Coder, IBM's Granite MoE (with and without shared experts),
        // EXAONE 3.5, Kyutai's Helium, MiniCPM3 (latent attention), Tencent's Youtu.
        "cwm" => (128256, 6144, 21504, 64, 48, 8, 128, false),
        "internlm3" => (128512, 4096, 10240, 48, 32, 2, 128, false),
        "iquestcoder" => (76800, 5120, 27648, 80, 40, 8, 128, false),
        "granitemoe" | "granitemoeshared" | "granitemoe_swa" => (32000, 4096, 11008, 32, 32, 32, 0, false),
        // IBM's Granite with sliding layers (`GraniteSWAConfig`'s defaults).
        "granite_swa" => (100352, 2560, 8192, 24, 20, 4, 0, true),
        "exaone" => (102400, 4096, 14336, 32, 32, 8, 128, false),
        "helium" => (48000, 2560, 7040, 24, 20, 20, 128, false),
        "minicpm3" => (73448, 2560, 6400, 62, 40, 40, 32, true),
        "youtu" => (128256, 2048, 6144, 32, 16, 16, 64, true),
        // Upstage's Solar Open (experts on every layer), Sarvam's MoE, Flint.
        "solar_open" => (196608, 4096, 1280, 48, 64, 8, 128, false),
        "sarvam_moe" => (262144, 4096, 8192, 19, 64, 4, 64, false),
        "flint" => (150144, 2048, 6144, 49, 32, 4, 128, false),
        // SK Telecom's A.X K1 (`AXK1Config`: DeepSeek V3's latent attention and experts).
        "axk1" => (163840, 7168, 18432, 61, 64, 64, 0, false),
        // Beam (`BeamConfig`, vLLM's `models/beam`).
        "beam" => (151936, 5120, 20480, 52, 48, 8, 128, false),
        "dory" => (131072, 2560, 7168, 36, 16, 4, 256, false),
        "zaya" => (262272, 2048, 2048, 40, 8, 2, 128, true),
        // Sapient's HRM-Text (`HrmTextConfig`: HRM-Text-1B's shape, the per-stack layer count).
        "hrm_text" => (151808, 1536, 4096, 16, 12, 0, 128, false),
        // Ricursive's Ripple (vLLM's `RicursiveConfig`: Ripple-65B's shape).
        "ricursive" => (100352, 5120, 40960, 80, 80, 8, 128, false),
        // Phi-3.5-MoE (`PhimoeConfig`).
        "phimoe" => (32064, 4096, 6400, 32, 32, 8, 0, false),
        _ => return None,
    })
}

fn read_common(cfg: &Cfg<'_>, family: &str) -> Result<Common> {
    let d = defaults(family);
    let (vocab, hidden, layers, heads, inter) = match d {
        Some((v, h, i, l, a, ..)) => (
            cfg.count_or("vocab_size", v)?,
            cfg.count_or("hidden_size", h)?,
            cfg.count_or("num_hidden_layers", l)?,
            cfg.count_or("num_attention_heads", a)?,
            cfg.count_or("intermediate_size", i)?,
        ),
        None => (
            cfg.required(&["vocab_size", "n_vocab", "padded_vocab_size"])?,
            cfg.required(&["hidden_size", "n_embd", "d_model", "dim"])?,
            match cfg.count_any(&["num_hidden_layers", "n_layer", "num_layers", "n_layers"])? {
                Some(n) => n,
                // Nemotron-H may give its layers only as a pattern or a list.
                None => match (
                    cfg.raw("hybrid_override_pattern").and_then(Value::as_str),
                    cfg.raw("layers_block_type").and_then(Value::as_array),
                ) {
                    (Some(p), _) => p.len() as u64,
                    (None, Some(l)) => l.len() as u64,
                    _ => cfg.required(&["num_hidden_layers"])?,
                },
            },
            cfg.count_any(&["num_attention_heads", "n_head", "num_heads", "n_heads"])?.unwrap_or(0),
            match per_layer_widths(cfg)? {
                // Gemma 3n lists a width per layer.
                Some(list) => list.first().copied().unwrap_or(0),
                None => cfg
                    .count_any(&[
                        "intermediate_size",
                        "ffn_dim",
                        "n_inner",
                        "ffn_hidden_size",
                        "block_ff_dim",
                    ])?
                    .unwrap_or(0),
            },
        ),
    };
    if layers > MAX_LAYERS {
        return Err(Error::parse(FORMAT, format!("num_hidden_layers: {layers} layers is not a real model")));
    }
    let kv_default = d.map_or(heads, |d| if d.5 == 0 { heads } else { d.5 });
    let kv = cfg.count_any(&["num_key_value_heads", "num_kv_heads", "n_head_kv"])?.unwrap_or(kv_default);
    let hd_default = d.map_or(0, |d| d.6);
    let head_dim = match cfg.count("head_dim")? {
        Some(h) if h > 0 => h,
        _ if hd_default > 0 => hd_default,
        _ => hidden.checked_div(heads).unwrap_or(0),
    };
    let tie = cfg.flag("tie_word_embeddings").unwrap_or(d.is_some_and(|d| d.7) || tied_by_default(family));
    let context_default = match family {
        "gemma3_text" | "mistral" | "mixtral" => 131_072,
        "qwen2" | "qwen2_moe" | "qwen3" | "qwen3_moe" => 32_768,
        "gemma" | "gemma2" => 8192,
        "phi3" => 4096,
        // Inkling 2's and Step 5's class defaults (`max_position_embeddings`, `max_seq_len`).
        "inkling2" | "inkling2_loop" | "step5" => 1_048_576,
        "ricursive" => 2_097_152,
        _ => 2048,
    };
    let max_context = cfg
        .count_any(&[
            "max_position_embeddings",
            "n_positions",
            "seq_length",
            "max_seq_len",
            "model_max_length",
        ])?
        .unwrap_or(context_default);
    Ok(Common { vocab, hidden, layers, heads, kv, head_dim, inter, tie, max_context })
}

/// `intermediate_size` given as one width per layer (Gemma 3n).
fn per_layer_widths(cfg: &Cfg<'_>) -> Result<Option<Vec<u64>>> {
    match cfg.raw("intermediate_size").and_then(Value::as_array) {
        Some(_) => cfg.indices("intermediate_size"),
        None => Ok(None),
    }
}

/// Families whose config class ties the head to the embeddings unless told otherwise.
fn tied_by_default(family: &str) -> bool {
    matches!(
        family,
        "gemma4_text"
            | "gemma3n_text"
            | "cohere"
            | "cohere2"
            | "lfm2"
            | "lfm2_moe"
            | "smollm3"
            | "mamba"
            | "mamba2"
            | "ernie4_5"
            | "ernie4_5_moe"
            | "gpt_bigcode"
            | "opt"
            | "bloom"
            | "mpt"
    )
}

/// What a layer mixes with, before its sizes are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Full,
    Sliding,
    Chunked,
    Linear,
    Mamba,
    Conv,
    /// No mixer (Nemotron-H's MLP and MoE layers).
    NoMixer,
    /// Mamba and attention in parallel (Falcon-H1).
    Parallel,
}

fn kind_of(s: &str) -> Option<Kind> {
    Some(match s {
        "full_attention"
        | "attention"
        | "full"
        | "global"
        | "global_attention"
        | "indexed_attention"
        | "deepseek_sparse_attention"
        | "minimax_m3_sparse"
        // Unlimited-OCR's reference sliding window: generated tokens see the last `sliding_window`
        // of themselves and the whole prompt, a mask over a cache that keeps every token (vLLM's
        // `unlimited_ocr.py`).
        | "reference_sliding_attention"
        | "hybrid" => Kind::Full,
        "sliding_attention" | "sliding" | "local" | "local_attention" | "sliding_window"
        | "hybrid_sliding" => Kind::Sliding,
        "chunked_attention" => Kind::Chunked,
        "linear_attention" => Kind::Linear,
        "mamba" | "mamba2" | "ssm" => Kind::Mamba,
        "conv" | "short_conv" => Kind::Conv,
        "mlp" | "moe" => Kind::NoMixer,
        _ => return None,
    })
}

/// A layer type of `key`; in the Mamba hybrids (Nemotron-H, Granite 4, Bamba, Falcon-H1)
/// `linear_attention` names their Mamba-2 layers.
fn ssm_kind(family: &str, s: &str, key: &str) -> Result<Kind> {
    let k = kind_of(s).ok_or_else(|| Error::parse(FORMAT, format!("`{key}`: unknown layer type `{s}`")))?;
    Ok(match (family, k) {
        ("nemotron_h" | "granitemoehybrid" | "bamba" | "falcon_h1" | "jamba", Kind::Linear) => Kind::Mamba,
        _ => k,
    })
}

/// Whether a class the config's `architectures` names (the text config's or the wrapper's)
/// passes `f`: where vLLM picks a model's rules by its class rather than its `model_type`.
fn names_class(cfg: &Cfg<'_>, f: impl Fn(&str) -> bool) -> bool {
    [cfg.main, cfg.outer].iter().any(|v| {
        v.get("architectures")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().filter_map(Value::as_str).any(&f))
    })
}

/// Each layer's kind, by the family's rules.
fn layer_kinds(cfg: &Cfg<'_>, family: &str, layers: u64) -> Result<Vec<Kind>> {
    let n = layers as usize;
    let window = cfg.count("sliding_window")?.filter(|w| *w > 0);
    if family == "nemotron_h" {
        if let Some(p) = cfg.raw("hybrid_override_pattern").and_then(Value::as_str) {
            if p.len() != n {
                return Err(Error::parse(
                    FORMAT,
                    format!("`hybrid_override_pattern` has {} layers but the model has {layers}", p.len()),
                ));
            }
            return p
                .chars()
                .map(|c| match c {
                    'M' => Ok(Kind::Mamba),
                    '*' => Ok(Kind::Full),
                    '-' | 'E' => Ok(Kind::NoMixer),
                    other => Err(Error::parse(
                        FORMAT,
                        format!("`hybrid_override_pattern`: unknown layer `{other}`"),
                    )),
                })
                .collect();
        }
        if let Some(list) = cfg.strings("layers_block_type", layers)? {
            return list.iter().map(|s| ssm_kind(family, s, "layers_block_type")).collect();
        }
    }
    // Essential AI's Rnj-1.5 (vLLM's `Rnj1ForCausalLM` over Gemma 3's config): only its
    // `chunked_attention` layers are local — each query sees its block and the one before, at most
    // `sliding_window` tokens, cached as a sliding window; any other type attends the whole context.
    if family == "gemma3_text" && names_class(cfg, |c| c == "Rnj1ForCausalLM") {
        let list = cfg.strings("layer_types", layers)?.unwrap_or_default();
        return Ok((0..n)
            .map(
                |i| {
                    if list.get(i).copied() == Some("chunked_attention") { Kind::Sliding } else { Kind::Full }
                },
            )
            .collect());
    }
    if let Some(list) = cfg.strings("layer_types", layers)? {
        return list.iter().map(|s| ssm_kind(family, s, "layer_types")).collect();
    }
    let all = |k| vec![k; n];
    // Ling (Bailing) hybrids: the last layer of every `layer_group_size` attends fully, the rest are
    // linear; vLLM's Ling 3 (`bailing_moe_v3.py`) makes the layers past the last whole group full too.
    if matches!(family, "bailing_hybrid" | "bailing_moe_linear") {
        let group = cfg.count_or("layer_group_size", if family == "bailing_hybrid" { 6 } else { 1 })?.max(1);
        let whole = layers / group * group;
        let trailing_full = !bailing_lightning(cfg, family);
        return Ok((0..layers)
            .map(|i| {
                if (i + 1) % group == 0 || (trailing_full && i >= whole) { Kind::Full } else { Kind::Linear }
            })
            .collect());
    }
    // Step 5 without `layer_types` (vLLM 0.34 `Step5Attention`): even layers slide, odd ones attend
    // the whole context.
    if family == "step5" && cfg.raw("layer_types").is_none() {
        return Ok((0..layers).map(|i| if i % 2 == 0 { Kind::Sliding } else { Kind::Full }).collect());
    }
    // dots3-note without `layer_types` (transformers' class): the first two layers and every fourth
    // from the second attend the whole context (with the indexer), the others through the window.
    if family == "dots3_note" && cfg.raw("layer_types").is_none() {
        return Ok((0..layers)
            .map(|i| if i < 2 || i % 4 == 1 { Kind::Full } else { Kind::Sliding })
            .collect());
    }
    // Granite's sliding variants without `layer_types` (`GraniteSWAConfig`): every fourth layer from
    // the first attends the whole context.
    if matches!(family, "granite_swa" | "granitemoe_swa") {
        return Ok((0..layers).map(|i| if i % 4 == 0 { Kind::Full } else { Kind::Sliding }).collect());
    }
    // Ricursive without `layer_types` (`RicursiveConfig`): every fifth layer attends the whole
    // context (without rotary positions), the others slide.
    if family == "ricursive" {
        return Ok((0..layers).map(|i| if i % 5 == 4 { Kind::Full } else { Kind::Sliding }).collect());
    }
    // Inkling 2 without `layer_types`: all but every sixth slide (transformers 5.24 ignores the
    // release's `local_layer_ids`).
    if is_inkling2(family) {
        return Ok((0..layers).map(|i| if (i + 1) % 6 == 0 { Kind::Full } else { Kind::Sliding }).collect());
    }
    // Inkling: the layers `local_layer_ids` names slide, else all but every sixth.
    if family == "inkling" {
        let local = cfg.indices("local_layer_ids")?;
        return Ok((0..layers)
            .map(|i| {
                let sliding = match &local {
                    Some(l) => l.contains(&i),
                    None => (i + 1) % 6 != 0,
                };
                if sliding { Kind::Sliding } else { Kind::Full }
            })
            .collect());
    }
    // MiniMax-Text-01/M1's hub config: `attn_type_list`, 0 for lightning, 1 for softmax attention.
    if family == "minimax"
        && let Some(list) = cfg.layer_flags("attn_type_list", layers)?
    {
        return Ok(list.iter().map(|full| if *full { Kind::Full } else { Kind::Linear }).collect());
    }
    if family == "kimi_linear" {
        // `linear_attn_config.full_attn_layers` / `kda_layers`, numbered from 1; else every
        // fourth layer after the first is full.
        let lac = cfg.raw("linear_attn_config");
        let list = |k: &str| -> Result<Option<Vec<u64>>> {
            match lac.and_then(|v| v.get(k)).and_then(Value::as_array) {
                None => Ok(None),
                Some(a) if a.len() as u64 > MAX_LAYERS => {
                    Err(Error::parse(FORMAT, format!("`{k}` is too long")))
                }
                Some(a) => a
                    .iter()
                    .map(|x| {
                        x.as_u64()
                            .ok_or_else(|| Error::parse(FORMAT, format!("`{k}` must list layer numbers")))
                    })
                    .collect::<Result<Vec<u64>>>()
                    .map(Some),
            }
        };
        if let Some(full) = list("full_attn_layers")? {
            return Ok((1..=layers)
                .map(|i| if full.contains(&i) { Kind::Full } else { Kind::Linear })
                .collect());
        }
        return Ok((0..layers)
            .map(|i| if i > 0 && i % 4 == 0 { Kind::Full } else { Kind::Linear })
            .collect());
    }
    Ok(match family {
        "falcon_h1" => all(Kind::Parallel),
        "mamba" | "mamba2" => all(Kind::Mamba),
        "jamba" => {
            let period = cfg.count_or("attn_layer_period", 8)?.max(1);
            let offset = cfg.count_or("attn_layer_offset", 4)?;
            (0..layers).map(|i| if (i % period) == offset { Kind::Full } else { Kind::Mamba }).collect()
        }
        "bamba" => {
            let at = cfg.indices("attn_layer_indices")?.unwrap_or_default();
            (0..layers).map(|i| if at.contains(&i) { Kind::Full } else { Kind::Mamba }).collect()
        }
        // Muse Glimmer's class default: every fourth layer full (NoPE), counted back from the last;
        // the others sliding.
        // Beam's class default: every sixth layer full, and the last one; the others sliding.
        "beam" => (0..layers)
            .map(|i| if (i + 1) % 6 == 0 || i + 1 == layers { Kind::Full } else { Kind::Sliding })
            .collect(),
        // Dory's class default: every fourth layer full, the others sliding.
        "dory" => (0..layers).map(|i| if (i + 1) % 4 == 0 { Kind::Full } else { Kind::Sliding }).collect(),
        "muse_glimmer" | "muse_spark" => (0..layers)
            .map(|i| if (layers - 1 - i).is_multiple_of(4) { Kind::Full } else { Kind::Sliding })
            .collect(),
        // LFM3's class default: global attention at 2 mod 4, sliding at 0 mod 4 (not the first),
        // short convolutions elsewhere.
        "lfm3" => (0..layers)
            .map(|i| match i % 4 {
                2 => Kind::Full,
                0 if i > 0 => Kind::Sliding,
                _ => Kind::Conv,
            })
            .collect(),
        "lfm2" | "lfm2_moe" => {
            let at = cfg.indices("full_attn_idxs")?.unwrap_or_default();
            (0..layers).map(|i| if at.contains(&i) { Kind::Full } else { Kind::Conv }).collect()
        }
        // MiMo-V2-Flash: its hub config's `hybrid_layer_pattern` (1 slides), else transformers' rule
        // (the first layer and every sixth global).
        "mimo_v2_flash" => match cfg.layer_flags("hybrid_layer_pattern", layers)? {
            Some(p) => p.iter().map(|s| if *s { Kind::Sliding } else { Kind::Full }).collect(),
            None => (0..layers)
                .map(|i| if i == 0 || (i + 1) % 6 == 0 { Kind::Full } else { Kind::Sliding })
                .collect(),
        },
        // Arcee's Trinity (AFMoE): every `global_attn_every_n_layers`-th layer global, the rest
        // sliding.
        "afmoe" => {
            let every = cfg.count_or("global_attn_every_n_layers", 4)?.max(1);
            (0..layers).map(|i| if (i + 1) % every == 0 { Kind::Full } else { Kind::Sliding }).collect()
        }
        "qwen3_next" | "qwen3_5" | "qwen3_5_moe" | "alice_ai" => {
            let every = cfg.count_or("full_attention_interval", 4)?.max(1);
            (0..layers).map(|i| if (i + 1) % every == 0 { Kind::Full } else { Kind::Linear }).collect()
        }
        "gemma2" => (0..layers).map(|i| if i % 2 == 0 { Kind::Sliding } else { Kind::Full }).collect(),
        "gemma3_text" | "cohere2" | "exaone_moe" => {
            let every =
                cfg.count_or("sliding_window_pattern", if family == "gemma3_text" { 6 } else { 4 })?.max(1);
            // Cohere's MoE: its first `first_k_dense_replace` (dense) layers follow
            // `prefix_dense_sliding_window_pattern` (1: all global), the rest count from there.
            let prefix =
                if family == "cohere2" { cfg.count_or("first_k_dense_replace", 0)?.min(layers) } else { 0 };
            let prefix_every = cfg.count_or("prefix_dense_sliding_window_pattern", 1)?.max(1);
            (0..layers)
                .map(|i| {
                    let full =
                        if i < prefix { (i + 1) % prefix_every == 0 } else { (i - prefix + 1) % every == 0 };
                    if full { Kind::Full } else { Kind::Sliding }
                })
                .collect()
        }
        "gpt_oss" => (0..layers).map(|i| if i % 2 == 0 { Kind::Sliding } else { Kind::Full }).collect(),
        "llama4_text" => {
            // Layers with rotary embeddings attend in chunks; every `no_rope_layer_interval`-th is global.
            let chunked = cfg.count("attention_chunk_size")?.is_some();
            match cfg.indices("no_rope_layers")? {
                Some(list) if list.len() == n && chunked => {
                    list.iter().map(|r| if *r == 0 { Kind::Full } else { Kind::Chunked }).collect()
                }
                _ if chunked => {
                    let every = cfg.count_or("no_rope_layer_interval", 4)?.max(1);
                    (0..layers)
                        .map(|i| if (i + 1) % every == 0 { Kind::Full } else { Kind::Chunked })
                        .collect()
                }
                _ => all(Kind::Full),
            }
        }
        "qwen2" | "qwen2_moe" | "qwen3" | "qwen3_moe" => {
            if cfg.flag("use_sliding_window").unwrap_or(false) && window.is_some() {
                let from = cfg.count_or("max_window_layers", layers)?.min(layers);
                (0..layers).map(|i| if i >= from { Kind::Sliding } else { Kind::Full }).collect()
            } else {
                all(Kind::Full)
            }
        }
        "mistral" | "mixtral" | "starcoder2" | "phi3" if window.is_some() => all(Kind::Sliding),
        f if !is_known(f) && window.is_some() && cfg.flag("use_sliding_window") != Some(false) => {
            all(Kind::Sliding)
        }
        _ => all(Kind::Full),
    })
}

/// One hyper-connection mixing over `hc` residual streams of width `hidden` (DeepSeek V4,
/// GLM-5-Next, HunYuan V4), kept in FP32: its `rows × hc·hidden` map, `rows` biases and `scales`
/// scales.
fn hyper_mixing(rows: u64, hc: u64, hidden: u64, scales: u64) -> [Extra; 3] {
    [
        Extra { role: Role::Fp32, rows, cols: hc.saturating_mul(hidden) },
        Extra { role: Role::Fp32, rows: 1, cols: rows },
        Extra { role: Role::Fp32, rows: 1, cols: scales },
    ]
}

/// Ling 3 (`bailing_hybrid` with Kimi Delta Attention rather than lightning layers).
fn ling3(cfg: &Cfg<'_>, family: &str) -> bool {
    family == "bailing_hybrid" && !bailing_lightning(cfg, family)
}

/// Whether a Ling (Bailing) hybrid's linear layers are lightning attention (Ling 2.5/2.6's
/// `BailingMoeV2_5ForCausalLM`, Ring-linear's `bailing_moe_linear`) rather than Ling 3's Kimi Delta
/// Attention: both ship as `bailing_hybrid`, told apart by the architecture they name.
fn bailing_lightning(cfg: &Cfg<'_>, family: &str) -> bool {
    family == "bailing_moe_linear"
        || family == "bailing_hybrid"
            && cfg.raw("architectures").and_then(Value::as_array).is_some_and(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .any(|n| n.starts_with("BailingMoeV2") || n.contains("Linear"))
            })
}

/// The family's attention traits.
struct Traits {
    qkv_bias: bool,
    o_bias: bool,
    qk_norm: QkNorm,
    fused_qkv: bool,
    sinks: bool,
    gated_mlp: bool,
    mlp_bias: bool,
    fused_gate_up: bool,
    norm: NormKind,
    norms: u64,
}

fn traits(cfg: &Cfg<'_>, family: &str) -> Traits {
    let attention_bias = cfg.flag("attention_bias");
    let b = attention_bias.unwrap_or(false);
    let mut t = Traits {
        qkv_bias: b,
        o_bias: b,
        qk_norm: QkNorm::None,
        fused_qkv: false,
        sinks: false,
        gated_mlp: true,
        mlp_bias: cfg.flag("mlp_bias").unwrap_or(false),
        fused_gate_up: false,
        norm: NormKind::Rms,
        norms: 2,
    };
    match family {
        "qwen2" | "qwen2_moe" => (t.qkv_bias, t.o_bias) = (true, false),
        "gpt_oss" => (t.qkv_bias, t.o_bias, t.sinks) = (true, true, true),
        // Flint and Granite's sliding variants: a learned sink a head on every attention layer.
        "flint" | "granite_swa" | "granitemoe_swa" => t.sinks = true,
        // `Glm4vTextAttention` (GLM-4.1V's text model) biases q, k and v whatever
        // `attention_bias` says.
        "glm4" if cfg.str("model_type").is_some_and(|t| t.starts_with("glm4v")) => {
            (t.qkv_bias, t.o_bias) = (true, false);
        }
        "glm" | "glm4" | "glm4_moe" | "seed_oss" => t.o_bias = false,
        "phi3" => (t.fused_qkv, t.fused_gate_up) = (true, true),
        "ernie4_5" | "ernie4_5_moe" => {
            let u = cfg.flag("use_bias").unwrap_or(false);
            (t.qkv_bias, t.o_bias, t.mlp_bias) = (u, u, u);
        }
        "exaone4" => (t.qkv_bias, t.o_bias) = (false, false),
        // InternLM2: one fused `wqkv`, biases on it and `wo` when `bias` (its class default).
        "internlm2" => {
            let b = cfg.flag("bias").unwrap_or(true);
            (t.qkv_bias, t.o_bias, t.fused_qkv) = (b, b, true);
        }
        // Apertus, Arcee (AFM) and NVIDIA's Cosmos 3 Edge: an MLP of two matrices alone (`up_proj`
        // and `down_proj`, `fc1` and `fc2`), whatever the activation (xIELU, squared ReLU).
        "apertus" | "arcee" | "cosmos3_edge" => t.gated_mlp = false,
        // Ling (Bailing): one fused `query_key_value` and `dense`, biased by `use_bias` /
        // `use_qkv_bias`; the MLPs biased by `use_bias` (vLLM's `bailing_moe.py`).
        "bailing_moe" | "bailing_moe_linear" | "bailing_hybrid" => {
            let u = cfg.flag("use_bias").unwrap_or(false);
            (t.qkv_bias, t.o_bias, t.mlp_bias) = (u || cfg.flag("use_qkv_bias").unwrap_or(false), u, u);
            t.fused_qkv = true;
        }
        // openPangu-Embedded: q, k, v and o biased by `bias` (vLLM's `openpangu.py`).
        "pangu_embedded" => {
            let u = cfg.flag("bias").unwrap_or(false);
            (t.qkv_bias, t.o_bias) = (u, u);
        }
        // Param2: Ling's fused `query_key_value` (biased by `use_qkv_bias`) and `dense` (by
        // `use_bias`); its MLPs without biases (vLLM's `param2moe.py`).
        "param2moe" => {
            t.qkv_bias = cfg.flag("use_qkv_bias").unwrap_or(false);
            t.o_bias = cfg.flag("use_bias").unwrap_or(false);
            t.fused_qkv = true;
        }
        // Nemotron-4 and Minitron: the same plain squared-ReLU MLP, and LayerNorms with a bias
        // (`NemotronLayerNorm1P`).
        "nemotron" | "jais2" => {
            t.gated_mlp = false;
            t.norm = NormKind::LayerNorm;
        }
        // nanochat: the same plain MLP, and RMS norms without weights (none on q and k either).
        "nanochat" => {
            t.gated_mlp = false;
            t.norm = NormKind::NoParams;
        }
        // Dory (nGPT): every activation normalised without weights; its scales are extras.
        "dory" => t.norm = NormKind::NoParams,
        _ => {}
    }
    if matches!(family, "glm" | "glm4") {
        t.fused_gate_up = true;
    }
    t.qk_norm = match family {
        "qwen3" | "qwen3_moe" | "gemma3_text" | "gemma4_text" | "qwen3_next" | "qwen3_5" | "qwen3_5_moe"
        | "alice_ai" | "exaone4" | "lfm2" | "gemma3n_text" | "apertus" | "afmoe" | "lfm2_moe"
        | "exaone_moe" | "step3p5" | "step5" | "laguna" | "minimax_m3" | "inkling" | "lfm3" | "hy_v3"
        | "mellum" | "ricursive" => QkNorm::PerHead,
        "olmo2" | "olmo3" | "olmoe" | "minimax_m2" | "olmo_hybrid" => QkNorm::Full,
        // Molmo 2: Qwen3's per-head q/k norms, or OLMo's over the whole width (`qk_norm_type`).
        "molmo2" => match cfg.str("qk_norm_type") {
            Some("olmo") => QkNorm::Full,
            None | Some("qwen3") => QkNorm::PerHead,
            Some(_) => QkNorm::None,
        },
        // `Glm4vMoeTextAttention` has no q/k norms whatever `use_qk_norm` says.
        "glm4_moe"
            if cfg.flag("use_qk_norm") == Some(true)
                && !cfg.str("model_type").is_some_and(|t| t.starts_with("glm4v")) =>
        {
            QkNorm::PerHead
        }
        // HunYuan always normalises queries and keys per head (`query_layernorm`, `key_layernorm`).
        "hunyuan_v1_dense" | "hunyuan_v1_moe" => QkNorm::PerHead,
        "bailing_moe" | "bailing_moe_linear" | "param2moe" if cfg.flag("use_qk_norm") == Some(true) => {
            QkNorm::PerHead
        }
        // Sarvam's MoE by `use_qk_norm` (its class default on); Flint always.
        "sarvam_moe" if cfg.flag("use_qk_norm").unwrap_or(true) => QkNorm::PerHead,
        "flint" | "beam" => QkNorm::PerHead,
        "cohere" | "cohere2" if cfg.flag("use_qk_norm") == Some(true) => QkNorm::PerHeadEach,
        // K2 Horizon: one gain a channel over all the heads (`q_norm` `heads × head_dim` wide).
        "k2_horizon" if cfg.flag("query_key_norm").unwrap_or(true) => QkNorm::Full,
        "llama4_text" => QkNorm::None,
        _ => QkNorm::None,
    };
    t.norms = match family {
        "gemma2" | "gemma3_text" | "gemma4_text" | "gemma3n_text" | "glm4" | "afmoe" | "muse_glimmer"
        | "beam" | "ricursive" | "domyn_edge" => 4,
        // Muse Spark's norm after the attention has no scale.
        "muse_spark" => 3,
        "cohere" | "cohere2" => 1,
        "olmo2" | "olmo3" | "exaone4" => 2,
        _ => 2,
    };
    if matches!(family, "cohere" | "cohere2") {
        t.norm = NormKind::LayerNormNoBias;
    }
    // Phi-3.5-MoE's norms are LayerNorms with biases.
    if family == "phimoe" {
        t.norm = NormKind::LayerNorm;
    }
    // OLMo 1: LayerNorms without any parameters.
    if family == "olmo" {
        t.norm = NormKind::NoParams;
    }
    t
}

/// A layer's attention of the family's traits, with its span.
fn attention(t: &Traits, heads: u64, kv: u64, head_dim: u64, span: Span) -> Attention {
    Attention {
        qkv_bias: t.qkv_bias,
        o_bias: t.o_bias,
        qk_norm: t.qk_norm,
        fused_qkv: t.fused_qkv,
        sinks: t.sinks,
        span,
        ..Attention::gqa(heads, kv, head_dim)
    }
}

fn read_family(cfg: &Cfg<'_>, family: &str, notices: &mut Vec<Msg>) -> Result<Architecture> {
    match family {
        "gpt2" | "gpt_bigcode" => read_gpt2(cfg, family),
        "gpt_neox" => read_neox(cfg),
        "falcon" => read_falcon(cfg),
        "phi" => read_phi(cfg),
        "mpt" => read_mpt(cfg),
        "opt" => read_opt(cfg),
        "bloom" => read_bloom(cfg),
        "stablelm" => read_stablelm(cfg),
        "starcoder2" => read_starcoder2(cfg),
        "dbrx" => read_dbrx(cfg),
        "deepseek_v4" => read_deepseek_v4(cfg),
        "deepseek_v41" => read_deepseek_v41(cfg),
        "qwen4_exp" => read_qwen4_exp(cfg, notices),
        "nemotron-nas" => read_decilm(cfg),
        "ernie4_5_vl_moe" => read_ernie_vl(cfg, notices),
        "zamba2" => read_zamba2(cfg),
        "hrm_text" => read_hrm_text(cfg),
        "moondream3" => read_moondream3(cfg),
        _ => read_decoder(cfg, family, notices),
    }
}

/// ERNIE 4.5 VL's language model (vLLM's `ernie45_vl_moe.py`, transformers'
/// `Ernie4_5_VLMoeTextModel`): ERNIE 4.5's MoE layers, each with a second routed expert set,
/// router and correction bias that only image and video tokens go through. Its config pairs
/// `[text, vision]` values: `moe_num_experts`, `moe_intermediate_size` and, on the hub,
/// `moe_layer_start_index` / `moe_layer_end_index` (a layer is MoE when `(i + 1)` is a multiple
/// of `moe_layer_interval` and it lies between the smallest start and the largest end);
/// transformers lists `mlp_layer_types`. A MoE layer outside one modality's range runs that
/// modality through a dense MLP, which a layer here cannot hold: such a config is refused.
fn read_ernie_vl(cfg: &Cfg<'_>, notices: &mut Vec<Msg>) -> Result<Architecture> {
    let pair = |key: &str, default: (u64, u64)| -> Result<(u64, u64)> {
        let bad = || Error::parse(FORMAT, format!("`{key}` must be a number or a [text, vision] pair"));
        match cfg.raw(key) {
            None => Ok(default),
            Some(v) => match (v.as_u64(), v.as_array()) {
                (Some(n), _) => Ok((n, n)),
                (None, Some([a, b])) => Ok((a.as_u64().ok_or_else(bad)?, b.as_u64().ok_or_else(bad)?)),
                _ => Err(bad()),
            },
        }
    };
    let layers = cfg.count_or("num_hidden_layers", 28)?;
    let (text_experts, vision_experts) = pair("moe_num_experts", (64, 64))?;
    let (text_width, vision_width) = pair("moe_intermediate_size", (1536, 512))?;
    let (top_k, _) = pair("moe_k", (6, 6))?;
    let mut norm = match cfg.main {
        Value::Object(m) => m.clone(),
        _ => return Err(Error::parse(FORMAT, "the text config is not a JSON object")),
    };
    let uint = |n: u64| Value::Number(Number { f: n as f64, u: Some(n) });
    let mut set = |key: &str, v: Value| match norm.iter_mut().rev().find(|(k, _)| k == key) {
        Some((_, old)) => *old = v,
        None => norm.push((key.into(), v)),
    };
    set("moe_num_experts", uint(text_experts));
    set("moe_intermediate_size", uint(text_width));
    set("moe_k", uint(top_k));
    if !cfg.present("mlp_layer_types") && text_experts.max(vision_experts) > 0 {
        let (text_start, vision_start) = pair("moe_layer_start_index", (1, 1))?;
        let last = layers.saturating_sub(1);
        let (text_end, vision_end) = pair("moe_layer_end_index", (last, last))?;
        let every = cfg.count_or("moe_layer_interval", 1)?.max(1);
        let on = cfg.flag("use_moe").unwrap_or(true);
        let (first, end) = (text_start.min(vision_start), text_end.max(vision_end));
        let mut moe_layers = Vec::new();
        for i in (0..layers).filter(|i| on && (i + 1) % every == 0 && *i >= first && *i <= end) {
            let text = (text_start..=text_end).contains(&i);
            let vision = (vision_start..=vision_end).contains(&i);
            if !(text && vision) {
                return Err(Error::parse(
                    FORMAT,
                    format!(
                        "layer {i} sends only {} tokens to experts (the others through a dense MLP), which is not read from a config; give the checkpoint's safetensors headers",
                        if text { "text" } else { "image" }
                    ),
                ));
            }
            moe_layers.push(uint(i));
        }
        set("moe_layers", Value::Array(moe_layers));
    }
    let norm = Value::Object(norm);
    let flat = core::ptr::eq(cfg.main, cfg.outer);
    let inner = Cfg { main: &norm, outer: if flat { &norm } else { cfg.outer } };
    let mut a = read_decoder(&inner, "ernie4_5_moe", notices)?;
    a.family = "ernie4_5_vl_moe".into();
    for g in &mut a.groups {
        if let Ffn::Moe(m) = &mut g.ffn {
            m.modality_experts = vision_experts;
            m.modality_intermediate = vision_width;
        }
    }
    Ok(a)
}

/// Routed experts a family's config class builds when its config does not say (`None`: the class
/// has none by default).
fn class_experts(family: &str) -> Option<u64> {
    Some(match family {
        "hunyuan_v1_moe" => 1,
        "mixtral" | "minimax" | "granitemoe" | "granitemoeshared" | "granitemoe_swa" => 8,
        "phimoe" => 16,
        "lfm2_moe" => 32,
        "qwen2_moe" => 60,
        "glm4_moe_lite" | "afmoe" | "unlimited_ocr" | "mellum" | "deepseek_ocr2" => 64,
        "gpt_oss" | "qwen3_moe" | "solar_open" | "sarvam_moe" | "mistral4" => 128,
        "hy_v3" | "axk1" => 192,
        "deepseek_v3" | "deepseek_v32" | "glm_moe_dsa" | "mimo_v2_flash" | "laguna" | "flint"
        | "muse_spark" | "beam" | "dots3_note" => 256,
        "step3p5" => 288,
        "inkling2" => 384,
        "inkling2_loop" => 128,
        "step5" => 352,
        "bailing_hybrid" => 512,
        _ => return None,
    })
}

/// Which layers use experts, by the family's keys; `None` for a dense model.
fn moe_layer(cfg: &Cfg<'_>, family: &str, layers: u64) -> Result<Vec<bool>> {
    let n = layers as usize;
    if family == "hunyuan_v1_moe" {
        // Every HunYuan MoE layer routes (even to one expert); per-layer lists are not read.
        for k in ["num_experts", "moe_topk", "num_shared_expert", "moe_intermediate_size"] {
            if cfg.raw(k).is_some_and(|v| v.as_array().is_some()) {
                return Err(Error::parse(
                    FORMAT,
                    format!("per-layer `{k}` lists are not read from a config; give the safetensors headers"),
                ));
            }
        }
        return Ok(vec![true; n]);
    }
    let experts =
        cfg.count_any(&["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"])?;
    let experts = experts.or(class_experts(family)).unwrap_or(0);
    if experts <= 1 || (family == "gemma4_text" && cfg.flag("enable_moe_block") != Some(true)) {
        return Ok(vec![false; n]);
    }
    if let Some(list) = cfg.indices("moe_layers")? {
        return Ok((0..layers).map(|i| list.contains(&i)).collect());
    }
    if let Some(types) = cfg.strings("mlp_layer_types", layers)? {
        return Ok(types.iter().map(|t| *t == "sparse").collect());
    }
    if family == "deepseek_ocr2" {
        // transformers' class reads only `mlp_layer_types` (it cannot build without it).
        return Err(Error::parse(
            FORMAT,
            "`mlp_layer_types` is missing: DeepSeek-OCR-2 names each layer's MLP by it",
        ));
    }
    Ok(match family {
        // DeepSeek's rule, which A.X K1 (vLLM's `AXK1.py`), Unlimited-OCR (vLLM's DeepSeek-V2
        // layers) and Sarvam's MoE keep: `first_k_dense_replace` dense layers, then every
        // `moe_layer_freq`-th.
        "deepseek_v2" | "deepseek_v3" | "deepseek_v32" | "glm4_moe" | "glm4_moe_lite" | "glm_moe_dsa"
        | "kimi_k2" | "axk1" | "unlimited_ocr" | "sarvam_moe" | "dots3_note" | "param2moe" => {
            // GLM-4.7-Flash's class makes layer 0 dense (`mlp_layer_types`' default); vLLM reads
            // `first_k_dense_replace`, which its config sets to 1.
            let first = cfg.count_or(
                "first_k_dense_replace",
                match family {
                    "deepseek_v3" | "deepseek_v32" | "glm_moe_dsa" => 3,
                    "glm4_moe_lite" | "axk1" | "unlimited_ocr" | "sarvam_moe" | "dots3_note"
                    | "param2moe" => 1,
                    _ => 0,
                },
            )?;
            let freq = cfg.count_or("moe_layer_freq", 1)?.max(1);
            (0..layers).map(|i| i >= first && i % freq == 0).collect()
        }
        "qwen2_moe" | "qwen3_moe" | "qwen3_next" | "qwen3_5_moe" | "olmoe" | "flint" | "k2_horizon"
        | "alice_ai" => {
            let step = cfg.count_or("decoder_sparse_step", 1)?.max(1);
            // Flint's class default keeps its first two layers dense.
            let only_default = if family == "flint" { alloc::vec![0, 1] } else { Vec::new() };
            let only = cfg.indices("mlp_only_layers")?.unwrap_or(only_default);
            (0..layers).map(|i| !only.contains(&i) && (i + 1) % step == 0).collect()
        }
        "llama4_text" => {
            let step = cfg.count_or("interleave_moe_layer_step", 1)?.max(1);
            (0..layers).map(|i| (i + 1) % step == 0).collect()
        }
        "ernie4_5_moe" => {
            let start = cfg.count_or("moe_layer_start_index", 1)?;
            let end = cfg.count_or("moe_layer_end_index", layers.saturating_sub(1))?;
            let every = cfg.count_or("moe_layer_interval", 1)?.max(1);
            (0..layers).map(|i| i >= start && i <= end && (i - start) % every == 0).collect()
        }
        // Step-3.5's hub config names its MoE layers in `moe_layers_enum` ("3,4,…" or a list);
        // else every layer from the fourth. Step 5 (vLLM 0.34's `_get_step5_moe_layer_indices`)
        // also reads `moe_layer_list`, refuses the two when they differ, and else routes every
        // layer but the first.
        "step3p5" | "step5" => {
            let listed = |key: &str| -> Result<Option<Vec<u64>>> {
                let bad = || Error::parse(FORMAT, format!("`{key}` must list layer numbers"));
                match cfg.raw(key) {
                    None => Ok(None),
                    Some(v) => match (v.as_str(), v.as_array()) {
                        (Some(text), _) => text
                            .split(',')
                            .map(str::trim)
                            .filter(|t| !t.is_empty())
                            .map(|t| t.parse::<u64>().map_err(|_| bad()))
                            .collect::<Result<Vec<u64>>>()
                            .map(Some),
                        (None, Some(_)) => cfg.indices(key),
                        _ => Err(bad()),
                    },
                }
            };
            let mut by_enum = listed("moe_layers_enum")?;
            if family == "step5" {
                let by_list = listed("moe_layer_list")?;
                if let (Some(a), Some(b)) = (&mut by_enum, by_list.clone()) {
                    let mut b = b;
                    a.sort_unstable();
                    b.sort_unstable();
                    if *a != b {
                        return Err(Error::parse(
                            FORMAT,
                            "`moe_layers_enum` and `moe_layer_list` name different layers",
                        ));
                    }
                }
                by_enum = by_enum.or(by_list);
            }
            let first = if family == "step5" { 1 } else { 3 };
            match by_enum {
                Some(l) => (0..layers).map(|i| l.contains(&i)).collect(),
                None => (0..layers).map(|i| i >= first).collect(),
            }
        }
        // MiniMax-M3's hub config lists 0/1 per layer in `moe_layer_freq`; else every layer routes.
        "minimax_m3" => match cfg.layer_flags("moe_layer_freq", layers)? {
            Some(list) => list,
            None => vec![true; n],
        },
        // Inkling: the first `dense_mlp_idx` layers dense.
        "inkling" => {
            let first = cfg.count_or("dense_mlp_idx", 0)?;
            (0..layers).map(|i| i >= first).collect()
        }
        // Laguna's class makes the first layer dense.
        "laguna" => (0..layers).map(|i| i > 0).collect(),
        // Beam's class default: the first three layers dense.
        "beam" => (0..layers).map(|i| i >= 3).collect(),
        // Hy3's class default: the first layer dense.
        "hy_v3" => (0..layers).map(|i| i > 0).collect(),
        // MiMo-V2-Flash's hub config lists 0/1 per layer in `moe_layer_freq`; transformers' default
        // makes the first layer dense.
        "mimo_v2_flash" => match cfg.layer_flags("moe_layer_freq", layers)? {
            Some(list) => list,
            None => (0..layers).map(|i| i > 0).collect(),
        },
        // AFMoE and LFM2-MoE: the first `num_dense_layers` layers dense.
        "afmoe" | "lfm2_moe" => {
            let first = cfg.count_or("num_dense_layers", if family == "afmoe" { 1 } else { 2 })?;
            (0..layers).map(|i| i >= first).collect()
        }
        "jamba" => {
            let period = cfg.count_or("expert_layer_period", 2)?.max(1);
            let offset = cfg.count_or("expert_layer_offset", 1)?;
            (0..layers).map(|i| (i % period) == offset).collect()
        }
        _ => {
            let first = cfg.count_or("first_k_dense_replace", 0)?;
            let step = cfg.count_or("decoder_sparse_step", 1)?.max(1);
            let only = cfg.indices("mlp_only_layers")?.unwrap_or_default();
            (0..layers).map(|i| i >= first && !only.contains(&i) && (i + 1) % step == 0).collect()
        }
    })
}

/// The mixture of experts of the family.
fn read_moe(cfg: &Cfg<'_>, family: &str, inter: u64) -> Result<Moe> {
    let num_experts = cfg
        .count_any(&["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"])?
        .or(class_experts(family))
        .unwrap_or(256);
    let k_default = match family {
        "mixtral" | "jamba" | "minimax" | "phimoe" | "granitemoe" | "granitemoeshared" | "granitemoe_swa" => {
            2
        }
        "hunyuan_v1_moe" => 1,
        "qwen2_moe" | "gpt_oss" | "glm4_moe_lite" | "lfm2_moe" | "mistral4" => 4,
        "afmoe" | "unlimited_ocr" | "sarvam_moe" | "flint" => 6,
        "qwen3_moe" | "deepseek_v3" | "deepseek_v32" | "glm_moe_dsa" | "mimo_v2_flash" | "step3p5"
        | "step5" | "inkling2" | "inkling2_loop" | "muse_spark" | "laguna" | "hy_v3" | "mellum"
        | "solar_open" | "axk1" | "beam" | "dots3_note" => 8,
        _ => 0,
    };
    let experts_per_token = cfg
        .count_any(&[
            "num_experts_per_tok",
            "num_experts_per_token",
            "experts_per_token",
            "moe_topk",
            "moe_k",
            "top_k_experts",
            "top_k",
        ])?
        .unwrap_or(k_default);
    if experts_per_token == 0 {
        return Err(Error::parse(FORMAT, "`num_experts_per_tok` is missing for a mixture of experts"));
    }
    let expert_intermediate = match family {
        // Their experts take `intermediate_size` (Llama 4's dense layers take `intermediate_size_mlp`).
        "mixtral" | "gpt_oss" | "jamba" | "minimax" | "minimax_m2" | "minimax_m3" | "llama4_text"
        | "hunyuan_v1_moe" => inter,
        "qwen2_moe" => cfg.count_or("moe_intermediate_size", 1408)?,
        "qwen3_moe" => cfg.count_or("moe_intermediate_size", 768)?,
        "deepseek_v2" | "deepseek_ocr2" => cfg.count_or("moe_intermediate_size", 1407)?,
        "deepseek_v3" | "deepseek_v32" | "glm_moe_dsa" | "mimo_v2_flash" => {
            cfg.count_or("moe_intermediate_size", 2048)?
        }
        "glm4_moe_lite" => cfg.count_or("moe_intermediate_size", 1536)?,
        "afmoe" => cfg.count_or("moe_intermediate_size", 1408)?,
        "lfm2_moe" => cfg.count_or("moe_intermediate_size", 1792)?,
        "step3p5" => cfg.count_or("moe_intermediate_size", 1280)?,
        "laguna" => cfg.count_or("moe_intermediate_size", 512)?,
        "unlimited_ocr" | "mellum" => cfg.count_or("moe_intermediate_size", 896)?,
        "hy_v3" | "dots3_note" | "step5" => cfg.count_or("moe_intermediate_size", 1536)?,
        "solar_open" => cfg.count_or("moe_intermediate_size", 1280)?,
        "sarvam_moe" => cfg.count_or("moe_intermediate_size", 1024)?,
        "flint" => cfg.count_or("moe_intermediate_size", 512)?,
        "muse_spark" => cfg.count_or("moe_intermediate_size", 4096)?,
        "axk1" | "mistral4" => cfg.count_or("moe_intermediate_size", 2048)?,
        "beam" => cfg.count_or("moe_intermediate_size", 2560)?,
        // LongCat-Flash's experts are `expert_ffn_hidden_size` wide.
        "longcat_flash" => cfg.count_or("expert_ffn_hidden_size", 2048)?,
        // Inkling: with `dense_intermediate_size`, `intermediate_size` is the experts' width.
        "inkling" if cfg.present("dense_intermediate_size") => inter,
        "inkling" => cfg.count_or("moe_intermediate_size", 3072)?,
        _ => cfg.count("moe_intermediate_size")?.unwrap_or(inter),
    };
    let n_shared = cfg.count_any(&[
        "n_shared_experts",
        "num_shared_experts",
        "moe_num_shared_experts",
        "num_shared_expert",
    ])?;
    let shared_intermediate = match family {
        "qwen2_moe" => cfg.count_or("shared_expert_intermediate_size", 5632)?,
        "deepseek_v2" | "deepseek_v3" | "deepseek_v32" | "glm4_moe" | "glm4_moe_lite" | "glm_moe_dsa"
        | "ernie4_5_moe" | "kimi_linear" => {
            let one = family.starts_with("deepseek_v3") || matches!(family, "glm4_moe_lite" | "glm_moe_dsa");
            let n = n_shared.unwrap_or(if one { 1 } else { 0 });
            n.checked_mul(expert_intermediate).ok_or(Error::Overflow { what: "shared experts" })?
        }
        "nemotron_h" => cfg.count_or("moe_shared_expert_intermediate_size", 0)?,
        // LongCat-Flash: each layer's two dense MLPs (`ffn_hidden_size`), always run beside the
        // experts, stand as its shared experts.
        "longcat_flash" => inter.checked_mul(2).ok_or(Error::Overflow { what: "shared experts" })?,
        // Ling: `num_shared_experts` experts of `moe_shared_expert_intermediate_size`, else of the
        // routed width (vLLM's `BailingMoE`; transformers' Ling 3 port: one, routed width).
        "bailing_moe" | "bailing_moe_linear" | "bailing_hybrid" => {
            let n = n_shared.unwrap_or(if family == "bailing_hybrid" { 1 } else { 0 });
            let width = cfg.count("moe_shared_expert_intermediate_size")?.unwrap_or(expert_intermediate);
            n.checked_mul(width).ok_or(Error::Overflow { what: "shared experts" })?
        }
        "laguna" => cfg.count_or("shared_expert_intermediate_size", 512)?,
        // Param2: `moe_shared_expert_intermediate_size` is the shared MLP's whole width (vLLM's
        // `param2moe.py` warns against multiplying it), else `num_shared_experts` (1) routed widths.
        "param2moe" => match cfg.count("moe_shared_expert_intermediate_size")? {
            Some(w) => w,
            None => n_shared
                .unwrap_or(1)
                .checked_mul(expert_intermediate)
                .ok_or(Error::Overflow { what: "shared experts" })?,
        },
        "minimax_m3" => cfg.count_or("shared_intermediate_size", 3072)?,
        // Step-3.5: one shared expert `share_expert_dim` wide on every MoE layer.
        "step3p5" => cfg.count_any(&["share_expert_dim", "share_expert_dims"])?.unwrap_or(1280),
        // Step 5: `share_expert_dim`, else the routed width times the experts a token takes
        // (vLLM's `Step5Config`).
        "step5" => match cfg.count("share_expert_dim")? {
            Some(w) => w,
            None => expert_intermediate
                .checked_mul(cfg.count_any(&["moe_top_k", "num_experts_per_tok"])?.unwrap_or(8))
                .ok_or(Error::Overflow { what: "shared experts" })?,
        },
        "hy_v3" | "solar_open" | "sarvam_moe" | "axk1" | "mistral4" => n_shared
            .unwrap_or(1)
            .checked_mul(expert_intermediate)
            .ok_or(Error::Overflow { what: "shared experts" })?,
        "flint" => cfg.count_or("shared_expert_intermediate_size", 1024)?,
        // dots3-note: `n_shared_experts` (1) of the routed width, or transformers' own key.
        "dots3_note" => match cfg
            .count_any(&["shared_experts_intermediate_size", "moe_shared_expert_intermediate_size"])?
        {
            Some(w) => w,
            None => n_shared
                .unwrap_or(1)
                .checked_mul(expert_intermediate)
                .ok_or(Error::Overflow { what: "shared experts" })?,
        },
        "afmoe" | "unlimited_ocr" | "deepseek_ocr2" => n_shared
            .unwrap_or(2)
            .checked_mul(expert_intermediate)
            .ok_or(Error::Overflow { what: "shared experts" })?,
        // transformers' HunYuan MoE: a shared MLP of `intermediate_size` beside the experts.
        "hunyuan_v1_moe" => inter,
        "llama4_text" => inter,
        // Elsewhere, `shared_expert_intermediate_size` (Qwen-MoE's way), else DeepSeek's
        // `n_shared_experts` experts of the routed width.
        _ => match cfg.count_any(&["shared_expert_intermediate_size", "shared_intermediate_size"])? {
            Some(w) => w,
            None => n_shared
                .unwrap_or(0)
                .checked_mul(expert_intermediate)
                .ok_or(Error::Overflow { what: "shared experts" })?,
        },
    };
    Ok(Moe {
        router_hidden: if family == "zaya" { cfg.count_or("router_hidden_size", 256)? } else { 0 },
        num_experts,
        experts_per_token,
        expert_intermediate,
        gated: family != "nemotron_h",
        shared_intermediate,
        shared_expert_gate: matches!(family, "qwen2_moe" | "qwen3_next" | "qwen3_5_moe" | "alice_ai"),
        router_bias: family == "gpt_oss",
        score_bias: matches!(
            family,
            "deepseek_v3"
                | "deepseek_v32"
                | "glm4_moe"
                | "glm4_moe_lite"
                | "glm_moe_dsa"
                | "afmoe"
                | "mimo_v2_flash"
                | "exaone_moe"
                | "step3p5"
                | "step5"
                | "laguna"
                | "minimax_m3"
                | "nemotron_h"
                | "minimax_m2"
                | "ernie4_5_moe"
                | "kimi_linear"
                | "inkling"
                | "inkling2"
                | "inkling2_loop"
                | "longcat_flash"
                | "hy_v4"
                | "glm5_next"
                | "muse_spark"
                | "hy_v3"
                | "solar_open"
                | "sarvam_moe"
                | "axk1"
                | "beam"
                | "dots3_note"
        ) && !(family == "minimax_m2" && cfg.flag("use_routing_bias") == Some(false))
            || (family == "lfm2_moe" && cfg.flag("use_expert_bias").unwrap_or(true))
            // AliceAI's FP32 correction bias (`router_bias_correction`, which vLLM requires).
            || family == "alice_ai"
            // Param2's FP32 expert bias (`moe_router_enable_expert_bias`, on by default).
            || (family == "param2moe" && cfg.flag("moe_router_enable_expert_bias").unwrap_or(true))
            // K2 Horizon's router bias (`moe_gate_bias`), FP32, a selection bias.
            || (family == "k2_horizon" && cfg.flag("moe_gate_bias").unwrap_or(false))
            // Ling 3's router always keeps its correction bias; Ling 2.x's when the config asks.
            || ling3(cfg, family)
            || (family.starts_with("bailing") && cfg.flag("moe_router_enable_expert_bias") == Some(true)),
        expert_bias: family == "gpt_oss",
        // Muse Spark pools the hidden state to `moe_hidden_size` around its experts.
        latent: match family {
            "muse_spark" => cfg.count_or("moe_hidden_size", 4096)?,
            // Nemotron 3's `moe_latent_size`; Kimi K3's `routed_expert_hidden_size`.
            _ => cfg.count_any(&["moe_latent_size", "routed_expert_hidden_size"])?.unwrap_or(0),
        },
        modality_experts: 0,
        modality_intermediate: 0,
    })
}

/// Dory's released configs list each attention block and each MLP block as a layer
/// (`layer_types` alternating an attention kind and `mlp`, the layer counts in blocks); a layer is
/// one of each, as transformers' `DoryConfig` reads them (`layer_types[::2]`, counts halved).
fn dory_blocks_to_layers(root: &mut Value) -> Result<()> {
    let Value::Object(members) = root else { return Ok(()) };
    if !members.iter().any(|(k, v)| k == "model_type" && v.as_str() == Some("dory")) {
        return Ok(());
    }
    let blocks = members.iter().rev().find(|(k, _)| k == "layer_types").and_then(|(_, v)| match v {
        Value::Array(a) if a.iter().any(|x| x.as_str() == Some("mlp")) => Some(a.clone()),
        _ => None,
    });
    let Some(blocks) = blocks else { return Ok(()) };
    let paired = blocks.len().is_multiple_of(2)
        && blocks
            .chunks(2)
            .all(|p| p[0].as_str().is_some_and(|t| t != "mlp") && p[1].as_str() == Some("mlp"));
    if !paired {
        return Err(Error::parse(
            FORMAT,
            "Dory's `layer_types` must pair each attention block with an `mlp` block",
        ));
    }
    for (k, v) in members.iter_mut() {
        match k.as_str() {
            "layer_types" => *v = Value::Array(blocks.iter().step_by(2).cloned().collect()),
            "num_hidden_layers" | "n_input_layers" | "n_output_layers" | "n_recurrent_layers" => {
                if let Some(n) = v.as_u64() {
                    if !n.is_multiple_of(2) {
                        return Err(Error::parse(
                            FORMAT,
                            format!("Dory's `{k}` ({n}) counts blocks, two a layer: it must be even"),
                        ));
                    }
                    *v = Value::Number(Number { f: (n / 2) as f64, u: Some(n / 2) });
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The layers `[start, end)` of `groups` run `loops` times: the first pass stores their weights,
/// each later pass is a copy marked `tied` (no tensor of its own) that `later` adjusts (its
/// cache), placed right after them. `key` names the count in errors (1 to 16 passes).
fn looped_stack(
    groups: &[LayerGroup],
    (start, end): (u64, u64),
    loops: u64,
    key: &str,
    mut later: impl FnMut(&mut LayerGroup),
) -> Result<Vec<LayerGroup>> {
    if !(1..=16).contains(&loops) {
        return Err(Error::parse(
            FORMAT,
            format!("`{key}` {loops}: a looped model runs its layers 1 to 16 times"),
        ));
    }
    let layers: Vec<&LayerGroup> =
        groups.iter().flat_map(|g| core::iter::repeat_n(g, g.count.min(MAX_LAYERS) as usize)).collect();
    let (start, end) = (start.min(layers.len() as u64) as usize, end.min(layers.len() as u64) as usize);
    let mut out = Stack::default();
    for g in &layers[..end] {
        out.push(LayerGroup { count: 1, ..(*g).clone() });
    }
    for _ in 1..loops {
        for g in &layers[start..end] {
            let mut again = LayerGroup { count: 1, tied: true, ..(*g).clone() };
            later(&mut again);
            out.push(again);
        }
    }
    for g in &layers[end..] {
        out.push(LayerGroup { count: 1, ..(*g).clone() });
    }
    Ok(out.groups)
}

/// vLLM reads a DeepSeek layer as plain multi-head attention (`DeepseekAttention`: bias-free q, k,
/// v and output, `hidden / heads` wide heads) when its config sets both query-key widths to zero
/// (`deepseek_v2.py`: `use_mha`), as DeepSeek-VL2-Tiny's and DeepSeek-OCR's do; absent keys keep
/// the class's latent attention.
fn deepseek_plain_attention(cfg: &Cfg<'_>) -> bool {
    let zero = |k: &str| cfg.raw(k).and_then(Value::as_u64) == Some(0);
    zero("qk_nope_head_dim") && zero("qk_rope_head_dim")
}

fn mla(cfg: &Cfg<'_>, family: &str, heads: u64, layer: u64) -> Result<Mla> {
    // GLM-4.7-Flash's and GLM-5's class defaults: 192 + 64 wide keys, 256 wide values.
    let wide = matches!(family, "glm4_moe_lite" | "glm_moe_dsa");
    let q_lora_rank = match cfg.raw("q_lora_rank") {
        // Absent means the class default (1536) for DeepSeek V2/V3; an explicit null means none.
        None if matches!(family, "deepseek_v2" | "deepseek_v3" | "deepseek_v32" | "axk1" | "youtu")
            && !cfg.present("q_lora_rank") =>
        {
            Some(1536)
        }
        None if family == "mistral4" && !cfg.present("q_lora_rank") => Some(1024),
        None if family == "minicpm3" && !cfg.present("q_lora_rank") => Some(768),
        None if family == "glm4_moe_lite" && !cfg.present("q_lora_rank") => Some(768),
        None if family == "glm_moe_dsa" && !cfg.present("q_lora_rank") => Some(2048),
        None if family == "dots3_note" && !cfg.present("q_lora_rank") => Some(1024),
        None => None,
        Some(_) => cfg.count("q_lora_rank")?,
    };
    // Kimi K3.1's `dsa_config` (vLLM's `KimiLinearDSAConfig`): DeepSeek V3.2's indexer on the
    // MLA layers it lists (`dsa_layers`, numbered from 1), its keys FP8 with a scale each.
    let dsa = cfg.raw("dsa_config").filter(|v| v.as_object().is_some());
    let indexer = if let Some(d) = dsa {
        let n = |k: &str, default: u64| nested_count(d, "dsa_config", k, default);
        if n("index_topk_freq", 1)? != 1 {
            return Err(Error::parse(
                FORMAT,
                "`dsa_config.index_topk_freq`: Kimi's sparse attention runs its own indexer on every listed layer (1)",
            ));
        }
        let listed =
            d.get("dsa_layers").or_else(|| d.get("layers")).and_then(Value::as_array).ok_or_else(|| {
                Error::parse(
                    FORMAT,
                    "`dsa_config.dsa_layers` must list the layers (from 1) that run the indexer",
                )
            })?;
        if listed.iter().any(|x| x.as_u64().is_none()) {
            return Err(Error::parse(FORMAT, "`dsa_config.dsa_layers` must list layer numbers"));
        }
        if listed.iter().any(|x| x.as_u64() == Some(layer + 1)) {
            Some(Indexer {
                heads: n("index_num_heads", 16)?,
                head_dim: n("index_head_dim", 64)?,
                topk: n("index_topk", 2048)?,
                pool: 1,
            })
        } else {
            None
        }
    } else if (matches!(family, "deepseek_v32" | "glm_moe_dsa" | "dots3_note") || cfg.present("index_topk"))
        && own_indexer(cfg, layer)?
    {
        Some(Indexer {
            heads: cfg.count_or("index_n_heads", if family == "glm_moe_dsa" { 32 } else { 64 })?,
            head_dim: cfg.count_or("index_head_dim", 128)?,
            topk: cfg.count_or("index_topk", 2048)?,
            pool: cfg.count_or("index_kpool", 1)?,
        })
    } else {
        None
    };
    Ok(Mla {
        num_heads: heads,
        q_lora_rank,
        // Mistral Small 4's and MiniCPM3's classes: a 256-wide latent, 64 unrotated dimensions a
        // head (MiniCPM3: 32 rotated, 64-wide values).
        kv_lora_rank: cfg
            .count_or("kv_lora_rank", if matches!(family, "mistral4" | "minicpm3") { 256 } else { 512 })?,
        qk_nope_head_dim: cfg.count_or(
            "qk_nope_head_dim",
            if wide {
                192
            } else if matches!(family, "mistral4" | "minicpm3") {
                64
            } else {
                128
            },
        )?,
        qk_rope_head_dim: cfg.count_or("qk_rope_head_dim", if family == "minicpm3" { 32 } else { 64 })?,
        v_head_dim: cfg.count_or(
            "v_head_dim",
            if wide {
                256
            } else if family == "minicpm3" {
                64
            } else {
                128
            },
        )?,
        indexer,
        shares_latent: false,
        output_gate: cfg.flag("mla_use_output_gate").unwrap_or(false),
        span: Span::Full,
    })
}

/// Whether MiniMax-M3's layer `i` attends sparsely through its block indexer: `layer_types`
/// `minimax_m3_sparse`, or the hub config's `sparse_attention_config.sparse_attention_freq`.
fn m3_sparse(cfg: &Cfg<'_>, i: u64) -> bool {
    if let Some(t) = cfg.raw("layer_types").and_then(Value::as_array) {
        return t.get(i as usize).and_then(Value::as_str) == Some("minimax_m3_sparse");
    }
    cfg.raw("sparse_attention_config")
        .and_then(|s| s.get("sparse_attention_freq"))
        .and_then(Value::as_array)
        .and_then(|f| f.get(i as usize))
        .and_then(Value::as_u64)
        == Some(1)
}

/// MiniMax-M3's indexer: (query heads, head width) — `index_n_heads`/`index_head_dim`, or the hub
/// config's `sparse_num_index_heads`/`sparse_index_dim` (transformers' defaults 4 and 128).
fn m3_index(cfg: &Cfg<'_>) -> (u64, u64) {
    let sparse = |k: &str| cfg.raw("sparse_attention_config").and_then(|s| s.get(k)).and_then(Value::as_u64);
    let heads = cfg.raw("index_n_heads").and_then(Value::as_u64).or(sparse("sparse_num_index_heads"));
    let dim = cfg.raw("index_head_dim").and_then(Value::as_u64).or(sparse("sparse_index_dim"));
    (heads.unwrap_or(4), dim.unwrap_or(128))
}

/// Step-3.5's and Laguna's gate on the attention output: `Some(true)` one value per head,
/// `Some(false)` one per element, `None` no gate. transformers' and vLLM's `gating`: true or
/// "per-head" per head (transformers' default), "per-element" per element, false none; Step-3.5's
/// hub key `use_head_wise_attn_gate` (what vLLM reads, false when absent there) wins when present.
fn step_gate(cfg: &Cfg<'_>) -> Option<bool> {
    if let Some(on) = cfg.flag("use_head_wise_attn_gate") {
        return on.then_some(true);
    }
    match cfg.raw("gating") {
        None => Some(true),
        Some(v) if v.as_bool() == Some(true) || v.as_str() == Some("per-head") => Some(true),
        Some(v) if v.as_str() == Some("per-element") => Some(false),
        Some(_) => None,
    }
}

/// Whether layer `i` runs its own sparse-attention indexer, or reuses the index of the last layer
/// that did (GLM-5.2's IndexCache, arXiv 2603.12201: `indexer_types` `"full"` / `"shared"`, or
/// `index_topk_pattern` `F`/`S`, or every `index_topk_freq`-th layer from
/// `index_skip_topk_offset − 1`, as transformers' `GlmMoeDsaConfig` derives them). A shared layer
/// stores no indexer weights and caches no indexer keys.
fn own_indexer(cfg: &Cfg<'_>, i: u64) -> Result<bool> {
    let bad = |k: &str| Error::parse(FORMAT, format!("`{k}` must list \"full\" or \"shared\" per layer"));
    if let Some(list) = cfg.raw("indexer_types").and_then(Value::as_array) {
        return match list.get(i as usize).and_then(Value::as_str) {
            Some("full") => Ok(true),
            Some("shared") => Ok(false),
            _ => Err(bad("indexer_types")),
        };
    }
    if let Some(p) = cfg.raw("index_topk_pattern").and_then(Value::as_str) {
        return match p.as_bytes().get(i as usize) {
            Some(b'F') => Ok(true),
            Some(b'S') => Ok(false),
            _ => Err(Error::parse(FORMAT, "`index_topk_pattern` must give an F or S per layer")),
        };
    }
    let freq = cfg.count_or("index_topk_freq", 1)?.max(1);
    let offset = cfg.count_or("index_skip_topk_offset", 2)?;
    Ok((i + 1).saturating_sub(offset) % freq == 0)
}

fn mamba(cfg: &Cfg<'_>, family: &str, hidden: u64) -> Result<Mamba> {
    let v1 = matches!(family, "mamba" | "jamba");
    let expand = cfg.count_any(&["mamba_expand", "expand"])?.unwrap_or(2);
    let state = cfg.count_any(&["ssm_state_size", "mamba_d_state", "state_size"])?.unwrap_or(if v1 {
        16
    } else {
        128
    });
    let kernel = cfg.count_any(&["conv_kernel", "mamba_d_conv", "mamba_conv_kernel"])?.unwrap_or(4);
    if v1 {
        let inner = match family {
            "jamba" => hidden.saturating_mul(cfg.count_or("mamba_expand", 2)?),
            _ => cfg.count("intermediate_size")?.unwrap_or(hidden.saturating_mul(expand)),
        };
        let dt_rank = match cfg.raw("time_step_rank").or_else(|| cfg.raw("mamba_dt_rank")) {
            Some(v) if v.as_u64().is_some() => v.as_u64().unwrap_or(0),
            _ => hidden.div_ceil(16),
        };
        return Ok(Mamba {
            version: MambaVersion::V1,
            inner,
            state,
            groups: 1,
            heads: 0,
            conv_kernel: cfg.count_any(&["conv_kernel", "mamba_d_conv"])?.unwrap_or(4),
            dt_rank,
            conv_bias: cfg.flag("use_conv_bias").or(cfg.flag("mamba_conv_bias")).unwrap_or(true),
            proj_bias: cfg.flag("use_bias").or(cfg.flag("mamba_proj_bias")).unwrap_or(false),
            gated_norm: false,
            inner_norms: family == "jamba",
        });
    }
    let heads = cfg.count_any(&["mamba_num_heads", "mamba_n_heads", "num_heads"])?.unwrap_or(128);
    let head_dim = cfg.count_any(&["mamba_head_dim", "mamba_d_head", "head_dim"])?;
    let inner = match (family, cfg.count("mamba_d_ssm")?, head_dim) {
        (_, Some(d), _) => d,
        ("nemotron_h" | "granitemoehybrid" | "bamba" | "falcon_h1", None, Some(hd)) => {
            heads.saturating_mul(hd)
        }
        _ => hidden.saturating_mul(expand),
    };
    Ok(Mamba {
        version: MambaVersion::V2,
        inner,
        state,
        groups: cfg.count_any(&["n_groups", "mamba_n_groups"])?.unwrap_or(1),
        heads,
        conv_kernel: kernel,
        dt_rank: 0,
        conv_bias: cfg.flag("use_conv_bias").or(cfg.flag("mamba_conv_bias")).unwrap_or(true),
        proj_bias: cfg.flag("mamba_proj_bias").or(cfg.flag("use_bias")).unwrap_or(false),
        gated_norm: family != "falcon_h1" || cfg.flag("mamba_rms_norm").unwrap_or(false),
        inner_norms: false,
    })
}

/// Llama-style decoders and every hybrid stack: per layer, its mixer and feed-forward.
fn read_decoder(cfg: &Cfg<'_>, family: &str, notices: &mut Vec<Msg>) -> Result<Architecture> {
    // openPangu-R's sink attention (`param_sink_number` learned key/value tokens, its own head
    // widths) and latent attention run through the same class: not read.
    if family == "pangu_embedded"
        && (cfg.count("param_sink_number")?.is_some_and(|n| n > 0) || cfg.present("kv_lora_rank"))
    {
        return Err(Error::parse(
            FORMAT,
            "openPangu's sink or latent attention (`param_sink_number`, `kv_lora_rank`) is not read: give the checkpoint's safetensors headers",
        ));
    }
    let c = read_common(cfg, family)?;
    let t = traits(cfg, family);
    let kinds = layer_kinds(cfg, family, c.layers)?;
    let moe_at = moe_layer(cfg, family, c.layers)?;
    let moe = if moe_at.iter().any(|m| *m) { Some(read_moe(cfg, family, c.inter)?) } else { None };
    // MiMo-V2's hub config gives the window vLLM uses as `sliding_window_size` (transformers' port
    // stores one more: the query itself).
    let size_key =
        if matches!(family, "mimo_v2_flash" | "inkling" | "inkling2" | "inkling2_loop" | "dots3_note") {
            cfg.count("sliding_window_size")?
        } else {
            None
        };
    let window = size_key.or(cfg.count("sliding_window")?).filter(|w| *w > 0).or(match family {
        "gemma2" | "gemma3_text" => Some(4096),
        "gpt_oss" => Some(128),
        "cohere2" => Some(4096),
        "afmoe" => Some(1024),
        "mimo_v2_flash" => Some(129),
        "inkling" | "dots3_note" => Some(512),
        "inkling2" | "inkling2_loop" => Some(1024),
        "lfm3" => Some(256),
        "muse_glimmer" | "muse_spark" => Some(2048),
        "mellum" => Some(1024),
        "beam" => Some(512),
        "ricursive" => Some(1024),
        "granite_swa" | "granitemoe_swa" => Some(128),
        _ => None,
    });
    if kinds.contains(&Kind::Sliding) && window.is_none() {
        return Err(Error::parse(FORMAT, "sliding-window layers but no `sliding_window`"));
    }
    if !is_known(family) && kinds.iter().all(|k| *k == Kind::Sliding) && !kinds.is_empty() {
        notices.push(Msg::new(MsgId::NoticeSlidingAllLayers, vec![Arg::Int(c.layers)]));
    }
    let chunk = cfg.count("attention_chunk_size")?.unwrap_or(8192).max(1);
    let dense_width = |i: u64| -> Result<u64> {
        Ok(match family {
            // Llama 4's dense layers are wider than its experts.
            "llama4_text" if moe.is_some() => cfg.count("intermediate_size_mlp")?.unwrap_or(c.inter),
            // LFM2 derives its width: two thirds, times a multiplier, rounded up to a multiple.
            "lfm2" if cfg.flag("block_auto_adjust_ff_dim").unwrap_or(true) => {
                let mut ff = c.inter.saturating_mul(2) / 3;
                if let Some(m) = cfg.num("block_ffn_dim_multiplier") {
                    ff = (m * ff as f64) as u64;
                }
                let multiple = cfg.count_or("block_multiple_of", 256)?.max(1);
                ff.div_ceil(multiple).saturating_mul(multiple)
            }
            // MiniMax-M3's dense layers are wider than its experts.
            "minimax_m3" => cfg.count_or("dense_intermediate_size", 12288)?,
            // Cohere's MoE: its dense prefix layers are `prefix_dense_intermediate_size` wide.
            "cohere2" => cfg.count("prefix_dense_intermediate_size")?.unwrap_or(c.inter),
            // Inkling checkpoints may name the dense width `dense_intermediate_size`.
            "inkling" => cfg.count("dense_intermediate_size")?.unwrap_or(c.inter),
            "gemma3n_text" => match per_layer_widths(cfg)? {
                Some(list) => list.get(i as usize).copied().ok_or_else(|| {
                    Error::parse(
                        FORMAT,
                        format!(
                            "`intermediate_size` lists {} layers but the model has {}",
                            list.len(),
                            c.layers
                        ),
                    )
                })?,
                None => c.inter,
            },
            _ => c.inter,
        })
    };
    let shared_kv_from = match family {
        "gemma3n_text" | "gemma4_text" => c.layers.saturating_sub(cfg.count_or("num_kv_shared_layers", 0)?),
        _ => c.layers,
    };
    // Llama 3.2 Vision's cross-attention layers (`MllamaTextConfig`'s default list).
    let mllama_cross = match family {
        "mllama" => {
            cfg.indices("cross_attention_layers")?.unwrap_or_else(|| vec![3, 8, 13, 18, 23, 28, 33, 38])
        }
        _ => Vec::new(),
    };
    let mut stack = Stack::default();
    for (i, kind) in kinds.iter().enumerate() {
        let i = i as u64;
        let span = match kind {
            Kind::Sliding => Span::Sliding { window: window.unwrap_or(1) },
            Kind::Chunked => Span::Chunked { chunk },
            _ => Span::Full,
        };
        let attn = |span| -> Result<Mixer> {
            if (matches!(
                family,
                "deepseek_v2" | "deepseek_v3" | "deepseek_v32" | "axk1" | "mistral4" | "minicpm3" | "youtu"
            ) || cfg.present("kv_lora_rank"))
                && !deepseek_plain_attention(cfg)
            {
                let mut m = mla(cfg, family, c.heads, i)?;
                // Mistral Large 4: a layer whose `kv_source_layers` entry names an earlier layer
                // reads that layer's latent.
                if let Some(src) = cfg.indices("kv_source_layers")? {
                    let s = src.get(i as usize).copied().ok_or_else(|| {
                        Error::parse(
                            FORMAT,
                            format!(
                                "`kv_source_layers` lists {} layers but the model has {}",
                                src.len(),
                                c.layers
                            ),
                        )
                    })?;
                    if s > i || src.get(s as usize) != Some(&s) {
                        return Err(Error::parse(
                            FORMAT,
                            format!(
                                "`kv_source_layers`: layer {i} reads layer {s}, which is not an earlier layer keeping its own"
                            ),
                        ));
                    }
                    m.shares_latent = s != i;
                }
                if family == "dots3_note" {
                    dots3_layer(cfg, i, span, &mut m)?;
                }
                // Mistral Large 4's NoPE layers (`no_rope_layers` 0): the rotary part of each key is
                // unrotated, so kept in `kv_b`'s per-head keys rather than in the shared latent.
                if family == "mistral_large4"
                    && cfg.indices("no_rope_layers")?.is_some_and(|l| l.get(i as usize) == Some(&0))
                {
                    m.qk_nope_head_dim = m.qk_nope_head_dim.saturating_add(m.qk_rope_head_dim);
                    m.qk_rope_head_dim = 0;
                }
                return Ok(Mixer::Mla(m));
            }
            let mut a = attention(&t, c.heads, c.kv, c.head_dim, span);
            match family {
                "qwen3_next" | "qwen3_5" | "qwen3_5_moe" => {
                    a.output_gate = cfg.flag("attn_output_gate").unwrap_or(true)
                }
                // AliceAI's full layers are Qwen3-Next's, the gate always on (vLLM's `alice_ai.py`).
                "alice_ai" => a.output_gate = true,
                // AFMoE's and Muse Glimmer's sigmoid gate on the attention output (its own
                // `gate_proj`, as wide as q).
                "afmoe" | "muse_glimmer" | "muse_spark" | "beam" | "dory" => a.output_gate = true,
                // K2 Horizon: a gate as wide as q (`gate_proj`) with `attention_gate_func`; on its
                // MoE layers, MoVA's value experts in place of `v_proj`.
                "k2_horizon" => {
                    a.output_gate = cfg.str("attention_gate_func").is_some();
                    let experts = cfg.count_or("mova_num_experts", 0)?;
                    if experts > 0 && moe_at.get(i as usize).copied().unwrap_or(false) {
                        let per_token = cfg.count_or("mova_num_experts_per_tok", 1)?;
                        if per_token == 0 || per_token > experts {
                            return Err(Error::parse(
                                FORMAT,
                                format!("`mova_num_experts_per_tok` {per_token} of {experts} value experts"),
                            ));
                        }
                        a.mova = Some(crate::model::Mova {
                            experts,
                            per_token,
                            router_bias: cfg.flag("moe_gate_bias").unwrap_or(false),
                        });
                    }
                }
                // Domyn Edge (vLLM's `domyn_edge.py`): each layer's head width (`per_layer_config`
                // over `head_dim`, or the older `head_sizes`) and window (`window_sizes[i][0]`, a
                // window of one more token when positive, else the whole context); no biases;
                // a weightless q norm and a per-head k norm (an extra of the layer).
                "domyn_edge" => {
                    (a.qkv_bias, a.o_bias, a.qk_norm) = (false, false, QkNorm::None);
                    let over =
                        per_layer_override(cfg, i).and_then(|o| o.get("head_dim")).and_then(Value::as_u64);
                    let listed = cfg.indices("head_sizes")?.and_then(|l| l.get(i as usize).copied());
                    if let Some(hd) = over.or(listed) {
                        (a.head_dim, a.v_head_dim) = (hd, hd);
                    }
                    let w = cfg
                        .raw("window_sizes")
                        .and_then(Value::as_array)
                        .and_then(|l| l.get(i as usize))
                        .map(|p| p.as_array().and_then(|x| x.first()).unwrap_or(p))
                        .and_then(Value::as_u64)
                        .unwrap_or(0);
                    a.span = if w > 0 { Span::Sliding { window: w.saturating_add(1) } } else { Span::Full };
                }
                // Ricursive's `g_proj`, a sigmoid gate as wide as q, with `use_gated_attention`.
                "ricursive" => a.output_gate = cfg.flag("use_gated_attention").unwrap_or(true),
                // Llama 3.2 Vision's cross-attention layers: q from the text, k and v from the
                // image's positions (projected to the text's width), per-head q/k norms; their
                // keys and values are the image's, cached once per sequence.
                "mllama" if mllama_cross.contains(&i) => {
                    a.qk_norm = QkNorm::PerHead;
                    a.span = Span::Cross { tokens: super::encoders::mllama_cross_tokens(cfg.outer) };
                }
                // Step-3.5's sliding layers have their own query heads (`num_sliding_attention_heads`,
                // the hub config's `attention_other_setting`); an element-wise gate when the config
                // asks for one (the per-head gate is an extra of the layer).
                "step3p5" => {
                    // The hub config names the key/value heads `num_attention_groups`.
                    if let Some(g) = cfg.count("num_attention_groups")? {
                        a.num_kv_heads = g;
                    }
                    if span != Span::Full {
                        let other = cfg
                            .raw("attention_other_setting")
                            .and_then(|o| o.get("num_attention_heads"))
                            .and_then(Value::as_u64);
                        a.num_heads = cfg.count("num_sliding_attention_heads")?.or(other).unwrap_or(c.heads);
                    }
                    a.output_gate = step_gate(cfg) == Some(false);
                }
                // Step 5 (vLLM 0.34 `Step5Attention`): `num_attention_groups` KV heads, the sliding
                // layers' own query heads (`swa_num_attention_heads`), one layer type's own geometry
                // (`attention_other_setting`); the full layers' sparse attention caches a summary
                // of each region of tokens beside K and V (`step5_sparse`).
                "step5" => {
                    if let Some(g) = cfg.count("num_attention_groups")? {
                        a.num_kv_heads = g;
                    }
                    if span != Span::Full
                        && let Some(h) = cfg.count("swa_num_attention_heads")?
                    {
                        a.num_heads = h;
                    }
                    let type_name = if span == Span::Full { "full_attention" } else { "sliding_attention" };
                    if let Some(o) = cfg.raw("attention_other_setting")
                        && o.get("attention_type").and_then(Value::as_str) == Some(type_name)
                    {
                        let get = |k: &str| {
                            o.get(k).and_then(Value::as_u64).filter(|v| *v > 0).ok_or_else(|| {
                                Error::parse(
                                    FORMAT,
                                    format!("`attention_other_setting` needs a positive `{k}`"),
                                )
                            })
                        };
                        a.num_heads = get("num_attention_heads")?;
                        a.num_kv_heads = get("num_attention_groups")?;
                        a.head_dim = get("head_dim")?;
                        a.v_head_dim = a.head_dim;
                    }
                    if let Some(sp) = step5_sparse(cfg)?
                        && sp.applies(type_name)
                    {
                        a.index_key = sp.summary_bytes_per_token().div_ceil(2);
                    }
                }
                // MiniMax-M3's sparse layers cache their block indexer's key beside K and V.
                "minimax_m3" if m3_sparse(cfg, i) => a.index_key = m3_index(cfg).1,
                // Poolside's Laguna: each layer's own query heads (`num_attention_heads_per_layer`)
                // and Step-3.5's softplus gate on the output (per head, or per element).
                "laguna" => {
                    if let Some(list) = cfg.indices("num_attention_heads_per_layer")? {
                        a.num_heads = list.get(i as usize).copied().filter(|h| *h > 0).ok_or_else(|| {
                            Error::parse(
                                FORMAT,
                                "`num_attention_heads_per_layer` must give a head count per layer",
                            )
                        })?;
                    }
                    a.output_gate = step_gate(cfg) == Some(false);
                }
                // MiMo-V2-Flash: sliding layers have their own heads and widths (the hub config's
                // `swa_*` keys; transformers' port doubles the key/value heads) and learned sinks;
                // values are narrower than keys; no bias on the output.
                "mimo_v2_flash" => {
                    a.o_bias = false;
                    a.fused_qkv = cfg.str("attention_projection_layout") == Some("fused_qkv");
                    a.v_head_dim = cfg.count_or("v_head_dim", 128)?;
                    if span != Span::Full {
                        a.num_heads = cfg.count_or("swa_num_attention_heads", c.heads)?;
                        a.num_kv_heads = cfg.count_or("swa_num_key_value_heads", c.kv.saturating_mul(2))?;
                        a.head_dim = cfg.count_or("swa_head_dim", c.head_dim)?;
                        a.v_head_dim = cfg.count_or("swa_v_head_dim", a.v_head_dim)?;
                        a.sinks = cfg.flag("add_swa_attention_sink_bias").unwrap_or(true);
                    } else {
                        a.sinks = cfg.flag("add_full_attention_sink_bias").unwrap_or(false);
                    }
                }
                "gemma4_text" => {
                    let k_eq_v = cfg.flag("attention_k_eq_v").unwrap_or(false);
                    if span == Span::Full {
                        a.head_dim = cfg.count("global_head_dim")?.unwrap_or(512);
                        if k_eq_v {
                            a.num_kv_heads = cfg.count("num_global_key_value_heads")?.unwrap_or(c.kv);
                        }
                        a.k_eq_v = k_eq_v;
                    }
                    // An explicit per-layer override wins (`per_layer_config`, keyed by layer index).
                    if let Some(o) = per_layer_override(cfg, i) {
                        if let Some(hd) = o.get("head_dim").and_then(Value::as_u64) {
                            a.head_dim = hd;
                        }
                        if let Some(kv) = o.get("num_key_value_heads").and_then(Value::as_u64) {
                            a.num_kv_heads = kv;
                        }
                    }
                    a.v_head_dim = a.head_dim;
                }
                // Inkling 2's layers: a gate on the output as wide as q (`o_proj.gate_proj`); the
                // sliding ones with their own heads and widths (`swa_*`). Its q and k norms are an
                // extra and none (`inkling2_extras`).
                "inkling2" | "inkling2_loop" => {
                    a.output_gate = true;
                    a.qk_norm = QkNorm::None;
                    if span != Span::Full {
                        a.num_heads = cfg.count_or("swa_num_attention_heads", c.heads)?;
                        a.num_kv_heads = cfg.count_or("swa_num_key_value_heads", c.kv)?;
                        a.head_dim = cfg.count_or("swa_head_dim", c.head_dim)?;
                        a.v_head_dim = a.head_dim;
                    }
                }
                // Inkling's sliding layers have their own heads and widths (`swa_*`).
                "inkling" if span != Span::Full => {
                    a.num_heads = cfg.count_or("swa_num_attention_heads", c.heads)?;
                    a.num_kv_heads = cfg.count_or("swa_num_key_value_heads", c.kv.saturating_mul(2))?;
                    a.head_dim = cfg.count_or("swa_head_dim", c.head_dim)?;
                    a.v_head_dim = a.head_dim;
                }
                "nemotron_h" => {
                    a.head_dim = cfg.count_any(&["attention_head_dim", "head_dim"])?.unwrap_or(c.head_dim);
                    a.v_head_dim = a.head_dim;
                    (a.qkv_bias, a.o_bias) = (false, false);
                }
                "falcon_h1" | "bamba" | "granitemoehybrid" | "jamba" => {
                    (a.qkv_bias, a.o_bias) = (false, false);
                    if family == "falcon_h1" {
                        a.head_dim = c.head_dim;
                    }
                }
                _ => {}
            }
            a.shares_kv = i >= shared_kv_from;
            Ok(Mixer::Attention(a))
        };
        let mixers = match kind {
            // LongCat-Flash: two attentions a layer (shortcut-connected MoE).
            Kind::Full if family == "longcat_flash" => vec![attn(span)?, attn(span)?],
            Kind::Full | Kind::Sliding | Kind::Chunked => vec![attn(span)?],
            Kind::Linear if bailing_lightning(cfg, family) || family == "minimax" => {
                let ling = family.starts_with("bailing");
                vec![Mixer::Lightning(crate::model::LightningAttention {
                    heads: c.heads,
                    head_dim: c.head_dim,
                    qk_norm: ling && cfg.flag("use_qk_norm") == Some(true),
                    qkv_bias: ling && t.qkv_bias,
                    o_bias: ling && t.o_bias,
                })]
            }
            // Ling 3: Kimi Delta Attention with full-rank forget and output gates.
            Kind::Linear if family == "bailing_hybrid" => {
                vec![Mixer::Kda(crate::model::KimiDeltaAttention {
                    heads: cfg.count_any(&["linear_num_heads", "num_attention_heads"])?.unwrap_or(c.heads),
                    head_dim: cfg.count_any(&["linear_head_dim", "head_dim"])?.unwrap_or(128),
                    conv_kernel: cfg
                        .count_any(&["linear_conv_kernel_dim", "short_conv_kernel_size"])?
                        .unwrap_or(4),
                    full_rank_gates: true,
                    full_rank_output_gate: false,
                })]
            }
            // AliceAI's linear layers are Kimi Delta Attention with Qwen3-Next's key names (vLLM's
            // `alice_ai.py`: key and value heads and widths must be equal), low-rank gates.
            Kind::Linear if family == "alice_ai" => {
                let heads = cfg.count_or("linear_num_key_heads", 32)?;
                let head_dim = cfg.count_or("linear_key_head_dim", 128)?;
                if cfg.count_or("linear_num_value_heads", heads)? != heads
                    || cfg.count_or("linear_value_head_dim", head_dim)? != head_dim
                {
                    return Err(Error::parse(
                        FORMAT,
                        "AliceAI's linear attention needs as many value heads as key heads, as wide",
                    ));
                }
                vec![Mixer::Kda(crate::model::KimiDeltaAttention {
                    heads,
                    head_dim,
                    conv_kernel: cfg.count_or("linear_conv_kernel_dim", 4)?,
                    full_rank_gates: false,
                    full_rank_output_gate: false,
                })]
            }
            Kind::Linear if matches!(family, "kimi_linear" | "glm5_next") => {
                let lac = cfg.raw("linear_attn_config");
                let sub = |k: &str| lac.and_then(|v| v.get(k)).and_then(Value::as_u64);
                vec![Mixer::Kda(crate::model::KimiDeltaAttention {
                    heads: sub("num_heads").map_or_else(|| cfg.count_or("linear_num_heads", 32), Ok)?,
                    head_dim: sub("head_dim").map_or_else(|| cfg.count_or("linear_head_dim", 128), Ok)?,
                    conv_kernel: sub("short_conv_kernel_size")
                        .map_or_else(|| cfg.count_or("linear_conv_kernel_dim", 4), Ok)?,
                    full_rank_gates: false,
                    full_rank_output_gate: lac
                        .and_then(|v| v.get("use_full_rank_gate"))
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                })]
            }
            Kind::Linear => vec![Mixer::GatedDeltaNet(GatedDeltaNet {
                key_heads: cfg.count_or("linear_num_key_heads", 16)?,
                value_heads: cfg.count_or("linear_num_value_heads", 32)?,
                key_head_dim: cfg.count_or("linear_key_head_dim", 128)?,
                value_head_dim: cfg.count_or("linear_value_head_dim", 128)?,
                conv_kernel: cfg.count_or("linear_conv_kernel_dim", 4)?,
                // transformers' Qwen3.5 keeps `in_proj_qkv`, `in_proj_z`, `in_proj_b`, `in_proj_a`.
                // (OLMo Hybrid's separate q, k, v, a, b and gate projections count the same.)
                split_in_proj: matches!(family, "qwen3_5" | "qwen3_5_moe" | "olmo_hybrid"),
            })],
            Kind::Mamba => vec![Mixer::Mamba(mamba(cfg, family, c.hidden)?)],
            Kind::Conv => vec![Mixer::ShortConv(ShortConv {
                kernel: cfg.count_or("conv_L_cache", 3)?,
                bias: cfg.flag("conv_bias").unwrap_or(false),
            })],
            Kind::Parallel => vec![Mixer::Mamba(mamba(cfg, family, c.hidden)?), attn(Span::Full)?],
            Kind::NoMixer => Vec::new(),
        };
        let is_moe = moe_at.get(i as usize).copied().unwrap_or(false);
        let ffn = match (family, kind, &moe) {
            // Nemotron-H: a layer is one block; `E` layers are MoE, `-` layers an MLP, others none.
            ("nemotron_h", _, _) => {
                let pattern = cfg.raw("hybrid_override_pattern").and_then(Value::as_str).unwrap_or("");
                let block = pattern.as_bytes().get(i as usize).copied();
                let listed = cfg.strings("layers_block_type", c.layers).ok().flatten();
                let listed = listed.as_ref().and_then(|l| l.get(i as usize).copied());
                match (block, listed) {
                    (Some(b'E'), _) | (None, Some("moe")) => Ffn::Moe(read_moe(cfg, family, c.inter)?),
                    (Some(b'-'), _) | (None, Some("mlp")) => Ffn::Dense(Mlp::plain(c.inter, t.mlp_bias)),
                    _ => Ffn::None,
                }
            }
            ("granitemoehybrid", _, _) => {
                let shared = cfg.count_or("shared_intermediate_size", 0)?;
                match cfg.count_or("num_local_experts", 0)? {
                    0 | 1 => Ffn::Dense(Mlp::gated(shared)),
                    e => Ffn::Moe(Moe {
                        shared_intermediate: shared,
                        ..Moe::routed(e, cfg.count_or("num_experts_per_tok", 1)?, c.inter)
                    }),
                }
            }
            (_, _, Some(m)) if is_moe => Ffn::Moe(m.clone()),
            ("mamba" | "mamba2", _, _) => Ffn::None,
            _ => {
                let width = dense_width(i)?;
                if width == 0 {
                    return Err(Error::parse(
                        FORMAT,
                        "`intermediate_size` is missing and this family has no default for it",
                    ));
                }
                let doubled = family == "gemma4_text"
                    && cfg.flag("use_double_wide_mlp") == Some(true)
                    && i >= shared_kv_from;
                Ffn::Dense(Mlp {
                    intermediate_size: if doubled { width.saturating_mul(2) } else { width },
                    gated: t.gated_mlp,
                    bias: t.mlp_bias,
                    fused_gate_up: t.fused_gate_up,
                })
            }
        };
        let norms = match (family, kind) {
            ("nemotron_h", _) => 1,
            ("mamba" | "mamba2", _) => 1,
            ("lfm2", _) => 2,
            // LongCat-Flash: a pre-norm before each of its two attentions and two MLPs.
            ("longcat_flash", _) => 4,
            // LFM3's sandwich norms: before and after the operator and the feed-forward.
            ("lfm3", _) => {
                if cfg.flag("use_sandwich_norm").unwrap_or(true) {
                    4
                } else {
                    2
                }
            }
            ("falcon_h1", _) => 2,
            _ => t.norms,
        };
        let mut group =
            LayerGroup { count: 1, mixers, ffn, norms, extras: Vec::new(), tied: false, own: None };
        if family == "gemma4_text" {
            gemma4_layer_extras(cfg, &c, &mut group)?;
        }
        if family == "gemma3n_text" {
            gemma3n_layer_extras(cfg, &c, &mut group)?;
        }
        if family == "mllama" && mllama_cross.contains(&i) {
            // Each cross-attention layer's two tanh gates (attention and MLP), one value each.
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: 2 });
        }
        if family == "minimax_m3" && m3_sparse(cfg, i) {
            // The block indexer: its query (`index_n_heads` heads) and key projections, two norms.
            let (heads, dim) = m3_index(cfg);
            group.extras.push(Extra { role: Role::Extra, rows: heads.saturating_mul(dim), cols: c.hidden });
            group.extras.push(Extra { role: Role::Extra, rows: dim, cols: c.hidden });
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: dim.saturating_mul(2) });
        }
        if matches!(family, "step3p5" | "laguna")
            && step_gate(cfg) == Some(true)
            && let Some(Mixer::Attention(at)) = group.mixers.first()
        {
            // Step-3.5's per-head sigmoid gate on the attention output: `g_proj`, one row a head.
            group.extras.push(Extra { role: Role::Extra, rows: at.num_heads, cols: c.hidden });
        }
        if family == "step5"
            && let Some(Mixer::Attention(at)) = group.mixers.first()
        {
            // Step 5's per-head gate (`g_proj`, only with `use_head_wise_attn_gate`: vLLM's default
            // is none) and, on the layers its sparse attention applies to, the indexer.
            if cfg.flag("use_head_wise_attn_gate") == Some(true) {
                group.extras.push(Extra { role: Role::Extra, rows: at.num_heads, cols: c.hidden });
            }
            if at.index_key > 0
                && let Some(sp) = step5_sparse(cfg)?
            {
                group.extras.extend(sp.extras(c.hidden, at.num_heads));
            }
        }
        if ling3(cfg, family)
            && let Some(Mixer::Mla(m)) = group.mixers.first()
        {
            // Ling 3's gate on the attention output (`g_proj`): one value a head (transformers'
            // port; vLLM's `gated_attention_proj_granularity_type: head_wise`), or one an element.
            let rows = match cfg.str("gated_attention_proj_granularity_type") {
                None | Some("head_wise") => m.num_heads,
                Some("element_wise") => m.num_heads.saturating_mul(m.v_head_dim),
                Some(_) => 0,
            };
            if rows > 0 {
                group.extras.push(Extra { role: Role::Extra, rows, cols: c.hidden });
            }
        }
        if family == "dots3_note"
            && let Some(Mixer::Mla(m)) = group.mixers.first()
        {
            group.extras.extend(dots3_extras(cfg, c.hidden, m));
        }
        if family == "inkling"
            && let Some(Mixer::Attention(at)) = group.mixers.first()
        {
            let extras = inkling_extras(cfg, c.hidden, at, &group.ffn)?;
            group.extras.extend(extras);
        }
        if is_inkling2(family)
            && let Some(Mixer::Attention(at)) = group.mixers.first()
        {
            let extras = inkling2_extras(cfg, c.hidden, at, i > 0)?;
            group.extras.extend(extras);
            if at.span == Span::Full {
                // The q, k and v inputs' own norms beside the one before the MLP.
                group.norms = 4;
            }
        }
        if family == "hy_v4"
            && let Some(Mixer::Mla(m)) = group.mixers.first()
        {
            // HunYuan V4: learned attention sinks, an element-wise sigmoid gate on the attention
            // output (`gate_proj`), and two static hyper-connection mixings (before the attention
            // and the feed-forward) over `hc_mult` residual streams: each `2·hc × hc·h` with `2·hc`
            // biases and two scales, kept in FP32.
            let hc = cfg.count_or("hc_mult", 4)?;
            group.extras.push(Extra { role: Role::Sinks, rows: 1, cols: m.num_heads });
            group.extras.push(Extra {
                role: Role::Extra,
                rows: m.num_heads.saturating_mul(m.v_head_dim),
                cols: c.hidden,
            });
            for _ in 0..2 {
                group.extras.extend(hyper_mixing(2 * hc, hc, c.hidden, 2));
            }
        }
        if family == "glm5_next" {
            // GLM-5-Next: DeepSeek V4's hyper-connections over `hc_mult` residual streams (two FP32
            // mixings a layer, `(2 + hc)·hc × hc·h` with as many biases and three scales), and
            // its indexers' key pooling (a position table `index_kpool × d_ix` and a gate
            // `d_ix × h`).
            let hc = cfg.count_or("hc_mult", 4)?;
            let m = hc.saturating_add(2).saturating_mul(hc);
            for _ in 0..2 {
                group.extras.extend(hyper_mixing(m, hc, c.hidden, 3));
            }
            if let Some(Mixer::Mla(Mla { indexer: Some(ix), .. })) = group.mixers.first()
                && ix.pool > 1
            {
                group.extras.push(Extra { role: Role::Norm, rows: ix.pool, cols: ix.head_dim });
                group.extras.push(Extra { role: Role::Extra, rows: ix.head_dim, cols: c.hidden });
            }
        }
        if family == "beam"
            && let Some(Mixer::Attention(at)) = group.mixers.first()
        {
            // Beam's attention-output gate has a bias a head (`gate_bias`).
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: at.num_heads });
        }
        if family == "axk1" && matches!(group.ffn, Ffn::Moe(_)) {
            // A.X K1's norm after its experts (`post_mlp_layernorm`, sparse layers only).
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: c.hidden });
        }
        if family == "muse_spark" {
            // Muse Spark: a gate on the residual after the attention and after the feed-forward
            // (a value a channel, kept in FP32), and norms before and after its pooled experts.
            group.extras.push(Extra { role: Role::Fp32, rows: 2, cols: c.hidden });
            if let Ffn::Moe(m) = &group.ffn {
                group.extras.push(Extra { role: Role::Norm, rows: 2, cols: m.latent });
            }
        }
        if family == "longcat_flash" && matches!(group.ffn, Ffn::Moe(_)) {
            // The router also scores `zero_expert_num` zero-computation experts (they return
            // their input and store nothing): their rows and correction biases.
            let zero = cfg.count_or("zero_expert_num", 0)?;
            if zero > 0 {
                group.extras.push(Extra { role: Role::Extra, rows: zero, cols: c.hidden });
                group.extras.push(Extra { role: Role::Norm, rows: 1, cols: zero });
            }
        }
        if family == "mistral_large4"
            && let Some(Mixer::Mla(m)) = group.mixers.first()
        {
            // Mistral Large 4's learned softmax scaling (a scale and a bias a head), and its
            // indexer's LayerNorm on the input and scaling.
            group.extras.push(Extra { role: Role::Norm, rows: 2, cols: m.num_heads });
            if let Some(ix) = &m.indexer {
                group.extras.push(Extra { role: Role::Norm, rows: 2, cols: c.hidden });
                group.extras.push(Extra { role: Role::Norm, rows: 2, cols: ix.heads });
            }
        }
        if family == "lfm3"
            && cfg.flag("use_attention_gate").unwrap_or(true)
            && let Some(Mixer::Attention(at)) = group.mixers.first()
        {
            // LFM3's sigmoid gate on the attention output: one value a head (`g_proj`).
            group.extras.push(Extra { role: Role::Extra, rows: at.num_heads, cols: c.hidden });
        }
        if family == "zaya" {
            // ZAYA's compressed convolutional attention (vLLM's `zaya.py`, transformers'
            // `ZayaModel`): a biased depthwise conv of `cca_time0` taps and a biased grouped conv
            // of `cca_time1` (one group a head) over the raw queries and keys, two norm
            // temperatures; the residual's four scales and biases around the attention and the
            // MLP; from the second layer on, the router's scale of the previous layer's state.
            let ch = c.heads.saturating_add(c.kv).saturating_mul(c.head_dim);
            let (t0, t1) = (cfg.count_or("cca_time0", 2)?, cfg.count_or("cca_time1", 2)?);
            group.extras.push(Extra { role: Role::Extra, rows: ch, cols: t0 });
            group.extras.push(Extra { role: Role::Extra, rows: ch, cols: c.head_dim.saturating_mul(t1) });
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: ch.saturating_mul(2) });
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: 2 });
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: c.hidden.saturating_mul(8) });
            if i > 0 {
                group.extras.push(Extra {
                    role: Role::Norm,
                    rows: 1,
                    cols: cfg.count_or("router_hidden_size", 256)?,
                });
            }
            // Its state beside the cache (vLLM's `_cca_state_shapes`): the raw q and k inputs of
            // the last `cca_time0 + cca_time1 − 2` tokens and the previous token's half of v.
            group.mixers.push(Mixer::ConvState(ConvState {
                channels: ch,
                history: t0.saturating_add(t1).saturating_sub(2),
                carried: c.kv.saturating_mul(c.head_dim) / 2,
            }));
        }
        if family == "dory" {
            // nGPT's learned scales: the two residual interpolation rates (`lambda_1`,
            // `lambda_2`), the query-key and output-gate scales (`sqk`, `s_gate`, one a query
            // channel) and the MLP's gate and up scales (`suv_gate`, `suv_up`).
            let q = c.heads.saturating_mul(c.head_dim);
            for cols in [c.hidden, c.hidden, q, q, c.inter, c.inter] {
                group.extras.push(Extra { role: Role::Norm, rows: 1, cols });
            }
        }
        if let Ffn::Moe(m) = &group.ffn
            && m.latent > 0
            && cfg.flag("latent_moe_use_norm") == Some(true)
        {
            // Kimi K3's norm on the latent between its down projection and the experts
            // (`routed_expert_norm`).
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: m.latent });
        }
        if family == "domyn_edge"
            && let Some(Mixer::Attention(at)) = group.mixers.first()
        {
            // Domyn Edge's per-head k norm (its q norm has no weight).
            let hd = at.head_dim;
            group.extras.push(Extra { role: Role::AttnNorm, rows: 1, cols: hd });
        }
        if family == "alice_ai" {
            // AliceAI's block attention residuals (vLLM's `alice_ai.py`): before the MLP, and
            // before the attention from the second layer on, a `hidden → 1` projection and a norm.
            let rows = if i == 0 { 2 } else { 4 };
            group.extras.push(Extra { role: Role::Norm, rows, cols: c.hidden });
        }
        if cfg.count("attn_res_block_size")?.is_some() {
            // Kimi K3's attention residuals (vLLM's `KimiDecoderLayer` with `attn_res_block_size`):
            // before the attention and before the MLP, a norm and a `hidden → 1` projection that
            // weigh the earlier blocks' outputs.
            group.extras.push(Extra { role: Role::Norm, rows: 4, cols: c.hidden });
        }
        if family == "apertus" && cfg.str("hidden_act").unwrap_or("xielu") == "xielu" {
            // Each MLP's xIELU activation stores `alpha_p`, `alpha_n`, `beta` and `eps`.
            group.extras.push(Extra { role: Role::Norm, rows: 1, cols: 4 });
        }
        stack.push(group);
    }
    // Apertus 1.5's head may predict another vocabulary than it embeds (`output_vocab_size`).
    if let Some(out) = cfg.count("output_vocab_size")?
        && out != c.vocab
    {
        return Err(Error::parse(
            FORMAT,
            format!(
                "`output_vocab_size` ({out}) differs from `vocab_size` ({}): the head's width is not read from a config; give the safetensors headers",
                c.vocab
            ),
        ));
    }
    // IQuest's LoopCoder (vLLM's `iquest_loopcoder.py`): every layer runs `loop_num` times with
    // the same weights; the first pass caches keys and values for the whole context, each later
    // pass its own over the last `loop_window_size` tokens (and reads the first pass's through a
    // per-head gate, `head_dim → heads` with a bias, one a layer, stored once).
    let mut loop_queries: Option<u64> = None;
    let looped = family == "iquestcoder"
        && (cfg.str("model_type").is_some_and(|t| t.contains("loop")) || cfg.present("loop_num"));
    let mut gates = None;
    if looped {
        let loops = cfg.count_or("loop_num", 2)?;
        let window = cfg.count_or("loop_window_size", 64)?.max(1);
        stack.groups = looped_stack(&stack.groups, (0, c.layers), loops, "loop_num", |again| {
            for m in &mut again.mixers {
                if let Mixer::Attention(at) = m {
                    at.span = Span::Sliding { window };
                    gates = Some((at.num_heads, at.head_dim));
                }
            }
        })?;
    }
    // Inkling-2-Mini (transformers 5.24 `Inkling2LoopTextModel`): layers `[start, end)` run
    // `passes` times, each later pass with a cache of its own (one a visit); each core layer
    // stores four message gates mixing the previous pass in (`down_proj` `r × 2h`, and in FP32
    // `forget_gate_proj` and `message_gate_proj`, `h × r` each), and the model one FP32 query a
    // gate a core layer (`message_input.query`).
    if family == "inkling2_loop" {
        let lc = cfg.raw("loop_config");
        let key = |flat: &str, nested: &str, d: u64| -> Result<u64> {
            match lc.and_then(|l| l.get(nested)) {
                Some(v) => v.as_u64().ok_or_else(|| {
                    Error::parse(FORMAT, format!("`loop_config.{nested}` must be a whole number"))
                }),
                None => cfg.count_or(flat, d),
            }
        };
        let start = key("loop_layer_index_start", "core_start", 6)?;
        let end = key("loop_layer_index_end", "core_end", 18)?;
        let passes = key("loop_num_passes", "num_passes", 3)?;
        let rank = key("loop_gate_rank", "gate_rank", 64)?;
        if !(start < end && end <= c.layers) || rank == 0 || rank > c.hidden {
            return Err(Error::parse(
                FORMAT,
                format!(
                    "the looped layers [{start}, {end}) with gate rank {rank} do not fit a model of {} layers of {}",
                    c.layers, c.hidden
                ),
            ));
        }
        let h = c.hidden;
        let gates = [
            Extra { role: Role::Extra, rows: rank.saturating_mul(4), cols: h.saturating_mul(2) },
            Extra { role: Role::Fp32, rows: h.saturating_mul(8), cols: rank },
        ];
        let mut flat: Vec<LayerGroup> = Vec::new();
        for g in &stack.groups {
            for _ in 0..g.count.min(MAX_LAYERS) {
                flat.push(LayerGroup { count: 1, ..g.clone() });
            }
        }
        for g in flat.iter_mut().take(end as usize).skip(start as usize) {
            g.extras.extend(gates.iter().cloned());
        }
        stack.groups = looped_stack(&flat, (start, end), passes, "loop_num_passes", |_| {})?;
        loop_queries = Some((end - start).saturating_mul(4).saturating_mul(h));
    }
    // Dory (NVIDIA; vLLM's `dory.py`, transformers' `DoryModel`): `n_input_layers` layers, then
    // `n_recurrent_layers` run `n_recurrent_loops` times, then `n_output_layers`; each loop
    // writes its own cache (`recurrent_kv_cache_mode` `per_loop`) or all read the last loop's
    // (`last_loop`: one cache).
    if family == "dory" {
        let n_in = cfg.count_or("n_input_layers", 8)?;
        let n_out = cfg.count_or("n_output_layers", 8)?;
        let n_rec = match cfg.count("n_recurrent_layers")? {
            Some(n) => n,
            None => c.layers.saturating_sub(n_in).saturating_sub(n_out),
        };
        if n_in.saturating_add(n_rec).saturating_add(n_out) != c.layers {
            return Err(Error::parse(
                FORMAT,
                format!(
                    "Dory's input, recurrent and output layers ({n_in} + {n_rec} + {n_out}) do not add up to its {} layers",
                    c.layers
                ),
            ));
        }
        let one_cache = match cfg.str("recurrent_kv_cache_mode").unwrap_or("per_loop") {
            "per_loop" => false,
            "last_loop" => true,
            other => {
                return Err(Error::parse(
                    FORMAT,
                    format!(
                        "`recurrent_kv_cache_mode` `{other}`: Dory keeps `per_loop` or `last_loop` caches"
                    ),
                ));
            }
        };
        let loops = cfg.count_or("n_recurrent_loops", 2)?;
        stack.groups =
            looped_stack(&stack.groups, (n_in, n_in + n_rec), loops, "n_recurrent_loops", |again| {
                for m in &mut again.mixers {
                    if let Mixer::Attention(at) = m {
                        at.shares_kv = one_cache;
                    }
                }
            })?;
    }
    // K2 Horizon rotates `rope_head_dim` of each head: vLLM's cos/sin cache is that wide.
    let k2_rotary = match cfg.count("rope_head_dim")? {
        Some(w) if family == "k2_horizon" && w != c.head_dim => Some(w),
        _ => None,
    };
    // Ricursive's value residual (`use_valres`): one mixing scalar a layer, `value_res_lambda`.
    if family == "ricursive" && cfg.flag("use_valres").unwrap_or(false) {
        for g in &mut stack.groups {
            g.extras.push(Extra { role: Role::Norm, rows: 1, cols: 1 });
        }
    }
    let mut a = Architecture::new(family, c.vocab, c.hidden, stack.groups);
    if let Some(w) = k2_rotary {
        a.rotary_widths = vec![w];
    }
    if let Some((heads, dim)) = gates {
        a.extras.push(Extra { role: Role::Extra, rows: c.layers.saturating_mul(heads), cols: dim });
        a.extras.push(Extra { role: Role::Norm, rows: 1, cols: c.layers.saturating_mul(heads) });
    }
    if let Some(block) = if family == "alice_ai" {
        Some(cfg.count_or("block_attn_res_block_size", 4)?)
    } else {
        cfg.count("attn_res_block_size")?
    } {
        // The attention residuals' norm and projection before the final norm, and the blocks'
        // outputs every token keeps through the forward pass (`cdiv(layers, block)`).
        a.extras.push(Extra { role: Role::Norm, rows: 2, cols: c.hidden });
        a.residual_blocks = c.layers.div_ceil(block.max(1));
    }
    if family == "zaya" {
        // The embeddings' scale and bias.
        a.extras.push(Extra { role: Role::Norm, rows: 1, cols: c.hidden.saturating_mul(2) });
    }
    if family == "dory" {
        // The head's learned per-token logit scale.
        a.extras.push(Extra { role: Role::Norm, rows: 1, cols: c.vocab });
    }
    a.norm = t.norm;
    a.tie_word_embeddings = c.tie;
    a.max_context = c.max_context;
    if family == "gemma3n_text" {
        // AltUp's projections in and out of its extra streams.
        let streams = cfg.count_or("altup_num_inputs", 4)?.saturating_sub(1);
        for _ in 0..streams.saturating_mul(2).min(32) {
            a.extras.push(Extra { role: Role::Extra, rows: c.hidden, cols: c.hidden });
        }
    }
    if family == "hy_v4" {
        // The hyper-connection head folding the `hc_mult` streams into one.
        let hc = cfg.count_or("hc_mult", 4)?;
        a.extras.extend(hyper_mixing(hc, hc, c.hidden, 1));
    }
    if family == "molmo2" {
        // Molmo 2 embeds `additional_vocab_size` more tokens (its image markers) than its head
        // predicts.
        let more = cfg.count_or("additional_vocab_size", 128)?;
        if more > 0 {
            a.extras.push(Extra { role: Role::ExtraEmbd, rows: more, cols: c.hidden });
        }
    }
    if family == "mistral_large4" {
        // Its rotary embedding's learned `alpha` (LeRoPE), one value a rotary frequency.
        a.extras.push(Extra { role: Role::Norm, rows: 1, cols: cfg.count_or("qk_rope_head_dim", 64)? / 2 });
    }
    if family == "phimoe" {
        // Phi-3.5-MoE's head is biased by `lm_head_bias`.
        a.head_bias = cfg.flag("lm_head_bias").unwrap_or(false);
    }
    if is_inkling2(family) {
        // The embedding's RMS norm, and the output's attention-residual query (FP32).
        a.extras.push(Extra { role: Role::Norm, rows: 1, cols: c.hidden });
        a.extras.push(Extra { role: Role::Fp32, rows: 1, cols: c.hidden });
        a.rel_extent = cfg.count_or("rel_extent", 1024)?;
        if let Some(q) = loop_queries {
            a.extras.push(Extra { role: Role::Fp32, rows: 1, cols: q });
        }
    }
    if family == "inkling" {
        // `InklingNormedEmbedding`'s RMS norm.
        a.extras.push(Extra { role: Role::Norm, rows: 1, cols: c.hidden });
        a.rel_extent = cfg.count_or("rel_extent", 1024)?;
        a.short_conv_taps = inkling_taps(cfg)?;
    }
    if family == "mllama" {
        // `MllamaTextModel` embeds `vocab_size + 8` tokens (the head predicts `vocab_size`).
        a.extras.push(Extra { role: Role::ExtraEmbd, rows: 8, cols: c.hidden });
    }
    if family == "gemma4_text"
        && [cfg.str("model_type"), cfg.outer.get("model_type").and_then(Value::as_str)]
            .iter()
            .any(|t| t.is_some_and(|t| t.starts_with("diffusion_gemma")))
    {
        // DiffusionGemma's one decoder-only module, its self-conditioning gated MLP
        // (`intermediate_size` wide, a pre-norm; its post-norm has no scale): the previous
        // denoising step's soft embeddings added to the canvas's.
        let i = cfg.count_or("intermediate_size", 2112)?;
        a.extras.push(Extra { role: Role::Norm, rows: 1, cols: c.hidden });
        for rows in [i, i, c.hidden] {
            a.extras.push(Extra {
                role: Role::Extra,
                rows,
                cols: if rows == c.hidden { i } else { c.hidden },
            });
        }
        // Its canvas: the tokens denoised at once.
        a.canvas = cfg.outer.get("canvas_length").and_then(Value::as_u64).unwrap_or(256).clamp(1, 1 << 20);
    }
    if family == "gemma4_text" || family == "gemma3n_text" {
        let per_layer = cfg.count_or("hidden_size_per_layer_input", 0)?;
        if per_layer > 0 {
            let rows = cfg.count_or("vocab_size_per_layer_input", c.vocab)?;
            let width = per_layer.saturating_mul(c.layers);
            a.extras.push(Extra { role: Role::ExtraEmbd, rows, cols: width });
            a.extras.push(Extra { role: Role::Extra, rows: width, cols: c.hidden });
            a.extras.push(Extra { role: Role::Norm, rows: 1, cols: per_layer });
        }
    }
    // vLLM applies a checkpoint's `mamba_ssm_dtype` through Qwen3.5's config hook, registered for
    // Qwen3.5's own classes: Intern-S2's classes (Qwen3.5-MoE's layers) keep the state in the
    // model's dtype.
    let intern_s2 = names_class(cfg, |c| c.starts_with("InternS2"));
    let ssm_dtype = cfg.str("mamba_ssm_cache_dtype").or(cfg.str("mamba_ssm_dtype").filter(|_| !intern_s2));
    a.ssm_state_bytes = match ssm_dtype {
        Some("float32" | "fp32") => Some(4),
        Some("bfloat16" | "float16" | "bf16" | "fp16") => Some(2),
        _ => None,
    };
    if (matches!(family, "kimi_linear" | "nemotron_h" | "glm5_next" | "alice_ai") || ling3(cfg, family))
        && a.ssm_state_bytes.is_none()
    {
        // vLLM keeps Kimi Delta Attention's recurrent state in FP32 (`kda_state_dtype`), and a
        // Nemotron-H's SSM state in FP32 unless its config says otherwise
        // (`NemotronHForCausalLMConfig`: `mamba_ssm_cache_dtype` defaults to float32).
        a.ssm_state_bytes = Some(4);
    }
    a.mtp = match cfg.count_any(&["num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_modules"])? {
        Some(n) if n > 0 => Some(Mtp {
            modules: n,
            // GLM-4.7-Flash's MTP layer stores them too (LightLLM loads it with DeepSeek V3's MTP
            // weights; its 48 files hold 31,221,488,576 parameters, the count with both copies).
            own_embeddings: family.starts_with("deepseek_v3") || family == "glm4_moe_lite",
            layer: None,
            extras: Vec::new(),
            bare: false,
            shared: Vec::new(),
            layers: Vec::new(),
        }),
        _ => None,
    };
    if family == "mimo_v2_flash" && a.mtp.is_none() {
        // MiMo-V2's checkpoints store prediction layers their configs never count
        // (`model.mtp.layers.*`); vLLM 0.34 builds the first only (`mimo_v2_mtp.py`,
        // `_MIMO_V2_FLASH_NUM_MTP_LAYERS = 1`, reused for every speculative token): a layer of the
        // sliding geometry with the dense MLP, the usual norms and projection, and the target's
        // embedding and head.
        a.mtp = sliding_dense_mtp(&a, 1, None);
    }
    if family == "alice_ai"
        && let Some(m) = a.mtp.as_mut()
    {
        // AliceAI's prediction layer is a full-attention layer without the residual blocks'
        // projections (`mtp.layers.0`; vLLM 0.34 drops it).
        let last =
            a.groups.iter().rev().find(|g| {
                g.mixers.iter().any(|x| matches!(x, Mixer::Attention(at) if at.span == Span::Full))
            });
        m.layer =
            last.map(|g| alloc::boxed::Box::new(LayerGroup { count: 1, extras: Vec::new(), ..g.clone() }));
    }
    if family == "inkling" {
        a.mtp = inkling_mtp(cfg, &a)?;
    }
    if family == "dots3_note" {
        a.mtp = dots3_mtp(cfg, &a)?;
    }
    if family == "step5" {
        a.mtp = step5_mtp(cfg, &a)?;
        a.rotary_widths = step5_rotary(cfg, &kinds_of(&a), c.head_dim)?;
    }
    Ok(a)
}

/// Whether each layer of the stack attends the whole context.
fn kinds_of(a: &Architecture) -> Vec<bool> {
    a.layers()
        .map(|g| g.mixers.first().is_some_and(|m| matches!(m, Mixer::Attention(at) if at.span == Span::Full)))
        .collect()
}

/// Step 5's rotary caches under vLLM 0.34 (`Step5Attention`'s `get_rope`, one cache a distinct
/// width, base and scaling): each layer rotates `int(head_dim × partial_rotary_factors[i])` values
/// at `rope_theta[i]` (a list, or one base), scaled by `rope_scaling` only on the layer types
/// `yarn_only_types` names; the sparse indexer's keys rotate `sparse_indexer_rope_dim` (32) of
/// theirs. Widths of the distinct caches.
fn step5_rotary(cfg: &Cfg<'_>, full: &[bool], head_dim: u64) -> Result<Vec<u64>> {
    let per_layer = |key: &str, i: usize| -> Option<f64> {
        match cfg.raw(key) {
            Some(Value::Array(list)) => list.get(i).and_then(Value::as_f64),
            Some(v) => v.as_f64(),
            None => None,
        }
    };
    let yarn_only: Option<Vec<&str>> = cfg
        .raw("yarn_only_types")
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(Value::as_str).collect());
    let scaled_config = cfg.raw("rope_scaling").is_some_and(|v| !v.is_null());
    let mut keys: Vec<(u64, u64, bool)> = Vec::new();
    for (i, is_full) in full.iter().enumerate() {
        let factor = per_layer("partial_rotary_factors", i).unwrap_or(1.0);
        if !(factor > 0.0 && factor <= 1.0) {
            return Err(Error::parse(FORMAT, "`partial_rotary_factors` must lie in (0, 1]"));
        }
        let width = (head_dim as f64 * factor) as u64;
        let theta = per_layer("rope_theta", i).unwrap_or(10_000.0).to_bits();
        let type_name = if *is_full { "full_attention" } else { "sliding_attention" };
        let scaled = scaled_config && yarn_only.as_ref().is_none_or(|l| l.contains(&type_name));
        if !keys.contains(&(width, theta, scaled)) {
            keys.push((width, theta, scaled));
        }
    }
    let mut widths: Vec<u64> = keys.iter().map(|k| k.0).collect();
    if let Some(sp) = step5_sparse(cfg)?
        && full.iter().any(|f| sp.applies(if *f { "full_attention" } else { "sliding_attention" }))
    {
        let rope = cfg
            .raw("sparse_config")
            .and_then(|s| s.get("sparse_indexer_rope_dim"))
            .and_then(Value::as_u64)
            .unwrap_or(32)
            .min(sp.proxy);
        widths.push(rope);
    }
    Ok(widths)
}

/// Step 5's sparse attention (`sparse_config`, vLLM 0.34 `models/step5/common/config.py`): on
/// the layer types it applies to, a lightning-style indexer scores regions of
/// `region_block_size` tokens, each summarised into one `proxy_dim`-byte FP8 row cached beside K
/// and V; the open region's raw indexer keys wait in a ring of one page a request.
#[derive(Clone, Debug, PartialEq)]
struct Step5Sparse {
    /// Width of the indexer's heads and of a summary row (`proxy_dim`, 256).
    proxy: u64,
    /// Indexer query heads (`sparse_indexer_num_heads`).
    heads: u64,
    /// Indexer key heads (`sparse_indexer_num_k_heads`, 1).
    k_heads: u64,
    /// Tokens a summary row stands for (`region_block_size`, 8).
    region: u64,
    /// Whether it applies to the full layers, and to the sliding ones.
    full: bool,
    sliding: bool,
}

impl Step5Sparse {
    fn applies(&self, type_name: &str) -> bool {
        if type_name == "full_attention" { self.full } else { self.sliding }
    }

    /// Bytes of summary a token (one FP8 row of `proxy` values a region).
    fn summary_bytes_per_token(&self) -> u64 {
        self.proxy / self.region.max(1)
    }

    /// The indexer's tensors in a layer (the checkpoint's `sparse_indexer_*`): the query
    /// (`heads × proxy` rows), the key and its value-side twin `z` (`k_heads × proxy` rows each),
    /// the per-head weights (`heads` rows), and, in FP32, the query's RMSNorm, the key's
    /// LayerNorm (weight and bias) and one softmax scale a query head (`ssmax_s`).
    fn extras(&self, hidden: u64, q_heads: u64) -> Vec<Extra> {
        let k = self.k_heads.saturating_mul(self.proxy);
        alloc::vec![
            Extra { role: Role::IdxQ, rows: self.heads.saturating_mul(self.proxy), cols: hidden },
            Extra { role: Role::IdxK, rows: k, cols: hidden },
            Extra { role: Role::IdxK, rows: k, cols: hidden },
            Extra { role: Role::IdxWeights, rows: self.heads, cols: hidden },
            Extra { role: Role::Fp32, rows: 1, cols: self.proxy.saturating_mul(3).saturating_add(q_heads) },
        ]
    }
}

/// Step 5's `sparse_config`, when present and enabled (vLLM refuses a checkpoint without the
/// section; `enabled: false` runs every layer densely).
fn step5_sparse(cfg: &Cfg<'_>) -> Result<Option<Step5Sparse>> {
    let Some(sc) = cfg.raw("sparse_config") else { return Ok(None) };
    if sc.as_object().is_none() {
        return Err(Error::parse(FORMAT, "`sparse_config` must be an object"));
    }
    if sc.get("enabled").and_then(Value::as_bool) == Some(false) {
        return Ok(None);
    }
    let n = |k: &str, d: u64| -> Result<u64> {
        match sc.get(k) {
            None => Ok(d),
            Some(v) => v
                .as_u64()
                .filter(|x| (1..=1 << 20).contains(x))
                .ok_or_else(|| Error::parse(FORMAT, format!("`sparse_config.{k}` must be a positive count"))),
        }
    };
    let (full, sliding) = match sc.get("apply_to_layer_types").and_then(Value::as_array) {
        None => (true, false),
        Some(list) => (
            list.iter().any(|t| t.as_str() == Some("full_attention")),
            list.iter().any(|t| t.as_str() == Some("sliding_attention")),
        ),
    };
    Ok(Some(Step5Sparse {
        proxy: n("proxy_dim", 256)?,
        heads: n("sparse_indexer_num_heads", 16)?,
        k_heads: n("sparse_indexer_num_k_heads", 1)?,
        region: n("region_block_size", 8)?,
        full,
        sliding,
    }))
}

/// Step 5's prediction modules (`num_nextn_predict_layers`, vLLM 0.34 `Step5MTP`, the
/// checkpoint's `model.layers.92…94`): each a sliding layer (its `layer_types` entry past the
/// stack) with the dense MLP, the usual two norms and projection, and a head of its own
/// (`transformer.shared_head.output`, with its norm); the embedding is the target's.
fn step5_mtp(cfg: &Cfg<'_>, a: &Architecture) -> Result<Option<Mtp>> {
    let n = cfg.count_or("num_nextn_predict_layers", 0)?;
    if n == 0 {
        return Ok(None);
    }
    if n > 64 {
        return Err(Error::parse(FORMAT, "`num_nextn_predict_layers` is not a real count"));
    }
    Ok(sliding_dense_mtp(a, n, Some(Extra { role: Role::Output, rows: a.vocab_size, cols: a.hidden_size })))
}

/// `n` prediction modules each built on one layer of the stack — a sliding one (else the stack's
/// last) with the dense MLP (else its own) — and one table of its own (`own`: dots3-note's
/// embedding, Step 5's head); `None` for an empty stack.
fn sliding_dense_mtp(a: &Architecture, n: u64, own: Option<Extra>) -> Option<Mtp> {
    let sliding =
        a.groups.iter().find(|g| g.mixers.first().and_then(Mixer::span).is_some_and(|s| s != Span::Full));
    let dense = a.groups.iter().find(|g| matches!(g.ffn, Ffn::Dense(_)));
    let base = sliding.or(a.groups.last())?;
    let ffn = dense.map_or_else(|| base.ffn.clone(), |d| d.ffn.clone());
    let layer = LayerGroup { count: 1, ffn, ..base.clone() };
    Some(Mtp {
        modules: n,
        own_embeddings: false,
        layer: Some(alloc::boxed::Box::new(layer)),
        extras: own.into_iter().collect(),
        bare: false,
        shared: Vec::new(),
        layers: Vec::new(),
    })
}

/// dots3-note's layer `i` (vLLM's `Dots3NoteFullAttention` and `Dots3NoteSlidingAttention`): a
/// sliding layer has its own latent geometry — the released config's `swa_*` keys, or
/// transformers' `per_layer_config` — attends through the window over its latent, and runs no
/// indexer; a full layer keeps the model's geometry and its indexer.
fn dots3_layer(cfg: &Cfg<'_>, i: u64, span: Span, m: &mut Mla) -> Result<()> {
    if span == Span::Full {
        return Ok(());
    }
    let own = per_layer_override(cfg, i);
    let key = |k: &str| -> Result<Option<u64>> {
        match own.and_then(|o| o.get(k)) {
            Some(v) => v.as_u64().filter(|n| *n > 0).map(Some).ok_or_else(|| {
                Error::parse(FORMAT, format!("`per_layer_config`: layer {i}'s `{k}` is not a positive count"))
            }),
            None => cfg.count(&alloc::format!("swa_{k}")),
        }
    };
    m.num_heads = key("num_attention_heads")?.unwrap_or(64);
    m.q_lora_rank = Some(key("q_lora_rank")?.unwrap_or(1024));
    m.kv_lora_rank = key("kv_lora_rank")?.unwrap_or(1024);
    m.qk_nope_head_dim = key("qk_nope_head_dim")?.unwrap_or(192);
    m.qk_rope_head_dim = key("qk_rope_head_dim")?.unwrap_or(m.qk_rope_head_dim);
    m.v_head_dim = key("v_head_dim")?.unwrap_or(128);
    m.indexer = None;
    m.span = span;
    Ok(())
}

/// dots3-note's tensors beside a layer's latent attention: the sigmoid gate on its output
/// (`g_proj`: a row a head when `attention_gate_type` — `swa_attention_gate_type` on the sliding
/// layers — is "headwise", transformers' only kind and the release's; else a row an element) and
/// the RMS norm of the keys' rotary part (`k_rope_only_layernorm`).
fn dots3_extras(cfg: &Cfg<'_>, hidden: u64, m: &Mla) -> Vec<Extra> {
    let key = if m.span == Span::Full { "attention_gate_type" } else { "swa_attention_gate_type" };
    let rows = match cfg.str(key) {
        None | Some("headwise") => m.num_heads,
        Some(_) => m.num_heads.saturating_mul(m.v_head_dim),
    };
    alloc::vec![
        Extra { role: Role::Extra, rows, cols: hidden },
        Extra { role: Role::Norm, rows: 1, cols: m.qk_rope_head_dim },
    ]
}

/// dots3-note's prediction module (`model.layers.46` in the checkpoint, vLLM's `Dots3NoteMTP`):
/// `num_nextn_predict_layers` of them (vLLM's config sets 1 where the release says nothing), each
/// a sliding layer with the dense MLP, the usual norms and projection, and an embedding of its own
/// but no head.
fn dots3_mtp(cfg: &Cfg<'_>, a: &Architecture) -> Result<Option<Mtp>> {
    let n = cfg.count_or("num_nextn_predict_layers", 1)?;
    if n == 0 {
        return Ok(None);
    }
    Ok(sliding_dense_mtp(
        a,
        n,
        Some(Extra { role: Role::TokenEmbd, rows: a.vocab_size, cols: a.hidden_size }),
    ))
}

/// Inkling's tensors beside a layer's attention and MLP: the relative-position logits — `r_proj`
/// (`d_rel` a head) and the bank of `d_rel` profiles over `rel_extent` distances (the window on
/// sliding layers) —, the short convolutions on K and V and on the attention's and MLP's outputs
/// (`kernel` taps a channel, no bias), the MLP's scale (16-bit) or the router's (FP32 in the
/// checkpoint, with its bias: Inkling-Small's F32 tensors are 40 MoE layers × 257), and the
/// router's rows for the shared experts.
fn inkling_extras(cfg: &Cfg<'_>, hidden: u64, at: &Attention, ffn: &Ffn) -> Result<Vec<Extra>> {
    let d_rel = cfg.count_or("d_rel", 16)?;
    let extent = match at.span {
        Span::Sliding { window } => window,
        _ => cfg.count_or("rel_extent", 1024)?,
    };
    let kernel = inkling_taps(cfg)?;
    let kv = at.num_kv_heads.saturating_mul(at.head_dim);
    let moe = matches!(ffn, Ffn::Moe(_));
    let mut x = alloc::vec![
        Extra { role: Role::Extra, rows: at.num_heads.saturating_mul(d_rel), cols: hidden },
        Extra { role: Role::Norm, rows: d_rel, cols: extent },
        Extra { role: Role::Norm, rows: 2 * kernel, cols: kv.saturating_add(hidden) },
        Extra { role: if moe { Role::Fp32 } else { Role::Norm }, rows: 1, cols: 1 },
    ];
    if moe {
        x.push(Extra { role: Role::Extra, rows: cfg.count_or("n_shared_experts", 2)?, cols: hidden });
    }
    Ok(x)
}

/// Inkling 2 and Inkling-2-Mini (its looped form).
fn is_inkling2(family: &str) -> bool {
    matches!(family, "inkling2" | "inkling2_loop")
}

/// Inkling 2's tensors beside a layer's attention and experts (transformers 5.24
/// `Inkling2SlidingDecoderLayer` / `Inkling2FullDecoderLayer`): the query's per-head clip scale
/// (`heads × head_dim`), a sink logit a head from the hidden state (`sink_proj`), the
/// relative-position bias (`d_rel` a head projected from the hidden state, its clip scale, and a
/// `d_rel × extent` bank — the window on sliding layers, `rel_extent` on full ones), the short
/// convolutions on K and V (sliding: `kernel` taps a channel in FP32; full: dynamic — a static
/// `kernel × kv` table and a `kv_heads·kernel × h` projection), the two FP32 convolutions on the
/// attention's and the MLP's outputs, and the attention residuals' FP32 queries (the attention
/// input's — three on a full layer, none on the first — and the MLP input's).
fn inkling2_extras(cfg: &Cfg<'_>, hidden: u64, at: &Attention, not_first: bool) -> Result<Vec<Extra>> {
    let d_rel = cfg.count_or("d_rel", 16)?;
    let kernel = inkling_taps(cfg)?;
    let full = at.span == Span::Full;
    let extent = match at.span {
        Span::Sliding { window } => window,
        _ => cfg.count_or("rel_extent", 1024)?,
    };
    let kv = at.num_kv_heads.saturating_mul(at.head_dim);
    let mut x = alloc::vec![
        Extra { role: Role::Norm, rows: at.num_heads, cols: at.head_dim },
        Extra { role: Role::Extra, rows: at.num_heads, cols: hidden },
        Extra { role: Role::Extra, rows: at.num_heads.saturating_mul(d_rel), cols: hidden },
        Extra { role: Role::Norm, rows: at.num_heads, cols: d_rel },
        Extra { role: Role::Norm, rows: d_rel, cols: extent },
        Extra { role: Role::Fp32, rows: 2, cols: hidden.saturating_mul(kernel) },
    ];
    if full {
        x.push(Extra { role: Role::Norm, rows: 2, cols: kernel.saturating_mul(kv) });
        x.push(Extra {
            role: Role::Extra,
            rows: at.num_kv_heads.saturating_mul(kernel).saturating_mul(2),
            cols: hidden,
        });
    } else {
        x.push(Extra { role: Role::Fp32, rows: 2, cols: kv.saturating_mul(kernel) });
    }
    let queries = u64::from(not_first) * if full { 3 } else { 1 } + 1;
    x.push(Extra { role: Role::Fp32, rows: queries, cols: hidden });
    Ok(x)
}

/// Taps of Inkling's short convolutions (`sconv_kernel_size`, transformers' `conv_kernel_size`).
fn inkling_taps(cfg: &Cfg<'_>) -> Result<u64> {
    Ok(cfg.count_any(&["sconv_kernel_size", "conv_kernel_size"])?.unwrap_or(4))
}

/// Inkling's prediction depths (`mtp_config`, vLLM 0.34 `inkling/nvidia/mtp.py`, stored in
/// `mtp.safetensors`): each a decoder layer with a dense MLP (`force_dense_mlp`) that attends
/// through the window or the whole context by `mtp_config.local_layer_ids`, its own relative
/// bank and short convolutions as the stack's layers of that kind, two norms (the hidden state's
/// and the embedding's) and the projection of both into the layer (`input_proj`, `2h → h`), a
/// norm after the chain when `chain_hidden_post_norm`; the embedding and head are the target's.
fn inkling_mtp(cfg: &Cfg<'_>, a: &Architecture) -> Result<Option<Mtp>> {
    let Some(m) = cfg.outer.get("mtp_config").or_else(|| cfg.main.get("mtp_config")) else { return Ok(None) };
    let depths = m.get("num_nextn_predict_layers").and_then(Value::as_u64).unwrap_or(0);
    if depths == 0 {
        return Ok(None);
    }
    if depths > 64 {
        return Err(Error::parse(FORMAT, "`mtp_config.num_nextn_predict_layers` is not a real count"));
    }
    let local: Vec<u64> = match m.get("local_layer_ids").and_then(Value::as_array) {
        Some(ids) => ids.iter().filter_map(Value::as_u64).collect(),
        None => Vec::new(),
    };
    let is_local = |g: &LayerGroup| matches!(g.mixers.first(), Some(Mixer::Attention(at)) if matches!(at.span, Span::Sliding { .. }));
    let dense = |g: &LayerGroup| matches!(g.ffn, Ffn::Dense(_));
    // The stack's dense local layer is a depth's local kind as it is; its global kind is a global
    // layer with that dense MLP (and without the router's rows for the shared experts).
    let (Some(local_dense), Some(global)) =
        (a.groups.iter().find(|g| is_local(g) && dense(g)), a.groups.iter().find(|g| !is_local(g)))
    else {
        return Err(Error::parse(
            FORMAT,
            "`mtp_config` names prediction depths, but the stack has no dense sliding layer and global layer to build them from",
        ));
    };
    let mut global_dense = global.clone();
    global_dense.ffn = local_dense.ffn.clone();
    if let Some(Mixer::Attention(at)) = global.mixers.first() {
        global_dense.extras = inkling_extras(cfg, a.hidden_size, at, &global_dense.ffn)?;
    }
    let one = |g: &LayerGroup| LayerGroup { count: 1, ..g.clone() };
    let layers =
        (0..depths).map(|k| if local.contains(&k) { one(local_dense) } else { one(&global_dense) }).collect();
    let h = a.hidden_size;
    let mut extras = alloc::vec![
        Extra { role: Role::Norm, rows: 1, cols: h },
        Extra { role: Role::Norm, rows: 1, cols: h },
        Extra { role: Role::MtpProj, rows: h, cols: h.saturating_mul(2) },
    ];
    if m.get("chain_hidden_post_norm").and_then(Value::as_bool).unwrap_or(false) {
        extras.push(Extra { role: Role::Norm, rows: 1, cols: h });
    }
    Ok(Some(Mtp {
        modules: depths,
        own_embeddings: false,
        layer: None,
        extras,
        bare: true,
        shared: Vec::new(),
        layers,
    }))
}

/// Gemma 3n's per-layer extras: AltUp (its output scale, correction and prediction coefficients,
/// router and router norm), LAuReL (a rank-`laurel_rank` residual with its norm) and the
/// per-layer input gate and projection with their norm.
fn gemma3n_layer_extras(cfg: &Cfg<'_>, c: &Common, g: &mut LayerGroup) -> Result<()> {
    use crate::model::Extra;
    use crate::tensor::Role;
    let h = c.hidden;
    let n = cfg.count_or("altup_num_inputs", 4)?;
    let r = cfg.count_or("laurel_rank", 64)?;
    let p = cfg.count_or("hidden_size_per_layer_input", 256)?;
    if n > 64 || r > MAX_LAYERS * 64 {
        return Err(Error::parse(FORMAT, "`altup_num_inputs` or `laurel_rank` is not a real size"));
    }
    let norm = |cols| Extra { role: Role::Norm, rows: 1, cols };
    let mat = |rows, cols| Extra { role: Role::Extra, rows, cols };
    g.extras.extend([
        norm(h),
        mat(n, n),
        mat(n.saturating_mul(n), n),
        mat(n, h),
        norm(h),
        mat(r, h),
        mat(h, r),
        norm(h),
        mat(p, h),
        mat(h, p),
        norm(h),
    ]);
    Ok(())
}

/// `per_layer_config[i]` (Gemma 4), whatever the key's zero padding.
fn per_layer_override<'a>(cfg: &Cfg<'a>, i: u64) -> Option<&'a Value> {
    let obj = cfg.main.get("per_layer_config")?.as_object()?;
    obj.iter().find(|(k, _)| k.trim_start_matches('0').parse::<u64>().ok().unwrap_or(0) == i).map(|(_, v)| v)
}

/// Gemma 4's per-layer extras: the MoE block beside the dense MLP (with its three norms and the
/// router's scales), the per-layer input gate and projection, and the layer scalar.
fn gemma4_layer_extras(cfg: &Cfg<'_>, c: &Common, g: &mut LayerGroup) -> Result<()> {
    use crate::model::Extra;
    use crate::tensor::Role;
    let h = c.hidden;
    if let Ffn::Moe(m) = &g.ffn {
        // The dense MLP runs beside the experts.
        let m = m.clone();
        g.ffn = Ffn::Moe(Moe { shared_intermediate: 0, ..m });
        g.extras.push(Extra { role: Role::Extra, rows: c.inter, cols: h });
        g.extras.push(Extra { role: Role::Extra, rows: c.inter, cols: h });
        g.extras.push(Extra { role: Role::Extra, rows: h, cols: c.inter });
        // Three more norms, the router's scale and per-expert scale.
        for _ in 0..3 {
            g.extras.push(Extra { role: Role::Norm, rows: 1, cols: h });
        }
        g.extras.push(Extra { role: Role::Norm, rows: 1, cols: h });
        g.extras.push(Extra { role: Role::Norm, rows: 1, cols: cfg.count_or("num_experts", 0)? });
    }
    let per_layer = cfg.count_or("hidden_size_per_layer_input", 0)?;
    if per_layer > 0 {
        g.extras.push(Extra { role: Role::Extra, rows: per_layer, cols: h });
        g.extras.push(Extra { role: Role::Extra, rows: h, cols: per_layer });
        g.extras.push(Extra { role: Role::Norm, rows: 1, cols: h });
    }
    // The layer scalar.
    g.extras.push(Extra { role: Role::Norm, rows: 1, cols: 1 });
    Ok(())
}

/// One group of `layers` identical layers.
fn uniform(layers: u64, mixer: Mixer, ffn: Ffn, norms: u64) -> Vec<LayerGroup> {
    vec![LayerGroup::new(layers, mixer, ffn, norms)]
}

fn read_gpt2(cfg: &Cfg<'_>, family: &str) -> Result<Architecture> {
    let hidden = cfg.count_any(&["n_embd", "hidden_size"])?.unwrap_or(768);
    let heads = cfg.count_any(&["n_head", "num_attention_heads"])?.unwrap_or(12);
    let inner = cfg.count("n_inner")?.unwrap_or(hidden.saturating_mul(4));
    let positions = cfg.count_any(&["n_positions", "max_position_embeddings"])?.unwrap_or(1024);
    let layers = cfg.count_any(&["n_layer", "num_hidden_layers"])?.unwrap_or(12);
    // gpt_bigcode: one key/value head with `multi_query` (its default).
    let kv = if family == "gpt_bigcode" && cfg.flag("multi_query").unwrap_or(true) { 1 } else { heads };
    let att = Attention {
        qkv_bias: true,
        o_bias: true,
        fused_qkv: true,
        ..Attention::gqa(heads, kv, hidden.checked_div(heads).unwrap_or(0))
    };
    let mut a = Architecture::new(
        family,
        cfg.count_or("vocab_size", 50257)?,
        hidden,
        uniform(layers, Mixer::Attention(att), Ffn::Dense(Mlp::plain(inner, true)), 2),
    );
    a.norm = NormKind::LayerNorm;
    a.learned_positions = positions;
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(true);
    a.max_context = positions;
    Ok(a)
}

fn read_neox(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_or("hidden_size", 6144)?;
    let heads = cfg.count_or("num_attention_heads", 64)?;
    let bias = cfg.flag("attention_bias").unwrap_or(true);
    let att = Attention {
        qkv_bias: bias,
        o_bias: bias,
        fused_qkv: true,
        ..Attention::gqa(heads, heads, hidden.checked_div(heads).unwrap_or(0))
    };
    let inter = cfg.count_or("intermediate_size", 24576)?;
    let mut a = Architecture::new(
        "gpt_neox",
        cfg.count_or("vocab_size", 50432)?,
        hidden,
        uniform(
            cfg.count_or("num_hidden_layers", 44)?,
            Mixer::Attention(att),
            Ffn::Dense(Mlp::plain(inter, true)),
            2,
        ),
    );
    a.norm = NormKind::LayerNorm;
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(false);
    a.max_context = cfg.count_or("max_position_embeddings", 2048)?;
    Ok(a)
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
    let norms = if new_arch {
        cfg.count_or("num_ln_in_parallel_attn", 2)?
    } else if parallel {
        1
    } else {
        2
    };
    let att =
        Attention { qkv_bias: bias, o_bias: bias, fused_qkv: true, ..Attention::gqa(heads, kv, head_dim) };
    let inter = cfg.count("ffn_hidden_size")?.unwrap_or(hidden.saturating_mul(4));
    let mut a = Architecture::new(
        "falcon",
        cfg.count_or("vocab_size", 65024)?,
        hidden,
        uniform(
            cfg.count_any(&["num_hidden_layers", "n_layer"])?.unwrap_or(32),
            Mixer::Attention(att),
            Ffn::Dense(Mlp::plain(inter, bias)),
            norms,
        ),
    );
    a.norm = NormKind::LayerNorm;
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(true);
    a.max_context = cfg.count_or("max_position_embeddings", 2048)?;
    Ok(a)
}

/// Phi-1, 1.5 and 2: parallel attention and a plain MLP after one LayerNorm, biases on every
/// projection, partial rotary, an output head with a bias.
fn read_phi(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_or("hidden_size", 2048)?;
    let heads = cfg.count_or("num_attention_heads", 32)?;
    let kv = cfg.count("num_key_value_heads")?.unwrap_or(heads);
    let mut att = Attention {
        qkv_bias: true,
        o_bias: true,
        ..Attention::gqa(heads, kv, hidden.checked_div(heads).unwrap_or(0))
    };
    if cfg.flag("qk_layernorm").unwrap_or(false) {
        att.qk_norm = QkNorm::PerHead;
    }
    let inter = cfg.count_or("intermediate_size", 8192)?;
    let mut a = Architecture::new(
        "phi",
        cfg.count_or("vocab_size", 51200)?,
        hidden,
        uniform(
            cfg.count_or("num_hidden_layers", 24)?,
            Mixer::Attention(att),
            Ffn::Dense(Mlp::plain(inter, true)),
            1,
        ),
    );
    a.norm = NormKind::LayerNorm;
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(false);
    a.head_bias = true;
    a.max_context = cfg.count_or("max_position_embeddings", 2048)?;
    Ok(a)
}

/// MPT: fused `Wqkv`, a plain MLP of `expansion_ratio × d_model`, LayerNorms without biases when
/// `no_bias`, ALiBi (no position embeddings) or learned positions.
fn read_mpt(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_or("d_model", 2048)?;
    let heads = cfg.count_or("n_heads", 16)?;
    let no_bias = cfg.flag("no_bias").unwrap_or(true);
    let ratio = cfg.count_or("expansion_ratio", 4)?;
    let attn_cfg = cfg.raw("attn_config");
    let kv = attn_cfg.and_then(|v| v.get("kv_n_heads")).and_then(Value::as_u64).unwrap_or(heads);
    let alibi = attn_cfg.and_then(|v| v.get("alibi")).and_then(Value::as_bool).unwrap_or(false);
    let att = Attention {
        qkv_bias: !no_bias,
        o_bias: !no_bias,
        fused_qkv: true,
        ..Attention::gqa(heads, kv, hidden.checked_div(heads).unwrap_or(0))
    };
    let max_seq = cfg.count_or("max_seq_len", 2048)?;
    let mut a = Architecture::new(
        "mpt",
        cfg.count_or("vocab_size", 50368)?,
        hidden,
        uniform(
            cfg.count_or("n_layers", 24)?,
            Mixer::Attention(att),
            Ffn::Dense(Mlp::plain(hidden.saturating_mul(ratio), !no_bias)),
            2,
        ),
    );
    a.norm = if no_bias { NormKind::LayerNormNoBias } else { NormKind::LayerNorm };
    a.learned_positions = if alibi { 0 } else { max_seq };
    a.tie_word_embeddings = true;
    a.max_context = max_seq;
    Ok(a)
}

/// OPT: learned positions (with OPT's offset of 2 rows), biases everywhere, a plain MLP, and
/// projections in and out when the embeddings are narrower than the model.
fn read_opt(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_or("hidden_size", 768)?;
    let heads = cfg.count_or("num_attention_heads", 12)?;
    let bias = cfg.flag("enable_bias").unwrap_or(true);
    let att = Attention {
        qkv_bias: bias,
        o_bias: bias,
        ..Attention::gqa(heads, heads, hidden.checked_div(heads).unwrap_or(0))
    };
    let ffn = cfg.count_or("ffn_dim", 3072)?;
    let embed = cfg.count_or("word_embed_proj_dim", hidden)?;
    let positions = cfg.count_or("max_position_embeddings", 2048)?;
    let mut a = Architecture::new(
        "opt",
        cfg.count_or("vocab_size", 50272)?,
        embed,
        uniform(
            cfg.count_or("num_hidden_layers", 12)?,
            Mixer::Attention(att),
            Ffn::Dense(Mlp::plain(ffn, bias)),
            2,
        ),
    );
    a.hidden_size = hidden;
    a.norm = NormKind::LayerNorm;
    a.learned_positions = positions.saturating_add(2);
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(true);
    a.max_context = positions;
    if embed != hidden {
        return Err(Error::parse(
            FORMAT,
            "OPT with `word_embed_proj_dim` unlike `hidden_size` (opt-350m) is not read from a config; give its safetensors headers",
        ));
    }
    if cfg.flag("do_layer_norm_before") == Some(false) {
        return Err(Error::parse(
            FORMAT,
            "OPT with `do_layer_norm_before` false has no final norm; give its safetensors headers",
        ));
    }
    Ok(a)
}

/// BLOOM: a LayerNorm on the embeddings, fused `query_key_value`, biases everywhere, ALiBi.
fn read_bloom(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_any(&["hidden_size", "n_embed"])?.unwrap_or(64);
    let heads = cfg.count_any(&["n_head", "num_attention_heads"])?.unwrap_or(8);
    let att = Attention {
        qkv_bias: true,
        o_bias: true,
        fused_qkv: true,
        ..Attention::gqa(heads, heads, hidden.checked_div(heads).unwrap_or(0))
    };
    let mut a = Architecture::new(
        "bloom",
        cfg.count_or("vocab_size", 250880)?,
        hidden,
        uniform(
            cfg.count_any(&["n_layer", "num_hidden_layers"])?.unwrap_or(2),
            Mixer::Attention(att),
            Ffn::Dense(Mlp::plain(hidden.saturating_mul(4), true)),
            2,
        ),
    );
    a.norm = NormKind::LayerNorm;
    a.embedding_norm = true;
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(true);
    a.max_context = cfg.count_or("seq_length", 2048)?;
    Ok(a)
}

/// StableLM: LayerNorms with biases, q/k/v biases when `use_qkv_bias`, optional per-head
/// LayerNorms on q and k, one norm per layer with a parallel residual.
fn read_stablelm(cfg: &Cfg<'_>) -> Result<Architecture> {
    let c = read_common(cfg, "stablelm")?;
    let mut att = Attention {
        qkv_bias: cfg.flag("use_qkv_bias").unwrap_or(false),
        ..Attention::gqa(c.heads, c.kv, c.head_dim)
    };
    if cfg.flag("qk_layernorm").unwrap_or(false) {
        att.qk_norm = QkNorm::PerHeadEach;
    }
    let norms = if cfg.flag("use_parallel_residual").unwrap_or(false) { 1 } else { 2 };
    let mut a = Architecture::new(
        "stablelm",
        c.vocab,
        c.hidden,
        uniform(c.layers, Mixer::Attention(att), Ffn::Dense(Mlp::gated(c.inter)), norms),
    );
    a.norm = NormKind::LayerNorm;
    a.tie_word_embeddings = c.tie;
    a.max_context = c.max_context;
    Ok(a)
}

/// Moondream 3 (vLLM 0.34's `moondream3.py` and `Moondream3Config`): its sizes nest in
/// `config.text` (the hub's `config.json` leaves `config` empty: vLLM's defaults are the release's
/// shape). Multi-head attention of `dim / n_heads` with a fused, biased qkv and a biased output,
/// and per layer the "tau" scales (`tau_alpha` a head, `tau_wq` and `tau_wv` `heads × 3·dim`);
/// one LayerNorm a layer (attention and MLP in parallel); the first `moe.start_layer` layers a
/// biased GELU MLP of `ff_dim`, the others `n_experts` GeGLU experts of `expert_inner_dim`
/// (`n_experts_per_tok` a token) behind a biased router; a final LayerNorm and a biased head.
fn read_moondream3(cfg: &Cfg<'_>) -> Result<Architecture> {
    let empty = Value::Object(Vec::new());
    let text = cfg.outer.get("config").and_then(|c| c.get("text")).unwrap_or(&empty);
    let moe = text.get("moe").unwrap_or(&empty);
    let n = |v: &Value, k: &str, d: u64| -> Result<u64> {
        match v.get(k).filter(|x| !x.is_null()) {
            None => Ok(d),
            Some(x) => x
                .as_u64()
                .ok_or_else(|| Error::parse(FORMAT, format!("`config.text.{k}` must be a whole number"))),
        }
    };
    let (d, ff, layers) = (n(text, "dim", 2048)?, n(text, "ff_dim", 8192)?, n(text, "n_layers", 24)?);
    let (vocab, heads, kv) =
        (n(text, "vocab_size", 51200)?, n(text, "n_heads", 32)?, n(text, "n_kv_heads", 32)?);
    if layers == 0 || layers > MAX_LAYERS || heads == 0 || !d.is_multiple_of(heads) {
        return Err(Error::parse(
            FORMAT,
            format!("Moondream 3's {layers} layers of {d} in {heads} heads are not a model"),
        ));
    }
    // vLLM reads `n_experts` and `n_experts_per_tok` (its defaults where the kestrel names stand).
    let (start, experts, top, inner) = (
        n(moe, "start_layer", 4)?,
        n(moe, "n_experts", 64)?,
        n(moe, "n_experts_per_tok", 8)?,
        n(moe, "expert_inner_dim", 1024)?,
    );
    let att =
        Attention { qkv_bias: true, o_bias: true, fused_qkv: true, ..Attention::gqa(heads, kv, d / heads) };
    let tau = [
        Extra { role: Role::Extra, rows: heads.saturating_mul(2), cols: d.saturating_mul(3) },
        Extra { role: Role::Norm, rows: 1, cols: heads },
    ];
    let mut stack = Stack::default();
    for i in 0..layers {
        let ffn = if i < start || experts == 0 {
            Ffn::Dense(Mlp::plain(ff, true))
        } else {
            Ffn::Moe(Moe { router_bias: true, ..Moe::routed(experts, top.clamp(1, experts), inner) })
        };
        let mut g = LayerGroup::new(1, Mixer::Attention(att.clone()), ffn, 1);
        g.extras.extend(tau.iter().cloned());
        stack.push(g);
    }
    let mut a = Architecture::new("moondream3", vocab, d, stack.groups);
    a.norm = NormKind::LayerNorm;
    a.head_bias = true;
    a.max_context = n(text, "max_context", 4096)?;
    Ok(a)
}

/// HRM-Text (Sapient's Hierarchical Reasoning Model; transformers' `HrmTextModel`, vLLM's
/// `hrm_text.py`, llama.cpp's `hrm-text.cpp`): two stacks of `num_layers_per_stack` layers, a
/// low (`L`) and a high (`H`) one, run in nested cycles — per high cycle the low stack
/// `L_cycles` times, then the high stack once — each run with a cache of its own: `stack ×
/// H_cycles × (L_cycles + 1)` cache layers (the `num_hidden_layers` transformers writes back
/// into the config; a config without `num_layers_per_stack` gives the per-stack count there).
/// The layers are multi-head attention (transformers and vLLM build no grouped heads) with a
/// sigmoid output gate as wide as the queries (`gate_proj`), a gated SiLU MLP, and norms
/// without weights; the model stores the low stack's initial state (`z_L_init`, one vector).
/// During training only the last `L_bp_cycles[h]` low runs of each high cycle (left-padded with
/// 1s) keep activations; the others run under `torch.no_grad()`.
fn read_hrm_text(cfg: &Cfg<'_>) -> Result<Architecture> {
    let c = read_common(cfg, "hrm_text")?;
    let high = cfg.count_or("H_cycles", 2)?;
    let low = cfg.count_or("L_cycles", 3)?;
    let stack = match cfg.count("num_layers_per_stack")? {
        Some(n) => n,
        None => c.layers,
    };
    let slots = stack.checked_mul(high).and_then(|x| x.checked_mul(low.checked_add(1)?));
    let slots = match slots {
        Some(n) if stack > 0 && high > 0 && low > 0 && n <= MAX_LAYERS => n,
        _ => {
            return Err(Error::parse(
                FORMAT,
                format!(
                    "HRM-Text's {stack} layers a stack run {high} high cycles of {low} low cycles: give 1 or more of each, at most {MAX_LAYERS} cache layers in all"
                ),
            ));
        }
    };
    if cfg.present("num_layers_per_stack") && cfg.present("num_hidden_layers") && c.layers != slots {
        return Err(Error::parse(
            FORMAT,
            format!(
                "`num_hidden_layers` {} is not `num_layers_per_stack` × `H_cycles` × (`L_cycles` + 1) = {slots}: HRM-Text keeps a cache layer for each layer's run",
                c.layers
            ),
        ));
    }
    let bias = cfg.flag("attention_bias").unwrap_or(false);
    let att = Attention {
        qkv_bias: bias,
        o_bias: bias,
        output_gate: true,
        ..Attention::gqa(c.heads, c.heads, c.head_dim)
    };
    let mlp = Mlp { bias: cfg.flag("mlp_bias").unwrap_or(false), ..Mlp::gated(c.inter) };
    let one = [LayerGroup::new(stack, Mixer::Attention(att), Ffn::Dense(mlp), 0)];
    let mut a =
        Architecture::new("hrm_text", c.vocab, c.hidden, super::hrm_cache_layers(&one, &one, high, low));
    a.norm = NormKind::NoParams;
    // `z_L_init`: a vector, priced as the norms are, never trained.
    a.extras.push(Extra { role: Role::Frozen, rows: 1, cols: c.hidden });
    a.tie_word_embeddings = c.tie;
    a.max_context = c.max_context;
    // Runs without gradients: per high cycle, the low runs before the last `L_bp_cycles[h]`.
    let bp = cfg.indices("L_bp_cycles")?.unwrap_or_else(|| alloc::vec![2]);
    let pad = (high as usize).saturating_sub(bp.len());
    let mut slot = 0u64;
    for h in 0..high as usize {
        let with_grad = if h < pad { 1 } else { bp.get(h - pad).copied().unwrap_or(1) };
        for l in 0..low {
            if l.saturating_add(with_grad) < low {
                a.no_grad.push((slot, slot.saturating_add(stack)));
            }
            slot = slot.saturating_add(stack);
        }
        slot = slot.saturating_add(stack);
    }
    Ok(a)
}

/// DBRX: fused `Wqkv` without biases, a mixture of gated experts (`w1`, `v1`, `w2`) in
/// `ffn_config`, key/value heads in `attn_config`, LayerNorms without biases.
/// A count inside a sub-object of the config (`attn_config.kv_n_heads`, `dsa_config.index_topk`):
/// `default` when absent or null; an error naming `{object}.{key}` when not a non-negative integer.
fn nested_count(v: &Value, object: &str, key: &str, default: u64) -> Result<u64> {
    match v.get(key).filter(|x| !x.is_null()) {
        None => Ok(default),
        Some(x) => x
            .as_u64()
            .ok_or_else(|| Error::parse(FORMAT, format!("`{object}.{key}` must be a non-negative integer"))),
    }
}

/// Zyphra's Zamba2 (transformers 5.24 `Zamba2Model`, vLLM's `zamba2.py`): a Mamba-2 layer
/// everywhere, and on its `hybrid` layers, before the Mamba-2 layer, a transformer block shared
/// across the stack — `num_mem_blocks` of them, used in turn. A block reads the hidden state
/// concatenated with the embeddings (`2 × hidden` wide: its input norm, and queries, keys and values
/// of `2 × hidden / heads` wide heads, back to `hidden` by the output projection), then a gated
/// `gate_up_proj` MLP; a bias-free `hidden × hidden` projection of each hybrid layer brings its
/// output to the Mamba-2 layer. The block's weights are stored by its first use; later uses keep
/// their own Mamba-2 layer, its norm and the projection ([`Own`]). Each use has its own rank-
/// `adapter_rank` adapter on the MLP's gate and up (always built) and, with
/// `use_shared_attention_adapter`, on the queries, keys and values; checkpoints store them in the
/// block (`gate_up_proj_adapter_list.{use}`), so they are counted with the block's first use, and
/// each use's attention has its own cache.
fn read_zamba2(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_or("hidden_size", 2560)?;
    let heads = cfg.count_or("num_attention_heads", 32)?.max(1);
    let kv = cfg.count("num_key_value_heads")?.unwrap_or(heads);
    let inter = cfg.count("intermediate_size")?.unwrap_or(hidden.saturating_mul(4));
    let rank = cfg.count_or("adapter_rank", 128)?;
    let blocks = cfg.count_or("num_mem_blocks", 1)?;
    if !(1..=64).contains(&blocks) {
        return Err(Error::parse(FORMAT, format!("`num_mem_blocks` {blocks}: Zamba2 shares 1 to 64 blocks")));
    }
    let bias = cfg.flag("add_bias_linear").unwrap_or(false);
    let wide = hidden.saturating_mul(2);
    // The class's default pattern (54 layers, Zamba2-2.7B's).
    let default: Vec<&str> = core::iter::once("mamba")
        .chain((0..7).flat_map(|_| core::iter::repeat_n("mamba", 5).chain(core::iter::once("hybrid"))))
        .chain(core::iter::repeat_n("mamba", 4))
        .chain(core::iter::once("hybrid"))
        .chain(core::iter::repeat_n("mamba", 3))
        .chain(core::iter::once("hybrid"))
        .chain(core::iter::repeat_n("mamba", 2))
        .collect();
    let key = if cfg.present("layers_block_type") { "layers_block_type" } else { "layer_types" };
    let layers = match cfg.raw(key).and_then(Value::as_array) {
        Some(list) => cfg.strings(key, list.len() as u64)?.unwrap_or_default(),
        None if cfg.raw(key).is_some() => {
            return Err(Error::parse(FORMAT, format!("`{key}` must be a list")));
        }
        None => default,
    };
    let mut hybrid = Vec::with_capacity(layers.len());
    for (i, t) in layers.iter().enumerate() {
        hybrid.push(match *t {
            "hybrid" => true,
            "mamba" | "linear_attention" => false,
            other => {
                return Err(Error::parse(
                    FORMAT,
                    format!("`{key}` entry {i} is `{other}`: Zamba2's layers are `mamba` or `hybrid`"),
                ));
            }
        });
    }
    if let Some(n) = cfg.count("num_hidden_layers")?
        && n != layers.len() as u64
    {
        return Err(Error::parse(
            FORMAT,
            format!("`{key}` lists {} layers but `num_hidden_layers` is {n}", layers.len()),
        ));
    }
    let uses = hybrid.iter().filter(|h| **h).count() as u64;
    let inner = hidden.saturating_mul(cfg.count_or("mamba_expand", 2)?);
    let m = Mamba {
        version: MambaVersion::V2,
        inner,
        state: cfg.count_or("mamba_d_state", 64)?,
        groups: cfg.count_or("mamba_ngroups", 1)?,
        heads: cfg.count_or("n_mamba_heads", 8)?,
        conv_kernel: cfg.count_or("mamba_d_conv", 4)?,
        dt_rank: 0,
        // transformers builds the convolution with a bias whatever `use_conv_bias` says.
        conv_bias: true,
        proj_bias: bias,
        gated_norm: true,
        inner_norms: false,
    };
    let att = Attention { input_width: wide, ..Attention::gqa(heads, kv, wide / heads) };
    let ffn = Ffn::Dense(Mlp { intermediate_size: inter, gated: true, bias, fused_gate_up: true });
    let adapter = |input: u64, output: u64| {
        [
            Extra { role: Role::Extra, rows: rank, cols: input },
            Extra { role: Role::Extra, rows: output, cols: rank },
        ]
    };
    let attention_adapters = cfg.flag("use_shared_attention_adapter").unwrap_or(false);
    let mut stack = Stack::default();
    let mut seen = 0u64;
    for h in hybrid {
        if !h {
            stack.push(LayerGroup::new(1, Mixer::Mamba(m.clone()), Ffn::None, 1));
            continue;
        }
        let first = seen < blocks;
        let mut extras = vec![Extra { role: Role::Norm, rows: 1, cols: wide }];
        if first {
            // The block's adapters, one for each of its uses.
            let mine = (seen..uses).step_by(blocks as usize).count();
            for _ in 0..mine {
                extras.extend(adapter(hidden, inter.saturating_mul(2)));
                if attention_adapters {
                    for _ in 0..3 {
                        extras.extend(adapter(wide, wide));
                    }
                }
            }
        }
        extras.push(Extra { role: Role::Extra, rows: hidden, cols: hidden });
        stack.push(LayerGroup {
            count: 1,
            mixers: vec![Mixer::Attention(att.clone()), Mixer::Mamba(m.clone())],
            ffn: ffn.clone(),
            norms: 2,
            extras,
            tied: !first,
            own: (!first).then_some(Own { mixers: 1, norms: 1, extras: 1 }),
        });
        seen += 1;
    }
    let mut a = Architecture::new("zamba2", cfg.count_or("vocab_size", 32000)?, hidden, stack.groups);
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(true);
    a.max_context = if cfg.flag("use_long_context").unwrap_or(false) {
        16384
    } else {
        cfg.count_or("max_position_embeddings", 4096)?
    };
    Ok(a)
}

fn read_dbrx(cfg: &Cfg<'_>) -> Result<Architecture> {
    let hidden = cfg.count_or("d_model", 2048)?;
    let heads = cfg.count_or("n_heads", 16)?;
    let layers = cfg.count_or("n_layers", 24)?;
    let count = |k: &str, key: &str, default: u64| match cfg.raw(k) {
        Some(v) => nested_count(v, k, key, default),
        None => Ok(default),
    };
    let kv = count("attn_config", "kv_n_heads", 1)?;
    let att =
        Attention { fused_qkv: true, ..Attention::gqa(heads, kv, hidden.checked_div(heads).unwrap_or(0)) };
    let moe = Moe::routed(
        count("ffn_config", "moe_num_experts", 4)?,
        count("ffn_config", "moe_top_k", 1)?,
        count("ffn_config", "ffn_hidden_size", 3584)?,
    );
    let mut a = Architecture::new(
        "dbrx",
        cfg.count_or("vocab_size", 32000)?,
        hidden,
        uniform(layers, Mixer::Attention(att), Ffn::Moe(moe), 2),
    );
    a.norm = NormKind::LayerNormNoBias;
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(false);
    a.max_context = cfg.count_or("max_seq_len", 2048)?;
    Ok(a)
}

/// The sizes DeepSeek V4 and V4.1 configs share.
struct V4Sizes {
    hidden: u64,
    vocab: u64,
    layers: u64,
    heads: u64,
    experts: u64,
    top_k: u64,
    inner: u64,
    shared: u64,
    hc: u64,
}

impl V4Sizes {
    fn read(cfg: &Cfg<'_>) -> Result<Self> {
        let inner = cfg.required(&["moe_intermediate_size"])?;
        Ok(V4Sizes {
            hidden: cfg.required(&["hidden_size"])?,
            vocab: cfg.required(&["vocab_size"])?,
            layers: cfg.required(&["num_hidden_layers"])?,
            heads: cfg.required(&["num_attention_heads"])?,
            experts: cfg.required(&["n_routed_experts"])?,
            top_k: cfg.required(&["num_experts_per_tok"])?,
            inner,
            shared: inner.saturating_mul(cfg.count_or("n_shared_experts", 1)?),
            hc: cfg.count_or("hc_mult", 4)?,
        })
    }

    /// The lightning indexer both versions configure the same way.
    fn indexer(cfg: &Cfg<'_>) -> Result<Indexer> {
        Ok(Indexer {
            heads: cfg.count_or("index_n_heads", 64)?,
            head_dim: cfg.count_or("index_head_dim", 128)?,
            topk: cfg.count_or("index_topk", 512)?,
            pool: 1,
        })
    }

    /// A layer's attention compressing by `ratio`, without overlap, indexer or sharing (each
    /// version sets those).
    fn attention(&self, cfg: &Cfg<'_>, ratio: u64) -> Result<CompressedAttention> {
        Ok(CompressedAttention {
            num_heads: self.heads,
            head_dim: cfg.count_or("head_dim", 512)?,
            rope_dim: cfg.count_or("qk_rope_head_dim", 64)?,
            q_lora_rank: cfg.required(&["q_lora_rank"])?,
            o_groups: cfg.count_or("o_groups", 8)?,
            o_lora_rank: cfg.count_or("o_lora_rank", 1024)?,
            window: cfg.count_or("sliding_window", 128)?,
            ratio,
            overlap: false,
            indexer: None,
            shares: None,
        })
    }

    /// A layer's two FP32 hyper-connection mixings (before attention and before the MoE).
    fn hyper(&self) -> Vec<Extra> {
        let m = self.hc.saturating_add(2).saturating_mul(self.hc);
        [hyper_mixing(m, self.hc, self.hidden, 3), hyper_mixing(m, self.hc, self.hidden, 3)].concat()
    }

    /// A layer's MoE of `experts` (top `top_k`) with one shared expert, score-routed with a
    /// correction bias, or by a hash table.
    fn moe(&self, experts: u64, top_k: u64, hash: bool) -> Moe {
        Moe { shared_intermediate: self.shared, score_bias: !hash, ..Moe::routed(experts, top_k, self.inner) }
    }
}

/// DeepSeek V4 (transformers 5.24 `DeepseekV4Config`, the checkpoint's layout): per layer,
/// `compress_ratios[i]` picks the attention — 0 a window only, 4 compressed sparse attention
/// (overlapping windows and the lightning indexer), 128 heavily compressed; every layer is a
/// mixture of experts with one shared expert, its first `num_hash_layers` routed by an int64
/// token-to-expert table (`tid2eid`, vocabulary × top-k) instead of scores and a correction
/// bias; each block mixes `hc_mult` residual streams through two FP32 hyper-connection maps
/// (`(2 + hc) · hc` rows of `hc · hidden`, a base and three scales), and the model ends with
/// its own. The MTP module (`num_nextn_predict_layers`, stored in the checkpoint, not built by
/// transformers) is a window-only, score-routed layer with its own hyper-connection head; its
/// ratio is the list's entry after the last layer.
fn read_deepseek_v4(cfg: &Cfg<'_>) -> Result<Architecture> {
    let z = V4Sizes::read(cfg)?;
    let (hidden, vocab, layers, hc) = (z.hidden, z.vocab, z.layers, z.hc);
    let hash_layers = cfg.count_or("num_hash_layers", 0)?;
    let ratios = cfg.indices("compress_ratios")?.ok_or_else(|| {
        Error::parse(FORMAT, "`compress_ratios` is missing: DeepSeek V4 names each layer's attention by it")
    })?;
    if (ratios.len() as u64) < layers {
        return Err(Error::parse(
            FORMAT,
            format!("`compress_ratios` lists {} entries for {layers} layers", ratios.len()),
        ));
    }
    let indexer = V4Sizes::indexer(cfg)?;
    let attention = |i: usize, ratio: u64| -> Result<CompressedAttention> {
        if !matches!(ratio, 0 | 4 | 128) {
            return Err(Error::parse(
                FORMAT,
                format!(
                    "`compress_ratios[{i}]` is {ratio}: DeepSeek V4 layers compress by 0 (window only), 4 or 128"
                ),
            ));
        }
        Ok(CompressedAttention {
            overlap: ratio == 4,
            indexer: (ratio == 4).then(|| indexer.clone()),
            ..z.attention(cfg, ratio)?
        })
    };
    let moe = |hash: bool| z.moe(z.experts, z.top_k, hash);
    let m = hc.saturating_add(2).saturating_mul(hc);
    let mixing = |role: Role, rows: u64, cols: u64| Extra { role, rows, cols };
    let hyper = [hyper_mixing(m, hc, hidden, 3), hyper_mixing(m, hc, hidden, 3)].concat();
    let layer = |i: usize, ratio: u64, hash: bool| -> Result<LayerGroup> {
        let mut g = LayerGroup::new(1, Mixer::Compressed(attention(i, ratio)?), Ffn::Moe(moe(hash)), 2);
        g.extras = hyper.clone();
        if hash {
            g.extras.push(mixing(Role::HashTable, vocab, z.top_k));
        }
        Ok(g)
    };
    let mut stack = Stack { groups: Vec::new() };
    for (i, &ratio) in ratios.iter().take(layers as usize).enumerate() {
        stack.push(layer(i, ratio, (i as u64) < hash_layers)?);
    }
    let head = |hc: u64| hyper_mixing(hc, hc, hidden, 1).to_vec();
    let mut a = Architecture::new("deepseek_v4", vocab, hidden, stack.groups);
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(false);
    a.max_context = cfg.count_or("max_position_embeddings", 1_048_576)?;
    a.extras = head(hc);
    let mtp = cfg.count_or("num_nextn_predict_layers", 0)?;
    if mtp > 0 {
        let n = layers as usize;
        let ratio = ratios.get(n).copied().unwrap_or(0);
        a.mtp = Some(Mtp {
            modules: mtp,
            own_embeddings: false,
            layer: Some(alloc::boxed::Box::new(layer(n, ratio, false)?)),
            extras: head(hc),
            bare: false,
            shared: Vec::new(),
            layers: Vec::new(),
        });
    }
    Ok(a)
}

/// DeepSeek V4.1 (vLLM 0.34's `deepseek_v41`, its config's `text_config`): V4's attention with
/// `compress_ratios` of 0 (window only), 1 or 2, the compression shared — only the
/// `kv_source_layer_ids` compress, and every later layer up to the next source reads their rows;
/// only the `index_source_layer_ids` score rows, the KV sources among them also projecting the
/// indexer's keys (see [`crate::model::csa`]). Every layer is a mixture of experts routed by
/// scores with a correction bias (no hash layers), with a second bias for image tokens
/// (`bias_vl`) when the checkpoint has a vision tower; `hc_mult` residual streams mixed as in V4,
/// with no hyper-connection head (the last layer's mix collapses them). The Engram layers
/// (`engram_layer_ids`) add an n-gram table of `engram_num_embeddings[i]` rows of
/// `engram_head_dim` values, its key/value projection (`(hc + 1)·hidden` rows reading one row per
/// n-gram order and head) and per-stream query and key weights. The DSpark drafter
/// (`num_nextn_predict_layers` window-only layers of `dspark_n_routed_experts` experts, a
/// projection of the `dspark_target_layer_ids` hidden states, a Markov head of
/// `dspark_markov_rank`) is stored as the MTP modules and loaded only when drafting.
fn read_deepseek_v41(cfg: &Cfg<'_>) -> Result<Architecture> {
    let z = V4Sizes::read(cfg)?;
    let (hidden, vocab, layers, experts, top_k, hc) = (z.hidden, z.vocab, z.layers, z.experts, z.top_k, z.hc);
    let missing = |key: &str| {
        Error::parse(FORMAT, format!("`{key}` is missing: DeepSeek V4.1 names each layer's part in it"))
    };
    let ratios = cfg.indices("compress_ratios")?.ok_or_else(|| missing("compress_ratios"))?;
    if (ratios.len() as u64) < layers {
        return Err(Error::parse(
            FORMAT,
            format!("`compress_ratios` lists {} entries for {layers} layers", ratios.len()),
        ));
    }
    let kv_sources = cfg.indices("kv_source_layer_ids")?.ok_or_else(|| missing("kv_source_layer_ids"))?;
    let index_sources =
        cfg.indices("index_source_layer_ids")?.ok_or_else(|| missing("index_source_layer_ids"))?;
    let engram = cfg.indices("engram_layer_ids")?.unwrap_or_default();
    let rows = cfg.indices("engram_num_embeddings")?.unwrap_or_default();
    if rows.len() != engram.len() {
        return Err(Error::parse(
            FORMAT,
            format!(
                "`engram_num_embeddings` lists {} tables for {} `engram_layer_ids`",
                rows.len(),
                engram.len()
            ),
        ));
    }
    for (key, ids) in [
        ("kv_source_layer_ids", &kv_sources),
        ("index_source_layer_ids", &index_sources),
        ("engram_layer_ids", &engram),
    ] {
        if let Some(bad) = ids.iter().find(|&&l| l >= layers) {
            return Err(Error::parse(FORMAT, format!("`{key}` names layer {bad} of {layers}")));
        }
    }
    // A compressed layer reads the latest source at or below it (vLLM refuses one without).
    let first_source = kv_sources.iter().copied().min();
    let indexer = V4Sizes::indexer(cfg)?;
    let attention = |i: usize, ratio: u64| -> Result<CompressedAttention> {
        if ratio > 2 {
            return Err(Error::parse(
                FORMAT,
                format!(
                    "`compress_ratios[{i}]` is {ratio}: DeepSeek V4.1 layers compress by 0 (window only), 1 or 2"
                ),
            ));
        }
        let l = i as u64;
        if ratio > 0 && first_source.is_none_or(|f| f > l) {
            return Err(Error::parse(
                FORMAT,
                format!("layer {i} compresses but no `kv_source_layer_ids` entry is at or below it"),
            ));
        }
        let kv_source = kv_sources.contains(&l);
        let index_query = index_sources.contains(&l);
        Ok(CompressedAttention {
            indexer: (ratio > 0 || index_query).then(|| indexer.clone()),
            shares: Some(crate::model::Shares {
                kv_source,
                index_query,
                index_key: index_query && kv_source,
            }),
            ..z.attention(cfg, ratio)?
        })
    };
    let vision = cfg
        .outer
        .get("vision_config")
        .and_then(|v| v.get("num_hidden_layers"))
        .and_then(Value::as_u64)
        .is_some_and(|n| n > 0);
    let moe = |n: u64, k: u64| z.moe(n, k, false);
    let hyper = z.hyper();
    // The image tokens' routing bias beside the correction bias (FP32, one per expert).
    let bias_vl = |n: u64| Extra { role: Role::Fp32, rows: 1, cols: n };
    let ngram_heads = cfg.count_or("engram_n_heads", 8)?;
    let orders = cfg.count_or("engram_max_ngram_size", 4)?.saturating_sub(1);
    let engram_dim = cfg.count_or("engram_head_dim", 256)?;
    let mut stack = Stack { groups: Vec::new() };
    for (i, &ratio) in ratios.iter().take(layers as usize).enumerate() {
        let mut g =
            LayerGroup::new(1, Mixer::Compressed(attention(i, ratio)?), Ffn::Moe(moe(experts, top_k)), 2);
        g.extras = hyper.clone();
        if vision {
            g.extras.push(bias_vl(experts));
        }
        if let Some(t) = engram.iter().position(|&l| l == i as u64) {
            g.extras.push(Extra { role: Role::ExtraEmbd, rows: rows[t], cols: engram_dim });
            g.extras.push(Extra {
                role: Role::Extra,
                rows: hc.saturating_add(1).saturating_mul(hidden),
                cols: orders.saturating_mul(ngram_heads).saturating_mul(engram_dim),
            });
            g.extras.push(Extra { role: Role::Norm, rows: hc, cols: hidden });
            g.extras.push(Extra { role: Role::Norm, rows: hc, cols: hidden });
        }
        stack.push(g);
    }
    let mut a = Architecture::new("deepseek_v41", vocab, hidden, stack.groups);
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(false);
    a.max_context = cfg.count_or("max_position_embeddings", 1_048_576)?;
    let drafts = cfg.count_or("num_nextn_predict_layers", 0)?;
    if drafts > 0 {
        // DSpark's stages: window-only layers of their own experts; the first stage projects the
        // target layers' hidden states (and norms them), the last carries the final norm, the
        // Markov head (an embedding and a head of `dspark_markov_rank`) and the confidence head.
        let n = layers as usize;
        let layer = LayerGroup::new(
            1,
            Mixer::Compressed(CompressedAttention { ratio: 0, indexer: None, ..attention(n, 0)? }),
            Ffn::Moe(moe(
                cfg.count_or("dspark_n_routed_experts", experts)?,
                cfg.count_or("dspark_num_experts_per_tok", top_k)?,
            )),
            2,
        );
        let mut extras = hyper.clone();
        if vision {
            extras.push(bias_vl(cfg.count_or("dspark_n_routed_experts", experts)?));
        }
        let targets = cfg.indices("dspark_target_layer_ids")?.map_or(1, |t| t.len() as u64).max(1);
        let rank = cfg.count_or("dspark_markov_rank", 256)?;
        a.mtp = Some(Mtp {
            modules: drafts,
            own_embeddings: false,
            layer: Some(alloc::boxed::Box::new(layer)),
            extras,
            bare: true,
            shared: vec![
                Extra { role: Role::MtpProj, rows: hidden, cols: hidden.saturating_mul(targets) },
                Extra { role: Role::Norm, rows: 1, cols: hidden },
                Extra { role: Role::Norm, rows: 1, cols: hidden },
                Extra { role: Role::ExtraEmbd, rows: vocab, cols: rank },
                Extra { role: Role::ExtraEmbd, rows: vocab, cols: rank },
                Extra { role: Role::ExtraEmbd, rows: 1, cols: hidden.saturating_add(rank) },
            ],
            layers: Vec::new(),
        });
    }
    Ok(a)
}

/// Qwen4-Exp (Qwen3.8-Flash-Next; transformers 5.24 `Qwen4ExpTextConfig`, vLLM 0.34's
/// `models/qwen4_exp`): Qwen3.5-MoE's layers — Gated DeltaNet on the `linear_attention` layers,
/// gated attention with per-head q/k norms on every `full_attention_interval`-th, a MoE of
/// `num_experts` with a gated shared expert — with no layer norms and no final norm: the residual
/// stream is `hc_count` streams wide, and two gated residual mixes a layer (`GatedResidual`: a
/// norm of the `hc·hidden` streams, a rank-`hc_lowrank` projection down with `hc_count` inject
/// rows, and back up; replicated under vLLM's tensor parallelism) take their place, one more
/// (without inject) before the head. Its attention layers are QSA (`indexer_n_heads` set): a
/// lightning indexer whose queries and key come from one projection `(n_ix + 1)·d_ix` rows with
/// two norms, and whose key it caches once per `indexer_compress_ratio` tokens. The PLE layers
/// (`ple_layer_ids`, counted from 1) add an n-gram table — `(ngram_size − 1)·heads_per_ngram`
/// heads of `ple_embed_dim / heads` values, each head's rows the next prime above
/// `ngram_vocab_size_base`, the total rounded up to `make_ngram_vocab_size_divisible_by` — its key
/// and value projections, three norms, a depthwise convolution and its 35 int64 hash buffers. The
/// MTP layer (`mtp_num_hidden_layers`) is a QSA layer with its two projections of the embedding
/// and the hidden state and their norms, and its own mix.
fn read_qwen4_exp(cfg: &Cfg<'_>, notices: &mut Vec<Msg>) -> Result<Architecture> {
    let mut a = read_decoder(cfg, "qwen3_5_moe", notices)?;
    let h = a.hidden_size;
    let hc = cfg.count_or("hc_count", 4)?.max(1);
    let rank = cfg.count_or("hc_lowrank", 320)?;
    let wide = hc.saturating_mul(h);
    let replicated = |rows: u64, cols: u64| Extra { role: Role::MoeLatent, rows, cols };
    let norm = |cols: u64| Extra { role: Role::Norm, rows: 1, cols };
    let mix = |inject: bool| {
        let mut m = vec![norm(wide), replicated(rank, wide)];
        if inject {
            m.push(replicated(hc, wide));
        }
        m.push(replicated(wide, rank));
        m
    };
    let layer_mix = [mix(true), mix(true)].concat();
    // QSA: the indexer's fused query/key projection and its two norms; its key cached once per
    // `indexer_compress_ratio` tokens.
    let indexer = match cfg.count("indexer_n_heads")? {
        Some(n) if n > 0 => {
            let d = cfg.count_or("indexer_head_dim", 128)?;
            let ratio = cfg.count_or("indexer_compress_ratio", 4)?.max(1);
            if cfg.count_or("indexer_kv_heads", 1)? != 1 {
                return Err(Error::parse(
                    FORMAT,
                    "`indexer_kv_heads` must be 1 (Qwen4-Exp's indexer has one key head)",
                ));
            }
            Some((n, d, ratio))
        }
        _ => None,
    };
    let ple = cfg.indices("ple_layer_ids")?.unwrap_or_default();
    let ple_dim = cfg.count_or("ple_embed_dim", h)?;
    let ngram_heads =
        cfg.count_or("ngram_size", 3)?.saturating_sub(1).saturating_mul(cfg.count_or("heads_per_ngram", 8)?);
    if !ple.is_empty() && (ngram_heads == 0 || !ple_dim.is_multiple_of(ngram_heads)) {
        return Err(Error::parse(
            FORMAT,
            "`ple_embed_dim` must be a multiple of (`ngram_size` − 1) × `heads_per_ngram`",
        ));
    }
    let base = cfg.count_or("ngram_vocab_size_base", 20_000_000)?;
    let divisible = cfg.count_or("make_ngram_vocab_size_divisible_by", 128)?.max(1);
    // The primes are found by trial division: sizes beyond any checkpoint's are refused.
    if !ple.is_empty() && (base > 1_000_000_000 || ngram_heads > 256 || ple.len() > 8 || divisible > 1 << 20)
    {
        return Err(Error::parse(
            FORMAT,
            "the n-gram tables' `ngram_vocab_size_base`, heads, layers or rounding are beyond any checkpoint's (at most 10⁹, 256 heads, 8 layers)",
        ));
    }
    let layers = a.num_layers();
    let mut stack = Stack::default();
    let mut index = 0u64;
    let mut dense = 0u64;
    for g in core::mem::take(&mut a.groups) {
        for _ in 0..g.count {
            let mut one = LayerGroup { count: 1, norms: 0, ..g.clone() };
            one.extras = layer_mix.clone();
            let linear = one.mixers.iter().any(|m| matches!(m, Mixer::GatedDeltaNet(_)));
            if let (Some((n, d, ratio)), false) = (indexer, linear) {
                for m in &mut one.mixers {
                    if let Mixer::Attention(at) = m {
                        at.index_key = d / ratio;
                    }
                }
                one.extras.push(Extra {
                    role: Role::IdxQ,
                    rows: n.saturating_add(1).saturating_mul(d),
                    cols: h,
                });
                one.extras.push(norm(d));
                one.extras.push(norm(d));
            }
            if ple.contains(&(index + 1)) {
                if !linear {
                    return Err(Error::parse(
                        FORMAT,
                        format!("`ple_layer_ids` names layer {} , not a linear-attention layer", index + 1),
                    ));
                }
                let rows = ngram_rows(base, ngram_heads, dense).next_multiple_of(divisible);
                dense += 1;
                one.extras.push(Extra { role: Role::ExtraEmbd, rows, cols: ple_dim / ngram_heads });
                one.extras.push(replicated(wide, ple_dim));
                one.extras.push(replicated(h, ple_dim));
                one.extras.extend([norm(wide), norm(wide), norm(wide)]);
                one.extras.push(Extra {
                    role: Role::MixConv,
                    rows: wide,
                    cols: cfg.count_or("ple_conv_kernel_size", 4)?,
                });
                // The layer multipliers and each head's vocabulary size and offset (int64).
                let ngram = cfg.count_or("ngram_size", 3)?;
                one.extras.push(Extra { role: Role::HashTable, rows: 1, cols: ngram + 2 * ngram_heads });
            }
            stack.push(one);
            index += 1;
        }
    }
    if let Some(bad) = ple.iter().find(|&&l| l == 0 || l > layers) {
        return Err(Error::parse(
            FORMAT,
            format!("`ple_layer_ids` names layer {bad} of {layers} (counted from 1)"),
        ));
    }
    a.groups = stack.groups;
    a.family = "qwen4_exp".into();
    a.norm = NormKind::NoParams;
    a.extras = mix(false);
    // vLLM builds the head whatever the config says.
    a.tie_word_embeddings = false;
    let mtp = cfg.count_any(&["mtp_num_hidden_layers", "num_nextn_predict_layers"])?.unwrap_or(0);
    a.mtp = None;
    if mtp > 0 {
        let last = a
            .groups
            .iter()
            .rev()
            .find(|g| g.mixers.iter().any(|m| matches!(m, Mixer::Attention(_))))
            .cloned();
        let Some(layer) = last else {
            return Err(Error::parse(
                FORMAT,
                "Qwen4-Exp's MTP layer copies an attention layer, and none is listed",
            ));
        };
        let layer = LayerGroup { count: 1, extras: Vec::new(), ..layer };
        let mut extras = layer_mix.clone();
        if let Some((n, d, _)) = indexer {
            extras.push(Extra { role: Role::IdxQ, rows: n.saturating_add(1).saturating_mul(d), cols: h });
            extras.extend([norm(d), norm(d)]);
        }
        extras.extend([
            Extra { role: Role::MtpProj, rows: h, cols: h },
            Extra { role: Role::MtpProj, rows: h, cols: h },
            norm(h),
            norm(wide),
        ]);
        // Its own mix before the head, stored without inject rows (the published parameter count).
        extras.extend(mix(false));
        a.mtp = Some(Mtp {
            modules: mtp,
            own_embeddings: false,
            layer: Some(alloc::boxed::Box::new(layer)),
            extras,
            bare: true,
            shared: Vec::new(),
            layers: Vec::new(),
        });
    }
    Ok(a)
}

/// Rows of a Qwen4-Exp n-gram table: each of its `heads` heads as many as the next prime above
/// `base` (the `dense`-th PLE layer's heads after the earlier layers'), summed.
fn ngram_rows(base: u64, heads: u64, dense: u64) -> u64 {
    let is_prime = |n: u64| n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d));
    let mut n = base.saturating_sub(1);
    let mut skip = dense.saturating_mul(heads);
    let mut sum = 0u64;
    let mut taken = 0u64;
    while taken < heads {
        n += 1;
        if !is_prime(n) {
            continue;
        }
        if skip > 0 {
            skip -= 1;
            continue;
        }
        sum = sum.saturating_add(n);
        taken += 1;
    }
    sum
}

/// StarCoder2: biases everywhere (`use_bias`), a plain MLP, LayerNorms, a sliding window.
fn read_starcoder2(cfg: &Cfg<'_>) -> Result<Architecture> {
    let c = read_common(cfg, "starcoder2")?;
    let bias = cfg.flag("use_bias").unwrap_or(true);
    let span = match cfg.count("sliding_window")?.filter(|w| *w > 0) {
        Some(w) => Span::Sliding { window: w },
        None => Span::Full,
    };
    let att = Attention { qkv_bias: bias, o_bias: bias, span, ..Attention::gqa(c.heads, c.kv, c.head_dim) };
    let mut a = Architecture::new(
        "starcoder2",
        c.vocab,
        c.hidden,
        uniform(c.layers, Mixer::Attention(att), Ffn::Dense(Mlp::plain(c.inter, bias)), 2),
    );
    a.norm = NormKind::LayerNorm;
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(true);
    a.max_context = c.max_context;
    Ok(a)
}

/// Llama-Nemotron Super and Ultra (`nemotron-nas`, `DeciLMForCausalLM`): a Llama whose every layer
/// has its own shape from `block_configs` — attention with `num_attention_heads /
/// n_heads_in_group` key/value heads, or none (`no_op`, and no norm before it), or one `h × h`
/// linear (`replace_with_linear`); an MLP of `ffn_mult`, or none, or one linear. The MLP's width
/// is `2 · ffn_mult · h / 3` rounded up to a multiple of 256, as NVIDIA's `modeling_decilm.py`
/// and vLLM's `nemotron_nas.py` compute it.
fn read_decilm(cfg: &Cfg<'_>) -> Result<Architecture> {
    let vocab = cfg.required(&["vocab_size"])?;
    let hidden = cfg.required(&["hidden_size"])?;
    let heads = cfg.required(&["num_attention_heads"])?.max(1);
    let head_dim = cfg.count("head_dim")?.unwrap_or(hidden / heads);
    let blocks = cfg
        .raw("block_configs")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::parse(FORMAT, "`block_configs` (one entry per layer) is missing"))?;
    let layers = cfg.count("num_hidden_layers")?.unwrap_or(blocks.len() as u64);
    if blocks.len() as u64 != layers || layers > MAX_LAYERS {
        return Err(Error::parse(
            FORMAT,
            format!("`block_configs` lists {} layers but the model has {layers}", blocks.len()),
        ));
    }
    let bad = |i: usize, why: &str| Error::parse(FORMAT, format!("`block_configs[{i}]`: {why}"));
    let mut stack = Stack::default();
    for (i, b) in blocks.iter().enumerate() {
        let part = |k: &str| b.get(k).filter(|v| v.as_object().is_some());
        let (Some(att), Some(ffn)) = (part("attention"), part("ffn")) else {
            return Err(bad(i, "needs an `attention` and an `ffn` object"));
        };
        let on = |v: &Value, k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(false);
        let mut group = LayerGroup {
            count: 1,
            mixers: Vec::new(),
            ffn: Ffn::None,
            norms: 0,
            extras: Vec::new(),
            tied: false,
            own: None,
        };
        if !on(att, "no_op") {
            group.norms += 1;
            if on(att, "replace_with_linear") {
                group.extras.push(Extra { role: Role::Extra, rows: hidden, cols: hidden });
            } else {
                let per = att
                    .get("n_heads_in_group")
                    .and_then(Value::as_u64)
                    .filter(|g| *g > 0 && heads % g == 0)
                    .ok_or_else(|| bad(i, "`attention.n_heads_in_group` must divide the heads"))?;
                group.mixers.push(Mixer::Attention(Attention::gqa(heads, heads / per, head_dim)));
            }
        }
        if !on(ffn, "no_op") {
            group.norms += 1;
            if on(ffn, "replace_with_linear") {
                group.extras.push(Extra { role: Role::Extra, rows: hidden, cols: hidden });
            } else {
                let mult = ffn
                    .get("ffn_mult")
                    .and_then(Value::as_f64)
                    .filter(|m| m.is_finite() && *m > 0.0 && *m < 1000.0)
                    .ok_or_else(|| bad(i, "`ffn.ffn_mult` must be a positive number"))?;
                let width = ((2.0 * mult * hidden as f64 / 3.0) as u64).div_ceil(256).saturating_mul(256);
                group.ffn = Ffn::Dense(Mlp::gated(width));
            }
        }
        stack.push(group);
    }
    let mut a = Architecture::new("nemotron-nas", vocab, hidden, stack.groups);
    a.tie_word_embeddings = cfg.flag("tie_word_embeddings").unwrap_or(false);
    a.max_context = cfg.count_or("max_position_embeddings", 131072)?;
    Ok(a)
}

/// The checkpoint's own format: `quantization_config` first, else `torch_dtype` (or `dtype`).
/// The checkpoint's format: its `quantization_config` read tensor by tensor (the plan goes on the
/// architecture), else its `torch_dtype`.
fn read_format(
    root: &Value,
    cfg: &Cfg<'_>,
    architecture: &mut Architecture,
    notices: &mut Vec<Msg>,
) -> Option<WeightFormat> {
    // The outer config's dtype first, as loaders read it (vLLM's `_find_dtype` falls back to the
    // text config's only when the root has none): transformers 4.5x saved Qwen2.5-VL's text
    // config with `float32` under a `bfloat16` root.
    fn of(v: &Value) -> Option<&Value> {
        v.get("torch_dtype").or_else(|| v.get("dtype")).filter(|d| !d.is_null())
    }
    let dtype = of(root).or_else(|| of(cfg.main)).and_then(Value::as_str).and_then(|d| match d {
        "bfloat16" => Some(WeightFormat::Bf16),
        "float16" | "half" => Some(WeightFormat::F16),
        "float32" | "float" => Some(WeightFormat::F32),
        _ => None,
    });
    if let Some(q) = root.get("quantization_config").or_else(|| cfg.main.get("quantization_config")) {
        let base = dtype.unwrap_or(WeightFormat::Bf16);
        let read = super::quant_config::read(q, base);
        notices.extend(read.notices);
        if let Some(mut plan) = read.plan {
            let v41 = architecture.family == "deepseek_v41";
            if (architecture.family == "deepseek_v4" || v41) && plan.method == "fp8" {
                // SGLang's FP8 conversions of DeepSeek V4 (`model_type` `deepseek_ref`, the
                // "-FP8" repositories for GPUs without FP4 units) store the experts in the same
                // block FP8 as the rest and name no `expert_dtype`; vLLM's FP4 default is for
                // DeepSeek's own checkpoints.
                let conversion = root.get("model_type").and_then(Value::as_str) == Some("deepseek_ref");
                let expert_dtype = root
                    .get("expert_dtype")
                    .or_else(|| q.get("expert_dtype"))
                    .and_then(Value::as_str)
                    .or(conversion.then_some("fp8"));
                if let Err(why) = super::quant_config::deepseek_v4(&mut plan, expert_dtype, v41) {
                    notices.push(Msg::new(
                        MsgId::NoticeQuantInvalid,
                        vec![
                            Arg::Text(plan.method.clone()),
                            Arg::Text(why),
                            Arg::Text(WeightFormat::Fp8.label()),
                        ],
                    ));
                    return Some(WeightFormat::Fp8);
                }
            }
            super::quant_config::settle(&mut plan, architecture);
            // A rule that decides no tensor: its targets name modules this model does not have,
            // or names Headroom does not give them; what it quantizes may be priced wrong.
            if let Ok(hit) = crate::quant::rules_hit(architecture, &plan) {
                for (rule, _) in plan.rules.iter().zip(&hit).filter(|(_, h)| !**h) {
                    let first = rule.targets.first();
                    notices.push(Msg::new(
                        MsgId::NoticeQuantUnmatched,
                        vec![
                            Arg::Text(
                                first.map_or_else(|| "quantization_config".into(), |m| m.field.clone()),
                            ),
                            Arg::Text(first.map_or_else(String::new, |m| m.text.clone())),
                            Arg::Text(rule.format.label()),
                        ],
                    ));
                }
                // A rule that finds some modules but not every one it lists by name.
                if let Ok(missed) = crate::quant::targets_missed(architecture, &plan) {
                    for ((rule, _), m) in plan.rules.iter().zip(&hit).zip(missed).filter(|((_, h), _)| **h) {
                        let Some((first, count)) = m else { continue };
                        let Some(t) = rule.targets.get(first) else { continue };
                        notices.push(Msg::new(
                            MsgId::NoticeQuantEntriesUnmatched,
                            vec![
                                Arg::Text(t.field.clone()),
                                Arg::Text(t.text.clone()),
                                Arg::Int(count as u64),
                                Arg::Text(rule.format.label()),
                            ],
                        ));
                    }
                }
            }
            let headline = plan.headline;
            architecture.quant = Some(plan);
            return Some(headline);
        }
        if read.fallback.is_some() {
            return read.fallback;
        }
    }
    dtype
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<HfModel> {
        parse_config(text.as_bytes())
    }

    const LLAMA: &str = r#""hidden_size": 256, "intermediate_size": 512, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000"#;

    /// The root's dtype is the checkpoint's (transformers 4.5x saved Qwen2.5-VL's text config
    /// with `float32` under a `bfloat16` root); a text config's applies only without one, and
    /// a text config that only names its class is read with the class's defaults.
    #[test]
    fn the_roots_dtype_wins_and_a_bare_text_config_takes_its_class_defaults() {
        let m = read(&format!(
            r#"{{"model_type": "x_vl", "torch_dtype": "bfloat16", "text_config": {{"model_type": "llama", "torch_dtype": "float32", {LLAMA}}}}}"#
        ))
        .unwrap();
        assert_eq!(m.format, Some(WeightFormat::Bf16));
        let m = read(&format!(r#"{{"model_type": "x_vl", "text_config": {{"model_type": "llama", "dtype": "float16", {LLAMA}}}}}"#))
            .unwrap();
        assert_eq!(m.format, Some(WeightFormat::F16));
        // Qwen2-Audio's text config names qwen2 and little else: Qwen2Config's 4096-wide defaults.
        let m = read(
            r#"{"model_type": "qwen2_audio", "text_config": {"model_type": "qwen2", "vocab_size": 156032}}"#,
        )
        .unwrap();
        assert_eq!((m.architecture.hidden_size, m.architecture.num_layers()), (4096, 32));
    }

    /// ERNIE 4.5 VL's hub config (the keys vLLM's `ernie45_vl_moe.py` and `ernie45_vl.py` read,
    /// at ERNIE-4.5-VL-28B-A3B's sizes): `[text, vision]` pairs, the vision experts counted in
    /// the total but not in what a text token uses, the ViT and its resampler as the encoder;
    /// a layer giving experts to one modality only, or a malformed pair, is refused by name.
    #[test]
    fn ernie_vl_reads_its_two_expert_sets() {
        const KEYS: &str = r#""hidden_size": 2560, "intermediate_size": 12288, "num_hidden_layers": 28,
            "num_attention_heads": 20, "num_key_value_heads": 4, "vocab_size": 103424,
            "tie_word_embeddings": true, "moe_num_shared_experts": 2, "moe_k": 6,
            "moe_layer_interval": 1, "moe_num_experts": [64, 64], "moe_intermediate_size": [1536, 512]"#;
        let vl = |extra: &str| {
            read(&format!(
                r#"{{"model_type": "ernie4_5_moe_vl", "pixel_hidden_size": 1280, "spatial_conv_size": 2,
                "temporal_conv_size": 2, "use_temporal_conv": true, {KEYS}{extra},
                "vision_config": {{"depth": 32, "embed_dim": 1280, "hidden_size": 1280, "mlp_ratio": 4,
                "num_heads": 16, "patch_size": 14, "in_channels": 3, "spatial_merge_size": 2}}}}"#
            ))
        };
        let m = vl(r#", "moe_layer_start_index": [1, 1], "moe_layer_end_index": [29, 28]"#).unwrap();
        let a = &m.architecture;
        // transformers 5.24 builds 28,624,635,776 in its language model from the same sizes.
        assert_eq!(a.params_total().unwrap().get(), 28_624_635_776);
        // Without the vision experts: ERNIE 4.5's MoE with the text pair's values.
        let text = read(&format!(
            r#"{{"model_type": "ernie4_5_moe", {}, "moe_num_experts": 64, "moe_intermediate_size": 1536,
            "moe_layer_start_index": 1}}"#,
            KEYS.split(r#", "moe_num_experts""#).next().unwrap()
        ))
        .unwrap();
        let vision = 27 * (64 * 3 * 2560 * 512 + 64 * 2560 + 64);
        assert_eq!(text.architecture.params_total().unwrap().get() + vision, 28_624_635_776);
        assert_eq!(a.params_active().unwrap(), text.architecture.params_active().unwrap());
        assert!(a.summary().contains("+ 64 for image tokens"), "{}", a.summary());
        // A text token reads 6 of the 64 text experts: three quarters of the experts' weights
        // are text experts (1,536 against 512 wide).
        assert_eq!(a.moe().unwrap().first_set_share(2560), 0.75);
        // The ViT (630,433,280) and the resampler (144,225,280), as transformers builds them.
        assert_eq!(a.encoders.len(), 1);
        assert_eq!(a.encoders[0].params(), 774_658_560);
        // Every other layer from the second with `moe_layer_interval` 2.
        let m = vl(r#", "moe_layer_interval": 2"#).unwrap();
        let moe_layers: u64 =
            m.architecture.groups.iter().filter(|g| matches!(g.ffn, Ffn::Moe(_))).map(|g| g.count).sum();
        assert_eq!(moe_layers, 14);
        // Layer 1 would send only text tokens to experts.
        let e = vl(r#", "moe_layer_start_index": [1, 2]"#).unwrap_err().to_string();
        assert!(e.contains("layer 1 sends only text tokens"), "{e}");
        for bad in [r#", "moe_layer_end_index": [27]"#, r#", "moe_layer_start_index": "1""#] {
            let e = vl(bad).unwrap_err().to_string();
            assert!(e.contains("must be a number or a [text, vision] pair"), "{bad}: {e}");
        }
    }

    /// Muse Glimmer (Meta; vLLM's `muse_glimmer.py`): sandwich norms, a sigmoid gate on the
    /// attention output as wide as q, scale-free q/k norms, every fourth layer full counted back
    /// from the last and the others in a 2,048-token window; its ViT, adapter and projection.
    #[test]
    fn muse_glimmer_reads_its_gated_sandwich_layers() {
        let m = read(
            r#"{"model_type": "muse_glimmer", "out_hidden_size": 6144, "projector_hidden_size": 4096,
            "text_config": {"model_type": "muse_glimmer_text", "vocab_size": 202048, "hidden_size": 6656,
            "intermediate_size": 19968, "num_hidden_layers": 52, "num_attention_heads": 32,
            "num_key_value_heads": 2, "head_dim": 128, "tie_word_embeddings": false},
            "vision_config": {"model_type": "muse_glimmer_vision"}}"#,
        )
        .unwrap();
        let a = &m.architecture;
        // transformers 5.24 builds 27,854,780,928 in the language model and head, and
        // 1,921,845,760 in the tower, its adapter and its projection.
        assert_eq!(a.params_total().unwrap().get(), 27_854_780_928);
        assert_eq!(a.encoders[0].params(), 1_921_845_760);
        assert_eq!(a.encoders[0].largest, 1792);
        // 13 full layers (51, 47, …, 3) and 39 sliding ones.
        let sliding: u64 = a
            .groups
            .iter()
            .filter(|g| {
                g.mixers
                    .iter()
                    .any(|x| matches!(x, Mixer::Attention(t) if matches!(t.span, Span::Sliding { .. })))
            })
            .map(|g| g.count)
            .sum();
        assert_eq!(sliding, 39);
        assert!(m.notices.iter().all(|n| n.id != MsgId::NoticeUnknownFamily));
    }

    /// Muse Spark Open (Meta; transformers 5.24 `MuseSparkTextModel`): experts pooled to
    /// `moe_hidden_size` with norms around them, FP32 residual gates, routers' correction biases,
    /// dense layers by `mlp_layer_types`; its audio model counted stage by stage, and stage lists
    /// that disagree said rather than guessed.
    #[test]
    fn muse_spark_reads_its_pooled_experts_and_audio() {
        let cfg = |audio: &str| {
            format!(
                r#"{{"model_type": "muse_spark", "out_hidden_size": 6144, "projector_hidden_size": 4096,
                "text_config": {{"model_type": "muse_spark_text", "vocab_size": 1000, "hidden_size": 512,
                "intermediate_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8,
                "num_key_value_heads": 2, "head_dim": 64, "moe_hidden_size": 256, "moe_intermediate_size": 128,
                "num_local_experts": 16, "num_experts_per_tok": 2,
                "mlp_layer_types": ["dense", "sparse", "sparse", "sparse"]}},
                "vision_config": {{"model_type": "muse_spark_vision"}}, "audio_config": {{{audio}}}}}"#
            )
        };
        let m = read(&cfg(r#""model_type": "muse_spark_audio""#)).unwrap();
        let a = &m.architecture;
        let (h, mh, e) = (512u64, 256u64, 16u64);
        let attention = 512 * 512 * 3 + 2 * 128 * 512;
        let common = attention + 3 * h + 2 * h;
        let dense = common + 3 * 512 * 1024;
        let sparse = common + e * h + e + 2 * h * mh + 2 * mh + e * 3 * mh * 128;
        assert_eq!(a.params_total().unwrap().get(), 2 * 1000 * 512 + h + dense + 3 * sparse);
        // The audio model as transformers builds it at its defaults.
        let audio = a.encoders.iter().find(|x| x.modality == crate::model::Modality::Audio).unwrap();
        assert_eq!(audio.params(), 117_840_384);
        let m = read(&cfg(r#""model_type": "muse_spark_audio", "depths": [2, 2]"#)).unwrap();
        assert!(m.architecture.encoders.iter().all(|x| x.modality != crate::model::Modality::Audio));
        assert!(m.notices.iter().any(|n| n.id == MsgId::NoticeEncoderNotCounted), "{:?}", m.notices);
    }

    /// Unlimited-OCR's language model at its class defaults (transformers 5.24
    /// `UnlimitedOcrTextConfig`: 64 experts of 896, two shared, top 6, the first layer dense, plain
    /// attention whose reference window keeps every token): 2,934,734,080, read as a known
    /// family (exact), not as an inferred one.
    #[test]
    fn unlimited_ocr_reads_its_class_defaults() {
        let m =
            read(r#"{"model_type": "unlimited_ocr", "text_config": {"model_type": "unlimited_ocr_text"}}"#)
                .unwrap();
        assert_eq!(m.confidence, Confidence::Config);
        let a = &m.architecture;
        assert_eq!(a.params_total().unwrap().get(), 2_934_734_080);
        assert!(matches!(a.groups[0].ffn, Ffn::Dense(_)) && a.groups[0].count == 1);
        assert!(a.mixers().all(|(_, x)| matches!(x, Mixer::Attention(t) if t.span == Span::Full)));
    }

    /// DeepSeek-OCR's published config (`deepseek_vl_v2`, its language model in `language_config`
    /// with both query-key widths zero): DeepSeek-V2's MoE with plain multi-head attention, as
    /// vLLM's `use_mha` reads it (2,934,734,080), and its DeepEncoder — SAM ViT-B, CLIP-L with its
    /// patch conv, the linear projector and two separators (401,372,160); together the
    /// 3,336,106,240 parameters of the checkpoint's 2,710 tensors. DeepSeek-OCR-2's tower is vLLM's
    /// fixed one; a DeepSeek-VL2 SigLIP tower is said, not counted; a DeepSeek-V2 config without
    /// the zero widths keeps latent attention.
    #[test]
    fn deepseek_ocr_reads_its_language_config_and_deepencoder() {
        let m = read(include_str!("../../../../tests/fixtures/configs/deepseek-ocr.json")).unwrap();
        assert_eq!(m.confidence, Confidence::Config);
        let a = &m.architecture;
        assert_eq!(a.params_total().unwrap().get(), 2_934_734_080);
        assert!(a.mixers().all(|(_, x)| matches!(x, Mixer::Attention(t)
            if t.num_kv_heads == 10 && t.head_dim == 128 && !t.qkv_bias && !t.o_bias)));
        assert_eq!(a.encoders.len(), 1);
        let e = &a.encoders[0];
        assert_eq!(e.params(), 401_372_160);
        assert_eq!(a.params_total().unwrap().get() + e.params(), 3_336_106_240);
        // vLLM's DeepSeek-OCR processor: six tiles at most, so a 3,000-pixel page is 2 × 2 tiles.
        assert_eq!(e.tokens_per_image(3000), 16 * 17 + 20 * 21 + 1);
        let vl2 = read(
            r#"{"model_type": "deepseek_vl_v2", "vision_config": {"model_name": "siglip_so400m_patch14_384"},
            "language_config": {"hidden_size": 1280, "intermediate_size": 6848, "moe_intermediate_size": 896,
            "num_hidden_layers": 12, "num_attention_heads": 10, "num_key_value_heads": 10, "n_routed_experts": 64,
            "n_shared_experts": 2, "num_experts_per_tok": 6, "first_k_dense_replace": 1, "vocab_size": 129280,
            "qk_nope_head_dim": 0, "qk_rope_head_dim": 0, "kv_lora_rank": null, "q_lora_rank": null}}"#,
        )
        .unwrap();
        assert_eq!(vl2.architecture.params_total().unwrap().get(), 2_934_734_080);
        // DeepSeek-VL2-Tiny: vLLM's timm SigLIP so400m (428,225,600 with its pooling head), the
        // default `downsample_mlp_gelu` projector into the 1,280 text width, the newline and
        // separator — 3,370,501,440 with the text model, the "3.37B" its paper states.
        let e = &vl2.architecture.encoders[0];
        assert_eq!(e.params(), 428_225_600 + (4 * 1152 * 1280 + 1280) + (1280 * 1280 + 1280) + 2 * 1280);
        assert_eq!(vl2.architecture.params_total().unwrap().get() + e.params(), 3_370_501_440);
        // DeepSeek-OCR-2 (`DeepseekOCR2ForCausalLM`): vLLM's fixed DeepEncoder V2 — SAM ending in
        // 896 channels (94,979,328), the Qwen2 encoder without embeddings (357,898,112 as
        // transformers 5.24 builds `Qwen2Model` at its sizes, less the table), the 144 + 256
        // queries, an 896 → 1,280 projector and a separator: 454,385,280, the ~3.4 B of its
        // recipe with the text model. Views without newlines, 768 tiles of 12 × 12.
        let ocr2 = include_str!("../../../../tests/fixtures/configs/deepseek-ocr.json")
            .replace("DeepseekOCRForCausalLM", "DeepseekOCR2ForCausalLM")
            .replace(r#""input_dim": 2048"#, r#""input_dim": 896"#);
        let e2 = &read(&ocr2).unwrap().architecture.encoders[0];
        assert_eq!(e2.params(), 94_979_328 + 357_898_112 + 400 * 896 + 896 * 1280 + 1280 + 1280);
        assert_eq!(
            (e2.tokens_per_image(700), e2.tokens_per_image(1024)),
            (16 * 16 + 1, 16 * 16 + 24 * 24 + 1)
        );
        let latent = read(r#"{"model_type": "deepseek_v2", "kv_lora_rank": 512}"#).unwrap();
        assert!(latent.architecture.mixers().all(|(_, x)| matches!(x, Mixer::Mla(_))));
    }

    /// DiffusionGemma (vLLM recipe `diffusiongemma-26B-A4B-it`, "built on Gemma 4's MoE
    /// backbone"): transformers 5.24's `DiffusionGemmaConfig` over Gemma 4 26B-A4B's published text
    /// and vision configs builds 25,823,778,864 parameters and Gemma 4's 2,334 stored buffers —
    /// Gemma 4's model plus the self-conditioning MLP (`3 × 2,816 × 2,112` and a pre-norm,
    /// 17,844,992). Its canvas (256 tokens by default) is kept, and a visible notice says the speed
    /// is an autoregressive one.
    #[test]
    fn diffusion_gemma_is_gemma4_with_its_self_conditioning_mlp() {
        let g4 = include_str!("../../../../tests/fixtures/configs/gemma-4-26b-a4b.json");
        let dg = g4
            .replace(
                r#""model_type": "gemma4","#,
                r#""model_type": "diffusion_gemma", "canvas_length": 256,"#,
            )
            .replace(r#""model_type": "gemma4_text""#, r#""model_type": "diffusion_gemma_text""#);
        let (g4, dg) = (read(g4).unwrap(), read(&dg).unwrap());
        let total = |m: &HfModel| {
            m.architecture.params_total().unwrap().get()
                + m.architecture.encoders.iter().map(crate::model::Encoder::params).sum::<u64>()
        };
        assert_eq!(total(&dg), 25_823_778_864 + 2_334);
        assert_eq!(total(&dg) - total(&g4), 3 * 2816 * 2112 + 2816);
        assert_eq!((dg.architecture.canvas, g4.architecture.canvas), (256, 0));
        assert!(dg.notices.iter().any(|n| n.id == MsgId::NoticeBlockDiffusion));
        assert!(!g4.notices.iter().any(|n| n.id == MsgId::NoticeBlockDiffusion));
    }

    /// IQuest-Coder's looped 40B (vLLM's `IQuestLoopCoderForCausalLM`; its config as a public
    /// Swift port's test transcribes it: 80 layers of 5,120, `loop_num` 2, `loop_window_size` 64):
    /// its 80 layers stored once (39,007,846,400 with embeddings and head 786,432,000, the final
    /// norm and the 80 per-head gates `40 × 128 + 40`) and run twice — the second pass caching
    /// its own last 64 tokens — so a token runs 78,802,542,720 parameters.
    #[test]
    fn iquest_loopcoder_stores_its_layers_once_and_runs_them_twice() {
        const LOOP: &str = r#""architectures": ["IQuestLoopCoderForCausalLM"], "model_type": "iquestloopcoder",
            "hidden_size": 5120, "num_hidden_layers": 80, "intermediate_size": 27648, "num_attention_heads": 40,
            "rms_norm_eps": 1e-6, "vocab_size": 76800, "head_dim": 128, "num_key_value_heads": 8,
            "max_position_embeddings": 131072, "attention_bias": false, "mlp_bias": false, "rope_theta": 500000,
            "tie_word_embeddings": false"#;
        let m = read(&format!(r#"{{{LOOP}, "loop_num": 2, "loop_window_size": 64}}"#)).unwrap();
        assert_eq!(m.confidence, Confidence::Config);
        let a = &m.architecture;
        let stored = 786_432_000 + 39_007_846_400 + 5120 + 80 * (40 * 128 + 40);
        assert_eq!(a.params_total().unwrap().get(), stored);
        assert_eq!(a.reused_params().unwrap(), 39_007_846_400);
        assert_eq!((a.num_layers(), a.reused_layers()), (160, 80));
        assert!(a.summary().contains("(80 stored, 80 passes through them again)"), "{}", a.summary());
        // The first pass caches the context, the second its last 64 tokens.
        let per_layer = 2 * 8 * 128 * 2;
        assert_eq!(
            crate::inference::kv_cache_bytes(a, crate::precision::KvDtype::F16, 32_768, 1).unwrap().get(),
            80 * per_layer * 32_768 + 80 * per_layer * 64
        );
        // Without `loop_num` the class's default of two passes; a looped model never stores a pass.
        let default = read(&format!(r#"{{{LOOP}}}"#)).unwrap();
        assert_eq!(default.architecture.reused_layers(), 80);
        assert!(read(&format!(r#"{{{LOOP}, "loop_num": 17}}"#)).is_err());
        let plain = read(&format!(r#"{{{}, "loop_num": 1}}"#, LOOP)).unwrap();
        assert_eq!(plain.architecture.reused_params().unwrap(), 0);
    }

    /// transformers 5.24's own DeepSeek-OCR-2 (`deepseek_ocr2`) at DeepSeek-OCR-2's sizes (its
    /// text model DeepSeek-OCR's, its encoder vLLM's fixed Qwen2 one): transformers builds
    /// 3,223,640,960 without the head (129,280 × 1,280 more with it) — the text model, SAM
    /// 94,979,328, the encoder 357,898,112, the queries, projector and separator — the same as
    /// the hub's `deepseek_vl_v2` reading; its class default, without `mlp_layer_types` or
    /// `num_experts_per_tok`, does not build and is refused.
    #[test]
    fn transformers_deepseek_ocr2_equals_its_build() {
        let m = read(
            r#"{"model_type": "deepseek_ocr2", "tie_word_embeddings": false,
            "text_config": {"model_type": "deepseek_ocr2_text", "vocab_size": 129280, "hidden_size": 1280,
              "intermediate_size": 6848, "num_hidden_layers": 12, "num_attention_heads": 10,
              "num_key_value_heads": 10, "head_dim": 128, "n_routed_experts": 64, "n_shared_experts": 2,
              "num_experts_per_tok": 6, "moe_intermediate_size": 896, "tie_word_embeddings": false,
              "mlp_layer_types": ["dense", "sparse", "sparse", "sparse", "sparse", "sparse", "sparse",
                "sparse", "sparse", "sparse", "sparse", "sparse"]},
            "vision_config": {"model_type": "deepseek_ocr2_vision",
              "sam_config": {"downsample_channels": [512, 896]},
              "encoder_config": {"hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
                "num_attention_heads": 14, "num_key_value_heads": 2}}}"#,
        )
        .unwrap();
        let a = &m.architecture;
        assert_eq!(m.confidence, Confidence::Config);
        let tower = a.encoders[0].params();
        assert_eq!(tower, 94_979_328 + 357_898_112 + 400 * 896 + 896 * 1280 + 1280 + 1280);
        assert_eq!(a.params_total().unwrap().get() + tower, 3_223_640_960 + 129_280 * 1280);
        let bare =
            read(r#"{"model_type": "deepseek_ocr2", "text_config": {"model_type": "deepseek_ocr2_text"}}"#);
        assert!(bare.unwrap_err().to_string().contains("mlp_layer_types"));
    }

    /// Zyphra's ZAYA at transformers 5.24's defaults (vLLM's `zaya.py`): 40 layers of compressed
    /// convolutional attention (its two convs, norm temperatures) and 16 top-1 experts behind an
    /// MLP router with a skip class and FP32 balancing biases (stored buffers), the residual
    /// scales — 8,840,488,784 parameters and 680 buffer values, as transformers builds it.
    #[test]
    fn zaya_reads_its_convolutional_attention_and_mlp_router() {
        let m =
            read(include_str!("../../../../tests/fixtures/configs/transformers-defaults/zaya.json")).unwrap();
        assert_eq!(m.confidence, Confidence::Config);
        let a = &m.architecture;
        assert_eq!(a.params_total().unwrap().get(), 8_840_488_784 + 40 * 17);
        let moe = a.moe().unwrap();
        assert_eq!((moe.num_experts, moe.experts_per_token, moe.router_hidden), (16, 1, 256));
        // The first layer has no previous router state to scale.
        assert_eq!(a.groups[0].count, 1);
        assert_eq!(a.layer_params(&a.groups[1]).unwrap() - a.layer_params(&a.groups[0]).unwrap(), 256);
    }

    /// NVIDIA's Dory as transformers 5.24 writes its config (attention and MLP blocks listed
    /// apart, 72 blocks): 36 layers, 8 in, 20 recurrent run twice, 8 out — 3,975,229,440 stored
    /// parameters as transformers builds them, 56 layer passes; each loop its own cache
    /// (`per_loop`) or one (`last_loop`); a list that does not pair blocks, or counts that do not
    /// add up, are refused.
    #[test]
    fn dory_pairs_its_blocks_and_loops_its_recurrent_layers() {
        let text = include_str!("../../../../tests/fixtures/configs/transformers-defaults/dory.json");
        let m = read(text).unwrap();
        let a = &m.architecture;
        assert_eq!(m.confidence, Confidence::Config);
        assert_eq!(a.params_total().unwrap().get(), 3_975_229_440);
        assert_eq!((a.num_layers(), a.reused_layers()), (56, 20));
        let caching = |a: &Architecture| {
            a.mixers()
                .filter(|(_, m)| !matches!(m.cache(a.hidden_size), crate::model::LayerCache::None))
                .map(|(n, _)| n)
                .sum::<u64>()
        };
        assert_eq!(caching(a), 56);
        let last = text
            .replace(r#""recurrent_kv_cache_mode": "per_loop""#, r#""recurrent_kv_cache_mode": "last_loop""#);
        assert_ne!(last, text);
        let one = read(&last).unwrap().architecture;
        assert_eq!((caching(&one), one.params_total().unwrap().get()), (36, 3_975_229_440));
        let three = text.replace(r#""n_recurrent_loops": 2"#, r#""n_recurrent_loops": 3"#);
        assert_eq!(read(&three).unwrap().architecture.reused_layers(), 40);
        let unpaired = text.replacen(r#""mlp""#, r#""sliding_attention""#, 1);
        assert!(read(&unpaired).unwrap_err().to_string().contains("pair"));
        let short = text.replace(r#""n_output_layers": 16"#, r#""n_output_layers": 14"#);
        assert!(read(&short).unwrap_err().to_string().contains("add up"));
        // vLLM serves it on one GPU only.
        let on = |gpus: u64| {
            crate::estimate::estimate(&crate::scenario::Scenario {
                model: crate::scenario::ModelSource::Custom(alloc::boxed::Box::new(
                    m.clone().into_custom("dory".into()),
                )),
                runtime: Some(crate::inference::Runtime::Vllm),
                gpus,
                ..crate::scenario::Scenario::default()
            })
        };
        assert!(!on(1).unwrap().warnings.iter().any(|w| w.id == MsgId::AdviceVllmOneGpu));
        assert!(on(2).unwrap().warnings.iter().any(|w| w.id == MsgId::AdviceVllmOneGpu));
    }

    /// Tencent's Hy3 and JetBrains' Mellum 2 (vLLM's recipes) at their class defaults: per-head
    /// q/k norms the generic reading cannot see, Hy3's correction biases and dense first layer —
    /// read as known families, equal to transformers 5.24 (295,033,543,488 and 12,149,923,072).
    #[test]
    fn hy3_and_mellum_read_their_class_defaults() {
        for (t, want) in [("hy_v3", 295_033_543_488u64), ("mellum", 12_149_923_072)] {
            let m = read(&format!(r#"{{"model_type": "{t}"}}"#)).unwrap();
            assert_eq!(m.confidence, Confidence::Config, "{t}");
            assert_eq!(m.architecture.params_total().unwrap().get(), want, "{t}");
        }
    }

    /// Phi-3.5-MoE (`phimoe`) as its published config sets it, biased attention and head
    /// (`attention_bias`, `lm_head_bias`), LayerNorms with biases: transformers 5.24 builds
    /// 41,873,153,344 from the class defaults with those two flags.
    #[test]
    fn phimoe_reads_its_biases_and_layernorms() {
        let m = read(r#"{"model_type": "phimoe", "attention_bias": true, "lm_head_bias": true}"#).unwrap();
        assert_eq!(m.confidence, Confidence::Config);
        assert!(m.architecture.head_bias);
        assert_eq!(m.architecture.params_total().unwrap().get(), 41_873_153_344);
    }

    /// A config that leaves keys at their class defaults reads as transformers 5.24 builds it
    /// (its `save_pretrained` writes every model key, but hand-made configs need not): the
    /// experts, routing width, shared experts and dense layers of each class.
    #[test]
    fn known_moe_families_take_their_class_defaults() {
        for (t, want) in [
            ("granitemoe", 37_039_116_288u64),
            ("granitemoeshared", 37_039_116_288),
            ("solar_open", 102_651_799_552),
            ("sarvam_moe", 32_152_650_368),
            ("flint", 39_785_287_456),
            ("muse_spark", 819_990_552_064),
            // Latent attention by class, with its widths.
            ("axk1", 518_983_063_808),
            ("mistral4", 118_972_826_624),
            // Gated, sandwich-normed attention over a 512-token window, three dense layers first.
            ("beam", 501_267_612_352),
            // MiniCPM3's and Youtu's latent attention by class.
            ("minicpm3", 4_073_875_968),
            ("youtu", 1_961_560_064),
        ] {
            let m = read(&format!(r#"{{"model_type": "{t}"}}"#)).unwrap();
            assert_eq!(m.architecture.params_total().unwrap().get(), want, "{t}");
        }
    }

    /// Qwen2.5-Omni: the thinker's Qwen2 text model (its `text_config`, or its own keys), its head
    /// tied by the thinker's flag (false unless said) whatever the text config says, both encoders
    /// counted, and the talker and token2wav counted apart (`speech_output`).
    #[test]
    fn qwen2_5_omni_reads_its_thinker() {
        const QWEN2_7B: &str = r#""hidden_size": 3584, "intermediate_size": 18944, "num_hidden_layers": 28,
            "num_attention_heads": 28, "num_key_value_heads": 4, "vocab_size": 152064"#;
        let m = read(&format!(
            r#"{{"model_type": "qwen2_5_omni", "talker_config": {{}}, "thinker_config": {{
                "text_config": {{"model_type": "qwen2_5_omni_text", "tie_word_embeddings": true, {QWEN2_7B}}},
                "vision_config": {{"hidden_size": 1280}}, "audio_config": {{}}}}}}"#
        ))
        .unwrap();
        let a = &m.architecture;
        assert_eq!((a.family.as_str(), m.confidence), ("qwen2", Confidence::Config));
        // Qwen2.5-7B's 7,615,616,512 with its own head, as transformers builds the thinker.
        assert!(!a.tie_word_embeddings);
        assert_eq!(a.params_total().unwrap().get(), 7_615_616_512);
        let counted: Vec<u64> = a.encoders.iter().map(crate::model::Encoder::params).collect();
        assert_eq!(counted, [676_550_144, 639_647_232]);
        assert!(m.notices.iter().any(|n| n.id == MsgId::NoticeSpeechOutputCounted));
        let speech = a.speech_output.as_ref().unwrap();
        assert_eq!((speech.talker, speech.vocoder), (6_599_025_664, 449_051_264));
        assert!(!m.notices.iter().any(|n| n.id == MsgId::NoticeEncoderNotCounted));
        // The text model's keys in the thinker itself; a thinker that ties its head.
        let m = read(&format!(
            r#"{{"model_type": "qwen2_5_omni", "enable_audio_output": false, "talker_config": {{}},
                "thinker_config": {{"tie_word_embeddings": true, {QWEN2_7B}}}}}"#
        ))
        .unwrap();
        assert_eq!(m.architecture.params_total().unwrap().get(), 7_615_616_512 - 152_064 * 3584);
        assert!(!m.notices.iter().any(|n| n.id == MsgId::NoticeSpeechOutputNotCounted));
    }

    #[test]
    fn an_unknown_family_with_only_understood_keys_is_inferred_and_says_so() {
        let m = read(&format!(r#"{{"model_type": "brand_new", {LLAMA}}}"#)).unwrap();
        assert_eq!(m.confidence, Confidence::Inferred);
        assert!(m.notices.iter().any(|n| n.id == MsgId::NoticeUnknownFamily));
    }

    #[test]
    fn an_unknown_family_with_unread_structure_is_refused_naming_the_keys() {
        let e = read(&format!(
            r#"{{"model_type": "brand_new", {LLAMA}, "zero_expert_num": 8, "ssm_state_size": 16, "token_mixer": "x"}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("`zero_expert_num`") && e.contains("`ssm_state_size`"), "{e}");
        // The keys of a mixture of experts and of latent attention are understood in any family:
        // read, with the inferred confidence.
        let m = read(&format!(
            r#"{{"model_type": "brand_new", {LLAMA}, "n_routed_experts": 8, "num_experts_per_tok": 2,
            "moe_intermediate_size": 64, "n_shared_experts": 1, "first_k_dense_replace": 1,
            "kv_lora_rank": 32, "q_lora_rank": 64, "qk_nope_head_dim": 32, "qk_rope_head_dim": 16, "v_head_dim": 32}}"#
        ))
        .unwrap();
        assert_eq!(m.confidence, Confidence::Inferred);
        let g = &m.architecture.groups;
        assert!(
            matches!(g[0].ffn, Ffn::Dense(_))
                && matches!(&g[1].ffn, Ffn::Moe(m) if m.shared_intermediate == 64)
        );
        assert!(matches!(g[0].mixers[0], Mixer::Mla(_)));
        assert!(e.contains("safetensors") && e.contains("GGUF"), "{e}");
        // Token ids and other non-structural keys never block a read.
        assert!(read(&format!(r#"{{"model_type": "brand_new", {LLAMA}, "eod_token_id": 3}}"#)).is_ok());
    }

    #[test]
    fn hostile_configs_are_clear_errors() {
        // A million layers in a pattern string: refused before any per-layer work.
        let pattern = "M".repeat(1_000_000);
        let e = read(&format!(
            r#"{{"model_type": "nemotron_h", "hidden_size": 64, "vocab_size": 10, "num_attention_heads": 4,
            "hybrid_override_pattern": "{pattern}"}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("not a real model"), "{e}");
        // layer_types that disagree with the layer count.
        let e = read(&format!(
            r#"{{"model_type": "qwen3_next", {LLAMA}, "layer_types": ["full_attention", "linear_attention"]}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("lists 2 layers but the model has 4"), "{e}");
        // An unknown layer type.
        let e = read(&format!(
            r#"{{"model_type": "olmo3", {LLAMA}, "layer_types": ["full_attention", "x", "full_attention", "full_attention"]}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("unknown layer type `x`"), "{e}");
        // Negative and absurd sizes.
        for bad in [
            r#""linear_num_value_heads": -2"#,
            r#""linear_key_head_dim": 1e30"#,
            r#""linear_num_key_heads": 0"#,
            r#""linear_value_head_dim": 99999999999999"#,
        ] {
            let text = format!(
                r#"{{"model_type": "qwen3_next", {LLAMA}, "num_experts": 4, "num_experts_per_tok": 1, {bad}}}"#
            );
            assert!(read(&text).is_err(), "{bad}");
        }
        let e = read(r#"{"model_type": "mamba2", "hidden_size": 4294967297, "vocab_size": 10, "num_hidden_layers": 2}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a real size"), "{e}");
    }

    #[test]
    fn per_layer_mixers_come_from_the_layer_types() {
        let m = read(&format!(
            r#"{{"model_type": "qwen3_next", {LLAMA}, "num_experts": 4, "num_experts_per_tok": 1,
            "moe_intermediate_size": 64, "shared_expert_intermediate_size": 64, "head_dim": 64,
            "linear_num_key_heads": 2, "linear_num_value_heads": 4, "linear_key_head_dim": 32,
            "linear_value_head_dim": 32, "full_attention_interval": 2}}"#
        ))
        .unwrap();
        let kinds: Vec<&str> = m.architecture.layers().map(|g| g.mixers[0].label()).collect();
        assert_eq!(kinds, ["Gated DeltaNet", "attention", "Gated DeltaNet", "attention"]);
        // Two groups of alternating layers, stored run-length.
        assert_eq!(m.architecture.groups.len(), 4);
    }

    #[test]
    fn modelopt_and_compressed_tensors_formats_are_read() {
        let with = |q: &str| {
            read(&format!(r#"{{"model_type": "llama", {LLAMA}, "quantization_config": {q}}}"#)).unwrap()
        };
        assert_eq!(
            with(r#"{"quant_method": "modelopt", "quant_algo": "NVFP4", "exclude_modules": ["lm_head"]}"#)
                .format,
            Some(WeightFormat::Nvfp4)
        );
        let fp8 = with(r#"{"quant_method": "modelopt", "quant_algo": "FP8"}"#);
        assert_eq!(fp8.format, Some(WeightFormat::parse("fp8-tensor").unwrap()));
        assert!(fp8.architecture.quant.is_some(), "the plan rides on the architecture");
        let nv = with(
            r#"{"quant_method": "compressed-tensors", "format": "nvfp4-pack-quantized", "config_groups": {"group_0":
            {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16},
            "input_activations": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "dynamic": "local"}}},
            "ignore": ["lm_head"]}"#,
        );
        assert_eq!(nv.format, Some(WeightFormat::Nvfp4));
        let a16 = with(
            r#"{"quant_method": "compressed-tensors", "format": "nvfp4-pack-quantized", "config_groups": {"group_0":
            {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16}}},
            "ignore": ["lm_head"]}"#,
        );
        assert_eq!(a16.format, Some(WeightFormat::Nvfp4A16), "weights only: no input scale");
        // A compressed-tensors config without its groups: a clear notice naming the field, a
        // fallback format, never silence.
        let broken = with(r#"{"quant_method": "compressed-tensors", "format": "float-quantized"}"#);
        assert_eq!(broken.format, Some(WeightFormat::parse("fp8-channel").unwrap()));
        let n = broken.notices.iter().find(|n| n.id == MsgId::NoticeQuantInvalid).expect("a notice");
        assert!(format!("{:?}", n.args).contains("config_groups"), "{:?}", n.args);
        let odd = with(r#"{"quant_method": "modelopt", "quant_algo": "W4A8_AWQ"}"#);
        assert!(
            odd.notices.iter().any(|n| n.id == MsgId::NoticeQuantInvalid),
            "an unknown algorithm says so"
        );
        let unknown = with(r#"{"quant_method": "brand-new-quant"}"#);
        assert!(unknown.notices.iter().any(|n| n.id == MsgId::NoticeUnknownQuant));
    }

    /// ModelOpt's weight-only NVFP4 (`W4A16_NVFP4`, Qwen3.6's MLPs), and a ModelOpt export that
    /// names itself only as the producer.
    #[test]
    fn modelopt_weight_only_nvfp4_and_producer_only_configs_are_read() {
        let with = |q: &str| {
            read(&format!(r#"{{"model_type": "llama", {LLAMA}, "quantization_config": {q}}}"#)).unwrap()
        };
        let mixed = with(
            r#"{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {
            "model.layers.0.mlp.down_proj": {"quant_algo": "W4A16_NVFP4", "group_size": 16},
            "model.layers.0.self_attn.q_proj": {"quant_algo": "FP8"}}}"#,
        );
        assert!(mixed.notices.iter().all(|n| n.id != MsgId::NoticeQuantInvalid), "{:?}", mixed.notices);
        let plan = mixed.architecture.quant.as_ref().expect("a plan");
        assert!(plan.rules.iter().any(|r| r.format == WeightFormat::Nvfp4A16), "{plan:?}");
        // An entry that names no module of the model (here a misspelt one) is said, with how
        // many such entries the rule has, while the rule's other entries still apply.
        let typo = with(
            r#"{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {
            "model.layers.0.mlp.down_proj": {"quant_algo": "FP8"},
            "model.layers.0.mlp.dwn_proj": {"quant_algo": "FP8"}}}"#,
        );
        let n = typo.notices.iter().find(|n| n.id == MsgId::NoticeQuantEntriesUnmatched).expect("said");
        assert!(
            format!("{:?}", n.args).contains("dwn_proj") && n.args.contains(&Arg::Int(1)),
            "{:?}",
            n.args
        );
        assert!(!typo.notices.iter().any(|n| n.id == MsgId::NoticeQuantUnmatched));
        let bad_group =
            with(r#"{"quant_method": "modelopt", "quant_algo": "W4A16_NVFP4", "group_size": 32}"#);
        assert!(bad_group.notices.iter().any(|n| n.id == MsgId::NoticeQuantInvalid));
        let producer = with(
            r#"{"quant_algo": "FP8", "producer": {"name": "modelopt", "version": "0.31.0"}, "ignore": ["lm_head"]}"#,
        );
        assert!(producer.notices.iter().all(|n| n.id != MsgId::NoticeUnknownQuant), "{:?}", producer.notices);
        assert!(producer.architecture.quant.is_some());
    }

    /// GLM-5.2's IndexCache: a layer marked `shared` has no indexer (no weights, no indexer key
    /// cache); the pattern, frequency and list spellings agree; a malformed list is refused.
    #[test]
    fn glm5_shared_indexer_layers_keep_no_indexer() {
        let glm = r#""model_type": "glm_moe_dsa", "hidden_size": 256, "num_hidden_layers": 8,
            "num_attention_heads": 4, "vocab_size": 1000, "n_routed_experts": 4, "num_experts_per_tok": 2,
            "moe_intermediate_size": 64, "intermediate_size": 512, "q_lora_rank": 64, "kv_lora_rank": 32,
            "index_head_dim": 32, "index_n_heads": 2, "first_k_dense_replace": 1"#;
        let own = |extra: &str| -> Vec<bool> {
            let m = read(&format!("{{{glm}{extra}}}")).unwrap();
            m.architecture
                .groups
                .iter()
                .flat_map(|g| core::iter::repeat_n(g, g.count as usize))
                .map(|g| matches!(&g.mixers[0], Mixer::Mla(m) if m.indexer.is_some()))
                .collect()
        };
        assert_eq!(own(""), vec![true; 8], "every layer indexes by default");
        // transformers' rule: full when max(i − offset + 1, 0) is a multiple of the frequency.
        let freq = own(r#", "index_topk_freq": 4, "index_skip_topk_offset": 3"#);
        assert_eq!(freq, vec![true, true, true, false, false, false, true, false]);
        let listed = own(
            r#", "indexer_types": ["full", "full", "full", "shared", "shared", "shared", "full", "shared"]"#,
        );
        assert_eq!(listed, freq);
        assert_eq!(own(r#", "index_topk_pattern": "FFFSSSFS""#), freq);
        let e =
            read(&format!(r#"{{{glm}, "indexer_types": ["full", "sometimes"]}}"#)).unwrap_err().to_string();
        assert!(e.contains("indexer_types"), "{e}");
        // Fewer indexers: fewer parameters and fewer cached bytes per token.
        let all = read(&format!("{{{glm}}}")).unwrap().architecture;
        let some = read(&format!(r#"{{{glm}, "index_topk_freq": 4, "index_skip_topk_offset": 3}}"#))
            .unwrap()
            .architecture;
        assert!(some.params_total().unwrap().get() < all.params_total().unwrap().get());
        use crate::precision::KvDtype;
        assert!(
            crate::inference::kv_bytes_per_token(&some, KvDtype::Bf16)
                < crate::inference::kv_bytes_per_token(&all, KvDtype::Bf16)
        );
    }

    /// MiMo-V2-Flash's hub config (`hybrid_layer_pattern`, `moe_layer_freq` as 0/1 lists,
    /// `swa_*` widths and sinks) reads like transformers' port; a list of the wrong length or
    /// with other values is refused naming it.
    #[test]
    fn mimo_v2_flash_hub_keys_are_read() {
        let base = r#""model_type": "mimo_v2_flash", "hidden_size": 256, "num_hidden_layers": 4,
            "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": 96, "v_head_dim": 64,
            "vocab_size": 1000, "intermediate_size": 512, "moe_intermediate_size": 64,
            "n_routed_experts": 4, "num_experts_per_tok": 2, "sliding_window": 128,
            "swa_num_attention_heads": 4, "swa_num_key_value_heads": 2, "swa_head_dim": 96, "swa_v_head_dim": 64"#;
        let m = read(&format!(
            r#"{{{base}, "hybrid_layer_pattern": [0, 1, 1, 0], "moe_layer_freq": [0, 1, 1, 1]}}"#
        ))
        .unwrap();
        let layers: Vec<&LayerGroup> =
            m.architecture.groups.iter().flat_map(|g| core::iter::repeat_n(g, g.count as usize)).collect();
        let attn = |l: &LayerGroup| match &l.mixers[0] {
            Mixer::Attention(a) => a.clone(),
            other => panic!("{other:?}"),
        };
        let (full, swa) = (attn(layers[0]), attn(layers[1]));
        assert_eq!((full.num_kv_heads, full.v_head_dim, full.sinks, full.span), (1, 64, false, Span::Full));
        assert_eq!((swa.num_kv_heads, swa.v_head_dim, swa.sinks), (2, 64, true));
        assert_eq!(swa.span, Span::Sliding { window: 128 });
        assert!(matches!(layers[0].ffn, Ffn::Dense(_)) && matches!(layers[1].ffn, Ffn::Moe(_)));
        for bad in [r#""hybrid_layer_pattern": [0, 1]"#, r#""moe_layer_freq": [0, 2, 1, 1]"#] {
            let e = read(&format!("{{{base}, {bad}}}")).unwrap_err().to_string();
            assert!(e.contains(bad.split('"').nth(1).unwrap()), "{e}");
        }
    }

    /// Llama-Nemotron's searched layers: attention with its own key/value heads, or none, or a
    /// linear; an MLP of `ffn_mult` (rounded up to 256), or none, or a linear; a norm before each
    /// block that exists. Malformed `block_configs` are refused naming the layer.
    #[test]
    fn nemotron_nas_layers_take_their_own_shapes() {
        let block = |att: &str, ffn: &str| format!(r#"{{"attention": {att}, "ffn": {ffn}}}"#);
        let full =
            block(r#"{"n_heads_in_group": 2, "no_op": false}"#, r#"{"ffn_mult": 1.5, "no_op": false}"#);
        let mlp_only = block(r#"{"no_op": true}"#, r#"{"ffn_mult": 1.0}"#);
        let linear = block(r#"{"replace_with_linear": true}"#, r#"{"no_op": true}"#);
        let cfg = |blocks: &[&str]| {
            format!(
                r#"{{"model_type": "nemotron-nas", "hidden_size": 256, "num_attention_heads": 4, "vocab_size": 1000,
                "num_hidden_layers": {}, "intermediate_size": null, "num_key_value_heads": null, "block_configs": [{}]}}"#,
                blocks.len(),
                blocks.join(",")
            )
        };
        let a = read(&cfg(&[&full, &mlp_only, &linear])).unwrap().architecture;
        let h = 256u64;
        // 2·1.5·256/3 = 256 and 2·256/3 = 170 → 256, both multiples of 256.
        let attn = h * h * 2 + 2 * h * 2 * 64;
        let want = 2 * 1000 * h + h + (attn + 3 * h * 256 + 2 * h) + (3 * h * 256 + h) + (h * h + h);
        assert_eq!(a.params_total().unwrap().get(), want);
        use crate::precision::KvDtype;
        assert_eq!(
            crate::inference::kv_bytes_per_token(&a, KvDtype::Bf16),
            2 * 2 * 64 * 2,
            "one attention layer"
        );
        for bad in [
            block(r#"{"n_heads_in_group": 3}"#, r#"{"ffn_mult": 1.0}"#),
            block(r#"{"n_heads_in_group": 2}"#, r#"{"ffn_mult": -1.0}"#),
            r#"{"attention": {}}"#.to_string(),
        ] {
            let e = read(&cfg(&[&bad])).unwrap_err().to_string();
            assert!(e.contains("block_configs[0]"), "{e}");
        }
        let e = read(&cfg(&[&full]).replace(r#""num_hidden_layers": 1"#, r#""num_hidden_layers": 2"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("block_configs"), "{e}");
    }

    /// Step-3.5-Flash's text model counts what transformers 5.24 builds (`Step3p7TextModel` on the
    /// meta device, plus its `vocab × hidden` head): the class defaults; sliding layers with 96
    /// query heads from the hub config's `attention_other_setting`; the hub's `moe_layers_enum`
    /// and per-layer lists padded with its three MTP layers. The per-head output gate is a
    /// `heads × hidden` matrix a layer.
    #[test]
    fn step35_flash_counts_what_transformers_builds() {
        let swa: Vec<&str> = (0..48)
            .map(|i| if i % 4 == 0 { "\"full_attention\"" } else { "\"sliding_attention\"" })
            .collect();
        let swa45 = swa[..45].join(",");
        let swa48 = swa.join(",");
        let enum_ = (3..45).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
        for (extra, want) in [
            (String::new(), 195_843_845_184u64),
            (
                format!(
                    r#", "layer_types": [{swa45}], "sliding_window": 512, "attention_other_setting": {{"num_attention_heads": 96}}"#
                ),
                196_955_466_816,
            ),
            (
                format!(
                    r#", "moe_layers_enum": "{enum_}", "num_nextn_predict_layers": 3, "layer_types": [{swa48}], "sliding_window": 512"#
                ),
                195_843_845_184,
            ),
        ] {
            let m = read(&format!(r#"{{"model_type": "step3p5"{extra}}}"#)).unwrap();
            assert_eq!(m.architecture.params_total().unwrap().get(), want, "{extra}");
        }
        // vLLM's `step3p5.py` reads the hub's `use_head_wise_attn_gate` (no gate without it there);
        // when it is given, it decides: a 64 × 4,096 gate a layer, or none.
        let count = |extra: &str| {
            read(&format!(r#"{{"model_type": "step3p5"{extra}}}"#))
                .unwrap()
                .architecture
                .params_total()
                .unwrap()
                .get()
        };
        assert_eq!(count(r#", "use_head_wise_attn_gate": true"#), 195_843_845_184);
        assert_eq!(count(r#", "use_head_wise_attn_gate": false"#), 195_843_845_184 - 45 * 64 * 4096);
        // The hub names the key/value heads `num_attention_groups`.
        let groups = read(r#"{"model_type": "step3p5", "num_attention_groups": 4}"#).unwrap();
        assert!(
            matches!(&groups.architecture.groups[0].mixers[0], Mixer::Attention(a) if a.num_kv_heads == 4)
        );
        let e = read(r#"{"model_type": "step3p5", "moe_layers_enum": "3,x"}"#).unwrap_err().to_string();
        assert!(e.contains("moe_layers_enum"), "{e}");
    }

    /// Poolside's Laguna: each layer's own query heads and the element-wise gate when `gating`
    /// says "per-element" — transformers 5.24 builds 33,941,018,368 parameters from the class
    /// defaults with heads alternating 64 and 48 and that gate; a list too short is refused.
    #[test]
    fn laguna_layers_take_their_own_heads() {
        let heads: Vec<String> = (0..40).map(|i| if i % 2 == 1 { "48" } else { "64" }.to_string()).collect();
        let types: Vec<&str> = (0..40)
            .map(|i| if i % 4 == 0 { "\"full_attention\"" } else { "\"sliding_attention\"" })
            .collect();
        let cfg = format!(
            r#"{{"model_type": "laguna", "gating": "per-element", "sliding_window": 512,
            "num_attention_heads_per_layer": [{}], "layer_types": [{}]}}"#,
            heads.join(","),
            types.join(",")
        );
        assert_eq!(read(&cfg).unwrap().architecture.params_total().unwrap().get(), 33_941_018_368);
        let short = cfg.replacen("[64,48,", "[", 1);
        let e = read(&short).unwrap_err().to_string();
        assert!(e.contains("num_attention_heads_per_layer"), "{e}");
    }

    /// MiniMax-M3 from its hub config (`sparse_attention_config`, the 0/1 `moe_layer_freq`): what
    /// transformers 5.24 builds from the same keys (`MiniMaxM3VLTextModel` plus its head,
    /// 426,174,572,928), and per token the 60 layers' K and V (4 heads × 128, 2,048 bytes in BF16)
    /// and the 57 sparse layers' indexer key (128 BF16 values), as vLLM 0.34's MiniMax-M3 caches
    /// them (`FullAttentionSpec` and `MiniMaxM3IndexerCache`).
    #[test]
    fn minimax_m3_counts_its_indexers_and_caches_their_keys() {
        let text = include_str!("../../../../tests/fixtures/configs/minimax-m3.json");
        let a = read(text).unwrap().architecture;
        assert_eq!(a.params_total().unwrap().get(), 426_174_572_928);
        use crate::precision::KvDtype;
        assert_eq!(crate::inference::kv_bytes_per_token(&a, KvDtype::Bf16), 60 * 2048 + 57 * 256);
        // On 4 GPUs the key/value heads split (one each), the indexer's key does not.
        let on_rank = a
            .mixers()
            .map(|(n, m)| match (m, m.cache(a.hidden_size)) {
                (Mixer::Attention(at), c) => {
                    n * crate::inference::attention_kv_bytes_on_rank(c, KvDtype::Bf16, at.num_kv_heads, 1)
                }
                _ => 0,
            })
            .sum::<u64>();
        assert_eq!(on_rank, 60 * 512 + 57 * 256);
    }

    /// Ling-plus (`bailing_moe`, the config Ant Group ships beside its MindIE deployment): fused
    /// `query_key_value` (42 query and 6 key/value heads of 128), 64 routed experts of 3,072 and one
    /// shared expert on all 88 layers, untied head — 290,602,910,976 parameters, the "290B" its
    /// README states, as vLLM's `bailing_moe.py` builds it.
    #[test]
    fn ling_plus_reads_as_vllm_builds_it() {
        let text = include_str!("../../../../tests/fixtures/configs/ling-plus.json");
        let m = read(text).unwrap();
        assert_eq!(m.confidence, Confidence::Config);
        assert_eq!(m.architecture.params_total().unwrap().get(), 290_602_910_976);
        assert!(matches!(&m.architecture.groups[0].mixers[0], Mixer::Attention(a) if a.fused_qkv));
    }

    /// Ling 2.0's keys (Ling-mini-2.0's shape, as vLLM's `bailing_moe.py` reads them): per-head q/k
    /// norms (`use_qk_norm`), the router's expert bias (`moe_router_enable_expert_bias`), a shared
    /// expert of `moe_shared_expert_intermediate_size`, the first layer dense
    /// (`first_k_dense_replace`) and one multi-token-prediction layer apart — 16,255,643,392
    /// parameters, the model card's 16B.
    #[test]
    fn ling_2_reads_its_norms_bias_shared_expert_and_dense_layer() {
        let cfg = r#"{"model_type": "bailing_moe", "architectures": ["BailingMoeV2ForCausalLM"],
            "hidden_size": 2048, "num_hidden_layers": 20, "intermediate_size": 5120,
            "first_k_dense_replace": 1, "moe_intermediate_size": 512,
            "moe_shared_expert_intermediate_size": 512, "num_shared_experts": 1, "num_experts": 256,
            "num_experts_per_tok": 8, "num_attention_heads": 16, "num_key_value_heads": 4,
            "head_dim": 128, "use_qk_norm": true, "moe_router_enable_expert_bias": true,
            "use_bias": false, "use_qkv_bias": false, "vocab_size": 157184,
            "tie_word_embeddings": false, "num_nextn_predict_layers": 1}"#;
        let a = read(cfg).unwrap().architecture;
        assert_eq!(a.params_total().unwrap().get(), 16_255_643_392);
        assert!(matches!(&a.groups[0].ffn, Ffn::Dense(d) if d.intermediate_size == 5120));
        assert!(matches!(&a.groups[1].ffn, Ffn::Moe(m) if m.score_bias && m.shared_intermediate == 512));
        assert_eq!(a.mtp.as_ref().map(|m| m.modules), Some(1));
        // Without the flag, no expert bias: 19 layers × 256 fewer.
        let plain = cfg
            .replace(r#""moe_router_enable_expert_bias": true"#, r#""moe_router_enable_expert_bias": false"#);
        assert_eq!(
            read(&plain).unwrap().architecture.params_total().unwrap().get(),
            16_255_643_392 - 19 * 256
        );
    }

    /// ModelOpt's MIXED_PRECISION lists every expert by number (NVIDIA's MiniMax-M3 NVFP4: 21,888
    /// expert and shared-expert entries in NVFP4, 534 attention and dense ones in MXFP8, a
    /// Mixtral-style `block_sparse_moe` with `w1`/`w2`/`w3`): every entry finds its module, so
    /// nothing is said; MXFP8 is an E4M3 byte a weight with a one-byte scale per 32.
    #[test]
    fn modelopt_per_expert_lists_and_mxfp8_are_read() {
        let mut entries = Vec::new();
        for l in 0..2 {
            for p in ["q_proj", "k_proj", "v_proj", "o_proj"] {
                entries.push(format!(
                    r#""language_model.model.layers.{l}.self_attn.{p}": {{"quant_algo": "MXFP8"}}"#
                ));
            }
            for e in 0..8 {
                for w in ["w1", "w2", "w3"] {
                    entries.push(format!(
                        r#""language_model.model.layers.{l}.block_sparse_moe.experts.{e}.{w}": {{"quant_algo": "NVFP4", "group_size": 16}}"#
                    ));
                }
            }
            for p in ["gate_proj", "up_proj", "down_proj"] {
                entries.push(format!(
                    r#""language_model.model.layers.{l}.block_sparse_moe.shared_experts.{p}": {{"quant_algo": "NVFP4", "group_size": 16}}"#
                ));
            }
        }
        let cfg = format!(
            r#"{{"model_type": "minimax_m3", "hidden_size": 1024, "num_hidden_layers": 2, "num_attention_heads": 8,
            "num_key_value_heads": 2, "head_dim": 128, "intermediate_size": 512, "num_local_experts": 8,
            "num_experts_per_tok": 2, "shared_intermediate_size": 512, "vocab_size": 1000, "moe_layer_freq": [1, 1],
            "quantization_config": {{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
            "exclude_modules": ["lm_head"], "quantized_layers": {{{}}}}}}}"#,
            entries.join(", ")
        );
        let m = read(&cfg).unwrap();
        assert!(
            m.notices.iter().all(|n| !matches!(
                n.id,
                MsgId::NoticeQuantEntriesUnmatched | MsgId::NoticeQuantUnmatched | MsgId::NoticeQuantInvalid
            )),
            "{:?}",
            m.notices
        );
        let plan = m.architecture.quant.as_ref().expect("a plan");
        let mxfp8 = WeightFormat::Fp8Scaled {
            grain: crate::precision::Grain::Group(32),
            scale_bytes: 1,
            input_bytes: 0,
        };
        assert!(plan.rules.iter().any(|r| r.format == mxfp8), "{plan:?}");
        // Layer 0's q projection (1,024 × 1,024): a byte a weight and a byte per 32.
        let q =
            crate::tensor::Tensor { role: Role::AttnQ, rows: 1024, cols: 1024, layer: Some(0), experts: 1 };
        assert_eq!(crate::quant::price_one(&m.architecture, &q, plan).unwrap(), 1024 * 1024 + 1024 * 32);
    }

    /// A Ling FP8 checkpoint's list of modules left in BF16 names them as Ling's checkpoints do
    /// (`word_embeddings`, `attention.query_key_value`, `attention.dense`): every entry is found,
    /// nothing is said, and the named projections stay in BF16.
    #[test]
    fn ling_fp8_exclusions_name_lings_modules() {
        let cfg = |ignore: &str| {
            format!(
                r#"{{"model_type": "bailing_moe", "hidden_size": 1024, "num_hidden_layers": 2,
                "intermediate_size": 2048, "moe_intermediate_size": 256, "num_experts": 8,
                "num_experts_per_tok": 2, "num_shared_experts": 1, "num_attention_heads": 8,
                "num_key_value_heads": 2, "vocab_size": 1000, "first_k_dense_replace": 1,
                "quantization_config": {{"quant_method": "fp8", "weight_block_size": [128, 128],
                "modules_to_not_convert": [{ignore}]}}}}"#
            )
        };
        let bytes = |m: &HfModel| {
            let headline = m.architecture.quant.as_ref().expect("a plan").headline;
            crate::tensors::weight_bytes(&m.architecture, headline).unwrap().total()
        };
        let none = read(&cfg(r#""lm_head""#)).unwrap();
        let ling =
            read(&cfg(r#""lm_head", "model.word_embeddings", "model.layers.0.attention.query_key_value",
            "model.layers.1.attention.dense""#))
            .unwrap();
        assert!(
            ling.notices
                .iter()
                .all(|n| !matches!(n.id, MsgId::NoticeQuantEntriesUnmatched | MsgId::NoticeQuantUnmatched)),
            "{:?}",
            ling.notices
        );
        // Layer 0's q/k/v (1,024 × (8 + 4) × 128) and layer 1's output (1,024²) stay in BF16: one
        // more byte a weight than FP8, less their block scales.
        let kept = 1024 * 12 * 128 + 1024 * 1024;
        let diff = bytes(&ling).get() - bytes(&none).get();
        assert!(diff > kept * 99 / 100 && diff <= kept, "{diff} vs {kept}");
    }

    /// Ling 2.5/2.6 (`bailing_hybrid` naming `BailingMoeV2_5ForCausalLM`): the last layer of every
    /// `layer_group_size` is MLA, the others lightning attention (fused q/k/v, per-head q/k norms, an
    /// output gate, a group norm over the heads, `dense`), as vLLM's `bailing_moe_linear.py` builds
    /// them; each lightning layer keeps one 128 × 128 state a head in the model's dtype, no
    /// convolution. The count is the formula's, term by term.
    #[test]
    fn ling_2_5_lightning_layers_and_their_state() {
        let cfg = r#"{"model_type": "bailing_hybrid", "architectures": ["BailingMoeV2_5ForCausalLM"],
            "hidden_size": 2048, "num_hidden_layers": 8, "layer_group_size": 4, "group_norm_size": 4,
            "num_attention_heads": 16, "head_dim": 128, "intermediate_size": 5120,
            "first_k_dense_replace": 1, "num_experts": 32, "num_experts_per_tok": 4,
            "moe_intermediate_size": 512, "moe_shared_expert_intermediate_size": 512,
            "num_shared_experts": 1, "moe_router_enable_expert_bias": true, "use_qk_norm": true,
            "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
            "v_head_dim": 128, "vocab_size": 1000, "num_nextn_predict_layers": 1}"#;
        let a = read(cfg).unwrap().architecture;
        let labels: Vec<&str> = a
            .groups
            .iter()
            .flat_map(|g| core::iter::repeat_n(g.mixers[0].label(), g.count as usize))
            .collect();
        assert_eq!(labels[..4], ["lightning attention", "lightning attention", "lightning attention", "MLA"]);
        assert_eq!(a.params_total().unwrap().get(), 919_228_128);
        use crate::precision::KvDtype;
        assert_eq!(crate::inference::kv_bytes_per_token(&a, KvDtype::Bf16), 2 * (512 + 64) * 2);
        assert_eq!(crate::inference::state_bytes_per_sequence(&a, 2), 6 * 16 * 128 * 128 * 2);
        // Ling 3's config (no such architecture named) reads its linear layers as Kimi Delta
        // Attention instead, with vLLM's FP32 recurrent state.
        let ling3 = cfg.replace(r#""architectures": ["BailingMoeV2_5ForCausalLM"],"#, "");
        let b = read(&ling3).unwrap().architecture;
        assert_eq!(b.groups[0].mixers[0].label(), "Kimi Delta Attention");
        assert_eq!(b.ssm_state_bytes, Some(4));
    }

    /// Inkling: every sixth layer global (64 query and 8 key/value heads), the others sliding over
    /// 512 tokens with their own heads (`swa_*`: 16 key/value heads); the KV per token is theirs,
    /// the sliding layers' capped at the window. `local_layer_ids` names the sliding layers
    /// instead.
    #[test]
    fn inkling_layers_take_their_own_heads_and_windows() {
        let text = include_str!("../../../../tests/fixtures/configs/transformers-defaults/inkling_text.json");
        let a = read(text).unwrap().architecture;
        let kinds: Vec<(u64, u64, Span)> = a
            .groups
            .iter()
            .flat_map(|g| {
                let Mixer::Attention(at) = &g.mixers[0] else { panic!("attention") };
                core::iter::repeat_n((at.num_heads, at.num_kv_heads, at.span), g.count as usize)
            })
            .collect();
        assert_eq!(kinds.len(), 66);
        assert_eq!(kinds[5], (64, 8, Span::Full));
        assert_eq!(kinds[0], (64, 16, Span::Sliding { window: 512 }));
        use crate::precision::KvDtype;
        let at = |ctx: u64| crate::inference::kv_cache_bytes(&a, KvDtype::Bf16, ctx, 1).unwrap().get();
        // 11 global layers × 2 × 8 × 128 × 2 bytes a token; 55 sliding ones × 2 × 16 × 128 × 2 within
        // the window.
        assert_eq!(at(4096), 11 * 4096 * 4096 + 55 * 512 * 8192);
        let b = read(r#"{"model_type": "inkling_text", "num_hidden_layers": 4, "local_layer_ids": [0, 1]}"#)
            .unwrap()
            .architecture;
        let sliding: u64 = b
            .mixers()
            .filter(|(_, m)| matches!(m, Mixer::Attention(at) if at.span != Span::Full))
            .map(|(n, _)| n)
            .sum();
        assert_eq!(sliding, 2);
    }

    /// Cohere's MoE: Cohere 2's layers with routed experts (190,004,928,512 at transformers 5.24's
    /// defaults, equal to its build); from `first_k_dense_replace` the dense prefix follows its own
    /// sliding pattern (1: global) and width, the rest count from there.
    #[test]
    fn cohere2_moe_reads_its_dense_prefix() {
        let text = include_str!("../../../../tests/fixtures/configs/transformers-defaults/cohere2_moe.json");
        assert_eq!(read(text).unwrap().architecture.params_total().unwrap().get(), 190_004_928_512);
        let cfg = r#"{"model_type": "cohere2_moe", "num_hidden_layers": 6, "first_k_dense_replace": 2,
            "vocab_size": 1000, "hidden_size": 512, "intermediate_size": 2048, "num_attention_heads": 8,
            "prefix_dense_intermediate_size": 1000, "sliding_window_pattern": 4, "num_experts": 8,
            "num_experts_per_tok": 2, "sliding_window": 4096}"#;
        let a = read(cfg).unwrap().architecture;
        let layers: Vec<(bool, Option<u64>)> = a
            .groups
            .iter()
            .flat_map(|g| {
                let full = matches!(&g.mixers[0], Mixer::Attention(at) if at.span == Span::Full);
                let dense = match &g.ffn {
                    Ffn::Dense(d) => Some(d.intermediate_size),
                    _ => None,
                };
                core::iter::repeat_n((full, dense), g.count as usize)
            })
            .collect();
        assert_eq!(
            layers,
            [
                (true, Some(1000)),
                (true, Some(1000)),
                (false, None),
                (false, None),
                (false, None),
                (true, None)
            ]
        );
    }

    /// LFM3: LFM2's short convolutions and attention, with sliding layers, sandwich norms (four a
    /// layer) and a head-wise gate on the attention output; without `layer_types`, its class's
    /// pattern.
    #[test]
    fn lfm3_layers_norms_and_gates() {
        let text = include_str!("../../../../tests/fixtures/configs/transformers-defaults/lfm3.json");
        assert_eq!(read(text).unwrap().architecture.params_total().unwrap().get(), 1_728_801_536);
        let a = read(r#"{"model_type": "lfm3", "num_hidden_layers": 6}"#).unwrap().architecture;
        let labels: Vec<&str> = a
            .groups
            .iter()
            .flat_map(|g| core::iter::repeat_n(g.mixers[0].label(), g.count as usize))
            .collect();
        assert_eq!(
            labels,
            ["short conv", "short conv", "attention", "short conv", "sliding attention", "short conv"]
        );
        assert!(a.groups.iter().all(|g| g.norms == 4));
        let plain = read(
            r#"{"model_type": "lfm3", "num_hidden_layers": 6, "use_sandwich_norm": false,
            "use_attention_gate": false}"#,
        )
        .unwrap()
        .architecture;
        let less = a.params_total().unwrap().get() - plain.params_total().unwrap().get();
        // Two norms of 2,048 on six layers, and a 16 × 2,048 gate on two attention layers.
        assert_eq!(less, 6 * 2 * 2048 + 2 * 16 * 2048);
    }

    /// Mistral Large 4: MLA without a query latent, every layer with a DSA indexer reading the
    /// hidden state, NoPE layers (`no_rope_layers` 0) whose keys keep their rotary part in `kv_b`
    /// (a 512-wide latent), and layers reading an earlier layer's latent (`kv_source_layers`):
    /// equal to transformers 5.24 (1,050,118,202,912 with its head at the class defaults). Per
    /// token a rotary layer caches 576 latent values, a NoPE layer 512, a sharing layer none, and
    /// each its indexer key.
    #[test]
    fn mistral_large4_nope_and_shared_latents() {
        use crate::model::LayerCache;
        let text =
            include_str!("../../../../tests/fixtures/configs/transformers-defaults/mistral_large4.json");
        let a = read(text).unwrap().architecture;
        assert_eq!(a.params_total().unwrap().get(), 1_050_118_202_912);
        let caches: Vec<LayerCache> = a.mixers().map(|(_, m)| m.cache(a.hidden_size)).collect();
        assert!(caches.contains(&LayerCache::Latent { width: 576, indexer: 128, span: Span::Full }));
        assert!(caches.contains(&LayerCache::Latent { width: 512, indexer: 128, span: Span::Full }));
        let shared = text.replacen(
            "\"kv_source_layers\": [\n   0,\n   1,",
            "\"kv_source_layers\": [\n   0,\n   0,",
            1,
        );
        assert_ne!(shared, text, "the fixture lists its layers' sources");
        let b = read(&shared).unwrap().architecture;
        let c: Vec<LayerCache> = b.mixers().map(|(_, m)| m.cache(b.hidden_size)).collect();
        assert!(c.contains(&LayerCache::Latent { width: 0, indexer: 128, span: Span::Full }));
        // Layer 1 loses its kv_a projection (576 × 6,144) and norm (512).
        assert_eq!(a.params_total().unwrap().get() - b.params_total().unwrap().get(), 576 * 6144 + 512);
        let bad = text.replacen(
            "\"kv_source_layers\": [\n   0,\n   1,",
            "\"kv_source_layers\": [\n   0,\n   2,",
            1,
        );
        let e = read(&bad).unwrap_err().to_string();
        assert!(e.contains("kv_source_layers"), "{e}");
    }

    /// LongCat-Flash: two MLA attentions and two dense MLPs a layer around a MoE of 512 experts
    /// whose router also scores 256 zero-computation experts (identity, no weights): 560,664,980,480
    /// parameters at transformers' class defaults ("560B"; transformers itself sizes the fused
    /// gate/up for the zero experts too, which no checkpoint holds), and two latents a layer cached
    /// per token.
    #[test]
    fn longcat_flash_two_attentions_a_layer_and_zero_experts() {
        let text =
            include_str!("../../../../tests/fixtures/configs/transformers-defaults/longcat_flash.json");
        let a = read(text).unwrap().architecture;
        assert_eq!(a.params_total().unwrap().get(), 560_664_980_480);
        use crate::precision::KvDtype;
        assert_eq!(crate::inference::kv_bytes_per_token(&a, KvDtype::Bf16), 28 * 2 * 576 * 2);
    }

    /// GLM-5-Next: its full layers cache a rope-free latent (512 values) and their indexer's keys
    /// pooled 16 to one (128 / 16 values a token); its Kimi Delta Attention layers a state whose
    /// recurrent part is FP32.
    #[test]
    fn glm5_next_pools_its_indexer_keys() {
        use crate::model::LayerCache;
        let text = include_str!("../../../../tests/fixtures/configs/transformers-defaults/glm5_next.json");
        let a = read(text).unwrap().architecture;
        assert_eq!(a.params_total().unwrap().get(), 313_326_828_862);
        let caches: Vec<LayerCache> = a.mixers().map(|(_, m)| m.cache(a.hidden_size)).collect();
        assert!(
            caches.contains(&LayerCache::Latent { width: 512, indexer: 8, span: Span::Full }),
            "{caches:?}"
        );
        assert_eq!(a.ssm_state_bytes, Some(4));
    }

    /// Apertus 1.5 reads as Apertus; a head of another vocabulary than the embeddings
    /// (`output_vocab_size`) is refused naming the key rather than priced as the embeddings'.
    #[test]
    fn apertus_1_5_and_its_output_vocabulary() {
        let base = r#"{"model_type": "apertus1p5_text", "vocab_size": 266752"#;
        assert_eq!(read(&format!("{base}}}")).unwrap().architecture.family, "apertus");
        assert!(read(&format!(r#"{base}, "output_vocab_size": 266752}}"#)).is_ok());
        let e = read(&format!(r#"{base}, "output_vocab_size": 131072}}"#)).unwrap_err().to_string();
        assert!(e.contains("output_vocab_size"), "{e}");
    }

    /// MiniMax-Text-01/M1's hub config names each layer in `attn_type_list` (0 lightning, 1
    /// softmax); a list of the wrong length is refused naming it.
    #[test]
    fn minimax_reads_attn_type_list() {
        let cfg = r#"{"model_type": "minimax", "num_hidden_layers": 4, "attn_type_list": [0, 1, 0, 1]}"#;
        let a = read(cfg).unwrap().architecture;
        let labels: Vec<&str> = a
            .groups
            .iter()
            .flat_map(|g| core::iter::repeat_n(g.mixers[0].label(), g.count as usize))
            .collect();
        assert_eq!(labels, ["lightning attention", "attention", "lightning attention", "attention"]);
        let e = read(&cfg.replace("[0, 1, 0, 1]", "[0, 1]")).unwrap_err().to_string();
        assert!(e.contains("attn_type_list"), "{e}");
    }

    /// NVIDIA's Cosmos 3 Edge text model: a Llama with a two-matrix squared-ReLU MLP; at the class
    /// defaults transformers 5.24 builds 1,946,273,792 parameters (`Cosmos3EdgeTextModel` and its
    /// head).
    #[test]
    fn cosmos3_edge_has_a_plain_mlp() {
        let m = read(r#"{"model_type": "cosmos3_edge_text"}"#).unwrap();
        assert_eq!(m.architecture.params_total().unwrap().get(), 1_946_273_792);
        assert!(matches!(&m.architecture.groups[0].ffn, Ffn::Dense(d) if !d.gated));
    }

    /// Nemotron-4 / Minitron (`nemotron`): the plain squared-ReLU MLP and biased LayerNorms;
    /// transformers 5.24 builds 7,734,829,056 parameters from these keys.
    #[test]
    fn nemotron_has_a_plain_mlp_and_biased_norms() {
        let m = read(
            r#"{"model_type": "nemotron", "num_key_value_heads": 8, "head_dim": 128, "hidden_size": 4096,
            "num_attention_heads": 32, "intermediate_size": 16384, "vocab_size": 256000, "num_hidden_layers": 32}"#,
        )
        .unwrap();
        assert_eq!(m.architecture.params_total().unwrap().get(), 7_734_829_056);
    }

    /// Jais 2 (biased LayerNorms, biased attention and MLP) and nanochat (weightless RMS norms)
    /// with their plain squared-ReLU MLPs: transformers 5.24's builds at their class defaults.
    #[test]
    fn jais2_and_nanochat_have_plain_mlps() {
        let jais2 = read(
            r#"{"model_type": "jais2", "vocab_size": 150272, "hidden_size": 3328, "intermediate_size": 26624,
            "num_hidden_layers": 32, "num_attention_heads": 26, "num_key_value_heads": 26, "head_dim": 128,
            "attention_bias": true, "mlp_bias": true}"#,
        )
        .unwrap();
        assert_eq!(jais2.architecture.params_total().unwrap().get(), 8_090_401_280);
        let nanochat = read(
            r#"{"model_type": "nanochat", "vocab_size": 50304, "hidden_size": 768, "intermediate_size": 8192,
            "num_hidden_layers": 12, "num_attention_heads": 6, "num_key_value_heads": 6}"#,
        )
        .unwrap();
        assert_eq!(nanochat.architecture.params_total().unwrap().get(), 256_573_440);
    }

    /// Zamba2 (transformers 5.24 `Zamba2ForCausalLM` on the meta device, tied embeddings as in
    /// every released config): the class default with two shared blocks and attention adapters
    /// builds 2,687,639,056 parameters; a 12-layer config with three blocks over five hybrid
    /// layers (the third block used once) and rank-64 adapters, 195,614,272. Each hybrid layer
    /// caches keys and values of its own, `2 × hidden / heads` wide; each later use of a block runs
    /// its weights again, and every layer keeps a Mamba-2 state.
    #[test]
    fn zamba2_shares_its_transformer_blocks_and_keeps_each_use_its_adapters() {
        let two =
            read(r#"{"model_type": "zamba2", "num_mem_blocks": 2, "use_shared_attention_adapter": true}"#)
                .unwrap()
                .architecture;
        assert_eq!(two.params_total().unwrap().get(), 2_687_639_056);
        assert_eq!((two.num_layers(), two.shared_block_uses(), two.reused_layers()), (54, 7, 0));
        assert!(two.summary().contains("7 run a shared block stored by earlier layers"), "{}", two.summary());
        let small = read(
            r#"{"model_type": "zamba2", "hidden_size": 1024, "num_hidden_layers": 12, "layers_block_type":
            ["mamba","mamba","hybrid","mamba","hybrid","mamba","hybrid","mamba","mamba","hybrid","mamba","hybrid"],
            "num_mem_blocks": 3, "use_shared_attention_adapter": true, "n_mamba_heads": 16, "mamba_ngroups": 2,
            "intermediate_size": 3072, "adapter_rank": 64, "num_attention_heads": 16}"#,
        )
        .unwrap()
        .architecture;
        assert_eq!(small.params_total().unwrap().get(), 195_614_272);
        // Five uses of the attention, each its own cache: 2 × 16 heads × 128.
        let attention: u64 = small
            .groups
            .iter()
            .filter(|g| g.mixers.iter().any(|m| matches!(m, Mixer::Attention(_))))
            .map(|g| g.count)
            .sum();
        assert_eq!(attention, 5);
        // The two later uses run the block's attention, MLP and two norms without its adapters:
        // q, k, v (3 × 2,048²), o (1,024 × 2,048), gate-up and down (3 × 1,024 × 3,072) and norms
        // of 2,048 and 1,024.
        let block = 3 * 2048 * 2048 + 1024 * 2048 + 3 * 1024 * 3072 + 2048 + 1024;
        assert_eq!(small.reused_params().unwrap(), 2 * block);
        // A later use stores its Mamba-2 layer, its norm and the projection after the block.
        let own = small.groups.iter().find(|g| g.tied).unwrap();
        let mamba =
            small.groups.iter().find(|g| !g.mixers.iter().any(|m| matches!(m, Mixer::Attention(_)))).unwrap();
        assert_eq!(small.layer_params(own).unwrap(), small.layer_params(mamba).unwrap() + 1024 * 1024);
        for (bad, field) in [
            (
                r#"{"model_type": "zamba2", "layers_block_type": ["mamba", "attention"]}"#,
                "entry 1 is `attention`",
            ),
            (
                r#"{"model_type": "zamba2", "num_hidden_layers": 3, "layers_block_type": ["mamba", "hybrid"]}"#,
                "`num_hidden_layers` is 3",
            ),
            (r#"{"model_type": "zamba2", "num_mem_blocks": 0}"#, "`num_mem_blocks` 0"),
            (r#"{"model_type": "zamba2", "layers_block_type": "hybrid"}"#, "must be a list"),
        ] {
            let e = read(bad).unwrap_err().to_string();
            assert!(e.contains(field), "{bad}: {e}");
        }
    }

    /// GLM-4.7-Flash's MTP layer stores its own embedding and head, as DeepSeek V3's does.
    #[test]
    fn glm47_flash_mtp_stores_its_own_embedding_and_head() {
        let m =
            read(&format!(r#"{{"model_type": "glm4_moe_lite", {LLAMA}, "num_nextn_predict_layers": 1}}"#))
                .unwrap();
        assert!(m.architecture.mtp.as_ref().is_some_and(|t| t.own_embeddings));
    }

    #[test]
    fn python_json_with_infinity_is_read() {
        let m = read(&format!(r#"{{"model_type": "llama", {LLAMA}, "time_step_limit": [0.0, Infinity]}}"#))
            .unwrap();
        assert_eq!(m.architecture.num_layers(), 4);
    }
    #[test]
    fn the_class_and_type_runtimes_load_by_are_kept() {
        let m = parse_config(br#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
            "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 4, "vocab_size": 100}"#)
        .unwrap();
        assert_eq!(
            (m.architecture.checkpoint.class.as_str(), m.architecture.checkpoint.model_type.as_str()),
            ("LlamaForCausalLM", "llama")
        );
        // A wrapper that names no class: the text config's is kept apart; the type is the outer one.
        let m = parse_config(
            br#"{"model_type": "llava", "text_config": {"architectures": ["MistralForCausalLM"],
            "model_type": "mistral", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 4, "vocab_size": 100}}"#,
        )
        .unwrap();
        let a = &m.architecture;
        assert_eq!(
            (a.checkpoint.class.as_str(), a.checkpoint.text_class.as_str(), a.checkpoint.model_type.as_str()),
            ("", "MistralForCausalLM", "llava")
        );
        // No `architectures` at all: nothing to look up.
        let m = parse_config(
            br#"{"model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 4, "vocab_size": 100}"#,
        )
        .unwrap();
        assert!(m.architecture.checkpoint.class.is_empty());
    }
}
