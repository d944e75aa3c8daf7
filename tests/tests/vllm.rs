//! vLLM's startup budget against published startup logs, and its monotonic properties.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::estimate::estimate;
use headroom_core::fit::fit;
use headroom_core::hardware::DeviceChoice;
use headroom_core::inference::Runtime;
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::Scenario;
use headroom_core::units::GIB;
use headroom_core::vllm::{BudgetInput, VllmOptions, VllmVersion, budget};
use headroom_tests::read_fixture;
use proptest::prelude::*;
use serde_json::Value;

fn gib(b: f64) -> f64 {
    b / GIB as f64
}

fn scenario(run: &Value, version: VllmVersion) -> Scenario {
    Scenario {
        weights: Some(WeightFormat::parse(run["weights"].as_str().unwrap()).unwrap()),
        context: run["max_model_len"].as_u64().unwrap(),
        runtime: Some(Runtime::Vllm),
        gpus: run["tp"].as_u64().unwrap(),
        vllm: VllmOptions { version, utilization: Some(9000), ..VllmOptions::default() },
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        ..Scenario::catalog(run["model"].as_str().unwrap())
    }
}

/// Each logged term and the KV cache it leaves, from the catalog's H100: the weights within 1%
/// (MXFP4 within 5%: vLLM pads the experts), the profile peak within 0.05 GiB, the KV cache within
/// 2% (0.1 GiB when it is nearly nothing).
#[test]
fn startup_budgets_match_published_logs() {
    let doc: Value = serde_json::from_str(&read_fixture("vllm/startup-logs.json")).unwrap();
    let version = VllmVersion::parse(doc["version"].as_str().unwrap()).unwrap();
    let mut checked = 0;
    for run in doc["runs"].as_array().unwrap() {
        let s = scenario(run, version);
        let e = estimate(&s).unwrap();
        let b = e.vllm.as_ref().expect("a budget on a GPU");
        let name = format!("{} tp{} {}", run["model"], run["tp"], run["max_model_len"]);
        let w = run["weights_gib"].as_f64().unwrap();
        let tol = if run["weights"] == "mxfp4" { 0.05 } else { 0.01 };
        assert!(
            (gib(b.weights.get() as f64) - w).abs() <= w * tol,
            "{name}: weights {}",
            gib(b.weights.get() as f64)
        );
        let p = run["peak_gib"].as_f64().unwrap();
        assert!(
            (gib(b.activation_peak.get() as f64) - p).abs() <= 0.05,
            "{name}: peak {}",
            gib(b.activation_peak.get() as f64)
        );
        let kv = run["kv_gib"].as_f64().unwrap();
        let ours = gib(b.available_kv as f64);
        assert!((ours - kv).abs() <= (kv.abs() * 0.02).max(0.1), "{name}: KV {ours:.2} GiB, logged {kv}");
        // The log's identity holds in ours exactly.
        let sum = b.weights.get() + b.activation_peak.get() + b.non_torch.get() + b.cuda_graphs.get();
        assert_eq!(b.available_kv, b.requested.get() as i64 - sum as i64, "{name}");
        // Nothing left: vLLM's own refusal, and no fit.
        if kv < 0.0 {
            assert!(b.log_lines().iter().any(|l| l.contains("No available memory for the cache blocks")));
            let f = fit(&s, headroom_core::catalog::device("h100-sxm").unwrap()).unwrap();
            assert_eq!(f.verdict, headroom_core::fit::Verdict::No, "{name}");
        }
        checked += 1;
    }
    assert_eq!(checked, 7);
}

