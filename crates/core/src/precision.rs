//! Number formats for weights and for the KV cache, and what each costs per element.
//!
//! The seed guide's table (`../shared/seed/hardware-guide.fr.txt`) is the starting point:
//! fp32 4, fp16 and bf16 2, int8 1, int4 0.5 bytes per parameter. Real formats add their scales:
//! GGUF block types by their block size (`ggml-common.h`), NF4 with its absmax blocks (and
//! double quantization), MXFP4's shared exponents, GPTQ/AWQ's per-group scales and zeros, FP8's
//! block scales. How a format applies to each tensor of a real model is in [`crate::tensors`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::units::BitsPerWeight;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A ggml tensor type: the storage of one GGUF tensor, by blocks.
///
/// Block sizes and bytes per block are those of `ggml/src/ggml-common.h` (the `block_*` structs'
/// `static_assert`s), as listed in `../shared/validation/published.jsonl` (group 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[allow(non_camel_case_types, missing_docs)]
pub enum GgmlType {
    F32,
    F16,
    BF16,
    F64,
    I8,
    I16,
    I32,
    I64,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
    Q8_1,
    Q2_K,
    Q3_K,
    Q4_K,
    Q5_K,
    Q6_K,
    Q8_K,
    IQ1_S,
    IQ1_M,
    IQ2_XXS,
    IQ2_XS,
    IQ2_S,
    IQ3_XXS,
    IQ3_S,
    IQ4_NL,
    IQ4_XS,
    TQ1_0,
    TQ2_0,
    MXFP4,
}

impl GgmlType {
    /// Every type.
    pub const ALL: [GgmlType; 32] = [
        GgmlType::F32,
        GgmlType::F16,
        GgmlType::BF16,
        GgmlType::F64,
        GgmlType::I8,
        GgmlType::I16,
        GgmlType::I32,
        GgmlType::I64,
        GgmlType::Q4_0,
        GgmlType::Q4_1,
        GgmlType::Q5_0,
        GgmlType::Q5_1,
        GgmlType::Q8_0,
        GgmlType::Q8_1,
        GgmlType::Q2_K,
        GgmlType::Q3_K,
        GgmlType::Q4_K,
        GgmlType::Q5_K,
        GgmlType::Q6_K,
        GgmlType::Q8_K,
        GgmlType::IQ1_S,
        GgmlType::IQ1_M,
        GgmlType::IQ2_XXS,
        GgmlType::IQ2_XS,
        GgmlType::IQ2_S,
        GgmlType::IQ3_XXS,
        GgmlType::IQ3_S,
        GgmlType::IQ4_NL,
        GgmlType::IQ4_XS,
        GgmlType::TQ1_0,
        GgmlType::TQ2_0,
        GgmlType::MXFP4,
    ];

    /// Elements per block and bytes per block.
    pub const fn block(self) -> (u64, u64) {
        use GgmlType::*;
        match self {
            F32 => (1, 4),
            F16 | BF16 => (1, 2),
            F64 => (1, 8),
            I8 => (1, 1),
            I16 => (1, 2),
            I32 => (1, 4),
            I64 => (1, 8),
            Q4_0 => (32, 18),
            Q4_1 => (32, 20),
            Q5_0 => (32, 22),
            Q5_1 => (32, 24),
            Q8_0 => (32, 34),
            Q8_1 => (32, 36),
            Q2_K => (256, 84),
            Q3_K => (256, 110),
            Q4_K => (256, 144),
            Q5_K => (256, 176),
            Q6_K => (256, 210),
            Q8_K => (256, 292),
            IQ1_S => (256, 50),
            IQ1_M => (256, 56),
            IQ2_XXS => (256, 66),
            IQ2_XS => (256, 74),
            IQ2_S => (256, 82),
            IQ3_XXS => (256, 98),
            IQ3_S => (256, 110),
            IQ4_NL => (32, 18),
            IQ4_XS => (256, 136),
            TQ1_0 => (256, 54),
            TQ2_0 => (256, 66),
            MXFP4 => (32, 17),
        }
    }

    /// The numeric id in GGUF files (`ggml_type`).
    pub const fn gguf_id(self) -> u32 {
        use GgmlType::*;
        match self {
            F32 => 0,
            F16 => 1,
            Q4_0 => 2,
            Q4_1 => 3,
            Q5_0 => 6,
            Q5_1 => 7,
            Q8_0 => 8,
            Q8_1 => 9,
            Q2_K => 10,
            Q3_K => 11,
            Q4_K => 12,
            Q5_K => 13,
            Q6_K => 14,
            Q8_K => 15,
            IQ2_XXS => 16,
            IQ2_XS => 17,
            IQ3_XXS => 18,
            IQ1_S => 19,
            IQ4_NL => 20,
            IQ3_S => 21,
            IQ2_S => 22,
            IQ4_XS => 23,
            I8 => 24,
            I16 => 25,
            I32 => 26,
            I64 => 27,
            F64 => 28,
            IQ1_M => 29,
            BF16 => 30,
            TQ1_0 => 34,
            TQ2_0 => 35,
            MXFP4 => 39,
        }
    }

    /// The type with this GGUF id, if known.
    pub fn from_gguf_id(id: u32) -> Option<GgmlType> {
        GgmlType::ALL.iter().copied().find(|t| t.gguf_id() == id)
    }

