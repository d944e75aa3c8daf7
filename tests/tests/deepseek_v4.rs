//! DeepSeek V4 read from its published config (`fixtures/configs/deepseek-v4-pro.json`):
//! parameters as transformers 5.24 builds them (also checked layer by layer in
//! `reference_counts.rs`), the checkpoint's FP4 experts beside FP8 blocks priced tensor by
//! tensor, its compressed caches, and bad configs refused by name.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::{TermKind, estimate};
use headroom_core::hardware::DeviceChoice;
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::{Runtime, kv_bytes_per_token, state_bytes_per_sequence};
use headroom_core::precision::{KvDtype, WeightFormat};
use headroom_core::quant;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::tensors;
use headroom_core::text::MsgId;
use headroom_tests::read_fixture;

fn pro() -> serde_json::Value {
    serde_json::from_str(&read_fixture("configs/deepseek-v4-pro.json")).unwrap()
}

fn read(v: &serde_json::Value) -> headroom_core::error::Result<HfModel> {
    parse_config(v.to_string().as_bytes())
}

fn scenario(m: HfModel, runtime: Option<Runtime>) -> Scenario {
    Scenario {
        model: ModelSource::Custom(Box::new(m.into_custom("v4".into()))),
        runtime,
        ..Scenario::default()
    }
}

#[test]
fn v4_pro_counts_and_prices_as_its_checkpoint() {
    let m = read(&pro()).unwrap();
    let a = &m.architecture;
    let b = a.param_breakdown().unwrap();
    // transformers 5.24 on the meta device: 1,572,999,528,803 with the FP32 correction biases and
    // the int64 hash tables; the MTP module (stored, not built by transformers) from the
    // reference code's shapes: a window-only layer, e/h projections, norms, its own
    // hyper-connection head.
    assert_eq!(b.total(), 1_572_999_528_803);
    assert_eq!(b.mtp, 25_840_145_979);
    // Routed experts in FP4 (E2M1 pairs and a UE8M0 scale per 32), the rest of the matrices in
    // FP8 blocks with one UE8M0 byte each, compressors, embeddings and head in BF16, FP32 state.
    assert_eq!(m.format, Some(WeightFormat::Mxfp4));
    let p = tensors::weight_bytes(a, WeightFormat::Mxfp4).unwrap();
    let ids: Vec<String> =
        quant::bytes_by_format(&p, WeightFormat::Mxfp4).iter().map(|(f, _)| f.id()).collect();
    assert_eq!(ids[..2], ["mxfp4".to_string(), "fp8-b128-s1-i0".to_string()], "{ids:?}");
    // The checkpoint: "865 GB of weights" (vllm-project/recipes PR #779), MTP included.
    let e = estimate(&scenario(m, None)).unwrap();
    let disk = e.disk.weights.get() as f64;
    assert!((disk / 865e9 - 1.0).abs() < 0.005, "{disk}");
}

#[test]
fn v4_caches_a_window_and_compressed_rows() {
    let a = read(&pro()).unwrap().architecture;
    // 30 layers of one 512-wide row and an FP8 indexer key (128 + a 4-byte scale) per 4 tokens,
    // 31 of one row per 128 tokens, in BF16.
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), 30 * (1024 + 132) / 4 + 31 * 1024 / 128);
    // Per sequence: every layer's 128-row window, the compressors' FP32 state (8 slots of
    // 2 × 1024 values and the indexer's 8 of 2 × 256 on CSA layers, 128 of 512 on HCA layers).
    let window = 61 * 128 * 512 * 2;
    let state = 30 * (2 * 8 * 1024 + 2 * 8 * 256) * 4 + 31 * (2 * 128 * 512) * 4;
    assert_eq!(state_bytes_per_sequence(&a, 2), window + state);
    // vLLM 0.34's FP8 layout (`_get_packed_kv_cache_groups`): pages padded to 576 bytes. The
    // compressed rows of a 256-token block (64 rows of 584 bytes a CSA layer, 2 a HCA one, the
    // CSA layers' 64 indexer keys of 132) are one group of 1,435,968 bytes — the widest, so the
    // block; the windows (64 tokens of 584 bytes, 61 layers in two groups of 31 repeats), the
    // CSA compressors' states (4 tokens of 2 × 2 × 512 and 2 × 2 × 128 FP32 values, window 8)
    // and the HCA ones' (8 tokens of 2 × 512, window 128) take blocks of their own.
    let mut s = scenario(read(&pro()).unwrap(), Some(Runtime::Vllm));
    s.kv = KvDtype::Fp8;
    s.gpus = 8;
    s.device = Some(DeviceChoice::Catalog("h200".into()));
    let e = estimate(&s).unwrap();
    let v = e.vllm.as_ref().unwrap();
    assert_eq!(v.block_size, 256);
    assert_eq!(v.block_bytes, 30 * 37_440 + 31 * 1_728 + 30 * 8_640);
    assert!(v.layout_exact);
    // A request of 4,096 tokens: 16 blocks of rows; two window groups of 4,096 / 64 + 1; the CSA
    // states 4,096 / 4 + 1, the HCA ones 4,096 / 8 + 1 (the window and the 2 × 8,192 tokens in
    // flight reach past the request).
    assert_eq!(v.blocks_per_request, 16 + 2 * 65 + 1025 + 513);
    // Its MTP module as a drafter attends through its window only: one more window page in the
    // windows' groups (62 of them, still two groups of 31), the same blocks.
    let mut mtp = s.clone();
    mtp.vllm.speculative = Some(headroom_core::vllm::Speculative::parse("mtp:1").unwrap());
    let m = estimate(&mtp).unwrap().vllm.unwrap();
    assert!(m.layout_exact);
    assert_eq!((m.block_bytes, m.blocks_per_request), (v.block_bytes, v.blocks_per_request));
    // One KV head: the cache is whole on every tensor-parallel GPU.
    let one = estimate(&Scenario { gpus: 1, device: None, ..s.clone() }).unwrap();
    assert_eq!(e.memory.get(TermKind::KvCache), one.memory.get(TermKind::KvCache));
}

