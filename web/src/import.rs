//! Reading a model's own files in the browser: a Hugging Face repository's `config.json` and
//! safetensors headers (HTTP Range requests: a first 256 KiB that holds the 8-byte length and
//! usually the whole header, then the rest of the header if it is longer), a GGUF header on
//! the Hub (chunked Range requests, growing until the parser has the whole header), or local GGUF
//! files (slices of the `File`). The weights are never downloaded; the parsing is the core's.
//!
//! An access token lives only in the caller's memory for the duration of a read: it is sent as an
//! `Authorization` header to the public Hub or to a server on this machine, and nowhere else.

use headroom_core::import::gguf::{self, Gguf, GgufError};
use headroom_core::import::hub::{self, HubRef, Plan};
use headroom_core::import::{hf, safetensors};
use headroom_core::scenario::CustomModel;
use headroom_core::text::Lang;
use js_sys::Uint8Array;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, Blob, File, Headers, Request, RequestInit, Response};

/// How far a read has got.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// What is being read (`config.json`, `model-00002-of-00004.safetensors`…).
    pub what: String,
    /// Files done and in all.
    pub files: (usize, usize),
    /// Header bytes read so far.
    pub bytes: u64,
}

/// Why a read stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// The user cancelled.
    Aborted,
    /// The repository is gated or private and the request had no (valid) token.
    Gated { repo: String, with_token: bool },
    /// The repository or file does not exist (or is private).
    NotFound { what: String },
    /// The server ignored the Range request and would send the whole file.
    RangeIgnored { what: String },
    /// Another HTTP status.
    Http { status: u16, what: String },
    /// The network failed (offline, CORS, DNS).
    Network { what: String },
    /// The bytes could not be read as what they should be.
    Parse(String),
}

impl ImportError {
    /// The message the page shows.
    pub fn message(&self, lang: Lang) -> String {
        let fr = lang == Lang::Fr;
        match self {
            ImportError::Aborted => (if fr { "Lecture annulée." } else { "Reading cancelled." }).into(),
            ImportError::Gated { repo, with_token: false } => {
                if fr {
                    format!(
                        "{repo} est protégé (licence à accepter ou dépôt privé) : acceptez ses conditions sur Hugging Face puis collez un jeton d'accès en lecture ci-dessous."
                    )
                } else {
                    format!(
                        "{repo} is gated (a licence to accept, or private): accept its terms on Hugging Face, then paste a read access token below."
                    )
                }
            }
            ImportError::Gated { repo, with_token: true } => {
                if fr {
                    format!(
                        "Ce jeton n'a pas accès à {repo} : acceptez sa licence sur sa page Hugging Face, ou vérifiez le jeton."
                    )
                } else {
                    format!(
                        "This token has no access to {repo}: accept its licence on its Hugging Face page, or check the token."
                    )
                }
            }
            ImportError::NotFound { what } => {
                if fr {
                    format!(
                        "{what} introuvable (ou privé : un jeton est alors nécessaire). Vérifiez l'identifiant."
                    )
                } else {
                    format!("{what} was not found (or is private, which needs a token). Check the id.")
                }
            }
            ImportError::RangeIgnored { what } => {
                if fr {
                    format!(
                        "Le serveur ignore les requêtes partielles pour {what} : lecture arrêtée pour ne pas télécharger les poids."
                    )
                } else {
                    format!(
                        "The server ignores partial requests for {what}: stopped rather than download the weights."
                    )
                }
            }
            ImportError::Http { status, what } => {
                if fr {
                    format!("Le serveur a répondu {status} pour {what}.")
                } else {
                    format!("The server answered {status} for {what}.")
                }
            }
            ImportError::Network { what } => {
                if fr {
                    format!("{what} n'a pas pu être joint (hors ligne, ou bloqué par le navigateur).")
                } else {
                    format!("{what} could not be reached (offline, or blocked by the browser).")
                }
            }
            ImportError::Parse(e) => e.clone(),
        }
    }
}

/// A model read from files, ready to estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The model, with the files' exact tensors when they were read.
    pub model: CustomModel,
    /// What had to be assumed.
    pub notices: Vec<String>,
    /// What was read, in words.
    pub read: String,
    /// The GGUF files the repository offers (first parts), for a picker.
    pub choices: Vec<String>,
    /// The GGUF file read, when one was.
    pub file: Option<String>,
}

fn parse_err(e: impl core::fmt::Display) -> ImportError {
    ImportError::Parse(e.to_string())
}