    /// The name ggml prints (`Q4_K`, `IQ4_XS`, `F16`).
    pub const fn name(self) -> &'static str {
        use GgmlType::*;
        match self {
            F32 => "F32",
            F16 => "F16",
            BF16 => "BF16",
            F64 => "F64",
            I8 => "I8",
            I16 => "I16",
            I32 => "I32",
            I64 => "I64",
            Q4_0 => "Q4_0",
            Q4_1 => "Q4_1",
            Q5_0 => "Q5_0",
            Q5_1 => "Q5_1",
            Q8_0 => "Q8_0",
            Q8_1 => "Q8_1",
            Q2_K => "Q2_K",
            Q3_K => "Q3_K",
            Q4_K => "Q4_K",
            Q5_K => "Q5_K",
            Q6_K => "Q6_K",
            Q8_K => "Q8_K",
            IQ1_S => "IQ1_S",
            IQ1_M => "IQ1_M",
            IQ2_XXS => "IQ2_XXS",
            IQ2_XS => "IQ2_XS",
            IQ2_S => "IQ2_S",
            IQ3_XXS => "IQ3_XXS",
            IQ3_S => "IQ3_S",
            IQ4_NL => "IQ4_NL",
            IQ4_XS => "IQ4_XS",
            TQ1_0 => "TQ1_0",
            TQ2_0 => "TQ2_0",
            MXFP4 => "MXFP4",
        }
    }

    /// Whether the type stores blocks with scales (not a plain float or integer).
    pub const fn is_quantized(self) -> bool {
        self.block().0 > 1
    }

    /// Bits per element, scales included.
    pub fn bits_per_weight(self) -> BitsPerWeight {
        let (n, b) = self.block();
        BitsPerWeight::new(b as f64 * 8.0 / n as f64)
    }

    /// Bytes of one row of `n` elements: whole blocks. `None` when `n` is not a multiple of the
    /// block size (ggml cannot store such a row in this type) or on overflow.
    pub fn row_bytes(self, n: u64) -> Option<u64> {
        let (block, bytes) = self.block();
        if !n.is_multiple_of(block) {
            return None;
        }
        (n / block).checked_mul(bytes)
    }
}

/// A GGUF file type: the mix `llama-quantize` writes (`Q4_K_M` keeps some tensors in Q6_K…).
///
/// The per-tensor rules are those of llama.cpp's `llama_tensor_get_type` (`src/llama-quant.cpp`),
/// applied in [`crate::tensors`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[allow(non_camel_case_types, missing_docs)]
pub enum GgufMix {
    F32,
    F16,
    BF16,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
    Q2_K,
    Q2_K_S,
    Q3_K_S,
    Q3_K_M,
    Q3_K_L,
    Q4_K_S,
    Q4_K_M,
    Q5_K_S,
    Q5_K_M,
    Q6_K,
    IQ1_S,
    IQ1_M,
    IQ2_XXS,
    IQ2_XS,
    IQ2_S,
    IQ2_M,
    IQ3_XXS,
    IQ3_XS,
    IQ3_S,
    IQ3_M,
    IQ4_NL,
    IQ4_XS,
    TQ1_0,
    TQ2_0,
    MXFP4_MOE,
}

impl GgufMix {
    /// The standard mix nearest one of unsloth's dynamic ones (`UD-Q4_K_XL` → Q4_K_M,
    /// `UD-IQ2_XXS` → IQ2_XXS), whose per-tensor types follow a recipe unsloth does not
    /// publish; `None` for any other name.
    pub fn unsloth_dynamic_nearest(name: &str) -> Option<GgufMix> {
        let lower = name.trim().to_ascii_lowercase();
        let rest = lower.strip_prefix("ud-").or_else(|| lower.strip_prefix("ud_"))?;
        let standard = match rest {
            "q8_k_xl" => "q8_0",
            "q6_k_xl" => "q6_k",
            "q5_k_xl" => "q5_k_m",
            "q4_k_xl" => "q4_k_m",
            "q3_k_xl" => "q3_k_m",
            "q2_k_xl" => "q2_k",
            "tq1_0" => "iq1_s",
            other => other,
        };
        GgufMix::parse(standard)
    }

    /// Every file type, from the largest to the smallest.
    pub const ALL: [GgufMix; 33] = [
        GgufMix::F32,
        GgufMix::F16,
        GgufMix::BF16,
        GgufMix::Q8_0,
        GgufMix::Q6_K,
        GgufMix::Q5_K_M,
        GgufMix::Q5_K_S,
        GgufMix::Q5_1,
        GgufMix::Q5_0,
        GgufMix::Q4_K_M,
        GgufMix::Q4_K_S,
        GgufMix::Q4_1,
        GgufMix::Q4_0,
        GgufMix::MXFP4_MOE,
        GgufMix::IQ4_NL,
        GgufMix::IQ4_XS,
        GgufMix::Q3_K_L,
        GgufMix::Q3_K_M,
        GgufMix::IQ3_M,
        GgufMix::IQ3_S,
        GgufMix::Q3_K_S,
        GgufMix::IQ3_XS,
        GgufMix::IQ3_XXS,
        GgufMix::Q2_K,
        GgufMix::Q2_K_S,
        GgufMix::IQ2_M,
        GgufMix::IQ2_S,
        GgufMix::IQ2_XS,
        GgufMix::IQ2_XXS,
        GgufMix::TQ2_0,
        GgufMix::IQ1_M,
        GgufMix::TQ1_0,
        GgufMix::IQ1_S,
    ];

