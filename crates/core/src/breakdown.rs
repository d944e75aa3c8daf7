//! The breakdown an estimate is made of: memory terms with their formula, assumptions and band,
//! and their sum per device. It sits below everything that produces terms (inference, training,
//! the estimate itself), so none of them depends on another through it.

use alloc::vec::Vec;

use crate::error::{OrOverflow, Result};
use crate::text::{Msg, MsgId};
use crate::units::Bytes;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// What a memory term is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum TermKind {
    /// Model weights at the chosen format.
    Weights,
    /// Keys and values of past tokens.
    KvCache,
    /// Recurrent state of linear-attention and SSM layers: fixed per sequence.
    State,
    /// Activations and temporary workspace.
    Activations,
    /// Gradients (training).
    Gradients,
    /// Optimizer states (training).
    Optimizer,
    /// FP32 master copy of the weights (mixed-precision training).
    MasterWeights,
    /// LoRA adapter weights (their gradients and optimizer states are under those terms).
    Adapters,
    /// Vision and audio encoders with their projectors (multimodal checkpoints).
    Encoders,
    /// A draft model for speculative decoding (llama.cpp `-md`): its weights, KV cache and
    /// compute buffer.
    Draft,
    /// Weights llama.cpp repacks into its own CPU buffer (`CPU_REPACK`): anonymous memory beside
    /// the model file's mapped pages (system RAM only).
    Repacked,
    /// Runtime overhead: CUDA context, allocator slack, runtime buffers.
    Overhead,
}

impl TermKind {
    /// Every kind, in the order the breakdown lists them.
    pub const ALL: [TermKind; 12] = [
        TermKind::Weights,
        TermKind::Encoders,
        TermKind::KvCache,
        TermKind::State,
        TermKind::Activations,
        TermKind::Gradients,
        TermKind::Optimizer,
        TermKind::MasterWeights,
        TermKind::Adapters,
        TermKind::Draft,
        TermKind::Repacked,
        TermKind::Overhead,
    ];

    /// The JSON key of the CLI contract (`weights`, `kv_cache`…).
    pub const fn key(self) -> &'static str {
        match self {
            TermKind::Weights => "weights",
            TermKind::Encoders => "encoders",
            TermKind::KvCache => "kv_cache",
            TermKind::State => "state",
            TermKind::Activations => "activations",
            TermKind::Gradients => "gradients",
            TermKind::Optimizer => "optimizer",
            TermKind::MasterWeights => "master_weights",
            TermKind::Adapters => "adapters",
            TermKind::Draft => "draft",
            TermKind::Repacked => "repacked",
            TermKind::Overhead => "overhead",
        }
    }

    /// The term's display name.
    pub const fn name(self) -> MsgId {
        match self {
            TermKind::Weights => MsgId::TermWeights,
            TermKind::Encoders => MsgId::TermEncoders,
            TermKind::KvCache => MsgId::TermKvCache,
            TermKind::State => MsgId::TermState,
            TermKind::Activations => MsgId::TermActivations,
            TermKind::Gradients => MsgId::TermGradients,
            TermKind::Optimizer => MsgId::TermOptimizer,
            TermKind::MasterWeights => MsgId::TermMasterWeights,
            TermKind::Adapters => MsgId::TermAdapters,
            TermKind::Draft => MsgId::TermDraft,
            TermKind::Repacked => MsgId::TermRepacked,
            TermKind::Overhead => MsgId::TermOverhead,
        }
    }
}

/// One term of a memory breakdown.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Term {
    /// What it is.
    pub kind: TermKind,
    /// Best estimate, per device.
    pub bytes: Bytes,
    /// Lower end of the plausible range (equal to `bytes` when exact).
    pub low: Bytes,
    /// Upper end of the plausible range (equal to `bytes` when exact).
    pub high: Bytes,
    /// The formula in words, with this scenario's numbers.
    pub formula: Msg,
    /// What the formula takes for granted.
    pub assumptions: Vec<Msg>,
}

