//! vLLM's memory budget at startup, as its GPU worker computes it and its log states it.
//!
//! vLLM claims `gpu_memory_utilization` of the memory CUDA reports for the card (0.92 since
//! v0.21, 0.9 before), loads the weights, runs one profile step of `max_num_batched_tokens`
//! tokens spread over `min(max_num_seqs, tokens)` requests and samples one token for each, and
//! takes PyTorch's peak over that step; memory allocated outside PyTorch (NCCL, cuBLAS) is added
//! and, since v0.21, an estimate of the CUDA graphs it will capture. What is left is the KV cache:
//! whole blocks of `block_size` tokens, `available // (page × layers per tensor)` of them.
//!
//! The weights (and the rotary cache vLLM keeps beside them) and the KV cache's layout are exact;
//! the profile peak is a fitted rule (the sampler's working set dominates it, see
//! `docs/FORMULAS.md`), non-torch memory and the CUDA-graph estimate are measured quantities vLLM
//! reports and Headroom can only approximate, each with its band.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::model::{Architecture, LayerCache, Mixer, Span};
use crate::precision::KvDtype;
use crate::units::{Bytes, GIB, MIB};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A vLLM release, `major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct VllmVersion {
    /// Major version (0 so far).
    pub major: u16,
    /// Minor version.
    pub minor: u16,
}

impl VllmVersion {
    /// The release Headroom follows by default: the newest on PyPI at 2026-12-06.
    pub const CURRENT: VllmVersion = VllmVersion { major: 0, minor: 34 };
    /// The release whose KV-cache block size defaults to 64 tokens (`CacheConfig.
    /// DEFAULT_BLOCK_SIZE`; 16 before).
    pub const BLOCK_64: VllmVersion = VllmVersion { major: 0, minor: 34 };
    /// The release that states the KV cache's size as `concurrency × max_model_len` tokens (before:
    /// `blocks ÷ KV groups × block size`, which under-states a hybrid model's capacity).
    pub const TOKENS_BY_CONCURRENCY: VllmVersion = VllmVersion { major: 0, minor: 21 };
    /// The release that groups hybrid layers by the fewest of a kind unless the most are under
    /// 1.5× the fewest (1.25× before).
    pub const GROUP_RATIO_3_2: VllmVersion = VllmVersion { major: 0, minor: 20 };
    /// The release that turns prefix caching on for hybrid (attention + Mamba) models by default,
    /// which keeps Mamba states per block ("align" mode; "all" for Mamba-2 models in 0.26–0.27).
    pub const HYBRID_PREFIX_CACHING: VllmVersion = VllmVersion { major: 0, minor: 26 };
    /// The release whose Triton MXFP4 path frees the checkpoint's scales once swizzled.
    pub const TRITON_FREES_SCALES: VllmVersion = VllmVersion { major: 0, minor: 25 };
    /// The release whose "align" mode is the hybrids' only prefix-caching mode.
    pub const ALIGN_ONLY: VllmVersion = VllmVersion { major: 0, minor: 28 };
    /// The release that reserves an estimate of the CUDA graphs before sizing the KV cache
    /// (`VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1` by default) and claims 0.92 of the card.
    pub const GRAPH_RESERVE: VllmVersion = VllmVersion { major: 0, minor: 21 };
    /// The release whose KV cache is extensible by default on CUDA and ROCm
    /// (`CacheConfig.enable_extensible_kv_cache`): its address range reserved from the profile
    /// step's estimate, its size measured after warmup and CUDA-graph capture, and
    /// `gpu_memory_utilization` defaulting to 1.0 (`resolved_gpu_memory_utilization`).
    pub const EXTENSIBLE_KV: VllmVersion = VllmVersion { major: 0, minor: 34 };
    /// A release whose log states the capacity and the concurrency on one line ("GPU KV cache
    /// size: N tokens, Maximum concurrency for …"; read in the 0.29, 0.31, 0.33 and 0.34 wheels).
    pub const CAPACITY_ONE_LINE: VllmVersion = VllmVersion { major: 0, minor: 29 };
    /// The release whose batch defaults give cards of 160 GiB or more 16,384 batched tokens
    /// (`get_batch_defaults`; read in the 0.25, 0.27, 0.28 and 0.29 wheels).
    pub const HUGE_CARDS: VllmVersion = VllmVersion { major: 0, minor: 28 };
    /// The release whose batch defaults keep a GB10 (DGX Spark) on the small tier (read in the
    /// 0.31, 0.32 and 0.33 wheels).
    pub const GB10_SMALL: VllmVersion = VllmVersion { major: 0, minor: 33 };
    /// The release whose profile step samples a second time with every sampling parameter set
    /// (`_dummy_sampler_run`'s warmup pass; not in the 0.29 wheel, in 0.33 and 0.34).
    pub const SAMPLER_WARMUP_PASS: VllmVersion = VllmVersion { major: 0, minor: 33 };
    /// The oldest release modelled: the V1 engine's worker.
    pub const OLDEST: VllmVersion = VllmVersion { major: 0, minor: 8 };
    /// The release whose sliding-window and chunked layers reserve blocks for every batch in
    /// flight (`VllmConfig.max_in_flight_tokens`, `max_concurrent_batches ×
    /// max_num_batched_tokens`: two batches with async scheduling, its default); before, one
    /// step (`max_num_batched_tokens`). Read in the 0.25, 0.26 and 0.34 wheels' sources.
    pub const IN_FLIGHT_BATCHES: VllmVersion = VllmVersion { major: 0, minor: 26 };
    /// The release from which the model runner V2 is the default for every model it supports
    /// (0.26–0.29: dense models without recurrent layers only), which keeps `pipeline + 1`
    /// batches in flight with async scheduling; the V1 runner keeps the pipeline's stages only
    /// (two batches on one stage).
    pub const RUNNER_V2_DEFAULT: VllmVersion = VllmVersion { major: 0, minor: 30 };

    /// Parses `0.21`, `0.21.1`, `v0.30.0`.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `vllm_version` for text that is no version, or one older than the
    /// V1 engine (0.8).
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        let bad = || {
            Error::invalid(
                "vllm_version",
                format!("`{t}` is not a vLLM version; write it as 0.21 or 0.30.1 (0.8 or later)"),
            )
        };
        let body = t.strip_prefix(['v', 'V']).unwrap_or(t);
        let mut parts = body.split('.');
        let major = parts.next().and_then(|p| p.parse::<u16>().ok()).ok_or_else(bad)?;
        let minor = parts.next().and_then(|p| p.parse::<u16>().ok()).ok_or_else(bad)?;
        if parts.next().is_some_and(|p| p.parse::<u16>().is_err()) || parts.next().is_some() {
            return Err(bad());
        }
        let v = VllmVersion { major, minor };
        if v < Self::OLDEST {
            return Err(Error::invalid(
                "vllm_version",
                format!("{t} predates vLLM's V1 engine; Headroom models 0.8 and later"),
            ));
        }
        Ok(v)
    }

    /// `0.30`.
    pub fn id(self) -> String {
        format!("{}.{}", self.major, self.minor)
    }

    /// `gpu_memory_utilization`'s default, in ten-thousandths.
    pub fn default_utilization(self) -> u32 {
        if self >= Self::GRAPH_RESERVE { 9200 } else { 9000 }
    }

    /// Whether the CUDA-graph estimate is reserved by default.
    pub fn reserves_graphs(self) -> bool {
        self >= Self::GRAPH_RESERVE
    }

    /// `--block-size`'s default.
    pub fn default_block_size(self) -> u64 {
        if self >= Self::BLOCK_64 { 64 } else { 16 }
    }
}

/// `--gpu-memory-utilization` as ten-thousandths; `None` outside (0, 1].
pub fn utilization_of(share: f64) -> Option<u32> {
    (share.is_finite() && share > 0.0 && share <= 1.0)
        .then(|| (crate::ops::round(share * 10_000.0) as u32).max(1))
}

impl Default for VllmVersion {
    fn default() -> Self {
        Self::CURRENT
    }
}

/// vLLM's serving parameters that decide its budget (`vllm serve` flags).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct VllmOptions {
    /// The release, whose defaults apply.
    pub version: VllmVersion,
    /// `--gpu-memory-utilization` in ten-thousandths (9200 = 0.92); `None`: the release's default.
    pub utilization: Option<u32>,
    /// `--max-num-seqs`; `None`: by the card (1024 on 70 GiB cards other than A100s, else 256).
    pub max_num_seqs: Option<u64>,
    /// `--max-num-batched-tokens`; `None`: by the card (16384 on 160 GiB cards, 8192 on 70 GiB
    /// cards other than A100s, else 2048: [`VllmOptions::batch`]).
    pub max_num_batched_tokens: Option<u64>,
    /// `--block-size`; `None`: the release's default (64 since 0.34, 16 before).
    pub block_size: Option<u64>,
    /// `--kv-cache-memory` in bytes: the KV cache's size, without profiling.
    pub kv_cache_memory: Option<u64>,
    /// `--enforce-eager`: no CUDA graphs.
    pub enforce_eager: bool,
    /// `VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS` when set; `None`: the release's default.
    pub graph_estimate: Option<bool>,
    /// `--cpu-offload-gb`, in bytes (vLLM counts GiB): weights kept in CPU memory.
    pub cpu_offload: u64,
    /// `--speculative-config`: the drafter loaded beside the model.
    pub speculative: Option<Speculative>,
    /// `--data-parallel-size`: replicas of the tensor-parallel group (`None`: 1).
    pub data_parallel: Option<u64>,
    /// `--enable-expert-parallel`: routed experts spread whole over every GPU (tensor × data
    /// parallel) instead of each split over the tensor-parallel group.
    pub expert_parallel: bool,
    /// `--mm-encoder-tp-mode data`: a multimodal model's encoder whole on every GPU of the
    /// tensor-parallel group, its inputs split among them (`weights`, the default, shards it).
    pub mm_encoder_data: bool,
    /// `--enable-prefix-caching` / `--no-enable-prefix-caching`; `None`: the release's default (on,
    /// except for hybrid attention + Mamba models before 0.26). It decides how many Mamba states
    /// a request of a hybrid model keeps.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub prefix_caching: Option<bool>,
    /// `--async-scheduling` / `--no-async-scheduling`; `None`: the release's default (on since
    /// before 0.20). From 0.26 a batch more is in flight with it, whose tokens sliding-window
    /// layers keep blocks for.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub async_scheduling: Option<bool>,
    /// `--pipeline-parallel-size`: stages of consecutive layers, each on its own tensor-parallel
    /// group (`None`: 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub pipeline_parallel: Option<u64>,
    /// `--mamba-cache-dtype`: bytes per value of a hybrid model's convolution state (and of its
    /// SSM state unless given apart); `None`: "auto", the model's 16-bit dtype.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mamba_cache_bytes: Option<u64>,
    /// `--mamba-ssm-cache-dtype`: bytes per value of the SSM state; `None`: "auto" (the checkpoint's
    /// or family's rule, else the convolution's).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mamba_ssm_cache_bytes: Option<u64>,
    /// `--decode-context-parallel-size` (`-dcp`): the tensor-parallel ranks split each request's
    /// attention cache by tokens instead of keeping copies of the same heads (`None`: 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub decode_context_parallel: Option<u64>,
    /// `--enable-extensible-kv-cache` / `--no-enable-extensible-kv-cache`; `None`: the release's
    /// default (on from 0.34 unless `--kv-cache-memory-bytes` is given).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub extensible_kv_cache: Option<bool>,
    /// `--max-model-len auto` (or `-1`): the model's own length, lowered to what one request's
    /// cache can hold when it does not fit.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "core::ops::Not::not"))]
    pub max_model_len_auto: bool,
    /// `--max-cudagraph-capture-size`: the largest batch captured as a CUDA graph (`None`: vLLM's
    /// default, [`graph_counts_for`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub max_cudagraph_capture_size: Option<u64>,
}

/// Bytes per value of a `--mamba-cache-dtype` / `--mamba-ssm-cache-dtype` value (`None` for
/// "auto"); an error names what is accepted.
///
/// # Errors
/// [`Error::Invalid`] on `mamba_cache_dtype` for another word.
pub fn mamba_dtype_bytes(s: &str) -> Result<Option<u64>> {
    match s.trim().to_ascii_lowercase().as_str() {
        "auto" => Ok(None),
        "float32" | "fp32" => Ok(Some(4)),
        "bfloat16" | "bf16" | "float16" | "fp16" | "half" => Ok(Some(2)),
        other => Err(Error::invalid(
            "mamba_cache_dtype",
            format!("`{other}` is not a Mamba cache dtype; accepted: auto float32 bfloat16 float16"),
        )),
    }
}

/// The id a link and a command write for `bytes` per value.
pub fn mamba_dtype_id(bytes: u64) -> &'static str {
    if bytes >= 4 { "float32" } else { "bfloat16" }
}

/// A speculative-decoding drafter (`--speculative-config`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Speculative {
    /// What drafts.
    pub method: SpecMethod,
    /// `num_speculative_tokens`.
    pub tokens: u64,
}

/// The drafter.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum SpecMethod {
    /// The checkpoint's own multi-token-prediction modules (DeepSeek V3, Qwen3-Next, GLM).
    Mtp,
    /// An EAGLE / EAGLE-3 head: one decoder layer at the target's width and its input projection.
    Eagle,
    /// A smaller model of the same family, from the catalog (`"model": …`).
    Draft(String),
    /// DeepSeek V4.1's DSpark stages, stored in its checkpoint (`{"method": "dspark"}`).
    #[cfg_attr(feature = "serde", serde(rename = "dspark"))]
    DSpark,
}

impl Speculative {
    /// Parses vLLM's JSON (`{"method": "mtp", "num_speculative_tokens": 1}`, `{"model":
    /// "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4}`, `{"method": "eagle3", "model": …}`)
    /// or Headroom's short form (`mtp:1`, `eagle:3`, `draft:qwen3-0.6b:4`, `dspark:5`).
    ///
    /// # Errors
    /// [`Error::Invalid`] on `speculative_config` for a method Headroom does not model, a draft
    /// model not in the catalog, or a token count outside 1–64.
    pub fn parse(text: &str) -> Result<Self> {
        let t = text.trim();
        let bad = |why: String| Error::invalid("speculative_config", why);
        let (method, model, tokens): (String, Option<String>, Option<u64>) = if t.starts_with('{') {
            let v = crate::json::parse(t.as_bytes(), "speculative config")?;
            (
                v.get("method").and_then(|m| m.as_str()).unwrap_or("").to_ascii_lowercase(),
                v.get("model").and_then(|m| m.as_str()).map(String::from),
                v.get("num_speculative_tokens").and_then(|n| n.as_u64()),
            )
        } else {
            let mut parts = t.split(':');
            let m = parts.next().unwrap_or("").to_ascii_lowercase();
            let rest: Vec<&str> = parts.collect();
            let (model, n) = match (m.as_str(), rest.as_slice()) {
                ("draft", [model, n]) => (Some(String::from(*model)), n.parse().ok()),
                ("draft", [model]) => (Some(String::from(*model)), None),
                (_, [n]) => (None, n.parse().ok()),
                _ => (None, None),
            };
            (m, model, n)
        };
        // DSpark drafts a block of `dspark_block_size` tokens by default (5 in DeepSeek V4.1's
        // config, vLLM's `DSparkSpeculatorConfig`); the other methods one.
        let dspark = method == "dspark";
        let tokens = tokens.unwrap_or(if dspark { 5 } else { 1 });
        if !(1..=64).contains(&tokens) {
            return Err(bad(format!("{tokens} speculative tokens is out of range; use 1 to 64")));
        }
        let method = match method.as_str() {
            "mtp" | "deepseek_mtp" | "qwen3_next_mtp" | "glm4_moe_mtp" => SpecMethod::Mtp,
            "eagle" | "eagle3" => SpecMethod::Eagle,
            "dspark" => SpecMethod::DSpark,
            "" | "draft" | "draft_model" => {
                let m = model.ok_or_else(|| bad("a draft model needs \"model\"".into()))?;
                let name = m.trim_end_matches('/');
                let entry = crate::catalog::model(name)
                    .or_else(|_| crate::catalog::model(name.rsplit('/').next().unwrap_or(name)))
                    .map_err(|_| {
                        bad(format!(
                            "the draft model `{m}` is not in the catalog (`headroom models` lists them)"
                        ))
                    })?;
                SpecMethod::Draft(entry.id.into())
            }
            other => {
                return Err(bad(format!(
                    "`{other}` is not a method Headroom models; accepted: mtp, eagle, eagle3, dspark, a draft model"
                )));
            }
        };
        Ok(Speculative { method, tokens })
    }

    /// Headroom's short form, for links: `mtp:1`, `eagle:3`, `draft:qwen3-0.6b:4`.
    pub fn id(&self) -> String {
        match &self.method {
            SpecMethod::Mtp => format!("mtp:{}", self.tokens),
            SpecMethod::Eagle => format!("eagle:{}", self.tokens),
            SpecMethod::Draft(m) => format!("draft:{m}:{}", self.tokens),
            SpecMethod::DSpark => format!("dspark:{}", self.tokens),
        }
    }

    /// vLLM's JSON for the command line.
    pub fn json(&self) -> String {
        match &self.method {
            SpecMethod::Mtp => {
                format!("{{\"method\": \"mtp\", \"num_speculative_tokens\": {}}}", self.tokens)
            }
            SpecMethod::Eagle => {
                format!("{{\"method\": \"eagle3\", \"num_speculative_tokens\": {}}}", self.tokens)
            }
            SpecMethod::Draft(m) => {
                let repo = crate::catalog::model(m).map_or(m.as_str(), |e| e.hf_repo);
                format!("{{\"model\": \"{repo}\", \"num_speculative_tokens\": {}}}", self.tokens)
            }
            SpecMethod::DSpark => {
                format!("{{\"method\": \"dspark\", \"num_speculative_tokens\": {}}}", self.tokens)
            }
        }
    }
}

/// The largest `--max-num-seqs` and `--max-num-batched-tokens` accepted.
pub const MAX_VLLM_TOKENS: u64 = 1 << 24;
/// The default `--block-size` before vLLM 0.34 (64 since).
pub const DEFAULT_BLOCK_SIZE: u64 = 16;

impl VllmOptions {
    /// Checks the values a user typed.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the setting: a utilisation outside (0, 1], counts of 0 or above
    /// 2^24, a block size that is not a multiple of 16 up to 2048 (1 to 2048 for the classic
    /// sizes 1 and 8 as well).
    pub fn validate(&self) -> Result<()> {
        if let Some(u) = self.utilization
            && (u == 0 || u > 10_000)
        {
            return Err(Error::invalid(
                "gpu_memory_utilization",
                format!(
                    "{} is out of range; vLLM accepts a share above 0 and at most 1",
                    u as f64 / 10_000.0
                ),
            ));
        }
        for (name, v) in [
            ("max_num_seqs", self.max_num_seqs),
            ("max_num_batched_tokens", self.max_num_batched_tokens),
            ("max_cudagraph_capture_size", self.max_cudagraph_capture_size),
        ] {
            if let Some(n) = v
                && (n == 0 || n > MAX_VLLM_TOKENS)
            {
                return Err(Error::invalid(name, format!("{n} is out of range; use 1 to {MAX_VLLM_TOKENS}")));
            }
        }
        for (name, v) in [
            ("data_parallel_size", self.data_parallel),
            ("pipeline_parallel_size", self.pipeline_parallel),
            ("decode_context_parallel_size", self.decode_context_parallel),
        ] {
            if let Some(d) = v
                && (d == 0 || d > crate::scenario::MAX_GPUS)
            {
                return Err(Error::invalid(
                    name,
                    format!("{d} is out of range; use 1 to {}", crate::scenario::MAX_GPUS),
                ));
            }
        }
        if let Some(b) = self.block_size
            && !(matches!(b, 1 | 8) || (b % 16 == 0 && (16..=2048).contains(&b)))
        {
            return Err(Error::invalid(
                "block_size",
                format!(
                    "{b} is not a block size vLLM's attention backends take; use 16, 32, 64 … 2048 (or 1, 8)"
                ),
            ));
        }
        Ok(())
    }

