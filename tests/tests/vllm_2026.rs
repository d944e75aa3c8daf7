//! Families vLLM 0.34 serves that arrived in 2026, each read from a real (or, where marked in
//! `fixtures/configs/SOURCES.tsv`, reconstructed) config: Ricursive's Ripple and IFM's K2 Horizon.
//! Their counts are the tensors vLLM builds (the model files' classes, read rule by rule); here
//! the shapes, the caches and what vLLM refuses.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::catalog;
use headroom_core::fit::{Verdict, fit};
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::{Runtime, kv_bytes_per_token};
use headroom_core::model::{Mixer, Span};
use headroom_core::precision::KvDtype;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::text::MsgId;
use headroom_core::vllm::{profile_peak, tp_refusal};
use headroom_tests::read_fixture;

fn read(name: &str) -> HfModel {
    parse_config(read_fixture(&format!("configs/{name}.json")).as_bytes()).unwrap()
}

/// Each layer's attention, in order (every layer of these models has one).
fn attentions(a: &headroom_core::model::Architecture) -> Vec<headroom_core::model::Attention> {
    a.layers()
        .map(|g| match &g.mixers[0] {
            Mixer::Attention(at) => at.clone(),
            other => panic!("not attention: {other:?}"),
        })
        .collect()
}

fn on_vllm(m: HfModel, gpus: u64) -> Scenario {
    Scenario {
        model: ModelSource::Custom(Box::new(m.into_custom("m".into()))),
        runtime: Some(Runtime::Vllm),
        gpus,
        context: 8192,
        ..Scenario::default()
    }
}

