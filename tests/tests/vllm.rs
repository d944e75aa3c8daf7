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
/// (MXFP4 as vLLM's kernels store the experts), the profile peak within 0.05 GiB, the KV cache within
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
        let tol = 0.01;
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
    // Llama-3.1-8B: 32 layers × 2 × 8 heads × 128 × 2 bytes = 128 KiB per token; 64 tokens a
    // block (vLLM 0.34's default).
    assert_eq!(b.block_size, 64);
    assert_eq!(b.block_bytes, 64 * 128 * 1024);
    assert_eq!(b.num_blocks, 50 * GIB / (64 * 128 * 1024));
    assert_eq!(b.kv_tokens, b.num_blocks * 64);
    assert_eq!(b.blocks_per_request, 250);
    assert!((b.max_concurrency - b.num_blocks as f64 / 250.0).abs() < 1e-9);
    // One line since 0.29 (read in the 0.29, 0.31, 0.33 and 0.34 wheels).
    assert!(
        b.log_lines().iter().any(|l| l
            == "GPU KV cache size: 409,600 tokens, Maximum concurrency for 16,000 tokens per request: 25.60x"),
        "{:?}",
        b.log_lines()
    );
    // A fixed cache size is not measured after warmup.
    assert!(b.measured.is_none());
    // Requests at once per context, from the same blocks.
    for &(c, n) in &b.table {
        assert_eq!(n, b.num_blocks / c.div_ceil(64), "{c}");
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
    // 12 full and 12 sliding layers: one tensor of 12 layers' pages. A full layer's request needs
    // every token; a sliding one its window and every batch in flight (0.34's async scheduling:
    // two steps of 8,192).
    assert_eq!(b.blocks_per_request, 32768 / 64 + (127 + 2 * 8192u64).div_ceil(64) + 1);
    // The log's tokens: what the concurrency comes to at the request length (since 0.21).
    assert_eq!(b.kv_tokens, (b.num_blocks as f64 / b.blocks_per_request as f64 * 32768.0) as u64);
    // Without async scheduling one batch is in flight.
    let sync = Scenario {
        vllm: VllmOptions { async_scheduling: Some(false), ..VllmOptions::default() },
        ..s.clone()
    };
    let b1 = estimate(&sync).unwrap().vllm.unwrap();
    assert_eq!(b1.blocks_per_request, 32768 / 64 + (127 + 8192u64).div_ceil(64) + 1);
    // `max_in_flight_tokens` came with 0.26 (16-token blocks then); 0.25 reserved one step.
    let at = |v: &str, pp: u64| {
        let o = VllmOptions {
            version: VllmVersion::parse(v).unwrap(),
            pipeline_parallel: (pp > 1).then_some(pp),
            ..VllmOptions::default()
        };
        let b = estimate(&Scenario { vllm: o, ..s.clone() }).unwrap().vllm.unwrap();
        b.blocks_per_request - 32768 / 16
    };
    assert_eq!(at("0.25", 1), (127 + 8192u64).div_ceil(16) + 1);
    assert_eq!(at("0.26", 1), (127 + 2 * 8192u64).div_ceil(16) + 1);
    // On two pipeline stages a MoE ran on the V1 runner before 0.30 (two batches, one per
    // stage); from 0.30 the V2 runner keeps one more.
    assert_eq!(at("0.29", 2), (127 + 2 * 8192u64).div_ceil(16) + 1);
    assert_eq!(at("0.30", 2), (127 + 3 * 8192u64).div_ceil(16) + 1);
    // Before 0.21: one group's blocks in tokens.
    let old = Scenario {
        vllm: VllmOptions { version: VllmVersion::parse("0.20").unwrap(), ..VllmOptions::default() },
        ..s
    };
    let b = estimate(&old).unwrap().vllm.unwrap();
    assert_eq!((b.block_size, b.kv_tokens), (16, b.num_blocks / 2 * 16));
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
            cuda_cc: 90,
            rocm: false,
            outside: headroom_core::units::Bytes::ZERO,
            stages: &[],
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
    // 80 GiB card: 512 + 8192 × 1.5 + 256 × 2 + 1/8 × 1024 + 58 prefill graphs × 8 = 13,904 MiB.
    assert_eq!(b.heuristic_reserve.get(), 13_904 << 20);
    assert_eq!((b.chunked_prefill_size, b.cuda_graph_max_bs), (8192, 256));
    assert!((b.mem_fraction_static - 0.830).abs() < 1e-9, "{}", b.mem_fraction_static);
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

/// SGLang lowers its heuristic fraction for a multimodal model by the vision tower's size
/// (`adjust_mem_fraction_for_vlm`): Qwen2.5-VL-7B's 32 × 1,280 tower on an H100, 0.830 × 0.95 ×
/// 0.892 = 0.703; `--language-model-only` (text only) keeps 0.830, and a given fraction is kept.
#[test]
fn sglang_lowers_a_multimodal_models_fraction_by_its_tower() {
    let s = Scenario {
        runtime: Some(Runtime::Sglang),
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        ..Scenario::catalog("qwen2.5-vl-7b")
    };
    let f = |s: &Scenario| estimate(s).unwrap().sglang.unwrap().mem_fraction_static;
    let want = 0.830 * headroom_core::sglang::vlm_factor(32, 1280);
    assert!((f(&s) - want).abs() < 1e-9, "{}", f(&s));
    assert!((0.70..0.71).contains(&f(&s)));
    assert!((f(&Scenario { text_only: true, ..s.clone() }) - 0.830).abs() < 1e-9);
    let given = Scenario {
        sglang: headroom_core::sglang::SglangOptions {
            mem_fraction_static: Some(8500),
            ..Default::default()
        },
        ..s.clone()
    };
    assert!((f(&given) - 0.85).abs() < 1e-9);
    let text = Scenario { ..Scenario::catalog("qwen2.5-7b") };
    let t = Scenario { runtime: s.runtime, device: s.device.clone(), ..text };
    assert!((f(&t) - 0.830).abs() < 1e-9, "a text model keeps the heuristic's fraction");
}

/// SGLang 0.5.23's hybrid pools (`HybridSWAPoolConfigurator`, `_handle_max_mamba_cache`):
/// gpt-oss's sliding layers get 0.8 of the full layers' tokens, Gemma 3 stays one pool, and
/// Qwen3-Next's Mamba slots take `0.9/1.9` of the pool before its attention layers get the rest.
#[test]
fn sglang_hybrid_pools_follow_its_configurators() {
    use headroom_core::sglang::SglangOptions;
    let at = |model: &str, gpus: u64, context: u64, o: SglangOptions| {
        let s = Scenario {
            context,
            gpus,
            runtime: Some(Runtime::Sglang),
            sglang: o,
            device: Some(DeviceChoice::Catalog("h100-sxm".into())),
            ..Scenario::catalog(model)
        };
        estimate(&s).unwrap().sglang.unwrap()
    };
    // gpt-oss-120b: 18 full and 18 sliding layers of 8 × (64 + 64) × 2 = 2,048 bytes per token.
    let b = at("gpt-oss-120b", 1, 131_072, SglangOptions::default());
    let (swa_tokens, swa_cell) = b.swa.unwrap();
    assert_eq!((b.cell_size, swa_cell), (36_864, 36_864));
    assert_eq!(b.max_total_num_tokens, (b.pool as f64 / (36_864.0 + 0.8 * 36_864.0)) as u64);
    assert_eq!(swa_tokens, (b.max_total_num_tokens as f64 * 0.8) as u64);
    let lines = b.log_lines().join("\n");
    assert!(
        lines.contains(&format!(
            "full_layer_tokens={}, swa_layer_tokens={swa_tokens}",
            b.max_total_num_tokens
        ))
    );
    // Asked otherwise: one pool over all 36 layers.
    let one = at(
        "gpt-oss-120b",
        1,
        131_072,
        SglangOptions { disable_hybrid_swa_memory: true, ..Default::default() },
    );
    assert!(one.swa.is_none() && one.cell_size == 73_728);
    // Gemma 3 is not in SGLang's hybrid list: every layer at full length.
    assert!(at("gemma-3-12b", 1, 32_768, SglangOptions::default()).swa.is_none());
    // Qwen3-Next at TP 4: 36 Gated DeltaNet layers of (3 × 2,048) BF16 + 8 × 128 × 128 FP32 =
    // 536,576 bytes each: 19,316,736 bytes a slot; 12 attention layers of one KV head × 512 × 2.
    let q = at("qwen3-next-80b-a3b", 4, 262_144, SglangOptions::default());
    let m = q.mamba.clone().unwrap();
    assert_eq!((m.slot_bytes, m.slots_per_request, q.cell_size), (19_316_736, 5, 12_288));
    let pool = q.pool as u64;
    assert_eq!(m.slots, ((pool as f64 * 0.9 / 1.9) as u64 - m.slot_bytes) / m.slot_bytes);
    assert_eq!(q.max_total_num_tokens, (pool - (m.slots + 1) * m.slot_bytes) / 12_288);
    assert_eq!(q.max_running_requests, m.slots / 5);
    assert!(
        q.log_lines()[0].starts_with(&format!("Mamba Cache is allocated. max_mamba_cache_size: {}", m.slots))
    );
    // A fixed slot count is taken as given.
    let fixed = at(
        "qwen3-next-80b-a3b",
        4,
        262_144,
        SglangOptions { max_mamba_cache_size: Some(100), ..Default::default() },
    );
    assert_eq!(fixed.mamba.unwrap().slots, 100);
    assert!(fixed.max_total_num_tokens > q.max_total_num_tokens);
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
    // 36 + 28 layers of 4 KiB per token each, in 64-token blocks.
    assert_eq!(b.block_bytes, 64 * 4096 * (36 + 28));
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

/// A hybrid model's layout as vLLM plans it, worked by hand from vLLM 0.34's
/// `Platform._align_hybrid_block_size`, `MambaSpec` and `get_max_concurrency_for_kv_cache_config`
/// (and 0.25's and 0.20's rules): the attention block raised to hold one layer's Mamba state, the
/// state padded to the attention page, the KV groups, and the tokens the log states.
#[test]
fn hybrid_models_get_vllm_block_padding_and_capacity() {
    struct Case {
        model: &'static str,
        device: &'static str,
        tp: u64,
        version: &'static str,
        block: u64,
        padding: f64,
        tokens: u64,
        concurrency: f64,
    }
    let cases = [
        // Qwen3-Next: 12 attention layers (2 KV heads × 256, BF16: 2,048 B per token) and 36 Gated
        // DeltaNet layers (convolution 3 × 8,192 channels, state 32 × 128 × 128, BF16:
        // 1,097,728 B). 0.34: block 64 → 64 × ⌈1,097,728 / 131,072⌉ = 576 tokens; 4 groups of
        // 12; a request: ⌈262,144 / 576⌉ = 456 attention blocks + 3 × (2 + 1 checkpoint) = 465;
        // 40 GiB / (12 × 576 × 2,048) = 3,034 blocks → 6.52× → 1,710,419 tokens.
        Case {
            model: "qwen3-next-80b-a3b",
            device: "b200",
            tp: 1,
            version: "0.34",
            block: 576,
            padding: 7.46,
            tokens: 1_710_419,
            concurrency: 6.52,
        },
        // TP 4: one KV head (1,024 B per token), the state a quarter (274,432 B): 64 × 5 = 320.
        Case {
            model: "qwen3-next-80b-a3b",
            device: "h100-sxm",
            tp: 4,
            version: "0.34",
            block: 320,
            padding: 19.40,
            tokens: 0,
            concurrency: 0.0,
        },
        // 0.25: block 16 → 16 × 34 = 544 (1.49%); prefix caching off for hybrids: one state per
        // request: 482 + 3 = 485 blocks; 40 GiB / (12 × 544 × 2,048) = 3,212 blocks → 6.62×.
        Case {
            model: "qwen3-next-80b-a3b",
            device: "b200",
            tp: 1,
            version: "0.25",
            block: 544,
            padding: 1.49,
            tokens: 1_736_095,
            concurrency: 6.62,
        },
        // Nemotron 3 Nano: 6 attention layers (2 KV heads × 128: 1,024 B per token), 23 Mamba-2
        // layers (FP32 SSM state 64 × 64 × 128 = 2,097,152 B + convolution 3 × 6,144 × 2 B):
        // 2,134,016 B → 64 × 33 = 2,112 tokens (1.34%); TP 4: 1,088 (4.41%).
        Case {
            model: "nemotron-3-nano-30b-a3b",
            device: "h100-sxm",
            tp: 1,
            version: "0.34",
            block: 2112,
            padding: 1.34,
            tokens: 0,
            concurrency: 0.0,
        },
        Case {
            model: "nemotron-3-nano-30b-a3b",
            device: "h100-sxm",
            tp: 4,
            version: "0.34",
            block: 1088,
            padding: 4.41,
            tokens: 0,
            concurrency: 0.0,
        },
        // 0.20: tokens were blocks ÷ groups × block: 3,212 // 4 × 544 = 436,832.
        Case {
            model: "qwen3-next-80b-a3b",
            device: "b200",
            tp: 1,
            version: "0.20",
            block: 544,
            padding: 1.49,
            tokens: 436_832,
            concurrency: 6.62,
        },
    ];
    for c in cases {
        let s = Scenario {
            context: 262_144,
            runtime: Some(Runtime::Vllm),
            gpus: c.tp,
            vllm: VllmOptions {
                version: VllmVersion::parse(c.version).unwrap(),
                kv_cache_memory: Some(40 << 30),
                ..VllmOptions::default()
            },
            device: Some(DeviceChoice::Catalog(c.device.into())),
            ..Scenario::catalog(c.model)
        };
        let b = estimate(&s).unwrap().vllm.unwrap();
        let name = format!("{} tp{} {}", c.model, c.tp, c.version);
        let m = b.mamba.as_ref().expect("a hybrid layout");
        assert_eq!(b.block_size, c.block, "{name}");
        assert!(m.block_raised, "{name}");
        assert!((m.padding_pct - c.padding).abs() < 0.005, "{name}: padding {}", m.padding_pct);
        assert!(b.layout_exact, "{name}");
        if c.tokens > 0 {
            assert_eq!(b.kv_tokens, c.tokens, "{name}");
            assert!((b.max_concurrency - c.concurrency).abs() < 0.005, "{name}: {}", b.max_concurrency);
        }
        let lines = b.log_lines().join("\n");
        assert!(lines.contains(&format!("Setting attention block size to {} tokens", c.block)), "{lines}");
        assert!(lines.contains(&format!("Padding mamba page size by {:.2}%", c.padding)), "{lines}");
    }
    // Prefix caching off (0.34): one state per request, and each speculative token one more.
    let base = Scenario {
        context: 262_144,
        runtime: Some(Runtime::Vllm),
        vllm: VllmOptions {
            kv_cache_memory: Some(40 << 30),
            prefix_caching: Some(false),
            ..VllmOptions::default()
        },
        device: Some(DeviceChoice::Catalog("b200".into())),
        ..Scenario::catalog("qwen3-next-80b-a3b")
    };
    let off = estimate(&base).unwrap().vllm.unwrap();
    assert_eq!((off.mamba.as_ref().unwrap().pages_per_request, off.blocks_per_request), (1, 456 + 3));
    let mut spec = base.clone();
    spec.vllm.speculative = Some(headroom_core::vllm::Speculative::parse("eagle:2").unwrap());
    let with = estimate(&spec).unwrap().vllm.unwrap();
    assert_eq!(with.mamba.as_ref().unwrap().pages_per_request, 3);
    assert!(
        with.mamba.as_ref().unwrap().page > off.mamba.as_ref().unwrap().page,
        "the convolution keeps the drafts"
    );
}

/// gpt-oss's MXFP4 experts as each card's vLLM kernel stores them, against published "Model
/// loading took" lines: vLLM 0.25.1 on an H100 (Triton, 61.29 GiB; a public deployment note of
/// 2026-08-04), vLLM 0.11.2 with Marlin (65.9651 GiB, blog.huikang.dev 2025-12-28), and the
/// arithmetic of 0.34's `mxfp4_round_up_hidden_size_and_intermediate_size` on a B200.
#[test]
fn mxfp4_experts_follow_the_cards_kernel() {
    let loading = |device: &str, version: &str, gpus: u64| {
        let s = Scenario {
            runtime: Some(Runtime::Vllm),
            gpus,
            vllm: VllmOptions { version: VllmVersion::parse(version).unwrap(), ..VllmOptions::default() },
            device: Some(DeviceChoice::Catalog(device.into())),
            ..Scenario::catalog("gpt-oss-120b")
        };
        let e = estimate(&s).unwrap();
        gib(e.vllm.unwrap().weights.get() as f64)
    };
    let h100 = loading("h100-sxm", "0.25", 1);
    assert!((h100 - 61.29).abs() <= 61.29 * 0.01, "H100 Triton: {h100}");
    let marlin = loading("a100-sxm4-80gb", "0.11", 1);
    assert!((marlin - 65.9651).abs() <= 65.9651 * 0.01, "Marlin: {marlin}");
    // TRT-LLM on a B200: experts 3,072 × 2,944, FP32 biases: 14,449,664 bytes each.
    let b200 = loading("b200", "0.34", 1);
    let experts = 14_449_664.0 * 128.0 * 36.0 / GIB as f64;
    assert!(b200 > experts && b200 < experts + 4.4, "B200: {b200}");
    // Over four GPUs each holds a quarter of every expert, 720 → 768 wide on Hopper.
    let tp4 = loading("h100-sxm", "0.34", 4);
    assert!(tp4 < h100 / 3.5 && tp4 > h100 / 4.5, "TP 4: {tp4}");
}

/// Pipeline parallelism as vLLM splits and sizes it: `get_pp_indices`' layer split, the input
/// embeddings on the first stage and the head on the last, each stage's own budget (the sampler's
/// peak on the last only), and every stage taking the fewest blocks.
#[test]
fn pipeline_stages_follow_vllms_split_and_take_the_fewest_blocks() {
    use headroom_core::vllm::pp_stages;
    let sizes = |l: u64, pp: u64| pp_stages(l, pp).iter().map(|(a, b)| b - a).collect::<Vec<_>>();
    assert_eq!(sizes(36, 5), [7, 7, 7, 8, 7]);
    assert_eq!(sizes(36, 8), [4, 4, 4, 5, 5, 5, 5, 4]);
    assert_eq!(sizes(32, 2), [16, 16]);
    let base = Scenario {
        context: 8192,
        runtime: Some(Runtime::Vllm),
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        ..Scenario::catalog("llama-3.1-70b")
    };
    let one = estimate(&base).unwrap();
    let two = estimate(&Scenario {
        vllm: VllmOptions { pipeline_parallel: Some(2), ..VllmOptions::default() },
        ..base.clone()
    })
    .unwrap();
    let b = two.vllm.as_ref().unwrap();
    assert_eq!(b.stages.len(), 2);
    assert_eq!((b.stages[0].layers, b.stages[1].layers), (40, 40));
    // Llama-3.1-70B's untied embeddings (1 GiB each in BF16): the first stage holds the input
    // table, the last the head; the layers halve.
    let w = |s: usize| b.stages[s].weights.get() as f64;
    let total = one.vllm.as_ref().unwrap().weights.get() as f64;
    assert!((w(0) + w(1) - total).abs() / total < 0.01, "{} + {} vs {total}", w(0), w(1));
    // The last stage's profile holds the sampler; the first only the forward pass (the V2
    // runner's light sampler stays under this model's forward pass: equal here).
    assert!(b.stages[1].activation_peak >= b.stages[0].activation_peak);
    // Every stage takes the fewest blocks, and the figures shown are that stage's.
    let fewest = b.stages.iter().map(|s| s.num_blocks).min().unwrap();
    assert_eq!(b.num_blocks, fewest);
    assert!(b.stages.iter().any(|s| s.available_kv == b.available_kv));
    // Half the layers per GPU: about twice the tokens of the one-stage cache on the same card.
    let single = one.vllm.as_ref().unwrap();
    assert!(single.available_kv < 0 || b.kv_tokens > single.kv_tokens);
    // A pasted command and a link carry it; the written command says it.
    let c = headroom_core::command::parse(
        "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --pipeline-parallel-size 2",
    )
    .unwrap();
    assert_eq!(c.vllm.pipeline_parallel, Some(2));
    let s = Scenario { vllm: VllmOptions { pipeline_parallel: Some(2), ..VllmOptions::default() }, ..base };
    let link = headroom_core::share::encode(&s);
    assert!(link.contains("pp=2"), "{link}");
    assert_eq!(headroom_core::share::decode(&link).scenario.vllm.pipeline_parallel, Some(2));
    let e = estimate(&s).unwrap();
    assert!(
        headroom_core::flags::commands(&s, &e, None).iter().any(|c| c.contains("--pipeline-parallel-size 2"))
    );
}

/// `--mamba-ssm-cache-dtype float32` doubles Qwen3-Next's SSM state (536,576 bytes a layer at TP 4:
/// block 576, padding 9.92%), from a pasted command, a link or the flag.
#[test]
fn the_mamba_state_dtype_follows_the_flag() {
    let c = headroom_core::command::parse(
        "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct -tp 4 --max-model-len 131072 --mamba-ssm-cache-dtype float32",
    )
    .unwrap();
    assert_eq!(c.vllm.mamba_ssm_cache_bytes, Some(4));
    let s = Scenario {
        context: 131_072,
        gpus: 4,
        runtime: Some(Runtime::Vllm),
        vllm: VllmOptions { mamba_ssm_cache_bytes: Some(4), ..VllmOptions::default() },
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        ..Scenario::catalog("qwen3-next-80b-a3b")
    };
    let b = estimate(&s).unwrap().vllm.unwrap();
    let m = b.mamba.as_ref().unwrap();
    assert_eq!((b.block_size, m.page), (576, 536_576));
    assert!((m.padding_pct - 9.92).abs() < 0.005, "{}", m.padding_pct);
    let link = headroom_core::share::encode(&s);
    assert!(link.contains("mssm=float32"), "{link}");
    assert_eq!(headroom_core::share::decode(&link).scenario, s);
    assert!(headroom_core::vllm::mamba_dtype_bytes("int4").is_err());
}

/// vLLM shards an encoder built from its own parallel layers over tensor parallelism, but runs
/// Qwen2-Audio's (transformers' `Qwen2AudioEncoder`) whole on every GPU; Voxtral's Whisper is
/// its own and is sharded.
#[test]
fn encoders_vllm_takes_from_transformers_stay_whole_under_tensor_parallelism() {
    use headroom_core::estimate::TermKind;
    use headroom_core::import::hf::parse_config;
    use headroom_core::scenario::ModelSource;
    use headroom_core::text::MsgId;
    let per_gpu = |file: &str, gpus: u64| {
        let m = parse_config(read_fixture(&format!("configs/{file}")).as_bytes()).unwrap();
        let params: u64 = m.architecture.encoders.iter().map(|e| e.params()).sum();
        let s = Scenario {
            model: ModelSource::Custom(Box::new(m.into_custom(file.into()))),
            runtime: Some(Runtime::Vllm),
            gpus,
            ..Scenario::default()
        };
        let e = estimate(&s).unwrap();
        let t = e.memory.terms.iter().find(|t| t.kind == TermKind::Encoders).unwrap().clone();
        (params, t)
    };
    let (params, one) = per_gpu("qwen2-audio-7b-instruct.json", 1);
    let (_, two) = per_gpu("qwen2-audio-7b-instruct.json", 2);
    assert_eq!(one.bytes.get(), 2 * params);
    assert_eq!(two.bytes, one.bytes, "whole on each GPU");
    assert!(two.assumptions.iter().any(|m| m.id == MsgId::AssumeEncoderWholeVllm));
    let (params, v1) = per_gpu("voxtral-mini-3b-2507.json", 1);
    let (_, v2) = per_gpu("voxtral-mini-3b-2507.json", 2);
    assert_eq!(v1.bytes.get(), 2 * params);
    assert_eq!(v2.bytes.get(), (2 * params).div_ceil(2), "sharded");
    assert!(v2.assumptions.iter().all(|m| m.id != MsgId::AssumeEncoderWholeVllm));
}

/// An omni checkpoint read from its headers: the talker's and vocoder's tensors are neither the
/// language model's weights nor, under vLLM (which drops them), on the GPU; transformers loads
/// them beside the encoders.
#[test]
fn an_omni_checkpoints_speech_output_is_loaded_by_transformers_only() {
    use headroom_core::estimate::TermKind;
    use headroom_core::import::{hf::parse_config, safetensors};
    use headroom_core::scenario::ModelSource;
    let config = parse_config(read_fixture("configs/qwen2-audio-7b-instruct.json").as_bytes()).unwrap();
    let mut json = String::from("{");
    let mut offset = 0u64;
    for (i, (name, rows, cols)) in [
        ("language_model.model.embed_tokens.weight", 156_032u64, 4096u64),
        ("language_model.model.layers.0.self_attn.q_proj.weight", 4096, 4096),
        ("audio_tower.layers.0.fc1.weight", 5120, 1280),
        ("talker.model.layers.0.mlp.up_proj.weight", 4096, 1024),
        ("code2wav.decoder.0.conv.weight", 1024, 1024),
    ]
    .iter()
    .enumerate()
    {
        let bytes = rows * cols * 2;
        if i > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            r#""{name}": {{"dtype": "BF16", "shape": [{rows}, {cols}], "data_offsets": [{offset}, {}]}}"#,
            offset + bytes
        ));
        offset += bytes;
    }
    json.push('}');
    let h = safetensors::parse_json(json.as_bytes()).unwrap();
    let model = safetensors::custom_model("omni".into(), config, &[(h, 0)]);
    let terms = |runtime: Runtime| {
        let s = Scenario {
            model: ModelSource::Custom(Box::new(model.clone())),
            runtime: Some(runtime),
            ..Scenario::default()
        };
        let e = estimate(&s).unwrap();
        (e.memory.get(TermKind::Weights).get(), e.memory.get(TermKind::Encoders).get())
    };
    let lm = (156_032 + 4096) * 4096 * 2;
    let (audio, speech) = (5120 * 1280 * 2, (4096 * 1024 + 1024 * 1024) * 2);
    assert_eq!(terms(Runtime::Vllm), (lm, audio));
    assert_eq!(terms(Runtime::Transformers), (lm, audio + speech));
}

