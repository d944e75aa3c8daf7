//! A pasted runtime command (`llama-server …`, `llama-cli …`, `ollama run …`, with environment
//! assignments and line continuations) read into the scenario it describes.
//!
//! Reading is lenient: every flag Headroom does not model, every value it cannot read and every
//! word it does not place is listed with a reason, and the rest still applies. Only what cannot
//! be a command at all (over 64 KiB, control characters, an unclosed quote) is refused.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::inference::Runtime;
use crate::precision::{KvDtype, WeightFormat};
use crate::scenario::{MAX_LLAMA_BATCH, Scenario};

/// The longest command accepted.
pub const MAX_COMMAND: usize = 64 << 10;

/// A piece of the command that was not applied, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    /// The words as written.
    pub piece: String,
    /// Why it was left out.
    pub reason: String,
}

/// What a command says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The runtime it starts.
    pub runtime: Runtime,
    /// The model it names: a GGUF path (`-m`), a Hugging Face reference (`-hf`), an Ollama tag.
    pub model: Option<String>,
    /// A catalog model and weight format recognised in that name (`qwen3-8b.Q4_K_M.gguf`).
    pub catalog: Option<(String, Option<WeightFormat>)>,
    /// Tokens per sequence, when the command sets the context.
    pub context: Option<u64>,
    /// Sequences (`-np`, `OLLAMA_NUM_PARALLEL`).
    pub sequences: Option<u64>,
    /// Layers on the GPU (`-ngl`; 999 and above mean all).
    pub gpu_layers: Option<u64>,
    /// Flash attention, when set (`-fa on|off`, `OLLAMA_FLASH_ATTENTION`).
    pub flash_attention: Option<bool>,
    /// K cache type (`-ctk`, `OLLAMA_KV_CACHE_TYPE`).
    pub k_type: Option<KvDtype>,
    /// V cache type (`-ctv`, `OLLAMA_KV_CACHE_TYPE`).
    pub v_type: Option<KvDtype>,
    /// `-b`.
    pub batch: Option<u64>,
    /// `-ub`.
    pub ubatch: Option<u64>,
    /// `--swa-full`.
    pub swa_full: bool,
    /// Text only: llama.cpp's `--no-mmproj`, vLLM's `--limit-mm-per-prompt` at 0 for every
    /// modality or `--language-model-only`.
    pub text_only: bool,
    /// A modality limited above 0 was seen (`--limit-mm-per-prompt.image 4`).
    pub mm_allowed: bool,
    /// `--kv-unified` (`Some(false)` for `--no-kv-unified`).
    pub unified: Option<bool>,
    /// `--n-cpu-moe N`, `--cpu-moe`, `-ot exps=CPU`.
    pub cpu_moe: Option<u64>,
    /// The draft model (`-md`), when its file name names a catalog model.
    pub draft: Option<String>,
    /// `--draft-max`.
    pub draft_max: Option<u64>,
    /// llama.cpp's `--tensor-split`, in thousandths.
    pub tensor_split: Option<Vec<u32>>,
    /// Ollama's `num_batch` (`PARAMETER num_batch`, `/set parameter num_batch`).
    pub num_batch: Option<u64>,
    /// llama.cpp's `--split-mode none`: one GPU only.
    pub single_gpu: bool,
    /// vLLM's serving flags (`vllm serve`); other runtimes leave the defaults.
    pub vllm: crate::vllm::VllmOptions,
    /// SGLang's serving flags (`sglang.launch_server`).
    pub sglang: crate::sglang::SglangOptions,
    /// vLLM: `--tensor-parallel-size`.
    pub tensor_parallel: Option<u64>,
    /// vLLM: the weight format `--dtype` or `--quantization` names.
    pub weights: Option<WeightFormat>,
    /// vLLM: the command sets no `--max-model-len`, so vLLM serves the model's longest context.
    pub model_len_default: bool,
    /// What was not applied.
    pub ignored: Vec<Ignored>,
}

/// Splits a command line as a POSIX shell would for words: quotes, backslash escapes, line
/// continuations, `#` comments.
fn words(text: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') => {}
                Some('\r') if chars.peek() == Some(&'\n') => {
                    chars.next();
                }
                Some(n) => {
                    cur.push(n);
                    in_word = true;
                }
                None => {}
            },
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(n) => cur.push(n),
                        None => return Err(Error::invalid("command", "a single quote is not closed")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(n @ ('"' | '\\' | '$' | '`')) => cur.push(n),
                            Some('\n') => {}
                            Some(n) => {
                                cur.push('\\');
                                cur.push(n);
                            }
                            None => return Err(Error::invalid("command", "a double quote is not closed")),
                        },
                        Some(n) => cur.push(n),
                        None => return Err(Error::invalid("command", "a double quote is not closed")),
                    }
                }
            }
            '#' if !in_word => {
                // A comment runs to the end of the line.
                for n in chars.by_ref() {
                    if n == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(core::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// The program a word names, by its file name (`./build/bin/llama-server`, `llama-server.exe`).
fn program(word: &str) -> &str {
    let name = word.rsplit(['/', '\\']).next().unwrap_or(word);
    name.strip_suffix(".exe").unwrap_or(name)
}

fn is_env_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(k, _)| {
        !k.is_empty()
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !k.starts_with(|c: char| c.is_ascii_digit())
    })
}

fn count(v: &str, max: u64) -> Option<u64> {
    v.trim().parse::<u64>().ok().filter(|n| (1..=max).contains(n))
}

/// llama.cpp's cache type names (and Headroom's).
fn cache_type(v: &str) -> Option<KvDtype> {
    match v.trim().to_ascii_lowercase().as_str() {
        "f16" => Some(KvDtype::F16),
        "f32" => Some(KvDtype::F32),
        "bf16" => Some(KvDtype::Bf16),
        "q8_0" => Some(KvDtype::Q8_0),
        "q4_0" => Some(KvDtype::Q4_0),
        _ => None,
    }
}

/// Why an unsloth dynamic mix (`UD-Q4_K_XL`) is priced as its nearest standard mix.
const UNSLOTH_DYNAMIC: &str = "one of unsloth's dynamic GGUF mixes, whose per-tensor types follow a recipe unsloth does not publish: priced as its nearest standard mix; give the .gguf file for its exact tensors";

/// A catalog model and format in a GGUF file name: `qwen3-8b.Q4_K_M.gguf` (what Headroom's own
/// commands write), `Qwen3-8B-Q4_K_M.gguf` (the common Hub naming).
fn catalog_of(name: &str) -> Option<(String, Option<WeightFormat>)> {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = file.strip_suffix(".gguf").unwrap_or(file);
    let stem = crate::import::gguf::split_part(file).map_or(stem, |p| p.0);
    let lower = stem.to_ascii_lowercase();
    // The format: the last `.`, `-` or `_`-separated piece(s) that parse as a GGUF type.
    let mut format = None;
    let mut base = lower.as_str();
    for (i, c) in lower.char_indices().rev() {
        if c != '.' && c != '-' {
            continue;
        }
        let tail = &lower[i + 1..];
        // unsloth's dynamic mixes (`-UD-Q4_K_XL`): their nearest standard mix, said by the caller.
        let parsed = WeightFormat::parse(tail)
            .ok()
            .or_else(|| crate::precision::GgufMix::unsloth_dynamic_nearest(tail).map(WeightFormat::Gguf));
        if let Some(f) = parsed {
            format = Some(f);
            base = &lower[..i];
            break;
        }
    }
    let base = base
        .trim_end_matches("-ud")
        .trim_end_matches("-gguf")
        .trim_end_matches("-instruct")
        .trim_end_matches("-it");
    crate::catalog::models()
        .iter()
        .find(|m| m.id == base || m.id.replace('.', "") == base.replace('.', ""))
        .map(|m| (m.id.to_string(), format))
}

/// Whether a GGUF file name ends in one of unsloth's dynamic mixes (`…-UD-Q4_K_XL.gguf`).
fn unsloth_dynamic_file(name: &str) -> bool {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name).to_ascii_lowercase();
    let stem = file.strip_suffix(".gguf").unwrap_or(&file);
    stem.rfind("ud-")
        .is_some_and(|i| crate::precision::GgufMix::unsloth_dynamic_nearest(&stem[i..]).is_some())
}

/// A catalog model for an Ollama tag (`qwen3:8b`, `llama3.1:8b-instruct-q4_K_M`, `gemma3:12b`).
fn ollama_catalog(tag: &str) -> Option<(String, Option<WeightFormat>)> {
    let (name, variant) = tag.split_once(':').unwrap_or((tag, ""));
    let name = name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
    let mut parts = variant.split('-');
    let size = parts.next().unwrap_or("");
    let format = parts.filter_map(|p| WeightFormat::parse(p).ok()).next_back();
    // `llama3.1` is `llama-3.1` in the catalog: a hyphen before the version.
    let hyphenated: String = {
        let mut out = String::new();
        let mut prev_alpha = false;
        for ch in name.chars() {
            if ch.is_ascii_digit() && prev_alpha && !out.ends_with('-') {
                out.push('-');
            }
            prev_alpha = ch.is_ascii_alphabetic();
            out.push(ch);
        }
        out
    };
    [format!("{name}-{size}"), format!("{hyphenated}-{size}"), name.clone(), hyphenated]
        .iter()
        .find_map(|id| crate::catalog::models().iter().find(|m| m.id == id.as_str()))
        .map(|m| {
            // A tag without a quantization is the library's default file: Q4_K_M, except for
            // checkpoints published in MXFP4 (gpt-oss), which Ollama ships as they are.
            let default = (!m.config.contains("mxfp4")).then(|| WeightFormat::parse("q4_k_m").ok()).flatten();
            (m.id.to_string(), format.or(default))
        })
}

