//! Copies the catalog's `config.json` files into `OUT_DIR` without the whitespace between
//! tokens (strings and numbers are kept byte for byte), so the binary and the WASM bundle carry
//! them smaller; the repository keeps them as published. Compiles the hardware catalog,
//! `data/devices.tsv` (one device per line), into the `DEVICES` table `src/catalog/devices.rs`
//! includes; a malformed line stops the build naming it.

use std::error::Error;
use std::fs;
use std::path::Path;

fn main() -> Result<(), Box<dyn Error>> {
    let src = Path::new("src/catalog/models");
    println!("cargo::rerun-if-changed={}", src.display());
    let out = Path::new(&std::env::var("OUT_DIR")?).join("models");
    fs::create_dir_all(&out)?;
    let mut entries: Vec<_> = fs::read_dir(src)?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        if path.extension().is_some_and(|x| x == "json") {
            let text = fs::read_to_string(&path)?;
            fs::write(out.join(e.file_name()), minify(&text))?;
        }
    }
    // The measured speeds, their comment lines emptied (the data's line numbers, which parse
    // errors name, stay the same).
    let measured = Path::new("data/measured.tsv");
    println!("cargo::rerun-if-changed={}", measured.display());
    let text: String = fs::read_to_string(measured)?
        .lines()
        .map(|l| if l.starts_with('#') { "\n".to_string() } else { format!("{l}\n") })
        .collect();
    fs::write(Path::new(&std::env::var("OUT_DIR")?).join("measured.tsv"), text)?;
    let devices = Path::new("data/devices.tsv");
    println!("cargo::rerun-if-changed={}", devices.display());
    let table = devices_table(&fs::read_to_string(devices)?).map_err(|e| format!("data/devices.tsv: {e}"))?;
    fs::write(Path::new(&std::env::var("OUT_DIR")?).join("devices.rs"), table)?;
    // Which runtimes load which checkpoint classes, and mlx-lm's and transformers' model types: one line each,
    // comments dropped, the columns packed (`Name<TAB>` llama.cpp, Ollama, SGLang flags then
    // vLLM's `y`, `-` or last release).
    let classes = Path::new("data/runtime-classes.tsv");
    println!("cargo::rerun-if-changed={}", classes.display());
    let packed =
        runtime_classes(&fs::read_to_string(classes)?).map_err(|e| format!("{}: {e}", classes.display()))?;
    fs::write(Path::new(&std::env::var("OUT_DIR")?).join("runtime-classes.txt"), packed)?;
    // The model types vLLM and SGLang read with config classes of their own: `type<TAB>v<TAB>s`.
    let configs = Path::new("data/runtime-config-types.tsv");
    println!("cargo::rerun-if-changed={}", configs.display());
    let mut rows = Vec::new();
    for (i, line) in fs::read_to_string(configs)?.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let flag = |c: &str| c == "y" || c == "-";
        if cols.len() != 3 || cols[0].is_empty() || !flag(cols[1]) || !flag(cols[2]) {
            return Err(format!(
                "{} line {}: `{line}` is not `model_type<TAB>y|-<TAB>y|-`",
                configs.display(),
                i + 1
            )
            .into());
        }
        rows.push(line.to_string());
    }
    let rows = sorted_lines(rows).map_err(|e| format!("{}: {e}", configs.display()))?;
    fs::write(Path::new(&std::env::var("OUT_DIR")?).join("runtime-config-types.txt"), rows)?;
    for name in ["mlx-model-types.txt", "transformers-model-types.txt", "transformers-eager-types.txt"] {
        let list = Path::new("data").join(name);
        println!("cargo::rerun-if-changed={}", list.display());
        let mut types = Vec::new();
        for (i, line) in fs::read_to_string(&list)?.lines().enumerate() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            if !line.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.') {
                return Err(format!("{} line {}: `{line}` is not a model_type", list.display(), i + 1).into());
            }
            types.push(line.to_string());
        }
        let types = sorted_lines(types).map_err(|e| format!("{}: {e}", list.display()))?;
        fs::write(Path::new(&std::env::var("OUT_DIR")?).join(name), types)?;
    }
    Ok(())
}

/// Lines sorted by their key (the text before the first tab, or the whole line), one a line, for
/// the core's binary search (`loads::sorted_row`); a key listed twice is an error.
fn sorted_lines(mut rows: Vec<String>) -> Result<String, String> {
    let key = |l: &String| l.split('\t').next().unwrap_or_default().to_string();
    rows.sort_by_key(key);
    if let Some(w) = rows.windows(2).find(|w| key(&w[0]) == key(&w[1])) {
        return Err(format!("{} is listed twice", key(&w[0])));
    }
    Ok(rows.iter().map(|l| format!("{l}\n")).collect())
}

