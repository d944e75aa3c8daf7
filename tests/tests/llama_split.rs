//! llama.cpp over several GPUs and under Ollama: the layer split as `load_tensors` assigns it,
//! `-ngl` counting the output layer first, `--tensor-split`, and Ollama's own defaults.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use headroom_core::breakdown::TermKind;
use headroom_core::command;
use headroom_core::estimate::estimate;
use headroom_core::fit::{Verdict, fit};
use headroom_core::hardware::DeviceChoice;
use headroom_core::inference::Runtime;
use headroom_core::llama_cpp::layer_split;
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::{Scenario, parse_tensor_split};
use headroom_core::{catalog, ollama};
use proptest::prelude::*;

/// llama.cpp's rule written out the way `llama-model.cpp` states it, to compare against.
fn reference(layers: u64, ngl: u64, split: &[f32]) -> Vec<Option<usize>> {
    let mut points: Vec<f32> = Vec::new();
    let mut sum = 0.0f32;
    for w in split {
        sum += *w;
        points.push(sum);
    }
    for p in &mut points {
        *p /= sum;
    }
    let start = (layers + 1).saturating_sub(ngl);
    let act = ngl.min(layers + 1);
    (0..=layers)
        .map(|il| {
            if il < start || il - start >= act {
                None
            } else {
                let x = (il - start) as f32 / act as f32;
                Some(points.iter().position(|p| *p > x).unwrap_or(split.len() - 1))
            }
        })
        .collect()
}

fn owners(layers: u64, shares: &[(u64, u64, bool)]) -> Vec<Option<usize>> {
    (0..=layers)
        .map(|il| {
            shares
                .iter()
                .position(|&(first, end, head)| if il == layers { head } else { (first..end).contains(&il) })
        })
        .collect()
}

#[test]
fn equal_cards_split_as_llama_cpp_does() {
    // 32 layers and the output layer over two cards: 17 on the first, 15 and the head on the
    // second (llama.cpp logs the same assignment); over four, 9 + 8 + 8 + 7 and the head.
    assert_eq!(layer_split(32, 33, 2, &[]), vec![(0, 17, false), (17, 32, true)]);
    assert_eq!(
        layer_split(32, 999, 4, &[]),
        vec![(0, 9, false), (9, 17, false), (17, 25, false), (25, 32, true)]
    );
    // `--tensor-split 3,1`: three quarters of the 33 to the first card.
    assert_eq!(layer_split(32, 33, 2, &[3000, 1000]), vec![(0, 25, false), (25, 32, true)]);
    // A share of 0 gives a card nothing.
    assert_eq!(layer_split(32, 33, 2, &[0, 1000]), vec![(0, 0, false), (0, 32, true)]);
    // `-ngl 10` of 32: the head and the last 9 layers, split between the cards.
    assert_eq!(layer_split(32, 10, 2, &[]), vec![(23, 28, false), (28, 32, true)]);
}

proptest! {
    #[test]
    fn the_split_is_llama_cpps_rule(layers in 1u64..200, ngl in 0u64..220, gpus in 1u64..9, w in proptest::collection::vec(0u32..5000, 8)) {
        let weights: Vec<u32> = w.into_iter().take(gpus as usize).collect();
        let split: Vec<f32> = if weights.iter().all(|x| *x == 0) {
            vec![1.0; gpus as usize]
        } else {
            weights.iter().map(|x| *x as f32).collect()
        };
        let shares = layer_split(layers, ngl, gpus, &weights);
        prop_assert_eq!(shares.len(), gpus as usize);
        prop_assert_eq!(owners(layers, &shares), reference(layers, ngl, &split));
    }
}

#[test]
fn every_gpu_holds_its_own_layers_and_the_busiest_is_the_estimate() {
    let s = Scenario {
        weights: WeightFormat::parse("q4_k_m").ok(),
        runtime: Some(Runtime::LlamaCpp),
        gpus: 3,
        context: 16384,
        ..Scenario::catalog("qwen3-8b")
    };
    let e = estimate(&s).unwrap();
    assert_eq!(e.llama_gpus.len(), 3);
    // Every layer's weights and cache are on exactly one card; the input embeddings stay in RAM.
    let weights: u64 = e.llama_gpus.iter().map(|g| g.weights.get()).sum();
    assert_eq!(weights + e.host.get(TermKind::Weights).get(), e.weights_total.get());
    let cache: u64 = e.llama_gpus.iter().map(|g| g.cache.get()).sum();
    assert_eq!(cache, e.kv_total.get());
    // Only the card with the output layer computes the logits.
    let head: Vec<bool> = e.llama_gpus.iter().map(|g| g.head).collect();
    assert_eq!(head, [false, false, true]);
    assert!(e.llama_gpus[2].compute > e.llama_gpus[0].compute);
    let busiest = e.llama_gpus.iter().map(|g| g.total).max().unwrap();
    assert_eq!(e.memory.total, busiest);
    // Giving the first card more of the layers makes it the busiest.
    let tilted = Scenario {
        llama: headroom_core::scenario::LlamaOptions {
            tensor_split: vec![4000, 1000, 1000],
            ..s.llama.clone()
        },
        ..s
    };
    let t = estimate(&tilted).unwrap();
    assert!(t.llama_gpus[0].end > e.llama_gpus[0].end);
    assert_eq!(t.memory.total, t.llama_gpus[0].total);
}