#[test]
fn bad_v4_configs_name_the_field() {
    let mut v = pro();
    v["compress_ratios"][5] = 7.into();
    let err = format!("{}", read(&v).unwrap_err());
    assert!(err.contains("compress_ratios[5]"), "{err}");
    let mut v = pro();
    v["compress_ratios"] = serde_json::json!([4, 128]);
    assert!(format!("{}", read(&v).unwrap_err()).contains("compress_ratios"));
    let mut v = pro();
    v.as_object_mut().unwrap().remove("compress_ratios");
    assert!(format!("{}", read(&v).unwrap_err()).contains("compress_ratios"));
    // An expert dtype it does not know: said, priced as FP8 with a widened band.
    let mut v = pro();
    v["expert_dtype"] = "int2".into();
    let m = read(&v).unwrap();
    assert!(
        m.notices
            .iter()
            .any(|n| n.id == MsgId::NoticeQuantInvalid && format!("{:?}", n.args).contains("expert_dtype"))
    );
    let e = estimate(&scenario(m, None)).unwrap();
    let w = e.memory.term(TermKind::Weights).unwrap();
    assert!(w.low.get() * 2 < w.bytes.get(), "{w:?}");
    // FP8 experts (Flash-Base's layout) make the weights larger.
    let mut v = pro();
    v["expert_dtype"] = "fp8".into();
    let fp8 = read(&v).unwrap();
    let fp4 = read(&pro()).unwrap();
    let bytes = |m: &HfModel| tensors::weight_bytes(&m.architecture, m.format.unwrap()).unwrap().total();
    assert!(bytes(&fp8) > bytes(&fp4));
}

/// The Flash releases quantized by others, from their published configs: NVIDIA's ModelOpt
/// mix names the experts as DeepSeek's own checkpoints do (`layers.N.ffn.experts`), RedHat's
/// llm-compressor groups as vLLM's model does (`attn.fused_wqa_wkv`, `ffn.experts.E.gate_proj`);
/// every rule finds its modules, and `expert_dtype` does not override their formats.
#[test]
fn v4_flash_quantized_by_modelopt_and_llm_compressor() {
    use headroom_core::import::hf::parse_config_with_quant;
    let formats = |m: &HfModel| -> Vec<String> {
        let p = tensors::weight_bytes(&m.architecture, m.format.unwrap()).unwrap();
        quant::bytes_by_format(&p, m.format.unwrap()).iter().map(|(f, _)| f.id()).collect()
    };
    let unmatched = |m: &HfModel| m.notices.iter().any(|n| n.id == MsgId::NoticeQuantUnmatched);
    let nvidia = parse_config_with_quant(
        read_fixture("configs/quantized/deepseek-v4-flash-nvfp4.json").as_bytes(),
        Some(read_fixture("configs/quantized/deepseek-v4-flash-nvfp4.hf_quant_config.json").as_bytes()),
    )
    .unwrap();
    assert_eq!(nvidia.architecture.param_breakdown().unwrap().total(), 284_334_567_511);
    assert!(!unmatched(&nvidia), "{:?}", nvidia.notices);
    // NVFP4 experts; attention, shared experts and head excluded, in BF16.
    assert_eq!(formats(&nvidia), ["nvfp4", "bf16"]);
    let redhat = read(
        &serde_json::from_str(&read_fixture("configs/quantized/deepseek-v4-flash-nvfp4-fp8.json")).unwrap(),
    )
    .unwrap();
    assert!(!unmatched(&redhat), "{:?}", redhat.notices);
    // NVFP4 routed and shared experts, FP8 blocks on the attention's projections.
    let f = formats(&redhat);
    assert_eq!(f[0], "nvfp4", "{f:?}");
    assert!(f.iter().any(|x| x.starts_with("fp8")), "{f:?}");
    let nv = tensors::weight_bytes(&nvidia.architecture, nvidia.format.unwrap()).unwrap().total();
    let rh = tensors::weight_bytes(&redhat.architecture, redhat.format.unwrap()).unwrap().total();
    assert!(rh < nv, "FP8 attention and NVFP4 shared experts weigh less than BF16 ones");
}
