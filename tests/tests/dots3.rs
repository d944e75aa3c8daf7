//! dots3-note Preview (`dots-studio/dots3-note-prev`) read from its config
//! (`fixtures/configs/dots3-note-prev.json`: the release's text keys and values as listed by a
//! public port's config test, not a verbatim copy — see SOURCES.tsv): two latent-attention
//! geometries, a sliding window over the latent, the indexer on the full layers only, the
//! prediction module as stored, and how vLLM pages it. Counts against the released index
//! (38,006 tensors, 576,886,825,984 bytes) and transformers 5.24's meta-device build.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::estimate;
use headroom_core::hardware::DeviceChoice;
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::{Runtime, kv_bytes_per_token, kv_cache_bytes};
use headroom_core::model::{Mixer, Span};
use headroom_core::precision::{KvDtype, WeightFormat};
use headroom_core::scenario::{ModelSource, Scenario};
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

/// The model as a scenario, everything else at its default.
fn scenario() -> Scenario {
    Scenario {
        model: ModelSource::Custom(Box::new(read(&config()).into_custom("dots3".into()))),
        ..Scenario::default()
    }
}

/// The model under `runtime` on `gpus` H200s at 131,072 tokens.
fn on_h200s(runtime: Runtime, gpus: u64) -> Scenario {
    Scenario {
        runtime: Some(runtime),
        gpus,
        context: 131_072,
        device: Some(DeviceChoice::Catalog("h200-sxm".into())),
        ..scenario()
    }
}

/// The model served by vLLM 0.34 on `gpus` H200s at `context` tokens, in `kv`.
fn served(gpus: u64, context: u64, kv: KvDtype) -> headroom_core::vllm::VllmBudget {
    estimate(&Scenario { context, kv, ..on_h200s(Runtime::Vllm, gpus) }).unwrap().vllm.unwrap()
}

/// vLLM pads the full layers' 576-wide latent to the sliding layers' 1,088 and packs the pages
/// block-outermost: the full layers' latents and indexer keys (13 × (2,176 + 132) bytes a token)
/// one group, the 33 sliding layers two groups of at most 17 (`_approximate_gcd` of 13 and 33
/// from 13), a block the widest group: 17 × 2,176 bytes a token × 64 tokens — what vLLM 0.34's own
/// `_get_packed_kv_cache_groups` and `_get_kv_cache_bytes_per_block` give when run on these specs
/// (26, 17 and 16 layers; 2,367,488 bytes; with the MTP layer 26, 17 and 17, the same block).
#[test]
fn dots3_pool_under_vllm_packs_padded_latents() {
    let v = served(8, 131_072, KvDtype::Bf16);
    assert!(v.layout_exact);
    assert_eq!(v.block_size, 64);
    assert_eq!(v.block_bytes, 17 * 2176 * 64);
    // A request of 131,072 tokens: 2,048 blocks of the full group; each sliding group its window
    // less one and the two scheduler steps in flight (8,192 tokens each), and one block more.
    let window = (512 + 2 * 8192u64).div_ceil(64) + 1;
    assert_eq!(v.blocks_per_request, 2048 + 2 * window);
    // vLLM 0.34's extensible cache: the blocks reserved from the profile step's estimate, cut to
    // the size measured after warmup.
    let m = v.measured.as_ref().expect("measured after warmup");
    assert_eq!(m.reserved_blocks, u64::try_from(v.available_kv).unwrap() / v.block_bytes);
    assert_eq!(v.num_blocks, m.reserved_blocks.min(u64::try_from(m.kv).unwrap() / v.block_bytes));
    // An FP8 cache on the padded sparse backend is not read from vLLM: said approximate.
    assert!(!served(8, 131_072, KvDtype::Fp8).layout_exact);
}

