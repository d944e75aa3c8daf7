//! Qwen4-Exp (Qwen3.8-Flash-Next) read from its config (`fixtures/configs/qwen3.8-flash-next.json`,
//! reconstructed from public files that pin it): parameters and bytes against the published
//! index, its PLE table in vLLM's host memory, and bad configs refused by name.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::estimate;
use headroom_core::hardware::DeviceChoice;
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::Runtime;
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::tensors;
use headroom_core::text::MsgId;
use headroom_core::units::GIB;
use headroom_tests::read_fixture;

fn flash_next() -> serde_json::Value {
    serde_json::from_str(&read_fixture("configs/qwen3.8-flash-next.json")).unwrap()
}

fn read(v: &serde_json::Value) -> headroom_core::error::Result<HfModel> {
    parse_config(v.to_string().as_bytes())
}

/// An MLX conversion script pinned to Qwen/Qwen3.8-Flash-Next@f5d08274 expects 179,999,981,424
/// parameters and a `total_size` of 359,999,963,128 bytes: every tensor in BF16 and the PLE
/// layer's 35 int64 hash buffers (the multipliers and each head's vocabulary size and offset).
#[test]
fn flash_next_counts_and_prices_as_its_index() {
    let m = read(&flash_next()).unwrap();
    assert!(m.notices.is_empty(), "{:?}", m.notices);
    let a = &m.architecture;
    let b = a.param_breakdown().unwrap();
    let vision: u64 = a.encoders.iter().map(|e| e.params()).sum();
    // Qwen3-VL's tower without deepstack mergers.
    assert_eq!(vision, 448_931_056);
    // The MTP layer: a QSA layer and its MoE, two gated residual mixes, the two projections and
    // their norms, and its own mix before the head (stored without inject rows).
    assert_eq!(b.mtp, 2_607_150_848);
    assert_eq!(b.total() - 35 + b.mtp + vision, 179_999_981_424);
    // The PLE table: 16 heads, each the next prime above 20,000,000 rows (20,000,003 …
    // 20,000,171: 320,001,446), rounded up to 128: 320,001,536 rows of 160.
    assert!(b.other >= 320_001_536 * 160);
    let format = m.format.unwrap_or(WeightFormat::Bf16);
    let p = tensors::weight_bytes(a, format).unwrap();
    let mtp = tensors::mtp_bytes(a, format).unwrap().get();
    assert_eq!(p.total().get() + mtp + 2 * vision, 359_999_963_128);
    // 6 B active per token besides the embeddings and head (model cards), the table's rows not
    // counted.
    let active = a.params_active().unwrap().get();
    assert!((7_306_994_560..7_306_994_600).contains(&active), "{active}");
}

/// vLLM keeps the 95.37 GiB table in pinned host memory (one allocation a tensor-parallel rank,
/// rounded up to a power of two: 128 GiB over 1, 2 or 4 ranks); the GPUs hold the rest, 234.2
/// GiB over one (an independent count of vLLM's parameters: 234.24 GiB with its 12 padding rows
/// a mix), 59.6 over four.
#[test]
fn flash_next_on_vllm_keeps_its_table_on_the_host() {
    let m = read(&flash_next()).unwrap();
    let s = |gpus: u64| Scenario {
        model: ModelSource::Custom(Box::new(m.clone().into_custom("q".into()))),
        runtime: Some(Runtime::Vllm),
        gpus,
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        ..Scenario::default()
    };
    let gib = |e: &headroom_core::estimate::Estimate| {
        e.memory.term(headroom_core::estimate::TermKind::Weights).unwrap().bytes.get() as f64 / GIB as f64
    };
    let one = estimate(&s(1)).unwrap();
    assert!(one.notes.iter().any(|n| n.id == MsgId::NoteVllmEngramPinned));
    assert!((gib(&one) / 234.24 - 1.0).abs() < 0.001, "{}", gib(&one));
    let four = estimate(&s(4)).unwrap();
    assert!((gib(&four) / 59.65 - 1.0).abs() < 0.002, "{}", gib(&four));
    let host = four.host.total.get();
    assert!((128 * GIB..132 * GIB).contains(&host), "{host}");
}

/// vLLM 0.34's pool for Qwen3.8-Flash-Next, as its own `_get_packed_kv_cache_groups` groups the
/// model's specs (run on them outside this repository): the block aligned on QSA's key/value page
/// alone (64 × ⌈3,207,168-byte Gated DeltaNet state / (64 × 2,048)⌉ = 1,600 tokens on one or two
/// H200s, 832 on four, 448 on eight); a block of the twelve QSA layers' pages and compressed
/// indexer keys (12 × 1,600 × (2,048 + 64) = 40,550,400 bytes on one); the 36 Gated DeltaNet
/// layers in three groups of twelve, the PLE state a group, the rings a group; a 262,144-token
/// request with prefix caching (align mode, a checkpoint block on Hopper) takes ⌈262,144 / B⌉ +
/// 4 × 3 + 1 blocks.
#[test]
fn flash_next_packs_its_cache_as_vllm() {
    let m = read(&flash_next()).unwrap();
    for (gpus, block, bytes, per_request) in [
        (1, 1_600, 40_550_400, 164 + 13),
        (2, 1_600, 20_889_600, 164 + 13),
        (4, 832, 10_862_592, 316 + 13),
        (8, 448, 5_849_088, 586 + 13),
    ] {
        let s = Scenario {
            model: ModelSource::Custom(Box::new(m.clone().into_custom("q".into()))),
            runtime: Some(Runtime::Vllm),
            gpus,
            context: 262_144,
            device: Some(DeviceChoice::Catalog("h200".into())),
            ..Scenario::default()
        };
        let v = estimate(&s).unwrap().vllm.unwrap();
        assert_eq!(
            (v.block_size, v.block_bytes, v.blocks_per_request),
            (block, bytes, per_request),
            "{gpus}"
        );
        assert!(v.layout_exact);
    }
}

#[test]
fn bad_flash_next_configs_name_the_field() {
    let bad = |edit: &dyn Fn(&mut serde_json::Value), field: &str| {
        let mut v = flash_next();
        edit(&mut v["text_config"]);
        let err = format!("{}", read(&v).unwrap_err());
        assert!(err.contains(field), "{field}: {err}");
    };
    // A PLE layer on an attention layer (the 4th), or past the stack.
    bad(&|t| t["ple_layer_ids"] = serde_json::json!([4]), "ple_layer_ids");
    bad(&|t| t["ple_layer_ids"] = serde_json::json!([49]), "ple_layer_ids");
    bad(&|t| t["ple_embed_dim"] = 2561.into(), "ple_embed_dim");
    bad(&|t| t["indexer_kv_heads"] = 2.into(), "indexer_kv_heads");
    // Sizes whose primes no checkpoint has: refused, not searched for.
    bad(&|t| t["ngram_vocab_size_base"] = serde_json::json!(u64::MAX / 2), "ngram_vocab_size_base");
}
