//! DeepSeek V4.1 read from its official config (`fixtures/configs/deepseek-v4.1-flash.json`):
//! parameters and checkpoint bytes part by part against the published index, the vision tower's
//! tokens, vLLM 0.34's placement (Engram tables in host memory, MXFP8 scales, whole experts under
//! expert parallelism) and its packed KV cache on Hopper and Blackwell, and bad configs refused by
//! name.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::estimate;
use headroom_core::hardware::DeviceChoice;
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::Runtime;
use headroom_core::loads::{Loads, loads};
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::tensors;
use headroom_core::text::MsgId;
use headroom_core::units::GIB;
use headroom_tests::read_fixture;

fn flash() -> serde_json::Value {
    serde_json::from_str(&read_fixture("configs/deepseek-v4.1-flash.json")).unwrap()
}

fn read(v: &serde_json::Value) -> headroom_core::error::Result<HfModel> {
    parse_config(v.to_string().as_bytes())
}

fn on_vllm(device: &str, expert_parallel: bool) -> Scenario {
    let m = read(&flash()).unwrap();
    let mut s = Scenario {
        model: ModelSource::Custom(Box::new(m.into_custom("v41".into()))),
        runtime: Some(Runtime::Vllm),
        gpus: 8,
        device: Some(DeviceChoice::Catalog(device.into())),
        ..Scenario::default()
    };
    s.vllm.expert_parallel = expert_parallel;
    s
}

/// The published `model.safetensors.index.json`: total_size 510,286,023,000 bytes, split by
/// public notes into the backbone's 298,309,535,168, the Engram tables and projections'
/// 203,073,076,240, DSpark's 7,932,874,632 and vision's 970,536,960; 763 B parameters (HF).
#[test]
fn v41_flash_counts_and_prices_as_its_index() {
    let m = read(&flash()).unwrap();
    assert!(m.notices.is_empty(), "{:?}", m.notices);
    let a = &m.architecture;
    let b = a.param_breakdown().unwrap();
    // The backbone's 551,880,835,184 (Engram projections included) and the tables' 196,613,849,600
    // (two tables of 384,006,168 and 384,016,682 rows of 256).
    assert_eq!(b.total(), 551_880_835_184 + 196_613_849_600);
    // Beside the layers' own blocks: the tables, the Engram key/value projections (25,600 ×
    // 6,144) and every layer's FP32 hyper-connection maps (2 × (24 × 20,480 + 24 + 3)) and image
    // routing bias (384).
    assert_eq!(b.other, 196_613_849_600 + 2 * 25_600 * 6_144 + 40 * (2 * (24 * 20_480 + 24 + 3) + 384));
    assert_eq!(b.mtp, 14_225_362_530);
    let vision: u64 = a.encoders.iter().map(|e| e.params()).sum();
    assert_eq!(vision, 485_268_480);
    assert_eq!(b.total() + b.mtp + vision, 763_205_315_794);
    // Bytes: FP4 experts (E2M1 pairs, a UE8M0 scale per 32), FP8 32 × 32 blocks with one UE8M0
    // byte each, the tables in FP8 rows with a UE8M0 scale per 32 values, BF16 and FP32 else.
    let format = m.format.unwrap();
    let p = tensors::weight_bytes(a, format).unwrap();
    let parts: Vec<(String, u64)> =
        headroom_core::quant::bytes_by_format(&p, format).iter().map(|(f, n)| (f.id(), *n)).collect();
    assert_eq!(parts[0], ("mxfp4".to_string(), 288_777_830_400));
    assert_eq!(parts[1], ("fp8-b1x32-s1-i0".to_string(), 202_758_032_400));
    assert_eq!(p.total().get(), 298_309_535_168 + 203_073_076_240);
    assert_eq!(tensors::mtp_bytes(a, format).unwrap().get(), 7_932_874_632);
    assert_eq!(p.total().get() + 7_932_874_632 + 2 * vision, 510_286_023_000);
}

