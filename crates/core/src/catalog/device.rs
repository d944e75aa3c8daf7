//! The hardware catalog's row type. The rows themselves are in `data/devices.tsv`, each with its
//! source and date.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

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

/// How an accelerator exchanges data with the other accelerators of its machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum LinkKind {
    /// Not applicable or not known: one accelerator (a Mac, a laptop, a CPU machine, an APU), or a
    /// card whose multi-GPU link is not stated.
    None,
    /// PCI Express with peer-to-peer transfers between the cards (datacenter and workstation
    /// cards).
    Pcie,
    /// PCI Express without peer-to-peer: GeForce and Radeon consumer cards, whose drivers do not
    /// enable it, so collectives stage every transfer through system memory (NCCL's SHM path) and
    /// vLLM's custom all-reduce, which needs peer access, is not used.
    PcieHost,
    /// NVIDIA NVLink (SXM boards through NVSwitch, or an NVLink bridge).
    #[cfg_attr(feature = "serde", serde(rename = "nvlink"))]
    NvLink,
    /// AMD Infinity Fabric between Instinct accelerators (OAM boards, xGMI).
    InfinityFabric,
    /// Intel Gaudi's integrated RoCE Ethernet ports, the ones wired between the server's cards.
    Ethernet,
}

impl LinkKind {
    /// The id used by the CLI and JSON (as serialized).
    pub const fn id(self) -> &'static str {
        match self {
            LinkKind::None => "none",
            LinkKind::Pcie => "pcie",
            LinkKind::PcieHost => "pcie_host",
            LinkKind::NvLink => "nvlink",
            LinkKind::InfinityFabric => "infinity_fabric",
            LinkKind::Ethernet => "ethernet",
        }
    }
}

/// An accelerator's link to the others of its machine: its kind and its theoretical bandwidth
/// per accelerator in each direction, in GB/s (the figure vendors double as "bidirectional").
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Link {
    /// What carries the traffic.
    pub kind: LinkKind,
    /// GB/s (10^9 bytes per second) per accelerator per direction; 0.0 when not known.
    pub gbs: f64,
}

/// The links of the catalog's accelerators, each from its maker's specification (bandwidths per
/// direction: half the bidirectional figure the data sheets print).
pub mod links {
    use super::{Link, LinkKind};

    /// No second accelerator to talk to, or not stated.
    pub const NONE: Link = Link { kind: LinkKind::None, gbs: 0.0 };
    /// PCIe 3.0 ×16: 8 GT/s × 16 lanes, 128b/130b encoding = 15.75 GB/s (PCI-SIG).
    pub const PCIE3_X16: Link = Link { kind: LinkKind::Pcie, gbs: 15.75 };
    /// PCIe 4.0 ×16: 31.5 GB/s (PCI-SIG).
    pub const PCIE4_X16: Link = Link { kind: LinkKind::Pcie, gbs: 31.5 };
    /// PCIe 5.0 ×16: 63 GB/s (PCI-SIG).
    pub const PCIE5_X16: Link = Link { kind: LinkKind::Pcie, gbs: 63.0 };
    /// A consumer card on PCIe 3.0 ×16 without peer-to-peer.
    pub const HOST3_X16: Link = Link { kind: LinkKind::PcieHost, gbs: 15.75 };
    /// A consumer card on PCIe 4.0 ×16 without peer-to-peer.
    pub const HOST4_X16: Link = Link { kind: LinkKind::PcieHost, gbs: 31.5 };
    /// A consumer card on PCIe 4.0 ×4 (Radeon RX 6500 XT).
    pub const HOST4_X4: Link = Link { kind: LinkKind::PcieHost, gbs: 7.875 };
    /// A consumer card on PCIe 4.0 ×8 (RTX 3050, 4060, 4060 Ti, RX 6600/7600, Arc B570/B580).
    pub const HOST4_X8: Link = Link { kind: LinkKind::PcieHost, gbs: 15.75 };
    /// A consumer card on PCIe 5.0 ×16 without peer-to-peer.
    pub const HOST5_X16: Link = Link { kind: LinkKind::PcieHost, gbs: 63.0 };
    /// A consumer card on PCIe 5.0 ×8 (RTX 5050, 5060, 5060 Ti).
    pub const HOST5_X8: Link = Link { kind: LinkKind::PcieHost, gbs: 31.5 };
    /// NVLink 2.0 on V100 SXM2/SXM3: six links, 300 GB/s bidirectional (NVIDIA Tesla V100 data
    /// sheet).
    pub const NVLINK2: Link = Link { kind: LinkKind::NvLink, gbs: 150.0 };
    /// NVLink 3.0 on A100 SXM4: twelve links, 600 GB/s bidirectional (NVIDIA A100 data sheet).
    pub const NVLINK3: Link = Link { kind: LinkKind::NvLink, gbs: 300.0 };
    /// NVLink 4.0 on H100/H200 SXM (and the H200 NVL's bridge): eighteen links, 900 GB/s
    /// bidirectional (NVIDIA H100 and H200 data sheets).
    pub const NVLINK4: Link = Link { kind: LinkKind::NvLink, gbs: 450.0 };
    /// NVLink 5.0 on B200/B300: eighteen links, 1.8 TB/s bidirectional (NVIDIA DGX B200 data
    /// sheet).
    pub const NVLINK5: Link = Link { kind: LinkKind::NvLink, gbs: 900.0 };
    /// Infinity Fabric on MI250X: eight links, 800 GB/s peak (AMD Instinct MI250X data sheet).
    pub const XGMI_MI250X: Link = Link { kind: LinkKind::InfinityFabric, gbs: 400.0 };
    /// Infinity Fabric on MI300X/MI325X: seven links of 128 GB/s bidirectional, 896 GB/s peer to
    /// peer in all (AMD Instinct MI300X and MI325X data sheets).
    pub const XGMI_MI300: Link = Link { kind: LinkKind::InfinityFabric, gbs: 448.0 };
    /// Infinity Fabric on MI350X/MI355X: seven links of 153.6 GB/s bidirectional, about 1,075
    /// GB/s in all (AMD Instinct MI350X product page).
    pub const XGMI_MI350: Link = Link { kind: LinkKind::InfinityFabric, gbs: 537.6 };
    /// Gaudi (HL-205): ten 100 GbE ports, seven wired to the server's other cards (Habana Gaudi
    /// white paper): 700 Gb/s.
    pub const GAUDI1_ROCE: Link = Link { kind: LinkKind::Ethernet, gbs: 87.5 };
    /// Gaudi 2: twenty-four 100 GbE ports, twenty-one to the other cards (Intel Gaudi 2 white
    /// paper): 2.1 Tb/s.
    pub const GAUDI2_ROCE: Link = Link { kind: LinkKind::Ethernet, gbs: 262.5 };
    /// Gaudi 3: twenty-four 200 GbE ports, twenty-one to the other cards (Intel Gaudi 3 white
    /// paper): 4.2 Tb/s.
    pub const GAUDI3_ROCE: Link = Link { kind: LinkKind::Ethernet, gbs: 525.0 };
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
    /// The link between this machine's accelerators (or the card's own link, for several of
    /// the same card): [`links`].
    pub link: Link,
    /// Where the numbers come from (URLs or files, as in `../shared/reference/hardware`).
    pub source: &'static str,
    /// Date of the data (for prices, the price's date; `YYYY-MM` or `YYYY`, "approx." when the
    /// source says so).
    pub date: &'static str,
}