    /// Data-parallel replicas in effect.
    pub fn data_parallel(&self) -> u64 {
        self.data_parallel.unwrap_or(1).max(1)
    }

    /// Pipeline stages in effect.
    pub fn pipeline_parallel(&self) -> u64 {
        self.pipeline_parallel.unwrap_or(1).max(1)
    }

    /// Decode-context-parallel ranks in effect (they are tensor-parallel ranks, not more GPUs).
    pub fn dcp(&self) -> u64 {
        self.decode_context_parallel.unwrap_or(1).max(1)
    }

    /// Whether the KV cache is sized from the memory measured after warmup (vLLM 0.34's
    /// extensible KV cache): the release's default unless turned off, and never beside
    /// `--kv-cache-memory-bytes` (which vLLM refuses when it is asked for explicitly).
    pub fn extensible(&self) -> bool {
        self.version >= VllmVersion::EXTENSIBLE_KV
            && self.kv_cache_memory.is_none()
            && self.extensible_kv_cache.unwrap_or(true)
    }

    /// The utilisation in effect, as a share: the one given, else 1.0 with the extensible KV
    /// cache, else the release's default.
    pub fn utilization(&self) -> f64 {
        match self.utilization {
            Some(u) => f64::from(u) / 10_000.0,
            None if self.extensible() => 1.0,
            None => f64::from(self.version.default_utilization()) / 10_000.0,
        }
    }

    /// The block size asked for (`--block-size`, else the release's default); a hybrid model's
    /// attention blocks may be raised above it ([`budget`]).
    pub fn block_size(&self) -> u64 {
        self.block_size.unwrap_or_else(|| self.version.default_block_size()).max(1)
    }

    /// Whether CUDA graphs are reserved before the KV cache is sized.
    pub fn reserves_graphs(&self) -> bool {
        !self.enforce_eager && self.graph_estimate.unwrap_or_else(|| self.version.reserves_graphs())
    }

    /// `(max_num_batched_tokens, max_num_seqs)` in effect on a card of `memory` named `name`
    /// with compute capability `cc` (`vllm serve`'s defaults, `EngineArgs.get_batch_defaults`:
    /// 16384 and 1024 on cards of 160 GiB or more from 0.28 — B200, B300, MI300X —; 8192 and 1024
    /// on cards of 70 GiB or more that are not A100s nor, from 0.33, a GB10 (DGX Spark, SM 12.1);
    /// 2048 and 256 otherwise); the sequences never exceed the tokens.
    pub fn batch(&self, memory: Option<Bytes>, name: &str, cc: u16) -> (u64, u64) {
        let m = memory.map_or(0, |m| m.get());
        let gb10 = cc == 121 && self.version >= VllmVersion::GB10_SMALL;
        let (default_tokens, default_seqs) = if m >= 160 * GIB && self.version >= VllmVersion::HUGE_CARDS {
            (16_384, 1024)
        } else if m >= 70 * GIB && !name.to_ascii_lowercase().contains("a100") && !gb10 {
            (8192, 1024)
        } else {
            (2048, 256)
        };
        let tokens = self.max_num_batched_tokens.unwrap_or(default_tokens);
        let seqs = self.max_num_seqs.unwrap_or(default_seqs).min(tokens);
        (tokens, seqs)
    }
}

/// Bytes the sampler's profile step keeps per logit (requests × vocabulary): the logits in the
/// model's dtype and in FP32, the sorted values and their int64 indices for top-k/top-p, the sort's
/// workspace, the probabilities and masks. Fitted on published startup logs (H100, five models,
/// vocabularies 128k–201k): within 0.01 GiB of each, see `docs/FORMULAS.md`.
pub const SAMPLER_BYTES_PER_LOGIT_X4: u64 = 153;
/// Bytes per canvas logit in a block-diffusion model's sampler profile: the logits in 16-bit and
/// their softmax in the embedding's 16-bit dtype (vLLM's `diffusion_gemma.py`).
pub const DIFFUSION_BYTES_PER_LOGIT: u64 = 4;

/// A block-diffusion model's per-request state, which vLLM allocates after loading the weights
/// and before its profile step, so that its budget counts it nowhere (DiffusionGemma's
/// `DiffusionGemmaRequestStates` and inputs buffer): for each of `max_num_seqs` requests the
/// canvas's FP32 self-conditioning embeddings (`canvas × hidden`), its token canvases (current,
/// argmax, seed) and a two-step history in int64 and a pin mask; and `max_num_batched_tokens`
/// input embeddings in 16-bit. Zero for other models.
pub fn diffusion_state(a: &Architecture, seqs: u64, tokens: u64) -> Bytes {
    if a.canvas == 0 {
        return Bytes::ZERO;
    }
    let per_request = a.canvas.saturating_mul(a.hidden_size.saturating_mul(4).saturating_add(8 * 5 + 1));
    Bytes::new(
        seqs.saturating_mul(per_request)
            .saturating_add(tokens.saturating_mul(a.hidden_size).saturating_mul(2)),
    )
}

/// Bytes per token × hidden width alive beside the sampler (the last hidden states and their
/// norm, 16-bit), ×2.
pub const HIDDEN_BYTES_X2: u64 = 5;

/// PyTorch's peak during vLLM's profile step on one GPU: the larger of the forward pass's working
/// set for `tokens` tokens (hidden states, attention projections, the MLP's gate, up and product
/// in 16-bit, split over `tp`; the attention residuals' block outputs whole) and the sampler's for `seqs` requests over the whole vocabulary
/// (the logits are gathered on every rank).
pub fn profile_peak(a: &Architecture, tokens: u64, seqs: u64, tp: u64) -> Bytes {
    profile_peak_with(a, tokens, seqs, tp, SAMPLER_BYTES_PER_LOGIT_X4)
}

/// [`profile_peak`] with the sampler's bytes per logit ×4 ([`sampler_bytes_x4`]).
pub fn profile_peak_with(a: &Architecture, tokens: u64, seqs: u64, tp: u64, per_logit_x4: u64) -> Bytes {
    // A block-diffusion model's sampler profiles one request's canvas instead (DiffusionGemma's
    // `dummy_sampler_run`: its logits in the model's dtype and the softmax in the embedding's).
    let logits = if a.canvas > 0 {
        a.canvas.saturating_mul(a.vocab_size).saturating_mul(DIFFUSION_BYTES_PER_LOGIT)
    } else {
        seqs.saturating_mul(a.vocab_size).saturating_mul(per_logit_x4) / 4
    };
    let sampler = logits + tokens.saturating_mul(a.hidden_size).saturating_mul(HIDDEN_BYTES_X2) / 2;
    forward_peak(a, tokens, tp).max(Bytes::new(sampler))
}

/// Whether vLLM runs this model on its V2 model runner (`vllm/v1/worker/gpu/`): every model from
/// 0.30, dense models without recurrent layers from 0.26.
pub fn runner_v2(o: &VllmOptions, a: &Architecture) -> bool {
    o.version >= VllmVersion::RUNNER_V2_DEFAULT
        || (o.version >= VllmVersion::IN_FLIGHT_BATCHES
            && a.moe().is_none()
            && !a.mixers().any(|(_, m)| m.is_recurrent()))
}

/// Bytes per logit ×4 of the sampler's profile: the V1 runner's fitted figure
/// ([`SAMPLER_BYTES_PER_LOGIT_X4`], its top-k/top-p sort and FP32 copies); the V2 runner's
/// sampler keeps the 16-bit logits and, from 0.33, the FP32 copy of its pass with every sampling
/// parameter set (`SamplingParams.for_sampler_warmup`; read in the 0.29, 0.33 and 0.34 wheels):
/// its top-k/top-p run in Triton on that copy without a sort, its log-probabilities in kernels.
pub fn sampler_bytes_x4(o: &VllmOptions, a: &Architecture) -> u64 {
    match (runner_v2(o, a), o.version >= VllmVersion::SAMPLER_WARMUP_PASS) {
        (false, _) => SAMPLER_BYTES_PER_LOGIT_X4,
        (true, false) => 8,
        (true, true) => 24,
    }
}

/// The V2 runner's sampler state, allocated once the model is loaded and kept: the penalties'
/// output counts (an int32 per vocabulary entry per request) and prompt bit masks
/// (`PenaltiesState`), for `max_num_seqs` requests; none on the V1 runner.
pub fn sampler_state(o: &VllmOptions, a: &Architecture, seqs: u64) -> Bytes {
    if !runner_v2(o, a) || a.canvas > 0 {
        return Bytes::ZERO;
    }
    let v = a.vocab_size;
    Bytes::new(seqs.saturating_mul(v.saturating_mul(4).saturating_add(v.div_ceil(32).saturating_mul(4))))
}

/// The profile step's peak with a multimodal model's encoders: their outputs stay alive through
/// the language model's step, so the peak is the larger of the encoders' run and the language
/// model's with them. Returns the band's factors too: an encoder that sets the peak is measured
/// less well (×0.7–1.4 rather than ×0.9–1.15).
pub fn profile_with_encoders(
    a: &Architecture,
    encoders: &[crate::model::Encoder],
    tokens: u64,
    seqs: u64,
    max_model_len: u64,
    (tp, per_logit_x4): (u64, u64),
    data: bool,
) -> (Bytes, Option<EncoderProfile>, (f64, f64)) {
    let text = profile_peak_with(a, tokens, seqs, tp, per_logit_x4);
    let encoder = encoder_profile(encoders, tokens, seqs, max_model_len, tp, a.hidden_size, data);
    let (peak, band) = match &encoder {
        Some(p) if p.peak > text.saturating_add(p.outputs) => (p.peak, (0.7, 1.4)),
        Some(p) => (text.saturating_add(p.outputs), (0.9, 1.15)),
        None => (text, (0.9, 1.15)),
    };
    (peak, encoder, band)
}

/// The forward pass's working set alone in the profile step (a pipeline stage without the sampler).
fn forward_peak(a: &Architecture, tokens: u64, tp: u64) -> Bytes {
    let tp = tp.max(1);
    let h = a.hidden_size;
    let ffn = a.groups.iter().map(|g| g.ffn.active_width()).max().unwrap_or(0);
    let qkv = a.mixers().map(|(_, m)| m.score_width().saturating_mul(3)).max().unwrap_or(0);
    // K2 Horizon's MoVA layers stack every value expert's weights into one new tensor for the
    // fused kernel (`torch.stack` over `v_experts`, vLLM's `k2_horizon.py`) and keep each token's
    // picks (`[tokens, per_token, values]`) beside q and k, all split over `tp`.
    let (mova_stack, mova_per_token) = a
        .mixers()
        .filter_map(|(_, m)| match m {
            Mixer::Attention(at) => at.mova.map(|v| {
                let w = at.v_width();
                (
                    v.experts.saturating_mul(w).saturating_mul(h).saturating_mul(2),
                    v.per_token.saturating_mul(w),
                )
            }),
            _ => None,
        })
        .fold((0u64, 0u64), |m, x| (m.0.max(x.0), m.1.max(x.1)));
    let attend = tokens
        .saturating_mul(2)
        .saturating_mul(qkv.saturating_add(rel_logits(a)).saturating_add(mova_per_token))
        .saturating_add(mova_stack)
        / tp;
    let mlp = tokens.saturating_mul(2).saturating_mul(3u64.saturating_mul(ffn)) / tp;
    // Kimi K3's attention residuals: every block's output for every token, whole on each GPU.
    let blocks = a.residual_blocks.saturating_mul(h);
    Bytes::new(
        tokens
            .saturating_mul(2)
            .saturating_mul(2u64.saturating_mul(h).saturating_add(blocks))
            .saturating_add(attend.max(mlp)),
    )
}

