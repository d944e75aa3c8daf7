//! Training and fine-tuning memory: full fine-tuning with every common optimizer and precision
//! recipe, LoRA and QLoRA with exact adapter counts, activations after Korthikanti et al.,
//! ZeRO stages 0–3 with CPU offload, tensor parallelism; training FLOPs and checkpoint sizes.

pub mod preset;
pub mod saved;

pub use preset::{Batching, Framework, Preset, TrainOptions, preset};
pub use saved::LossKernel;

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use crate::breakdown::{Term, TermKind};
use crate::error::{Error, Result};
use crate::model::{Architecture, Ffn, LayerGroup, Mixer};
use crate::precision::WeightFormat;
use crate::tensors::{Role, Tensor, inventory};
use crate::text::{Arg, Msg, MsgId};
use crate::units::Bytes;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// What is being done with the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Mode {
    /// Generating tokens.
    #[default]
    Inference,
    /// Full fine-tuning: every parameter trained.
    Full,
    /// LoRA: frozen 16-bit base, trained low-rank adapters.
    Lora,
    /// QLoRA: frozen NF4 base (double quantization), trained adapters.
    Qlora,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 4] = [Mode::Inference, Mode::Full, Mode::Lora, Mode::Qlora];

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            Mode::Inference => "inference",
            Mode::Full => "full",
            Mode::Lora => "lora",
            Mode::Qlora => "qlora",
        }
    }

    /// Whether the mode trains.
    pub const fn is_training(self) -> bool {
        !matches!(self, Mode::Inference)
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `mode`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().as_str() {
            "inference" | "infer" | "serve" => Mode::Inference,
            "full" | "full-finetune" | "finetune" | "fine-tune" => Mode::Full,
            "lora" => Mode::Lora,
            "qlora" => Mode::Qlora,
            _ => {
                return Err(Error::invalid(
                    "mode",
                    format!("`{t}` is not a mode; accepted: inference full lora qlora"),
                ));
            }
        })
    }
}

/// The optimizer, which decides the per-parameter state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Optimizer {
    /// AdamW: two FP32 moments, 8 bytes per parameter.
    #[default]
    AdamW,
    /// bitsandbytes 8-bit AdamW: two 8-bit moments with one FP32 scale per 2,048 values.
    AdamW8bit,
    /// bitsandbytes paged AdamW: AdamW's 8 bytes, in unified memory that can spill to the CPU.
    PagedAdamW,
    /// Paged 8-bit AdamW (QLoRA's default).
    PagedAdamW8bit,
    /// Plain SGD: no state.
    Sgd,
    /// SGD with momentum: one FP32 buffer, 4 bytes per parameter.
    SgdMomentum,
    /// Adafactor without momentum: factored second moment, `rows + cols` FP32 values per matrix.
    Adafactor,
    /// Lion: one momentum, 4 bytes per parameter (FP32).
    Lion,
}

impl Optimizer {
    /// Every optimizer.
    pub const ALL: [Optimizer; 8] = [
        Optimizer::AdamW,
        Optimizer::AdamW8bit,
        Optimizer::PagedAdamW,
        Optimizer::PagedAdamW8bit,
        Optimizer::Sgd,
        Optimizer::SgdMomentum,
        Optimizer::Adafactor,
        Optimizer::Lion,
    ];

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            Optimizer::AdamW => "adamw",
            Optimizer::AdamW8bit => "adamw-8bit",
            Optimizer::PagedAdamW => "paged-adamw",
            Optimizer::PagedAdamW8bit => "paged-adamw-8bit",
            Optimizer::Sgd => "sgd",
            Optimizer::SgdMomentum => "sgd-momentum",
            Optimizer::Adafactor => "adafactor",
            Optimizer::Lion => "lion",
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `optimizer`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase().replace('_', "-");
        Ok(match lower.as_str() {
            "adamw" | "adam" | "adamw-torch" | "adamw-torch-fused" => Optimizer::AdamW,
            "adamw-8bit" | "adamw8bit" | "adam-8bit" | "adamw-bnb-8bit" => Optimizer::AdamW8bit,
            "paged-adamw" | "paged-adamw-32bit" => Optimizer::PagedAdamW,
            "paged-adamw-8bit" => Optimizer::PagedAdamW8bit,
            "sgd" => Optimizer::Sgd,
            "sgd-momentum" | "momentum" => Optimizer::SgdMomentum,
            "adafactor" => Optimizer::Adafactor,
            "lion" => Optimizer::Lion,
            _ => {
                return Err(Error::invalid(
                    "optimizer",
                    format!(
                        "`{t}` is not an optimizer; accepted: adamw adamw-8bit paged-adamw paged-adamw-8bit sgd sgd-momentum adafactor lion"
                    ),
                ));
            }
        })
    }

    /// Bytes of optimizer state for one tensor of `rows × cols` (× `experts`) values.
    pub fn state_bytes(self, rows: u64, cols: u64, experts: u64) -> u64 {
        let n = rows.saturating_mul(cols).saturating_mul(experts);
        match self {
            Optimizer::AdamW | Optimizer::PagedAdamW => n.saturating_mul(8),
            // Two 8-bit moments; one FP32 absmax per block of 2,048 values for each.
            Optimizer::AdamW8bit | Optimizer::PagedAdamW8bit => {
                n.saturating_mul(2).saturating_add(n.div_ceil(2048).saturating_mul(8))
            }
            Optimizer::Sgd => 0,
            Optimizer::SgdMomentum | Optimizer::Lion => n.saturating_mul(4),
            // Factored second moment for matrices, full for vectors (Shazeer & Stern 2018).
            Optimizer::Adafactor => {
                if rows > 1 && cols > 1 {
                    rows.saturating_add(cols).saturating_mul(experts).saturating_mul(4)
                } else {
                    n.saturating_mul(4)
                }
            }
        }
    }

    /// Whether its states are already 8-bit (pure BF16 training leaves them as they are).
    pub const fn is_8bit(self) -> bool {
        matches!(self, Optimizer::AdamW8bit | Optimizer::PagedAdamW8bit)
    }

    /// Whether states live in paged memory that can spill to the CPU.
    pub const fn is_paged(self) -> bool {
        matches!(self, Optimizer::PagedAdamW | Optimizer::PagedAdamW8bit)
    }
}

/// How full fine-tuning keeps its numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum TrainPrecision {
    /// Mixed precision, the seed guide's table: 16-bit weights and gradients, FP32 master copy
    /// (2 + 2 + 4 bytes + optimizer). With AdamW: 16 bytes per parameter (ZeRO's K = 12).
    #[default]
    Mixed,
    /// Mixed precision with FP32 gradients (transformers' documented 18 bytes with AdamW).
    MixedFp32Grads,
    /// Pure BF16: weights, gradients and optimizer states in BF16, no master copy (AdamW: 8).
    PureBf16,
    /// Everything in FP32 (AdamW: 4 + 4 + 8 = 16, no master copy).
    Fp32,
    /// Automatic mixed precision: FP32 weights, gradients and states, BF16 compute under
    /// autocast (PyTorch AMP, LitGPT's `bf16-mixed`, the Trainer's `bf16=True` on a model loaded
    /// in FP32): 4 + 4 + 8 bytes with AdamW, plus the BF16 copies autocast keeps of the weights
    /// for the backward pass.
    Amp,
}

impl TrainPrecision {
    /// Every recipe.
    pub const ALL: [TrainPrecision; 5] = [
        TrainPrecision::Mixed,
        TrainPrecision::MixedFp32Grads,
        TrainPrecision::PureBf16,
        TrainPrecision::Fp32,
        TrainPrecision::Amp,
    ];

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            TrainPrecision::Mixed => "mixed",
            TrainPrecision::MixedFp32Grads => "mixed-fp32-grads",
            TrainPrecision::PureBf16 => "pure-bf16",
            TrainPrecision::Fp32 => "fp32",
            TrainPrecision::Amp => "amp",
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `precision`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().replace('_', "-").as_str() {
            "mixed" => TrainPrecision::Mixed,
            "amp" | "bf16-mixed" | "fp16-mixed" | "autocast" => TrainPrecision::Amp,
            "mixed-fp32-grads" | "fp32-grads" => TrainPrecision::MixedFp32Grads,
            "pure-bf16" | "bf16" | "bf16-true" => TrainPrecision::PureBf16,
            "fp32" | "full" | "32-true" => TrainPrecision::Fp32,
            _ => {
                return Err(Error::invalid(
                    "precision",
                    format!(
                        "`{t}` is not a training precision; accepted: mixed amp mixed-fp32-grads pure-bf16 fp32"
                    ),
                ));
            }
        })
    }

    /// Bytes per parameter of (weights, gradients, master copy).
    pub const fn bytes(self) -> (u64, u64, u64) {
        match self {
            TrainPrecision::Mixed => (2, 2, 4),
            TrainPrecision::MixedFp32Grads => (2, 4, 4),
            TrainPrecision::PureBf16 => (2, 2, 0),
            TrainPrecision::Fp32 | TrainPrecision::Amp => (4, 4, 0),
        }
    }

    /// Bytes per value of FP32 optimizer states relative to FP32 (pure BF16 halves them; 8-bit
    /// states stay 8-bit).
    pub const fn state_divisor(self) -> u64 {
        match self {
            TrainPrecision::PureBf16 => 2,
            _ => 1,
        }
    }
}

/// Gradient (activation) checkpointing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Checkpointing {
    /// Keep every activation.
    #[default]
    None,
    /// PyTorch's selective activation checkpointing as torchtitan applies it (op level): keep
    /// every second matrix product's output and attention's, recompute the rest
    /// ([`saved::Saving::layer_sac`]). Until stop 41: Korthikanti et al.'s recomputation of the
    /// attention scores only, which flash attention never keeps anyway.
    Selective,
    /// Keep only each layer's input; recompute the layer in the backward pass.
    Full,
    /// Full checkpointing with each layer's input offloaded to CPU memory (Unsloth's
    /// `use_gradient_checkpointing="unsloth"`).
    Offloaded,
}

impl Checkpointing {
    /// Every mode.
    pub const ALL: [Checkpointing; 4] =
        [Checkpointing::None, Checkpointing::Selective, Checkpointing::Full, Checkpointing::Offloaded];

    /// Whether layers are recomputed in the backward pass.
    pub const fn recomputes(self) -> bool {
        matches!(self, Checkpointing::Full | Checkpointing::Offloaded)
    }

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            Checkpointing::None => "none",
            Checkpointing::Selective => "selective",
            Checkpointing::Full => "full",
            Checkpointing::Offloaded => "offloaded",
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `checkpointing`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().as_str() {
            "none" | "off" | "0" | "false" => Checkpointing::None,
            "selective" => Checkpointing::Selective,
            "full" | "on" | "1" | "true" => Checkpointing::Full,
            "offloaded" | "unsloth" | "offload" | "cpu" => Checkpointing::Offloaded,
            _ => {
                return Err(Error::invalid(
                    "checkpointing",
                    format!("`{t}` is not a checkpointing mode; accepted: none selective full offloaded"),
                ));
            }
        })
    }
}

