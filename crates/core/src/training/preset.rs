//! Training frameworks' defaults: what "I use Unsloth / TRL / torchtune" means for memory.
//!
//! A preset writes the knobs the framework's current release sets by default; any knob can still
//! be changed afterwards (the preset is remembered by name, the knobs by value). Sources, read
//! 2026-12: transformers `TrainingArguments` and peft `LoraConfig` /
//! `prepare_model_for_kbit_training` (defaults: `lora_dropout` 0.0 in peft, 0.05 in TRL's and
//! Axolotl's examples; k-bit preparation upcasts every non-quantized parameter to FP32 and turns
//! gradient checkpointing on); TRL `SFTConfig` (`gradient_checkpointing=True`, `bf16=True`);
//! Unsloth (`load_in_4bit=True`, `use_gradient_checkpointing="unsloth"` offloads each layer's
//! input to CPU, its fused cross-entropy, `adamw_8bit` in its notebooks, BF16 non-quantized
//! modules, `lora_dropout=0` recommended); LLaMA-Factory (`lora_dropout` 0, gradient
//! checkpointing on unless disabled, no FP32 upcast); torchtune's recipes (BF16 everywhere with
//! BF16 adapters, `CEWithChunkedOutputLoss`, activation checkpointing on; full single-device
//! configs: `PagedAdamW8bit` with `optimizer_in_bwd`); LitGPT (`bf16-true`, BF16 adapters,
//! `lora_dropout` 0.05, chunked cross-entropy); DeepSpeed ZeRO through the Trainer (BF16 weights
//! and gradients, FP32 master and Adam states); FSDP2 (`MixedPrecisionPolicy`: FP32 sharded
//! parameters, BF16 compute, everything sharded; CPU offload moves parameters, gradients and the
//! optimizer step).

use alloc::format;

use super::saved::LossKernel;
use super::{Checkpointing, Mode, Optimizer, TrainPrecision};
use crate::error::{Error, Result};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The framework whose defaults a run follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Framework {
    /// Every knob set by hand.
    #[default]
    Custom,
    /// Hugging Face Trainer with peft.
    HfTrainer,
    /// TRL's `SFTTrainer`.
    Trl,
    /// Unsloth.
    Unsloth,
    /// Axolotl.
    Axolotl,
    /// LLaMA-Factory.
    LlamaFactory,
    /// torchtune.
    Torchtune,
    /// LitGPT.
    Litgpt,
    /// DeepSpeed ZeRO (through the Trainer or its own engine).
    Deepspeed,
    /// PyTorch FSDP2.
    Fsdp,
}

impl Framework {
    /// Whether the framework trains transformers' own model classes (the Trainer and the tools
    /// built on it), whose attention is what transformers picks: Unsloth patches its own,
    /// torchtune, LitGPT and FSDP2 (torchtitan) build their models with SDPA.
    pub const fn builds_with_transformers(self) -> bool {
        matches!(
            self,
            Framework::Custom
                | Framework::HfTrainer
                | Framework::Trl
                | Framework::Axolotl
                | Framework::LlamaFactory
                | Framework::Deepspeed
        )
    }

