//! What runs where: each device's formats, and the scenarios its hardware refuses, each with the
//! nearest thing that runs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use headroom_core::catalog;
use headroom_core::fit::{Verdict, fit};
use headroom_core::hardware::{formats, support};
use headroom_core::inference::Runtime;
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::Scenario;
use headroom_core::text::{Lang, MsgId};
use headroom_core::training::{Mode, TrainPrecision};

/// Every catalog device states the formats it runs; every NVIDIA GPU its compute capability.
#[test]
fn every_device_states_what_it_runs() {
    for d in catalog::devices() {
        let f = formats(d);
        assert!(f.contains(&"fp16") && f.contains(&"gguf"), "{}", d.id);
        if d.vendor == "NVIDIA" && d.kind != catalog::device::DeviceKind::Cpu {
            assert!(d.compute_capability >= 70, "{} states no compute capability", d.id);
        } else {
            assert_eq!(d.compute_capability, 0, "{}", d.id);
        }
        let s = support(d);
        assert!(!s.fp8 || s.low_bit_weights, "{}: FP8 tensor cores run FP8 weights", d.id);
    }
    let t4 = catalog::device("t4").unwrap();
    assert!(!formats(t4).contains(&"bf16") && !formats(t4).contains(&"fp8"));
    let h100 = catalog::device("h100-sxm").unwrap();
    assert!(support(h100).fp8 && !support(h100).fp4);
    assert!(support(catalog::device("b200").unwrap()).fp4);
    assert!(formats(catalog::device("m3-max-128gb").unwrap()).contains(&"mlx"));
}

fn advice_ids(s: &Scenario, device: &str) -> (Verdict, Vec<MsgId>, String) {
    let f = fit(s, catalog::device(device).unwrap()).unwrap();
    let text = f.advice.iter().map(|m| m.render(Lang::En)).collect::<Vec<_>>().join(" | ");
    (f.verdict, f.advice.iter().map(|m| m.id).collect(), text)
}

#[test]
fn bf16_on_a_t4_is_refused_for_vllm_with_fp16_named() {
    let s = Scenario { runtime: Some(Runtime::Vllm), context: 4096, ..Scenario::catalog("qwen2.5-3b") };
    let (v, ids, text) = advice_ids(&s, "t4");
    assert_eq!(v, Verdict::No);
    assert!(ids.contains(&MsgId::AdviceNoBf16), "{text}");
    assert!(text.contains("--weights fp16"), "{text}");
    let fp16 = Scenario { weights: Some(WeightFormat::F16), ..s.clone() };
    assert_eq!(advice_ids(&fp16, "t4").0, Verdict::Fits);
    // Ampere has BF16.
    assert_eq!(advice_ids(&s, "a10g").0, Verdict::Fits);
    // Pure BF16 training on a V100: refused too.
    let train = Scenario {
        mode: Mode::Full,
        precision: TrainPrecision::PureBf16,
        ..Scenario::catalog("smollm2-135m")
    };
    assert!(advice_ids(&train, "v100-sxm2-16gb").1.contains(&MsgId::AdviceNoBf16));
}

#[test]
fn qlora_on_a_mac_is_refused_with_mlx_named() {
    let s = Scenario { mode: Mode::Qlora, ..Scenario::catalog("llama-3.2-1b") };
    let (v, ids, text) = advice_ids(&s, "m3-max-128gb");
    assert_eq!(v, Verdict::No);
    assert!(ids.contains(&MsgId::AdviceBnbNoMetal) && text.contains("mlx_lm.lora"), "{text}");
    // The same run fits an NVIDIA card.
    assert_eq!(advice_ids(&s, "rtx-4090").0, Verdict::Fits);
}

#[test]
fn fp8_needs_ampere_and_runs_weight_only_before_ada() {
    let s = Scenario {
        weights: Some(WeightFormat::Fp8),
        runtime: Some(Runtime::Vllm),
        ..Scenario::catalog("qwen3-8b")
    };
    let (v, ids, _) = advice_ids(&s, "v100-sxm-32gb");
    assert_eq!(v, Verdict::No);
    assert!(ids.contains(&MsgId::AdviceNoLowBitKernels));
    let (v, ids, _) = advice_ids(&s, "a100-sxm-80gb");
    assert_eq!(v, Verdict::Fits);
    assert!(ids.contains(&MsgId::NoteWeightOnlyLowBit));
    let (v, ids, _) = advice_ids(&s, "h100-sxm");
    assert_eq!(v, Verdict::Fits);
    assert!(!ids.contains(&MsgId::NoteWeightOnlyLowBit));
}

