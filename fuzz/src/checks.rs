//! What each fuzz target does with its input: the calls a hostile file or link reaches in the CLI
//! and the page, and the properties that must hold. Nothing here may panic, loop or allocate by a
//! size the input claims; the asserts are properties whose failure is a bug.
//!
//! This file is compiled twice: into the `headroom-fuzz` library (the cargo-fuzz targets) and, by
//! `#[path]`, into `tests/tests/fuzz_corpus.rs`, which replays the committed corpus in a plain
//! `cargo test`. Keep it std-only with no dependency but `headroom-core`, and free of
//! `unwrap`/`expect` (the main workspace's lints).

use std::sync::OnceLock;

use headroom_core::estimate::estimate;
use headroom_core::fit;
use headroom_core::import::{gguf, hf, hub, safetensors};
use headroom_core::model::Architecture;
use headroom_core::scenario::{CustomModel, ModelSource, Scenario};
use headroom_core::share;

/// Estimates a model read from a file with every other setting at its default. The result is
/// ignored: an error is a fine answer to a hostile file, a panic is not.
fn estimate_custom(model: CustomModel) {
    let s = Scenario { model: ModelSource::Custom(Box::new(model)), ..Scenario::default() };
    let _ = estimate(&s);
}

/// GGUF header → metadata, tensors, architecture, file facts, estimate.
pub fn gguf(data: &[u8]) {
    match gguf::parse(data) {
        Ok(g) => {
            let _ = g.to_architecture();
            let _ = g.file_facts();
            let _ = g.weight_format();
            if let Ok((model, _notices)) = g.to_custom("x") {
                estimate_custom(model);
            }
        }
        // A caller reading a file in slices retries with `needed` bytes: it must ask for more
        // than it was given, or the retry loop never ends.
        Err(gguf::GgufError::Truncated { needed }) => {
            assert!(
                needed > data.len() as u64,
                "Truncated asks for {needed} bytes but {} were given",
                data.len()
            );
        }
        Err(gguf::GgufError::Invalid(_)) => {}
    }
}

/// A small real decoder (Qwen2.5-0.5B's `config.json`) to pair with fuzzed safetensors headers,
/// as the CLI and the page pair a checkpoint's config with its headers.
const PAIRED_CONFIG: &[u8] = br#"{"model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864,
  "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936,
  "max_position_embeddings": 32768, "tie_word_embeddings": true, "torch_dtype": "bfloat16"}"#;

fn paired_architecture() -> Option<&'static Architecture> {
    static ARCH: OnceLock<Option<Architecture>> = OnceLock::new();
    ARCH.get_or_init(|| hf::parse_config(PAIRED_CONFIG).ok().map(|m| m.architecture)).as_ref()
}

/// Safetensors: the 8-byte length, the header, the bare JSON header, an index; a parsed header's
/// file facts estimated with a fixed config, as `headroom --safetensors` and the Hub import do.
pub fn safetensors(data: &[u8]) {
    let len = safetensors::header_len(data);
    if let Ok(h) = safetensors::parse(data) {
        // `parse` reads the length `header_len` reads: one cannot fail where the other succeeds.
        let Ok(n) = len else { panic!("parse succeeded but header_len failed: {len:?}") };
        let _ = h.total_bytes();
        let _ = h.bytes_by_dtype();
        let plain = h.plain_format();
        let facts = safetensors::file_facts(&[(h, n)]);
        if let Some(architecture) = paired_architecture() {
            estimate_custom(CustomModel {
                name: "x".into(),
                architecture: architecture.clone(),
                format: plain,
                file: Some(facts),
                confidence: headroom_core::model::Confidence::Exact,
                notices: Vec::new(),
            });
        }
    }
    // The same bytes as a header without its length prefix (how the page parses the JSON it
    // fetched in a second range request), and as a `model.safetensors.index.json`.
    let _ = safetensors::parse_json(data);
    let _ = safetensors::parse_index(data);
}

/// `config.json` → architecture and format → estimate.
pub fn config_json(data: &[u8]) {
    if let Ok(m) = hf::parse_config(data) {
        let name = m.name.clone().unwrap_or_else(|| "x".into());
        estimate_custom(m.into_custom(name));
    }
}

/// The link codec and the Hub reference readers, on the input as (lossy) UTF-8.
///
/// Properties: a decoded link re-encodes to a query that decodes to the same link (a shared link
/// opens as it was shared), and a Hub reference survives the link's `hf` value.
pub fn link_codec(data: &[u8]) {
    let q = String::from_utf8_lossy(data);
    let d = share::decode(&q);
    let _ = share::encode(&d.scenario);
    let first = share::decode_link(&q).link;
    let encoded = share::encode_link(&first);
    let again = share::decode_link(&encoded).link;
    assert!(again == first, "link round trip: {q:?} -> {encoded:?} decodes to {again:?}, not {first:?}");
    // Whatever a link asks for is estimated (and fitted on its device) without a panic.
    let _ = fit::estimate_with_device(&first.scenario);

    if let Ok(r) = hub::parse_ref(&q) {
        let v = r.to_link_value();
        let back = hub::parse_link_value(&v);
        assert!(back.as_ref().ok() == Some(&r), "hf reference round trip: {q:?} -> {v:?} -> {back:?}");
    }
    let _ = hub::parse_link_value(&q);
    let _ = hub::parse_base(&q);
}
