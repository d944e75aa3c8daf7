//! Helpers for Headroom's golden and cross-crate tests: reading the fixtures in `tests/fixtures`.

use std::path::PathBuf;

/// Path of a file under `tests/fixtures`.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name)
}

/// Reads a fixture as text, panicking with the path when it is missing (tests only).
pub fn read_fixture(name: &str) -> String {
    let p = fixture(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// Lines of a fixture that are not blank and not `#` comments.
pub fn fixture_lines(name: &str) -> Vec<String> {
    read_fixture(name)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}
