//! Hugging Face Hub references and the plan for reading a repository's headers.
//!
//! The page turns whatever the user pasted (`org/name`, `https://huggingface.co/org/name`,
//! `…/tree/main`, `…/blob/main/config.json`, `…/resolve/main/model-Q4_K_M.gguf?download=true`,
//! `hf.co/org/name:Q4_K_M`) into a [`HubRef`], lists the repository
//! (`/api/models/{repo}/tree/{revision}`), and [`plan`] decides which small files to read:
//! `config.json` plus the safetensors index and headers, or the GGUF header of one quantization
//! (every part of a split one). Everything here is pure: the fetching is the front end's.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::gguf::{split_part, split_parts};
use crate::error::{Error, Result};
use crate::json::{self, Value};

/// The public Hub.
pub const DEFAULT_HUB: &str = "https://huggingface.co";

/// A repository on the Hub, at a revision, and optionally one file in it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HubRef {
    /// `org/name`.
    pub repo: String,
    /// Branch, tag or commit (`main`).
    pub revision: String,
    /// A file inside the repository (`Q4_K_M/model-00001-of-00002.gguf`), when one was named.
    pub file: Option<String>,
    /// A quantization asked for by tag (`org/name:Q4_K_M`), when no file was named.
    pub quant: Option<String>,
}

impl HubRef {
    /// The reference as written in a link: `org/name`, then `@revision` when not `main`, then
    /// `/file` or `:QUANT`.
    pub fn to_link_value(&self) -> String {
        let mut s = self.repo.clone();
        if self.revision != "main" {
            s.push('@');
            s.push_str(&self.revision);
        }
        if let Some(f) = &self.file {
            s.push('/');
            s.push_str(f);
        } else if let Some(q) = &self.quant {
            s.push(':');
            s.push_str(q);
        }
        s
    }
}

fn bad(input: &str, why: &str) -> Error {
    let shown: String = input.chars().take(80).collect();
    Error::parse("Hugging Face reference", format!("`{shown}`: {why}"))
}