/// What ZeRO offloads to the CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Offload {
    /// Nothing.
    #[default]
    None,
    /// Optimizer states and the FP32 master weights to CPU RAM (ZeRO-Offload; the optimizer step
    /// runs there). Gradients are counted on the GPU, where they are produced before each copy.
    Optimizer,
    /// The optimizer and, with ZeRO-3, the parameters (ZeRO-Infinity to CPU).
    OptimizerAndParams,
}

impl Offload {
    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            Offload::None => "none",
            Offload::Optimizer => "optimizer",
            Offload::OptimizerAndParams => "all",
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `offload`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().as_str() {
            "none" | "off" | "no" => Offload::None,
            "optimizer" | "opt" | "cpu" => Offload::Optimizer,
            "all" | "params" | "optimizer+params" => Offload::OptimizerAndParams,
            _ => {
                return Err(Error::invalid(
                    "offload",
                    format!("`{t}` is not an offload mode; accepted: none optimizer all"),
                ));
            }
        })
    }
}

/// A LoRA target: a kind of linear module inside the blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum LoraTarget {
    /// Query projection (or MLA's query projections).
    Q,
    /// Key projection.
    K,
    /// Value projection.
    V,
    /// Output projection.
    O,
    /// Fused query-key-value (Phi-3 `qkv_proj`, GPT-2 `c_attn`, GPT-NeoX, Falcon).
    Qkv,
    /// MLP gate projection.
    Gate,
    /// MLP up projection.
    Up,
    /// MLP down projection.
    Down,
    /// Fused gate-up projection (Phi-3 `gate_up_proj`).
    GateUp,
    /// The output head (`lm_head`, GPT-NeoX's `embed_out`); never part of `all-linear`.
    Head,
    /// The token embeddings (`embed_tokens`, `wte`): peft's LoRA embedding; never part of
    /// `all-linear`.
    Embed,
}

impl LoraTarget {
    /// Every target kind.
    pub const ALL: [LoraTarget; 11] = [
        LoraTarget::Q,
        LoraTarget::K,
        LoraTarget::V,
        LoraTarget::O,
        LoraTarget::Qkv,
        LoraTarget::Gate,
        LoraTarget::Up,
        LoraTarget::Down,
        LoraTarget::GateUp,
        LoraTarget::Head,
        LoraTarget::Embed,
    ];

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            LoraTarget::Q => "q",
            LoraTarget::K => "k",
            LoraTarget::V => "v",
            LoraTarget::O => "o",
            LoraTarget::Qkv => "qkv",
            LoraTarget::Gate => "gate",
            LoraTarget::Up => "up",
            LoraTarget::Down => "down",
            LoraTarget::GateUp => "gate_up",
            LoraTarget::Head => "lm_head",
            LoraTarget::Embed => "embed",
        }
    }

    fn parse_one(s: &str) -> Option<LoraTarget> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "q" | "q_proj" | "query" => LoraTarget::Q,
            "k" | "k_proj" | "key" => LoraTarget::K,
            "v" | "v_proj" | "value" => LoraTarget::V,
            "o" | "o_proj" | "out_proj" | "dense" | "c_proj" => LoraTarget::O,
            "qkv" | "qkv_proj" | "c_attn" | "query_key_value" | "attn" => LoraTarget::Qkv,
            "gate" | "gate_proj" | "w1" => LoraTarget::Gate,
            "up" | "up_proj" | "w3" | "c_fc" | "fc1" | "dense_h_to_4h" => LoraTarget::Up,
            "down" | "down_proj" | "w2" | "fc2" | "dense_4h_to_h" => LoraTarget::Down,
            "gate_up" | "gate_up_proj" => LoraTarget::GateUp,
            "lm_head" | "head" | "embed_out" | "output" => LoraTarget::Head,
            "embed" | "embed_tokens" | "wte" | "embed_in" | "tok_embeddings" | "word_embeddings" => {
                LoraTarget::Embed
            }
            _ => return None,
        })
    }
}

/// Which modules get adapters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum LoraTargets {
    /// Every linear layer of the blocks (peft's `all-linear`: not the output head).
    #[default]
    AllLinear,
    /// The listed kinds, sorted and deduplicated.
    Some(Vec<LoraTarget>),
}

impl LoraTargets {
    /// The id of the CLI and the link (`all-linear` or `q,v`).
    pub fn id(&self) -> alloc::string::String {
        match self {
            LoraTargets::AllLinear => "all-linear".into(),
            LoraTargets::Some(list) => list.iter().map(|t| t.id()).collect::<Vec<_>>().join(","),
        }
    }

    /// Parses `all-linear` or a comma-separated list (`q,v`, `q_proj,v_proj`, `c_attn`).
    ///
    /// # Errors
    /// [`Error::Invalid`] on `lora_targets`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("all-linear")
            || t.eq_ignore_ascii_case("all_linear")
            || t.eq_ignore_ascii_case("all")
        {
            return Ok(LoraTargets::AllLinear);
        }
        let mut list = Vec::new();
        for part in t.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match LoraTarget::parse_one(part) {
                Some(x) => list.push(x),
                None => {
                    return Err(Error::invalid(
                        "lora_targets",
                        format!(
                            "`{part}` is not a module kind; accepted: all-linear or a list of q k v o qkv gate up down gate_up lm_head embed"
                        ),
                    ));
                }
            }
        }
        if list.is_empty() {
            return Err(Error::invalid("lora_targets", "give at least one module kind, or all-linear"));
        }
        crate::sort::sort(&mut list);
        list.dedup();
        Ok(LoraTargets::Some(list))
    }

    fn covers(&self, role: Role) -> bool {
        let wanted = |t: LoraTarget| match self {
            LoraTargets::AllLinear => true,
            LoraTargets::Some(list) => list.contains(&t),
        };
        match role {
            Role::AttnQ | Role::AttnQA | Role::AttnQB => wanted(LoraTarget::Q) || wanted(LoraTarget::Qkv),
            Role::AttnK => wanted(LoraTarget::K) || wanted(LoraTarget::Qkv),
            Role::AttnV => wanted(LoraTarget::V) || wanted(LoraTarget::Qkv),
            // MLA's compressed key-value projections answer to k and v.
            Role::AttnKvA | Role::AttnKvB => wanted(LoraTarget::K) || wanted(LoraTarget::V),
            Role::AttnQkv => {
                wanted(LoraTarget::Qkv)
                    || wanted(LoraTarget::Q)
                    || wanted(LoraTarget::K)
                    || wanted(LoraTarget::V)
            }
            Role::AttnOut => wanted(LoraTarget::O),
            Role::FfnGate | Role::ExpGate | Role::ShGate => {
                wanted(LoraTarget::Gate) || wanted(LoraTarget::GateUp)
            }
            Role::FfnUp | Role::ExpUp | Role::ShUp => wanted(LoraTarget::Up) || wanted(LoraTarget::GateUp),
            Role::FfnGateUp => {
                wanted(LoraTarget::GateUp) || wanted(LoraTarget::Gate) || wanted(LoraTarget::Up)
            }
            Role::FfnDown | Role::ExpDown | Role::ShDown => wanted(LoraTarget::Down),
            // The head and the embeddings only when named: peft's all-linear leaves them out.
            Role::Output => matches!(self, LoraTargets::Some(l) if l.contains(&LoraTarget::Head)),
            Role::TokenEmbd => matches!(self, LoraTargets::Some(l) if l.contains(&LoraTarget::Embed)),
            // peft's all-linear takes every nn.Linear of the blocks, routers included.
            Role::Router | Role::ShExpGate => matches!(self, LoraTargets::AllLinear),
            // Recurrent mixers' and indexers' projections are linear layers too.
            Role::MixIn
            | Role::MixOut
            | Role::MixProj
            | Role::IdxQ
            | Role::IdxK
            | Role::IdxWeights
            | Role::MoeLatent
            | Role::Extra => {
                matches!(self, LoraTargets::AllLinear)
            }
            _ => false,
        }
    }
}

/// The tensors LoRA adapts: the blocks' linears (and routers, recurrent projections and
/// indexer weights under `all-linear`) that `targets` covers.
fn adapted_tensors(a: &Architecture, targets: &LoraTargets) -> Result<Vec<Tensor>> {
    let mut v: Vec<Tensor> = inventory(a)?
        .into_iter()
        .filter(|t| {
            (t.role.is_block_linear()
                || matches!(
                    t.role,
                    Role::Router
                        | Role::ShExpGate
                        | Role::MixProj
                        | Role::IdxWeights
                        | Role::Output
                        | Role::TokenEmbd
                ))
                && targets.covers(t.role)
        })
        .collect();
    // A tied head is still its own module (`lm_head`) for peft, sharing the embedding's weight.
    if a.tie_word_embeddings && targets.covers(Role::Output) {
        v.push(Tensor {
            role: Role::Output,
            layer: None,
            rows: a.vocab_size,
            cols: a.hidden_size,
            experts: 1,
        });
    }
    Ok(v)
}

/// DoRA's trainable magnitudes: one value per output row of every adapted matrix (peft's
/// `lora_magnitude_vector`), on top of [`lora_params`].
///
/// # Errors
/// [`Error::Invalid`] for a shape that does not validate.
pub fn dora_magnitudes(a: &Architecture, targets: &LoraTargets) -> Result<u64> {
    Ok(adapted_tensors(a, targets)?
        .iter()
        .map(|t| t.rows.saturating_mul(t.experts))
        .fold(0, u64::saturating_add))
}

/// Trainable LoRA parameters: `rank × (in + out)` for every targeted linear module (each routed
/// expert's matrices counted separately), as peft's `print_trainable_parameters` reports.
///
/// A fused module (Phi-3 `qkv_proj`, GPT-2 `c_attn`) is one module: targeting any of q, k or v
/// adapts it whole.
///
/// # Errors
/// [`Error::Invalid`] for a shape that does not validate or a rank of 0.
///
/// # Example
/// ```
/// use headroom_core::{catalog, training::{lora_params, LoraTargets}};
/// let a = catalog::model("llama-2-7b").unwrap().architecture().unwrap();
/// assert_eq!(lora_params(&a, 8, &LoraTargets::parse("q,v").unwrap()).unwrap(), 4_194_304);
/// ```
pub fn lora_params(a: &Architecture, rank: u64, targets: &LoraTargets) -> Result<u64> {
    if rank == 0 {
        return Err(Error::invalid("lora_rank", "must be at least 1"));
    }
    let mut total: u64 = 0;
    for t in adapted_tensors(a, targets)? {
        let per = rank.saturating_mul(t.rows.saturating_add(t.cols)).saturating_mul(t.experts);
        total = total.checked_add(per).ok_or(Error::Overflow { what: "LoRA parameters" })?;
    }
    if total == 0 {
        return Err(Error::invalid(
            "lora_targets",
            format!("none of {} exists in a {} model", targets.id(), a.family),
        ));
    }
    Ok(total)
}

