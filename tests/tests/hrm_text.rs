//! HRM-Text (Sapient's Hierarchical Reasoning Model, text variant; transformers 5.24's
//! `hrm_text`, vLLM's and SGLang's `HrmTextForCausalLM`, llama.cpp's `hrm_text`): a low and a
//! high stack of 16 layers run in nested cycles, each run of a layer with a cache of its own.
//! Read from the config transformers itself writes (`configs/transformers-defaults/hrm_text.json`,
//! HRM-Text-1B's shape; its count is checked layer by layer in `reference_counts.rs`) and from a
//! header llama.cpp's converter would write (`gguf/hrm-text-1b-q4_k_m.gguf`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::breakdown::TermKind;
use headroom_core::estimate::estimate;
use headroom_core::import::gguf::Gguf;
use headroom_core::import::hf::{HfModel, parse_config};
use headroom_core::inference::{Runtime, kv_bytes_per_token};
use headroom_core::precision::{KvDtype, WeightFormat};
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::tensors;
use headroom_core::training::Mode;
use headroom_tests::{fixture, read_fixture};

fn config() -> serde_json::Value {
    serde_json::from_str(&read_fixture("configs/transformers-defaults/hrm_text.json")).unwrap()
}

fn read(v: &serde_json::Value) -> HfModel {
    parse_config(v.to_string().as_bytes()).unwrap()
}

const PARAMS: u64 = 1_447_822_848;

/// 32 stored layers (5 × 1536² attention with its gate, 3 × 1536 × 4096 MLP, no norm weights),
/// untied 151,808-token embeddings and head, the low stack's initial state: 1,447,822,848, as
/// transformers builds it. 128 cache layers: per high cycle (2) the low stack three times and the
/// high stack once; 96 of them rerun stored weights. MHA: 2 × 12 × 128 values a layer.
#[test]
fn hrm_text_caches_every_run_of_its_stacks() {
    let m = read(&config());
    assert!(m.notices.is_empty(), "{:?}", m.notices);
    let a = &m.architecture;
    assert_eq!(a.family, "hrm_text");
    assert_eq!(a.params_total().unwrap().get(), PARAMS);
    assert_eq!((a.num_layers(), a.reused_layers()), (128, 96));
    // Each token runs the 32 stored layers four times on average.
    let layer = 5 * 1536 * 1536 + 3 * 1536 * 4096;
    assert_eq!(a.reused_params().unwrap(), 96 * layer);
    assert_eq!(kv_bytes_per_token(a, KvDtype::F16), 128 * 2 * 12 * 128 * 2);
    assert_eq!(a.max_context, 2048);
    // The order the forward pass writes them: low runs 0–47 (the first stores), high 48–63
    // (stores), then the second high cycle's 64 reruns.
    let stored: Vec<bool> =
        a.groups.iter().flat_map(|g| std::iter::repeat_n(!g.tied, g.count as usize)).collect();
    let want: Vec<bool> = (0..128).map(|i| i < 16 || (48..64).contains(&i)).collect();
    assert_eq!(stored, want);
}

/// A config written before transformers split the count (`num_hidden_layers` the per-stack 16, no
/// `num_layers_per_stack`) reads the same; a count that disagrees with the cycles is refused, as
/// are cycles of zero.
#[test]
fn hrm_text_reads_either_form_of_its_layer_count() {
    let mut legacy = config();
    legacy.as_object_mut().unwrap().remove("num_layers_per_stack");
    legacy["num_hidden_layers"] = 16.into();
    let a = read(&legacy).architecture;
    assert_eq!(a, read(&config()).architecture);
    let mut wrong = config();
    wrong["num_hidden_layers"] = 64.into();
    let e = parse_config(wrong.to_string().as_bytes()).unwrap_err().to_string();
    assert!(e.contains("num_layers_per_stack") && e.contains("128"), "{e}");
    let mut none = legacy;
    none["L_cycles"] = 0.into();
    let e = parse_config(none.to_string().as_bytes()).unwrap_err().to_string();
    assert!(e.contains("HRM-Text"), "{e}");
}

/// In training only the last `L_bp_cycles[h]` low runs of a high cycle keep activations
/// (left-padded with 1s): `[2]` over 2 high cycles keeps 1 + 2 low runs and both high runs, 80 of
/// the 128 cache layers; `[3, 3]` keeps all. The saved activations follow.
#[test]
fn hrm_text_trains_only_the_runs_with_gradients() {
    let a = read(&config()).architecture;
    assert_eq!(a.grad_layers().iter().sum::<u64>(), 80);
    let mut all = config();
    all["L_bp_cycles"] = serde_json::json!([3, 3]);
    let b = read(&all).architecture;
    assert_eq!(b.grad_layers().iter().sum::<u64>(), 128);
    let act = |v: &serde_json::Value| {
        let s = Scenario {
            model: ModelSource::Custom(Box::new(read(v).into_custom("hrm-text".into()))),
            mode: Mode::Full,
            context: 2048,
            ..Scenario::default()
        };
        estimate(&s).unwrap().memory.get(TermKind::Activations).get() as f64
    };
    let (kept, every) = (act(&config()), act(&all));
    assert!(kept < every * 0.8 && kept > every * 0.5, "{kept} vs {every}");
}

/// llama.cpp's file: its 32 blocks and `block_count` of 128 read as the same model (parameters,
/// cache layers, cache), and its Q4_K_M mix is what the rule engine prices the config at —
/// `ffn_down` by llama-quant.cpp's count of them (the first 16 of 32 below 128 / 8 get Q6_K), not
/// by cache layer.
#[test]
fn hrm_text_gguf_is_the_config_and_its_q4_k_m_mix() {
    let bytes = std::fs::read(fixture("gguf/hrm-text-1b-q4_k_m.gguf")).unwrap();
    let g: Gguf = headroom_core::import::gguf::parse(&bytes).unwrap();
    let (read_gguf, _) = g.to_architecture().unwrap();
    let from_config = read(&config()).architecture;
    assert_eq!(g.params(), PARAMS);
    assert_eq!(read_gguf.params_total().unwrap().get(), PARAMS);
    assert_eq!((read_gguf.num_layers(), read_gguf.reused_layers()), (128, 96));
    assert_eq!(kv_bytes_per_token(&read_gguf, KvDtype::F16), kv_bytes_per_token(&from_config, KvDtype::F16));
    let q4 = WeightFormat::parse("q4_k_m").unwrap();
    assert_eq!(tensors::weight_bytes(&from_config, q4).unwrap().total().get(), g.tensor_bytes());
    assert_eq!(tensors::weight_bytes(&read_gguf, q4).unwrap().total().get(), g.tensor_bytes());
}

/// Every runtime that lists it serves it: vLLM's pool holds 128 layers of pages; the command
/// transformers gets uses SDPA (FlashAttention cannot draw its prefix-LM mask).
#[test]
fn hrm_text_under_vllm_and_transformers() {
    let s = |runtime| Scenario {
        model: ModelSource::Custom(Box::new(read(&config()).into_custom("hrm-text".into()))),
        runtime: Some(runtime),
        context: 2048,
        ..Scenario::default()
    };
    let e = estimate(&s(Runtime::Vllm)).unwrap();
    assert_eq!(e.memory.get(TermKind::KvCache).get(), 2048 * 128 * 2 * 12 * 128 * 2);
    let t = estimate(&s(Runtime::Transformers)).unwrap();
    let cmd = headroom_core::flags::commands(&s(Runtime::Transformers), &t, None).join("\n");
    assert!(cmd.contains("sdpa"), "{cmd}");
}