fn valid_segment(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 96
        && s != "."
        && s != ".."
        && !s.starts_with('-')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn valid_path(p: &str) -> bool {
    !p.is_empty()
        && p.len() <= 512
        && p.split('/').all(|seg| {
            !seg.is_empty()
                && seg != "."
                && seg != ".."
                && seg.bytes().all(|b| b.is_ascii_graphic() && !matches!(b, b'?' | b'#' | b'%' | b'\\'))
        })
}

/// Reads a model reference in any of the forms people paste.
///
/// # Errors
/// [`Error::Parse`] naming what is wrong: not a Hub address, no `org/name`, characters the Hub
/// does not allow, a path that climbs out of the repository.
///
/// # Example
/// ```
/// use headroom_core::import::hub::parse_ref;
/// let r = parse_ref("https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/blob/main/config.json").unwrap();
/// assert_eq!((r.repo.as_str(), r.revision.as_str(), r.file), ("Qwen/Qwen2.5-7B-Instruct", "main", None));
/// let g = parse_ref("hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M").unwrap();
/// assert_eq!(g.quant.as_deref(), Some("Q4_K_M"));
/// ```
pub fn parse_ref(input: &str) -> Result<HubRef> {
    let mut s = input.trim();
    if s.is_empty() {
        return Err(bad(input, "type a model id such as Qwen/Qwen2.5-7B or paste its Hugging Face address"));
    }
    // Query and fragment never name anything we need (`?download=true`).
    if let Some(i) = s.find(['?', '#']) {
        s = &s[..i];
    }
    let mut web_scheme = false;
    for scheme in ["https://", "http://", "hf://"] {
        if let Some(rest) = s.strip_prefix(scheme) {
            s = rest;
            web_scheme = scheme != "hf://";
        }
    }
    let mut from_host = false;
    for host in ["www.huggingface.co/", "huggingface.co/", "hf.co/"] {
        if let Some(rest) = s.strip_prefix(host) {
            s = rest;
            from_host = true;
        }
    }
    if (web_scheme && !from_host) || s.contains("://") {
        return Err(bad(input, "not a Hugging Face address"));
    }
    if let Some(rest) = s.strip_prefix("models/") {
        s = rest;
    }
    // Another site's address without its scheme: Hub namespaces never hold a dot, and `models`,
    // `datasets` and `spaces` are the Hub's own paths, not namespaces.
    let first = s.split('/').next().unwrap_or("");
    if first.contains('.') || first == "models" {
        return Err(bad(input, "not a Hugging Face address"));
    }
    if s.starts_with("datasets/") || s.starts_with("spaces/") {
        return Err(bad(input, "this names a dataset or a Space, not a model"));
    }
    let s = s.trim_end_matches('/');
    let mut parts = s.splitn(3, '/');
    let org = parts.next().unwrap_or("");
    let name_part = parts.next().ok_or_else(|| bad(input, "a model id has the form org/name"))?;
    let rest = parts.next();
    // `org/name:QUANT` and `org/name@revision`.
    let (name_rev, quant) = match name_part.split_once(':') {
        Some((n, q)) if rest.is_none() => (n, Some(q)),
        Some(_) => return Err(bad(input, "`:` may only follow the model name")),
        None => (name_part, None),
    };
    let (name, at_rev) = match name_rev.split_once('@') {
        Some((n, r)) => (n, Some(r)),
        None => (name_rev, None),
    };
    if !valid_segment(org) || !valid_segment(name) {
        return Err(bad(input, "org and name may hold letters, digits, '-', '_' and '.'"));
    }
    let mut r = HubRef {
        repo: format!("{org}/{name}"),
        revision: at_rev.unwrap_or("main").to_string(),
        file: None,
        quant: quant.map(String::from),
    };
    if let Some(rest) = rest {
        let mut seg = rest.splitn(3, '/');
        match (seg.next(), seg.next(), seg.next()) {
            (Some("tree" | "blob" | "resolve" | "raw"), Some(rev), path) => {
                r.revision = rev.to_string();
                if let Some(p) = path.filter(|p| !p.is_empty()) {
                    if !valid_path(p) {
                        return Err(bad(input, "the file path is not one the Hub serves"));
                    }
                    // Only a GGUF file chooses what to read; config.json or a shard names the repo.
                    if p.to_ascii_lowercase().ends_with(".gguf") {
                        r.file = Some(p.to_string());
                    }
                }
            }
            (Some(_), _, _) if rest.to_ascii_lowercase().ends_with(".gguf") && valid_path(rest) => {
                // `org/name/file.gguf`, a common shorthand.
                r.file = Some(rest.to_string());
            }
            _ => return Err(bad(input, "after org/name expected /tree/…, /blob/… or /resolve/…")),
        }
    }
    if !valid_segment(&r.revision) {
        return Err(bad(input, "the revision may hold letters, digits, '-', '_' and '.'"));
    }
    if let Some(q) = &r.quant
        && !valid_segment(q)
    {
        return Err(bad(input, "the quantization tag may hold letters, digits, '-', '_' and '.'"));
    }
    Ok(r)
}

/// Reads the value of a link's `hf` key (written by [`HubRef::to_link_value`]).
///
/// # Errors
/// As [`parse_ref`].
pub fn parse_link_value(v: &str) -> Result<HubRef> {
    // `org/name@rev/file.gguf`: move the revision into the URL form parse_ref reads.
    let mut parts = v.splitn(3, '/');
    let (org, name, rest) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next());
    match (name.split_once('@'), rest) {
        (Some((n, rev)), Some(file)) => parse_ref(&format!("{org}/{n}/resolve/{rev}/{file}")),
        (None, Some(file)) => parse_ref(&format!("{org}/{name}/resolve/main/{file}")),
        _ => parse_ref(v),
    }
}

/// Checks a hub base URL (`https://huggingface.co`, or a mirror or test server).
///
/// # Errors
/// [`Error::Parse`] unless it is an `http(s)://host[:port][/path]` address without query.
pub fn parse_base(base: &str) -> Result<String> {
    let b = base.trim().trim_end_matches('/');
    let rest = b.strip_prefix("https://").or_else(|| b.strip_prefix("http://"));
    match rest {
        Some(r)
            if !r.is_empty()
                && !r.starts_with('/')
                && r.bytes().all(|c| c.is_ascii_graphic() && !matches!(c, b'?' | b'#' | b'@' | b'\\')) =>
        {
            Ok(b.to_string())
        }
        _ => Err(Error::parse("hub address", format!("`{}` is not an http(s) address", base.trim()))),
    }
}

