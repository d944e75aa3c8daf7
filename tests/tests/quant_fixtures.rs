//! Quantized checkpoints, config against headers: for every quantization library's layout
//! (`scripts/make-quant-fixtures.py`, `fixtures/quant`), the config-only estimate prices each
//! tensor as the library stores it, so its bytes equal the header's, layer by layer.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::{TermKind, estimate};
use headroom_core::import::{hf, safetensors};
use headroom_core::precision::WeightFormat;
use headroom_core::quant;
use headroom_core::scenario::{CustomModel, ModelSource, Scenario};
use headroom_core::tensors;
use headroom_core::text::MsgId;
use headroom_tests::read_fixture;
use proptest::prelude::*;

const CASES: [&str; 16] = [
    "ct-fp8-dynamic",
    "ct-fp8-static",
    "ct-w4a16",
    "ct-w4a16-asym-g32-skip-layer0",
    "ct-w8a8-int",
    "ct-nvfp4",
    "ct-nvfp4a16",
    "ct-mixed-int4-mlp-fp8-attn",
    "modelopt-fp8",
    "modelopt-nvfp4",
    "fp8-block128",
    "gptq-4bit-g128",
    "awq-4bit-g128",
    "bnb-nf4-dq",
    "bnb-nf4",
    "bnb-int8",
];

fn config(case: &str) -> String {
    read_fixture(&format!("quant/{case}/config.json"))
}

/// The fixture's tensor listing as the safetensors header it stands for, parsed by our reader.
fn header(case: &str) -> safetensors::Header {
    let tsv = read_fixture(&format!("quant/{case}/header.tsv"));
    let mut json = String::from("{");
    let mut offset = 0u64;
    for (i, line) in tsv.lines().filter(|l| !l.is_empty()).enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        let (name, dtype) = (f[0], f[1]);
        let shape: Vec<u64> = f
            .get(2)
            .filter(|s| !s.is_empty())
            .map_or(vec![], |s| s.split(',').map(|d| d.parse().unwrap()).collect());
        let bits = safetensors::Dtype::parse(dtype).unwrap().bits();
        let bytes = (shape.iter().product::<u64>() * bits).div_ceil(8);
        if i > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            r#""{name}": {{"dtype": "{dtype}", "shape": {shape:?}, "data_offsets": [{offset}, {}]}}"#,
            offset + bytes
        ));
        offset += bytes;
    }
    json.push('}');
    safetensors::parse_json(json.as_bytes()).unwrap()
}

fn model(case: &str) -> hf::HfModel {
    hf::parse_config(config(case).as_bytes()).unwrap_or_else(|e| panic!("{case}: {e}"))
}

#[test]
fn the_config_alone_gives_every_librarys_stored_bytes_layer_by_layer() {
    for case in CASES {
        let m = model(case);
        let format = m.format.unwrap_or_else(|| panic!("{case}: no format"));
        assert!(m.architecture.quant.is_some(), "{case}: no per-tensor plan");
        assert!(
            !m.notices.iter().any(|n| matches!(n.id, MsgId::NoticeQuantInvalid | MsgId::NoticeUnknownQuant)),
            "{case}: {:?}",
            m.notices
        );
        let priced = tensors::weight_bytes(&m.architecture, format).unwrap();
        let h = header(case);
        let facts = safetensors::file_facts(&[(h.clone(), 0)]);
        assert_eq!(priced.total().get(), h.total_bytes(), "{case}: total");
        let layers = m.architecture.num_layers();
        assert_eq!(priced.layer_sums(layers), facts.tensors.layer_sums(layers), "{case}: per layer");
    }
}

#[test]
fn the_estimate_from_the_config_equals_the_one_from_the_headers() {
    for case in ["ct-w4a16", "ct-mixed-int4-mlp-fp8-attn", "modelopt-nvfp4", "gptq-4bit-g128"] {
        let m = model(case);
        let h = header(case);
        let with_files = safetensors::custom_model(case.into(), m.clone(), &[(h, 0)]);
        let config_only: CustomModel = m.into_custom(case.into());
        let weights = |c: CustomModel| {
            let s = Scenario { model: ModelSource::Custom(Box::new(c)), ..Scenario::default() };
            let e = estimate(&s).unwrap();
            (e.memory.get(TermKind::Weights), e.memory.term(TermKind::Weights).unwrap().assumptions.clone())
        };
        let (exact, _) = weights(with_files);
        let (estimated, assumptions) = weights(config_only);
        assert_eq!(exact, estimated, "{case}");
        // The term lists the bytes of each format.
        assert!(assumptions.iter().any(|a| a.id == MsgId::AssumeQuantPlan), "{case}");
        let formats = assumptions.iter().filter(|a| a.id == MsgId::AssumePlanFormat).count();
        assert!(formats >= 2, "{case}: {formats} formats listed");
    }
}