/// What a command's messages say in French: each reason and error of this module, by its English
/// text (the way a message catalog is keyed), the variable parts (a program's name, a size) kept.
const FRENCH: &[(&str, &str)] = &[
    ("no value", "sans valeur"),
    ("neither weights nor data", "ni weights ni data"),
    (
        UNSLOTH_DYNAMIC,
        "un des mélanges GGUF dynamiques d'unsloth, dont les types par tenseur suivent une recette qu'unsloth ne publie pas : compté comme le mélange standard le plus proche ; donnez le fichier .gguf pour ses tenseurs exacts",
    ),
    (
        "a quantization tag Headroom does not know: give the .gguf file for its exact tensors",
        "une étiquette de quantification que Headroom ne connaît pas : donnez le fichier .gguf pour ses tenseurs exacts",
    ),
    (
        "a Modelfile's FROM names a model, like FROM qwen3:8b",
        "le FROM d'un Modelfile nomme un modèle, comme FROM qwen3:8b",
    ),
    ("does not change memory", "ne change pas la mémoire"),
    ("does not change vLLM's memory", "ne change pas la mémoire de vLLM"),
    ("`/set parameter` needs a name and a value", "`/set parameter` attend un nom et une valeur"),
    ("a LoRA adapter's few MiB are not counted", "les quelques Mio d'un adaptateur LoRA ne sont pas comptés"),
    (
        "a cache dtype Headroom does not model (auto, fp8)",
        "un type de cache que Headroom ne modélise pas (auto, fp8)",
    ),
    (
        "a cache dtype Headroom does not model (auto, fp8_e4m3, fp8_e5m2, bf16)",
        "un type de cache que Headroom ne modélise pas (auto, fp8_e4m3, fp8_e5m2, bf16)",
    ),
    (
        "a cache type Headroom does not model (f16 f32 bf16 q8_0 q4_0)",
        "un type de cache que Headroom ne modélise pas (f16 f32 bf16 q8_0 q4_0)",
    ),
    ("a draft model that is not in the catalog", "un modèle brouillon absent du catalogue"),
    (
        "a llama.cpp option that does not change the memory Headroom models",
        "une option de llama.cpp qui ne change pas la mémoire que Headroom modélise",
    ),
    (
        "a quantization Headroom does not model; the checkpoint's format is kept",
        "une quantification que Headroom ne modélise pas ; le format du checkpoint est gardé",
    ),
    ("a single quote is not closed", "une apostrophe n'est pas fermée"),
    ("a double quote is not closed", "un guillemet n'est pas fermé"),
    (
        "a tensor override Headroom does not model (it models `exps=CPU`)",
        "une affectation de tenseurs que Headroom ne modélise pas (il modélise `exps=CPU`)",
    ),
    ("a vLLM flag Headroom does not model", "une option de vLLM que Headroom ne modélise pas"),
    ("a value Headroom cannot read", "une valeur que Headroom ne sait pas lire"),
    ("a word Headroom does not place", "un mot que Headroom ne sait pas placer"),
    ("a word that is not an option", "un mot qui n'est pas une option"),
    ("an SGLang flag Headroom does not model", "une option de SGLang que Headroom ne modélise pas"),
    (
        "an environment variable Headroom does not model",
        "une variable d'environnement que Headroom ne modélise pas",
    ),
    (
        "it contains control characters; paste the command as text",
        "elle contient des caractères de contrôle ; collez la commande comme du texte",
    ),
    (
        "no program: paste a llama-server, llama-cli, ollama or vllm serve command",
        "pas de programme : collez une commande llama-server, llama-cli, ollama ou vllm serve",
    ),
    ("not a GPU count", "pas un nombre de GPU"),
    ("not a Modelfile instruction Headroom reads", "pas une instruction de Modelfile que Headroom lit"),
    ("not a batch size", "pas une taille de lot"),
    ("not a block size (16, 32, 64 … 2048)", "pas une taille de bloc (16, 32, 64 … 2048)"),
    ("not a context length", "pas une longueur de contexte"),
    (
        "not a context length (like 32768, 32k or 32K)",
        "pas une longueur de contexte (comme 32768, 32k ou 32K)",
    ),
    ("not a context size", "pas une taille de contexte"),
    (
        "not a context size (0, the model's own, is not modelled)",
        "pas une taille de contexte (0, celle du modèle, n'est pas modélisé)",
    ),
    ("not a count", "pas un nombre"),
    ("not a count (1 to 1048576; -1 is not modelled)", "pas un nombre (1 à 1048576 ; -1 n'est pas modélisé)"),
    ("not a dtype (auto bfloat16 float16 float32)", "pas un dtype (auto bfloat16 float16 float32)"),
    (
        "not a dtype vLLM takes (auto bfloat16 float16 float32)",
        "pas un dtype que vLLM accepte (auto bfloat16 float16 float32)",
    ),
    ("not a layer count", "pas un nombre de couches"),
    ("not a number of sequences (1 to 4096)", "pas un nombre de séquences (1 à 4096)"),
    ("not a number of tokens (1 to 1024)", "pas un nombre de tokens (1 à 1024)"),
    ("not a replica count", "pas un nombre de répliques"),
    ("not a share above 0 and at most 1", "pas une part au-dessus de 0 et au plus 1"),
    ("not a size in GiB", "pas une taille en Gio"),
    ("not a size in bytes", "pas une taille en octets"),
    ("not a token count", "pas un nombre de tokens"),
    ("not an Ollama command that runs a model", "pas une commande Ollama qui lance un modèle"),
    ("not an Ollama parameter Headroom models", "pas un paramètre d'Ollama que Headroom modélise"),
    ("not an Ollama setting Headroom models", "pas un réglage d'Ollama que Headroom modélise"),
    (
        "not modelled yet: Headroom budgets one tensor-parallel group without it",
        "pas encore modélisé : Headroom compte un groupe de parallélisme tensoriel sans lui",
    ),
    (
        "only `vllm serve …` starts a server Headroom models",
        "seul `vllm serve …` lance un serveur que Headroom modélise",
    ),
    (
        "only the layer split (llama.cpp's default) is modelled; estimated as -sm layer",
        "seule la répartition par couches (le défaut de llama.cpp) est modélisée ; estimé comme -sm layer",
    ),
];

/// A message of this module (an ignored piece's reason, or a command's error as
/// [`Error`]'s text) in `lang`: French by the module's catalog, with the variable parts kept; English, and
/// any text it does not know, as it is.
pub fn localized(text: &str, lang: crate::text::Lang) -> String {
    use crate::text::Lang;
    if lang != Lang::Fr {
        return text.to_string();
    }
    let (prefix, body) = match text.strip_prefix("invalid command: ") {
        Some(b) => ("commande invalide : ", b),
        None => ("", text),
    };
    if let Some((_, fr)) = FRENCH.iter().find(|(en, _)| *en == body) {
        return format!("{prefix}{fr}");
    }
    // The messages that carry a name or a number.
    if let Some((what, accepted)) = body.split_once(" is not a program Headroom reads; accepted: ") {
        return format!("{prefix}{what} n'est pas un programme que Headroom lit ; acceptés : {accepted}");
    }
    if let Some((what, accepted)) = body.split_once(" is not a server Headroom reads; accepted: ") {
        return format!("{prefix}{what} n'est pas un serveur que Headroom lit ; acceptés : {accepted}");
    }
    if let Some((n, rest)) = body.split_once(" bytes is longer than a command (")
        && let Some(max) = rest.strip_suffix(" at most)")
    {
        return format!("{prefix}{n} octets, c'est plus long qu'une commande ({max} au plus)");
    }
    text.to_string()
}

/// One Ollama model parameter (a Modelfile's `PARAMETER`, a session's `/set parameter`):
/// `num_ctx`, `num_batch` and `num_gpu` change memory; the sampling ones do not.
fn ollama_parameter(key: &str, value: &str, c: &mut Command, ignored: &mut Vec<Ignored>) {
    let piece = || format!("{key} {value}");
    let mut bad = |reason: &str| ignored.push(Ignored { piece: piece(), reason: reason.into() });
    match key {
        "num_ctx" => match count(value, crate::scenario::MAX_CONTEXT) {
            Some(n) => c.context = Some(n),
            None => bad("not a context size"),
        },
        "num_batch" => match count(value, MAX_LLAMA_BATCH) {
            Some(n) => c.num_batch = Some(n),
            None => bad("not a batch size"),
        },
        "num_gpu" => match value.trim().parse::<u64>() {
            Ok(n) => c.gpu_layers = Some(n),
            Err(_) => bad("not a layer count"),
        },
        "num_thread" | "num_predict" | "num_keep" | "temperature" | "top_k" | "top_p" | "min_p"
        | "typical_p" | "repeat_penalty" | "repeat_last_n" | "presence_penalty" | "frequency_penalty"
        | "seed" | "stop" | "mirostat" | "mirostat_eta" | "mirostat_tau" | "tfs_z" | "use_mmap"
        | "use_mlock" => bad("does not change memory"),
        _ => bad("not an Ollama parameter Headroom models"),
    }
}

/// A pasted Modelfile (`FROM qwen3:8b`, `PARAMETER num_ctx 16384`, …): `None` when the text is
/// not one (its first instruction is not `FROM`).
fn modelfile(text: &str) -> Option<Result<Command>> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    let first = lines.next()?;
    if first.eq_ignore_ascii_case("FROM") {
        return Some(Err(Error::invalid("command", "a Modelfile's FROM names a model, like FROM qwen3:8b")));
    }
    let (kw, from) = first.split_once(char::is_whitespace)?;
    if !kw.eq_ignore_ascii_case("FROM") {
        return None;
    }
    let mut c = match parse("ollama run x") {
        Ok(c) => c,
        Err(e) => return Some(Err(e)),
    };
    let from = from.trim().trim_matches('"');
    c.model = Some(from.to_string());
    c.catalog = ollama_catalog(from).or_else(|| catalog_of(from));
    let mut ignored = Vec::new();
    let mut in_quotes = false;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).skip(1) {
        // Multi-line `"""…"""` values (TEMPLATE, SYSTEM) are skipped whole.
        let quotes = line.matches("\"\"\"").count();
        if in_quotes {
            in_quotes = quotes % 2 == 0;
            continue;
        }
        if quotes % 2 == 1 {
            in_quotes = true;
        }
        let (kw, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match kw.to_ascii_uppercase().as_str() {
            "PARAMETER" => {
                let (key, value) = rest.trim().split_once(char::is_whitespace).unwrap_or((rest.trim(), ""));
                ollama_parameter(key, value.trim(), &mut c, &mut ignored);
            }
            "TEMPLATE" | "SYSTEM" | "MESSAGE" | "LICENSE" | "REQUIRES" => {}
            "ADAPTER" => ignored.push(Ignored {
                piece: line.to_string(),
                reason: "a LoRA adapter's few MiB are not counted".into(),
            }),
            _ => ignored.push(Ignored {
                piece: line.to_string(),
                reason: "not a Modelfile instruction Headroom reads".into(),
            }),
        }
    }
    c.ignored = ignored;
    Some(Ok(c))
}