/// Whether an access token may be sent to this hub: the public Hub, or a server on this machine.
/// A link cannot make the page send a token anywhere else.
pub fn may_send_token(base: &str) -> bool {
    let host = base
        .strip_prefix("https://")
        .or_else(|| base.strip_prefix("http://"))
        .unwrap_or("")
        .split('/')
        .next()
        .unwrap_or("");
    let host_only = host
        .rsplit_once(':')
        .map_or(host, |(h, p)| if p.bytes().all(|b| b.is_ascii_digit()) { h } else { host });
    base.starts_with("https://huggingface.co") && host == "huggingface.co"
        || matches!(host_only, "127.0.0.1" | "localhost" | "[::1]")
}

fn encode_path(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The address of a file of the repository.
pub fn resolve_url(base: &str, r: &HubRef, path: &str) -> String {
    format!("{base}/{}/resolve/{}/{}", r.repo, encode_path(&r.revision), encode_path(path))
}

/// The address of the repository's file listing.
pub fn tree_url(base: &str, r: &HubRef) -> String {
    format!("{base}/api/models/{}/tree/{}?recursive=true", r.repo, encode_path(&r.revision))
}

/// A file in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Path inside the repository.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
}

/// Reads the Hub's tree listing (a JSON array of `{"type": "file", "path": …, "size": …}`).
///
/// # Errors
/// [`Error::Parse`] when it is not such an array.
pub fn parse_tree(bytes: &[u8]) -> Result<Vec<Listed>> {
    const F: &str = "Hub file listing";
    let root = json::parse(bytes, F)?;
    let items = root.as_array().ok_or_else(|| Error::parse(F, "not a list of files"))?;
    let mut out = Vec::new();
    for it in items {
        if it.get("type").and_then(Value::as_str) != Some("file") {
            continue;
        }
        let Some(path) = it.get("path").and_then(Value::as_str) else { continue };
        let size = it
            .get("lfs")
            .and_then(|l| l.get("size"))
            .and_then(Value::as_u64)
            .or_else(|| it.get("size").and_then(Value::as_u64))
            .unwrap_or(0);
        out.push(Listed { path: path.into(), size });
    }
    Ok(out)
}

/// The file NVIDIA ModelOpt writes beside `config.json` with the checkpoint's quantization.
pub const HF_QUANT_CONFIG: &str = "hf_quant_config.json";

/// What to read from a repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// A transformers checkpoint: the config, and the safetensors headers (through the index when
    /// sharded).
    Safetensors {
        /// `config.json`.
        config: String,
        /// `model.safetensors.index.json`, when sharded.
        index: Option<String>,
        /// `model.safetensors`, when not.
        single: Option<String>,
        /// Bytes of all safetensors files in the listing.
        total: u64,
    },
    /// A GGUF file: every part of it.
    Gguf {
        /// The parts, in order.
        parts: Vec<String>,
        /// Every GGUF choice in the repository (the first part of each), for a picker.
        choices: Vec<String>,
        /// The repository's multimodal projector (`mmproj-*.gguf`, F16 preferred), when it has one.
        mmproj: Option<String>,
    },
    /// Only a config: the estimate prices tensors by rule.
    ConfigOnly {
        /// `config.json`.
        config: String,
    },
}

