//! Safetensors headers and index files: exact bytes per tensor without reading any weight.
//!
//! A `.safetensors` file starts with an 8-byte little-endian length `N`, then `N` bytes of JSON:
//! `{"__metadata__": {…}, "name": {"dtype": "BF16", "shape": [4096, 4096], "data_offsets": [a, b]}, …}`.
//! A sharded checkpoint has a `model.safetensors.index.json` whose `weight_map` names the shard
//! of every tensor and whose `metadata.total_size` gives the bytes of all of them.
//!
//! Hostile input gets a clear error in bounded time and memory: the declared header length is
//! checked against a limit and against the bytes actually given before anything is read; nothing
//! is allocated from a length the file declares.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::import::hf::HfModel;
use crate::json::{self, Value};
use crate::precision::WeightFormat;
use crate::scenario::{CustomModel, FileFacts};
use crate::tensors::{Priced, StoredTensor};
use crate::units::{Bytes, Params};

const FORMAT: &str = "safetensors header";

/// The largest header accepted (the safetensors specification caps it at 100 MB).
pub const MAX_HEADER: u64 = 100_000_000;

/// Element type of a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Dtype {
    F64,
    F32,
    F16,
    BF16,
    F8E4M3,
    F8E5M2,
    F8E8M0,
    F4,
    I64,
    I32,
    I16,
    I8,
    U64,
    U32,
    U16,
    U8,
    Bool,
}

impl Dtype {
    /// Parses a safetensors dtype name.
    pub fn parse(s: &str) -> Option<Dtype> {
        Some(match s {
            "F64" => Dtype::F64,
            "F32" => Dtype::F32,
            "F16" => Dtype::F16,
            "BF16" => Dtype::BF16,
            "F8_E4M3" | "F8_E4M3FN" => Dtype::F8E4M3,
            "F8_E5M2" => Dtype::F8E5M2,
            "F8_E8M0" => Dtype::F8E8M0,
            "F4" | "F4_E2M1" => Dtype::F4,
            "I64" => Dtype::I64,
            "I32" => Dtype::I32,
            "I16" => Dtype::I16,
            "I8" => Dtype::I8,
            "U64" => Dtype::U64,
            "U32" => Dtype::U32,
            "U16" => Dtype::U16,
            "U8" => Dtype::U8,
            "BOOL" => Dtype::Bool,
            _ => return None,
        })
    }

    /// Bits per element.
    pub const fn bits(self) -> u64 {
        match self {
            Dtype::F64 | Dtype::I64 | Dtype::U64 => 64,
            Dtype::F32 | Dtype::I32 | Dtype::U32 => 32,
            Dtype::F16 | Dtype::BF16 | Dtype::I16 | Dtype::U16 => 16,
            Dtype::F8E4M3 | Dtype::F8E5M2 | Dtype::F8E8M0 | Dtype::I8 | Dtype::U8 | Dtype::Bool => 8,
            Dtype::F4 => 4,
        }
    }

    /// The name in files.
    pub const fn name(self) -> &'static str {
        match self {
            Dtype::F64 => "F64",
            Dtype::F32 => "F32",
            Dtype::F16 => "F16",
            Dtype::BF16 => "BF16",
            Dtype::F8E4M3 => "F8_E4M3",
            Dtype::F8E5M2 => "F8_E5M2",
            Dtype::F8E8M0 => "F8_E8M0",
            Dtype::F4 => "F4",
            Dtype::I64 => "I64",
            Dtype::I32 => "I32",
            Dtype::I16 => "I16",
            Dtype::I8 => "I8",
            Dtype::U64 => "U64",
            Dtype::U32 => "U32",
            Dtype::U16 => "U16",
            Dtype::U8 => "U8",
            Dtype::Bool => "BOOL",
        }
    }
}

/// One tensor of a safetensors file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    /// Its name (`model.layers.0.self_attn.q_proj.weight`).
    pub name: String,
    /// Element type.
    pub dtype: Dtype,
    /// Shape.
    pub shape: Vec<u64>,
    /// Bytes in the file (`data_offsets` end − start).
    pub bytes: u64,
}

impl TensorInfo {
    /// Number of elements.
    pub fn elements(&self) -> u64 {
        self.shape.iter().fold(1u64, |a, d| a.saturating_mul(*d))
    }
}

/// A parsed header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// The tensors, in file order.
    pub tensors: Vec<TensorInfo>,
    /// `__metadata__` string entries.
    pub metadata: Vec<(String, String)>,
}

impl Header {
    /// Bytes of every tensor.
    pub fn total_bytes(&self) -> u64 {
        self.tensors.iter().fold(0u64, |a, t| a.saturating_add(t.bytes))
    }