/// Inkling's relative-position logits, alive beside q, k and v while a layer attends (vLLM 0.34
/// `inkling/nvidia/ops/qkvr_prep.py`: `[tokens, heads, extent]` in 16 bits): per token, the
/// widest layer's `heads × extent` (the window on sliding layers, [`Architecture::rel_extent`]
/// on the others); 0 without a relative-position bias.
fn rel_logits(a: &Architecture) -> u64 {
    if a.rel_extent == 0 {
        return 0;
    }
    a.mixers()
        .filter_map(|(_, m)| match m {
            Mixer::Attention(at) => Some(at.num_heads.saturating_mul(match at.span {
                Span::Sliding { window } => window,
                _ => a.rel_extent,
            })),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Memory allocated outside PyTorch during the profile step: about 0.13 GiB on one GPU (cuBLAS
/// and kernels' workspaces), about 0.55 GiB with tensor parallelism (NCCL and the custom
/// all-reduce buffers), as startup logs report it; with its band.
pub fn non_torch(tp: u64) -> (Bytes, Bytes, Bytes) {
    if tp <= 1 {
        (Bytes::new(133 * MIB), Bytes::new(20 * MIB), Bytes::new(360 * MIB))
    } else {
        (Bytes::new(563 * MIB), Bytes::new(300 * MIB), Bytes::new(1536 * MIB))
    }
}

/// vLLM's default CUDA-graph capture sizes for `max_num_seqs` on a Hopper card without a drafter:
/// `(piecewise, full)` counts ([`graph_counts_for`]).
pub fn graph_counts(max_num_seqs: u64) -> (u64, u64) {
    graph_counts_for(&VllmOptions::default(), max_num_seqs, 8192, 90)
}

/// vLLM's CUDA-graph capture sizes (`VllmConfig._set_cudagraph_sizes`, read in the 0.29, 0.31,
/// 0.33 and 0.34 wheels): `(piecewise, full)` counts. Sizes are 1, 2, 4, then every 8 up to 248,
/// then every 16 from 256, up to `--max-cudagraph-capture-size`, by default
/// `min(2 × max_num_seqs × q, 512)` — 1,024 on data-centre Blackwell (SM 10.x) — where `q` is a
/// decode step's tokens per request (1 + speculative tokens), and never above
/// `max_num_batched_tokens`; full (uniform decode) graphs cover up to `max_num_seqs` requests of
/// `q` tokens within it.
pub fn graph_counts_for(o: &VllmOptions, max_num_seqs: u64, max_tokens: u64, cc: u16) -> (u64, u64) {
    fn sizes_up_to(m: u64) -> u64 {
        let small = [1u64, 2, 4].iter().filter(|s| **s <= m).count() as u64;
        let eights = if m >= 8 { m.min(255) / 8 } else { 0 };
        let sixteens = if m >= 256 { (m - 256) / 16 + 1 } else { 0 };
        small + eights + sixteens
    }
    let q = 1 + o.speculative.as_ref().map_or(0, |sp| sp.tokens);
    let ceiling = if cc / 10 == 10 && o.version >= VllmVersion::CAPACITY_ONE_LINE { 1024 } else { 512 };
    let largest = o
        .max_cudagraph_capture_size
        .unwrap_or_else(|| max_num_seqs.saturating_mul(q).saturating_mul(2).min(ceiling))
        .min(max_tokens.max(1));
    // Full graphs: requests counted on the same grid, each `q` tokens wide.
    let full = sizes_up_to(max_num_seqs.min(ceiling).min(largest / q.max(1)));
    (sizes_up_to(largest), full)
}

/// The CUDA-graph memory vLLM estimates and reserves (since v0.21): a shared pool plus a share per
/// captured graph, about 0.25 GiB + 3 MiB per graph (published logs: 0.2–0.8 GiB for one GPU);
/// with its band. `max_tokens` is `max_num_batched_tokens`, `cc` the card's compute capability.
pub fn graph_estimate(o: &VllmOptions, max_num_seqs: u64, max_tokens: u64, cc: u16) -> (Bytes, Bytes, Bytes) {
    let (p, f) = graph_counts_for(o, max_num_seqs, max_tokens, cc);
    let central = Bytes::new(256 * MIB + (p + f) * 3 * MIB);
    (central, central.scale(0.4), central.scale(3.0))
}

/// Memory CUDA reports for one of the device's cards (`torch.cuda.mem_get_info`'s total), from
/// the memory the catalog states: data-centre cards of 32 GiB and more lose about 1% to the
/// driver and ECC metadata (H100 80 GB: 79.2 GiB; logs show 79.11–79.19), smaller cards about
/// 0.4 GiB (RTX 4090: 23.6 GiB; logs show 23.55–23.64). A machine of one memory reports what its
/// OS lets the GPU have: DGX Spark 119.56 of its 128 GiB (vLLM's own message on a GB10, issue
/// #48140; `deviceQuery` 122,570 MB), a Ryzen AI Max its GTT (half the RAM by default: PyTorch
/// reads 62.47 GiB on 128 GB; a raised `ttm.pages_limit` is given as a GPU share,
/// [`cuda_total_with`]).
pub fn cuda_total(d: &crate::catalog::device::Device) -> Bytes {
    cuda_total_with(d, None)
}

/// [`cuda_total`] where the GPU share of a machine of one memory is given (`--gpu-share`: a raised
/// `ttm.pages_limit` or GTT on a Ryzen AI Max, which PyTorch then reports, or a Spark's own figure).
pub fn cuda_total_with(d: &crate::catalog::device::Device, gpu_share: Option<f64>) -> Bytes {
    let m = Bytes::new(d.memory_mib.saturating_mul(MIB));
    if d.kind == crate::catalog::device::DeviceKind::Apu
        && let Some(f) = gpu_share.filter(|f| f.is_finite() && *f > 0.0 && *f <= 1.0)
    {
        return m.scale(f);
    }
    if d.kind == crate::catalog::device::DeviceKind::Apu {
        let share = if d.vendor.eq_ignore_ascii_case("nvidia") {
            119.56 / 128.0
        } else {
            crate::hardware::default_apu_gpu_fraction(d)
        };
        return m.scale(share);
    }
    if m.get() >= 32 * GIB {
        m.scale(0.99)
    } else {
        m.saturating_sub(Bytes::new(410 * MIB)).max(m.scale(0.9))
    }
}

/// The CUDA context and the process before vLLM claims its share (outside the budget): about
/// 0.6 GiB.
pub const CUDA_CONTEXT: Bytes = Bytes::new(600 * MIB);

/// The rotary embedding's cos/sin cache vLLM keeps beside the weights (one per model):
/// `max_position × rotary width` in the model's 16-bit dtype; 0 for learned positions.
pub fn rotary_cache(a: &Architecture) -> Bytes {
    // A learned relative-position bias stands in for rotary positions (Inkling: vLLM 0.34 builds
    // no rotary embedding for it).
    if a.learned_positions > 0 || a.rel_extent > 0 {
        return Bytes::ZERO;
    }
    // Layers of several rotary widths, bases or scalings: a cache each (vLLM's `get_rope` keeps
    // one per distinct key), and Step 5's sparse backend's FlashInfer workspace (`torch.empty(128
    // << 20)` built with the model, `nvidia/flashinfer_sparse.py`).
    if !a.rotary_widths.is_empty() {
        let widths = a.rotary_widths.iter().fold(0u64, |acc, w| acc.saturating_add(*w));
        let workspace = if a.family == "step5" { 128 * MIB } else { 0 };
        return Bytes::new(a.max_context.saturating_mul(widths).saturating_mul(2).saturating_add(workspace));
    }
    // DeepSeek V4 and V4.1 (`deepseek_v4/common/rope.py`): one FP32 cache of the rotary part for
    // the window-only layers and one for the compressed ones (YaRN to the same length), each
    // `max_position_embeddings` rows (`DeepseekV4ScalingRotaryEmbedding`).
    let compressed: Vec<(bool, u64)> = a
        .mixers()
        .filter_map(|(_, m)| match m {
            Mixer::Compressed(c) => Some((c.ratio > 0, c.rope_dim)),
            _ => None,
        })
        .collect();
    if !compressed.is_empty() {
        let kinds = [false, true]
            .iter()
            .filter_map(|k| compressed.iter().filter(|c| c.0 == *k).map(|c| c.1).max())
            .fold(0u64, |acc, dim| acc.saturating_add(dim));
        return Bytes::new(a.max_context.saturating_mul(kinds).saturating_mul(4));
    }
    let width = a
        .mixers()
        .map(|(_, m)| match m {
            Mixer::Attention(at) => at.head_dim,
            Mixer::Mla(ml) => ml.qk_rope_head_dim,
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    Bytes::new(a.max_context.saturating_mul(width).saturating_mul(2))
}

/// Why vLLM 0.34 cannot build the model's attention on `d`, when it cannot: Step 5's sparse
/// attention runs on NVIDIA compute capability 9.0, 10.0 and 10.3 only (`Step5DSAAttentionBackend`,
/// "Step5 DSA requires SM90, SM100 or SM103"; AMD GPUs take `models/step5/amd`). `None` when it
/// can, or when the device's compute capability is not known.
pub fn kernels_missing(a: &Architecture, d: &crate::catalog::device::Device) -> Option<crate::text::Msg> {
    use crate::text::{Arg, Msg, MsgId};
    let cc = d.compute_capability;
    let sparse =
        a.family == "step5" && a.mixers().any(|(_, m)| matches!(m, Mixer::Attention(at) if at.index_key > 0));
    let nvidia = d.vendor.eq_ignore_ascii_case("nvidia");
    if !sparse || !nvidia || cc == 0 || matches!(cc, 90 | 100 | 103) {
        return None;
    }
    Some(Msg::new(
        MsgId::AdviceVllmKernelsMissing,
        alloc::vec![
            Arg::Text(d.name.into()),
            Arg::Text("Step 5's sparse attention".into()),
            Arg::Text("SM 9.0, 10.0 and 10.3 (H100, H200, B200, B300)".into()),
        ],
    ))
}

/// Whether vLLM 0.34 builds the model's expert router in FP32 (`GateLinear` with
/// `params_dtype=torch.float32`, whatever the checkpoint stores): AFMoE, Ling 3, ERNIE 4.5's MoE,
/// GLM-4.5 and its successors, HunYuan V3 and V4, MiniMax M2 and M3, Step-3.5, Step 5, Beam.
pub fn fp32_router(a: &Architecture) -> bool {
    matches!(
        a.family.as_str(),
        "afmoe"
            | "bailing_hybrid"
            | "ernie4_5_moe"
            | "glm4_moe"
            | "hy_v3"
            | "hy_v4"
            | "minimax_m2"
            | "minimax_m3"
            | "param2moe"
            | "mimo_v2_flash"
            | "step3p5"
            | "step5"
            | "beam"
    )
}

/// Whether `t` is one of the n-gram tables vLLM keeps in host memory (an embedding table inside
/// the layer stack): DeepSeek V4.1's Engram tables, Qwen4-Exp's PLE tables (both under
/// `EngramConfig`, `cpu_offload` on by default).
pub fn is_engram_table(a: &Architecture, t: &crate::tensors::Tensor) -> bool {
    matches!(a.family.as_str(), "deepseek_v41" | "qwen4_exp")
        && t.role == crate::tensor::Role::ExtraEmbd
        && t.layer.is_some_and(|l| u64::from(l) < a.num_layers())
}

/// Where vLLM keeps DeepSeek V4.1's Engram tables: pinned host memory, read by the GPUs over
/// UVA (`EngramConfig.cpu_offload`, on by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngramHost {
    /// The tables' bytes, as the checkpoint stores them (FP8 rows and their scales).
    pub tables: Bytes,
    /// The host memory they take over every GPU of the node.
    pub host: Bytes,
    /// Shards the tables are cut into (the tensor-parallel ranks; 1 when data-parallel replicas
    /// share one copy).
    pub shards: u64,
    /// Whether each shard's rows and scales are pinned apart, each rounded up to a power of two.
    pub rounded: bool,
}

/// DeepSeek V4.1's Engram tables under vLLM (`deepseek_v41/common/engram.py`,
/// `ParallelEngramEmbedding`): each table's rows belong to its hash columns (n-gram orders ×
/// heads, `columns`), which the `tp` ranks share out `⌈columns / tp⌉` at a time; each rank pins
/// its rows and their scales apart with `torch.empty(pin_memory=True)`, which PyTorch's caching
/// host allocator rounds up to a power of two. With data-parallel replicas (`dp` > 1) the node
/// keeps one copy of each shard in shared memory at its exact size. `None` for a model without
/// such tables.
pub fn engram_host(a: &Architecture, p: &crate::tensors::Priced, tp: u64, dp: u64) -> Option<EngramHost> {
    let tables: Vec<(&crate::tensors::Tensor, u64)> =
        p.tensors.iter().zip(&p.bytes).filter(|(t, _)| is_engram_table(a, t)).map(|(t, b)| (t, *b)).collect();
    if tables.is_empty() {
        return None;
    }
    let total = tables.iter().fold(0u64, |acc, (_, b)| acc.saturating_add(*b));
    if dp > 1 {
        return Some(EngramHost {
            tables: Bytes::new(total),
            host: Bytes::new(total),
            shards: 1,
            rounded: false,
        });
    }
    let tp = tp.max(1);
    let pow2 = |b: u64| if b == 0 { 0 } else { b.checked_next_power_of_two().unwrap_or(b) };
    let mut host = 0u64;
    if a.family == "qwen4_exp" {
        // Qwen4-Exp's PLE tables (`qwen4_exp/common/ngram_embedding.py`): rows split evenly over
        // the tensor-parallel ranks (its ETP group), each rank's pinned in one allocation.
        for (_, bytes) in &tables {
            host = host.saturating_add(pow2(bytes.div_ceil(tp)).saturating_mul(tp));
        }
        return Some(EngramHost {
            tables: Bytes::new(total),
            host: Bytes::new(host),
            shards: tp,
            rounded: true,
        });
    }
    for (t, bytes) in &tables {
        // The hash columns: the layer's key/value projection reads one table row per column.
        let columns = p
            .tensors
            .iter()
            .find(|x| x.layer == t.layer && x.role == crate::tensor::Role::Extra)
            .map_or(1, |x| (x.cols / t.cols.max(1)).max(1));
        let part = columns.div_ceil(tp);
        let values = t.rows.saturating_mul(t.cols);
        let scales = bytes.saturating_sub(values);
        for rank in 0..tp {
            let held = part.min(columns.saturating_sub(rank * part));
            if held == 0 {
                continue;
            }
            let share = |b: u64| (u128::from(b) * u128::from(held) / u128::from(columns)) as u64;
            host = host.saturating_add(pow2(share(values))).saturating_add(pow2(share(scales)));
        }
    }
    Some(EngramHost { tables: Bytes::new(total), host: Bytes::new(host), shards: tp, rounded: true })
}

/// vLLM's pipeline stages (`distributed/utils.py` `get_pp_indices`): `[start, end)` layer ranges,
/// `layers / pp` each, the remainder one more each on the stages before the last, counting back
/// from the second-to-last (36 layers over 5 stages: 7, 7, 7, 8, 7).
pub fn pp_stages(layers: u64, pp: u64) -> Vec<(u64, u64)> {
    let pp = pp.max(1).min(layers.max(1));
    let mut sizes = alloc::vec![layers / pp; pp as usize];
    let rest = (layers % pp) as usize;
    for i in 2..rest + 2 {
        let k = sizes.len().saturating_sub(i);
        sizes[k] += 1;
    }
    let mut start = 0;
    sizes
        .into_iter()
        .map(|n| {
            let r = (start, start + n);
            start += n;
            r
        })
        .collect()
}

/// Layers `[start, end)` of `a` as a stack of their own (one pipeline stage's KV layout).
fn stage_arch(a: &Architecture, start: u64, end: u64) -> Architecture {
    let mut groups = Vec::new();
    let mut at = 0u64;
    for g in &a.groups {
        let (lo, hi) = (at.max(start), (at + g.count).min(end));
        if hi > lo {
            let mut part = g.clone();
            part.count = hi - lo;
            groups.push(part);
        }
        at += g.count;
    }
    Architecture { groups, ..a.clone() }
}

/// A kind of KV layer as vLLM's KV-cache specs group them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpecKind {
    Full,
    Window(u64),
    Chunk(u64),
    /// Inkling's short convolutions' last inputs (`InklingConvState`): a sliding window of `taps`
    /// tokens whose spec's own block is `taps` tokens (raised like any other to the largest page).
    Conv {
        taps: u64,
    },
    /// Recurrent (Mamba-style) layers: `fixed` pages per request, plus one per block of the
    /// request's tokens when `per_block` (prefix caching's "all" mode).
    Mamba {
        fixed: u64,
        per_block: bool,
    },
}

/// How a hybrid model's Mamba states are kept per request (`CacheConfig.mamba_cache_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MambaMode {
    /// Prefix caching off: one state per request (and one per speculative token).
    None,
    /// Prefix caching on: the running state and the last block boundary's.
    Align,
    /// Prefix caching on in 0.26–0.27 for Mamba-2 models: a state per block of the request.
    All,
}

/// A hybrid model's recurrent layers as vLLM's `MambaSpec` keeps them on one GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MambaLayers {
    /// Layers with a recurrent state.
    layers: u64,
    /// Bytes of one layer's state for one request on this GPU (convolution + SSM), unpadded.
    page: u64,
    /// Mamba-2 layers (they export prefill checkpoints; "all" mode in 0.26–0.27).
    mamba2: bool,
    /// Gated DeltaNet layers with 128-wide keys (FlashInfer's prefill kernel on Hopper and
    /// Blackwell takes them, with its checkpoints every 64 tokens).
    gdn_k128: bool,
    /// Several kinds of state (vLLM keeps one spec; the largest page is used).
    mixed: bool,
}

/// DeepSeek V4's KV cache in vLLM: layers of several kinds and page sizes packed side by side
/// in one pool of blocks (`_get_packed_kv_cache_groups`), each group of layers taking blocks of
/// the widest group's bytes.
#[derive(Clone, Debug, PartialEq)]
struct Packed {
    /// Tokens a block of the every-token groups holds (`--block-size`).
    block: u64,
    /// Bytes of one block of the pool.
    block_bytes: u64,
    /// Each group: its kind (every token, or a sliding window), the tokens a block holds, and
    /// how many such groups.
    groups: Vec<(SpecKind, u64, u64)>,
}

impl Packed {
    /// Blocks one request of `len` tokens takes over every group, with `inflight` tokens
    /// scheduled but not settled.
    fn blocks(&self, len: u64, inflight: u64) -> u64 {
        self.groups
            .iter()
            .map(|&(kind, tokens, n)| request_blocks(kind, len, inflight, tokens.max(1), 1).saturating_mul(n))
            .sum()
    }
}

/// Whether vLLM builds the model for one GPU only (Dory: "tensor_parallel_size=1 only").
pub fn one_gpu_only(a: &Architecture) -> bool {
    a.family == "dory"
}

/// A tensor-parallel setup vLLM refuses: the reason as the estimate and the verdicts give it, and
/// the error its start ends on (in place of the budget's log lines).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct TpRefusal {
    /// Why, with the way out.
    pub reason: crate::text::Msg,
    /// The exception vLLM raises, as its source words it.
    pub log: String,
    /// Whether vLLM stops after loading the weights (the cache's layout refused) rather than
    /// before loading anything (the parallel setup refused).
    #[cfg_attr(feature = "serde", serde(default))]
    pub loaded: bool,
}

/// Why vLLM 0.34 refuses tensor parallelism over `tp` GPUs for this model, when it does: Dory
/// builds for one GPU only (`dory.py`); `ModelConfig.verify_with_parallel_config` wants the
/// config's attention heads (the full-attention layers' queries) to divide among the GPUs; each
/// attention layer's key/value heads are divided among them, or copied to each when fewer
/// (`QKVParallelLinear`: one count must divide the other, `divide`'s assertion otherwise);
/// Ricursive's and Param2's attention divide them and copy none (their own checks).
pub fn tp_refusal(a: &Architecture, tp: u64) -> Option<TpRefusal> {
    use crate::text::{Arg, Msg, MsgId};
    if tp <= 1 {
        return None;
    }
    if one_gpu_only(a) {
        return Some(TpRefusal {
            reason: Msg::new(MsgId::AdviceVllmOneGpu, alloc::vec![Arg::Int(2)]),
            log: String::from("ValueError: Dory currently supports tensor_parallel_size=1 only"),
            loaded: false,
        });
    }
    let full = a.mixers().find_map(|(_, m)| match m {
        Mixer::Attention(at) if at.span == Span::Full => Some(at.num_heads),
        _ => None,
    });
    let heads = full.unwrap_or_else(|| match a.first_attention() {
        Some(Mixer::Attention(at)) => at.num_heads,
        Some(Mixer::Mla(m)) => m.num_heads,
        _ => 0,
    });
    if heads > 0 && !heads.is_multiple_of(tp) {
        return Some(TpRefusal {
            reason: Msg::new(MsgId::AdviceVllmTpHeads, alloc::vec![Arg::Int(heads), Arg::Int(tp)]),
            log: format!(
                "ValueError: Total number of attention heads ({heads}) must be divisible by tensor parallel size ({tp})."
            ),
            loaded: false,
        });
    }
    let family = a.family.as_str();
    let copies = !matches!(family, "ricursive" | "param2moe");
    a.mixers().find_map(|(_, m)| {
        let Mixer::Attention(at) = m else { return None };
        let kv = at.num_kv_heads;
        let ok = kv == 0 || kv.is_multiple_of(tp) || (copies && kv < tp && tp.is_multiple_of(kv));
        if ok {
            return None;
        }
        let args = alloc::vec![Arg::Int(kv), Arg::Int(tp)];
        Some(if copies {
            // `divide(tp, kv)` when the GPUs outnumber the heads, `divide(kv, tp)` otherwise.
            let (n, d) = if tp >= kv { (tp, kv) } else { (kv, tp) };
            TpRefusal {
                reason: Msg::new(MsgId::AdviceVllmTpKvHeads, args),
                log: format!("AssertionError: {n} is not divisible by {d}"),
                loaded: false,
            }
        } else {
            TpRefusal {
                reason: Msg::new(MsgId::AdviceVllmTpKvHeadsSplit, args),
                log: if family == "ricursive" {
                    format!(
                        "ValueError: Ricursive requires num_attention_heads ({}) and num_key_value_heads ({kv}) to be divisible by the tensor parallel size ({tp}).",
                        at.num_heads
                    )
                } else {
                    format!(
                        "AssertionError: num_key_value_heads ({kv}) must be divisible by tensor-parallel world size ({tp})."
                    )
                },
                loaded: false,
            }
        })
    })
}

/// The extensible KV cache's flags where vLLM refuses them: asked for beside
/// `--kv-cache-memory-bytes` (0.34's `_resolve_extensible_kv_cache`), or given to a release
/// before 0.34, whose argument parser does not know them.
fn extensible_refusal(o: &VllmOptions) -> Option<TpRefusal> {
    use crate::text::{Arg, Msg, MsgId};
    let asked = o.extensible_kv_cache?;
    if o.version < VllmVersion::EXTENSIBLE_KV {
        let flag = if asked { "--enable-extensible-kv-cache" } else { "--no-enable-extensible-kv-cache" };
        return Some(TpRefusal {
            reason: Msg::new(MsgId::AdviceVllmExtensibleOld, alloc::vec![Arg::Text(o.version.id())]),
            log: format!("vllm serve: error: unrecognized arguments: {flag}"),
            loaded: false,
        });
    }
    (asked && o.kv_cache_memory.is_some()).then(|| TpRefusal {
        reason: Msg::new(MsgId::AdviceVllmExtensibleKvMemory, Vec::new()),
        log: String::from(
            "ValueError: enable_extensible_kv_cache: it sizes the KV cache from measured memory, which kv_cache_memory_bytes overrides.",
        ),
        loaded: false,
    })
}

/// `--decode-context-parallel-size` ranks that do not divide the tensor-parallel group (vLLM's
/// `ParallelConfig`, without prefill context parallelism).
fn dcp_group_refusal(tp: u64, dcp: u64) -> Option<TpRefusal> {
    use crate::text::{Arg, Msg, MsgId};
    (dcp > 1 && !tp.is_multiple_of(dcp)).then(|| TpRefusal {
        reason: Msg::new(MsgId::AdviceVllmDcpTp, alloc::vec![Arg::Int(dcp), Arg::Int(tp)]),
        log: format!("ValueError: tp_size={tp} must be divisible by dcp_size={dcp}."),
        loaded: false,
    })
}

/// What vLLM 0.34 refuses of `--decode-context-parallel-size` before it loads anything: the
/// ranks must divide the tensor-parallel group (`ParallelConfig`, without prefill context
/// parallelism); then, for attention that is not latent (`ModelConfig.verify_with_parallel_config`),
/// DCP takes the ranks that would hold copies of the same key/value heads — more GPUs than key/value
/// heads, at most `tp / kv` ranks, and a divisor of the query heads per key/value head.
pub fn dcp_refusal(a: &Architecture, tp: u64, dcp: u64) -> Option<TpRefusal> {
    use crate::text::{Arg, Msg, MsgId};
    if dcp <= 1 {
        return None;
    }
    if let Some(r) = dcp_group_refusal(tp, dcp) {
        return Some(r);
    }
    if a.mixers().any(|(_, m)| matches!(m, Mixer::Mla(_))) {
        return None;
    }
    let (heads, kv) = a.mixers().find_map(|(_, m)| match m {
        Mixer::Attention(at) if at.num_kv_heads > 0 => Some((at.num_heads, at.num_kv_heads)),
        _ => None,
    })?;
    let q_per_kv = heads / kv;
    let max = tp / kv;
    // The largest size vLLM takes here (1 always does).
    let fits = (1..=max).rev().find(|d| q_per_kv.is_multiple_of(*d) && tp.is_multiple_of(*d)).unwrap_or(1);
    let size = Msg::new(
        MsgId::AdviceVllmDcpSize,
        alloc::vec![
            Arg::Int(kv),
            Arg::Int(tp),
            Arg::Int(max),
            Arg::Int(q_per_kv),
            Arg::Int(dcp),
            Arg::Int(fits)
        ],
    );
    let (reason, log) = if tp <= kv {
        (
            Msg::new(MsgId::AdviceVllmDcpKvHeads, alloc::vec![Arg::Int(kv), Arg::Int(tp)]),
            format!(
                "ValueError: Decode context parallelism for GQA/MQA requires `--tensor-parallel-size` ({tp}) to be greater than the model's total number of KV heads ({kv}). Increase `--tensor-parallel-size` or set `--decode-context-parallel-size 1`."
            ),
        )
    } else if dcp > max {
        (
            size,
            format!(
                "ValueError: `--decode-context-parallel-size` ({dcp}) exceeds the maximum supported value ({max}) for `--tensor-parallel-size` ({tp}) and {kv} model KV heads."
            ),
        )
    } else if !q_per_kv.is_multiple_of(dcp) {
        (
            size,
            format!(
                "ValueError: The model's number of query heads per KV head ({q_per_kv}) must be divisible by `--decode-context-parallel-size` ({dcp}) for GQA/MQA."
            ),
        )
    } else {
        return None;
    };
    Some(TpRefusal { reason, log, loaded: false })
}

/// A bucket of DeepSeek V4's layers: the window (0: every token) and the tokens a block holds.
type Bucket = (u64, u64);

/// vLLM's `_approximate_gcd`: the group width from `lower` up to the largest value that pads the
/// values least (ties to the larger).
fn approximate_gcd(values: &[u64], lower: u64) -> u64 {
    let max = values.iter().copied().max().unwrap_or(1);
    let mut best = (lower.max(1), u64::MAX);
    for d in lower.max(1)..=max.max(lower.max(1)) {
        let pad: u64 = values.iter().map(|x| (d - x % d) % d).sum();
        if pad <= best.1 {
            best = (d, pad);
        }
    }
    best.0
}

/// DeepSeek V4's layout as vLLM 0.34 builds it (`deepseek_v4/attention.py`, `compressor.py`,
/// `sparse_swa.py`, `kv_cache_planning.py`): every layer's sliding window (blocks of 64 tokens,
/// its `sliding_window` rows); a compressed layer's rows (blocks of `block` tokens, `block /
/// ratio` rows each) with, on the overlapping (ratio-4) layers, the indexer's keys; and the
/// compressors' FP32 states as sliding windows of their own (`2·coff·head_dim` values a token,
/// blocks of 4 tokens over 8 for ratio 4 — `coff` 2 — and of 8 over 128 for ratio 128), the
/// indexer's compressor beside the key/value one. FP8 (`fp8_ds_mla`) rows are 584 bytes, pages
/// padded to 576; 16-bit rows `head_dim × 2`, pages padded to 512. Layers of one kind, block and
/// window form a bucket; buckets whose page sizes come in equal numbers repeat a pattern and are
/// cut into groups of the same number of repeats (vLLM's `_approximate_gcd`); a block is the
/// widest group's pages, and a request takes blocks in every group. `None` for ratios vLLM does
/// not build (other than 4 and 128) or a block that holds no compressed row.
fn v4_packed(a: &Architecture, kv: KvDtype, block: u64, windows: u64) -> Option<Packed> {
    let fp8 = kv == KvDtype::Fp8;
    let align = if fp8 { 576 } else { 512 };
    let pad = |bytes: u64| bytes.next_multiple_of(align);
    // Buckets keyed by (window, tokens a block; window 0 for every token): page → layers.
    let mut buckets: Vec<(Bucket, Vec<(u64, u64)>)> = Vec::new();
    let mut add = |key: (u64, u64), page: u64, n: u64| {
        let i = match buckets.iter().position(|b| b.0 == key) {
            Some(i) => i,
            None => {
                buckets.push((key, Vec::new()));
                buckets.len() - 1
            }
        };
        match buckets[i].1.iter_mut().find(|p| p.0 == page) {
            Some(p) => p.1 += n,
            None => buckets[i].1.push((page, n)),
        }
    };
    let mut first_window = None;
    for (n, m) in a.mixers() {
        let Mixer::Compressed(c) = m else { continue };
        let content = if fp8 { 584 } else { c.head_dim * 2 };
        add((c.window, 64), pad(64 * content), n);
        first_window.get_or_insert((c.window, pad(64 * content)));
        if c.ratio == 0 {
            continue;
        }
        let (tokens, window) = match c.ratio {
            4 => (4, 8),
            128 => (8, 128),
            _ => return None,
        };
        let rows = block / c.ratio;
        if rows == 0 {
            return None;
        }
        add((0, block), pad(rows * content), n);
        let coff = if c.ratio == 4 { 2 } else { 1 };
        add((window, tokens), pad(tokens * 2 * coff * c.head_dim * 4), n);
        if let Some(ix) = &c.indexer {
            add((0, block), pad(rows * crate::inference::indexer_key_bytes(ix.head_dim)), n);
            add((window, tokens), pad(tokens * 2 * coff * ix.head_dim * 4), n);
        }
    }
    // An MTP drafter's layers attend through their window only: more window pages.
    if let Some((window, page)) = first_window.filter(|_| windows > 0) {
        add((window, 64), page, windows);
    }
    if buckets.is_empty() {
        return None;
    }
    let most = |pages: &[(u64, u64)]| pages.iter().map(|p| p.1).max().unwrap_or(0);
    let balanced = |pages: &[(u64, u64)]| pages.iter().all(|p| p.1 == pages[0].1);
    let floor =
        buckets.iter().filter(|b| balanced(&b.1) && b.1.len() > 1).map(|b| most(&b.1)).max().unwrap_or(0);
    let repeats = (floor > 0).then(|| {
        let values: Vec<u64> = buckets.iter().filter(|b| balanced(&b.1)).map(|b| most(&b.1)).collect();
        approximate_gcd(&values, floor)
    });
    let mut block_bytes = 0u64;
    let mut groups = Vec::new();
    for ((window, tokens), pages) in &buckets {
        let n = match repeats {
            Some(r) if balanced(pages) => most(pages).div_ceil(r),
            _ => 1,
        };
        let widest: u64 = pages.iter().map(|&(page, count)| count.div_ceil(n) * page).sum();
        block_bytes = block_bytes.max(widest);
        let kind = if *window == 0 { SpecKind::Full } else { SpecKind::Window(*window) };
        groups.push((kind, *tokens, n));
    }
    Some(Packed { block, block_bytes, groups })
}

/// DeepSeek V4.1's layout as vLLM 0.34 builds it on Hopper (compute capability 9.0) and
/// Blackwell (10.x) — `deepseek_v41/attention.py`, `compressor.py`, `sparse_swa.py`,
/// `kv_cache_planning.py`:
/// - every layer's window, in blocks of 32 tokens of one record each: 584 bytes (FP8 NoPE, BF16
///   RoPE, UE8M0 scales) on Hopper, pages padded to 576; 528 (FP8 with a scale per 32) on
///   Blackwell, padded to 512;
/// - the KV sources' compressed rows, `block / ratio` a block of `block` tokens (64 on Hopper,
///   128 on Blackwell, or `--block-size`): 584-byte records on Hopper, NVFP4's 288 on Blackwell
///   (`nvfp4_ds_mla`, which `auto` and `fp8` resolve to under its mega attention), and the
///   indexer's keys (132 bytes: FP8 with an FP32 scale) beside them on the sources that keep
///   them, each page padded;
/// - the open group of each source pooling several tokens: a ring of `max(8, 2^⌈log₂(n + 2)⌉)`
///   slots of `kv` and `score` in FP32 (`CircularBufferSpec`), one block for the request's life.
///
/// The compressed pages make one group whose bytes a block is; the windows and the rings are
/// cut into groups of as many layers as that block holds. A block's stride is rounded to the
/// records' common multiple on Blackwell, with 256 more for its indexer's sparse logits (the
/// default where DeepGEMM's sparse MQA kernels are built: not certain, so the layout is not
/// exact there). `drafts` more window-only layers for a DSpark drafter's stages. `None` off those
/// GPUs (plain rows, not modelled) or without V4.1's layers.
fn v41_packed(a: &Architecture, cc: u16, block: Option<u64>, ns: u64, drafts: u64) -> Option<(Packed, bool)> {
    let blackwell = (100..110).contains(&cc);
    if !(blackwell || cc == 90) {
        return None;
    }
    let block = block.unwrap_or(if blackwell { 128 } else { 64 });
    let (window_row, compressed_row, align) = if blackwell { (528, 288, 512) } else { (584, 584, 576) };
    let pad = |bytes: u64| bytes.next_multiple_of(align);
    let window_page = pad(32 * window_row);
    let (mut full, mut windows, mut rings, mut ring_page, mut window) = (0u64, 0u64, 0u64, 0u64, 0u64);
    for (n, m) in a.mixers() {
        let Mixer::Compressed(c) = m else { continue };
        let s = c.shares?;
        windows += n;
        window = window.max(c.window);
        if !s.kv_source || c.ratio == 0 {
            continue;
        }
        let rows = block / c.ratio;
        if rows == 0 {
            return None;
        }
        full += n * pad(rows * compressed_row);
        if let (true, Some(ix)) = (s.index_key, &c.indexer) {
            full += n * pad(rows * crate::inference::indexer_key_bytes(ix.head_dim));
        }
        if c.ratio > 1 {
            rings += n;
            let slots = ns.saturating_add(2).next_power_of_two().max(8);
            ring_page = ring_page.max(slots * 2 * c.head_dim * 4);
        }
    }
    if full == 0 || windows == 0 {
        return None;
    }
    // A DSpark drafter's window-only stages.
    let windows = windows.saturating_add(drafts);
    let per = |page: u64| (full / page.max(1)).max(1);
    let window_groups = windows.div_ceil(per(window_page));
    let ring_groups = if rings > 0 { rings.div_ceil(per(ring_page)) } else { 0 };
    let widest =
        full.max(per(window_page).min(windows) * window_page).max(per(ring_page).min(rings) * ring_page);
    let block_bytes = if blackwell {
        // lcm(528, 288) = 3,168, and with the indexer's 256: 25,344.
        let stride = lcm(lcm(window_row, compressed_row), 256);
        widest.next_multiple_of(stride)
    } else {
        widest
    };
    let mut groups = alloc::vec![(SpecKind::Full, block, 1), (SpecKind::Window(window), 32, window_groups)];
    if ring_groups > 0 {
        groups.push((SpecKind::Mamba { fixed: 1, per_block: false }, 8, ring_groups));
    }
    Some((Packed { block, block_bytes, groups }, !blackwell))
}

/// Qwen4-Exp's QSA layers on one of `tp` GPUs: how many, the key/value bytes a token of one
/// (its KV heads split down to one a GPU, then replicated), and its indexer's compressed key bytes
/// a token (BF16). `None` for another model.
fn qwen4_qsa(a: &Architecture, kv: KvDtype, tp: u64) -> Option<(u64, u64, u64)> {
    if a.family != "qwen4_exp" {
        return None;
    }
    let mut found: Option<(u64, u64, u64)> = None;
    for (n, m) in a.mixers() {
        let Mixer::Attention(at) = m else { continue };
        let per_rank = at.num_kv_heads.div_ceil(tp.max(1)).max(1);
        let main = 2 * per_rank * kv.row_bytes(at.head_dim);
        let f = found.get_or_insert((0, main, at.index_key * 2));
        f.0 += n;
    }
    found
}

/// Qwen4-Exp's pool as vLLM 0.34 packs it (`qwen4_exp/nvidia/qsa.py`, `common/qsa_indexer.py`,
/// `ple_layer.py`, `kv_cache_planning._get_packed_kv_cache_groups`): one group of every QSA
/// layer's key/value page and its indexer's compressed keys (`block / ratio` of them), which is
/// the block; the Gated DeltaNet layers in groups of as many states (padded to a key/value page)
/// as that block holds; the PLE layer's convolution state a group of its own (kept whole on
/// every GPU, unlike the others); the indexer's raw-key rings one group, one block a request.
fn qwen4_packed(
    a: &Architecture,
    (n, main, index): (u64, u64, u64),
    h: &HybridPlan,
    m: MambaLayers,
    ns: u64,
) -> Packed {
    let block = h.block_size;
    let block_bytes =
        n.saturating_mul(block.saturating_mul(main).saturating_add(block.saturating_mul(index)));
    let padded = block.saturating_mul(main).max(1);
    let per = (block_bytes / padded).max(1);
    let state = SpecKind::Mamba { fixed: h.fixed_blocks, per_block: h.mode == MambaMode::All };
    let mut groups = alloc::vec![(SpecKind::Full, block, 1), (state, block, m.layers.div_ceil(per))];
    let ple = a.layers().any(|g| g.extras.iter().any(|x| x.role == crate::tensor::Role::ExtraEmbd));
    if ple {
        groups.push((state, block, 1));
    }
    // The rings: `round_up(4 + spec, 4)` raw keys, one block for the request's life.
    groups.push((SpecKind::Mamba { fixed: 1, per_block: false }, (4 + ns).next_multiple_of(4), 1));
    Packed { block, block_bytes, groups }
}

/// The latent row vLLM gives dots3-note's full layers (`Dots3NotePaddedMLAAttention`: as wide as
/// the sliding layers' latent, `swa_kv_lora_rank + swa_qk_rope_head_dim`, so every latent page is
/// one size; its kernels read the first `kv_lora_rank + qk_rope_head_dim`); 0 for another model.
fn latent_row_pad(a: &Architecture) -> u64 {
    if a.family != "dots3_note" {
        return 0;
    }
    a.mixers()
        .filter_map(|(_, m)| match m.cache(a.hidden_size) {
            LayerCache::Latent { width, span: Span::Sliding { .. }, .. } => Some(width),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// dots3-note's pool as vLLM 0.34 packs it (`dots3_note/nvidia/attention.py`'s block-outermost
/// layout, `kv_cache_planning._get_packed_kv_cache_groups`): the full layers' padded latent pages
/// and their indexer's key pages (132 bytes a token) one bucket of two page sizes in equal numbers,
/// which sets the repeats a group holds; the sliding layers (with `drafts` prediction layers, which
/// slide too) cut into groups of at most that many (vLLM's `_approximate_gcd` from the full
/// layers' count); a block the widest group's pages. `None` for another model, or one without an
/// indexer or sliding layers (the generic grouping then applies).
fn dots3_packed(a: &Architecture, kv: KvDtype, block: u64, drafts: u64) -> Option<Packed> {
    if a.family != "dots3_note" {
        return None;
    }
    let pad = latent_row_pad(a);
    let (mut full, mut full_row, mut index) = (0u64, 0u64, 0u64);
    let (mut swa, mut swa_row, mut window) = (0u64, 0u64, 0u64);
    for (n, m) in a.mixers() {
        match m.cache(a.hidden_size) {
            LayerCache::Latent { width, indexer, span: Span::Full } if indexer > 0 => {
                full += n;
                full_row = full_row.max(kv.row_bytes(width.max(pad)));
                index = index.max(crate::inference::indexer_key_bytes(indexer));
            }
            LayerCache::Latent { width, indexer: 0, span: Span::Sliding { window: w } } => {
                swa += n;
                swa_row = swa_row.max(kv.row_bytes(width));
                window = window.max(w);
            }
            _ => return None,
        }
    }
    let swa = swa.saturating_add(drafts);
    if full == 0 || swa == 0 {
        return None;
    }
    let repeats = approximate_gcd(&[full, swa], full).max(1);
    let swa_groups = swa.div_ceil(repeats);
    let widest = full
        .saturating_mul(full_row.saturating_add(index))
        .max(swa.div_ceil(swa_groups).saturating_mul(swa_row));
    Some(Packed {
        block,
        block_bytes: widest.saturating_mul(block),
        groups: alloc::vec![(SpecKind::Full, block, 1), (SpecKind::Window(window), block, swa_groups)],
    })
}

/// Whether the model has latent attention with a sparse indexer (DeepSeek V3.2, GLM-5).
fn sparse_mla(a: &Architecture) -> bool {
    a.mixers().any(|(_, m)| matches!(m, Mixer::Mla(x) if x.indexer.is_some()))
}

/// Why vLLM 0.34 finds no attention backend for the `--block-size` given on an NVIDIA GPU of
/// compute capability `cc` (non-zero): a block the user gives goes into the selection
/// (`AttentionSelectorConfig.block_size`), and `CudaPlatform.get_attn_backend_cls` raises when
/// every candidate answers "block_size not supported" — while building the layers, before the
/// weights load. The multiples the backends take (`get_supported_kernel_block_sizes`):
/// - latent attention with a sparse indexer: 64 (FlashMLA's sparse kernel, FlashAttention's,
///   FlashInfer's for SM 9.0 and 12.x), or 32 with FlashInfer's TRT-LLM kernel on SM 10.x;
/// - any other attention: 16 (FlashAttention, Triton, FlexAttention, FlashInfer's 16, 32 and 64,
///   TurboQuant's; for latent attention FlashAttention's and Triton's 16, FlashMLA's 64,
///   FlashInfer's 32 and 64, CUTLASS's 128).
///
/// `None` without `--block-size`, for models without attention layers, for the families whose
/// vLLM classes bring attention backends of their own (their rules are elsewhere, or not read),
/// on other GPUs (AMD's sparse MLA takes multiples of 16), or for earlier versions (not read).
fn kernel_block_refusal(a: &Architecture, o: &VllmOptions, cc: u16) -> Option<TpRefusal> {
    use crate::text::{Arg, Msg, MsgId};
    let block = o.block_size?;
    let own_backends = matches!(
        a.family.as_str(),
        "deepseek_v4"
            | "deepseek_v41"
            | "glm5_next"
            | "inkling"
            | "inkling2"
            | "inkling2_loop"
            | "kimi_k3"
            | "minimax_m3"
            | "qwen4_exp"
            | "step5"
            | "dots3_note"
            | "hy_v4"
            | "mimo_v2_flash"
            | "pangu_embedded"
    );
    let attention = a.mixers().any(|(_, m)| matches!(m, Mixer::Attention(_) | Mixer::Mla(_)));
    if cc == 0 || o.version < VllmVersion::CURRENT || own_backends || !attention {
        return None;
    }
    // The multiple, and a backend the error lists as refusing it.
    let (multiple, backend) = match (sparse_mla(a), cc / 10 == 10) {
        (true, true) => (32, "FLASHMLA_SPARSE"),
        (true, false) => (64, "FLASHMLA_SPARSE"),
        (false, _) => (16, "FLASH_ATTN"),
    };
    if block.is_multiple_of(multiple) {
        return None;
    }
    let fix = block.next_multiple_of(multiple);
    let reason = if multiple == 16 {
        Msg::new(MsgId::AdviceVllmKernelBlock, alloc::vec![Arg::Int(block), Arg::Int(fix)])
    } else {
        Msg::new(
            MsgId::AdviceVllmSparseMlaBlock,
            alloc::vec![Arg::Int(block), Arg::Int(multiple), Arg::Int(fix)],
        )
    };
    Some(TpRefusal {
        reason,
        log: format!(
            "ValueError: No valid attention backend found for cuda with AttentionSelectorConfig(…, block_size={block}, …). Reasons: {{{backend}: [block_size not supported], …}}."
        ),
        loaded: false,
    })
}

/// A Step 5 attention layer's K and V bytes a token on one of `tp` GPUs: `max(1, kv / tp)` heads.
fn step5_kv_row(at: &crate::model::Attention, kv: KvDtype, tp: u64) -> u64 {
    2 * (at.num_kv_heads / tp.max(1)).max(1) * kv.row_bytes(at.head_dim)
}

/// Bytes of one row of Step 5's ring of raw indexer keys: a BF16 key and its `z`, 256 values each
/// (`csa_tail_ring.py`'s `_ROW_BYTES`).
const STEP5_RING_ROW: u64 = 1024;

/// Step 5's cache block under vLLM 0.34, and the error its start ends on when the block cannot
/// hold the caches (`models/step5/common/csa_tail_ring.py`, `sparse_summary_cache.py`).
///
/// Each sparse layer keeps the open region's raw indexer keys in a ring the size of one of its own
/// K and V pages (`block` tokens of the layer's row on one GPU), cut into 1,024-byte rows: the
/// page must be whole rows, `7 + k` of them with `k` speculative tokens (a region's seven earlier
/// rows and one verify step's). Without `--block-size`, the ring's backend asks for a multiple of
/// the first of the default block, 32, 64 and 128 tokens whose page holds the rows (128 when none
/// does), and vLLM settles on the smallest block every backend takes (its flash attention's
/// multiples of 16 beside it); a `--block-size` is kept as given. The layer's summaries need
/// whole eight-token regions a block. Either failing, vLLM raises when it asks the loaded model
/// for its cache's layout. `None` for another model.
fn step5_block(
    a: &Architecture,
    kv: KvDtype,
    tp: u64,
    o: &VllmOptions,
    ns: u64,
) -> Option<(u64, Option<TpRefusal>)> {
    use crate::text::{Arg, Msg, MsgId};
    if a.family != "step5" {
        return None;
    }
    // The sparse layers' K and V row on one GPU.
    let row = a
        .mixers()
        .filter_map(|(_, m)| match m {
            Mixer::Attention(at) if at.span == Span::Full && at.index_key > 0 => {
                Some(step5_kv_row(at, kv, tp))
            }
            _ => None,
        })
        .max()?;
    let rows = 7u64.saturating_add(ns);
    let holds = |b: u64| {
        let page = b.saturating_mul(row);
        page.is_multiple_of(STEP5_RING_ROW) && page / STEP5_RING_ROW >= rows
    };
    let block = match o.block_size {
        Some(b) => b.max(1),
        None => {
            let default = o.version.default_block_size().max(1);
            let need = [default, 32, 64, 128].into_iter().find(|&b| holds(b)).unwrap_or(128);
            if default.is_multiple_of(need) { default } else { lcm(16, need) }
        }
    };
    // The smallest block that works, to suggest: whole regions and rows.
    let fix = (1..=64u64).map(|n| n * 16).find(|&b| holds(b)).unwrap_or(1024);
    let refusal = |log: String| TpRefusal {
        reason: Msg::new(
            MsgId::AdviceVllmStep5Block,
            alloc::vec![Arg::Int(block), Arg::Int(rows), Arg::Int(fix)],
        ),
        log,
        loaded: true,
    };
    let refused = if !block.is_multiple_of(8) {
        Some(refusal(String::from("ValueError: Step5 KV blocks must align to eight-token regions")))
    } else if !holds(block) {
        Some(refusal(format!(
            "ValueError: Step5 CSA tail ring needs {rows} rows of {STEP5_RING_ROW} bytes in one {}-byte KV page; increase --block-size.",
            block.saturating_mul(row)
        )))
    } else {
        None
    };
    Some((block, refused))
}

/// Step 5's pool as vLLM 0.34 packs it on NVIDIA GPUs (`models/step5/nvidia/sparse_attention.py`,
/// `common/sparse_summary_cache.py`, `common/csa_tail_ring.py`,
/// `kv_cache_planning._get_packed_kv_cache_groups`), block-outermost:
/// - the sparse layers' K and V pages (their KV heads split down to one a GPU) beside their
///   summaries — one `proxy`-byte FP8 row a region of tokens, whole on every GPU, whatever the
///   cache's dtype — one bucket of two page sizes in equal numbers, which sets the repeats a
///   group holds (`_approximate_gcd` over the buckets' layer counts, from that bucket's);
/// - the rings of the open regions' raw indexer keys, each exactly one K and V page, one block a
///   request for its life: as many a group as the widest group's block holds;
/// - the sliding layers (with `drafts` prediction layers, which slide too) cut into groups of
///   those repeats.
///
/// A block is the widest group's pages, rounded up to the common multiple of the sparse pages'
/// eight-token stride and the ring's 1,024 bytes. `None` for another model, or one whose layers
/// are not these two kinds.
fn step5_packed(a: &Architecture, kv: KvDtype, tp: u64, block: u64, drafts: u64) -> Option<Packed> {
    if a.family != "step5" {
        return None;
    }
    let (mut full, mut full_row, mut summary) = (0u64, 0u64, 0u64);
    let (mut swa, mut swa_row, mut window) = (0u64, 0u64, 0u64);
    for (n, m) in a.mixers() {
        let Mixer::Attention(at) = m else { return None };
        let row = step5_kv_row(at, kv, tp);
        match (at.span, at.index_key) {
            (Span::Full, ix) if ix > 0 => {
                full += n;
                full_row = full_row.max(row);
                summary = summary.max(ix * 2);
            }
            (Span::Sliding { window: w }, 0) => {
                swa += n;
                swa_row = swa_row.max(row);
                window = window.max(w);
            }
            _ => return None,
        }
    }
    let swa = swa.saturating_add(drafts);
    // The summaries need whole eight-token regions a block (`sparse_summary_cache.py`).
    if full == 0 || swa == 0 || block == 0 || !block.is_multiple_of(8) {
        return None;
    }
    let repeats = approximate_gcd(&[full, full, swa], full).max(1);
    let swa_groups = swa.div_ceil(repeats);
    let main_page = block.saturating_mul(full_row);
    let full_bytes = full.saturating_mul(main_page.saturating_add(block.saturating_mul(summary)));
    let swa_bytes = swa.div_ceil(swa_groups).saturating_mul(block.saturating_mul(swa_row));
    let anchor = full_bytes.max(swa_bytes).max(main_page);
    let rings_per_block = (anchor / main_page.max(1)).max(1);
    let ring_groups = full.div_ceil(repeats).max(full.div_ceil(rings_per_block));
    let ring_bytes = full.div_ceil(ring_groups).saturating_mul(main_page);
    // The sparse pages' stride: whole kernel blocks of `gcd(8, block)` tokens (none when that is
    // the block), and the ring's 1,024 bytes.
    let kernel = gcd(8, block);
    let stride = lcm(if kernel == block { 1 } else { kernel.saturating_mul(full_row) }, 1024);
    let widest = full_bytes.max(swa_bytes).max(ring_bytes);
    Some(Packed {
        block,
        block_bytes: widest.next_multiple_of(stride.max(1)),
        groups: alloc::vec![
            (SpecKind::Full, block, 1),
            (SpecKind::Mamba { fixed: 1, per_block: false }, block, ring_groups),
            (SpecKind::Window(window), block, swa_groups),
        ],
    })
}

/// The KV cache's layout on one GPU.
struct Layout {
    /// Kinds of layers: kind, count, bytes per token of one layer (for Mamba layers, filled in
    /// once the attention page is known).
    kinds: Vec<(SpecKind, u64, u64)>,
    /// The recurrent layers, for a hybrid model.
    mamba: Option<MambaLayers>,
    /// Layers whose pages are approximated.
    approximate: bool,
    /// DeepSeek V4's packed pool, when its layers are of the kinds vLLM builds.
    packed: Option<Packed>,
}

/// Whether the stored modules are DeepSeek V4.1's DSpark stages: layers only, with tensors they
/// share (the projection of the target's hidden states and the heads), as no MTP module has.
fn is_dspark(m: &crate::model::Mtp) -> bool {
    m.bare && !m.shared.is_empty()
}

/// A kind's page in bytes at the attention block `block` (a convolution state's spec has its own
/// block: its taps).
fn kind_page(k: &(SpecKind, u64, u64), block: u64) -> u64 {
    kind_block(k.0, block).saturating_mul(k.2)
}

/// A kind's own block before pages are unified: the attention block, or a convolution state's
/// taps.
fn kind_block(kind: SpecKind, block: u64) -> u64 {
    match kind {
        SpecKind::Conv { taps } => taps,
        _ => block,
    }
}

/// The KV cache's layout on one GPU with `ns` speculative tokens.
fn layout(
    a: &Architecture,
    kv: KvDtype,
    tp: u64,
    ns: u64,
    dtypes: (Option<u64>, Option<u64>),
    (v4_block, cc, v41_block): (u64, u16, Option<u64>),
) -> Layout {
    let mut kinds: Vec<(SpecKind, u64, u64)> = Vec::new();
    let mut mamba: Option<MambaLayers> = None;
    let mut approximate = false;
    // Inkling's short convolutions keep their last inputs in cache layers of their own, one beside
    // each attention layer (vLLM 0.34 `InklingConvState`): a window of `taps` tokens in BF16 whatever
    // the cache's dtype, the layer's KV heads per rank, each head the four streams (K, V and the
    // attention's and MLP's outputs: `2d + 2h/kv`) padded to a power of two, values none.
    let conv_taps = (a.short_conv_taps > 0).then_some(a.short_conv_taps);
    // The convolution in `--mamba-cache-dtype` (auto: the model's 16-bit dtype), the SSM state in
    // `--mamba-ssm-cache-dtype` (auto: the checkpoint's or family's rule, else the convolution's).
    let conv_bytes = dtypes.0.unwrap_or(2);
    let ssm_bytes = dtypes.1.or(a.ssm_state_bytes).unwrap_or(conv_bytes);
    // DeepSeek V4's compressed pages per 256-token block, over its layers.
    let mut packed = 0u64;
    let latent_pad = latent_row_pad(a);
    for (n, m) in a.mixers() {
        if let Some((conv, ssm)) = m.state_per_gpu(a.hidden_size, tp, ns) {
            let page = conv.saturating_mul(conv_bytes).saturating_add(ssm.saturating_mul(ssm_bytes));
            let mamba2 = matches!(m, Mixer::Mamba(x) if x.version == crate::model::MambaVersion::V2);
            let gdn_k128 = matches!(m, Mixer::GatedDeltaNet(g) if g.key_head_dim == 128);
            mamba = Some(match mamba {
                None => MambaLayers { layers: n, page, mamba2, gdn_k128, mixed: false },
                Some(x) => MambaLayers {
                    layers: x.layers + n,
                    page: x.page.max(page),
                    mamba2: x.mamba2 || mamba2,
                    gdn_k128: x.gdn_k128 && gdn_k128,
                    mixed: x.mixed || x.page != page,
                },
            });
            continue;
        }
        let cache = m.cache(a.hidden_size);
        let (kind, bytes) = match (m, cache) {
            (Mixer::Attention(at), LayerCache::Kv { span, .. }) => {
                let heads = at.num_kv_heads.max(1);
                let per_rank = heads.div_ceil(tp.max(1)).max(1);
                let bytes = crate::inference::attention_kv_bytes_on_rank(cache, kv, heads, per_rank);
                let kind = match span {
                    Span::Full => SpecKind::Full,
                    Span::Sliding { window } => SpecKind::Window(window),
                    Span::Chunked { chunk } => SpecKind::Chunk(chunk),
                    // (vLLM serves no cross-attention model: refused before its budget.)
                    Span::Cross { .. } => continue,
                };
                if let Some(taps) = conv_taps {
                    // vLLM needs whole KV heads on each rank here (`tp ≤ kv`).
                    approximate |= heads % tp.max(1) != 0;
                    let head = (2 * at.head_dim + 2 * a.hidden_size / heads).next_power_of_two();
                    let conv = (SpecKind::Conv { taps }, per_rank.saturating_mul(head).saturating_mul(2));
                    match kinds.iter_mut().find(|k| k.0 == conv.0 && k.2 == conv.1) {
                        Some(k) => k.1 += n,
                        None => kinds.push((conv.0, n, conv.1)),
                    }
                }
                (kind, bytes)
            }
            (_, LayerCache::Latent { width, indexer, span }) => {
                // dots3-note's full layers keep rows as wide as its sliding layers' latent.
                let row = kv.row_bytes(width.max(latent_pad)).saturating_add(if indexer == 0 {
                    0
                } else {
                    crate::inference::indexer_key_bytes(indexer)
                });
                let kind = match span {
                    Span::Sliding { window } => SpecKind::Window(window),
                    _ => SpecKind::Full,
                };
                (kind, row)
            }
            (Mixer::Compressed(c), LayerCache::Compressed { ratio, .. }) if ratio > 0 => {
                // DeepSeek V4 (vLLM's `deepseek_v4/attention.py` specs): 256-token blocks hold
                // `256 / ratio` compressed rows, each page padded — FP8 (`fp8_ds_mla`): 584-byte
                // rows (the unrotated part in FP8, the rotary part in BF16, a UE8M0 scale per 64)
                // padded to 576 bytes, and the indexer's FP8 key with its FP32 scale; else rows in
                // the cache's dtype padded to 512. The window, the compressor's state and the
                // per-request blocks they take are not modelled (the layout is approximate).
                approximate = true;
                let rows = 256 / ratio;
                let (row, align) = if kv == KvDtype::Fp8 {
                    let nope = c.head_dim.saturating_sub(c.rope_dim);
                    (nope + 2 * c.rope_dim + (nope / 64).next_multiple_of(8), 576)
                } else {
                    (kv.row_bytes(c.head_dim), 512)
                };
                // Every layer's pages share one block stride (`_get_packed_kv_cache_layout`): one
                // kind of the summed bytes.
                let page = |bytes: u64| bytes.next_multiple_of(align);
                let index = c
                    .indexer
                    .as_ref()
                    .map_or(0, |ix| page(rows * crate::inference::indexer_key_bytes(ix.head_dim)));
                packed = packed.saturating_add((page(rows * row) + index).saturating_mul(n));
                continue;
            }
            _ => continue,
        };
        match kinds.iter_mut().find(|k| k.0 == kind && k.2 == bytes) {
            Some(k) => k.1 += n,
            None => kinds.push((kind, n, bytes)),
        }
    }
    if packed > 0 {
        kinds.push((SpecKind::Full, 1, packed.div_ceil(256)));
    }
    if mamba.is_none() {
        merge_uniform(&mut kinds);
    }
    // DeepSeek V4 and V4.1: their packed pools as vLLM builds them, or the old approximation.
    let v4 = if packed > 0 {
        v4_packed(a, kv, v4_block, 0).map(|p| (p, true)).or_else(|| v41_packed(a, cc, v41_block, ns, 0))
    } else {
        None
    };
    if let Some((_, exact)) = &v4 {
        kinds.retain(|k| !(k.0 == SpecKind::Full && k.1 == 1 && k.2 == packed.div_ceil(256)));
        approximate = !exact;
    }
    let v4 = v4.map(|(p, _)| p);
    Layout { kinds, mamba, approximate, packed: v4 }
}

/// A drafter's memory on one GPU: its weights, and its KV layers (count and bytes per token of
/// each), whether that is exact (a draft model or MTP modules as stored) or approximated (an EAGLE
/// head sized from the target's layer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drafter {
    /// Weight bytes on this GPU.
    pub weights: Bytes,
    /// KV layers.
    pub layers: u64,
    /// KV bytes per token of one layer on this GPU.
    pub layer_bytes: u64,
    /// Sized from what the checkpoint or catalog states.
    pub exact: bool,
}

/// The drafter `spec` loads beside `a` in `format`, on one of `tp` GPUs.
///
/// # Errors
/// [`Error::Invalid`] on `speculative_config` for MTP on a model without MTP modules; what
/// pricing the tensors reports.
pub fn drafter(
    a: &Architecture,
    spec: &Speculative,
    format: crate::precision::WeightFormat,
    kv: KvDtype,
    tp: u64,
) -> Result<Drafter> {
    let tp = tp.max(1);
    // One attention layer's KV on this GPU, as the target keeps it.
    let target_layer = layout(a, kv, tp, 0, (None, None), (256, 0, None))
        .kinds
        .iter()
        .find(|k| k.0 == SpecKind::Full)
        .map_or(0, |k| k.2);
    Ok(match &spec.method {
        SpecMethod::DSpark => {
            let m = a.mtp.as_ref().filter(|m| is_dspark(m)).ok_or_else(|| {
                Error::invalid(
                    "speculative_config",
                    "DSpark drafts with DeepSeek V4.1's stored stages; this model has none",
                )
            })?;
            // vLLM's `DSparkDeepseekV4ForCausalLM` (`deepseek_v41/nvidia/dspark.py`): the stages
            // split as the target's layers, the projection of the target layers' states, the norms
            // and the Markov and confidence heads whole on every GPU, and a second copy of each
            // stage's window projection (`context_wkv_proj`, MXFP8); the embeddings and head are
            // the target's. Its layers add windows to the target's pool.
            let priced = crate::tensors::mtp_priced(a, format)?;
            let whole = |t: &crate::tensors::Tensor| {
                matches!(t.role, crate::tensor::Role::MtpProj | crate::tensor::Role::ExtraEmbd)
            };
            let split = crate::estimate::tensor_parallel_bytes_where(&priced, a, tp, tp, &|t| !whole(t))
                .saturating_add(priced.sum_where(whole));
            let wkv: u64 = a
                .mtp
                .as_ref()
                .and_then(|m| m.layer.as_deref())
                .and_then(|g| g.mixers.first())
                .map_or(0, |mx| match mx {
                    Mixer::Compressed(c) => c.head_dim.saturating_mul(a.hidden_size),
                    _ => 0,
                })
                .saturating_mul(m.modules);
            Drafter {
                weights: Bytes::new(split.saturating_add(wkv.saturating_add(wkv / 32))),
                layers: m.modules,
                layer_bytes: 0,
                exact: true,
            }
        }
        SpecMethod::Mtp => {
            let m = a.mtp.as_ref().ok_or_else(|| {
                Error::invalid(
                    "speculative_config",
                    "this model stores no multi-token-prediction modules; use a draft model or EAGLE",
                )
            })?;
            if is_dspark(m) {
                // DeepSeek V4.1's stages (`v1/worker/gpu/spec_decode/mtp/config.py` refuses `mtp`).
                return Err(Error::invalid(
                    "speculative_config",
                    "this model's drafter is DSpark (`{\"method\": \"dspark\"}`, `dspark:5`), which vLLM runs in place of MTP and refuses `mtp` for",
                ));
            }
            // Inkling's depths differ from one to the next, and vLLM builds only the first
            // `num_speculative_tokens` of them (`inkling/nvidia/mtp.py`
            // `_select_mtp_depth_count`): those depths' tensors.
            // Split as the target's tensors are (the modules' KV heads replicated past one a GPU,
            // their input projection whole on every GPU where vLLM's class keeps it so).
            let p = crate::tensors::mtp_priced(a, format)?;
            let (w, layers) = if m.layers.is_empty() {
                (crate::estimate::tensor_parallel_bytes_where(&p, a, tp, tp, &|_| true), m.modules)
            } else {
                let built = m.modules.min(spec.tokens.max(1));
                let last = a.num_layers().saturating_add(built);
                let keep = |t: &crate::tensors::Tensor| t.layer.is_some_and(|l| u64::from(l) < last);
                (crate::estimate::tensor_parallel_bytes_where(&p, a, tp, tp, &keep), built)
            };
            Drafter { weights: Bytes::new(w), layers, layer_bytes: target_layer, exact: true }
        }
        SpecMethod::Eagle => {
            // One decoder layer at the target's shape in 16-bit, and the 3h → h input projection.
            let p = crate::tensors::weight_bytes(a, crate::precision::WeightFormat::Bf16)?;
            let layer = p.sum_where(|t| t.layer.is_some()) / a.num_layers().max(1);
            let fc = 3u64.saturating_mul(a.hidden_size).saturating_mul(a.hidden_size).saturating_mul(2);
            Drafter {
                weights: Bytes::new(layer.saturating_add(fc).div_ceil(tp)),
                layers: 1,
                layer_bytes: target_layer,
                exact: false,
            }
        }
        SpecMethod::Draft(id) => {
            let d = crate::catalog::model(id)
                .map_err(|e| Error::invalid("speculative_config", format!("{e}")))?
                .architecture()?;
            let w = crate::tensors::weight_bytes(&d, format)?.total();
            let kinds = layout(&d, kv, tp, 0, (None, None), (256, 0, None)).kinds;
            let layers: u64 = kinds.iter().map(|k| k.1).sum();
            let per = kinds.first().map_or(0, |k| k.2);
            Drafter {
                weights: Bytes::new(w.get().div_ceil(tp)),
                layers,
                layer_bytes: per,
                exact: kinds.len() == 1,
            }
        }
    })
}

/// vLLM's MXFP4 mixture-of-experts layout on one GPU (gpt-oss): which kernel runs the experts,
/// the padded sizes it stores them at, and the bytes against the checkpoint's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mxfp4Layout {
    /// The kernel (`Mxfp4MoeBackend`): FlashInfer TRT-LLM, Triton, Marlin, AITER.
    pub backend: &'static str,
    /// The hidden width as stored.
    pub hidden: u64,
    /// One expert's intermediate width on this GPU as stored.
    pub intermediate: u64,
    /// The experts' bytes on this GPU as the checkpoint prices them.
    pub ours: Bytes,
    /// The same as vLLM stores them.
    pub vllm: Bytes,
}

/// vLLM's MXFP4 experts on one of `tp` GPUs (0.34, `fused_moe/oracle/mxfp4.py`): the kernel by
/// the card — FlashInfer's TRT-LLM kernels on Blackwell data-centre GPUs (compute capability
/// 10.x: intermediate rounded up to 128, hidden to 256, FP32 biases), OpenAI's Triton kernels on
/// Hopper (intermediate to 64, FP32 biases), Marlin on Ampere, Ada, Thor and consumer Blackwell
/// (intermediate to 128, hidden to 256, BF16 biases), AITER on AMD (256 and 256) — each expert's
/// gate-up and down matrices packed two values a byte with an E8M0 scale per 32 and their biases:
/// `1.5·I·H + 3·I·H/32 + (2·I + H) × bias bytes`. The intermediate width is the GPU's share
/// (`I / tp`) unless experts are spread whole (expert parallelism, over the tensor-parallel GPUs
/// or more). Before 0.25 the Triton path
/// kept the checkpoint's scales beside the swizzled ones (0.25 deletes them): `3·I·H/32` more.
/// `None` when the experts are not MXFP4, or not gated, or the card's kernels are unknown.
pub fn mxfp4_moe_layout(
    version: VllmVersion,
    a: &Architecture,
    p: &crate::tensors::Priced,
    format: crate::precision::WeightFormat,
    tp: u64,
    (expert_gpus, expert_parallel): (u64, bool),
    d: &crate::catalog::device::Device,
) -> Option<Mxfp4Layout> {
    use crate::precision::WeightFormat;
    let m = a.moe().filter(|m| m.gated && m.latent == 0 && m.num_experts > 0)?;
    let expert_format = |i: usize| p.formats.get(i).copied().unwrap_or(format);
    let mut ours = 0u64;
    let mut any = false;
    for (i, (t, b)) in p.tensors.iter().zip(&p.bytes).enumerate() {
        if t.role.is_expert() {
            if expert_format(i) != WeightFormat::Mxfp4 {
                return None;
            }
            any = true;
            ours = ours.saturating_add(b.div_ceil(expert_gpus.max(tp).max(1)));
        }
    }
    if !any {
        return None;
    }
    let amd = d.vendor.eq_ignore_ascii_case("amd");
    let cc = d.compute_capability;
    // Only OpenAI's Triton kernels (Hopper) swizzle the scales into a copy of their own.
    let triton = !amd && cc == 90;
    let (backend, i_align, h_align, bias) = if amd {
        ("AITER", 256, 256, 2)
    } else if (100..110).contains(&cc) {
        ("FlashInfer TRT-LLM", 128, 256, 4)
    } else if cc == 90 {
        ("Triton", 64, 1, 4)
    } else if (80..90).contains(&cc) || cc >= 110 {
        ("Marlin", 128, 256, 2)
    } else {
        return None;
    };
    // Expert parallelism, even over the tensor-parallel GPUs alone: whole experts on each.
    let ep = expert_parallel || expert_gpus > tp.max(1);
    let (experts, share) = if ep {
        (m.num_experts.div_ceil(expert_gpus), m.expert_intermediate)
    } else {
        (m.num_experts, m.expert_intermediate.div_ceil(tp.max(1)))
    };
    let hp = a.hidden_size.next_multiple_of(h_align);
    let ip = share.next_multiple_of(i_align);
    let biases = if m.expert_bias { (2 * ip + hp) * bias } else { 0 };
    let kept_scales =
        if triton && version < VllmVersion::TRITON_FREES_SCALES { (3 * ip * hp) / 32 } else { 0 };
    let per_expert = (3 * ip * hp) / 2 + (3 * ip * hp) / 32 + biases + kept_scales;
    let layers: u64 =
        a.groups.iter().filter(|g| matches!(g.ffn, crate::model::Ffn::Moe(_))).map(|g| g.count).sum();
    Some(Mxfp4Layout {
        backend,
        hidden: hp,
        intermediate: ip,
        ours: Bytes::new(ours),
        vllm: Bytes::new(per_expert.saturating_mul(experts).saturating_mul(layers)),
    })
}

/// vLLM's budget on one GPU, as its startup log states it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct VllmBudget {
    /// The release whose rules apply.
    pub version: String,
    /// Memory CUDA reports for the card (`total_gpu_memory`).
    pub total: Bytes,
    /// `gpu_memory_utilization` in effect.
    pub utilization: f64,
    /// `total × utilization`: what vLLM may use.
    pub requested: Bytes,
    /// "Model loading took": the weights on this GPU and the rotary cache.
    pub weights: Bytes,
    /// PyTorch's peak during the profile step ("peak activation").
    pub activation_peak: Bytes,
    /// The encoder's part of the profile, for a multimodal model served with its encoders.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub encoder: Option<EncoderProfile>,
    /// Non-torch memory.
    pub non_torch: Bytes,
    /// The CUDA graphs' reserve (0 before v0.21, with `--enforce-eager`, or when disabled).
    pub cuda_graphs: Bytes,
    /// The V2 runner's sampler state, built after the weights ([`sampler_state`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Bytes::is_zero"))]
    pub sampler_state: Bytes,
    /// Whether the model runs on vLLM's V2 model runner ([`runner_v2`]), whose log has no
    /// "Estimated CUDA graph memory" line (the V1 runner's, read in the 0.25–0.33 wheels).
    #[cfg_attr(feature = "serde", serde(default))]
    pub runner_v2: bool,
    /// "Available KV cache memory", in bytes; negative when nothing is left ("No available memory
    /// for the cache blocks").
    pub available_kv: i64,
    /// The same at the bands' ends: (least, most).
    pub available_kv_band: (i64, i64),
    /// `--max-num-batched-tokens` in effect.
    pub max_num_batched_tokens: u64,
    /// `--max-num-seqs` in effect.
    pub max_num_seqs: u64,
    /// The block size in effect (a hybrid model's attention blocks raised to hold a Mamba state).
    pub block_size: u64,
    /// A hybrid model's Mamba state: its page on this GPU before padding, the padding to the
    /// attention page in percent, whether the block size was raised, and how states are kept.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mamba: Option<MambaBudget>,
    /// Bytes of one block over the layers that share a block table (all layers, or one group's).
    pub block_bytes: u64,
    /// Blocks of the KV cache.
    pub num_blocks: u64,
    /// "GPU KV cache size: N tokens".
    pub kv_tokens: u64,
    /// `--max-model-len`: tokens per request.
    pub max_model_len: u64,
    /// Blocks one request of `max_model_len` tokens takes.
    pub blocks_per_request: u64,
    /// "Maximum concurrency for N tokens per request: X".
    pub max_concurrency: f64,
    /// Whether one request of `max_model_len` tokens fits; when not, vLLM refuses to start and
    /// names the longest it could serve ([`VllmBudget::longest_request`]).
    pub request_fits: bool,
    /// The longest request the cache holds, in tokens.
    pub longest_request: u64,
    /// Whether the CUDA context fits in what `utilization` leaves of the card.
    pub context_outside_fits: bool,
    /// A block-diffusion model's per-request state, outside vLLM's budget ([`diffusion_state`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Bytes::is_zero"))]
    pub diffusion_state: Bytes,
    /// Whether that state fits beside the CUDA context in what `utilization` leaves of the card
    /// (when not, the first full batch runs out of memory).
    pub state_outside_fits: bool,
    /// Why vLLM refuses to start over this many GPUs of tensor parallelism ([`tp_refusal`]: Dory
    /// on more than one, heads that do not divide among them), or with this cache block (Step 5's
    /// rings, [`TpRefusal::loaded`]); `None` when it starts. The figures above are then what its
    /// budget would be, and the log is the error alone (after the weights' line when loaded).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub tp_refused: Option<TpRefusal>,
    /// Requests of each context the cache holds at once: `(tokens per request, requests)`.
    pub table: Vec<(u64, u64)>,
    /// Whether the layout follows vLLM's rules exactly (full attention, MLA, and sliding windows
    /// of one page size); recurrent layers' state and mixed page sizes are approximated.
    pub layout_exact: bool,
    /// Pipeline stages, each with its own budget (empty without pipeline parallelism); the figures
    /// above are the stage that holds the fewest blocks.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub stages: Vec<StageBudget>,
    /// vLLM 0.34's extensible KV cache: the size measured after warmup, which the blocks, tokens
    /// and concurrency above follow (`available_kv` is then the reservation the profile step
    /// logs); `None` with the classic sizing.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub measured: Option<MeasuredKv>,
    /// `--max-model-len auto`: the model's length and the one vLLM settles on (the longest one
    /// request's blocks fit, the null block held back), and the cache memory it states.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub auto_fit: Option<AutoFit>,
}

/// vLLM's `_auto_fit_max_model_len` for `--max-model-len auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct AutoFit {
    /// The model's own length.
    pub from: u64,
    /// The length served (0: not even one token fits).
    pub to: u64,
    /// The cache memory the fit is made in (after warmup with the extensible cache).
    pub memory: u64,
}

