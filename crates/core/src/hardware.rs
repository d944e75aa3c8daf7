//! What a device offers the model: usable memory, bandwidth, compute, and the system beside it.
//!
//! Capacities follow DESIGN.md: a card sold as "24 GB" holds 24 GiB. Macs give their GPU only
//! part of the unified memory (macOS's `recommendedMaxWorkingSetSize`: about 67% of RAM up to
//! 16 GB, 75% above — `../shared/reference/hardware/notes.md` §2), adjustable with
//! `iogpu.wired_limit_mb`. CPU bandwidth is the theoretical `MT/s × 8 B × channels`, of which
//! about 0.65–0.85 is achievable.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::catalog::device::{Device, DeviceKind};
use crate::error::{Error, Result};
use crate::inference::Runtime;
use crate::precision::WeightFormat;
use crate::text::{Arg, Msg, MsgId};
use crate::units::{Bytes, BytesPerSec, FlopsPerSec, MIB};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The user's own machine ("my machine"), described by its numbers.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MyMachine {
    /// GPU memory per GPU in GiB; 0 for a machine without a discrete GPU.
    pub vram_gib: f64,
    /// System RAM in GiB (a Mac's unified memory).
    pub ram_gib: f64,
    /// Whether the memory is unified (Apple Silicon).
    pub unified: bool,
    /// GPU memory bandwidth in GB/s (0: unknown, a typical value for the size is assumed).
    pub bandwidth_gbs: f64,
    /// GPU FP16 TFLOP/s (0: unknown).
    pub tflops: f64,
}

/// The device a scenario runs on.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum DeviceChoice {
    /// A catalog device by id.
    Catalog(String),
    /// The user's own machine.
    Mine(MyMachine),
}

impl MyMachine {
    /// A machine with nothing filled in yet.
    pub const EMPTY: MyMachine =
        MyMachine { vram_gib: 0.0, ram_gib: 0.0, unified: false, bandwidth_gbs: 0.0, tflops: 0.0 };

    /// Checks the numbers.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the field.
    pub fn validate(&self) -> Result<()> {
        let ok = |v: f64, max: f64| v.is_finite() && (0.0..=max).contains(&v);
        if !ok(self.vram_gib, 1_048_576.0) {
            return Err(Error::invalid("vram", format!("{} GiB is out of range", self.vram_gib)));
        }
        if !ok(self.ram_gib, 1_048_576.0) || (self.ram_gib == 0.0 && self.vram_gib == 0.0) {
            return Err(Error::invalid(
                "ram",
                "give the machine's RAM in GiB (and its GPU memory if it has one)",
            ));
        }
        if !ok(self.bandwidth_gbs, 100_000.0) || !ok(self.tflops, 100_000.0) {
            return Err(Error::invalid("bandwidth", "bandwidth and TFLOP/s must be positive numbers"));
        }
        Ok(())
    }

    /// The machine as a catalog-style device.
    pub fn device(&self) -> Device {
        let (kind, mem_gib, bw, tf) = if self.unified {
            (
                DeviceKind::Apple,
                self.ram_gib,
                if self.bandwidth_gbs > 0.0 { self.bandwidth_gbs } else { 120.0 },
                self.tflops,
            )
        } else if self.vram_gib > 0.0 {
            // Unknown GPU bandwidth: a mid-range card's.
            (
                DeviceKind::Gpu,
                self.vram_gib,
                if self.bandwidth_gbs > 0.0 { self.bandwidth_gbs } else { 450.0 },
                self.tflops,
            )
        } else {
            (
                DeviceKind::Cpu,
                self.ram_gib,
                if self.bandwidth_gbs > 0.0 { self.bandwidth_gbs } else { 76.8 },
                self.tflops,
            )
        };
        let tflops = if tf > 0.0 {
            tf
        } else {
            match kind {
                DeviceKind::Apple => 7.0,
                DeviceKind::Cpu => 1.5,
                _ => 40.0,
            }
        };
        Device {
            id: "my-machine",
            aliases: &[],
            name: "My machine",
            kind,
            vendor: "",
            count: 1,
            memory_mib: crate::ops::round_u64(mem_gib * 1024.0).unwrap_or(0),
            compute_capability: 0,
            bandwidth_gbs: bw,
            fp16_tflops: tflops,
            fp8_tflops: 0.0,
            int8_tops: 0.0,
            tdp_w: 0.0,
            price_usd: 0.0,
            usd_per_hour: 0.0,
            host_ram_gib: self.ram_gib,
            link: crate::catalog::device::links::NONE,
            source: "entered by the user",
            date: "",
        }
    }
}