#[test]
fn ngl_offloads_the_output_layer_first() {
    let at = |ngl| {
        estimate(&Scenario {
            weights: WeightFormat::parse("q4_k_m").ok(),
            runtime: Some(Runtime::LlamaCpp),
            gpu_layers: Some(ngl),
            ..Scenario::catalog("llama-3.1-8b")
        })
        .unwrap()
    };
    let a = catalog::model("llama-3.1-8b").unwrap().architecture().unwrap();
    let p = headroom_core::tensors::weight_bytes(&a, WeightFormat::parse("q4_k_m").unwrap()).unwrap();
    let head = p.sum_where(|t| t.layer.is_none() && t.role != headroom_core::tensors::Role::TokenEmbd);
    // -ngl 1: the head (output norm and matrix) alone on the GPU, no layer, no KV there.
    let one = at(1);
    assert_eq!(one.memory.get(TermKind::Weights).get(), head);
    assert_eq!(one.memory.get(TermKind::KvCache).get(), 0);
    // -ngl 0: nothing; -ngl 33 (32 layers + output): everything.
    assert_eq!(at(0).memory.get(TermKind::Weights).get(), 0);
    let all = at(33);
    assert_eq!(
        all.host.get(TermKind::Weights).get(),
        p.sum_where(|t| t.role == headroom_core::tensors::Role::TokenEmbd)
    );
    // Each step adds one layer.
    assert!(at(17).memory.total < at(18).memory.total);
}

#[test]
fn tensor_split_reads_as_llama_cpp_takes_it() {
    assert_eq!(parse_tensor_split("3,1").unwrap(), vec![3000, 1000]);
    assert_eq!(parse_tensor_split("0.6, 0.4").unwrap(), vec![600, 400]);
    assert_eq!(parse_tensor_split("24/24/12").unwrap(), vec![24000, 24000, 12000]);
    // All zero is llama.cpp's default split.
    assert_eq!(parse_tensor_split("0,0").unwrap(), Vec::<u32>::new());
    for bad in ["", "3,x", "-1,2", "nan,1"] {
        let e = parse_tensor_split(bad).unwrap_err().to_string();
        assert!(e.contains("tensor-split"), "{bad}: {e}");
    }
    // A pasted command with -ts runs on as many GPUs as it names shares, and is written back.
    let c = command::parse("llama-server -m qwen3-8b-Q4_K_M.gguf -c 8192 -ts 2,1,1 -sm layer").unwrap();
    assert!(c.ignored.is_empty(), "{:?}", c.ignored);
    let mut s = Scenario::default();
    c.apply(&mut s);
    assert_eq!((s.gpus, s.llama.tensor_split.clone()), (3, vec![2000, 1000, 1000]));
    let e = estimate(&s).unwrap();
    let cmd = headroom_core::flags::commands(&s, &e, None).join(" ");
    assert!(cmd.contains("--tensor-split 2,1,1"), "{cmd}");
    // `-sm none` runs on one card.
    let c = command::parse("llama-server -m qwen3-8b-Q4_K_M.gguf -sm none").unwrap();
    let mut s = Scenario { gpus: 2, ..Scenario::default() };
    c.apply(&mut s);
    assert_eq!(s.gpus, 1);
}

