//! Reading model files from disk: GGUF headers (split files too) and safetensors headers or
//! indexes, without reading the weights.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use headroom_core::import::gguf::{self, Gguf, GgufError};
use headroom_core::import::{hf, safetensors};
use headroom_core::scenario::CustomModel;
use headroom_core::text::{Lang, Msg};

/// A model read from files, with the notices to print.
pub struct FromFiles {
    pub model: CustomModel,
    pub notices: Vec<String>,
}

fn open(path: &Path) -> Result<(File, u64), String> {
    let f = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let meta = f.metadata().map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    Ok((f, meta.len()))
}

/// Bytes `[from, from + len)` of a file, refusing to read past its end.
fn read_range(f: &mut File, from: u64, len: u64, path: &Path) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    f.seek(SeekFrom::Start(from)).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    f.take(len).read_to_end(&mut buf).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(buf)
}

/// Parses one GGUF header, reading more of the file only as the parser asks for it.
fn gguf_header(path: &Path) -> Result<Gguf, String> {
    let (mut f, size) = open(path)?;
    let mut have = gguf::FIRST_READ.min(size);
    loop {
        let bytes = read_range(&mut f, 0, have, path)?;
        match gguf::parse(&bytes) {
            Ok(g) => return Ok(g),
            Err(GgufError::Truncated { needed }) if have < size => {
                have = gguf::next_read(have, needed).min(size);
            }
            Err(e) => return Err(format!("{}: {}", path.display(), headroom_core::Error::from(e))),
        }
    }
}

/// Every part of the split model a GGUF file belongs to (`name-00001-of-00003.gguf`…), all
/// beside it, or just the file.
fn gguf_parts(path: &Path) -> Result<Vec<PathBuf>, String> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let dir = path.parent().unwrap_or(Path::new("."));
    let names = gguf::split_parts(name);
    if names.len() == 1 {
        return Ok(vec![path.to_path_buf()]);
    }
    let all: Vec<PathBuf> = names.iter().map(|n| dir.join(n)).collect();
    if let Some(missing) = all.iter().find(|p| !p.is_file()) {
        return Err(format!(
            "{name} is part of a split model and {} is missing beside it",
            missing.display()
        ));
    }
    Ok(all)
}

/// A GGUF file (every part of a split one): its header only.
pub fn read_gguf(path: &Path) -> Result<FromFiles, String> {
    let parts = gguf_parts(path)?;
    let headers = parts.iter().map(|p| gguf_header(p)).collect::<Result<Vec<_>, _>>()?;
    let g = gguf::merge(headers).ok_or_else(|| format!("{}: no header", path.display()))?;
    // The first part names a split model for llama.cpp.
    let first = parts.first().map_or(path, PathBuf::as_path);
    let fallback = first.file_name().and_then(|n| n.to_str()).unwrap_or("model.gguf");
    let (model, notices) = g.to_custom(fallback).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(FromFiles { model, notices: render(&notices) })
}

/// Reads an mmproj GGUF's header and adds its tensors to a model read from GGUF as its encoder.
pub fn attach_mmproj(model: &mut CustomModel, path: &Path) -> Result<(), String> {
    let g = gguf_header(path)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("mmproj.gguf");
    g.attach_mmproj_to(model, name).map_err(|e| format!("{}: {e}", path.display()))
}

/// One safetensors file's header and its declared length.
fn safetensors_header(path: &Path) -> Result<(safetensors::Header, u64), String> {
    let (mut f, size) = open(path)?;
    let first = read_range(&mut f, 0, 8, path)?;
    let n = safetensors::header_len(&first).map_err(|e| format!("{}: {e}", path.display()))?;
    if n.saturating_add(8) > size {
        return Err(format!(
            "{}: the header declares {n} bytes but the file has only {size}",
            path.display()
        ));
    }
    let json = read_range(&mut f, 8, n, path)?;
    let h = safetensors::parse_json(&json).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((h, n))
}

/// A safetensors checkpoint: one file, or an index naming its shards; the model's `config.json`
/// from `config` or beside the file (the tensors give bytes, the config gives heads and layers).
pub fn read_safetensors(
    path: &Path,
    config: Option<&Path>,
    quant_config: Option<&Path>,
) -> Result<FromFiles, String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let is_index = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".json"));
    let files: Vec<PathBuf> = if is_index {
        let bytes = crate::args::read_file(&path.to_path_buf())?;
        let index = safetensors::parse_index(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        index.shards.iter().map(|s| dir.join(s)).collect()
    } else {
        vec![path.to_path_buf()]
    };
    let headers = files.iter().map(|p| safetensors_header(p)).collect::<Result<Vec<_>, _>>()?;
    let config_path = match config {
        Some(c) => c.to_path_buf(),
        None => dir.join("config.json"),
    };
    if !config_path.is_file() {
        return Err(format!(
            "{}: the model's config.json is needed too (the header gives bytes, not heads or layers): put it beside the file or pass --config",
            path.display()
        ));
    }
    let m = parse_config_beside(&config_path, &crate::args::read_file(&config_path)?, quant_config)?;
    let name =
        m.name.clone().unwrap_or_else(|| dir.file_name().and_then(|n| n.to_str()).unwrap_or("model").into());
    let notices = render(&m.notices);
    Ok(FromFiles { model: safetensors::custom_model(name, m, &headers), notices })
}

/// A config.json with the quantization file `--quant-config` names, else the
/// `hf_quant_config.json` beside it when there is one (ModelOpt checkpoints).
pub fn parse_config_beside(
    path: &Path,
    bytes: &[u8],
    quant_config: Option<&Path>,
) -> Result<hf::HfModel, String> {
    let beside = path.parent().unwrap_or(Path::new(".")).join("hf_quant_config.json");
    let quant_path = match quant_config {
        Some(q) => Some(q.to_path_buf()),
        None => beside.is_file().then_some(beside),
    };
    let quant = match &quant_path {
        Some(q) => Some(crate::args::read_file(q)?),
        None => None,
    };
    hf::parse_config_with_quant(bytes, quant.as_deref()).map_err(|e| {
        let file = match (&quant_path, e.to_string().contains("hf_quant_config")) {
            (Some(q), true) => q.display().to_string(),
            _ => path.display().to_string(),
        };
        format!("{file}: {e}")
    })
}

fn render(notices: &[Msg]) -> Vec<String> {
    notices.iter().map(|n| n.render(Lang::En)).collect()
}