/// The default share of a Mac's unified memory its GPU may wire: 2/3 below 36 GiB of RAM, 75%
/// from 36 GiB (macOS `recommendedMaxWorkingSetSize` as llama.cpp logs it: 10,922.67 MiB on
/// 16 GB, 17,179.89 MB on 24 GB, 22,906.50 MB on 32 GB — all 2/3 —, 28,991.03 MB on 36 GB and
/// 51,539.61 MB on 64 GB — 75%).
pub fn default_mac_gpu_fraction(ram: Bytes) -> f64 {
    if ram.get() < 36 * crate::units::GIB { 2.0 / 3.0 } else { 0.75 }
}

/// The default share of an APU's unified memory its GPU may use: on AMD's Ryzen AI Max under
/// Linux, half of the RAM (the TTM page limit's default, which amdgpu's GTT follows; ROCm's
/// "AMD RDNA3.5 system optimization"), raised with `ttm.pages_limit` (Windows: the Variable
/// Graphics Memory carve-out, up to 96 of 128 GB, plus shared memory); on NVIDIA's DGX Spark, what
/// an idle DGX OS leaves available (`MemAvailable` 113.1 of 128 GiB, which CUDA, vLLM and
/// llama.cpp read on that machine).
pub fn default_apu_gpu_fraction(d: &Device) -> f64 {
    // DGX OS leaves 113.1 of a Spark's 128 GB to the GPU; Linux's TTM limit gives a Ryzen AI Max's
    // GPU half the RAM; Windows caps an Intel iGPU's shared memory at half the RAM (Intel's FAQ
    // 000020962; Linux gives it more: Level Zero 80%, Mesa's Vulkan 3/4).
    if d.vendor.eq_ignore_ascii_case("nvidia") { 113.1 / 128.0 } else { 0.5 }
}

/// The default share of a machine's one memory its GPU may use (a Mac, an APU); `None` for
/// machines whose GPU has its own memory, or none.
pub fn default_gpu_share(d: &Device) -> Option<f64> {
    match d.kind {
        DeviceKind::Apple => Some(default_mac_gpu_fraction(Bytes::new(d.memory_mib.saturating_mul(MIB)))),
        DeviceKind::Apu => Some(default_apu_gpu_fraction(d)),
        _ => None,
    }
}

/// Broad classes of device that share efficiencies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// An NVIDIA, AMD or Intel GPU (cards, laptops, cloud).
    Gpu,
    /// Apple Silicon (Metal, unified memory).
    Apple,
    /// A CPU.
    Cpu,
}

/// What a device offers, resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capability {
    /// The class.
    pub class: Class,
    /// Accelerators.
    pub count: u64,
    /// Memory per accelerator (all of it).
    pub memory: Bytes,
    /// Memory per accelerator the runtime may use (Mac GPU limit, vLLM's utilisation).
    pub usable: Bytes,
    /// Memory bandwidth per accelerator.
    pub bandwidth: BytesPerSec,
    /// Dense FP16 throughput per accelerator.
    pub fp16: FlopsPerSec,
    /// Dense FP8 throughput per accelerator (0 when absent).
    pub fp8: FlopsPerSec,
    /// Dense INT8 tensor throughput per accelerator, operations per second (0 when not known).
    pub int8: FlopsPerSec,
    /// NVIDIA's compute capability × 10 (0 for other vendors or when not stated).
    pub cuda_cc: u16,
    /// Whether the accelerator is an AMD GPU (ROCm / HIP back ends).
    pub amd: bool,
    /// Whether it is an AMD Instinct (CDNA) accelerator rather than a Radeon.
    pub amd_instinct: bool,
    /// Whether it is an Intel GPU sharing the machine's memory (Core Ultra's Arc iGPUs).
    pub intel_igpu: bool,
    /// System RAM beside the accelerators, when known (for Macs and CPUs, the memory itself).
    pub host_ram: Option<Bytes>,
    /// System RAM bandwidth (for offloaded layers and CPU inference).
    pub host_bandwidth: BytesPerSec,
    /// Whether accelerators share memory with the CPU (Apple).
    pub unified: bool,
    /// How the accelerators reach each other (tensor- and data-parallel traffic).
    pub link: crate::catalog::device::Link,
}

