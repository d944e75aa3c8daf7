//! GGUF headers: the metadata and tensor infos at the start of a llama.cpp model file, read
//! without the weights.
//!
//! Layout (version 2 and 3, little-endian): magic `GGUF`, version `u32`, tensor count `u64`,
//! metadata count `u64`; then each metadata entry (a string key, a `u32` type, a value; strings
//! are a `u64` length and bytes; arrays an element type, a `u64` count and the elements); then each
//! tensor's name, dimension count, dimensions, `ggml_type` and data offset; then the data, aligned.
//!
//! The header's length is not known in advance (a 150,000-entry vocabulary makes it several MB),
//! so [`parse`] tells a caller reading a file in slices how many bytes it needs
//! ([`GgufError::Truncated`]) and the caller retries with more. Nothing is allocated from a count
//! or length the file declares before the bytes are there; long arrays (the vocabulary) are
//! counted and skipped, not stored.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Error;
use crate::model::{
    Architecture, Attention, Ffn, GatedDeltaNet, LayerGroup, Mamba, MambaVersion, Mixer, Mla, Mlp, Moe,
    NormKind, QkNorm, ShortConv, Span, Stack,
};
use crate::precision::{GgmlType, GgufMix, WeightFormat};
use crate::scenario::{CustomModel, FileFacts};
use crate::tensors::{Priced, StoredTensor};
use crate::text::{Arg, Msg, MsgId};
use crate::units::{Bytes, Params};

const FORMAT: &str = "GGUF header";

/// The most tensors accepted (real models have a few thousand).
pub const MAX_TENSORS: u64 = 1 << 20;
/// The most metadata entries accepted.
pub const MAX_KV: u64 = 1 << 16;
/// The largest header accepted (a header beyond this is not a model).
pub const MAX_HEADER: u64 = 256 << 20;
/// The first read of a header (most fit; a large vocabulary takes a few more).
pub const FIRST_READ: u64 = 256 << 10;

/// How many bytes from the start to have for the next try after [`GgufError::Truncated`]: at
/// least what the parser asked for, and at least twice what it had, so a several-MB vocabulary
/// takes a handful of reads, never one per string.
pub fn next_read(have: u64, needed: u64) -> u64 {
    needed.max(have.saturating_mul(2)).min(MAX_HEADER)
}

/// Arrays of strings longer than this are counted, not stored.
const KEEP_ARRAY: u64 = 64;
/// Arrays of numbers or flags longer than this (a vocabulary's scores) are counted, not stored;
/// per-layer arrays are kept up to [`crate::model::MAX_LAYERS`].
const KEEP_NUMBERS: u64 = crate::model::MAX_LAYERS;

/// Why a header could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GgufError {
    /// The bytes end before the header does: read at least this many from the start and retry.
    Truncated {
        /// Bytes needed from the start of the file (a lower bound).
        needed: u64,
    },
    /// Not a GGUF header, or a broken one.
    Invalid(Error),
}

impl From<GgufError> for Error {
    fn from(e: GgufError) -> Error {
        match e {
            GgufError::Truncated { needed } => Error::parse(
                FORMAT,
                format!("the file ends inside its header (at least {needed} bytes are needed)"),
            ),
            GgufError::Invalid(e) => e,
        }
    }
}

/// A metadata value.
#[derive(Clone, Debug, PartialEq)]
pub enum MetaValue {
    /// Any unsigned integer type.
    U(u64),
    /// Any signed integer type.
    I(i64),
    /// `f32` or `f64`.
    F(f64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(String),
    /// An array: its element type and length, and its elements when short.
    Array {
        /// Element type id.
        elem: u32,
        /// Number of elements.
        len: u64,
        /// The elements, when there are at most 64 (else empty).
        values: Vec<MetaValue>,
    },
}

impl MetaValue {
    /// The value as an unsigned integer (also the largest element of a numeric array, as for
    /// per-layer head counts).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            MetaValue::U(v) => Some(*v),
            MetaValue::I(v) => u64::try_from(*v).ok(),
            MetaValue::Array { values, .. } => values.iter().filter_map(MetaValue::as_u64).max(),
            _ => None,
        }
    }

    /// The value as a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            MetaValue::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// One tensor info.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgufTensor {
    /// Its name (`blk.0.attn_q.weight`).
    pub name: String,
    /// Dimensions, `ne[0]` first (the row length).
    pub dims: Vec<u64>,
    /// Storage type.
    pub ty: GgmlType,
    /// Bytes of its data.
    pub bytes: u64,
}

impl GgufTensor {
    /// Elements.
    pub fn elements(&self) -> u64 {
        self.dims.iter().fold(1u64, |a, d| a.saturating_mul(*d))
    }
}

/// A parsed header.
#[derive(Clone, Debug, PartialEq)]
pub struct Gguf {
    /// Format version.
    pub version: u32,
    /// Metadata entries.
    pub metadata: Vec<(String, MetaValue)>,
    /// Tensor infos.
    pub tensors: Vec<GgufTensor>,
    /// Bytes of the header, up to the (aligned) start of the data.
    pub header_bytes: u64,
    /// Alignment of tensor data (`general.alignment`, 32 by default).
    pub alignment: u64,
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn need(&self, n: u64) -> Result<(), GgufError> {
        let end = (self.i as u64).saturating_add(n);
        if end > MAX_HEADER {
            return Err(GgufError::Invalid(Error::parse(
                FORMAT,
                "a length or count in the header is absurd",
            )));
        }
        if end > self.b.len() as u64 {
            return Err(GgufError::Truncated { needed: end });
        }
        Ok(())
    }