/// Ripple-65B-Preview: 80 layers of 80 query and 8 KV heads of 128, every fifth attending the
/// whole context without rotary positions, the others sliding over 1,024 tokens; a sigmoid gate
/// as wide as q, four norms a layer, per-head q/k norms: 64,782,689,280 parameters (Fireworks:
/// 64.7B; without the gate it would be 60.59B).
#[test]
fn ripple_layers_gate_and_cache() {
    let m = read("ripple-65b-preview");
    let a = &m.architecture;
    assert_eq!(a.family, "ricursive");
    assert_eq!(a.params_total().unwrap().get(), 64_782_689_280);
    let (mut full, mut sliding) = (0, 0);
    for (n, mx) in a.mixers() {
        let Mixer::Attention(at) = mx else { panic!("{mx:?}") };
        assert!(at.output_gate);
        assert_eq!((at.num_heads, at.num_kv_heads, at.head_dim), (80, 8, 128));
        match at.span {
            Span::Full => full += n,
            Span::Sliding { window: 1024 } => sliding += n,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!((full, sliding), (16, 64));
    assert_eq!(kv_bytes_per_token(a, KvDtype::Bf16), 80 * 2 * 8 * 128 * 2);
    // The value residual adds one scalar a layer.
    let mut v: serde_json::Value =
        serde_json::from_str(&read_fixture("configs/ripple-65b-preview.json")).unwrap();
    v["use_valres"] = true.into();
    let b = parse_config(v.to_string().as_bytes()).unwrap().architecture;
    assert_eq!(b.params_total().unwrap().get(), 64_782_689_280 + 80);
}

/// vLLM wants the attention heads to divide among the GPUs of tensor parallelism, and the KV heads
/// to divide or be copied evenly; Ricursive's attention copies none. A refusal is the estimate's
/// warning and every device's verdict.
#[test]
fn vllm_refuses_tensor_parallelism_that_does_not_divide_the_heads() {
    let ripple = read("ripple-65b-preview").architecture;
    assert_eq!(tp_refusal(&ripple, 8), None);
    assert_eq!(tp_refusal(&ripple, 3).map(|r| r.reason.id), Some(MsgId::AdviceVllmTpHeads));
    assert_eq!(tp_refusal(&ripple, 16).map(|r| r.reason.id), Some(MsgId::AdviceVllmTpKvHeadsSplit));
    // Elsewhere fewer KV heads than GPUs are copied when their count divides the GPUs'.
    let qwen = catalog::model("qwen2.5-14b").unwrap().architecture().unwrap(); // 40 heads, 8 KV
    assert_eq!(tp_refusal(&qwen, 8), None);
    assert_eq!(tp_refusal(&qwen, 5).map(|r| r.reason.id), Some(MsgId::AdviceVllmTpKvHeads));
    let llama = catalog::model("llama-3.1-8b").unwrap().architecture().unwrap(); // 32 heads, 8 KV
    assert_eq!(tp_refusal(&llama, 16), None);
    let s = on_vllm(read("ripple-65b-preview"), 3);
    let e = headroom_core::estimate::estimate(&s).unwrap();
    assert!(e.warnings.iter().any(|w| w.id == MsgId::AdviceVllmTpHeads), "{:?}", e.warnings);
    let f = fit(&s, catalog::device("h200-sxm").unwrap()).unwrap();
    assert_eq!(f.verdict, Verdict::No);
    assert_eq!(f.refusal().map(|m| m.id), Some(MsgId::AdviceVllmTpHeads));
    // vLLM stops on the setup before loading anything: its log is the error alone, and no command
    // is given that would only fail.
    let b = f.vllm.as_ref().unwrap();
    assert_eq!(
        b.log_lines(),
        ["ValueError: Total number of attention heads (80) must be divisible by tensor parallel size (3)."]
    );
    assert!(headroom_core::flags::commands(&s, &e, Some(&f)).is_empty());
    assert_eq!(
        tp_refusal(&ripple, 16).map(|r| r.log).as_deref(),
        Some(
            "ValueError: Ricursive requires num_attention_heads (80) and num_key_value_heads (8) to be divisible by the tensor parallel size (16)."
        )
    );
    // QKVParallelLinear's `divide`: the GPUs by the heads when they outnumber them, else the heads
    // by the GPUs.
    assert_eq!(
        tp_refusal(&qwen, 5).map(|r| r.log).as_deref(),
        Some("AssertionError: 8 is not divisible by 5")
    );
    assert_eq!(
        tp_refusal(&qwen, 20).map(|r| r.log).as_deref(),
        Some("AssertionError: 20 is not divisible by 8")
    );
    let f = fit(&on_vllm(read("ripple-65b-preview"), 4), catalog::device("h200-sxm").unwrap()).unwrap();
    assert!(f.refusal().is_none(), "{:?}", f.refusal());
}

/// K2-Horizon-MoVA-36B-A4B: 3 dense layers, then 45 MoE layers (100 experts, 8 a token, one shared)
/// whose values come from 64 value experts (4 a token) instead of `v_proj`, a router with an FP32
/// bias each; a softplus gate as wide as q. 37,444,792,020 parameters, 5,948,190,420 a token.
/// The cache is plain: 8 KV heads of 128 on 48 layers. vLLM stacks a layer's value experts for its
/// kernel, in its profile step.
#[test]
fn k2_horizon_mova_counts_and_profiles_its_value_experts() {
    let a = read("k2-horizon-mova-36b-a4b").architecture;
    assert_eq!(a.family, "k2_horizon");
    assert_eq!(a.params_total().unwrap().get(), 37_444_792_020);
    assert_eq!(a.params_active().unwrap().get(), 5_948_190_420);
    let mova: u64 = a
        .groups
        .iter()
        .filter(|g| g.mixers.iter().any(|m| matches!(m, Mixer::Attention(at) if at.mova.is_some())))
        .map(|g| g.count)
        .sum();
    assert_eq!((a.moe_layers(), mova), (45, 45));
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), 48 * 2 * 8 * 128 * 2);
    // 64 value experts of 1,024 × 2,560 in 16 bits, stacked whole at TP 1, halved at TP 2.
    let stack = 64 * 1024 * 2560 * 2;
    let mut plain = a.clone();
    for g in &mut plain.groups {
        for m in &mut g.mixers {
            if let Mixer::Attention(at) = m {
                at.mova = None;
            }
        }
    }
    let (with, without) = (profile_peak(&a, 8192, 1, 1).get(), profile_peak(&plain, 8192, 1, 1).get());
    assert!(with >= stack && with > without, "{with} vs {without}");
}

