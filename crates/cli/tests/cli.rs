//! The `headroom` binary against the contract of `spec/cli.md`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use std::path::PathBuf;
use std::process::{Command, Output};

fn headroom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_headroom")).args(args).output().expect("run headroom")
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = headroom(&all);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn fixture(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name);
    p.to_string_lossy().into_owned()
}

const MEMORY_KEYS: [&str; 9] = [
    "weights",
    "kv_cache",
    "activations",
    "gradients",
    "optimizer",
    "master_weights",
    "adapters",
    "overhead",
    "total",
];

#[test]
fn seed_slice_seven_billion_fp16() {
    let v = json(&["estimate", "--params", "7B", "--weights", "fp16"]);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["memory"]["weights"], 14_000_000_000u64);
    assert_eq!(v["model"]["params_total"], 7_000_000_000u64);
    assert_eq!(v["disk"]["weights"], 14_000_000_000u64);
    assert_eq!(v["link"], "?v=1&params=7B&weights=fp16");
    // Keys that do not apply are 0, not missing; the total is the sum of the terms.
    let sum: u64 = MEMORY_KEYS[..8].iter().map(|k| v["memory"][k].as_u64().expect(k)).sum();
    assert_eq!(v["memory"]["total"].as_u64().unwrap(), sum);
    assert_eq!(v["trainable_params"], 0);
}

#[test]
fn every_spelling_of_seven_billion_agrees() {
    for p in ["7e9", "7B", "7000000000", "7b"] {
        let v = json(&["estimate", "--params", p, "--weights", "int4"]);
        assert_eq!(v["memory"]["weights"], 3_500_000_000u64, "{p}");
    }
}

#[test]
fn catalog_model_is_exact() {
    let v = json(&["estimate", "--model", "llama-3.1-8b"]);
    assert_eq!(v["model"]["name"], "llama-3.1-8b");
    assert_eq!(v["model"]["params_total"], 8_030_261_248u64);
    assert_eq!(v["model"]["params_active"], 8_030_261_248u64);
    // bf16 by default (the checkpoint's own dtype), KV fp16 at 4096 tokens.
    assert_eq!(v["memory"]["weights"], 16_060_522_496u64);
    assert_eq!(v["memory"]["kv_cache"], 536_870_912u64);
    assert_eq!(v["format"], "bf16");
    assert_eq!(v["link"], "?v=1");
}

#[test]
fn moe_and_mla_models() {
    let v = json(&["estimate", "--model", "mixtral-8x7b", "--context", "32768"]);
    assert_eq!(v["model"]["params_total"], 46_702_792_704u64);
    assert_eq!(v["model"]["params_active"], 12_879_925_248u64);
    assert_eq!(v["memory"]["kv_cache"], 4_294_967_296u64);
    let v = json(&["estimate", "--model", "deepseek-v3", "--kv", "bf16", "--context", "32768"]);
    assert_eq!(v["memory"]["kv_cache"], 2_302_672_896u64);
    assert_eq!(v["format"], "fp8");
    // GPTQ: packed int32 weights, zeros, scales and group indexes, read as stored; the rules that
    // price a GPTQ checkpoint from its config alone agree with the file to the byte.
    let e = expected("Qwen/Qwen2.5-0.5B-Instruct-GPTQ-Int4");
    let v = json(&[
        "estimate",
        "--safetensors",
        &fixture("hub/Qwen/Qwen2.5-0.5B-Instruct-GPTQ-Int4/model.safetensors"),
    ]);
    assert_eq!(v["memory"]["weights"], e["tensor_bytes"]);
    assert_eq!(v["format"], "gptq-4bit");
    let rules = json(&["estimate", "--model", "qwen2.5-0.5b", "--weights", "gptq-4bit"]);
    assert_eq!(rules["memory"]["weights"], e["tensor_bytes"]);
}

#[test]
fn a_config_file_gives_the_same_numbers_as_the_catalog() {
    let from_file =
        json(&["estimate", "--config", &fixture("validation/configs/qwen3-8b.json"), "--context", "8192"]);
    let from_catalog = json(&["estimate", "--model", "qwen3-8b", "--context", "8192"]);
    for k in MEMORY_KEYS {
        assert_eq!(from_file["memory"][k], from_catalog["memory"][k], "{k}");
    }
}

#[test]
fn gpus_split_the_model() {
    let one = json(&["estimate", "--model", "llama-3.1-8b", "--runtime", "vllm"]);
    let two = json(&["estimate", "--model", "llama-3.1-8b", "--runtime", "vllm", "--gpus", "2"]);
    assert_eq!(two["devices"], 2);
    let w1 = one["memory"]["weights"].as_u64().unwrap();
    let w2 = two["memory"]["weights"].as_u64().unwrap();
    // Every matrix halves; the norms (0.5 MB in BF16) stay whole on each GPU, as vLLM keeps them.
    assert!(w2 >= w1.div_ceil(2) && w2 <= w1.div_ceil(2) + 600_000, "{w2} vs {w1}");
    assert_eq!(two["memory"]["kv_cache"].as_u64().unwrap() * 2, one["memory"]["kv_cache"].as_u64().unwrap());
}