/// Your own GPU, of no stated vendor or generation, is taken as a current NVIDIA one.
#[test]
fn my_own_gpu_runs_everything_a_current_card_runs() {
    use headroom_core::hardware::{DeviceChoice, MyMachine};
    let d = headroom_core::fit::device_of(&DeviceChoice::Mine(MyMachine {
        vram_gib: 24.0,
        ram_gib: 64.0,
        unified: false,
        bandwidth_gbs: 0.0,
        tflops: 0.0,
    }))
    .unwrap();
    let s = support(&d);
    assert!(s.cuda && s.bf16 && s.low_bit_weights);
    let q = Scenario { mode: Mode::Qlora, ..Scenario::catalog("llama-3.2-1b") };
    assert_eq!(fit(&q, &d).unwrap().verdict, Verdict::Fits);
}

/// Free rather than total: a reserve lowers what the device gives, by its default or by hand; one
/// larger than the card is refused with a message naming the setting.
#[test]
fn a_reserve_lowers_the_capacity_and_an_impossible_one_is_refused() {
    use headroom_core::hardware::{Reserve, default_reserve};
    let d = catalog::device("rtx-4090").unwrap();
    let s = Scenario { weights: WeightFormat::parse("q4_k_m").ok(), ..Scenario::catalog("llama-3.1-8b") };
    let none = fit(&s, d).unwrap();
    let auto = fit(&Scenario { reserve: Reserve::Auto, ..s.clone() }, d).unwrap();
    assert_eq!(none.capacity.get() - auto.capacity.get(), default_reserve(d).get());
    assert_eq!(default_reserve(d).get(), 512 << 20);
    assert_eq!(default_reserve(catalog::device("h100-sxm").unwrap()).get(), 0);
    assert_eq!(default_reserve(catalog::device("m3-max-128gb").unwrap()).get(), 4 << 30);
    assert!(auto.advice.iter().any(|m| m.id == MsgId::NoteReserve));
    let huge = Scenario {
        reserve: Reserve::Mib(30 * 1024),
        device: Some(headroom_core::hardware::DeviceChoice::Catalog("rtx-4090".into())),
        ..s.clone()
    };
    let err = headroom_core::fit::estimate_with_device(&huge).unwrap_err();
    assert!(format!("{err}").contains("reserve"), "{err}");
    assert_eq!(fit(&huge, d).unwrap().verdict, Verdict::No);
    assert!(Reserve::parse("lots").is_err() && Reserve::parse("-1").is_err());
    assert_eq!(Reserve::parse("1.5").unwrap(), Reserve::Mib(1536));
}

proptest::proptest! {
    /// A reserve never gives a device more room, nor a better verdict.
    #[test]
    fn a_reserve_never_increases_capacity(mib in 0u64..(64 * 1024), i in 0usize..200) {
        let devices = catalog::devices();
        let d = &devices[i % devices.len()];
        let s = Scenario { weights: WeightFormat::parse("q4_k_m").ok(), ..Scenario::catalog("qwen3-8b") };
        let a = fit(&s, d).unwrap();
        let b = fit(&Scenario { reserve: headroom_core::hardware::Reserve::Mib(mib.max(1)), ..s }, d).unwrap();
        proptest::prop_assert!(b.verdict >= a.verdict);
        // (A worse verdict may count another memory: system RAM for the CPU.)
        if a.verdict == b.verdict {
            proptest::prop_assert!(b.capacity <= a.capacity);
        }
    }
}

/// A Mac fit that leaves macOS less than its working reserve is a warning, not a plain yes.
#[test]
fn a_mac_fit_that_starves_macos_says_so() {
    let mac = catalog::device("m3-max-64gb").unwrap();
    let at = |limit: Option<f64>| {
        fit(
            &Scenario {
                weights: WeightFormat::parse("q6_k").ok(),
                runtime: Some(Runtime::LlamaCpp),
                context: 24_576,
                mac_gpu_fraction: limit,
                ..Scenario::catalog("llama-3.3-70b")
            },
            mac,
        )
        .unwrap()
    };
    // The whole memory for the GPU: it fits, leaving macOS under its 4 GiB.
    let raised = at(Some(1.0));
    assert_eq!(raised.verdict, Verdict::Fits);
    assert!(raised.advice.iter().any(|m| m.id == MsgId::AdviceMacReserve), "{:?}", raised.advice);
    // macOS's own limit (0.75 of 64 GB) keeps its share: this model does not fit there at all.
    let default = at(None);
    assert!(!default.advice.iter().any(|m| m.id == MsgId::AdviceMacReserve));
}