/// The first bytes asked of a safetensors shard: the 8-byte length and, for most, the whole header.
const FIRST_CHUNK: u64 = 256 << 10;

/// One request context: the hub, the token and the abort signal.
pub struct Hub<'a> {
    /// Base address.
    pub base: &'a str,
    /// Access token, when given and allowed for this hub.
    pub token: Option<&'a str>,
    /// Cancels every request.
    pub signal: &'a AbortSignal,
    /// The repository (for messages).
    pub repo: &'a str,
}

impl Hub<'_> {
    /// GETs `url` (bytes `from..=to` when a range is given). `None` when the range starts past
    /// the end of the file (HTTP 416).
    async fn get(
        &self,
        url: &str,
        what: &str,
        range: Option<(u64, u64)>,
    ) -> Result<Option<Vec<u8>>, ImportError> {
        let net = || ImportError::Network { what: what.to_string() };
        let headers = Headers::new().map_err(|_| net())?;
        if let Some((a, b)) = range {
            headers.set("Range", &format!("bytes={a}-{b}")).map_err(|_| net())?;
        }
        if let Some(t) = self.token {
            headers.set("Authorization", &format!("Bearer {t}")).map_err(|_| net())?;
        }
        let init = RequestInit::new();
        init.set_method("GET");
        init.set_headers(&headers);
        init.set_signal(Some(self.signal));
        let req = Request::new_with_str_and_init(url, &init).map_err(|_| net())?;
        let window = web_sys::window().ok_or_else(net)?;
        let resp = JsFuture::from(window.fetch_with_request(&req))
            .await
            .map_err(|_| if self.signal.aborted() { ImportError::Aborted } else { net() })?;
        let resp: Response = resp.dyn_into().map_err(|_| net())?;
        match resp.status() {
            200 | 206 => {}
            416 => return Ok(None),
            401 | 403 => {
                return Err(ImportError::Gated { repo: self.repo.into(), with_token: self.token.is_some() });
            }
            404 => return Err(ImportError::NotFound { what: what.to_string() }),
            s => return Err(ImportError::Http { status: s, what: what.to_string() }),
        }
        if let Some((a, b)) = range
            && resp.status() == 200
        {
            // A server that ignores Range would send the weights: refuse large bodies unread.
            let len = resp.headers().get("content-length").ok().flatten().and_then(|v| v.parse::<u64>().ok());
            if len.is_none_or(|l| l > (b - a + 1).saturating_mul(4).max(1 << 20)) {
                return Err(ImportError::RangeIgnored { what: what.to_string() });
            }
        }
        let buf = resp.array_buffer().map_err(|_| net())?;
        let buf = JsFuture::from(buf)
            .await
            .map_err(|_| if self.signal.aborted() { ImportError::Aborted } else { net() })?;
        let mut bytes = Uint8Array::new(&buf).to_vec();
        if let Some((a, b)) = range
            && resp.status() == 200
        {
            // A small file served whole: keep the asked range.
            let end = usize::try_from(b + 1).unwrap_or(usize::MAX).min(bytes.len());
            let start = usize::try_from(a).unwrap_or(usize::MAX).min(end);
            bytes = bytes[start..end].to_vec();
        }
        Ok(Some(bytes))
    }
}

