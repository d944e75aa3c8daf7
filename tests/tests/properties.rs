//! Cross-crate properties of the estimate and the link codec.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::catalog;
use headroom_core::estimate::{TermKind, estimate};
use headroom_core::import::hf::parse_config;
use headroom_core::inference::Runtime;
use headroom_core::precision::{ALL_FORMATS, KvDtype, WeightFormat};
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::share;
use headroom_core::tensors::weight_bytes;
use headroom_core::units::Params;
use proptest::prelude::*;

fn format() -> impl Strategy<Value = WeightFormat> {
    proptest::sample::select(ALL_FORMATS.to_vec())
}

fn model() -> impl Strategy<Value = ModelSource> {
    let ids: Vec<&'static str> = catalog::models().iter().map(|m| m.id).collect();
    prop_oneof![
        proptest::sample::select(ids).prop_map(|id| ModelSource::Catalog(id.into())),
        (1u64..=2_000_000_000_000).prop_map(|p| ModelSource::Params(Params::new(p))),
    ]
}

fn inference_settings() -> impl Strategy<Value = Scenario> {
    (
        model(),
        proptest::option::of(format()),
        proptest::sample::select(KvDtype::ALL.to_vec()),
        1u64..=1 << 20,
        1u64..=64,
        proptest::option::of(proptest::sample::select(Runtime::ALL.to_vec())),
        1u64..=8,
        any::<bool>(),
        proptest::option::of(0u64..=100),
    )
        .prop_map(|(model, weights, kv, context, batch, runtime, gpus, flash_attention, gpu_layers)| {
            Scenario {
                model,
                weights,
                kv,
                context,
                batch,
                runtime,
                gpus,
                flash_attention,
                gpu_layers,
                ..Scenario::default()
            }
        })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    use headroom_core::training::{Checkpointing, LoraTargets, Mode, Offload, Optimizer, TrainPrecision};
    let targets = prop_oneof![
        Just(LoraTargets::AllLinear),
        Just(LoraTargets::parse("q,v").unwrap()),
        Just(LoraTargets::parse("q,k,v,o").unwrap()),
        Just(LoraTargets::parse("qkv").unwrap()),
    ];
    (
        inference_settings(),
        proptest::sample::select(Mode::ALL.to_vec()),
        proptest::sample::select(Optimizer::ALL.to_vec()),
        proptest::sample::select(TrainPrecision::ALL.to_vec()),
        1u64..=256,
        targets,
        proptest::sample::select(Checkpointing::ALL.to_vec()),
        0u8..=3,
        proptest::sample::select(vec![Offload::None, Offload::Optimizer, Offload::OptimizerAndParams]),
        1u64..=4,
        (1u64..=1 << 40, 1u64..=10, 1u64..=16, train_options()),
    )
        .prop_map(
            |(
                s,
                mode,
                optimizer,
                precision,
                lora_rank,
                lora_targets,
                checkpointing,
                zero,
                offload,
                tp,
                more,
            )| {
                Scenario {
                    mode,
                    optimizer,
                    precision,
                    lora_rank,
                    lora_targets,
                    checkpointing,
                    zero,
                    offload,
                    tp,
                    dataset_tokens: more.0,
                    epochs: more.1,
                    gpus_per_node: more.2,
                    train: more.3,
                    ..s
                }
            },
        )
}

/// The training framework's knobs, from a preset or at random.
fn train_options() -> impl Strategy<Value = headroom_core::training::TrainOptions> {
    use headroom_core::training::{Framework, LossKernel, TrainOptions};
    (
        proptest::sample::select(Framework::ALL.to_vec()),
        proptest::sample::select(LossKernel::ALL.to_vec()),
        proptest::collection::vec(any::<bool>(), 7),
        1u64..=64,
        (proptest::sample::select(headroom_core::training::Batching::ALL.to_vec()), 0u64..=8192, 1u64..=4),
    )
        .prop_map(|(framework, loss, b, grad_accum, (batching, mean_sample, ckpt_every))| TrainOptions {
            framework,
            loss,
            lora_dropout: b[0],
            adapters_fp32: b[1],
            kbit_upcast: b[2],
            grad_accum,
            optimizer_in_backward: b[3],
            activation_offload: b[4],
            compile: b[5],
            dora: b[6],
            cp: 1,
            device_map: false,
            reduce_bucket: if b[0] { 0 } else { 500_000_000 },
            overlap_comm: if b[1] { None } else { Some(b[2]) },
            fp8: b[3] && b[4],
            sequence_parallel: b[5] && b[6],
            ulysses: 1,
            batching,
            mean_sample,
            ckpt_every,
        })
}