/// The block arithmetic of vLLM's KV-cache config: whole blocks over all layers, the tokens they
/// hold, and the concurrency line (`num_blocks / cdiv(max_model_len, block_size)`).
#[test]
fn blocks_tokens_and_concurrency_follow_vllm() {
    let s = Scenario {
        context: 16000,
        runtime: Some(Runtime::Vllm),
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        vllm: VllmOptions { kv_cache_memory: Some(50 * GIB), ..VllmOptions::default() },
        ..Scenario::catalog("llama-3.1-8b")
    };
    let b = estimate(&s).unwrap().vllm.unwrap();
    // Llama-3.1-8B: 32 layers × 2 × 8 heads × 128 × 2 bytes = 128 KiB per token; 16 tokens a block.
    assert_eq!(b.block_bytes, 16 * 128 * 1024);
    assert_eq!(b.num_blocks, 50 * GIB / (16 * 128 * 1024));
    assert_eq!(b.kv_tokens, b.num_blocks * 16);
    assert_eq!(b.blocks_per_request, 1000);
    assert!((b.max_concurrency - b.num_blocks as f64 / 1000.0).abs() < 1e-9);
    assert!(b.log_lines().iter().any(|l| l == "GPU KV cache size: 409,600 tokens"), "{:?}", b.log_lines());
    // Requests at once per context, from the same blocks.
    for &(c, n) in &b.table {
        assert_eq!(n, b.num_blocks / c.div_ceil(16), "{c}");
    }
    // A request longer than the cache: refused, and the longest that fits named.
    let long = Scenario { context: 500_000, ..s.clone() };
    let b = estimate(&long).unwrap().vllm.unwrap();
    assert!(!b.request_fits);
    assert_eq!(b.longest_request, 409_600);
}

#[test]
fn a_mixed_sliding_window_model_uses_the_hybrid_layout() {
    let s = Scenario {
        context: 32768,
        runtime: Some(Runtime::Vllm),
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        ..Scenario::catalog("gpt-oss-20b")
    };
    let b = estimate(&s).unwrap().vllm.unwrap();
    assert!(b.layout_exact);
    // 12 full and 12 sliding layers: one tensor of 12 layers' pages, two groups per block.
    assert_eq!(b.kv_tokens, b.num_blocks / 2 * 16);
    // A full layer's request needs every token; a sliding one its window and a step.
    assert_eq!(b.blocks_per_request, 32768 / 16 + (127 + 8192u64).div_ceil(16) + 1);
}

fn budget_of(util: u32, offload: u64, seqs: Option<u64>) -> i64 {
    let a = headroom_core::catalog::model("qwen3-8b").unwrap().architecture().unwrap();
    let o = VllmOptions { utilization: Some(util), max_num_seqs: seqs, ..VllmOptions::default() };
    budget(
        &o,
        &BudgetInput {
            arch: &a,
            kv: headroom_core::precision::KvDtype::F16,
            max_model_len: 8192,
            tp: 1,
            weights: headroom_core::units::Bytes::new((16 * GIB).saturating_sub(offload)),
            total: headroom_core::units::Bytes::new(79 * GIB),
            device_name: "NVIDIA H100",
            drafter: None,
            encoders: &[],
        },
    )
    .available_kv
}

proptest! {
    /// A larger utilisation never leaves fewer KV bytes or blocks; weights kept on the CPU never
    /// fewer; fewer scheduled sequences (a smaller sampler) never fewer.
    #[test]
    fn more_room_never_means_less_cache(u in 1u32..10_000, du in 0u32..1000, off in 0u64..(8 * GIB), seqs in 1u64..2048) {
        let u2 = (u + du).min(10_000);
        prop_assert!(budget_of(u2, 0, None) >= budget_of(u, 0, None));
        prop_assert!(budget_of(u, off, None) >= budget_of(u, 0, None));
        prop_assert!(budget_of(u, 0, Some(seqs)) >= budget_of(u, 0, Some(seqs + 1)));
    }

    /// More concurrent requests never fit where fewer do not.
    #[test]
    fn a_larger_batch_never_fits_where_a_smaller_one_does_not(batch in 1u64..400, ctx in 1024u64..65536) {
        let device = headroom_core::catalog::device("rtx-4090").unwrap();
        let s = Scenario { context: ctx, batch, runtime: Some(Runtime::Vllm), ..Scenario::catalog("qwen3-8b") };
        let small = fit(&Scenario { batch: batch.div_ceil(2), ..s.clone() }, device).unwrap();
        let big = fit(&s, device).unwrap();
        prop_assert!(big.verdict >= small.verdict);
    }
}