/// Reads a Hugging Face repository: its listing, then the files [`hub::plan`] chooses.
pub async fn from_hub(
    hub_ctx: &Hub<'_>,
    r: &HubRef,
    progress: impl Fn(Progress),
) -> Result<Imported, ImportError> {
    let base = hub_ctx.base;
    progress(Progress { what: r.repo.clone(), files: (0, 1), bytes: 0 });
    // The Hub answers 401 for a repository it cannot show: missing, or private to others.
    let listing = match hub_ctx.get(&hub::tree_url(base, r), &r.repo, None).await {
        Ok(Some(b)) => b,
        Ok(None) | Err(ImportError::Gated { .. } | ImportError::NotFound { .. }) => {
            return Err(ImportError::NotFound { what: r.repo.clone() });
        }
        Err(e) => return Err(e),
    };
    let files = hub::parse_tree(&listing).map_err(parse_err)?;
    // ModelOpt checkpoints state their quantization in a file beside config.json.
    let quant = files.iter().any(|f| f.path == hub::HF_QUANT_CONFIG).then_some(hub::HF_QUANT_CONFIG);
    match hub::plan(r, &files).map_err(parse_err)? {
        Plan::Gguf { parts, choices, mmproj } => {
            let total = parts.len();
            let mut headers = Vec::new();
            let mut bytes_read = 0u64;
            for (i, part) in parts.iter().enumerate() {
                let url = hub::resolve_url(base, r, part);
                let g = gguf_by_chunks(
                    |from, to| hub_ctx.get(&url, part, Some((from, to))),
                    |b| {
                        progress(Progress { what: part.clone(), files: (i, total), bytes: bytes_read + b });
                    },
                )
                .await?;
                bytes_read += g.header_bytes;
                headers.push(g);
            }
            let g = gguf::merge(headers).ok_or_else(|| parse_err("no GGUF header"))?;
            let name = parts[0].rsplit('/').next().unwrap_or(&parts[0]).to_string();
            let (mut model, notices) = g.to_custom(&name).map_err(parse_err)?;
            // The repository's multimodal projector: the model's encoder, exact.
            // A projector that cannot be read leaves the model as it is, and says so.
            let mut said = render(&notices);
            if let Some(mm) = &mmproj {
                let url = hub::resolve_url(base, r, mm);
                let read = gguf_by_chunks(|from, to| hub_ctx.get(&url, mm, Some((from, to))), |_| {}).await;
                let mm_name = mm.rsplit('/').next().unwrap_or(mm);
                let attached = match read {
                    Ok(h) => h.attach_mmproj_to(&mut model, mm_name).map_err(|e| e.to_string()),
                    Err(e) => Err(format!("{e:?}")),
                };
                if let Err(why) = attached {
                    said.push(format!("{mm_name} (the repository's multimodal projector) could not be read ({why}): its encoder is not counted"));
                }
            }
            model.name = format!("{} · {}", r.repo, name);
            Ok(Imported {
                model,
                notices: said,
                read: format!("{} GGUF header(s), {} tensors", parts.len(), g.tensors.len()),
                choices,
                file: Some(parts[0].clone()),
            })
        }
        Plan::ConfigOnly { config } => {
            let cfg = read_config(hub_ctx, r, &config, quant).await?;
            let notices = render(&cfg.notices);
            let model = cfg.into_custom(r.repo.clone());
            Ok(Imported {
                model,
                notices,
                read: "config.json (no safetensors files: tensors priced by rule)".into(),
                choices: Vec::new(),
                file: None,
            })
        }
        Plan::Safetensors { config, index, single, .. } => {
            let cfg = read_config(hub_ctx, r, &config, quant).await?;
            let shards: Vec<String> = match (index, single) {
                (Some(ix), _) => {
                    progress(Progress { what: ix.clone(), files: (0, 1), bytes: 0 });
                    let bytes = hub_ctx
                        .get(&hub::resolve_url(base, r, &ix), &ix, None)
                        .await?
                        .ok_or_else(|| ImportError::NotFound { what: ix.clone() })?;
                    safetensors::parse_index(&bytes).map_err(parse_err)?.shards
                }
                (None, Some(s)) => vec![s],
                (None, None) => Vec::new(),
            };
            let mut headers = Vec::new();
            let mut bytes_read = 0u64;
            // A few shards at once: a 163-shard checkpoint reads in seconds, and the Hub is not
            // flooded.
            for (k, batch) in shards.chunks(SHARDS_AT_ONCE).enumerate() {
                let done = k * SHARDS_AT_ONCE;
                progress(Progress { what: batch[0].clone(), files: (done, shards.len()), bytes: bytes_read });
                let reads = batch.iter().map(|shard| shard_header(hub_ctx, r, shard));
                for read in futures::future::join_all(reads).await {
                    let (h, n) = read?;
                    bytes_read += 8 + n;
                    headers.push((h, n));
                }
            }
            progress(Progress {
                what: String::new(),
                files: (shards.len(), shards.len()),
                bytes: bytes_read,
            });
            let tensors: usize = headers.iter().map(|(h, _)| h.tensors.len()).sum();
            let notices = render(&cfg.notices);
            Ok(Imported {
                model: safetensors::custom_model(r.repo.clone(), cfg, &headers),
                notices,
                read: format!("config.json and {} safetensors header(s), {tensors} tensors", shards.len()),
                choices: Vec::new(),
                file: None,
            })
        }
    }
}

/// Shards whose headers are read at the same time.
const SHARDS_AT_ONCE: usize = 6;

