//! Which device fits, how well, and the reverse questions: the longest context that fits, the best
//! quantization that fits, the cheapest device that fits at a target speed, which models a device
//! runs.
//!
//! A verdict is one of `fits` (everything on the accelerator), `offload` (llama.cpp keeps some
//! layers in system RAM), `cpu` (CPU and RAM only) or `no`; `headroom` is the share of the usable
//! memory left over.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::catalog::device::{Device, DeviceKind};
use crate::catalog::{self, devices};
use crate::cost::{self, Cost};
use crate::error::Result;
use crate::estimate::{Estimate, Resolved, estimate_resolved, resolve};
use crate::hardware::{Capability, Class, DeviceChoice, runtime_for, runtime_runs_on};
use crate::inference::Runtime;
use crate::precision::{GgufMix, WeightFormat};
use crate::scenario::{MAX_CONTEXT, ModelSource, Scenario};
use crate::speed::{self, Speed};
use crate::text::{Arg, Msg, MsgId};
use crate::units::Bytes;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Whether and how a scenario runs on a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Verdict {
    /// Everything on the accelerator.
    Fits,
    /// Runs with part of the layers in system RAM (llama.cpp `-ngl`), slower.
    Offload,
    /// Runs on the CPU from system RAM only.
    Cpu,
    /// Does not fit.
    No,
}

impl Verdict {
    /// How well a scenario runs: entirely on the device, with offload, on the CPU, not at all.
    pub const fn rank(self) -> u8 {
        match self {
            Verdict::Fits => 3,
            Verdict::Offload => 2,
            Verdict::Cpu => 1,
            Verdict::No => 0,
        }
    }

    /// The id of the JSON contract.
    pub const fn id(self) -> &'static str {
        match self {
            Verdict::Fits => "fits",
            Verdict::Offload => "offload",
            Verdict::Cpu => "cpu",
            Verdict::No => "no",
        }
    }
}

/// A scenario on one device.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Fit {
    /// The device id (`my-machine` for the user's own).
    pub device: &'static str,
    /// Its display name.
    pub name: &'static str,
    /// Its kind.
    pub kind: DeviceKind,
    /// The verdict.
    pub verdict: Verdict,
    /// Memory the device can give the model, per accelerator (usable share).
    pub capacity: Bytes,
    /// Memory the scenario needs per accelerator in this configuration.
    pub need: Bytes,
    /// Upper end of the need's band.
    pub need_high: Bytes,
    /// Share of the capacity left over (negative when it does not fit).
    pub headroom: f64,
    /// Accelerators used.
    pub gpus: u64,
    /// The runtime assumed on this device.
    pub runtime: Runtime,
    /// For `offload`: layers on the GPU (llama.cpp `-ngl`).
    pub gpu_layers: Option<u64>,
    /// For `offload` of a mixture of experts: the layers whose routed experts stay in system RAM
    /// (llama.cpp `--n-cpu-moe`), every layer on the GPU otherwise.
    pub cpu_moe: Option<u64>,
    /// System RAM needed, and the device's, when known.
    pub host_need: Bytes,
    /// The device's system RAM, when known.
    pub host_capacity: Option<Bytes>,
    /// Speeds, unless it does not fit.
    pub speed: Option<Speed>,
    /// Costs.
    pub cost: Cost,
    /// Guidance for this scenario on this device (the seed's CPU-versus-GPU advice made explicit).
    pub advice: Vec<Msg>,
    /// vLLM's startup budget on this device (vLLM on a GPU, with a known shape).
    pub vllm: Option<crate::vllm::VllmBudget>,
    /// SGLang's startup budget on this device (SGLang on a GPU, with a known shape).
    pub sglang: Option<crate::sglang::SglangBudget>,
}

impl Fit {
    /// Why the device says no other than memory: the runtime cannot run there, or cannot load
    /// the model, or the hardware lacks what the format needs. `None` for a plain lack of memory.
    pub fn refusal(&self) -> Option<&Msg> {
        if self.verdict != Verdict::No {
            return None;
        }
        self.advice.iter().find(|m| m.id.refuses_device()).or_else(|| crate::loads::refusal(&self.advice))
    }
}

/// How the scenario chooses its device count on a machine: the machine's accelerators, unless
/// the scenario asks for more of a single card.
fn gpus_on(device: &Device, scenario: &Scenario) -> u64 {
    // vLLM's data parallelism: the scenario's tensor-parallel size is each replica's.
    let vllm = scenario.runtime == Some(Runtime::Vllm);
    let replicas = if vllm { scenario.vllm.data_parallel() } else { 1 };
    // Pipeline stages share a machine's GPUs: a stage's tensor-parallel group is what is left.
    let stages = if vllm { scenario.vllm.pipeline_parallel() } else { 1 };
    if scenario.gpus > 1 || replicas > 1 {
        scenario.gpus
    } else {
        (u64::from(device.count.max(1)) / stages).max(1)
    }
}

/// The device of a choice.
///
/// # Errors
/// [`crate::Error::UnknownDevice`], or invalid "my machine" numbers.
pub fn device_of(choice: &DeviceChoice) -> Result<Device> {
    match choice {
        DeviceChoice::Catalog(id) => catalog::device(id).copied(),
        DeviceChoice::Mine(m) => {
            m.validate()?;
            Ok(m.device())
        }
    }
}

/// The scenario on one device: verdict, headroom, speed, cost, advice.
///
/// Tries everything on the accelerator first; if that does not fit and the runtime is llama.cpp
/// (or the format is a GGUF file), the most GPU layers that fit beside system RAM; then the CPU
/// from system RAM.
///
/// # Errors
/// What [`crate::estimate::estimate`] reports for the scenario itself.
pub fn fit(scenario: &Scenario, device: &Device) -> Result<Fit> {
    scenario.validate()?;
    let r = resolve(&scenario.model)?;
    fit_resolved(scenario, &r, device)
}