/// K2-Horizon-375B-A23B: no value experts, no gate, rotary on 64 of each head's 128 channels
/// (vLLM's cos/sin cache that wide): 379,167,159,168 parameters, 26,669,462,400 a token.
#[test]
fn k2_horizon_375b() {
    let a = read("k2-horizon-375b-a23b").architecture;
    assert_eq!(a.params_total().unwrap().get(), 379_167_159_168);
    assert_eq!(a.params_active().unwrap().get(), 26_669_462_400);
    assert_eq!(a.rotary_widths, [64]);
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), 61 * 2 * 8 * 128 * 2);
}

/// BharatGen's Param2-17B-A2.4B: its config names no model_type (vLLM picks the class); Ling's
/// fused `query_key_value` with per-head q/k norms, layer 0 dense, then 64 experts (6 a token) with
/// a shared MLP whose width is given whole (4,096, not × 2): 17,151,141,760 parameters,
/// 2,554,963,840 a token. 42 KiB of cache a token; its attention never copies KV heads, so 16 GPUs
/// are refused where 8 are not. vLLM's router is FP32.
#[test]
fn param2_reads_by_class_and_keeps_its_shared_width() {
    let m = read("param2-17b-a2.4b-thinking");
    assert_eq!(m.notices.iter().map(|n| n.id).collect::<Vec<_>>(), [MsgId::NoticeFamilyByArchitecture]);
    let a = &m.architecture;
    assert_eq!(a.family, "param2moe");
    assert_eq!(a.params_total().unwrap().get(), 17_151_141_760);
    assert_eq!(a.params_active().unwrap().get(), 2_554_963_840);
    assert_eq!(a.moe_layers(), 20);
    assert_eq!(a.moe().unwrap().shared_intermediate, 4096);
    assert_eq!(kv_bytes_per_token(a, KvDtype::Bf16), 43_008);
    let Some(Mixer::Attention(at)) = a.first_attention() else { panic!() };
    assert!(at.fused_qkv);
    assert_eq!(tp_refusal(a, 8), None);
    assert_eq!(tp_refusal(a, 16).map(|r| r.reason.id), Some(MsgId::AdviceVllmTpKvHeadsSplit));
    assert_eq!(
        tp_refusal(a, 16).map(|r| r.log).as_deref(),
        Some("AssertionError: num_key_value_heads (8) must be divisible by tensor-parallel world size (16).")
    );
    assert!(headroom_core::vllm::fp32_router(a));
}

/// Yandex's AliceAI-80B-A3B (config reconstructed from its class and published shapes; the files'
/// total, 162,572,866,816 bytes, is reproduced): 36 Kimi Delta Attention layers and 12 Qwen3-Next
/// gated-attention layers, 512 experts (10 a token) with a gated shared expert on every layer,
/// block attention residuals. 79,635,961,472 parameters as vLLM loads them (the MTP layer in the
/// files is dropped), 3,836,499,584 a token. vLLM keeps the delta-rule state in FP32: 78,151,680
/// bytes a sequence; the cache 24 KiB a token.
#[test]
fn alice_ai_kda_gated_attention_and_residual_blocks() {
    let m = read("alice-ai-80b-a3b");
    let a = &m.architecture;
    assert_eq!(a.family, "alice_ai");
    assert_eq!(a.params_total().unwrap().get(), 79_635_961_472);
    assert_eq!(a.params_active().unwrap().get(), 3_836_499_584);
    let kda: u64 = a.mixers().filter(|(_, m)| matches!(m, Mixer::Kda(_))).map(|(n, _)| n).sum();
    assert_eq!(kda, 36);
    assert_eq!(a.residual_blocks, 12);
    assert_eq!(kv_bytes_per_token(a, KvDtype::Bf16), 12 * 2 * 2 * 256 * 2);
    assert_eq!(
        headroom_core::inference::state_bytes_per_sequence(a, 2),
        36 * (3 * 4096 * 3 * 2 + 32 * 128 * 128 * 4)
    );
    // The files add the MTP layer: the release's index total exactly.
    let mtp: u64 = a.mtp_inventory().unwrap().iter().map(|t| t.elements()).sum();
    assert_eq!((a.params_total().unwrap().get() + mtp) * 2, 162_572_866_816);
}

