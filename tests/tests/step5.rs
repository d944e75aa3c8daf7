//! Step 5 (the September 2026 Step-5-Preview) read from its config
//! (`fixtures/configs/step5-preview.json`: the release's keys and values as a public port's
//! header listing quotes them, not a verbatim copy — see SOURCES.tsv): 92 grouped-query layers,
//! 23 of them attending the whole context through a sparse indexer that caches one summary row a
//! region of tokens, 69 sliding over 512; 352 experts; three prediction modules with heads of their
//! own; the Perception Encoder. Counts against the release's 2,449 tensors and vLLM 0.34's own
//! pool planning run on the same layer specs.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::estimate;
use headroom_core::hardware::DeviceChoice;
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::{Runtime, kv_bytes_per_token};
use headroom_core::model::{Mixer, Span};
use headroom_core::precision::{KvDtype, WeightFormat};
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::tensors;
use headroom_core::vllm::{SpecMethod, Speculative, VllmBudget};
use headroom_tests::read_fixture;

fn config() -> serde_json::Value {
    serde_json::from_str(&read_fixture("configs/step5-preview.json")).unwrap()
}

fn read(v: &serde_json::Value) -> HfModel {
    parse_config(v.to_string().as_bytes()).unwrap()
}

/// The text model: 92 layers of 107,217,280 attention parameters (64 query heads and 4 KV heads
/// of 192, the per-head gate, per-head norms), the indexer's 18,940,736 on the 23 full layers,
/// four dense MLPs (0–2 and 91) and 88 MoE layers of 352 experts with a shared one: 598,476,053,952
/// parameters, 27,111,185,856 a token (the model card: "600B total, 27B active"); the three
/// prediction modules 838,619,520 each (the release's `model.layers.92…94`, 17 tensors each).
#[test]
fn step5_text_and_prediction_modules_count_as_released() {
    let m = read(&config());
    let a = &m.architecture;
    assert_eq!(a.family, "step5");
    let b = a.param_breakdown().unwrap();
    assert_eq!(b.total(), 598_476_053_952);
    assert_eq!(a.params_active().unwrap().get(), 27_111_185_856);
    assert_eq!(b.mtp, 3 * 838_619_520);
    assert_eq!(a.mtp.as_ref().map(|x| x.modules), Some(3));
    // The tensors the release lists: 828 attention and norm tensors, the indexer's (its four
    // matrices, and its FP32 vectors — two norms and the softmax scales, four tensors there —
    // as one here), 12 of the dense MLPs, 704 of the experts' layers, the embedding, head and final
    // norm.
    let text = tensors::weight_bytes(a, WeightFormat::Bf16).unwrap();
    assert_eq!(text.tensors.len() as u64, 92 * 9 + 23 * 5 + 4 * 3 + 88 * 8 + 3);
}

/// Every fourth layer (3, 7, …, 91) attends the whole context and keeps, beside its 4 KV heads of
/// 192, one 256-byte FP8 summary every 8 tokens (32 bytes a token); the other 69 slide over 512.
#[test]
fn step5_full_layers_keep_a_summary_beside_k_and_v() {
    let a = read(&config()).architecture;
    let (mut full, mut sliding) = (0, 0);
    for (n, m) in a.mixers() {
        let Mixer::Attention(at) = m else { panic!("not attention: {m:?}") };
        assert_eq!((at.num_heads, at.num_kv_heads, at.head_dim), (64, 4, 192));
        match at.span {
            Span::Full => {
                full += n;
                assert_eq!(at.index_key * 2, 32);
            }
            Span::Sliding { window } => {
                sliding += n;
                assert_eq!((window, at.index_key), (512, 0));
            }
            other => panic!("unexpected span {other:?}"),
        }
    }
    assert_eq!((full, sliding), (23, 69));
    // Every token, before windows: 92 × 2 × 4 × 192 × 2 bytes and 23 summaries of 32. An FP8
    // cache halves K and V, never the summaries.
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), 92 * 3072 + 23 * 32);
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Fp8), 92 * 1536 + 23 * 32);
}

