//! The fuzz targets' bodies. `checks.rs` is also compiled into `headroom-tests`
//! (`tests/tests/fuzz_corpus.rs`), which replays every file of `fuzz/corpus` through the same
//! calls without libFuzzer.

pub mod checks;