/// The KV cache vLLM 0.34 sizes after warmup and CUDA-graph capture (`measure_kv_cache_blocks`,
/// `measure_kv_cache_bytes` in `v1/worker/extensible_kv_cache.py`): of the memory in use since its
/// first snapshot (weights, memory outside PyTorch, the captured graphs) and the memory still free,
/// `min(requested − in use, free − margin) − transient`, where the transient is the profile
/// step's activation peak with the CUDA graphs' estimate (`peak_activation_memory`) and the margin
/// `max(1 GiB, ¾ × transient)` (3 GiB on ROCm).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MeasuredKv {
    /// Memory in use before vLLM's first snapshot (the CUDA context), outside what it measures.
    pub context: Bytes,
    /// Memory in use once warmed up, the KV cache aside: weights, non-torch memory, CUDA graphs.
    pub in_use: Bytes,
    /// The transient peak kept free for the steps' activations.
    pub transient: Bytes,
    /// The margin kept free beyond it.
    pub margin: Bytes,
    /// The KV cache's bytes (negative: nothing left), and at the bands' ends (least, most).
    pub kv: i64,
    /// (least, most).
    pub kv_band: (i64, i64),
    /// Blocks reserved from the profile step's estimate ("Available KV cache memory"), which the
    /// measured size never exceeds.
    pub reserved_blocks: u64,
    /// Free memory a `gpu_memory_utilization` below 1 keeps out of the cache (what the cache would
    /// take with all the memory free at start, less what it takes).
    #[cfg_attr(feature = "serde", serde(default))]
    pub withheld: u64,
    /// Whether `gpu_memory_utilization`'s share binds (`requested − in use − transient`) rather
    /// than the free memory and the margin.
    #[cfg_attr(feature = "serde", serde(default))]
    pub capped: bool,
}

