//! The hardware catalog's row type. The rows themselves are in `devices.rs`, each with its
//! source and date.

#[cfg(feature = "serde")]
use serde::Serialize;

/// What kind of machine a catalog row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum DeviceKind {
    /// A discrete GPU or accelerator card (or several of them in one machine).
    Gpu,
    /// An Apple Silicon Mac: unified memory shared by CPU and GPU.
    Apple,
    /// A laptop with a discrete mobile GPU.
    Laptop,
    /// A CPU-only machine: inference and training on the CPU from system RAM.
    Cpu,
    /// A cloud instance, rented by the hour.
    Cloud,
    /// A machine whose CPU and GPU share one memory, other than a Mac (NVIDIA DGX Spark, AMD Ryzen
    /// AI Max "Strix Halo"): the GPU may use a share of it, set by the OS.
    Apu,
}

impl DeviceKind {
    /// The id used by the CLI and JSON.
    pub const fn id(self) -> &'static str {
        match self {
            DeviceKind::Gpu => "gpu",
            DeviceKind::Apple => "apple",
            DeviceKind::Laptop => "laptop",
            DeviceKind::Cpu => "cpu",
            DeviceKind::Cloud => "cloud",
            DeviceKind::Apu => "apu",
        }
    }
}

/// One catalog device. Numbers are per accelerator unless the field says otherwise; 0.0 means
/// "not known" (never a guess).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Device {
    /// Stable kebab-case id (`rtx-4090`, `h100-sxm`, `m3-max-128gb`, `aws-p5.48xlarge`).
    pub id: &'static str,
    /// Other names it answers to.
    pub aliases: &'static [&'static str],
    /// Display name.
    pub name: &'static str,
    /// Kind of machine.
    pub kind: DeviceKind,
    /// Maker of the accelerator (NVIDIA, AMD, Intel, Apple) or of the CPU.
    pub vendor: &'static str,
    /// Accelerators in the machine (GPUs per instance or configuration); 1 otherwise.
    pub count: u32,
    /// Memory per accelerator in MiB, as the system reports it: a card sold as "24 GB" holds
    /// 24 GiB = 24,576 MiB; a Mac's unified memory; a CPU machine's RAM.
    pub memory_mib: u64,
    /// NVIDIA's CUDA compute capability × 10 (75 = Turing 7.5, 80 = Ampere A100, 89 = Ada, 90 =
    /// Hopper, 100 and 120 = Blackwell), from NVIDIA's table (developer.nvidia.com/cuda-gpus);
    /// 0 for other vendors, or a GPU whose generation is not stated.
    pub compute_capability: u16,
    /// Memory bandwidth per accelerator in GB/s (10^9 bytes per second), theoretical peak.
    pub bandwidth_gbs: f64,
    /// Dense FP16/BF16 matrix throughput per accelerator in TFLOP/s (with FP32 accumulation where
    /// GeForce cards halve it); for CPUs, cores × clock × FLOPs per cycle of their vector units.
    pub fp16_tflops: f64,
    /// Dense FP8 throughput per accelerator in TFLOP/s; 0.0 when unsupported or unknown.
    pub fp8_tflops: f64,
    /// Dense INT8 throughput per accelerator in TOPS; 0.0 when unknown.
    pub int8_tops: f64,
    /// Board power per accelerator in watts (for a Mac, laptop or CPU machine: the whole system
    /// under load); 0.0 when unknown.
    pub tdp_w: f64,
    /// Purchase price of the whole configuration in USD (launch or street, see `source`); 0.0
    /// when unknown or not sold.
    pub price_usd: f64,
    /// On-demand price per hour of the whole instance in USD (cloud only); 0.0 otherwise.
    pub usd_per_hour: f64,
    /// System RAM beside the accelerators in GiB (cloud instance, laptop, workstation); 0.0 when
    /// unknown. For Apple and CPU rows it equals the memory above.
    pub host_ram_gib: f64,
    /// Where the numbers come from (URLs or files, as in `../shared/reference/hardware`).
    pub source: &'static str,
    /// Date of the data (for prices, the price's date; `YYYY-MM` or `YYYY`, "approx." when the
    /// source says so).
    pub date: &'static str,
}
