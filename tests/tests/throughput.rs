//! Speeds against the published throughput cases (group 5 of published.jsonl): llama.cpp's Apple
//! Silicon table, Llama 2 7B at Q4_0, Q8_0 and F16, tg128 and pp512, within 35%.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::catalog;
use headroom_core::fit::{Verdict, fit};
use headroom_core::inference::Runtime;
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::Scenario;
use headroom_tests::read_fixture;
use serde_json::Value;

/// The catalog row standing for each published chip (same memory bandwidth; the GPU core count
/// of the catalog row is given for prefill).
const CHIPS: [(&str, &str); 10] = [
    ("T-apple-M1-8", "m1-16gb"),
    ("T-apple-M2-10", "m2-16gb"),
    ("T-apple-M4-10", "m4-16gb"),
    ("T-apple-M3Pro-18", "m3-pro-36gb"),
    ("T-apple-M2Pro-16", "m2-pro-32gb"),
    ("T-apple-M4Pro-20", "m4-pro-48gb"),
    ("T-apple-M2Max-30", "m2-max-64gb"),
    ("T-apple-M4Max-40", "m4-max-128gb"),
    ("T-apple-M2Ultra-60", "m2-ultra-192gb"),
    ("T-apple-M2Ultra-76", "m2-ultra-192gb"),
];

fn within(actual: f64, expected: f64, tolerance: f64, what: &str) {
    let rel = (actual - expected).abs() / expected;
    assert!(rel <= tolerance, "{what}: {actual:.2} vs {expected:.2} ({:.0}% off)", rel * 100.0);
}