/// Chooses what to read.
///
/// # Errors
/// [`Error::Parse`] when the repository has neither a config nor a GGUF file, or the named file
/// or quantization is not in it.
pub fn plan(r: &HubRef, files: &[Listed]) -> Result<Plan> {
    let has = |p: &str| files.iter().any(|f| f.path == p);
    let ggufs: Vec<&Listed> =
        files.iter().filter(|f| f.path.to_ascii_lowercase().ends_with(".gguf")).collect();
    // The first part of each split, and every unsplit file; multimodal projectors are not models.
    let mut choices: Vec<String> = ggufs
        .iter()
        .filter(|f| split_part(&f.path).is_none_or(|(_, i, _)| i == 1))
        .filter(|f| !f.path.rsplit('/').next().unwrap_or("").to_ascii_lowercase().starts_with("mmproj"))
        .map(|f| f.path.clone())
        .collect();
    crate::sort::sort(&mut choices);
    let want_gguf = r.file.is_some() || r.quant.is_some() || !has("config.json");
    if want_gguf && !choices.is_empty() {
        let first = match (&r.file, &r.quant) {
            (Some(f), _) => {
                if !ggufs.iter().any(|g| &g.path == f) {
                    return Err(Error::parse(
                        "Hugging Face repository",
                        format!("{} has no file {f}", r.repo),
                    ));
                }
                split_parts(f).swap_remove(0)
            }
            (None, Some(q)) => {
                let ql = q.to_ascii_lowercase();
                choices.iter().find(|c| c.to_ascii_lowercase().contains(&ql)).cloned().ok_or_else(|| {
                    Error::parse("Hugging Face repository", format!("{} has no {q} GGUF file", r.repo))
                })?
            }
            (None, None) => preferred(&choices),
        };
        let parts = split_parts(&first);
        if let Some(m) = parts.iter().find(|p| !has(p)) {
            return Err(Error::parse("Hugging Face repository", format!("{m} is missing from {}", r.repo)));
        }
        let mut projectors: Vec<&str> = ggufs
            .iter()
            .map(|f| f.path.as_str())
            .filter(|p| p.rsplit('/').next().unwrap_or("").to_ascii_lowercase().starts_with("mmproj"))
            .collect();
        crate::sort::sort(&mut projectors);
        let mmproj = projectors
            .iter()
            .find(|p| p.to_ascii_lowercase().contains("f16"))
            .or(projectors.first())
            .map(|p| (*p).to_string());
        return Ok(Plan::Gguf { parts, choices, mmproj });
    }
    if r.file.is_some() || r.quant.is_some() {
        return Err(Error::parse("Hugging Face repository", format!("{} has no GGUF files", r.repo)));
    }
    if !has("config.json") {
        return Err(Error::parse(
            "Hugging Face repository",
            format!("{} has neither a config.json nor a GGUF file: Headroom cannot read it", r.repo),
        ));
    }
    let total = files
        .iter()
        .filter(|f| f.path.ends_with(".safetensors") && !f.path.contains('/'))
        .fold(0u64, |a, f| a.saturating_add(f.size));
    let index = has("model.safetensors.index.json").then(|| "model.safetensors.index.json".to_string());
    let single = (index.is_none() && has("model.safetensors")).then(|| "model.safetensors".to_string());
    if index.is_none() && single.is_none() {
        return Ok(Plan::ConfigOnly { config: "config.json".into() });
    }
    Ok(Plan::Safetensors { config: "config.json".into(), index, single, total })
}