    /// Bytes per element type, largest first.
    pub fn bytes_by_dtype(&self) -> Vec<(Dtype, u64)> {
        super::totals_by(self.tensors.iter().map(|t| (t.dtype, t.bytes)))
    }

    /// Whether every tensor is a plain float (so element counts are parameter counts).
    pub fn is_unquantized(&self) -> bool {
        self.tensors.iter().all(|t| matches!(t.dtype, Dtype::F32 | Dtype::F16 | Dtype::BF16 | Dtype::F64))
    }

    /// The weight format its dtypes show, for checkpoints without a `quantization_config`.
    pub fn plain_format(&self) -> Option<WeightFormat> {
        match self.bytes_by_dtype().first()?.0 {
            Dtype::F32 | Dtype::F64 => Some(WeightFormat::F32),
            Dtype::F16 => Some(WeightFormat::F16),
            Dtype::BF16 => Some(WeightFormat::Bf16),
            Dtype::F8E4M3 | Dtype::F8E5M2 => Some(WeightFormat::Fp8),
            _ => None,
        }
    }
}

/// The exact facts of a checkpoint from the headers of all its files, each with its declared
/// header length (the file is 8 + length + data bytes).
pub fn file_facts(files: &[(Header, u64)]) -> FileFacts {
    let mut dims_store: Vec<Vec<u64>> = Vec::new();
    for (h, _) in files {
        for t in &h.tensors {
            // ggml order: the row length first.
            dims_store.push(t.shape.iter().rev().copied().collect());
        }
    }
    let mut dims = dims_store.iter();
    let stored = files.iter().flat_map(|(h, _)| h.tensors.iter()).map(|t| StoredTensor {
        name: &t.name,
        dims: dims.next().map_or(&[][..], Vec::as_slice),
        bytes: t.bytes,
        gguf: None,
    });
    let tensors = Priced::from_stored(stored);
    let unquantized = files.iter().all(|(h, _)| h.is_unquantized());
    let params = unquantized.then(|| {
        Params::new(
            files.iter().flat_map(|(h, _)| &h.tensors).fold(0u64, |a, t| a.saturating_add(t.elements())),
        )
    });
    let disk = files
        .iter()
        .fold(0u64, |a, (h, n)| a.saturating_add(8).saturating_add(*n).saturating_add(h.total_bytes()));
    FileFacts { tensors, params, disk: Bytes::new(disk), file_name: None, mmproj_name: None }
}

/// The header length a file declares in its first 8 bytes: what to read next (bytes `8..8+N`).
///
/// # Errors
/// [`Error::Parse`] when fewer than 8 bytes are given or the length is absurd.
pub fn header_len(first8: &[u8]) -> Result<u64> {
    let Some(b) = first8.get(..8) else {
        return Err(Error::parse(FORMAT, "the file is shorter than 8 bytes"));
    };
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    let n = u64::from_le_bytes(a);
    if n < 2 {
        return Err(Error::parse(FORMAT, "the header is empty"));
    }
    if n > MAX_HEADER {
        return Err(Error::parse(
            FORMAT,
            format!("the header declares {n} bytes, over the 100 MB limit: not a safetensors file"),
        ));
    }
    Ok(n)
}

/// Parses a safetensors file's beginning: the 8-byte length and the JSON header after it
/// (the rest of the file, the weights, may be absent).
///
/// # Errors
/// [`Error::Parse`] for a truncated or malformed header, unknown dtypes, offsets that disagree with
/// shapes.
///
/// # Example
/// ```
/// let json = br#"{"w": {"dtype": "BF16", "shape": [2, 3], "data_offsets": [0, 12]}}"#;
/// let mut file = (json.len() as u64).to_le_bytes().to_vec();
/// file.extend_from_slice(json);
/// let h = headroom_core::import::safetensors::parse(&file).unwrap();
/// assert_eq!(h.total_bytes(), 12);
/// ```
pub fn parse(file: &[u8]) -> Result<Header> {
    let n = header_len(file)?;
    let end = 8usize.saturating_add(usize::try_from(n).unwrap_or(usize::MAX));
    let Some(json_bytes) = file.get(8..end) else {
        return Err(Error::parse(
            FORMAT,
            format!("the header declares {n} bytes but the file has only {}", file.len().saturating_sub(8)),
        ));
    };
    parse_json(json_bytes)
}