/// Activation memory of one training step, per GPU, in bytes, after Korthikanti et al. 2022
/// ("Reducing Activation Recomputation in Large Transformer Models", Table 1 / Eq. 1), generalised:
///
/// * attention stores its input `2sbh`, Q `2s·b·q`, K and V `2s·b·kv` each, the output
///   projection's input `2s·b·q`; without flash attention the softmax output `2·a·s²·b` (plus
///   the dropout mask and its output `3·a·s²·b` when dropout is on); with flash attention only the
///   log-sum-exp `4·a·s·b`;
/// * a gated MLP stores its input `2sbh` and gate, activation, up and product `4 × 2s·b·i`; a plain
///   one `2sbh + 2 × 2s·b·i`; a MoE layer runs `top_k` experts per token plus the shared one and
///   keeps the router's FP32 logits;
/// * each norm stores its input `2sbh`; dropout masks `sbh` each when dropout is on.
///
/// With GPT-3's shapes and dropout this is exactly the paper's `sbh(34 + 5as/h)` per layer.
/// Selective recomputation drops the `s²` terms; full checkpointing keeps each layer's input
/// (`2sbh`) plus one layer's full activations. Tensor parallelism `t` divides everything but
/// the norm and dropout inputs, as in the paper (`sbh(10 + 24/t + 5as/(ht))`); sequence
/// parallelism would divide those too.
pub fn activation_bytes_per_layer(
    a: &Architecture,
    seq: u64,
    batch: u64,
    flash: bool,
    dropout: bool,
    selective: bool,
    tp: u64,
) -> f64 {
    a.groups
        .iter()
        .map(|g| layer_activation_bytes(a, g, seq, batch, (flash, dropout, selective), tp))
        .fold(0.0, f64::max)
}

/// Activations of every layer of the stack (each group's layers × its per-layer bytes).
pub fn stack_activation_bytes(
    a: &Architecture,
    seq: u64,
    batch: u64,
    flash: bool,
    selective: bool,
    tp: u64,
) -> f64 {
    a.groups
        .iter()
        .map(|g| g.count as f64 * layer_activation_bytes(a, g, seq, batch, (flash, false, selective), tp))
        .sum()
}

/// Activations of one layer of group `g`: its mixers and its feed-forward, by the rules of
/// [`activation_bytes_per_layer`]. A recurrent mixer (Mamba, Gated DeltaNet, short convolution)
/// keeps its input, its input projection's output, the convolution's output and its gated output
/// in 16 bits (`2s·b·(h + 2·in_rows + inner)`); its chunked scan keeps no `s²` term.
fn layer_activation_bytes(
    a: &Architecture,
    g: &LayerGroup,
    seq: u64,
    batch: u64,
    (flash, dropout, selective): (bool, bool, bool),
    tp: u64,
) -> f64 {
    let s = seq as f64;
    let b = batch as f64;
    let h = a.hidden_size as f64;
    let t = tp.max(1) as f64;
    let sbh = s * b * h;
    let mut split = 0.0;
    let mut repl = 0.0;
    for m in &g.mixers {
        let (q, kv, heads, attended) = match m {
            Mixer::Attention(st) => (
                st.q_width() as f64 * if st.output_gate { 2.0 } else { 1.0 },
                (st.kv_width() + st.v_width()) as f64 / 2.0,
                st.num_heads as f64,
                st.span.tokens(seq) as f64,
            ),
            Mixer::Mla(m) => {
                let qk = (m.qk_nope_head_dim + m.qk_rope_head_dim) as f64;
                (
                    m.num_heads as f64 * qk,
                    m.num_heads as f64 * (qk + m.v_head_dim as f64) / 2.0,
                    m.num_heads as f64,
                    m.indexer.as_ref().map_or(s, |ix| s.min(ix.topk as f64)),
                )
            }
            Mixer::Compressed(c) => (
                (c.num_heads * c.head_dim) as f64,
                c.head_dim as f64 / 2.0,
                c.num_heads as f64,
                c.attended(seq) as f64,
            ),
            Mixer::Kda(crate::model::KimiDeltaAttention { heads, head_dim, .. })
            | Mixer::Lightning(crate::model::LightningAttention { heads, head_dim, .. }) => {
                let w = (heads * head_dim) as f64;
                split += 2.0 * s * b * (2.0 * 3.0 * w + 2.0 * w);
                repl += 2.0 * sbh;
                continue;
            }
            Mixer::GatedDeltaNet(d) => {
                let kd = (d.key_heads * d.key_head_dim) as f64;
                let vd = (d.value_heads * d.value_head_dim) as f64;
                split += 2.0 * s * b * (2.0 * (2.0 * kd + 2.0 * vd) + 2.0 * vd);
                repl += 2.0 * sbh;
                continue;
            }
            Mixer::Mamba(mb) => {
                let inner = mb.inner as f64;
                let rows = (2 * mb.inner + 2 * mb.groups * mb.state + mb.heads) as f64;
                split += 2.0 * s * b * (2.0 * rows + inner);
                repl += 2.0 * sbh;
                continue;
            }
            Mixer::ShortConv(_) => {
                split += 2.0 * s * b * (2.0 * 3.0 * h + h);
                repl += 2.0 * sbh;
                continue;
            }
            Mixer::ConvState(_) => continue,
        };
        // Attention: input (replicated under TP), Q, K, V, output-projection input.
        split += 2.0 * s * b * q + 4.0 * s * b * kv + 2.0 * s * b * q;
        repl += 2.0 * sbh + if dropout { sbh } else { 0.0 };
        if flash {
            split += 4.0 * heads * s * b;
        } else if !selective {
            split +=
                2.0 * heads * attended * s * b + if dropout { 3.0 * heads * attended * s * b } else { 0.0 };
        }
    }
    // Feed-forward.
    match &g.ffn {
        Ffn::Moe(m) => {
            let k = m.experts_per_token as f64;
            let ie = m.expert_intermediate as f64;
            let is = m.shared_intermediate as f64;
            let per = if m.gated { 8.0 } else { 4.0 };
            // Each token's copy to its k experts, their activations, the shared expert, FP32 router logits.
            split +=
                k * (2.0 * sbh + per * s * b * ie) + per * s * b * is + 4.0 * s * b * m.num_experts as f64;
            repl += 2.0 * sbh;
        }
        Ffn::Dense(mlp) => {
            let i = mlp.intermediate_size as f64;
            split += if mlp.gated { 8.0 * s * b * i } else { 4.0 * s * b * i };
            repl += 2.0 * sbh + if dropout { sbh } else { 0.0 };
        }
        Ffn::None => {}
    }
    let norms = g.norms as f64 * 2.0 * sbh;
    split / t + repl + norms
}

/// Bytes of the logits and the loss's buffers: `batch × sequence × vocabulary` FP32 logits and
/// their FP32 gradient (the loss upcasts the 16-bit logits), which dominate for large vocabularies.
pub fn logits_bytes(a: &Architecture, seq: u64, batch: u64, tp: u64) -> f64 {
    8.0 * seq as f64 * batch as f64 * a.vocab_size as f64 / tp.max(1) as f64
}

/// Parameters of the largest layer (DeepSpeed's `largest_layer_params`): the biggest single
/// tensor, which ZeRO-3 gathers whole.
pub fn largest_layer_params(a: &Architecture) -> Result<u64> {
    Ok(inventory(a)?.iter().map(Tensor::elements).max().unwrap_or(0))
}

/// DeepSpeed's own estimate of model-state memory per GPU and per node's CPU, in bytes
/// (`estimate_zero2_model_states_mem_needs` and `estimate_zero3_model_states_mem_needs`,
/// `docs/code-docs/source/memory.rst`): reproduced so its worked examples can be checked.
///
/// * ZeRO-2: GPU `4P + 16P/N` (no offload) or `2P` (optimizer offload); CPU per node
///   `4P·gpus_per_node·1.5` or `P·max(4N, 16)·1.5`.
/// * ZeRO-3: GPU `4·LL + 18P/N` (no offload), `4·LL + 2P/N` (optimizer offload), `4·LL`
///   (optimizer and parameter offload); CPU per node with `zero_init` `4P·gpus_per_node/nodes·1.5`
///   (DeepSpeed's `zero_init=True` case).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepSpeedEstimate {
    /// Bytes per GPU.
    pub gpu: f64,
    /// Bytes of CPU memory per node.
    pub cpu: f64,
}

/// See [`DeepSpeedEstimate`].
pub fn deepspeed_estimate(
    params: u64,
    largest_layer: u64,
    stage: u8,
    gpus_per_node: u64,
    nodes: u64,
    offload: Offload,
) -> DeepSpeedEstimate {
    let p = params as f64;
    let ll = largest_layer as f64;
    let n = (gpus_per_node * nodes).max(1) as f64;
    let g = gpus_per_node as f64;
    let nodes = nodes.max(1) as f64;
    let buffer = 1.5;
    match (stage, offload) {
        (0..=2, Offload::None) => {
            DeepSpeedEstimate { gpu: 4.0 * p + 16.0 * p / n, cpu: p * 4.0 * g * buffer }
        }
        (0..=2, _) => DeepSpeedEstimate { gpu: 2.0 * p, cpu: p * (4.0 * n).max(16.0) * buffer },
        (_, Offload::None) => {
            DeepSpeedEstimate { gpu: 4.0 * ll + 18.0 * p / n, cpu: p * 4.0 * g / nodes * buffer }
        }
        (_, Offload::Optimizer) => {
            DeepSpeedEstimate { gpu: 4.0 * ll + 2.0 * p / n, cpu: p * 16.0 / nodes * buffer }
        }
        (_, Offload::OptimizerAndParams) => {
            DeepSpeedEstimate { gpu: 4.0 * ll, cpu: p * 18.0 / nodes * buffer }
        }
    }
}

/// Training FLOPs per token: 6 × N (forward 2N, backward 4N) for full fine-tuning, 8 × N with
/// full recomputation (one more forward) of every layer, `2N/k` more when one layer in `k` is
/// checkpointed, N more with PyTorch's per-operation selective checkpointing (every second matrix
/// product recomputed); LoRA and QLoRA skip the frozen weights' gradients: 4 × N plus the same
/// recomputation. N is the active parameter count (Kaplan et al. 2020; EleutherAI's Transformer
/// Math 101).
pub fn flops_per_token(mode: Mode, active_params: u64, checkpointing: Checkpointing, every: u64) -> f64 {
    let n = active_params as f64;
    let recompute = match checkpointing {
        Checkpointing::Full => 2.0 / every.max(1) as f64,
        Checkpointing::Selective => 1.0,
        _ => 0.0,
    };
    match mode {
        Mode::Inference => 2.0 * n,
        Mode::Full => (6.0 + recompute) * n,
        Mode::Lora | Mode::Qlora => (4.0 + recompute) * n,
    }
}