fn config_scenario(file: &str, context: u64, gpus: u64) -> Scenario {
    use headroom_core::import::hf;
    use headroom_core::scenario::ModelSource;
    let m = hf::parse_config(read_fixture(&format!("configs/{file}")).as_bytes()).unwrap();
    Scenario {
        model: ModelSource::Custom(Box::new(m.into_custom(file.into()))),
        context,
        gpus,
        runtime: Some(Runtime::Vllm),
        device: Some(DeviceChoice::Catalog("h200-sxm".into())),
        ..Scenario::default()
    }
}

/// Layers whose page is a fraction of the largest take a larger block (vLLM's
/// `unify_kv_cache_spec_page_size`): MiMo-V2-Flash's 9 full layers (4 key/value heads of
/// 192 + 128) page half what its 39 sliding layers (8 heads) do, so their blocks hold twice the
/// tokens; layers grouped 9 at a time (one full group, five sliding ones).
#[test]
fn smaller_pages_take_larger_blocks() {
    let len = 32768;
    // On 2 GPUs (2 and 4 heads a GPU); on 8, both kinds keep one head a GPU and pages match.
    let b = estimate(&config_scenario("mimo-v2-flash.json", len, 2)).unwrap().vllm.unwrap();
    assert!(b.layout_exact);
    // Sliding layers keep blocks for the two batches async scheduling has in flight.
    let (block, step) = (b.block_size, 2 * b.max_num_batched_tokens);
    let full = len.div_ceil(2 * block);
    let sliding = (128 - 1 + step).min(len).div_ceil(block) + 1;
    assert_eq!(b.blocks_per_request, full + 5 * sliding, "block {block}, step {step}");
}