impl Capability {
    /// The CPU beside the accelerators, for a model that falls back to it: system RAM and its
    /// bandwidth, and the CPU's own compute. A catalog CPU machine is itself; beside a GPU or in
    /// a Mac the CPU's compute is not in the catalog, so a typical figure stands in: about
    /// 1 TFLOP/s for a desktop, laptop or Apple CPU (8–16 cores × 3–4 GHz × 16–32 FP32 FLOPs per
    /// cycle with FMA), 4 TFLOP/s for the server behind a cloud GPU (dozens of cores).
    pub fn host_cpu(&self, cloud: bool) -> Capability {
        if self.class == Class::Cpu {
            return *self;
        }
        Capability {
            class: Class::Cpu,
            count: 1,
            bandwidth: self.host_bandwidth,
            fp16: FlopsPerSec::from_tflops(if cloud { 4.0 } else { 1.0 }),
            fp8: FlopsPerSec::from_tflops(0.0),
            int8: FlopsPerSec::from_tflops(0.0),
            cuda_cc: 0,
            amd: false,
            amd_instinct: false,
            intel_igpu: false,
            unified: false,
            ..*self
        }
    }

    /// The device as a runtime sees it.
    pub fn of(d: &Device, runtime: Runtime, mac_gpu_fraction: Option<f64>) -> Capability {
        let memory = Bytes::new(d.memory_mib.saturating_mul(MIB));
        let class = match d.kind {
            DeviceKind::Apple => Class::Apple,
            DeviceKind::Cpu => Class::Cpu,
            _ => Class::Gpu,
        };
        let apu = d.kind == DeviceKind::Apu;
        let sup = support(d);
        let usable = match (class, default_gpu_share(d)) {
            // One memory (a Mac, an APU): the GPU gets its share; llama.cpp can run on the CPU
            // cores from the whole memory.
            (_, Some(share)) => {
                let f = mac_gpu_fraction.unwrap_or(share);
                if runtime == Runtime::Cpu { memory } else { memory.scale(f.clamp(0.05, 1.0)) }
            }
            (Class::Gpu, None) if runtime == Runtime::Vllm => {
                memory.scale(crate::inference::VLLM_GPU_MEMORY_UTILIZATION)
            }
            _ => memory,
        };
        let host_ram = match class {
            Class::Apple | Class::Cpu => Some(memory),
            Class::Gpu if apu => Some(memory),
            Class::Gpu if d.host_ram_gib > 0.0 => Bytes::from_gib_f64(d.host_ram_gib),
            Class::Gpu => None,
        };
        let host_bandwidth = match (class, d.kind) {
            (Class::Apple | Class::Cpu, _) | (_, DeviceKind::Apu) => {
                BytesPerSec::from_gb_per_s(d.bandwidth_gbs)
            }
            // Servers behind cloud GPUs: several DDR5 channels per socket.
            (_, DeviceKind::Cloud) => BytesPerSec::from_gb_per_s(200.0),
            // A desktop or laptop beside the card: dual-channel DDR5.
            _ => BytesPerSec::from_gb_per_s(76.8),
        };
        Capability {
            class,
            count: u64::from(d.count.max(1)),
            memory,
            usable,
            bandwidth: BytesPerSec::from_gb_per_s(d.bandwidth_gbs),
            fp16: FlopsPerSec::from_tflops(d.fp16_tflops),
            fp8: FlopsPerSec::from_tflops(d.fp8_tflops),
            int8: FlopsPerSec::from_tflops(d.int8_tops),
            cuda_cc: if sup.cuda { d.compute_capability } else { 0 },
            amd: sup.rocm,
            amd_instinct: sup.rocm && d.name.to_ascii_lowercase().contains("instinct"),
            intel_igpu: d.kind == DeviceKind::Apu && d.vendor.eq_ignore_ascii_case("intel"),
            host_ram,
            host_bandwidth,
            unified: class == Class::Apple || apu,
            link: d.link,
        }
    }