#[test]
fn ollama_picks_its_context_by_vram() {
    let with = |device: &str| {
        let c = command::parse("ollama run qwen3:8b").unwrap();
        // (The model is the caller's, as on the page and in the CLI.)
        let mut s =
            Scenario { device: Some(DeviceChoice::Catalog(device.into())), ..Scenario::catalog("qwen3-8b") };
        let n = c.apply_with_model(&mut s);
        (n, s)
    };
    // 16 GB: 4k; 24 GB: 32k; 48 GB: 256k capped at the model's own longest context.
    assert_eq!(with("rtx-4060-ti-16gb").0, Some(4096));
    assert_eq!(with("rtx-4090").0, Some(32_768));
    let (n, s) = with("rtx-6000-ada");
    let longest = catalog::model("qwen3-8b").unwrap().architecture().unwrap().max_context;
    assert!(longest < 262_144);
    assert_eq!(n, Some(longest));
    // The library's default file is Q4_K_M.
    assert_eq!(s.weights, WeightFormat::parse("q4_k_m").ok());
    // OLLAMA_CONTEXT_LENGTH wins.
    let c = command::parse("OLLAMA_CONTEXT_LENGTH=8192 ollama run qwen3:8b").unwrap();
    let mut s = Scenario { device: Some(DeviceChoice::Catalog("rtx-4090".into())), ..Scenario::default() };
    assert_eq!(c.apply_with_model(&mut s), None);
    assert_eq!(s.context, 8192);
}

#[test]
fn ollama_uses_one_batch_for_b_and_ub() {
    let at = |context, num_batch| {
        let s = Scenario {
            weights: WeightFormat::parse("q4_k_m").ok(),
            runtime: Some(Runtime::Ollama),
            context,
            llama: headroom_core::scenario::LlamaOptions { num_batch, ..Default::default() },
            ..Scenario::catalog("qwen3-8b")
        };
        let l = estimate(&s).unwrap().llama_cpp.unwrap();
        (l.n_batch, l.n_ubatch)
    };
    assert_eq!(at(4096, None), (512, 512));
    assert_eq!(at(16384, None), (1024, 1024));
    assert_eq!(at(40_960, None), (2048, 2048));
    assert_eq!(at(40_960, Some(256)), (256, 256));
    // With a device whose memory it would fill, Ollama steps the batch down.
    let s = Scenario {
        weights: WeightFormat::parse("q8_0").ok(),
        runtime: Some(Runtime::Ollama),
        context: 40_960,
        device: Some(DeviceChoice::Catalog("rtx-4060-ti-16gb".into())),
        ..Scenario::catalog("qwen3-8b")
    };
    let (e, _) = headroom_core::fit::estimate_with_device(&s).unwrap();
    assert_eq!(e.llama_cpp.unwrap().n_ubatch, 512);
    assert_eq!(
        ollama::auto_batch(&ollama::BatchInput {
            context: 40_960,
            flash_attention_off: false,
            cuda_memory: None,
            predicted: None
        }),
        2048
    );
}

#[test]
fn ollama_keeps_a_gigabyte_free_where_llama_cpp_fills_the_card() {
    // A model that fits a 24 GB card with under 1 GiB to spare: llama.cpp with -ngl 999 fits,
    // Ollama (llama-server --fit) moves layers to the CPU.
    let rtx = catalog::device("rtx-4090").unwrap();
    let mut found = false;
    for context in (8192..=40_960).step_by(256) {
        let s = |runtime| Scenario {
            runtime: Some(runtime),
            context,
            weights: WeightFormat::parse("q4_k_m").ok(),
            llama: headroom_core::scenario::LlamaOptions { num_batch: Some(512), ..Default::default() },
            ..Scenario::catalog("qwen3-32b")
        };
        let (l, o) = (fit(&s(Runtime::LlamaCpp), rtx).unwrap(), fit(&s(Runtime::Ollama), rtx).unwrap());
        if l.verdict == Verdict::Fits && l.capacity.get() - l.need.get() < (1 << 30) {
            assert_eq!(o.verdict, Verdict::Offload, "context {context}");
            found = true;
            break;
        }
    }
    assert!(found, "no context leaves under 1 GiB free");
}

/// Catalog models of every kind llama.cpp runs: dense, sliding, MoE, MLA, hybrid.
const MODELS: &[&str] = &[
    "llama-3.1-8b",
    "qwen3-8b",
    "gemma-3-12b",
    "qwen3-30b-a3b",
    "gpt-oss-20b",
    "qwen3-next-80b-a3b",
    "deepseek-v3",
];

