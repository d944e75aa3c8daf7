//! Numbers people type, read by the language of the page they type them on.
//!
//! English writes `7.5B` and `1,024`; French writes `7,5 Md` and `1 024` (with a space, a
//! no-break or a narrow no-break space, or an apostrophe). Read with the wrong rule, `7,5B`
//! silently becomes 75B. So each language has its decimal mark and its grouping marks, what
//! could be read two ways is refused with the spelling to use instead, and every number the
//! page writes ([`crate::text::format_int`], [`format_params_in`]) reads back to itself.
//!
//! Units: token counts take `k` (× 1024) and `M` (× 1024²), as context lengths are spoken
//! (`32k` = 32,768); parameter counts take `k`, `M`, `B`/`G`/`Md` (milliard) and `T` in powers
//! of ten, and an exponent (`7e9`).

use alloc::format;
use alloc::string::String;

use crate::text::Lang;

/// What a number counts: it decides the units it may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// Tokens (contexts, batches): whole numbers, `k` = 1024.
    Tokens,
    /// Parameters: `k`, `M`, `B`, `T` in powers of ten, decimals and exponents allowed.
    Params,
}

/// Why a typed number was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Nothing typed.
    Empty,
    /// Not a number at all.
    NotANumber,
    /// Readable two ways in this language; `suggestion` is how to write what was likely meant.
    Ambiguous {
        /// The spelling to use instead.
        suggestion: String,
    },
    /// A unit this quantity does not take.
    UnknownUnit(String),
    /// A fraction of a token.
    NotWhole,
    /// Larger than any count.
    TooLarge,
}

impl NumberError {
    /// The message shown beside the field.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (NumberError::Empty, Lang::En) => "type a number".into(),
            (NumberError::Empty, Lang::Fr) => "tapez un nombre".into(),
            (NumberError::NotANumber, Lang::En) => "not a number".into(),
            (NumberError::NotANumber, Lang::Fr) => "ce n'est pas un nombre".into(),
            (NumberError::Ambiguous { suggestion }, Lang::En) => {
                format!("ambiguous: write {suggestion} (a point for decimals, commas only between thousands)")
            }
            (NumberError::Ambiguous { suggestion }, Lang::Fr) => {
                format!("ambigu : écrivez {suggestion} (virgule décimale, espaces entre les milliers)")
            }
            (NumberError::UnknownUnit(u), Lang::En) => format!("`{u}` is not a unit here"),
            (NumberError::UnknownUnit(u), Lang::Fr) => format!("`{u}` n'est pas une unité ici"),
            (NumberError::NotWhole, Lang::En) => "a whole number, please".into(),
            (NumberError::NotWhole, Lang::Fr) => "un nombre entier, svp".into(),
            (NumberError::TooLarge, Lang::En) => "too large".into(),
            (NumberError::TooLarge, Lang::Fr) => "trop grand".into(),
        }
    }
}

/// Characters that group thousands: spaces of every width people type or the page writes, the
/// underscore, the apostrophe (Swiss) and its typographic form.
const GROUPING: [char; 7] = [' ', '\u{a0}', '\u{2009}', '\u{202f}', '_', '\'', '\u{2019}'];

