//! The tensors a checkpoint stores, and their bytes in each weight format.
//!
//! [`inventory`] lists every tensor of an [`Architecture`] with its role and shape, in the order a
//! GGUF file holds them (layer by layer). [`weight_bytes`] prices each one in a [`WeightFormat`]:
//! plain floats by their width; quantized formats on the tensors their tools quantize (linear
//! layers inside the blocks) with their scales, leaving embeddings, head and norms at 16 bits;
//! GGUF file types by the per-tensor rules of llama.cpp's `llama_tensor_get_type`
//! (`src/llama-quant.cpp`), which keep sensitive tensors at more bits.

use alloc::vec::Vec;

use crate::error::{OrOverflow, Result};
use crate::model::{Architecture, Mixer};
use crate::precision::{GgmlType, GgufMix, Grain, WeightFormat};
use crate::units::Bytes;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

pub use crate::tensor::{Part, Role, Tensor};

/// Every tensor of the model, layer by layer, then the final norm and the head.
///
/// # Errors
/// [`crate::Error::Invalid`] when the architecture does not validate.
pub fn inventory(a: &Architecture) -> Result<Vec<Tensor>> {
    a.inventory()
}

/// Bytes of every tensor in a format, in inventory order.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Priced {
    /// The tensors.
    pub tensors: Vec<Tensor>,
    /// Bytes of each tensor.
    pub bytes: Vec<u64>,
    /// The GGUF type chosen for each tensor (empty for other formats).
    pub gguf_types: Vec<GgmlType>,
    /// The format of each tensor when a checkpoint's quantization plan decided them (empty when
    /// one format priced them all).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub formats: Vec<WeightFormat>,
}

impl Priced {
    /// All bytes.
    pub fn total(&self) -> Bytes {
        Bytes::new(self.bytes.iter().fold(0u64, |a, b| a.saturating_add(*b)))
    }

    /// Bytes of the tensors of layer `i`.
    pub fn layer(&self, i: u32) -> u64 {
        self.tensors
            .iter()
            .zip(&self.bytes)
            .filter(|(t, _)| t.layer == Some(i))
            .fold(0u64, |a, (_, b)| a.saturating_add(*b))
    }

    /// Bytes of each of the first `layers` layers, in one pass over the tensors.
    pub fn layer_sums(&self, layers: u64) -> Vec<u64> {
        let mut sums = alloc::vec![0u64; layers.min(crate::model::MAX_LAYERS) as usize];
        for (t, b) in self.tensors.iter().zip(&self.bytes) {
            if let Some(slot) = t.layer.and_then(|l| sums.get_mut(l as usize)) {
                *slot = slot.saturating_add(*b);
            }
        }
        sums
    }

    /// The tensors without the encoders' and the speech output's (multimodal and omni
    /// checkpoints), the encoders' bytes and the speech output's.
    pub fn without_encoders(&self) -> (Priced, u64, u64) {
        let keep: Vec<bool> =
            self.tensors.iter().map(|t| !matches!(t.role, Role::Encoder | Role::Speech)).collect();
        if keep.iter().all(|k| *k) {
            return (self.clone(), 0, 0);
        }
        let pick =
            |v: &[u64]| v.iter().zip(&keep).filter(|(_, k)| **k).map(|(b, _)| *b).collect::<Vec<u64>>();
        let encoder = self.sum_where(|t| t.role == Role::Encoder);
        let speech = self.sum_where(|t| t.role == Role::Speech);
        let p = Priced {
            tensors: self.tensors.iter().zip(&keep).filter(|(_, k)| **k).map(|(t, _)| *t).collect(),
            bytes: pick(&self.bytes),
            gguf_types: if self.gguf_types.len() == keep.len() {
                self.gguf_types.iter().zip(&keep).filter(|(_, k)| **k).map(|(g, _)| *g).collect()
            } else {
                Vec::new()
            },
            formats: if self.formats.len() == keep.len() {
                self.formats.iter().zip(&keep).filter(|(_, k)| **k).map(|(f, _)| *f).collect()
            } else {
                Vec::new()
            },
        };
        (p, encoder, speech)
    }

    /// Bytes of the tensors matching `pred`.
    pub fn sum_where(&self, pred: impl Fn(&Tensor) -> bool) -> u64 {
        self.tensors
            .iter()
            .zip(&self.bytes)
            .filter(|(t, _)| pred(t))
            .fold(0u64, |a, (_, b)| a.saturating_add(*b))
    }
}

/// Every tensor priced in `format`: by the checkpoint's own quantization plan
/// ([`crate::quant`]) when `format` is its format, else each tensor by the format's rule.
///
/// # Errors
/// [`crate::Error::Invalid`] for a shape that does not validate, [`crate::Error::Overflow`] for absurd sizes.
///
/// # Example
/// ```
/// use headroom_core::{catalog, precision::WeightFormat, tensors};
/// let a = catalog::model("llama-2-7b").unwrap().architecture().unwrap();
/// let fp16 = tensors::weight_bytes(&a, WeightFormat::F16).unwrap().total();
/// assert_eq!(fp16.get(), 6_738_415_616 * 2);
/// ```
pub fn weight_bytes(a: &Architecture, format: WeightFormat) -> Result<Priced> {
    if let Some(plan) = a.quant.as_ref().filter(|p| p.headline == format && !format.is_gguf()) {
        return crate::quant::price(a, plan);
    }
    let tensors = inventory(a)?;
    let mut bytes = Vec::with_capacity(tensors.len());
    let mut gguf_types = Vec::new();
    match format {
        WeightFormat::Gguf(mix) => {
            let mut rules = GgufRules::new(a, mix, &tensors);
            for t in &tensors {
                let ty = rules.type_for(t);
                let b = gguf_tensor_bytes(t, ty).or_overflow("weight memory")?;
                gguf_types.push(ty);
                bytes.push(b);
            }
        }
        _ => {
            for t in &tensors {
                bytes.push(tensor_bytes(a, t, format).or_overflow("weight memory")?);
            }
        }
    }
    Ok(Priced { tensors, bytes, gguf_types, formats: Vec::new() })
}