/// Everything a training estimate depends on besides the model.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingSetup {
    /// Full, LoRA or QLoRA.
    pub mode: Mode,
    /// The optimizer.
    pub optimizer: Optimizer,
    /// Full fine-tuning's precision recipe.
    pub precision: TrainPrecision,
    /// LoRA rank.
    pub lora_rank: u64,
    /// LoRA target modules.
    pub lora_targets: LoraTargets,
    /// Activation checkpointing.
    pub checkpointing: Checkpointing,
    /// ZeRO stage, 0–3.
    pub zero: u8,
    /// ZeRO offload to the CPU.
    pub offload: Offload,
    /// GPUs in all: `gpus / tp` data-parallel replicas of `tp` GPUs each.
    pub gpus: u64,
    /// Tensor-parallel degree (splits every layer across this many GPUs of each replica).
    pub tp: u64,
    /// Tokens per sequence.
    pub seq: u64,
    /// Sequences per GPU per step (micro-batch).
    pub micro_batch: u64,
    /// Flash attention.
    pub flash: bool,
    /// GPUs per node, for per-node CPU memory.
    pub gpus_per_node: u64,
    /// A bare parameter count standing in for the architecture's own: per-parameter states use
    /// it, shape-dependent terms come from the architecture (scaled for LoRA adapters).
    pub params_override: Option<u64>,
    /// How the framework runs the step.
    pub opts: TrainOptions,
    /// The step runs on the CPU: PyTorch's CPU dropout keeps its noise in the input's dtype
    /// (CUDA keeps a one-byte mask), and there is no CUDA context.
    pub cpu: bool,
}

/// What one GPU of a training run sends to the others and to the CPU, for the time estimate
/// (`crate::speed::training_time`). Sizes are whole (before a collective's `(n−1)/n`), of one
/// tensor-parallel shard.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Traffic {
    /// GPUs that exchange gradients (data-parallel replicas: `gpus / tp`; 1 under `device_map`).
    pub dp: u64,
    /// Tensor-parallel degree.
    pub tp: u64,
    /// ZeRO stage (FSDP's full shard is 3).
    pub zero: u8,
    /// The trained parameters' gradients, in the dtype they are produced: reduced across the
    /// replicas once per optimizer step (DDP, ZeRO 0–1, under gradient accumulation's
    /// `no_sync`), or reduce-scattered after every micro-batch (ZeRO 2–3, FSDP).
    pub grad_bytes: f64,
    /// ZeRO-1 and 2: the updated 16-bit trained weights, all-gathered after each optimizer step.
    pub step_gather_bytes: f64,
    /// ZeRO-3 and FSDP: the weights gathered whole before each forward and each backward pass of
    /// every micro-batch, in the dtype they are gathered.
    pub gather_bytes: f64,
    /// Tensor parallelism: all-reduces (or reduce-scatter and all-gather pairs under sequence
    /// parallelism) per micro-batch — two per layer forward, two backward, two more when layers
    /// are recomputed —, and the bytes of each (`micro-batch × tokens × hidden`, BF16).
    pub tp_collectives: f64,
    /// Bytes of each tensor-parallel collective.
    pub tp_bytes: f64,
    /// ZeRO-Offload: bytes each GPU copies over PCIe per optimizer step (its gradients out, its
    /// updated 16-bit weights back).
    pub offload_step_bytes: f64,
    /// ZeRO-Offload: bytes the CPU optimizer reads and writes per GPU per step
    /// ([`CPU_ADAM_BYTES_PER_PARAM`] per trained parameter of the GPU's partition).
    pub offload_cpu_bytes: f64,
    /// ZeRO-Infinity and FSDP's CPU offload: bytes each GPU fetches over PCIe per micro-batch
    /// (its weights' shard twice, its gradients out when FSDP offloads them).
    pub offload_micro_bytes: f64,
}

/// Bytes DeepSpeed's CPU Adam moves per parameter at each step: it reads the FP32 gradient,
/// master weight and two moments (16 B) and writes the three back with the 16-bit copy sent to
/// the GPU (14 B) — one pass at the host's memory bandwidth.
pub const CPU_ADAM_BYTES_PER_PARAM: f64 = 30.0;

/// Training memory per GPU and per node, and what the run trains.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingMemory {
    /// Terms per GPU.
    pub gpu: Vec<Term>,
    /// Terms of CPU memory per node (offloaded states), possibly empty.
    pub host: Vec<Term>,
    /// Parameters the optimizer updates.
    pub trainable: u64,
    /// Bytes of a checkpoint of the trained weights (16-bit full weights, or the adapters).
    pub checkpoint: u64,
    /// Bytes of a resumable checkpoint: weights plus master copy and optimizer states.
    pub checkpoint_with_optimizer: u64,
    /// DeepSpeed ZeRO's gradient buckets, in the gradients term, when they apply.
    pub zero_buckets: Option<ZeroBuckets>,
    /// What a GPU sends to the others and to the CPU.
    pub traffic: Traffic,
}

/// The largest `reduce_bucket_size` accepted, in elements.
pub const MAX_BUCKET: u64 = 1 << 40;

/// Reads a `reduce_bucket_size`: `auto` (0: the Trainer's `hidden²`), a count of elements, or one
/// written as DeepSpeed configs write it (`5e8`, `2e8`, `500000000`).
///
/// # Errors
/// [`Error::Invalid`] on `reduce_bucket_size` for anything else, or a count of 0 or above 2^40.
pub fn parse_bucket(s: &str) -> Result<u64> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("auto") {
        return Ok(0);
    }
    let n = crate::number::parse_number(t, crate::text::Lang::En, crate::number::Quantity::Params).map_err(
        |e| Error::invalid("reduce_bucket_size", format!("`{t}`: {}", e.message(crate::text::Lang::En))),
    )?;
    if n == 0 || n > MAX_BUCKET {
        return Err(Error::invalid(
            "reduce_bucket_size",
            format!("{n} is out of range; use 1 to {MAX_BUCKET} elements, or auto"),
        ));
    }
    Ok(n)
}

/// DeepSpeed ZeRO's gradient-reduction buckets on each GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ZeroBuckets {
    /// Buffers of `reduce_bucket_size` elements held through the backward pass.
    pub buffers: u64,
    /// `reduce_bucket_size` in effect, in elements.
    pub elements: u64,
    /// Bytes held.
    pub held: Bytes,
    /// Bytes of the flat copies a reduction makes for a moment (the band's top).
    pub scratch: Bytes,
}

/// DeepSpeed's gradient buckets (read in DeepSpeed 0.19's `stage_1_and_2.py` and `stage3.py`):
/// with `contiguous_gradients` (on by default) stages 1 and 2 copy each gradient into an
/// "independent partition gradient" buffer of `reduce_bucket_size` elements in the gradients'
/// dtype — two with `overlap_comm`, which stage 3 turns on by default and stages 1–2 leave off —
/// and stage 3 keeps one; each reduction copies up to a bucket more for a moment. The size is the
/// Trainer's `"auto"`, `hidden²` (transformers' `trainer_config_finalize`), unless set
/// (`reduce_bucket_size`; DeepSpeed's own default is 5e8). Hugging Face's documentation still
/// says `overlap_comm` takes 4.5× the bucket sizes; that was DeepSpeed before 0.4.0 (May 2021).
pub fn zero_buckets(a: &Architecture, stage: u8, o: &TrainOptions, grad_dtype: u64) -> ZeroBuckets {
    let elements =
        if o.reduce_bucket > 0 { o.reduce_bucket } else { a.hidden_size.saturating_mul(a.hidden_size) };
    let overlap = o.overlap_comm.unwrap_or(stage >= 3);
    let buffers = if stage >= 3 { 1 } else { 1 + u64::from(overlap) };
    let bucket = elements.saturating_mul(grad_dtype);
    ZeroBuckets {
        buffers,
        elements,
        held: Bytes::new(bucket.saturating_mul(buffers)),
        scratch: Bytes::new(bucket.saturating_mul(1 + u64::from(overlap))),
    }
}

fn term(kind: TermKind, bytes: f64, band: (f64, f64), formula: Msg, assumptions: Vec<Msg>) -> Term {
    let b = Bytes::new(crate::ops::ceil_u64(bytes).unwrap_or(u64::MAX));
    if band == (1.0, 1.0) {
        Term::exact(kind, b, formula, assumptions)
    } else {
        Term { kind, bytes: b, low: b.scale(band.0), high: b.scale(band.1), formula, assumptions }
    }
}