#[test]
fn a_mixed_checkpoint_lists_each_format() {
    let m = model("ct-mixed-int4-mlp-fp8-attn");
    let p = tensors::weight_bytes(&m.architecture, m.format.unwrap()).unwrap();
    let by = quant::bytes_by_format(&p, WeightFormat::Bf16);
    let ids: Vec<String> = by.iter().map(|(f, _)| f.id()).collect();
    assert_eq!(ids, ["bf16", "int4-g32", "fp8-channel"], "{by:?}");
    // The headline is the quantized format holding the most bytes (the embeddings stay BF16).
    assert_eq!(m.format.unwrap().id(), "int4-g32");
}

fn with_quant(case: &str, edit: impl Fn(&mut serde_json::Value)) -> hf::HfModel {
    let mut v: serde_json::Value = serde_json::from_str(&config(case)).unwrap();
    edit(&mut v["quantization_config"]);
    hf::parse_config(v.to_string().as_bytes()).unwrap()
}

fn bytes(m: &hf::HfModel) -> u64 {
    tensors::weight_bytes(&m.architecture, m.format.unwrap()).unwrap().total().get()
}

#[test]
fn ignore_and_exclude_lists_move_bytes_the_expected_way() {
    // Without the regex that keeps layer 0 in BF16, the checkpoint is smaller.
    let kept = model("ct-w4a16-asym-g32-skip-layer0");
    let all = with_quant("ct-w4a16-asym-g32-skip-layer0", |q| q["ignore"] = serde_json::json!(["lm_head"]));
    assert!(bytes(&all) < bytes(&kept));
    // Excluding more ModelOpt modules makes it larger.
    let more = with_quant("modelopt-nvfp4", |q| {
        q["exclude_modules"] = serde_json::json!(["lm_head", "model.layers.15.mlp*", "*self_attn*"])
    });
    assert!(bytes(&more) > bytes(&model("modelopt-nvfp4")));
    // A module that does not exist changes nothing.
    let none = with_quant("ct-w4a16", |q| {
        q["ignore"] = serde_json::json!(["lm_head", "model.layers.99.mlp.up_proj"])
    });
    assert_eq!(bytes(&none), bytes(&model("ct-w4a16")));
}

/// An edit of a fixture's `quantization_config`.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