/// The vision tower's tokens (vLLM's `mm_preprocess.py`): an image scaled up to 544² pixels at
/// least, `⌈side / 42⌉` tokens a row with a newline each, a start and an end; 1,024 at most.
#[test]
fn v41_images_are_rows_framed_and_capped() {
    let m = read(&flash()).unwrap();
    let e = &m.architecture.encoders[0];
    assert_eq!(e.tokens_per_image(224), 13 * 14 + 2);
    assert_eq!(e.tokens_per_image(544), 13 * 14 + 2);
    assert_eq!(e.tokens_per_image(1024), 25 * 26 + 2);
    // 2,048 a side would be 49 rows: shrunk to 31, the most whose 31 · 32 + 2 fits 1,024.
    assert_eq!(e.tokens_per_image(2048), 31 * 32 + 2);
    assert_eq!(e.max_tokens(), 994);
}

/// vLLM on 8 H200s: the Engram tables in pinned host memory (each of the 8 shards' rows and
/// scales rounded up to a power of two: 33 GiB a rank), the experts whole under expert
/// parallelism, padded to Triton's tiles without it; 36.04 GiB a GPU with expert parallelism
/// by an independent count of vLLM's parameters (notes: `v41_params.py`, rotary caches
/// included).
#[test]
fn v41_on_vllm_keeps_the_tables_on_the_host() {
    let e = estimate(&on_vllm("h200", true)).unwrap();
    let note = e.notes.iter().find(|n| n.id == MsgId::NoteVllmEngramPinned).expect("the tables' note");
    assert!(format!("{:?}", note.args).contains("Int(8)"));
    // 264 GiB of pinned tables, and the runtime's own process beside them.
    let host = e.host.total.get();
    assert!((264 * GIB..268 * GIB).contains(&host), "{host}");
    let v = e.vllm.as_ref().unwrap();
    let gib = v.weights.get() as f64 / GIB as f64;
    assert!((gib / 36.04 - 1.0).abs() < 0.005, "{gib}");
    assert!(e.notes.iter().any(|n| n.id == MsgId::NoteVllmMxfp8Scales));
    // Without expert parallelism every GPU holds every expert's share of 2,304, padded to 320.
    let tp = estimate(&on_vllm("h200", false)).unwrap();
    let more = tp.vllm.as_ref().unwrap().weights.get() - v.weights.get();
    assert!(more > 3 * GIB, "{more}");
    // Data-parallel replicas share one exact copy.
    let mut dp = on_vllm("h200", true);
    dp.vllm.data_parallel = Some(2);
    let e = estimate(&dp).unwrap();
    assert!(e.notes.iter().any(|n| n.id == MsgId::NoteVllmEngramShared));
}

/// vLLM 0.34's packed cache (`deepseek_v41/attention.py`, `kv_cache_planning.py`). Hopper:
/// blocks of 64 tokens; the sources' compressed pages (three ratio-2 layers of 32 rows of 584
/// bytes padded to 19,008, the ratio-1 one of 64 rows padded to 37,440, indexer keys of 132 bytes
/// padded to 4,608 and 8,640) make a 116,928-byte block; the 40 windows (32 tokens of 584,
/// 19,008) go six to a group, seven groups; the three rings (8 slots of 2 × 512 FP32 values) one
/// group. Blackwell: blocks of 128, NVFP4 rows of 288 and windows of 528, 135,168 bytes rounded
/// to 25,344: 152,064, not certain (the sparse-logits alignment).
#[test]
fn v41_packs_its_cache_by_the_card() {
    let e = estimate(&on_vllm("h200", true)).unwrap();
    let v = e.vllm.as_ref().unwrap();
    assert_eq!((v.block_size, v.block_bytes), (64, 116_928));
    assert!(v.layout_exact);
    // 4,096 tokens: 64 blocks of rows; seven window groups of ⌈min(127 + 2 × 8,192 in flight,
    // 4,096) / 32⌉ + 1; one ring.
    assert_eq!(v.blocks_per_request, 64 + 7 * 129 + 1);
    let b = estimate(&on_vllm("b200", true)).unwrap();
    let v = b.vllm.as_ref().unwrap();
    assert_eq!((v.block_size, v.block_bytes), (128, 152_064));
    assert!(!v.layout_exact);
    assert_eq!(v.blocks_per_request, 32 + 5 * 129 + 1);
}

