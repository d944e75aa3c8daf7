//! Headroom against the runtimes and frameworks themselves, on real and transformers-written
//! configs:
//!
//! * parameter counts equal what `transformers` builds on the meta device (the checkpoint's
//!   tensors: persistent buffers in, tied weights once), layer by layer, for every config it could
//!   build (`tests/fixtures/reference-counts.json`, written by `scripts/reference-counts.py` with
//!   the versions it records);
//! * KV bytes per token and recurrent state per sequence equal vLLM's own formulas
//!   (`vllm/v1/kv_cache_interface.py`, `MambaStateShapeCalculator` in
//!   `vllm/model_executor/layers/mamba/mamba_utils.py`, the DeepSeek V3.2 indexer's FP8 key cache),
//!   re-derived here from the raw config keys, independently of the core's stack.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture
use std::collections::BTreeSet;
use std::path::PathBuf;

use headroom_core::import::hf::{Confidence, parse_config};
use headroom_core::inference::{kv_bytes_per_token, state_bytes_per_sequence};
use headroom_core::precision::KvDtype;
use headroom_tests::read_fixture;
use serde_json::Value;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn references() -> Value {
    serde_json::from_str(&read_fixture("reference-counts.json")).expect("reference-counts.json is JSON")
}

/// Refusals that are right: families or configs Headroom does not read from a config alone, each
/// with its reason. Any other refusal of a config transformers builds fails the test.
const EXPECTED_REFUSALS: &[(&str, &str)] = &[
    ("deepseek_v2.json", "transformers' default DeepSeek-V2 config has num_experts_per_tok null"),
    ("bitnet.json", "unknown family with a squared-ReLU MLP: refused naming hidden_act"),
    ("aria_text.json", "unknown MoE family: refused naming its expert keys"),
];

/// Persistent buffers transformers registers that checkpoints do not store (the runtimes compute
/// them): MiniMax-Text-01/M1's lightning attention keeps its decay tables in `state_dict` —
/// `slope_rate` (a value a head), `query_decay` and `key_decay` (`block_size` a head) and
/// `diagonal_decay` (`block_size²` a head) on every linear layer. The count compared is the
/// parameters', and the buffers must be exactly these tables, layer by layer.
fn computed_buffers(config: &Value) -> Option<Vec<u64>> {
    if config["model_type"] != "minimax" {
        return None;
    }
    let heads = config["num_attention_heads"].as_u64()?;
    let block = config["block_size"].as_u64().unwrap_or(256);
    let per_layer = heads + 2 * heads * block + heads * block * block;
    let types = config["layer_types"].as_array()?;
    Some(types.iter().map(|t| if t == "linear_attention" { per_layer } else { 0 }).collect())
}

/// Persistent buffers transformers registers that checkpoints store and the core counts as
/// weights: Muse Spark's router correction biases (`e_score_correction_bias`, an `nn.Buffer` of
/// one FP32 value per expert on every MoE layer; vLLM loads them as `expert_bias`).
fn stored_buffers(config: &Value) -> Option<u64> {
    if config["model_type"] != "muse_spark" {
        return None;
    }
    let text = &config["text_config"];
    let experts = text["num_local_experts"].as_u64()?;
    let sparse = text["mlp_layer_types"].as_array()?.iter().filter(|t| *t == "sparse").count() as u64;
    Some(sparse * experts)
}

/// Parameters transformers allocates that checkpoints do not hold: LongCat-Flash's fused
/// `gate_up_proj` is sized for its zero-computation experts too (`total_experts`), which return
/// their input and have no weights (`down_proj` has the real experts only; vLLM loads those). Per
/// layer: `zero_expert_num × 2 × expert_ffn_hidden_size × hidden_size`.
fn unloaded_parameters(config: &Value) -> Option<Vec<u64>> {
    if config["model_type"] != "longcat_flash" {
        return None;
    }
    let u = |k: &str| config[k].as_u64();
    let per_layer = u("zero_expert_num")? * 2 * u("expert_ffn_hidden_size")? * u("hidden_size")?;
    Some(vec![per_layer; u("num_layers")? as usize])
}

/// Rows a checkpoint stores that transformers drops on load: Inkling 2's unembedding is padded to
/// `vocab_size` rows in the checkpoint (`model.llm.unembed.weight`), and `Inkling2UnpadVocab`
/// keeps the first `unpadded_vocab_size` (its `lm_head`); the core counts the checkpoint's.
fn padded_head(config: &Value) -> Option<u64> {
    if !matches!(config["model_type"].as_str(), Some("inkling2" | "inkling2_loop")) {
        return None;
    }
    let t = &config["text_config"];
    let (v, vu, h) =
        (t["vocab_size"].as_u64()?, t["unpadded_vocab_size"].as_u64()?, t["hidden_size"].as_u64()?);
    Some((v - vu) * h)
}

