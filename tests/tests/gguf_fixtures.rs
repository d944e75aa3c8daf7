//! The GGUF header parser against header-only files written by the official `gguf` Python package
//! (`scripts/make-gguf-fixtures.py`, `fixtures/gguf`), whose `.expected.json` the script computed
//! from the written bytes on its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::catalog;
use headroom_core::estimate::{TermKind, estimate};
use headroom_core::import::gguf::{self, Gguf, GgufError, MetaValue};
use headroom_core::inference::Runtime;
use headroom_core::model::{Architecture, Attention, Mixer, Mlp, QkNorm, Span};
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::tensors;
use headroom_tests::{fixture, read_fixture};
use serde_json::Value;

/// The single-file fixtures.
const CASES: [&str; 7] = [
    "llama-1b-q4_k_m",
    "qwen2-0.5b-f16",
    "qwen3moe-q8_0",
    "gemma2-2b-q4_0",
    "deepseek2-lite-q4_k_m",
    "gpt-oss-mxfp4",
    "hrm-text-1b-q4_k_m",
];

/// The halves of the split fixture, in order.
const SPLIT: [&str; 2] = ["llama-split-00001-of-00002", "llama-split-00002-of-00002"];

fn file(name: &str) -> Vec<u8> {
    let p = fixture(&format!("gguf/{name}.gguf"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

fn expected(case: &str) -> Value {
    serde_json::from_str(&read_fixture(&format!("gguf/{case}.expected.json"))).unwrap()
}

fn parse(name: &str) -> Gguf {
    gguf::parse(&file(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

#[track_caller]
fn num(exp: &Value, key: &str) -> u64 {
    exp[key].as_u64().unwrap_or_else(|| panic!("`{key}` is not a number in {exp}"))
}

/// Every expected field of a header (or of merged split headers).
fn check(case: &str, g: &Gguf, exp: &Value) {
    assert_eq!(g.tensors.len() as u64, num(exp, "tensor_count"), "{case}: tensor_count");
    assert_eq!(g.tensor_bytes(), num(exp, "tensor_bytes"), "{case}: tensor_bytes");
    assert_eq!(g.params(), num(exp, "params"), "{case}: params");
    assert_eq!(g.header_bytes, num(exp, "header_bytes"), "{case}: header_bytes");
    assert_eq!(g.file_bytes(), num(exp, "file_bytes"), "{case}: file_bytes");
    assert_eq!(g.alignment, 32, "{case}: alignment");
    assert_eq!(g.architecture_name(), exp["architecture"].as_str(), "{case}: architecture");
    assert_eq!(
        g.file_type().map(|m| u64::from(m.ftype_id())),
        exp["file_type"].as_u64(),
        "{case}: file_type"
    );
    let mut by_type: Vec<(String, u64)> =
        g.bytes_by_type().into_iter().map(|(t, b)| (t.name().to_string(), b)).collect();
    by_type.sort();
    let want: Vec<(String, u64)> = exp["bytes_by_type"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect();
    assert_eq!(by_type, want, "{case}: bytes by type");
    let embd = g.tensors.iter().find(|t| t.name == "token_embd.weight").map_or(0, |t| t.bytes);
    assert_eq!(embd, num(exp, "token_embd_bytes"), "{case}: token_embd bytes");

    let (a, _notices) = g.to_architecture().unwrap_or_else(|e| panic!("{case}: {e}"));
    assert_eq!(a.num_layers(), num(exp, "layers"), "{case}: layers");
    assert_eq!(a.hidden_size, num(exp, "hidden"), "{case}: hidden");
    assert_eq!(a.num_heads(), num(exp, "heads"), "{case}: heads");
    match a.first_attention() {
        Some(Mixer::Attention(s)) => assert_eq!(s.num_kv_heads, num(exp, "kv_heads"), "{case}: kv_heads"),
        // MLA caches one shared latent: `head_count_kv` (the heads of the decompressed K and V)
        // is the query head count there, and the architecture has no KV heads to compare it with.
        Some(Mixer::Mla(m)) => assert_eq!(m.num_heads, num(exp, "kv_heads"), "{case}: MLA heads"),
        other => panic!("{case}: no attention ({other:?})"),
    }
    assert_eq!(a.vocab_size, num(exp, "vocab"), "{case}: vocab");
    assert_eq!(a.moe().map_or(0, |m| m.num_experts), num(exp, "experts"), "{case}: experts");
    assert_eq!(a.tie_word_embeddings, exp["tied"].as_bool().unwrap(), "{case}: tied embeddings");
}

#[test]
fn every_fixture_reads_as_written() {
    for case in CASES {
        check(case, &parse(case), &expected(case));
    }
}

fn attn(a: &Architecture) -> &Attention {
    match a.first_attention() {
        Some(Mixer::Attention(s)) => s,
        other => panic!("not standard attention: {other:?}"),
    }
}

fn head_dim(a: &Architecture) -> u64 {
    attn(a).head_dim
}

/// Layers attending within a window, and the window.
fn sliding(a: &Architecture) -> (u64, Option<u64>) {
    let mut n = 0;
    let mut w = None;
    for (count, m) in a.mixers() {
        if let Mixer::Attention(Attention { span: Span::Sliding { window }, .. }) = m {
            n += count;
            w = Some(*window);
        }
    }
    (n, w)
}

fn mlp(a: &Architecture) -> &Mlp {
    a.dense_mlp().expect("a dense MLP")
}

#[test]
fn the_architectures_read_from_the_metadata_are_the_models() {
    let arch = |case: &str| parse(case).to_architecture().unwrap().0;

    let a = arch("llama-1b-q4_k_m");
    assert_eq!(a.family, "llama");
    assert_eq!((head_dim(&a), mlp(&a).intermediate_size, a.max_context), (64, 8192, 131_072));
    assert!(mlp(&a).gated && a.moe().is_none() && sliding(&a).0 == 0);

    let a = arch("qwen2-0.5b-f16");
    let s = attn(&a);
    assert!(s.qkv_bias && !s.o_bias, "qwen2: q/k/v biases only");
    assert_eq!((s.head_dim, mlp(&a).intermediate_size), (64, 4864));

    let a = arch("qwen3moe-q8_0");
    assert_eq!(a.family, "qwen3_moe");
    let s = attn(&a);
    assert_eq!(s.head_dim, 128);
    assert_eq!(s.qk_norm, QkNorm::PerHead);
    let moe = a.moe().unwrap();
    assert_eq!((moe.experts_per_token, moe.expert_intermediate, a.moe_layers()), (8, 768, 4));
    assert_eq!(moe.shared_intermediate, 0);

    let a = arch("gemma2-2b-q4_0");
    assert_eq!((a.groups[0].norms, sliding(&a)), (4, (13, Some(4096))));
    assert_eq!(head_dim(&a), 256);

    let a = arch("deepseek2-lite-q4_k_m");
    assert_eq!(a.family, "deepseek_v3");
    let Some(Mixer::Mla(m)) = a.first_attention() else { panic!("deepseek2: not MLA") };
    assert_eq!(m.q_lora_rank, None);
    assert_eq!((m.kv_lora_rank, m.qk_nope_head_dim, m.qk_rope_head_dim, m.v_head_dim), (512, 128, 64, 128));
    let moe = a.moe().unwrap();
    assert_eq!((moe.num_experts, moe.experts_per_token, moe.expert_intermediate), (64, 6, 1408));
    assert_eq!((moe.shared_intermediate, a.moe_layers()), (2 * 1408, 2));
    assert_eq!(mlp(&a).intermediate_size, 10_944);

    let a = arch("gpt-oss-mxfp4");
    assert_eq!(a.family, "gpt_oss");
    let s = attn(&a);
    assert!(s.sinks && s.qkv_bias && s.o_bias);
    assert_eq!(s.head_dim, 64);
    let moe = a.moe().unwrap();
    assert!(moe.router_bias && moe.expert_bias);
    assert_eq!((moe.experts_per_token, moe.expert_intermediate), (4, 2880));
    assert_eq!(sliding(&a), (1, Some(128)));
}

/// The parameters the rule engine counts from each architecture equal the file's.
#[test]
fn the_architectures_count_the_files_parameters() {
    let mut wrong = Vec::new();
    for case in CASES {
        let g = parse(case);
        let (a, _) = g.to_architecture().unwrap();
        let counted = a.params_total().unwrap().get();
        if counted != g.params() {
            wrong.push(format!("{case}: architecture {counted}, file {}", g.params()));
        }
    }
    assert!(wrong.is_empty(), "parameter counts differ:\n{}", wrong.join("\n"));
}

/// Grows a prefix of `full` as the parser asks, checking each answer: `needed` is beyond what it
/// was given, within the file, and a true lower bound (one byte less is still truncated). The
/// first `exact_rounds` rounds read exactly `needed`; then, as the CLI does, at least double.
fn grow_until_parsed(name: &str, full: &[u8], exact_rounds: usize) -> (Gguf, usize) {
    let mut have = 16usize;
    let mut rounds = 0usize;
    loop {
        match gguf::parse(&full[..have]) {
            Ok(g) => return (g, rounds),
            Err(GgufError::Truncated { needed }) => {
                let needed = usize::try_from(needed).unwrap();
                assert!(needed > have, "{name}: asked for {needed} bytes with {have}");
                assert!(needed <= full.len(), "{name}: asked for {needed} bytes of {}", full.len());
                if rounds.is_multiple_of(97) {
                    assert!(
                        matches!(gguf::parse(&full[..needed - 1]), Err(GgufError::Truncated { .. })),
                        "{name}: {} bytes already parse, yet {needed} were asked for",
                        needed - 1
                    );
                }
                have = if rounds < exact_rounds { needed } else { needed.max(have * 2).min(full.len()) };
                rounds += 1;
            }
            Err(e) => panic!("{name}: {e:?} with {have} bytes"),
        }
    }
}

#[test]
fn large_vocabularies_ask_for_more_until_they_parse() {
    for (case, tokens) in [("llama-1b-q4_k_m", 128_256u64), ("qwen2-0.5b-f16", 151_936)] {
        let full = file(case);
        assert!(full.len() > 1 << 20, "{case}: the header should be MBs");
        // A prefix ending inside the vocabulary asks for more.
        assert!(matches!(gguf::parse(&full[..full.len() / 2]), Err(GgufError::Truncated { .. })));
        let (g, rounds) = grow_until_parsed(case, &full, 300);
        assert!(rounds > 300, "{case}: only {rounds} rounds");
        assert_eq!(g, parse(case), "{case}: grown prefix and whole file disagree");
        // The vocabulary is counted, not stored.
        assert_eq!(
            g.get("tokenizer.ggml.tokens"),
            Some(&MetaValue::Array { elem: 8, len: tokens, values: vec![] }),
            "{case}: tokens"
        );
    }
    let g = parse("qwen2-0.5b-f16");
    assert_eq!(
        g.get("tokenizer.ggml.token_type"),
        Some(&MetaValue::Array { elem: 5, len: 151_936, values: vec![] })
    );
}

#[test]
fn small_headers_grow_byte_exactly_to_the_end() {
    for name in CASES.iter().copied().skip(2).chain(SPLIT) {
        let full = file(name);
        let (g, rounds) = grow_until_parsed(name, &full, usize::MAX);
        assert!(rounds > 10, "{name}: only {rounds} rounds");
        assert_eq!(g, parse(name), "{name}");
    }
}

#[test]
fn split_halves_merge_into_the_model() {
    let exp = expected("llama-split");
    let parts: Vec<Gguf> = SPLIT.iter().map(|n| parse(n)).collect();
    for (i, (g, pe)) in parts.iter().zip(exp["parts"].as_array().unwrap()).enumerate() {
        let name = SPLIT[i];
        assert_eq!(pe["file"].as_str(), Some(format!("{name}.gguf").as_str()));
        assert_eq!(g.tensors.len() as u64, num(pe, "tensor_count"), "{name}");
        assert_eq!(g.tensor_bytes(), num(pe, "tensor_bytes"), "{name}");
        assert_eq!(g.params(), num(pe, "params"), "{name}");
        assert_eq!(g.header_bytes, num(pe, "header_bytes"), "{name}");
        assert_eq!(g.file_bytes(), num(pe, "file_bytes"), "{name}");
        assert_eq!(g.get("split.no"), Some(&MetaValue::U(i as u64)), "{name}: split.no");
        assert_eq!(g.get("split.count"), Some(&MetaValue::U(2)), "{name}: split.count");
        assert_eq!(g.get("split.tensors.count"), Some(&MetaValue::I(21)), "{name}: split.tensors.count");
    }
    // The second half holds only the split keys: it is no model on its own.
    assert_eq!(parts[1].metadata.len(), 3);
    assert!(parts[1].to_architecture().is_err());
    let sum: u64 = parts.iter().map(Gguf::tensor_bytes).sum();
    let count: usize = parts.iter().map(|g| g.tensors.len()).sum();
    let merged = gguf::merge(parts).unwrap();
    assert_eq!((merged.tensors.len(), merged.tensor_bytes()), (count, sum));
    check("llama-split (merged)", &merged, &exp);
}

/// An estimate of the file's own model prices its weights at the file's tensor bytes.
#[test]
fn estimates_of_the_files_use_their_tensor_bytes() {
    let mut cases: Vec<(&str, Gguf)> = CASES.iter().map(|c| (*c, parse(c))).collect();
    cases.push(("llama-split", gguf::merge(SPLIT.iter().map(|n| parse(n)).collect()).unwrap()));
    for (case, g) in cases {
        let exp = expected(case);
        let (custom, _) = g.to_custom(case).unwrap();
        let scenario = Scenario { model: ModelSource::Custom(Box::new(custom)), ..Scenario::default() };
        let total = num(&exp, "tensor_bytes");
        let embd = num(&exp, "token_embd_bytes");

        // llama.cpp (GGUF's default runtime): token_embd in system RAM, the rest on the device,
        // and a tied token_embd a second time there as the output head.
        let e = estimate(&scenario).unwrap_or_else(|err| panic!("{case}: {err}"));
        assert_eq!(e.runtime, Runtime::LlamaCpp, "{case}");
        assert!(e.weights_exact, "{case}: weights exact");
        assert_eq!(e.weights_total.get(), total, "{case}: weights_total");
        assert_eq!(e.disk.weights.get(), num(&exp, "file_bytes"), "{case}: disk");
        let head_copy = if exp["tied"].as_bool().unwrap() { embd } else { 0 };
        assert_eq!(e.memory.get(TermKind::Weights).get(), total - embd + head_copy, "{case}: device weights");
        assert_eq!(e.host.get(TermKind::Weights).get(), embd, "{case}: host weights");
        assert_eq!(e.model.params_total.get(), num(&exp, "params"), "{case}: params");
        assert_eq!(e.model.name, g.get("general.name").and_then(MetaValue::as_str).unwrap(), "{case}: name");

        // On the CPU every weight is in the one memory, once.
        let cpu = Scenario { runtime: Some(Runtime::Cpu), ..scenario };
        let e = estimate(&cpu).unwrap();
        assert_eq!(e.memory.get(TermKind::Weights).get(), total, "{case}: CPU weights");
    }
}

/// The Llama-3.2-1B Q4_K_M file weighs what the rule engine prices the catalog model at.
#[test]
fn llama_1b_q4_k_m_matches_the_rule_engine() {
    let g = parse("llama-1b-q4_k_m");
    let a = catalog::model("llama-3.2-1b").unwrap().architecture().unwrap();
    let priced = tensors::weight_bytes(&a, WeightFormat::parse("q4_k_m").unwrap()).unwrap();
    assert_eq!(priced.total().get(), g.tensor_bytes(), "rule engine vs file");
    assert_eq!(a.params_total().unwrap().get(), g.params(), "catalog vs file parameters");
    // And the architecture read from the file is the catalog's.
    let (read, _) = g.to_architecture().unwrap();
    let read_priced = tensors::weight_bytes(&read, WeightFormat::parse("q4_k_m").unwrap()).unwrap();
    assert_eq!(read_priced.total().get(), g.tensor_bytes(), "rule engine on the file's architecture");
}

/// A multimodal projector beside a GGUF model (llama.cpp's `--mmproj`): its tensor bytes become
/// the encoders term, exact; the download grows by its file; the command names it; `--text-only`
/// leaves it out; a language model file is refused as a projector.
#[test]
fn an_mmproj_file_is_the_models_encoder() {
    let mm = parse("mmproj-qwen2.5-vl-7b-f16");
    let exp = expected("mmproj-qwen2.5-vl-7b-f16");
    assert_eq!(mm.architecture_name(), Some("clip"));
    assert_eq!(mm.tensor_bytes(), num(&exp, "tensor_bytes"));
    let (mut custom, _) = parse("qwen2-0.5b-f16").to_custom("qwen2-0.5b-f16.gguf").unwrap();
    let alone = Scenario { model: ModelSource::Custom(Box::new(custom.clone())), ..Scenario::default() };
    let before = estimate(&alone).unwrap();
    mm.attach_mmproj_to(&mut custom, "mmproj-qwen2.5-vl-7b-f16.gguf").unwrap();
    let with = Scenario { model: ModelSource::Custom(Box::new(custom)), ..Scenario::default() };
    let e = estimate(&with).unwrap();
    assert_eq!(e.memory.get(TermKind::Encoders).get(), num(&exp, "tensor_bytes"));
    assert_eq!(
        e.memory.get(TermKind::Weights),
        before.memory.get(TermKind::Weights),
        "the model's own weights"
    );
    assert_eq!(e.disk.weights.get(), before.disk.weights.get() + num(&exp, "file_bytes"));
    let cmd = headroom_core::flags::commands(&with, &e, None).join("\n");
    assert!(cmd.contains("--mmproj mmproj-qwen2.5-vl-7b-f16.gguf"), "{cmd}");
    let text = Scenario { text_only: true, ..with.clone() };
    let t = estimate(&text).unwrap();
    assert!(t.memory.term(TermKind::Encoders).is_none());
    let cmd = headroom_core::flags::commands(&text, &t, None).join("\n");
    assert!(cmd.contains("--no-mmproj") && !cmd.contains("--mmproj "), "{cmd}");
    // A model file is not a projector.
    let (mut other, _) = parse("qwen2-0.5b-f16").to_custom("x.gguf").unwrap();
    let err = parse("llama-1b-q4_k_m").attach_mmproj_to(&mut other, "llama.gguf").unwrap_err().to_string();
    assert!(err.contains("not a multimodal projector") && err.contains("llama"), "{err}");
}