fn llama(id: &str, f: impl FnOnce(&mut Scenario)) -> headroom_core::estimate::Estimate {
    let mut s = Scenario {
        weights: WeightFormat::parse("q4_k_m").ok(),
        runtime: Some(Runtime::LlamaCpp),
        context: 8192,
        ..Scenario::catalog(id)
    };
    f(&mut s);
    estimate(&s).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn more_gpu_layers_never_less_vram(m in 0usize..MODELS.len(), a in 0u64..100, b in 0u64..100) {
        let (lo, hi) = (a.min(b), a.max(b));
        let x = llama(MODELS[m], |s| s.gpu_layers = Some(lo));
        let y = llama(MODELS[m], |s| s.gpu_layers = Some(hi));
        prop_assert!(x.memory.total <= y.memory.total, "{} -ngl {lo} vs {hi}", MODELS[m]);
        prop_assert!(x.host.total >= y.host.total, "{} host -ngl {lo} vs {hi}", MODELS[m]);
    }

    #[test]
    fn a_larger_micro_batch_never_a_smaller_compute_buffer(m in 0usize..MODELS.len(), a in 1u64..2048, b in 1u64..2048, fa in any::<bool>()) {
        let (lo, hi) = (a.min(b), a.max(b));
        let at = |ub| llama(MODELS[m], |s| {
            s.llama.ubatch = ub;
            s.flash_attention = fa;
        }).llama_cpp.unwrap().compute_bytes;
        prop_assert!(at(lo) <= at(hi), "{} -ub {lo} vs {hi}", MODELS[m]);
    }

    #[test]
    fn more_experts_in_ram_never_more_vram(m in 3usize..MODELS.len(), a in 0u64..64, b in 0u64..64) {
        let (lo, hi) = (a.min(b), a.max(b));
        let x = llama(MODELS[m], |s| s.llama.cpu_moe = Some(lo));
        let y = llama(MODELS[m], |s| s.llama.cpu_moe = Some(hi));
        prop_assert!(y.memory.total <= x.memory.total, "{} --n-cpu-moe {lo} vs {hi}", MODELS[m]);
    }

    #[test]
    fn a_larger_share_never_fewer_layers(layers in 1u64..128, gpus in 2u64..6, w in proptest::collection::vec(1u32..4000, 6), extra in 1u32..4000, which in 0usize..6) {
        let w: Vec<u32> = w.into_iter().take(gpus as usize).collect();
        let g = which % w.len();
        let mut more = w.clone();
        more[g] += extra;
        let count = |sh: &[(u64, u64, bool)]| sh[g].1 - sh[g].0 + u64::from(sh[g].2);
        prop_assert!(count(&layer_split(layers, 999, gpus, &more)) >= count(&layer_split(layers, 999, gpus, &w)));
    }
}

#[test]
fn different_cards_share_the_layers_by_their_memory_and_each_is_checked_against_itself() {
    let s = Scenario {
        weights: WeightFormat::parse("q4_k_m").ok(),
        runtime: Some(Runtime::LlamaCpp),
        context: 32768,
        gpus: 3,
        device: Some(DeviceChoice::Catalog("rtx-4090".into())),
        llama: headroom_core::scenario::LlamaOptions {
            with_gpus: vec!["rtx-3090".into(), "rtx-3060-12gb".into()],
            ..Default::default()
        },
        ..Scenario::catalog("qwen3-32b")
    };
    s.validate().unwrap();
    let e = estimate(&s).unwrap();
    // 24 + 24 + 12 GiB: 65 layer slots split 2 : 2 : 1, as llama.cpp splits by free memory.
    let mib: Vec<u32> = ["rtx-4090", "rtx-3090", "rtx-3060-12gb"]
        .iter()
        .map(|id| catalog::device(id).unwrap().memory_mib as u32)
        .collect();
    let want = layer_split(64, 65, 3, &mib);
    let got: Vec<(u64, u64, bool)> = e.llama_gpus.iter().map(|g| (g.first, g.end, g.head)).collect();
    assert_eq!(got, want);
    let rtx4090 = catalog::device("rtx-4090").unwrap();
    let f = fit(&s, rtx4090).unwrap();
    assert_eq!(f.verdict, Verdict::Fits);
    // The card with the least room speaks for the set: here the 12 GB one.
    assert!(f.capacity.get() < 13 << 30, "{:?}", f.capacity);
    assert!(f.advice.iter().any(|m| m.id == headroom_core::text::MsgId::NoteTightestCard));
    // Cost: the three cards' own prices.
    let price: f64 = ["rtx-4090", "rtx-3090", "rtx-3060-12gb"]
        .iter()
        .map(|id| catalog::device(id).unwrap().price_usd)
        .sum();
    assert!((f.cost.purchase_usd.unwrap() - price).abs() < 0.01);
    // Too much on the small card: it is named, and fewer layers on the GPUs make it fit.
    let heavy = Scenario {
        llama: headroom_core::scenario::LlamaOptions {
            tensor_split: vec![1000, 1000, 3000],
            ..s.llama.clone()
        },
        ..s.clone()
    };
    let f = fit(&heavy, rtx4090).unwrap();
    assert!(f.advice.iter().any(|m| m.id == headroom_core::text::MsgId::AdviceCardRunsOut));
    assert_ne!(f.verdict, Verdict::Fits);
    // The link keeps the cards.
    let d = headroom_core::share::decode(&headroom_core::share::encode(&s));
    assert!(d.ignored.is_empty(), "{:?}", d.ignored);
    assert_eq!(d.scenario.llama.with_gpus, s.llama.with_gpus);
    // A Mac or an unknown id is not a card to add: refused.
    for bad in ["m3-max-128gb", "no-such-gpu"] {
        let b = Scenario {
            llama: headroom_core::scenario::LlamaOptions {
                with_gpus: vec![bad.into()],
                ..Default::default()
            },
            gpus: 2,
            ..s.clone()
        };
        assert!(b.validate().is_err(), "{bad}");
    }
    let wrong = Scenario { gpus: 2, ..s.clone() };
    assert!(wrong.validate().unwrap_err().to_string().contains("with-gpus"));
}