/// A sparse latent-attention model (GLM-5's indexer) at a `--block-size` vLLM 0.34's sparse MLA
/// kernels do not take: multiples of 64 on an H200, of 32 on a B200 (FlashInfer's TRT-LLM
/// kernel) — otherwise no backend is found and vLLM stops before loading the model, the error its
/// log ends on, the advice the next multiple. A 32-token block on a B200 starts, its layout said
/// approximate (the indexer's kernel blocks are 64 tokens); 128 starts exactly.
#[test]
fn sparse_latent_attention_takes_its_kernels_blocks() {
    use headroom_core::text::MsgId;
    let on = |device: &str, block: u64| {
        let mut s = config_scenario("glm-5.json", 8192, 8);
        s.weights = Some(WeightFormat::Fp8);
        s.device = Some(DeviceChoice::Catalog(device.into()));
        s.vllm.block_size = Some(block);
        estimate(&s).unwrap().vllm.unwrap()
    };
    for (device, block, fix) in
        [("h200-sxm", 16u64, 64u64), ("h200-sxm", 32, 64), ("b200", 16, 32), ("b200", 48, 64)]
    {
        let b = on(device, block);
        let r = b.tp_refused.as_ref().unwrap_or_else(|| panic!("{device} {block}"));
        assert_eq!(r.reason.id, MsgId::AdviceVllmSparseMlaBlock);
        assert!(!r.loaded);
        assert_eq!(r.reason.args.last(), Some(&headroom_core::text::Arg::Int(fix)), "{device} {block}");
        assert_eq!(b.log_lines().len(), 1);
        assert!(b.log_lines()[0].contains(&format!("block_size={block},")), "{:?}", b.log_lines());
    }
    let b = on("b200", 32);
    assert!(b.tp_refused.is_none() && !b.layout_exact);
    for device in ["h200-sxm", "b200"] {
        let b = on(device, 128);
        assert!(b.tp_refused.is_none() && b.layout_exact, "{device}");
    }
    // Plain latent attention (DeepSeek V3.1, no indexer) has backends that take 16.
    let mut s = config_scenario("deepseek-v3.1.json", 8192, 8);
    s.vllm.block_size = Some(16);
    assert!(estimate(&s).unwrap().vllm.unwrap().tp_refused.is_none());
}