/// Bytes of the multi-token-prediction modules in a checkpoint format (not GGUF: llama.cpp's
/// conversions drop or rebuild them): what a download of the checkpoint adds to the model's own
/// tensors.
///
/// # Errors
/// [`crate::Error::Invalid`] for a shape that does not validate, [`crate::Error::Overflow`] for absurd sizes.
pub fn mtp_bytes(a: &Architecture, format: WeightFormat) -> Result<Bytes> {
    Ok(mtp_priced(a, format)?.total())
}

/// The multi-token-prediction modules' tensors priced one by one, as [`mtp_bytes`] sums them
/// (by the checkpoint's quantization plan when `format` is its headline); none for a GGUF or a
/// model without them.
///
/// # Errors
/// [`crate::Error::Invalid`] when the architecture does not validate; [`crate::Error::Overflow`] for absurd
/// sizes.
pub fn mtp_priced(a: &Architecture, format: WeightFormat) -> Result<Priced> {
    let mut p =
        Priced { tensors: Vec::new(), bytes: Vec::new(), gguf_types: Vec::new(), formats: Vec::new() };
    if format.is_gguf() || a.mtp.is_none() {
        return Ok(p);
    }
    let plan = a.quant.as_ref().filter(|p| p.headline == format);
    for t in a.mtp_inventory()? {
        let b = match plan {
            Some(p) => crate::quant::price_one(a, &t, p)?,
            None => tensor_bytes(a, &t, format).or_overflow("weight memory")?,
        };
        p.tensors.push(t);
        p.bytes.push(b);
    }
    Ok(p)
}

fn mul(v: &[u64]) -> Option<u64> {
    v.iter().try_fold(1u64, |a, b| a.checked_mul(*b))
}

/// Bytes of a tensor in a non-GGUF format, on the tensors the format's tools quantize by default
/// (linear layers of the blocks; experts only for MXFP4 in a mixture of experts; routers too for
/// bitsandbytes); everything else (embeddings, head, norms, routers) stays 16-bit.
fn tensor_bytes(a: &Architecture, t: &Tensor, format: WeightFormat) -> Option<u64> {
    if let Some(width) = t.role.fixed_width() {
        return t.elements().checked_mul(width);
    }
    let linear = t.role.is_block_linear();
    let quantized = match format {
        WeightFormat::F32 | WeightFormat::F16 | WeightFormat::Bf16 => true,
        WeightFormat::Nf4 { .. } => linear || t.role == Role::Router,
        WeightFormat::Mxfp4 => t.role.is_expert() || (a.moe().is_none() && linear),
        _ => linear,
    };
    if quantized { quantized_bytes(t, format) } else { t.elements().checked_mul(2) }
}

