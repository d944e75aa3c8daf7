//! The estimates against `fixtures/validation`: exact figures computed by `transformers` and
//! published numbers (papers, source constants, runtime logs).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::import::hf::parse_config;
use headroom_core::inference::kv_cache_bytes;
use headroom_core::model::Ffn;
use headroom_core::precision::KvDtype;
use headroom_tests::read_fixture;
use serde_json::Value;

fn reference() -> Vec<Value> {
    read_fixture("validation/reference.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[track_caller]
fn within(actual: f64, expected: f64, tolerance: f64, what: &str) {
    let rel = (actual - expected).abs() / expected.abs().max(1e-12);
    assert!(
        rel <= tolerance,
        "{what}: {actual} vs {expected} ({:.3}% off, tolerance {:.2}%)",
        rel * 100.0,
        tolerance * 100.0
    );
}

/// Every config reproduces the reference exactly: parameters, embeddings, KV bytes at 1, 4096
/// and 32768 tokens; active parameters within 0.5%.
#[test]
fn configs_reproduce_the_reference() {
    let refs = reference();
    assert_eq!(refs.len(), 10);
    for r in refs {
        let name = r["model"].as_str().unwrap();
        let cfg = read_fixture(&format!("validation/configs/{name}.json"));
        let m = parse_config(cfg.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let a = &m.architecture;
        let b = a.param_breakdown().unwrap();
        // The reference counts transformers' parameters; the checkpoint (and Headroom) also stores
        // the score-correction biases transformers registers as buffers (DeepSeek-V3: 58 × 256).
        let buffers: u64 = a
            .groups
            .iter()
            .map(|g| match &g.ffn {
                Ffn::Moe(m) if m.score_bias => g.count * m.num_experts,
                _ => 0,
            })
            .sum();
        assert_eq!(b.total() - buffers, r["params_total"].as_u64().unwrap(), "{name}: params_total");
        assert_eq!(b.embeddings, r["params_embedding"].as_u64().unwrap(), "{name}: params_embedding");
        let active = a.params_active().unwrap().get() - buffers;
        let ref_active = r["params_active"].as_u64().unwrap();
        match (a.moe(), name) {
            // The reference's DeepSeek-V3 figure (36,727,446,528) treats one matrix of the shared
            // expert as a routed one: it equals the shared experts' down_proj scaled by
            // (1 - top_k / experts) subtracted from the definition both the reference README and
            // spec/cli.md give (everything but the routed experts, plus their top-k share), which
            // is what we compute (37,552,282,624; DeepSeek announces "37B activated"). A name
            // filter on `experts.down_proj` also matches `shared_experts.down_proj`. The test pins
            // both our figure and the exact size of the discrepancy.
            (Some(moe), "deepseek-v3") => {
                let shared_down = a.hidden_size * moe.shared_intermediate;
                let artefact = a.moe_layers() * shared_down * (moe.num_experts - moe.experts_per_token)
                    / moe.num_experts;
                assert_eq!(active, 37_552_282_624, "{name}: params_active");
                assert_eq!(active - artefact, ref_active, "{name}: the reference's discrepancy");
            }
            _ => within(active as f64, ref_active as f64, 0.005, &format!("{name}: params_active")),
        }
        for (tokens, bytes) in r["kv_bytes_bf16"].as_object().unwrap() {
            let t: u64 = tokens.parse().unwrap();
            let got = kv_cache_bytes(a, KvDtype::Bf16, t, 1).unwrap().get();
            assert_eq!(got, bytes.as_u64().unwrap(), "{name}: KV at {t} tokens");
        }
    }
}

fn published() -> Vec<Value> {
    read_fixture("validation/published.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn case(id: &str) -> Value {
    published().into_iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no case {id}"))
}

/// Builds a `config.json` from a published case's settings (HF key names) and a family.
fn config_from_setting(
    setting: &Value,
    model_type: &str,
    vocab_key: &str,
) -> headroom_core::model::Architecture {
    let mut cfg = serde_json::Map::new();
    cfg.insert("model_type".into(), model_type.into());
    for (k, v) in setting.as_object().unwrap() {
        if k == vocab_key {
            cfg.insert("vocab_size".into(), v.clone());
        } else if !k.starts_with("vocab_size") {
            cfg.insert(k.clone(), v.clone());
        }
    }
    let text = serde_json::to_string(&Value::Object(cfg)).unwrap();
    parse_config(text.as_bytes()).unwrap_or_else(|e| panic!("{model_type}: {e}")).architecture
}

/// Group 1: parameter counts of published architectures, rebuilt from their settings.
#[test]
fn published_architectures() {
    for (id, family, vocab_key, extra) in [
        ("A01", "llama", "vocab_size", 0u64),
        ("A02", "llama", "vocab_size", 0),
        ("A03", "llama", "vocab_size", 0),
        ("A04", "llama", "vocab_size", 0),
        ("A06", "llama", "vocab_size", 0),
        ("A07", "llama", "vocab_size", 0),
        ("A09", "mistral", "vocab_size", 0),
        ("A10", "mixtral", "vocab_size", 0),
        ("A13", "qwen2", "vocab_size", 0),
        ("A14", "qwen2", "vocab_size", 0),
        ("A15", "qwen2", "vocab_size", 0),
        ("A17", "qwen2", "vocab_size", 0),
        ("A18", "qwen3", "vocab_size", 0),
        ("A19", "qwen3", "vocab_size", 0),
        ("A20", "qwen3", "vocab_size", 0),
        ("A21", "qwen3", "vocab_size", 0),
        ("A23", "qwen3_moe", "vocab_size", 0),
        // The Gemma 2 report counts a 256,128-row vocabulary; the HF checkpoint has 256,000.
        ("A24", "gemma2", "vocab_size_paper", 0),
        ("A26", "gemma2", "vocab_size_paper", 0),
        ("A27", "gemma3_text", "vocab_size", 0),
        ("A29", "phi3", "vocab_size", 0),
        // The published DeepSeek-V3 count includes its 58 × 256 expert-bias values, which the
        // checkpoint stores and Headroom counts (transformers registers them as buffers).
        ("A30", "deepseek_v3", "vocab_size", 0),
        ("A32", "gpt2", "vocab_size", 0),
    ] {
        let c = case(id);
        let mut setting = c["setting"].clone();
        if id == "A26" {
            setting["vocab_size_paper"] = 256128.into();
        }
        let a = config_from_setting(&setting, family, vocab_key);
        let total = a.params_total().unwrap().get() + extra;
        assert_eq!(total, c["value"].as_u64().unwrap(), "{id} ({})", c["model"]);
        if let Some(active) = c["check"]["active_parameters"].as_u64() {
            let ours = a.params_active().unwrap().get()
                + extra * a.moe().unwrap().experts_per_token / a.moe().unwrap().num_experts;
            within(ours as f64, active as f64, 0.005, &format!("{id} active"));
        }
        if let Some(e) = c["check"]["embedding"].as_u64() {
            assert_eq!(a.param_breakdown().unwrap().embeddings, e, "{id} embeddings");
        }
    }
    // And the Hugging Face checkpoints' own counts for the two Gemma 2 models.
    for (id, hf) in [("A24", "hf_safetensors_count_computed"), ("A26", "hf_safetensors_count_computed")] {
        let c = case(id);
        let mut setting = c["setting"].clone();
        setting["vocab_size_hf"] = 256000.into();
        let a = config_from_setting(&setting, "gemma2", "vocab_size_hf");
        assert_eq!(a.params_total().unwrap().get(), c["check"][hf].as_u64().unwrap(), "{id} HF count");
    }
}

/// Group 2: KV-cache sizes from papers and llama.cpp logs (llama.cpp's log "MiB" are 2^20 bytes).
#[test]
fn published_kv_caches() {
    let llama2 = headroom_core::catalog::model("llama-2-7b").unwrap().architecture().unwrap();
    let llama31 = headroom_core::catalog::model("llama-3.1-8b").unwrap().architecture().unwrap();
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    // K03: NVIDIA's blog, Llama 2 7B at 4096 tokens: 2,147,483,648 bytes.
    assert_eq!(
        kv_cache_bytes(&llama2, KvDtype::F16, 4096, 1).unwrap().get(),
        case("K03")["check"]["bytes"].as_u64().unwrap()
    );
    // K04, K12: llama.cpp, Llama 2 7B, n_ctx 2048, f16: 1024 MiB.
    for id in ["K04", "K12"] {
        assert_eq!(
            mib(kv_cache_bytes(&llama2, KvDtype::F16, 2048, 1).unwrap().get()),
            case(id)["value"].as_f64().unwrap(),
            "{id}"
        );
    }
    // K05: Ollama runner, Llama 3.1 8B, 4 sequences × 2048 = n_ctx 8192: 1024 MiB.
    assert_eq!(
        mib(kv_cache_bytes(&llama31, KvDtype::F16, 2048, 4).unwrap().get()),
        case("K05")["value"].as_f64().unwrap()
    );
    // K06: older llama.cpp, n_ctx 512: 256 "MB" (MiB).
    assert_eq!(
        kv_cache_bytes(&llama2, KvDtype::F16, 512, 1).unwrap().get(),
        case("K06")["check"]["bytes"].as_u64().unwrap()
    );
    // K11: DeepSeek-V3's MLA latent, 70,272 bytes per token in bf16.
    let ds = headroom_core::catalog::model("deepseek-v3").unwrap().architecture().unwrap();
    assert_eq!(
        kv_cache_bytes(&ds, KvDtype::Bf16, 1, 1).unwrap().get(),
        case("K11")["value"].as_u64().unwrap()
    );
    // K01: the vLLM paper's OPT-13B: 800 KiB per token (MHA, 40 layers × 5120).
    let c = case("K01");
    assert_eq!(2 * 5120 * 40 * 2, c["check"]["bytes_per_token"].as_u64().unwrap());
}

/// Group 4: ggml block sizes (official) and llama.cpp's published Llama-3.1-8B file sizes
/// (measured, within 2%).
#[test]
fn published_quant_sizes() {
    use headroom_core::precision::{GgmlType, WeightFormat};
    use headroom_core::tensors::weight_bytes;
    for c in published().into_iter().filter(|c| c["id"].as_str().unwrap().starts_with("Q-bpw-")) {
        let name = c["id"].as_str().unwrap().trim_start_matches("Q-bpw-");
        let t = GgmlType::ALL.into_iter().find(|t| t.name() == name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(t.bits_per_weight().get(), c["value"].as_f64().unwrap(), "{name}");
        assert_eq!(
            t.block(),
            (c["setting"]["block_elements"].as_u64().unwrap(), c["setting"]["block_bytes"].as_u64().unwrap())
        );
    }
    let a = headroom_core::catalog::model("llama-3.1-8b").unwrap().architecture().unwrap();
    let mut checked = 0;
    for c in published()
        .into_iter()
        .filter(|c| c["id"].as_str().unwrap().starts_with("Q-l31-") && c["unit"] == "GiB file size")
    {
        let quant = c["setting"]["quant"].as_str().unwrap();
        let f = WeightFormat::parse(if quant == "F16" { "gguf-f16" } else { quant }).unwrap();
        let bytes = weight_bytes(&a, f).unwrap().total().get();
        let gib = bytes as f64 / (1u64 << 30) as f64;
        within(gib, c["value"].as_f64().unwrap(), 0.02, &format!("{} file size", c["id"]));
        within(
            bytes as f64 * 8.0 / 8_030_261_248.0,
            c["check"]["effective_bpw"].as_f64().unwrap(),
            0.02,
            &format!("{} bpw", c["id"]),
        );
        checked += 1;
    }
    assert_eq!(checked, 13);
    // Meta-Llama-3-8B Q4_K_M (same shapes): 4.58 GiB.
    let q4 = weight_bytes(&a, WeightFormat::parse("q4_k_m").unwrap()).unwrap().total().get();
    within(
        q4 as f64 / (1u64 << 30) as f64,
        case("Q-l3-8b-q4km")["value"].as_f64().unwrap(),
        0.02,
        "Q-l3-8b-q4km",
    );
}

/// llama.cpp's disk table for the larger Llama 3.1 models (Q4_K_M, decimal GB) and OpenAI's
/// gpt-oss-120b checkpoint (MXFP4 experts, BF16 rest).
#[test]
fn published_disk_sizes_of_larger_models() {
    use headroom_core::precision::WeightFormat;
    use headroom_core::tensors::weight_bytes;
    let q4 = WeightFormat::parse("q4_k_m").unwrap();
    let gb = |id: &str| {
        let a = headroom_core::catalog::model(id).unwrap().architecture().unwrap();
        weight_bytes(&a, q4).unwrap().total().get() as f64 / 1e9
    };
    within(gb("llama-3.1-8b"), case("Q-l31-disk-8B")["value"].as_f64().unwrap(), 0.02, "Q-l31-disk-8B");
    within(gb("llama-3.1-70b"), case("Q-l31-disk-70B")["value"].as_f64().unwrap(), 0.02, "Q-l31-disk-70B");
    // Ours is 243.06 GB, 2.4% under the table. Recomputing llama.cpp's current rules by hand (Q6_K
    // for the output and for attn_v and ffn_down in 62 of 126 layers, Q4_K elsewhere) gives the
    // same 243.05 GB; the table's own "original" 1625.1 GB implies 406.3 B parameters where the
    // model has 405.85 B, so the table was not made with today's tensors. Checked within 3%.
    within(gb("llama-3.1-405b"), case("Q-l31-disk-405B")["value"].as_f64().unwrap(), 0.03, "Q-l31-disk-405B");

    let a = headroom_core::catalog::model("gpt-oss-120b").unwrap().architecture().unwrap();
    let f = headroom_core::catalog::model("gpt-oss-120b").unwrap().import().unwrap().format.unwrap();
    let gib = weight_bytes(&a, f).unwrap().total().get() as f64 / (1u64 << 30) as f64;
    within(gib, case("Q-gptoss-120b")["value"].as_f64().unwrap(), 0.01, "Q-gptoss-120b");
}

/// Catalog models whose total parameter count is published reproduce it exactly.
#[test]
fn catalog_totals_match_published_counts() {
    let mut checked = 0;
    for line in headroom_tests::fixture_lines("catalog-params.tsv") {
        let mut cols = line.split('\t');
        let (id, expected) = (cols.next().unwrap(), cols.next().unwrap().parse::<u64>().unwrap());
        let a = headroom_core::catalog::model(id).unwrap().architecture().unwrap();
        assert_eq!(a.param_breakdown().unwrap().total(), expected, "{id}");
        checked += 1;
    }
    assert!(checked >= 3);
}

/// The llama.cpp logs behind K04 and K05 also give the model and compute buffers: weights on the
/// GPU (all but the input embeddings), the embeddings on the CPU, and the compute buffer without
/// flash attention. K05's Ollama runner shares one 8,192-cell cache among its 4 sequences (a
/// unified cache, the default of llama.cpp builds of that time). K04's log is a 2023 CUDA build
/// whose graph had no output-row selection and fewer live hidden states: today's graph (checked
/// node for node against the real llama.cpp in `tests/llama-cpp/`) is 15% larger there, and the
/// test holds it to that.
#[test]
fn llama_cpp_buffers_match_its_logs() {
    use headroom_core::estimate::{TermKind, estimate};
    use headroom_core::precision::WeightFormat;
    use headroom_core::scenario::Scenario;
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    for (model, ctx, batch, gpu_mib, cpu_mib, compute_mib, tolerance) in [
        ("llama-2-7b", 2048, 1, 3820.94, 70.31, 164.01, 0.15),
        ("llama-3.1-8b", 2048, 4, 4403.49, 281.81, 560.0, 0.025),
    ] {
        let mut s = Scenario::catalog(model);
        s.weights = Some(WeightFormat::parse("q4_k_m").unwrap());
        s.context = ctx;
        s.batch = batch;
        s.flash_attention = false;
        s.llama.unified = batch > 1;
        let e = estimate(&s).unwrap();
        within(
            mib(e.memory.get(TermKind::Weights).get()),
            gpu_mib,
            0.005,
            &format!("{model} CUDA0 model buffer"),
        );
        within(
            mib(e.host.get(TermKind::Weights).get()),
            cpu_mib,
            0.005,
            &format!("{model} CPU model buffer"),
        );
        within(
            mib(e.memory.get(TermKind::Activations).get()),
            compute_mib,
            tolerance,
            &format!("{model} compute buffer"),
        );
    }
}

/// Catalog models announced in round numbers land within their stated tolerance of them.
#[test]
fn catalog_totals_match_their_announced_sizes() {
    let mut checked = 0;
    for line in headroom_tests::fixture_lines("catalog-nominal.tsv") {
        let cols: Vec<&str> = line.split('\t').collect();
        let (id, total, active, tol) = (
            cols[0],
            cols[1].parse::<f64>().unwrap(),
            cols[2].parse::<f64>().unwrap(),
            cols[3].parse::<f64>().unwrap(),
        );
        let a = headroom_core::catalog::model(id).unwrap().architecture().unwrap();
        within(a.params_total().unwrap().get() as f64, total, tol, &format!("{id} total"));
        if active > 0.0 {
            within(a.params_active().unwrap().get() as f64, active, tol, &format!("{id} active"));
        }
        checked += 1;
    }
    assert!(checked >= 10);
}