/// Essential AI's Rnj-1.5 (`Rnj1ForCausalLM`, a Gemma 3 config): its `chunked_attention` layers
/// look back one block, at most `sliding_window` tokens, and vLLM caches them as sliding windows;
/// its other layer types attend the whole context. Under Gemma 3's own class a chunked layer keeps
/// Llama 4's chunks. vLLM runs the class on Triton's attention only: the command says so, and a
/// pasted command with it reads cleanly.
#[test]
fn rnj1_chunked_layers_are_windows_on_triton() {
    let cfg = |class: &str| {
        format!(
            r#"{{"architectures": ["{class}"], "model_type": "gemma3_text", "vocab_size": 128256,
            "hidden_size": 4096, "intermediate_size": 16384, "num_hidden_layers": 4,
            "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
            "sliding_window": 4096, "max_position_embeddings": 163840,
            "layer_types": ["chunked_attention", "sliding_attention", "chunked_attention", "full_attention"]}}"#
        )
    };
    let spans = |class: &str| -> Vec<Span> {
        attentions(&parse_config(cfg(class).as_bytes()).unwrap().architecture)
            .iter()
            .map(|at| at.span)
            .collect()
    };
    let w = Span::Sliding { window: 4096 };
    assert_eq!(spans("Rnj1ForCausalLM"), [w, Span::Full, w, Span::Full]);
    assert_eq!(spans("Gemma3ForCausalLM")[0], Span::Chunked { chunk: 8192 });
    let m = parse_config(cfg("Rnj1ForCausalLM").as_bytes()).unwrap();
    let s = on_vllm(m, 1);
    let e = headroom_core::estimate::estimate(&s).unwrap();
    let cmd = headroom_core::flags::commands(&s, &e, None).join("\n");
    assert!(cmd.contains("--attention-backend TRITON_ATTN"), "{cmd}");
    let c = headroom_core::command::parse(
        "vllm serve EssentialAI/rnj-1.5-instruct --attention-backend TRITON_ATTN",
    )
    .unwrap();
    assert!(c.ignored.is_empty(), "{:?}", c.ignored);
    let c = headroom_core::command::parse("vllm serve x --attention-backend FLASHINFER").unwrap();
    assert_eq!(c.ignored.len(), 1);
}

/// Domyn Edge (`DomynEdgeForCausalLM`, vLLM 0.34's `domyn_edge.py`; no released config was found,
/// so this one is written from the keys vLLM reads): each layer's head width by `per_layer_config`
/// (over `head_dim`), its window by `window_sizes[i][0]` (one more token when positive, else the
/// whole context), four norms, a per-head k norm and a weightless q norm, no biases.
#[test]
fn domyn_edge_per_layer_heads_and_windows() {
    let cfg = r#"{"architectures": ["DomynEdgeForCausalLM"], "model_type": "domynedge",
        "vocab_size": 115269, "hidden_size": 2560, "intermediate_size": 9728, "num_hidden_layers": 4,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 256, "hidden_act": "silu",
        "per_layer_config": {"1": {"head_dim": 64}, "2": {"head_dim": 64}},
        "position_layers": ["nope", "rope", "rope", "nope"],
        "window_sizes": [[-1, 0], [1024, 0], [1024, 0], [-1, 0]], "tie_word_embeddings": true}"#;
    let m = parse_config(cfg.as_bytes()).unwrap();
    assert!(m.notices.is_empty(), "{:?}", m.notices);
    let a = &m.architecture;
    assert_eq!(a.family, "domyn_edge");
    let (h, n, k, f, v) = (2560u64, 32u64, 8u64, 9728u64, 115_269u64);
    let layer = |d: u64| h * (2 * n * d + 2 * k * d) + d + 3 * h * f + 4 * h;
    assert_eq!(a.params_total().unwrap().get(), 2 * layer(256) + 2 * layer(64) + v * h + h);
    let spans: Vec<(u64, Span)> = attentions(a).iter().map(|at| (at.head_dim, at.span)).collect();
    let w = Span::Sliding { window: 1025 };
    assert_eq!(spans, [(256, Span::Full), (64, w), (64, w), (256, Span::Full)]);
}