/// The GGUF a user most likely wants when none was named: Q4_K_M, else the first.
fn preferred(choices: &[String]) -> String {
    for q in ["q4_k_m", "q4_k_s", "q4_0", "q5_k_m", "q8_0"] {
        if let Some(c) = choices.iter().find(|c| c.to_ascii_lowercase().contains(q)) {
            return c.clone();
        }
    }
    choices.first().cloned().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn every_address_form() {
        let plain = HubRef {
            repo: "meta-llama/Llama-3.1-8B".into(),
            revision: "main".into(),
            file: None,
            quant: None,
        };
        for s in [
            "meta-llama/Llama-3.1-8B",
            " meta-llama/Llama-3.1-8B/ ",
            "https://huggingface.co/meta-llama/Llama-3.1-8B",
            "huggingface.co/meta-llama/Llama-3.1-8B",
            "https://hf.co/meta-llama/Llama-3.1-8B",
            "https://huggingface.co/meta-llama/Llama-3.1-8B/tree/main",
            "https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json",
            "https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/model-00001-of-00004.safetensors?download=true",
            "https://huggingface.co/models/meta-llama/Llama-3.1-8B#files",
        ] {
            assert_eq!(parse_ref(s).unwrap(), plain, "{s}");
        }
        let g =
            parse_ref("https://huggingface.co/bartowski/X-GGUF/resolve/v2/sub/X-Q4_K_M.gguf?download=true")
                .unwrap();
        assert_eq!((g.revision.as_str(), g.file.as_deref()), ("v2", Some("sub/X-Q4_K_M.gguf")));
        assert_eq!(parse_ref("bartowski/X-GGUF/X-Q8_0.gguf").unwrap().file.as_deref(), Some("X-Q8_0.gguf"));
        assert_eq!(parse_ref("org/name@dev").unwrap().revision, "dev");
        for bad in [
            "",
            "llama",
            "https://example.com/org/name",
            "example.com/org/name",
            "http://evil.example/huggingface.co/org/name",
            "org/name/../../etc",
            "https://huggingface.co/datasets/org/name",
            "org/na me",
            "org/name/blob/main/../x.gguf",
            "org/name:Q4:K",
            "models/model.s/x",
            "models/models/x",
        ] {
            assert!(parse_ref(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn link_values_round_trip() {
        for s in [
            "org/name",
            "org/name@v1.0",
            "org/name/sub/x.gguf",
            "org/name@dev/x-00001-of-00002.gguf",
            "org/name:Q4_K_M",
        ] {
            let r = parse_link_value(s).unwrap();
            assert_eq!(r.to_link_value(), s);
            assert_eq!(parse_link_value(&r.to_link_value()).unwrap(), r);
        }
    }

    #[test]
    fn tokens_go_only_to_the_hub_or_this_machine() {
        assert!(may_send_token("https://huggingface.co"));
        assert!(may_send_token("http://127.0.0.1:9000"));
        assert!(may_send_token("http://localhost:8080/hub"));
        assert!(!may_send_token("https://huggingface.co.evil.example"));
        assert!(!may_send_token("http://huggingface.co"));
        assert!(!may_send_token("https://mirror.example"));
        assert!(parse_base("ftp://x").is_err());
        assert!(parse_base("https://user@evil").is_err());
        assert_eq!(parse_base("http://127.0.0.1:9000/").unwrap(), "http://127.0.0.1:9000");
    }

    #[test]
    fn plans_pick_the_right_files() {
        let l =
            |paths: &[&str]| paths.iter().map(|p| Listed { path: (*p).into(), size: 10 }).collect::<Vec<_>>();
        let r = parse_ref("org/m").unwrap();
        let st = l(&[
            "config.json",
            "model.safetensors.index.json",
            "model-00001-of-00002.safetensors",
            "model-00002-of-00002.safetensors",
        ]);
        assert!(matches!(
            plan(&r, &st).unwrap(),
            Plan::Safetensors { index: Some(_), single: None, total: 20, .. }
        ));
        assert!(matches!(
            plan(&r, &l(&["config.json", "model.safetensors"])).unwrap(),
            Plan::Safetensors { single: Some(_), .. }
        ));
        assert!(matches!(
            plan(&r, &l(&["config.json", "pytorch_model.bin"])).unwrap(),
            Plan::ConfigOnly { .. }
        ));
        assert!(plan(&r, &l(&["README.md"])).is_err());
        let gg = l(&[
            "m-Q8_0.gguf",
            "m-Q4_K_M.gguf",
            "big/m-Q2_K-00001-of-00002.gguf",
            "big/m-Q2_K-00002-of-00002.gguf",
            "mmproj-f16.gguf",
        ]);
        match plan(&r, &gg).unwrap() {
            Plan::Gguf { parts, choices, mmproj } => {
                assert_eq!(parts, vec!["m-Q4_K_M.gguf".to_string()]);
                assert_eq!(choices.len(), 3);
                assert_eq!(
                    mmproj.as_deref(),
                    Some("mmproj-f16.gguf"),
                    "the projector is read with the model"
                );
            }
            p => panic!("{p:?}"),
        }
        let q2 = parse_ref("org/m:Q2_K").unwrap();
        assert!(matches!(plan(&q2, &gg).unwrap(), Plan::Gguf { parts, .. } if parts.len() == 2));
        let part2 = parse_ref("org/m/big/m-Q2_K-00002-of-00002.gguf").unwrap();
        assert!(
            matches!(plan(&part2, &gg).unwrap(), Plan::Gguf { parts, .. } if parts[0].ends_with("00001-of-00002.gguf"))
        );
        assert!(plan(&parse_ref("org/m:IQ1_S").unwrap(), &gg).is_err());
        let missing = l(&["x-00001-of-00003.gguf", "x-00002-of-00003.gguf"]);
        assert!(plan(&r, &missing).is_err());
        assert_eq!(split_part("a/b-c-00002-of-00010.gguf"), Some(("a/b-c", 2, 10)));
        assert_eq!(split_part("x-00003-of-00002.gguf"), None);
        assert_eq!(
            split_parts("x-00002-of-00002.gguf"),
            vec!["x-00001-of-00002.gguf", "x-00002-of-00002.gguf"]
        );
    }

    #[test]
    fn listings_are_read() {
        let t = br#"[{"type":"file","path":"config.json","size":700},{"type":"directory","path":"x"},
            {"type":"file","path":"model.safetensors","size":135,"lfs":{"size":988097824}}]"#;
        let l = parse_tree(t).unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(l[1].size, 988_097_824);
        assert!(parse_tree(b"{}").is_err());
    }
}