    /// The name llama-quantize uses (`Q4_K_M`).
    pub const fn name(self) -> &'static str {
        use GgufMix::*;
        match self {
            F32 => "F32",
            F16 => "F16",
            BF16 => "BF16",
            Q4_0 => "Q4_0",
            Q4_1 => "Q4_1",
            Q5_0 => "Q5_0",
            Q5_1 => "Q5_1",
            Q8_0 => "Q8_0",
            Q2_K => "Q2_K",
            Q2_K_S => "Q2_K_S",
            Q3_K_S => "Q3_K_S",
            Q3_K_M => "Q3_K_M",
            Q3_K_L => "Q3_K_L",
            Q4_K_S => "Q4_K_S",
            Q4_K_M => "Q4_K_M",
            Q5_K_S => "Q5_K_S",
            Q5_K_M => "Q5_K_M",
            Q6_K => "Q6_K",
            IQ1_S => "IQ1_S",
            IQ1_M => "IQ1_M",
            IQ2_XXS => "IQ2_XXS",
            IQ2_XS => "IQ2_XS",
            IQ2_S => "IQ2_S",
            IQ2_M => "IQ2_M",
            IQ3_XXS => "IQ3_XXS",
            IQ3_XS => "IQ3_XS",
            IQ3_S => "IQ3_S",
            IQ3_M => "IQ3_M",
            IQ4_NL => "IQ4_NL",
            IQ4_XS => "IQ4_XS",
            TQ1_0 => "TQ1_0",
            TQ2_0 => "TQ2_0",
            MXFP4_MOE => "MXFP4_MOE",
        }
    }

    /// The `general.file_type` id in GGUF metadata (`llama_ftype`).
    pub const fn ftype_id(self) -> u32 {
        use GgufMix::*;
        match self {
            F32 => 0,
            F16 => 1,
            Q4_0 => 2,
            Q4_1 => 3,
            Q8_0 => 7,
            Q5_0 => 8,
            Q5_1 => 9,
            Q2_K => 10,
            Q3_K_S => 11,
            Q3_K_M => 12,
            Q3_K_L => 13,
            Q4_K_S => 14,
            Q4_K_M => 15,
            Q5_K_S => 16,
            Q5_K_M => 17,
            Q6_K => 18,
            IQ2_XXS => 19,
            IQ2_XS => 20,
            Q2_K_S => 21,
            IQ3_XS => 22,
            IQ3_XXS => 23,
            IQ1_S => 24,
            IQ4_NL => 25,
            IQ3_S => 26,
            IQ3_M => 27,
            IQ2_S => 28,
            IQ2_M => 29,
            IQ4_XS => 30,
            IQ1_M => 31,
            BF16 => 32,
            TQ1_0 => 36,
            TQ2_0 => 37,
            MXFP4_MOE => 38,
        }
    }

    /// The file type with this `general.file_type` id, if known.
    pub fn from_ftype_id(id: u32) -> Option<GgufMix> {
        GgufMix::ALL.iter().copied().find(|t| t.ftype_id() == id)
    }

    /// The tensor type most tensors get (`llama_model_quantize_impl`'s `default_type`).
    pub const fn default_type(self) -> GgmlType {
        use GgufMix::*;
        match self {
            F32 => GgmlType::F32,
            F16 => GgmlType::F16,
            BF16 => GgmlType::BF16,
            Q4_0 => GgmlType::Q4_0,
            Q4_1 => GgmlType::Q4_1,
            Q5_0 => GgmlType::Q5_0,
            Q5_1 => GgmlType::Q5_1,
            Q8_0 => GgmlType::Q8_0,
            Q2_K | Q2_K_S => GgmlType::Q2_K,
            Q3_K_S | Q3_K_M | Q3_K_L => GgmlType::Q3_K,
            Q4_K_S | Q4_K_M => GgmlType::Q4_K,
            Q5_K_S | Q5_K_M => GgmlType::Q5_K,
            Q6_K => GgmlType::Q6_K,
            IQ1_S => GgmlType::IQ1_S,
            IQ1_M => GgmlType::IQ1_M,
            IQ2_XXS => GgmlType::IQ2_XXS,
            IQ2_XS | IQ2_S => GgmlType::IQ2_XS,
            IQ2_M => GgmlType::IQ2_S,
            IQ3_XXS => GgmlType::IQ3_XXS,
            IQ3_XS | IQ3_S | IQ3_M => GgmlType::IQ3_S,
            IQ4_NL => GgmlType::IQ4_NL,
            IQ4_XS => GgmlType::IQ4_XS,
            TQ1_0 => GgmlType::TQ1_0,
            TQ2_0 => GgmlType::TQ2_0,
            MXFP4_MOE => GgmlType::MXFP4,
        }
    }

    fn parse(s: &str) -> Option<GgufMix> {
        GgufMix::ALL.iter().copied().find(|m| m.name().eq_ignore_ascii_case(s))
    }
}

/// How weights are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(tag = "format", rename_all = "snake_case")
)]
pub enum WeightFormat {
    /// IEEE single precision, 32 bits.
    F32,
    /// IEEE half precision, 16 bits.
    F16,
    /// bfloat16, 16 bits.
    Bf16,
    /// FP8 (E4M3) linear layers with one fp32 scale per 128 × 128 block (DeepSeek-V3, Qwen3-FP8
    /// checkpoints); embeddings, head and norms in bf16.
    Fp8,
    /// 8-bit integer linear layers (the seed's INT8); with a real architecture, LLM.int8-style:
    /// one fp32 scale per output row, embeddings and head in 16-bit.
    Int8,
    /// 4-bit integer linear layers (the seed's INT4); with a real architecture, one fp16 scale per
    /// group of 128, embeddings and head in 16-bit.
    Int4,
    /// bitsandbytes NF4: 4-bit codes, one absmax per 64 weights; with double quantization the
    /// absmax values are themselves 8-bit with one fp32 per 256 (QLoRA: about 4.127 bits).
    Nf4 {
        /// Double quantization of the absmax values.
        double_quant: bool,
    },
    /// OCP MXFP4: 4-bit codes with one shared 8-bit exponent per 32 (4.25 bits); in a real
    /// model only the experts (gpt-oss) — or every linear layer of a dense model.
    Mxfp4,
    /// NVIDIA NVFP4 (ModelOpt, compressed-tensors `nvfp4-pack-quantized`): 4-bit E2M1 codes, one
    /// FP8 (E4M3) scale per 16 values and per-tensor FP32 scales, on every linear layer of the
    /// blocks; embeddings, head, norms and routers in BF16 (4.5 bits).
    Nvfp4,
    /// NVFP4 for the weights only (compressed-tensors `NVFP4A16`): as [`WeightFormat::Nvfp4`]
    /// without the per-matrix input scale.
    Nvfp4A16,
    /// GPTQ: `bits`-bit codes, per-group fp16 scales and packed zeros, a g_idx per input row.
    Gptq {
        /// Bits per weight (2, 3, 4 or 8).
        bits: u8,
        /// Input rows per group; 0 means one group per column (per-channel).
        group: u32,
    },
    /// AWQ: `bits`-bit codes, per-group fp16 scales and packed zeros.
    Awq {
        /// Bits per weight (4).
        bits: u8,
        /// Input rows per group.
        group: u32,
    },
    /// FP8 (E4M3) linear layers with their scales laid out as the producing tool writes them:
    /// compressed-tensors `float-quantized` (per channel or tensor, scales in the model's dtype),
    /// ModelOpt FP8 (an FP32 weight scale and input scale per matrix), `fp8` checkpoints with
    /// other blocks than 128 × 128.
    Fp8Scaled {
        /// What one scale covers.
        grain: Grain,
        /// Bytes of one scale (2: BF16/FP16, 4: FP32).
        scale_bytes: u8,
        /// Bytes of the static input (activation) scales stored per matrix (0 when dynamic).
        input_bytes: u8,
    },
    /// Integer codes with a 16-bit scale per `grain` and optional zero points (compressed-tensors
    /// `pack-quantized` W4A16/W8A16 as in Kimi K2 Thinking, `int-quantized` W8A8).
    IntScaled {
        /// Bits per weight (2, 4 or 8).
        bits: u8,
        /// What one scale covers.
        grain: Grain,
        /// Asymmetric: zero points stored beside the scales (packed like the codes).
        zero_point: bool,
        /// Codes packed into int32 words with the original shape stored (`pack-quantized`);
        /// else one int8 per weight (`int-quantized`).
        packed: bool,
    },
    /// A GGUF file type (llama.cpp, Ollama).
    Gguf(GgufMix),
}