/// [`fit`] with the model already resolved.
///
/// # Errors
/// As [`fit`].
pub fn fit_resolved(scenario: &Scenario, r: &Resolved, device: &Device) -> Result<Fit> {
    let costs = &scenario.costs;
    let native = scenario.weights.or(r.native_format).unwrap_or(WeightFormat::Bf16);
    // Training runs under transformers (what the training estimate assumes), whatever the
    // checkpoint's format would pick for serving.
    let cross = r.architecture.as_deref().is_some_and(crate::estimate::has_cross_attention);
    let runtime = if scenario.mode.is_training() {
        Runtime::Transformers
    } else {
        let usual = runtime_for(device, native, scenario.runtime, cross);
        if scenario.runtime.is_some() {
            usual
        } else {
            // The usual runtime refuses the model: the one that loads it on this hardware.
            let instead: &[Runtime] = match device.kind {
                DeviceKind::Apple => &[Runtime::LlamaCpp],
                DeviceKind::Cpu => &[],
                _ => &[Runtime::Transformers, Runtime::LlamaCpp],
            };
            let checkpoint = r.architecture.as_deref().map(|a| &a.checkpoint);
            crate::loads::usable_default(usual, instead, checkpoint, scenario.vllm.version)
        }
    };
    let gpus = gpus_on(device, scenario);
    let mut s = scenario.clone();
    s.runtime = Some(runtime);
    s.gpus = gpus;
    let mut advice = Vec::new();
    let mut cap = Capability::of(device, runtime, scenario.mac_gpu_fraction);
    // An APU's GPU gets the share its OS gives it: said, with how to change it.
    if device.kind == DeviceKind::Apu && scenario.mac_gpu_fraction.is_none() && runtime != Runtime::Cpu {
        let id = if device.vendor.eq_ignore_ascii_case("nvidia") {
            MsgId::NoteApuShareSpark
        } else if device.vendor.eq_ignore_ascii_case("intel") {
            MsgId::NoteApuShareIntel
        } else {
            MsgId::NoteApuShareAmd
        };
        advice.push(Msg::new(id, vec![Arg::Size(cap.usable), Arg::Size(cap.memory)]));
    }
    // Float8 training needs FP8 tensor cores (Ada, Hopper, Blackwell; MI300): said where absent.
    if scenario.train.fp8 && scenario.mode == crate::training::Mode::Full && cap.fp8.get() <= 0.0 {
        advice.push(Msg::new(MsgId::NoteFloat8NoUnits, vec![Arg::Text(device.name.into())]));
    }
    // The RAM the user says sits beside their card or laptop (cloud instances, Macs and CPU
    // machines come with their own).
    if let Some(g) = scenario.host_ram_gib
        && matches!(device.kind, DeviceKind::Gpu | DeviceKind::Laptop)
    {
        cap.host_ram = Bytes::from_gib_f64(g);
    }
    if runtime == Runtime::Vllm && cap.class == Class::Gpu {
        // vLLM's share of what CUDA reports; with `--kv-cache-memory` or the extensible KV cache
        // (sized from what is free after warmup), all of it but the context.
        let total = crate::vllm::cuda_total_with(device, scenario.mac_gpu_fraction);
        cap.usable = if scenario.vllm.kv_cache_memory.is_some() {
            total.saturating_sub(crate::vllm::CUDA_CONTEXT)
        } else if scenario.vllm.extensible() {
            total.saturating_sub(crate::vllm::CUDA_CONTEXT).min(total.scale(scenario.vllm.utilization()))
        } else {
            total.scale(scenario.vllm.utilization())
        };
    }
    if runtime == Runtime::Sglang && cap.class == Class::Gpu {
        // SGLang's share is of the memory free at start: all of it but the CUDA context.
        cap.usable = crate::sglang::free_at_start(
            crate::vllm::cuda_total_with(device, scenario.mac_gpu_fraction),
            gpus,
        );
    }
    // Free rather than total: what the desktop, the OS and other programs keep.
    let reserve = scenario.reserve.bytes_on(device);
    if reserve > Bytes::ZERO {
        let free = cap.memory.saturating_sub(reserve);
        cap.usable = cap.usable.min(free);
        if matches!(cap.class, Class::Apple | Class::Cpu) {
            cap.host_ram = cap.host_ram.map(|r| r.min(free));
        }
    }
    let arch = r.architecture.as_deref().or(r.stand_in.as_ref().map(|(_, a)| a));
    let base = crate::estimate::estimate_on(&s, r, Some(device))?;
    if reserve >= cap.memory {
        advice.push(Msg::new(MsgId::AdviceReserveTooLarge, vec![Arg::Size(reserve), Arg::Size(cap.memory)]));
        return Ok(verdict_no(device, runtime, gpus, &cap, &base, costs, advice));
    }
    // vLLM starts when its cache holds one request of the context, and serves the batch at once
    // when it holds `batch` of them (whole blocks).
    let vllm_ok = base.vllm.as_ref().is_none_or(|b| {
        b.request_fits
            && b.context_outside_fits
            && b.state_outside_fits
            && b.tp_refused.is_none()
            && b.num_blocks >= b.blocks_per_request.saturating_mul(scenario.batch.max(1))
    }) && base.sglang.as_ref().is_none_or(|b| {
        b.pool > 0
            && b.max_total_num_tokens
                >= scenario
                    .context
                    .div_ceil(scenario.sglang.page_size())
                    .saturating_mul(scenario.sglang.page_size())
                    .saturating_mul(scenario.batch.max(1))
    });

    // A cloud instance rents its accelerators together: inference split across more GPUs than it
    // has does not run on one (tensor and pipeline parallelism within a machine); training over
    // more spans several instances, each priced.
    if device.kind == DeviceKind::Cloud
        && gpus > u64::from(device.count.max(1))
        && !scenario.mode.is_training()
    {
        advice.push(Msg::new(
            MsgId::AdviceInstanceTooFewGpus,
            vec![Arg::Text(device.name.into()), Arg::Int(u64::from(device.count.max(1))), Arg::Int(gpus)],
        ));
        return Ok(verdict_no(device, runtime, gpus, &cap, &base, costs, advice));
    }
    if !runtime_runs_on(runtime, device) {
        advice.push(Msg::new(
            MsgId::AdviceRuntimeNotHere,
            vec![Arg::Text(runtime.label().into()), Arg::Text(device.name.into())],
        ));
        return Ok(verdict_no(device, runtime, gpus, &cap, &base, costs, advice));
    }
    // A runtime that refuses the model runs it on no device (the reason is also the estimate's
    // warning).
    if !scenario.mode.is_training()
        && let Some(a) = r.architecture.as_deref()
        && let crate::loads::Loads::No(m) = crate::loads::loads(runtime, &a.checkpoint, scenario.vllm.version)
    {
        advice.push(m);
        return Ok(verdict_no(device, runtime, gpus, &cap, &base, costs, advice));
    }
    // A model whose attention kernels vLLM builds for some GPUs only.
    if runtime == Runtime::Vllm
        && let Some(a) = r.architecture.as_deref()
        && let Some(m) = crate::vllm::kernels_missing(a, device)
    {
        advice.push(m);
        return Ok(verdict_no(device, runtime, gpus, &cap, &base, costs, advice));
    }
    if reserve > Bytes::ZERO {
        advice.push(Msg::new(MsgId::NoteReserve, vec![Arg::Size(reserve)]));
    }
    // Ollama lets llama-server's `--fit` place the layers: it keeps 1 GiB free on every GPU.
    let ollama_margin = if runtime == Runtime::Ollama && scenario.gpu_layers.is_none() {
        crate::ollama::FIT_MARGIN
    } else {
        Bytes::ZERO
    };
    if ollama_margin > Bytes::ZERO && matches!(cap.class, Class::Gpu | Class::Apple) {
        cap.usable = cap.usable.saturating_sub(ollama_margin);
        advice.push(Msg::new(MsgId::NoteOllamaFitMargin, vec![Arg::Size(crate::ollama::FIT_MARGIN)]));
    }
    // Formats, precisions and libraries the hardware cannot run, with the nearest that can.
    {
        use crate::training::{Mode, TrainPrecision};
        let bf16 = if scenario.mode.is_training() {
            scenario.precision == TrainPrecision::PureBf16
        } else {
            // (PyTorch itself runs BF16 slowly on older cards; vLLM refuses it.)
            base.format == WeightFormat::Bf16 && runtime == Runtime::Vllm
        };
        let bnb = scenario.mode == Mode::Qlora || matches!(base.format, WeightFormat::Nf4 { .. });
        if let Some(m) = crate::hardware::cannot_run(device, runtime, base.format, bf16, bnb) {
            advice.push(m);
            return Ok(verdict_no(device, runtime, gpus, &cap, &base, costs, advice));
        }
        let sup = crate::hardware::support(device);
        let low = match base.format {
            f if f.is_fp8() && !sup.fp8 => Some("FP8"),
            WeightFormat::Mxfp4 | WeightFormat::Nvfp4 | WeightFormat::Nvfp4A16 if !sup.fp4 => Some("FP4"),
            _ => None,
        };
        if let (Some(w), true) = (low, runtime == Runtime::Vllm && sup.cuda) {
            advice.push(Msg::new(
                MsgId::NoteWeightOnlyLowBit,
                vec![Arg::Text(device.name.into()), Arg::Text(w.into())],
            ));
        }
    }

    let training = scenario.mode.is_training();
    // One memory (a Mac, an APU): what the GPU holds and what the CPU side holds share it.
    let host_ok = |e: &Estimate| {
        cap.host_ram.is_none_or(|ram| {
            let used = if cap.unified { e.host.total.saturating_add(e.memory.total) } else { e.host.total };
            used <= ram
        })
    };
    // Different cards under llama.cpp: each GPU's part against its own card.
    let cards = if runtime.is_llama_cpp() { crate::estimate::mixed_cards(&s) } else { Vec::new() };
    let card_caps: Vec<Bytes> = cards
        .iter()
        .map(|d| {
            let c = Capability::of(d, runtime, scenario.mac_gpu_fraction);
            c.usable.min(c.memory.saturating_sub(scenario.reserve.bytes_on(d))).saturating_sub(ollama_margin)
        })
        .collect();
    let on_cards = |e: &Estimate| -> bool {
        if cards.is_empty() {
            e.memory.total <= cap.usable
        } else {
            e.llama_gpus.len() == card_caps.len()
                && e.llama_gpus.iter().zip(&card_caps).all(|(g, c)| g.total <= *c)
        }
    };
    for (i, ((g, c), d)) in base.llama_gpus.iter().zip(&card_caps).zip(&cards).enumerate() {
        if g.total > *c {
            advice.push(Msg::new(
                MsgId::AdviceCardRunsOut,
                vec![Arg::Int(i as u64), Arg::Text(d.name.into()), Arg::Size(g.total), Arg::Size(*c)],
            ));
        }
    }
    let mut chosen: Option<(Verdict, Estimate, Option<u64>)> = None;
    let mut cpu_moe: Option<u64> = None;
    // A paged optimizer's states beyond the card, in CPU memory (bitsandbytes' unified memory).
    let mut paged_spill: Option<Bytes> = None;

    if cap.class == Class::Cpu {
        if base.memory.total <= cap.usable {
            chosen = Some((Verdict::Cpu, base.clone(), None));
        }
    } else if runtime == Runtime::Cpu {
        // The CPU runtime asked for on a GPU machine: the model lives in system RAM, when known.
        if cap.host_ram.is_some_and(|ram| base.memory.total <= ram) {
            chosen = Some((Verdict::Cpu, base.clone(), None));
        }
    } else if on_cards(&base) && host_ok(&base) && vllm_ok {
        chosen = Some((Verdict::Fits, base.clone(), None));
    } else if training
        && scenario.optimizer.is_paged()
        && !cap.unified
        && let Some(states) = base.memory.term(crate::breakdown::TermKind::Optimizer).map(|t| t.bytes)
        && base.memory.total.saturating_sub(states) <= cap.usable
        && cap.host_ram.is_none_or(|ram| {
            base.host.total.saturating_add(base.memory.total.saturating_sub(cap.usable)) <= ram
        })
    {
        // bitsandbytes keeps a paged optimizer's states in CUDA unified memory: what the card
        // cannot hold is paged out to CPU memory and back as each step needs it, rather than
        // failing (torchtune's 8B full fine-tune on a 24 GB card runs so).
        let spill = base.memory.total.saturating_sub(cap.usable);
        advice.push(Msg::new(MsgId::AdvicePagedSpill, vec![Arg::Size(spill), Arg::Size(states)]));
        paged_spill = Some(spill);
        chosen = Some((Verdict::Offload, base.clone(), None));
    } else if !training
        && runtime.is_llama_cpp()
        && !cap.unified
        && cards.is_empty()
        && scenario.llama.cpu_moe.is_none()
        && let Some(a) = arch.filter(|a| a.moe().is_some())
        && let Some((n, e)) = fewest_cpu_moe_layers(&s, r, a.num_layers(), cap.usable, device)?
        && host_ok(&e)
    {
        // A mixture of experts keeps attention and its KV cache on the GPU and the experts of
        // its first layers in RAM (`--n-cpu-moe`): the fewest such layers that fit.
        chosen = Some((Verdict::Offload, e, None));
        cpu_moe = Some(n);
    } else if !training && runtime.is_llama_cpp() && !cap.unified {
        // Most GPU layers that fit: the GPU need falls with every layer left in RAM.
        if let Some(a) = arch {
            let mut lo = 0u64;
            let mut hi = a.num_layers();
            let mut best: Option<(u64, Estimate)> = None;
            while lo <= hi {
                let k = (lo + hi) / 2;
                let e = crate::estimate::estimate_on(
                    &Scenario { gpu_layers: Some(k), ..s.clone() },
                    r,
                    Some(device),
                )?;
                if on_cards(&e) {
                    best = Some((k, e));
                    lo = k + 1;
                } else if k == 0 {
                    break;
                } else {
                    hi = k - 1;
                }
            }
            if let Some((k, e)) = best
                && k > 0
            {
                if host_ok(&e) {
                    chosen = Some((Verdict::Offload, e, Some(k)));
                } else if let Some(ram) = cap.host_ram {
                    advice.push(Msg::new(
                        MsgId::AdviceOffloadNeedsRam,
                        vec![Arg::Size(e.host.total), Arg::Size(ram)],
                    ));
                }
            }
        }
    }
    if chosen.is_none()
        && !training
        && runtime == Runtime::Transformers
        && !cap.unified
        && gpus == 1
        && scenario.gpu_layers.is_none()
        && let Some(a) = arch
        && let Some(e) = accelerate_split(&s, r, a.num_layers(), cap.usable, device)?
        && on_cards(&e)
    {
        // transformers' `device_map="auto"`: what accelerate places on the GPU runs there, the
        // rest is copied in from system RAM layer by layer.
        if host_ok(&e) {
            let k = e.device_map.map(|m| m.gpu_layers);
            chosen = Some((Verdict::Offload, e, k));
        } else if let Some(ram) = cap.host_ram {
            advice
                .push(Msg::new(MsgId::AdviceOffloadNeedsRam, vec![Arg::Size(e.host.total), Arg::Size(ram)]));
        }
    }
    if chosen.is_none() && !training && !cross {
        // The CPU from system RAM (llama.cpp's CPU back end: not for cross-attention models).
        if let Some(ram) = cap.host_ram {
            let cpu = estimate_resolved(
                &Scenario { runtime: Some(Runtime::Cpu), gpus: 1, gpu_layers: None, ..s.clone() },
                r,
            )?;
            if cpu.memory.total <= ram {
                chosen = Some((Verdict::Cpu, cpu, None));
            }
        }
    }
    let Some((verdict, e, gpu_layers)) = chosen else {
        if training && !base.memory.total.le(&cap.usable) {
            // Only what is not already on (the full ladder, with totals: `training_remedies`).
            use crate::training::{Mode, Offload};
            let s = scenario;
            for (on, id) in [
                (s.batch > 1, MsgId::AdviceTrainSmallerBatch),
                (!s.checkpointing.recomputes(), MsgId::AdviceTrainCheckpointing),
                (!s.optimizer.is_8bit(), MsgId::AdviceTrain8bit),
                (s.mode == Mode::Full, MsgId::AdviceTrainLora),
                (s.mode == Mode::Lora, MsgId::AdviceTrainQlora),
                (gpus > 1 && s.zero < 3, MsgId::AdviceTrainShard),
                (s.offload == Offload::None, MsgId::AdviceTrainOffload),
            ] {
                if on {
                    advice.push(Msg::new(id, vec![]));
                }
            }
            if advice.is_empty() {
                advice.push(Msg::new(MsgId::AdviceTrainingTooBig, vec![]));
            }
        }
        if let Some(b) = &base.vllm {
            advice.extend(vllm_refusals(b, scenario.batch));
        }
        if let Some(b) = &base.sglang {
            advice.push(if b.pool <= 0 {
                Msg::new(MsgId::AdviceSglangNoPool, vec![Arg::Size(Bytes::new(b.pool.unsigned_abs()))])
            } else {
                Msg::new(
                    MsgId::AdviceSglangPool,
                    vec![
                        Arg::Int(b.max_total_num_tokens),
                        Arg::Int(b.requests_at_context),
                        Arg::Int(b.context_len),
                    ],
                )
            });
        }
        return Ok(verdict_no(device, runtime, gpus, &cap, &base, costs, advice));
    };

    let capacity = match verdict {
        Verdict::Cpu => cap.host_ram.unwrap_or(cap.usable).max(if cap.class == Class::Cpu {
            cap.usable
        } else {
            Bytes::ZERO
        }),
        _ => cap.usable,
    };
    let mut need = e.memory.total;
    let mut capacity = capacity;
    if verdict == Verdict::Offload && cap.host_ram.is_none() {
        // Said rather than guessed: the RAM beside a desktop card is the user's to give.
        let ram = e.host.total.saturating_add(paged_spill.unwrap_or(Bytes::ZERO));
        advice.push(Msg::new(MsgId::NoteOffloadRamUnchecked, vec![Arg::Size(ram)]));
    }

    if !cards.is_empty() && verdict != Verdict::Cpu {
        // The card with the least room left speaks for the set.
        if let Some((i, (g, c))) = e.llama_gpus.iter().zip(&card_caps).enumerate().max_by(|(_, a), (_, b)| {
            let ratio =
                |(g, c): &(&crate::llama_cpp::GpuShare, &Bytes)| g.total.get() as f64 / c.get().max(1) as f64;
            ratio(a).total_cmp(&ratio(b))
        }) {
            need = g.total;
            capacity = *c;
            if let Some(d) = cards.get(i) {
                advice.push(Msg::new(
                    MsgId::NoteTightestCard,
                    vec![Arg::Int(i as u64), Arg::Text(d.name.into())],
                ));
            }
        }
        // Layers run one card after the other: a token reads each card's part at its bandwidth.
        let time: f64 = e
            .llama_gpus
            .iter()
            .zip(&cards)
            .map(|(g, d)| g.weights.get() as f64 / (d.bandwidth_gbs.max(1.0) * 1e9))
            .sum();
        let bytes: f64 = e.llama_gpus.iter().map(|g| g.weights.get() as f64).sum();
        if time > 0.0 {
            cap.bandwidth = crate::units::BytesPerSec::from_gb_per_s(bytes / time / 1e9);
        }
    }
    let headroom = if capacity.get() > 0 { 1.0 - need.get() as f64 / capacity.get() as f64 } else { -1.0 };
    let cpu_cap = cap.host_cpu(device.kind == DeviceKind::Cloud);
    let speed_cap = if verdict == Verdict::Cpu { &cpu_cap } else { &cap };
    // GPUs at work: for training with tensor parallelism, at least the `tp` each replica spans.
    let devices = if training { gpus.max(scenario.tp.max(1)) } else { gpus };
    let mut speed = if training {
        let mut sp = speed::inference_speed(&e, speed_cap, arch, scenario.context, scenario.batch, gpus);
        if let Some(t) = speed::training_time(&e, speed_cap, devices, scenario.gpus_per_node) {
            sp.training_s = Some(t.seconds);
            sp.training_mfu = Some(t.mfu);
            sp.training_mfu_class = Some(t.class);
            // No published run on the class: its utilisation is a stand-in, said, its band wider.
            if !t.class.measured() && verdict != Verdict::No {
                advice.push(Msg::new(
                    MsgId::NoteMfuUnmeasured,
                    vec![
                        Arg::Text(t.class.label().into()),
                        Arg::Num(t.class.utilisation() * 100.0, 0),
                        Arg::Num(t.class.band().0 * 100.0, 0),
                        Arg::Num(t.class.band().1 * 100.0, 0),
                    ],
                ));
            }
            sp.training_band_s = Some(t.band);
            if let Some(net) = t.net {
                sp.training_waiting_s = Some(t.waiting);
                sp.training_link = Some((net.kind, !net.assumed));
            }
        }
        sp
    } else {
        speed::inference_speed(
            &e,
            speed_cap,
            arch,
            scenario.context,
            scenario.batch,
            if verdict == Verdict::Cpu { 1 } else { gpus },
        )
    };
    if training {
        speed.decode_tokens_per_s = 0.0;
        speed.aggregate_tokens_per_s = 0.0;
    }
    // GPUs that exchange data over a link the catalog does not state (a Mac, "my machine"): said.
    let exchanging = if training { devices > 1 } else { gpus > 1 && e.runtime.tensor_parallel() };
    if exchanging
        && verdict != Verdict::No
        && crate::comm::Net::of(speed_cap, devices, scenario.gpus_per_node).assumed
    {
        advice.push(Msg::new(MsgId::NoteLinkAssumed, vec![Arg::Int(devices)]));
    }
    // Different cards: what they cost and draw together (each card's own price and power).
    let mixed_device = (!cards.is_empty()).then(|| {
        let n = cards.len() as f64;
        let priced = cards.iter().all(|d| d.price_usd > 0.0);
        let powered = cards.iter().all(|d| d.tdp_w > 0.0);
        Device {
            price_usd: if priced { cards.iter().map(|d| d.price_usd).sum::<f64>() / n } else { 0.0 },
            tdp_w: if powered { cards.iter().map(|d| d.tdp_w).sum::<f64>() / n } else { 0.0 },
            ..*device
        }
    });
    let cost = cost::cost(mixed_device.as_ref().unwrap_or(device), devices, &e, &speed, costs);
    advise(
        &mut advice,
        verdict,
        &e,
        device,
        &cap,
        headroom,
        &speed,
        gpu_layers,
        arch.map_or(0, |a| a.num_layers()),
    );
    if let Some(n) = cpu_moe {
        advice.retain(|m| m.id != MsgId::AdviceOffload);
        advice.push(Msg::new(
            MsgId::AdviceCpuMoe,
            vec![
                Arg::Int(n.min(arch.map_or(0, |a| a.num_layers()))),
                Arg::Int(arch.map_or(0, |a| a.num_layers())),
                Arg::Num(speed.decode_tokens_per_s, 1),
            ],
        ));
    }
    Ok(Fit {
        device: device.id,
        name: device.name,
        kind: device.kind,
        verdict,
        capacity,
        need,
        need_high: e.memory.total_high,
        headroom,
        gpus: if verdict == Verdict::Cpu { 0 } else { gpus },
        runtime: e.runtime,
        gpu_layers,
        cpu_moe,
        host_need: e.host.total,
        host_capacity: cap.host_ram,
        speed: Some(speed),
        cost,
        advice,
        vllm: e.vllm.clone(),
        sglang: e.sglang.clone(),
    })
}