/// Training memory: the seed guide's components per GPU, then ZeRO's partitioning, then the
/// step's peak as the framework runs it.
///
/// Full fine-tuning keeps weights, gradients, an FP32 master copy and optimizer states (the
/// seed's 2 + 2 + 4 + 8 = 16 bytes per parameter with mixed-precision AdamW); ZeRO-1 partitions
/// the master copy and optimizer states over the data-parallel GPUs, ZeRO-2 also the gradients,
/// ZeRO-3 also the weights (plus the largest layer gathered whole) — Rajbhandari et al. 2020,
/// Figure 1. Offload moves the partitioned states (and with ZeRO-3 the weights; FSDP's offload
/// the gradients too) to CPU memory. LoRA keeps the frozen base at its format (QLoRA: NF4 with
/// double quantization, the unquantized parameters FP32 after peft's k-bit preparation) and
/// trains adapters with their gradients and optimizer states.
///
/// The activations are what autograd keeps ([`saved`]); the peak is the largest of three
/// moments: the end of the forward pass (autocast's weight copies, the loss being built), the
/// start of the backward pass (the loss's gradients) and a recomputed layer. With one micro-batch
/// per step and no ZeRO, the gradients are built only as the activations are freed (they are set
/// to None after each step): the activations term counts only what exceeds them.
///
/// # Errors
/// [`Error::Invalid`] for settings that do not apply (ZeRO stage above 3, rank 0, absent
/// targets), [`Error::Overflow`] for absurd sizes.
pub fn training_memory(
    a: &Architecture,
    base_format: WeightFormat,
    s: &TrainingSetup,
) -> Result<TrainingMemory> {
    if s.zero > 3 {
        return Err(Error::invalid("zero", format!("ZeRO stage {} does not exist; use 0 to 3", s.zero)));
    }
    let o = &s.opts;
    if o.ulysses > 1 {
        // Ulysses hands each GPU whole sequences of `heads / ulysses` heads.
        for g in &a.groups {
            for m in &g.mixers {
                let heads = match m {
                    Mixer::Attention(st) => st.num_heads,
                    Mixer::Mla(ml) => ml.num_heads,
                    Mixer::Compressed(cm) => cm.num_heads,
                    _ => continue,
                };
                if heads % o.ulysses != 0 {
                    return Err(Error::invalid(
                        "ulysses",
                        format!(
                            "Ulysses splits the attention heads over its GPUs: {heads} heads do not divide by {}; use a degree that divides {heads}",
                            o.ulysses
                        ),
                    ));
                }
            }
        }
    }
    // `gpus` counts every GPU; each replica spans `tp` of them, so ZeRO partitions over the
    // data-parallel degree `gpus / tp`.
    let t = s.tp.max(1) as f64;
    // device_map (model parallelism): one replica whose layers are split over the GPUs.
    let pp = if o.device_map { (s.gpus / s.tp.max(1)).max(1) as f64 } else { 1.0 };
    let n = if o.device_map { 1.0 } else { (s.gpus / s.tp.max(1)).max(1) as f64 };
    let tensors = inventory(a)?;
    let arch_total: u64 = tensors.iter().map(Tensor::elements).fold(0, u64::saturating_add);
    let p_total: u64 = s.params_override.unwrap_or(arch_total);
    let p = p_total as f64;
    let scale = p / arch_total.max(1) as f64;
    let shard = |stage: u8| if s.zero >= stage { n } else { 1.0 };
    let offload_states = s.offload != Offload::None && s.zero >= 1;
    let offload_params = s.offload == Offload::OptimizerAndParams && s.zero >= 3;
    // FSDP's CPU offload keeps parameters and gradients in CPU memory and steps there.
    let offload_grads = offload_params && o.framework == Framework::Fsdp;
    let largest = tensors.iter().map(Tensor::elements).max().unwrap_or(0) as f64;
    let elems = |f: &dyn Fn(&Tensor) -> bool| -> f64 {
        tensors.iter().filter(|x| f(x)).map(|x| x.elements() as f64).sum::<f64>() * scale
    };
    // Matrices multiplied with activations: the blocks' linears and the head (the tied
    // embedding when there is none).
    let head_elems = if a.tie_word_embeddings {
        elems(&|x| x.role == Role::TokenEmbd)
    } else {
        elems(&|x| x.role == Role::Output)
    };
    let matmul_elems = elems(&|x| x.role.is_block_linear()) + head_elems;
    let layers = a.num_layers().max(1) as f64;
    // The largest layer's parameters (what ZeRO-3 and FSDP gather at a time).
    let block_elems = {
        let mut per_layer: Vec<f64> = Vec::new();
        for x in tensors.iter() {
            if let Some(l) = x.layer {
                let l = l as usize;
                if per_layer.len() <= l {
                    per_layer.resize(l + 1, 0.0);
                }
                per_layer[l] += x.elements() as f64;
            }
        }
        per_layer.into_iter().fold(0.0, f64::max) * scale
    };
    let mut gpu = Vec::new();
    let mut host = Vec::new();
    let mut host_per_gpu = 0.0;
    let mut act_assume: Vec<Msg> = Vec::new();
    let zero_note = |v: &mut Vec<Msg>| {
        if s.zero > 0 {
            v.push(Msg::new(
                MsgId::AssumeZero,
                vec![Arg::Int(u64::from(s.zero)), Arg::Int((s.gpus / s.tp.max(1)).max(1))],
            ));
        }
    };
    let trainable;
    let checkpoint;
    let checkpoint_with_optimizer;
    // (gradients, the 16-bit trained weights, the weights ZeRO-3 gathers), whole, of one
    // tensor-parallel shard.
    let traffic_sizes: (f64, f64, f64);
    // How activations are kept: compute and residual dtypes, autocast, adapters.
    let (c, e, autocast);
    // BF16 copies of FP32 weights autocast makes for the matmuls: (all of them at the end of the
    // forward pass, those still held by the backward pass).
    let mut copies = (0.0, 0.0);
    let grads_bytes;
    let mut head_grad = 0.0;
    let mut tied_grad = 0.0;
    // Bytes a dequantizing kernel materialises for one matrix at a time.
    let mut workspace = 0.0;
    match s.mode {
        Mode::Inference => return Err(Error::invalid("mode", "inference is not a training mode")),
        Mode::Full => {
            let (wb, gb, mb) = s.precision.bytes();
            // Every parameter but those built frozen (HRM-Text's initial state).
            let frozen: u64 = tensors.iter().filter(|x| x.role == Role::Frozen).map(Tensor::elements).sum();
            trainable = p_total.saturating_sub(frozen);
            c = if s.precision == TrainPrecision::Fp32 { 4.0 } else { 2.0 };
            autocast = s.precision == TrainPrecision::Amp;
            e = if wb == 4 { 4.0 } else { 2.0 };
            if autocast {
                // Autocast caches one BF16 copy of each trained weight for the whole forward
                // pass; the matmuls keep theirs for the backward pass.
                let all = 2.0 * matmul_elems / t / shard(3);
                let head_copy = 2.0 * head_elems / t / shard(3);
                let held = if s.checkpointing == Checkpointing::None {
                    all
                } else {
                    (all - head_copy) / layers + head_copy
                };
                copies = (all, held);
            }
            // The head's gradient is the backward pass's first (with its BF16 product under
            // autocast); a tied embedding's dense gradient is added to it at the very end.
            head_grad = head_elems * (gb as f64 + if autocast { 2.0 } else { 0.0 }) / t / shard(2);
            if a.tie_word_embeddings {
                tied_grad = head_elems * gb as f64 / t / shard(2);
            }
            // Weights.
            let mut w = p * wb as f64 / t / shard(3);
            let mut w_assume =
                vec![Msg::new(MsgId::AssumeTrainPrecision, vec![Arg::Text(s.precision.id().into())])];
            zero_note(&mut w_assume);
            if s.zero >= 3 {
                // ZeRO-3 and FSDP gather a whole layer's parameters while it runs and prefetch the
                // next one: two layers, or the largest single tensor (an embedding outside the
                // layers) when that is bigger, all in the compute dtype.
                let gathered_elems =
                    (2.0 * block_elems).max(largest * if s.params_override.is_some() { scale } else { 1.0 });
                // FSDP2 with float8 training gathers the linears' weights in FP8
                // (`enable_fsdp_float8_all_gather`, torchtitan's float8 setting).
                let gathered_bytes = if o.fp8 && o.framework == Framework::Fsdp { 1 } else { wb.min(2) };
                let gathered = gathered_bytes as f64 * gathered_elems / t;
                w += gathered;
                w_assume.push(Msg::new(MsgId::AssumeZero3Gather, vec![Arg::Int(gathered_elems as u64)]));
                if offload_params {
                    host_per_gpu += p * wb as f64 / t / n;
                    w = gathered;
                }
            }
            gpu.push(term(
                TermKind::Weights,
                w,
                (1.0, 1.0),
                Msg::new(MsgId::TrainWeights, vec![Arg::Int(p_total), Arg::Int(wb)]),
                w_assume,
            ));
            // Gradients: the whole buffer, one tensor's with the optimizer in the backward pass,
            // none on the GPU under FSDP's offload.
            let mut g = p * gb as f64 / t / shard(2);
            let mut g_assume = Vec::new();
            if s.zero >= 3 {
                // A layer's gradients are whole until they are reduce-scattered.
                g += gb as f64 * block_elems / t;
                g_assume.push(Msg::new(MsgId::AssumeZero3Reduce, vec![Arg::Int(block_elems as u64)]));
            }
            if o.optimizer_in_backward {
                g = gb as f64 * largest * scale.min(1.0) / t;
                g_assume.push(Msg::new(MsgId::AssumeOptimizerInBackward, vec![]));
            }
            if offload_grads {
                host_per_gpu += g;
                g = 0.0;
            }
            grads_bytes = g;
            let gathered_dtype = if o.fp8 && o.framework == Framework::Fsdp { 1 } else { wb.min(2) };
            traffic_sizes = (p * gb as f64 / t, p * wb.min(2) as f64 / t, p * gathered_dtype as f64 / t);
            gpu.push(term(
                TermKind::Gradients,
                g,
                (1.0, 1.0),
                Msg::new(MsgId::TrainGradients, vec![Arg::Int(p_total), Arg::Int(gb)]),
                g_assume,
            ));
            // Master copy and optimizer states.
            let m = p * mb as f64 / t / shard(1);
            let state: u64 = match s.params_override {
                // No shapes: every parameter priced as one value of state.
                Some(n) => s.optimizer.state_bytes(n, 1, 1),
                None => tensors
                    .iter()
                    .map(|x| s.optimizer.state_bytes(x.rows, x.cols, x.experts))
                    .fold(0, u64::saturating_add),
            } / if s.optimizer.is_8bit() { 1 } else { s.precision.state_divisor() };
            let ob = state as f64 / t / shard(1);
            if offload_states {
                host_per_gpu += m + ob;
            }
            if mb > 0 {
                gpu.push(term(
                    TermKind::MasterWeights,
                    if offload_states { 0.0 } else { m },
                    (1.0, 1.0),
                    Msg::new(MsgId::TrainMaster, vec![Arg::Int(p_total)]),
                    vec![],
                ));
            }
            gpu.push(optimizer_term(
                s,
                if offload_states { 0.0 } else { ob },
                p_total,
                state as f64 / p_total.max(1) as f64,
            ));
            checkpoint = p_total.saturating_mul(2);
            checkpoint_with_optimizer = p_total.saturating_mul(wb + mb).saturating_add(state);
        }
        Mode::Lora | Mode::Qlora => {
            let rank = s.lora_rank;
            let mut exact = lora_params(a, rank, &s.lora_targets)?;
            if o.dora {
                exact = exact.saturating_add(dora_magnitudes(a, &s.lora_targets)?);
            }
            trainable = if s.params_override.is_some() { (exact as f64 * scale) as u64 } else { exact };
            let qlora = s.mode == Mode::Qlora;
            let base = if qlora { WeightFormat::Nf4 { double_quant: true } } else { base_format };
            let base_bytes = match s.params_override {
                Some(n) => n as f64 * base.flat_bits_per_weight().bytes_per_weight(),
                None => crate::tensors::weight_bytes(a, base)?.total().get() as f64,
            };
            let mut w = base_bytes / t / shard(3);
            let mut w_assume = Vec::new();
            if s.zero >= 3 {
                // The running layer and the prefetched one, gathered whole in the base's format.
                let gathered = 2.0 * block_elems;
                let gathered_bytes = gathered * base.flat_bits_per_weight().bytes_per_weight() / t;
                w_assume.push(Msg::new(MsgId::AssumeZero3Gather, vec![Arg::Int(gathered as u64)]));
                if offload_params {
                    // The frozen shards wait in CPU memory (FSDP's CPU offload, ZeRO-Infinity).
                    host_per_gpu += w;
                    w = gathered_bytes;
                    w_assume.push(Msg::new(MsgId::AssumeOffloaded, vec![]));
                } else {
                    w += gathered_bytes;
                }
            }
            let fp32_base = !qlora && base == WeightFormat::F32;
            // The residual stream is FP32 when the embeddings are (an FP32 base, or QLoRA's
            // k-bit preparation), and the step runs under autocast then.
            c = 2.0;
            if qlora {
                w_assume.push(Msg::new(MsgId::AssumeQloraBase, vec![]));
                // bitsandbytes dequantizes one matrix at a time to the compute dtype.
                let biggest_linear = tensors
                    .iter()
                    .filter(|x| x.role.is_block_linear())
                    .map(|x| (x.rows * x.cols) as f64)
                    .fold(0.0, f64::max);
                workspace = 2.0 * biggest_linear;
                if o.kbit_upcast {
                    let kept = elems(&|x| !x.role.is_block_linear() && x.role != Role::Router);
                    w += 2.0 * kept / t / shard(3);
                    w_assume.push(Msg::new(MsgId::AssumeKbitUpcast, vec![Arg::Int(kept as u64)]));
                }
                autocast = true;
                e = if o.kbit_upcast { 4.0 } else { 2.0 };
                if o.kbit_upcast {
                    // The FP32 head runs under autocast: its BF16 cast is kept for the backward
                    // pass, with or without checkpointing.
                    let head_copy = 2.0 * head_elems / t / shard(3);
                    copies = (head_copy, head_copy);
                }
            } else {
                autocast = fp32_base;
                e = if fp32_base { 4.0 } else { 2.0 };
                if fp32_base {
                    // Frozen FP32 weights are cast per matmul; each cast is kept for the
                    // backward pass (no autocast cache for frozen weights).
                    let all = 2.0 * matmul_elems / t / shard(3);
                    let head_copy = 2.0 * head_elems / t / shard(3);
                    let held = if s.checkpointing == Checkpointing::None {
                        all
                    } else {
                        (all - head_copy) / layers + head_copy
                    };
                    copies = (held, held);
                    w_assume.push(Msg::new(MsgId::AssumeAutocastBase, vec![]));
                }
            }
            gpu.push(term(
                TermKind::Weights,
                w,
                (1.0, 1.0),
                Msg::new(MsgId::TrainFrozenBase, vec![Arg::Int(p_total), Arg::Text(base.label())]),
                w_assume,
            ));
            let pt = trainable as f64;
            let ab = if o.adapters_fp32 { 4.0 } else { 2.0 };
            gpu.push(term(
                TermKind::Adapters,
                pt * ab / t / shard(3),
                (1.0, 1.0),
                Msg::new(
                    MsgId::TrainAdapters,
                    vec![Arg::Int(trainable), Arg::Int(rank), Arg::Text(s.lora_targets.id())],
                ),
                vec![Msg::new(
                    if o.adapters_fp32 { MsgId::AssumeAdaptersFp32 } else { MsgId::AssumeAdaptersBf16 },
                    vec![],
                )],
            ));
            let g = pt * ab / t / shard(2);
            grads_bytes = g;
            traffic_sizes = (pt * ab / t, pt * ab / t, (base_bytes + pt * ab) / t);
            gpu.push(term(
                TermKind::Gradients,
                g,
                (1.0, 1.0),
                Msg::new(MsgId::TrainGradients, vec![Arg::Int(trainable), Arg::Int(ab as u64)]),
                vec![],
            ));
            // Adapter states: A is rank × in, B is out × rank; for these thin matrices Adafactor
            // factors nothing worth counting, so all optimizers are priced per value. torch's
            // optimizers keep their states in the parameters' dtype.
            let state = s.optimizer.state_bytes(trainable, 1, 1) as f64
                / if o.adapters_fp32 || s.optimizer.is_8bit() { 1.0 } else { 2.0 };
            let ob = state / t / shard(1);
            if offload_states {
                host_per_gpu += ob;
            }
            gpu.push(optimizer_term(
                s,
                if offload_states { 0.0 } else { ob },
                trainable,
                state / trainable.max(1) as f64,
            ));
            checkpoint = trainable.saturating_mul(ab as u64);
            checkpoint_with_optimizer = checkpoint.saturating_add(state as u64);
        }
    }

    // DeepSpeed ZeRO's gradient-reduction buckets (FSDP reduces per layer, counted above).
    let mut buckets = None;
    if s.zero >= 1
        && o.framework != Framework::Fsdp
        && let Some(g) = gpu.iter_mut().find(|x| x.kind == TermKind::Gradients)
    {
        let grad_dtype = match s.mode {
            Mode::Full => s.precision.bytes().1,
            _ => {
                if o.adapters_fp32 {
                    4
                } else {
                    2
                }
            }
        };
        let b = zero_buckets(a, s.zero, o, grad_dtype);
        buckets = Some(b);
        g.bytes = g.bytes.saturating_add(b.held);
        g.low = g.low.saturating_add(b.held);
        g.high = g.high.saturating_add(b.held).saturating_add(b.scratch);
        g.assumptions.push(Msg::new(
            MsgId::AssumeZeroBuckets,
            vec![Arg::Int(b.buffers), Arg::Int(b.elements), Arg::Int(grad_dtype), Arg::Size(b.scratch)],
        ));
    }

    if pp > 1.0 {
        // Each GPU holds its share of the layers' states; the busiest (the last, with the head
        // and the loss) is shown.
        for x in &mut gpu {
            x.bytes = x.bytes.scale(1.0 / pp);
            x.low = x.low.scale(1.0 / pp);
            x.high = x.high.scale(1.0 / pp);
            x.assumptions.push(Msg::new(MsgId::AssumeDeviceMap, vec![Arg::Int(pp as u64)]));
        }
        copies = (copies.0 / pp, copies.1 / pp);
    }
    let grads_bytes = grads_bytes / pp;

    // Activations: what autograd keeps, at the step's peak.
    let lora = if s.mode == Mode::Full {
        None
    } else {
        Some(saved::LoraSaving {
            targets: &s.lora_targets,
            dropout: o.lora_dropout,
            cpu_noise: s.cpu,
            adapter_bytes: if o.adapters_fp32 { 4.0 } else { 2.0 },
            rank: s.lora_rank as f64,
        })
    };
    let mlp_c = if s.mode == Mode::Qlora && o.kbit_upcast { 4.0 } else { c };
    let saving = saved::Saving {
        c,
        e,
        autocast,
        mlp_c,
        full: s.mode == Mode::Full,
        lora,
        flash: s.flash,
        compiled: o.compile,
    };
    // Context parallelism (ring attention) and Ulysses split each sequence's tokens over
    // `cp × ulysses` GPUs.
    let tokens = (s.seq * s.micro_batch) as f64 / (o.cp.max(1) * o.ulysses.max(1)) as f64;
    let h = a.hidden_size as f64;
    // Tensor parallelism divides a layer's heads and intermediate widths; its `hidden`-wide
    // tensors (norms, the residual stream the projections read) only with sequence parallelism.
    let split_sp = o.sequence_parallel || t <= 1.0;
    let per_gpu = |sv: &saved::Saving, g: &LayerGroup| {
        let all = sv.layer(a, g, s.seq);
        if split_sp {
            all / t
        } else {
            let wide = sv.hidden_wide(a, g);
            (all - wide) / t + wide
        }
    };
    // Bytes per token of every layer, of the largest one, and of the same without the s² terms.
    // Layers run without gradients (HRM-Text's early low cycles) keep nothing.
    let grad_layers = a.grad_layers();
    let per_layer: Vec<(f64, f64)> =
        a.groups.iter().zip(&grad_layers).map(|(g, n)| (*n as f64, per_gpu(&saving, g))).collect();
    let stack_full: f64 = per_layer.iter().map(|(k, b)| k * b).sum::<f64>() * tokens;
    let one_layer = per_layer.iter().map(|(_, b)| *b).fold(0.0, f64::max) * tokens;
    // Each layer's input, kept by checkpointing: split along the sequence only with sequence
    // parallelism.
    let kept_layers = grad_layers.iter().sum::<u64>() as f64;
    let layer_inputs = kept_layers * e * h * tokens / if o.sequence_parallel { t } else { 1.0 };
    // Every `k`-th layer checkpointed (torchtune's `ac_option`): the others keep everything.
    let every = o.ckpt_every.max(1) as f64;
    let wrapped = crate::ops::ceil(kept_layers / every);
    let unwrapped_full = stack_full * (1.0 - wrapped / kept_layers.max(1.0));
    let (kept, recompute) = match s.checkpointing {
        Checkpointing::None => (stack_full, 0.0),
        Checkpointing::Full => (layer_inputs * wrapped / kept_layers.max(1.0) + unwrapped_full, one_layer),
        Checkpointing::Offloaded => (layers.min(2.0) * e * h * tokens + unwrapped_full, one_layer),
        Checkpointing::Selective => {
            // Each layer keeps what PyTorch's selective policy saves; the layer being
            // recomputed holds the rest of its tensors for a moment.
            let sac = |g: &LayerGroup| {
                let b = saving.layer_sac(a, g, s.seq);
                if split_sp { b / t } else { b }
            };
            let stack: f64 =
                a.groups.iter().zip(&grad_layers).map(|(g, n)| *n as f64 * sac(g)).sum::<f64>() * tokens;
            let rest =
                a.groups.iter().map(|g| (per_gpu(&saving, g) - sac(g)).max(0.0)).fold(0.0, f64::max) * tokens;
            (stack.min(stack_full), rest)
        }
    };
    // DoRA keeps, per adapted module, the frozen base's output and the adapter's (for the
    // magnitude's gradient), and builds the full `W + BA` of one matrix at a time for its norm.
    let (mut kept, mut recompute) = (kept, recompute);
    if o.dora && s.mode != Mode::Full {
        let a_bytes = if autocast {
            2.0
        } else if o.adapters_fp32 {
            4.0
        } else {
            2.0
        };
        let adapted = adapted_tensors(a, &s.lora_targets)?;
        let rows: f64 = adapted.iter().filter(|x| x.experts <= 1).map(|x| x.rows as f64).sum::<f64>() * scale;
        let per_token = rows * (c + a_bytes) / t;
        if s.checkpointing.recomputes() {
            recompute += per_token / layers * tokens;
        } else {
            kept += per_token * tokens;
        }
        let biggest = adapted.iter().map(|x| (x.rows * x.cols) as f64).fold(0.0, f64::max);
        workspace += 3.0 * (if o.adapters_fp32 { 4.0 } else { 2.0 }) * biggest / t;
        act_assume.push(Msg::new(MsgId::AssumeDora, vec![]));
    }
    if o.fp8 && s.mode == Mode::Full {
        // torchao's Float8Linear keeps the 16-bit input and weight for the backward pass (as a
        // BF16 linear does) and casts both to FP8 for each product: one linear's casts at a time.
        let (rows, cols) = tensors
            .iter()
            .filter(|x| x.role.is_block_linear())
            .map(|x| (x.rows as f64, x.cols as f64))
            .fold((0.0, 0.0), |m, x| if x.0 * x.1 > m.0 * m.1 { x } else { m });
        workspace += (rows * cols + tokens * cols) / t;
        act_assume.push(Msg::new(MsgId::AssumeFloat8, vec![]));
    }
    let mut host_activations = 0.0;
    // Under device_map each GPU keeps its own layers' activations.
    let kept = kept / pp;
    let kept = if o.activation_offload {
        // Every saved tensor but the running layer's (and the one being fetched back) lives in
        // CPU memory.
        host_activations = kept;
        (2.0 * kept / layers).min(kept)
    } else {
        kept
    };
    if s.checkpointing == Checkpointing::Offloaded {
        host_activations += layer_inputs * wrapped / kept_layers.max(1.0);
    }
    // The head and the loss: with sequence parallelism (Megatron, torchtitan) the head's input is
    // split along the sequence and the loss is vocabulary-parallel, each GPU keeping `1/t` of the
    // logits; transformers' and torchtune's plans gather the head's output (`colwise_rep`,
    // `output_layouts=Replicate()`), so every GPU of the group holds all of them.
    let tv = if o.sequence_parallel { t } else { 1.0 };
    let head = (saving.head(a) + saving.head_adapter_kept(a)) * tokens / tv;
    // Whether the loss's upcast runs inside the compiled code: torchtune's models upcast their
    // full logits themselves (`.float()` in `TransformerDecoder`) before its compiled loss, which
    // then starts from FP32 logits; elsewhere the compiled loss (torchtitan) or the compiled model
    // computing its loss (transformers) holds the upcast.
    let loss_compiled = o.compile && !(o.loss == LossKernel::Full && o.framework == Framework::Torchtune);
    let loss_bwd = o.loss.bytes_per_token(a, c, loss_compiled) * tokens / tv;
    // At the end of the forward pass the loss has built the 16-bit logits, their FP32 copy and
    // the log-softmax (the full kernel), and autocast still caches every copy.
    let loss_fwd = match o.loss {
        LossKernel::Full if !loss_compiled => (c.min(4.0) + 8.0) * a.vocab_size as f64 * tokens / tv,
        _ => loss_bwd,
    };
    // Gradients of the activations flowing back: a few hidden-sized tensors.
    let grad_flow = 4.0 * e * h * tokens / tv;
    // The moments the peak can fall on, with the gradients that exist at each.
    let v = a.vocab_size as f64;
    let at_forward_end =
        kept + head + loss_fwd.max(saving.head_adapter_transient(a) * tokens / tv) + copies.0 + workspace;
    let at_loss = kept + head + loss_bwd + copies.1 + workspace;
    // The logits' 16-bit gradient reaches the head (a fused loss never builds it: its kernel
    // computes the hidden state's gradient in the forward pass).
    let logits_grad = if o.loss == LossKernel::Fused { 0.0 } else { c * v * tokens / tv };
    let at_head_grad = kept + head + logits_grad + copies.1 + head_grad;
    let at_layer = kept + recompute + copies.1 + grad_flow + workspace;
    let at_end = grads_bytes + tied_grad;
    // One micro-batch per step and no ZeRO buckets: gradients appear only as the backward pass
    // frees activations (they are set to None after each step), so the peak is the largest
    // moment, gradients included; the activations term is what exceeds the gradients.
    let overlap = o.grad_accum <= 1 && s.zero == 0;
    let peak_act = if overlap {
        at_forward_end.max(at_loss).max(at_head_grad).max(at_layer).max(at_end)
    } else {
        at_forward_end.max(at_loss).max(at_head_grad - head_grad).max(at_layer).max(tied_grad)
    };
    let act = if overlap { (peak_act - grads_bytes).max(0.0) } else { peak_act };
    act_assume.push(Msg::new(
        match s.checkpointing {
            Checkpointing::None => MsgId::AssumeNoCheckpointing,
            Checkpointing::Selective => MsgId::AssumeSelectiveCheckpointing,
            Checkpointing::Full => MsgId::AssumeFullCheckpointing,
            Checkpointing::Offloaded => MsgId::AssumeOffloadedCheckpointing,
        },
        vec![],
    ));
    act_assume.push(Msg::new(
        if s.flash { MsgId::AssumeFlashTraining } else { MsgId::AssumeEagerTraining },
        vec![],
    ));
    act_assume.push(Msg::new(
        match o.loss {
            LossKernel::Full => MsgId::AssumeLogits,
            LossKernel::Chunked => MsgId::AssumeLogitsChunked,
            LossKernel::Fused => MsgId::AssumeLogitsFused,
        },
        vec![Arg::Size(Bytes::new(loss_bwd as u64))],
    ));
    if s.mode != Mode::Full {
        act_assume.push(Msg::new(
            if o.lora_dropout { MsgId::AssumeLoraDropout } else { MsgId::AssumeLoraNoDropout },
            vec![],
        ));
    }
    if copies.0 > 0.0 {
        act_assume.push(Msg::new(MsgId::AssumeAutocastCopies, vec![Arg::Size(Bytes::new(copies.0 as u64))]));
    }
    if o.compile {
        act_assume.push(Msg::new(MsgId::AssumeCompile, vec![]));
    }
    if t > 1.0 {
        let id =
            if o.sequence_parallel { MsgId::AssumeTpSequenceParallel } else { MsgId::AssumeTpReplicated };
        act_assume.push(Msg::new(id, vec![Arg::Int(s.tp)]));
    }
    let split = o.cp.max(1) * o.ulysses.max(1);
    if split > 1 {
        act_assume.push(Msg::new(
            MsgId::AssumeSequenceSplit,
            vec![Arg::Int(split), Arg::Int(o.cp.max(1)), Arg::Int(o.ulysses.max(1)), Arg::Int(tokens as u64)],
        ));
    }
    if o.activation_offload {
        act_assume.push(Msg::new(MsgId::AssumeActivationOffload, vec![]));
    }
    if overlap && grads_bytes > 0.0 {
        act_assume.push(Msg::new(
            MsgId::AssumeGradsAfterActivations,
            vec![Arg::Size(Bytes::new(peak_act as u64)), Arg::Size(Bytes::new(grads_bytes as u64))],
        ));
    }
    let band = if o.compile { (0.6, 1.2) } else { (0.8, 1.25) };
    let mut act_term = term(
        TermKind::Activations,
        act,
        band,
        Msg::new(
            MsgId::TrainActivations,
            vec![Arg::Int(s.micro_batch), Arg::Int(s.seq), Arg::Int(a.num_layers()), Arg::Int(a.vocab_size)],
        ),
        act_assume,
    );
    if overlap {
        // The band is the peak's: the moments' band, less the gradients they overlap; at the
        // optimizer step (when the gradients are the peak) a little of its own workspace.
        let ceil = |x: f64| Bytes::new(crate::ops::ceil_u64(x.max(0.0)).unwrap_or(u64::MAX));
        act_term.low = ceil(peak_act * band.0 - grads_bytes);
        act_term.high = ceil((peak_act * band.1 - grads_bytes).max(0.01 * grads_bytes).max(act * band.1));
    }
    gpu.push(act_term);

    // Overhead: CUDA context, caching-allocator fragmentation, NCCL buffers.
    let states: f64 = gpu.iter().map(|x| x.bytes.get() as f64).sum();
    let ctx = if s.cpu { 0.0 } else { 500.0 * (1u64 << 20) as f64 };
    let nccl = if s.gpus > 1 || s.tp > 1 { 300.0 * (1u64 << 20) as f64 } else { 0.0 };
    let slack = 0.03 * states;
    let overhead = ctx + nccl + slack;
    gpu.push(Term {
        kind: TermKind::Overhead,
        bytes: Bytes::new(overhead as u64),
        low: Bytes::new((0.6 * ctx + nccl) as u64),
        high: Bytes::new((2.8 * ctx + nccl + 0.10 * states) as u64),
        formula: Msg::new(
            MsgId::TrainOverhead,
            vec![Arg::Size(Bytes::new(ctx as u64)), Arg::Size(Bytes::new(slack as u64))],
        ),
        assumptions: vec![],
    });

    if host_per_gpu > 0.0 {
        let per_node = host_per_gpu * s.gpus.min(s.gpus_per_node.max(1)) as f64;
        host.push(term(
            TermKind::Optimizer,
            per_node,
            (1.0, 1.5),
            Msg::new(MsgId::TrainHostOffload, vec![Arg::Int(s.gpus.min(s.gpus_per_node.max(1)))]),
            vec![Msg::new(MsgId::AssumeOffloadBuffer, vec![])],
        ));
    }
    if host_activations > 0.0 {
        let per_node = host_activations * s.gpus.min(s.gpus_per_node.max(1)) as f64;
        host.push(term(
            TermKind::Activations,
            per_node,
            (0.8, 1.25),
            Msg::new(MsgId::TrainHostActivations, vec![Arg::Int(s.gpus.min(s.gpus_per_node.max(1)))]),
            vec![],
        ));
    }
    // Traffic: whole sizes of one tensor-parallel shard.
    let (grad_whole, step_gather_whole, gather_whole) = traffic_sizes;
    let sharded_params = s.zero >= 3;
    let split = (o.cp.max(1) * o.ulysses.max(1)) as f64;
    let recompute = if s.checkpointing.recomputes() { 6.0 } else { 4.0 };
    let traffic = Traffic {
        dp: n as u64,
        tp: s.tp.max(1),
        zero: s.zero,
        grad_bytes: grad_whole,
        step_gather_bytes: if (1..3).contains(&s.zero) { step_gather_whole } else { 0.0 },
        gather_bytes: if sharded_params { gather_whole } else { 0.0 },
        tp_collectives: if s.tp > 1 { recompute * layers } else { 0.0 },
        tp_bytes: if s.tp > 1 {
            s.micro_batch.max(1) as f64 * s.seq as f64 / split * a.hidden_size as f64 * 2.0
        } else {
            0.0
        },
        offload_step_bytes: if offload_states { (grad_whole + step_gather_whole) / n } else { 0.0 },
        offload_cpu_bytes: if offload_states {
            trainable as f64 / t / n * CPU_ADAM_BYTES_PER_PARAM
        } else {
            0.0
        },
        offload_micro_bytes: if offload_params {
            2.0 * gather_whole / n + if offload_grads { grad_whole / n } else { 0.0 }
        } else {
            0.0
        },
    };
    Ok(TrainingMemory {
        gpu,
        host,
        trainable,
        checkpoint,
        checkpoint_with_optimizer,
        zero_buckets: buckets,
        traffic,
    })
}

