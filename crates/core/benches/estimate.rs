//! Benchmarks of the estimation core (figures in BENCHMARKS.md).
#![allow(clippy::expect_used)] // a benchmark of a missing catalog row should fail loudly

use criterion::{Criterion, criterion_group, criterion_main};
use headroom_core::estimate::{estimate, sweep_context};
use headroom_core::fit;
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::Scenario;
use headroom_core::share;
use std::hint::black_box;

fn bench_estimate(c: &mut Criterion) {
    let mut s = Scenario::catalog("llama-3.1-8b");
    s.weights = WeightFormat::parse("q4_k_m").ok();
    s.context = 32768;
    c.bench_function("estimate/llama-3.1-8b-q4_k_m", |b| b.iter(|| estimate(black_box(&s))));
    let moe = Scenario::catalog("deepseek-v3");
    c.bench_function("estimate/deepseek-v3-fp8", |b| b.iter(|| estimate(black_box(&moe))));
    // A 128-layer hybrid: Nemotron-H 56B's config with a 128-layer Mamba-2 / attention / MLP
    // pattern, every layer's groups walked by the estimate.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/configs/nemotron-h-56b-base-8k.json"
    ))
    .expect("Nemotron-H config");
    let mut cfg: serde_json::Value = serde_json::from_str(&text.replace("Infinity", "1e308")).expect("JSON");
    let pattern: String = "M-M-M*-".chars().cycle().take(128).collect();
    cfg["hybrid_override_pattern"] = pattern.into();
    cfg["num_hidden_layers"] = 128.into();
    let m = headroom_core::import::hf::parse_config(cfg.to_string().as_bytes()).expect("hybrid config");
    let hybrid = Scenario {
        model: headroom_core::scenario::ModelSource::Custom(Box::new(m.into_custom("hybrid-128".into()))),
        context: 32768,
        ..Scenario::default()
    };
    c.bench_function("estimate/hybrid-128-layers", |b| b.iter(|| estimate(black_box(&hybrid))));
    // The same Llama as a config already read (no JSON parse), to compare like with like.
    let llama = headroom_core::catalog::model("llama-3.1-8b").expect("catalog").import().expect("config");
    let custom = Scenario {
        model: headroom_core::scenario::ModelSource::Custom(Box::new(llama.into_custom("llama".into()))),
        context: 32768,
        ..Scenario::default()
    };
    c.bench_function("estimate/llama-3.1-8b-read-config", |b| b.iter(|| estimate(black_box(&custom))));
    let next = Scenario::catalog("qwen3-next-80b-a3b");
    c.bench_function("estimate/qwen3-next-80b-a3b", |b| b.iter(|| estimate(black_box(&next))));
    // The page's memory-versus-context chart: 256 contexts from 256 to 131072 tokens.
    let contexts: Vec<u64> = (1..=256).map(|i| i * 512).collect();
    c.bench_function("sweep/256-contexts", |b| b.iter(|| sweep_context(black_box(&s), black_box(&contexts))));
    c.bench_function("share/round-trip", |b| b.iter(|| share::decode(&share::encode(black_box(&s)))));
}

fn bench_fit(c: &mut Criterion) {
    let mut s = Scenario::catalog("llama-3.1-8b");
    s.weights = WeightFormat::parse("q4_k_m").ok();
    let mut g = c.benchmark_group("fit");
    g.sample_size(20);
    g.bench_function("whole-catalog", |b| b.iter(|| fit::fit_all(black_box(&s))));
    let d = headroom_core::catalog::device("rtx-4090").expect("catalog device");
    g.bench_function("max-context/rtx-4090", |b| b.iter(|| fit::max_context(black_box(&s), d)));
    g.bench_function("best-quant/rtx-4060-ti-16gb", |b| {
        let d = headroom_core::catalog::device("rtx-4060-ti-16gb").expect("catalog device");
        b.iter(|| fit::best_quant(black_box(&s), d))
    });
    g.bench_function("cheapest-cloud", |b| {
        b.iter(|| {
            fit::cheapest(black_box(&s), Some(30.0), Some(headroom_core::catalog::device::DeviceKind::Cloud))
        })
    });
    g.finish();
}

/// Reading model files: a GGUF header with a 128,256-entry vocabulary (1.8 MB) and a safetensors
/// header of 794 GPTQ tensors, as the page reads them after their Range requests.
fn bench_import(c: &mut Criterion) {
    let gguf =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/gguf/llama-1b-q4_k_m.gguf"))
            .expect("GGUF fixture");
    let st = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/hub/Qwen/Qwen2.5-0.5B-Instruct-GPTQ-Int4/model.safetensors"
    ))
    .expect("safetensors fixture");
    let mut g = c.benchmark_group("import");
    g.bench_function("gguf-header/llama-1b-q4_k_m", |b| {
        b.iter(|| headroom_core::import::gguf::parse(black_box(&gguf)).map(|h| h.tensors.len()))
    });
    g.bench_function("safetensors-header/qwen2.5-0.5b-gptq", |b| {
        b.iter(|| headroom_core::import::safetensors::parse(black_box(&st)).map(|h| h.tensors.len()))
    });
    g.finish();
}

criterion_group!(benches, bench_estimate, bench_fit, bench_import);
criterion_main!(benches);