#[test]
fn bad_quantization_configs_name_the_field_and_widen_the_band() {
    let cases: [(&str, Edit, &str); 6] = [
        (
            "ct-w4a16",
            Box::new(|q| q["ignore"] = serde_json::json!(["lm_head", "re:model.(layers"])),
            "ignore[1]",
        ),
        (
            "ct-w4a16",
            Box::new(|q| q["config_groups"]["group_0"]["weights"]["strategy"] = "channel".into()),
            "group_size",
        ),
        (
            "ct-w4a16",
            Box::new(|q| q["config_groups"]["group_0"]["weights"]["group_size"] = (-7).into()),
            "group_size",
        ),
        ("ct-w4a16", Box::new(|q| q["format"] = "zstd-quantized".into()), "format"),
        ("modelopt-nvfp4", Box::new(|q| q["group_size"] = 32.into()), "group_size"),
        ("gptq-4bit-g128", Box::new(|q| q["bits"] = 5.into()), "bits"),
    ];
    for (case, edit, field) in cases {
        let m = with_quant(case, edit);
        let n =
            m.notices.iter().find(|n| n.id == MsgId::NoticeQuantInvalid).unwrap_or_else(|| panic!("{field}"));
        let text = format!("{:?}", n.args);
        assert!(text.contains(field), "{field}: {text}");
        assert!(m.architecture.quant.is_none(), "{field}: no plan from a broken config");
        let s = Scenario {
            model: ModelSource::Custom(Box::new(m.into_custom(case.into()))),
            ..Scenario::default()
        };
        let e = estimate(&s).unwrap();
        let w = e.memory.term(TermKind::Weights).unwrap();
        assert!(w.low.get() * 2 < w.bytes.get(), "{field}: the band is widened ({:?})", w);
        assert!(e.warnings.iter().any(|m| m.id == MsgId::NoticeQuantInvalid), "{field}: a visible warning");
    }
    // An unknown method is said, with the same wide band.
    let m = with_quant("ct-w4a16", |q| q["quant_method"] = "brand-new".into());
    assert!(m.notices.iter().any(|n| n.id == MsgId::NoticeUnknownQuant));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Quantizing more modules never increases the bytes: ignoring a superset of layers costs at
    /// least as much.
    #[test]
    fn quantizing_more_never_costs_more(a in proptest::collection::btree_set(0u32..16, 0..8), b in proptest::collection::btree_set(0u32..16, 0..8)) {
        let pattern = |s: &std::collections::BTreeSet<u32>| {
            let alts: Vec<String> = s.iter().map(u32::to_string).collect();
            format!(r"re:model\.layers\.({})\..*", if alts.is_empty() { "none".into() } else { alts.join("|") })
        };
        let union: std::collections::BTreeSet<u32> = a.union(&b).copied().collect();
        let few = with_quant("ct-w4a16", |q| q["ignore"] = serde_json::json!(["lm_head", pattern(&a)]));
        let many = with_quant("ct-w4a16", |q| q["ignore"] = serde_json::json!(["lm_head", pattern(&union)]));
        prop_assert!(bytes(&few) <= bytes(&many));
    }
}

/// Published sizes of real quantized checkpoints, reproduced from their base model's config and
/// the `quantization_config` their library writes: the download within 0.5%.
#[test]
fn published_checkpoint_sizes_are_reproduced() {
    let cases = [
        (
            // Qwen/Qwen2.5-7B-Instruct-AWQ @ b25037543e9394b818fdfca67ab2a00ecc7dd641: two shards of
            // 3,996,422,976 and 1,574,406,784 bytes (the sha256 of each equals the Hub's).
            "qwen2.5-7b",
            r#"{"bits": 4, "group_size": 128, "modules_to_not_convert": null, "quant_method": "awq", "version": "gemm", "zero_point": true}"#,
            "float16",
            5_570_829_760u64,
        ),
        (
            // unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit: model.safetensors, 5,702,746,383 bytes
            // (LFS size of a byte-for-byte copy of the file, commit bd6885a0 of
            // manbeast3b/Meta-Llama-3.1-8B-Instruct-bnb-4bit9).
            "llama-3.1-8b",
            r#"{"_load_in_4bit": true, "_load_in_8bit": false, "bnb_4bit_compute_dtype": "bfloat16", "bnb_4bit_quant_storage": "uint8", "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": true, "llm_int8_enable_fp32_cpu_offload": false, "llm_int8_has_fp16_weight": false, "llm_int8_skip_modules": null, "llm_int8_threshold": 6.0, "load_in_4bit": true, "load_in_8bit": false, "quant_method": "bitsandbytes"}"#,
            "bfloat16",
            5_702_746_383,
        ),
    ];
    let mut configs: Vec<(String, String, u64)> = cases
        .iter()
        .map(|(base, quant, dtype, published)| {
            let mut cfg: serde_json::Value =
                serde_json::from_str(headroom_core::catalog::model(base).unwrap().config).unwrap();
            cfg["quantization_config"] = serde_json::from_str(quant).unwrap();
            cfg["torch_dtype"] = (*dtype).into();
            (base.to_string(), cfg.to_string(), *published)
        })
        .collect();
    // AutoGPTQ checkpoints with their own published configs (TheBloke's; LFS sizes in git
    // mirrors of the repositories, fixtures/configs/SOURCES.tsv): 4-bit and 3-bit, one group
    // per column, act-order.
    for (file, published) in [
        ("configs/quantized/wizard-vicuna-30b-uncensored-gptq.json", 16_940_128_464u64),
        ("configs/quantized/genz-70b-gptq.json", 26_774_982_616),
        // moonshotai/Kimi-K3 @ 9f62e4e9: 96 shards of 1,560,936,091,448 bytes in all (MXFP4
        // experts, the rest BF16, the vision tower with them).
        ("configs/kimi-k3.json", 1_560_936_091_448),
    ] {
        configs.push((file.to_string(), read_fixture(file), published));
    }
    for (name, config, published) in configs {
        let m = hf::parse_config(config.as_bytes()).unwrap();
        assert!(m.architecture.quant.is_some(), "{name}: a per-tensor plan");
        let s = Scenario {
            model: ModelSource::Custom(Box::new(m.into_custom(name.clone()))),
            ..Scenario::default()
        };
        let disk = estimate(&s).unwrap().disk.weights.get();
        let off = (disk as f64 - published as f64) / published as f64;
        assert!(off.abs() < 0.005, "{name}: {disk} against {published} ({:+.3}%)", off * 100.0);
    }
}