impl Term {
    /// The same term at `bytes`, its band kept in proportion (one GPU's share of it).
    pub fn rescale(&mut self, bytes: Bytes) {
        let old = self.bytes.get();
        let scale = |x: Bytes| {
            if old == 0 {
                bytes
            } else {
                Bytes::new(
                    ((x.get() as u128 * bytes.get() as u128) / old as u128).min(u64::MAX as u128) as u64
                )
            }
        };
        self.low = scale(self.low);
        self.high = scale(self.high);
        self.bytes = bytes;
    }

    /// An exact term (no band).
    pub fn exact(kind: TermKind, bytes: Bytes, formula: Msg, assumptions: Vec<Msg>) -> Self {
        Term { kind, bytes, low: bytes, high: bytes, formula, assumptions }
    }

    /// Whether the term is exact (its band is a single value).
    pub fn is_exact(&self) -> bool {
        self.low == self.bytes && self.high == self.bytes
    }
}

/// A memory breakdown by the keys of the CLI contract (`spec/cli.md`): one byte count per kind
/// of term, 0 for those that do not apply, and the total with its band. The CLI's `--json` and
/// the page's JavaScript API write exactly this.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[allow(missing_docs)]
pub struct MemoryKeys {
    pub weights: u64,
    pub encoders: u64,
    pub kv_cache: u64,
    pub state: u64,
    pub activations: u64,
    pub gradients: u64,
    pub optimizer: u64,
    pub master_weights: u64,
    pub adapters: u64,
    pub draft: u64,
    pub repacked: u64,
    pub overhead: u64,
    pub total: u64,
    pub total_low: u64,
    pub total_high: u64,
}

impl MemoryKeys {
    /// The keys of a breakdown.
    pub fn of(m: &Memory) -> MemoryKeys {
        let g = |k| m.get(k).get();
        MemoryKeys {
            weights: g(TermKind::Weights),
            encoders: g(TermKind::Encoders),
            kv_cache: g(TermKind::KvCache),
            state: g(TermKind::State),
            activations: g(TermKind::Activations),
            gradients: g(TermKind::Gradients),
            optimizer: g(TermKind::Optimizer),
            master_weights: g(TermKind::MasterWeights),
            adapters: g(TermKind::Adapters),
            draft: g(TermKind::Draft),
            repacked: g(TermKind::Repacked),
            overhead: g(TermKind::Overhead),
            total: m.total.get(),
            total_low: m.total_low.get(),
            total_high: m.total_high.get(),
        }
    }
}

/// The memory one device must hold.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Memory {
    /// The terms, in [`TermKind::ALL`] order; terms that do not apply are absent.
    pub terms: Vec<Term>,
    /// The sum of the terms.
    pub total: Bytes,
    /// The sum of the terms' lower ends.
    pub total_low: Bytes,
    /// The sum of the terms' upper ends.
    pub total_high: Bytes,
}

impl Memory {
    /// Sums terms into a breakdown.
    ///
    /// # Errors
    /// [`crate::Error::Overflow`] if the sum does not fit in 64 bits.
    pub fn from_terms(terms: Vec<Term>) -> Result<Self> {
        let mut total = Bytes::ZERO;
        let mut low = Bytes::ZERO;
        let mut high = Bytes::ZERO;
        for t in &terms {
            total = total.checked_add(t.bytes).or_overflow("total memory")?;
            low = low.checked_add(t.low).or_overflow("total memory")?;
            high = high.checked_add(t.high).or_overflow("total memory")?;
        }
        Ok(Memory { terms, total, total_low: low, total_high: high })
    }

    /// Bytes of a kind of term, zero when absent.
    pub fn get(&self, kind: TermKind) -> Bytes {
        self.terms.iter().filter(|t| t.kind == kind).fold(Bytes::ZERO, |a, t| a.saturating_add(t.bytes))
    }

    /// The term of a kind, when present.
    pub fn term(&self, kind: TermKind) -> Option<&Term> {
        self.terms.iter().find(|t| t.kind == kind)
    }
}