/// A hybrid model's Mamba states in vLLM's cache.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MambaBudget {
    /// Layers with a recurrent state.
    pub layers: u64,
    /// Bytes of one layer's state for one request on this GPU, before padding.
    pub page: u64,
    /// Padding to the attention page, in percent of the state.
    pub padding_pct: f64,
    /// Whether the attention block size was raised above the asked one to hold a state.
    pub block_raised: bool,
    /// `none`, `align` or `all` (vLLM's `mamba_cache_mode`).
    pub mode: String,
    /// Pages one request keeps per Mamba layer (besides one per block in `all` mode).
    pub pages_per_request: u64,
}

/// One pipeline stage's share of vLLM's budget (each stage's worker logs its own).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct StageBudget {
    /// Layers on the stage.
    pub layers: u64,
    /// "Model loading took" on one of its GPUs (with the rotary cache).
    pub weights: Bytes,
    /// Its profile step's peak (the sampler's on the last stage only).
    pub activation_peak: Bytes,
    /// "Available KV cache memory" on it.
    pub available_kv: i64,
    /// Blocks its memory holds (every stage then takes the fewest).
    pub num_blocks: u64,
}

/// What the budget is computed from.
#[derive(Clone, Copy, Debug)]
pub struct BudgetInput<'a> {
    /// The model.
    pub arch: &'a Architecture,
    /// KV-cache format (`--kv-cache-dtype`).
    pub kv: KvDtype,
    /// Tokens per request (`--max-model-len`).
    pub max_model_len: u64,
    /// Tensor-parallel GPUs.
    pub tp: u64,
    /// Weight bytes on this GPU (after `--cpu-offload-gb`).
    pub weights: Bytes,
    /// Memory CUDA reports for the card.
    pub total: Bytes,
    /// The card's name (A100s keep the small defaults).
    pub device_name: &'a str,
    /// The card's CUDA compute capability × 10 (0: not NVIDIA, or not stated); it picks kernels.
    pub cuda_cc: u16,
    /// The speculative drafter, when one is loaded.
    pub drafter: Option<Drafter>,
    /// The vision and audio encoders vLLM profiles (none when served text only).
    pub encoders: &'a [crate::model::Encoder],
    /// Pipeline stages: each one's layers `[start, end)` and weights on one of its GPUs (empty:
    /// one stage, whose weights are `weights`).
    pub stages: &'a [(u64, u64, Bytes)],
    /// An AMD GPU (ROCm): the extensible KV cache keeps a larger margin.
    pub rocm: bool,
    /// Memory other processes hold on the card when vLLM starts (the scenario's reserve for the
    /// desktop and the OS): not free for the extensible cache, nor for the classic share.
    pub outside: Bytes,
}