/// A rule whose targets name no module of the model (as Headroom names them) is said, naming
/// its field, and widens the weights' band: what it quantizes may be priced in the base format.
#[test]
fn a_rule_that_names_no_module_is_said() {
    let m = with_quant("ct-w4a16", |q| {
        q["config_groups"]["group_0"]["targets"] = serde_json::json!(["re:.*ffn.*(gate|up|down)_proj$"])
    });
    let n = m.notices.iter().find(|n| n.id == MsgId::NoticeQuantUnmatched).expect("said");
    assert!(format!("{:?}", n.args).contains("group_0.targets"), "{:?}", n.args);
    let s =
        Scenario { model: ModelSource::Custom(Box::new(m.into_custom("x".into()))), ..Scenario::default() };
    let e = estimate(&s).unwrap();
    let w = e.memory.term(TermKind::Weights).unwrap();
    assert!(w.low.get() * 2 < w.bytes.get(), "{w:?}");
    assert!(e.warnings.iter().any(|m| m.id == MsgId::NoticeQuantUnmatched));
    // Every fixture's rules find their modules.
    for case in CASES {
        assert!(!model(case).notices.iter().any(|n| n.id == MsgId::NoticeQuantUnmatched), "{case}");
    }
}

/// NVIDIA's Qwen3.6-27B NVFP4 (ModelOpt MIXED_PRECISION, its published config): every module
/// its `quantized_layers` names is found and priced in its own format — the 193 weight-only NVFP4
/// tensors (the MLPs and the head) and the 208 FP8 ones, the Gated DeltaNet's `in_proj_qkv` and
/// `in_proj_z` included (Qwen3.5 stores them apart from `in_proj_b`/`in_proj_a`).
#[test]
fn a_modelopt_mixed_checkpoint_prices_every_listed_module_in_its_format() {
    let text = read_fixture("configs/quantized/qwen3.6-27b-nvfp4.json");
    let m = hf::parse_config(text.as_bytes()).unwrap();
    let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    let listed = raw["quantization_config"]["quantized_layers"].as_object().unwrap();
    let want = |algo: &str| listed.values().filter(|l| l["quant_algo"] == algo).count();
    let p = tensors::weight_bytes(&m.architecture, m.format.unwrap()).unwrap();
    let got = |f: WeightFormat| p.formats.iter().filter(|g| **g == f).count();
    assert_eq!(got(WeightFormat::Nvfp4A16), want("W4A16_NVFP4"));
    let fp8 = WeightFormat::Fp8Scaled {
        grain: headroom_core::precision::Grain::Tensor,
        scale_bytes: 4,
        input_bytes: 4,
    };
    assert_eq!(got(fp8), want("FP8"));
    assert!(
        !m.notices.iter().any(|n| n.id == MsgId::NoticeQuantInvalid || n.id == MsgId::NoticeQuantUnmatched)
    );
}

/// A rule that finds some modules but lists others Headroom does not have (a misspelt or
/// unknown name) is said, and the weights' band opens downwards only: those modules are priced in
/// the base format, above what the checkpoint stores.
#[test]
fn a_rule_with_entries_that_name_nothing_is_said_and_lowers_the_band() {
    let m = with_quant("ct-w4a16", |q| {
        q["config_groups"]["group_0"]["targets"] =
            serde_json::json!(["Linear", "model.layers.0.mlp.dwn_proj"])
    });
    assert!(m.notices.iter().any(|n| n.id == MsgId::NoticeQuantEntriesUnmatched), "{:?}", m.notices);
    let s =
        Scenario { model: ModelSource::Custom(Box::new(m.into_custom("x".into()))), ..Scenario::default() };
    let e = estimate(&s).unwrap();
    let w = e.memory.term(TermKind::Weights).unwrap();
    assert!(w.low < w.bytes && w.high == w.bytes, "{w:?}");
}

