//! SGLang's memory budget at startup, as its server arguments and model runner compute it.
//!
//! SGLang keeps `mem_fraction_static` of the memory free at start for the weights and its KV
//! pool, and leaves the rest to activations and CUDA graphs. Unless given, the fraction is
//! `(gpu_mem − reserved) / gpu_mem` (`ServerArgs._handle_gpu_memory_settings`), the reserve being
//! 512 MiB of metadata, 1.5 MiB per token of `chunked_prefill_size` (at least 2,048), 2 MiB per
//! CUDA-graph batch size up to `cuda_graph_max_bs`, 128 MiB per GPU of the tensor × pipeline
//! group, and at least 10 GiB on cards over 60 GiB; both sizes follow the card. The pool is then
//! `free after the weights − free at start × (1 − fraction)`, in tokens of `cell_size` bytes
//! (`ModelRunner.profile_max_num_token`), page-aligned.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::model::{Architecture, LayerCache, Mixer};
use crate::precision::KvDtype;
use crate::units::{Bytes, GIB, MIB};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// SGLang's serving parameters that decide its budget (`sglang.launch_server` flags).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct SglangOptions {
    /// `--mem-fraction-static` in ten-thousandths; `None`: SGLang's heuristic for the card.
    pub mem_fraction_static: Option<u32>,
    /// `--chunked-prefill-size`; `None`: by the card (2,048 below 35 GiB, 4,096 below 60, 8,192
    /// below 160, 16,384 above).
    pub chunked_prefill_size: Option<u64>,
    /// `--cuda-graph-max-bs`; `None`: by the card and the tensor-parallel size.
    pub cuda_graph_max_bs: Option<u64>,
    /// `--page-size`; `None`: 1.
    pub page_size: Option<u64>,
    /// `--disable-cuda-graph`.
    pub disable_cuda_graph: bool,
}

/// The largest chunk, batch size or page accepted.
pub const MAX_SGLANG: u64 = 1 << 20;

impl SglangOptions {
    /// Checks the values a user typed.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the setting: a fraction outside (0, 1], a count of 0 or above
    /// 2^20.
    pub fn validate(&self) -> Result<()> {
        if let Some(f) = self.mem_fraction_static
            && (f == 0 || f > 10_000)
        {
            return Err(Error::invalid(
                "mem_fraction_static",
                format!(
                    "{} is out of range; SGLang takes a share above 0 and at most 1",
                    f as f64 / 10_000.0
                ),
            ));
        }
        for (name, v) in [
            ("chunked_prefill_size", self.chunked_prefill_size),
            ("cuda_graph_max_bs", self.cuda_graph_max_bs),
            ("page_size", self.page_size),
        ] {
            if let Some(n) = v
                && (n == 0 || n > MAX_SGLANG)
            {
                return Err(Error::invalid(name, format!("{n} is out of range; use 1 to {MAX_SGLANG}")));
            }
        }
        Ok(())
    }

    /// `(chunked_prefill_size, cuda_graph_max_bs)` on a card of `gpu_mem_mib` (what nvidia-smi
    /// reports) with `tp` GPUs per tensor-parallel group.
    pub fn sizes(&self, gpu_mem_mib: Option<u64>, tp: u64) -> (u64, u64) {
        let small_tp = tp < 4;
        let (chunk, bs) = match gpu_mem_mib {
            Some(m) if m < 20 * 1024 => (2048, 8),
            Some(m) if m < 35 * 1024 => (2048, if small_tp { 24 } else { 80 }),
            Some(m) if m < 60 * 1024 => (4096, if small_tp { 32 } else { 160 }),
            Some(m) if m < 160 * 1024 => (8192, if small_tp { 256 } else { 512 }),
            Some(_) => (16384, 512),
            None => (4096, 160),
        };
        (
            self.chunked_prefill_size.unwrap_or(chunk),
            if self.disable_cuda_graph { 0 } else { self.cuda_graph_max_bs.unwrap_or(bs) },
        )
    }