    /// Peak dense throughput for a weight format: FP8 checkpoints use the FP8 units where the
    /// device has them; everything else (quantized formats dequantize) the FP16 ones.
    pub fn peak(&self, format: WeightFormat) -> FlopsPerSec {
        if format.is_fp8() && self.fp8.get() > 0.0 { self.fp8 } else { self.fp16 }
    }
}

/// The runtime to use on a device when the scenario does not name one: a model with
/// cross-attention layers with `transformers` everywhere; GGUF with llama.cpp everywhere; on a Mac,
/// MLX for other formats; on a CPU, the CPU runtime; else by format.
pub fn runtime_for(
    device: &Device,
    format: WeightFormat,
    requested: Option<Runtime>,
    cross: bool,
) -> Runtime {
    if let Some(r) = requested {
        return r;
    }
    if cross {
        return Runtime::default_for_model(format, true);
    }
    match device.kind {
        DeviceKind::Cpu => Runtime::Cpu,
        DeviceKind::Apple if !format.is_gguf() => Runtime::Mlx,
        _ => Runtime::default_for(format),
    }
}

/// Whether a runtime runs on a device at all (vLLM has no Metal back end; MLX needs Apple
/// Silicon; the GPU runtimes need a GPU).
pub fn runtime_runs_on(runtime: Runtime, device: &Device) -> bool {
    match (runtime, device.kind) {
        (Runtime::Mlx, DeviceKind::Apple) => true,
        (Runtime::Mlx, _) => false,
        (Runtime::Vllm | Runtime::Sglang, DeviceKind::Apple | DeviceKind::Cpu) => false,
        _ => true,
    }
}

/// Memory kept free for the desktop, the OS and other programs ("free rather than total").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Reserve {
    /// None: the whole memory (as a data-centre card or a headless machine gives it).
    #[default]
    None,
    /// The device's default ([`default_reserve`]).
    Auto,
    /// This many MiB.
    Mib(u64),
}

/// The largest reserve accepted: 1 TiB.
pub const MAX_RESERVE_MIB: u64 = 1 << 20;

impl Reserve {
    /// Parses `none`, `auto`, or GiB (`1.5`).
    ///
    /// # Errors
    /// [`Error::Invalid`] on `reserve` for anything else, or a size that is negative or over
    /// 1 TiB.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        match t.to_ascii_lowercase().as_str() {
            "" | "none" | "off" | "0" => Ok(Reserve::None),
            "auto" | "default" => Ok(Reserve::Auto),
            v => match v.trim_end_matches("gib").trim_end_matches("gb").trim().parse::<f64>() {
                Ok(g) if g.is_finite() && g >= 0.0 && g * 1024.0 <= MAX_RESERVE_MIB as f64 => {
                    let mib = crate::ops::round_u64(g * 1024.0).unwrap_or(0);
                    Ok(if mib == 0 { Reserve::None } else { Reserve::Mib(mib) })
                }
                _ => Err(Error::invalid(
                    "reserve",
                    format!("`{t}` is not a reserve; write none, auto, or GiB such as 1.5 (at most 1024)"),
                )),
            },
        }
    }

    /// `auto`, or MiB, for links; `none` for none.
    pub fn id(self) -> String {
        match self {
            Reserve::None => "none".into(),
            Reserve::Auto => "auto".into(),
            Reserve::Mib(m) => format!("{m}"),
        }
    }

    /// Bytes kept free on `d`.
    pub fn bytes_on(self, d: &Device) -> Bytes {
        match self {
            Reserve::None => Bytes::ZERO,
            Reserve::Auto => default_reserve(d),
            Reserve::Mib(m) => Bytes::new(m.saturating_mul(MIB)),
        }
    }
}