/// SGLang's FP8 conversion of DeepSeek-V4-Flash names its `model_type` `deepseek_ref` and its class
/// `DeepseekV4ForCausalLM`: it is read as DeepSeek V4 (the class vLLM and SGLang load), said so,
/// with the same parameters as DeepSeek's own config; without an `expert_dtype` its experts are in
/// the block FP8 of the rest, so the weights are those of FP8 (a byte a weight and a scale per
/// 128 × 128), not DeepSeek's FP4 experts.
#[test]
fn a_deepseek_v4_conversion_is_read_by_its_class_with_fp8_experts() {
    let m = hf::parse_config(read_fixture("configs/quantized/deepseek-v4-flash-fp8-sglang.json").as_bytes())
        .unwrap();
    assert_eq!(m.architecture.family, "deepseek_v4");
    assert!(m.notices.iter().any(|n| n.id == MsgId::NoticeFamilyByArchitecture));
    let params = m.architecture.params_total().unwrap().get();
    assert_eq!(params, 284_334_567_511);
    let s =
        Scenario { model: ModelSource::Custom(Box::new(m.into_custom("sgl".into()))), ..Scenario::default() };
    let disk = estimate(&s).unwrap().disk.weights.get() as f64;
    // Above one byte a weight (its BF16 norms, embeddings and head, the scales), far above the
    // 0.53 of MXFP4 experts.
    assert!(disk > params as f64 && disk < params as f64 * 1.05, "{disk} for {params}");
}

/// Moonshot's Kimi K3 (`kimi_k3`, its published config; the checkpoint's listing of 497,220
/// tensors, `fixtures/configs/SOURCES.tsv`): a Kimi Linear text model — 69 KDA layers whose output
/// gate is full-rank (`use_full_rank_gate`), 24 NoPE MLA layers with an output gate, attention
/// residuals (two norms and two `hidden → 1` projections a layer, one of each at the end), a dense
/// first layer, then 896 MXFP4 experts of 3,072 in a 3,584-wide latent (its BF16 down and up
/// projections and norm), two shared experts — and a MoonViT tower. The listing gives
/// 2,779,484,478,208 text parameters: ours less 32 `A_log` values a KDA layer (the checkpoint
/// stores 128 where vLLM's module loads one a head, 96); the tower's 447,358,976 exactly; the
/// experts' packed weights and E8M0 scales to the byte. Under vLLM's tensor parallelism the latent
/// projections are `ReplicatedLinear`: whole on every GPU.
#[test]
fn kimi_k3_is_read_as_its_checkpoint_lists_it() {
    let m = hf::parse_config(read_fixture("configs/kimi-k3.json").as_bytes()).unwrap();
    let a = &m.architecture;
    assert_eq!(a.params_total().unwrap().get(), 2_779_484_478_208 - 32 * 69);
    let tower: u64 = a.encoders.iter().map(headroom_core::model::Encoder::params).sum();
    assert_eq!(tower, 447_358_976);
    let p = tensors::weight_bytes(a, m.format.unwrap()).unwrap();
    let by = quant::bytes_by_format(&p, WeightFormat::Bf16);
    let mxfp4 = by.iter().find(|(f, _)| f.id() == "mxfp4").map(|(_, b)| *b).unwrap();
    // 92 layers × 896 experts × (w1, w3: 3,072 × 1,792 bytes and 3,072 × 112 scales; w2: 3,584 ×
    // 1,536 and 3,584 × 96).
    assert_eq!(mxfp4, 92 * 896 * (2 * 3072 * (1792 + 112) + 3584 * (1536 + 96)));
    // The latent projections stay BF16 though the rule targets every `Linear`.
    let latent: u64 = p
        .tensors
        .iter()
        .zip(&p.bytes)
        .filter(|(t, _)| t.role == headroom_core::tensor::Role::MoeLatent)
        .map(|(_, b)| *b)
        .sum();
    assert_eq!(latent, 92 * 2 * 3584 * 7168 * 2);
    // On eight GPUs each holds an eighth of the rest and the latent projections whole.
    let tp = |gpus: u64| {
        let s = Scenario {
            model: ModelSource::Custom(Box::new(
                hf::parse_config(read_fixture("configs/kimi-k3.json").as_bytes())
                    .unwrap()
                    .into_custom("kimi-k3".into()),
            )),
            gpus,
            runtime: Some(headroom_core::inference::Runtime::Vllm),
            ..Scenario::default()
        };
        let e = estimate(&s).unwrap();
        e.memory.get(TermKind::Weights).get()
    };
    // Its attention residuals keep the outputs of cdiv(93, 12) = 8 blocks for every token through
    // vLLM's profile step, on every GPU.
    assert_eq!(a.residual_blocks, 8);
    let plain = headroom_core::model::Architecture { residual_blocks: 0, ..a.clone() };
    let peak =
        |x: &headroom_core::model::Architecture| headroom_core::vllm::profile_peak(x, 8192, 1, 8).get();
    assert_eq!(peak(a) - peak(&plain), 8192 * 8 * 7168 * 2);
    let (one, eight) = (tp(1), tp(8));
    // What vLLM keeps whole besides: the routers (92 × 896 × 7,168 in BF16), MLA's down
    // projections, the norms.
    let router = 92 * 896 * 7168 * 2;
    assert!(eight > one / 8 + (latent + router) * 7 / 8, "{eight} on each of 8 GPUs, {one} on one");
    assert!(eight < one / 8 + latent + router + (1 << 30), "{eight} on each of 8 GPUs, {one} on one");
}