/// Expands a run-length list `[[count, numel], …]` to one value per layer.
fn expand(runs: &[(u64, u64)]) -> Vec<u64> {
    runs.iter().flat_map(|(n, v)| std::iter::repeat_n(*v, *n as usize)).collect()
}

#[test]
fn every_accepted_config_counts_what_transformers_builds() {
    let refs = references();
    let versions = &refs["_versions"];
    assert!(versions["transformers"].is_string(), "the fixture records its transformers version");
    let mut compared = 0;
    let mut families = BTreeSet::new();
    let mut wrong = Vec::new();
    let mut refused = Vec::new();
    let mut inferred = 0;
    for (path, entry) in refs.as_object().unwrap() {
        if path.starts_with('_') {
            continue;
        }
        // A multimodal config: the language model alone is what the core reads.
        let text_only = entry.get("text_only").filter(|t| t.get("params_total").is_some());
        let r = text_only.unwrap_or(entry);
        let Some(mut want) = r["params_total"].as_u64() else { continue };
        if text_only.is_none() {
            // No text-only build (transformers has no causal-LM class for the text config): the
            // whole model less its encoder submodules.
            want -= encoder_submodules(entry);
        }
        let bytes = std::fs::read(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let raw: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let mut computed = computed_buffers(&raw);
        if let Some(tables) = &computed {
            let sum: u64 = tables.iter().sum();
            assert_eq!(
                r["buffers_persistent"].as_u64(),
                Some(sum),
                "{path}: its buffers are the decay tables"
            );
            want -= sum;
        }
        if let Some(stored) = stored_buffers(&raw) {
            // In the reference total with the parameters, as in the checkpoint: nothing to remove.
            assert_eq!(
                r["buffers_persistent"].as_u64(),
                Some(stored),
                "{path}: its buffers are the routers' biases"
            );
        }
        if let Some(rows) = padded_head(&raw) {
            want += rows;
        }
        if let Some(unloaded) = unloaded_parameters(&raw) {
            want -= unloaded.iter().sum::<u64>();
            computed = Some(unloaded);
        }
        let m = match parse_config(&bytes) {
            Ok(m) => m,
            Err(e) => {
                let file = path.rsplit('/').next().unwrap();
                if !EXPECTED_REFUSALS.iter().any(|(f, _)| *f == file) {
                    refused.push(format!("{path}: {e}"));
                }
                continue;
            }
        };
        let a = &m.architecture;
        let got = a.params_total().unwrap().get();
        if m.confidence == Confidence::Inferred {
            // A family Headroom does not know, read through the generic keys: within 0.5% (its
            // band is −15% … +25%); routing biases and norms it cannot see make the rest.
            let off = (got as f64 - want as f64).abs() / want as f64;
            if off > 0.005 {
                wrong.push(format!("{path} ({}, inferred): ours {got}, transformers {want}", a.family));
            }
            inferred += 1;
            continue;
        }
        if got != want {
            wrong.push(format!("{path} ({}): ours {got}, transformers {want}", a.family));
            continue;
        }
        // Layer by layer, where the reference lists the main stack.
        if let Some(runs) = r["layers"].as_object().and_then(|l| {
            // A vision tower can hold more than the text stack (PaddleOCR-VL, GLM-OCR): the text
            // model's list is the one compared.
            let main = match r["layers"].get("model.language_model.layers") {
                Some(_) => "model.language_model.layers",
                None => r["layers_main"].as_str().unwrap_or("model.layers"),
            };
            l.get(main).and_then(Value::as_array)
        }) {
            let mut theirs: Vec<(u64, u64)> =
                runs.iter().map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap())).collect();
            // HRM-Text stores its low stack, then its high one: the layers a cache holds first.
            if let Some(high) = r["layers"].get("model.H_module.layers").and_then(Value::as_array) {
                theirs.extend(high.iter().map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap())));
            }
            let mut theirs = expand(&theirs);
            if let Some(tables) = &computed {
                theirs.iter_mut().zip(tables).for_each(|(t, b)| *t -= b);
            }
            // A looped model's later passes have no modules of their own. A layer that runs a
            // shared block beside its own weights (Zamba2) is a module of its own whose
            // `state_dict` holds the block again: its count there is checked by the total only.
            let ours: Vec<(u64, u64)> = a
                .layer_summaries()
                .unwrap()
                .iter()
                .filter(|s| !s.tied || s.own)
                .map(|s| (s.count, if s.own { u64::MAX } else { s.params_per_layer }))
                .collect();
            let ours_each = expand(&ours);
            let same = theirs.len() == ours_each.len()
                && theirs.iter().zip(&ours_each).all(|(t, o)| *o == u64::MAX || t == o);
            if !same {
                wrong.push(format!("{path}: layers ours {ours:?}, transformers {theirs:?}"));
                continue;
            }
        }
        if m.confidence == Confidence::Config {
            families.insert(a.family.clone());
        }
        compared += 1;
    }
    eprintln!(
        "compared {compared} configs of {} families with transformers, and {inferred} of unknown families",
        families.len()
    );
    assert!(wrong.is_empty(), "counts that disagree with transformers:\n{}", wrong.join("\n"));
    assert!(refused.is_empty(), "configs transformers builds that Headroom refused:\n{}", refused.join("\n"));
    assert!(compared >= 60, "only {compared} configs compared");
    // The generic reading stays exercised by the unknown families left (three at stop 32, after
    // the ones it builds exactly, or misses only by a trait, became known families).
    assert!(inferred >= 3, "only {inferred} inferred configs compared");
    assert!(families.len() >= 40, "only {} families compared: {families:?}", families.len());
}