/// What one quantization scale covers in a weight matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Grain {
    /// One scale for the whole matrix (per expert for stacked experts).
    Tensor,
    /// One scale per output row.
    Channel,
    /// One scale per `n` consecutive inputs of a row.
    Group(u32),
    /// One scale per `rows × cols` block.
    Block(u32, u32),
}

impl Grain {
    /// Scales of a `rows × cols` matrix.
    pub fn scales(self, rows: u64, cols: u64) -> Option<u64> {
        match self {
            Grain::Tensor => Some(1),
            Grain::Channel => Some(rows),
            Grain::Group(g) => rows.checked_mul(cols.div_ceil(u64::from(g.max(1)))),
            Grain::Block(r, c) => {
                rows.div_ceil(u64::from(r.max(1))).checked_mul(cols.div_ceil(u64::from(c.max(1))))
            }
        }
    }

    fn id(self) -> String {
        match self {
            Grain::Tensor => "tensor".into(),
            Grain::Channel => "channel".into(),
            Grain::Group(g) => format!("g{g}"),
            Grain::Block(r, c) if r == c => format!("b{r}"),
            Grain::Block(r, c) => format!("b{r}x{c}"),
        }
    }

    fn label(self) -> String {
        match self {
            Grain::Tensor => "per-tensor".into(),
            Grain::Channel => "per-channel".into(),
            Grain::Group(g) => format!("g{g}"),
            Grain::Block(r, c) => format!("{r}×{c} blocks"),
        }
    }

    fn parse(s: &str) -> Option<Grain> {
        let ok = |n: u32| (1..=65_536).contains(&n);
        Some(match s {
            "tensor" => Grain::Tensor,
            "channel" => Grain::Channel,
            _ => {
                if let Some(g) = s.strip_prefix('g') {
                    let g: u32 = g.parse().ok()?;
                    if !ok(g) {
                        return None;
                    }
                    Grain::Group(g)
                } else if let Some(b) = s.strip_prefix('b') {
                    let (r, c) = match b.split_once('x') {
                        Some((r, c)) => (r.parse().ok()?, c.parse().ok()?),
                        None => {
                            let n: u32 = b.parse().ok()?;
                            (n, n)
                        }
                    };
                    if !ok(r) || !ok(c) {
                        return None;
                    }
                    Grain::Block(r, c)
                } else {
                    return None;
                }
            }
        })
    }
}

/// The formats menus offer, from the largest to the smallest.
pub const ALL_FORMATS: &[WeightFormat] = &[
    WeightFormat::F32,
    WeightFormat::F16,
    WeightFormat::Bf16,
    WeightFormat::Fp8,
    WeightFormat::Fp8Scaled { grain: Grain::Channel, scale_bytes: 2, input_bytes: 0 },
    WeightFormat::Fp8Scaled { grain: Grain::Tensor, scale_bytes: 4, input_bytes: 4 },
    WeightFormat::IntScaled { bits: 8, grain: Grain::Channel, zero_point: false, packed: false },
    WeightFormat::Int8,
    WeightFormat::Gguf(GgufMix::Q8_0),
    WeightFormat::Gguf(GgufMix::Q6_K),
    WeightFormat::Gguf(GgufMix::Q5_K_M),
    WeightFormat::Gguf(GgufMix::Q5_K_S),
    WeightFormat::Gguf(GgufMix::Q4_K_M),
    WeightFormat::Gguf(GgufMix::Q4_K_S),
    WeightFormat::Gguf(GgufMix::Q4_0),
    WeightFormat::Gguf(GgufMix::IQ4_XS),
    WeightFormat::Gptq { bits: 8, group: 128 },
    WeightFormat::Gptq { bits: 4, group: 128 },
    WeightFormat::Awq { bits: 4, group: 128 },
    WeightFormat::Nf4 { double_quant: true },
    WeightFormat::Nf4 { double_quant: false },
    WeightFormat::Nvfp4,
    WeightFormat::Nvfp4A16,
    WeightFormat::Mxfp4,
    WeightFormat::IntScaled { bits: 4, grain: Grain::Group(128), zero_point: false, packed: true },
    WeightFormat::IntScaled { bits: 4, grain: Grain::Group(32), zero_point: false, packed: true },
    WeightFormat::Int4,
    WeightFormat::Gguf(GgufMix::Q3_K_L),
    WeightFormat::Gguf(GgufMix::Q3_K_M),
    WeightFormat::Gguf(GgufMix::Q3_K_S),
    WeightFormat::Gguf(GgufMix::IQ3_M),
    WeightFormat::Gguf(GgufMix::IQ3_XXS),
    WeightFormat::Gguf(GgufMix::Q2_K),
    WeightFormat::Gguf(GgufMix::IQ2_M),
    WeightFormat::Gguf(GgufMix::IQ2_XS),
    WeightFormat::Gguf(GgufMix::IQ2_XXS),
    WeightFormat::Gguf(GgufMix::IQ1_M),
    WeightFormat::Gguf(GgufMix::IQ1_S),
];

