//! Inkling 2 (Thinking Machines; transformers 5.24's `inkling2`, whose class defaults are
//! Inkling-2-Small's shape: 594B, 48 layers, 384 experts) read from the config transformers
//! itself writes (`fixtures/configs/transformers-defaults/inkling2.json`). Its parameters are
//! checked against transformers' meta-device build, layer by layer, in `reference_counts.rs`;
//! here: its layers, its cache, its tower's image tokens, and how transformers runs it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::estimate;
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::{Runtime, kv_bytes_per_token, kv_cache_bytes};
use headroom_core::model::{Mixer, Span};
use headroom_core::precision::KvDtype;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_tests::read_fixture;

fn config() -> serde_json::Value {
    serde_json::from_str(&read_fixture("configs/transformers-defaults/inkling2.json")).unwrap()
}

fn read(v: &serde_json::Value) -> HfModel {
    parse_config(v.to_string().as_bytes()).unwrap()
}

/// transformers builds 593,718,497,280 text parameters (its head keeps 200,058 of the
/// checkpoint's 201,024 padded rows: 4,451,328 fewer than the files) and a 327,693,312-parameter
/// vision model: the published "594B total". Every layer routes to 8 of 384 experts.
#[test]
fn inkling2_counts_the_checkpoint_and_its_tower() {
    let m = read(&config());
    assert!(m.notices.is_empty(), "{:?}", m.notices);
    let a = &m.architecture;
    assert_eq!(a.family, "inkling2");
    assert_eq!(a.params_total().unwrap().get(), 593_718_497_280 + (201_024 - 200_058) * 4608);
    assert_eq!(a.params_active().unwrap().get(), 18_880_745_472 + (201_024 - 200_058) * 4608);
    assert_eq!(a.moe_layers(), 48);
    assert_eq!(a.encoders.iter().map(|e| e.params()).collect::<Vec<_>>(), [327_693_312]);
    assert_eq!(a.max_context, 1_048_576);
}

/// Every sixth layer (5, 11, …, 47) attends the whole context with 48 query and 8 KV heads of
/// 128; the other 40 slide over 1,024 tokens with their own (`swa_*`) heads. The cache keeps K
/// and V only: 4,096 bytes a token a layer in BF16, the sliding layers' capped at their window.
#[test]
fn inkling2_layers_and_cache() {
    let mut v = config();
    v["text_config"]["swa_num_key_value_heads"] = 4.into();
    let a = read(&v).architecture;
    let (mut full, mut sliding) = (0, 0);
    for (n, m) in a.mixers() {
        let Mixer::Attention(at) = m else { panic!("not attention: {m:?}") };
        match at.span {
            Span::Full => {
                full += n;
                assert_eq!((at.num_heads, at.num_kv_heads, at.head_dim), (48, 8, 128));
            }
            Span::Sliding { window } => {
                sliding += n;
                assert_eq!((window, at.num_kv_heads), (1024, 4));
            }
            other => panic!("unexpected span {other:?}"),
        }
    }
    assert_eq!((full, sliding), (8, 40));
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), 8 * 4096 + 40 * 2048);
    let at = |tokens| kv_cache_bytes(&a, KvDtype::Bf16, tokens, 1).unwrap().get();
    assert_eq!(at(131_072), 8 * 4096 * 131_072 + 40 * 2048 * 1024);
}

/// The processor never resizes: an image is padded to 40-pixel cells, one token each.
#[test]
fn inkling2_images_are_one_token_a_40_pixel_cell() {
    let a = read(&config()).architecture;
    let e = &a.encoders[0];
    assert_eq!(
        (e.tokens_per_image(224), e.tokens_per_image(1024), e.tokens_per_image(2048)),
        (36, 676, 2704)
    );
    assert_eq!(e.tokens_per_image(41), 4);
    // Four 20-pixel patches a token and the class position.
    assert_eq!(e.patches_per_image(1024), 4 * 676 + 1);
}