/// Bytes of a matrix stored in a quantized `format`, whatever its role: the codes with every
/// scale, zero point and shape tensor its tool writes (a float format is its plain width).
pub(crate) fn quantized_bytes(t: &Tensor, format: WeightFormat) -> Option<u64> {
    let n = t.elements();
    if let Some(width) = t.role.fixed_width() {
        return n.checked_mul(width);
    }
    let rows = mul(&[t.rows, t.experts])?;
    let half = n.checked_mul(2);
    match format {
        WeightFormat::F32 => n.checked_mul(4),
        WeightFormat::F16 | WeightFormat::Bf16 => half,
        WeightFormat::Fp8 => {
            let blocks = mul(&[t.rows.div_ceil(128), t.cols.div_ceil(128), t.experts, 4])?;
            n.checked_add(blocks)
        }
        WeightFormat::Fp8Scaled { grain, scale_bytes, input_bytes } => {
            // `weight` in FP8, `weight_scale` of the grain's shape, `input_scale` when static.
            let scales = mul(&[grain.scales(t.rows, t.cols)?, t.experts, u64::from(scale_bytes)])?;
            n.checked_add(scales)?.checked_add(mul(&[t.experts, u64::from(input_bytes)])?)
        }
        WeightFormat::IntScaled { bits, grain, zero_point, packed } => {
            let b = u64::from(bits);
            let groups = grain.scales(1, t.cols)?;
            let per_row = match grain {
                Grain::Tensor => 0,
                _ => groups,
            };
            let scale_count = match grain {
                Grain::Tensor => 1,
                Grain::Block(..) => grain.scales(t.rows, t.cols)?,
                _ => mul(&[t.rows, per_row])?,
            };
            let scales = mul(&[scale_count, 2, t.experts])?;
            if packed {
                // compressed-tensors `pack-quantized`: `weight_packed` int32 [out, ⌈in·b/32⌉],
                // `weight_scale` 16-bit, `weight_shape` int64 [2], and for asymmetric group or
                // channel schemes `weight_zero_point` int32 [⌈out·b/32⌉, groups].
                let codes = mul(&[t.rows, mul(&[t.cols, b])?.div_ceil(32), 4, t.experts])?;
                let zp = if zero_point && matches!(grain, Grain::Group(_) | Grain::Channel) {
                    mul(&[mul(&[t.rows, b])?.div_ceil(32), groups, 4, t.experts])?
                } else {
                    0
                };
                codes.checked_add(scales)?.checked_add(zp)?.checked_add(mul(&[t.experts, 16])?)
            } else {
                // `int-quantized`: one int8 per weight, int8 zero points beside the scales.
                let zp = if zero_point { mul(&[scale_count, t.experts])? } else { 0 };
                n.checked_add(scales)?.checked_add(zp)
            }
        }
        // LLM.int8 (bitsandbytes): int8 codes, an FP32 scale per output row (`SCB`) and a
        // one-byte `weight_format` per matrix.
        WeightFormat::Int8 => n.checked_add(rows.checked_mul(4)?)?.checked_add(t.experts),
        WeightFormat::Int4 => {
            let scales = mul(&[t.cols.div_ceil(128), rows, 2])?;
            n.div_ceil(2).checked_add(scales)
        }
        WeightFormat::Nf4 { double_quant } => {
            // Per matrix, as bitsandbytes' `QuantState.as_dict(packed=True)` saves it: the codes
            // two to a byte, one absmax per 64 (FP32, or 8-bit with double quantization and
            // then one FP32 per 256 of them and the 256-entry FP32 nested code table), the
            // 16-entry FP32 code table, and the JSON of the rest (`quant_state.bitsandbytes__nf4`).
            let per = mul(&[t.rows, t.cols])?;
            let blocks = per.div_ceil(64);
            let body = if double_quant {
                per.div_ceil(2)
                    .checked_add(blocks)?
                    .checked_add(blocks.div_ceil(256).checked_mul(4)?)?
                    .checked_add(256 * 4)?
            } else {
                per.div_ceil(2).checked_add(blocks.checked_mul(4)?)?
            };
            let state = 16 * 4 + bnb_state_json(t.rows, t.cols, double_quant);
            mul(&[body.checked_add(state)?, t.experts])
        }
        WeightFormat::Nvfp4 | WeightFormat::Nvfp4A16 => {
            // Two codes per byte, one E4M3 scale per 16 values of a row, and per matrix (per
            // expert) an FP32 weight scale and, when activations are quantized too, an FP32
            // input scale.
            let scales = mul(&[t.cols.div_ceil(16), rows])?;
            let per_matrix = if format == WeightFormat::Nvfp4 { 8 } else { 4 };
            n.div_ceil(2).checked_add(scales)?.checked_add(mul(&[t.experts, per_matrix])?)
        }
        WeightFormat::Mxfp4 => {
            // 16 bytes of 4-bit codes and one E8M0 exponent byte per 32 values.
            mul(&[n.div_ceil(32), 17])
        }
        WeightFormat::Gptq { bits, group } | WeightFormat::Awq { bits, group } => {
            let b = bits as u64;
            let g = if group == 0 { t.cols } else { group as u64 };
            let groups = t.cols.div_ceil(g);
            // Codes packed into int32 words: 32/b values per word.
            let packed_rows = mul(&[t.rows, b])?.div_ceil(32);
            let qweight = if matches!(format, WeightFormat::Gptq { .. }) {
                // GPTQ packs along the input dimension.
                mul(&[mul(&[t.cols, b])?.div_ceil(32), t.rows, 4, t.experts])?
            } else {
                // AWQ packs along the output dimension.
                mul(&[t.cols, packed_rows, 4, t.experts])?
            };
            let qzeros = mul(&[groups, packed_rows, 4, t.experts])?;
            let scales = mul(&[groups, t.rows, 2, t.experts])?;
            let g_idx =
                if matches!(format, WeightFormat::Gptq { .. }) { mul(&[t.cols, 4, t.experts])? } else { 0 };
            qweight.checked_add(qzeros)?.checked_add(scales)?.checked_add(g_idx)
        }
        // GGUF types are priced by their own rules (`gguf_tensor_bytes`).
        WeightFormat::Gguf(_) => half,
    }
}

/// Bytes of the JSON bitsandbytes packs into `quant_state.bitsandbytes__nf4`:
/// `{"quant_type": "nf4", "blocksize": 64, "dtype": "bfloat16", "shape": [R, C]}`, and with
/// double quantization `"nested_blocksize": 256, "nested_dtype": "float32", "nested_offset": x`
/// where `x`, the mean absmax as Python prints a float32, is taken at its usual 20 characters
/// (16–21 seen; an FP16 model's `"float16"` is one byte shorter).
fn bnb_state_json(rows: u64, cols: u64, double_quant: bool) -> u64 {
    let digits = |v: u64| v.checked_ilog10().map_or(1, |d| u64::from(d) + 1);
    74 + digits(rows) + digits(cols) + if double_quant { 71 + 20 } else { 0 }
}