/// vLLM 0.34's attention kernels on NVIDIA GPUs take blocks of a multiple of 16 tokens: Llama with
/// `--block-size 8` on an H100 stops before loading (the advice: 16); the same on an AMD GPU, a
/// model without attention (Falcon Mamba), or vLLM 0.20 is not refused here.
#[test]
fn blocks_no_cuda_attention_kernel_takes() {
    use headroom_core::text::{Arg, MsgId};
    let on = |model: &str, device: &str, block: u64, version: Option<VllmVersion>| {
        let mut s = Scenario {
            model: headroom_core::scenario::ModelSource::Catalog(model.into()),
            runtime: Some(Runtime::Vllm),
            device: Some(DeviceChoice::Catalog(device.into())),
            ..Scenario::default()
        };
        s.vllm.block_size = Some(block);
        s.vllm.version = version.unwrap_or_default();
        estimate(&s).unwrap().vllm.unwrap()
    };
    let b = on("llama-3.1-8b", "h100-sxm", 8, None);
    let r = b.tp_refused.as_ref().expect("refused");
    assert_eq!(r.reason.id, MsgId::AdviceVllmKernelBlock);
    assert_eq!(r.reason.args, vec![Arg::Int(8), Arg::Int(16)]);
    assert!(!r.loaded && b.log_lines()[0].contains("block_size=8,"));
    assert!(on("llama-3.1-8b", "h100-sxm", 16, None).tp_refused.is_none());
    assert!(on("llama-3.1-8b", "mi300x", 8, None).tp_refused.is_none());
    assert!(on("falcon-mamba-7b", "h100-sxm", 8, None).tp_refused.is_none());
    let old = VllmVersion::parse("0.20").unwrap();
    assert!(on("llama-3.1-8b", "h100-sxm", 8, Some(old)).tp_refused.is_none());
}