/// Xiaomi's MiMo-V2.5-Pro (`MiMoV2ForCausalLM`, model_type `mimo_v2`): MiMo-V2-Flash's class with q,
/// k and v fused in the checkpoint; 1,021,248,126,336 parameters, 41,894,919,552 a token. Its FP8
/// config lists every `o_proj` under `ignored_layers`, which vLLM reads before
/// `modules_to_not_convert`: they stay BF16 (7.05 GB more than FP8 would be). vLLM's routers are FP32.
/// Its weights at TP 1 are vLLM's by its own dtype rules (1,030,905,902,592 bytes) within 0.05%.
#[test]
fn mimo_v2_pro_reads_as_flash_with_its_ignored_layers() {
    let m = read("mimo-v2.5-pro");
    let a = &m.architecture;
    assert_eq!(a.family, "mimo_v2_flash");
    assert_eq!(a.params_total().unwrap().get(), 1_021_248_126_336);
    assert_eq!(a.params_active().unwrap().get(), 41_894_919_552);
    assert!(a.mixers().all(|(_, x)| matches!(x, Mixer::Attention(at) if at.fused_qkv)));
    assert!(headroom_core::vllm::fp32_router(a));
    let w = |v: &serde_json::Value| {
        let s = on_vllm(parse_config(v.to_string().as_bytes()).unwrap(), 1);
        headroom_core::estimate::estimate(&s).unwrap().weights_total.get()
    };
    let v: serde_json::Value = serde_json::from_str(&read_fixture("configs/mimo-v2.5-pro.json")).unwrap();
    let ours = w(&v);
    assert!((ours as f64 / 1_030_905_902_592.0 - 1.0).abs() < 5e-4, "{ours}");
    let mut all_fp8 = v.clone();
    all_fp8["quantization_config"].as_object_mut().unwrap().remove("ignored_layers");
    let o_proj: u64 = 70 * 6144 * 128 * 128;
    let d = ours - w(&all_fp8);
    assert!(d > o_proj * 9 / 10 && d < o_proj, "{d}");
    let t = read("mimo-v2.5").architecture;
    assert_eq!(t.params_total().unwrap().get(), 308_778_780_864);
    assert_eq!(t.params_active().unwrap().get(), 15_445_936_320);
}

