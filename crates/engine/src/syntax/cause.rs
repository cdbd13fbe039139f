//! The likely cause of an introduced error, in words a model acts on.

use super::introduced::{missing_closer, Window};
use super::problems::{Kind, RawProblem};
use crate::symbols::Language;

/// The edit's texts: what the window held before and holds after.
pub(crate) struct Change<'a> {
    pub old: &'a [u8],
    pub new: &'a [u8],
}

impl<'a> Change<'a> {
    pub fn of(before: &'a str, after: &'a str, w: &Window) -> Self {
        Change {
            old: &before.as_bytes()[w.start..w.old_end],
            new: &after.as_bytes()[w.start..w.new_end],
        }
    }
}

const PAIRS: [(u8, u8, &str); 3] = [
    (b'{', b'}', "braces"),
    (b'(', b')', "parentheses"),
    (b'[', b']', "brackets"),
];

/// The likely cause of `p`, an error of `after` (the edited text of a `lang` file).
pub(crate) fn likely_cause(lang: Language, after: &str, p: &RawProblem, change: &Change) -> String {
    if let Kind::Indent(rule) = p.kind {
        return format!("indentation: {rule}");
    }
    if let Some(closer) = missing_closer(&p.kind) {
        let (_, _, name) = PAIRS
            .iter()
            .find(|(_, c, _)| [*c] == closer.as_bytes())
            .copied()
            .unwrap_or(PAIRS[0]);
        return format!("unbalanced {name}: a closing `{closer}` is missing");
    }
    if let Some(text) = bracket_imbalance(change) {
        return text;
    }
    if let Some(text) = open_string(lang, p, change) {
        return text;
    }
    if let Kind::Missing(token) = &p.kind {
        return format!("missing `{token}`");
    }
    format!("syntax error near `{}`", near(after, p))
}

/// Whether `p` is a mistake no grammar gap explains: a broken indentation rule, a missing closing
/// bracket, or an edit that changed the balance of brackets or the parity of quotes.
pub(crate) fn is_clear_mistake(lang: Language, p: &RawProblem, change: &Change) -> bool {
    matches!(p.kind, Kind::Indent(_))
        || missing_closer(&p.kind).is_some()
        || bracket_imbalance(change).is_some()
        || open_string(lang, p, change).is_some()
}

/// "unbalanced braces: the edit adds 1 more `{` than `}`" when the edit changed a pair's balance.
fn bracket_imbalance(change: &Change) -> Option<String> {
    let balance = |text: &[u8], open: u8, close: u8| {
        let count = |b: u8| text.iter().filter(|&&x| x == b).count() as i64;
        count(open) - count(close)
    };
    PAIRS.iter().find_map(|&(open, close, name)| {
        let delta = balance(change.new, open, close) - balance(change.old, open, close);
        let (more, fewer) = if delta > 0 {
            (open, close)
        } else {
            (close, open)
        };
        (delta != 0).then(|| {
            format!(
                "unbalanced {name}: the edit adds {} more `{}` than `{}`",
                delta.abs(),
                more as char,
                fewer as char
            )
        })
    })
}

/// "unterminated string" when the error is a missing quote, or the edit changed the parity of a quote
/// character the language delimits strings with.
fn open_string(lang: Language, p: &RawProblem, change: &Change) -> Option<String> {
    if let Kind::Missing(token) = &p.kind {
        if matches!(token.as_str(), "\"" | "'" | "`" | "\"\"\"") {
            return Some(format!("unterminated string: a closing {token} is missing"));
        }
    }
    let quotes: &[u8] = match lang {
        Language::Rust
        | Language::C
        | Language::Cpp
        | Language::Java
        | Language::CSharp
        | Language::Kotlin
        | Language::Scala
        | Language::Swift
        | Language::Zig => b"\"",
        Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Go => b"\"'`",
        _ => b"\"'",
    };
    let quote = quotes
        .iter()
        .find(|&&q| unescaped(change.new, q) % 2 != unescaped(change.old, q) % 2)?;
    Some(format!(
        "unterminated string: the edit leaves an unmatched {}",
        *quote as char
    ))
}

/// Occurrences of `quote` in `text` not preceded by a backslash.
fn unescaped(text: &[u8], quote: u8) -> usize {
    (0..text.len())
        .filter(|&i| text[i] == quote && (i == 0 || text[i - 1] != b'\\'))
        .count()
}

/// The start of the error's own text (one line, at most 30 characters), else the line it is on.
fn near(after: &str, p: &RawProblem) -> String {
    let own = after
        .get(p.start..p.end.min(after.len()))
        .unwrap_or("")
        .trim();
    let text = match own.lines().next() {
        Some(first) if !first.is_empty() => first,
        _ => line_at(after, p.start).trim(),
    };
    shorten(text, 30)
}

/// The line holding byte `pos`.
pub(crate) fn line_at(text: &str, pos: usize) -> &str {
    let pos = pos.min(text.len());
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    &text[start..end]
}

/// `text` cut to `max` characters, with `...` when cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}