/// Layers of one type with pages of different sizes form one group whose page is their sum
/// (`UniformTypeKVCacheSpecs`): GLM-5.2's 21 layers with an indexer key and 57 without.
#[test]
fn one_type_of_layer_with_different_pages_is_one_group() {
    let len = 65536;
    let s = config_scenario("glm-5.2.json", len, 8);
    let e = estimate(&s).unwrap();
    let b = e.vllm.unwrap();
    assert!(b.layout_exact);
    assert_eq!(b.blocks_per_request, len.div_ceil(b.block_size));
    // MLA's latent (512 + 64 BF16 values) on every layer; the FP8 indexer key with its scale
    // (132 bytes) on 21: one page per block of them all.
    let per_token = 78 * 576 * 2 + 21 * 132;
    assert_eq!(b.block_bytes, per_token * b.block_size);
}

/// Decode context parallelism (`-dcp`, vLLM 0.34): each of `dcp` tensor-parallel ranks keeps every
/// `dcp`-th token of a request's full-attention and latent caches, so a request takes
/// `cdiv(cdiv(len, dcp), block)` blocks of a pool that is as large as without it, and the logged
/// capacity grows `dcp` times; what vLLM refuses of it, in its order and words.
#[test]
fn decode_context_parallelism_splits_requests_over_the_ranks() {
    let scenario_of = |cmd: &str| {
        let c = headroom_core::command::parse(cmd).unwrap();
        assert!(c.ignored.is_empty(), "{:?}", c.ignored);
        let mut s = Scenario::catalog(&c.catalog.clone().expect("a catalog model").0);
        c.apply_with_model(&mut s);
        s
    };
    let run = |cmd: &str| {
        let mut s = scenario_of(cmd);
        s.device = Some(DeviceChoice::Catalog("h200".into()));
        estimate(&s).unwrap().vllm.unwrap()
    };
    // DeepSeek-V3.1's latent is whole on every GPU: DCP 8 keeps 1/8 of its tokens on each.
    let cmd = "vllm serve deepseek-ai/DeepSeek-V3.1 -tp 8 --max-model-len 131072";
    let one = run(cmd);
    let eight = run(&format!("{cmd} -dcp 8"));
    assert!(one.tp_refused.is_none() && eight.tp_refused.is_none());
    assert_eq!(eight.num_blocks, one.num_blocks);
    assert_eq!(one.blocks_per_request, 131_072u64.div_ceil(one.block_size));
    assert_eq!(eight.blocks_per_request, (131_072u64 / 8).div_ceil(eight.block_size));
    let expected = (eight.num_blocks as f64 / eight.blocks_per_request as f64 * 131_072.0) as u64;
    assert_eq!(eight.kv_tokens, expected);
    assert!(
        eight.kv_tokens.abs_diff(8 * one.kv_tokens) <= 8 * one.block_size * 8,
        "{} vs {}",
        eight.kv_tokens,
        one.kv_tokens
    );
    assert!(eight.log_lines().iter().any(|l| l.contains("Maximum concurrency")));
    // The estimate's cache term per GPU is an eighth too, and says why.
    let est = |dcp: &str| estimate(&scenario_of(&format!("{cmd} {dcp}"))).unwrap();
    let kv = |e: &headroom_core::estimate::Estimate| {
        e.memory.get(headroom_core::estimate::TermKind::KvCache).get()
    };
    let (e1, e8) = (est(""), est("-dcp 8"));
    assert_eq!(kv(&e8), kv(&e1).div_ceil(8));
    // Grouped-query attention: DCP takes the ranks holding copies of a key/value head.
    let qwen = "vllm serve Qwen/Qwen3-30B-A3B --max-model-len 32768 -tp 8";
    let (q1, q2) = (run(qwen), run(&format!("{qwen} -dcp 2")));
    assert!(q2.tp_refused.is_none());
    assert_eq!(q2.blocks_per_request, (32_768u64 / 2).div_ceil(q2.block_size));
    assert!(q2.kv_tokens > q1.kv_tokens * 19 / 10, "{} vs {}", q2.kv_tokens, q1.kv_tokens);
    let refused = |cmd: &str| run(cmd).tp_refused.expect("refused");
    let r = refused(&format!("{qwen} -dcp 4"));
    assert_eq!(
        r.log,
        "ValueError: `--decode-context-parallel-size` (4) exceeds the maximum supported value (2) for `--tensor-parallel-size` (8) and 4 model KV heads."
    );
    assert!(!r.loaded);
    let r = refused(&format!("{qwen} -dcp 3"));
    assert_eq!(r.log, "ValueError: tp_size=8 must be divisible by dcp_size=3.");
    let r = refused("vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8 -dcp 2");
    assert!(
        r.log.starts_with(
            "ValueError: Decode context parallelism for GQA/MQA requires `--tensor-parallel-size` (8)"
        ),
        "{}",
        r.log
    );
    // Sliding-window caches cannot be split: vLLM asserts once the weights are in.
    let r = refused("vllm serve openai/gpt-oss-120b -tp 16 -dcp 2");
    assert_eq!((r.log.as_str(), r.loaded), ("AssertionError: DCP not support sliding window.", true));
    // The link, the CLI's scenario and the command Headroom writes carry it.
    let s = scenario_of(&format!("{cmd} --decode-context-parallel-size 8"));
    assert_eq!(s.vllm.decode_context_parallel, Some(8));
    assert_eq!(headroom_core::share::decode(&headroom_core::share::encode(&s)).scenario, s);
    assert!(headroom_core::share::encode(&s).contains("dcp=8"));
}