    /// Every framework.
    pub const ALL: [Framework; 10] = [
        Framework::Custom,
        Framework::HfTrainer,
        Framework::Trl,
        Framework::Unsloth,
        Framework::Axolotl,
        Framework::LlamaFactory,
        Framework::Torchtune,
        Framework::Litgpt,
        Framework::Deepspeed,
        Framework::Fsdp,
    ];

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            Framework::Custom => "custom",
            Framework::HfTrainer => "hf",
            Framework::Trl => "trl",
            Framework::Unsloth => "unsloth",
            Framework::Axolotl => "axolotl",
            Framework::LlamaFactory => "llama-factory",
            Framework::Torchtune => "torchtune",
            Framework::Litgpt => "litgpt",
            Framework::Deepspeed => "deepspeed",
            Framework::Fsdp => "fsdp",
        }
    }

    /// The name people know it by.
    pub const fn label(self) -> &'static str {
        match self {
            Framework::Custom => "Custom",
            Framework::HfTrainer => "Hugging Face Trainer + PEFT",
            Framework::Trl => "TRL SFTTrainer",
            Framework::Unsloth => "Unsloth",
            Framework::Axolotl => "Axolotl",
            Framework::LlamaFactory => "LLaMA-Factory",
            Framework::Torchtune => "torchtune",
            Framework::Litgpt => "LitGPT",
            Framework::Deepspeed => "DeepSpeed ZeRO",
            Framework::Fsdp => "FSDP2",
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `framework`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase().replace(['_', ' '], "-");
        Ok(match lower.as_str() {
            "custom" | "none" => Framework::Custom,
            "hf" | "transformers" | "trainer" | "hf-trainer" | "peft" | "huggingface" => Framework::HfTrainer,
            "trl" | "sft" | "sfttrainer" => Framework::Trl,
            "unsloth" => Framework::Unsloth,
            "axolotl" => Framework::Axolotl,
            "llama-factory" | "llamafactory" => Framework::LlamaFactory,
            "torchtune" => Framework::Torchtune,
            "litgpt" | "lit-gpt" => Framework::Litgpt,
            "deepspeed" | "zero" => Framework::Deepspeed,
            "fsdp" | "fsdp2" => Framework::Fsdp,
            _ => {
                return Err(Error::invalid(
                    "framework",
                    format!(
                        "`{t}` is not a framework; accepted: custom hf trl unsloth axolotl llama-factory torchtune litgpt deepspeed fsdp"
                    ),
                ));
            }
        })
    }
}

/// The training knobs beyond the seed's: how the step is really run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(default))]
pub struct TrainOptions {
    /// The preset the knobs came from (kept for the link and the page).
    pub framework: Framework,
    /// How the loss treats the vocabulary.
    pub loss: LossKernel,
    /// Dropout before each adapter (peft's `lora_dropout > 0`): each adapted module keeps its own
    /// copy of its input and a mask.
    pub lora_dropout: bool,
    /// Adapters (and their gradients and optimizer states) in FP32, as peft makes them; BF16 in
    /// torchtune and LitGPT.
    pub adapters_fp32: bool,
    /// QLoRA: every parameter left unquantized (embeddings, head, norms) upcast to FP32, as peft's
    /// `prepare_model_for_kbit_training` does; the residual stream is then FP32 too.
    pub kbit_upcast: bool,
    /// Micro-batches per optimizer step. With 1, gradients are built only as activations are
    /// freed (set to None after each step); with more they persist beside the activations.
    pub grad_accum: u64,
    /// With full (or offloaded) checkpointing, every `k`-th layer is checkpointed and the others
    /// keep all their activations (torchtune's `ac_option: k`, torchtitan's `selective_ac_option`
    /// as a number); 1: every layer.
    pub ckpt_every: u64,
    /// The optimizer steps each parameter as soon as its gradient is ready (torchtune's
    /// `optimizer_in_bwd`): no full gradient buffer.
    pub optimizer_in_backward: bool,
    /// Saved activations moved to CPU memory during the forward pass (torchtune's
    /// `enable_activation_offloading`).
    pub activation_offload: bool,
    /// `torch.compile`: fused element-wise kernels keep fewer intermediates.
    pub compile: bool,
    /// DoRA (peft's `use_dora`): a trained magnitude per output row of each adapted matrix.
    pub dora: bool,
    /// Model parallelism (`device_map="auto"`): one process, the layers split over the GPUs,
    /// one of them at work at a time; no data parallelism.
    pub device_map: bool,
    /// Context parallelism: each sequence split over this many GPUs of a replica (ring
    /// attention, torchtune's and accelerate's `cp`); activations and the loss divide by it.
    pub cp: u64,
    /// DeepSpeed's `reduce_bucket_size` in elements; 0: the Trainer's `"auto"` (`hidden²`).
    pub reduce_bucket: u64,
    /// DeepSpeed's `overlap_comm`; `None`: its default (on at ZeRO-3, off at 1 and 2).
    pub overlap_comm: Option<bool>,
    /// Float8 training (torchao's `Float8Linear`, torchtitan's `quantize.linear.float8`): the
    /// linear layers' matrix products in FP8 (full fine-tuning; FP8 tensor cores).
    pub fp8: bool,
    /// With tensor parallelism: the norms, dropouts and residual stream split along the sequence
    /// too (Megatron's `--sequence-parallel`, torchtitan's `SequenceParallel` norms). Off, as in
    /// transformers', accelerate's and torchtune's tensor-parallel plans, every GPU of a group
    /// keeps those `hidden`-wide tensors whole.
    pub sequence_parallel: bool,
    /// DeepSpeed-Ulysses sequence parallelism (accelerate's `sp_size`, Arctic Long Sequence
    /// Training): each sequence split over this many GPUs, attention run on whole sequences for
    /// `heads / ulysses` heads after an all-to-all.
    pub ulysses: u64,
    /// How samples become batches (padding, packing, padding-free).
    pub batching: Batching,
    /// The dataset's mean sample length in tokens; 0: every sample fills the sequence.
    pub mean_sample: u64,
}