fn gguf_tensor_bytes(t: &Tensor, ty: GgmlType) -> Option<u64> {
    let rows = mul(&[t.rows, t.experts])?;
    ty.row_bytes(t.cols)?.checked_mul(rows)
}

/// llama.cpp's choice of tensor type per tensor for a file type.
struct GgufRules {
    mix: GgufMix,
    n_gqa: u64,
    n_expert: u64,
    n_layer: u64,
    is_falcon: bool,
    is_70b: bool,
    has_output: bool,
    has_imatrix: bool,
    i_attention_wv: u64,
    n_attention_wv: u64,
    i_ffn_down_seen: u64,
    /// Each cache layer's block in the file: layers that reuse earlier layers' weights
    /// (HRM-Text's later runs) have none, so a stored layer's block counts stored layers only.
    block: Vec<u64>,
}

impl GgufRules {
    fn new(a: &Architecture, mix: GgufMix, tensors: &[Tensor]) -> Self {
        let family = a.family.as_str();
        GgufRules {
            mix,
            n_gqa: match a.first_attention() {
                Some(Mixer::Attention(s)) => s.num_heads / s.num_kv_heads.max(1),
                _ => 1,
            },
            n_expert: a.moe().map_or(0, |m| m.num_experts),
            n_layer: a.num_layers(),
            is_falcon: family == "falcon",
            // llama.cpp names 80-layer Llama and Qwen2 models LLM_TYPE_70B and gives their attn_v more bits.
            is_70b: a.num_layers() == 80 && matches!(family, "llama" | "mistral" | "qwen2"),
            has_output: tensors.iter().any(|t| t.role == Role::Output),
            // The very low-bit types cannot be made without an importance matrix; the others are
            // assumed made without one (llama.cpp's default).
            has_imatrix: matches!(
                mix,
                GgufMix::IQ1_S
                    | GgufMix::IQ1_M
                    | GgufMix::IQ2_XXS
                    | GgufMix::IQ2_XS
                    | GgufMix::IQ2_S
                    | GgufMix::IQ2_M
                    | GgufMix::IQ3_XXS
                    | GgufMix::Q2_K_S
            ),
            i_attention_wv: 0,
            // llama.cpp counts attn_v, attn_qkv and attn_kv_b tensors: one per attention layer.
            n_attention_wv: tensors
                .iter()
                .filter(|t| matches!(t.role, Role::AttnV | Role::AttnQkv | Role::AttnKvB))
                .count() as u64,
            i_ffn_down_seen: 0,
            block: {
                let mut next = 0u64;
                a.groups
                    .iter()
                    .flat_map(|g| {
                        core::iter::repeat_n(g.tied, g.count.min(crate::model::MAX_LAYERS) as usize)
                    })
                    .map(|tied| {
                        let b = next;
                        next += u64::from(!tied);
                        b
                    })
                    .collect()
            },
        }
    }

    /// `use_more_bits` of llama-quant.cpp: the first and last eighth of the layers, and every
    /// third layer in between.
    fn use_more_bits(i: u64, n: u64) -> bool {
        i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2
    }