/// SGLang's documented arithmetic (`_handle_gpu_memory_settings`, `profile_max_num_token`): the
/// fraction from the card's reserve, the pool from what is free after the weights, whole pages.
#[test]
fn sglang_budget_follows_its_server_arguments() {
    let s = Scenario {
        context: 16000,
        runtime: Some(Runtime::Sglang),
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        ..Scenario::catalog("llama-3.1-8b")
    };
    let e = estimate(&s).unwrap();
    let b = e.sglang.as_ref().unwrap();
    // 80 GiB card: 512 + 8192 × 1.5 + 256 × 2 + 1/8 × 1024 = 13,440 MiB reserved.
    assert_eq!(b.heuristic_reserve.get(), 13_440 << 20);
    assert_eq!((b.chunked_prefill_size, b.cuda_graph_max_bs), (8192, 256));
    assert!((b.mem_fraction_static - 0.836).abs() < 1e-9, "{}", b.mem_fraction_static);
    // The pool: free × fraction − weights, in tokens of 128 KiB.
    assert_eq!(b.cell_size, 32 * 2 * 8 * 128 * 2);
    assert_eq!(b.pool, b.free_at_start.get() as i64 - b.weights.get() as i64 - b.dynamic.get() as i64);
    assert_eq!(b.max_total_num_tokens, b.pool as u64 / b.cell_size);
    assert!(
        b.log_lines()[0].starts_with(&format!("KV Cache is allocated. #tokens: {}", b.max_total_num_tokens))
    );
    // The estimate's total is the weights, the cache and SGLang's dynamic share: it fits what is free.
    let f = fit(&s, headroom_core::catalog::device("h100-sxm").unwrap()).unwrap();
    assert_eq!(f.verdict, headroom_core::fit::Verdict::Fits);
    assert_eq!(f.capacity, b.free_at_start);
    // Pages: a page size rounds the pool down to whole pages.
    let paged = Scenario {
        sglang: headroom_core::sglang::SglangOptions { page_size: Some(64), ..Default::default() },
        ..s
    };
    let p = estimate(&paged).unwrap().sglang.unwrap();
    assert_eq!(p.max_total_num_tokens % 64, 0);
    assert!(
        p.max_total_num_tokens <= b.max_total_num_tokens
            && p.max_total_num_tokens + 64 > b.max_total_num_tokens
    );
}

proptest! {
    /// A larger static fraction never leaves SGLang a smaller pool.
    #[test]
    fn a_larger_fraction_never_shrinks_the_sglang_pool(f in 1u32..10_000, df in 0u32..2000) {
        let pool = |f: u32| {
            let s = Scenario {
                runtime: Some(Runtime::Sglang),
                device: Some(DeviceChoice::Catalog("rtx-4090".into())),
                sglang: headroom_core::sglang::SglangOptions { mem_fraction_static: Some(f), ..Default::default() },
                ..Scenario::catalog("qwen3-8b")
            };
            estimate(&s).unwrap().sglang.unwrap().max_total_num_tokens
        };
        prop_assert!(pool((f + df).min(10_000)) >= pool(f));
    }
}

