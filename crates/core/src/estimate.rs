//! From a [`Scenario`] to an [`Estimate`]: every number the front ends show, as a breakdown
//! whose terms each carry their formula and assumptions.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::error::{OrOverflow, Result};
use crate::scenario::{ModelSource, Scenario};
use crate::text::{Arg, Msg, MsgId};
use crate::units::{Bytes, Params};

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
    /// Activations and temporary workspace.
    Activations,
    /// Gradients (training).
    Gradients,
    /// Optimizer states (training).
    Optimizer,
    /// FP32 master copy of the weights (mixed-precision training).
    MasterWeights,
    /// LoRA adapter weights, their gradients and optimizer states.
    Adapters,
    /// Runtime overhead: CUDA context, allocator slack, runtime buffers.
    Overhead,
}

impl TermKind {
    /// Every kind, in the order the breakdown lists them.
    pub const ALL: [TermKind; 8] = [
        TermKind::Weights,
        TermKind::KvCache,
        TermKind::Activations,
        TermKind::Gradients,
        TermKind::Optimizer,
        TermKind::MasterWeights,
        TermKind::Adapters,
        TermKind::Overhead,
    ];

    /// The JSON key of the CLI contract (`weights`, `kv_cache`…).
    pub const fn key(self) -> &'static str {
        match self {
            TermKind::Weights => "weights",
            TermKind::KvCache => "kv_cache",
            TermKind::Activations => "activations",
            TermKind::Gradients => "gradients",
            TermKind::Optimizer => "optimizer",
            TermKind::MasterWeights => "master_weights",
            TermKind::Adapters => "adapters",
            TermKind::Overhead => "overhead",
        }
    }

    /// The term's display name.
    pub const fn name(self) -> MsgId {
        match self {
            TermKind::Weights => MsgId::TermWeights,
            TermKind::KvCache => MsgId::TermKvCache,
            TermKind::Activations => MsgId::TermActivations,
            TermKind::Gradients => MsgId::TermGradients,
            TermKind::Optimizer => MsgId::TermOptimizer,
            TermKind::MasterWeights => MsgId::TermMasterWeights,
            TermKind::Adapters => MsgId::TermAdapters,
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
    /// An exact term (no band).
    pub fn exact(kind: TermKind, bytes: Bytes, formula: Msg, assumptions: Vec<Msg>) -> Self {
        Term { kind, bytes, low: bytes, high: bytes, formula, assumptions }
    }

    /// Whether the term is exact (its band is a single value).
    pub fn is_exact(&self) -> bool {
        self.low == self.bytes && self.high == self.bytes
    }
}

/// The memory one device must hold.
#[derive(Clone, Debug, PartialEq)]
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
}

/// The model as the estimate saw it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ModelSummary {
    /// Catalog id or a description of the source.
    pub name: String,
    /// Every parameter stored in the checkpoint.
    pub params_total: Params,
    /// Parameters used per token (MoE: shared parts plus the routed experts' share).
    pub params_active: Params,
}

/// Download size.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Disk {
    /// Bytes of the weight files in the chosen format.
    pub weights: Bytes,
}

/// Everything computed for a scenario.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Estimate {
    /// The model.
    pub model: ModelSummary,
    /// Memory per device.
    pub memory: Memory,
    /// Download size.
    pub disk: Disk,
    /// Remarks worth showing beside the numbers.
    pub notes: Vec<Msg>,
}

/// Estimates memory and disk for a scenario.
///
/// Weights = parameters × bytes per parameter at the chosen format (the seed guide's table:
/// fp32 4, fp16 and bf16 2, int8 1, int4 0.5).
///
/// # Errors
/// [`crate::Error::Overflow`] when a size does not fit in 64 bits.
///
/// # Example
/// ```
/// use headroom_core::{estimate::estimate, precision::WeightFormat, scenario::*, units::Params};
/// let s = Scenario { model: ModelSource::Params(Params::new(7_000_000_000)), weights: Some(WeightFormat::F16) };
/// assert_eq!(estimate(&s).unwrap().memory.total.get(), 14_000_000_000);
/// ```
pub fn estimate(scenario: &Scenario) -> Result<Estimate> {
    let format = scenario.weight_format();
    let ModelSource::Params(params) = scenario.model;
    let weights = (params * format.bits_per_weight()).or_overflow("weight memory")?;
    let term = Term::exact(
        TermKind::Weights,
        weights,
        Msg::new(
            MsgId::WeightsFlat,
            vec![
                Arg::Int(params.get()),
                Arg::Num(format.bits_per_weight().bytes_per_weight(), 1),
                Arg::Text(format.label().into()),
            ],
        ),
        vec![Msg::new(MsgId::AssumeUniformFormat, vec![Arg::Text(format.label().into())])],
    );
    let memory = Memory::from_terms(vec![term])?;
    Ok(Estimate {
        model: ModelSummary {
            name: crate::scenario::format_params(params),
            params_total: params,
            params_active: params,
        },
        disk: Disk { weights },
        memory,
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precision::{SEED_TABLE, WeightFormat};

    #[test]
    fn seed_table_for_seven_billion() {
        for row in SEED_TABLE {
            let s = Scenario {
                model: ModelSource::Params(Params::new(7_000_000_000)),
                weights: Some(row.format),
            };
            let e = estimate(&s).unwrap();
            let expected = (7.0 * row.gb_per_billion * 1e9) as u64;
            assert_eq!(e.memory.get(TermKind::Weights).get(), expected, "{:?}", row.format);
            assert_eq!(e.memory.total.get(), expected);
            assert_eq!(e.disk.weights.get(), expected);
        }
    }

    #[test]
    fn absurd_counts_overflow_cleanly() {
        let s =
            Scenario { model: ModelSource::Params(Params::new(u64::MAX)), weights: Some(WeightFormat::F32) };
        assert!(matches!(estimate(&s), Err(crate::Error::Overflow { .. })));
    }
}