/// The seed guide's five rows.
pub const SEED_FORMATS: [WeightFormat; 5] =
    [WeightFormat::F32, WeightFormat::F16, WeightFormat::Bf16, WeightFormat::Int8, WeightFormat::Int4];

impl WeightFormat {
    /// The id used by the CLI and the link (`fp16`, `q4_k_m`, `gptq-4bit`, `nf4`…).
    pub fn id(self) -> String {
        match self {
            WeightFormat::F32 => "fp32".into(),
            WeightFormat::F16 => "fp16".into(),
            WeightFormat::Bf16 => "bf16".into(),
            WeightFormat::Fp8 => "fp8".into(),
            WeightFormat::Int8 => "int8".into(),
            WeightFormat::Int4 => "int4".into(),
            WeightFormat::Nf4 { double_quant: true } => "nf4".into(),
            WeightFormat::Nf4 { double_quant: false } => "nf4-single".into(),
            WeightFormat::Mxfp4 => "mxfp4".into(),
            WeightFormat::Nvfp4 => "nvfp4".into(),
            WeightFormat::Nvfp4A16 => "nvfp4-a16".into(),
            WeightFormat::Gptq { bits, group } => group_id("gptq", bits, group),
            WeightFormat::Awq { bits, group } => group_id("awq", bits, group),
            WeightFormat::Fp8Scaled { grain, scale_bytes, input_bytes } => {
                let mut id = format!("fp8-{}", grain.id());
                // The defaults: compressed-tensors' BF16 scales, ModelOpt's FP32 pair per tensor.
                let (s, i) = if grain == Grain::Tensor { (4, 4) } else { (2, 0) };
                if (scale_bytes, input_bytes) != (s, i) {
                    id.push_str(&format!("-s{scale_bytes}-i{input_bytes}"));
                }
                id
            }
            WeightFormat::IntScaled { bits, grain, zero_point, packed } => {
                let mut id = format!("int{bits}-{}", grain.id());
                if zero_point {
                    id.push_str("-asym");
                }
                if !packed {
                    id.push_str("-unpacked");
                }
                id
            }
            WeightFormat::Gguf(m) if !m.default_type().is_quantized() => {
                format!("gguf-{}", m.name().to_ascii_lowercase())
            }
            WeightFormat::Gguf(m) => m.name().to_ascii_lowercase(),
        }
    }

    /// The name people use (`FP16`, `Q4_K_M`, `GPTQ 4-bit g128`).
    pub fn label(self) -> String {
        match self {
            WeightFormat::F32 => "FP32".into(),
            WeightFormat::F16 => "FP16".into(),
            WeightFormat::Bf16 => "BF16".into(),
            WeightFormat::Fp8 => "FP8".into(),
            WeightFormat::Int8 => "INT8".into(),
            WeightFormat::Int4 => "INT4".into(),
            WeightFormat::Nf4 { double_quant: true } => "NF4 (double quant)".into(),
            WeightFormat::Nf4 { double_quant: false } => "NF4".into(),
            WeightFormat::Mxfp4 => "MXFP4".into(),
            WeightFormat::Nvfp4 => "NVFP4".into(),
            WeightFormat::Nvfp4A16 => "NVFP4 (weights only)".into(),
            WeightFormat::Gptq { bits, group } => group_label("GPTQ", bits, group),
            WeightFormat::Awq { bits, group } => group_label("AWQ", bits, group),
            WeightFormat::Fp8Scaled { grain, .. } => format!("FP8 {}", grain.label()),
            WeightFormat::IntScaled { bits, grain, zero_point, .. } => {
                format!("INT{bits} {}{}", grain.label(), if zero_point { " asym" } else { "" })
            }
            WeightFormat::Gguf(m) if !m.default_type().is_quantized() => format!("GGUF {}", m.name()),
            WeightFormat::Gguf(m) => m.name().into(),
        }
    }

