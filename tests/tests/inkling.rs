//! Inkling-Small read from its released config (`fixtures/configs/inkling-small.json`, the
//! multimodal wrapper `inkling_mm_model` whose `text_config` names no type): parameters against
//! the Hub's count, its towers and prediction depths, and how vLLM holds it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::estimate;
use headroom_core::hardware::DeviceChoice;
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::Runtime;
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::tensors;
use headroom_tests::read_fixture;

fn small() -> serde_json::Value {
    serde_json::from_str(&read_fixture("configs/inkling-small.json")).unwrap()
}

fn read(v: &serde_json::Value) -> headroom_core::error::Result<HfModel> {
    parse_config(v.to_string().as_bytes())
}

/// The Hub's safetensors count for thinkingmachines/Inkling-Small (revision b2d4f225): BF16
/// 265,956,428,810 and F32 10,280 parameters, the main shards and `mtp.safetensors` together.
#[test]
fn inkling_small_counts_as_the_hub() {
    let m = read(&small()).unwrap();
    assert!(m.notices.is_empty(), "{:?}", m.notices);
    let a = &m.architecture;
    assert_eq!(a.family, "inkling");
    let b = a.param_breakdown().unwrap();
    assert_eq!(b.total(), 263_655_199_274, "the text model");
    // Eight dense prediction depths, six through the window and two over the whole context.
    assert_eq!(b.mtp, 2_231_912_456);
    let towers: Vec<u64> = a.encoders.iter().map(|e| e.params()).collect();
    // The patch encoder's four linears (3 → 128 → 320 → 4,800 → 9,600 channels, then 4,096)
    // with their norms, and the dMel table of 80 × 16 rows with its norm.
    assert_eq!(towers, [64_080_384, 5_246_976]);
    assert_eq!(b.total() + b.mtp + towers.iter().sum::<u64>(), 265_956_439_090);
    // In BF16 but the routers' biases and scales, FP32 (the Hub's 10,280 F32 parameters).
    let text = tensors::weight_bytes(a, WeightFormat::Bf16).unwrap().total().get();
    assert_eq!(text, (263_655_199_274 - 10_280) * 2 + 10_280 * 4);
    // The MTP file holds 4,463,845,392 bytes: 20,480 of header, the rest its BF16 tensors.
    assert_eq!(tensors::mtp_bytes(a, WeightFormat::Bf16).unwrap().get(), 4_463_824_912);
}

/// An image is upscaled (the long edge × 2, up to 2,048 pixels) and cut into 40-pixel cells:
/// `⌈h/40⌉` rows of `⌊w/40⌋ + 1`; audio is 20 tokens a second.
#[test]
fn inkling_tokens_per_image_and_second() {
    let m = read(&small()).unwrap();
    let (vision, audio) = (&m.architecture.encoders[0], &m.architecture.encoders[1]);
    assert_eq!(vision.tokens_per_image(1024), 52 * 52);
    assert_eq!(vision.tokens_per_image(160), 8 * 9);
    // Past 2,048 pixels nothing is upscaled: 3,000 / 40 = 75 rows of 76.
    assert_eq!(vision.tokens_per_image(3000), 75 * 76);
    assert_eq!(audio.tokens_per_image(60), 1200);
}

/// The config served by vLLM on `gpus` H200s.
fn served(v: &serde_json::Value, gpus: u64) -> headroom_core::estimate::Estimate {
    let m = read(v).unwrap();
    let s = Scenario {
        model: ModelSource::Custom(Box::new(m.into_custom("inkling".into()))),
        runtime: Some(Runtime::Vllm),
        gpus,
        device: Some(DeviceChoice::Catalog("h200-sxm".into())),
        ..Scenario::default()
    };
    estimate(&s).unwrap()
}

/// vLLM keeps Inkling's input embedding whole on every rank (`InklingReplicatedEmbedding`) and
/// builds no rotary cache (relative-position logits instead).
#[test]
fn inkling_under_vllm_keeps_its_embedding_whole() {
    let embedding = 201_024u64 * 4096 * 2;
    let (one, eight) = (served(&small(), 1), served(&small(), 8));
    let w = |e: &headroom_core::estimate::Estimate| {
        e.memory.term(headroom_core::estimate::TermKind::Weights).unwrap().bytes.get()
    };
    let (w1, w8) = (w(&one), w(&eight));
    // Everything else divides by eight (within the replicated norms and routers).
    let split = (w1 - embedding) as f64 / 8.0;
    let rest = w8 as f64 - embedding as f64;
    assert!((rest - split).abs() / split < 0.002, "{rest} {split}");
    let a = read(&small()).unwrap().architecture;
    assert_eq!(headroom_core::vllm::rotary_cache(&a).get(), 0);
}