/// transformers runs Inkling 2's attention eagerly only (its sinks): a prompt's scores are
/// counted even where the scenario asks for flash attention, and the command says `eager`.
#[test]
fn inkling2_under_transformers_runs_eagerly() {
    let s = Scenario {
        model: ModelSource::Custom(Box::new(read(&config()).into_custom("inkling2".into()))),
        runtime: Some(Runtime::Transformers),
        context: 8192,
        flash_attention: true,
        ..Scenario::default()
    };
    let e = estimate(&s).unwrap();
    let act = e.memory.get(headroom_core::breakdown::TermKind::Activations).get();
    assert!(act >= 48 * 8192 * 8192 * 6, "{act}");
    let cmd = headroom_core::flags::commands(&s, &e, None).join("\n");
    assert!(cmd.contains("attn_implementation=\"eager\""), "{cmd}");
}

/// Inkling-2-Mini (`inkling2_loop`): 24 stored layers, layers 6–17 run three times, each visit
/// with its own cache (48 cache layers, transformers' deep copies); the core's message gates and
/// queries stored once. Its count (26,068,159,488 text in transformers, 2,225,664 more padded head
/// rows in the files) is checked layer by layer in `reference_counts.rs`.
#[test]
fn inkling2_mini_runs_its_core_three_times() {
    let v: serde_json::Value =
        serde_json::from_str(&read_fixture("configs/transformers-defaults/inkling2_loop.json")).unwrap();
    let a = read(&v).architecture;
    assert_eq!(a.family, "inkling2_loop");
    assert_eq!(a.params_total().unwrap().get(), 26_068_159_488 + (201_024 - 200_058) * 2304);
    assert_eq!(a.num_layers(), 48);
    let stored: u64 = a.groups.iter().filter(|g| !g.tied).map(|g| g.count).sum();
    assert_eq!(stored, 24);
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), 48 * 4096);
    // The release's nested names read the same; a core past the stack is refused by name.
    let mut nested = v.clone();
    let t = nested["text_config"].as_object_mut().unwrap();
    for k in ["loop_layer_index_start", "loop_layer_index_end", "loop_num_passes", "loop_gate_rank"] {
        t.remove(k);
    }
    t.insert(
        "loop_config".into(),
        serde_json::json!({"core_start": 6, "core_end": 18, "num_passes": 3, "gate_rank": 64}),
    );
    assert_eq!(read(&nested).architecture.params_total().unwrap(), a.params_total().unwrap());
    let mut bad = v;
    bad["text_config"]["loop_layer_index_end"] = 30.into();
    let e = parse_config(bad.to_string().as_bytes()).unwrap_err().to_string();
    assert!(e.contains("looped layers"), "{e}");
}

/// transformers loads Inkling-2-Mini's NVFP4 or MXFP8 experts dequantized to 16 bits
/// (`Inkling2LoopDequantizeExperts`): its weights there are the 16-bit experts' whatever the
/// checkpoint's format, and a note says so; other runtimes keep the format.
#[test]
fn inkling2_mini_experts_load_in_16_bits_under_transformers() {
    use headroom_core::precision::WeightFormat;
    use headroom_core::text::MsgId;
    let v: serde_json::Value =
        serde_json::from_str(&read_fixture("configs/transformers-defaults/inkling2_loop.json")).unwrap();
    let a = read(&v).architecture;
    let s = |runtime| Scenario {
        model: ModelSource::Custom(Box::new(read(&v).into_custom("mini".into()))),
        runtime: Some(runtime),
        weights: Some(WeightFormat::Nvfp4),
        ..Scenario::default()
    };
    let e = estimate(&s(Runtime::Transformers)).unwrap();
    let experts = 24 * 128 * 3 * 1152 * 2304 * 2u64;
    let w = e.memory.get(headroom_core::breakdown::TermKind::Weights).get();
    assert!(w > experts && w < experts + a.params_total().unwrap().get() / 5, "{w}");
    assert!(e.notes.iter().any(|n| n.id == MsgId::NoteTransformersDequantExperts));
    let g = estimate(&s(Runtime::Sglang)).unwrap();
    assert!(g.memory.get(headroom_core::breakdown::TermKind::Weights).get() < experts / 2);
}
