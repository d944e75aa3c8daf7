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
    /// `--swa-full-tokens-ratio` in ten-thousandths: sliding-window tokens per full-attention token
    /// in a hybrid model's pools; `None`: 0.8 (0.1 for DeepSeek V4).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub swa_full_tokens_ratio: Option<u32>,
    /// `--disable-hybrid-swa-memory`: one pool over every layer at full length.
    #[cfg_attr(feature = "serde", serde(default))]
    pub disable_hybrid_swa_memory: bool,
    /// `--mamba-full-memory-ratio` in ten-thousandths: Mamba-state bytes per full-attention KV
    /// byte; `None`: 0.9.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mamba_full_memory_ratio: Option<u32>,
    /// `--max-mamba-cache-size`: Mamba state slots; `None`: from the ratio.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub max_mamba_cache_size: Option<u64>,
}

/// The largest chunk, batch size or page accepted.
pub const MAX_SGLANG: u64 = 1 << 20;

/// Prefill CUDA-graph token buckets SGLang 0.5.23 captures up to `max_tokens`
/// (`generate_prefill_cuda_graph_batch_sizes`: every 4 to 32, 16 to 256, 32 to 512, 64 to 1,024,
/// 256 to 4,096, then every 512): 58 up to 8,192, 74 up to 16,384.
pub fn prefill_graph_buckets(max_tokens: u64) -> u64 {
    let count = |from: u64, to: u64, step: u64| {
        if max_tokens < from { 0 } else { (to.min(max_tokens) - from) / step + 1 }
    };
    count(4, 32, 4)
        + count(48, 256, 16)
        + count(288, 512, 32)
        + count(576, 1024, 64)
        + count(1280, 4096, 256)
        + count(4608, u64::MAX, 512)
}

/// Families whose sliding-window layers SGLang keeps in their own smaller pool
/// (`is_hybrid_swa_model`, 0.5.23: by architecture — Beam and Laguna when they have sliding
/// layers, Mellum, Muse Glimmer, Inkling —, or by the config class's `is_hybrid_swa`: dots3-note,
/// its pools sized by `kv_lora_rank` and `swa_kv_lora_rank`, and Muse Spark when it has sliding
/// layers); Gemma 2 and 3 are forced to one pool. A model without both kinds of layer keeps one.
const HYBRID_SWA_FAMILIES: [&str; 16] = [
    "dots3_note",
    "beam",
    "laguna",
    "mellum",
    "muse_glimmer",
    "muse_spark",
    "inkling",
    "gpt_oss",
    "llama4",
    "llama4_text",
    "gemma4",
    "gemma4_text",
    "mimo_v2",
    "mimo_v2_flash",
    "step3p5",
    "deepseek_v4",
];

/// Families whose Mamba cache keeps extra buffers under the overlap scheduler (five state slots
/// per running request; three otherwise), `_MAMBA_EXTRA_BUFFER_ARCHS` in 0.5.23.
const MAMBA_EXTRA_BUFFER_FAMILIES: [&str; 5] =
    ["qwen3_next", "nemotron_h", "falcon_h1", "granitemoehybrid", "kimi_linear"];