    /// `mem_fraction_static` in effect, as a share, and the reserve SGLang's heuristic set aside
    /// (MiB; 0 when the fraction was given).
    pub fn fraction(&self, gpu_mem_mib: Option<u64>, tp: u64) -> (f64, f64) {
        if let Some(f) = self.mem_fraction_static {
            return (f64::from(f) / 10_000.0, 0.0);
        }
        let (chunk, bs) = self.sizes(gpu_mem_mib, tp);
        let mut reserved = 512.0 + chunk.max(2048) as f64 * 1.5 + bs as f64 * 2.0 + tp as f64 / 8.0 * 1024.0;
        match gpu_mem_mib {
            Some(m) => {
                if m > 60 * 1024 {
                    reserved = reserved.max(10.0 * 1024.0);
                }
                let m = m as f64;
                (crate::ops::round((m - reserved) / m * 1000.0) / 1000.0, reserved)
            }
            None => (0.88, reserved),
        }
    }

    /// The page size in effect.
    pub fn page_size(&self) -> u64 {
        self.page_size.unwrap_or(1).max(1)
    }
}

/// Bytes of KV per token over every layer on one GPU (SGLang's `cell_size`): K and V of the
/// attention layers' heads on this rank, or the MLA latent; recurrent layers keep no tokens.
pub fn cell_size(a: &Architecture, kv: KvDtype, tp: u64) -> u64 {
    a.mixers().fold(0u64, |acc, (n, m)| {
        let cache = m.cache(a.hidden_size);
        let bytes = match (m, cache) {
            (Mixer::Attention(at), LayerCache::Kv { .. }) => {
                let heads = at.num_kv_heads.max(1);
                let per_rank = heads.div_ceil(tp.max(1)).max(1);
                crate::inference::layer_kv_bytes_per_token(cache, kv).saturating_mul(per_rank) / heads
            }
            (_, LayerCache::Latent { .. }) => crate::inference::layer_kv_bytes_per_token(cache, kv),
            _ => 0,
        };
        acc.saturating_add(bytes.saturating_mul(n))
    })
}

/// SGLang's budget on one GPU, as its startup log states it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SglangBudget {
    /// Memory free when SGLang starts (CUDA's total less the context and, split, NCCL's buffers).
    pub free_at_start: Bytes,
    /// `mem_fraction_static` in effect.
    pub mem_fraction_static: f64,
    /// The reserve its heuristic set aside, in bytes (0 when the fraction was given).
    pub heuristic_reserve: Bytes,
    /// `chunked_prefill_size` in effect.
    pub chunked_prefill_size: u64,
    /// `cuda_graph_max_bs` in effect (0 without CUDA graphs).
    pub cuda_graph_max_bs: u64,
    /// The weights on this GPU.
    pub weights: Bytes,
    /// Memory left for activations and CUDA graphs: `free at start × (1 − fraction)`.
    pub dynamic: Bytes,
    /// The KV pool's bytes (`rest_memory`); negative when nothing is left ("Not enough memory").
    pub pool: i64,
    /// Bytes per token over every layer on this GPU.
    pub cell_size: u64,
    /// `max_total_num_tokens`: tokens the pool holds, page-aligned.
    pub max_total_num_tokens: u64,
    /// `context_len`: tokens per request.
    pub context_len: u64,
    /// `max_running_requests` SGLang derives (`pool / context × 512`, within 2,048–4,096).
    pub max_running_requests: u64,
    /// Requests of `context_len` tokens the pool holds at once.
    pub requests_at_context: u64,
    /// Whether K and V are one latent (MLA).
    pub latent: bool,
}

impl SglangBudget {
    /// The lines of SGLang's startup log these numbers stand for.
    pub fn log_lines(&self) -> Vec<String> {
        let gb = |b: u64| b as f64 / GIB as f64;
        let mut out = Vec::new();
        if self.pool <= 0 || self.max_total_num_tokens == 0 {
            out.push(String::from(
                "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
            ));
            return out;
        }
        let bytes = self.max_total_num_tokens.saturating_mul(self.cell_size);
        if self.latent {
            out.push(format!(
                "KV Cache is allocated. #tokens: {}, KV size: {:.2} GB",
                self.max_total_num_tokens,
                gb(bytes)
            ));
        } else {
            out.push(format!(
                "KV Cache is allocated. #tokens: {}, K size: {:.2} GB, V size: {:.2} GB",
                self.max_total_num_tokens,
                gb(bytes / 2),
                gb(bytes / 2)
            ));
        }
        out.push(format!(
            "max_total_num_tokens={}, chunked_prefill_size={}, max_running_requests={}, context_len={}",
            self.max_total_num_tokens, self.chunked_prefill_size, self.max_running_requests, self.context_len
        ));
        out
    }
}