/// vLLM's bytes per token (attention K and V, MLA latent, DSA indexer key) and per sequence
/// (Mamba / Gated DeltaNet convolution and recurrent state), bf16 cache, one GPU.
fn vllm_caches(c: &Value) -> (u64, u64) {
    let c = c.get("text_config").filter(|t| t.get("hidden_size").is_some()).unwrap_or(c);
    let u = |k: &str| c[k].as_u64().unwrap_or_else(|| panic!("config key {k}"));
    let layers = c["num_hidden_layers"].as_u64();
    let mt = c["model_type"].as_str().unwrap();
    let b = 2;
    // vLLM's `NemotronHForCausalLMConfig` keeps a Nemotron-H's SSM state in FP32 unless the config
    // says otherwise (`DEFAULT_MAMBA_SSM_CACHE_DTYPE`, 0.34).
    let ssm_b = match c.get("mamba_ssm_cache_dtype").or(c.get("mamba_ssm_dtype")).and_then(Value::as_str) {
        Some("float32") => 4,
        None if mt == "nemotron_h" => 4,
        _ => 2,
    };
    let head_dim = c
        .get("head_dim")
        .and_then(Value::as_u64)
        .or(c.get("attention_head_dim").and_then(Value::as_u64))
        .unwrap_or_else(|| u("hidden_size") / u("num_attention_heads"));
    let attn = |kv: u64, hd: u64| 2 * kv * hd * b;
    let (mut kv, mut state) = (0, 0);
    match mt {
        "nemotron_h" => {
            for ch in c["hybrid_override_pattern"].as_str().unwrap().chars() {
                match ch {
                    '*' => kv += attn(u("num_key_value_heads"), head_dim),
                    'M' => {
                        let inner = u("mamba_num_heads") * u("mamba_head_dim");
                        let conv = (u("conv_kernel") - 1) * (inner + 2 * u("n_groups") * u("ssm_state_size"));
                        state += conv * b + inner * u("ssm_state_size") * ssm_b;
                    }
                    _ => {}
                }
            }
        }
        "qwen3_next" | "qwen3_5_text" | "qwen3_5_moe_text" => {
            let every = c.get("full_attention_interval").and_then(Value::as_u64).unwrap_or(4);
            for i in 0..layers.unwrap() {
                let full = match c.get("layer_types").and_then(Value::as_array) {
                    Some(t) => t[i as usize] == "full_attention",
                    None => (i + 1) % every == 0,
                };
                if full {
                    kv += attn(u("num_key_value_heads"), head_dim);
                } else {
                    let kd = u("linear_num_key_heads") * u("linear_key_head_dim");
                    let vd = u("linear_num_value_heads") * u("linear_value_head_dim");
                    let conv = (u("linear_conv_kernel_dim") - 1) * (2 * kd + vd);
                    let temporal =
                        u("linear_num_value_heads") * u("linear_key_head_dim") * u("linear_value_head_dim");
                    state += conv * b + temporal * ssm_b;
                }
            }
        }
        "minimax" => {
            // Lightning attention's state: a head_dim² matrix a head in the model's dtype
            // (`linear_attention_state_shape` / `_dtype`), no convolution; GQA K and V elsewhere.
            for t in c["layer_types"].as_array().unwrap() {
                if t == "linear_attention" {
                    state += u("num_attention_heads") * head_dim * head_dim * b;
                } else {
                    kv += attn(u("num_key_value_heads"), head_dim);
                }
            }
        }
        "zaya" => {
            // Every layer attends (K and V of its KV heads) and keeps vLLM's CCA state beside
            // (`_cca_state_shapes`): the raw q and k channels over `cca_time0 + cca_time1 - 2`
            // tokens and half the previous token's values, in the model's dtype.
            let (h, k, d) = (u("num_attention_heads"), u("num_key_value_heads"), head_dim);
            let history = u("cca_time0") + u("cca_time1") - 2;
            for _ in 0..layers.unwrap() {
                kv += attn(k, d);
                state += ((h + k) * d * history + k * d / 2) * b;
            }
        }
        "zamba2" => {
            // Every layer a Mamba-2 (`MambaMixer2`: `mamba_expand × hidden` channels in
            // `n_mamba_heads` heads, `mamba_ngroups` groups of B and C); a hybrid layer's shared
            // block also caches K and V of all `num_attention_heads` heads, `2 × hidden / heads`
            // wide (`Zamba2Attention`).
            let inner = u("mamba_expand") * u("hidden_size");
            let conv = (u("mamba_d_conv") - 1) * (inner + 2 * u("mamba_ngroups") * u("mamba_d_state"));
            for t in c["layers_block_type"].as_array().unwrap() {
                state += conv * b + inner * u("mamba_d_state") * b;
                if t == "hybrid" {
                    kv += attn(u("num_attention_heads"), 2 * u("hidden_size") / u("num_attention_heads"));
                }
            }
        }
        "kimi_linear" | "bailing_hybrid" => {
            // MLA latents on the full layers; Kimi Delta Attention's state (FP32 recurrent part,
            // `kda_state_dtype`) on the others.
            let (h, d, k) = (u("linear_num_heads"), u("linear_head_dim"), u("linear_conv_kernel_dim"));
            for t in c["layer_types"].as_array().unwrap() {
                if t == "full_attention" {
                    kv += (u("kv_lora_rank") + u("qk_rope_head_dim")) * b;
                } else {
                    state += (k - 1) * 3 * h * d * b + h * d * d * 4;
                }
            }
        }
        "deepseek_v32" => {
            // Latent of kv_lora_rank + rope per token; the indexer key in FP8 with an FP32 scale
            // per 128 values.
            let ix = u("index_head_dim");
            kv = layers.unwrap() * ((u("kv_lora_rank") + u("qk_rope_head_dim")) * b + ix + ix / 128 * 4);
        }
        "deepseek_v3" | "kimi_k2" => kv = layers.unwrap() * (u("kv_lora_rank") + u("qk_rope_head_dim")) * b,
        "nemotron-nas" => {
            // Only the layers that keep attention cache, each with heads / n_heads_in_group.
            for b in c["block_configs"].as_array().unwrap() {
                let att = &b["attention"];
                if att["no_op"] != true && att["replace_with_linear"] != true {
                    kv +=
                        attn(u("num_attention_heads") / att["n_heads_in_group"].as_u64().unwrap(), head_dim);
                }
            }
        }
        "glm_moe_dsa" | "hy_v4" => {
            // GLM-5: DeepSeek V3.2's latent and FP8 indexer key, the key only on the layers that
            // run their own indexer (GLM-5.2's `indexer_types` "full"; every layer without it).
            let ix = u("index_head_dim");
            let indexers = match c.get("indexer_types").and_then(Value::as_array) {
                Some(t) => t.iter().filter(|x| *x == "full").count() as u64,
                None => layers.unwrap(),
            };
            kv = layers.unwrap() * (u("kv_lora_rank") + u("qk_rope_head_dim")) * b
                + indexers * (ix + ix / 128 * 4);
        }
        "gemma4_text" => {
            for t in c["layer_types"].as_array().unwrap() {
                if t == "full_attention" {
                    let hd = c.get("global_head_dim").and_then(Value::as_u64).unwrap_or(512);
                    let k_eq_v = c.get("attention_k_eq_v").and_then(Value::as_bool).unwrap_or(false);
                    let heads =
                        if k_eq_v { u("num_global_key_value_heads") } else { u("num_key_value_heads") };
                    kv += attn(heads, hd);
                } else {
                    kv += attn(u("num_key_value_heads"), head_dim);
                }
            }
        }
        _ => {
            // Falcon's new decoder architecture names them `num_kv_heads`.
            let heads = ["num_key_value_heads", "num_kv_heads", "n_head_kv"]
                .iter()
                .find_map(|k| c.get(*k).and_then(Value::as_u64))
                .unwrap_or_else(|| u("num_attention_heads"));
            kv = layers.unwrap() * attn(heads, head_dim);
        }
    }
    (kv, state)
}