/// Reads a pasted command.
///
/// # Errors
/// [`Error::Invalid`] on `command` for text that cannot be a command: empty, over
/// [`MAX_COMMAND`] bytes, with control characters, an unclosed quote, or no program Headroom
/// knows (llama.cpp's `llama-server`/`llama-cli`, `ollama`).
pub fn parse(text: &str) -> Result<Command> {
    if text.len() > MAX_COMMAND {
        return Err(Error::invalid(
            "command",
            format!("{} bytes is longer than a command ({MAX_COMMAND} at most)", text.len()),
        ));
    }
    if text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        return Err(Error::invalid("command", "it contains control characters; paste the command as text"));
    }
    let all = words(text)?;
    let mut ignored = Vec::new();
    let mut env: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    // Leading assignments, and `env`/`sudo`-style wrappers.
    while i < all.len() {
        let w = &all[i];
        if is_env_assignment(w) {
            let (k, v) = w.split_once('=').unwrap_or((w, ""));
            env.push((k.into(), v.into()));
        } else if matches!(w.as_str(), "env" | "sudo" | "exec" | "nohup" | "time") {
            // (a wrapper: the program follows)
        } else {
            break;
        }
        i += 1;
    }
    let Some(prog) = all.get(i) else {
        return Err(Error::invalid(
            "command",
            "no program: paste a llama-server, llama-cli, ollama or vllm serve command",
        ));
    };
    if let Some(m) = modelfile(text) {
        return m;
    }
    let mut c = Command {
        runtime: Runtime::LlamaCpp,
        num_batch: None,
        model: None,
        catalog: None,
        context: None,
        sequences: None,
        gpu_layers: None,
        flash_attention: None,
        k_type: None,
        v_type: None,
        batch: None,
        ubatch: None,
        swa_full: false,
        text_only: false,
        mm_allowed: false,
        unified: None,
        cpu_moe: None,
        draft: None,
        draft_max: None,
        tensor_split: None,
        single_gpu: false,
        vllm: crate::vllm::VllmOptions::default(),
        sglang: crate::sglang::SglangOptions::default(),
        tensor_parallel: None,
        weights: None,
        model_len_default: false,
        ignored: Vec::new(),
    };
    let args = &all[i + 1..];
    match program(prog) {
        "llama-server" | "llama-cli" | "llama-run" | "server" | "main" => llama(args, &mut c, &mut ignored),
        "vllm" => {
            c.runtime = Runtime::Vllm;
            match args.first().map(String::as_str) {
                Some("serve") => vllm(&args[1..], true, &mut c, &mut ignored),
                _ => {
                    return Err(Error::invalid(
                        "command",
                        "only `vllm serve …` starts a server Headroom models",
                    ));
                }
            }
        }
        "sglang" if args.first().map(String::as_str) == Some("serve") => {
            c.runtime = Runtime::Sglang;
            sglang(&args[1..], &mut c, &mut ignored);
        }
        "python" | "python3" if args.first().map(String::as_str) == Some("-m") => {
            match args.get(1).map(String::as_str) {
                Some("sglang.launch_server") => {
                    c.runtime = Runtime::Sglang;
                    sglang(&args[2..], &mut c, &mut ignored);
                }
                Some("vllm.entrypoints.openai.api_server" | "vllm.entrypoints.api_server") => {
                    c.runtime = Runtime::Vllm;
                    vllm(&args[2..], false, &mut c, &mut ignored);
                }
                other => {
                    return Err(Error::invalid(
                        "command",
                        format!(
                            "`python -m {}` is not a server Headroom reads; accepted: vllm.entrypoints.openai.api_server, sglang.launch_server",
                            other.unwrap_or("")
                        ),
                    ));
                }
            }
        }
        "ollama" => {
            c.runtime = Runtime::Ollama;
            match args.first().map(String::as_str) {
                Some("run" | "pull" | "show") => {
                    if let Some(m) = args.get(1) {
                        c.model = Some(m.clone());
                        c.catalog = ollama_catalog(m);
                    }
                    // `/set parameter KEY VALUE` typed in the session after it.
                    let mut k = 2;
                    while k < args.len() {
                        if args[k] == "/set" && args.get(k + 1).map(String::as_str) == Some("parameter") {
                            match (args.get(k + 2), args.get(k + 3)) {
                                (Some(key), Some(value)) => {
                                    ollama_parameter(key, value, &mut c, &mut ignored)
                                }
                                _ => ignored.push(Ignored {
                                    piece: args[k..].join(" "),
                                    reason: "`/set parameter` needs a name and a value".into(),
                                }),
                            }
                            k += 4;
                            continue;
                        }
                        ignored.push(Ignored {
                            piece: args[k].clone(),
                            reason: "not an Ollama setting Headroom models".into(),
                        });
                        k += 1;
                    }
                }
                Some("serve") | None => {
                    for w in args.iter().skip(1) {
                        ignored.push(Ignored {
                            piece: w.clone(),
                            reason: "not an Ollama setting Headroom models".into(),
                        });
                    }
                }
                Some(other) => ignored.push(Ignored {
                    piece: other.into(),
                    reason: "not an Ollama command that runs a model".into(),
                }),
            }
        }
        other => {
            return Err(Error::invalid(
                "command",
                format!(
                    "`{other}` is not a program Headroom reads; accepted: llama-server, llama-cli, ollama, vllm serve, python -m vllm.entrypoints.openai.api_server, python -m sglang.launch_server"
                ),
            ));
        }
    }
    // The environment: Ollama's settings, and what llama.cpp reads (`LLAMA_ARG_*`).
    for (k, v) in env {
        let flag = |v: &str| match v {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        };
        // `None`: a setting Headroom models whose value it cannot read.
        let applied: Option<()> = match k.as_str() {
            "OLLAMA_CONTEXT_LENGTH" | "LLAMA_ARG_CTX_SIZE" => {
                count(&v, crate::scenario::MAX_CONTEXT.saturating_mul(4096)).map(|n| c.context = Some(n))
            }
            "OLLAMA_NUM_PARALLEL" | "LLAMA_ARG_N_PARALLEL" => count(&v, 4096).map(|n| c.sequences = Some(n)),
            "OLLAMA_FLASH_ATTENTION" => flag(&v).map(|f| c.flash_attention = Some(f)),
            "OLLAMA_KV_CACHE_TYPE" => cache_type(&v).map(|t| {
                c.k_type = Some(t);
                c.v_type = Some(t);
            }),
            "LLAMA_ARG_N_GPU_LAYERS" => v.trim().parse::<u64>().ok().map(|n| c.gpu_layers = Some(n)),
            "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS" => flag(&v).map(|f| c.vllm.graph_estimate = Some(f)),
            _ => {
                ignored.push(Ignored {
                    piece: format!("{k}={v}"),
                    reason: "an environment variable Headroom does not model".into(),
                });
                Some(())
            }
        };
        if applied.is_none() {
            ignored
                .push(Ignored { piece: format!("{k}={v}"), reason: "a value Headroom cannot read".into() });
        }
    }
    // llama-server's -c is all sequences' cells together.
    if c.runtime == Runtime::LlamaCpp
        && let (Some(total), Some(n)) = (c.context, c.sequences)
    {
        c.context = Some((total / n).max(1));
    }
    c.ignored = ignored;
    Ok(c)
}