/// One shard's header: a first chunk that usually holds it all, then the rest if it is longer.
async fn shard_header(
    hub_ctx: &Hub<'_>,
    r: &HubRef,
    shard: &str,
) -> Result<(safetensors::Header, u64), ImportError> {
    let url = hub::resolve_url(hub_ctx.base, r, shard);
    let first = hub_ctx
        .get(&url, shard, Some((0, FIRST_CHUNK - 1)))
        .await?
        .ok_or_else(|| parse_err(format!("{shard} is empty")))?;
    let n = safetensors::header_len(&first).map_err(|e| parse_err(format!("{shard}: {e}")))?;
    let mut json = first.get(8..).unwrap_or(&[]).to_vec();
    json.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    if (json.len() as u64) < n {
        let rest =
            hub_ctx.get(&url, shard, Some((8 + json.len() as u64, 8 + n - 1))).await?.unwrap_or_default();
        json.extend_from_slice(&rest);
    }
    let h = safetensors::parse_json(&json).map_err(|e| parse_err(format!("{shard}: {e}")))?;
    Ok((h, n))
}

async fn read_config(
    h: &Hub<'_>,
    r: &HubRef,
    path: &str,
    quant: Option<&str>,
) -> Result<hf::HfModel, ImportError> {
    let bytes = h
        .get(&hub::resolve_url(h.base, r, path), path, None)
        .await?
        .ok_or_else(|| ImportError::NotFound { what: path.to_string() })?;
    let quant_bytes = match quant {
        Some(q) => h.get(&hub::resolve_url(h.base, r, q), q, None).await?,
        None => None,
    };
    hf::parse_config_with_quant(&bytes, quant_bytes.as_deref()).map_err(parse_err)
}

/// Reads a GGUF header through `read(from, to)`, starting with one chunk and asking for more
/// as the parser says it needs (the header's length is not known in advance).
async fn gguf_by_chunks<F, Fut>(read: F, progress: impl Fn(u64)) -> Result<Gguf, ImportError>
where
    F: Fn(u64, u64) -> Fut,
    Fut: Future<Output = Result<Option<Vec<u8>>, ImportError>>,
{
    let mut have: Vec<u8> = Vec::new();
    let mut want = gguf::FIRST_READ;
    loop {
        let from = have.len() as u64;
        let chunk = read(from, want - 1).await?.unwrap_or_default();
        let ended = (chunk.len() as u64) < want - from;
        have.extend_from_slice(&chunk);
        progress(have.len() as u64);
        match gguf::parse(&have) {
            Ok(g) => return Ok(g),
            Err(GgufError::Truncated { needed }) if !ended => {
                want = gguf::next_read(want, needed);
            }
            Err(e) => return Err(parse_err(headroom_core::Error::from(e))),
        }
    }
}