/// Bytes of one request's recurrent state over every Mamba-style layer on one of `tp` GPUs, as
/// SGLang shapes it (`configs/mamba_utils.py`): the convolution's last `k − 1` inputs in BF16 and
/// the SSM state in the checkpoint's `mamba_ssm_dtype`, FP32 when it names none (Mamba-2's B and
/// C groups padded to a multiple of `tp`): `(convolution, SSM)` bytes.
pub fn mamba_slot_bytes(a: &Architecture, tp: u64) -> (u64, u64) {
    let ssm_bytes = a.ssm_state_bytes.unwrap_or(4);
    a.mixers().fold((0u64, 0u64), |(c, s), (n, m)| {
        let (conv, ssm) = m.state_per_gpu(a.hidden_size, tp, 0).unwrap_or((0, 0));
        (
            c.saturating_add(conv.saturating_mul(2).saturating_mul(n)),
            s.saturating_add(ssm.saturating_mul(ssm_bytes).saturating_mul(n)),
        )
    })
}

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
            ("swa_full_tokens_ratio", self.swa_full_tokens_ratio),
            ("mamba_full_memory_ratio", self.mamba_full_memory_ratio),
        ] {
            if let Some(f) = v
                && (f == 0 || f > 10_000)
            {
                return Err(Error::invalid(
                    name,
                    format!(
                        "{} is out of range; SGLang takes a ratio above 0 and at most 1",
                        f as f64 / 10_000.0
                    ),
                ));
            }
        }
        for (name, v) in [
            ("chunked_prefill_size", self.chunked_prefill_size),
            ("cuda_graph_max_bs", self.cuda_graph_max_bs),
            ("page_size", self.page_size),
            ("max_mamba_cache_size", self.max_mamba_cache_size),
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
    /// (MiB; 0 when the fraction was given). `latent`: the model runs SGLang's MLA backend.
    pub fn fraction(&self, gpu_mem_mib: Option<u64>, tp: u64, latent: bool) -> (f64, f64) {
        if let Some(f) = self.mem_fraction_static {
            return (f64::from(f) / 10_000.0, 0.0);
        }
        let (chunk, bs) = self.sizes(gpu_mem_mib, tp);
        // SGLang 0.5.23 also captures prefill ("breakable") CUDA graphs by default
        // (`reserve_for_graph_mb`): 8 MiB for each token bucket up to the chunk, or 1.5 GiB flat
        // with the MLA backend.
        let prefill_graphs = match (self.disable_cuda_graph, latent) {
            (true, _) => 0.0,
            (false, true) => 1536.0,
            (false, false) => prefill_graph_buckets(chunk) as f64 * 8.0,
        };
        let mut reserved = 512.0
            + chunk.max(2048) as f64 * 1.5
            + bs as f64 * 2.0
            + tp as f64 / 8.0 * 1024.0
            + prefill_graphs;
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
    let (full, swa) = cell_sizes(a, kv, tp);
    full.saturating_add(swa)
}

/// [`cell_size`] split between full-attention (and MLA) layers and sliding-window ones.
pub fn cell_sizes(a: &Architecture, kv: KvDtype, tp: u64) -> (u64, u64) {
    a.mixers().fold((0u64, 0u64), |(full, swa), (n, m)| {
        let cache = m.cache(a.hidden_size);
        let bytes = match (m, cache) {
            (Mixer::Attention(at), LayerCache::Kv { .. }) => {
                let heads = at.num_kv_heads.max(1);
                let per_rank = heads.div_ceil(tp.max(1)).max(1);
                crate::inference::attention_kv_bytes_on_rank(cache, kv, heads, per_rank)
            }
            (_, LayerCache::Latent { .. }) => crate::inference::layer_kv_bytes_per_token(cache, kv),
            _ => 0,
        };
        let sliding = m.span().is_some_and(|s| s != crate::model::Span::Full);
        let b = bytes.saturating_mul(n);
        if sliding { (full, swa.saturating_add(b)) } else { (full.saturating_add(b), swa) }
    })
}

/// The longest window of a model's sliding-window layers (0 when it has none).
fn longest_window(a: &Architecture) -> u64 {
    a.mixers()
        .map(|(_, m)| match m.span() {
            Some(crate::model::Span::Sliding { window }) => window,
            Some(crate::model::Span::Chunked { chunk }) => chunk,
            _ => 0,
        })
        .max()
        .unwrap_or(0)
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
    /// A hybrid sliding-window model's second pool: tokens its sliding layers hold and their bytes
    /// per token (the full pool is `max_total_num_tokens` at `cell_size`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub swa: Option<(u64, u64)>,
    /// A hybrid Mamba model's state pool: slots, bytes per slot, and the slots one running request
    /// takes.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mamba: Option<MambaPool>,
}

/// SGLang's Mamba state pool (`MambaPool`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MambaPool {
    /// `max_mamba_cache_size`: state slots.
    pub slots: u64,
    /// Bytes of one slot over every Mamba-style layer on this GPU.
    pub slot_bytes: u64,
    /// The convolution's share of a slot, in bytes.
    pub conv_bytes: u64,
    /// Slots per running request (5 with the extra buffers of the overlap scheduler, else 3).
    pub slots_per_request: u64,
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
        if let Some(m) = &self.mamba {
            let all = (m.slots + 1).saturating_mul(m.slot_bytes);
            let conv = (m.slots + 1).saturating_mul(m.conv_bytes);
            out.push(format!(
                "Mamba Cache is allocated. max_mamba_cache_size: {}, conv_state size: {:.2}GB, ssm_state size: {:.2}GB",
                m.slots,
                gb(conv),
                gb(all.saturating_sub(conv))
            ));
        }
        if let Some((swa_tokens, swa_cell)) = self.swa {
            out.push(format!(
                "Use sliding window memory pool. full_layer_tokens={}, swa_layer_tokens={}",
                self.max_total_num_tokens, swa_tokens
            ));
            let swa_bytes = swa_tokens.saturating_mul(swa_cell);
            for (pool, tokens, b) in
                [("Full", self.max_total_num_tokens, bytes), ("SWA", swa_tokens, swa_bytes)]
            {
                // A latent pool (dots3-note's) is one tensor a layer, as the MLA pool logs it.
                out.push(if self.latent {
                    format!("{pool} KV Cache is allocated. #tokens: {tokens}, KV size: {:.2} GB", gb(b))
                } else {
                    format!(
                        "{pool} KV Cache is allocated. #tokens: {tokens}, K size: {:.2} GB, V size: {:.2} GB",
                        gb(b / 2),
                        gb(b / 2)
                    )
                });
            }
        } else if self.latent {
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
    /// Whether SGLang serves the model's vision encoder (a multimodal model not served
    /// `--language-only`): its heuristic fraction is then lowered by the tower's size.
    pub vision: bool,
}

/// SGLang's lowering of its heuristic fraction for a multimodal model (`adjust_mem_fraction_for_vlm`):
/// × 0.95 × `1 − 0.1·(L·h² / (24·1,024²) − 1)` kept within 0.8–1.05, `L` and `h` the vision
/// config's layers and width (24 and 1,024 when absent).
pub fn vlm_factor(layers: u64, hidden: u64) -> f64 {
    let ratio = layers as f64 * (hidden as f64) * (hidden as f64) / (24.0 * 1024.0 * 1024.0);
    0.95 * (1.0 - 0.1 * (ratio - 1.0)).clamp(0.8, 1.05)
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
    let latent = i.arch.mixers().any(|(_, m)| matches!(m, Mixer::Mla(_)));
    let (mut frac, reserve_mib) = o.fraction(Some(i.gpu_mem_mib), tp, latent);
    if o.mem_fraction_static.is_none()
        && i.vision
        && let Some((layers, hidden)) = i.arch.vision_config_size
    {
        frac *= vlm_factor(layers, hidden);
    }
    let free = free_at_start(i.total, tp);
    let dynamic = free.scale((1.0 - frac).max(0.0));
    let signed = |b: Bytes| i64::try_from(b.get()).unwrap_or(i64::MAX);
    let pool = signed(free).saturating_sub(signed(i.weights)).saturating_sub(signed(dynamic));
    let page = o.page_size();
    let (full_cell, swa_cell) = cell_sizes(i.arch, i.kv, tp);
    let a = i.arch;
    let mut bytes = u64::try_from(pool.max(0)).unwrap_or(0);
    // Hybrid Mamba models: a share of the pool holds request states first (`_handle_max_mamba_cache`):
    // `ρ/(1 + ρ)` of it in whole slots, less one padding slot; the KV pool gets the rest.
    let (conv, ssm) = mamba_slot_bytes(a, tp);
    let slot = conv.saturating_add(ssm);
    let mamba = (slot > 0).then(|| {
        let rho = f64::from(o.mamba_full_memory_ratio.unwrap_or(9000)) / 10_000.0;
        let slots = o.max_mamba_cache_size.unwrap_or_else(|| {
            let share = (bytes as f64 * rho / (1.0 + rho)) as u64;
            share.saturating_sub(slot) / slot
        });
        bytes = bytes.saturating_sub((slots + 1).saturating_mul(slot));
        MambaPool {
            slots,
            slot_bytes: slot,
            conv_bytes: conv,
            slots_per_request: if MAMBA_EXTRA_BUFFER_FAMILIES.contains(&a.family.as_str()) { 5 } else { 3 },
        }
    });
    // Hybrid sliding-window models: the sliding layers get `ratio` tokens per full-layer token.
    let hybrid_swa = swa_cell > 0
        && full_cell > 0
        && !o.disable_hybrid_swa_memory
        && HYBRID_SWA_FAMILIES.contains(&a.family.as_str());
    let (cell, tokens, swa) = if hybrid_swa {
        let default = if a.family == "deepseek_v4" { 1000 } else { 8000 };
        let r = f64::from(o.swa_full_tokens_ratio.unwrap_or(default)) / 10_000.0;
        let per = full_cell as f64 + r * swa_cell as f64;
        let full = (bytes as f64 / per) as u64 / page * page;
        let swa_tokens = ((full as f64 * r) as u64) / page * page;
        (full_cell.max(1), full, Some((swa_tokens, swa_cell)))
    } else {
        let cell = full_cell.saturating_add(swa_cell).max(1);
        // Mamba models' KV pool counts only their attention layers (all of `cell`).
        (cell, bytes / cell / page * page, None)
    };
    let ctx = i.context_len.max(1);
    let mut max_running = (tokens.saturating_mul(512) / ctx).clamp(2048, 4096).min((tokens / 2).max(1));
    if let Some(m) = &mamba {
        max_running = max_running.min(m.slots / m.slots_per_request);
    }
    // Requests of the full context at once: the full pool, the sliding pool (a window and a page
    // each) and the Mamba slots, whichever holds fewer.
    let mut at_context = tokens / ctx;
    if let Some((swa_tokens, _)) = swa {
        let need = longest_window(a).saturating_add(page).min(ctx).max(1);
        at_context = at_context.min(swa_tokens / need);
    }
    if let Some(m) = &mamba {
        at_context = at_context.min(m.slots / m.slots_per_request.max(1));
    }
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
        requests_at_context: at_context,
        latent: i.arch.mixers().any(|(_, m)| matches!(m, Mixer::Mla(_))),
        swa,
        mamba,
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
        // H100: 512 + 8192 × 1.5 + 256 × 2 + 128 + 58 × 8 = 13,904 MiB → (81559 − 13904) / 81559
        // (0.830, SGLang 0.5.23's heuristic with its prefill graphs).
        let (f, r) = o.fraction(Some(81559), 1, false);
        assert_eq!(r, 13_904.0);
        assert!((f - 0.830).abs() < 1e-9, "{f}");
        // A 4090: 512 + 3072 + 48 + 128 + 42 × 8 (the buckets up to its 2,048-token chunk) = 4,096
        // MiB → 0.833.
        assert!(
            (o.fraction(Some(24564), 1, false).0 - 0.833).abs() < 1e-9,
            "{}",
            o.fraction(Some(24564), 1, false).0
        );
        // The MLA backend reserves 1.5 GiB for its prefill graphs instead: an H100 at TP 8,
        // 512 + 12,288 + 1,024 + 1,024 + 1,536 = 16,384 MiB → 0.799.
        assert_eq!(o.fraction(Some(81559), 8, true), (0.799, 16_384.0));
        assert_eq!(
            (prefill_graph_buckets(2048), prefill_graph_buckets(8192), prefill_graph_buckets(16_384)),
            (42, 58, 74)
        );
        // A multimodal model's fraction is lowered by its tower's size: Qwen2.5-VL's 32 layers of
        // 1,280 (L·h² 2.08× ViT-L's) → × 0.95 × 0.892; a ViT-L × 0.95; the factor within 0.8–1.05.
        assert!(
            (vlm_factor(32, 1280)
                - 0.95 * (1.0 - 0.1 * (32.0 * 1280.0 * 1280.0 / (24.0 * 1024.0 * 1024.0) - 1.0)))
                .abs()
                < 1e-12
        );
        assert!((vlm_factor(24, 1024) - 0.95).abs() < 1e-12);
        assert!((vlm_factor(48, 2048) - 0.95 * 0.8).abs() < 1e-12);
        assert!((vlm_factor(12, 768) - 0.95 * 1.05).abs() < 1e-12);
        let given = SglangOptions { mem_fraction_static: Some(9000), ..o };
        assert_eq!(given.fraction(Some(81559), 1, false), (0.9, 0.0));
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
