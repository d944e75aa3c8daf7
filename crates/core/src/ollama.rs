//! Ollama's own defaults on top of llama.cpp.
//!
//! Ollama runs GGUF models through an upstream `llama-server` it launches with a minimal set of
//! flags (ollama/ollama `llm/llama_server.go`, `server/sched.go`, `server/routes.go`,
//! `envconfig/config.go`, main of 2026-08-21):
//!
//! * `-c num_ctx × num_parallel -np num_parallel`: every sequence gets the whole `num_ctx`;
//!   `OLLAMA_NUM_PARALLEL` defaults to 1.
//! * `num_ctx`: the request's or the Modelfile's, else `OLLAMA_CONTEXT_LENGTH`, else a default
//!   by the VRAM of the GPUs Ollama sees ([`default_context`]), capped at the model's trained
//!   context.
//! * `-b num_batch -ub num_batch`: one number for both; when nothing sets it, Ollama picks it by
//!   the context and the memory it predicts ([`auto_batch`]).
//! * `--flash-attn on|off` when `OLLAMA_FLASH_ATTENTION` is set, else `auto` (llama.cpp turns it
//!   on where the backend runs it, CPU and CUDA alike).
//! * `--cache-type-k T --cache-type-v T` from `OLLAMA_KV_CACHE_TYPE` (one type for both).
//! * no `-ngl` unless `num_gpu` is set: llama-server's own `--fit` places the layers, keeping
//!   [`FIT_MARGIN`] free on every GPU.

use crate::units::{Bytes, GIB, MIB};

/// The margin llama.cpp's `--fit` keeps free on every device (`--fit-target`, default 1024 MiB),
/// which places Ollama's layers when `num_gpu` is not set.
pub const FIT_MARGIN: Bytes = Bytes::new(1024 * MIB);

/// The VRAM Ollama counts for its defaults: every GPU's memory together (`gpus` cards of `d`).
pub fn total_vram(d: &crate::catalog::device::Device, gpus: u64) -> Bytes {
    Bytes::new(d.memory_mib.saturating_mul(MIB).saturating_mul(gpus.max(1)))
}

/// Ollama's default `num_ctx` when neither the request, the Modelfile nor
/// `OLLAMA_CONTEXT_LENGTH` sets one: 262,144 tokens when the GPUs' total VRAM (less
/// `OLLAMA_GPU_OVERHEAD` each) is at least 47 GiB, 32,768 from 23 GiB, else 4,096 (Ollama's
/// thresholds sit 1 GiB under 48 and 24 to absorb what drivers report); capped at the model's
/// trained context when it is known (`trained` > 0).
///
/// # Example
/// ```
/// use headroom_core::{ollama::default_context, units::Bytes};
/// assert_eq!(default_context(Bytes::from_gib(24), 131_072), 32_768);
/// assert_eq!(default_context(Bytes::from_gib(16), 131_072), 4_096);
/// assert_eq!(default_context(Bytes::from_gib(80), 131_072), 131_072);
/// ```
pub fn default_context(total_vram: Bytes, trained: u64) -> u64 {
    let tier = if total_vram.get() >= 47 * GIB {
        262_144
    } else if total_vram.get() >= 23 * GIB {
        32_768
    } else {
        4_096
    };
    if trained > 0 { tier.min(trained) } else { tier }
}

/// What Ollama knows when it picks `num_batch` itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchInput {
    /// `num_ctx × num_parallel`: the context llama-server is given.
    pub context: u64,
    /// Flash attention off (`OLLAMA_FLASH_ATTENTION=0`).
    pub flash_attention_off: bool,
    /// The GPUs are CUDA devices, with this much memory on the smallest (the flash-attention-off
    /// rule); `None` for other backends and the CPU.
    pub cuda_memory: Option<Bytes>,
    /// What Ollama predicts the model and its cache need on the GPUs, and the memory free there
    /// (`None`: not known; the context alone decides).
    pub predicted: Option<(Bytes, Bytes)>,
}