/// vLLM 0.34's pool for Inkling, as its own `unify_kv_cache_spec_page_size` and
/// `_get_kv_cache_groups_uniform_page_size` lay it out (run on the specs `get_kv_cache_spec`
/// registers): each layer's attention and its convolution state (a 4-token window, BF16, the four
/// streams padded to a power of two a head), pages unified by raising blocks, layers grouped by
/// the fewest of a kind. Inkling-Small: 12 groups of 7 layers on a 256 KiB page (the states'
/// blocks 8 tokens); Inkling (transformers' defaults: 8 KV heads global, 16 sliding): 12 groups
/// of 11 on a 512 KiB page (the global layers' blocks 128 tokens, the states' 16).
#[test]
fn inkling_pool_under_vllm_pages_the_convolution_state() {
    let pool = |v: serde_json::Value, gpus: u64| {
        let v = served(&v, gpus).vllm.unwrap();
        assert!(v.layout_exact);
        v
    };
    // The fused collectives' buffers, 12 × tokens × hidden bytes, are non-torch memory on 2, 4 or 8
    // GPUs only.
    let (one, eight) = (pool(small(), 1), pool(small(), 8));
    assert_eq!(eight.non_torch.get() - headroom_core::vllm::non_torch(8).0.get(), 12 * 8192 * 4096);
    assert_eq!(one.non_torch, headroom_core::vllm::non_torch(1).0);
    // The profile step holds the relative-position logits beside q, k and v (`[tokens, heads,
    // extent]` in 16 bits): Inkling's 64 heads × 1,024 on its global layers outweigh its MLP.
    let big: serde_json::Value =
        serde_json::from_str(&read_fixture("configs/transformers-defaults/inkling_text.json")).unwrap();
    let a = read(&big).unwrap().architecture;
    let (ffn, qkv) = (3 * 24_576u64, 3 * 64 * 128u64);
    let with = headroom_core::vllm::profile_peak(&a, 8192, 1, 1).get();
    assert_eq!(with, 8192 * 2 * (2 * 6144 + qkv + 64 * 1024));
    assert!(qkv + 64 * 1024 > ffn);
    assert_eq!(pool(small(), 1).block_bytes, 262_144 * 7);
    assert_eq!(pool(small(), 8).block_bytes, 262_144 / 8 * 7);
    let big: serde_json::Value =
        serde_json::from_str(&read_fixture("configs/transformers-defaults/inkling_text.json")).unwrap();
    assert_eq!(pool(big.clone(), 1).block_bytes, 524_288 * 11);
    assert_eq!(pool(big, 2).block_bytes, 262_144 * 11);
    // A request of 4,096 tokens at TP 8 (block 64): 64 blocks of the global group, each of the
    // five sliding groups its window with the scheduler's step, each of the six state groups the
    // taps with the step in blocks of 8; fewer requests fit than when the states were left out.
    let v = pool(small(), 8);
    assert!(v.max_concurrency > 0.0 && v.blocks_per_request > 64 + 5 * 9 + 6 * 2, "{}", v.blocks_per_request);
}

/// A depth count that is not a real one, or a patch that is not, is said by name.
#[test]
fn inkling_bad_depths_and_patches_are_named() {
    let mut v = small();
    v["mtp_config"]["num_nextn_predict_layers"] = serde_json::json!(100_000);
    let e = read(&v).unwrap_err().to_string();
    assert!(e.contains("mtp_config.num_nextn_predict_layers"), "{e}");
    let mut v = small();
    v["vision_config"]["patch_size"] = serde_json::json!(1);
    let m = read(&v).unwrap();
    // The tower is not counted, and said so; the text model and the audio input are.
    assert_eq!(m.architecture.encoders.len(), 1);
    assert!(!m.notices.is_empty());
}

/// vLLM builds only the first `num_speculative_tokens` of Inkling's depths: the drafter's weights
/// are theirs (`mtp:2`: the first, sliding, and the second, global), not all eight.
#[test]
fn inkling_drafter_builds_the_depths_it_speculates_with() {
    use headroom_core::vllm::{SpecMethod, Speculative, drafter};
    let a = read(&small()).unwrap().architecture;
    let kv = headroom_core::precision::KvDtype::F16;
    let all = tensors::mtp_bytes(&a, WeightFormat::Bf16).unwrap().get();
    let d = |n: u64| {
        drafter(&a, &Speculative { method: SpecMethod::Mtp, tokens: n }, WeightFormat::Bf16, kv, 1).unwrap()
    };
    assert_eq!(d(8).weights.get(), all);
    assert_eq!(d(20).weights.get(), all);
    assert_eq!(d(2).layers, 2);
    let two = d(2).weights.get();
    assert!(two * 4 > all * 9 / 10 && two * 4 < all * 11 / 10, "{two} of {all}");
}