/// With `{"method": "mtp"}` vLLM builds the stored prediction layer (sliding, dense; its embedding
/// its own, its head the target's) and pages its sliding latent with the others: 34 sliding layers
/// are still two groups of at most 17, so the block is unchanged.
#[test]
fn dots3_prediction_layer_joins_the_sliding_groups() {
    use headroom_core::vllm::{SpecMethod, Speculative};
    let mut s = on_h200s(Runtime::Vllm, 8);
    let plain = estimate(&s).unwrap().vllm.unwrap();
    s.vllm.speculative = Some(Speculative { method: SpecMethod::Mtp, tokens: 1 });
    let mtp = estimate(&s).unwrap().vllm.unwrap();
    assert!(mtp.layout_exact);
    assert_eq!(mtp.block_bytes, plain.block_bytes);
    // Split over the 8 GPUs but what vLLM keeps whole on each: the module's projection of the
    // embedding and hidden state (`ReplicatedLinear`, 5,120 × 10,240), the latent down-projections,
    // the norms and the head-wise output gate (`ReplicatedLinear`, a row for each of the sliding
    // layer's 64 heads).
    let a = read(&config()).architecture;
    let p = tensors::mtp_priced(&a, WeightFormat::Bf16).unwrap();
    use headroom_core::tensor::Role;
    let whole = |t: &tensors::Tensor| {
        matches!(t.role, Role::MtpProj | Role::AttnQA | Role::AttnKvA | Role::Norm | Role::AttnNorm)
            || (t.role == Role::Extra && t.rows == 64)
    };
    let kept = p.sum_where(whole);
    assert_eq!(p.sum_where(|t| t.role == Role::MtpProj), 5120 * 10240 * 2);
    assert_eq!(p.sum_where(|_| true), 1_134_193_728 * 2);
    let split: u64 =
        p.tensors.iter().zip(&p.bytes).filter(|(t, _)| !whole(t)).map(|(_, b)| b.div_ceil(8)).sum();
    assert_eq!(mtp.weights.get() - plain.weights.get(), split + kept);
}

/// SGLang 0.5.23 keeps dots3-note's sliding layers in a pool of their own (its config class's
/// `is_hybrid_swa`), each pool at its own latent width with no padding: 13 × (1,152 + 132) bytes a
/// token in the full pool, 33 × 2,176 in the sliding one.
#[test]
fn dots3_under_sglang_keeps_two_latent_pools() {
    let g = estimate(&on_h200s(Runtime::Sglang, 8)).unwrap().sglang.unwrap();
    assert!(g.latent);
    assert_eq!(g.cell_size, 13 * (576 * 2 + 132));
    assert_eq!(g.swa.map(|(_, cell)| cell), Some(33 * 1088 * 2));
    assert!(
        g.log_lines().iter().any(|l| l.starts_with("SWA KV Cache is allocated") && l.contains("KV size"))
    );
}

/// The MoE ViT (25 dense blocks, then 4, 8, … 64, 64 experts: 608) and the audio tower, counted
/// as vLLM builds them: 6,871,277,920 and 886,199,680, the released index's `vision_encoder.*` and
/// `audio_encoder.*`; with the text model and the prediction module, the index's 288,443,400,864
/// parameters (576,886,825,984 bytes: BF16 but 45 × 256 + 608 F32 router biases).
#[test]
fn dots3_towers_count_as_released() {
    let a = read(&config()).architecture;
    let towers: Vec<u64> = a.encoders.iter().map(|e| e.params()).collect();
    assert_eq!(towers, [6_871_277_920, 886_199_680]);
    let b = a.param_breakdown().unwrap();
    assert_eq!(b.total() + b.mtp + towers.iter().sum::<u64>(), 288_443_400_864);
    let text = tensors::weight_bytes(&a, WeightFormat::Bf16).unwrap().total().get();
    let mtp = tensors::mtp_bytes(&a, WeightFormat::Bf16).unwrap().get();
    // The towers in BF16; their 608 router biases are F32 on disk (2 bytes more each).
    assert_eq!(text + mtp + towers.iter().sum::<u64>() * 2 + 608 * 2, 576_886_825_984);
    // A 1,024-pixel image is 37 × 37 merged 28-pixel patches; audio 12.5 tokens a second.
    assert_eq!(a.encoders[0].tokens_per_image(1024), 37 * 37);
    assert_eq!(a.encoders[1].tokens_per_image(60), 750);
}

/// vLLM keeps the towers whole on every GPU (plain linears) and adds block-FP8 copies of the
/// ViT's 608 experts (each w1, w3 and w2 padded to 2,176 × 1,536, an FP32 scale a 128 × 128
/// block): 6,097,909,248 bytes more on each GPU.
#[test]
fn dots3_vision_experts_are_copied_in_fp8_under_vllm() {
    let a = read(&config()).architecture;
    assert_eq!(a.encoders[0].vllm_buffers, 608 * (3 * 2176 * 1536 + 3 * 17 * 12 * 4));
    assert_eq!(a.encoders[0].vllm_buffers, 6_097_909_248);
    let v = served(8, 131_072, KvDtype::Bf16);
    let plain = (6_871_277_920u64 + 886_199_680) * 2;
    // Weights on each GPU: the text's share, the towers whole, their FP8 copies.
    let text = served_text_weights(8);
    assert_eq!(v.weights.get() - text, plain + 6_097_909_248);
}

