//! Every input of the fuzz corpus (`fuzz/corpus/<target>/`: the seeds and the minimized crash
//! inputs) through the same checks as the `cargo fuzz` targets, on stable Rust and without
//! libFuzzer, so that an input that once crashed stays fixed.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a missing corpus

// The fuzz targets' bodies, compiled here as they are in `fuzz/` (one file, the same calls).
#[path = "../../fuzz/src/checks.rs"]
mod checks;

use std::fs;
use std::path::Path;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/corpus");

/// Runs every file of `fuzz/corpus/<target>/` through `check`, naming each file that panics.
fn run(target: &str, check: fn(&[u8])) {
    let dir = Path::new(CORPUS).join(target);
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{} has only {} inputs", dir.display(), files.len());
    let mut failed = Vec::new();
    for path in &files {
        let data = fs::read(path).unwrap();
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            failed.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(failed.is_empty(), "{target}: {} of {} inputs fail: {failed:?}", failed.len(), files.len());
}

#[test]
fn gguf_corpus() {
    run("gguf", checks::gguf);
}

#[test]
fn safetensors_corpus() {
    run("safetensors", checks::safetensors);
}

#[test]
fn config_json_corpus() {
    run("config_json", checks::config_json);
}

#[test]
fn link_codec_corpus() {
    run("link_codec", checks::link_codec);
}
