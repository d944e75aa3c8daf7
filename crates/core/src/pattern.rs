//! The module-name patterns quantization configs use: Python regular expressions (`re:` entries of
//! compressed-tensors, GPTQModel's `dynamic` keys), shell wildcards (ModelOpt's
//! `exclude_modules`, gpt-oss's `modules_to_not_convert`, Quark's `exclude`).
//!
//! The regex dialect is the subset these configs are written in: literals and escapes (`\.`,
//! `\d`, `\w`, `\s` and their negations), `.`, classes (`[0-9]`, `[^.]`), groups (`(…)`,
//! `(?:…)`), alternation, the quantifiers `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (a trailing `?`
//! for laziness changes nothing for a yes/no match), and the anchors `^` and `$`. Anything else is
//! refused with the reason, never silently misread. Matching backtracks within a step budget, so a
//! hostile pattern (`(a*)*b`) ends in bounded time with an error.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The longest pattern accepted.
pub const MAX_PATTERN: usize = 512;

/// Steps one match may take before it is given up as too costly.
const STEP_BUDGET: u32 = 200_000;

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Char(char),
    Any,
    Class { ranges: Vec<(char, char)>, negated: bool },
    Start,
    End,
    Group(Vec<Vec<Node>>),
    Repeat { node: Box<Node>, min: u32, max: Option<u32> },
}

/// A compiled regular expression, matched as Python's `re.match` does (anchored at the start).
#[derive(Clone, Debug, PartialEq)]
pub struct Regex {
    alts: Vec<Vec<Node>>,
}

/// Why a match could not be decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooCostly;

impl Regex {
    /// Compiles a pattern.
    ///
    /// # Errors
    /// A sentence saying what is wrong and where.
    pub fn new(pattern: &str) -> Result<Regex, String> {
        if pattern.len() > MAX_PATTERN {
            return Err(format!("the pattern is longer than {MAX_PATTERN} characters"));
        }
        let chars: Vec<char> = pattern.chars().collect();
        let mut p = Parser { s: &chars, i: 0, depth: 0 };
        let alts = p.alternation()?;
        if p.i < chars.len() {
            return Err(format!("unbalanced `)` at character {}", p.i + 1));
        }
        Ok(Regex { alts })
    }

    /// Whether the pattern matches at the start of `text` (Python's `re.match`).
    ///
    /// # Errors
    /// [`TooCostly`] when backtracking exceeds the step budget.
    pub fn matches_start(&self, text: &str) -> Result<bool, TooCostly> {
        let s: Vec<char> = text.chars().collect();
        let mut steps = 0u32;
        let found = self.alts.iter().any(|seq| seq_match(seq, &s, 0, &mut steps, &mut |_, _| true));
        if steps > STEP_BUDGET { Err(TooCostly) } else { Ok(found) }
    }
}