    fn take(&mut self, n: usize) -> Result<&[u8], GgufError> {
        self.need(n as u64)?;
        let s = &self.b[self.i..self.i + n];
        self.i += n;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, GgufError> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    fn u64(&mut self) -> Result<u64, GgufError> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(u64::from_le_bytes(a))
    }

    fn string(&mut self) -> Result<String, GgufError> {
        let n = self.u64()?;
        if n > 1 << 20 {
            return Err(invalid(format!("a metadata string of {n} bytes is absurd")));
        }
        self.need(n)?;
        let s = self.take(n as usize)?;
        // Vocabulary entries may hold any bytes; keep what is valid UTF-8, replace the rest.
        Ok(String::from_utf8_lossy(s).into_owned())
    }

    fn skip_string(&mut self) -> Result<(), GgufError> {
        let n = self.u64()?;
        self.need(n)?;
        self.i += n as usize;
        Ok(())
    }
}

fn invalid(why: String) -> GgufError {
    GgufError::Invalid(Error::parse(FORMAT, why))
}

fn scalar_size(t: u32) -> Option<u64> {
    Some(match t {
        0 | 1 | 7 => 1,
        2 | 3 => 2,
        4..=6 => 4,
        10..=12 => 8,
        _ => return None,
    })
}

fn read_scalar(c: &mut Cursor<'_>, t: u32) -> Result<MetaValue, GgufError> {
    let s = c.take(scalar_size(t).unwrap_or(0) as usize)?;
    let mut a = [0u8; 8];
    a[..s.len()].copy_from_slice(s);
    let u = u64::from_le_bytes(a);
    Ok(match t {
        0 | 2 | 4 | 10 => MetaValue::U(u),
        1 => MetaValue::I(i64::from(s[0] as i8)),
        3 => MetaValue::I(i64::from(i16::from_le_bytes([s[0], s[1]]))),
        5 => MetaValue::I(i64::from(i32::from_le_bytes([s[0], s[1], s[2], s[3]]))),
        11 => MetaValue::I(u as i64),
        6 => MetaValue::F(f64::from(f32::from_bits(u as u32))),
        12 => MetaValue::F(f64::from_bits(u)),
        7 => MetaValue::Bool(s[0] != 0),
        _ => return Err(invalid(format!("unknown metadata type {t}"))),
    })
}

fn read_value(c: &mut Cursor<'_>, t: u32, depth: u32) -> Result<MetaValue, GgufError> {
    match t {
        8 => Ok(MetaValue::Str(c.string()?)),
        9 => {
            if depth > 2 {
                return Err(invalid("arrays nested too deep".into()));
            }
            let elem = c.u32()?;
            let len = c.u64()?;
            if let Some(size) = scalar_size(elem) {
                c.need(len.saturating_mul(size))?;
            }
            let mut values = Vec::new();
            // Per-layer numbers and flags are kept for the deepest stacks; strings (the
            // vocabulary) only when few.
            let keep = if scalar_size(elem).is_some() { KEEP_NUMBERS } else { KEEP_ARRAY };
            for k in 0..len {
                if k < keep {
                    values.push(read_value(c, elem, depth + 1)?);
                } else if let Some(size) = scalar_size(elem) {
                    // The rest of a numeric array at once (its bytes were checked above).
                    let rest = (len - k).saturating_mul(size);
                    c.need(rest)?;
                    c.i += rest as usize;
                    break;
                } else if elem == 8 {
                    c.skip_string()?;
                } else {
                    read_value(c, elem, depth + 1)?;
                }
            }
            if len > keep {
                values.clear();
            }
            Ok(MetaValue::Array { elem, len, values })
        }
        _ if scalar_size(t).is_some() => read_scalar(c, t),
        _ => Err(invalid(format!("unknown metadata type {t}"))),
    }
}