/// vLLM's multimodal profile: the encoder run over dummy items of the largest size before the
/// language model's profile step (`gpu_model_runner.profile_run`, `compute_mm_encoder_budget`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct EncoderProfile {
    /// What the profiled items are (the modality with the most tokens per item).
    pub modality: crate::model::Modality,
    /// The encoder cache budget in tokens: `max(max_num_batched_tokens, largest item)`.
    pub budget_tokens: u64,
    /// Dummy items run: `max(1, min(budget / item, max_num_seqs × items per prompt))`.
    pub items: u64,
    /// Tokens of one item.
    pub item_tokens: u64,
    /// PyTorch's working set while the encoder runs them.
    pub peak: Bytes,
    /// Their outputs, kept through the language model's profile step.
    pub outputs: Bytes,
}

/// The encoder profile for `encoders`: the modality whose largest item makes the most tokens,
/// as many items as the budget holds and the scheduler could batch (`max_num_seqs` requests of
/// as many items as `max_model_len` holds), their positions through the encoder at once.
pub fn encoder_profile(
    encoders: &[crate::model::Encoder],
    max_num_batched_tokens: u64,
    max_num_seqs: u64,
    max_model_len: u64,
    tp: u64,
    text_hidden: u64,
    data: bool,
) -> Option<EncoderProfile> {
    let e = encoders.iter().filter(|e| e.max_tokens() > 0).max_by_key(|e| e.max_tokens())?;
    let item = e.max_tokens();
    let budget = max_num_batched_tokens.max(item);
    let per_prompt = (max_model_len / item).max(1);
    let items = (budget / item).min(max_num_seqs.saturating_mul(per_prompt)).max(1);
    Some(EncoderProfile {
        modality: e.modality,
        budget_tokens: budget,
        items,
        item_tokens: item,
        // `--mm-encoder-tp-mode data`: each GPU runs its share of the items through the whole
        // encoder (then every output is gathered on every GPU).
        peak: Bytes::new(if data && tp > 1 {
            e.activation(items.div_ceil(tp).saturating_mul(e.max_positions()), 1)
        } else {
            e.activation(items.saturating_mul(e.max_positions()), tp)
        }),
        outputs: Bytes::new(items.saturating_mul(item).saturating_mul(text_hidden).saturating_mul(2)),
    })
}