/// MiMo-V2's prediction layers (`model.mtp.layers.*`) are in its checkpoints but not in its
/// configs; vLLM 0.34 builds the first (`mimo_v2_mtp.py`) and reuses it for every speculative
/// token: the sliding geometry (Flash: 64 query heads and 8 KV heads of 192, values of 128, the
/// sinks' bias), the dense MLP of 16,384, the embedding and hidden-state norms, `eh_proj` (2h × h) and
/// the final norm — 329,273,408 parameters, the target's embedding and head shared. MTP
/// speculation is served (it was refused as "no multi-token-prediction modules"), its one layer
/// in vLLM's cache.
#[test]
fn mimo_v2_prediction_layer_as_vllm_builds_it() {
    use headroom_core::vllm::{SpecMethod, Speculative};
    for name in ["mimo-v2-flash", "mimo-v2.5", "mimo-v2.5-pro"] {
        let a = read(name).architecture;
        let m = a.mtp.as_ref().expect(name);
        assert_eq!(m.modules, 1, "{name}");
        assert!(!m.own_embeddings && m.extras.is_empty());
        let layer = m.layer.as_ref().unwrap();
        let Mixer::Attention(at) = &layer.mixers[0] else { panic!("{name}: not attention") };
        assert_eq!(at.span, Span::Sliding { window: 128 }, "{name}");
        let v: serde_json::Value =
            serde_json::from_str(&read_fixture(&format!("configs/{name}.json"))).unwrap();
        let key = |k: &str| v[k].as_u64().unwrap();
        assert_eq!(
            (at.num_heads, at.num_kv_heads, at.head_dim),
            (key("swa_num_attention_heads"), key("swa_num_key_value_heads"), key("swa_head_dim")),
            "{name}"
        );
    }
    let flash = read("mimo-v2-flash");
    assert_eq!(flash.architecture.param_breakdown().unwrap().mtp, 329_273_408);
    let mut s = on_vllm(flash, 8);
    s.vllm.speculative = Some(Speculative { method: SpecMethod::Mtp, tokens: 3 });
    s.device = Some(headroom_core::hardware::DeviceChoice::Catalog("h200-sxm".into()));
    let e = headroom_core::estimate::estimate(&s).unwrap();
    let b = e.vllm.as_ref().unwrap();
    assert!(b.tp_refused.is_none());
    assert!(e.memory.term(headroom_core::estimate::TermKind::Draft).unwrap().bytes.get() > 0);
}

/// Intern-S2-Preview (`InternS2PreviewForConditionalGeneration`, `intern_s2_preview`) keeps
/// Qwen3.5-MoE's whole stack: its tower is Qwen3.5's (whose vision config names the family without
/// `_vision`) and counted; but vLLM applies the checkpoint's `mamba_ssm_dtype` through Qwen3.5's
/// config hook, registered for Qwen3.5's classes only, so Intern-S2 keeps its delta-rule state in
/// the model's 16 bits where Qwen3.5 keeps FP32.
#[test]
fn intern_s2_keeps_qwen35s_tower_and_a_16_bit_state() {
    let qwen: serde_json::Value =
        serde_json::from_str(&read_fixture("configs/qwen3.5-35b-a3b.json")).unwrap();
    let mut intern = qwen.clone();
    intern["architectures"] = serde_json::json!(["InternS2PreviewForConditionalGeneration"]);
    intern["model_type"] = "intern_s2_preview".into();
    let q = parse_config(qwen.to_string().as_bytes()).unwrap().architecture;
    let i = parse_config(intern.to_string().as_bytes()).unwrap().architecture;
    assert_eq!(i.params_total().unwrap(), q.params_total().unwrap());
    assert_eq!(
        i.encoders.iter().map(|e| e.params()).sum::<u64>(),
        q.encoders.iter().map(|e| e.params()).sum::<u64>()
    );
    assert!(!i.encoders.is_empty());
    assert_eq!((q.ssm_state_bytes, i.ssm_state_bytes), (Some(4), None));
}

/// openPangu-Embedded 1B and 7B (`PanguEmbedded`): Llama's layers with q, k, v and o biased by
/// `bias`: 1,155,912,192 and 8,030,887,936 parameters (cards: 1B and 7B without embeddings). A
/// config of openPangu-R's sink attention is refused by name rather than read as plain attention.
#[test]
fn openpangu_embedded_biases_and_sinks_refused() {
    let one = read("openpangu-embedded-1b").architecture;
    assert_eq!(one.family, "pangu_embedded");
    assert_eq!(one.params_total().unwrap().get(), 1_155_912_192);
    assert_eq!(read("openpangu-embedded-7b").architecture.params_total().unwrap().get(), 8_030_887_936);
    assert_eq!(kv_bytes_per_token(&one, KvDtype::Bf16), 79_872);
    let mut sink: serde_json::Value =
        serde_json::from_str(&read_fixture("configs/openpangu-embedded-7b.json")).unwrap();
    sink["param_sink_number"] = 128.into();
    let e = parse_config(sink.to_string().as_bytes()).unwrap_err().to_string();
    assert!(e.contains("param_sink_number"), "{e}");
}