/// What the budget is computed from.
#[derive(Clone, Copy, Debug)]
pub struct SglangInput<'a> {
    /// The model.
    pub arch: &'a Architecture,
    /// KV-cache format (`--kv-cache-dtype`).
    pub kv: KvDtype,
    /// Tokens per request (`--context-length`).
    pub context_len: u64,
    /// Tensor-parallel GPUs.
    pub tp: u64,
    /// Weight bytes on this GPU.
    pub weights: Bytes,
    /// Memory CUDA reports for the card.
    pub total: Bytes,
    /// What nvidia-smi reports, in MiB (SGLang's `gpu_mem`).
    pub gpu_mem_mib: u64,
}

/// Memory free when SGLang starts on a card CUDA reports `total` for: less the CUDA context and,
/// under tensor parallelism, NCCL's buffers (SGLang measures it after `init_torch_distributed`).
pub fn free_at_start(total: Bytes, tp: u64) -> Bytes {
    let nccl = if tp > 1 { crate::vllm::non_torch(tp).0 } else { Bytes::ZERO };
    total.saturating_sub(crate::vllm::CUDA_CONTEXT).saturating_sub(nccl)
}

/// The budget.
pub fn budget(o: &SglangOptions, i: &SglangInput) -> SglangBudget {
    let tp = i.tp.max(1);
    let (chunk, bs) = o.sizes(Some(i.gpu_mem_mib), tp);
    let (frac, reserve_mib) = o.fraction(Some(i.gpu_mem_mib), tp);
    let free = free_at_start(i.total, tp);
    let dynamic = free.scale((1.0 - frac).max(0.0));
    let signed = |b: Bytes| i64::try_from(b.get()).unwrap_or(i64::MAX);
    let pool = signed(free).saturating_sub(signed(i.weights)).saturating_sub(signed(dynamic));
    let cell = cell_size(i.arch, i.kv, tp).max(1);
    let page = o.page_size();
    let tokens = u64::try_from(pool.max(0)).unwrap_or(0) / cell / page * page;
    let ctx = i.context_len.max(1);
    let max_running = (tokens.saturating_mul(512) / ctx).clamp(2048, 4096);
    SglangBudget {
        free_at_start: free,
        mem_fraction_static: frac,
        heuristic_reserve: Bytes::new((reserve_mib * MIB as f64) as u64),
        chunked_prefill_size: chunk,
        cuda_graph_max_bs: bs,
        weights: i.weights,
        dynamic,
        pool,
        cell_size: cell,
        max_total_num_tokens: tokens,
        context_len: ctx,
        max_running_requests: max_running,
        requests_at_context: tokens / ctx,
        latent: i.arch.mixers().any(|(_, m)| matches!(m, Mixer::Mla(_))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SGLang's own comments: an H100 gets chunks of 8,192 and graphs up to 256 at TP 1, a 4090
    /// 2,048 and 24, a T4 2,048 and 8; the reserve on an 80 GiB card is at least 10 GiB.
    #[test]
    fn defaults_follow_the_card() {
        let o = SglangOptions::default();
        assert_eq!(o.sizes(Some(81559), 1), (8192, 256));
        assert_eq!(o.sizes(Some(81559), 8), (8192, 512));
        assert_eq!(o.sizes(Some(24564), 1), (2048, 24));
        assert_eq!(o.sizes(Some(15360), 1), (2048, 8));
        // H100: 512 + 8192 × 1.5 + 256 × 2 + 128 = 13,440 MiB → (81559 − 13440) / 81559.
        let (f, r) = o.fraction(Some(81559), 1);
        assert_eq!(r, 13_440.0);
        assert!((f - 0.835).abs() < 1e-9, "{f}");
        // A 4090: 512 + 3072 + 48 + 128 = 3,760 MiB → 0.847.
        assert!((o.fraction(Some(24564), 1).0 - 0.847).abs() < 1e-9);
        let given = SglangOptions { mem_fraction_static: Some(9000), ..o };
        assert_eq!(given.fraction(Some(81559), 1), (0.9, 0.0));
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        for (o, name) in [
            (SglangOptions { mem_fraction_static: Some(0), ..Default::default() }, "mem_fraction_static"),
            (SglangOptions { chunked_prefill_size: Some(0), ..Default::default() }, "chunked_prefill_size"),
            (SglangOptions { page_size: Some(1 << 21), ..Default::default() }, "page_size"),
        ] {
            assert!(format!("{}", o.validate().unwrap_err()).contains(name));
        }
    }
}