/// Why vLLM would not start or not serve the batch at once, as its log says it.
pub fn vllm_refusals(b: &crate::vllm::VllmBudget, batch: u64) -> Vec<Msg> {
    let mut out = Vec::new();
    if let Some(r) = &b.tp_refused {
        out.push(r.reason.clone());
    }
    if !b.context_outside_fits {
        out.push(Msg::new(MsgId::AdviceVllmNoRoomOutside, vec![Arg::Num(b.utilization, 2)]));
    } else if !b.state_outside_fits {
        out.push(Msg::new(
            MsgId::AdviceVllmDiffusionState,
            vec![Arg::Size(b.diffusion_state), Arg::Int(b.max_num_seqs), Arg::Num(b.utilization, 2)],
        ));
    }
    if b.available_kv <= 0 {
        out.push(Msg::new(
            MsgId::AdviceVllmNoCacheMemory,
            vec![Arg::Size(Bytes::new(b.available_kv.unsigned_abs()))],
        ));
    } else if !b.request_fits {
        out.push(Msg::new(
            MsgId::AdviceVllmTooLong,
            vec![Arg::Int(b.max_model_len), Arg::Int(b.kv_tokens), Arg::Int(b.longest_request)],
        ));
    } else if b.num_blocks < b.blocks_per_request.saturating_mul(batch.max(1)) {
        out.push(Msg::new(
            MsgId::AdviceVllmQueue,
            vec![Arg::Num(b.max_concurrency, 2), Arg::Int(b.max_model_len), Arg::Int(batch)],
        ));
    }
    out
}