/// What a device's desktop, OS and other programs usually hold: 512 MiB of a card that drives a
/// display (GeForce, RTX workstation, Radeon, Arc, a laptop's GPU: the compositor and browser), 4 GiB
/// of a Mac's unified memory (macOS and apps), 2 GiB of a CPU machine's RAM; nothing on
/// data-centre cards and cloud instances.
pub fn default_reserve(d: &Device) -> Bytes {
    let display = ["GeForce", "RTX", "Radeon", "Arc"].iter().any(|w| d.name.contains(w));
    match d.kind {
        DeviceKind::Cloud => Bytes::ZERO,
        DeviceKind::Apple | DeviceKind::Apu => Bytes::new(4096 * MIB),
        DeviceKind::Cpu => Bytes::new(2048 * MIB),
        DeviceKind::Laptop => Bytes::new(512 * MIB),
        DeviceKind::Gpu if display => Bytes::new(512 * MIB),
        DeviceKind::Gpu => Bytes::ZERO,
    }
}

/// What a device's hardware and software stack run (`support`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Support {
    /// An NVIDIA GPU with CUDA.
    pub cuda: bool,
    /// An AMD GPU with ROCm.
    pub rocm: bool,
    /// Apple Silicon (Metal, MLX).
    pub metal: bool,
    /// BF16 arithmetic (NVIDIA: compute capability 8.0, Ampere, and later).
    pub bf16: bool,
    /// FP8 tensor cores (NVIDIA 8.9, Ada, and later; AMD MI300 and later).
    pub fp8: bool,
    /// FP8 and FP4 checkpoints run at all, if only weight-only (vLLM's Marlin kernels: NVIDIA 8.0
    /// and later); FP8 natively with [`Support::fp8`].
    pub low_bit_weights: bool,
    /// FP4 tensor cores (NVIDIA Blackwell, 10.0 and later).
    pub fp4: bool,
}

/// What `d` runs. An NVIDIA GPU whose compute capability is not stated (your own machine) is
/// taken as a current one.
pub fn support(d: &Device) -> Support {
    let gpu_kind =
        matches!(d.kind, DeviceKind::Gpu | DeviceKind::Cloud | DeviceKind::Laptop | DeviceKind::Apu);
    // A GPU of no stated vendor (your own machine) is taken as an NVIDIA one.
    let cuda = gpu_kind && matches!(d.vendor, "NVIDIA" | "");
    let rocm = gpu_kind && d.vendor == "AMD";
    let cc = d.compute_capability;
    let known = cc > 0;
    let amd_fp8 = rocm && (d.name.contains("MI3") || d.name.contains("MI4"));
    Support {
        cuda,
        rocm,
        metal: d.kind == DeviceKind::Apple,
        bf16: !cuda || !known || cc >= 80,
        fp8: if cuda { !known || cc >= 89 } else { amd_fp8 },
        low_bit_weights: if cuda { !known || cc >= 80 } else { rocm },
        fp4: cuda && (!known || cc >= 100),
    }
}

/// The weight formats a device runs, by name (`headroom devices --json`'s `formats`).
pub fn formats(d: &Device) -> Vec<&'static str> {
    let s = support(d);
    let mut out = vec!["fp32", "fp16"];
    if s.bf16 {
        out.push("bf16");
    }
    if s.cuda || s.rocm {
        if s.low_bit_weights {
            out.extend(["fp8", "mxfp4", "nvfp4"]);
        }
        out.extend(["int8", "gptq", "awq", "nf4"]);
    }
    if s.metal {
        out.push("mlx");
    }
    out.push("gguf");
    out
}