    fn type_for(&mut self, t: &Tensor) -> GgmlType {
        use GgufMix as M;
        let mix = self.mix;
        let default = mix.default_type();
        let base_float = match mix {
            M::F32 => GgmlType::F32,
            M::BF16 => GgmlType::BF16,
            _ => GgmlType::F16,
        };
        // Vectors and fixed-width state stay F32; position embeddings and routers are never
        // quantized.
        if t.role.is_vector() || t.role.fixed_width().is_some() {
            return GgmlType::F32;
        }
        if matches!(t.role, Role::PosEmbd | Role::Router) {
            return base_float;
        }
        if !default.is_quantized() {
            return default;
        }
        // The layer number llama.cpp's rules read: the block the tensor's name gives.
        let layer = t.layer.map_or(0, |l| self.block.get(l as usize).copied().unwrap_or(u64::from(l)));
        let n = self.n_layer;
        let iq_low = matches!(mix, M::IQ2_XXS | M::IQ2_XS | M::IQ1_S | M::IQ2_S | M::IQ2_M | M::IQ1_M);
        let mut ty = default;
        let is_output = t.role == Role::Output || (!self.has_output && t.role == Role::TokenEmbd);
        if is_output {
            ty = if mix == M::MXFP4_MOE || self.is_falcon || !t.cols.is_multiple_of(default.block().0) {
                GgmlType::Q8_0
            } else if matches!(
                mix,
                M::IQ2_XXS | M::IQ2_XS | M::IQ3_XXS | M::IQ1_S | M::IQ2_S | M::IQ2_M | M::IQ1_M
            ) {
                GgmlType::Q5_K
            } else if default != GgmlType::Q8_0 {
                GgmlType::Q6_K
            } else {
                default
            };
        } else if mix == M::MXFP4_MOE {
            ty = if t.experts > 1 { GgmlType::MXFP4 } else { GgmlType::Q8_0 };
        } else if t.role == Role::TokenEmbd {
            ty = match mix {
                M::IQ2_XXS | M::IQ2_XS | M::IQ1_S | M::IQ1_M => GgmlType::Q2_K,
                M::IQ2_S | M::IQ2_M | M::IQ3_XXS => GgmlType::IQ3_S,
                M::TQ1_0 | M::TQ2_0 => GgmlType::Q4_K,
                _ => default,
            };
        } else if iq_low {
            match t.role {
                Role::AttnV => {
                    ty = if self.n_gqa >= 4 || self.n_expert >= 4 {
                        GgmlType::Q4_K
                    } else if matches!(mix, M::IQ2_S | M::IQ2_M) {
                        GgmlType::IQ3_S
                    } else {
                        GgmlType::Q2_K
                    };
                    self.i_attention_wv += 1;
                }
                Role::AttnK if self.n_expert == 8 => ty = GgmlType::Q4_K,
                Role::FfnDown | Role::ExpDown | Role::ShDown => {
                    if self.i_ffn_down_seen < n / 8 {
                        ty =
                            if matches!(mix, M::IQ2_S | M::IQ2_M) { GgmlType::IQ3_S } else { GgmlType::Q2_K };
                    }
                    self.i_ffn_down_seen += 1;
                }
                Role::AttnOut => {
                    if self.n_expert == 8 {
                        ty = GgmlType::Q5_K;
                    } else if matches!(mix, M::IQ1_S | M::IQ1_M) {
                        ty = GgmlType::IQ2_XXS;
                    } else if matches!(mix, M::IQ2_S | M::IQ2_M) {
                        ty = GgmlType::IQ3_S;
                    }
                }
                _ => {}
            }
        } else {
            match t.role {
                Role::AttnV => {
                    let i = self.i_attention_wv;
                    let gqa4 = self.n_gqa >= 4;
                    ty = match mix {
                        M::Q2_K => {
                            if gqa4 {
                                GgmlType::Q4_K
                            } else {
                                GgmlType::Q3_K
                            }
                        }
                        M::Q2_K_S if gqa4 => GgmlType::Q4_K,
                        M::IQ3_XXS => {
                            if gqa4 {
                                GgmlType::Q4_K
                            } else if !self.has_imatrix {
                                GgmlType::IQ3_S
                            } else {
                                GgmlType::IQ3_XXS
                            }
                        }
                        M::IQ3_XS | M::IQ3_S if gqa4 => GgmlType::Q4_K,
                        M::IQ3_M => GgmlType::Q4_K,
                        M::Q3_K_M => {
                            if i < 2 {
                                GgmlType::Q5_K
                            } else {
                                GgmlType::Q4_K
                            }
                        }
                        M::Q3_K_L => GgmlType::Q5_K,
                        M::IQ4_NL | M::IQ4_XS if gqa4 => GgmlType::Q5_K,
                        M::Q4_K_M | M::Q5_K_M if Self::use_more_bits(i, self.n_attention_wv_total()) => {
                            GgmlType::Q6_K
                        }
                        M::Q4_K_S if i < 4 => GgmlType::Q5_K,
                        _ => default,
                    };
                    if self.is_70b && matches!(ty, GgmlType::Q3_K | GgmlType::Q4_K) {
                        ty = GgmlType::Q5_K;
                    }
                    if self.n_expert == 8 {
                        ty = GgmlType::Q8_0;
                    }
                    self.i_attention_wv += 1;
                }
                Role::AttnK => {
                    if self.n_expert == 8 {
                        ty = GgmlType::Q8_0;
                    } else if mix == M::IQ3_XS {
                        ty = GgmlType::IQ3_XXS;
                    } else if mix == M::IQ3_XXS {
                        ty = GgmlType::IQ2_S;
                    }
                }
                Role::AttnQ => {
                    if mix == M::IQ3_XS {
                        ty = GgmlType::IQ3_XXS;
                    } else if mix == M::IQ3_XXS {
                        ty = GgmlType::IQ2_S;
                    }
                }
                Role::FfnDown | Role::ExpDown | Role::ShDown => {
                    // llama.cpp's `layer_info`: the block in the name for a MoE model, else the
                    // count of `ffn_down` tensors before this one.
                    let i = if self.n_expert > 1 { layer } else { self.i_ffn_down_seen };
                    self.i_ffn_down_seen += 1;
                    let more = Self::use_more_bits(i, n);
                    ty = match mix {
                        M::Q2_K => GgmlType::Q3_K,
                        M::Q2_K_S if i < n / 8 => GgmlType::Q4_K,
                        M::IQ3_XXS if !self.has_imatrix => {
                            if i < n / 8 {
                                GgmlType::Q4_K
                            } else {
                                GgmlType::Q3_K
                            }
                        }
                        M::Q3_K_M => {
                            if i < n / 16 {
                                GgmlType::Q5_K
                            } else if !self.is_falcon || more {
                                GgmlType::Q4_K
                            } else {
                                GgmlType::Q3_K
                            }
                        }
                        M::IQ3_M if i < n / 8 || (self.n_expert == 8 && more) => GgmlType::Q4_K,
                        M::Q3_K_L => {
                            if self.is_falcon {
                                GgmlType::Q4_K
                            } else {
                                GgmlType::Q5_K
                            }
                        }
                        M::Q4_K_M => {
                            if self.is_falcon {
                                if i < n / 16 {
                                    GgmlType::Q6_K
                                } else if more {
                                    GgmlType::Q5_K
                                } else {
                                    GgmlType::Q4_K
                                }
                            } else if more {
                                GgmlType::Q6_K
                            } else {
                                default
                            }
                        }
                        M::IQ4_NL | M::IQ4_XS if i < n / 8 && !self.has_imatrix => GgmlType::Q5_K,
                        M::Q5_K_M if more => GgmlType::Q6_K,
                        M::Q4_K_S if !self.is_falcon && i < n / 8 => GgmlType::Q5_K,
                        M::Q4_0 if self.has_imatrix && i < n / 8 => GgmlType::Q4_1,
                        M::Q5_0 if self.has_imatrix && i < n / 8 => GgmlType::Q5_1,
                        _ => default,
                    };
                }
                Role::AttnOut => {
                    if !self.is_falcon {
                        if self.n_expert == 8 {
                            if matches!(
                                mix,
                                M::Q2_K
                                    | M::IQ3_XS
                                    | M::IQ3_XXS
                                    | M::Q3_K_S
                                    | M::Q3_K_M
                                    | M::IQ4_NL
                                    | M::Q4_K_S
                                    | M::Q4_K_M
                                    | M::IQ3_S
                                    | M::IQ3_M
                                    | M::IQ4_XS
                            ) {
                                ty = GgmlType::Q5_K;
                            }
                        } else {
                            ty = match mix {
                                M::Q2_K => GgmlType::Q3_K,
                                M::IQ3_XXS => GgmlType::IQ3_S,
                                M::Q3_K_M => GgmlType::Q4_K,
                                M::Q3_K_L => GgmlType::Q5_K,
                                M::IQ3_M => GgmlType::Q4_K,
                                _ => default,
                            };
                        }
                    } else if mix == M::Q3_K_L {
                        ty = GgmlType::Q4_K;
                    }
                }
                Role::AttnQkv => {
                    ty = match mix {
                        M::Q3_K_M | M::Q3_K_L | M::IQ3_M => GgmlType::Q4_K,
                        M::Q4_K_M => GgmlType::Q5_K,
                        M::Q5_K_M => GgmlType::Q6_K,
                        _ => default,
                    };
                    self.i_attention_wv += 1;
                }
                Role::FfnGate
                | Role::FfnUp
                | Role::FfnGateUp
                | Role::ExpGate
                | Role::ExpUp
                | Role::ShGate
                | Role::ShUp
                | Role::ShExpGate
                    if mix == M::IQ3_XS && layer >= n / 8 && layer < 7 * n / 8 =>
                {
                    ty = GgmlType::IQ3_XXS;
                }
                _ => {}
            }
        }
        // Rows whose length is not a multiple of the block fall back to a type that fits.
        if !t.cols.is_multiple_of(ty.block().0) {
            ty = match ty {
                GgmlType::TQ1_0 | GgmlType::TQ2_0 => GgmlType::Q4_0,
                GgmlType::IQ2_XXS
                | GgmlType::IQ2_XS
                | GgmlType::IQ2_S
                | GgmlType::IQ3_XXS
                | GgmlType::IQ3_S
                | GgmlType::IQ1_S
                | GgmlType::IQ1_M
                | GgmlType::Q2_K
                | GgmlType::Q3_K
                | GgmlType::IQ4_XS => GgmlType::IQ4_NL,
                GgmlType::Q4_K => GgmlType::Q5_0,
                GgmlType::Q5_K => GgmlType::Q5_1,
                GgmlType::Q6_K => GgmlType::Q8_0,
                other => other,
            };
            if !t.cols.is_multiple_of(ty.block().0) {
                ty = GgmlType::F16;
            }
        }
        ty
    }