/// Llama 3.2 Vision's cross-attention layers: transformers runs them (the default runtime for
/// such a config), vLLM (since 0.10.2) and llama.cpp do not — a clear refusal naming the runtime
/// and the way out. Its cache: the 80 self-attention layers per token, the 20 cross-attention
/// layers one image's 6,432 positions (4 tiles of 1,601, padded to 1,608) whatever the context.
#[test]
fn cross_attention_runs_in_transformers_only() {
    use headroom_core::estimate::{TermKind, estimate};
    use headroom_core::import::hf;
    use headroom_core::precision::KvDtype;
    use headroom_core::scenario::ModelSource;
    let text = headroom_tests::read_fixture("configs/llama-3.2-90b-vision-instruct.json");
    let m = hf::parse_config(text.as_bytes()).unwrap();
    let a = m.architecture.clone();
    let s = Scenario {
        model: ModelSource::Custom(Box::new(m.into_custom("llama-3.2-90b-vision".into()))),
        context: 4096,
        kv: KvDtype::F16,
        ..Scenario::default()
    };
    let e = estimate(&s).unwrap();
    let kv = e.memory.term(TermKind::KvCache).unwrap().bytes.get();
    let per_layer_token = 2 * 8 * 128 * 2;
    assert_eq!(kv, 80 * 4096 * per_layer_token + 20 * 6432 * per_layer_token);
    assert_eq!(headroom_core::inference::kv_bytes_per_token(&a, KvDtype::F16), 80 * per_layer_token);
    // Twice the context: only the self-attention part doubles.
    let long = estimate(&Scenario { context: 8192, ..s.clone() }).unwrap();
    assert_eq!(long.memory.term(TermKind::KvCache).unwrap().bytes.get() - kv, 80 * 4096 * per_layer_token);
    // Every device is judged under transformers (no MLX on Macs, no CPU back end), and the command
    // loads the image-text class, encoder included.
    let all = headroom_core::fit::fit_all(&s).unwrap();
    assert!(all.iter().all(|f| f.runtime == Runtime::Transformers));
    assert!(all.iter().any(|f| f.verdict != Verdict::No));
    let commands = headroom_core::flags::commands(&s, &e, None);
    assert!(commands.iter().any(|c| c.contains("AutoModelForImageTextToText")), "{commands:?}");
    for r in [Runtime::Vllm, Runtime::LlamaCpp, Runtime::Sglang] {
        let err = estimate(&Scenario { runtime: Some(r), ..s.clone() }).unwrap_err().to_string();
        assert!(err.contains("cross-attention") && err.contains("transformers"), "{err}");
    }
}

/// A runtime whose own list of models lacks the checkpoint's class refuses it on every device,
/// says so beside the numbers, and writes no command; the runtimes that list it still fit.
#[test]
fn a_runtime_that_cannot_load_the_model_fits_nowhere() {
    use headroom_core::estimate::estimate;
    use headroom_core::flags::commands;
    // OPT: vLLM and SGLang implement it; llama.cpp's converter has no class for it.
    let llama = Scenario { runtime: Some(Runtime::LlamaCpp), ..Scenario::catalog("opt-1.3b") };
    for device in ["rtx-4090", "m3-max-128gb", "h100-sxm"] {
        let (v, ids, text) = advice_ids(&llama, device);
        assert_eq!(v, Verdict::No, "{device}");
        assert!(ids.contains(&MsgId::AdviceLlamaCppNoConverter), "{device}: {text}");
        assert!(text.contains("OPTForCausalLM"), "{text}");
    }
    let e = estimate(&llama).unwrap();
    assert!(e.warnings.iter().any(|m| m.id == MsgId::AdviceLlamaCppNoConverter));
    assert!(commands(&llama, &e, None).is_empty(), "no llama-server line for a model it cannot load");
    let vllm = Scenario { runtime: Some(Runtime::Vllm), ..Scenario::catalog("opt-1.3b") };
    assert_eq!(advice_ids(&vllm, "rtx-4090").0, Verdict::Fits);
    let e = estimate(&vllm).unwrap();
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert!(commands(&vllm, &e, None)[0].starts_with("vllm serve facebook/opt-1.3b"));
    // MPT: vLLM ran it until 0.28.0; the current release refuses it, a pinned 0.28 does not.
    let mpt = Scenario { runtime: Some(Runtime::Vllm), ..Scenario::catalog("mpt-30b") };
    let (v, ids, text) = advice_ids(&mpt, "h200");
    assert_eq!(v, Verdict::No);
    assert!(ids.contains(&MsgId::AdviceVllmDropped) && text.contains("0.28.0"), "{text}");
    let mut pinned = mpt.clone();
    pinned.vllm.version = headroom_core::vllm::VllmVersion::parse("0.28").unwrap();
    assert!(!advice_ids(&pinned, "h200").1.contains(&MsgId::AdviceVllmDropped));
    // llama.cpp converts MPT, mlx-lm has no model for it.
    assert!(
        !advice_ids(&Scenario { runtime: Some(Runtime::LlamaCpp), ..mpt.clone() }, "h200")
            .1
            .contains(&MsgId::AdviceLlamaCppNoConverter)
    );
    let mlx = Scenario { runtime: Some(Runtime::Mlx), ..mpt };
    let (v, ids, _) = advice_ids(&mlx, "m3-max-128gb");
    assert_eq!(v, Verdict::No);
    assert!(ids.contains(&MsgId::AdviceMlxNoModel));
    // Training is transformers' (or its frameworks'): no runtime list applies.
    let lora = Scenario { mode: Mode::Lora, ..Scenario::catalog("opt-1.3b") };
    assert!(!advice_ids(&lora, "rtx-4090").1.iter().any(|id| matches!(id, MsgId::AdviceLlamaCppNoConverter)));
}