proptest! {
    /// More decode-context-parallel ranks never hold fewer tokens (a latent model at TP 8).
    #[test]
    fn more_dcp_ranks_never_fewer_tokens(len in 1u64..200_000, step in 0usize..3) {
        let a = headroom_core::catalog::model("deepseek-v3").unwrap().architecture().unwrap();
        let tokens = |dcp: u64| {
            let o = VllmOptions { decode_context_parallel: Some(dcp), ..VllmOptions::default() };
            budget(
                &o,
                &BudgetInput {
                    arch: &a,
                    kv: headroom_core::precision::KvDtype::Bf16,
                    max_model_len: len,
                    tp: 8,
                    weights: headroom_core::units::Bytes::new(80 * GIB),
                    total: headroom_core::units::Bytes::new(139 * GIB),
                    device_name: "NVIDIA H200",
                    cuda_cc: 90,
                    rocm: false,
                    outside: headroom_core::units::Bytes::ZERO,
                    stages: &[],
                    drafter: None,
                    encoders: &[],
                },
            )
            .kv_tokens
        };
        let d = [1u64, 2, 4, 8];
        prop_assert!(tokens(d[step]) <= tokens(d[step + 1]));
    }
}

/// vLLM 0.34's extensible KV cache, its default on CUDA and ROCm (`extensible_kv_cache.py`,
/// `measure_kv_cache_bytes`): `gpu_memory_utilization` defaults to 1.0, the profile step reserves
/// "Available KV cache memory", and after warmup the cache takes `min(requested − in use, free −
/// margin) − transient`, the transient being the profile peak with the graphs' estimate and the
/// margin `max(1 GiB, ¾ × transient)` (3 GiB on ROCm).
#[test]
fn the_extensible_kv_cache_is_sized_after_warmup() {
    let on = |device: &str, v: VllmOptions| {
        let s = Scenario {
            context: 32_768,
            runtime: Some(Runtime::Vllm),
            device: Some(DeviceChoice::Catalog(device.into())),
            vllm: v,
            ..Scenario::catalog("qwen3-8b")
        };
        estimate(&s).unwrap().vllm.unwrap()
    };
    let signed = |b: headroom_core::units::Bytes| i64::try_from(b.get()).unwrap();
    let b = on("h100-sxm", VllmOptions::default());
    assert_eq!(b.version, "0.34");
    assert!((b.utilization - 1.0).abs() < 1e-12);
    assert_eq!(b.requested, b.total);
    let m = b.measured.as_ref().expect("0.34 measures the cache after warmup");
    assert_eq!(m.transient, b.activation_peak.saturating_add(b.cuda_graphs));
    assert_eq!(m.margin, headroom_core::units::Bytes::new(GIB).max(m.transient.scale(0.75)));
    assert_eq!(
        m.in_use,
        b.weights.saturating_add(b.sampler_state).saturating_add(b.non_torch).saturating_add(b.cuda_graphs)
    );
    // The V2 runner's penalty counts: an int32 per vocabulary entry for each of 1,024 requests.
    assert_eq!(b.sampler_state.get(), 1024 * (151_936 * 4 + 151_936u64.div_ceil(32) * 4));
    let free = signed(b.total) - signed(m.context) - signed(m.in_use);
    let expected =
        (signed(b.requested) - signed(m.in_use)).min(free - signed(m.margin)) - signed(m.transient);
    assert_eq!(m.kv, expected);
    assert!(m.kv_band.0 <= m.kv && m.kv <= m.kv_band.1);
    assert_eq!(m.reserved_blocks, u64::try_from(b.available_kv).unwrap() / b.block_bytes);
    assert_eq!(b.num_blocks, m.reserved_blocks.min(u64::try_from(m.kv).unwrap() / b.block_bytes));
    assert!(b.num_blocks < m.reserved_blocks, "the reservation is the larger");
    let lines = b.log_lines();
    assert!(lines.iter().any(|l| l.starts_with("Available KV cache memory: ")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("Memory after warmup: ")
            && l.contains(&format!("{} KV cache blocks", b.num_blocks))),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("GPU KV cache size: ")
                && l.contains("Maximum concurrency for 32,768 tokens")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("Estimated CUDA graph memory")), "{lines:?}");
    // That line is the V1 runner's (0.25–0.33 for models the V2 runner does not take).
    let v1 = on(
        "h100-sxm",
        VllmOptions { version: VllmVersion::parse("0.25").unwrap(), ..VllmOptions::default() },
    );
    assert!(!v1.runner_v2);
    assert!(
        v1.log_lines().iter().any(|l| l.starts_with("Estimated CUDA graph memory")),
        "{:?}",
        v1.log_lines()
    );
    // A utilisation below 1 caps what it takes: 0.9 of this card leaves more than the context and
    // the margin out, so the cap binds.
    let capped = on("h100-sxm", VllmOptions { utilization: Some(9000), ..VllmOptions::default() });
    let mc = capped.measured.as_ref().unwrap();
    assert_eq!(mc.kv, signed(capped.requested) - signed(mc.in_use) - signed(mc.transient));
    assert!(mc.capped && !m.capped);
    assert!(capped.kv_tokens < b.kv_tokens);
    // Eager: no graphs, in use or in the transient.
    let eager = on("h100-sxm", VllmOptions { enforce_eager: true, ..VllmOptions::default() });
    let me = eager.measured.as_ref().unwrap();
    assert_eq!(me.transient, eager.activation_peak);
    assert_eq!(me.in_use, eager.weights.saturating_add(eager.sampler_state).saturating_add(eager.non_torch));
    // Memory the desktop and other processes hold is not free for it.
    let held = estimate(&Scenario {
        context: 32_768,
        runtime: Some(Runtime::Vllm),
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        reserve: headroom_core::hardware::Reserve::Mib(4096),
        ..Scenario::catalog("qwen3-8b")
    })
    .unwrap()
    .vllm
    .unwrap();
    assert_eq!(held.measured.as_ref().unwrap().kv, m.kv - 4 * GIB as i64);
    // ROCm keeps a 3 GiB floor.
    let mi = on("mi300x", VllmOptions::default());
    assert!(mi.measured.as_ref().unwrap().margin.get() >= 3 * GIB);
    // Turned off, or with a fixed size: the profile step's sizing at 0.92.
    let classic = on("h100-sxm", VllmOptions { extensible_kv_cache: Some(false), ..VllmOptions::default() });
    assert!(classic.measured.is_none() && (classic.utilization - 0.92).abs() < 1e-12);
    assert_eq!(classic.num_blocks, u64::try_from(classic.available_kv).unwrap() / classic.block_bytes);
    let fixed = on("h100-sxm", VllmOptions { kv_cache_memory: Some(20 * GIB), ..VllmOptions::default() });
    assert!(fixed.measured.is_none() && fixed.tp_refused.is_none());
    // Asked for beside a fixed size, or of a release without it: refused, in vLLM's words.
    let both = on(
        "h100-sxm",
        VllmOptions {
            kv_cache_memory: Some(20 * GIB),
            extensible_kv_cache: Some(true),
            ..VllmOptions::default()
        },
    );
    assert!(
        both.tp_refused
            .unwrap()
            .log
            .starts_with("ValueError: enable_extensible_kv_cache: it sizes the KV cache")
    );
    let old = on(
        "h100-sxm",
        VllmOptions {
            version: VllmVersion::parse("0.33").unwrap(),
            extensible_kv_cache: Some(false),
            ..VllmOptions::default()
        },
    );
    assert_eq!(
        old.tp_refused.unwrap().log,
        "vllm serve: error: unrecognized arguments: --no-enable-extensible-kv-cache"
    );
    // The pasted command, the link and the written command carry the switch.
    let c =
        headroom_core::command::parse("vllm serve Qwen/Qwen3-8B --no-enable-extensible-kv-cache").unwrap();
    assert_eq!(c.vllm.extensible_kv_cache, Some(false));
    let s = Scenario {
        runtime: Some(Runtime::Vllm),
        vllm: VllmOptions { extensible_kv_cache: Some(false), ..VllmOptions::default() },
        ..Scenario::catalog("qwen3-8b")
    };
    assert!(headroom_core::share::encode(&s).contains("vext=0"));
    assert_eq!(headroom_core::share::decode(&headroom_core::share::encode(&s)).scenario, s);
    let e = estimate(&s).unwrap();
    assert!(
        headroom_core::flags::commands(&s, &e, None).join(" ").contains("--no-enable-extensible-kv-cache")
    );
}