/// The release's own names (`step3p5v` wrapping `step4`, `MMGPTStepRoboticsForCausalLM`) and vLLM
/// 0.34's (`step5_vl` wrapping `step5`) read the same model; `moe_layer_list` stands for
/// `moe_layers_enum`, and the two refused where they disagree.
#[test]
fn step5_reads_under_the_release_names_and_vllms() {
    let release = config();
    let mut vllm = release.clone();
    vllm["model_type"] = "step5_vl".into();
    vllm["architectures"] = serde_json::json!(["Step5ForConditionalGeneration"]);
    vllm["text_config"]["model_type"] = "step5".into();
    vllm["text_config"]["architectures"] = serde_json::json!(["Step5ForCausalLM"]);
    let layers: Vec<u64> = (3..91).collect();
    vllm["text_config"].as_object_mut().unwrap().remove("moe_layers_enum");
    vllm["text_config"]["moe_layer_list"] = serde_json::json!(layers);
    let (a, b) = (read(&release).architecture, read(&vllm).architecture);
    assert_eq!(a.param_breakdown().unwrap(), b.param_breakdown().unwrap());
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), kv_bytes_per_token(&b, KvDtype::Bf16));
    let mut both = vllm.clone();
    both["text_config"]["moe_layers_enum"] = "3,4".into();
    let e = parse_config(both.to_string().as_bytes()).unwrap_err().to_string();
    assert!(e.contains("moe_layers_enum") && e.contains("moe_layer_list"), "{e}");
    // Without a list vLLM routes every layer but the first.
    let mut none = vllm;
    none["text_config"].as_object_mut().unwrap().remove("moe_layer_list");
    let c = read(&none).architecture;
    assert_eq!(c.moe_layers(), 91);
}

/// Without the indexer (`sparse_config.enabled: false`) the full layers cache K and V only and
/// store no indexer; a broken section is refused by name.
#[test]
fn step5_without_sparse_attention_drops_the_indexer() {
    let mut v = config();
    v["text_config"]["sparse_config"]["enabled"] = false.into();
    let a = read(&v).architecture;
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), 92 * 3072);
    assert_eq!(a.param_breakdown().unwrap().total(), 598_476_053_952 - 23 * 18_940_736);
    v["text_config"]["sparse_config"] = serde_json::json!({"region_block_size": 0});
    let e = parse_config(v.to_string().as_bytes()).unwrap_err().to_string();
    assert!(e.contains("region_block_size"), "{e}");
}

/// The Perception Encoder (47 blocks of 1,536, an MLP of 8,960, two stride-2 convolutions) and its
/// projector into 4,096: 1,955,848,960 + 25,165,824 parameters, the release's 667 `vision_model.*`
/// tensors. The Step-3 VL processor's views: 171 tokens below 728 pixels, 504 at 728 (four crops),
/// 3,164 at the largest side, 3,024 (36 crops) — what vLLM profiles with.
#[test]
fn step5_vision_counts_and_its_views() {
    let a = read(&config()).architecture;
    assert_eq!(a.encoders.len(), 1);
    let e = &a.encoders[0];
    assert_eq!(e.params(), 1_955_848_960 + 25_165_824);
    assert_eq!(e.tokens_per_image(500), 171);
    assert_eq!(e.tokens_per_image(728), 504);
    assert_eq!(e.tokens_per_image(3024), 3164);
    assert_eq!(e.tokens_per_image(4000), 3164);
    assert_eq!(e.max_tokens(), 3164);
    // A side's crops round up only past a fifth of one: 1,008 is two, 1,109 three.
    assert_eq!(e.tokens_per_image(1008), 4 * 83 + 171 + 1);
    assert_eq!(e.tokens_per_image(1109), 9 * 83 + 171 + 2);
    // The global view's 52 × 52 patches and each crop's 36 × 36.
    assert_eq!(e.patches_per_image(728), 2704 + 4 * 1296);
}