/// The optimizer's term: `bytes` on this GPU, `per_param` bytes of state a parameter before any
/// partition (AdamW's two FP32 moments are 8; BF16 moments 4; 8-bit ones 2 and their block scales).
fn optimizer_term(s: &TrainingSetup, bytes: f64, params: u64, per_param: f64) -> Term {
    let mut assumptions = Vec::new();
    if s.optimizer.is_paged() {
        assumptions.push(Msg::new(MsgId::AssumePaged, vec![]));
    }
    if s.offload != Offload::None && s.zero >= 1 {
        assumptions.push(Msg::new(MsgId::AssumeOffloaded, vec![]));
    } else if s.offload != Offload::None {
        assumptions.push(Msg::new(MsgId::AssumeOffloadNeedsZero, vec![]));
    }
    term(
        TermKind::Optimizer,
        bytes,
        (1.0, 1.0),
        Msg::new(
            MsgId::TrainOptimizer,
            vec![Arg::Text(s.optimizer.id().into()), Arg::Int(params), Arg::Num(per_param, 2)],
        ),
        assumptions,
    )
}

/// How the run's kernels and choices scale the assumed model-FLOPs utilisation (stated factors,
/// not measurements; the product is clamped to 5–65% MFU by the caller):
///
/// * QLoRA × 0.85 ([`QLORA_SPEED`]): every 4-bit matmul dequantizes its weight, forward and
///   backward;
/// * Unsloth × 1.35 over Hugging Face with Flash Attention 2, its fused loss included, and its
///   4-bit kernels losing 7% rather than QLoRA's 30% — LLaMA-Factory's measured comparison
///   (wiki "Performance comparison", 2024-04: LLaMA-2-7B, LoRA on every module, one A100:
///   4,007 against 2,954 and 3,400 against 2,556 tokens/s a GPU, 1.33–1.36×; its 4-bit run 3,726,
///   0.93 of its 16-bit one), not the vendor's "2× faster";
/// * a fused loss elsewhere × 1.2: Liger's README claims 20% more throughput;
/// * `torch.compile` × 1.15;
/// * checkpoints or activations offloaded to CPU memory × 0.9 (transfers not fully hidden).
pub fn throughput_factor(mode: Mode, checkpointing: Checkpointing, o: &TrainOptions) -> f64 {
    let mut f = 1.0;
    if o.framework == Framework::Unsloth {
        f *= UNSLOTH_SPEEDUP;
        if mode == Mode::Qlora {
            f *= UNSLOTH_QLORA;
        }
    } else {
        if mode == Mode::Qlora {
            f *= QLORA_SPEED;
        }
        if o.loss == LossKernel::Fused {
            f *= 1.2;
        }
    }
    if o.compile {
        f *= 1.15;
    }
    if o.fp8 && mode == Mode::Full {
        // torchao's float8 pretraining: 1.34–1.43× on 2K H200s, up to 1.5× at 512 GPUs
        // (docs.pytorch.org/ao, "Pre-training with float8"); the low end is taken. Only where
        // the device has FP8 units (`speed::training_time`).
        f *= FLOAT8_SPEEDUP;
    }
    if checkpointing == Checkpointing::Offloaded || o.activation_offload {
        f *= 0.9;
    }
    f
}