    /// Attention value tensors counted by llama.cpp (`n_attention_wv`): one per attention layer.
    fn n_attention_wv_total(&self) -> u64 {
        self.n_attention_wv
    }
}

/// Where a stored tensor sits and what it does, from its name in a GGUF file
/// (`blk.3.ffn_up_exps.weight`) or a Hugging Face checkpoint (`model.layers.3.mlp.up_proj.weight`).
/// Encoder tensors of multimodal checkpoints (vision towers, projectors) are [`Role::Encoder`]
/// outside any layer: counted in their own term.
/// Other unknown names are [`Role::Norm`] in the layer their name gives, if any.
pub fn role_of_name(name: &str) -> (Option<u32>, Role) {
    // An omni model's speech output (talker, vocoder) has layers of its own too.
    if ["talker.", "code2wav.", "token2wav."].iter().any(|p| name.starts_with(p)) {
        return (None, Role::Speech);
    }
    // A multimodal checkpoint's encoders have layers of their own: not the language model's
    // (DeepSeek-OCR's SAM, projector and view separator; DeepSeek-OCR-2's Qwen2 encoder and its
    // learned queries; ERNIE 4.5 VL's resampler).
    if [
        "vision",
        "visual",
        "audio",
        "mm_projector",
        "multi_modal",
        "image_newline",
        "sam_model",
        "model.projector.",
        "view_seperator",
        "view_separator",
        "qwen2_model.",
        "model.query_",
        "resampler",
    ]
    .iter()
    .any(|k| name.contains(k))
        // MiniCPM-V's SigLIP (`vpm`), InternVL's projector (`mlp1`), Phi-4-multimodal's image
        // embedding.
        || ["vpm.", "mlp1."].iter().any(|p| name.starts_with(p))
        || name.contains("image_embed")
    {
        return (None, Role::Encoder);
    }
    let layer = layer_of_name(name);
    let n = name.strip_suffix(".weight").unwrap_or(name);
    let last = n.rsplit('.').next().unwrap_or(n);
    let has = |s: &str| n.contains(s);
    let role = if name.ends_with(".bias") || last == "bias" {
        Role::Bias
    } else if layer.is_none() {
        if matches!(
            n,
            "token_embd"
                | "model.embed_tokens"
                | "transformer.wte"
                | "gpt_neox.embed_in"
                | "transformer.word_embeddings"
        ) || has("embed_tokens")
            || last == "wte"
            || last == "word_embeddings"
            || n.ends_with("embed_in")
        {
            Role::TokenEmbd
        } else if last == "wpe" || n == "position_embd" || has("position_embeddings") {
            Role::PosEmbd
        } else if n == "output" || n == "lm_head" || n.ends_with(".lm_head") || n.ends_with("embed_out") {
            Role::Output
        } else {
            Role::Norm
        }
    } else if has("sinks") {
        Role::Sinks
    } else if has("norm") || last.starts_with("ln") {
        Role::Norm
    } else if last == "A_log" || last == "D" || last == "dt_bias" || last == "ssm_a" || last == "ssm_d" {
        Role::MixState
    } else if has("conv1d") || has("ssm_conv") || last == "conv" {
        Role::MixConv
    } else if has("x_proj") || has("dt_proj") || has("ssm_x") || has("ssm_dt") {
        Role::MixProj
    } else if has("ssm_in") || has("in_proj") || has("shortconv.in") {
        Role::MixIn
    } else if has("ssm_out")
        || ((has("mamba") || has("mixer") || has("linear_attn") || has("conv")) && has("out_proj"))
    {
        Role::MixOut
    } else if has("indexer") {
        if has("wq") {
            Role::IdxQ
        } else if has("wk") {
            Role::IdxK
        } else {
            Role::IdxWeights
        }
    } else if has("eh_proj") {
        Role::MtpProj
    } else if has("latent_proj") || has("routed_expert_down_proj") || has("routed_expert_up_proj") {
        Role::MoeLatent
    } else if has("shexp") || has("shared_expert") {
        if has("gate_inp") || last == "shared_expert_gate" {
            Role::ShExpGate
        } else if has("gate") {
            Role::ShGate
        } else if has("up") {
            Role::ShUp
        } else {
            Role::ShDown
        }
    } else if has("_exps") || has(".experts.") || has(".experts_") || n.ends_with(".experts") {
        if has("gate") {
            Role::ExpGate
        } else if has("up") || has("w1") || has("w3") {
            Role::ExpUp
        } else {
            Role::ExpDown
        }
    } else if has("gate_inp")
        || n.ends_with("mlp.gate")
        || has("router")
        || n.ends_with("block_sparse_moe.gate")
    {
        Role::Router
    } else if has("gate_up") {
        Role::FfnGateUp
    } else if has("ffn_gate") || has("gate_proj") || last == "w1" {
        Role::FfnGate
    } else if has("ffn_up") || has("up_proj") || last == "w3" || has("dense_h_to_4h") || last == "c_fc" {
        Role::FfnUp
    } else if has("ffn_down")
        || has("down_proj")
        || last == "w2"
        || has("dense_4h_to_h")
        || (has("mlp") && last == "c_proj")
    {
        Role::FfnDown
    } else if has("attn_qkv") || has("qkv_proj") || has("query_key_value") || last == "c_attn" || has("Wqkv")
    {
        Role::AttnQkv
    } else if has("q_a_proj") || has("attn_q_a") {
        Role::AttnQA
    } else if has("q_b_proj") || has("attn_q_b") {
        Role::AttnQB
    } else if has("kv_a_proj") || has("attn_kv_a") {
        Role::AttnKvA
    } else if has("kv_b_proj") || has("attn_kv_b") {
        Role::AttnKvB
    } else if has("attn_q") || has("q_proj") {
        Role::AttnQ
    } else if has("attn_k") || has("k_proj") {
        Role::AttnK
    } else if has("attn_v") || has("v_proj") {
        Role::AttnV
    } else if has("attn_output")
        || has("o_proj")
        || has("attention.dense")
        || last == "c_proj"
        || has("out_proj")
    {
        Role::AttnOut
    } else {
        Role::Norm
    };
    (layer, role)
}