/// Reads a number typed on a page in `lang`.
///
/// # Errors
/// A [`NumberError`] saying what is wrong, for the message beside the field.
///
/// # Example
/// ```
/// use headroom_core::number::{parse_number, Quantity};
/// use headroom_core::text::Lang;
/// assert_eq!(parse_number("7,5B", Lang::Fr, Quantity::Params), Ok(7_500_000_000));
/// assert_eq!(parse_number("8,5k", Lang::Fr, Quantity::Tokens), Ok(8704));
/// assert!(parse_number("7,5B", Lang::En, Quantity::Params).is_err());
/// ```
pub fn parse_number(s: &str, lang: Lang, q: Quantity) -> Result<u64, NumberError> {
    let t = s.trim_matches(|c: char| c.is_whitespace() || GROUPING.contains(&c));
    if t.is_empty() {
        return Err(NumberError::Empty);
    }
    // The unit: the letters at the end (after any space).
    let split =
        t.char_indices().rev().find(|(_, c)| !c.is_ascii_alphabetic()).map_or(0, |(i, c)| i + c.len_utf8());
    let (body, unit) = t.split_at(split);
    let scale: u128 = match (q, unit.to_ascii_lowercase().as_str()) {
        (_, "") => 1,
        (Quantity::Tokens, "k") => 1 << 10,
        (Quantity::Tokens, "m") => 1 << 20,
        (Quantity::Params, "k") => 1_000,
        (Quantity::Params, "m") => 1_000_000,
        (Quantity::Params, "b" | "g" | "md" | "mds") => 1_000_000_000,
        (Quantity::Params, "t") => 1_000_000_000_000,
        _ => return Err(NumberError::UnknownUnit(unit.into())),
    };
    let body: String = body.chars().filter(|c| !GROUPING.contains(c)).collect();
    if body.is_empty() {
        return Err(NumberError::NotANumber);
    }
    // An exponent (parameters only): `7e9`, `1.5E9`.
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) if q == Quantity::Params => {
            let e: i32 = body[i + 1..].parse().map_err(|_| NumberError::NotANumber)?;
            (&body[..i], e)
        }
        _ => (body.as_str(), 0),
    };
    let (whole, frac) = split_decimal(mantissa, lang)?;
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !digits(&whole) || !digits(&frac) || (whole.is_empty() && frac.is_empty()) {
        return Err(NumberError::NotANumber);
    }
    if whole.len() + frac.len() > 38 || !(-38..=38).contains(&exponent) {
        return Err(NumberError::TooLarge);
    }
    // value = (whole.frac) × 10^exponent × scale, exactly, as num / den.
    let mut num: u128 = format!("{whole}{frac}").parse().map_err(|_| NumberError::TooLarge)?;
    let mut den: u128 = 10u128.checked_pow(frac.len() as u32).ok_or(NumberError::TooLarge)?;
    let p10 = 10u128.checked_pow(exponent.unsigned_abs()).ok_or(NumberError::TooLarge)?;
    if exponent >= 0 {
        num = num.checked_mul(p10).ok_or(NumberError::TooLarge)?;
    } else {
        den = den.checked_mul(p10).ok_or(NumberError::TooLarge)?;
    }
    num = num.checked_mul(scale).ok_or(NumberError::TooLarge)?;
    let value = match q {
        Quantity::Tokens if !num.is_multiple_of(den) => return Err(NumberError::NotWhole),
        Quantity::Tokens => num / den,
        // Parameters round to the nearest whole parameter.
        Quantity::Params => num.checked_add(den / 2).ok_or(NumberError::TooLarge)? / den,
    };
    u64::try_from(value).map_err(|_| NumberError::TooLarge)
}

/// The whole and fractional digits of `m` by the language's decimal mark, refusing what could
/// be read two ways: in English a comma that does not separate thousands (`7,5`); in French a
/// point that does not mark decimals (`1.000`), or both marks at once.
fn split_decimal(m: &str, lang: Lang) -> Result<(String, String), NumberError> {
    let commas = m.matches(',').count();
    let points = m.matches('.').count();
    let own = |a: &str, b: &str| Ok((String::from(a), String::from(b)));
    match lang {
        Lang::En => {
            if points > 1 {
                return Err(NumberError::NotANumber);
            }
            let (int, frac) = m.split_once('.').unwrap_or((m, ""));
            if commas == 0 {
                return own(int, frac);
            }
            // Commas only between groups of three: 1,024 and 7,000,000.
            let mut groups = int.split(',');
            let first = groups.next().unwrap_or("");
            let ok =
                !first.is_empty() && first.len() <= 3 && groups.all(|g| g.len() == 3) && !frac.contains(',');
            if !ok {
                return Err(NumberError::Ambiguous { suggestion: m.replacen(',', ".", 1).replace(',', "") });
            }
            Ok((int.replace(',', ""), String::from(frac)))
        }
        Lang::Fr => {
            if commas > 0 && points > 0 {
                return Err(NumberError::Ambiguous { suggestion: m.replace('.', "") });
            }
            if commas > 1 || points > 1 {
                return Err(NumberError::Ambiguous { suggestion: m.replace([',', '.'], "") });
            }
            if let Some((int, frac)) = m.split_once(',') {
                return own(int, frac);
            }
            if let Some((int, frac)) = m.split_once('.') {
                // `1.000`: a thousand (grouping) or one (decimals)? Three digits after a point.
                if frac.len() == 3 && !int.is_empty() {
                    return Err(NumberError::Ambiguous {
                        suggestion: format!("{int}{frac} (milliers) ou {int},{frac} (décimales)"),
                    });
                }
                return own(int, frac);
            }
            own(m, "")
        }
    }
}