proptest! {
    /// Under the extensible cache too, a larger utilisation never holds fewer tokens.
    #[test]
    fn extensible_larger_utilisation_never_fewer_tokens(lo in 5000u32..10_000, step in 0u32..5000) {
        let hi = (lo + step).min(10_000);
        let tokens = |u: u32| {
            let s = Scenario {
                context: 8192,
                runtime: Some(Runtime::Vllm),
                device: Some(DeviceChoice::Catalog("h100-sxm".into())),
                vllm: VllmOptions { utilization: Some(u), ..VllmOptions::default() },
                ..Scenario::catalog("qwen3-8b")
            };
            estimate(&s).unwrap().vllm.unwrap().kv_tokens
        };
        prop_assert!(tokens(lo) <= tokens(hi));
    }
}

/// `--max-model-len auto` (vLLM's `_auto_fit_max_model_len`): the model's own length when one
/// request's blocks fit beside the null block, else the longest that does — and then everything
/// at that length; the log says which.
#[test]
fn max_model_len_auto_fits_the_models_length_to_the_cache() {
    let run = |cmd: &str, device: &str| {
        let c = headroom_core::command::parse(cmd).unwrap();
        assert!(c.ignored.is_empty(), "{:?}", c.ignored);
        assert!(c.vllm.max_model_len_auto);
        let mut s = Scenario::catalog(&c.catalog.clone().unwrap().0);
        c.apply_with_model(&mut s);
        s.device = Some(DeviceChoice::Catalog(device.into()));
        (s.clone(), estimate(&s).unwrap())
    };
    // Qwen3-8B's 40,960 tokens fit an H100's cache: kept, and said.
    let (s, e) = run("vllm serve Qwen/Qwen3-8B --max-model-len auto", "h100-sxm");
    let b = e.vllm.as_ref().unwrap();
    assert_eq!(s.context, 40_960);
    let f = b.auto_fit.unwrap();
    assert_eq!((f.from, f.to, b.max_model_len), (40_960, 40_960, 40_960));
    assert_eq!(f.memory, (b.num_blocks - 1) * b.block_bytes);
    assert!(b.log_lines().iter().any(|l| l.starts_with("Auto-fit max_model_len: using max_model_len=40960")));
    // On an RTX 4090 they do not: vLLM lowers the length to the longest request its blocks hold
    // beside the null block, and the whole estimate is at it.
    let (s, e) = run("vllm serve Qwen/Qwen3-8B --max-model-len -1", "rtx-4090");
    let b = e.vllm.as_ref().unwrap();
    let f = b.auto_fit.unwrap();
    assert_eq!(f.from, 40_960);
    assert!(f.to > 0 && f.to < 40_960, "{f:?}");
    assert_eq!(b.max_model_len, f.to);
    assert_eq!(b.blocks_per_request, f.to.div_ceil(b.block_size));
    assert!(b.blocks_per_request < b.num_blocks);
    assert!((f.to + b.block_size).div_ceil(b.block_size) > b.num_blocks - 1, "the longest that fits");
    assert!(b.request_fits);
    let line = format!("--max-model-len auto reduced max_model_len from 40960 to {}", f.to);
    assert!(b.log_lines().iter().any(|l| l.starts_with(&line)), "{:?}", b.log_lines());
    let kv = |e: &headroom_core::estimate::Estimate| {
        e.memory.get(headroom_core::estimate::TermKind::KvCache).get()
    };
    let at = estimate(&Scenario { context: f.to, vllm: VllmOptions::default(), ..s.clone() }).unwrap();
    assert_eq!(kv(&e), kv(&at));
    // The written command keeps `auto`; the link carries it.
    assert!(headroom_core::flags::commands(&s, &e, None).join(" ").contains("--max-model-len auto"));
    assert!(headroom_core::share::encode(&s).contains("vauto=1"));
    assert_eq!(headroom_core::share::decode(&headroom_core::share::encode(&s)).scenario, s);
}