/// A count as vLLM's `human_readable_int` reads it (`vllm/utils/argparse_utils.py`): digits, or
/// a number with a suffix — `k`, `m`, `g`, `t` decimal (×1000…, decimals allowed: `25.6k`),
/// `K`, `M`, `G`, `T` binary (×1024…, whole numbers only); `None` for anything else or zero.
fn vllm_tokens(v: &str) -> Option<u64> {
    let t = v.trim();
    let last = t.chars().last()?;
    let (num, mul, decimal) = match last {
        'k' => (&t[..t.len() - 1], 1_000u64, true),
        'm' => (&t[..t.len() - 1], 1_000_000, true),
        'g' => (&t[..t.len() - 1], 1_000_000_000, true),
        't' => (&t[..t.len() - 1], 1_000_000_000_000, true),
        'K' => (&t[..t.len() - 1], 1 << 10, false),
        'M' => (&t[..t.len() - 1], 1 << 20, false),
        'G' => (&t[..t.len() - 1], 1 << 30, false),
        'T' => (&t[..t.len() - 1], 1 << 40, false),
        _ => (t, 1, false),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let n = match num.split_once('.') {
        // A decimal before a decimal suffix: its value times the multiplier, truncated.
        Some((whole, frac)) if decimal && digits(whole) && digits(frac) => {
            let scale = 10u128.checked_pow(u32::try_from(frac.len()).ok()?)?;
            let value =
                whole.parse::<u128>().ok()?.checked_mul(scale)?.checked_add(frac.parse::<u128>().ok()?)?;
            u64::try_from(value.checked_mul(u128::from(mul))? / scale).ok()?
        }
        Some(_) => return None,
        None if digits(num) => num.parse::<u64>().ok()?.checked_mul(mul)?,
        None => return None,
    };
    (n > 0).then_some(n)
}

/// A word as a flag and its inline value (`--flag=value`); a word that is no flag is itself.
fn split_flag(raw: &str) -> (&str, Option<String>) {
    match raw.split_once('=') {
        Some((f, v)) if f.starts_with('-') => (f, Some(v.to_string())),
        _ => (raw, None),
    }
}

/// A flag's value: the inline one, or the next word (then consumed).
fn take_value(args: &[String], i: &mut usize, inline: &Option<String>) -> Option<String> {
    if let Some(v) = inline {
        return Some(v.clone());
    }
    let v = args.get(*i + 1).cloned();
    if v.is_some() {
        *i += 1;
    }
    v
}

/// An unknown flag as written, with its value when one follows (the next word, when it is no
/// flag, is taken with it).
fn unknown_piece(flag: &str, inline: &Option<String>, args: &[String], i: &mut usize) -> String {
    match (inline, args.get(*i + 1)) {
        (Some(v), _) => format!("{flag}={v}"),
        (None, Some(n)) if !n.starts_with('-') => {
            *i += 1;
            let mut piece = format!("{flag} {n}");
            // A list flag's further numbers (`--cudagraph-capture-sizes 1 2 4 8`): no model or
            // other word is a bare number.
            while let Some(m) = args
                .get(*i + 1)
                .filter(|m| !m.is_empty() && m.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
            {
                piece.push(' ');
                piece.push_str(m);
                *i += 1;
            }
            piece
        }
        _ => flag.to_string(),
    }
}

/// The catalog model a Hugging Face repository names (`Qwen/Qwen3-8B`), or its last piece.
fn hub_catalog(name: &str) -> Option<(String, Option<WeightFormat>)> {
    let name = name.trim_end_matches('/');
    crate::catalog::model(name)
        .ok()
        .or_else(|| crate::catalog::model(name.rsplit('/').next().unwrap_or(name)).ok())
        .map(|m| (m.id.to_string(), None))
}

/// PyTorch servers' `--dtype`: the weight format, `None` for `auto`.
fn torch_dtype(v: &str) -> core::result::Result<Option<WeightFormat>, ()> {
    match v.trim() {
        "auto" => Ok(None),
        "bfloat16" => Ok(Some(WeightFormat::Bf16)),
        "float16" | "half" => Ok(Some(WeightFormat::F16)),
        "float32" | "float" => Ok(Some(WeightFormat::F32)),
        _ => Err(()),
    }
}

/// vLLM's and SGLang's `--quantization`: the weight format, `None` for the checkpoint's own
/// (compressed-tensors, ModelOpt: read from its config).
fn torch_quantization(v: &str) -> core::result::Result<Option<WeightFormat>, ()> {
    let id = match v.trim() {
        "fp8" | "ptpc_fp8" | "fbgemm_fp8" => "fp8",
        "awq" | "awq_marlin" => "awq-4bit",
        "gptq" | "gptq_marlin" => "gptq-4bit",
        "bitsandbytes" => "nf4",
        "mxfp4" => "mxfp4",
        "modelopt_fp4" | "nvfp4" => "nvfp4",
        "compressed-tensors" | "modelopt" => return Ok(None),
        _ => return Err(()),
    };
    Ok(WeightFormat::parse(id).ok())
}

/// `sglang.launch_server` flags.
fn sglang(args: &[String], c: &mut Command, ignored: &mut Vec<Ignored>) {
    let mut i = 0;
    let mut len_set = false;
    while i < args.len() {
        let raw = args[i].as_str();
        let (flag, inline) = split_flag(raw);
        let value = |i: &mut usize| take_value(args, i, &inline);
        let mut bad = |piece: String, why: &str| ignored.push(Ignored { piece, reason: why.into() });
        let norm = flag.replace('_', "-");
        let count_of =
            |v: &str| v.trim().parse::<u64>().ok().filter(|n| (1..=crate::sglang::MAX_SGLANG).contains(n));
        match norm.as_str() {
            "--model-path" | "--model" => match value(&mut i) {
                Some(v) => {
                    c.catalog = hub_catalog(&v);
                    c.model = Some(v);
                }
                None => bad(flag.into(), "no value"),
            },
            "--context-length" => match value(&mut i) {
                Some(v) => match vllm_tokens(&v) {
                    Some(n) if n <= crate::scenario::MAX_CONTEXT => {
                        c.context = Some(n);
                        len_set = true;
                    }
                    _ => bad(format!("{flag} {v}"), "not a context length"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--tp" | "--tp-size" | "--tensor-parallel-size" => match value(&mut i) {
                Some(v) => match count(&v, crate::scenario::MAX_GPUS) {
                    Some(n) => c.tensor_parallel = Some(n),
                    None => bad(format!("{flag} {v}"), "not a GPU count"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--mem-fraction-static" => match value(&mut i) {
                Some(v) => match v.trim().parse::<f64>().ok().and_then(crate::vllm::utilization_of) {
                    Some(f) => c.sglang.mem_fraction_static = Some(f),
                    None => bad(format!("{flag} {v}"), "not a share above 0 and at most 1"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--chunked-prefill-size" | "--cuda-graph-max-bs" | "--page-size" => match value(&mut i) {
                Some(v) => match count_of(&v) {
                    Some(n) if norm == "--chunked-prefill-size" => c.sglang.chunked_prefill_size = Some(n),
                    Some(n) if norm == "--cuda-graph-max-bs" => c.sglang.cuda_graph_max_bs = Some(n),
                    Some(n) => c.sglang.page_size = Some(n),
                    None => bad(format!("{flag} {v}"), "not a count (1 to 1048576; -1 is not modelled)"),
                },
                None => bad(flag.into(), "no value"),
            },
            // As vLLM's: a config class from the repository's code, nothing about memory.
            "--trust-remote-code" => {}
            "--disable-cuda-graph" => c.sglang.disable_cuda_graph = true,
            // SGLang serves the language model without its encoders (and sizes its memory as for a
            // text model).
            "--language-model-only" | "--language-only" => c.text_only = true,
            "--disable-hybrid-swa-memory" => c.sglang.disable_hybrid_swa_memory = true,
            "--swa-full-tokens-ratio" | "--mamba-full-memory-ratio" => match value(&mut i) {
                Some(v) => match v.trim().parse::<f64>().ok().and_then(crate::vllm::utilization_of) {
                    Some(f) if norm == "--swa-full-tokens-ratio" => c.sglang.swa_full_tokens_ratio = Some(f),
                    Some(f) => c.sglang.mamba_full_memory_ratio = Some(f),
                    None => bad(format!("{flag} {v}"), "not a ratio above 0 and at most 1"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--max-mamba-cache-size" => match value(&mut i) {
                Some(v) => match count_of(&v) {
                    Some(n) => c.sglang.max_mamba_cache_size = Some(n),
                    None => bad(format!("{flag} {v}"), "not a count of state slots (1 to 1048576)"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--kv-cache-dtype" => match value(&mut i) {
                Some(v) => match v.trim() {
                    "auto" => {}
                    "fp8_e4m3" | "fp8_e5m2" | "fp8" => {
                        c.k_type = Some(KvDtype::Fp8);
                        c.v_type = Some(KvDtype::Fp8);
                    }
                    "bf16" | "bfloat16" => {
                        c.k_type = Some(KvDtype::Bf16);
                        c.v_type = Some(KvDtype::Bf16);
                    }
                    _ => bad(
                        format!("{flag} {v}"),
                        "a cache dtype Headroom does not model (auto, fp8_e4m3, fp8_e5m2, bf16)",
                    ),
                },
                None => bad(flag.into(), "no value"),
            },
            "--dtype" => match value(&mut i) {
                Some(v) => match torch_dtype(&v) {
                    Ok(f) => c.weights = c.weights.or(f),
                    Err(()) => bad(format!("{flag} {v}"), "not a dtype (auto bfloat16 float16 float32)"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--quantization" => match value(&mut i) {
                Some(v) => match torch_quantization(&v) {
                    Ok(Some(f)) => c.weights = Some(f),
                    Ok(None) => {}
                    Err(()) => bad(
                        format!("{flag} {v}"),
                        "a quantization Headroom does not model; the checkpoint's format is kept",
                    ),
                },
                None => bad(flag.into(), "no value"),
            },
            other if other.starts_with('-') => {
                let piece = unknown_piece(flag, &inline, args, &mut i);
                bad(piece, "an SGLang flag Headroom does not model")
            }
            other => bad(other.into(), "a word Headroom does not place"),
        }
        i += 1;
    }
    c.model_len_default = !len_set;
}

/// `vllm serve` flags (`positional`: the model may come first, as `vllm serve MODEL`).
fn vllm(args: &[String], positional: bool, c: &mut Command, ignored: &mut Vec<Ignored>) {
    let mut i = 0;
    let mut len_set = false;
    let set_model = |c: &mut Command, v: &str| {
        c.model = Some(v.into());
        c.catalog = hub_catalog(v);
    };
    while i < args.len() {
        let raw = args[i].as_str();
        let (flag, inline) = split_flag(raw);
        let value = |i: &mut usize| take_value(args, i, &inline);
        let mut bad = |piece: String, why: &str| ignored.push(Ignored { piece, reason: why.into() });
        // vLLM accepts `--max_model_len` as well as `--max-model-len`.
        let norm = flag.replace('_', "-");
        match norm.as_str() {
            "--model" => match value(&mut i) {
                Some(v) => set_model(c, &v),
                None => bad(flag.into(), "no value"),
            },
            "--max-model-len" => match value(&mut i) {
                // vLLM's `human_readable_int_or_auto`: the model's length, fitted to memory.
                Some(v) if v.trim() == "-1" || v.trim().eq_ignore_ascii_case("auto") => {
                    c.vllm.max_model_len_auto = true;
                }
                Some(v) => match vllm_tokens(&v) {
                    Some(n) if n <= crate::scenario::MAX_CONTEXT => {
                        c.context = Some(n);
                        len_set = true;
                    }
                    _ => bad(format!("{flag} {v}"), "not a context length (like 32768, 32k or 32K)"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--tensor-parallel-size" | "-tp" => match value(&mut i) {
                Some(v) => match count(&v, crate::scenario::MAX_GPUS) {
                    Some(n) => c.tensor_parallel = Some(n),
                    None => bad(format!("{flag} {v}"), "not a GPU count"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--gpu-memory-utilization" => match value(&mut i) {
                Some(v) => match v.trim().parse::<f64>().ok().and_then(crate::vllm::utilization_of) {
                    Some(u) => c.vllm.utilization = Some(u),
                    None => bad(format!("{flag} {v}"), "not a share above 0 and at most 1"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--max-num-seqs" | "--max-num-batched-tokens" => match value(&mut i) {
                Some(v) => match vllm_tokens(&v).filter(|n| *n <= crate::vllm::MAX_VLLM_TOKENS) {
                    Some(n) if norm == "--max-num-seqs" => c.vllm.max_num_seqs = Some(n),
                    Some(n) => c.vllm.max_num_batched_tokens = Some(n),
                    None => bad(format!("{flag} {v}"), "not a count"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--block-size" => match value(&mut i) {
                Some(v) => match v.trim().parse::<u64>() {
                    Ok(n)
                        if crate::vllm::VllmOptions { block_size: Some(n), ..Default::default() }
                            .validate()
                            .is_ok() =>
                    {
                        c.vllm.block_size = Some(n)
                    }
                    _ => bad(format!("{flag} {v}"), "not a block size (16, 32, 64 … 2048)"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--kv-cache-memory" | "--kv-cache-memory-bytes" => match value(&mut i) {
                Some(v) => match vllm_tokens(&v) {
                    Some(n) => c.vllm.kv_cache_memory = Some(n),
                    None => bad(format!("{flag} {v}"), "not a size in bytes"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--enforce-eager" => c.vllm.enforce_eager = true,
            "--language-model-only" => c.text_only = true,
            f if f.starts_with("--limit-mm-per-prompt.") => match value(&mut i) {
                // `--limit-mm-per-prompt.image 0 --limit-mm-per-prompt.video 0`: text only while
                // every modality named is at 0.
                Some(v) => match v.trim().parse::<u64>() {
                    Ok(0) => c.text_only = !c.mm_allowed,
                    Ok(_) => {
                        c.mm_allowed = true;
                        c.text_only = false;
                    }
                    Err(_) => bad(format!("{flag} {v}"), "not a count of items per prompt"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--limit-mm-per-prompt" => match value(&mut i) {
                // `{"image": 0, "video": 0}`: every modality at 0 is vLLM's text-only mode.
                Some(v) => match crate::json::parse(v.as_bytes(), "--limit-mm-per-prompt") {
                    Ok(crate::json::Value::Object(m)) if !m.is_empty() => {
                        c.mm_allowed = m.iter().any(|(_, x)| x.as_u64() != Some(0));
                        c.text_only = !c.mm_allowed;
                    }
                    _ => bad(format!("{flag} {v}"), "not a JSON object of limits per modality"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--cpu-offload-gb" => match value(&mut i) {
                Some(v) => match v.trim().parse::<f64>() {
                    Ok(g) if (0.0..=65536.0).contains(&g) => {
                        c.vllm.cpu_offload = (g * (1u64 << 30) as f64) as u64
                    }
                    _ => bad(format!("{flag} {v}"), "not a size in GiB"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--kv-cache-dtype" => match value(&mut i) {
                Some(v) => match v.trim() {
                    "auto" => {}
                    "fp8" | "fp8_e4m3" | "fp8_e5m2" | "fp8_inc" => {
                        c.k_type = Some(KvDtype::Fp8);
                        c.v_type = Some(KvDtype::Fp8);
                    }
                    "bfloat16" | "float16" | "half" => {}
                    _ => bad(format!("{flag} {v}"), "a cache dtype Headroom does not model (auto, fp8)"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--dtype" => match value(&mut i) {
                Some(v) => match torch_dtype(&v) {
                    Ok(f) => c.weights = c.weights.or(f),
                    Err(()) => {
                        bad(format!("{flag} {v}"), "not a dtype vLLM takes (auto bfloat16 float16 float32)")
                    }
                },
                None => bad(flag.into(), "no value"),
            },
            "--quantization" | "-q" => match value(&mut i) {
                Some(v) => match torch_quantization(&v) {
                    Ok(Some(f)) => c.weights = Some(f),
                    Ok(None) => {}
                    Err(()) => bad(
                        format!("{flag} {v}"),
                        "a quantization Headroom does not model; the checkpoint's format is kept",
                    ),
                },
                None => bad(flag.into(), "no value"),
            },
            "--host"
            | "--port"
            | "--served-model-name"
            | "--api-key"
            | "--uvicorn-log-level"
            | "--tokenizer"
            | "--revision"
            | "--download-dir"
            | "--seed"
            | "--chat-template"
            | "--tool-call-parser"
            | "--reasoning-parser"
            | "--generation-config"
            | "--max-log-len" => match value(&mut i) {
                Some(v) => bad(format!("{flag} {v}"), "does not change vLLM's memory"),
                None => bad(flag.into(), "no value"),
            },
            "--mamba-cache-dtype" | "--mamba-ssm-cache-dtype" => match value(&mut i) {
                Some(v) => match crate::vllm::mamba_dtype_bytes(&v) {
                    Ok(b) if norm == "--mamba-cache-dtype" => c.vllm.mamba_cache_bytes = b,
                    Ok(b) => c.vllm.mamba_ssm_cache_bytes = b,
                    Err(e) => bad(format!("{flag} {v}"), &format!("{e}")),
                },
                None => bad(flag.into(), "no value"),
            },
            "--enable-prefix-caching" => c.vllm.prefix_caching = Some(true),
            "--no-enable-prefix-caching" => c.vllm.prefix_caching = Some(false),
            "--enable-extensible-kv-cache" => c.vllm.extensible_kv_cache = Some(true),
            "--no-enable-extensible-kv-cache" => c.vllm.extensible_kv_cache = Some(false),
            "--async-scheduling" => c.vllm.async_scheduling = Some(true),
            "--no-async-scheduling" => c.vllm.async_scheduling = Some(false),
            // The attention kernels (Headroom's own commands name Triton's where a model needs
            // it): FlashAttention's and Triton's keep no workspace of their own; another backend's
            // (FlashInfer's) is not budgeted, and said so.
            "--attention-backend" => match value(&mut i) {
                Some(v) if matches!(v.trim(), "TRITON_ATTN" | "FLASH_ATTN") => {}
                Some(v) => bad(format!("{flag} {v}"), "a backend whose workspace Headroom does not budget"),
                None => bad(flag.into(), "no value"),
            },
            // Lets vLLM build a config class it does not know from the repository's code:
            // nothing to do with memory, and what Headroom's own commands add where needed.
            "--trust-remote-code" => {}
            "--enable-chunked-prefill"
            | "--disable-log-requests"
            | "--disable-log-stats"
            | "--enable-auto-tool-choice"
            | "--enable-log-requests" => bad(flag.into(), "does not change vLLM's memory"),
            "--speculative-config" => match value(&mut i) {
                Some(v) => match crate::vllm::Speculative::parse(&v) {
                    Ok(sp) => c.vllm.speculative = Some(sp),
                    Err(e) => bad(format!("{flag} {v}"), &format!("{e}")),
                },
                None => bad(flag.into(), "no value"),
            },
            "--data-parallel-size" | "-dp" => match value(&mut i) {
                Some(v) => match count(&v, crate::scenario::MAX_GPUS) {
                    Some(n) => c.vllm.data_parallel = Some(n),
                    None => bad(format!("{flag} {v}"), "not a replica count"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--enable-expert-parallel" | "-ep" => c.vllm.expert_parallel = true,
            "--mm-encoder-tp-mode" => match value(&mut i) {
                Some(v) => match v.trim() {
                    "data" => c.vllm.mm_encoder_data = true,
                    "weights" => c.vllm.mm_encoder_data = false,
                    _ => bad(format!("{flag} {v}"), "neither weights nor data"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--max-cudagraph-capture-size" => match value(&mut i) {
                Some(v) => match v
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (1..=crate::vllm::MAX_VLLM_TOKENS).contains(n))
                {
                    Some(n) => c.vllm.max_cudagraph_capture_size = Some(n),
                    None => bad(format!("{flag} {v}"), "not a batch size"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--decode-context-parallel-size" | "-dcp" => match value(&mut i) {
                Some(v) => match count(&v, crate::scenario::MAX_GPUS) {
                    Some(n) => c.vllm.decode_context_parallel = Some(n),
                    None => bad(format!("{flag} {v}"), "not a rank count"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--pipeline-parallel-size" | "-pp" => match value(&mut i) {
                Some(v) => match count(&v, crate::scenario::MAX_GPUS) {
                    Some(n) => c.vllm.pipeline_parallel = Some(n),
                    None => bad(format!("{flag} {v}"), "not a stage count"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--swap-space" | "--cpu-offload-params" => {
                let piece = match value(&mut i) {
                    Some(v) => format!("{flag} {v}"),
                    None => flag.to_string(),
                };
                bad(piece, "not modelled yet: Headroom budgets one tensor-parallel group without it")
            }
            other if !other.starts_with('-') && positional && c.model.is_none() => set_model(c, other),
            other if other.starts_with('-') => {
                let piece = unknown_piece(flag, &inline, args, &mut i);
                bad(piece, "a vLLM flag Headroom does not model")
            }
            other => bad(other.into(), "a word Headroom does not place"),
        }
        i += 1;
    }
    c.model_len_default = !len_set;
}

fn llama(args: &[String], c: &mut Command, ignored: &mut Vec<Ignored>) {
    let mut i = 0;
    while i < args.len() {
        let raw = args[i].as_str();
        // `--flag=value` as well as `--flag value`.
        let (flag, inline) = split_flag(raw);
        let value = |i: &mut usize| take_value(args, i, &inline);
        let mut bad = |piece: String, why: &str| ignored.push(Ignored { piece, reason: why.into() });
        match flag {
            "-m" | "--model" => {
                if let Some(v) = value(&mut i) {
                    c.catalog = catalog_of(&v);
                    if c.catalog.is_some() && unsloth_dynamic_file(&v) {
                        bad(format!("{flag} {v}"), UNSLOTH_DYNAMIC);
                    }
                    c.model = Some(v);
                }
            }
            "-hf" | "-hfr" | "--hf-repo" => {
                if let Some(v) = value(&mut i) {
                    // `user/repo[:quant]`: without a tag llama.cpp takes the repository's Q4_K_M.
                    let (repo, quant) = v.split_once(':').unwrap_or((&v, "Q4_K_M"));
                    let name = repo.rsplit('/').next().unwrap_or(repo);
                    let format = match WeightFormat::parse(quant) {
                        Ok(f) => Some(f),
                        Err(_) => {
                            let near = crate::precision::GgufMix::unsloth_dynamic_nearest(quant);
                            bad(
                                format!("{flag} {v}"),
                                if near.is_some() {
                                    UNSLOTH_DYNAMIC
                                } else {
                                    "a quantization tag Headroom does not know: give the .gguf file for its exact tensors"
                                },
                            );
                            near.map(WeightFormat::Gguf)
                        }
                    };
                    c.catalog = catalog_of(name).map(|(id, f)| (id, f.or(format)));
                    c.model = Some(v);
                }
            }
            "-c" | "--ctx-size" => match value(&mut i) {
                Some(v) => match v.trim().parse::<u64>() {
                    Ok(n) if n > 0 => c.context = Some(n),
                    _ => {
                        bad(format!("{flag} {v}"), "not a context size (0, the model's own, is not modelled)")
                    }
                },
                None => bad(flag.into(), "no value"),
            },
            "-np" | "--parallel" => match value(&mut i) {
                Some(v) => match count(&v, 4096) {
                    Some(n) => c.sequences = Some(n),
                    None => bad(format!("{flag} {v}"), "not a number of sequences (1 to 4096)"),
                },
                None => bad(flag.into(), "no value"),
            },
            "-ngl" | "--gpu-layers" | "--n-gpu-layers" => match value(&mut i) {
                Some(v) => match v.trim() {
                    "all" | "auto" => c.gpu_layers = None,
                    n => match n.parse::<u64>() {
                        Ok(n) => c.gpu_layers = Some(n),
                        Err(_) => bad(format!("{flag} {v}"), "not a layer count"),
                    },
                },
                None => bad(flag.into(), "no value"),
            },
            "-fa" | "--flash-attn" => {
                // `-fa on|off|auto`; a bare `-fa` (older builds) turns it on.
                match args.get(i + 1).map(String::as_str).or(inline.as_deref()) {
                    Some(v @ ("on" | "off" | "auto" | "1" | "0" | "true" | "false")) => {
                        c.flash_attention = Some(!matches!(v, "off" | "0" | "false"));
                        if inline.is_none() {
                            i += 1;
                        }
                    }
                    _ => c.flash_attention = Some(true),
                }
            }
            "-ctk" | "--cache-type-k" | "-ctv" | "--cache-type-v" => match value(&mut i) {
                Some(v) => match cache_type(&v) {
                    Some(t) if flag.ends_with('k') => c.k_type = Some(t),
                    Some(t) => c.v_type = Some(t),
                    None => bad(
                        format!("{flag} {v}"),
                        "a cache type Headroom does not model (f16 f32 bf16 q8_0 q4_0)",
                    ),
                },
                None => bad(flag.into(), "no value"),
            },
            "-b" | "--batch-size" | "-ub" | "--ubatch-size" => match value(&mut i) {
                Some(v) => match count(&v, MAX_LLAMA_BATCH) {
                    Some(n) if flag.contains('u') => c.ubatch = Some(n),
                    Some(n) => c.batch = Some(n),
                    None => bad(format!("{flag} {v}"), "not a token count"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--swa-full" => c.swa_full = true,
            // The multimodal projector: loaded with `--mmproj FILE` (the default reading), skipped
            // with `--no-mmproj`.
            "--mmproj" | "-mm" | "--mmproj-url" | "-mmu" => {
                if value(&mut i).is_none() {
                    bad(flag.into(), "no value");
                }
            }
            "--no-mmproj" => c.text_only = true,
            "-md" | "--model-draft" => match value(&mut i) {
                Some(v) => match catalog_of(&v) {
                    Some((id, _)) => c.draft = Some(id),
                    None => bad(format!("{flag} {v}"), "a draft model that is not in the catalog"),
                },
                None => bad(flag.into(), "no value"),
            },
            "--draft-max" | "--draft" | "--draft-n" => match value(&mut i) {
                Some(v) => match count(&v, 1024) {
                    Some(n) => c.draft_max = Some(n),
                    None => bad(format!("{flag} {v}"), "not a number of tokens (1 to 1024)"),
                },
                None => bad(flag.into(), "no value"),
            },
            // (The draft runs where Headroom puts it, on the GPU.)
            "-ngld" | "--gpu-layers-draft" | "--n-gpu-layers-draft" => {
                let _ = value(&mut i);
            }
            "-ts" | "--tensor-split" => match value(&mut i) {
                Some(v) => match crate::scenario::parse_tensor_split(&v) {
                    Ok(t) => c.tensor_split = Some(t),
                    Err(e) => bad(format!("{flag} {v}"), &format!("{e}")),
                },
                None => bad(flag.into(), "no value"),
            },
            "-sm" | "--split-mode" => match value(&mut i) {
                Some(v) => match v.trim() {
                    "layer" => {}
                    "none" => c.single_gpu = true,
                    _ => bad(
                        format!("{flag} {v}"),
                        "only the layer split (llama.cpp's default) is modelled; estimated as -sm layer",
                    ),
                },
                None => bad(flag.into(), "no value"),
            },
            "-cmoe" | "--cpu-moe" => c.cpu_moe = Some(crate::scenario::ALL_LAYERS),
            "-ncmoe" | "--n-cpu-moe" => match value(&mut i) {
                Some(v) => match v.trim().parse::<u64>() {
                    Ok(n) if n <= crate::model::MAX_LAYERS => c.cpu_moe = Some(n),
                    _ => bad(format!("{flag} {v}"), "not a layer count"),
                },
                None => bad(flag.into(), "no value"),
            },
            "-ot" | "--override-tensor" => match value(&mut i) {
                // The common pattern: every expert tensor to the CPU (`exps=CPU`, `.ffn_.*_exps.=CPU`).
                Some(v)
                    if v.contains("exps")
                        && v.to_ascii_uppercase().ends_with("=CPU")
                        && !v.contains("blk") =>
                {
                    c.cpu_moe = Some(crate::scenario::ALL_LAYERS);
                }
                Some(v) => bad(
                    format!("{flag} {v}"),
                    "a tensor override Headroom does not model (it models `exps=CPU`)",
                ),
                None => bad(flag.into(), "no value"),
            },
            "-kvu" | "--kv-unified" => c.unified = Some(true),
            "--no-kv-unified" => c.unified = Some(false),
            f if f.starts_with('-') => {
                // An option Headroom does not model: its value, if the next word is not a flag,
                // goes with it.
                let takes = inline.is_some() || args.get(i + 1).is_some_and(|n| !n.starts_with('-'));
                let piece = match (&inline, takes) {
                    (Some(v), _) => format!("{f}={v}"),
                    (None, true) => {
                        i += 1;
                        format!("{f} {}", args[i])
                    }
                    (None, false) => f.into(),
                };
                bad(piece, "a llama.cpp option that does not change the memory Headroom models");
            }
            w => bad(w.into(), "a word that is not an option"),
        }
        i += 1;
    }
}

impl Command {
    /// [`Command::apply`], then, for a vLLM command without `--max-model-len`, the model's own
    /// longest context (what vLLM serves by default), and for an Ollama command without
    /// `OLLAMA_CONTEXT_LENGTH`, Ollama's default for the scenario's device
    /// ([`crate::ollama::default_context`]); returns that length when it was used.
    pub fn apply_with_model(&self, s: &mut Scenario) -> Option<u64> {
        self.apply(s);
        if self.runtime == Runtime::Ollama && self.context.is_none() {
            // Ollama's own default by the VRAM it sees (no device: under 23 GiB, 4,096).
            let trained = crate::estimate::resolve(&s.model)
                .ok()
                .and_then(|r| r.architecture.as_deref().map(|a| a.max_context))
                .unwrap_or(0);
            let vram = s
                .device
                .as_ref()
                .and_then(|d| crate::fit::device_of(d).ok())
                .filter(|d| !matches!(d.kind, crate::catalog::device::DeviceKind::Cpu))
                .map_or(crate::units::Bytes::ZERO, |d| crate::ollama::total_vram(&d, s.gpus));
            s.context = crate::ollama::default_context(vram, trained).min(crate::scenario::MAX_CONTEXT);
            return Some(s.context);
        }
        if !self.runtime.tensor_parallel() || !self.model_len_default {
            return None;
        }
        let r = crate::estimate::resolve(&s.model).ok()?;
        let n = r.architecture.as_deref().map(|a| a.max_context).filter(|n| *n > 0)?;
        s.context = n.min(crate::scenario::MAX_CONTEXT);
        Some(s.context)
    }

    /// Applies what the command says onto `s` (the runtime, context, sequences, layers, flash
    /// attention, cache types and llama.cpp's batch settings); the model is the caller's.
    pub fn apply(&self, s: &mut Scenario) {
        s.runtime = Some(self.runtime);
        if self.runtime == Runtime::Sglang {
            if let Some(n) = self.context {
                s.context = n;
            }
            s.kv = self.k_type.unwrap_or(KvDtype::F16);
            s.gpus = self.tensor_parallel.unwrap_or(1);
            let (g, o) = (&mut s.sglang, &self.sglang);
            g.mem_fraction_static = o.mem_fraction_static.or(g.mem_fraction_static);
            g.chunked_prefill_size = o.chunked_prefill_size.or(g.chunked_prefill_size);
            g.cuda_graph_max_bs = o.cuda_graph_max_bs.or(g.cuda_graph_max_bs);
            g.page_size = o.page_size.or(g.page_size);
            g.disable_cuda_graph |= o.disable_cuda_graph;
            g.disable_hybrid_swa_memory |= o.disable_hybrid_swa_memory;
            g.swa_full_tokens_ratio = o.swa_full_tokens_ratio.or(g.swa_full_tokens_ratio);
            g.mamba_full_memory_ratio = o.mamba_full_memory_ratio.or(g.mamba_full_memory_ratio);
            g.max_mamba_cache_size = o.max_mamba_cache_size.or(g.max_mamba_cache_size);
            if let Some(f) = self.weights {
                s.weights = Some(f);
            }
            return;
        }
        if self.runtime == Runtime::Vllm {
            if let Some(n) = self.context {
                s.context = n;
            }
            s.kv = self.k_type.unwrap_or(KvDtype::F16);
            s.gpus = self.tensor_parallel.unwrap_or(1);
            // What the command sets, over the scenario's (its release, flags given beside it).
            let (v, o) = (&mut s.vllm, &self.vllm);
            v.utilization = o.utilization.or(v.utilization);
            v.max_num_seqs = o.max_num_seqs.or(v.max_num_seqs);
            v.max_num_batched_tokens = o.max_num_batched_tokens.or(v.max_num_batched_tokens);
            v.block_size = o.block_size.or(v.block_size);
            v.kv_cache_memory = o.kv_cache_memory.or(v.kv_cache_memory);
            v.enforce_eager |= o.enforce_eager;
            v.graph_estimate = o.graph_estimate.or(v.graph_estimate);
            if o.cpu_offload > 0 {
                v.cpu_offload = o.cpu_offload;
            }
            if o.speculative.is_some() {
                v.speculative = o.speculative.clone();
            }
            v.data_parallel = o.data_parallel.or(v.data_parallel);
            v.expert_parallel |= o.expert_parallel;
            v.mm_encoder_data |= o.mm_encoder_data;
            v.prefix_caching = o.prefix_caching.or(v.prefix_caching);
            v.async_scheduling = o.async_scheduling.or(v.async_scheduling);
            v.pipeline_parallel = o.pipeline_parallel.or(v.pipeline_parallel);
            v.decode_context_parallel = o.decode_context_parallel.or(v.decode_context_parallel);
            v.extensible_kv_cache = o.extensible_kv_cache.or(v.extensible_kv_cache);
            v.max_model_len_auto |= o.max_model_len_auto;
            v.max_cudagraph_capture_size = o.max_cudagraph_capture_size.or(v.max_cudagraph_capture_size);
            v.mamba_cache_bytes = o.mamba_cache_bytes.or(v.mamba_cache_bytes);
            v.mamba_ssm_cache_bytes = o.mamba_ssm_cache_bytes.or(v.mamba_ssm_cache_bytes);
            if let Some(f) = self.weights {
                s.weights = Some(f);
            }
            return;
        }
        if let Some(n) = self.context {
            s.context = n;
        }
        if let Some(n) = self.sequences {
            s.batch = n;
        }
        s.gpu_layers = self.gpu_layers.filter(|n| *n < 999);
        if let Some(fa) = self.flash_attention {
            s.flash_attention = fa;
        }
        // llama.cpp's (and Ollama's) default for either cache is F16, whatever the other is.
        let k = self.k_type.unwrap_or(KvDtype::F16);
        let v = self.v_type.unwrap_or(KvDtype::F16);
        s.kv = k;
        // A V type equal to K's is no separate setting.
        s.llama.v_type = (v != k).then_some(v);
        if let Some(b) = self.batch {
            s.llama.batch = b;
        }
        if let Some(u) = self.ubatch {
            s.llama.ubatch = u;
        }
        s.llama.swa_full = self.swa_full;
        s.text_only = self.text_only;
        if let Some(u) = self.unified {
            s.llama.unified = u;
        }
        s.llama.cpu_moe = self.cpu_moe;
        s.llama.draft = self.draft.clone();
        s.llama.draft_max = self.draft_max.unwrap_or(16);
        if self.runtime == Runtime::Ollama {
            s.llama.num_batch = self.num_batch;
        }
        // A split over N GPUs names N shares; `-sm none` runs on one.
        if let Some(t) = &self.tensor_split {
            s.llama.tensor_split = t.clone();
            s.gpus = s.gpus.max(t.len() as u64);
        }
        if self.single_gpu {
            s.gpus = 1;
            s.llama.tensor_split.clear();
        }
        if let Some((_, Some(f))) = &self.catalog {
            s.weights = Some(*f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_only_is_read_from_each_runtimes_flags() {
        let text = |cmd: &str| parse(cmd).unwrap().text_only;
        assert!(text(
            r#"vllm serve Qwen/Qwen3-VL-8B-Instruct --limit-mm-per-prompt '{"image": 0, "video": 0}'"#
        ));
        assert!(!text(
            r#"vllm serve Qwen/Qwen3-VL-8B-Instruct --limit-mm-per-prompt '{"image": 2, "video": 0}'"#
        ));
        assert!(text(
            "vllm serve Qwen/Qwen3-VL-8B-Instruct --limit-mm-per-prompt.image 0 --limit-mm-per-prompt.video 0"
        ));
        assert!(!text(
            "vllm serve Qwen/Qwen3-VL-8B-Instruct --limit-mm-per-prompt.image 4 --limit-mm-per-prompt.video 0"
        ));
        assert!(text("vllm serve Qwen/Qwen3-VL-8B-Instruct --language-model-only"));
        assert!(text("llama-server -m gemma-3-12b.Q4_K_M.gguf --no-mmproj"));
        assert!(!text("llama-server -m gemma-3-12b.Q4_K_M.gguf --mmproj mmproj-F16.gguf"));
        let bad = parse(r#"vllm serve x --limit-mm-per-prompt 'image=2'"#).unwrap();
        assert!(bad.ignored.iter().any(|p| p.piece.contains("limit-mm")), "{:?}", bad.ignored);
    }

    #[test]
    fn vllm_counts_read_as_its_human_readable_ints() {
        assert_eq!(vllm_tokens("32768"), Some(32_768));
        assert_eq!(vllm_tokens("32k"), Some(32_000));
        assert_eq!(vllm_tokens("32K"), Some(32_768));
        assert_eq!(vllm_tokens("25.6k"), Some(25_600));
        assert_eq!(vllm_tokens("1.5g"), Some(1_500_000_000));
        assert_eq!(vllm_tokens("20G"), Some(20 << 30));
        assert_eq!(vllm_tokens("1T"), Some(1 << 40));
        // vLLM refuses decimals with a binary suffix, and so do we; nor signs, spaces or zero.
        for bad in ["1.5G", "0", "-3", "1 k", "k", "1.k", ".5k", "12x", ""] {
            assert_eq!(vllm_tokens(bad), None, "{bad}");
        }
        let c = parse("vllm serve Qwen/Qwen3-8B --kv-cache-memory-bytes 20G --max-num-batched-tokens 16k")
            .unwrap();
        assert_eq!((c.vllm.kv_cache_memory, c.vllm.max_num_batched_tokens), (Some(20 << 30), Some(16_000)));
        assert!(c.ignored.is_empty(), "{:?}", c.ignored);
    }

    #[test]
    fn a_llama_server_command_with_everything_people_write() {
        let c = parse(
            "CUDA_VISIBLE_DEVICES=0 ./build/bin/llama-server \\\n  -m models/qwen3-8b.Q4_K_M.gguf -c 16384 -np 2 \\\n  -ngl 99 -fa on -ctk q8_0 --cache-type-v=q8_0 -ub 1024 --host 0.0.0.0 --port 8080 --jinja --swa-full  # serve",
        )
        .unwrap();
        assert_eq!(c.runtime, Runtime::LlamaCpp);
        assert_eq!(c.catalog, Some(("qwen3-8b".into(), WeightFormat::parse("q4_k_m").ok())));
        assert_eq!((c.context, c.sequences, c.gpu_layers), (Some(8192), Some(2), Some(99)));
        assert_eq!(
            (c.flash_attention, c.k_type, c.v_type),
            (Some(true), Some(KvDtype::Q8_0), Some(KvDtype::Q8_0))
        );
        assert_eq!((c.ubatch, c.swa_full), (Some(1024), true));
        let pieces: Vec<&str> = c.ignored.iter().map(|i| i.piece.as_str()).collect();
        assert_eq!(pieces, ["--host 0.0.0.0", "--port 8080", "--jinja", "CUDA_VISIBLE_DEVICES=0"]);
    }

    #[test]
    fn ollama_with_its_environment() {
        let c = parse("OLLAMA_CONTEXT_LENGTH=32768 OLLAMA_NUM_PARALLEL=4 OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0 ollama run qwen3:8b").unwrap();
        assert_eq!(c.runtime, Runtime::Ollama);
        assert_eq!((c.context, c.sequences, c.flash_attention), (Some(32768), Some(4), Some(true)));
        assert_eq!((c.k_type, c.v_type), (Some(KvDtype::Q8_0), Some(KvDtype::Q8_0)));
        assert_eq!(c.model.as_deref(), Some("qwen3:8b"));
    }

    /// Every llama-server command Headroom writes reads back into the scenario it came from.
    #[test]
    fn generated_commands_read_back_to_their_scenario() {
        use crate::scenario::LlamaOptions;
        let mut checked = 0;
        for id in ["llama-3.1-8b", "qwen3-8b", "gemma-3-12b", "qwen3-30b-a3b"] {
            for weights in ["q4_k_m", "q8_0"] {
                for (kv, v_type) in
                    [(KvDtype::F16, None), (KvDtype::Q8_0, None), (KvDtype::Q8_0, Some(KvDtype::F16))]
                {
                    for (context, batch) in [(4096, 1), (16384, 4)] {
                        for llama in [
                            LlamaOptions::default(),
                            LlamaOptions {
                                batch: 1024,
                                ubatch: 256,
                                v_type,
                                swa_full: true,
                                unified: true,
                                cpu_moe: Some(if id == "qwen3-30b-a3b" {
                                    20
                                } else {
                                    crate::scenario::ALL_LAYERS
                                }),
                                draft: (id == "qwen3-8b").then(|| "qwen3-0.6b".to_string()),
                                draft_max: if id == "qwen3-8b" { 8 } else { 16 },
                                tensor_split: Vec::new(),
                                num_batch: None,
                                with_gpus: Vec::new(),
                            },
                            // Two GPUs with a tensor split.
                            LlamaOptions { tensor_split: alloc::vec![3000, 1250], ..LlamaOptions::default() },
                        ] {
                            let s = Scenario {
                                weights: WeightFormat::parse(weights).ok(),
                                kv,
                                context,
                                batch,
                                gpus: if llama.tensor_split.is_empty() { 1 } else { 2 },
                                runtime: Some(Runtime::LlamaCpp),
                                llama: LlamaOptions { v_type, ..llama.clone() },
                                ..Scenario::catalog(id)
                            };
                            let e = crate::estimate(&s).unwrap();
                            let cmd = &crate::flags::commands(&s, &e, None)[0];
                            let c = parse(cmd).unwrap();
                            assert!(c.ignored.is_empty(), "{cmd}: {:?}", c.ignored);
                            let (model, format) = c.catalog.clone().unwrap();
                            let mut back = Scenario { weights: format, ..Scenario::catalog(&model) };
                            c.apply(&mut back);
                            assert_eq!(back, s, "{cmd}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 144);
    }

    #[test]
    fn a_vllm_serve_command_with_everything_people_write() {
        let c = parse(
            "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n  --max-model-len 32k --tensor-parallel-size=2 --gpu-memory-utilization 0.85 --max_num_seqs 64 \\\n  --kv-cache-dtype fp8 --enforce-eager --port 8000 --enable-prefix-caching --speculative-config '{\"method\": \"eagle\"}' --weird-flag 3",
        )
        .unwrap();
        assert_eq!(c.runtime, Runtime::Vllm);
        assert_eq!(c.catalog.as_ref().map(|c| c.0.as_str()), Some("llama-3.1-8b"));
        assert_eq!((c.context, c.tensor_parallel, c.model_len_default), (Some(32000), Some(2), false));
        assert_eq!(
            (c.vllm.utilization, c.vllm.max_num_seqs, c.vllm.enforce_eager),
            (Some(8500), Some(64), true)
        );
        assert_eq!((c.k_type, c.vllm.graph_estimate), (Some(KvDtype::Fp8), Some(false)));
        assert_eq!(c.vllm.speculative.as_ref().map(crate::vllm::Speculative::id).as_deref(), Some("eagle:1"));
        let pieces: Vec<&str> = c.ignored.iter().map(|i| i.piece.as_str()).collect();
        assert_eq!(pieces, ["--port 8000", "--weird-flag 3"]);
        assert_eq!(c.vllm.prefix_caching, Some(true));
        assert_eq!(
            parse("vllm serve Qwen/Qwen3-8B --no-async-scheduling").unwrap().vllm.async_scheduling,
            Some(false)
        );
        let c = parse("python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B").unwrap();
        assert_eq!((c.runtime, c.model_len_default), (Runtime::Vllm, true));
        assert_eq!(c.catalog.as_ref().map(|c| c.0.as_str()), Some("qwen3-8b"));
        let mut s = Scenario::catalog("qwen3-8b");
        assert_eq!(c.apply_with_model(&mut s), Some(40960));
        assert!(parse("vllm bench latency").is_err());
        assert!(parse("python -m http.server").is_err());
        let c =
            parse("vllm serve x --max-model-len lots --gpu-memory-utilization 2 --block-size 24").unwrap();
        assert_eq!(c.ignored.len(), 3);
    }

    #[test]
    fn an_sglang_command_reads_and_round_trips() {
        let c = parse(
            "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2 --mem-fraction-static 0.8 --context-length 32768 --chunked-prefill-size 4096 --kv-cache-dtype fp8_e5m2 --port 30000 --disable-radix-cache",
        )
        .unwrap();
        assert_eq!(c.runtime, Runtime::Sglang);
        assert_eq!(c.catalog.as_ref().map(|c| c.0.as_str()), Some("qwen3-8b"));
        assert_eq!((c.context, c.tensor_parallel, c.k_type), (Some(32768), Some(2), Some(KvDtype::Fp8)));
        assert_eq!((c.sglang.mem_fraction_static, c.sglang.chunked_prefill_size), (Some(8000), Some(4096)));
        let pieces: Vec<&str> = c.ignored.iter().map(|i| i.piece.as_str()).collect();
        assert_eq!(pieces, ["--port 30000", "--disable-radix-cache"]);
        let c = parse("sglang serve --model-path Qwen/Qwen3-8B").unwrap();
        assert!(c.model_len_default);
        for flag in ["--language-model-only", "--language-only"] {
            let c = parse(&format!(
                "python -m sglang.launch_server --model-path Qwen/Qwen2.5-VL-7B-Instruct {flag}"
            ))
            .unwrap();
            assert!(c.text_only && c.ignored.is_empty(), "{flag}");
        }
        // What Headroom writes reads back.
        for sg in [
            crate::sglang::SglangOptions::default(),
            crate::sglang::SglangOptions {
                mem_fraction_static: Some(8500),
                chunked_prefill_size: Some(2048),
                cuda_graph_max_bs: Some(16),
                page_size: Some(64),
                disable_cuda_graph: true,
                swa_full_tokens_ratio: Some(5000),
                disable_hybrid_swa_memory: true,
                mamba_full_memory_ratio: Some(6000),
                max_mamba_cache_size: Some(256),
            },
        ] {
            let s = Scenario {
                gpus: 2,
                kv: KvDtype::Fp8,
                context: 8192,
                runtime: Some(Runtime::Sglang),
                weights: Some(WeightFormat::Bf16),
                sglang: sg,
                ..Scenario::catalog("qwen3-8b")
            };
            let e = crate::estimate(&s).unwrap();
            let cmd = &crate::flags::commands(&s, &e, None)[0];
            let c = parse(cmd).unwrap();
            assert!(c.ignored.is_empty(), "{cmd}: {:?}", c.ignored);
            let mut back = Scenario::catalog("qwen3-8b");
            c.apply(&mut back);
            assert_eq!(back, s, "{cmd}");
        }
    }

    /// Every vLLM command Headroom writes reads back into the scenario it came from.
    #[test]
    fn generated_vllm_commands_read_back_to_their_scenario() {
        use crate::vllm::VllmOptions;
        let mut checked = 0;
        for id in ["llama-3.1-8b", "qwen3-8b", "gemma-3-12b", "qwen3-30b-a3b"] {
            for (kv, gpus) in [(KvDtype::F16, 1), (KvDtype::Fp8, 2)] {
                for vllm in [
                    VllmOptions::default(),
                    VllmOptions {
                        utilization: Some(8500),
                        max_num_seqs: Some(64),
                        max_num_batched_tokens: Some(4096),
                        block_size: Some(32),
                        kv_cache_memory: Some(10 << 30),
                        enforce_eager: true,
                        graph_estimate: Some(false),
                        cpu_offload: 3 << 29,
                        speculative: Some(crate::vllm::Speculative {
                            method: crate::vllm::SpecMethod::Eagle,
                            tokens: 3,
                        }),
                        data_parallel: Some(2),
                        expert_parallel: true,
                        ..VllmOptions::default()
                    },
                ] {
                    let s = Scenario {
                        kv,
                        gpus,
                        context: 8192,
                        runtime: Some(Runtime::Vllm),
                        weights: Some(WeightFormat::Bf16),
                        vllm,
                        ..Scenario::catalog(id)
                    };
                    let e = crate::estimate(&s).unwrap();
                    let cmd = &crate::flags::commands(&s, &e, None)[0];
                    let c = parse(cmd).unwrap();
                    assert!(c.ignored.is_empty(), "{cmd}: {:?}", c.ignored);
                    let (model, _) = c.catalog.clone().unwrap();
                    let mut back = Scenario::catalog(&model);
                    c.apply(&mut back);
                    assert_eq!(back, s, "{cmd}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 16);
    }

    /// llama.cpp's `-hf user/repo[:quant]` takes Q4_K_M without a tag; unsloth's dynamic mixes
    /// (a tag or a file name) are priced as their nearest standard mix, and said.
    #[test]
    fn hub_tags_and_unsloth_dynamic_mixes() {
        let q4 = WeightFormat::parse("q4_k_m").ok();
        let c = parse("llama-server -hf Qwen/Qwen3-8B-GGUF").unwrap();
        assert_eq!(c.catalog, Some(("qwen3-8b".into(), q4)));
        assert!(c.ignored.is_empty(), "{:?}", c.ignored);
        for cmd in [
            "llama-server -hf unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL",
            "llama-server -m models/Qwen3-8B-UD-Q4_K_XL.gguf",
        ] {
            let c = parse(cmd).unwrap();
            assert_eq!(c.catalog, Some(("qwen3-8b".into(), q4)), "{cmd}");
            assert!(c.ignored.iter().any(|i| i.reason == UNSLOTH_DYNAMIC), "{cmd}: {:?}", c.ignored);
        }
        let c = parse("llama-server -m Qwen3-8B-UD-IQ2_XXS.gguf").unwrap();
        assert_eq!(c.catalog, Some(("qwen3-8b".into(), WeightFormat::parse("iq2_xxs").ok())));
        // A tag it does not know: said, and the model's format left to the defaults.
        let c = parse("llama-server -hf unsloth/Qwen3-8B-GGUF:Q9_Z").unwrap();
        assert!(c.ignored.iter().any(|i| i.piece.contains("Q9_Z")), "{:?}", c.ignored);
    }

    #[test]
    fn every_reason_and_error_reads_in_french() {
        use crate::text::Lang;
        // Every reason a test command produces has its French.
        let cases = [
            "llama-server -m x.gguf --bogus -c zz -ngl x -ctk q3 -ot foo=CPU -md nope.gguf -sm row stray",
            "llama-server -hf unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL",
            "llama-server -hf unsloth/Qwen3-8B-GGUF:Q9_Z",
            "vllm serve Qwen/Qwen3-8B --max-model-len lots --dtype int3 --kv-cache-dtype fp6 --block-size 7 --port 8000 --bogus -pp 2",
            "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --mem-fraction-static 2 --bogus",
            "FOO=1 OLLAMA_NUM_PARALLEL=x ollama run qwen3:8b extra /set parameter",
            "FROM qwen3:8b\nPARAMETER temperature 1\nPARAMETER weird 2\nADAPTER a\nBOGUS",
        ];
        for text in cases {
            for i in parse(text).unwrap().ignored {
                let fr = localized(&i.reason, Lang::Fr);
                assert!(
                    fr != i.reason || i.reason.starts_with("invalid "),
                    "no French for `{}` (from {text})",
                    i.reason
                );
                assert_eq!(localized(&i.reason, Lang::En), i.reason);
            }
        }
        for bad in [
            "",
            "'unclosed",
            "\"unclosed",
            "rm -rf /",
            "python -m http.server",
            "vllm bench",
            "llama-server \u{7}",
            "FROM\nPARAMETER num_ctx 1",
        ] {
            let e = parse(bad).unwrap_err().to_string();
            let fr = localized(&e, Lang::Fr);
            assert!(fr.starts_with("commande invalide : ") && fr != e, "{e} → {fr}");
        }
        let long = "x".repeat(MAX_COMMAND + 1);
        assert!(localized(&parse(&long).unwrap_err().to_string(), Lang::Fr).contains("octets"));
    }

    #[test]
    fn a_modelfile_and_session_parameters_are_read() {
        let c = parse(
            "FROM qwen3:8b\n# notes\nPARAMETER num_ctx 16384\nPARAMETER num_batch 256\nPARAMETER num_gpu 20\nPARAMETER temperature 0.7\nTEMPLATE \"\"\"{{ .System }}\nPARAMETER num_ctx 1\n\"\"\"\nADAPTER ./lora.gguf\nBOGUS x",
        )
        .unwrap();
        assert_eq!(c.runtime, Runtime::Ollama);
        assert_eq!(c.catalog.as_ref().map(|x| x.0.as_str()), Some("qwen3-8b"));
        // The PARAMETER inside the template is text, not an instruction.
        assert_eq!((c.context, c.num_batch, c.gpu_layers), (Some(16384), Some(256), Some(20)));
        let pieces: Vec<&str> = c.ignored.iter().map(|i| i.piece.as_str()).collect();
        assert_eq!(pieces, ["temperature 0.7", "ADAPTER ./lora.gguf", "BOGUS x"]);
        let mut s = Scenario::default();
        c.apply(&mut s);
        assert_eq!((s.context, s.llama.num_batch, s.gpu_layers), (16384, Some(256), Some(20)));
        // In a session: `/set parameter`.
        let c = parse("ollama run qwen3:8b /set parameter num_ctx 8192 /set parameter").unwrap();
        assert_eq!(c.context, Some(8192));
        assert_eq!(c.ignored.len(), 1);
        // Not a Modelfile: a command whose first word is not FROM.
        assert!(parse("FROMAGE qwen3:8b").is_err());
    }

    #[test]
    fn ollama_tags_find_their_catalog_model() {
        assert_eq!(ollama_catalog("qwen3:8b"), Some(("qwen3-8b".into(), WeightFormat::parse("q4_k_m").ok())));
        assert_eq!(ollama_catalog("gpt-oss:20b").and_then(|c| c.1), None);
        assert_eq!(ollama_catalog("llama3.1:8b").map(|c| c.0).as_deref(), Some("llama-3.1-8b"));
        let (id, f) = ollama_catalog("llama3.1:8b-instruct-q4_K_M").unwrap();
        assert_eq!((id.as_str(), f), ("llama-3.1-8b", WeightFormat::parse("q4_k_m").ok()));
        assert_eq!(ollama_catalog("no-such-model:1b"), None);
    }

    #[test]
    fn bad_commands_are_refused_with_a_reason_and_odd_pieces_listed() {
        assert!(parse("").is_err());
        assert!(parse("python train.py").is_err());
        assert!(parse("llama-server -m 'a.gguf").is_err());
        assert!(parse("llama-server \u{7} -m a.gguf").is_err());
        assert!(parse(&"x".repeat(MAX_COMMAND + 1)).is_err());
        let c = parse("llama-server -m unknown-model.gguf -c lots -ctk q3_k stray").unwrap();
        assert_eq!(c.catalog, None);
        assert_eq!(c.model.as_deref(), Some("unknown-model.gguf"));
        let pieces: Vec<&str> = c.ignored.iter().map(|i| i.piece.as_str()).collect();
        assert_eq!(pieces, ["-c lots", "-ctk q3_k", "stray"]);
    }
}