/// Parses the JSON header alone.
///
/// # Errors
/// As [`parse`].
pub fn parse_json(json_bytes: &[u8]) -> Result<Header> {
    let root = json::parse(json_bytes, FORMAT)?;
    let members = root.as_object().ok_or_else(|| Error::parse(FORMAT, "the header is not a JSON object"))?;
    let mut header = Header::default();
    for (name, v) in members {
        if name == "__metadata__" {
            if let Some(m) = v.as_object() {
                for (k, val) in m {
                    if let Some(s) = val.as_str() {
                        header.metadata.push((k.clone(), s.into()));
                    }
                }
            }
            continue;
        }
        header.tensors.push(tensor(name, v)?);
    }
    Ok(header)
}

fn tensor(name: &str, v: &Value) -> Result<TensorInfo> {
    let bad = |why: &str| Error::parse(FORMAT, format!("tensor `{name}`: {why}"));
    let dtype_name = v.get("dtype").and_then(Value::as_str).ok_or_else(|| bad("no dtype"))?;
    let dtype = Dtype::parse(dtype_name).ok_or_else(|| bad(&format!("unknown dtype {dtype_name}")))?;
    let shape: Vec<u64> = v
        .get("shape")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no shape"))?
        .iter()
        .map(|d| d.as_u64().ok_or_else(|| bad("a dimension is not a non-negative integer")))
        .collect::<Result<_>>()?;
    if shape.len() > 8 {
        return Err(bad("more than 8 dimensions"));
    }
    let offsets = v.get("data_offsets").and_then(Value::as_array).ok_or_else(|| bad("no data_offsets"))?;
    let (Some(start), Some(end)) =
        (offsets.first().and_then(Value::as_u64), offsets.get(1).and_then(Value::as_u64))
    else {
        return Err(bad("data_offsets must be two integers"));
    };
    if end < start {
        return Err(bad("data_offsets end before they start"));
    }
    let bytes = end - start;
    let elements =
        shape.iter().try_fold(1u64, |a, d| a.checked_mul(*d)).ok_or_else(|| bad("shape overflows"))?;
    let expected = elements.checked_mul(dtype.bits()).ok_or_else(|| bad("shape overflows"))?.div_ceil(8);
    if expected != bytes {
        return Err(bad(&format!("{bytes} bytes in the file but its shape and dtype need {expected}")));
    }
    Ok(TensorInfo { name: name.into(), dtype, shape, bytes })
}

/// A model from its `config.json` and the headers of its safetensors files: the config's shape,
/// the files' exact tensors (none when no header was read), and the config's quantization or
/// else the headers' dtype as its format.
pub fn custom_model(name: String, config: HfModel, files: &[(Header, u64)]) -> CustomModel {
    let plain = files.first().and_then(|(h, _)| h.plain_format());
    CustomModel {
        name,
        architecture: config.architecture,
        format: config.format.or(plain),
        file: (!files.is_empty()).then(|| file_facts(files)),
        confidence: if files.is_empty() { config.confidence } else { crate::model::Confidence::Exact },
        notices: config.notices,
    }
}

/// A sharded checkpoint's index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Index {
    /// `metadata.total_size`, when given.
    pub total_size: Option<u64>,
    /// The shard files, in first-mention order.
    pub shards: Vec<String>,
    /// Tensors listed.
    pub tensor_count: u64,
}