/// Unsloth's throughput over Hugging Face with Flash Attention 2 (LLaMA-Factory's measured
/// 1.33–1.36× for 16-bit LoRA on an A100).
pub const UNSLOTH_SPEEDUP: f64 = 1.35;

/// A QLoRA run's throughput against its LoRA twin with bitsandbytes' 4-bit kernels: Qwen's
/// published profiling on one A100 (Hugging Face Trainer and PEFT, sequences of 4,096): Qwen-7B
/// 11.6 against 10.1 seconds an iteration, Qwen-14B 20.1 against 17.0 — 0.87 and 0.85.
pub const QLORA_SPEED: f64 = 0.85;

/// Unsloth's 4-bit run against its 16-bit one in the same comparison (3,726 / 4,007).
pub const UNSLOTH_QLORA: f64 = 0.93;

/// Throughput gained by torchao's float8 training on FP8 tensor cores (the low end of its
/// published 1.34–1.5×).
pub const FLOAT8_SPEEDUP: f64 = 1.34;

/// Defaults of the training settings.
pub const DEFAULT_LORA_RANK: u64 = 16;
/// Default dataset size for the time and cost of a run, in tokens.
pub const DEFAULT_DATASET_TOKENS: u64 = 10_000_000;
/// Default GPUs per node for per-node figures.
pub const DEFAULT_GPUS_PER_NODE: u64 = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    /// PyTorch's per-operation selective policy on a Llama 3.1 8B layer (BF16, flash attention):
    /// its input, q (1st product), v (3rd), gate (5th), down (7th), attention's output and its
    /// log-sum-exp — 63,616 bytes a token against 209,024 kept without checkpointing; compiled,
    /// the same layer keeps 147,584 (norms' inputs alone, no SiLU output).
    #[test]
    fn selective_keeps_every_second_product_and_compile_what_inductor_keeps() {
        let a = catalog::model("llama-3.1-8b").unwrap().architecture().unwrap();
        let g = &a.groups[0];
        let sv = saved::Saving {
            c: 2.0,
            e: 2.0,
            autocast: false,
            mlp_c: 2.0,
            full: true,
            lora: None,
            flash: true,
            compiled: false,
        };
        let (h, q, kv, i) = (4096.0, 4096.0, 1024.0, 14336.0);
        assert_eq!(
            sv.layer_sac(&a, g, 8192),
            2.0 * h + 2.0 * q + 2.0 * kv + 2.0 * i + 2.0 * h + 2.0 * q + 128.0
        );
        assert_eq!(sv.layer(&a, g, 8192), 208_896.0 + 128.0);
        let compiled = saved::Saving { compiled: true, ..sv.clone() };
        assert_eq!(compiled.layer(&a, g, 8192), 208_896.0 + 128.0 - 4.0 * 2.0 * h - 2.0 * i);
        // LoRA on every linear layer (rank 16, FP32 adapters): each of the seven modules' `lora_A`
        // output, 16 × 4 bytes, once.
        let targets = LoraTargets::parse("all-linear").unwrap();
        let lora = saved::Saving {
            full: false,
            lora: Some(saved::LoraSaving {
                targets: &targets,
                dropout: false,
                cpu_noise: false,
                adapter_bytes: 4.0,
                rank: 16.0,
            }),
            ..sv.clone()
        };
        assert_eq!(lora.layer_sac(&a, g, 8192) - sv.layer_sac(&a, g, 8192), 7.0 * 16.0 * 4.0);
    }

    /// The measured Unsloth factor (LLaMA-Factory's comparison), its own 4-bit kernels, and the
    /// others' QLoRA and fused-loss factors.
    #[test]
    fn unsloths_speed_is_the_measured_one() {
        let unsloth = TrainOptions { framework: Framework::Unsloth, ..TrainOptions::default() };
        let hf = TrainOptions::default();
        let fused = TrainOptions { loss: LossKernel::Fused, ..TrainOptions::default() };
        let none = Checkpointing::None;
        assert_eq!(throughput_factor(Mode::Lora, none, &unsloth), 1.35);
        assert!((throughput_factor(Mode::Qlora, none, &unsloth) - 1.35 * 0.93).abs() < 1e-12);
        assert_eq!(throughput_factor(Mode::Qlora, none, &hf), QLORA_SPEED);
        assert_eq!(throughput_factor(Mode::Lora, none, &fused), 1.2);
        assert_eq!(throughput_factor(Mode::Lora, none, &hf), 1.0);
    }

    #[test]
    fn ids_round_trip() {
        for m in Mode::ALL {
            assert_eq!(Mode::parse(m.id()), Ok(m));
        }
        for o in Optimizer::ALL {
            assert_eq!(Optimizer::parse(o.id()), Ok(o));
        }
        for p in TrainPrecision::ALL {
            assert_eq!(TrainPrecision::parse(p.id()), Ok(p));
        }
        for c in [Checkpointing::None, Checkpointing::Selective, Checkpointing::Full] {
            assert_eq!(Checkpointing::parse(c.id()), Ok(c));
        }
        let t = LoraTargets::parse("v_proj, q_proj,q").unwrap();
        assert_eq!(t.id(), "q,v");
        assert_eq!(LoraTargets::parse(&t.id()), Ok(t));
        assert!(LoraTargets::parse("q,zz").is_err());
        assert!(LoraTargets::parse("").is_err());
    }

    #[test]
    fn lora_counts_match_peft() {
        let a = catalog::model("llama-2-7b").unwrap().architecture().unwrap();
        assert_eq!(lora_params(&a, 16, &LoraTargets::parse("q,v").unwrap()).unwrap(), 8_388_608);
        assert!(lora_params(&a, 0, &LoraTargets::AllLinear).is_err());
        assert!(lora_params(&a, 8, &LoraTargets::parse("gate_up").unwrap()).is_ok());
        // The head and the embeddings, only when named: r·(h + V) each for Llama-2-7B's 4096 × 32000.
        let qv = lora_params(&a, 16, &LoraTargets::parse("q,v").unwrap()).unwrap();
        let head = lora_params(&a, 16, &LoraTargets::parse("q,v,lm_head").unwrap()).unwrap();
        let embed = lora_params(&a, 16, &LoraTargets::parse("q,v,embed_tokens").unwrap()).unwrap();
        assert_eq!(head - qv, 16 * (4096 + 32000));
        assert_eq!(embed - qv, 16 * (4096 + 32000));
        assert_eq!(LoraTargets::parse("lm_head").unwrap().id(), "lm_head");
    }

    /// Korthikanti et al.'s worked example: a GPT-3 175B layer (h 12288, a 96) at s 2048, b 1
    /// holds sbh(34 + 5as/h) = 2,868,903,936 bytes of activations.
    #[test]
    fn korthikanti_gpt3_layer() {
        let cfg = br#"{"model_type": "gpt2", "n_embd": 12288, "n_head": 96, "n_layer": 96, "n_positions": 2048, "vocab_size": 50257}"#;
        let a = crate::import::hf::parse_config(cfg).unwrap().architecture;
        let full = activation_bytes_per_layer(&a, 2048, 1, false, true, false, 1);
        assert_eq!(full, 2_868_903_936.0);
        // Tensor parallel only, t = 8: sbh(10 + 24/t + 5as/(ht)).
        let sbh = 2048.0 * 12288.0;
        let tp = activation_bytes_per_layer(&a, 2048, 1, false, true, false, 8);
        assert_eq!(tp, sbh * (10.0 + 24.0 / 8.0 + 5.0 * 96.0 * 2048.0 / (12288.0 * 8.0)));
        // Selective recomputation with sequence parallelism: 34 sbh / t = 106,954,752.
        assert_eq!(sbh * 34.0 / 8.0, 106_954_752.0);
        let selective = activation_bytes_per_layer(&a, 2048, 1, false, true, true, 1);
        assert_eq!(selective, sbh * 34.0);
    }
}