/// `data/runtime-classes.tsv` packed: `Class<TAB>` then the llama.cpp, Ollama and SGLang flags
/// (`y` or `-`) and vLLM's column (`y`, `-` or the last release that ran the class), sorted by
/// class so the core can stop early.
fn runtime_classes(tsv: &str) -> Result<String, String> {
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut header = false;
    for (i, line) in tsv.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if !header {
            if cols != ["class", "llama.cpp", "ollama", "vllm", "sglang"] {
                return Err(format!(
                    "line {}: the header must be class, llama.cpp, ollama, vllm, sglang",
                    i + 1
                ));
            }
            header = true;
            continue;
        }
        let bad = |what: &str| format!("line {}: {what} in `{line}`", i + 1);
        let [class, llama, ollama, vllm, sglang] = cols[..] else {
            return Err(bad("not five columns"));
        };
        if class.is_empty() || !class.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.') {
            return Err(bad("a class that is not a (dotted) identifier"));
        }
        for flag in [llama, ollama, sglang] {
            if flag != "y" && flag != "-" {
                return Err(bad("a flag other than y or -"));
            }
        }
        let version_ok = vllm.split('.').count() >= 2
            && vllm.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if vllm != "y" && vllm != "-" && !version_ok {
            return Err(bad("a vLLM column that is neither y, - nor a release"));
        }
        rows.push((class.to_string(), format!("{llama}{ollama}{sglang}{vllm}")));
    }
    rows.sort();
    if let Some(w) = rows.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!("{} is listed twice", w[0].0));
    }
    Ok(rows.iter().map(|(c, f)| format!("{c}\t{f}\n")).collect())
}

/// The columns of `data/devices.tsv`, in order.
const COLUMNS: [&str; 19] = [
    "id",
    "aliases",
    "name",
    "kind",
    "vendor",
    "count",
    "memory_mib",
    "compute_capability",
    "bandwidth_gbs",
    "fp16_tflops",
    "fp8_tflops",
    "int8_tops",
    "tdp_w",
    "price_usd",
    "usd_per_hour",
    "host_ram_gib",
    "link",
    "date",
    "source",
];

/// The Rust source of the `DEVICES` table from the catalog's lines.
fn devices_table(tsv: &str) -> Result<String, String> {
    let mut lines = tsv.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    let header = lines.next().ok_or("no header line")?.1;
    if header.split('\t').collect::<Vec<_>>() != COLUMNS {
        return Err(format!("the header must name the columns {}", COLUMNS.join(", ")));
    }
    let mut out = String::from("/// Every catalog device.\npub static DEVICES: &[Device] = &[\n");
    let mut ids = std::collections::HashSet::new();
    for (n, line) in lines {
        let at = |why: String| format!("line {}: {why}", n + 1);
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != COLUMNS.len() {
            return Err(at(format!("{} columns, {} expected", f.len(), COLUMNS.len())));
        }
        if f[0].is_empty() || !ids.insert(f[0]) {
            return Err(at(format!("the id `{}` is empty or repeated", f[0])));
        }
        const KINDS: [&str; 6] = ["Gpu", "Apple", "Laptop", "Cpu", "Cloud", "Apu"];
        if !KINDS.contains(&f[3]) {
            return Err(at(format!("kind `{}` is not one of {}", f[3], KINDS.join(" "))));
        }
        let int = |i: usize| -> Result<u64, String> {
            f[i].parse::<u64>().map_err(|_| at(format!("{} `{}` is not a whole number", COLUMNS[i], f[i])))
        };
        let float = |i: usize| -> Result<String, String> {
            match f[i].parse::<f64>() {
                Ok(v) if v.is_finite() && v >= 0.0 => Ok(format!("{v:?}")),
                _ => Err(at(format!("{} `{}` is not a number of 0 or more", COLUMNS[i], f[i]))),
            }
        };
        if !f[16].chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            || f[16].is_empty()
        {
            return Err(at(format!("link `{}` is not a constant name", f[16])));
        }
        let aliases: Vec<String> =
            f[1].split(',').filter(|a| !a.is_empty()).map(|a| format!("{a:?}")).collect();
        let count = u32::try_from(int(5)?).map_err(|_| at("count is too large".into()))?;
        let cc = u16::try_from(int(7)?).map_err(|_| at("compute_capability is too large".into()))?;
        out.push_str(&format!(
            "    Device {{ id: {:?}, aliases: &[{}], name: {:?}, kind: DeviceKind::{}, vendor: {:?}, count: {count}, memory_mib: {}, compute_capability: {cc}, bandwidth_gbs: {}, fp16_tflops: {}, fp8_tflops: {}, int8_tops: {}, tdp_w: {}, price_usd: {}, usd_per_hour: {}, host_ram_gib: {}, link: links::{}, source: src!({:?}), date: {:?} }},\n",
            f[0],
            aliases.join(", "),
            f[2],
            f[3],
            f[4],
            int(6)?,
            float(8)?,
            float(9)?,
            float(10)?,
            float(11)?,
            float(12)?,
            float(13)?,
            float(14)?,
            float(15)?,
            f[16],
            f[18],
            f[17],
        ));
    }
    out.push_str("];\n");
    Ok(out)
}

/// `text` without the whitespace outside its strings.
fn minify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}