/// The text model's weights on one of `gpus` GPUs under vLLM, towers left out (text only).
fn served_text_weights(gpus: u64) -> u64 {
    let s = Scenario { text_only: true, ..on_h200s(Runtime::Vllm, gpus) };
    estimate(&s).unwrap().vllm.unwrap().weights.get()
}

/// Any size in the towers' sections, however absurd, is read or refused with a reason, never a
/// panic or a wrapped count.
#[test]
fn dots3_towers_refuse_absurd_sizes() {
    let base = config();
    for (section, key) in [
        ("vision_config", "embed_dim"),
        ("vision_config", "intermediate_size"),
        ("vision_config", "moe_intermediate_size"),
        ("vision_config", "num_hidden_layers"),
        ("vision_config", "num_heads"),
        ("vision_config", "patch_size"),
        ("vision_config", "adapter_out_dim"),
        ("vision_config", "spatial_merge_size"),
        ("audio_config", "downsample_hidden_size"),
        ("audio_config", "whisper_adapter_out_dim"),
        ("audio_config", "whisper_adapter_in_dim"),
        ("audio_config", "sampling_rate"),
        ("audio_config", "hop_length"),
        ("audio_config", "merge_factor"),
        ("audio_config", "chunk_seconds"),
    ] {
        for v in [0u64, 3, 1 << 40, u64::MAX] {
            let mut c = base.clone();
            c[section][key] = serde_json::json!(v);
            if let Ok(m) = parse_config(c.to_string().as_bytes()) {
                for e in &m.architecture.encoders {
                    assert!(e.params() < 1 << 50, "{section}.{key} = {v}: {}", e.params());
                }
            }
        }
    }
    for key in ["d_model", "encoder_ffn_dim", "encoder_layers", "num_mel_bins"] {
        for v in [0u64, 1 << 40, u64::MAX] {
            let mut c = base.clone();
            c["audio_config"]["whisper_config"][key] = serde_json::json!(v);
            let _ = parse_config(c.to_string().as_bytes());
        }
    }
    let mut c = base;
    c["vision_config"]["pyramid_num_routed"] = serde_json::json!([1e300, -1]);
    let _ = parse_config(c.to_string().as_bytes());
}

/// llama.cpp (`dots3note`, its sliding pattern from the header) gives the sliding layers their own
/// cache of `pad256(window + n_ubatch)` cells; the full layers keep every token, latent and indexer
/// key in the K type (F16): 13 × (576 + 128) × 2 bytes a cell.
#[test]
fn dots3_under_llama_cpp_slides_its_sliding_latents() {
    use headroom_core::estimate::TermKind;
    let s = Scenario {
        runtime: Some(Runtime::LlamaCpp),
        weights: Some(WeightFormat::parse("q4_k_m").unwrap()),
        context: 131_072,
        ..scenario()
    };
    let kv = estimate(&s).unwrap().memory.get(TermKind::KvCache).get();
    assert_eq!(kv, 13 * (576 + 128) * 2 * 131_072 + 33 * 1088 * 2 * (513 + 512u64).next_multiple_of(256));
}

/// Without sliding layers the prediction module is the stack's last layer with the dense MLP
/// (and still its own embedding, no head); `num_nextn_predict_layers: 0` stores none.
#[test]
fn dots3_prediction_module_without_sliding_layers() {
    use headroom_core::model::Ffn;
    let mut c = config();
    c["layer_types"] = serde_json::json!(vec!["full_attention"; 46]);
    let a = read(&c).architecture;
    let layer = a.mtp.as_ref().and_then(|m| m.layer.as_deref()).unwrap();
    assert!(
        matches!(layer.mixers.first(), Some(Mixer::Mla(m)) if m.span == Span::Full && m.indexer.is_some())
    );
    assert!(matches!(layer.ffn, Ffn::Dense(_)));
    c["num_nextn_predict_layers"] = serde_json::json!(0);
    assert!(read(&c).architecture.mtp.is_none());
}

/// The note on the towers' memory names both of them, as the term holds both.
#[test]
fn dots3_towers_note_names_both() {
    use headroom_core::text::{Arg, MsgId};
    let e = estimate(&scenario()).unwrap();
    let note = e.notes.iter().find(|n| n.id == MsgId::NoteEncoderLoaded).unwrap();
    assert!(
        matches!(note.args.first(), Some(Arg::Text(t)) if t == "dots3_moe_vit + dots3_audio"),
        "{note:?}"
    );
}