/// The budget.
pub fn budget(o: &VllmOptions, i: &BudgetInput) -> VllmBudget {
    let a = i.arch;
    let tp = i.tp.max(1);
    let (tokens, seqs) = o.batch(Some(i.total), i.device_name, i.cuda_cc);
    let util = o.utilization();
    let requested = i.total.scale(util);
    let weights = i
        .weights
        .saturating_add(rotary_cache(a))
        .saturating_add(i.drafter.map_or(Bytes::ZERO, |d| d.weights));
    let (peak, encoder, (lo_f, hi_f)) = profile_with_encoders(
        a,
        i.encoders,
        tokens,
        seqs,
        i.max_model_len,
        (tp, sampler_bytes_x4(o, a)),
        o.mm_encoder_data,
    );
    // The V2 runner's sampler state, in use from its creation after the weights' line.
    let state = sampler_state(o, a, seqs);
    let (nt, nt_lo, nt_hi) = non_torch(tp);
    // Inkling's fused reduce-scatter, convolution and all-gather (vLLM 0.34
    // `inkling/nvidia/ops/lamport.py`): three generations of input and output buffers of
    // `min(16384, max_num_batched_tokens) × hidden` BF16 values in symmetric memory, outside
    // PyTorch's allocator, on 2, 4 or 8 GPUs (one GPU runs without).
    let lamport = if a.family == "inkling" && matches!(tp, 2 | 4 | 8) {
        Bytes::new(12u64.saturating_mul(tokens.min(16_384)).saturating_mul(a.hidden_size))
    } else {
        Bytes::ZERO
    };
    let (nt, nt_lo, nt_hi) =
        (nt.saturating_add(lamport), nt_lo.saturating_add(lamport), nt_hi.saturating_add(lamport));
    let (graphs, g_lo, g_hi) = if o.reserves_graphs() {
        graph_estimate(o, seqs, tokens, i.cuda_cc)
    } else {
        (Bytes::ZERO, Bytes::ZERO, Bytes::ZERO)
    };
    let signed = |b: Bytes| i64::try_from(b.get()).unwrap_or(i64::MAX);
    let rest = |p: Bytes, n: Bytes, g: Bytes| {
        signed(requested)
            .saturating_sub(signed(weights))
            .saturating_sub(signed(state))
            .saturating_sub(signed(p))
            .saturating_sub(signed(n))
            .saturating_sub(signed(g))
    };
    let (available, band) = match o.kv_cache_memory {
        Some(m) => (signed(Bytes::new(m)), (signed(Bytes::new(m)), signed(Bytes::new(m)))),
        None => (
            rest(peak, nt, graphs),
            (rest(peak.scale(hi_f), nt_hi, g_hi), rest(peak.scale(lo_f), nt_lo, g_lo)),
        ),
    };
    let ns = o.speculative.as_ref().map_or(0, |sp| sp.tokens);
    // Step 5's block, settled by its rings of indexer keys (or the error they end vLLM's start on).
    let (step5_block, step5_refused) = match step5_block(a, i.kv, tp, o, ns) {
        Some((b, r)) => (b, r),
        None => (o.block_size(), None),
    };
    let dtypes = (o.mamba_cache_bytes, o.mamba_ssm_cache_bytes);
    // DeepSeek V4 is served with 256-token blocks (its recipes' `--block-size 256`; a compressed
    // row of 128 tokens needs at least that many).
    let v4_block = o.block_size.unwrap_or(256);
    let Layout { mut kinds, mamba, approximate, packed } =
        layout(a, i.kv, tp, ns, dtypes, (v4_block, i.cuda_cc, o.block_size));
    let mut drafter_exact = true;
    if let Some(d) = i.drafter.filter(|d| d.layers > 0 && d.layer_bytes > 0) {
        // The drafter's layers join the cache: in the target's group when their pages match.
        drafter_exact = d.exact;
        let mtp = matches!(o.speculative.as_ref().map(|sp| &sp.method), Some(SpecMethod::Mtp));
        match a.mtp.as_ref().filter(|m| mtp && !m.layers.is_empty()) {
            // Prediction modules with layers of their own kinds (Inkling's depths, sliding or
            // global by their own list, each with its convolution state): the layers vLLM builds
            // (the first `d.layers`) laid out as the target's are, their kinds joining its own.
            Some(m) => {
                let depths = Architecture {
                    groups: m
                        .layers
                        .iter()
                        .take(usize::try_from(d.layers).unwrap_or(usize::MAX))
                        .cloned()
                        .collect(),
                    mtp: None,
                    ..a.clone()
                };
                for k in layout(&depths, i.kv, tp, ns, dtypes, (v4_block, i.cuda_cc, o.block_size)).kinds {
                    match kinds.iter_mut().find(|x| x.0 == k.0 && x.2 == k.2) {
                        Some(x) => x.1 += k.1,
                        None => kinds.push(k),
                    }
                }
            }
            None => match kinds.iter_mut().find(|k| k.0 == SpecKind::Full && k.2 == d.layer_bytes) {
                Some(k) => k.1 += d.layers,
                None => kinds.push((SpecKind::Full, d.layers, d.layer_bytes)),
            },
        }
        if mamba.is_none() {
            merge_uniform(&mut kinds);
        }
    }
    let mut exact = !approximate && drafter_exact;
    // Qwen4-Exp: the block is aligned on QSA's key/value page alone (its compressed indexer keys
    // are a spec of their own beside it).
    let qsa = qwen4_qsa(a, i.kv, tp);
    if let Some((_, main, _)) = qsa {
        for k in kinds.iter_mut().filter(|k| k.0 == SpecKind::Full) {
            k.2 = main;
        }
    }
    let mla = a.mixers().any(|(_, m)| matches!(m, Mixer::Mla(_)));
    let hybrid = plan_hybrid(o, mamba, &kinds, mla, i.cuda_cc);
    // Qwen4-Exp's packed pool, or (with a drafter's layers, or no Gated DeltaNet) not modelled.
    let packed = match (qsa, &hybrid, mamba) {
        (Some(q), Some(h), Some(m)) if i.drafter.is_none() => Some(qwen4_packed(a, q, h, m, ns)),
        (Some(_), _, _) => {
            exact = false;
            packed
        }
        _ => packed,
    };
    // dots3-note's and Step 5's packed pools (their prediction layers join them below).
    let packed = packed
        .or_else(|| dots3_packed(a, i.kv, o.block_size(), 0))
        .or_else(|| step5_packed(a, i.kv, tp, step5_block, 0));
    if a.family == "step5" && i.cuda_cc == 0 {
        // Step 5's pool on AMD GPUs (`models/step5/amd/csa_cache.py`: summaries in a group of their
        // own) or an unknown GPU is not read from vLLM: approximate.
        exact = false;
    }
    if o.block_size.is_some_and(|b| !b.is_multiple_of(64)) && sparse_mla(a) {
        // A sparse latent-attention model's cache at a block FlashInfer's SM 10.x kernel takes but
        // the indexer's 64-token kernel blocks do not divide: not read from vLLM, approximate.
        exact = false;
    }
    if a.family == "dots3_note" && !matches!(i.kv, KvDtype::Bf16 | KvDtype::F16) {
        // An FP8 cache's rows on the padded sparse backend are not read from vLLM: approximate.
        exact = false;
    }
    let block = hybrid.as_ref().map_or(o.block_size(), |h| h.block_size);
    if let (Some(h), Some(m)) = (&hybrid, mamba) {
        // The Mamba layers join the groups with pages padded to the attention page.
        kinds.push((
            SpecKind::Mamba { fixed: h.fixed_blocks, per_block: h.mode == MambaMode::All },
            m.layers,
            h.attn_bytes,
        ));
        exact &= h.exact;
    } else if mamba.is_some() {
        // Recurrent layers and no attention layer to share pages with: not modelled.
        exact = false;
    }
    let wide = o.version >= VllmVersion::GROUP_RATIO_3_2;
    let len = i.max_model_len.max(1);
    let pos = u64::try_from(available.max(0)).unwrap_or(0);
    // Tokens a sliding or chunked layer keeps blocks for beyond its window: every batch in flight
    // (from 0.26: the pipeline's stages, and one more with async scheduling, on by default, where
    // the runner supports it).
    let inflight = if o.version >= VllmVersion::IN_FLIGHT_BATCHES {
        let pp = o.pipeline_parallel().max(1);
        let v2 = o.version >= VllmVersion::RUNNER_V2_DEFAULT || (mamba.is_none() && a.moe().is_none());
        let more = o.async_scheduling.unwrap_or(true) && (pp == 1 || v2);
        tokens.saturating_mul(pp + u64::from(more))
    } else {
        tokens
    };
    // DeepSeek V4's MTP modules attend through their window only: their windows join the pool's
    // (another drafter's layers are not modelled there).
    let packed = match (packed, i.drafter.filter(|d| d.layers > 0)) {
        (Some(p), Some(d)) => match o.speculative.as_ref().map(|sp| &sp.method) {
            Some(SpecMethod::Mtp) => dots3_packed(a, i.kv, o.block_size(), d.layers)
                .or_else(|| step5_packed(a, i.kv, tp, step5_block, d.layers))
                .or_else(|| v4_packed(a, i.kv, v4_block, d.layers))
                .or(Some(p)),
            // DSpark's stages keep windows beside the target's. A drafter reading the target's
            // hidden states looks one prefill token ahead (`num_prefill_lookahead_tokens`, DFlash's
            // rule DSpark inherits), so the windows retain no extra token.
            Some(SpecMethod::DSpark) => match v41_packed(a, i.cuda_cc, o.block_size, ns, d.layers) {
                Some((p, ok)) => {
                    exact &= ok;
                    Some(p)
                }
                None => {
                    exact = false;
                    Some(p)
                }
            },
            _ => {
                exact = false;
                Some(p)
            }
        },
        (p, _) => p,
    };
    let block = packed.as_ref().map_or(block, |p| p.block);
    // Decode context parallelism: each rank of a request's `dcp` keeps every `dcp`-th token of its
    // full-attention (and latent) caches; a sliding window's cache cannot be split (vLLM asserts
    // once the weights are in), and the packed pools' own layouts under it are not read.
    let dcp = o.dcp();
    let sliding = kinds
        .iter()
        .chain(packed.iter().flat_map(|p| p.groups.iter()))
        .any(|k| matches!(k.0, SpecKind::Window(_)));
    let dcp_sliding = (dcp > 1 && sliding).then(|| TpRefusal {
        reason: crate::text::Msg::new(crate::text::MsgId::AdviceVllmDcpSliding, Vec::new()),
        log: String::from("AssertionError: DCP not support sliding window."),
        loaded: true,
    });
    if dcp > 1 && packed.is_some() {
        exact = false;
    }
    let (block_bytes, num_blocks, num_groups, blocks_per_request) = if let Some(p) = &packed {
        let bytes = p.block_bytes.max(1);
        (bytes, pos / bytes, p.groups.iter().map(|g| g.2).sum(), p.blocks(len, inflight))
    } else if kinds.is_empty() {
        (0, 0, 1, 0)
    } else if kinds.len() == 1 {
        // One kind of layer: every layer its own tensor of `num_blocks` pages.
        let (_, n, bytes) = kinds[0];
        let page = bytes.saturating_mul(block).saturating_mul(n).max(1);
        (page, pos / page, 1, blocks_for(&kinds, len, inflight, block, wide, dcp))
    } else {
        // Several kinds of one page size: layers grouped `group_size` at a time, each tensor
        // shared by one layer of every group (vLLM's uniform-page hybrid layout).
        // Pages of other sizes: a page that divides the largest takes a larger block; one that
        // does not is padded (attention) or not modelled (MLA: vLLM falls back), so said.
        let page = kinds.iter().map(|k| kind_page(k, block)).max().unwrap_or(0);
        if kinds.iter().any(|k| kind_page(k, block) > 0 && !page.is_multiple_of(kind_page(k, block))) {
            exact = false;
        }
        let group_size = group_size(&kinds, wide);
        let num_groups: u64 = kinds.iter().map(|k| k.1.div_ceil(group_size)).sum();
        let tensor = page.saturating_mul(group_size).max(1);
        (tensor, pos / tensor, num_groups, blocks_for(&kinds, len, inflight, block, wide, dcp))
    };
    // vLLM 0.34's extensible KV cache: the blocks reserved from the profile step are cut to what
    // the memory measured after warmup and graph capture leaves, on each worker (`w` its weights,
    // `p` its profile peak).
    let measure = |w: Bytes, p: Bytes, reserved: u64| -> Option<MeasuredKv> {
        if !o.extensible() {
            return None;
        }
        // Graphs are captured whatever the estimate flag says, unless eager.
        let (g_act, g_act_lo, g_act_hi) = if o.enforce_eager {
            (Bytes::ZERO, Bytes::ZERO, Bytes::ZERO)
        } else {
            graph_estimate(o, seqs, tokens, i.cuda_cc)
        };
        let floor = Bytes::new(if i.rocm { 3 * GIB } else { GIB });
        // The two bounds: the share less what is in use, and the free memory less the margin;
        // the transient comes off the smaller.
        let size = |p: Bytes, n: Bytes, g_est: Bytes, g: Bytes| {
            // A block-diffusion model's request state is in use by then too.
            let in_use =
                w.saturating_add(n).saturating_add(g).saturating_add(diffusion_state(a, seqs, tokens));
            let transient = p.saturating_add(g_est);
            let margin = floor.max(transient.scale(0.75));
            let share = signed(requested).saturating_sub(signed(in_use));
            let free = signed(i.total)
                .saturating_sub(signed(CUDA_CONTEXT))
                .saturating_sub(signed(i.outside))
                .saturating_sub(signed(in_use))
                .saturating_sub(signed(margin));
            (share.min(free).saturating_sub(signed(transient)), in_use, transient, margin, (share, free))
        };
        let (kv, in_use, transient, margin, (share, free)) = size(p, nt, graphs, g_act);
        let least = size(p.scale(hi_f), nt_hi, g_hi, g_act_hi).0;
        let most = size(p.scale(lo_f), nt_lo, g_lo, g_act_lo).0;
        // What a share below 1 keeps out: the cache with all the memory free at start as budget.
        let withheld = u64::try_from(free.saturating_sub(share).max(0)).unwrap_or(0);
        Some(MeasuredKv {
            context: CUDA_CONTEXT,
            in_use,
            transient,
            margin,
            kv,
            kv_band: (least, most),
            reserved_blocks: reserved,
            withheld,
            capped: share < free,
        })
    };
    let measured_blocks = |m: &Option<MeasuredKv>, reserved: u64, bytes: u64| match m {
        Some(m) => reserved.min(u64::try_from(m.kv.max(0)).unwrap_or(0) / bytes.max(1)),
        None => reserved,
    };
    // Pipeline parallelism: each stage's worker sizes its own cache from what its layers, weights
    // and profile step leave (the sampler runs on the last stage only), and every worker then takes
    // the fewest blocks of any (`get_kv_cache_configs`).
    let mut stages = Vec::new();
    let (mut available, mut band, mut weights, mut num_blocks, mut block_bytes, mut peak_shown) =
        (available, band, weights, num_blocks, block_bytes, peak);
    if i.stages.len() > 1 && !kinds.is_empty() {
        let page = kinds.iter().map(|k| kind_page(k, block)).max().unwrap_or(0).max(1);
        let gsize = group_size(&kinds, wide);
        let forward = forward_peak(a, tokens, tp);
        let last = i.stages.len() - 1;
        let drafter_w = i.drafter.map_or(Bytes::ZERO, |d| d.weights);
        let mut binding: Option<(u64, usize, u64)> = None;
        for (k, &(start, end, w)) in i.stages.iter().enumerate() {
            let ws = w.saturating_add(rotary_cache(a)).saturating_add(if k == last {
                drafter_w
            } else {
                Bytes::ZERO
            });
            let p = if k == last { peak } else { forward };
            let avail = match o.kv_cache_memory {
                Some(m) => signed(Bytes::new(m)),
                None => signed(requested)
                    .saturating_sub(signed(ws))
                    .saturating_sub(signed(if k == last { state } else { Bytes::ZERO }))
                    .saturating_sub(signed(p))
                    .saturating_sub(signed(nt))
                    .saturating_sub(signed(graphs)),
            };
            let sl =
                layout(&stage_arch(a, start, end), i.kv, tp, ns, dtypes, (v4_block, i.cuda_cc, o.block_size));
            let mut counts: Vec<u64> = sl.kinds.iter().map(|x| x.1).collect();
            if let Some(m) = sl.mamba {
                counts.push(m.layers);
            }
            // Layers per tensor on this worker: all of its layers for one kind, else its largest
            // group once narrowed to its own layers.
            let mult = if kinds.len() == 1 {
                counts.iter().sum::<u64>()
            } else {
                counts.iter().map(|c| (*c).min(gsize)).max().unwrap_or(0)
            }
            .max(1);
            let blocks = u64::try_from(avail.max(0)).unwrap_or(0) / page.saturating_mul(mult).max(1);
            let blocks = measured_blocks(
                &measure(ws.saturating_add(if k == last { state } else { Bytes::ZERO }), p, blocks),
                blocks,
                page.saturating_mul(mult),
            );
            stages.push(StageBudget {
                layers: end - start,
                weights: ws,
                activation_peak: p,
                available_kv: avail,
                num_blocks: blocks,
            });
            if binding.is_none_or(|(b, _, _)| blocks < b) {
                binding = Some((blocks, k, mult));
            }
        }
        if let Some((b, k, mult)) = binding {
            let s = &stages[k];
            let shift = s.available_kv.saturating_sub(available);
            band = (band.0.saturating_add(shift), band.1.saturating_add(shift));
            available = s.available_kv;
            weights = s.weights;
            peak_shown = s.activation_peak;
            num_blocks = b;
            block_bytes = page.saturating_mul(mult);
        }
    }
    let measured = measure(weights.saturating_add(state), peak_shown, num_blocks);
    num_blocks = measured_blocks(&measured, num_blocks, block_bytes);
    // "GPU KV cache size": since 0.21 the tokens `concurrency × max_model_len` requests hold
    // together; before, the blocks of one group in tokens.
    let kv_tokens = if o.version >= VllmVersion::TOKENS_BY_CONCURRENCY {
        if blocks_per_request == 0 {
            0
        } else {
            (num_blocks as f64 / blocks_per_request as f64 * len as f64) as u64
        }
    } else {
        (num_blocks / num_groups.max(1)).saturating_mul(block)
    };
    let max_concurrency =
        if blocks_per_request == 0 { 0.0 } else { num_blocks as f64 / blocks_per_request as f64 };
    let request_fits = available > 0 && num_blocks >= blocks_per_request && blocks_per_request > 0;
    let longest_in = |blocks: u64| match &packed {
        Some(p) => {
            let (mut lo, mut hi) = (0u64, len.saturating_mul(64).max(1));
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                if p.blocks(mid, inflight) <= blocks { lo = mid } else { hi = mid - 1 }
            }
            lo
        }
        None => longest(&kinds, blocks, inflight, (block, dcp), len, wide),
    };
    let longest_request = longest_in(num_blocks);
    // `--max-model-len auto`: the longest request whose blocks fit beside the null block, at most
    // the model's own length (the estimate then runs again at it).
    let auto_fit = (o.max_model_len_auto && available > 0).then(|| AutoFit {
        from: len,
        to: longest_in(num_blocks.saturating_sub(1)).min(len),
        memory: num_blocks.saturating_sub(1).saturating_mul(block_bytes),
    });
    // Requests at once per context: powers of two from 1,024 to the model's longest, and the
    // asked length.
    let mut contexts: Vec<u64> = Vec::new();
    let top = a.max_context.max(len);
    let mut c = 1024u64;
    while c <= top {
        contexts.push(c);
        c = c.saturating_mul(2);
    }
    contexts.push(len);
    crate::sort::sort(&mut contexts);
    contexts.dedup();
    let table = contexts
        .into_iter()
        .map(|c| {
            let need = match &packed {
                Some(p) => p.blocks(c, inflight),
                None => blocks_for(&kinds, c, inflight, block, wide, dcp),
            };
            (c, if need == 0 || available <= 0 { 0 } else { num_blocks / need })
        })
        .collect();
    VllmBudget {
        version: o.version.id(),
        total: i.total,
        utilization: util,
        requested,
        weights,
        activation_peak: peak_shown,
        encoder,
        non_torch: nt,
        cuda_graphs: graphs,
        sampler_state: state,
        runner_v2: runner_v2(o, a),
        available_kv: available,
        available_kv_band: band,
        max_num_batched_tokens: tokens,
        max_num_seqs: seqs,
        block_size: block,
        mamba: hybrid.as_ref().zip(mamba).map(|(h, m)| MambaBudget {
            layers: m.layers,
            page: h.mamba_page,
            padding_pct: if h.mamba_page == 0 {
                0.0
            } else {
                100.0 * (block.saturating_mul(h.attn_bytes).saturating_sub(h.mamba_page)) as f64
                    / h.mamba_page as f64
            },
            block_raised: h.raised,
            mode: String::from(match h.mode {
                MambaMode::None => "none",
                MambaMode::Align => "align",
                MambaMode::All => "all",
            }),
            pages_per_request: h.fixed_blocks,
        }),
        block_bytes,
        num_blocks,
        kv_tokens,
        max_model_len: len,
        blocks_per_request,
        max_concurrency,
        request_fits,
        longest_request,
        // The extensible cache's cap keeps the context out by measuring what is free.
        context_outside_fits: i.total.get().saturating_sub(requested.get())
            >= CUDA_CONTEXT.get().saturating_add(i.outside.get())
            || o.kv_cache_memory.is_some()
            || measured.is_some(),
        diffusion_state: diffusion_state(a, seqs, tokens),
        // In vLLM's order: the parallel config, the model config against it, the layers as they are
        // built, the cache's layout once the weights are in.
        tp_refused: extensible_refusal(o)
            .or_else(|| dcp_group_refusal(tp, dcp))
            .or_else(|| tp_refusal(a, tp))
            .or_else(|| dcp_refusal(a, tp, dcp))
            .or(step5_refused)
            .or_else(|| kernel_block_refusal(a, o, i.cuda_cc))
            .or(dcp_sliding),
        state_outside_fits: i.total.get().saturating_sub(requested.get())
            >= CUDA_CONTEXT
                .get()
                .saturating_add(i.outside.get())
                .saturating_add(diffusion_state(a, seqs, tokens).get())
            || measured.is_some(),
        layout_exact: exact,
        stages,
        table,
        measured,
        auto_fit,
    }
}

impl VllmBudget {
    /// The lines of vLLM's startup log these numbers stand for, as vLLM words them.
    pub fn log_lines(&self) -> Vec<String> {
        let gib = |b: u64| b as f64 / GIB as f64;
        // vLLM stops on the setup before it loads anything, or on the cache's layout once the
        // weights are in.
        if let Some(r) = &self.tp_refused {
            let mut out = Vec::new();
            if r.loaded {
                out.push(format!("Model loading took {:.2} GiB memory", gib(self.weights.get())));
            }
            out.push(r.log.clone());
            return out;
        }
        let mut out = Vec::new();
        if let Some(m) = &self.mamba {
            if m.block_raised {
                out.push(format!(
                    "Setting attention block size to {} tokens to ensure that attention page size is >= mamba page size.",
                    self.block_size
                ));
            }
            if m.padding_pct > 0.0 {
                out.push(format!(
                    "Padding mamba page size by {:.2}% to ensure that mamba page size and attention page size are exactly equal.",
                    m.padding_pct
                ));
            }
        }
        out.push(format!("Model loading took {:.2} GiB memory", gib(self.weights.get())));
        if let Some(e) = &self.encoder {
            out.push(format!(
                "Encoder cache will be initialized with a budget of {} tokens, and profiled with {} {} items of the maximum feature size.",
                e.budget_tokens,
                e.items,
                match e.modality {
                    crate::model::Modality::Image => "image",
                    crate::model::Modality::Audio => "audio",
                }
            ));
        }
        let version = VllmVersion::parse(&self.version).unwrap_or_default();
        if self.cuda_graphs.get() > 0 && !self.runner_v2 {
            out.push(format!("Estimated CUDA graph memory: {:.2} GiB total", gib(self.cuda_graphs.get())));
        }
        out.push(format!("Available KV cache memory: {:.2} GiB", self.available_kv as f64 / GIB as f64));
        if self.available_kv <= 0 {
            out.push(String::from(if self.measured.is_some() {
                "ValueError: No available memory for the cache blocks. The extensible KV cache already takes all device memory left after the model and its activations; decrease `max_model_len` or `max_num_seqs`, or the model needs a device with more memory."
            } else {
                "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine."
            }));
            return out;
        }
        if let Some(m) = &self.measured
            && self.utilization > 0.7
            && self.utilization < 1.0
            && m.withheld >= GIB
        {
            out.push(format!(
                "gpu_memory_utilization={} caps this instance at {:.2} GiB, keeping {:.2} GiB of free device memory out of the KV cache.",
                self.utilization,
                gib(self.requested.get()),
                gib(m.withheld)
            ));
        }
        if let Some(m) = &self.measured {
            // What the worker measures after warmup and graph capture (the free memory and the
            // blocks warmup committed are the run's own: left out).
            out.push(format!(
                "Memory after warmup: … GiB free, … GiB committed to the KV cache, {:.2} GiB kept for transient activations (…); {} KV cache blocks ({:.2} GiB) fit within the requested {:.2} GiB.",
                gib(m.transient.get()),
                self.num_blocks,
                gib(self.num_blocks.saturating_mul(self.block_bytes)),
                gib(self.requested.get())
            ));
        }
        if let Some(f) = &self.auto_fit {
            let (memory, left) = if self.measured.is_some() {
                (gib(f.memory), "left for the KV cache after CUDA graph capture and warmup")
            } else {
                (gib(f.memory), "available for the KV cache")
            };
            if f.to == 0 {
                out.push(String::from(
                    "ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token.",
                ));
                return out;
            } else if f.to >= f.from && self.measured.is_some() {
                out.push(format!(
                    "Auto-fit max_model_len: using max_model_len={}, which fits in the KV cache memory left after CUDA graph capture and warmup ({memory:.2} GiB GPU).",
                    f.from
                ));
            } else if f.to >= f.from {
                out.push(format!(
                    "Auto-fit max_model_len: full model context length {} fits in available KV cache memory ({memory:.2} GiB GPU)",
                    f.from
                ));
            } else if f.to >= 8192 {
                out.push(format!(
                    "--max-model-len auto reduced max_model_len from {} to {} ({memory:.2} GiB GPU {left}).",
                    f.from, f.to
                ));
            } else {
                out.push(format!(
                    "--max-model-len auto reduced max_model_len from {} to {} ({memory:.2} GiB GPU {left}). Requests longer than {} tokens will be rejected.",
                    f.from, f.to, f.to
                ));
            }
        }
        if version >= VllmVersion::CAPACITY_ONE_LINE {
            out.push(format!(
                "GPU KV cache size: {} tokens, Maximum concurrency for {} tokens per request: {:.2}x",
                group_thousands(self.kv_tokens),
                group_thousands(self.max_model_len),
                self.max_concurrency
            ));
        } else {
            out.push(format!("GPU KV cache size: {} tokens", group_thousands(self.kv_tokens)));
            out.push(format!(
                "Maximum concurrency for {} tokens per request: {:.2}x",
                group_thousands(self.max_model_len),
                self.max_concurrency
            ));
        }
        if !self.request_fits {
            out.push(format!(
                "ValueError: To serve at least one request with the models's max seq len ({}), more KV cache is needed than the available KV cache memory ({:.2} GiB). Based on the available memory, the estimated maximum model length is {}.",
                self.max_model_len,
                // After warmup, the blocks measured (less the null block's).
                self.measured.as_ref().map_or(self.available_kv as f64, |_| {
                    self.num_blocks.saturating_sub(1).saturating_mul(self.block_bytes) as f64
                }) / GIB as f64,
                self.longest_request
            ));
        }
        out
    }
}