/// Parses a GGUF header from the start of a file (the weights after it may be absent).
///
/// # Errors
/// [`GgufError::Truncated`] with the bytes needed when `bytes` ends inside the header;
/// [`GgufError::Invalid`] for a wrong magic, an unsupported version, absurd counts or lengths,
/// unknown tensor types, or rows that do not divide into their type's blocks.
pub fn parse(bytes: &[u8]) -> Result<Gguf, GgufError> {
    let mut c = Cursor { b: bytes, i: 0 };
    let magic = c.take(4)?;
    if magic != b"GGUF" {
        return Err(invalid("the file does not start with GGUF: not a GGUF file".into()));
    }
    let version = c.u32()?;
    if !(2..=3).contains(&version) {
        return Err(invalid(format!("GGUF version {version} is not supported (2 and 3 are)")));
    }
    let n_tensors = c.u64()?;
    let n_kv = c.u64()?;
    if n_tensors > MAX_TENSORS || n_kv > MAX_KV {
        return Err(invalid(format!("{n_tensors} tensors and {n_kv} metadata entries is absurd")));
    }
    let mut metadata = Vec::new();
    let mut alignment: u64 = 32;
    for _ in 0..n_kv {
        let key = c.string()?;
        let t = c.u32()?;
        let v = read_value(&mut c, t, 0)?;
        if key == "general.alignment" {
            alignment = v
                .as_u64()
                .filter(|a| *a > 0 && a.is_power_of_two() && *a <= 1 << 16)
                .ok_or_else(|| invalid("bad general.alignment".into()))?;
        }
        metadata.push((key, v));
    }
    let mut tensors = Vec::new();
    for _ in 0..n_tensors {
        let name = c.string()?;
        let n_dims = c.u32()?;
        if n_dims == 0 || n_dims > 4 {
            return Err(invalid(format!("tensor `{name}` has {n_dims} dimensions (1 to 4 allowed)")));
        }
        let mut dims = Vec::with_capacity(n_dims as usize);
        for _ in 0..n_dims {
            dims.push(c.u64()?);
        }
        let ty_id = c.u32()?;
        let ty = GgmlType::from_gguf_id(ty_id)
            .ok_or_else(|| invalid(format!("tensor `{name}` has unknown type {ty_id}")))?;
        let _offset = c.u64()?;
        let rows = dims[1..]
            .iter()
            .try_fold(1u64, |a, d| a.checked_mul(*d))
            .ok_or_else(|| invalid(format!("tensor `{name}` is absurdly large")))?;
        let row = ty.row_bytes(dims[0]).ok_or_else(|| {
            invalid(format!(
                "tensor `{name}`: rows of {} values do not divide into {} blocks",
                dims[0],
                ty.name()
            ))
        })?;
        let bytes =
            row.checked_mul(rows).ok_or_else(|| invalid(format!("tensor `{name}` is absurdly large")))?;
        tensors.push(GgufTensor { name, dims, ty, bytes });
    }
    let header_bytes = (c.i as u64).div_ceil(alignment) * alignment;
    Ok(Gguf { version, metadata, tensors, header_bytes, alignment })
}

