//! Collective communication between accelerators: what a tensor-parallel all-reduce and a
//! data-parallel exchange of gradients or parameters cost over a machine's link.
//!
//! A ring collective over `n` GPUs moves, per GPU, `2(n−1)/n` of the message for an all-reduce
//! and `(n−1)/n` of it for an all-gather or a reduce-scatter (NCCL's performance notes: the
//! "bus bandwidth" factors), at the link's bandwidth times the share a collective reaches, plus a
//! fixed start-up latency. Across machines the NIC per GPU is the narrower pipe.

use crate::catalog::device::{Link, LinkKind, links};
use crate::hardware::Capability;

/// Per-GPU network bandwidth between machines, bytes per second per direction: one 400 Gb/s
/// InfiniBand NDR adapter per GPU, NVIDIA's DGX H100 and B200 reference design (DGX H100 user
/// guide: eight ConnectX-7 single-port 400 Gb/s adapters for the compute fabric).
pub const NODE_NIC_BYTES_PER_S: f64 = 50e9;

/// Start-up latency of one small all-reduce across machines (an InfiniBand hop on top of the
/// machine's own), seconds.
pub const NODE_LATENCY_S: f64 = 10e-6;

/// A link as collectives use it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Net {
    /// What carries the traffic.
    pub kind: LinkKind,
    /// Seconds one small collective costs before any byte moves.
    pub latency_s: f64,
    /// Bytes per second per GPU per direction a collective reaches.
    pub bytes_per_s: f64,
    /// The catalog does not state the link: PCIe 4.0 ×16 without peer-to-peer stands in.
    pub assumed: bool,
    /// The GPUs span several machines (the NIC per GPU limits).
    pub nodes: bool,
}

/// Share of a link's theoretical bandwidth a large ring all-reduce reaches (`busBw` of
/// nccl-tests over the link's per-direction figure): NVLink and Infinity Fabric about 0.8 (DGX
/// A100 and H100 all-reduce bus bandwidths of 230–240 and 360–370 GB/s, AMD's RCCL figures on
/// MI300X); PCIe with peer-to-peer about 0.7; without peer-to-peer every byte is copied through
/// system memory twice, about 0.4.
pub const fn bus_efficiency(kind: LinkKind) -> f64 {
    match kind {
        LinkKind::NvLink | LinkKind::InfinityFabric | LinkKind::Ethernet => 0.8,
        LinkKind::Pcie => 0.7,
        LinkKind::PcieHost | LinkKind::None => 0.4,
    }
}

/// Start-up latency of one small all-reduce inside a machine, seconds: NVLink's is the serving
/// engines' fitted figure ([`crate::speed::TP_ALL_REDUCE_S`]), Infinity Fabric's likewise
/// ([`crate::speed::TP_ALL_REDUCE_INSTINCT_S`]); over PCIe the collective is NCCL's, whose
/// small-message all-reduce takes tens of microseconds, more when it stages through host memory.
pub const fn latency(kind: LinkKind) -> f64 {
    match kind {
        LinkKind::NvLink => crate::speed::TP_ALL_REDUCE_S,
        LinkKind::InfinityFabric => crate::speed::TP_ALL_REDUCE_INSTINCT_S,
        LinkKind::Ethernet => 30e-6,
        LinkKind::Pcie => PCIE_ALL_REDUCE_S,
        LinkKind::PcieHost | LinkKind::None => PCIE_HOST_ALL_REDUCE_S,
    }
}

/// One small all-reduce between GPUs with peer-to-peer over PCIe, seconds.
pub const PCIE_ALL_REDUCE_S: f64 = 30e-6;

/// One small all-reduce between consumer GPUs over PCIe without peer-to-peer (through system
/// memory), seconds.
pub const PCIE_HOST_ALL_REDUCE_S: f64 = 50e-6;

impl Net {
    /// The link between `gpus` accelerators of `cap`, `per_node` of them to a machine.
    pub fn of(cap: &Capability, gpus: u64, per_node: u64) -> Net {
        let assumed = cap.link.kind == LinkKind::None || cap.link.gbs <= 0.0;
        let link: Link = if assumed { links::HOST4_X16 } else { cap.link };
        let nodes = per_node > 0 && gpus > per_node;
        let mut bytes_per_s = link.gbs * 1e9 * bus_efficiency(link.kind);
        let mut latency_s = latency(link.kind);
        if nodes {
            bytes_per_s = bytes_per_s.min(NODE_NIC_BYTES_PER_S * bus_efficiency(LinkKind::NvLink));
            latency_s += NODE_LATENCY_S;
        }
        Net { kind: link.kind, latency_s, bytes_per_s, assumed, nodes }
    }

    /// Seconds to all-reduce `bytes` across `n` GPUs.
    pub fn all_reduce(&self, n: u64, bytes: f64) -> f64 {
        if n <= 1 { 0.0 } else { self.latency_s + self.all_reduce_bytes(n, bytes) }
    }

    /// Seconds to all-gather (or reduce-scatter) a whole of `bytes` across `n` GPUs.
    pub fn all_gather(&self, n: u64, bytes: f64) -> f64 {
        if n <= 1 {
            return 0.0;
        }
        let n = n as f64;
        self.latency_s + (n - 1.0) / n * bytes / self.bytes_per_s
    }

    /// The bandwidth part of an all-reduce alone (for per-token costs whose latency is paid once
    /// per chunk).
    pub fn all_reduce_bytes(&self, n: u64, bytes: f64) -> f64 {
        if n <= 1 {
            return 0.0;
        }
        let n = n as f64;
        2.0 * (n - 1.0) / n * bytes / self.bytes_per_s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::inference::Runtime;

    fn net(id: &str, gpus: u64) -> Net {
        let d = catalog::device(id).unwrap();
        Net::of(&Capability::of(d, Runtime::Vllm, None), gpus, 8)
    }

    #[test]
    fn an_all_reduce_costs_its_latency_and_twice_the_message_over_the_bus() {
        let n = net("h100-sxm", 8);
        assert_eq!(n.kind, LinkKind::NvLink);
        // 1 GB over 8 GPUs: 2 × 7/8 GB at 0.8 × 450 GB/s = 4.86 ms.
        let t = n.all_reduce(8, 1e9);
        assert!((t - (15e-6 + 1.75e9 / 360e9)).abs() < 1e-9, "{t}");
        assert_eq!(n.all_reduce(1, 1e9), 0.0);
        assert!((n.all_gather(8, 1e9) * 2.0 - n.all_reduce(8, 1e9) - n.latency_s).abs() < 1e-9);
    }

    #[test]
    fn consumer_cards_stage_through_host_memory_and_machines_meet_at_the_nic() {
        let g = net("rtx-4090", 4);
        assert_eq!(g.kind, LinkKind::PcieHost);
        assert!(g.bytes_per_s < net("rtx-6000-ada", 4).bytes_per_s);
        assert!(net("rtx-4090", 4).all_reduce(4, 1e6) > net("h100-sxm", 4).all_reduce(4, 1e6));
        let two_nodes = net("h100-sxm", 16);
        assert!(two_nodes.nodes && two_nodes.bytes_per_s <= NODE_NIC_BYTES_PER_S);
        // A Mac has no link: PCIe without peer-to-peer stands in, said.
        assert!(net("m3-max-128gb", 2).assumed);
    }
}