/// vLLM implements the class; llama.cpp's converter and transformers 5.24 do not; DSpark is not
/// MTP.
#[test]
fn v41_runs_on_vllm_only_and_its_drafter_is_said() {
    let c = read(&flash()).unwrap().architecture.checkpoint;
    let cur = headroom_core::vllm::VllmVersion::CURRENT;
    assert_eq!(loads(Runtime::Vllm, &c, cur), Loads::Yes);
    assert!(matches!(loads(Runtime::LlamaCpp, &c, cur), Loads::No(_)));
    assert!(matches!(loads(Runtime::Transformers, &c, cur), Loads::No(_)));
    let mut s = on_vllm("h200", true);
    s.vllm.speculative = Some(headroom_core::vllm::Speculative::parse("mtp:1").unwrap());
    let err = format!("{}", estimate(&s).unwrap_err());
    assert!(err.contains("DSpark"), "{err}");
}

/// DSpark (`{"method": "dspark"}`, five tokens by default): its stages split as the target's
/// layers, the projection and Markov head whole on every GPU, a second copy of each stage's
/// window projection — 1.14 GiB a GPU on eight with expert parallelism, as the independent count;
/// its three window-only layers join the target's windows (43 of them: eight groups of six or
/// fewer), the rest of the pool unchanged; it looks one prefill token ahead, so the windows keep
/// no extra token and the layout stays exact.
#[test]
fn v41_drafts_with_dspark() {
    let mut s = on_vllm("h200", true);
    let spec = headroom_core::vllm::Speculative::parse(r#"{"method": "dspark"}"#).unwrap();
    assert_eq!(spec.tokens, 5);
    s.vllm.speculative = Some(spec.clone());
    let e = estimate(&s).unwrap();
    let d = e.memory.term(headroom_core::estimate::TermKind::Draft).unwrap();
    let gib = d.bytes.get() as f64 / GIB as f64;
    assert!((gib / 1.14 - 1.0).abs() < 0.01, "{gib}");
    let v = e.vllm.as_ref().unwrap();
    assert_eq!((v.block_size, v.block_bytes), (64, 116_928));
    assert_eq!(v.blocks_per_request, 64 + 8 * 129 + 1);
    assert!(v.layout_exact);
    // The command and the link say it back.
    assert_eq!(headroom_core::vllm::Speculative::parse(&spec.id()).unwrap(), spec);
    assert!(spec.json().contains(r#""method": "dspark""#));
    // A model with no DSpark stages (V4's MTP module) is told so.
    let v4 = read(&serde_json::from_str(&read_fixture("configs/deepseek-v4-pro.json")).unwrap()).unwrap();
    let mut s4 = Scenario {
        model: ModelSource::Custom(Box::new(v4.into_custom("v4".into()))),
        runtime: Some(Runtime::Vllm),
        gpus: 8,
        ..Scenario::default()
    };
    s4.vllm.speculative = Some(spec);
    assert!(format!("{}", estimate(&s4).unwrap_err()).contains("DSpark"));
}

#[test]
fn bad_v41_configs_name_the_field() {
    let bad = |edit: &dyn Fn(&mut serde_json::Value), field: &str| {
        let mut v = flash();
        edit(&mut v["text_config"]);
        let err = format!("{}", read(&v).unwrap_err());
        assert!(err.contains(field), "{field}: {err}");
    };
    bad(&|t| t["compress_ratios"][5] = 4.into(), "compress_ratios[5]");
    bad(&|t| t["compress_ratios"] = serde_json::json!([0, 2]), "compress_ratios");
    bad(&|t| t["kv_source_layer_ids"] = serde_json::json!([2, 8, 14, 40]), "kv_source_layer_ids");
    bad(&|t| t["kv_source_layer_ids"] = serde_json::json!([8, 14, 20]), "kv_source_layer_ids");
    bad(
        &|t| {
            t.as_object_mut().unwrap().remove("index_source_layer_ids");
        },
        "index_source_layer_ids",
    );
    bad(&|t| t["engram_num_embeddings"] = serde_json::json!([384006168]), "engram_num_embeddings");
}