    /// Bits per weight when a bare parameter count is stored this way: the seed's table for its
    /// five formats, the storage of one weight with its scales for the others (a GGUF mix by its
    /// main tensor type: the real file is larger, see [`crate::tensors`]).
    pub fn flat_bits_per_weight(self) -> BitsPerWeight {
        BitsPerWeight::new(match self {
            WeightFormat::F32 => 32.0,
            WeightFormat::F16 | WeightFormat::Bf16 => 16.0,
            WeightFormat::Fp8 | WeightFormat::Int8 => 8.0,
            WeightFormat::Int4 => 4.0,
            WeightFormat::Nf4 { double_quant: true } => 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0),
            WeightFormat::Nf4 { double_quant: false } => 4.0 + 32.0 / 64.0,
            WeightFormat::Mxfp4 => 4.25,
            WeightFormat::Nvfp4 | WeightFormat::Nvfp4A16 => 4.5,
            WeightFormat::Gptq { bits, group } | WeightFormat::Awq { bits, group } => {
                let g = if group == 0 { 4096.0 } else { group as f64 };
                bits as f64 + (16.0 + bits as f64) / g
            }
            // A 4096-wide row stands for the per-channel and per-tensor scales.
            WeightFormat::Fp8Scaled { grain, scale_bytes, .. } => {
                8.0 + 8.0 * scale_bytes as f64 / grain_weights(grain)
            }
            WeightFormat::IntScaled { bits, grain, zero_point, .. } => {
                let zp = if zero_point { bits as f64 } else { 0.0 };
                bits as f64 + (16.0 + zp) / grain_weights(grain)
            }
            WeightFormat::Gguf(m) => m.default_type().bits_per_weight().get(),
        })
    }

    /// An FP8 format (any scale layout).
    pub fn is_fp8(self) -> bool {
        matches!(self, WeightFormat::Fp8 | WeightFormat::Fp8Scaled { .. })
    }

    /// Whether this is one of the seed's five rows.
    pub fn is_seed(self) -> bool {
        SEED_FORMATS.contains(&self)
    }

    /// Whether the format is a GGUF file type (the llama.cpp family of runtimes).
    pub fn is_gguf(self) -> bool {
        matches!(self, WeightFormat::Gguf(_))
    }

    /// Parses an id, case-insensitively, with the common spellings (`float16`, `half`, `Q4_K_M`,
    /// `gptq-4bit`, `gptq-4bit-g32`, `awq`, `nf4`).
    ///
    /// # Errors
    /// [`Error::Invalid`] on `weights` naming the accepted values.
    ///
    /// # Example
    /// ```
    /// use headroom_core::precision::{GgufMix, WeightFormat};
    /// assert_eq!(WeightFormat::parse("FP16"), Ok(WeightFormat::F16));
    /// assert_eq!(WeightFormat::parse("q4_k_m"), Ok(WeightFormat::Gguf(GgufMix::Q4_K_M)));
    /// assert_eq!(WeightFormat::parse("gptq-4bit"), Ok(WeightFormat::Gptq { bits: 4, group: 128 }));
    /// assert!(WeightFormat::parse("fp12").is_err());
    /// // unsloth's dynamic mixes are read from their files, not guessed:
    /// assert!(format!("{}", WeightFormat::parse("UD-Q4_K_XL").unwrap_err()).contains("header"));
    /// ```
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        let f = match lower.as_str() {
            "fp32" | "f32" | "float32" | "float" => WeightFormat::F32,
            "fp16" | "f16" | "float16" | "half" => WeightFormat::F16,
            "bf16" | "bfloat16" => WeightFormat::Bf16,
            "fp8" | "f8" | "float8" | "e4m3" | "fp8_e4m3" | "e5m2" | "fp8_e5m2" => WeightFormat::Fp8,
            "int8" | "i8" | "8bit" | "llm.int8" => WeightFormat::Int8,
            "int4" | "i4" => WeightFormat::Int4,
            "nf4" | "nf4-dq" | "qlora" => WeightFormat::Nf4 { double_quant: true },
            "nf4-single" | "nf4-nodq" => WeightFormat::Nf4 { double_quant: false },
            "mxfp4" => WeightFormat::Mxfp4,
            "nvfp4" | "fp4" | "nvfp4-pack-quantized" => WeightFormat::Nvfp4,
            "nvfp4-a16" | "nvfp4a16" => WeightFormat::Nvfp4A16,
            "gptq" => WeightFormat::Gptq { bits: 4, group: 128 },
            "awq" => WeightFormat::Awq { bits: 4, group: 128 },
            _ => {
                if let Some(m) = lower.strip_prefix("gguf-").and_then(GgufMix::parse) {
                    WeightFormat::Gguf(m)
                } else if let Some(m) = GgufMix::parse(&lower) {
                    WeightFormat::Gguf(m)
                } else if let Some(f) = parse_grouped(&lower) {
                    f
                } else if let Some(f) = parse_scaled(&lower) {
                    f
                } else if let Some(near) = GgufMix::unsloth_dynamic_nearest(&lower) {
                    // unsloth's dynamic mixes choose each tensor's type by a per-model recipe they
                    // do not publish: only the file's header says what it holds.
                    let near = near.name().to_ascii_lowercase();
                    return Err(Error::invalid(
                        "weights",
                        format!(
                            "`{t}` is one of unsloth's dynamic GGUF mixes, whose per-tensor types follow a recipe unsloth does not publish: give the .gguf file (--gguf, or its Hub address on the page) and Headroom reads each tensor's type from its header exactly; the nearest standard mix is {near}"
                        ),
                    ));
                } else {
                    return Err(Error::invalid(
                        "weights",
                        format!(
                            "`{t}` is not a known format; accepted: fp32 fp16 bf16 fp8 int8 int4 nf4 mxfp4 nvfp4, \
                             gptq-4bit awq-4bit (with -g32/-g64/-g128), fp8-channel fp8-tensor fp8-b128, \
                             int4-g128 int4-g32 int4-g128-asym int8-channel, GGUF types such as q8_0 q6_k \
                             q5_k_m q4_k_m q4_0 iq4_xs q3_k_m q2_k iq2_xxs"
                        ),
                    ));
                }
            }
        };
        Ok(f)
    }
}

fn group_id(kind: &str, bits: u8, group: u32) -> String {
    if group == 128 {
        format!("{kind}-{bits}bit")
    } else if group == 0 {
        format!("{kind}-{bits}bit-g0")
    } else {
        format!("{kind}-{bits}bit-g{group}")
    }
}

fn group_label(kind: &str, bits: u8, group: u32) -> String {
    if group == 0 { format!("{kind} {bits}-bit per-channel") } else { format!("{kind} {bits}-bit g{group}") }
}

/// Weights one scale covers, for the flat bits of a bare parameter count.
fn grain_weights(g: Grain) -> f64 {
    match g {
        Grain::Tensor => 4096.0 * 4096.0,
        Grain::Channel => 4096.0,
        Grain::Group(n) => n.max(1) as f64,
        Grain::Block(r, c) => r.max(1) as f64 * c.max(1) as f64,
    }
}