struct Parser<'a> {
    s: &'a [char],
    i: usize,
    depth: u32,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn alternation(&mut self) -> Result<Vec<Vec<Node>>, String> {
        let mut alts = Vec::new();
        loop {
            alts.push(self.sequence()?);
            if self.peek() == Some('|') {
                self.i += 1;
            } else {
                return Ok(alts);
            }
        }
    }

    fn sequence(&mut self) -> Result<Vec<Node>, String> {
        let mut seq = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let atom = self.quantified(atom)?;
            seq.push(atom);
        }
        Ok(seq)
    }

    fn atom(&mut self) -> Result<Node, String> {
        let at = self.i + 1;
        let Some(c) = self.peek() else { return Err("the pattern ends early".into()) };
        self.i += 1;
        Ok(match c {
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '(' => {
                if self.s.get(self.i..self.i + 2) == Some(&['?', ':']) {
                    self.i += 2;
                } else if self.peek() == Some('?') {
                    return Err(format!(
                        "the group at character {at} uses a `(?` extension Headroom does not read"
                    ));
                }
                self.depth += 1;
                if self.depth > 32 {
                    return Err("groups are nested more than 32 deep".into());
                }
                let alts = self.alternation()?;
                if self.peek() != Some(')') {
                    return Err(format!("the group opened at character {at} is never closed"));
                }
                self.i += 1;
                self.depth -= 1;
                Node::Group(alts)
            }
            '[' => self.class(at)?,
            '\\' => self.escape(at)?,
            '*' | '+' | '?' | '{' => {
                return Err(format!("`{c}` at character {at} repeats nothing"));
            }
            c => Node::Char(c),
        })
    }

    fn escape(&mut self, at: usize) -> Result<Node, String> {
        let Some(e) = self.peek() else { return Err(format!("`\\` at character {at} escapes nothing")) };
        self.i += 1;
        let class = |ranges: &[(char, char)], negated: bool| Node::Class { ranges: ranges.to_vec(), negated };
        const DIGIT: &[(char, char)] = &[('0', '9')];
        const WORD: &[(char, char)] = &[('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
        const SPACE: &[(char, char)] = &[(' ', ' '), ('\t', '\r')];
        Ok(match e {
            'd' => class(DIGIT, false),
            'D' => class(DIGIT, true),
            'w' => class(WORD, false),
            'W' => class(WORD, true),
            's' => class(SPACE, false),
            'S' => class(SPACE, true),
            'n' => Node::Char('\n'),
            't' => Node::Char('\t'),
            c if c.is_ascii_alphanumeric() => {
                return Err(format!("the escape `\\{c}` at character {at} is not one Headroom reads"));
            }
            c => Node::Char(c),
        })
    }

    fn class(&mut self, at: usize) -> Result<Node, String> {
        let mut negated = false;
        if self.peek() == Some('^') {
            negated = true;
            self.i += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(format!("the class opened at character {at} is never closed"));
            };
            self.i += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                let Some(e) = self.peek() else {
                    return Err(format!("the class at character {at} ends early"));
                };
                self.i += 1;
                match e {
                    'd' => {
                        ranges.push(('0', '9'));
                        continue;
                    }
                    'w' => {
                        ranges.extend_from_slice(&[('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')]);
                        continue;
                    }
                    's' => {
                        ranges.extend_from_slice(&[(' ', ' '), ('\t', '\r')]);
                        continue;
                    }
                    e if e.is_ascii_alphanumeric() => {
                        return Err(format!(
                            "the escape `\\{e}` in the class at character {at} is not one Headroom reads"
                        ));
                    }
                    e => e,
                }
            } else {
                c
            };
            if self.peek() == Some('-') && self.s.get(self.i + 1).is_some_and(|n| *n != ']') {
                self.i += 1;
                let Some(hi) = self.peek() else {
                    return Err(format!("the class at character {at} ends early"));
                };
                self.i += 1;
                if hi < lo {
                    return Err(format!("the range `{lo}-{hi}` in the class at character {at} is reversed"));
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Ok(Node::Class { ranges, negated })
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let digits: String = self.s.get(start..self.i)?.iter().collect();
        digits.parse().ok()
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, String> {
        let at = self.i + 1;
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                let save = self.i;
                self.i += 1;
                let Some(lo) = self.number() else {
                    // Python reads a `{` that starts no count as a literal.
                    self.i = save;
                    return Ok(atom);
                };
                let hi = if self.peek() == Some(',') {
                    self.i += 1;
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(self.number().ok_or("a bad `{n,m}` count")?)
                    }
                } else {
                    Some(lo)
                };
                if self.peek() != Some('}') {
                    return Err(format!("the count at character {at} is not closed by `}}`"));
                }
                if hi.is_some_and(|h| h < lo) || lo > 1000 || hi.is_some_and(|h| h > 1000) {
                    return Err(format!("the count at character {at} is out of order or over 1000"));
                }
                (lo, hi)
            }
            _ => return Ok(atom),
        };
        if matches!(atom, Node::Start | Node::End) {
            return Err(format!("the quantifier at character {at} repeats an anchor"));
        }
        self.i += 1;
        if self.peek() == Some('?') {
            self.i += 1;
        }
        if matches!(self.peek(), Some('*' | '+' | '?')) {
            return Err(format!("multiple repeat at character {}", self.i + 1));
        }
        Ok(Node::Repeat { node: Box::new(atom), min, max })
    }
}