fn on_gpus(gpus: u64, kv: KvDtype, mtp: bool) -> VllmBudget {
    let mut s = Scenario {
        model: ModelSource::Custom(Box::new(read(&config()).into_custom("step5".into()))),
        runtime: Some(Runtime::Vllm),
        gpus,
        context: 4096,
        kv,
        weights: Some(WeightFormat::Nvfp4),
        device: Some(DeviceChoice::Catalog("b200".into())),
        ..Scenario::default()
    };
    if mtp {
        s.vllm.speculative = Some(Speculative { method: SpecMethod::Mtp, tokens: 3 });
    }
    estimate(&s).unwrap().vllm.unwrap()
}

/// vLLM 0.34 packs Step 5's pool block-outermost in five groups: the 23 full layers' K and V pages
/// with their summaries (2,048 bytes a block), the 23 rings (one K and V page each), and the 69
/// sliding layers in three groups of 23 (24 with the three prediction layers: `_approximate_gcd`
/// of 23, 23 and 72 from 23); a block is the widest group rounded to the common multiple of an
/// 8-token page and 1,024 bytes. The bytes a block are what vLLM's own
/// `_get_packed_kv_cache_groups` and `_get_kv_cache_bytes_per_block` give on these specs.
#[test]
fn step5_pool_under_vllm_packs_summaries_rings_and_windows() {
    let cases: [(u64, KvDtype, bool, u64); 12] = [
        (1, KvDtype::Bf16, false, 4_571_136),
        (1, KvDtype::Bf16, true, 4_718_592),
        (2, KvDtype::Bf16, false, 2_310_144),
        (2, KvDtype::Bf16, true, 2_359_296),
        (4, KvDtype::Bf16, false, 1_179_648),
        (8, KvDtype::Bf16, true, 1_179_648),
        (1, KvDtype::Fp8, false, 2_310_144),
        (1, KvDtype::Fp8, true, 2_359_296),
        (2, KvDtype::Fp8, false, 1_179_648),
        (4, KvDtype::Fp8, false, 614_400),
        (8, KvDtype::Fp8, false, 614_400),
        (8, KvDtype::Fp8, true, 614_400),
    ];
    for (gpus, kv, mtp, bytes) in cases {
        let v = on_gpus(gpus, kv, mtp);
        assert!(v.layout_exact, "{gpus} {kv:?} {mtp}");
        assert_eq!(v.block_size, 64);
        assert_eq!(v.block_bytes, bytes, "{gpus} GPUs, {kv:?}, MTP {mtp}");
    }
    // A request of 4,096 tokens: 64 blocks of the full group, one ring, and each sliding group
    // its 4,096 tokens (the window and the two scheduler steps in flight reach past them) and one
    // more: 260 blocks, 0.2856 GiB a GPU at TP 8.
    // Other block sizes (`--block-size`), as vLLM's planning code gives them at TP 8: a block of
    // 64 tokens aligns the sparse pages on 8-token kernel blocks (one of 8 tokens would need none,
    // but its 6,144-byte page cannot hold the ring's seven rows: see below).
    for (tokens, bytes) in [(16u64, 294_912u64), (128, 2_359_296)] {
        let mut s = Scenario {
            model: ModelSource::Custom(Box::new(read(&config()).into_custom("step5".into()))),
            runtime: Some(Runtime::Vllm),
            gpus: 8,
            context: 4096,
            weights: Some(WeightFormat::Nvfp4),
            device: Some(DeviceChoice::Catalog("b200".into())),
            ..Scenario::default()
        };
        s.vllm.block_size = Some(tokens);
        let v = estimate(&s).unwrap().vllm.unwrap();
        assert_eq!((v.block_size, v.block_bytes), (tokens, bytes));
    }
    let v = on_gpus(8, KvDtype::Bf16, false);
    assert_eq!(v.blocks_per_request, 64 + 1 + 3 * 65);
    // vLLM 0.34's extensible cache: the blocks reserved from the profile step's estimate, cut to
    // the size measured after warmup.
    let m = v.measured.as_ref().expect("measured after warmup");
    assert_eq!(m.reserved_blocks, u64::try_from(v.available_kv).unwrap() / v.block_bytes);
    assert_eq!(v.num_blocks, m.reserved_blocks.min(u64::try_from(m.kv).unwrap() / v.block_bytes));
}

