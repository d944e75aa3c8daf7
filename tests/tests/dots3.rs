//! dots3-note Preview (`dots-studio/dots3-note-prev`) read from its config
//! (`fixtures/configs/dots3-note-prev.json`: the release's text keys and values as listed by a
//! public port's config test, not a verbatim copy — see SOURCES.tsv): two latent-attention
//! geometries, a sliding window over the latent, the indexer on the full layers only, the
//! prediction module as stored, and how vLLM pages it. Counts against the released index
//! (38,006 tensors, 576,886,825,984 bytes) and transformers 5.24's meta-device build.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::{kv_bytes_per_token, kv_cache_bytes};
use headroom_core::model::{Mixer, Span};
use headroom_core::precision::{KvDtype, WeightFormat};
use headroom_core::tensors;
use headroom_tests::read_fixture;

fn config() -> serde_json::Value {
    serde_json::from_str(&read_fixture("configs/dots3-note-prev.json")).unwrap()
}

fn read(v: &serde_json::Value) -> HfModel {
    parse_config(v.to_string().as_bytes()).unwrap()
}

/// transformers 5.24 builds the text model with 279,551,729,536 parameters (16,254,295,936 a
/// token); the checkpoint's `model.layers.46.*` and `model.mtp.embed_tokens` add 1,134,193,728.
#[test]
fn dots3_text_and_prediction_module_count_as_released() {
    let m = read(&config());
    assert!(m.notices.is_empty(), "{:?}", m.notices);
    let a = &m.architecture;
    assert_eq!(a.family, "dots3_note");
    let b = a.param_breakdown().unwrap();
    assert_eq!(b.total(), 279_551_729_536);
    assert_eq!(a.params_active().unwrap().get(), 16_254_295_936);
    assert_eq!(b.mtp, 1_134_193_728);
    // BF16 but the 45 routers' correction biases (F32).
    let text = tensors::weight_bytes(a, WeightFormat::Bf16).unwrap().total().get();
    assert_eq!(text, 279_551_729_536 * 2 + 45 * 256 * 2);
    assert_eq!(tensors::mtp_bytes(a, WeightFormat::Bf16).unwrap().get(), 1_134_193_728 * 2);
}

/// 13 full layers (0, 1, 5, …, 45) keep a 576-wide latent and a 128-wide indexer key; 33 sliding
/// layers a 1,088-wide latent over 513 tokens, no indexer.
#[test]
fn dots3_layers_slide_over_their_own_latent() {
    let m = read(&config());
    let a = &m.architecture;
    let mut full = 0;
    let mut sliding = 0;
    for (n, mx) in a.mixers() {
        let Mixer::Mla(l) = mx else { panic!("not latent attention: {mx:?}") };
        match l.span {
            Span::Full => {
                full += n;
                assert_eq!((l.num_heads, l.kv_lora_rank + l.qk_rope_head_dim), (128, 576));
                assert_eq!(l.indexer.as_ref().map(|ix| ix.head_dim), Some(128));
            }
            Span::Sliding { window } => {
                sliding += n;
                assert_eq!(window, 513);
                assert_eq!(
                    (l.num_heads, l.kv_lora_rank + l.qk_rope_head_dim, l.qk_nope_head_dim),
                    (64, 1088, 192)
                );
                assert!(l.indexer.is_none());
            }
            s => panic!("{s:?}"),
        }
    }
    assert_eq!((full, sliding), (13, 33));
    // Per token before any window: 13 × (576 × 2 + 132) + 33 × 1,088 × 2.
    assert_eq!(kv_bytes_per_token(a, KvDtype::Bf16), 13 * (576 * 2 + 132) + 33 * 1088 * 2);
    // At 100,000 tokens the sliding layers hold their window only.
    let kv = kv_cache_bytes(a, KvDtype::Bf16, 100_000, 1).unwrap().get();
    assert_eq!(kv, 13 * (576 * 2 + 132) * 100_000 + 33 * 1088 * 2 * 513);
}

/// transformers' own serialization (`text_config`, `indexed_attention`, `per_layer_config`) reads
/// the same model as the release's flat keys.
#[test]
fn dots3_transformers_form_reads_the_same() {
    let flat = config();
    let mut text = flat.clone();
    let o = text.as_object_mut().unwrap();
    let mut per_layer = serde_json::Map::new();
    for (i, t) in flat["layer_types"].as_array().unwrap().iter().enumerate() {
        if t == "sliding_attention" {
            per_layer.insert(
                format!("{i:02}"),
                serde_json::json!({"num_attention_heads": 64, "num_key_value_heads": 64,
                    "kv_lora_rank": 1024, "qk_nope_head_dim": 192}),
            );
        }
    }
    o.retain(|k, _| !k.starts_with("swa_") && k != "architectures");
    o.insert("model_type".into(), "dots3_note_text".into());
    o.insert("per_layer_config".into(), per_layer.into());
    let types: Vec<&str> = flat["layer_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| if t == "full_attention" { "indexed_attention" } else { "sliding_attention" })
        .collect();
    o.insert("layer_types".into(), serde_json::json!(types));
    o.insert("sliding_window".into(), 513.into());
    o.remove("sliding_window_size");
    let wrapped = serde_json::json!({"model_type": "dots3_note", "text_config": text});
    let (a, b) = (read(&flat).architecture, read(&wrapped).architecture);
    assert_eq!(a.param_breakdown().unwrap(), b.param_breakdown().unwrap());
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), kv_bytes_per_token(&b, KvDtype::Bf16));
}