/// `fp8-channel`, `fp8-tensor`, `fp8-b128-s2-i0`, `int4-g32`, `int4-g128-asym`,
/// `int8-channel-unpacked`.
fn parse_scaled(s: &str) -> Option<WeightFormat> {
    let mut parts = s.split('-');
    let head = parts.next()?;
    let grain = Grain::parse(parts.next()?)?;
    let rest: Vec<&str> = parts.collect();
    if head == "fp8" {
        let (mut sb, mut ib) = if grain == Grain::Tensor { (4u8, 4u8) } else { (2, 0) };
        match rest.as_slice() {
            [] => {}
            [a, b] => {
                sb = a.strip_prefix('s')?.parse().ok()?;
                ib = b.strip_prefix('i')?.parse().ok()?;
                if !matches!(sb, 1 | 2 | 4) || !matches!(ib, 0 | 1 | 2 | 4 | 8) {
                    return None;
                }
            }
            _ => return None,
        }
        return Some(WeightFormat::Fp8Scaled { grain, scale_bytes: sb, input_bytes: ib });
    }
    let bits: u8 = head.strip_prefix("int")?.parse().ok()?;
    if !matches!(bits, 2 | 4 | 8) {
        return None;
    }
    let (mut zero_point, mut packed) = (false, true);
    for r in rest {
        match r {
            "asym" if !zero_point => zero_point = true,
            "unpacked" if packed => packed = false,
            _ => return None,
        }
    }
    if !packed && bits != 8 {
        return None;
    }
    Some(WeightFormat::IntScaled { bits, grain, zero_point, packed })
}

/// `gptq-4bit`, `gptq-4bit-g32`, `awq-4bit-g64`, `gptq-8bit-g0` (per-channel).
fn parse_grouped(s: &str) -> Option<WeightFormat> {
    let (kind, rest) = s.split_once('-')?;
    let (bits_part, group_part) = match rest.split_once('-') {
        Some((b, g)) => (b, Some(g)),
        None => (rest, None),
    };
    let bits: u8 = bits_part.strip_suffix("bit").unwrap_or(bits_part).parse().ok()?;
    let group: u32 = match group_part {
        Some(g) => g.strip_prefix('g')?.parse().ok()?,
        None => 128,
    };
    if group != 0 && !(16..=4096).contains(&group) {
        return None;
    }
    match kind {
        "gptq" if matches!(bits, 2 | 3 | 4 | 8) => Some(WeightFormat::Gptq { bits, group }),
        "awq" if bits == 4 && group != 0 => Some(WeightFormat::Awq { bits, group }),
        _ => None,
    }
}

/// One row of the seed guide's table: storage per billion parameters at a precision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedRow {
    /// The format.
    pub format: WeightFormat,
    /// Gigabytes (10^9 bytes) per billion parameters, i.e. bytes per parameter.
    pub gb_per_billion: f64,
    /// What the guide says it is used for.
    pub use_en: &'static str,
    /// The same in French (the guide's words).
    pub use_fr: &'static str,
}

/// The seed guide's table of storage per billion parameters (fp32 4, fp16 2, bf16 2, int8 1,
/// int4 0.5), which the calculator shows with the chosen row highlighted.
pub const SEED_TABLE: [SeedRow; 5] = [
    SeedRow {
        format: WeightFormat::F32,
        gb_per_billion: 4.0,
        use_en: "Training, high-precision inference",
        use_fr: "Entraînement, inférence haute précision",
    },
    SeedRow {
        format: WeightFormat::F16,
        gb_per_billion: 2.0,
        use_en: "Training, inference",
        use_fr: "Entraînement, inférence",
    },
    SeedRow {
        format: WeightFormat::Bf16,
        gb_per_billion: 2.0,
        use_en: "Training, inference",
        use_fr: "Entraînement, inférence",
    },
    SeedRow {
        format: WeightFormat::Int8,
        gb_per_billion: 1.0,
        use_en: "Quantized inference",
        use_fr: "Inférence quantifiée",
    },
    SeedRow {
        format: WeightFormat::Int4,
        gb_per_billion: 0.5,
        use_en: "Low-precision quantized inference",
        use_fr: "Inférence quantifiée basse précision",
    },
];

/// The number format of the KV cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum KvDtype {
    /// 32-bit floats.
    F32,
    /// 16-bit floats (the default of every runtime).
    #[default]
    F16,
    /// bfloat16.
    Bf16,
    /// FP8 (vLLM `--kv-cache-dtype fp8`), 1 byte per element.
    Fp8,
    /// ggml Q8_0 blocks: 34 bytes per 32 values (llama.cpp `-ctk q8_0`).
    Q8_0,
    /// ggml Q4_0 blocks: 18 bytes per 32 values.
    Q4_0,
}

impl KvDtype {
    /// Every KV format.
    pub const ALL: [KvDtype; 6] =
        [KvDtype::F32, KvDtype::F16, KvDtype::Bf16, KvDtype::Fp8, KvDtype::Q8_0, KvDtype::Q4_0];