/// Why a format, precision or library cannot run on `d`, as a message naming what would; `None`
/// when it can. `bf16` is the 16-bit type the run computes in; `bnb` whether it needs
/// bitsandbytes (QLoRA, NF4 weights) under a PyTorch runtime.
pub fn cannot_run(d: &Device, runtime: Runtime, format: WeightFormat, bf16: bool, bnb: bool) -> Option<Msg> {
    let s = support(d);
    let cc = Arg::Num(f64::from(d.compute_capability) / 10.0, 1);
    let pytorch = matches!(runtime, Runtime::Vllm | Runtime::Sglang | Runtime::Transformers);
    if bnb && pytorch && !(s.cuda || s.rocm) {
        return Some(Msg::new(
            if s.metal { MsgId::AdviceBnbNoMetal } else { MsgId::AdviceBnbNeedsGpu },
            vec![Arg::Text(d.name.into())],
        ));
    }
    if pytorch && s.cuda && !s.low_bit_weights {
        let what = match format {
            WeightFormat::Fp8 | WeightFormat::Fp8Scaled { .. } => Some("FP8"),
            WeightFormat::Mxfp4 => Some("MXFP4"),
            WeightFormat::Nvfp4 | WeightFormat::Nvfp4A16 => Some("NVFP4"),
            _ => None,
        };
        if let Some(w) = what {
            return Some(Msg::new(
                MsgId::AdviceNoLowBitKernels,
                vec![Arg::Text(d.name.into()), cc, Arg::Text(w.into())],
            ));
        }
    }
    if pytorch && bf16 && !s.bf16 {
        return Some(Msg::new(MsgId::AdviceNoBf16, vec![Arg::Text(d.name.into()), cc]));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mac_gpu_limit() {
        assert!((default_mac_gpu_fraction(Bytes::from_gib(16)) - 0.6667).abs() < 0.001);
        assert_eq!(default_mac_gpu_fraction(Bytes::from_gib(64)), 0.75);
        let share = |id: &str| default_gpu_share(crate::catalog::device(id).unwrap());
        assert_eq!(share("m2-max-64gb"), Some(0.75));
        assert_eq!(share("ryzen-ai-max-395-128gb"), Some(0.5));
        assert!(share("dgx-spark").is_some_and(|f| (f - 113.1 / 128.0).abs() < 1e-12));
        assert_eq!(share("rtx-4090"), None);
        // The logged working sets, in MB (10^6 bytes).
        for (gib, mb) in [(24, 17_179.89), (32, 22_906.50), (36, 28_991.03), (64, 51_539.61)] {
            let got =
                default_mac_gpu_fraction(Bytes::from_gib(gib)) * (gib as f64) * (1u64 << 30) as f64 / 1e6;
            assert!((got - mb).abs() < 0.05, "{gib} GiB: {got}");
        }
    }

    #[test]
    fn my_machine_validates() {
        let m = MyMachine { vram_gib: 24.0, ram_gib: 64.0, unified: false, bandwidth_gbs: 0.0, tflops: 0.0 };
        assert!(m.validate().is_ok());
        assert_eq!(m.device().memory_mib, 24 * 1024);
        let bad = MyMachine { vram_gib: f64::NAN, ..m.clone() };
        assert!(bad.validate().is_err());
        let none = MyMachine { vram_gib: 0.0, ram_gib: 0.0, ..m };
        assert!(none.validate().is_err());
    }

    #[test]
    fn the_cpu_beside_a_gpu_has_its_own_speed() {
        let d = crate::catalog::device("rtx-4090").unwrap();
        let cap = Capability::of(d, Runtime::LlamaCpp, None);
        let cpu = cap.host_cpu(false);
        assert_eq!(cpu.class, Class::Cpu);
        assert_eq!(cpu.bandwidth, cap.host_bandwidth);
        assert!(cpu.fp16.get() < cap.fp16.get() / 50.0, "a CPU is not a 4090");
        let m = crate::catalog::device("ryzen-9-7950x-ddr5-5200-64gb").unwrap();
        let c = Capability::of(m, Runtime::Cpu, None);
        assert_eq!(c.host_cpu(false), c, "a CPU machine is itself");
    }
}