/// A random `config.json` of a known family, sizes from tiny to absurd.
fn config() -> impl Strategy<Value = String> {
    let families = vec![
        "llama",
        "mistral",
        "mixtral",
        "qwen2",
        "qwen2_moe",
        "qwen3",
        "qwen3_moe",
        "gemma",
        "gemma2",
        "gemma3_text",
        "phi3",
        "deepseek_v2",
        "deepseek_v3",
        "gpt_oss",
        "gpt2",
        "gpt_neox",
        "falcon",
        "olmo2",
        "granite",
        "step5",
        "inkling2",
        "inkling2_loop",
        "dots3_note",
        "hrm_text",
        "ricursive",
        "k2_horizon",
        "param2moe",
        "alice_ai",
        "domyn_edge",
        "mimo_v2",
        "pangu_embedded",
        "moondream3",
        "mystery",
    ];
    let size = prop_oneof![1u64..=64, 64u64..=20_000, Just(u64::MAX), Just(1u64 << 40), Just(0u64)];
    (
        proptest::sample::select(families),
        size.clone(),
        size.clone(),
        1u64..=128,
        1u64..=64,
        size.clone(),
        proptest::option::of(1u64..=300),
        proptest::option::of(1u64..=8),
        proptest::option::of(0u64..=70_000),
        any::<bool>(),
    )
        .prop_map(|(family, hidden, inter, heads, layers, vocab, experts, k, window, tie)| {
            let mut s = format!(
                r#"{{"model_type": "{family}", "hidden_size": {hidden}, "intermediate_size": {inter},
                "num_attention_heads": {heads}, "num_key_value_heads": {kv}, "num_hidden_layers": {layers},
                "vocab_size": {vocab}, "tie_word_embeddings": {tie}, "moe_intermediate_size": {inter}"#,
                kv = heads.max(1) / 2 + heads % 2
            );
            if let Some(e) = experts {
                s.push_str(&format!(
                    r#", "num_experts": {e}, "num_local_experts": {e}, "n_routed_experts": {e}, "mova_num_experts": {e}"#
                ));
            }
            if let Some(k) = k {
                s.push_str(&format!(
                    r#", "num_experts_per_tok": {k}, "mova_num_experts_per_tok": {k}, "H_cycles": {k}, "L_cycles": {k}"#
                ));
            }
            if let Some(w) = window {
                s.push_str(&format!(r#", "sliding_window": {w}"#));
            }
            s.push('}');
            s
        })
}

fn total(s: &Scenario) -> Option<u64> {
    estimate(s).ok().map(|e| e.memory.total.get())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn links_round_trip(s in scenario()) {
        let d = share::decode(&share::encode(&s));
        prop_assert!(d.ignored.is_empty(), "{:?}", d.ignored);
        prop_assert_eq!(d.scenario, s);
    }

    #[test]
    fn decoding_any_text_never_panics(q in ".{0,300}") {
        let _ = share::decode(&q);
        let _ = share::decode_link(&q);
    }

    #[test]
    fn whole_links_round_trip(
        s in scenario(),
        pinned in proptest::collection::vec((scenario(), "[ -~éà\u{202f}]{0,50}"), 0..=4),
        units in 0usize..3,
        fr in any::<bool>(),
        dark in proptest::option::of(any::<bool>()),
        embed in any::<bool>(),
    ) {
        use headroom_core::share::{Link, Pinned, Theme};
        use headroom_core::text::{Lang, Units};
        let compare: Vec<Pinned> =
            pinned.into_iter().enumerate().map(|(i, (p, name))| Pinned::new(i, &name, p)).collect();
        for p in &compare {
            prop_assert!(!p.name.is_empty() && p.name.chars().count() <= share::MAX_PIN_NAME);
            prop_assert_eq!(p.name.trim(), p.name.as_str());
        }
        let link = Link {
            scenario: s,
            compare,
            units: Units::ALL[units],
            lang: Some(if fr { Lang::Fr } else { Lang::En }),
            theme: dark.map(|d| if d { Theme::Dark } else { Theme::Light }),
            embed,
            hf: None,
            hub: None,
        };
        let d = share::decode_link(&share::encode_link(&link));
        prop_assert!(d.ignored.is_empty(), "{:?}", d.ignored);
        prop_assert_eq!(d.link, link);
    }

    #[test]
    fn decoding_link_shaped_text_never_panics(
        pairs in proptest::collection::vec(("[a-z]{1,8}", "[ -~]{0,20}"), 0..12)
    ) {
        let q: String = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
        let d = share::decode(&q);
        // Whatever was understood re-encodes to a link that decodes to the same scenario.
        prop_assert_eq!(share::decode(&share::encode(&d.scenario)).scenario, d.scenario);
    }

    #[test]
    fn parts_sum_to_total(s in scenario()) {
        if let Ok(e) = estimate(&s) {
            for m in [&e.memory, &e.host] {
                let sum: u64 = m.terms.iter().map(|t| t.bytes.get()).sum();
                prop_assert_eq!(sum, m.total.get());
                prop_assert!(m.total_low <= m.total && m.total <= m.total_high);
                for t in &m.terms {
                    prop_assert!(t.low <= t.bytes && t.bytes <= t.high, "{:?}", t.kind);
                }
            }
        }
    }

    #[test]
    fn offload_moves_bytes_without_losing_any(s in inference_settings(), k in 0u64..=40) {
        let s = Scenario { runtime: Some(Runtime::LlamaCpp), gpus: 1, gpu_layers: Some(k), ..s };
        if let (Ok(e), ModelSource::Catalog(id)) = (estimate(&s), &s.model) {
            {
                // llama.cpp loads tied embeddings twice: in RAM as input, on the GPU as the head
                // (offloaded first: any -ngl of 1 or more).
                let a = catalog::model(id).unwrap().architecture().unwrap();
                let duplicate = if a.tie_word_embeddings && k >= 1 {
                    let p = weight_bytes(&a, e.format).unwrap();
                    p.sum_where(|t| t.role == headroom_core::tensors::Role::TokenEmbd)
                } else {
                    0
                };
                prop_assert_eq!(
                    e.memory.get(TermKind::Weights).get() + e.host.get(TermKind::Weights).get(),
                    e.weights_total.get() + duplicate
                );
                let kv = e.memory.get(TermKind::KvCache).get() + e.host.get(TermKind::KvCache).get();
                // Per-layer shares are rounded up, at most a byte each.
                prop_assert!(kv >= e.kv_total.get() && kv <= e.kv_total.get() + 2);
            }
        }
    }

    #[test]
    fn more_context_never_less_memory(s in inference_settings(), extra in 1u64..=100_000) {
        let mut longer = s.clone();
        longer.context = (s.context + extra).min(1 << 24);
        if let (Some(a), Some(b)) = (total(&s), total(&longer)) {
            prop_assert!(b >= a, "{} -> {}", a, b);
            let kv = |x: &Scenario| estimate(x).unwrap().memory.get(TermKind::KvCache);
            prop_assert!(kv(&longer) >= kv(&s));
        }
    }

    #[test]
    fn more_batch_never_less_memory(s in inference_settings(), extra in 1u64..=64) {
        let mut wider = s.clone();
        wider.batch = s.batch + extra;
        if let (Some(a), Some(b)) = (total(&s), total(&wider)) {
            prop_assert!(b >= a, "{} -> {}", a, b);
        }
    }

    #[test]
    fn any_config_is_read_or_refused_without_panic(text in config(), s in scenario()) {
        if let Ok(m) = parse_config(text.as_bytes()) {
            let custom = Scenario {
                model: ModelSource::Custom(Box::new(m.into_custom("random".into()))),
                ..s
            };
            let _ = estimate(&custom);
        }
    }

    #[test]
    fn arbitrary_bytes_as_a_config_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = parse_config(&bytes);
    }
}

/// Lower precision never costs more weight bytes, on every catalog model, along the chains of
/// formats that are ordered by definition.
#[test]
fn lower_precision_never_more_weight_bytes() {
    let chains: [&[&str]; 7] = [
        &["fp32", "bf16", "int8", "int4"],
        &["fp32", "gguf-f16", "q8_0", "q6_k", "q5_k_m", "q5_k_s", "q4_k_m", "q4_k_s"],
        // Q3_K_L keeps attn_output and ffn_down at Q5_K: on a small model it can outgrow Q4_K_S,
        // so the 3-bit mixes form their own chain.
        &["q3_k_l", "q3_k_m", "q3_k_s", "q2_k"],
        &["q8_0", "iq4_xs", "iq3_m", "iq3_xxs", "iq2_m", "iq2_xs", "iq2_xxs", "iq1_m", "iq1_s"],
        &["bf16", "gptq-8bit", "gptq-4bit", "awq-4bit"],
        &["bf16", "int8", "nf4-single", "nf4"],
        &["bf16", "fp8", "mxfp4"],
    ];
    for m in catalog::models() {
        let a = m.architecture().unwrap();
        for chain in chains {
            // With rows not a multiple of 256 (Qwen2.5-0.5B's 896), llama.cpp stores Q2_K and
            // Q3_K tensors as IQ4_NL, and Q2_K's higher-precision roles then outweigh Q3_K_S's;
            // likewise Q4_K falls back to Q5_0 and Q6_K to Q8_0 (Nemotron 3 Nano's 2688), so
            // Q4_K_M can outweigh Q5_K_S (Q5_1).
            if (chain.contains(&"q2_k") || chain.contains(&"q4_k_m")) && a.hidden_size % 256 != 0 {
                continue;
            }
            let mut last = u64::MAX;
            for id in chain {
                let b = weight_bytes(&a, WeightFormat::parse(id).unwrap()).unwrap().total().get();
                assert!(b <= last, "{}: {id} ({b}) is larger than the format before it ({last})", m.id);
                last = b;
            }
        }
    }
}

fn training() -> impl Strategy<Value = Scenario> {
    let ids: Vec<&'static str> = catalog::models().iter().map(|m| m.id).collect();
    (proptest::sample::select(ids), 1u64..=16_384, 1u64..=8, 2u64..=64, any::<bool>()).prop_map(
        |(id, context, batch, gpus, flash_attention)| Scenario {
            mode: headroom_core::training::Mode::Full,
            context,
            batch,
            gpus,
            flash_attention,
            ..Scenario::catalog(id)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn zero_stages_never_cost_more(s in training()) {
        let mut last = u64::MAX;
        for zero in 0..=3u8 {
            let t = estimate(&Scenario { zero, ..s.clone() }).unwrap().memory.total.get();
            prop_assert!(t <= last, "ZeRO-{} {} > {}", zero, t, last);
            last = t;
        }
    }

    #[test]
    fn checkpointing_never_costs_more(s in training()) {
        use headroom_core::training::Checkpointing;
        let mut last = u64::MAX;
        for c in [Checkpointing::None, Checkpointing::Selective, Checkpointing::Full] {
            let t = estimate(&Scenario { checkpointing: c, ..s.clone() }).unwrap().memory.total.get();
            prop_assert!(t <= last, "{:?}: {} > {}", c, t, last);
            last = t;
        }
    }

    /// Every knob that saves memory never increases the total, in every mode and for every
    /// framework's defaults.
    #[test]
    fn memory_saving_knobs_never_cost_more(
        s in training(),
        mode in proptest::sample::select(vec![
            headroom_core::training::Mode::Full,
            headroom_core::training::Mode::Lora,
            headroom_core::training::Mode::Qlora,
        ]),
        fw in proptest::sample::select(headroom_core::training::Framework::ALL.to_vec()),
    ) {
        use headroom_core::training::{Checkpointing, LossKernel};
        let mut base = Scenario { mode, gpus: 1, ..s };
        base.apply_framework(fw);
        let total = |s: &Scenario| estimate(s).unwrap().memory.total.get();
        let t0 = total(&base);
        let with = |f: &dyn Fn(&mut Scenario)| { let mut x = base.clone(); f(&mut x); total(&x) };
        let mut last = u64::MAX;
        for l in [LossKernel::Full, LossKernel::Chunked, LossKernel::Fused] {
            let t = with(&|x| x.train.loss = l);
            prop_assert!(t <= last, "loss {:?}: {} > {}", l, t, last);
            last = t;
        }
        let mut last = u64::MAX;
        for c in [Checkpointing::None, Checkpointing::Full, Checkpointing::Offloaded] {
            let t = with(&|x| x.checkpointing = c);
            prop_assert!(t <= last, "{:?}: {} > {}", c, t, last);
            last = t;
        }
        for (name, off, on) in [
            ("dropout", with(&|x| x.train.lora_dropout = false), with(&|x| x.train.lora_dropout = true)),
            ("fp32 adapters", with(&|x| x.train.adapters_fp32 = false), with(&|x| x.train.adapters_fp32 = true)),
            ("k-bit upcast", with(&|x| x.train.kbit_upcast = false), with(&|x| x.train.kbit_upcast = true)),
            ("optimizer in backward", with(&|x| x.train.optimizer_in_backward = true), with(&|x| x.train.optimizer_in_backward = false)),
            ("activation offload", with(&|x| x.train.activation_offload = true), with(&|x| x.train.activation_offload = false)),
            ("compile", with(&|x| x.train.compile = true), with(&|x| x.train.compile = false)),
            (
                "overlap_comm",
                with(&|x| { x.zero = x.zero.max(1); x.train.overlap_comm = Some(false) }),
                with(&|x| { x.zero = x.zero.max(1); x.train.overlap_comm = Some(true) }),
            ),
            (
                "reduce_bucket_size",
                with(&|x| { x.zero = x.zero.max(1); x.train.reduce_bucket = 1 << 20 }),
                with(&|x| { x.zero = x.zero.max(1); x.train.reduce_bucket = 1 << 29 }),
            ),
        ] {
            prop_assert!(off <= on, "{}: {} > {} (base {})", name, off, on, t0);
        }
        // Splitting over two GPUs, where the model allows it (heads that divide).
        let two = |f: &dyn Fn(&mut Scenario)| {
            let mut x = Scenario { gpus: 2, ..base.clone() };
            f(&mut x);
            estimate(&x).ok().map(|e| e.memory.total.get())
        };
        for (name, on, off) in [
            (
                "sequence parallel",
                two(&|x| { x.tp = 2; x.train.sequence_parallel = true }),
                two(&|x| { x.tp = 2; x.train.sequence_parallel = false }),
            ),
            ("ulysses", two(&|x| x.train.ulysses = 2), two(&|x| x.train.ulysses = 1)),
            ("context parallel", two(&|x| x.train.cp = 2), two(&|x| x.train.cp = 1)),
        ] {
            if let (Some(on), Some(off)) = (on, off) {
                prop_assert!(on <= off, "{}: {} > {}", name, on, off);
            }
        }
    }

    /// The seed's order, where the weights decide (one sequence of up to 2,048 tokens, flash
    /// attention, checkpointing, a model of 1B parameters or more). Beyond that it is not a law:
    /// LoRA's dropout copies and QLoRA's FP32 residual stream (peft's k-bit preparation) keep
    /// more activations than full fine-tuning does, as the measured steps show.
    #[test]
    fn qlora_below_lora_below_full(s in training()) {
        use headroom_core::training::{Checkpointing, Mode};
        let s = Scenario {
            gpus: 1,
            batch: 1,
            context: s.context.min(2048),
            flash_attention: true,
            checkpointing: Checkpointing::Full,
            ..s
        };
        if estimate(&s).unwrap().model.params_total.get() < 1_000_000_000 {
            return Ok(());
        }
        // A checkpoint already stored in 4 bits (a GPTQ or AWQ release) keeps its own base under
        // LoRA: the seed's order is about a 16-bit base.
        let lora_base = estimate(&Scenario { mode: Mode::Lora, ..s.clone() }).unwrap().format;
        if lora_base.flat_bits_per_weight().get() < 8.0 {
            return Ok(());
        }
        let full = estimate(&s).unwrap().memory.total.get();
        let lora = estimate(&Scenario { mode: Mode::Lora, ..s.clone() }).unwrap().memory.total.get();
        let qlora = estimate(&Scenario { mode: Mode::Qlora, ..s.clone() }).unwrap().memory.total.get();
        prop_assert!(qlora < lora && lora < full, "{} {} {}", qlora, lora, full);
    }
}

fn device_strategy() -> impl Strategy<Value = catalog::device::Device> {
    proptest::sample::select(catalog::devices().to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A training run's waiting on its link lies in its band, and a faster link never makes the
    /// run longer, whatever the ZeRO stage, offload and accumulation.
    #[test]
    fn a_faster_link_never_slows_training(
        s in training(),
        d in device_strategy(),
        zero in 0u8..=3,
        accum in 1u64..=8,
        offload in any::<bool>(),
        k in 1.0f64..16.0,
    ) {
        use headroom_core::hardware::Capability;
        use headroom_core::speed::training_time;
        let mut s = Scenario { zero, ..s };
        s.train.grad_accum = accum;
        if offload {
            s.offload = headroom_core::training::Offload::Optimizer;
        }
        let Ok(e) = estimate(&s) else { return Ok(()) };
        let cap = Capability::of(&d, Runtime::Transformers, None);
        let Some(a) = training_time(&e, &cap, s.gpus, 8) else { return Ok(()) };
        let (w, lo, hi) = a.waiting;
        prop_assert!(lo <= w * (1.0 + 1e-9) && w <= hi * (1.0 + 1e-9), "{:?}", a.waiting);
        prop_assert!(a.seconds.is_finite() && a.seconds >= w);
        prop_assert!(a.band.0 <= a.seconds && a.seconds <= a.band.1, "{:?} {}", a.band, a.seconds);
        let faster = Capability {
            link: catalog::device::Link { gbs: cap.link.gbs * k, ..cap.link },
            ..cap
        };
        let b = training_time(&e, &faster, s.gpus, 8).unwrap();
        prop_assert!(b.seconds <= a.seconds * (1.0 + 1e-9), "{} > {}", b.seconds, a.seconds);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// More memory or more bandwidth never gives a worse verdict, nor a slower speed at the same
    /// verdict.
    #[test]
    fn more_memory_or_bandwidth_never_worse(
        s in inference_settings(),
        d in device_strategy(),
        mem in 1.0f64..4.0,
        bw in 1.0f64..4.0,
    ) {
        use headroom_core::fit::fit;
        let s = Scenario { gpus: 1, ..s };
        let better = catalog::device::Device {
            memory_mib: (d.memory_mib as f64 * mem) as u64,
            bandwidth_gbs: d.bandwidth_gbs * bw,
            host_ram_gib: d.host_ram_gib * mem,
            ..d
        };
        // Ollama picks its batch (and so its buffers) by the memory it sees: more memory may be a
        // larger batch, a different runtime setting; its speed is not compared.
        let same_settings = s.runtime != Some(Runtime::Ollama);
        if let (Ok(a), Ok(b)) = (fit(&s, &d), fit(&s, &better)) {
            prop_assert!(b.verdict <= a.verdict, "{:?} -> {:?}", a.verdict, b.verdict);
            if let (true, true, Some(x), Some(y)) = (same_settings, a.verdict == b.verdict, &a.speed, &b.speed) {
                prop_assert!(y.decode_tokens_per_s >= x.decode_tokens_per_s * (1.0 - 1e-9));
                prop_assert!(y.aggregate_tokens_per_s >= x.aggregate_tokens_per_s * (1.0 - 1e-9));
            }
        }
    }
}