type Cont<'k> = dyn FnMut(usize, &mut u32) -> bool + 'k;

fn seq_match(seq: &[Node], s: &[char], i: usize, steps: &mut u32, k: &mut Cont<'_>) -> bool {
    match seq.split_first() {
        None => k(i, steps),
        Some((first, rest)) => node_match(first, s, i, steps, &mut |j, st| seq_match(rest, s, j, st, k)),
    }
}

fn node_match(n: &Node, s: &[char], i: usize, steps: &mut u32, k: &mut Cont<'_>) -> bool {
    *steps += 1;
    if *steps > STEP_BUDGET {
        return false;
    }
    match n {
        Node::Char(c) => s.get(i) == Some(c) && k(i + 1, steps),
        Node::Any => s.get(i).is_some_and(|c| *c != '\n') && k(i + 1, steps),
        Node::Class { ranges, negated } => {
            s.get(i).is_some_and(|c| ranges.iter().any(|(lo, hi)| lo <= c && c <= hi) != *negated)
                && k(i + 1, steps)
        }
        Node::Start => i == 0 && k(i, steps),
        Node::End => (i == s.len() || (i + 1 == s.len() && s[i] == '\n')) && k(i, steps),
        Node::Group(alts) => alts.iter().any(|seq| seq_match(seq, s, i, steps, k)),
        Node::Repeat { node, min, max } => repeat(node, *min, *max, 0, s, i, steps, k),
    }
}

#[allow(clippy::too_many_arguments)]
fn repeat(
    node: &Node,
    min: u32,
    max: Option<u32>,
    count: u32,
    s: &[char],
    i: usize,
    steps: &mut u32,
    k: &mut Cont<'_>,
) -> bool {
    if *steps > STEP_BUDGET {
        return false;
    }
    // Greedy: one more repetition first (never an empty one once the minimum is met), then stop.
    if max.is_none_or(|m| count < m)
        && node_match(node, s, i, steps, &mut |j, st| {
            (j != i || count < min) && repeat(node, min, max, count + 1, s, j, st, k)
        })
    {
        return true;
    }
    count >= min && k(i, steps)
}

/// Whether a shell wildcard (`*` any run, `?` one character, `[…]` a class with `!` for
/// negation, as Python's `fnmatch`) matches all of `text`. Byte-wise, without allocating: module
/// names are ASCII.
pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    // Iterative matching with one backtrack point for the last `*`: linear in practice.
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match glob_one(p, pi, t[ti]) {
            Some((adv, true)) => {
                pi += adv;
                ti += 1;
                continue;
            }
            Some((_, false)) => {}
            None if p.get(pi) == Some(&b'*') => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            None => {}
        }
        match star {
            Some((sp, st)) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    while p.get(pi) == Some(&b'*') {
        pi += 1;
    }
    pi == p.len()
}