/// Reads local files: GGUF files (all parts of a split one), or a `config.json` with its
/// `.safetensors` files (and index).
pub async fn from_files(files: Vec<File>, progress: impl Fn(Progress)) -> Result<Imported, ImportError> {
    if files.is_empty() {
        return Err(parse_err("no file"));
    }
    let name_of = |f: &File| f.name();
    let is_mmproj = |f: &File| name_of(f).to_ascii_lowercase().starts_with("mmproj");
    // A multimodal projector chosen with the model: read as its encoder.
    let mmproj = files.iter().find(|f| is_mmproj(f) && name_of(f).to_ascii_lowercase().ends_with(".gguf"));
    let ggufs: Vec<&File> = files
        .iter()
        .filter(|f| name_of(f).to_ascii_lowercase().ends_with(".gguf") && !is_mmproj(f))
        .collect();
    if ggufs.is_empty() && mmproj.is_some() {
        return Err(parse_err(
            "an mmproj file is a multimodal projector: choose it together with the model's .gguf file",
        ));
    }
    if !ggufs.is_empty() {
        let mut parts: Vec<(u32, &File)> = Vec::new();
        let mut split_count = None;
        for f in &ggufs {
            match gguf::split_part(&name_of(f)) {
                Some((_, i, n)) => {
                    split_count = Some(n);
                    parts.push((i, f));
                }
                None => parts.push((0, f)),
            }
        }
        if split_count.is_none() && parts.len() > 1 {
            return Err(parse_err("several GGUF files that are not parts of one split model: choose one"));
        }
        if let Some(n) = split_count {
            headroom_core::sort::sort_by_key(&mut parts, |p| p.0);
            let have: Vec<u32> = parts.iter().map(|p| p.0).collect();
            let missing: Vec<String> =
                (1..=n).filter(|i| !have.contains(i)).map(|i| format!("{i:05}")).collect();
            if !missing.is_empty() {
                return Err(parse_err(format!(
                    "this is a split model of {n} files: also choose part(s) {} (all parts at once)",
                    missing.join(", ")
                )));
            }
        }
        let total = parts.len();
        let mut headers = Vec::new();
        for (k, (_, f)) in parts.iter().enumerate() {
            let file_name = name_of(f);
            let g = gguf_by_chunks(
                |from, to| read_slice(f, from, to),
                |b| {
                    progress(Progress { what: file_name.clone(), files: (k, total), bytes: b });
                },
            )
            .await?;
            headers.push(g);
        }
        let first_name = name_of(parts[0].1);
        let g = gguf::merge(headers).ok_or_else(|| parse_err("no GGUF header"))?;
        let (mut model, notices) = g.to_custom(&first_name).map_err(parse_err)?;
        if let Some(mm) = mmproj {
            let mm_name = name_of(mm);
            let h = gguf_by_chunks(|from, to| read_slice(mm, from, to), |_| {}).await?;
            h.attach_mmproj_to(&mut model, &mm_name).map_err(parse_err)?;
        }
        return Ok(Imported {
            model,
            notices: render(&notices),
            read: format!("{total} GGUF header(s), {} tensors", g.tensors.len()),
            choices: Vec::new(),
            file: Some(first_name),
        });
    }
    let config = files.iter().find(|f| name_of(f) == "config.json").ok_or_else(|| {
        parse_err("choose .gguf files, or a config.json together with its .safetensors files")
    })?;
    if config.size() > 4.0 * 1024.0 * 1024.0 {
        return Err(parse_err("config.json is larger than 4 MB: not a config"));
    }
    let text = read_slice(config, 0, config.size() as u64).await?.unwrap_or_default();
    // ModelOpt's hf_quant_config.json, when chosen with the config.
    let quant = match files.iter().find(|f| name_of(f) == hub::HF_QUANT_CONFIG) {
        Some(q) if q.size() <= 4.0 * 1024.0 * 1024.0 => read_slice(q, 0, q.size() as u64).await?,
        Some(_) => {
            return Err(parse_err("hf_quant_config.json is larger than 4 MB: not a quantization config"));
        }
        None => None,
    };
    let cfg = hf::parse_config_with_quant(&text, quant.as_deref()).map_err(parse_err)?;
    let shards: Vec<&File> = files.iter().filter(|f| name_of(f).ends_with(".safetensors")).collect();
    let mut headers = Vec::new();
    for (k, f) in shards.iter().enumerate() {
        let n = name_of(f);
        progress(Progress { what: n.clone(), files: (k, shards.len()), bytes: 0 });
        let first = read_slice(f, 0, 7).await?.unwrap_or_default();
        let len = safetensors::header_len(&first).map_err(|e| parse_err(format!("{n}: {e}")))?;
        if (8 + len) as f64 > f.size() {
            return Err(parse_err(format!("{n}: the header declares {len} bytes but the file is shorter")));
        }
        let json = read_slice(f, 8, 8 + len - 1).await?.unwrap_or_default();
        headers.push((safetensors::parse_json(&json).map_err(|e| parse_err(format!("{n}: {e}")))?, len));
    }
    let name = cfg.name.clone().unwrap_or_else(|| format!("{} (config.json)", cfg.architecture.family));
    let notices = render(&cfg.notices);
    Ok(Imported {
        model: safetensors::custom_model(name, cfg, &headers),
        notices,
        read: format!("config.json and {} safetensors header(s)", headers.len()),
        choices: Vec::new(),
        file: None,
    })
}

/// Bytes `from..=to` of a local file, clamped to its end.
async fn read_slice(f: &Blob, from: u64, to: u64) -> Result<Option<Vec<u8>>, ImportError> {
    let size = f.size() as u64;
    let (from, to) = (from.min(size), (to.saturating_add(1)).min(size).max(from.min(size)));
    let err = || parse_err("the file could not be read");
    let part = f.slice_with_f64_and_f64(from as f64, to as f64).map_err(|_| err())?;
    let buf: JsValue = JsFuture::from(part.array_buffer()).await.map_err(|_| err())?;
    Ok(Some(Uint8Array::new(&buf).to_vec()))
}

fn render(notices: &[headroom_core::text::Msg]) -> Vec<String> {
    notices.iter().map(|n| n.render(Lang::En)).collect()
}