/// How a framework turns samples of uneven length into batches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Batching {
    /// Each micro-batch padded to its longest sample (the default collators of the Trainer,
    /// TRL, Axolotl, LLaMA-Factory and torchtune).
    #[default]
    Padded,
    /// Samples concatenated into rows of the full sequence (TRL's `packing`, Axolotl's
    /// `sample_packing`, torchtune's `packed`).
    Packed,
    /// Samples concatenated without padding, attention kept within each (TRL's `padding_free`,
    /// flash attention's variable-length kernels).
    PaddingFree,
}

impl Batching {
    /// Every way.
    pub const ALL: [Batching; 3] = [Batching::Padded, Batching::Packed, Batching::PaddingFree];

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            Batching::Padded => "padded",
            Batching::Packed => "packed",
            Batching::PaddingFree => "padding-free",
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `batching`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().replace(['_', ' '], "-").as_str() {
            "padded" | "padding" | "pad" | "longest" => Batching::Padded,
            "packed" | "packing" | "pack" => Batching::Packed,
            "padding-free" | "paddingfree" | "varlen" => Batching::PaddingFree,
            _ => {
                return Err(Error::invalid(
                    "batching",
                    format!("`{t}` is not a batching; accepted: padded packed padding-free"),
                ));
            }
        })
    }

    /// Tokens computed per token of data: a padded micro-batch of `b` samples is as long as its
    /// longest, taken as the expected maximum of `b` lengths spread exponentially around `mean`
    /// (`mean · H_b`, `H_b` the harmonic number) capped by `seq`; `(point, low, high)`, low 1
    /// (batches grouped by length), high `min(b, seq / mean)`. Packing and padding-free compute
    /// only real tokens (1).
    pub fn padding_factor(self, mean: u64, seq: u64, micro_batch: u64) -> (f64, f64, f64) {
        if self != Batching::Padded || mean == 0 || micro_batch <= 1 || mean >= seq {
            return (1.0, 1.0, 1.0);
        }
        let cap = seq as f64 / mean as f64;
        let harmonic: f64 = (1..=micro_batch.min(1 << 20)).map(|k| 1.0 / k as f64).sum();
        let high = (micro_batch as f64).min(cap);
        (harmonic.min(cap), 1.0, high)
    }
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            framework: Framework::Custom,
            loss: LossKernel::Full,
            lora_dropout: true,
            adapters_fp32: true,
            kbit_upcast: true,
            grad_accum: 1,
            ckpt_every: 1,
            optimizer_in_backward: false,
            activation_offload: false,
            compile: false,
            dora: false,
            cp: 1,
            device_map: false,
            reduce_bucket: 0,
            overlap_comm: None,
            fp8: false,
            sequence_parallel: false,
            ulysses: 1,
            batching: Batching::Padded,
            mean_sample: 0,
        }
    }
}

/// The knobs a preset sets, beyond [`TrainOptions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The framework's own options.
    pub options: TrainOptions,
    /// Its optimizer for this mode, where it differs from AdamW.
    pub optimizer: Optimizer,
    /// Full fine-tuning's precision.
    pub precision: TrainPrecision,
    /// Its activation checkpointing.
    pub checkpointing: Checkpointing,
    /// The ZeRO stage it implies (FSDP: 3), when it implies one.
    pub zero: Option<u8>,
}