/// A Step 5 scenario under vLLM 0.34 on eight B200s, with the cache's dtype, `--block-size` and
/// MTP's speculative tokens.
fn with_block(kv: KvDtype, block: Option<u64>, mtp_tokens: u64) -> VllmBudget {
    let mut s = Scenario {
        model: ModelSource::Custom(Box::new(read(&config()).into_custom("step5".into()))),
        runtime: Some(Runtime::Vllm),
        gpus: 8,
        context: 4096,
        kv,
        weights: Some(WeightFormat::Nvfp4),
        device: Some(DeviceChoice::Catalog("b200".into())),
        ..Scenario::default()
    };
    s.vllm.block_size = block;
    if mtp_tokens > 0 {
        s.vllm.speculative = Some(Speculative { method: SpecMethod::Mtp, tokens: mtp_tokens });
    }
    estimate(&s).unwrap().vllm.unwrap()
}

/// Each sparse layer's ring of raw indexer keys is one of its K and V pages cut into 1,024-byte
/// rows, `7 + k` of them (`csa_tail_ring.py`). At TP 8 a GPU holds one KV head of 192: a row of
/// 768 bytes a token in BF16, 384 in FP8. A `--block-size` whose page is too small stops vLLM once
/// the weights are in, with the ring's own error and the weights' line before it; one that is not
/// whole eight-token regions with the summaries' error. Without `--block-size`, the 64-token
/// default holds 24 FP8 rows: enough up to 17 speculative tokens, and 128 tokens beyond.
#[test]
fn step5_block_must_hold_the_rings_rows() {
    use headroom_core::text::{Lang, MsgId};
    // BF16, 8 tokens: 6,144 bytes, six rows for seven; 16 tokens (12 rows) is the fix.
    let v = with_block(KvDtype::Bf16, Some(8), 0);
    let r = v.tp_refused.as_ref().expect("refused");
    assert!(r.loaded);
    assert_eq!(r.reason.id, MsgId::AdviceVllmStep5Block);
    assert_eq!(
        r.log,
        "ValueError: Step5 CSA tail ring needs 7 rows of 1024 bytes in one 6144-byte KV page; increase --block-size."
    );
    assert!(r.reason.render(Lang::En).contains("--block-size 16"), "{}", r.reason.render(Lang::En));
    let log = v.log_lines();
    assert_eq!(log.len(), 2);
    assert!(log[0].starts_with("Model loading took "), "{log:?}");
    // FP8 halves the row: 16 tokens are six rows again, 32 the fix.
    let v = with_block(KvDtype::Fp8, Some(16), 0);
    let r = v.tp_refused.as_ref().expect("refused");
    assert!(r.log.contains("one 6144-byte KV page"), "{}", r.log);
    assert!(r.reason.render(Lang::En).contains("--block-size 32"));
    assert!(with_block(KvDtype::Fp8, Some(32), 0).tp_refused.is_none());
    // MTP's three tokens want ten rows: 32 FP8 tokens hold twelve; six tokens want thirteen, which
    // 48 tokens (eighteen rows) hold.
    assert!(with_block(KvDtype::Fp8, Some(32), 3).tp_refused.is_none());
    let v = with_block(KvDtype::Fp8, Some(32), 6);
    let r = v.tp_refused.as_ref().expect("refused");
    assert!(r.log.starts_with("ValueError: Step5 CSA tail ring needs 13 rows"), "{}", r.log);
    assert!(r.reason.render(Lang::En).contains("--block-size 48"));
    // Not whole eight-token regions: the summaries' error, whatever the ring holds.
    let v = with_block(KvDtype::Bf16, Some(1), 0);
    let r = v.tp_refused.as_ref().expect("refused");
    assert_eq!(r.log, "ValueError: Step5 KV blocks must align to eight-token regions");
    // The default block: 64 tokens, up to 17 speculative tokens in FP8; 128 from 18.
    for (k, block) in [(0u64, 64u64), (17, 64), (18, 128)] {
        let v = with_block(KvDtype::Fp8, None, k);
        assert!(v.tp_refused.is_none(), "{k}");
        assert_eq!(v.block_size, block, "{k} speculative tokens");
    }
    // Past 128 tokens' 48 rows, vLLM stops even on its own block.
    let v = with_block(KvDtype::Fp8, None, 42);
    assert_eq!(v.block_size, 128);
    assert!(v.tp_refused.as_ref().is_some_and(|r| r.log.contains("needs 49 rows")));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// Whatever `--block-size` and speculative tokens: a block is refused exactly when its page
    /// on one GPU is not whole 1 KiB rows, `7 + k` of them, and the block the advice names starts.
    #[test]
    fn step5_advised_block_starts(n in 1u64..=32, k in 0u64..=20, fp8 in proptest::bool::ANY) {
        use headroom_core::text::Arg;
        let kv = if fp8 { KvDtype::Fp8 } else { KvDtype::Bf16 };
        let block = 16 * n;
        // One KV head of 192 a GPU at TP 8: 768 bytes a token in BF16, 384 in FP8.
        let page = block * if fp8 { 384 } else { 768 };
        let holds = page % 1024 == 0 && page / 1024 >= 7 + k;
        let v = with_block(kv, Some(block), k);
        proptest::prop_assert_eq!(v.tp_refused.is_none(), holds, "block {} k {}", block, k);
        if let Some(r) = &v.tp_refused {
            let Some(Arg::Int(fix)) = r.reason.args.last() else { panic!("no advised block") };
            proptest::prop_assert!(with_block(kv, Some(*fix), k).tp_refused.is_none(), "advised {}", fix);
        }
    }
}