#[test]
fn models_lists_the_catalog() {
    let out = headroom(&["models", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = v.as_array().unwrap();
    assert!(list.iter().any(|m| m["id"] == "llama-3.1-8b" && m["params_total"] == 8_030_261_248u64));
    let out = headroom(&["models"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().count() > list.len(), "{text}");
    assert!(text.contains("mixtral-8x7b"));
}

#[test]
fn human_output_is_a_table_with_the_total() {
    let out = headroom(&["estimate", "--params", "7B", "--weights", "fp16"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Weights"), "{text}");
    assert!(text.contains("14.00 GB (13.04 GiB)"), "{text}");
    assert!(text.contains("Total"), "{text}");
    assert!(text.contains("KV cache"), "{text}");
}

#[test]
fn link_flag_prints_the_query() {
    let out = headroom(&["estimate", "--params", "500M", "--link"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "?v=1&params=500M\n");
    let out =
        headroom(&["estimate", "--model", "qwen3-8b", "--weights", "q4_k_m", "--context", "8192", "--link"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "?v=1&model=qwen3-8b&weights=q4_k_m&ctx=8192\n");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let broken = std::env::temp_dir().join("headroom-cli-test-broken-config.json");
    std::fs::write(&broken, b"{\"model_type\": \"llama\", \"hidden_size\": ").unwrap();
    let broken = broken.to_string_lossy().into_owned();
    for args in [
        vec!["estimate", "--params", "banana"],
        vec!["estimate", "--params", "7B", "--weights", "fp12"],
        vec!["estimate", "--params", "7B", "--frobnicate"],
        vec!["estimate", "--params", "0"],
        vec!["estimate", "--params", "99999999999999999999999"],
        vec!["estimate", "--model", "llama-9"],
        vec!["estimate", "--model", "llama-3.1-8b", "--context", "0"],
        vec!["estimate", "--model", "llama-3.1-8b", "--context", "-5"],
        vec!["estimate", "--model", "llama-3.1-8b", "--context", "99999999999999999999999"],
        vec!["estimate", "--model", "llama-3.1-8b", "--kv", "q2"],
        vec!["estimate", "--model", "llama-3.1-8b", "--runtime", "tgi"],
        vec!["estimate", "--model", "llama-3.1-8b", "--params", "7B"],
        vec!["estimate", "--config", "/nonexistent/config.json"],
        vec!["estimate", "--config", &broken],
        vec!["estimate"],
        vec!["nonsense"],
    ] {
        let out = headroom(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn training_keys_per_the_contract() {
    let v = json(&["estimate", "--params", "7B", "--mode", "full"]);
    assert_eq!(v["memory"]["weights"], 14_000_000_000u64);
    assert_eq!(v["memory"]["gradients"], 14_000_000_000u64);
    assert_eq!(v["memory"]["master_weights"], 28_000_000_000u64);
    assert_eq!(v["memory"]["optimizer"], 56_000_000_000u64);
    assert_eq!(v["trainable_params"], 7_000_000_000u64);
    assert!(v["memory"]["activations"].as_u64().unwrap() > 0);
    let v = json(&[
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--mode",
        "lora",
        "--lora-rank",
        "8",
        "--lora-targets",
        "q,v",
    ]);
    assert_eq!(v["trainable_params"], 3_407_872u64);
    assert_eq!(v["memory"]["adapters"], 3_407_872u64 * 4);
    assert_eq!(v["memory"]["master_weights"], 0);
    assert_eq!(v["memory"]["kv_cache"], 0);
    let z = json(&["estimate", "--params", "7.5B", "--mode", "full", "--gpus", "64", "--zero", "2"]);
    let states: u64 = ["weights", "gradients", "master_weights", "optimizer"]
        .iter()
        .map(|k| z["memory"][k].as_u64().unwrap())
        .sum();
    // The paper's model states, without DeepSpeed's gradient bucket (hidden² BF16 elements, one
    // buffer at ZeRO-2 without overlap_comm).
    let b = &z["training"]["zero_buckets"];
    assert_eq!(b["buffers"], 1);
    let bucket = b["bytes"].as_u64().unwrap();
    assert_eq!(bucket, b["reduce_bucket_size"].as_u64().unwrap() * 2);
    let states = states - bucket;
    assert!((states as f64 / 1e9 - 16.64).abs() < 0.01, "{states}");
    let big = json(&[
        "estimate",
        "--params",
        "7.5B",
        "--mode",
        "full",
        "--gpus",
        "64",
        "--zero",
        "2",
        "--reduce-bucket-size",
        "5e8",
        "--overlap-comm",
        "on",
    ]);
    assert_eq!(big["training"]["zero_buckets"]["bytes"], 2_000_000_000u64);
    let bad = headroom(&[
        "estimate",
        "--params",
        "7.5B",
        "--mode",
        "full",
        "--zero",
        "2",
        "--reduce-bucket-size",
        "lots",
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("reduce_bucket_size"));
    // transformers' loss upcasts 128k-wide logits: at 4,096 tokens a plain QLoRA step needs more
    // than a 16 GB card (Unsloth's README measures Hugging Face + FA2 at 2,551 tokens there),
    // Unsloth's fused loss and offloaded checkpoints fit it.
    let q = json(&[
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--mode",
        "qlora",
        "--grad-checkpointing",
        "--context",
        "2048",
    ]);
    assert!(q["memory"]["total"].as_u64().unwrap() < 16 * (1u64 << 30));
    let q = json(&["estimate", "--model", "llama-3.1-8b", "--mode", "qlora", "--grad-checkpointing"]);
    assert!(q["memory"]["total"].as_u64().unwrap() > 16 * (1u64 << 30));
    let u = json(&["estimate", "--model", "llama-3.1-8b", "--mode", "qlora", "--framework", "unsloth"]);
    assert!(u["memory"]["total"].as_u64().unwrap() < 8 * (1u64 << 30));
    assert_eq!(u["training"]["framework"], "unsloth");
    assert_eq!(u["training"]["loss"], "fused");
    assert_eq!(q["training"]["base_format"], "nf4");
    let bad = headroom(&["estimate", "--params", "7B", "--mode", "full", "--zero", "4"]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = headroom(&["estimate", "--params", "7B", "--mode", "lora", "--lora-targets", "q,nonsense"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn device_adds_fit_and_speed() {
    let v = json(&["estimate", "--model", "llama-3.1-8b", "--device", "rtx-4090"]);
    assert_eq!(v["fit"]["device"], "rtx-4090");
    assert_eq!(v["fit"]["capacity"], 25_769_803_776u64);
    assert_eq!(v["fit"]["verdict"], "fits");
    let h = v["fit"]["headroom"].as_f64().unwrap();
    assert!(h > 0.0 && h < 1.0);
    for k in ["decode_tokens_per_s", "prefill_tokens_per_s", "ttft_s"] {
        assert!(v["speed"][k].as_f64().unwrap() > 0.0, "{k}");
    }
    // A 70B-class model does not fit one 24 GB card in BF16; llama.cpp offloads layers instead.
    let v = json(&[
        "estimate",
        "--model",
        "qwen2.5-7b",
        "--weights",
        "q4_k_m",
        "--device",
        "rtx-4050-laptop",
        "--context",
        "32768",
    ]);
    assert!(["fits", "offload"].contains(&v["fit"]["verdict"].as_str().unwrap()), "{}", v["fit"]);
    let v = json(&["estimate", "--model", "deepseek-v3", "--device", "rtx-4090"]);
    assert_eq!(v["fit"]["verdict"], "no");
    assert!(v.get("speed").is_none() || v["speed"].is_null());
}

#[test]
fn fit_devices_and_recommend() {
    let out = headroom(&["fit", "--model", "llama-3.1-8b", "--weights", "q4_k_m", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = v.as_array().unwrap();
    assert!(list.len() >= 100);
    for key in ["device", "capacity", "verdict", "headroom", "speed"] {
        assert!(list[0].get(key).is_some(), "{key}");
    }
    let rank = |x: &str| ["fits", "offload", "cpu", "no"].iter().position(|v| *v == x).unwrap();
    let verdicts: Vec<usize> = list.iter().map(|f| rank(f["verdict"].as_str().unwrap())).collect();
    assert!(verdicts.windows(2).all(|w| w[0] <= w[1]), "sorted by verdict");

    let out = headroom(&["devices", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.as_array().unwrap().len() >= 60);
    let h100 = v.as_array().unwrap().iter().find(|d| d["id"] == "h100-sxm").unwrap();
    assert_eq!((h100["link"]["kind"].as_str(), h100["link"]["gbs"].as_f64()), (Some("nvlink"), Some(450.0)));
    let out = headroom(&["devices", "--kind", "apple"]);
    assert!(String::from_utf8(out.stdout).unwrap().contains("m3-max-128gb"));
    // The table names each card's link to the others, each way.
    let out = String::from_utf8(headroom(&["devices", "--kind", "gpu"]).stdout).unwrap();
    let row = out.lines().find(|l| l.starts_with("rtx-4090 ")).unwrap();
    assert!(row.ends_with("pcie_host 31.5"), "{row}");

    let out = headroom(&[
        "recommend",
        "--model",
        "llama-3.1-8b",
        "--device",
        "rtx-4090",
        "--max-context",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = v["max_context"].as_u64().unwrap();
    assert!(c > 8192 && c <= 131_072, "{c}");
    let out = headroom(&[
        "recommend",
        "--model",
        "llama-3.1-8b",
        "--device",
        "rtx-4060-ti-16gb",
        "--best-quant",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "q8_0");
    let out = headroom(&["recommend", "--model", "llama-3.1-8b", "--cheapest", "--kind", "cloud", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let prices: Vec<f64> =
        v.as_array().unwrap().iter().map(|f| f["cost"]["usd_per_hour"].as_f64().unwrap()).collect();
    assert!(!prices.is_empty() && prices.windows(2).all(|w| w[0] <= w[1]));
    let out = headroom(&["recommend", "--params", "1B", "--device", "m2-16gb", "--models", "--top", "3"]);
    assert!(out.status.success());
    let bad = headroom(&["recommend", "--model", "llama-3.1-8b", "--max-context"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn most_concurrent_requests_is_the_edge_of_the_fit() {
    let base =
        ["--model", "llama-3.1-8b", "--runtime", "llama.cpp", "--device", "rtx-4090", "--context", "32768"];
    let out = headroom(&[&["recommend"][..], &base, &["--max-batch", "--json"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["context"], 32768);
    let b = v["max_batch"].as_u64().unwrap();
    assert!(b > 1 && b < 4096, "{b}");
    let verdict = |batch: u64| {
        let n = batch.to_string();
        let out = headroom(&[&["estimate"][..], &base, &["--batch", &n, "--json"]].concat());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["fit"]["verdict"].as_str().unwrap().to_string()
    };
    assert_eq!(verdict(b), "fits");
    assert_ne!(verdict(b + 1), "fits");
    let text = headroom(&[&["recommend"][..], &base, &["--max-batch"]].concat());
    assert!(String::from_utf8(text.stdout).unwrap().contains("concurrent requests"));
    let bad = headroom(&["estimate", "--model", "llama-3.1-8b", "--device", "rtx-9999"]);
    assert_eq!(bad.status.code(), Some(2));
}

fn expected(repo: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(fixture(&format!("hub/{repo}/_expected.json"))).unwrap())
        .unwrap()
}

#[test]
fn safetensors_headers_give_exact_weights_and_download() {
    // One file: every tensor's bytes, the parameters counted from the shapes.
    let e = expected("Qwen/Qwen2.5-0.5B-Instruct");
    let v =
        json(&["estimate", "--safetensors", &fixture("hub/Qwen/Qwen2.5-0.5B-Instruct/model.safetensors")]);
    assert_eq!(v["memory"]["weights"], e["tensor_bytes"]);
    assert_eq!(v["model"]["params_total"], 494_032_768u64);
    let file = &e["files"][0];
    assert_eq!(
        v["disk"]["weights"].as_u64().unwrap(),
        file["header_bytes"].as_u64().unwrap() + file["data_bytes"].as_u64().unwrap()
    );
    // An index of FP8 shards (weights and their block scales): the config says FP8.
    let e = expected("Qwen/Qwen3-0.6B-FP8");
    let v = json(&[
        "estimate",
        "--safetensors",
        &fixture("hub/Qwen/Qwen3-0.6B-FP8/model.safetensors.index.json"),
    ]);
    assert_eq!(v["memory"]["weights"], e["tensor_bytes"]);
    assert_eq!(v["format"], "fp8");
    // GPTQ: packed int32 weights, zeros, scales and group indexes, read as stored; the rules that
    // price a GPTQ checkpoint from its config alone agree with the file to the byte.
    let e = expected("Qwen/Qwen2.5-0.5B-Instruct-GPTQ-Int4");
    let v = json(&[
        "estimate",
        "--safetensors",
        &fixture("hub/Qwen/Qwen2.5-0.5B-Instruct-GPTQ-Int4/model.safetensors"),
    ]);
    assert_eq!(v["memory"]["weights"], e["tensor_bytes"]);
    assert_eq!(v["format"], "gptq-4bit");
    let rules = json(&["estimate", "--model", "qwen2.5-0.5b", "--weights", "gptq-4bit"]);
    assert_eq!(rules["memory"]["weights"], e["tensor_bytes"]);
}

#[test]
fn safetensors_without_a_config_or_with_garbage_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("headroom-st-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lone = dir.join("model.safetensors");
    std::fs::copy(fixture("hub/Qwen/Qwen2.5-0.5B-Instruct/model.safetensors"), &lone).unwrap();
    let out = headroom(&["estimate", "--safetensors", lone.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("config.json is needed"));
    // With --config it reads.
    let cfg = fixture("hub/Qwen/Qwen2.5-0.5B-Instruct/config.json");
    assert!(
        headroom(&["estimate", "--safetensors", lone.to_str().unwrap(), "--config", &cfg]).status.success()
    );
    // Not a safetensors file: a huge declared length, refused before reading.
    std::fs::write(&lone, [0xffu8; 64]).unwrap();
    let out = headroom(&["estimate", "--safetensors", lone.to_str().unwrap(), "--config", &cfg]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a safetensors file"));
    // Two sources at once.
    let out = headroom(&["estimate", "--model", "gpt2", "--params", "7B"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gguf_headers_give_exact_weights_and_split_files_are_found() {
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("gguf/llama-1b-q4_k_m.expected.json")).unwrap(),
    )
    .unwrap();
    // On the CPU every tensor is in one memory: the weights are the file's tensor bytes.
    let v = json(&["estimate", "--gguf", &fixture("gguf/llama-1b-q4_k_m.gguf"), "--runtime", "cpu"]);
    assert_eq!(v["memory"]["weights"], expected["tensor_bytes"]);
    assert_eq!(v["disk"]["weights"], expected["file_bytes"]);
    assert_eq!(v["model"]["params_total"], expected["params"]);
    assert_eq!(v["format"], "q4_k_m");
    assert_eq!(v["weights_exact"], true);
    // Any part of a split model reads them all; the command names the first part.
    let a = json(&["estimate", "--gguf", &fixture("gguf/llama-split-00002-of-00002.gguf")]);
    let b = json(&["estimate", "--gguf", &fixture("gguf/llama-split-00001-of-00002.gguf")]);
    assert_eq!(a["memory"], b["memory"]);
    let out = headroom(&["estimate", "--gguf", &fixture("gguf/llama-split-00002-of-00002.gguf")]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("-m llama-split-00001-of-00002.gguf"));
    // Not a GGUF file, and a missing part: one line, status 2.
    let out = headroom(&["estimate", "--gguf", &fixture("hub/Qwen/Qwen2.5-0.5B-Instruct/config.json")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a GGUF file"));
    let dir = std::env::temp_dir().join(format!("headroom-gguf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lone = dir.join("m-00001-of-00002.gguf");
    std::fs::copy(fixture("gguf/llama-split-00001-of-00002.gguf"), &lone).unwrap();
    let out = headroom(&["estimate", "--gguf", lone.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is missing"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_pasted_llama_server_command_is_the_same_scenario_as_its_flags() {
    let cmd = "CUDA_VISIBLE_DEVICES=0 llama-server -m qwen3-8b.Q4_K_M.gguf -c 32768 -np 4 \\\n -fa on -ctk q8_0 -ub 256 --port 8080";
    let out = headroom(&["estimate", "--command", cmd, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let from_command: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("ignored `--port 8080`") && stderr.contains("ignored `CUDA_VISIBLE_DEVICES=0`"),
        "{stderr}"
    );
    let flags = json(&[
        "estimate",
        "--model",
        "qwen3-8b",
        "--weights",
        "q4_k_m",
        "--runtime",
        "llama.cpp",
        "--context",
        "8192",
        "--batch",
        "4",
        "--kv",
        "q8_0",
        "--kv-v",
        "fp16",
        "--ubatch",
        "256",
    ]);
    assert_eq!(from_command["memory"], flags["memory"]);
    assert_eq!(from_command["link"], flags["link"]);
}

#[test]
fn a_pasted_command_with_a_gguf_file_reads_the_file_and_bad_commands_are_clear_errors() {
    let gguf = fixture("gguf/llama-1b-q4_k_m.gguf");
    let v = json(&["estimate", "--command", &format!("llama-server -m {gguf} -c 8192 --kv-unified")]);
    assert_eq!(v["weights_exact"], true);
    assert_eq!(v["llama_cpp"]["n_ctx"], 8192);
    for bad in ["llama-server -m 'open.gguf", "python serve.py", "llama-server -m nowhere/unknown.gguf", ""] {
        let out = headroom(&["estimate", "--command", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: ") && err.lines().count() == 1, "{bad}: {err}");
    }
}

/// A training scenario that does not fit gets the practitioner's ladder, each step with its total,
/// stopping at the first that fits; presets and knobs round-trip through the link.
#[test]
fn training_advice_and_presets() {
    let v = json(&[
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--mode",
        "qlora",
        "--device",
        "rtx-4060-ti-16gb",
        "--context",
        "8192",
        "--batch",
        "4",
    ]);
    let remedies = v["training"]["advice"]["remedies"].as_array().unwrap();
    assert!(remedies.len() >= 2, "{remedies:?}");
    let needs: Vec<u64> = remedies.iter().map(|r| r["need"].as_u64().unwrap()).collect();
    assert!(needs.windows(2).all(|w| w[1] < w[0]), "{needs:?}");
    assert_eq!(remedies.last().unwrap()["fits"], true);
    assert!(remedies[..remedies.len() - 1].iter().all(|r| r["fits"] == false));
    let last = remedies.last().unwrap()["link"].as_str().unwrap();
    let again = json(&["estimate", "--from-link", last]);
    assert_eq!(again["fit"]["verdict"], "fits");
    // A preset, then a flag over it.
    let t = json(&[
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--mode",
        "lora",
        "--framework",
        "torchtune",
        "--loss",
        "full",
    ]);
    assert_eq!(t["training"]["framework"], "torchtune");
    assert_eq!(t["training"]["loss"], "full");
    assert_eq!(t["training"]["adapters"], "bf16");
    let back = json(&["estimate", "--from-link", t["link"].as_str().unwrap()]);
    assert_eq!(back["memory"]["total"], t["memory"]["total"]);
    // Model parallelism: one replica, its layers split over the GPUs (each holds its share).
    let dp = json(&["estimate", "--model", "llama-3.1-70b", "--mode", "qlora", "--gpus", "2"]);
    let mp =
        json(&["estimate", "--model", "llama-3.1-70b", "--mode", "qlora", "--gpus", "2", "--device-map"]);
    assert_eq!(
        mp["memory"]["weights"].as_u64().unwrap(),
        dp["memory"]["weights"].as_u64().unwrap().div_ceil(2)
    );
    assert!(mp["memory"]["total"].as_u64().unwrap() < dp["memory"]["total"].as_u64().unwrap());
    assert_eq!(mp["training"]["device_map"], true);
    // Contradictions are applied as asked, with a note saying what was applied.
    let notes = |args: &[&str]| -> String {
        let out = headroom(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(
        notes(&["estimate", "--model", "llama-3.1-8b", "--mode", "qlora", "--weights", "fp32"])
            .contains("NF4")
    );
    assert!(
        notes(&["estimate", "--model", "llama-3.1-8b", "--mode", "full", "--zero", "3"])
            .contains("partitions nothing")
    );
    assert!(
        notes(&["estimate", "--model", "llama-3.1-8b", "--mode", "full", "--offload", "optimizer"])
            .contains("not applied at stage 0")
    );
    let bad = headroom(&["estimate", "--model", "llama-3.1-8b", "--mode", "lora", "--framework", "keras"]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = headroom(&["estimate", "--model", "llama-3.1-8b", "--mode", "lora", "--lora-dropout", "maybe"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The rows of a published-runs fixture (`id<TAB>GiB<TAB>flags`, `#` comments), each estimated
/// with the common flags and its own: `(id, measured GiB, the estimate's JSON)`.
fn published_runs(name: &str, common: &[&str]) -> Vec<(String, f64, serde_json::Value)> {
    let rows = std::fs::read_to_string(fixture(name)).unwrap();
    rows.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let mut args = common.to_vec();
            args.extend(cols[2].split_whitespace());
            (cols[0].to_string(), cols[1].parse().unwrap(), json(&args))
        })
        .collect()
}

/// torchtune's published ablation (Llama 3.2 3B, A100, 2 × 4,096 packed tokens): each technique's
/// peak as PyTorch's allocator measured it, against the estimate's `pytorch_peak_bytes` (what that
/// allocator would report: no CUDA context) — every row within 20%, the median within 6%; and the
/// total, with the context, never below the measured peak by more than 15% (the 8-bit row: bnb's
/// per-parameter steps in the backward pass, not modelled).
#[test]
fn torchtune_published_ablation_within_its_measured_peaks() {
    let common = [
        "estimate",
        "--model",
        "llama-3.2-3b",
        "--framework",
        "torchtune",
        "--context",
        "4096",
        "--batch",
        "2",
        "--batching",
        "packed",
    ];
    let mut errors = Vec::new();
    for (id, gib, v) in published_runs("training/published-torchtune.tsv", &common) {
        let pt = v["training"]["pytorch_peak_bytes"].as_f64().unwrap() / (1u64 << 30) as f64;
        let total = v["memory"]["total"].as_f64().unwrap() / (1u64 << 30) as f64;
        let err = (pt - gib) / gib;
        assert!(err.abs() <= 0.20, "{id}: estimated {pt:.2} GiB against {gib} measured");
        assert!(total >= gib * 0.85, "{id}: total {total:.2} GiB against {gib} measured");
        errors.push(err.abs());
    }
    assert_eq!(errors.len(), 9);
    errors.sort_by(f64::total_cmp);
    assert!(errors[errors.len() / 2] <= 0.06, "median error {:.3}", errors[errors.len() / 2]);
}

/// torchtitan's published benchmark (Llama 3.1 8B, FSDP2 over 8 and 128 H100s, op-level selective
/// or full checkpointing, context parallelism to 262k tokens): the estimate's total against the
/// allocator's reserved peak, every row within 15%.
#[test]
fn torchtitan_published_benchmark_within_its_reserved_peaks() {
    let common = [
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--framework",
        "fsdp",
        "--mode",
        "full",
        "--batching",
        "packed",
    ];
    let mut n = 0;
    for (id, gib, v) in published_runs("training/published-torchtitan.tsv", &common) {
        let total = v["memory"]["total"].as_f64().unwrap() / (1u64 << 30) as f64;
        assert!(((total - gib) / gib).abs() <= 0.15, "{id}: estimated {total:.2} GiB against {gib} reserved");
        n += 1;
    }
    assert_eq!(n, 12);
}

/// `--checkpoint-every K`: one layer in K checkpointed; outside 1..=1024 a clear error naming the
/// flag; the link carries it.
#[test]
fn checkpoint_every_flag() {
    let base = ["estimate", "--model", "llama-3.2-3b", "--mode", "full", "--grad-checkpointing"];
    let total = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        json(&a)["memory"]["total"].as_u64().unwrap()
    };
    assert!(total(&["--checkpoint-every", "2"]) > total(&[]));
    let bad = headroom(&[&base[..], &["--checkpoint-every", "0"]].concat());
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("checkpoint-every"));
    let link = headroom(&[&base[..], &["--checkpoint-every", "4", "--link"]].concat());
    assert!(String::from_utf8_lossy(&link.stdout).contains("ckev=4"));
}

/// Tensor parallelism vLLM refuses for the model: the text and JSON say it stops before loading,
/// its log is the error alone, no requests table and no command that would only fail.
#[test]
fn a_refused_tensor_parallel_setup_has_no_budget_and_no_command() {
    let args =
        ["estimate", "--model", "llama-3.1-8b", "--runtime", "vllm", "--gpus", "3", "--device", "h100-sxm"];
    let out = headroom(&args);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("vLLM 0.34 at start: stops before loading the model"), "{text}");
    assert!(
        text.contains("log  ValueError: Total number of attention heads (32) must be divisible by tensor parallel size (3)."),
        "{text}"
    );
    for absent in ["Available KV cache memory", "requests at once", "Run with", "vllm serve"] {
        assert!(!text.contains(absent), "{absent}: {text}");
    }
    let v = json(&args);
    let b = &v["vllm"];
    assert_eq!(b["log"].as_array().unwrap().len(), 1);
    assert!(b["budget"].as_array().unwrap().is_empty());
    assert!(b["refused"].as_str().unwrap().contains("32 attention heads"), "{b}");
    // Four GPUs divide the heads: the budget and the command are back.
    let mut four = args;
    four[6] = "4";
    let text = String::from_utf8_lossy(&headroom(&four).stdout).into_owned();
    assert!(
        text.contains("vllm serve meta-llama/Llama-3.1-8B --max-model-len 4096 --tensor-parallel-size 4"),
        "{text}"
    );
    assert!(json(&four)["vllm"]["refused"].is_null());
}

/// Step 5 with a `--block-size` too small for its rings of indexer keys: vLLM loads the weights and
/// stops on the ring's error; the text says so, the log has the weights' line and the error, no
/// command is given; the block the message suggests starts.
#[test]
fn a_step5_block_too_small_stops_after_loading() {
    let config = fixture("configs/step5-preview.json");
    let args = [
        "estimate",
        "--config",
        &config,
        "--runtime",
        "vllm",
        "--gpus",
        "8",
        "--device",
        "b200",
        "--weights",
        "nvfp4",
        "--kv",
        "fp8",
        "--block-size",
        "16",
    ];
    let out = headroom(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("vLLM 0.34 at start: stops after loading the model"), "{text}");
    // The device line says the refusal, and the headroom as what the memory alone would give.
    assert!(text.contains("— no, refused (the memory alone would fit: "), "{text}");
    assert!(text.contains("log  Model loading took "), "{text}");
    assert!(text.contains(
        "log  ValueError: Step5 CSA tail ring needs 7 rows of 1024 bytes in one 6144-byte KV page"
    ));
    assert!(!text.contains("vllm serve"), "{text}");
    let v = json(&args);
    assert_eq!(v["vllm"]["log"].as_array().unwrap().len(), 2);
    assert!(v["vllm"]["refused"].as_str().unwrap().contains("--block-size 32"), "{}", v["vllm"]);
    let mut fixed = args;
    fixed[14] = "32";
    assert!(json(&fixed)["vllm"]["refused"].is_null());
}

/// A pasted `vllm serve` command gives vLLM's budget as its log states it; the flags say the same.
#[test]
fn a_vllm_command_gives_its_startup_budget() {
    let cmd = "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 16000 --gpu-memory-utilization 0.9 --port 8000";
    let from_command =
        json(&["estimate", "--command", cmd, "--device", "h100-sxm", "--vllm-version", "0.11"]);
    let from_flags = json(&[
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--runtime",
        "vllm",
        "--context",
        "16000",
        "--gpu-memory-utilization",
        "0.9",
        "--device",
        "h100-sxm",
        "--vllm-version",
        "0.11",
    ]);
    let v = &from_command["vllm"];
    assert_eq!(v, &from_flags["vllm"]);
    for key in [
        "total_gpu_memory",
        "model_weights",
        "peak_activation",
        "non_torch_memory",
        "cuda_graph_memory",
        "available_kv_cache_memory",
        "num_gpu_blocks",
        "kv_cache_tokens",
        "max_concurrency",
        "budget",
        "log",
    ] {
        assert!(!v[key].is_null(), "{key}");
    }
    // Published log (H100, 0.9): 51.38 GiB for the KV cache.
    let kv = v["available_kv_cache_memory"].as_f64().unwrap() / (1u64 << 30) as f64;
    assert!((kv - 51.38).abs() < 51.38 * 0.02, "{kv}");
    assert_eq!(v["kv_cache_tokens"].as_u64().unwrap(), v["num_gpu_blocks"].as_u64().unwrap() * 16);
    assert_eq!(from_command["fit"]["verdict"], "fits");
    // The ignored pieces are listed on stderr.
    let out = headroom(&["estimate", "--command", cmd, "--device", "h100-sxm"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--port 8000"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Available KV cache memory"));
}

#[test]
fn bad_vllm_settings_are_one_line_and_status_2() {
    for args in [
        ["--gpu-memory-utilization", "1.5"],
        ["--gpu-memory-utilization", "0"],
        ["--max-num-seqs", "0"],
        ["--block-size", "24"],
        ["--vllm-version", "latest"],
        ["--kv-cache-memory", "lots"],
        ["--cpu-offload-gb", "-1"],
    ] {
        let mut all = vec!["estimate", "--model", "llama-3.1-8b", "--runtime", "vllm"];
        all.extend(args);
        let out = headroom(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn llama_fit_lowers_the_context_before_it_moves_layers() {
    // Llama 3.1 8B Q8_0 at its 131,072 tokens does not fit a 24 GB card with 1 GiB kept free:
    // --fit lowers the context (a multiple of 256, at least 4,096) and keeps every layer.
    let v = json(&[
        "recommend",
        "--llama-fit",
        "--model",
        "llama-3.1-8b",
        "--weights",
        "q8_0",
        "--device",
        "rtx-4090",
    ]);
    let c = v["context"].as_u64().unwrap();
    assert!(v["context_reduced"].as_bool().unwrap());
    assert!(c.is_multiple_of(256) && (4096..131_072).contains(&c), "{c}");
    assert_eq!(v["verdict"], "fits");
    assert!(v["capacity"].as_u64().unwrap() >= v["need"].as_u64().unwrap());
    let cmd = v["command"].as_str().unwrap();
    assert!(cmd.contains(&format!("-c {c} ")), "{cmd}");
    // 256 more tokens would not have fitted.
    let more = json(&[
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--weights",
        "q8_0",
        "--runtime",
        "llama.cpp",
        "--device",
        "rtx-4090",
        "--reserve",
        "1",
        "--context",
        &(c + 256).to_string(),
    ]);
    assert_ne!(more["fit"]["verdict"], "fits");
    // A context given is kept, as llama.cpp keeps -c.
    let kept = json(&[
        "recommend",
        "--llama-fit",
        "--model",
        "llama-3.1-8b",
        "--weights",
        "q8_0",
        "--device",
        "rtx-4090",
        "--context",
        "8192",
    ]);
    assert_eq!((kept["context"].as_u64(), kept["context_reduced"].as_bool()), (Some(8192), Some(false)));
    // A 70B at the floor of 4,096 tokens still does not fit: layers go to system RAM.
    let big = json(&[
        "recommend",
        "--llama-fit",
        "--model",
        "llama-3.3-70b",
        "--weights",
        "q4_k_m",
        "--device",
        "rtx-4090",
    ]);
    assert_eq!((big["context"].as_u64(), big["verdict"].as_str()), (Some(4096), Some("offload")));
    let ngl = big["gpu_layers"].as_u64().unwrap();
    assert!(big["command"].as_str().unwrap().contains(&format!("-ngl {ngl} ")));
    // Bad margin.
    let out = headroom(&[
        "recommend",
        "--llama-fit",
        "--model",
        "llama-3.1-8b",
        "--device",
        "rtx-4090",
        "--fit-target",
        "99999999",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn llama_cpp_over_two_cards_lists_each_card() {
    let v = json(&[
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--weights",
        "q4_k_m",
        "--runtime",
        "llama.cpp",
        "--gpus",
        "2",
        "--tensor-split",
        "3,1",
    ]);
    let gpus = v["llama_gpus"].as_array().unwrap();
    assert_eq!(gpus.len(), 2);
    assert_eq!((gpus[0]["first_layer"].as_u64(), gpus[0]["end_layer"].as_u64()), (Some(0), Some(25)));
    assert_eq!(gpus[1]["output_layer"], true);
    let busiest = gpus.iter().map(|g| g["total"].as_u64().unwrap()).max().unwrap();
    assert_eq!(v["memory"]["total"].as_u64(), Some(busiest));
    let human = String::from_utf8(
        headroom(&["estimate", "--model", "llama-3.1-8b", "--runtime", "llama.cpp", "--gpus", "2"]).stdout,
    )
    .unwrap();
    assert!(human.contains("GPU 1  layers 17–31 and the output layer"), "{human}");
    // More shares than GPUs: llama.cpp uses the first ones, and says nothing; Headroom notes it.
    let v = json(&[
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--runtime",
        "llama.cpp",
        "--gpus",
        "2",
        "--tensor-split",
        "1,1,1",
    ]);
    assert!(v["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("uses the first 2")));
    let out = headroom(&["estimate", "--model", "llama-3.1-8b", "--gpus", "2", "--tensor-split", "1,x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tensor-split"));
}

#[test]
fn ollama_batch_and_context_defaults() {
    let v = json(&[
        "estimate",
        "--model",
        "qwen3-8b",
        "--weights",
        "q4_k_m",
        "--runtime",
        "ollama",
        "--context",
        "16384",
    ]);
    assert_eq!(
        (v["llama_cpp"]["n_batch"].as_u64(), v["llama_cpp"]["n_ubatch"].as_u64()),
        (Some(1024), Some(1024))
    );
    let v = json(&["estimate", "--model", "qwen3-8b", "--runtime", "ollama", "--num-batch", "256"]);
    assert_eq!(v["llama_cpp"]["n_ubatch"].as_u64(), Some(256));
    let out = headroom(&["estimate", "--command", "ollama run qwen3:8b", "--device", "rtx-4090", "--json"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("32768"));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "q4_k_m");
}

/// ModelOpt checkpoints keep their quantization in `hf_quant_config.json`: read beside the
/// config, or named by `--quant-config`, it prices the tensors as the headers store them.
#[test]
fn hf_quant_config_beside_the_config_is_read() {
    let dir = std::env::temp_dir().join(format!("headroom-quant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("quant/modelopt-nvfp4/config.json")).unwrap())
            .unwrap();
    let mut quant = cfg.as_object_mut().unwrap().remove("quantization_config").unwrap();
    quant.as_object_mut().unwrap().remove("quant_method");
    let hf_quant =
        serde_json::json!({"producer": {"name": "modelopt", "version": "0.29.0"}, "quantization": quant});
    std::fs::write(dir.join("config.json"), cfg.to_string()).unwrap();
    let header_total: u64 = std::fs::read_to_string(fixture("quant/modelopt-nvfp4/header.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n: u64 =
                f[2].split(',').filter(|d| !d.is_empty()).map(|d| d.parse::<u64>().unwrap()).product();
            let bits = match f[1] {
                "F32" | "I32" => 32,
                "BF16" | "F16" => 16,
                _ => 8,
            };
            n * bits / 8
        })
        .sum();
    let config = dir.join("config.json");
    let config = config.to_str().unwrap();
    // Without the file: the BF16 model.
    let bf16 = json(&["estimate", "--config", config]);
    assert!(bf16["memory"]["weights"].as_u64().unwrap() > header_total);
    // Named, and beside.
    let named = dir.join("named.json");
    std::fs::write(&named, hf_quant.to_string()).unwrap();
    let v = json(&["estimate", "--config", config, "--quant-config", named.to_str().unwrap()]);
    assert_eq!(v["memory"]["weights"].as_u64().unwrap(), header_total);
    std::fs::write(dir.join("hf_quant_config.json"), hf_quant.to_string()).unwrap();
    let v = json(&["estimate", "--config", config]);
    assert_eq!(v["memory"]["weights"].as_u64().unwrap(), header_total);
    assert_eq!(v["format"], "nvfp4");
    // A broken one is a clear error naming the file.
    std::fs::write(&named, "[1, 2]").unwrap();
    let out = headroom(&["estimate", "--config", config, "--quant-config", named.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("named.json"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `--mmproj` beside `--gguf`: the projector's tensors are the encoders term; without `--gguf`
/// it is refused.
#[test]
fn an_mmproj_file_gives_the_encoders() {
    let exp: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("gguf/mmproj-qwen2.5-vl-7b-f16.expected.json")).unwrap(),
    )
    .unwrap();
    let model = fixture("gguf/qwen2-0.5b-f16.gguf");
    let mm = fixture("gguf/mmproj-qwen2.5-vl-7b-f16.gguf");
    let v = json(&["estimate", "--gguf", &model, "--mmproj", &mm]);
    assert_eq!(v["memory"]["encoders"], exp["tensor_bytes"]);
    let text = json(&["estimate", "--gguf", &model, "--mmproj", &mm, "--text-only"]);
    assert_eq!(text["memory"]["encoders"], 0);
    let out = headroom(&["estimate", "--model", "qwen3-8b", "--mmproj", &mm]);
    assert_eq!(out.status.code(), Some(2));
    let out = headroom(&["estimate", "--gguf", &model, "--mmproj", &model]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a multimodal projector"));
}

#[test]
fn a_better_runtime_is_named_where_it_would_run_more_of_it() {
    let base = ["estimate", "--model", "qwen3-32b", "--device", "rtx-4090"];
    let out = headroom(&[&base[..], &["--runtime", "transformers", "--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // transformers offloads with device_map="auto", copying layers over PCIe for every token;
    // llama.cpp runs its offloaded layers on the CPU, several times faster.
    assert_eq!(v["fit"]["verdict"], "offload");
    assert_eq!(v["better_runtime"]["runtime"], "llama.cpp");
    let speed = |x: &serde_json::Value| x["decode_tokens_per_s"].as_f64().unwrap();
    assert!(speed(&v["better_runtime"]["speed"]) >= 2.0 * speed(&v["speed"]), "{v}");
    let there = headroom(&[&base[..], &["--runtime", "llama.cpp", "--json"]].concat());
    let t: serde_json::Value = serde_json::from_slice(&there.stdout).unwrap();
    assert_eq!(v["better_runtime"]["verdict"], t["fit"]["verdict"], "the same fit as asking llama.cpp");
    assert!(t.get("better_runtime").is_none());
    let text = headroom(&[&base[..], &["--runtime", "transformers"]].concat());
    assert!(String::from_utf8(text.stdout).unwrap().contains("Better   with llama.cpp: offload"));
}

#[test]
fn published_measurements_show_beside_the_estimate_at_their_own_setting() {
    let base = ["estimate", "--model", "llama-2-7b", "--weights", "q4_0", "--device", "rtx-4090"];
    let v = json(&[&base[..], &["--runtime", "llama.cpp", "--context", "32768"]].concat());
    let m = v["measured"].as_array().expect("measurements for this model, format and device");
    assert_eq!(m.len(), 2, "{m:?}");
    let decode = m.iter().find(|x| x["phase"] == "decode").unwrap();
    assert_eq!(decode["test"], "tg128");
    assert!(
        decode["source"].as_str().unwrap().starts_with("https://github.com/ggml-org/llama.cpp/discussions/")
    );
    // The estimate beside it is at the measurement's setting (128 tokens, one sequence), not at
    // the scenario's 32k context.
    let est = decode["estimated_tokens_per_s"].as_f64().unwrap();
    let at_128 = json(&[
        "estimate",
        "--model",
        "llama-2-7b",
        "--weights",
        "q4_0",
        "--device",
        "rtx-4090",
        "--runtime",
        "llama.cpp",
        "--context",
        "128",
    ]);
    assert_eq!(est, at_128["speed"]["decode_tokens_per_s"].as_f64().unwrap());
    assert!(est > v["speed"]["decode_tokens_per_s"].as_f64().unwrap());
    let text = String::from_utf8(headroom(&base).stdout).unwrap();
    assert!(text.contains("Measured ") && text.contains("(tg128) on NVIDIA GeForce RTX 4090"), "{text}");
    // Another format: no measurement, and no key.
    let none = json(&["estimate", "--model", "llama-2-7b", "--weights", "q4_k_m", "--device", "rtx-4090"]);
    assert!(none.get("measured").is_none());
}

#[test]
fn transformers_offloads_as_accelerate_places_the_layers() {
    let base = ["estimate", "--model", "qwen3-32b", "--device", "rtx-4090", "--runtime", "transformers"];
    let v = json(&base);
    let map = &v["device_map"];
    let (k, n) = (map["gpu_layers"].as_u64().unwrap(), map["layers"].as_u64().unwrap());
    assert!(0 < k && k < n, "{map}");
    // accelerate's rule: 90% of the free memory (the card less the CUDA context) less room for
    // the largest module holds the GPU's weights; one more layer would not fit.
    let card = 24u64 << 30;
    let budget = ((card - (500 << 20)) as f64 * 0.9) as u64 - map["largest_module"].as_u64().unwrap();
    assert!(map["gpu_weights"].as_u64().unwrap() <= budget, "{map}");
    let more = json(&[&base[..], &["--gpu-layers", &(k + 1).to_string()]].concat());
    assert!(more["device_map"]["gpu_weights"].as_u64().unwrap() > budget);
    // What is not on the GPU is in system RAM, and every token copies it over.
    assert_eq!(v["host"]["weights"], map["host_weights"]);
    assert_eq!(v["fit"]["verdict"], "offload");
    assert!(v["speed"]["decode_tokens_per_s"].as_f64().unwrap() < 2.0);
    // The machine's RAM decides: too little, and it does not run.
    let short = json(&[&base[..], &["--host-ram", "32"]].concat());
    assert_eq!(short["fit"]["verdict"], "no");
    // A model that fits has no device map.
    let fits =
        json(&["estimate", "--model", "qwen3-8b", "--device", "h100-sxm", "--runtime", "transformers"]);
    assert!(fits.get("device_map").is_none() || fits["device_map"].is_null());
}

/// Sequence splitting and batching flags reach the estimate, the JSON, the command and the link;
/// bad values are refused naming the field.
#[test]
fn sequence_splits_and_batching_flags() {
    let base = ["estimate", "--model", "llama-3.1-8b", "--mode", "full", "--gpus", "4", "--context", "8192"];
    let total = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().copied().chain(extra.iter().copied()).collect();
        json(&args)["memory"]["total"].as_u64().unwrap()
    };
    let tp = total(&["--tp", "4"]);
    let sp = total(&["--tp", "4", "--sequence-parallel"]);
    assert!(sp < tp, "{sp} {tp}");
    assert_eq!(total(&["--ulysses", "4"]), total(&["--cp", "4"]));
    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain([
            "--ulysses",
            "2",
            "--batch",
            "8",
            "--batching",
            "padding-free",
            "--mean-sample-tokens",
            "700",
        ])
        .collect();
    let j = json(&args);
    let t = &j["training"];
    assert_eq!((t["ulysses"].as_u64(), t["batching"].as_str()), (Some(2), Some("padding-free")));
    assert_eq!((t["mean_sample_tokens"].as_u64(), t["padding_factor"].as_f64()), (Some(700), Some(1.0)));
    let text = String::from_utf8_lossy(&headroom(&args).stdout).to_string();
    assert!(text.contains("uly=2&bat=padding-free&msamp=700"), "{text}");
    // Padded, the compute line counts the padding.
    let padded: Vec<&str> =
        base.iter().copied().chain(["--batch", "8", "--mean-sample-tokens", "700"]).collect();
    let text = String::from_utf8_lossy(&headroom(&padded).stdout).to_string();
    assert!(text.contains("× 2.72 for padding"), "{text}");
    for (flag, value, field) in [
        ("--ulysses", "3", "ulysses"),
        ("--batching", "zip", "batching"),
        ("--sequence-parallel", "maybe", "sequence-parallel"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain([flag, value]).collect();
        let out = headroom(&args);
        assert!(!out.status.success(), "{flag} {value}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(field), "{flag} {value}");
    }
}

/// LoRA's rank/targets trade-off in the JSON advice and the text, the scenario's own marked.
#[test]
fn lora_tradeoff_in_json_and_text() {
    let args = [
        "estimate",
        "--model",
        "llama-3.1-8b",
        "--mode",
        "lora",
        "--device",
        "rtx-4090",
        "--grad-checkpointing",
    ];
    let j = json(&args);
    let o = j["training"]["advice"]["lora"].as_array().unwrap();
    assert_eq!(o.len(), 10);
    let current: Vec<_> = o.iter().filter(|x| x["current"] == true).collect();
    assert_eq!(
        (current.len(), current[0]["rank"].as_u64(), current[0]["targets"].as_str()),
        (1, Some(16), Some("all-linear"))
    );
    assert!(o.iter().any(|x| x["fits"] == false) && o.iter().any(|x| x["fits"] == true));
    let text = String::from_utf8_lossy(&headroom(&args).stdout).to_string();
    assert!(text.contains("LoRA rank and targets") && text.contains("← as set"), "{text}");
    // Full fine-tuning: no trade-off.
    let full = json(&["estimate", "--model", "llama-3.1-8b", "--mode", "full", "--device", "h100-sxm"]);
    assert!(full["training"]["advice"].get("lora").is_none());
}

/// A runtime that cannot load the model: the numbers stay, a warning says why, the device says
/// no, and no command is written.
#[test]
fn a_runtime_that_cannot_load_the_model_says_so() {
    let args = ["estimate", "--model", "opt-1.3b", "--runtime", "llama-cpp", "--device", "rtx-4090"];
    let v = json(&args);
    assert_eq!(v["fit"]["verdict"], "no");
    let warnings = v["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w.as_str().unwrap().contains("no class for `OPTForCausalLM`")),
        "{warnings:?}"
    );
    assert!(v["memory"]["weights"].as_u64().unwrap() > 2_000_000_000);
    let out = headroom(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("Warning: llama.cpp cannot load this model"), "{text}");
    assert!(!text.contains("llama-server"), "{text}");
    // vLLM loads OPT.
    let v = json(&["estimate", "--model", "opt-1.3b", "--runtime", "vllm", "--device", "rtx-4090"]);
    assert_eq!(v["fit"]["verdict"], "fits");
    assert!(v["warnings"].as_array().unwrap().is_empty());
}

/// `--decode-context-parallel-size`: the logged capacity grows by the ranks, the command and the
/// link keep it; a size vLLM refuses is said with its error.
#[test]
fn decode_context_parallelism_from_the_command_line() {
    let base = ["estimate", "--model", "deepseek-v3", "--runtime", "vllm", "--gpus", "8", "--device", "h200"];
    let tokens = |v: &serde_json::Value| v["vllm"]["kv_cache_tokens"].as_u64().unwrap();
    let one = json(&base);
    let mut with = base.to_vec();
    with.extend(["--decode-context-parallel-size", "8"]);
    let eight = json(&with);
    assert!(tokens(&eight) > 7 * tokens(&one), "{} vs {}", tokens(&eight), tokens(&one));
    let text = String::from_utf8_lossy(&headroom(&with).stdout).into_owned();
    assert!(text.contains("--tensor-parallel-size 8 --decode-context-parallel-size 8"), "{text}");
    assert!(text.contains("dcp=8"), "{text}");
    let mut three = base.to_vec();
    three.extend(["--decode-context-parallel-size", "3"]);
    let text = String::from_utf8_lossy(&headroom(&three).stdout).into_owned();
    assert!(text.contains("log  ValueError: tp_size=8 must be divisible by dcp_size=3."), "{text}");
    let bad = headroom(&[&base[..], &["--decode-context-parallel-size", "0"]].concat());
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("decode_context_parallel_size"));
}

/// vLLM 0.34's extensible KV cache: the text says the cache is sized after warmup, JSON carries
/// the measured size beside the reservation; `--extensible-kv-cache off` returns to 0.92.
#[test]
fn the_extensible_kv_cache_from_the_command_line() {
    let base = ["estimate", "--model", "qwen3-8b", "--runtime", "vllm", "--device", "h100-sxm"];
    let text = String::from_utf8_lossy(&headroom(&base).stdout).into_owned();
    assert!(text.contains("vLLM 0.34 at start: sized after warmup, the KV cache gets"), "{text}");
    assert!(text.contains("log  Memory after warmup:"), "{text}");
    let v = json(&base);
    let m = &v["vllm"]["measured"];
    assert!(m["kv_cache_memory"].as_i64().unwrap() > 0, "{v}");
    assert!(m["reserved_blocks"].as_u64().unwrap() >= v["vllm"]["num_gpu_blocks"].as_u64().unwrap());
    assert_eq!(v["vllm"]["gpu_memory_utilization"], 1.0);
    let off = json(&[&base[..], &["--extensible-kv-cache", "off"]].concat());
    assert!(off["vllm"].get("measured").is_none());
    assert_eq!(off["vllm"]["gpu_memory_utilization"], 0.92);
    let bad = headroom(&[&base[..], &["--extensible-kv-cache", "maybe"]].concat());
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("invalid extensible-kv-cache"));
}