fn verdict_no(
    device: &Device,
    runtime: Runtime,
    gpus: u64,
    cap: &Capability,
    e: &Estimate,
    costs: &cost::CostSettings,
    mut advice: Vec<Msg>,
) -> Fit {
    let need = e.memory.total;
    // Memory short, or no other reason given (a runtime's refusal that fits in memory says its own).
    if need > cap.usable || advice.is_empty() {
        advice.push(Msg::new(MsgId::AdviceDoesNotFit, vec![Arg::Size(need), Arg::Size(cap.usable)]));
    }
    Fit {
        device: device.id,
        name: device.name,
        kind: device.kind,
        verdict: Verdict::No,
        capacity: cap.usable,
        need,
        need_high: e.memory.total_high,
        headroom: if cap.usable.get() > 0 { 1.0 - need.get() as f64 / cap.usable.get() as f64 } else { -1.0 },
        gpus,
        runtime,
        gpu_layers: None,
        cpu_moe: None,
        host_need: e.host.total,
        host_capacity: cap.host_ram,
        speed: None,
        cost: cost::cost(device, gpus, e, &Speed::none(), costs),
        advice,
        vllm: e.vllm.clone(),
        sglang: e.sglang.clone(),
    }
}

/// What accelerate's `device_map="auto"` places on one GPU of `usable` bytes: in model order,
/// the embeddings then the decoder layers while their weights fit 90% of the free memory (the
/// card less the CUDA context) less room for the largest module; the estimate with that many
/// layers on the GPU (`None` when not even the embeddings fit, or every layer does).
fn accelerate_split(
    s: &Scenario,
    r: &Resolved,
    layers: u64,
    usable: Bytes,
    device: &Device,
) -> Result<Option<Estimate>> {
    let at = |k: u64| {
        crate::estimate::estimate_on(&Scenario { gpu_layers: Some(k), ..s.clone() }, r, Some(device))
    };
    let free = usable.saturating_sub(crate::inference::TRANSFORMERS_CUDA_CONTEXT);
    let first = at(0)?;
    let Some(map) = first.device_map else { return Ok(None) };
    let budget = free.scale(crate::estimate::ACCELERATE_SHARE).saturating_sub(map.largest_module);
    let placed = |e: &Estimate| e.device_map.is_some_and(|m| m.gpu_weights <= budget);
    if !placed(&first) {
        return Ok(None);
    }
    // The GPU's weights grow with every layer placed: the largest count within the budget.
    match largest_fitting(layers.saturating_sub(1), |k| Ok(placed(&at(k)?)))? {
        Some(k) => Ok(Some(at(k)?)),
        None => Ok(Some(first)),
    }
}

/// The fewest layers whose routed experts in system RAM (`--n-cpu-moe`) make the GPU's share fit
/// `usable` with a margin (the top of its band), with that estimate (more layers' experts in RAM
/// never need more VRAM).
fn fewest_cpu_moe_layers(
    s: &Scenario,
    r: &Resolved,
    layers: u64,
    usable: Bytes,
    device: &Device,
) -> Result<Option<(u64, Estimate)>> {
    // (On the device: its defaults, Ollama's batch among them, are the base estimate's.)
    let with = |n: u64| {
        crate::estimate::estimate_on(
            &Scenario {
                llama: crate::scenario::LlamaOptions { cpu_moe: Some(n), ..s.llama.clone() },
                ..s.clone()
            },
            r,
            Some(device),
        )
    };
    let all = with(layers)?;
    if all.memory.total_high > usable {
        return Ok(None);
    }
    let (mut lo, mut hi, mut best) = (1u64, layers, (layers, all));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let e = with(mid)?;
        if e.memory.total_high <= usable {
            hi = mid;
            best = (mid, e);
        } else {
            lo = mid + 1;
        }
    }
    Ok(Some(best))
}

/// The seed guide's CPU-versus-GPU guidance, made explicit for the scenario at hand.
#[allow(clippy::too_many_arguments)]
fn advise(
    advice: &mut Vec<Msg>,
    verdict: Verdict,
    e: &Estimate,
    device: &Device,
    cap: &Capability,
    headroom: f64,
    speed: &Speed,
    gpu_layers: Option<u64>,
    layers: u64,
) {
    match verdict {
        Verdict::Fits => {
            if headroom < 0.1 {
                advice.push(Msg::new(MsgId::AdviceTight, vec![Arg::Num(headroom * 100.0, 0)]));
            }
            // A Mac shares its memory with macOS: a model that leaves it less than its working
            // reserve (a raised GPU limit, `iogpu.wired_limit_mb`) makes the system page.
            let reserve = crate::hardware::default_reserve(device);
            let left = cap.memory.saturating_sub(e.memory.total);
            if cap.class == Class::Apple && left < reserve {
                advice.push(Msg::new(MsgId::AdviceMacReserve, vec![Arg::Size(left), Arg::Size(reserve)]));
            }
        }
        // The paged states' spill is said where it was decided.
        Verdict::Offload if advice.iter().any(|m| m.id == MsgId::AdvicePagedSpill) => {}
        Verdict::Offload if e.runtime == Runtime::Transformers => advice.push(Msg::new(
            MsgId::AdviceOffloadDeviceMap,
            vec![Arg::Int(gpu_layers.unwrap_or(0)), Arg::Int(layers), Arg::Num(speed.decode_tokens_per_s, 1)],
        )),
        Verdict::Offload => advice.push(Msg::new(
            MsgId::AdviceOffload,
            // llama.cpp counts the output layer among the layers (`offloaded k/(n+1) layers`).
            vec![
                Arg::Int(gpu_layers.unwrap_or(0)),
                Arg::Int(layers + 1),
                Arg::Num(speed.decode_tokens_per_s, 1),
            ],
        )),
        Verdict::Cpu => {
            if cap.class == Class::Cpu {
                advice.push(Msg::new(MsgId::AdviceCpuMachine, vec![Arg::Num(speed.decode_tokens_per_s, 1)]));
            } else {
                advice.push(Msg::new(MsgId::AdviceCpuFallback, vec![Arg::Text(device.name.into())]));
            }
        }
        Verdict::No => {}
    }
    if e.training.is_none() && verdict != Verdict::No {
        let small = e.model.params_active.get() < 3_000_000_000;
        if small && cap.class != Class::Cpu {
            advice.push(Msg::new(MsgId::AdviceSmallModelCpuOk, vec![]));
        }
        if let Some((b, m)) = e.vllm.as_ref().and_then(|b| b.measured.as_ref().map(|m| (b, m))) {
            if b.utilization < 1.0 && m.withheld >= crate::units::GIB {
                advice.push(Msg::new(
                    MsgId::AdviceVllmUtilizationCaps,
                    vec![Arg::Num(b.utilization, 2), Arg::Size(Bytes::new(m.withheld))],
                ));
            }
            advice.push(Msg::new(
                MsgId::AdviceVllmMeasures,
                vec![
                    Arg::Size(cap.usable),
                    Arg::Size(m.margin),
                    Arg::Size(m.transient),
                    Arg::Size(Bytes::new(u64::try_from(m.kv.max(0)).unwrap_or(0))),
                ],
            ));
        } else if e.runtime == Runtime::Vllm {
            advice.push(Msg::new(
                MsgId::AdviceVllmPreallocates,
                vec![
                    Arg::Size(cap.usable),
                    Arg::Num(e.vllm.as_ref().map_or(90.0, |b| b.utilization * 100.0), 0),
                ],
            ));
        }
    }
}

/// The scenario against every catalog device, sorted by verdict (fits, offload, cpu, no), then
/// price, then speed.
///
/// # Errors
/// What [`crate::estimate::estimate`] reports for the scenario itself.
pub fn fit_all(scenario: &Scenario) -> Result<Vec<Fit>> {
    scenario.validate()?;
    let r = resolve(&scenario.model)?;
    let mut out = Vec::with_capacity(devices().len());
    for d in devices() {
        out.push(fit_resolved(scenario, &r, d)?);
    }
    fill_break_even(&mut out, &scenario.costs);
    sort_fits(&mut out);
    Ok(out)
}

/// Orders fits by verdict, then by price (cloud per hour, else purchase), then by speed.
pub fn sort_fits(fits: &mut [Fit]) {
    crate::sort::sort_by(fits, |a, b| {
        a.verdict
            .cmp(&b.verdict)
            .then_with(|| price_key(a).total_cmp(&price_key(b)))
            .then_with(|| speed_key(b).total_cmp(&speed_key(a)))
            .then_with(|| a.device.cmp(b.device))
    });
}