/// Weights a GPU at TP 8: the indexer's query split over its four provider groups (then
/// repeated), its key and `z` whole, KV heads one a GPU; the prediction modules' input projection
/// whole on every GPU (`nn.Linear`), their own heads split: 0.754 GiB more with `mtp`.
#[test]
fn step5_weights_split_as_vllm_splits_them() {
    let a = read(&config()).architecture;
    let bf16 = |gpus, mtp| {
        let mut s = Scenario {
            model: ModelSource::Custom(Box::new(read(&config()).into_custom("step5".into()))),
            runtime: Some(Runtime::Vllm),
            gpus,
            context: 4096,
            text_only: true,
            device: Some(DeviceChoice::Catalog("b200".into())),
            ..Scenario::default()
        };
        if mtp {
            s.vllm.speculative = Some(Speculative { method: SpecMethod::Mtp, tokens: 3 });
        }
        estimate(&s).unwrap()
    };
    let plain = bf16(8, false);
    let idx_q = 23 * 4096 * 4096 * 2u64;
    let full = tensors::weight_bytes(&a, WeightFormat::Bf16).unwrap();
    // The split of the whole model but the indexer's query, which goes 1/4 rather than 1/8.
    let weights = plain.vllm.as_ref().unwrap().weights.get();
    assert!(weights > full.total().get() / 8 + idx_q / 8, "{weights}");
    let with = bf16(8, true).vllm.unwrap().weights.get();
    let module = 3
        * (2 * 12288 * 4096 * 2 / 8 // q and o, split
        + 2 * 192 * 4096 * 2 // k and v: one KV head a GPU
        + 64 * 4096 * 2 / 8 // the gate
        + 3 * 13824 * 4096 * 2 / 8 // the dense MLP
        + 4096 * 8192 * 2 // eh_proj, whole
        + 128896 * 4096 * 2 / 8 // its own head
        + (5 * 4096 + 2 * 192) * 2); // norms
    assert_eq!(with - weights, module);
}