/// CUDA-graph capture sizes as vLLM sets them (`_set_cudagraph_sizes`): 512 at most by default,
/// 1,024 on data-centre Blackwell, scaled by a speculative step's tokens, capped by
/// `--max-cudagraph-capture-size` and `max_num_batched_tokens`; fewer graphs, less reserved.
#[test]
fn cuda_graph_capture_sizes_follow_the_card_the_drafter_and_the_flag() {
    use headroom_core::vllm::{Speculative, graph_counts_for, graph_estimate};
    let o = VllmOptions::default();
    assert_eq!(graph_counts_for(&o, 1024, 8192, 90), (51, 51));
    // B200: up to 1,024, every 16 from 256 (49 more sizes).
    assert_eq!(graph_counts_for(&o, 1024, 8192, 100), (83, 83));
    // An RTX 5090 (SM 12.0) keeps 512.
    assert_eq!(graph_counts_for(&o, 1024, 8192, 120), (51, 51));
    // MTP with three tokens: a decode step is four tokens a request; 64 requests → 512 tokens.
    let mtp =
        VllmOptions { speculative: Some(Speculative::parse("mtp:3").unwrap()), ..VllmOptions::default() };
    assert_eq!(graph_counts_for(&mtp, 64, 8192, 90), (51, 11));
    // The flag caps it, and so does the step's token budget.
    let capped = VllmOptions { max_cudagraph_capture_size: Some(64), ..VllmOptions::default() };
    assert_eq!(graph_counts_for(&capped, 1024, 8192, 90), (11, 11));
    assert_eq!(graph_counts_for(&o, 256, 128, 90), (19, 19));
    assert!(graph_estimate(&capped, 1024, 8192, 90).0 < graph_estimate(&o, 1024, 8192, 90).0);
    // A pasted command and the link carry it.
    let c =
        headroom_core::command::parse("vllm serve Qwen/Qwen3-8B --max-cudagraph-capture-size 64").unwrap();
    assert_eq!(c.vllm.max_cudagraph_capture_size, Some(64));
    let s = Scenario { runtime: Some(Runtime::Vllm), vllm: capped, ..Scenario::catalog("qwen3-8b") };
    assert_eq!(headroom_core::share::decode(&headroom_core::share::encode(&s)).scenario, s);
}

/// vLLM 0.34 warns when an explicit utilisation below 1 keeps a GiB or more of free memory out of
/// its extensible cache; the advice says to leave it unset, and the usable memory is the cap.
#[test]
fn a_utilisation_below_one_is_said_to_withhold_memory_from_the_extensible_cache() {
    let s = |u: Option<u32>| Scenario {
        context: 8192,
        runtime: Some(Runtime::Vllm),
        device: Some(DeviceChoice::Catalog("h100-sxm".into())),
        vllm: VllmOptions { utilization: u, ..VllmOptions::default() },
        ..Scenario::catalog("qwen3-8b")
    };
    let b = estimate(&s(Some(9000))).unwrap().vllm.unwrap();
    let m = b.measured.as_ref().unwrap();
    let full = estimate(&s(None)).unwrap().vllm.unwrap();
    assert_eq!(i64::try_from(m.withheld).unwrap(), full.measured.as_ref().unwrap().kv - m.kv);
    assert!(b.log_lines().iter().any(|l| l.starts_with("gpu_memory_utilization=0.9 caps this instance at")));
    assert!(!full.log_lines().iter().any(|l| l.starts_with("gpu_memory_utilization=")));
    let v = fit(&s(Some(9000)), headroom_core::catalog::device("h100-sxm").unwrap()).unwrap();
    assert!(v.advice.iter().any(|a| a.id == headroom_core::text::MsgId::AdviceVllmUtilizationCaps));
    assert!((v.capacity.get() as f64 - b.requested.get() as f64).abs() < 2.0);
}
