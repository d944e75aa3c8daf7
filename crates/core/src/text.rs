//! Words the estimate uses to explain itself, in English and French.
//!
//! The core returns [`Msg`] values (a message id plus arguments) rather than finished strings, so
//! that the page can render them in the reader's language and the CLI in English, from the same
//! numbers. Numbers are formatted per language (`8,030,261,248` / `8 030 261 248`).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

use crate::units::Bytes;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A language the explanations are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "lowercase"))]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French (the seed guide's language).
    Fr,
}

impl Lang {
    /// The two-letter code (`en`, `fr`).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// Parses a code or a browser language tag (`fr-CA` → French); `None` if not supported.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let t = tag.trim().as_bytes();
        if t.len() >= 2 {
            match (t[0].to_ascii_lowercase(), t[1].to_ascii_lowercase()) {
                (b'e', b'n') => return Some(Lang::En),
                (b'f', b'r') => return Some(Lang::Fr),
                _ => {}
            }
        }
        None
    }
}

/// An argument of a message.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Arg {
    /// An integer, shown with thousands separators.
    Int(u64),
    /// A float, shown with the given number of decimals.
    Num(f64, u8),
    /// A size, shown in GB and GiB.
    Size(Bytes),
    /// Verbatim text (ids, names, formats).
    Text(String),
}

/// A sentence to show: a message id and its arguments.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Msg {
    /// Which sentence.
    pub id: MsgId,
    /// Its arguments, `{0}`, `{1}`… in the templates.
    pub args: Vec<Arg>,
}

impl Msg {
    /// A message with arguments.
    pub fn new(id: MsgId, args: Vec<Arg>) -> Self {
        Msg { id, args }
    }

    /// The sentence in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        let template = template(self.id, lang);
        let mut out = String::with_capacity(template.len() + 16);
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            out.push_str(&rest[..start]);
            let after = &rest[start + 1..];
            match after.find('}') {
                Some(end) => {
                    let idx: Option<usize> = after[..end].parse().ok();
                    match idx.and_then(|i| self.args.get(i)) {
                        Some(arg) => write_arg(&mut out, arg, lang),
                        None => {
                            out.push('{');
                            out.push_str(&after[..=end]);
                        }
                    }
                    rest = &after[end + 1..];
                }
                None => {
                    out.push_str(&rest[start..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }
}

fn write_arg(out: &mut String, arg: &Arg, lang: Lang) {
    match arg {
        Arg::Int(n) => out.push_str(&format_int(*n, lang)),
        Arg::Num(x, d) => out.push_str(&format_num(*x, *d, lang)),
        Arg::Size(b) => out.push_str(&format_size(*b, lang)),
        Arg::Text(t) => out.push_str(t),
    }
}

/// An integer with thousands separators: `8,030,261,248` in English, `8 030 261 248` in French
/// (narrow no-break spaces).
pub fn format_int(n: u64, lang: Lang) -> String {
    let digits = n.to_string();
    let sep = match lang {
        Lang::En => ",",
        Lang::Fr => "\u{202f}",
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * sep.len());
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(sep);
        }
        out.push(c);
    }
    out
}

/// A float with `decimals` decimals and the language's decimal mark.
pub fn format_num(x: f64, decimals: u8, lang: Lang) -> String {
    let mut s = String::new();
    let _ = write!(s, "{:.*}", decimals as usize, x);
    match lang {
        Lang::En => s,
        Lang::Fr => s.replace('.', ","),
    }
}

/// A size in decimal GB with its binary GiB beside it: `14.00 GB (13.04 GiB)`.
pub fn format_size(b: Bytes, lang: Lang) -> String {
    let (v, unit, vb, unit_b) = if b.get() >= 1_000_000_000 {
        (b.as_gb(), "GB", b.as_gib(), "GiB")
    } else {
        (b.get() as f64 / 1e6, "MB", b.as_mib(), "MiB")
    };
    let mut s = format_num(v, 2, lang);
    s.push(' ');
    s.push_str(unit);
    s.push_str(" (");
    s.push_str(&format_num(vb, 2, lang));
    s.push(' ');
    s.push_str(unit_b);
    s.push(')');
    s
}

macro_rules! messages {
    ($($(#[$doc:meta])* $id:ident => $en:literal, $fr:literal;)*) => {
        /// The sentences the core can say.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
        #[non_exhaustive]
        pub enum MsgId {
            $($(#[$doc])* $id,)*
        }

        fn template(id: MsgId, lang: Lang) -> &'static str {
            match (id, lang) {
                $((MsgId::$id, Lang::En) => $en, (MsgId::$id, Lang::Fr) => $fr,)*
            }
        }
    };
}

messages! {
    /// Weights of a bare parameter count: params × bytes per parameter.
    WeightsFlat =>
        "{0} parameters × {1} bytes per parameter ({2})",
        "{0} paramètres × {1} octets par paramètre ({2})";
    /// The seed's rule: one format for every weight.
    AssumeUniformFormat =>
        "every weight stored in {0}; no quantization scales (the seed guide's table)",
        "tous les poids stockés en {0} ; sans échelles de quantification (tableau du guide)";
    /// Term name: weights.
    TermWeights => "Weights", "Poids";
    /// Term name: KV cache.
    TermKvCache => "KV cache", "Cache KV";
    /// Term name: activations and workspace.
    TermActivations => "Activations", "Activations";
    /// Term name: gradients.
    TermGradients => "Gradients", "Gradients";
    /// Term name: optimizer states.
    TermOptimizer => "Optimizer states", "États de l'optimiseur";
    /// Term name: fp32 master weights.
    TermMasterWeights => "FP32 master copy", "Copie FP32 des poids";
    /// Term name: LoRA adapters.
    TermAdapters => "Adapters", "Adaptateurs";
    /// Term name: runtime overhead.
    TermOverhead => "Runtime overhead", "Overhead du runtime";
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn numbers_follow_the_language() {
        assert_eq!(format_int(8_030_261_248, Lang::En), "8,030,261,248");
        assert_eq!(format_int(8_030_261_248, Lang::Fr), "8\u{202f}030\u{202f}261\u{202f}248");
        assert_eq!(format_int(12, Lang::En), "12");
        assert_eq!(format_num(2.5, 1, Lang::Fr), "2,5");
        assert_eq!(format_size(Bytes::new(14_000_000_000), Lang::En), "14.00 GB (13.04 GiB)");
    }

    #[test]
    fn templates_substitute_arguments() {
        let m = Msg::new(
            MsgId::WeightsFlat,
            vec![Arg::Int(7_000_000_000), Arg::Num(2.0, 1), Arg::Text("FP16".into())],
        );
        assert_eq!(m.render(Lang::En), "7,000,000,000 parameters × 2.0 bytes per parameter (FP16)");
        assert!(m.render(Lang::Fr).starts_with("7\u{202f}000"));
    }

    #[test]
    fn language_tags() {
        assert_eq!(Lang::from_tag("fr-CA"), Some(Lang::Fr));
        assert_eq!(Lang::from_tag("EN"), Some(Lang::En));
        assert_eq!(Lang::from_tag("de"), None);
        assert_eq!(Lang::from_tag(""), None);
    }
}
