//! The `headroom` binary against the contract of `spec/cli.md`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use std::process::{Command, Output};

fn headroom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_headroom")).args(args).output().expect("run headroom")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = headroom(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn seed_slice_seven_billion_fp16() {
    let v = json(&["estimate", "--params", "7B", "--weights", "fp16", "--json"]);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["memory"]["weights"], 14_000_000_000u64);
    assert_eq!(v["memory"]["total"], 14_000_000_000u64);
    assert_eq!(v["model"]["params_total"], 7_000_000_000u64);
    assert_eq!(v["disk"]["weights"], 14_000_000_000u64);
    assert_eq!(v["link"], "?v=1&params=7B&weights=fp16");
    // Keys that do not apply are 0, not missing.
    for key in ["kv_cache", "activations", "gradients", "optimizer", "master_weights", "adapters", "overhead"]
    {
        assert!(v["memory"][key].is_u64(), "memory.{key} missing");
    }
    assert_eq!(v["trainable_params"], 0);
}

#[test]
fn every_spelling_of_seven_billion_agrees() {
    for p in ["7e9", "7B", "7000000000", "7b"] {
        let v = json(&["estimate", "--params", p, "--weights", "int4", "--json"]);
        assert_eq!(v["memory"]["weights"], 3_500_000_000u64, "{p}");
    }
}

#[test]
fn human_output_is_a_table_with_the_total() {
    let out = headroom(&["estimate", "--params", "7B", "--weights", "fp16"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Weights"), "{text}");
    assert!(text.contains("14.00 GB (13.04 GiB)"), "{text}");
    assert!(text.contains("Total"), "{text}");
}

#[test]
fn link_flag_prints_the_query() {
    let out = headroom(&["estimate", "--params", "500M", "--link"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "?v=1&params=500M\n");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    for args in [
        vec!["estimate", "--params", "banana"],
        vec!["estimate", "--params", "7B", "--weights", "fp12"],
        vec!["estimate", "--params", "7B", "--frobnicate"],
        vec!["estimate", "--params", "0"],
        vec!["estimate", "--params", "99999999999999999999999"],
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