impl Gguf {
    /// A metadata value.
    pub fn get(&self, key: &str) -> Option<&MetaValue> {
        self.metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn u(&self, key: &str) -> Option<u64> {
        self.get(key).and_then(MetaValue::as_u64)
    }

    /// A per-layer value: element `i` of an array (llama.cpp's per-layer head counts and widths),
    /// or the scalar.
    fn u_at(&self, key: &str, i: u64) -> Option<u64> {
        match self.get(key)? {
            MetaValue::Array { values, .. } if !values.is_empty() => {
                values.get(usize::try_from(i).ok()?).and_then(MetaValue::as_u64)
            }
            v => v.as_u64(),
        }
    }

    /// `general.architecture`.
    pub fn architecture_name(&self) -> Option<&str> {
        self.get("general.architecture").and_then(MetaValue::as_str)
    }

    /// Bytes of every tensor.
    pub fn tensor_bytes(&self) -> u64 {
        self.tensors.iter().fold(0u64, |a, t| a.saturating_add(t.bytes))
    }

    /// Every parameter stored.
    pub fn params(&self) -> u64 {
        self.tensors.iter().fold(0u64, |a, t| a.saturating_add(t.elements()))
    }

    /// The file type (`general.file_type`), when known.
    pub fn file_type(&self) -> Option<GgufMix> {
        self.u("general.file_type").and_then(|v| u32::try_from(v).ok()).and_then(GgufMix::from_ftype_id)
    }

    /// Bytes per tensor type, largest first.
    pub fn bytes_by_type(&self) -> Vec<(GgmlType, u64)> {
        super::totals_by(self.tensors.iter().map(|t| (t.ty, t.bytes)))
    }

    /// Bytes on disk: the header and every tensor's data at its alignment (a lower bound by at
    /// most one alignment step per tensor when a writer pads more).
    pub fn file_bytes(&self) -> u64 {
        let a = self.alignment.max(1);
        self.tensors
            .iter()
            .fold(self.header_bytes, |acc, t| acc.saturating_add(t.bytes.div_ceil(a).saturating_mul(a)))
    }

    /// The exact facts of this file (or merged split files) for an estimate.
    pub fn file_facts(&self) -> FileFacts {
        let stored = self.tensors.iter().map(|t| StoredTensor {
            name: &t.name,
            dims: &t.dims,
            bytes: t.bytes,
            gguf: Some(t.ty),
        });
        FileFacts {
            tensors: Priced::from_stored(stored),
            params: Some(Params::new(self.params())),
            disk: Bytes::new(self.file_bytes()),
            file_name: None,
            mmproj_name: None,
        }
    }

    /// Adds a multimodal projector file (llama.cpp's `mmproj`, `general.architecture` `clip`) to
    /// a model read from GGUF: its tensors become the model's encoder, exact, and its bytes join
    /// the download.
    ///
    /// # Errors
    /// [`Error::Parse`] when this file is not a projector, or the model has no file facts.
    pub fn attach_mmproj_to(&self, model: &mut CustomModel, file_name: &str) -> Result<(), Error> {
        let arch = self.architecture_name().unwrap_or("(none)");
        if arch != "clip" {
            return Err(Error::parse(
                FORMAT,
                format!(
                    "{file_name} is not a multimodal projector: its general.architecture is `{arch}`, not `clip`"
                ),
            ));
        }
        let Some(facts) = model.file.as_mut() else {
            return Err(Error::parse(FORMAT, "an mmproj file goes with a GGUF model file"));
        };
        for t in &self.tensors {
            let cols = t.dims.first().copied().unwrap_or(1);
            let rows = t.dims.get(1).copied().unwrap_or(1);
            let experts = t.dims.iter().skip(2).fold(1u64, |a, d| a.saturating_mul(*d));
            facts.tensors.tensors.push(crate::tensor::Tensor {
                role: crate::tensor::Role::Encoder,
                layer: None,
                rows,
                cols,
                experts,
            });
            facts.tensors.bytes.push(t.bytes);
            if !facts.tensors.gguf_types.is_empty() {
                facts.tensors.gguf_types.push(t.ty);
            }
        }
        facts.disk = facts.disk.saturating_add(Bytes::new(self.file_bytes()));
        facts.mmproj_name = Some(file_name.into());
        Ok(())
    }

    /// A model to estimate: the architecture from the metadata, the file's format and its exact
    /// tensors. `fallback_name` is used when `general.name` is absent.
    ///
    /// # Errors
    /// As [`Gguf::to_architecture`].
    pub fn to_custom(&self, fallback_name: &str) -> Result<(CustomModel, Vec<Msg>), Error> {
        let (architecture, notices) = self.to_architecture()?;
        let name = self
            .get("general.name")
            .and_then(MetaValue::as_str)
            .filter(|s| !s.trim().is_empty())
            .unwrap_or(fallback_name)
            .into();
        let mut facts = self.file_facts();
        facts.file_name = fallback_name.to_ascii_lowercase().ends_with(".gguf").then(|| fallback_name.into());
        let model = CustomModel {
            name,
            architecture,
            format: Some(self.weight_format()),
            file: Some(facts),
            confidence: crate::model::Confidence::Exact,
            notices: notices.clone(),
        };
        Ok((model, notices))
    }

    fn tensor(&self, name: &str) -> Option<&GgufTensor> {
        self.tensors.iter().find(|t| t.name == name)
    }

    /// The model's shape from the metadata (`<arch>.block_count`, `.embedding_length`…) and the
    /// tensors, with notices for what had to be assumed.
    ///
    /// # Errors
    /// [`Error::Parse`] when the header lacks what any estimate needs (layers, width, heads).
    pub fn to_architecture(&self) -> Result<(Architecture, Vec<Msg>), Error> {
        let mut notices = Vec::new();
        let arch = self.architecture_name().ok_or_else(|| Error::parse(FORMAT, "no general.architecture"))?;
        let k = |name: &str| format!("{arch}.{name}");
        let need = |name: &str| {
            self.u(&k(name)).ok_or_else(|| Error::parse(FORMAT, format!("`{arch}.{name}` is missing")))
        };
        let layers = need("block_count")?;
        let hidden = need("embedding_length")?;
        let heads = need("attention.head_count")?;
        let kv_heads = self.u(&k("attention.head_count_kv")).unwrap_or(heads);
        let head_dim = self.u(&k("attention.key_length")).unwrap_or(hidden.checked_div(heads).unwrap_or(0));
        let vocab = self
            .tensor("token_embd.weight")
            .and_then(|t| t.dims.get(1).copied())
            .or_else(|| {
                self.get("tokenizer.ggml.tokens")
                    .and_then(|v| if let MetaValue::Array { len, .. } = v { Some(*len) } else { None })
            })
            .or_else(|| self.u(&k("vocab_size")))
            .ok_or_else(|| Error::parse(FORMAT, "no vocabulary size (no token_embd tensor, no tokenizer)"))?;
        let inter = self.u(&k("feed_forward_length")).unwrap_or(hidden.saturating_mul(4));
        let tie = self.tensor("output.weight").is_none();
        let family = match arch {
            "qwen2moe" => "qwen2_moe",
            "qwen3moe" => "qwen3_moe",
            "deepseek2" => "deepseek_v3",
            "gpt-oss" => "gpt_oss",
            "gptneox" => "gpt_neox",
            "gemma3" => "gemma3_text",
            // Falcon Mamba is llama.cpp's `mamba` with RMS norms on dt, B and C.
            "mamba" if matches!(self.get(&k("ssm.dt_b_c_rms")), Some(MetaValue::Bool(true))) => {
                "falcon_mamba"
            }
            other => other,
        };
        let has = |name: String| self.tensor(&name).is_some();
        let layer_norm = self.tensor("blk.0.attn_norm.bias").is_some();
        let norms_per_layer = match family {
            "gemma2" | "gemma3_text" => 4,
            _ => 2,
        };
        // llama.cpp's own sliding-window layers (`load_swa_pattern`): the header's
        // `attention.sliding_window_pattern` (a flag per layer, or a period), else the family's
        // period; a family llama.cpp does not slide keeps the full cache in every layer.
        let rule = crate::llama_cpp::swa_rule(arch, layers);
        let window = rule.and_then(|r| r.window(self.u(&k("attention.sliding_window"))));
        let pattern_key = k("attention.sliding_window_pattern");
        let flags: Option<Vec<bool>> = match self.get(&pattern_key) {
            Some(MetaValue::Array { values, .. }) if !values.is_empty() => Some(
                values
                    .iter()
                    .map(|v| matches!(v, MetaValue::Bool(true)) || v.as_u64().is_some_and(|x| x > 0))
                    .collect(),
            ),
            _ => None,
        };
        let period = match self.get(&pattern_key) {
            Some(v @ (MetaValue::U(_) | MetaValue::I(_))) => v.as_u64(),
            _ => None,
        };
        let swa = |i: u64| match (window, rule) {
            (Some(_), Some(r)) => match &flags {
                Some(f) => f.get(i as usize).copied().unwrap_or(false),
                None => r.slides(i, period.unwrap_or(r.period)),
            },
            _ => false,
        };
        let chunked = rule.is_some_and(|r| r.chunked);
        let mut all_sliding = true;
        let mut stack = Stack::default();
        for i in 0..layers.min(crate::model::MAX_LAYERS) {
            let blk = |t: &str| format!("blk.{i}.{t}");
            let mut mixers = Vec::new();
            if has(blk("ssm_in.weight")) {
                let inner = self.u(&k("ssm.inner_size")).unwrap_or(hidden.saturating_mul(2));
                let state = self.u(&k("ssm.state_size")).unwrap_or(16);
                let v1 = has(blk("ssm_x.weight"));
                let dt_rank = self.u(&k("ssm.time_step_rank")).unwrap_or(0);
                mixers.push(Mixer::Mamba(Mamba {
                    version: if v1 { MambaVersion::V1 } else { MambaVersion::V2 },
                    inner,
                    state,
                    groups: if v1 { 1 } else { self.u(&k("ssm.group_count")).unwrap_or(1).max(1) },
                    heads: if v1 { 0 } else { dt_rank },
                    conv_kernel: self.u(&k("ssm.conv_kernel")).unwrap_or(4),
                    dt_rank: if v1 { dt_rank } else { 0 },
                    conv_bias: has(blk("ssm_conv1d.bias")),
                    proj_bias: has(blk("ssm_in.bias")),
                    gated_norm: has(blk("ssm_norm.weight")),
                    inner_norms: has(blk("ssm_dt_norm.weight")),
                }));
            }
            // Gated DeltaNet (Qwen3-Next, Qwen3.5): llama.cpp's `ssm_*` keys hold its widths
            // (`group_count` key heads of `state_size`, `time_step_rank` value heads sharing
            // `inner_size`), its layers a fused `attn_qkv` beside `ssm_beta`/`ssm_alpha`.
            let gated_delta = has(blk("ssm_beta.weight")) || has(blk("ssm_beta_alpha.weight"));
            if has(blk("shortconv.in_proj.weight")) {
                // LFM2's gated short convolution.
                mixers.push(Mixer::ShortConv(ShortConv {
                    kernel: self.u(&k("shortconv.l_cache")).unwrap_or(3),
                    bias: has(blk("shortconv.conv.bias")),
                }));
            } else if has(blk("ssm_f_a.weight")) || has(blk("ssm_conv1d_q.weight")) {
                // Kimi Delta Attention (Kimi Linear): llama.cpp's `kda.head_dim` wide heads, as many
                // as the layer's query heads (its KV head count is 0).
                mixers.push(Mixer::Kda(crate::model::KimiDeltaAttention {
                    heads: self.u_at(&k("attention.head_count"), i).unwrap_or(heads).max(1),
                    head_dim: self.u(&k("kda.head_dim")).unwrap_or(128).max(1),
                    conv_kernel: self.u(&k("ssm.conv_kernel")).unwrap_or(4),
                    full_rank_gates: false,
                    full_rank_output_gate: false,
                }));
            } else if gated_delta {
                let value_heads = self.u(&k("ssm.time_step_rank")).unwrap_or(32).max(1);
                mixers.push(Mixer::GatedDeltaNet(GatedDeltaNet {
                    key_heads: self.u(&k("ssm.group_count")).unwrap_or(16).max(1),
                    value_heads,
                    key_head_dim: self.u(&k("ssm.state_size")).unwrap_or(128),
                    value_head_dim: self.u(&k("ssm.inner_size")).unwrap_or(value_heads * 128) / value_heads,
                    conv_kernel: self.u(&k("ssm.conv_kernel")).unwrap_or(4),
                    split_in_proj: false,
                }));
            } else if let Some(kv_lora) = self.u(&k("attention.kv_lora_rank")) {
                let rope = self.u(&k("rope.dimension_count")).unwrap_or(64);
                let key_mla = self
                    .u(&k("attention.key_length_mla"))
                    .or(self.u(&k("attention.key_length")))
                    .unwrap_or(192);
                let v_mla = self
                    .u(&k("attention.value_length_mla"))
                    .or(self.u(&k("attention.value_length")))
                    .unwrap_or(128);
                mixers.push(Mixer::Mla(Mla {
                    num_heads: heads,
                    q_lora_rank: self.u(&k("attention.q_lora_rank")).filter(|r| *r > 0),
                    kv_lora_rank: kv_lora,
                    qk_nope_head_dim: key_mla.saturating_sub(rope),
                    qk_rope_head_dim: rope,
                    v_head_dim: v_mla,
                    // DeepSeek V3.2's lightning indexer (llama.cpp's `deepseek32`, GLM's DSA).
                    indexer: has(blk("indexer.attn_k.weight")).then(|| crate::model::Indexer {
                        heads: self.u(&k("attention.indexer.head_count")).unwrap_or(64),
                        head_dim: self.u(&k("attention.indexer.key_length")).unwrap_or(128),
                        topk: self.u(&k("attention.indexer.top_k")).unwrap_or(2048),
                        pool: 1,
                    }),
                    shares_latent: false,
                    span: Span::Full,
                    output_gate: false,
                }));
            } else if has(blk("attn_q.weight")) || has(blk("attn_qkv.weight")) {
                let kv = self.u_at(&k("attention.head_count_kv"), i).unwrap_or(kv_heads).max(1);
                let q_heads = self.u_at(&k("attention.head_count"), i).unwrap_or(heads).max(1);
                let sliding = swa(i);
                all_sliding &= sliding;
                mixers.push(Mixer::Attention(Attention {
                    num_heads: q_heads,
                    num_kv_heads: kv,
                    head_dim,
                    v_head_dim: self.u(&k("attention.value_length")).unwrap_or(head_dim),
                    qkv_bias: has(blk("attn_q.bias")) || has(blk("attn_qkv.bias")),
                    o_bias: has(blk("attn_output.bias")),
                    qk_norm: if has(blk("attn_q_norm.weight")) { QkNorm::PerHead } else { QkNorm::None },
                    fused_qkv: has(blk("attn_qkv.weight")),
                    sinks: has(blk("attn_sinks.weight")),
                    // A sigmoid gate as wide as the queries, its own tensor (HRM-Text).
                    output_gate: self
                        .tensor(&blk("attn_gate.weight"))
                        .and_then(|t| t.dims.get(1))
                        .is_some_and(|r| *r == q_heads.saturating_mul(head_dim)),
                    k_eq_v: false,
                    shares_kv: false,
                    span: match (sliding, window) {
                        (true, Some(w)) if chunked => Span::Chunked { chunk: w },
                        (true, Some(w)) => Span::Sliding { window: w },
                        _ => Span::Full,
                    },
                    index_key: 0,
                    input_width: 0,
                    mova: None,
                }));
            }
            let ffn = if has(blk("ffn_gate_inp.weight")) {
                let e = self.u(&k("expert_count")).unwrap_or(1).max(1);
                let used = self.u(&k("expert_used_count")).unwrap_or(1).clamp(1, e);
                let expert_ffn = self.u(&k("expert_feed_forward_length")).unwrap_or(inter);
                let shared = self.u(&k("expert_shared_count")).unwrap_or(0);
                let shared_ffn = self
                    .u(&k("expert_shared_feed_forward_length"))
                    .unwrap_or(expert_ffn.saturating_mul(shared));
                Ffn::Moe(Moe {
                    gated: has(blk("ffn_gate_exps.weight")) || !has(blk("ffn_up_exps.weight")),
                    shared_intermediate: if shared > 0 || has(blk("ffn_up_shexp.weight")) {
                        shared_ffn
                    } else {
                        0
                    },
                    shared_expert_gate: has(blk("ffn_gate_inp_shexp.weight")),
                    router_bias: has(blk("ffn_gate_inp.bias")),
                    score_bias: has(blk("exp_probs_b.bias")),
                    expert_bias: has(blk("ffn_up_exps.bias")),
                    ..Moe::routed(e, used, expert_ffn)
                })
            } else if has(blk("ffn_up.weight")) || has(blk("ffn_down.weight")) {
                let width = self.u_at(&k("feed_forward_length"), i).unwrap_or(inter);
                // Phi-3 stores gate and up as one `ffn_up` of twice the width.
                let fused_gate_up = !has(blk("ffn_gate.weight"))
                    && self
                        .tensor(&blk("ffn_up.weight"))
                        .and_then(|t| t.dims.get(1))
                        .is_some_and(|r| *r == width.saturating_mul(2));
                Ffn::Dense(Mlp {
                    intermediate_size: width,
                    gated: has(blk("ffn_gate.weight")) || fused_gate_up,
                    bias: has(blk("ffn_down.bias")),
                    fused_gate_up,
                })
            } else {
                Ffn::None
            };
            let norms = if mixers.iter().any(|m| !matches!(m, Mixer::Attention(_) | Mixer::Mla(_)))
                && matches!(ffn, Ffn::None)
            {
                1
            } else {
                norms_per_layer
            };
            stack.push(LayerGroup {
                count: 1,
                mixers,
                ffn,
                norms,
                extras: Vec::new(),
                tied: false,
                own: None,
            });
        }
        if window.is_some() && all_sliding {
            notices.push(Msg::new(MsgId::NoticeSlidingAllLayers, alloc::vec![Arg::Int(layers)]));
        }
        let hrm = (arch == "hrm_text").then(|| self.hrm_runs(layers)).transpose()?;
        if let Some((per_stack, high, low)) = hrm {
            stack.groups = hrm_stored_stacks(&stack.groups, per_stack, high, low);
        }
        let mut a = Architecture::new(family, vocab, hidden, stack.groups);
        a.norm = if layer_norm { NormKind::LayerNorm } else { NormKind::Rms };
        if hrm.is_some() {
            // HRM-Text: norms without weights, the low stack's initial state (`hrm.z_l_init`).
            a.norm = NormKind::NoParams;
            if let Some(t) = self.tensor("hrm.z_l_init") {
                a.extras.push(crate::model::Extra {
                    role: crate::tensor::Role::Frozen,
                    rows: 1,
                    cols: t.dims.first().copied().unwrap_or(hidden),
                });
            }
        }
        a.learned_positions =
            self.tensor("position_embd.weight").and_then(|t| t.dims.get(1).copied()).unwrap_or(0);
        a.tie_word_embeddings = tie;
        a.max_context = self.u(&k("context_length")).unwrap_or(0);
        a.validate()?;
        Ok((a, notices))
    }

    /// HRM-Text's stacks: `(layers a stack, high cycles, low cycles)`, checked against the
    /// header's cache layers (`block_count` = stack × high × (low + 1), as llama.cpp asserts).
    fn hrm_runs(&self, layers: u64) -> Result<(u64, u64, u64), Error> {
        let get = |name: &str| {
            let key = format!("hrm_text.hrm.{name}");
            self.u(&key).ok_or_else(|| Error::parse(FORMAT, format!("`{key}` is missing")))
        };
        let (per_stack, high, low) = (get("layers_per_stack")?, get("h_cycles")?, get("l_cycles")?);
        let slots = per_stack.checked_mul(high).and_then(|x| x.checked_mul(low.checked_add(1)?));
        if per_stack == 0 || high == 0 || low == 0 || slots != Some(layers) {
            return Err(Error::parse(
                FORMAT,
                format!(
                    "HRM-Text's {layers} cache layers are not its {per_stack} layers a stack × {high} high cycles × ({low} low cycles + 1)"
                ),
            ));
        }
        Ok((per_stack, high, low))
    }

    /// The weight format the file is in: its `general.file_type`, else its dominant tensor type.
    pub fn weight_format(&self) -> WeightFormat {
        if let Some(m) = self.file_type() {
            return WeightFormat::Gguf(m);
        }
        let dominant = self.bytes_by_type().first().map(|(t, _)| *t);
        WeightFormat::Gguf(match dominant {
            Some(GgmlType::F32) => GgufMix::F32,
            Some(GgmlType::BF16) => GgufMix::BF16,
            Some(GgmlType::Q8_0) => GgufMix::Q8_0,
            Some(GgmlType::Q4_0) => GgufMix::Q4_0,
            Some(GgmlType::Q6_K) => GgufMix::Q6_K,
            Some(GgmlType::Q5_K) => GgufMix::Q5_K_M,
            Some(GgmlType::Q4_K) => GgufMix::Q4_K_M,
            Some(GgmlType::Q3_K) => GgufMix::Q3_K_M,
            Some(GgmlType::Q2_K) => GgufMix::Q2_K,
            Some(GgmlType::MXFP4) => GgufMix::MXFP4_MOE,
            _ => GgufMix::F16,
        })
    }
}

/// The base name, part number and part count of a file named the way llama.cpp's `gguf-split`
/// names the parts of a split model (`x-00001-of-00003.gguf` → (`x`, 1, 3)).
pub fn split_part(path: &str) -> Option<(&str, u32, u32)> {
    let stem = path.strip_suffix(".gguf")?;
    let (rest, count) = stem.rsplit_once("-of-")?;
    let (base, index) = rest.rsplit_once('-')?;
    if count.len() != 5 || index.len() != 5 {
        return None;
    }
    let (index, count): (u32, u32) = (index.parse().ok()?, count.parse().ok()?);
    (1..=count).contains(&index).then_some((base, index, count))
}

/// Every part of the split model `path` belongs to, in order; just `path` when it is not split.
pub fn split_parts(path: &str) -> Vec<String> {
    match split_part(path) {
        Some((base, _, count)) => (1..=count).map(|i| format!("{base}-{i:05}-of-{count:05}.gguf")).collect(),
        None => alloc::vec![path.into()],
    }
}

/// Merges the headers of a split file (`-00001-of-00003.gguf`…): metadata from the first, tensors
/// from all.
pub fn merge(parts: Vec<Gguf>) -> Option<Gguf> {
    let mut it = parts.into_iter();
    let mut first = it.next()?;
    for p in it {
        first.tensors.extend(p.tensors);
        first.header_bytes = first.header_bytes.saturating_add(p.header_bytes);
    }
    Some(first)
}

/// HRM-Text's cache layers from its stored blocks (llama.cpp's layout: the low stack's
/// `[0, per_stack)`, the high stack's `[per_stack, 2 × per_stack)`), without norm weights.
fn hrm_stored_stacks(stored: &[LayerGroup], per_stack: u64, high: u64, low: u64) -> Vec<LayerGroup> {
    let one: Vec<LayerGroup> = stored
        .iter()
        .flat_map(|g| core::iter::repeat_n(g, g.count.min(crate::model::MAX_LAYERS) as usize))
        .take(per_stack.saturating_mul(2) as usize)
        .map(|g| LayerGroup { count: 1, norms: 0, ..g.clone() })
        .collect();
    let (lo, hi) = one.split_at((per_stack as usize).min(one.len()));
    super::hrm_cache_layers(lo, hi, high, low)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use alloc::vec;

    /// A small GGUF writer for tests.
    pub struct W(pub Vec<u8>);

    impl W {
        pub fn new(n_tensors: u64, n_kv: u64) -> W {
            let mut w = W(b"GGUF".to_vec());
            w.u32(3);
            w.u64(n_tensors);
            w.u64(n_kv);
            w
        }
        pub fn u32(&mut self, v: u32) {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
        pub fn u64(&mut self, v: u64) {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
        pub fn str(&mut self, s: &str) {
            self.u64(s.len() as u64);
            self.0.extend_from_slice(s.as_bytes());
        }
        pub fn kv_u32(&mut self, k: &str, v: u32) {
            self.str(k);
            self.u32(4);
            self.u32(v);
        }
        pub fn kv_str(&mut self, k: &str, v: &str) {
            self.str(k);
            self.u32(8);
            self.str(v);
        }
        pub fn tensor(&mut self, name: &str, dims: &[u64], ty: GgmlType) {
            self.str(name);
            self.u32(dims.len() as u32);
            for d in dims {
                self.u64(*d);
            }
            self.u32(ty.gguf_id());
            self.u64(0);
        }
    }

    fn tiny() -> Vec<u8> {
        let mut w = W::new(4, 8);
        w.kv_str("general.architecture", "llama");
        w.kv_u32("llama.block_count", 1);
        w.kv_u32("llama.embedding_length", 256);
        w.kv_u32("llama.attention.head_count", 4);
        w.kv_u32("llama.attention.head_count_kv", 2);
        w.kv_u32("llama.feed_forward_length", 512);
        w.kv_u32("general.file_type", 15);
        // A vocabulary of 1000 strings, counted and skipped.
        w.str("tokenizer.ggml.tokens");
        w.u32(9);
        w.u32(8);
        w.u64(1000);
        for i in 0..1000 {
            w.str(&alloc::format!("tok{i}"));
        }
        w.tensor("token_embd.weight", &[256, 1000], GgmlType::Q4_K);
        w.tensor("blk.0.attn_q.weight", &[256, 256], GgmlType::Q4_K);
        w.tensor("blk.0.attn_norm.weight", &[256], GgmlType::F32);
        w.tensor("output.weight", &[256, 1000], GgmlType::Q6_K);
        w.0
    }

    #[test]
    fn reads_metadata_tensors_and_architecture() {
        let g = parse(&tiny()).unwrap();
        assert_eq!(g.tensors.len(), 4);
        assert_eq!(g.tensors[0].bytes, 1000 * 144);
        assert_eq!(g.tensors[3].bytes, 1000 * 210);
        assert_eq!(g.file_type(), Some(GgufMix::Q4_K_M));
        assert_eq!(
            g.get("tokenizer.ggml.tokens"),
            Some(&MetaValue::Array { elem: 8, len: 1000, values: vec![] })
        );
        let (a, _) = g.to_architecture().unwrap();
        assert_eq!((a.num_layers(), a.hidden_size, a.vocab_size), (1, 256, 1000));
        assert_eq!(a.num_kv_heads(), 2);
        assert!(!a.tie_word_embeddings);
        assert_eq!(g.header_bytes % 32, 0);
    }

    #[test]
    fn truncation_asks_for_more_until_it_parses() {
        let full = tiny();
        let mut have = 16usize;
        let mut rounds = 0;
        loop {
            match parse(&full[..have.min(full.len())]) {
                Ok(_) => break,
                Err(GgufError::Truncated { needed }) => {
                    assert!(needed as usize > have.min(full.len()));
                    have = (needed as usize).max(have * 2);
                    rounds += 1;
                }
                Err(e) => panic!("{e:?}"),
            }
        }
        assert!(rounds > 0);
    }

    #[test]
    fn hostile_headers_fail_fast() {
        assert!(matches!(parse(b"GGML\x03\0\0\0"), Err(GgufError::Invalid(_))));
        let mut w = W::new(1 << 60, 1);
        assert!(matches!(parse(&w.0), Err(GgufError::Invalid(_))));
        // A 2^40-byte string: refused, not allocated.
        w = W::new(0, 1);
        w.u64(1 << 40);
        assert!(matches!(parse(&w.0), Err(GgufError::Invalid(_))));
        // A huge array of u64: needs more bytes than any header may have.
        w = W::new(0, 1);
        w.str("a");
        w.u32(9);
        w.u32(10);
        w.u64(1 << 40);
        assert!(matches!(parse(&w.0), Err(GgufError::Invalid(_))));
        // A tensor whose rows do not divide into blocks.
        w = W::new(1, 0);
        w.tensor("x", &[100, 2], GgmlType::Q4_K);
        assert!(matches!(parse(&w.0), Err(GgufError::Invalid(_))));
        // Unknown type, too many dimensions.
        w = W::new(1, 0);
        w.str("x");
        w.u32(5);
        assert!(matches!(parse(&w.0), Err(GgufError::Invalid(_))));
    }

    #[test]
    fn a_fused_gate_up_reads_as_gated() {
        let mut w = W::new(2, 5);
        w.kv_str("general.architecture", "phi3");
        w.kv_u32("phi3.block_count", 1);
        w.kv_u32("phi3.embedding_length", 256);
        w.kv_u32("phi3.attention.head_count", 4);
        w.kv_u32("phi3.feed_forward_length", 512);
        w.tensor("token_embd.weight", &[256, 1000], GgmlType::F16);
        w.tensor("blk.0.ffn_up.weight", &[256, 1024], GgmlType::F16);
        let (a, _) = parse(&w.0).unwrap().to_architecture().unwrap();
        assert!(a.dense_mlp().is_some_and(|m| m.gated && m.fused_gate_up));
    }
}