#[test]
fn kv_and_state_equal_vllms_formulas_on_hybrid_and_latent_models() {
    let files = [
        "qwen3-next-80b-a3b-thinking",
        "qwen3.5-27b",
        "qwen3.5-35b-a3b",
        "nemotron-3-nano-30b-a3b",
        "nemotron-h-56b-base-8k",
        "deepseek-v3.2",
        "llama-3.3-nemotron-super-49b-v1",
        "glm-5",
        "glm-5.2",
        "kimi-k2-instruct",
        "gemma-4-26b-a4b",
        "smollm3-3b",
        "starcoder2-7b",
        "falcon-40b",
    ];
    for f in files.iter().map(|f| f.to_string()).chain(
        ["kimi_linear", "bailing_hybrid", "minimax", "hy_v4", "zamba2", "zaya"]
            .map(|f| format!("transformers-defaults/{f}")),
    ) {
        let f = f.as_str();
        let text = read_fixture(&format!("configs/{f}.json"));
        let raw: Value = serde_json::from_str(&text.replace("Infinity", "1e308")).unwrap();
        let a = parse_config(text.as_bytes()).unwrap_or_else(|e| panic!("{f}: {e}")).architecture;
        let (kv, state) = vllm_caches(&raw);
        assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), kv, "{f}: KV bytes per token");
        assert_eq!(state_bytes_per_sequence(&a, 2), state, "{f}: state bytes per sequence");
    }
}