    /// The id used by the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            KvDtype::F32 => "fp32",
            KvDtype::F16 => "fp16",
            KvDtype::Bf16 => "bf16",
            KvDtype::Fp8 => "fp8",
            KvDtype::Q8_0 => "q8_0",
            KvDtype::Q4_0 => "q4_0",
        }
    }

    /// Bytes of a row of `n` cached values: whole 32-value blocks for the ggml types (a partial
    /// block is padded, as llama.cpp pads rows).
    pub fn row_bytes(self, n: u64) -> u64 {
        match self {
            KvDtype::F32 => n.saturating_mul(4),
            KvDtype::F16 | KvDtype::Bf16 => n.saturating_mul(2),
            KvDtype::Fp8 => n,
            KvDtype::Q8_0 => n.div_ceil(32).saturating_mul(34),
            KvDtype::Q4_0 => n.div_ceil(32).saturating_mul(18),
        }
    }

    /// A block-quantized ggml type (Q8_0, Q4_0), not a float.
    pub const fn is_quantized(self) -> bool {
        matches!(self, KvDtype::Q8_0 | KvDtype::Q4_0)
    }

    /// Bytes per value (block overhead included).
    pub fn bytes_per_element(self) -> f64 {
        match self {
            KvDtype::F32 => 4.0,
            KvDtype::F16 | KvDtype::Bf16 => 2.0,
            KvDtype::Fp8 => 1.0,
            KvDtype::Q8_0 => 34.0 / 32.0,
            KvDtype::Q4_0 => 18.0 / 32.0,
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`Error::Invalid`] on `kv` naming the accepted values.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().as_str() {
            "fp32" | "f32" | "float32" => KvDtype::F32,
            // vLLM's `--kv-cache-dtype auto`: the model's own 16-bit type (two bytes a value).
            "fp16" | "f16" | "float16" | "half" | "auto" => KvDtype::F16,
            "bf16" | "bfloat16" => KvDtype::Bf16,
            "fp8" | "fp8_e4m3" | "fp8_e5m2" | "f8" => KvDtype::Fp8,
            "q8_0" | "q8" => KvDtype::Q8_0,
            "q4_0" | "q4" => KvDtype::Q4_0,
            _ => {
                return Err(Error::invalid(
                    "kv",
                    format!(
                        "`{t}` is not a KV-cache format; accepted: fp32 fp16 bf16 fp8 q8_0 q4_0 (auto: 16-bit)"
                    ),
                ));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_table_matches_flat_bits() {
        for row in SEED_TABLE {
            assert_eq!(row.format.flat_bits_per_weight().bytes_per_weight(), row.gb_per_billion);
        }
    }

    #[test]
    fn ids_round_trip() {
        for f in ALL_FORMATS {
            assert_eq!(WeightFormat::parse(&f.id()), Ok(*f), "{}", f.id());
        }
        for m in GgufMix::ALL {
            assert_eq!(WeightFormat::parse(&WeightFormat::Gguf(m).id()), Ok(WeightFormat::Gguf(m)));
            assert_eq!(GgufMix::from_ftype_id(m.ftype_id()), Some(m));
        }
        for t in GgmlType::ALL {
            assert_eq!(GgmlType::from_gguf_id(t.gguf_id()), Some(t));
        }
        for k in KvDtype::ALL {
            assert_eq!(KvDtype::parse(k.id()), Ok(k));
        }
        // vLLM's name for the model's own 16-bit cache.
        assert_eq!(KvDtype::parse("auto"), Ok(KvDtype::F16));
        for f in [WeightFormat::Gptq { bits: 4, group: 32 }, WeightFormat::Gptq { bits: 8, group: 0 }] {
            assert_eq!(WeightFormat::parse(&f.id()), Ok(f));
        }
        for f in [
            WeightFormat::Fp8Scaled { grain: Grain::Block(128, 128), scale_bytes: 2, input_bytes: 0 },
            WeightFormat::Fp8Scaled { grain: Grain::Tensor, scale_bytes: 2, input_bytes: 2 },
            WeightFormat::Fp8Scaled { grain: Grain::Block(64, 128), scale_bytes: 4, input_bytes: 0 },
            WeightFormat::IntScaled { bits: 4, grain: Grain::Group(128), zero_point: true, packed: true },
            WeightFormat::IntScaled { bits: 8, grain: Grain::Tensor, zero_point: false, packed: true },
        ] {
            assert_eq!(WeightFormat::parse(&f.id()), Ok(f), "{}", f.id());
        }
        for bad in [
            "int3-g128",
            "int4-g0",
            "int4-g128-unpacked",
            "fp8-g",
            "fp8-b0",
            "fp8-channel-s3-i0",
            "int4-g32-asym-asym",
        ] {
            assert!(WeightFormat::parse(bad).is_err(), "{bad}");
        }
        assert!(WeightFormat::parse("gptq-5bit").is_err());
        assert!(WeightFormat::parse("awq-4bit-g7").is_err());
    }

    /// The block sizes of ggml-common.h, as published (validation group 4, `official spec`).
    #[test]
    fn ggml_bits_per_weight_match_the_source() {
        use GgmlType::*;
        for (t, bpw) in [
            (Q4_0, 4.5),
            (Q4_1, 5.0),
            (Q5_0, 5.5),
            (Q5_1, 6.0),
            (Q8_0, 8.5),
            (Q2_K, 2.625),
            (Q3_K, 3.4375),
            (Q4_K, 4.5),
            (Q5_K, 5.5),
            (Q6_K, 6.5625),
            (IQ4_XS, 4.25),
            (IQ4_NL, 4.5),
            (IQ2_XXS, 2.0625),
            (IQ2_XS, 2.3125),
            (IQ3_XXS, 3.0625),
            (IQ3_S, 3.4375),
            (IQ1_S, 1.5625),
            (IQ1_M, 1.75),
            (MXFP4, 4.25),
            (TQ2_0, 2.0625),
        ] {
            assert_eq!(t.bits_per_weight().get(), bpw, "{}", t.name());
        }
    }

    #[test]
    fn quantized_kv_pays_for_its_block_scales() {
        assert_eq!(KvDtype::Q8_0.row_bytes(1024), 1088);
        assert_eq!(KvDtype::Q4_0.row_bytes(1024), 576);
        assert_eq!(KvDtype::F16.row_bytes(1024), 2048);
        assert_eq!(KvDtype::Q8_0.row_bytes(33), 68);
    }

    #[test]
    fn nf4_with_double_quant_is_about_4_127_bits() {
        let b = WeightFormat::Nf4 { double_quant: true }.flat_bits_per_weight().get();
        assert!((b - 4.127).abs() < 0.001, "{b}");
    }
}