/// Step-3.7-Flash's tower under transformers' key names (`step3p5_vision`: `hidden_size`,
/// `intermediate_size`, `num_hidden_layers`) is the same tower, and its processor (transformers
/// 5.24 `Step3p7ImageProcessor`, vLLM's `Step3VLProcessor`) cuts images the same way.
#[test]
fn step37_vision_is_the_same_tower_and_views() {
    let mut v = config();
    v["vision_config"] = serde_json::json!({
        "model_type": "step3p5_vision", "hidden_size": 1536, "intermediate_size": 8960,
        "num_hidden_layers": 47, "patch_size": 14, "image_size": 728
    });
    let a = read(&v).architecture;
    let e = &a.encoders[0];
    assert_eq!(e.params(), 1_955_848_960 + 25_165_824);
    assert_eq!((e.tokens_per_image(600), e.tokens_per_image(1920)), (171, 16 * 83 + 171 + 3));
    // A ratio that is no ratio is refused by name.
    v["vision_config"] = serde_json::json!({"model_type": "perception_encoder", "mlp_ratio": -1.0});
    let e = parse_config(v.to_string().as_bytes()).map(|m| m.notices).unwrap_or_default();
    let shown = format!("{e:?}");
    assert!(shown.contains("mlp_ratio"), "{shown}");
    // Absurd sizes under either naming are refused by name, not overflowed.
    for (k, n) in [("width", 99_999_999_999u64), ("layers", 99_999_999_999), ("hidden_size", 1 << 40)] {
        v["vision_config"] = serde_json::json!({"model_type": "perception_encoder", k: n});
        let m = read(&v);
        assert!(m.architecture.encoders.is_empty(), "{k}");
        assert!(format!("{:?}", m.notices).contains(k), "{k}: {:?}", m.notices);
    }
}

/// vLLM builds a rotary cache for each distinct width, base and scaling: the sliding layers'
/// 192 at 10⁴, the full layers' third (64) at 10⁷ with llama3 scaling, the indexer's 32 — each
/// 1,048,576 positions in BF16 (576 MiB) — and the sparse backend's 128 MiB workspace, all in
/// "Model loading took".
#[test]
fn step5_rotary_caches_and_workspace_load_with_the_model() {
    let a = read(&config()).architecture;
    assert_eq!(a.rotary_widths, [192, 64, 32]);
    let mib = 1u64 << 20;
    assert_eq!(headroom_core::vllm::rotary_cache(&a).get(), 576 * mib + 128 * mib);
    // One base and factor everywhere: one cache of the head, and the indexer's.
    let mut v = config();
    v["text_config"]["rope_theta"] = 10000.0.into();
    v["text_config"].as_object_mut().unwrap().remove("partial_rotary_factors");
    v["text_config"].as_object_mut().unwrap().remove("rope_scaling");
    assert_eq!(read(&v).architecture.rotary_widths, [192, 32]);
}

/// vLLM builds Step 5's sparse attention on SM 9.0, 10.0 and 10.3 only: an A100 or an L40S is
/// refused whatever its memory, an H200 is not.
#[test]
fn step5_sparse_attention_needs_hopper_or_blackwell_datacentre_gpus() {
    use headroom_core::catalog;
    use headroom_core::fit::{Verdict, fit};
    use headroom_core::text::MsgId;
    let s = Scenario {
        model: ModelSource::Custom(Box::new(read(&config()).into_custom("step5".into()))),
        runtime: Some(Runtime::Vllm),
        gpus: 8,
        context: 8192,
        weights: Some(WeightFormat::Nvfp4),
        ..Scenario::default()
    };
    for id in ["a100-sxm4-80gb", "l40s"] {
        let f = fit(&s, catalog::device(id).unwrap()).unwrap();
        assert_eq!(f.verdict, Verdict::No, "{id}");
        assert_eq!(f.refusal().map(|m| m.id), Some(MsgId::AdviceVllmKernelsMissing), "{id}");
    }
    let f = fit(&s, catalog::device("h200-sxm").unwrap()).unwrap();
    assert!(f.refusal().is_none(), "{:?}", f.refusal());
    // AMD GPUs run vLLM's ROCm path of the model, whose pool is not read here: said approximate.
    let f = fit(&s, catalog::device("mi300x").unwrap()).unwrap();
    assert!(f.refusal().is_none(), "{:?}", f.refusal());
    let e = estimate(&Scenario { device: Some(DeviceChoice::Catalog("mi300x".into())), ..s }).unwrap();
    assert!(!e.vllm.unwrap().layout_exact);
}