fn group_thousands(n: u64) -> String {
    let digits = format!("{n}");
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Layers per KV tensor in vLLM's hybrid layout: the fewest layers of any kind, or the most when
/// the most are under 1.5× the fewest (`wide`, since 0.20; 1.25× before) — less padding.
fn group_size(kinds: &[(SpecKind, u64, u64)], wide: bool) -> u64 {
    let min = kinds.iter().map(|k| k.1).min().unwrap_or(1).max(1);
    let max = kinds.iter().map(|k| k.1).max().unwrap_or(1);
    let close = if wide {
        max.saturating_mul(2) < min.saturating_mul(3)
    } else {
        max.saturating_mul(4) < min.saturating_mul(5)
    };
    if close { max } else { min }
}

/// Blocks one request of `len` tokens takes over every group of layers. Layers whose page is a
/// fraction of the largest hold that many more tokens a block (`unify_kv_cache_spec_page_size`
/// raises their block size so every page is the largest).
fn blocks_for(kinds: &[(SpecKind, u64, u64)], len: u64, step: u64, block: u64, wide: bool, dcp: u64) -> u64 {
    let g = group_size(kinds, wide);
    let largest = kinds.iter().map(|k| kind_page(k, block)).max().unwrap_or(0);
    kinds
        .iter()
        .map(|k| {
            let b = kind_block(k.0, block).saturating_mul(page_ratio(largest, kind_page(k, block)));
            request_blocks(k.0, len, step, b, dcp).saturating_mul(k.1.div_ceil(g))
        })
        .sum()
}

/// How many times a layer's page of `bytes` per token fits the largest page (its block size is
/// raised that many times), or 1 when it does not divide it (the page is padded instead).
fn page_ratio(largest: u64, bytes: u64) -> u64 {
    if bytes > 0 && largest.is_multiple_of(bytes) { largest / bytes } else { 1 }
}

/// Kinds that are all one type (every layer full attention, or every layer the same window) form
/// one group whose page is the sum of the layers' pages, whatever their widths
/// (`UniformTypeKVCacheSpecs`: GLM-5.2's layers with and without an indexer).
fn merge_uniform(kinds: &mut Vec<(SpecKind, u64, u64)>) {
    let Some(first) = kinds.first().map(|k| k.0) else { return };
    if kinds.len() < 2 || kinds.iter().any(|k| k.0 != first) || matches!(first, SpecKind::Mamba { .. }) {
        return;
    }
    let bytes = kinds.iter().fold(0u64, |a, k| a.saturating_add(k.1.saturating_mul(k.2)));
    *kinds = alloc::vec![(first, 1, bytes)];
}

/// What a hybrid (attention + Mamba) model's layout comes to.
#[derive(Clone, Debug, PartialEq)]
struct HybridPlan {
    /// The attention block size, raised so one attention page holds a Mamba state.
    block_size: u64,
    /// Whether it was raised above the asked size.
    raised: bool,
    /// Attention bytes per token of one layer (the page is `block_size ×` it).
    attn_bytes: u64,
    /// The Mamba page before padding.
    mamba_page: u64,
    /// How states are kept per request.
    mode: MambaMode,
    /// Pages a request keeps in each Mamba layer (besides one per block in "all" mode).
    fixed_blocks: u64,
    /// Whether the rules followed are vLLM's exactly.
    exact: bool,
}

/// vLLM's hybrid layout (`Platform._align_hybrid_block_size`, `MambaModelConfig`, `MambaSpec`):
/// the attention block is the smallest multiple of the kernels' alignment whose page holds one
/// layer's Mamba state, whose page is padded to it; with prefix caching a request keeps its running
/// state and the last block boundary's ("align"; 0.34 adds a prefill checkpoint for Mamba-2 and for
/// FlashInfer's Gated DeltaNet kernel, whose checkpoints fall every 64 tokens), without it one
/// state; each speculative token one more.
fn plan_hybrid(
    o: &VllmOptions,
    mamba: Option<MambaLayers>,
    kinds: &[(SpecKind, u64, u64)],
    mla: bool,
    cuda_cc: u16,
) -> Option<HybridPlan> {
    let m = mamba?;
    let attn_bytes = kinds.iter().map(|k| k.2).max().filter(|b| *b > 0)?;
    let v = o.version;
    let ns = o.speculative.as_ref().map_or(0, |sp| sp.tokens);
    let prefix = o.prefix_caching.unwrap_or(v >= VllmVersion::HYBRID_PREFIX_CACHING);
    let mode = match (prefix, v >= VllmVersion::ALIGN_ONLY, m.mamba2) {
        (false, _, _) => MambaMode::None,
        (true, false, true) => MambaMode::All,
        (true, _, _) => MambaMode::Align,
    };
    let asked = o.block_size();
    // The kernels' alignment: FlashAttention's 16 (or the asked block), MLA's 64 (128 since 0.34).
    let mut k = asked.max(16);
    if mla {
        k = k.max(if v >= VllmVersion::BLOCK_64 { 128 } else { 64 });
    }
    let gdn_flashinfer = m.gdn_k128 && (cuda_cc == 90 || cuda_cc >= 100);
    if mode == MambaMode::Align && v >= VllmVersion::BLOCK_64 && gdn_flashinfer {
        k = lcm(k, 64);
    }
    let needed = k.saturating_mul(m.page.div_ceil(k.saturating_mul(attn_bytes).max(1)));
    let block_size = asked.max(needed).max(1);
    let checkpoint =
        u64::from(mode == MambaMode::Align && v >= VllmVersion::BLOCK_64 && (m.mamba2 || gdn_flashinfer));
    let fixed_blocks = match mode {
        MambaMode::None => 1 + ns,
        MambaMode::Align => 2 + ns + checkpoint,
        MambaMode::All => ns,
    };
    Some(HybridPlan {
        block_size,
        raised: block_size > asked,
        attn_bytes,
        mamba_page: m.page,
        mode,
        fixed_blocks,
        // "all" mode aligns blocks on the Mamba chunk size, which Headroom does not read.
        exact: !m.mixed && mode != MambaMode::All,
    })
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: u64, b: u64) -> u64 {
    if a == 0 || b == 0 { a.max(b) } else { a / gcd(a, b) * b }
}

/// Blocks one request of `len` tokens takes in a layer of `kind` (vLLM's
/// `max_memory_usage_bytes`): full attention every token; a sliding window the window less one
/// plus a scheduler step, and one block more; a chunk its chunk plus a step.
fn request_blocks(kind: SpecKind, len: u64, step: u64, block: u64, dcp: u64) -> u64 {
    match kind {
        SpecKind::Mamba { fixed, per_block } => {
            if per_block {
                len.div_ceil(block).saturating_add(fixed)
            } else {
                fixed
            }
        }
        // Decode context parallelism: each rank keeps every `dcp`-th token of a request
        // (`FullAttentionSpec.max_memory_usage_bytes`).
        SpecKind::Full => len.div_ceil(dcp.max(1)).div_ceil(block),
        SpecKind::Window(w) | SpecKind::Conv { taps: w } => {
            (w.saturating_sub(1).saturating_add(step)).min(len).div_ceil(block) + 1
        }
        SpecKind::Chunk(c) => (c.saturating_add(step)).min(len).div_ceil(block),
    }
}

/// The longest request the cache holds (vLLM's estimate when it refuses a `--max-model-len`).
fn longest(
    kinds: &[(SpecKind, u64, u64)],
    num_blocks: u64,
    step: u64,
    (block, dcp): (u64, u64),
    len: u64,
    wide: bool,
) -> u64 {
    if kinds.is_empty() {
        return 0;
    }
    let need = |l: u64| blocks_for(kinds, l, step, block, wide, dcp);
    // The longest length whose blocks fit, by bisection up to 64 × the asked length.
    let (mut lo, mut hi) = (0u64, len.saturating_mul(64).max(1));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if need(mid) <= num_blocks { lo = mid } else { hi = mid - 1 }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_of_one_memory_reports_what_its_os_gives_the_gpu() {
        let total = |id: &str| cuda_total(crate::catalog::device(id).unwrap()).as_gib();
        assert!((total("dgx-spark") - 119.56).abs() < 0.005, "{}", total("dgx-spark"));
        assert!((total("ryzen-ai-max-395-128gb") - 64.0).abs() < 0.005);
        assert!((total("rtx-4090") - 23.6).abs() < 0.01);
        // A raised GTT (ttm.pages_limit) on a Ryzen AI Max is what PyTorch, and vLLM, then read.
        let d = crate::catalog::device("ryzen-ai-max-395-128gb").unwrap();
        assert!((cuda_total_with(d, Some(0.75)).as_gib() - 96.0).abs() < 0.005);
        let gpu = crate::catalog::device("rtx-4090").unwrap();
        assert_eq!(cuda_total_with(gpu, Some(0.5)), cuda_total(gpu));
    }

    /// A block-diffusion model: the sampler's profile is one canvas (DiffusionGemma's
    /// `dummy_sampler_run`), not `max_num_seqs` rows, and its per-request state sits outside the
    /// budget — on an H100 at 0.92 it fits beside the CUDA context for 1,024 requests; at 0.99
    /// it does not, and the fit says so. vLLM 0.34's extensible cache measures it in use after
    /// warmup: inside, whatever the utilisation.
    #[test]
    fn a_block_diffusion_model_profiles_its_canvas_and_keeps_state_outside() {
        let mut a = crate::import::hf::parse_config(
            br#"{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
            "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 262144}"#,
        )
        .unwrap()
        .architecture;
        let ar = profile_peak(&a, 8192, 1024, 1);
        a.canvas = 256;
        let dg = profile_peak(&a, 8192, 1024, 1);
        assert_eq!(dg, forward_peak(&a, 8192, 1).max(Bytes::new(256 * 262_144 * 4 + 8192 * 4096 * 5 / 2)));
        assert!(dg < ar, "one canvas is far less than 1,024 rows of logits");
        let state = diffusion_state(&a, 1024, 8192);
        assert_eq!(state.get(), 1024 * 256 * (4 * 4096 + 41) + 8192 * 4096 * 2);
        let h100 = crate::catalog::device("h100-sxm").unwrap();
        fn input<'a>(a: &'a Architecture, d: &'a crate::catalog::device::Device) -> BudgetInput<'a> {
            BudgetInput {
                arch: a,
                kv: KvDtype::F16,
                max_model_len: 4096,
                tp: 1,
                weights: Bytes::from_gib(20),
                total: cuda_total(d),
                device_name: d.name,
                cuda_cc: 90,
                rocm: false,
                outside: Bytes::ZERO,
                drafter: None,
                encoders: &[],
                stages: &[],
            }
        }
        let o = VllmOptions { max_num_seqs: Some(1024), ..VllmOptions::default() };
        let b = budget(&o, &input(&a, h100));
        assert_eq!(b.diffusion_state, diffusion_state(&a, 1024, b.max_num_batched_tokens));
        assert!(b.state_outside_fits && b.context_outside_fits);
        let m = b.measured.as_ref().expect("0.34 measures the cache after warmup");
        assert!(m.in_use.get() > Bytes::from_gib(20).get() + b.diffusion_state.get());
        let measured = budget(&VllmOptions { utilization: Some(9900), ..o.clone() }, &input(&a, h100));
        assert!(measured.state_outside_fits);
        let tight = VllmOptions { utilization: Some(9900), extensible_kv_cache: Some(false), ..o };
        let b = budget(&tight, &input(&a, h100));
        assert!(!b.state_outside_fits);
        assert!(
            crate::fit::vllm_refusals(&b, 1)
                .iter()
                .any(|m| m.id == crate::text::MsgId::AdviceVllmDiffusionState)
        );
        a.canvas = 0;
        assert!(budget(&tight, &input(&a, h100)).diffusion_state.is_zero());
    }

    /// vLLM's `_approximate_gcd` picks the group width that pads the layer counts least, ties to
    /// the larger: DeepSeek V4 Flash's 43 windows, 21 CSA and 20 HCA states group by 22; Pro's
    /// 61, 30 and 31 by 31.
    #[test]
    fn packed_groups_are_cut_where_they_pad_least() {
        assert_eq!(approximate_gcd(&[43, 21, 20], 21), 22);
        assert_eq!(approximate_gcd(&[61, 30, 31], 30), 31);
        assert_eq!(approximate_gcd(&[8, 8], 8), 8);
    }

    #[test]
    fn versions_parse_and_pick_their_defaults() {
        assert_eq!(VllmVersion::parse("0.21").unwrap(), VllmVersion::GRAPH_RESERVE);
        assert_eq!(VllmVersion::parse("v0.30.1").unwrap(), VllmVersion { major: 0, minor: 30 });
        assert!(VllmVersion::parse("0.6").is_err());
        assert!(VllmVersion::parse("latest").is_err());
        assert!(VllmVersion::parse("0.21.x").is_err());
        assert_eq!(VllmVersion::parse("0.11").unwrap().default_utilization(), 9000);
        assert_eq!(VllmVersion::CURRENT.default_utilization(), 9200);
    }

    /// The capture sizes of published logs: `PIECEWISE=51 (largest=512), FULL=35 (largest=256)`
    /// at 256 sequences, `PIECEWISE=35 (largest=256), FULL=19 (largest=128)` at 128.
    #[test]
    fn graph_counts_match_vllm_logs() {
        assert_eq!(graph_counts(256), (51, 35));
        assert_eq!(graph_counts(128), (35, 19));
        assert_eq!(graph_counts(1024), (51, 51));
    }

    /// The sampler's profile by runner and release: V1's fitted 38.25 bytes a logit; the V2
    /// runner's 16-bit logits (2 bytes), with the FP32 copy of its warmup pass from 0.33 (6).
    #[test]
    fn the_sampler_profile_follows_the_runner() {
        let dense = crate::catalog::model("qwen3-8b").unwrap().architecture().unwrap();
        let moe = crate::catalog::model("qwen3-30b-a3b").unwrap().architecture().unwrap();
        let at = |v: &str| VllmOptions { version: VllmVersion::parse(v).unwrap(), ..VllmOptions::default() };
        assert_eq!(sampler_bytes_x4(&at("0.25"), &dense), SAMPLER_BYTES_PER_LOGIT_X4);
        assert_eq!(sampler_bytes_x4(&at("0.26"), &dense), 8);
        assert_eq!(sampler_bytes_x4(&at("0.29"), &moe), SAMPLER_BYTES_PER_LOGIT_X4);
        assert_eq!(sampler_bytes_x4(&at("0.30"), &moe), 8);
        assert_eq!(sampler_bytes_x4(&at("0.33"), &moe), 24);
        assert_eq!(sampler_bytes_x4(&VllmOptions::default(), &dense), 24);
        assert!(sampler_state(&at("0.25"), &dense, 1024).is_zero());
        assert_eq!(sampler_state(&at("0.34"), &dense, 256).get(), 256 * (151_936 * 4 + 4748 * 4));
        // The profile's sampler term at 0.34: six bytes a logit, beside the hidden states.
        let peak = profile_peak_with(&dense, 8, 1024, 1, 24);
        assert_eq!(peak.get(), 1024 * 151_936 * 6 + 8 * 4096 * 5 / 2);
    }

    #[test]
    fn batch_defaults_follow_the_card() {
        let o = VllmOptions::default();
        assert_eq!(o.batch(Some(Bytes::new(79 * GIB)), "NVIDIA H100 SXM5 80GB", 90), (8192, 1024));
        assert_eq!(o.batch(Some(Bytes::new(79 * GIB)), "NVIDIA A100 SXM4 80GB", 80), (2048, 256));
        assert_eq!(o.batch(Some(Bytes::new(23 * GIB)), "RTX 4090", 89), (2048, 256));
        // B200 (and MI300X): the largest tier from 0.28.
        assert_eq!(o.batch(Some(Bytes::new(178 * GIB)), "NVIDIA B200", 100), (16_384, 1024));
        let v027 = VllmOptions { version: VllmVersion::parse("0.27").unwrap(), ..VllmOptions::default() };
        assert_eq!(v027.batch(Some(Bytes::new(178 * GIB)), "NVIDIA B200", 100), (8192, 1024));
        // DGX Spark: the small tier from 0.33.
        assert_eq!(o.batch(Some(Bytes::new(119 * GIB)), "NVIDIA DGX Spark", 121), (2048, 256));
        let v032 = VllmOptions { version: VllmVersion::parse("0.32").unwrap(), ..VllmOptions::default() };
        assert_eq!(v032.batch(Some(Bytes::new(119 * GIB)), "NVIDIA DGX Spark", 121), (8192, 1024));
        let o = VllmOptions { max_num_batched_tokens: Some(128), ..VllmOptions::default() };
        assert_eq!(o.batch(None, "", 0), (128, 128));
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        for (o, name) in [
            (VllmOptions { utilization: Some(0), ..Default::default() }, "gpu_memory_utilization"),
            (VllmOptions { utilization: Some(10_001), ..Default::default() }, "gpu_memory_utilization"),
            (VllmOptions { max_num_seqs: Some(0), ..Default::default() }, "max_num_seqs"),
            (VllmOptions { block_size: Some(24), ..Default::default() }, "block_size"),
        ] {
            let e = o.validate().unwrap_err();
            assert!(format!("{e}").contains(name), "{e}");
        }
    }
}
