//! A small, strict JSON reader for the files the core parses (`config.json`, safetensors
//! headers, the hub's index files), with bounded nesting and no panics.
//!
//! Memory grows with the input only, never with a length the input declares; nesting deeper than
//! [`MAX_DEPTH`] is refused, so a hostile file cannot exhaust the stack.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Deepest nesting accepted. Real configs nest three or four levels.
pub const MAX_DEPTH: usize = 64;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, with its exact value when it is a non-negative integer below 2^64.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, keys in file order (duplicates kept; lookups take the last, as browsers do).
    Object(Vec<(String, Value)>),
}

/// A JSON number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number {
    /// The value as a float.
    pub f: f64,
    /// The exact value, when it is a non-negative integer that fits in `u64`.
    pub u: Option<u64>,
}

impl Value {
    /// Member `key` of an object (the last one if repeated).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The exact non-negative integer, if this is one (also `4096.0`).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.u.or_else(|| {
                let f = n.f;
                if (0.0..18_446_744_073_709_551_616.0).contains(&f) && crate::ops::floor(f) == f {
                    Some(f as u64)
                } else {
                    None
                }
            }),
            _ => None,
        }
    }

    /// The number as a float.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(n.f),
            _ => None,
        }
    }

    /// The boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object's members.
    pub fn as_object(&self) -> Option<&[(String, Value)]> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

/// Parses a whole document.
///
/// # Errors
/// [`Error::Parse`] with `format` as the name of what was being read, and the byte offset.
pub fn parse(input: &[u8], format: &'static str) -> Result<Value> {
    let mut p = Parser { s: input, i: 0, format };
    // A UTF-8 byte-order mark is tolerated.
    if p.s.starts_with(&[0xEF, 0xBB, 0xBF]) {
        p.i = 3;
    }
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    format: &'static str,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> Error {
        Error::parse(self.format, format!("{what} at byte {}", self.i))
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn expect_word(&mut self, word: &[u8], v: Value) -> Result<Value> {
        if self.s.get(self.i..self.i + word.len()) == Some(word) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        match self.peek() {
            None => Err(self.err("unexpected end of input")),
            Some(b'n') => self.expect_word(b"null", Value::Null),
            Some(b't') => self.expect_word(b"true", Value::Bool(true)),
            Some(b'f') => self.expect_word(b"false", Value::Bool(false)),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    return Ok(Value::Array(items));
                }
                loop {
                    self.ws();
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Value::Array(items));
                        }
                        _ => return Err(self.err("expected `,` or `]`")),
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    return Ok(Value::Object(members));
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return Err(self.err("expected a string key"));
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.peek() != Some(b':') {
                        return Err(self.err("expected `:`"));
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(depth + 1)?;
                    members.push((k, v));
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Value::Object(members));
                        }
                        _ => return Err(self.err("expected `,` or `}`")),
                    }
                }
            }
            Some(b'-' | b'0'..=b'9' | b'I' | b'N') => self.number(),
            Some(_) => Err(self.err("unexpected character")),
        }
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        // Python's json writes `Infinity`, `-Infinity` and `NaN` (real configs contain them).
        let rest = &self.s[self.i..];
        for (word, f) in [(&b"Infinity"[..], f64::INFINITY), (&b"NaN"[..], f64::NAN)] {
            if rest.starts_with(word) {
                self.i += word.len();
                let f = if start != self.i - word.len() { -f } else { f };
                return Ok(Value::Number(Number { f, u: None }));
            }
        }
        let int_start = self.i;
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                while let Some(b'0'..=b'9') = self.peek() {
                    self.i += 1;
                }
            }
            _ => return Err(self.err("invalid number")),
        }
        let int_end = self.i;
        let mut integral = true;
        if self.peek() == Some(b'.') {
            integral = false;
            self.i += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.err("invalid number"));
            }
            while let Some(b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integral = false;
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.err("invalid number"));
            }
            while let Some(b'0'..=b'9') = self.peek() {
                self.i += 1;
            }
        }
        // The slice holds only ASCII digits and signs, so it is valid UTF-8.
        let text = core::str::from_utf8(&self.s[start..self.i]).map_err(|_| self.err("invalid number"))?;
        let f: f64 = text.parse().map_err(|_| self.err("invalid number"))?;
        let negative = start != int_start;
        let u = if integral && !negative {
            core::str::from_utf8(&self.s[int_start..int_end]).ok().and_then(|t| t.parse::<u64>().ok())
        } else {
            None
        };
        Ok(Value::Number(Number { f, u }))
    }

    fn hex4(&mut self) -> Result<u32> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.err("invalid \\u escape")),
            };
            v = v * 16 + d as u32;
            self.i += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String> {
        // Opening quote.
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.err("unterminated string"));
            };
            match b {
                b'"' => {
                    self.i += 1;
                    return String::from_utf8(out).map_err(|_| self.err("string is not valid UTF-8"));
                }
                b'\\' => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return Err(self.err("unterminated escape"));
                    };
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.i..self.i + 2) != Some(b"\\u") {
                                    return Err(self.err("unpaired surrogate"));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err("unpaired surrogate"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or_else(|| self.err("invalid code point"))?
                        }
                        _ => return Err(self.err("invalid escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0x00..=0x1F => return Err(self.err("control character in string")),
                _ => {
                    out.push(b);
                    self.i += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn python_non_finite_numbers_are_read() {
        let v = parse(br#"{"a": Infinity, "b": -Infinity, "c": NaN, "d": [1, Infinity]}"#, "t").unwrap();
        assert_eq!(v.get("a").and_then(Value::as_f64), Some(f64::INFINITY));
        assert_eq!(v.get("b").and_then(Value::as_f64), Some(f64::NEG_INFINITY));
        assert!(v.get("c").and_then(Value::as_f64).is_some_and(f64::is_nan));
        assert!(v.get("a").and_then(Value::as_u64).is_none());
        assert!(parse(b"Inf", "t").is_err());
        assert!(parse(b"-Nope", "t").is_err());
    }

    #[test]
    fn reads_a_config() {
        let v = parse(br#"{"a": 1, "b": [true, null, -2.5e1], "c": {"d": "x\u00e9\ud83d\ude00"}, "a": 18446744073709551615}"#, "t").unwrap();
        assert_eq!(v.get("a").and_then(Value::as_u64), Some(u64::MAX));
        assert_eq!(v.get("b").and_then(Value::as_array).map(<[Value]>::len), Some(3));
        assert_eq!(v.get("c").and_then(|c| c.get("d")).and_then(Value::as_str), Some("xé😀"));
        assert_eq!(parse(b"4096.0", "t").unwrap().as_u64(), Some(4096));
        assert_eq!(parse(b"-1", "t").unwrap().as_u64(), None);
    }

    #[test]
    fn refuses_malformed_input() {
        for bad in [
            &b""[..],
            b"{",
            b"{\"a\" 1}",
            b"[1,]",
            b"01",
            b"1.",
            b"\"\\ud800\"",
            b"\"a\nb\"",
            b"nul",
            b"{} x",
            b"\"\xff\"",
        ] {
            assert!(parse(bad, "t").is_err(), "{:?}", core::str::from_utf8(bad));
        }
    }

    #[test]
    fn deep_nesting_is_refused_without_overflowing_the_stack() {
        let deep: Vec<u8> = vec![b'['; 100_000];
        let e = parse(&deep, "t").unwrap_err();
        assert!(alloc::format!("{e}").contains("too deep"));
        let ok: Vec<u8> = [vec![b'['; 60], vec![b']'; 60]].concat();
        assert!(parse(&ok, "t").is_ok());
    }
}