/// A parameter count written in `lang` the way [`parse_number`] reads it back exactly
/// (`7B`, `1.5B`; `1,5B` in French).
pub fn format_params_in(p: crate::units::Params, lang: Lang) -> String {
    let s = crate::scenario::format_params(p);
    match lang {
        Lang::En => s,
        Lang::Fr => s.replace('.', ","),
    }
}

/// A count of thousandths written as the shortest decimal (`3000` → `3`, `600` → `0.6`,
/// `1250` → `1.25`), as command lines take it.
pub fn thousandths(w: u32) -> String {
    let (int, frac) = (w / 1000, w % 1000);
    if frac == 0 {
        return alloc::format!("{int}");
    }
    let mut f = alloc::format!("{frac:03}");
    while f.ends_with('0') {
        f.pop();
    }
    alloc::format!("{int}.{f}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::format_int;
    use proptest::prelude::*;

    #[test]
    fn each_language_reads_its_own_marks() {
        let fr = |s| parse_number(s, Lang::Fr, Quantity::Params);
        let en = |s| parse_number(s, Lang::En, Quantity::Params);
        assert_eq!(fr("7,5B"), Ok(7_500_000_000));
        assert_eq!(fr("7,5 Md"), Ok(7_500_000_000));
        assert_eq!(fr("1\u{202f}500\u{202f}000"), Ok(1_500_000));
        assert_eq!(fr("1 500 000"), Ok(1_500_000));
        assert_eq!(fr("7.5B"), Ok(7_500_000_000), "a point with one or two decimals is a decimal point");
        assert!(matches!(fr("1.000"), Err(NumberError::Ambiguous { .. })));
        assert!(matches!(fr("1.000,5"), Err(NumberError::Ambiguous { .. })));
        assert_eq!(en("7.5B"), Ok(7_500_000_000));
        assert_eq!(en("7,000,000,000"), Ok(7_000_000_000));
        assert_eq!(en("1'000'000"), Ok(1_000_000));
        assert!(matches!(en("7,5B"), Err(NumberError::Ambiguous { suggestion }) if suggestion == "7.5"));
        assert!(matches!(en("1,50"), Err(NumberError::Ambiguous { .. })));
        assert_eq!(en("7e9"), Ok(7_000_000_000));
        assert_eq!(en("1.5e9"), Ok(1_500_000_000));
        let tok = |s, l| parse_number(s, l, Quantity::Tokens);
        assert_eq!(tok("8,5k", Lang::Fr), Ok(8704));
        assert_eq!(tok("8.5k", Lang::En), Ok(8704));
        assert_eq!(tok("32k", Lang::En), Ok(32_768));
        assert_eq!(tok("1M", Lang::En), Ok(1 << 20));
        assert_eq!(tok("1.5", Lang::En), Err(NumberError::NotWhole));
        assert!(matches!(tok("4B", Lang::En), Err(NumberError::UnknownUnit(_))));
        assert!(matches!(tok("8,5k", Lang::En), Err(NumberError::Ambiguous { .. })));
        assert_eq!(tok("", Lang::En), Err(NumberError::Empty));
        assert_eq!(tok("abc", Lang::En), Err(NumberError::UnknownUnit("abc".into())));
        assert_eq!(tok("9", Lang::En), Ok(9));
        assert_eq!(
            parse_number("99999999999999999999999", Lang::En, Quantity::Tokens),
            Err(NumberError::TooLarge)
        );
    }

    proptest! {
        #[test]
        fn what_the_page_writes_reads_back(n in any::<u64>(), fr in any::<bool>()) {
            let lang = if fr { Lang::Fr } else { Lang::En };
            prop_assert_eq!(parse_number(&format_int(n, lang), lang, Quantity::Tokens), Ok(n));
            if n > 0 {
                let p = crate::units::Params::new(n);
                prop_assert_eq!(parse_number(&format_params_in(p, lang), lang, Quantity::Params), Ok(n));
            }
        }
    }
}