/// Parameters of a reference entry's encoder submodules (vision and audio towers, projectors,
/// connectors and embedders).
fn encoder_submodules(entry: &Value) -> u64 {
    let Some(sub) = entry.get("submodules").and_then(Value::as_object) else { return 0 };
    [
        "model.visual",
        "model.vision_tower",
        "model.vision_model",
        "model.multi_modal_projector",
        // Nemotron 3 Nano Omni's (top-level modules).
        "vision_model",
        "multi_modal_projector",
        // LightOnOCR's; LLaVA-NeXT's and OneVision's row separator.
        "model.vision_encoder",
        "model.vision_projection",
        "model.image_newline",
        // PaddleOCR-VL's and MiniCPM-V's.
        "model.projector",
        "model.merger",
        "model.connector",
        // ERNIE 4.5 VL's; Muse Glimmer's (with `model.vision_projection`).
        "model.resampler_model",
        "model.vision_adapter",
        // Unlimited-OCR's view separator (beside `model.image_newline`).
        "model.view_separator",
        "model.embed_vision",
        "model.audio_tower",
        "model.embed_audio",
        "model.embed_tokens_extend",
        // Qwen3-Omni's thinker.
        "thinker.model.visual",
        "thinker.model.audio_tower",
    ]
    .iter()
    .filter_map(|k| sub.get(*k).and_then(Value::as_u64))
    .sum()
}

/// The encoders (vision and audio towers with their projectors, mergers or embedders) of
/// multimodal configs count what transformers builds for them: the reference's encoder
/// submodules.
#[test]
fn encoders_count_what_transformers_builds() {
    let refs = references();
    let mut compared = 0;
    let mut wrong = Vec::new();
    for (path, entry) in refs.as_object().unwrap() {
        let want = encoder_submodules(entry);
        if want == 0 {
            continue;
        }
        let bytes = std::fs::read(repo_root().join(path)).unwrap();
        let Ok(m) = parse_config(&bytes) else { continue };
        let encoders = &m.architecture.encoders;
        if encoders.is_empty() {
            // Not counted: the notice says so.
            assert!(
                m.notices.iter().any(|n| n.id == headroom_core::text::MsgId::NoticeEncoderNotCounted),
                "{path}: an encoder neither counted nor said"
            );
            continue;
        }
        let got: u64 = encoders.iter().map(|e| e.params()).sum();
        if got != want {
            wrong.push(format!("{path}: ours {got}, transformers {want}"));
        }
        compared += 1;
    }
    assert!(wrong.is_empty(), "encoder counts that disagree with transformers:\n{}", wrong.join("\n"));
    assert!(compared >= 17, "only {compared} encoders compared");
}