#[test]
fn apple_silicon_llama_cpp_within_35_percent() {
    let cases: Vec<Value> = read_fixture("validation/published.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut checked = 0;
    for (id, device) in CHIPS {
        let c = cases.iter().find(|c| c["id"] == id).unwrap();
        let d = catalog::device(device).unwrap();
        for (format, published, what) in [
            ("q4_0", c["value"].as_f64(), "tg128 Q4_0"),
            ("q8_0", c["check"]["q8_0_tg"].as_f64(), "tg128 Q8_0"),
            ("gguf-f16", c["check"]["f16_tg"].as_f64(), "tg128 F16"),
        ] {
            let Some(published) = published else { continue };
            let s = Scenario {
                weights: Some(WeightFormat::parse(format).unwrap()),
                runtime: Some(Runtime::LlamaCpp),
                context: 128,
                ..Scenario::catalog("llama-2-7b")
            };
            let f = fit(&s, d).unwrap();
            if f.verdict != Verdict::Fits {
                // The F16 model does not fit a 16 GB Mac's GPU share; the table has no figure there either.
                continue;
            }
            within(f.speed.unwrap().decode_tokens_per_s, published, 0.35, &format!("{id} {what}"));
            checked += 1;
        }
        if let (Some(pp), true) = (c["check"]["q4_0_pp512"].as_f64(), d.fp16_tflops > 0.0) {
            let s = Scenario {
                weights: Some(WeightFormat::parse("q4_0").unwrap()),
                runtime: Some(Runtime::LlamaCpp),
                context: 512,
                ..Scenario::catalog("llama-2-7b")
            };
            let f = fit(&s, d).unwrap();
            within(f.speed.unwrap().prefill_tokens_per_s, pp, 0.35, &format!("{id} pp512"));
            checked += 1;
        }
    }
    assert!(checked >= 25, "{checked}");
}

/// llama.cpp keeps the input embeddings in system RAM and only looks rows up in them: a model that
/// fits the GPU whole is limited by the GPU, tied embeddings or not.
#[test]
fn embeddings_in_system_ram_do_not_limit_decoding() {
    use headroom_core::hardware::DeviceChoice;
    use headroom_core::speed::Limit;
    for model in ["llama-3.2-1b", "llama-3.1-8b", "qwen2.5-0.5b"] {
        let mut s = Scenario::catalog(model);
        s.weights = Some(WeightFormat::parse("q4_k_m").unwrap());
        s.device = Some(DeviceChoice::Catalog("rtx-3060-12gb".into()));
        let (_, f) = headroom_core::fit::estimate_with_device(&s).unwrap();
        let speed = f.unwrap().speed.unwrap();
        assert_ne!(speed.decode_limit, Limit::HostMemory, "{model}");
    }
}

/// The whole measured dataset (`crates/core/data/measured.tsv`, shown beside the estimate on the
/// page and in the CLI): each row against the estimate at its own setting.
#[test]
fn the_measured_dataset_against_the_estimate() {
    use headroom_core::measured::{self, Phase};
    let all = measured::all().unwrap();
    let mut rows = Vec::new();
    for m in &all {
        for d in &m.devices {
            let s = Scenario { device: None, ..Scenario::catalog(m.model) };
            let at = m.scenario(&s, d);
            let (_, f) = headroom_core::fit::estimate_with_device(&at).unwrap();
            let f = f.unwrap();
            let Some(sp) = f.speed.filter(|_| f.verdict == Verdict::Fits) else {
                eprintln!("no speed: {} {} on {d} ({:?})", m.hardware, m.weights.id(), f.verdict);
                continue;
            };
            let est = match m.phase {
                Phase::Prefill => sp.prefill_tokens_per_s,
                Phase::Decode => sp.decode_tokens_per_s,
            };
            rows.push((
                m.phase,
                m.hardware,
                m.weights.id(),
                *d,
                m.tokens_per_s,
                est,
                est / m.tokens_per_s - 1.0,
            ));
        }
    }
    for r in &rows {
        eprintln!("{:?}\t{}\t{}\t{}\t{:.1}\t{:.1}\t{:+.0}%", r.0, r.1, r.2, r.3, r.4, r.5, r.6 * 100.0);
    }
    // Where the device's compute is not known the estimate gives no prefill speed (0): the page
    // then shows the measurement alone. Those rows are left out of the scores.
    let score = |phase: Phase| {
        let mut e: Vec<f64> = rows.iter().filter(|r| r.0 == phase && r.5 > 0.0).map(|r| r.6.abs()).collect();
        e.sort_by(f64::total_cmp);
        let within = |t: f64| e.iter().filter(|x| **x <= t).count() as f64 / e.len() as f64;
        let median = e[e.len() / 2];
        let worst = e[e.len() - 1];
        eprintln!(
            "{phase:?}: {} rows, median {:.0}% off, {:.0}% within 25%, {:.0}% within 35%, worst {:.0}%",
            e.len(),
            median * 100.0,
            within(0.25) * 100.0,
            within(0.35) * 100.0,
            worst * 100.0
        );
        (e.len(), median, within(0.35), within(0.25), worst)
    };
    // Decode (memory-bound): the project's 35% on nearly every row. Prefill (compute-bound, on
    // INT8 for llama.cpp's quantized kernels on NVIDIA): most rows; the rest are named in
    // FORMULAS.md (Turing, a professional Ada card, AMD, Vulkan).
    // #14's aim for decode: within 25% on at least 80% of pairs, none off by more than 50%.
    let (n, median, within, within_25, worst) = score(Phase::Decode);
    assert!(n >= 60 && median <= 0.15 && within >= 0.95, "decode: median {median}, within 35% {within}");
    assert!(within_25 >= 0.8 && worst <= 0.5, "decode: within 25% {within_25}, worst {worst}");
    let (n, median, within, _, _) = score(Phase::Prefill);
    assert!(n >= 50 && median <= 0.15 && within >= 0.85, "prefill: median {median}, within 35% {within}");
    // Serving engines over one to eight GPUs (vLLM, SGLang at concurrency 1): the tensor-parallel
    // all-reduces and the mixture-of-experts layers' fixed cost (FORMULAS.md) keep every one within
    // 50% and most within 25% — a 671B MoE on eight GPUs was several times too fast without them.
    let serving: Vec<f64> = all
        .iter()
        .filter(|m| m.phase == Phase::Decode && matches!(m.runtime, Runtime::Vllm | Runtime::Sglang))
        .flat_map(|m| rows.iter().filter(move |r| r.0 == Phase::Decode && r.1 == m.hardware).map(|r| r.6))
        .collect();
    assert!(serving.len() >= 8, "{} serving rows", serving.len());
    let near = serving.iter().filter(|e| e.abs() <= 0.25).count() as f64 / serving.len() as f64;
    assert!(near >= 0.75 && serving.iter().all(|e| e.abs() <= 0.5), "serving: {serving:?}");
}