/// Orders of the device table: by verdict then price (the default, [`sort_fits`]), by headroom,
/// by speed (fastest first; for training, the shortest run), by price, by the cost of a million
/// tokens (for training, of the run). Ties fall back to the default order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitOrder {
    /// Verdict, then price.
    Fit,
    /// Most headroom first.
    Headroom,
    /// Fastest first.
    Speed,
    /// Cheapest to buy or rent first.
    Price,
    /// Cheapest per million tokens (training: per run) first.
    PerMillion,
}

impl FitOrder {
    /// Every order, as the page offers them.
    pub const ALL: [FitOrder; 5] =
        [FitOrder::Fit, FitOrder::Headroom, FitOrder::Speed, FitOrder::Price, FitOrder::PerMillion];

    /// Its id (the page's sort buttons).
    pub const fn id(self) -> &'static str {
        match self {
            FitOrder::Fit => "fit",
            FitOrder::Headroom => "headroom",
            FitOrder::Speed => "speed",
            FitOrder::Price => "price",
            FitOrder::PerMillion => "mtok",
        }
    }

    /// The order with this id.
    pub fn parse(id: &str) -> Option<FitOrder> {
        FitOrder::ALL.iter().copied().find(|o| o.id() == id)
    }
}

/// Sorts fits by `order`, each order's ties in the default order. Devices that do not run the
/// scenario stay after those that do in every order but headroom's.
pub fn sort_fits_by(fits: &mut [Fit], order: FitOrder) {
    sort_fits(fits);
    let runs = |f: &Fit| f.verdict != Verdict::No;
    let key = |f: &Fit| -> f64 {
        match order {
            FitOrder::Fit => 0.0,
            FitOrder::Headroom => -f.headroom,
            FitOrder::Speed => match f.speed.as_ref().and_then(|s| s.training_s) {
                Some(t) => t,
                None => -speed_key(f),
            },
            FitOrder::Price => price_key(f),
            FitOrder::PerMillion => f
                .cost
                .training_run_usd
                .or(f.cost.usd_per_million_tokens)
                .filter(|x| x.is_finite())
                .unwrap_or(f64::INFINITY),
        }
    };
    // Stable: ties keep the default order.
    crate::sort::sort_by(fits, |a, b| {
        let group = |f: &Fit| u8::from(order != FitOrder::Headroom && !runs(f));
        group(a).cmp(&group(b)).then_with(|| key(a).total_cmp(&key(b)))
    });
}

fn price_key(f: &Fit) -> f64 {
    f.cost.usd_per_hour.or(f.cost.purchase_usd).unwrap_or(f64::INFINITY)
}

fn speed_key(f: &Fit) -> f64 {
    f.speed.as_ref().map_or(0.0, |s| s.decode_tokens_per_s)
}

/// The longest context (tokens per sequence) whose estimate fits the device entirely
/// (verdict `fits`), by bisection up to the model's trained context (or 2^24).
///
/// # Errors
/// What the estimate reports.
pub fn max_context(scenario: &Scenario, device: &Device) -> Result<Option<u64>> {
    let r = resolve(&scenario.model)?;
    let limit = r
        .architecture
        .as_ref()
        .map_or(MAX_CONTEXT, |a| if a.max_context > 0 { a.max_context } else { MAX_CONTEXT });
    largest_fitting(limit, |c| {
        let s = Scenario { context: c, ..scenario.clone() };
        Ok(fit_resolved(&s, &r, device)?.verdict == Verdict::Fits)
    })
}

/// What llama-server's `--fit` (on by default) settles on for a device: the context when `-c`
/// is not given, then the layers (`-ngl`) or a mixture of experts' experts in RAM
/// (`--n-cpu-moe`), keeping a margin free on every GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct LlamaFit {
    /// Tokens per sequence.
    pub context: u64,
    /// The context was brought down from the model's own (llama.cpp lowers it toward
    /// `--fit-ctx`, 4,096, before it moves any layer).
    pub context_reduced: bool,
    /// The margin kept free on each GPU (`--fit-target`).
    pub margin: Bytes,
    /// The fit at that context, with its layers and experts.
    pub fit: Fit,
    /// The command with what `--fit` chose written out (`-c`, `-ngl`, `--n-cpu-moe`).
    pub command: String,
}

/// The smallest context llama.cpp's `--fit` lowers an unset context to (`--fit-ctx`).
pub const FIT_MIN_CONTEXT: u64 = 4096;

/// llama.cpp's `--fit` on `device` (`common/fit.cpp`): with no `-c` (`context_given` false) the
/// context starts at the model's longest and, when the model and its cache leave less than
/// `margin` free, comes down (whole multiples of 256) toward [`FIT_MIN_CONTEXT`] — the longest
/// that fits with every layer on the GPU; only then are layers (or, for a mixture of experts,
/// the experts of the first layers) moved to system RAM. Headroom finds the context by
/// bisection where llama.cpp interpolates linearly, and places layers with its own fit.
///
/// # Errors
/// What the estimate reports.
pub fn llama_fit(
    scenario: &Scenario,
    device: &Device,
    margin: Bytes,
    context_given: bool,
) -> Result<LlamaFit> {
    let r = resolve(&scenario.model)?;
    let extra = scenario.reserve.bytes_on(device);
    let base = Scenario {
        runtime: Some(if scenario.runtime == Some(Runtime::Ollama) {
            Runtime::Ollama
        } else {
            Runtime::LlamaCpp
        }),
        gpu_layers: None,
        reserve: crate::hardware::Reserve::Mib(
            extra.saturating_add(margin).get().div_ceil(crate::units::MIB),
        ),
        ..scenario.clone()
    };
    let longest = r.architecture.as_ref().map_or(0, |a| a.max_context).min(MAX_CONTEXT);
    let at = |c: u64| -> Result<Fit> { fit_resolved(&Scenario { context: c, ..base.clone() }, &r, device) };
    let (context, reduced) = if context_given || longest == 0 {
        (scenario.context, false)
    } else if at(longest)?.verdict == Verdict::Fits {
        (longest, false)
    } else {
        // The longest multiple of 256 (per stream) from the floor up that fits with every layer
        // on the GPU, by bisection; none: the floor, and layers move.
        let floor = FIT_MIN_CONTEXT.min(longest);
        let step = 256;
        let (mut lo, mut hi) = (floor.div_ceil(step).max(1), longest / step);
        let mut found = None;
        while lo <= hi {
            let mid = lo + (hi - lo) / 2;
            if at(mid * step)?.verdict == Verdict::Fits {
                found = Some(mid * step);
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        (found.unwrap_or(floor), true)
    };
    let s = Scenario { context, ..base };
    let fit = fit_resolved(&s, &r, device)?;
    let e = crate::estimate::estimate_on(&s, &r, Some(device))?;
    let command = crate::flags::commands(&s, &e, Some(&fit)).into_iter().next().unwrap_or_default();
    Ok(LlamaFit { context, context_reduced: reduced, margin, fit, command })
}

/// The largest `n` in `1..=limit` for which `ok(n)` holds, by bisection (`ok` must hold for
/// every value below one that holds); `None` when `ok(1)` does not.
fn largest_fitting(limit: u64, ok: impl Fn(u64) -> Result<bool>) -> Result<Option<u64>> {
    if !ok(1)? {
        return Ok(None);
    }
    let (mut lo, mut hi) = (1u64, limit.max(1));
    if ok(hi)? {
        return Ok(Some(hi));
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid)? { lo = mid } else { hi = mid }
    }
    Ok(Some(lo))
}

/// Formats tried by [`best_quant`], from the most faithful to the smallest.
pub const QUANT_LADDER: &[WeightFormat] = &[
    WeightFormat::Bf16,
    WeightFormat::Gguf(GgufMix::Q8_0),
    WeightFormat::Gguf(GgufMix::Q6_K),
    WeightFormat::Gguf(GgufMix::Q5_K_M),
    WeightFormat::Gguf(GgufMix::Q4_K_M),
    WeightFormat::Gguf(GgufMix::IQ4_XS),
    WeightFormat::Gguf(GgufMix::Q3_K_M),
    WeightFormat::Gguf(GgufMix::IQ3_XXS),
    WeightFormat::Gguf(GgufMix::Q2_K),
    WeightFormat::Gguf(GgufMix::IQ2_XXS),
    WeightFormat::Gguf(GgufMix::IQ1_M),
];

/// `scenario` with its weights in `format`, as [`best_quant`] tries it: GGUF mixes run on
/// llama.cpp, so the scenario's runtime is kept only where it runs the format (llama.cpp or
/// Ollama for a GGUF mix, any other for the rest); otherwise the format's usual runtime.
pub fn with_format(scenario: &Scenario, format: WeightFormat) -> Scenario {
    let runtime = if format.is_gguf() {
        scenario.runtime.filter(|r| r.is_llama_cpp())
    } else {
        scenario.runtime.filter(|r| !r.is_llama_cpp())
    };
    Scenario { weights: Some(format), runtime, ..scenario.clone() }
}

/// When the scenario does not run entirely on its device, the runtime that would do better there
/// with the same model and weights — llama.cpp, which places what does not fit in system RAM
/// layer by layer where the others need it all on the GPU — with its fit; `None` when the chosen
/// runtime already does as well.
///
/// # Errors
/// What the estimate reports.
pub fn better_runtime(scenario: &Scenario, current: &Fit, device: &Device) -> Result<Option<(Runtime, Fit)>> {
    if current.verdict == Verdict::Fits || current.runtime.is_llama_cpp() || scenario.mode.is_training() {
        return Ok(None);
    }
    let s = Scenario { runtime: Some(Runtime::LlamaCpp), ..scenario.clone() };
    if s.validate().is_err() {
        return Ok(None);
    }
    let f = fit(&s, device)?;
    // Ahead when it runs more of it on the device; at the same verdict, when it generates at
    // least twice as fast (llama.cpp computes its offloaded layers on the CPU where transformers
    // copies them over PCIe for every token).
    let speed = |f: &Fit| f.speed.as_ref().map_or(0.0, |sp| sp.decode_tokens_per_s);
    let faster =
        f.verdict == current.verdict && f.verdict == Verdict::Offload && speed(&f) >= 2.0 * speed(current);
    Ok((f.verdict.rank() > current.verdict.rank() || faster).then_some((Runtime::LlamaCpp, f)))
}

/// [`better_runtime`] on the scenario's own device (`None` without one, or when none does better).
pub fn better_runtime_here(scenario: &Scenario, current: &Fit) -> Option<(Runtime, Fit)> {
    let device = device_of(scenario.device.as_ref()?).ok()?;
    better_runtime(scenario, current, &device).ok().flatten()
}

/// The most faithful format (in [`QUANT_LADDER`] order) whose scenario fits the device entirely,
/// with its fit.
///
/// # Errors
/// What the estimate reports.
pub fn best_quant(scenario: &Scenario, device: &Device) -> Result<Option<(WeightFormat, Fit)>> {
    let r = resolve(&scenario.model)?;
    for f in QUANT_LADDER {
        let s = with_format(scenario, *f);
        let fit = fit_resolved(&s, &r, device)?;
        if fit.verdict == Verdict::Fits {
            return Ok(Some((*f, fit)));
        }
    }
    Ok(None)
}

/// Devices (or cloud instances) where the scenario fits entirely, at least `min_tokens_per_s`
/// when given, cheapest first (cloud by the hour, the rest by purchase price).
///
/// # Errors
/// What the estimate reports.
pub fn cheapest(
    scenario: &Scenario,
    min_tokens_per_s: Option<f64>,
    kind: Option<DeviceKind>,
) -> Result<Vec<Fit>> {
    let mut fits: Vec<Fit> = fit_all(scenario)?
        .into_iter()
        .filter(|f| f.verdict == Verdict::Fits)
        .filter(|f| kind.is_none_or(|k| f.kind == k))
        .filter(|f| min_tokens_per_s.is_none_or(|m| speed_key(f) >= m || scenario.mode.is_training()))
        .filter(|f| price_key(f).is_finite())
        .collect();
    crate::sort::sort_by(&mut fits, |a, b| {
        price_key(a).total_cmp(&price_key(b)).then_with(|| speed_key(b).total_cmp(&speed_key(a)))
    });
    Ok(fits)
}

/// One catalog model on a device, at the best format that fits.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ModelOnDevice {
    /// Catalog id.
    pub model: &'static str,
    /// The format that fits.
    pub format: WeightFormat,
    /// The fit.
    pub fit: Fit,
}