/// Ollama's `num_batch` when nothing sets it (`automaticGenerationBatch`), passed to llama-server
/// as both `-b` and `-ub`: with flash attention off on CUDA, 512 (256 when a card has at most
/// 8 GiB and the context is over 4,096); otherwise by the context — 2,048 above 32,768 tokens,
/// 1,024 above 4,096, else 512 — stepped down (2,048 → 1,024 → 512) while the predicted memory
/// is over 80% of what is free, over 60% of it for 2,048 or 75% for 1,024, or leaves less than
/// the larger batch's surcharge (2 GiB for 2,048, 768 MiB for 1,024) under that 80%.
///
/// # Example
/// ```
/// use headroom_core::ollama::{auto_batch, BatchInput};
/// let b = |context| auto_batch(&BatchInput { context, flash_attention_off: false, cuda_memory: None, predicted: None });
/// assert_eq!((b(4096), b(8192), b(65_536)), (512, 1024, 2048));
/// ```
pub fn auto_batch(b: &BatchInput) -> u64 {
    if b.flash_attention_off && b.cuda_memory.is_some() {
        let small = b.cuda_memory.is_some_and(|m| m.get() <= 8 * GIB);
        return if b.context > 4096 && small { 256 } else { 512 };
    }
    let mut batch = if b.context > 32_768 {
        2048
    } else if b.context > 4096 {
        1024
    } else {
        512
    };
    let fits = |batch: u64| {
        let Some((predicted, available)) = b.predicted else { return true };
        let (p, a) = (predicted.get() as u128, available.get() as u128);
        if p == 0 || a == 0 {
            return true;
        }
        let threshold = a * 80 / 100;
        if p > threshold {
            return false;
        }
        let headroom = match batch {
            2048.. => p <= a * 60 / 100,
            1024.. => p <= a * 75 / 100,
            _ => true,
        };
        let surcharge = match batch {
            2048.. => 2 * GIB as u128,
            1024.. => 768 * MIB as u128,
            _ => 0,
        };
        headroom && surcharge <= threshold - p
    };
    while batch > 512 && !fits(batch) {
        batch = if batch > 1024 { 1024 } else { 512 };
    }
    batch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_tiers_follow_total_vram() {
        assert_eq!(default_context(Bytes::from_gib(8), 0), 4096);
        // A "24 GB" card reports a little under 24 GiB: still the 32k tier.
        assert_eq!(default_context(Bytes::new(23 * GIB + 512 * MIB), 0), 32_768);
        assert_eq!(default_context(Bytes::new(23 * GIB - 1), 0), 4096);
        assert_eq!(default_context(Bytes::from_gib(48), 0), 262_144);
        assert_eq!(default_context(Bytes::from_gib(48), 40_960), 40_960);
    }

    #[test]
    fn the_batch_steps_down_when_memory_is_tight() {
        let gib = Bytes::from_gib;
        let at = |context, predicted: Option<(Bytes, Bytes)>| {
            auto_batch(&BatchInput {
                context,
                flash_attention_off: false,
                cuda_memory: Some(gib(24)),
                predicted,
            })
        };
        assert_eq!(at(131_072, Some((gib(10), gib(24)))), 2048);
        // 16 GiB of 24 is over 60%: 1,024; 19 of 24 is over 75%: 512.
        assert_eq!(at(131_072, Some((gib(16), gib(24)))), 1024);
        assert_eq!(at(131_072, Some((gib(19), gib(24)))), 512);
        // 1,024's surcharge (768 MiB) must fit under 80%.
        assert_eq!(at(8192, Some((gib(17), gib(22)))), 512);
        let no_fa = |context, mem| {
            auto_batch(&BatchInput {
                context,
                flash_attention_off: true,
                cuda_memory: Some(gib(mem)),
                predicted: None,
            })
        };
        assert_eq!((no_fa(8192, 8), no_fa(8192, 12), no_fa(4096, 8)), (256, 512, 512));
    }
}