/// The layer number in a tensor name: the first all-digit path component after `blk`, `layers`,
/// `h`, `layer` or `blocks`.
fn layer_of_name(name: &str) -> Option<u32> {
    let mut parts = name.split('.');
    while let Some(p) = parts.next() {
        if matches!(p, "blk" | "layers" | "h" | "layer" | "blocks")
            && let Some(d) = parts.clone().next()
            && !d.is_empty()
            && d.bytes().all(|b| b.is_ascii_digit())
        {
            return d.parse().ok();
        }
    }
    None
}

/// One stored tensor read from a file: its name, dimensions (`ne[0]`, the row length, first) and
/// bytes, and its GGUF type when it comes from a GGUF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTensor<'a> {
    /// Its name.
    pub name: &'a str,
    /// Dimensions, row length first.
    pub dims: &'a [u64],
    /// Bytes.
    pub bytes: u64,
    /// GGUF type.
    pub gguf: Option<GgmlType>,
}

impl Priced {
    /// The tensors of a file, priced by their own bytes (exact), with roles and layers from their
    /// names so placement (llama.cpp's `-ngl`, layer splits) uses the real sizes.
    pub fn from_stored<'a>(stored: impl IntoIterator<Item = StoredTensor<'a>>) -> Priced {
        let mut p = Priced::default();
        let mut all_gguf = true;
        for s in stored {
            let (layer, role) = role_of_name(s.name);
            let cols = s.dims.first().copied().unwrap_or(1);
            let rows = s.dims.get(1).copied().unwrap_or(1);
            let experts = s.dims.iter().skip(2).fold(1u64, |a, d| a.saturating_mul(*d));
            p.tensors.push(Tensor { role, layer, rows, cols, experts });
            p.bytes.push(s.bytes);
            match s.gguf {
                Some(t) => p.gguf_types.push(t),
                None => all_gguf = false,
            }
        }
        if !all_gguf {
            p.gguf_types.clear();
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn use_more_bits_matches_llama_cpp() {
        // For 32 layers: layers 0-3, 28-31, and 4 + 3k + 2 = 6, 9, …, 27.
        let picked: Vec<u64> = (0..32).filter(|i| GgufRules::use_more_bits(*i, 32)).collect();
        assert_eq!(picked, [0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31]);
    }

    #[test]
    fn stored_names_give_layers_and_roles() {
        let cases: [(&str, Option<u32>, Role); 30] = [
            ("token_embd.weight", None, Role::TokenEmbd),
            ("model.embed_tokens.weight", None, Role::TokenEmbd),
            ("lm_head.weight", None, Role::Output),
            ("output.weight", None, Role::Output),
            ("transformer.wpe.weight", None, Role::PosEmbd),
            ("blk.3.attn_q.weight", Some(3), Role::AttnQ),
            ("blk.3.attn_v.weight", Some(3), Role::AttnV),
            ("blk.0.ffn_down_exps.weight", Some(0), Role::ExpDown),
            ("blk.1.ffn_gate_inp.weight", Some(1), Role::Router),
            ("blk.2.ffn_up_shexp.weight", Some(2), Role::ShUp),
            ("model.layers.12.self_attn.o_proj.weight", Some(12), Role::AttnOut),
            ("model.layers.5.mlp.experts.7.gate_proj.weight", Some(5), Role::ExpGate),
            ("model.layers.5.self_attn.q_proj.qweight", Some(5), Role::AttnQ),
            ("model.layers.5.self_attn.q_proj.bias", Some(5), Role::Bias),
            ("model.layers.0.post_attention_layernorm.weight", Some(0), Role::Norm),
            ("vision_tower.vision_model.encoder.layers.3.self_attn.q_proj.weight", None, Role::Encoder),
            // An omni checkpoint: the thinker's language model, its encoders, its speech output.
            ("thinker.model.layers.7.mlp.experts.3.up_proj.weight", Some(7), Role::ExpUp),
            ("thinker.audio_tower.layers.0.fc1.weight", None, Role::Encoder),
            ("thinker.visual.blocks.0.attn.qkv.weight", None, Role::Encoder),
            // DeepSeek-OCR's SAM, projector and view separator; DeepSeek-OCR-2's Qwen2 encoder;
            // ERNIE 4.5 VL's resampler.
            ("model.sam_model.blocks.3.attn.qkv.weight", None, Role::Encoder),
            ("model.projector.layers.weight", None, Role::Encoder),
            ("model.view_seperator", None, Role::Encoder),
            ("model.qwen2_model.model.layers.3.mlp.up_proj.weight", None, Role::Encoder),
            ("model.resampler_model.mlp.0.weight", None, Role::Encoder),
            ("vpm.encoder.layers.0.self_attn.q_proj.weight", None, Role::Encoder),
            ("mlp1.1.weight", None, Role::Encoder),
            ("model.embed_tokens_extend.image_embed.img_projection.0.weight", None, Role::Encoder),
            ("talker.model.layers.2.self_attn.q_proj.weight", None, Role::Speech),
            ("code2wav.decoder.1.block.0.conv.weight", None, Role::Speech),
            ("token2wav.code2wav_dit_model.blocks.0.attn.to_q.weight", None, Role::Speech),
        ];
        for (name, layer, role) in cases {
            assert_eq!(role_of_name(name), (layer, role), "{name}");
        }
    }
}

#[cfg(test)]
mod nvfp4_tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn nvfp4_prices_every_block_linear_at_four_and_a_half_bits() {
        let a = catalog::model("llama-3.1-8b").unwrap().architecture().unwrap();
        let p = weight_bytes(&a, WeightFormat::Nvfp4).unwrap();
        for (t, b) in p.tensors.iter().zip(&p.bytes) {
            let n = t.rows * t.cols * t.experts;
            if t.role.is_block_linear() {
                assert_eq!(*b, n / 2 + t.rows * t.cols.div_ceil(16) + 8, "{t:?}");
            } else {
                assert_eq!(*b, n * 2, "{t:?} stays 16-bit");
            }
        }
        // 4.5 bits per weight on the linear layers: between MXFP4's experts-only and FP8.
        let fp8 = weight_bytes(&a, WeightFormat::Fp8).unwrap().total().get();
        assert!(p.total().get() < fp8);
    }
}