/// Which catalog models run entirely on a device, each at its most faithful format that fits,
/// fastest first.
///
/// # Errors
/// What the estimate reports.
pub fn models_for(device: &Device, scenario: &Scenario) -> Result<Vec<ModelOnDevice>> {
    let mut out = Vec::new();
    for m in catalog::models() {
        let s = Scenario { model: ModelSource::Catalog(m.id.into()), weights: None, ..scenario.clone() };
        if let Some((format, fit)) = best_quant(&s, device)? {
            out.push(ModelOnDevice { model: m.id, format, fit });
        }
    }
    crate::sort::sort_by(&mut out, |a, b| speed_key(&b.fit).total_cmp(&speed_key(&a.fit)));
    Ok(out)
}

impl Speed {
    /// No speed (for `no`).
    pub fn none() -> Speed {
        Speed {
            decode_tokens_per_s: 0.0,
            prefill_tokens_per_s: 0.0,
            ttft_s: 0.0,
            aggregate_tokens_per_s: 0.0,
            decode_limit: speed::Limit::WeightBandwidth,
            aggregate_limit: speed::Limit::WeightBandwidth,
            training_s: None,
            training_mfu: None,
            training_mfu_class: None,
            training_waiting_s: None,
            training_link: None,
            training_band_s: None,
        }
    }
}

/// A short text for logs and tests.
pub fn describe(f: &Fit) -> String {
    format!("{} {} ({:.0}% headroom)", f.device, f.verdict.id(), f.headroom * 100.0)
}

/// Fills the buy-versus-rent break-even of every owned device from the cheapest cloud instance
/// where the same scenario fits.
pub fn fill_break_even(fits: &mut [Fit], settings: &cost::CostSettings) {
    let settings = *settings;
    let rent = fits
        .iter()
        .filter(|f| f.verdict == Verdict::Fits && f.kind == DeviceKind::Cloud)
        .filter_map(|f| f.cost.usd_per_hour)
        .fold(f64::INFINITY, f64::min);
    if !rent.is_finite() {
        return;
    }
    for f in fits.iter_mut().filter(|f| f.verdict != Verdict::No && f.kind != DeviceKind::Cloud) {
        f.cost.break_even_months = cost::break_even_months(&f.cost, rent, &settings);
        f.cost.rent_reference_usd_per_hour = Some(rent);
    }
}

/// The scenario's estimate, and when it names a device, its fit there: the estimate then
/// describes the configuration the fit chose (the device's GPU count and runtime, the offloaded
/// layers, or the CPU), so its numbers and the verdict agree.
///
/// # Errors
/// What the estimate reports, or an unknown device.
pub fn estimate_with_device(scenario: &Scenario) -> Result<(Estimate, Option<Fit>)> {
    scenario.validate()?;
    let Some(choice) = &scenario.device else {
        return Ok((crate::estimate::estimate(scenario)?, None));
    };
    let device = device_of(choice)?;
    let reserve = scenario.reserve.bytes_on(&device);
    let memory = Bytes::new(device.memory_mib.saturating_mul(crate::units::MIB));
    if reserve >= memory {
        return Err(crate::Error::invalid(
            "reserve",
            alloc::format!(
                "{} is not less than {}'s {}: keep less free for other programs",
                crate::text::format_size(reserve, crate::text::Lang::En),
                device.name,
                crate::text::format_size(memory, crate::text::Lang::En)
            ),
        ));
    }
    let r = resolve(&scenario.model)?;
    let f = fit_with_break_even_resolved(scenario, &r, &device)?;
    let used = Scenario {
        runtime: Some(if f.verdict == Verdict::Cpu { Runtime::Cpu } else { f.runtime }),
        gpus: if f.verdict == Verdict::Cpu { 1 } else { f.gpus.max(1) },
        gpu_layers: f.gpu_layers.or(scenario.gpu_layers),
        llama: crate::scenario::LlamaOptions {
            cpu_moe: f.cpu_moe.or(scenario.llama.cpu_moe),
            ..scenario.llama.clone()
        },
        ..scenario.clone()
    };
    let e = estimate_resolved(&used, &r)?;
    Ok((e, Some(f)))
}

/// [`fit`] plus the break-even against the cheapest cloud instance that fits.
///
/// # Errors
/// As [`fit`].
pub fn fit_with_break_even(scenario: &Scenario, device: &Device) -> Result<Fit> {
    scenario.validate()?;
    let r = resolve(&scenario.model)?;
    fit_with_break_even_resolved(scenario, &r, device)
}

fn fit_with_break_even_resolved(scenario: &Scenario, r: &Resolved, device: &Device) -> Result<Fit> {
    let mut f = fit_resolved(scenario, r, device)?;
    if device.kind != DeviceKind::Cloud && f.verdict != Verdict::No {
        let mut rent = f64::INFINITY;
        for d in devices().iter().filter(|d| d.kind == DeviceKind::Cloud && d.usd_per_hour > 0.0) {
            if d.usd_per_hour < rent && fit_resolved(scenario, r, d)?.verdict == Verdict::Fits {
                rent = d.usd_per_hour;
            }
        }
        if rent.is_finite() {
            f.cost.break_even_months = cost::break_even_months(&f.cost, rent, &scenario.costs);
            f.cost.rent_reference_usd_per_hour = Some(rent);
        }
    }
    Ok(f)
}

#[cfg(test)]
mod cpu_moe_fit_tests {
    use super::*;
    use crate::precision::WeightFormat;

    /// A mixture of experts too big for the card keeps attention and KV on it and moves the
    /// experts of the fewest first layers to RAM, with its band's top inside the card.
    #[test]
    fn a_moe_too_big_for_the_card_keeps_the_fewest_layers_experts_in_ram() {
        let s = Scenario {
            weights: WeightFormat::parse("q4_k_m").ok(),
            context: 16384,
            device: Some(DeviceChoice::Catalog("rtx-4060-ti-16gb".into())),
            ..Scenario::catalog("qwen3-30b-a3b")
        };
        let (e, f) = estimate_with_device(&s).unwrap();
        let f = f.unwrap();
        assert_eq!(f.verdict, Verdict::Offload);
        let n = f.cpu_moe.unwrap();
        assert!(e.memory.total_high <= f.capacity, "the band's top fits");
        let fewer = Scenario {
            llama: crate::scenario::LlamaOptions { cpu_moe: Some(n - 1), ..Default::default() },
            device: None,
            ..s.clone()
        };
        assert!(
            crate::estimate::estimate(&fewer).unwrap().memory.total_high > f.capacity,
            "{n} is the fewest"
        );
        let cmd = &crate::flags::commands(&s, &e, Some(&f))[0];
        assert!(cmd.contains("-ngl 999") && cmd.ends_with(&format!("--n-cpu-moe {n}")), "{cmd}");
    }
}

/// One step of [`training_remedies`]: what was changed, and the scenario's memory after it and
/// every step before it.
#[derive(Clone, Debug, PartialEq)]
pub struct Remedy {
    /// What the step does, in the CLI's words (`--checkpointing full`…).
    pub step: String,
    /// What the step does, in words (the page's).
    pub label: Msg,
    /// The scenario with this step and the ones before it applied.
    pub scenario: Scenario,
    /// Memory per device it needs.
    pub need: Bytes,
    /// Whether it fits the device entirely.
    pub fits: bool,
}