/// MiMo-V2.5's towers (vLLM's `MiMoV2OmniForCausalLM`): the vision tower 728,594,432 parameters
/// (card: 729M; grouped-query blocks with sinks on the windowed ones), split under tensor
/// parallelism; the audio encoder 261,127,168 (card: 261M), plain modules whole on every GPU,
/// beside the 151,936 × 1,024 embedding its Qwen2 model builds and the checkpoint never fills.
/// An image of 1,024² is 1,024 tokens; at most 8,388,608 pixels (8,192 tokens).
#[test]
fn mimo_v25_towers() {
    use headroom_core::model::Modality;
    let a = read("mimo-v2.5").architecture;
    let of = |m: Modality| a.encoders.iter().find(|e| e.modality == m).unwrap();
    let (v, au) = (of(Modality::Image), of(Modality::Audio));
    assert_eq!((v.params(), au.params()), (728_594_432, 261_127_168));
    assert_eq!(v.tokens_per_image(1024), 1024);
    assert_eq!(v.largest, 2896);
    assert!(au.whole_in_vllm && !v.whole_in_vllm);
    assert_eq!(au.vllm_buffers, 151_936 * 1024 * 2);
}

/// Moondream 3 (`HfMoondream`, `moondream3`): the hub config leaves `config` empty, so vLLM's
/// defaults are its shape: 24 layers of 32 heads of 64 with the per-head "tau" scales, 4 dense
/// layers then 20 of 64 GeGLU experts (8 a token): 8,812,101,632 text parameters, 1,765,670,912 a
/// token; its vision encoder and projector 448,649,072 (card: 9B total, 2B active); an image is
/// always 730 tokens; 192 KiB of cache a token.
#[test]
fn moondream3_from_its_defaults() {
    let cfg = r#"{"architectures": ["HfMoondream"], "model_type": "moondream3", "config": {}}"#;
    let a = parse_config(cfg.as_bytes()).unwrap().architecture;
    assert_eq!(a.family, "moondream3");
    assert_eq!(a.params_total().unwrap().get(), 8_812_101_632);
    assert_eq!(a.params_active().unwrap().get(), 1_765_670_912);
    assert_eq!(a.encoders.iter().map(|e| e.params()).collect::<Vec<_>>(), [448_649_072]);
    assert_eq!(a.encoders[0].tokens_per_image(2048), 730);
    assert_eq!(kv_bytes_per_token(&a, KvDtype::Bf16), 196_608);
    assert_eq!(a.max_context, 4096);
}

/// IBM's Granite with sliding layers (`granite_swa`, `granitemoe_swa`; transformers' class
/// defaults): every fourth layer from the first attends the whole context, the others 128 tokens;
/// a learned sink a head on every layer (their counts equal transformers' build in
/// `reference_counts.rs`). llama.cpp's `granite_swa` GGUFs flag their sliding layers in the header
/// (`tests/llama-cpp`).
#[test]
fn granite_swa_layers_and_sinks() {
    let a = parse_config(read_fixture("configs/transformers-defaults/granite_swa.json").as_bytes())
        .unwrap()
        .architecture;
    assert_eq!(a.family, "granite_swa");
    let layers = attentions(&a);
    assert!(layers.iter().all(|at| at.sinks));
    let spans: Vec<Span> = layers.iter().map(|at| at.span).collect();
    assert_eq!(spans.iter().filter(|s| **s == Span::Full).count(), 6);
    assert!(spans.iter().enumerate().all(|(i, s)| (i % 4 == 0) == (*s == Span::Full)));
    assert!(spans.contains(&Span::Sliding { window: 128 }));
}