/// The defaults of `framework` for `mode`.
pub fn preset(framework: Framework, mode: Mode) -> Preset {
    let base = TrainOptions { framework, ..TrainOptions::default() };
    let qlora = mode == Mode::Qlora;
    let mut p = Preset {
        options: base,
        optimizer: Optimizer::AdamW,
        precision: TrainPrecision::Mixed,
        checkpointing: Checkpointing::None,
        zero: None,
    };
    match framework {
        Framework::Custom => {}
        Framework::HfTrainer => {
            // transformers 5 loads checkpoints in their own dtype (BF16); with `bf16=True` the
            // weights, gradients and torch AdamW's states stay BF16.
            p.precision = TrainPrecision::PureBf16;
            p.options.lora_dropout = false;
            if qlora {
                p.checkpointing = Checkpointing::Full;
            }
        }
        Framework::Trl => {
            p.precision = TrainPrecision::PureBf16;
            p.checkpointing = Checkpointing::Full;
        }
        Framework::Unsloth => {
            p.precision = TrainPrecision::PureBf16;
            p.options.loss = LossKernel::Fused;
            p.options.lora_dropout = false;
            p.options.kbit_upcast = false;
            p.optimizer = Optimizer::AdamW8bit;
            p.checkpointing = Checkpointing::Offloaded;
        }
        Framework::Axolotl => {
            p.precision = TrainPrecision::PureBf16;
            p.checkpointing = Checkpointing::Full;
            if qlora {
                p.optimizer = Optimizer::PagedAdamW8bit;
            }
        }
        Framework::LlamaFactory => {
            p.precision = TrainPrecision::PureBf16;
            p.options.lora_dropout = false;
            p.options.kbit_upcast = false;
            p.checkpointing = Checkpointing::Full;
        }
        Framework::Torchtune => {
            p.precision = TrainPrecision::PureBf16;
            p.options.loss = LossKernel::Chunked;
            p.options.lora_dropout = false;
            p.options.adapters_fp32 = false;
            p.options.kbit_upcast = false;
            p.checkpointing = Checkpointing::Full;
            if mode == Mode::Full {
                p.optimizer = Optimizer::PagedAdamW8bit;
                p.options.optimizer_in_backward = true;
            }
        }
        Framework::Litgpt => {
            p.precision = TrainPrecision::PureBf16;
            p.options.loss = LossKernel::Chunked;
            p.options.adapters_fp32 = false;
            p.options.kbit_upcast = false;
        }
        Framework::Deepspeed => {
            p.precision = TrainPrecision::Mixed;
            p.zero = Some(2);
        }
        Framework::Fsdp => {
            p.precision = TrainPrecision::Mixed;
            p.zero = Some(3);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn padding_grows_with_the_batch_and_stops_at_the_sequence() {
        // One sample, packing, padding-free, an unknown mean, or samples filling the sequence:
        // nothing computed for padding.
        for (b, mean, seq, way) in [
            (1, 500, 4096, Batching::Padded),
            (8, 500, 4096, Batching::Packed),
            (8, 500, 4096, Batching::PaddingFree),
            (8, 0, 4096, Batching::Padded),
            (8, 4096, 4096, Batching::Padded),
        ] {
            assert_eq!(way.padding_factor(mean, seq, b), (1.0, 1.0, 1.0), "{b} {mean} {way:?}");
        }
        // Two samples: 1 + 1/2; four: 25/12; the most is the batch itself.
        assert_eq!(Batching::Padded.padding_factor(100, 4096, 2), (1.5, 1.0, 2.0));
        let (p, _, hi) = Batching::Padded.padding_factor(100, 4096, 4);
        assert!((p - 25.0 / 12.0).abs() < 1e-12 && hi == 4.0);
        // Capped by the sequence: samples of 3,000 on average under 4,096 are at most 1.37× longer.
        let (p, lo, hi) = Batching::Padded.padding_factor(3000, 4096, 16);
        assert!((p - 4096.0 / 3000.0).abs() < 1e-12 && lo == 1.0 && hi == p);
        for id in ["padded", "packed", "padding-free"] {
            assert_eq!(Batching::parse(id).unwrap().id(), id);
        }
        assert!(Batching::parse("zip").unwrap_err().to_string().contains("batching"));
    }
}