/// What would make a training scenario fit `device`, in the order a practitioner tries it:
/// micro-batch 1 with gradient accumulation, gradient checkpointing, a fused loss, an 8-bit
/// optimizer, LoRA instead of full fine-tuning, QLoRA (and its unquantized parameters kept in
/// BF16), checkpoints offloaded to CPU memory, ZeRO-3 over the GPUs, the optimizer's states
/// offloaded to CPU memory. Each step keeps the ones before it; the list stops at the
/// first that fits (empty when the scenario already fits, or is not training); a step that saves
/// nothing for this scenario is skipped. A bigger card is what [`cheapest`] answers.
///
/// # Errors
/// What the estimate reports.
pub fn training_remedies(scenario: &Scenario, device: &Device) -> Result<Vec<Remedy>> {
    use crate::training::{Checkpointing, LossKernel, Mode, Offload, Optimizer};
    let mut out = Vec::new();
    if !scenario.mode.is_training() {
        return Ok(out);
    }
    let r = resolve(&scenario.model)?;
    if fit_resolved(scenario, &r, device)?.verdict == Verdict::Fits {
        return Ok(out);
    }
    let mut s = scenario.clone();
    // The device's GPUs are the ones the steps can shard over.
    s.gpus = gpus_on(device, scenario);
    type Step = (&'static str, fn(&Scenario) -> bool, fn(&mut Scenario));
    let steps: [Step; 12] = [
        (
            "--batch 1 --grad-accum N (same tokens per step)",
            |s| s.batch > 1,
            |s| {
                s.train.grad_accum = s.train.grad_accum.saturating_mul(s.batch);
                s.batch = 1;
            },
        ),
        (
            "--checkpointing full",
            |s| !s.checkpointing.recomputes(),
            |s| s.checkpointing = Checkpointing::Full,
        ),
        (
            "--loss fused (Liger, Unsloth, Cut Cross-Entropy)",
            |s| s.train.loss != LossKernel::Fused,
            |s| s.train.loss = LossKernel::Fused,
        ),
        (
            "--optimizer adamw-8bit",
            |s| !s.optimizer.is_8bit() && s.optimizer != Optimizer::Sgd,
            |s| s.optimizer = Optimizer::AdamW8bit,
        ),
        ("--mode lora", |s| s.mode == Mode::Full, |s| s.mode = Mode::Lora),
        ("--mode qlora", |s| s.mode == Mode::Lora, |s| s.mode = Mode::Qlora),
        (
            "--kbit-upcast off (BF16 embeddings and norms, as Unsloth and LLaMA-Factory keep them)",
            |s| s.mode == Mode::Qlora && s.train.kbit_upcast,
            |s| s.train.kbit_upcast = false,
        ),
        (
            "--checkpointing offloaded (layer inputs in CPU memory)",
            |s| s.checkpointing != Checkpointing::Offloaded,
            |s| s.checkpointing = Checkpointing::Offloaded,
        ),
        (
            "--device-map (model parallel: the layers split over the GPUs)",
            |s| s.gpus / s.tp.max(1) > 1 && !s.train.device_map && s.zero < 3,
            |s| s.train.device_map = true,
        ),
        (
            "--zero 3 (shard over the GPUs instead; or --framework fsdp)",
            |s| s.gpus / s.tp.max(1) > 1 && s.zero < 3,
            |s| {
                s.zero = 3;
                s.train.device_map = false;
            },
        ),
        (
            "--zero 2 --offload optimizer (ZeRO-Offload)",
            |s| s.offload == Offload::None,
            |s| {
                s.zero = s.zero.max(2);
                s.offload = Offload::Optimizer;
                s.train.device_map = false;
            },
        ),
        (
            "--zero 3 --offload all (parameters too: ZeRO-Infinity, FSDP's CPU offload)",
            |s| s.gpus / s.tp.max(1) > 1 && s.offload != Offload::OptimizerAndParams,
            |s| {
                s.zero = 3;
                s.offload = Offload::OptimizerAndParams;
                s.train.device_map = false;
            },
        ),
    ];
    let mut need = fit_resolved(&s, &r, device)?.need;
    const LABELS: [MsgId; 12] = [
        MsgId::RemedyBatch,
        MsgId::RemedyCheckpointing,
        MsgId::RemedyFusedLoss,
        MsgId::Remedy8bit,
        MsgId::RemedyLora,
        MsgId::RemedyQlora,
        MsgId::RemedyKbitOff,
        MsgId::RemedyOffloadedCheckpoints,
        MsgId::RemedyDeviceMap,
        MsgId::RemedyZero3,
        MsgId::RemedyOffloadOptimizer,
        MsgId::RemedyOffloadAll,
    ];
    for ((step, applies, apply), label) in steps.into_iter().zip(LABELS) {
        if !applies(&s) {
            continue;
        }
        let mut next = s.clone();
        apply(&mut next);
        let f = fit_resolved(&next, &r, device)?;
        // A step that saves nothing here (the peak is elsewhere) is not advice.
        if f.need >= need {
            continue;
        }
        s = next;
        need = f.need;
        let fits = f.verdict == Verdict::Fits;
        let step = step
            .replace("N (same tokens per step)", &format!("{} (same tokens per step)", s.train.grad_accum));
        let args = if label == MsgId::RemedyBatch { vec![Arg::Int(s.train.grad_accum)] } else { vec![] };
        out.push(Remedy { step, label: Msg::new(label, args), scenario: s.clone(), need: f.need, fits });
        if fits {
            break;
        }
    }
    Ok(out)
}

/// The largest micro-batch (sequences per step) whose training scenario fits `device`
/// entirely, by bisection up to 4,096; `None` when even one does not. In inference the batch is
/// the number of concurrent requests (sequences) at the scenario's context: this is then the
/// most concurrent requests that fit.
///
/// # Errors
/// What the estimate reports.
pub fn max_micro_batch(scenario: &Scenario, device: &Device) -> Result<Option<u64>> {
    let r = resolve(&scenario.model)?;
    largest_fitting(4096, |b| {
        let s = Scenario { batch: b, ..scenario.clone() };
        Ok(fit_resolved(&s, &r, device)?.verdict == Verdict::Fits)
    })
}

/// One LoRA setting of the rank/targets trade-off: what it trains and what it needs.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LoraOption {
    /// Adapter rank.
    pub rank: u64,
    /// Adapted modules (`q,k,v,o` or every linear layer).
    pub targets: crate::training::LoraTargets,
    /// Parameters trained.
    pub trainable: u64,
    /// Memory per device.
    pub need: Bytes,
    /// Whether it fits the device (none given: `None`).
    pub fits: Option<bool>,
    /// The scenario's own setting.
    pub current: bool,
}

/// The ranks of [`lora_tradeoff`].
pub const LORA_RANKS: [u64; 5] = [8, 16, 32, 64, 128];

/// LoRA's rank/targets trade-off for a LoRA or QLoRA scenario: ranks 8 to 128 on the attention
/// projections (`q,k,v,o`) and on every linear layer, each with what it trains and needs per
/// device (everything else as set up); empty for other modes. Higher ranks and more targets
/// train more (and adapt more), at more memory: adapters, their gradients and optimizer states,
/// and what each adapted module keeps for backward.
///
/// # Errors
/// What the estimate reports.
pub fn lora_tradeoff(scenario: &Scenario, device: Option<&Device>) -> Result<Vec<LoraOption>> {
    use crate::training::{LoraTargets, Mode};
    if !matches!(scenario.mode, Mode::Lora | Mode::Qlora) {
        return Ok(Vec::new());
    }
    let r = resolve(&scenario.model)?;
    let attention = LoraTargets::parse("q,k,v,o")?;
    let mut out = Vec::new();
    for targets in [attention, LoraTargets::AllLinear] {
        for rank in LORA_RANKS {
            let s = Scenario { lora_rank: rank, lora_targets: targets.clone(), ..scenario.clone() };
            let (need, fits, trainable) = match device {
                Some(d) => {
                    let f = fit_resolved(&s, &r, d)?;
                    let trainable = estimate_resolved(&s, &r)?.trainable_params;
                    (f.need, Some(f.verdict == Verdict::Fits), trainable)
                }
                None => {
                    let e = estimate_resolved(&s, &r)?;
                    (e.memory.total, None, e.trainable_params)
                }
            };
            let current = rank == scenario.lora_rank && targets == scenario.lora_targets;
            out.push(LoraOption { rank, targets: targets.clone(), trainable, need, fits, current });
        }
    }
    Ok(out)
}

/// What a training scenario on its device comes to beyond the verdict: what would make it fit,
/// and the longest sequence and largest micro-batch that fit as set up.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingAdvice {
    /// [`training_remedies`].
    pub remedies: Vec<Remedy>,
    /// [`max_context`].
    pub max_context: Option<u64>,
    /// [`max_micro_batch`].
    pub max_micro_batch: Option<u64>,
    /// [`lora_tradeoff`] (LoRA and QLoRA).
    pub lora: Vec<LoraOption>,
}

/// [`TrainingAdvice`] for a training scenario with a device (`None` otherwise).
///
/// # Errors
/// What the estimate reports.
pub fn training_advice(scenario: &Scenario) -> Result<Option<TrainingAdvice>> {
    let Some(choice) = scenario.device.as_ref() else { return Ok(None) };
    if !scenario.mode.is_training() {
        return Ok(None);
    }
    let device = device_of(choice)?;
    Ok(Some(TrainingAdvice {
        remedies: training_remedies(scenario, &device)?,
        max_context: max_context(scenario, &device)?,
        max_micro_batch: max_micro_batch(scenario, &device)?,
        lora: lora_tradeoff(scenario, Some(&device))?,
    }))
}

#[cfg(test)]
mod host_ram_tests {
    use super::*;
    use crate::precision::{GgufMix, WeightFormat};