/// The pattern element at `pi` against one byte: `(width, matched)`, or `None` for a `*` or the
/// pattern's end.
fn glob_one(p: &[u8], pi: usize, c: u8) -> Option<(usize, bool)> {
    match *p.get(pi)? {
        b'*' => None,
        b'?' => Some((1, true)),
        b'[' => {
            let close = p.iter().skip(pi + 2).position(|x| *x == b']').map(|q| q + pi + 2);
            let Some(close) = close else { return Some((1, c == b'[')) };
            let body = &p[pi + 1..close];
            let (neg, body) = match body.split_first() {
                Some((b'!', rest)) => (true, rest),
                _ => (false, body),
            };
            let mut hit = false;
            let mut j = 0;
            while j < body.len() {
                if j + 2 < body.len() && body[j + 1] == b'-' {
                    hit |= body[j] <= c && c <= body[j + 2];
                    j += 3;
                } else {
                    hit |= body[j] == c;
                    j += 1;
                }
            }
            Some((close + 1 - pi, hit != neg))
        }
        x => Some((1, x == c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, t: &str) -> bool {
        Regex::new(p).unwrap().matches_start(t).unwrap()
    }

    #[test]
    fn the_patterns_quantization_configs_use() {
        assert!(m(".*lm_head", "lm_head"));
        assert!(m(r".*mlp\.gate$", "model.layers.3.mlp.gate"));
        assert!(!m(r".*mlp\.gate$", "model.layers.3.mlp.gate_proj"));
        assert!(m(".*mlp.gate$", "model.layers.3.mlp.gate"));
        assert!(m(r"model\.layers\.0\..*", "model.layers.0.mlp.down_proj"));
        assert!(!m(r"model\.layers\.0\..*", "model.layers.10.mlp.down_proj"));
        assert!(m(r".*\.(q|k|v|o)_proj$", "model.layers.1.self_attn.k_proj"));
        assert!(!m(r".*\.(q|k|v|o)_proj$", "model.layers.1.self_attn.kv_a_proj"));
        assert!(m(r".*experts\.\d+\.(gate|up|down)_proj", "model.layers.4.mlp.experts.117.up_proj"));
        assert!(m("re_only_prefix", "re_only_prefix_and_more"), "re.match is anchored at the start only");
        assert!(!m("layers", "model.layers.0"), "re.match does not search");
        assert!(m(r"model.layers.[1-9][0-9]?\.mlp", "model.layers.42.mlp.experts"));
        assert!(m(r"(?:model\.)?visual.*", "visual.blocks.0.attn.qkv"));
        assert!(m(r"a{2,3}b", "aaab") && !m(r"a{2,3}b", "ab"));
        assert!(m(r"[^.]+\.weight", "lm_head.weight"));
        assert!(m("x*", ""));
    }

    #[test]
    fn bad_patterns_say_why() {
        for (p, why) in [
            ("(a", "never closed"),
            ("a)", "unbalanced"),
            ("[a-", "never closed"),
            ("*a", "repeats nothing"),
            (r"\p{L}", "not one Headroom reads"),
            ("(?P<x>a)", "extension"),
            ("a**", "multiple repeat"),
            ("[z-a]", "reversed"),
            ("a{3,1}", "out of order"),
        ] {
            let e = Regex::new(p).unwrap_err();
            assert!(e.contains(why), "{p}: {e}");
        }
        assert!(Regex::new(&"a".repeat(MAX_PATTERN + 1)).is_err());
    }

    #[test]
    fn hostile_backtracking_ends_in_bounded_time() {
        let r = Regex::new("(a*)*b").unwrap();
        assert_eq!(r.matches_start(&"a".repeat(40)), Err(TooCostly));
        let r = Regex::new("(x+x+)+y").unwrap();
        assert_eq!(r.matches_start(&"x".repeat(40)), Err(TooCostly));
    }

    #[test]
    fn wildcards_match_as_fnmatch() {
        assert!(glob_matches("model.layers.*.self_attn", "model.layers.12.self_attn"));
        assert!(glob_matches("*lm_head*", "lm_head"));
        assert!(glob_matches("model.layers.?.mlp*", "model.layers.3.mlp.experts"));
        assert!(!glob_matches("model.layers.?.mlp*", "model.layers.13.mlp"));
        assert!(glob_matches("*.mlp.gate", "model.layers.1.mlp.gate"));
        assert!(!glob_matches("*.mlp.gate", "model.layers.1.mlp.gate_proj"));
        assert!(
            glob_matches("layers.[0-2].*", "layers.1.x") && !glob_matches("layers.[!0-2].*", "layers.1.x")
        );
        assert!(!glob_matches("*a*a*a*a*b", &"a".repeat(60)));
    }
}
