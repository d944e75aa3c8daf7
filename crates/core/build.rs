//! Copies the catalog's `config.json` files into `OUT_DIR` without the whitespace between
//! tokens (strings and numbers are kept byte for byte), so the binary and the WASM bundle carry
//! them smaller; the repository keeps them as published.

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
    Ok(())
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