    #[test]
    fn an_offload_checks_the_ram_beside_the_card_when_given_and_says_it_when_not() {
        let s = Scenario {
            weights: Some(WeightFormat::Gguf(GgufMix::Q4_K_M)),
            runtime: Some(Runtime::LlamaCpp),
            device: Some(DeviceChoice::Catalog("rtx-4090".into())),
            ..Scenario::catalog("llama-3.1-70b")
        };
        let d = catalog::device("rtx-4090").unwrap();
        let unknown = fit(&s, d).unwrap();
        assert_eq!(unknown.verdict, Verdict::Offload);
        assert!(unknown.advice.iter().any(|m| m.id == MsgId::NoteOffloadRamUnchecked));
        let need = unknown.host_need;
        let short = fit(&Scenario { host_ram_gib: Some(16.0), ..s.clone() }, d).unwrap();
        assert_ne!(short.verdict, Verdict::Offload, "{} of RAM needed", need.get());
        assert!(short.advice.iter().any(|m| m.id == MsgId::AdviceOffloadNeedsRam));
        let enough = fit(&Scenario { host_ram_gib: Some(64.0), ..s.clone() }, d).unwrap();
        assert_eq!((enough.verdict, enough.host_need), (Verdict::Offload, need));
        assert!(
            !enough
                .advice
                .iter()
                .any(|m| matches!(m.id, MsgId::NoteOffloadRamUnchecked | MsgId::AdviceOffloadNeedsRam))
        );
        // A cloud instance keeps its own RAM.
        let cloud = devices().iter().find(|d| d.kind == DeviceKind::Cloud && d.host_ram_gib > 0.0).unwrap();
        let c = Scenario { device: Some(DeviceChoice::Catalog(cloud.id.into())), ..s.clone() };
        assert_eq!(
            fit(&Scenario { host_ram_gib: Some(1.0), ..c.clone() }, cloud).unwrap(),
            fit(&c, cloud).unwrap()
        );
        // In the link.
        let l = crate::share::encode(&Scenario { host_ram_gib: Some(64.0), ..s.clone() });
        assert!(l.contains("hostram=64"), "{l}");
        assert_eq!(crate::share::decode(&l).scenario.host_ram_gib, Some(64.0));
        assert!(!crate::share::decode("?v=1&hostram=0").ignored.is_empty());
        assert!(Scenario { host_ram_gib: Some(0.5), ..s }.validate().is_err());
    }
}

#[cfg(test)]
mod better_runtime_tests {
    use super::*;

    #[test]
    fn a_runtime_that_needs_it_all_on_the_gpu_is_told_llama_cpp_would_offload() {
        let d = catalog::device("rtx-4090").unwrap();
        let s = Scenario {
            runtime: Some(Runtime::Vllm),
            device: Some(DeviceChoice::Catalog("rtx-4090".into())),
            ..Scenario::catalog("qwen3-32b")
        };
        let here = fit(&s, d).unwrap();
        assert_eq!(here.verdict, Verdict::No);
        let (r, f) = better_runtime(&s, &here, d).unwrap().unwrap();
        assert_eq!(r, Runtime::LlamaCpp);
        assert!(f.verdict.rank() > here.verdict.rank() && f.runtime == Runtime::LlamaCpp, "{:?}", f.verdict);
        // transformers offloads too (device_map), copying its layers over PCIe for every token:
        // llama.cpp is named for its speed.
        let s = Scenario { runtime: Some(Runtime::Transformers), ..s };
        let here = fit(&s, d).unwrap();
        assert_eq!(here.verdict, Verdict::Offload);
        let (_, f) = better_runtime(&s, &here, d).unwrap().unwrap();
        let tps = |f: &Fit| f.speed.as_ref().unwrap().decode_tokens_per_s;
        assert!(f.verdict == Verdict::Offload && tps(&f) >= 2.0 * tps(&here));
        // Nothing to say where it fits, or where llama.cpp already runs it.
        let small = Scenario { model: ModelSource::Catalog("llama-3.1-8b".into()), ..s.clone() };
        assert!(better_runtime(&small, &fit(&small, d).unwrap(), d).unwrap().is_none());
        let llama = Scenario { runtime: Some(Runtime::LlamaCpp), ..s };
        assert!(better_runtime(&llama, &fit(&llama, d).unwrap(), d).unwrap().is_none());
    }
}

#[cfg(test)]
mod order_tests {
    use super::*;

    #[test]
    fn the_device_table_sorts_by_each_column() {
        let s = Scenario::catalog("llama-3.1-8b");
        let all = fit_all(&s).unwrap();
        for order in FitOrder::ALL {
            assert_eq!(FitOrder::parse(order.id()), Some(order));
            let mut v = all.clone();
            sort_fits_by(&mut v, order);
            assert_eq!(v.len(), all.len());
            let running: Vec<&Fit> = v.iter().take_while(|f| f.verdict != Verdict::No).collect();
            match order {
                FitOrder::Fit => assert_eq!(v, all, "the default order"),
                FitOrder::Headroom => assert!(v.windows(2).all(|w| w[0].headroom >= w[1].headroom)),
                FitOrder::Speed => assert!(running.windows(2).all(|w| speed_key(w[0]) >= speed_key(w[1]))),
                FitOrder::Price => assert!(running.windows(2).all(|w| price_key(w[0]) <= price_key(w[1]))),
                FitOrder::PerMillion => {
                    let m = |f: &Fit| f.cost.usd_per_million_tokens.unwrap_or(f64::INFINITY);
                    assert!(running.windows(2).all(|w| m(w[0]) <= m(w[1])));
                }
            }
            if order != FitOrder::Headroom {
                assert!(v.iter().skip(running.len()).all(|f| f.verdict == Verdict::No), "{order:?}");
            }
        }
        assert_eq!(FitOrder::parse("nope"), None);
    }
}

#[cfg(test)]
mod apu_tests {
    use super::*;
    use crate::hardware::support;

    #[test]
    fn an_apu_gives_its_gpu_the_share_its_os_does_and_says_how_to_change_it() {
        let at = |id: &str, share: Option<f64>| {
            let d = catalog::device(id).unwrap();
            let s = Scenario {
                weights: Some(WeightFormat::parse("q4_k_m").unwrap()),
                device: Some(DeviceChoice::Catalog(id.into())),
                mac_gpu_fraction: share,
                ..Scenario::catalog("llama-3.1-70b")
            };
            (fit(&s, d).unwrap(), d)
        };
        // Strix Halo under Linux: half of the 128 GiB by default (TTM's limit).
        let (f, d) = at("ryzen-ai-max-395-128gb", None);
        assert_eq!(f.capacity, Bytes::from_gib(64));
        assert!(f.advice.iter().any(|m| m.id == MsgId::NoteApuShareAmd), "{:?}", f.advice);
        assert!(support(d).rocm && !support(d).cuda);
        // Raised (ttm.pages_limit): the share the user gives, and no note.
        let (raised, _) = at("ryzen-ai-max-395-128gb", Some(0.9));
        assert_eq!(raised.capacity, Bytes::from_gib(128).scale(0.9));
        assert!(!raised.advice.iter().any(|m| m.id == MsgId::NoteApuShareAmd));
        // DGX Spark: what an idle DGX OS leaves available, and CUDA.
        let (spark, d) = at("dgx-spark", None);
        assert!((spark.capacity.as_gib() - 113.1).abs() < 0.01, "{}", spark.capacity.as_gib());
        assert!(support(d).cuda && support(d).fp4);
        assert_eq!(spark.verdict, Verdict::Fits);
        // One memory: llama.cpp never splits layers into "system RAM" there; what does not fit
        // the GPU's share runs on the CPU from the whole memory.
        let (small, _) = at("ryzen-ai-max-385-32gb", None);
        assert!(small.gpu_layers.is_none() && small.verdict != Verdict::Offload, "{:?}", small.verdict);
        assert_eq!(small.host_capacity, Some(Bytes::from_gib(32)));
        // The GPU's part and the CPU's part share the one memory: both must fit it together.
        let d = catalog::device("ryzen-ai-max-395-128gb").unwrap();
        let s = Scenario {
            weights: Some(WeightFormat::parse("q4_k_m").unwrap()),
            device: Some(DeviceChoice::Catalog(d.id.into())),
            mac_gpu_fraction: Some(1.0),
            ..Scenario::catalog("llama-3.1-70b")
        };
        let longest = max_context(&s, d).unwrap().unwrap();
        let at_most = fit(&Scenario { context: longest, ..s.clone() }, d).unwrap();
        assert!(at_most.need.saturating_add(at_most.host_need) <= Bytes::from_gib(128));
        // The GPU's share alone would allow a longer context than the one memory does.
        assert!(at_most.need < Bytes::from_gib(128), "{:?}", at_most.need);
    }
}

#[cfg(test)]
mod instance_tests {
    use super::*;

    /// A one-GPU instance does not hold a scenario across eight GPUs (its price is one GPU's);
    /// an eight-GPU instance does, and one card bought eight times does.
    #[test]
    fn an_instance_with_fewer_gpus_than_the_scenario_spans_does_not_run_it() {
        let s = Scenario { gpus: 8, runtime: Some(Runtime::Vllm), ..Scenario::catalog("llama-3.1-70b") };
        let one = devices().iter().find(|d| d.kind == DeviceKind::Cloud && d.count == 1).unwrap();
        let f = fit(&s, one).unwrap();
        assert_eq!(f.verdict, Verdict::No);
        assert_eq!(f.refusal().map(|m| m.id), Some(MsgId::AdviceInstanceTooFewGpus));
        let eight = devices()
            .iter()
            .find(|d| d.kind == DeviceKind::Cloud && d.count == 8 && d.memory_mib >= 80 * 1024)
            .unwrap();
        assert_ne!(fit(&s, eight).unwrap().verdict, Verdict::No);
        let card = catalog::device("h100-sxm").unwrap();
        assert_ne!(fit(&s, card).unwrap().verdict, Verdict::No);
        // Training over more GPUs than an instance has spans several, each rented.
        let t = Scenario {
            gpus: 16,
            mode: crate::training::Mode::Full,
            runtime: None,
            ..Scenario::catalog("llama-3.1-8b")
        };
        let f = fit(&t, one).unwrap();
        assert_ne!(f.refusal().map(|m| m.id), Some(MsgId::AdviceInstanceTooFewGpus));
        let hourly = f.cost.usd_per_hour.unwrap();
        assert!((hourly - 16.0 * one.usd_per_hour).abs() < 1e-9, "{hourly}");
    }
}