/// Parses a `model.safetensors.index.json`.
///
/// # Errors
/// [`Error::Parse`] when it is not JSON or has no `weight_map`.
pub fn parse_index(bytes: &[u8]) -> Result<Index> {
    const F: &str = "safetensors index";
    let root = json::parse(bytes, F)?;
    let map =
        root.get("weight_map").and_then(Value::as_object).ok_or_else(|| Error::parse(F, "no weight_map"))?;
    let mut index = Index {
        total_size: root.get("metadata").and_then(|m| m.get("total_size")).and_then(Value::as_u64),
        ..Index::default()
    };
    for (_, file) in map {
        let f = file.as_str().ok_or_else(|| Error::parse(F, "a weight_map entry is not a file name"))?;
        if f.contains('/') || f.contains('\\') || f.starts_with('.') {
            return Err(Error::parse(F, format!("shard name `{f}` is not a plain file name")));
        }
        if !index.shards.iter().any(|s| s == f) {
            index.shards.push(f.into());
        }
        index.tensor_count += 1;
    }
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    fn file(json: &str) -> Vec<u8> {
        let mut f = (json.len() as u64).to_le_bytes().to_vec();
        f.extend_from_slice(json.as_bytes());
        f
    }

    #[test]
    fn reads_tensors_and_metadata() {
        let h = parse(&file(
            r#"{"__metadata__": {"format": "pt"}, "a": {"dtype": "F8_E4M3", "shape": [128, 64], "data_offsets": [0, 8192]},
                "b": {"dtype": "F32", "shape": [1, 2], "data_offsets": [8192, 8200]}}"#,
        ))
        .unwrap();
        assert_eq!(h.tensors.len(), 2);
        assert_eq!(h.total_bytes(), 8200);
        assert_eq!(h.metadata, vec![("format".into(), "pt".into())]);
        assert_eq!(h.bytes_by_dtype()[0], (Dtype::F8E4M3, 8192));
    }

    /// DeepSeek-OCR's checkpoint as its published listing names its 2,710 BF16 tensors: the
    /// headers split them as the config reads them — the language model's 2,934,734,080
    /// parameters in the weights, SAM (`model.sam_model`), CLIP (`model.vision_model`), the
    /// projector, the newline and the view separator (401,372,160) in the encoders.
    #[test]
    fn deepseek_ocrs_tensors_split_as_its_config_reads_them() {
        use alloc::format;
        let mut t: Vec<(String, Vec<u64>)> = Vec::new();
        let mut add = |n: &str, s: &[u64]| t.push((n.into(), s.to_vec()));
        let h = 1280;
        add("lm_head.weight", &[129_280, h]);
        add("model.embed_tokens.weight", &[129_280, h]);
        for n in [
            "model.image_newline",
            "model.view_seperator",
            "model.norm.weight",
            "model.projector.layers.bias",
        ] {
            add(n, &[h]);
        }
        add("model.projector.layers.weight", &[h, 2048]);
        for i in 0..12 {
            let p = format!("model.layers.{i}.");
            for x in ["input_layernorm", "post_attention_layernorm"] {
                add(&format!("{p}{x}.weight"), &[h]);
            }
            for x in ["q_proj", "k_proj", "v_proj", "o_proj"] {
                add(&format!("{p}self_attn.{x}.weight"), &[h, h]);
            }
            if i == 0 {
                add(&format!("{p}mlp.gate_proj.weight"), &[6848, h]);
                add(&format!("{p}mlp.up_proj.weight"), &[6848, h]);
                add(&format!("{p}mlp.down_proj.weight"), &[h, 6848]);
                continue;
            }
            for e in 0..64 {
                add(&format!("{p}mlp.experts.{e}.gate_proj.weight"), &[896, h]);
                add(&format!("{p}mlp.experts.{e}.up_proj.weight"), &[896, h]);
                add(&format!("{p}mlp.experts.{e}.down_proj.weight"), &[h, 896]);
            }
            add(&format!("{p}mlp.gate.weight"), &[64, h]);
            add(&format!("{p}mlp.shared_experts.gate_proj.weight"), &[1792, h]);
            add(&format!("{p}mlp.shared_experts.up_proj.weight"), &[1792, h]);
            add(&format!("{p}mlp.shared_experts.down_proj.weight"), &[h, 1792]);
        }
        for i in 0..12 {
            let p = format!("model.sam_model.blocks.{i}.");
            let rel = if [2, 5, 8, 11].contains(&i) { 127 } else { 27 };
            for (n, s) in [
                ("attn.proj.bias", vec![768]),
                ("attn.proj.weight", vec![768, 768]),
                ("attn.qkv.bias", vec![2304]),
                ("attn.qkv.weight", vec![2304, 768]),
                ("mlp.lin1.bias", vec![3072]),
                ("mlp.lin1.weight", vec![3072, 768]),
                ("mlp.lin2.bias", vec![768]),
                ("mlp.lin2.weight", vec![768, 3072]),
                ("norm1.bias", vec![768]),
                ("norm1.weight", vec![768]),
                ("norm2.bias", vec![768]),
                ("norm2.weight", vec![768]),
                ("attn.rel_pos_h", vec![rel, 64]),
                ("attn.rel_pos_w", vec![rel, 64]),
            ] {
                add(&format!("{p}{n}"), &s);
            }
        }
        for (n, s) in [
            ("model.sam_model.neck.0.weight", vec![256, 768, 1, 1]),
            ("model.sam_model.neck.1.bias", vec![256]),
            ("model.sam_model.neck.1.weight", vec![256]),
            ("model.sam_model.neck.2.weight", vec![256, 256, 3, 3]),
            ("model.sam_model.neck.3.bias", vec![256]),
            ("model.sam_model.neck.3.weight", vec![256]),
            ("model.sam_model.net_2.weight", vec![512, 256, 3, 3]),
            ("model.sam_model.net_3.weight", vec![1024, 512, 3, 3]),
            ("model.sam_model.patch_embed.proj.bias", vec![768]),
            ("model.sam_model.patch_embed.proj.weight", vec![768, 3, 16, 16]),
            ("model.sam_model.pos_embed", vec![1, 64, 64, 768]),
            ("model.vision_model.embeddings.class_embedding", vec![1024]),
            ("model.vision_model.embeddings.patch_embedding.weight", vec![1024, 3, 14, 14]),
            ("model.vision_model.embeddings.position_embedding.weight", vec![257, 1024]),
            ("model.vision_model.pre_layrnorm.bias", vec![1024]),
            ("model.vision_model.pre_layrnorm.weight", vec![1024]),
        ] {
            add(n, &s);
        }
        for i in 0..24 {
            let p = format!("model.vision_model.transformer.layers.{i}.");
            for (n, s) in [
                ("layer_norm1.bias", vec![1024]),
                ("layer_norm1.weight", vec![1024]),
                ("layer_norm2.bias", vec![1024]),
                ("layer_norm2.weight", vec![1024]),
                ("mlp.fc1.bias", vec![4096]),
                ("mlp.fc1.weight", vec![4096, 1024]),
                ("mlp.fc2.bias", vec![1024]),
                ("mlp.fc2.weight", vec![1024, 4096]),
                ("self_attn.out_proj.bias", vec![1024]),
                ("self_attn.out_proj.weight", vec![1024, 1024]),
                ("self_attn.qkv_proj.bias", vec![3072]),
                ("self_attn.qkv_proj.weight", vec![3072, 1024]),
            ] {
                add(&format!("{p}{n}"), &s);
            }
        }
        assert_eq!(t.len(), 2710);
        let mut json = String::from("{");
        let mut off = 0u64;
        for (i, (n, s)) in t.iter().enumerate() {
            let bytes = s.iter().product::<u64>() * 2;
            let shape = s.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
            json.push_str(&format!(
                "{}\"{n}\": {{\"dtype\": \"BF16\", \"shape\": [{shape}], \"data_offsets\": [{off}, {}]}}",
                if i > 0 { "," } else { "" },
                off + bytes
            ));
            off += bytes;
        }
        json.push('}');
        let header = parse(&file(&json)).unwrap();
        assert_eq!(off, 3_336_106_240 * 2);
        let config = crate::import::hf::parse_config(include_bytes!(
            "../../../../tests/fixtures/configs/deepseek-ocr.json"
        ))
        .unwrap();
        let m = custom_model("ocr".into(), config, &[(header, off)]);
        let s = crate::scenario::Scenario {
            model: crate::scenario::ModelSource::Custom(alloc::boxed::Box::new(m)),
            ..crate::scenario::Scenario::default()
        };
        let e = crate::estimate::estimate(&s).unwrap();
        use crate::estimate::TermKind;
        assert_eq!(e.memory.get(TermKind::Weights).get(), 2_934_734_080 * 2);
        assert_eq!(e.memory.get(TermKind::Encoders).get(), 401_372_160 * 2);
    }

    #[test]
    fn hostile_headers_are_refused() {
        // Absurd declared lengths.
        assert!(header_len(&u64::MAX.to_le_bytes()).is_err());
        assert!(parse(&1u64.to_le_bytes()).is_err());
        // Truncated: declares more than given.
        let mut f = 1000u64.to_le_bytes().to_vec();
        f.extend_from_slice(b"{}");
        assert!(parse(&f).unwrap_err().to_string().contains("only 2"));
        // Offsets that disagree with the shape; overflowing shapes; unknown dtypes.
        assert!(parse(&file(r#"{"a": {"dtype": "F16", "shape": [2], "data_offsets": [0, 3]}}"#)).is_err());
        assert!(
            parse(&file(
                r#"{"a": {"dtype": "F16", "shape": [4294967296, 4294967296, 4], "data_offsets": [0, 3]}}"#
            ))
            .is_err()
        );
        assert!(parse(&file(r#"{"a": {"dtype": "Q9", "shape": [2], "data_offsets": [0, 4]}}"#)).is_err());
        assert!(parse(&file("[1,2]")).is_err());
        assert!(parse(&file("\u{0}\u{1}")).is_err());
    }

    #[test]
    fn reads_an_index() {
        let i = parse_index(
            br#"{"metadata": {"total_size": 16060522496}, "weight_map": {"a": "model-00001-of-00002.safetensors",
                "b": "model-00002-of-00002.safetensors", "c": "model-00001-of-00002.safetensors"}}"#,
        )
        .unwrap();
        assert_eq!(i.total_size, Some(16_060_522_496));
        assert_eq!(i.shards.len(), 2);
        assert_eq!(i.tensor_count, 3);
        assert!(parse_index(br#"{"weight_map": {"a": "../etc/passwd"}}"#).is_err());
    }
}