#[test]
fn cpu_repacking_is_counted_in_system_ram_with_every_byte_accounted() {
    use headroom_core::breakdown::TermKind as K;
    use headroom_core::llama_cpp::{CpuIsa, repacks};
    // Qwen2.5-0.5B (tied embeddings) in Q4_0: llama.cpp's x86 CPU backend repacks the Q4_0
    // matrices the CPU runs; a tied head whose type repacks becomes a repacked second copy
    // (both checked against the real llama.cpp in tests/llama-cpp).
    let at = |ngl: Option<u64>, runtime| {
        estimate(&Scenario {
            weights: WeightFormat::parse("q4_0").ok(),
            runtime: Some(runtime),
            gpu_layers: ngl,
            ..Scenario::catalog("qwen2.5-0.5b")
        })
        .unwrap()
    };
    let a = catalog::model("qwen2.5-0.5b").unwrap().architecture().unwrap();
    assert!(a.tie_word_embeddings);
    let p = headroom_core::tensors::weight_bytes(&a, WeightFormat::parse("q4_0").unwrap()).unwrap();
    let is_embd = |t: &headroom_core::tensors::Tensor| t.role == headroom_core::tensors::Role::TokenEmbd;
    let embd = p.sum_where(is_embd);
    let (embd_type, embd_rows) =
        p.tensors.iter().zip(&p.gguf_types).find(|(t, _)| is_embd(t)).map(|(t, ty)| (*ty, t.rows)).unwrap();
    let dup = if repacks(embd_type, embd_rows, CpuIsa::X86Avx2) { embd } else { 0 };
    let expected_repack: u64 = p
        .tensors
        .iter()
        .zip(&p.bytes)
        .zip(&p.gguf_types)
        .filter(|((t, _), ty)| !is_embd(t) && repacks(**ty, t.rows, CpuIsa::X86Avx2))
        .map(|((_, b), _)| *b)
        .sum::<u64>()
        + dup;
    let cpu = at(Some(0), Runtime::LlamaCpp);
    assert_eq!(
        cpu.weights_total.get(),
        p.total().get() + dup,
        "the file, and the head's copy when it repacks"
    );
    assert_eq!(cpu.host.get(K::Weights).get() + cpu.host.get(K::Repacked).get(), cpu.weights_total.get());
    let l = cpu.llama_cpp.unwrap();
    assert_eq!(l.repacked_bytes, expected_repack);
    assert!(l.repacked_bytes > 0, "Q4_0 layers repack");
    // On the GPU nothing of the layers is repacked.
    let gpu = at(None, Runtime::LlamaCpp);
    assert_eq!(gpu.llama_cpp.unwrap().repacked_bytes, 0);
    assert_eq!(gpu.host.get(K::Repacked).get(), 0);
    // The CPU runtime: the repack is the machine's own memory, at the top of the band.
    let c = at(None, Runtime::Cpu);
    let t = c.memory.terms.iter().find(|t| t.kind == K::Repacked).unwrap();
    assert_eq!((t.bytes.get(), t.high.get()), (dup, expected_repack));
    // Q8_0 does not repack on x86: nothing.
    let q8 = estimate(&Scenario {
        weights: WeightFormat::parse("q8_0").ok(),
        runtime: Some(Runtime::LlamaCpp),
        gpu_layers: Some(0),
        ..Scenario::catalog("qwen2.5-0.5b")
    })
    .unwrap();
    assert_eq!(q8.llama_cpp.unwrap().repacked_bytes, 0);
    // On a Mac's CPU (ARM) Q8_0 repacks.
    assert!(repacks(headroom_core::precision::GgmlType::Q8_0, 896, CpuIsa::ArmNeon));
    assert!(!repacks(headroom_core::precision::GgmlType::Q8_0, 896, CpuIsa::X86Avx2));
}