/// A speculative drafter's weights load beside the model and its layers join the KV cache: a
/// draft model of the same page size shares the target's blocks exactly.
#[test]
fn a_drafter_takes_weights_and_cache_layers() {
    use headroom_core::vllm::{SpecMethod, Speculative};
    let base = Scenario {
        context: 8192,
        runtime: Some(Runtime::Vllm),
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        ..Scenario::catalog("qwen3-8b")
    };
    let plain = estimate(&base).unwrap().vllm.unwrap();
    let spec = Speculative::parse(r#"{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4}"#).unwrap();
    assert_eq!(spec, Speculative { method: SpecMethod::Draft("qwen3-0.6b".into()), tokens: 4 });
    let s =
        Scenario { vllm: VllmOptions { speculative: Some(spec), ..VllmOptions::default() }, ..base.clone() };
    let e = estimate(&s).unwrap();
    let b = e.vllm.as_ref().unwrap();
    let draft_w = headroom_core::tensors::weight_bytes(
        &headroom_core::catalog::model("qwen3-0.6b").unwrap().architecture().unwrap(),
        WeightFormat::Bf16,
    )
    .unwrap()
    .total();
    assert_eq!(b.weights.get(), plain.weights.get() + draft_w.get());
    // 36 + 28 layers of 4 KiB per token each, in 16-token blocks.
    assert_eq!(b.block_bytes, 16 * 4096 * (36 + 28));
    assert!(b.layout_exact);
    assert!(e.memory.terms.iter().any(|t| t.kind == headroom_core::estimate::TermKind::Draft));
    // MTP on a model without modules is refused by name; bad configs too.
    let mtp = Scenario {
        vllm: VllmOptions {
            speculative: Some(Speculative::parse("mtp:1").unwrap()),
            ..VllmOptions::default()
        },
        ..base
    };
    assert!(format!("{}", estimate(&mtp).unwrap_err()).contains("speculative_config"));
    assert!(Speculative::parse(r#"{"method": "medusa"}"#).is_err());
    assert!(Speculative::parse("draft:no-such-model:2").is_err());
    assert!(Speculative::parse("eagle:0").is_err());
}

/// Data and expert parallelism: with `-dp 8 --enable-expert-parallel` each GPU keeps the whole
/// attention and dense weights and an eighth of the routed experts; under TP 8 everything is
/// split, and expert parallelism within the group changes no byte count.
#[test]
fn expert_parallelism_spreads_the_experts_over_every_gpu() {
    let s = |gpus: u64, dp: Option<u64>, ep: bool| Scenario {
        weights: Some(WeightFormat::Fp8),
        context: 8192,
        runtime: Some(Runtime::Vllm),
        gpus,
        vllm: VllmOptions { data_parallel: dp, expert_parallel: ep, ..VllmOptions::default() },
        ..Scenario::catalog("deepseek-v3")
    };
    let w = |s: &Scenario| estimate(s).unwrap().memory.get(headroom_core::estimate::TermKind::Weights).get();
    let one = estimate(&s(1, None, false)).unwrap();
    let experts = one.expert_bytes.get();
    let rest = one.weights_total.get() - experts;
    let dp_ep = w(&s(1, Some(8), true));
    assert!(dp_ep.abs_diff(rest + experts / 8) <= 8 * 4096, "{dp_ep} vs {}", rest + experts / 8);
    assert_eq!(w(&s(8, None, true)), w(&s(8, None, false)));
    assert!(w(&s(8, None, false)) < dp_ep);
    // The link and a pasted command carry both.
    let c =
        headroom_core::command::parse("vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel")
            .unwrap();
    assert_eq!((c.vllm.data_parallel, c.vllm.expert_parallel), (Some(8), true));
    let linked = headroom_core::share::decode(&headroom_core::share::encode(&s(1, Some(8), true))).scenario;
    assert_eq!(linked, s(1, Some(8), true));
}

/// A multimodal model's encoder is profiled before the language model, as vLLM's
/// `profile_run` does: as many dummy items of the largest size as the encoder budget
/// (`max(max_num_batched_tokens, one item)`) holds, their outputs kept through the language
/// model's step; a text-only launch profiles none.
#[test]
fn the_encoder_profile_follows_vllms_budget() {
    use headroom_core::estimate::TermKind;
    use headroom_core::scenario::ModelSource;
    let on = |model: ModelSource, device: &str, text_only: bool| {
        let s = Scenario {
            model,
            context: 32768,
            runtime: Some(Runtime::Vllm),
            device: Some(DeviceChoice::Catalog(device.into())),
            text_only,
            ..Scenario::default()
        };
        estimate(&s).unwrap()
    };
    // Gemma 3 12B: 256 tokens an image, 2,048 batched tokens on a 24 GB card → 8 items.
    let gemma = || ModelSource::Catalog("gemma-3-12b".into());
    let e = on(gemma(), "rtx-4090", false);
    let b = e.vllm.as_ref().unwrap();
    let p = b.encoder.as_ref().unwrap();
    assert_eq!((p.budget_tokens, p.items, p.item_tokens), (2048, 8, 256));
    assert!(
        b.log_lines().iter().any(|l| l.contains("budget of 2048 tokens, and profiled with 8 image items"))
    );
    let text = on(gemma(), "rtx-4090", true);
    let t = text.vllm.as_ref().unwrap();
    assert!(t.encoder.is_none());
    assert!(t.activation_peak <= b.activation_peak);
    assert!(text.memory.get(TermKind::Activations) <= e.memory.get(TermKind::Activations));
    assert!(!t.log_lines().iter().any(|l| l.contains("Encoder cache")));
    // Qwen2.5-VL: one image of 3,584² pixels is 16,384 tokens, above the batched tokens: the
    // budget grows to it and one item is run (65,536 patches through the ViT).
    let cfg = headroom_core::import::hf::parse_config(
        read_fixture("configs/qwen2.5-vl-7b-instruct.json").as_bytes(),
    )
    .unwrap()
    .into_custom("qwen2.5-vl".into());
    let e = on(ModelSource::Custom(Box::new(cfg)), "rtx-4090", false);
    let b = e.vllm.as_ref().unwrap();
    let p = b.encoder.as_ref().unwrap();
    assert_eq!((p.budget_tokens, p.items, p.item_tokens), (16384, 1, 16384));
    // The activations term is the budget's peak.
    assert_eq!(e.memory.get(TermKind::Activations), b.activation_peak);
}

/// Other runtimes run a multimodal model's encoder on its largest input too: llama.cpp in its
/// mmproj context beside the model's buffer (the two add up), transformers before the prompt's
/// prefill (the larger counts); text only runs none.
#[test]
fn other_runtimes_count_the_encoder_at_work() {
    use headroom_core::estimate::TermKind;
    use headroom_core::text::MsgId;
    let act = |runtime: Runtime, text_only: bool, context: u64| {
        let s = Scenario { runtime: Some(runtime), text_only, context, ..Scenario::catalog("gemma-3-12b") };
        let e = estimate(&s).unwrap();
        let t = e.memory.term(TermKind::Activations).unwrap().clone();
        (t.bytes.get(), t.assumptions.iter().map(|a| a.id).collect::<Vec<_>>())
    };
    let (with, said) = act(Runtime::LlamaCpp, false, 4096);
    let (without, not_said) = act(Runtime::LlamaCpp, true, 4096);
    assert!(with > without, "{with} vs {without}");
    assert!(said.contains(&MsgId::AssumeEncoderActivationBeside));
    assert!(!not_said.contains(&MsgId::AssumeEncoderActivationBeside));
    // transformers: the larger of the encoder's run and the prompt's prefill.
    let (short, said) = act(Runtime::Transformers, false, 256);
    let (short_text, _) = act(Runtime::Transformers, true, 256);
    assert!(short > short_text && said.contains(&MsgId::AssumeEncoderActivationBefore));
    let (long, _) = act(Runtime::Transformers, false, 65_536);
    let (long_text, _) = act(Runtime::Transformers, true, 65_536);
    assert_eq!(long, long_text, "a long prompt's prefill outweighs one image");
}

/// `--mm-encoder-tp-mode data` keeps the whole encoder on every GPU (each runs its share of the
/// images through it); the default shards it. Read from a pasted command, written back, linked.
#[test]
fn the_encoders_tensor_parallel_mode() {
    use headroom_core::estimate::TermKind;
    let s = |data: bool| Scenario {
        runtime: Some(Runtime::Vllm),
        gpus: 2,
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        vllm: VllmOptions { mm_encoder_data: data, ..VllmOptions::default() },
        ..Scenario::catalog("qwen3-vl-8b")
    };
    let sharded = estimate(&s(false)).unwrap().memory.get(TermKind::Encoders).get();
    let whole = estimate(&s(true)).unwrap().memory.get(TermKind::Encoders).get();
    assert_eq!(whole, sharded * 2);
    let e = estimate(&s(true)).unwrap();
    let cmd = headroom_core::flags::commands(&s(true), &e, None)
        .into_iter()
        .find(|c| c.starts_with("vllm serve"))
        .unwrap();
    assert!(cmd.contains("--mm-encoder-tp-mode data"), "{cmd}");
    let back = headroom_core::command::parse(&cmd).unwrap();
    assert!(back.vllm.mm_encoder_data);
    let link = headroom_core::share::encode(&s(true));
    assert!(link.contains("mmdata=1"), "{link}");
    assert!(headroom_core::share::decode(&link).scenario.vllm.mm_encoder_data);
    let bad = headroom_core::command::parse("vllm serve Qwen/Qwen3-VL-8B-Instruct --mm-encoder-tp-mode both")
        .unwrap();
    assert!(bad.ignored.iter().any(|i| i.piece.contains("both")), "{:?}", bad.ignored);
}