/// Inkling itself: the same released schema with its `text_config` values (transcribed alike by
/// several public test fixtures: 6,144 wide, 66 layers, 64 heads, 16 KV heads on the sliding
/// layers, every sixth layer global, dense MLP 24,576, experts 3,072, towers into 6,144):
/// 947,117,177,922 parameters in the main shards and 5,260,445,704 in the depths — the 952 B a
/// public review of the release counts (the card's 975 B is transformers' build with every layer
/// MoE).
#[test]
fn inkling_counts_with_its_own_text_config() {
    let mut v = small();
    let t = &mut v["text_config"];
    for (k, x) in [
        ("hidden_size", 6144),
        ("num_hidden_layers", 66),
        ("num_attention_heads", 64),
        ("swa_num_attention_heads", 64),
        ("swa_num_key_value_heads", 16),
        ("dense_intermediate_size", 24_576),
        ("intermediate_size", 3072),
    ] {
        t[k] = serde_json::json!(x);
    }
    t["local_layer_ids"] = serde_json::json!((0..66).filter(|i| (i + 1) % 6 != 0).collect::<Vec<u64>>());
    v["vision_config"]["decoder_dmodel"] = serde_json::json!(6144);
    v["audio_config"]["decoder_dmodel"] = serde_json::json!(6144);
    let a = read(&v).unwrap().architecture;
    let b = a.param_breakdown().unwrap();
    assert_eq!(b.total(), 947_025_564_226);
    assert_eq!(b.mtp, 5_260_445_704);
    let towers: Vec<u64> = a.encoders.iter().map(|e| e.params()).collect();
    assert_eq!(towers, [83_743_232, 7_870_464]);
    assert_eq!(b.total() + b.mtp + towers.iter().sum::<u64>(), 952_377_623_626);
}

/// With `mtp:n` vLLM builds the first `n` prediction depths, each an Inkling layer (sliding or
/// global by `mtp_config.local_layer_ids`, Inkling-Small's depths 0, 2, 4–7 sliding) with its
/// convolution state, and groups them with the target's layers: vLLM 0.34's own grouping
/// (`_get_kv_cache_groups_uniform_page_size`, run on these specs) gives groups of 7 layers for
/// one depth (36 sliding, 43 states, 7 global), 8 for two or three (8 global layers), 9 for all
/// eight (9 global) — a block of that many 256 KiB pages at TP 1.
#[test]
fn inkling_depths_join_vllms_groups_by_their_own_kind() {
    let with = |n: u64, gpus: u64| {
        let m = read(&small()).unwrap();
        let s = Scenario {
            model: ModelSource::Custom(Box::new(m.into_custom("inkling".into()))),
            runtime: Some(Runtime::Vllm),
            gpus,
            device: Some(DeviceChoice::Catalog("h200-sxm".into())),
            vllm: headroom_core::vllm::VllmOptions {
                speculative: Some(headroom_core::vllm::Speculative::parse(&format!("mtp:{n}")).unwrap()),
                ..Default::default()
            },
            ..Scenario::default()
        };
        let v = estimate(&s).unwrap().vllm.unwrap();
        assert!(v.layout_exact, "mtp:{n}");
        v.block_bytes
    };
    for (n, group) in [(1, 7), (2, 8), (3, 8), (8, 9)] {
        assert_eq!(with(n, 1), 262_144 * group, "mtp:{n}");
        assert_eq!(with(n, 8), 262_144 / 8 * group, "mtp:{n}");
    }
}

/// SGLang 0.5.23 keeps Inkling's sliding layers in a pool of their own (`is_hybrid_swa_model`
/// lists `InklingForConditionalGeneration`, `get_hybrid_layer_ids` splits by `local_layer_ids`):
/// at TP 8 a token of the 7 global layers is 7 × 512 bytes, of the 35 sliding ones 35 × 512.
#[test]
fn inkling_under_sglang_keeps_a_sliding_pool() {
    let m = read(&small()).unwrap();
    let s = Scenario {
        model: ModelSource::Custom(Box::new(m.into_custom("inkling".into()))),
        runtime: Some(Runtime::Sglang),
        gpus: 8,
        device: Some(DeviceChoice::Catalog("h200-sxm".into())),
        ..Scenario::default()
    };
    let g = estimate(&s).unwrap().sglang.unwrap();
    assert_eq!(g.cell_size, 7 * 512);
    assert_eq!(g.swa.map(|(_, cell)| cell), Some(35 * 512));
}