/// Every catalog model carries the class and model type runtimes pick it by, and at least one
/// runtime's list has its class (a model no runtime implements would be a catalog error).
#[test]
fn every_catalog_model_names_what_runtimes_load_it_by() {
    use headroom_core::loads::{Loads, loads};
    for m in catalog::models() {
        let a = m.architecture().unwrap();
        assert!(!a.checkpoint.class.is_empty() && !a.checkpoint.model_type.is_empty(), "{}", m.id);
        let current = headroom_core::vllm::VllmVersion::CURRENT;
        let somewhere = [Runtime::LlamaCpp, Runtime::Vllm, Runtime::Sglang]
            .into_iter()
            .any(|r| loads(r, &a.checkpoint, current) == Loads::Yes);
        assert!(somewhere, "{} ({}): no runtime lists it", m.id, a.checkpoint.class);
    }
}

/// llama.cpp has no FP8, AWQ, GPTQ, NF4 or integer weight type: such weights under llama.cpp are
/// a warning and no command (the GGUF would be invented); NVFP4 has its own llama.cpp type.
#[test]
fn weights_llama_cpp_has_no_type_for_are_a_warning_and_no_command() {
    use headroom_core::estimate::estimate;
    use headroom_core::flags::commands;
    let with = |w: &str| Scenario {
        runtime: Some(Runtime::LlamaCpp),
        weights: Some(WeightFormat::parse(w).unwrap()),
        ..Scenario::catalog("llama-3.1-8b")
    };
    for w in ["fp8", "awq", "gptq", "nf4", "int8"] {
        let s = with(w);
        let e = estimate(&s).unwrap();
        let warn = e.warnings.iter().find(|m| m.id == MsgId::NoteNeedsGguf);
        assert!(warn.is_some_and(|m| m.render(Lang::En).contains("--weights q8_0")), "{w}: {:?}", e.warnings);
        assert!(commands(&s, &e, None).is_empty(), "{w}: no invented GGUF file");
    }
    let s = with("nvfp4");
    let e = estimate(&s).unwrap();
    assert!(e.warnings.is_empty() && e.notes.iter().any(|m| m.id == MsgId::NoteLlamaCppNvfp4));
    assert!(commands(&s, &e, None)[0].starts_with("llama-server"));
    let s = with("q8_0");
    let e = estimate(&s).unwrap();
    assert!(e.warnings.is_empty() && !commands(&s, &e, None).is_empty());
}

/// With no runtime named, a device runs the model with one that loads it: a Mac falls back from
/// mlx-lm to llama.cpp when mlx-lm has no model for it, and says no only when neither loads it.
#[test]
fn the_usual_runtime_gives_way_to_one_that_loads_the_model() {
    let mpt = Scenario::catalog("mpt-30b");
    let f = fit(&mpt, catalog::device("m3-max-128gb").unwrap()).unwrap();
    assert_eq!((f.runtime, f.verdict), (Runtime::LlamaCpp, Verdict::Fits));
    // A GPU: transformers, as the format says (MPT's BF16).
    assert_eq!(fit(&mpt, catalog::device("h100-sxm").unwrap()).unwrap().runtime, Runtime::Transformers);
    // OPT: neither mlx-lm nor llama.cpp loads it; the Mac says no, naming mlx-lm's lack.
    let (v, ids, _) = advice_ids(&Scenario::catalog("opt-1.3b"), "m3-max-128gb");
    assert_eq!(v, Verdict::No);
    assert!(ids.contains(&MsgId::AdviceMlxNoModel));
    // A runtime asked for is kept, refusal and all.
    let asked = Scenario { runtime: Some(Runtime::Mlx), ..mpt };
    assert_eq!(fit(&asked, catalog::device("m3-max-128gb").unwrap()).unwrap().verdict, Verdict::No);
}