/// Kimi K3.1 (vLLM's `KimiK31ForConditionalGeneration`, `KimiLinearDSAConfig`): K3's layout with
/// DeepSeek V3.2's indexer on the MLA layers `dsa_config.dsa_layers` lists (from 1) — a query
/// projection from the query latent (`index_num_heads × index_head_dim`), a key and head weights
/// from the hidden state, the key's LayerNorm — whose keys vLLM caches in FP8 with one FP32 scale
/// a key. Here K3's published config with such a `dsa_config` on its 24 MLA layers.
#[test]
fn kimi_k31_runs_an_indexer_on_the_layers_its_dsa_config_lists() {
    let text = read_fixture("configs/kimi-k3.json");
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["model_type"] = "kimi_k31".into();
    let full = v["text_config"]["linear_attn_config"]["full_attn_layers"].clone();
    v["text_config"]["dsa_config"] = serde_json::json!({"dsa_layers": full, "index_topk": 2048,
        "index_head_dim": 64, "index_num_heads": 16, "index_rope_dim": 0, "index_k_norm_type": "layernorm",
        "index_topk_freq": 1});
    let k3 = hf::parse_config(text.as_bytes()).unwrap().architecture;
    let k31 = hf::parse_config(v.to_string().as_bytes()).unwrap().architecture;
    let added = k31.params_total().unwrap().get() - k3.params_total().unwrap().get();
    assert_eq!(added, 24 * (16 * 64 * 1536 + 64 * 7168 + 2 * 64 + 16 * 7168));
    let kv = |a: &headroom_core::model::Architecture| {
        headroom_core::inference::kv_bytes_per_token(a, headroom_core::precision::KvDtype::Bf16)
    };
    assert_eq!((kv(&k3), kv(&k31)), (24 * 576 * 2, 24 * (576 * 2 + 64 + 4)));
    assert_eq!(k31.encoders.len(), 1, "its tower is read as K3's");
    // A sharing frequency Kimi's kernels refuse, or no layer list, is refused naming the field.
    for (edit, field) in [
        (serde_json::json!({"dsa_layers": [4], "index_topk_freq": 2}), "index_topk_freq"),
        (serde_json::json!({"index_topk": 2048}), "dsa_layers"),
        (serde_json::json!({"dsa_layers": ["4"]}), "dsa_layers"),
    ] {
        v["text_config"]["dsa_config"] = edit;
        let e = hf::parse_config(v.to_string().as_bytes()).unwrap_err().to_string();
        assert!(e.contains(field), "{e}");
    }
}
