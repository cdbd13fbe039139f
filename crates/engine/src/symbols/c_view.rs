//! C and C++ sources as the compiler sees one configuration of them, for files whose whole parse breaks
//! on the preprocessor: `#` directives, both branches of an `#if` in one function, or an annotation macro
//! (`class LEVELDB_EXPORT Cache`, `FMT_CONSTEXPR auto f()`).
//!
//! A view is the source with the same length and the same line breaks, where directive lines, the `#if`
//! branches not taken and bare annotation macros are spaces. Offsets found in a view are offsets of the
//! source. Two views are searched: the first branch of every `#if` and the last one, so a name defined in
//! both branches is found twice (and refused as ambiguous, listing both).

use super::grammar::Language;
use super::locate::{line_end, line_start};
use super::SymbolInfo;

/// The branch of every `#if` group a view keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Branch {
    First,
    Last,
}

/// The definitions named `name` in the views of `source`, deduplicated by range, with their ranges and
/// code taken from `source`; `None` when the views hold none.
pub(super) fn find_in_views(source: &str, lang: Language, name: &str) -> Option<Vec<SymbolInfo>> {
    let mut found: Vec<SymbolInfo> = Vec::new();
    for branch in [Branch::First, Branch::Last] {
        let view = view(source, branch);
        let Ok(symbols) = super::locate::find_without_views(&view, lang, name) else {
            continue;
        };
        for sym in symbols {
            let sym = restored(source, &view, sym);
            if !holds_whole_groups(&source[sym.start_byte..sym.end_byte]) {
                continue; // replacing it would cut an `#if` group apart
            }
            if !found.iter().any(|f| f.start_byte == sym.start_byte) {
                found.push(sym);
            }
        }
    }
    found.sort_by_key(|s| s.start_byte);
    (!found.is_empty()).then_some(found)
}

/// Whether every `#if` group with a directive line in `text` lies wholly in it.
fn holds_whole_groups(text: &str) -> bool {
    let mut depth = 0usize;
    for line in text.lines() {
        match directive(line) {
            Some("if" | "ifdef" | "ifndef") => depth += 1,
            Some("elif" | "elifdef" | "elifndef" | "else") if depth == 0 => return false,
            Some("endif") if depth == 0 => return false,
            Some("endif") => depth -= 1,
            _ => {}
        }
    }
    depth == 0
}

/// `source` with directive lines, the `#if` branches other than `branch`, and annotation macros blanked.
fn view(source: &str, branch: Branch) -> String {
    let mut out = source.as_bytes().to_vec();
    blank_directives(source, branch, &mut out);
    blank_annotation_macros(&mut out);
    // Only ASCII bytes were replaced by spaces, so the text stays UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| source.to_string())
}

/// Blanks every directive line (with its `\` continuations) and, in each `#if` group, every branch but the
/// one `branch` keeps.
fn blank_directives(source: &str, branch: Branch, out: &mut [u8]) {
    let mut groups: Vec<GroupState> = Vec::new();
    let mut pos = 0;
    let bytes = source.as_bytes();
    while pos < bytes.len() {
        let end = logical_line_end(bytes, pos);
        let line = &source[pos..end];
        match directive(line) {
            Some(word) => {
                on_directive(word, branch, &mut groups, out);
                blank(out, pos, end);
            }
            None => {
                for g in &mut groups {
                    g.lines.push((pos, end));
                }
                if groups.iter().any(|g| g.skipping) {
                    blank(out, pos, end);
                }
            }
        }
        pos = end + 1;
    }
}

/// One open `#if` group: whether its current branch is skipped, and the spans of that branch's lines,
/// nested groups' included (`Last` blanks a branch when a later one begins).
struct GroupState {
    skipping: bool,
    lines: Vec<(usize, usize)>,
}

/// Opens, switches or closes the `#if` group a directive line belongs to.
fn on_directive(word: &str, branch: Branch, groups: &mut Vec<GroupState>, out: &mut [u8]) {
    match word {
        "if" | "ifdef" | "ifndef" => groups.push(GroupState {
            skipping: false,
            lines: Vec::new(),
        }),
        "elif" | "elifdef" | "elifndef" | "else" => {
            if let Some(g) = groups.last_mut() {
                match branch {
                    Branch::First => g.skipping = true,
                    Branch::Last => {
                        for &(s, e) in &g.lines {
                            blank(out, s, e);
                        }
                    }
                }
                g.lines.clear();
            }
        }
        "endif" => {
            groups.pop();
        }
        _ => {}
    }
}

/// The directive word of a line that starts with `#` (after white space), e.g. `ifdef`.
fn directive(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches([' ', '\t']).strip_prefix('#')?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let end = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// The end of the line at `pos`, following `\` continuations (the index of its `\n`, or the length).
fn logical_line_end(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        let nl = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
        let continued = nl > pos && bytes[nl - 1] == b'\\'
            || nl > pos + 1 && bytes[nl - 1] == b'\r' && bytes[nl - 2] == b'\\';
        if !continued || nl >= bytes.len() {
            return nl;
        }
        pos = nl + 1;
    }
}

/// Replaces every byte but line breaks in `out[from..to]` with a space.
fn blank(out: &mut [u8], from: usize, to: usize) {
    let to = to.min(out.len());
    for b in &mut out[from..to] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// Blanks bare upper-case identifiers that stand where no expression can (`class EXPORT Name`,
/// `MACRO int f()`, `f() NOEXCEPT {`, a statement-level `BEGIN_NAMESPACE`, `if CONSTEXPR (`):
/// before another word, between a statement boundary and `;`, `{`, `}` or the end, or between `if`
/// and its condition. Comments and strings are left alone.
fn blank_annotation_macros(out: &mut [u8]) {
    let mut i = 0;
    while i < out.len() {
        match out[i] {
            b'/' if out.get(i + 1) == Some(&b'/') => i = skip_to(out, i, b"\n"),
            b'/' if out.get(i + 1) == Some(&b'*') => i = skip_to(out, i + 2, b"*/"),
            b'"' | b'\'' => i = skip_literal(out, i),
            b if is_ident_start(b) => {
                let end = ident_end(out, i);
                if is_macro_word(&out[i..end]) {
                    if let Some(close) = trailing_annotation(out, i, end) {
                        blank(out, i, close);
                    } else if stands_alone(out, i, end) {
                        blank(out, i, end);
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn ident_end(out: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < out.len() && (out[j].is_ascii_alphanumeric() || out[j] == b'_') {
        j += 1;
    }
    j
}

/// Upper-case letters, digits and `_`, at least two letters (`EXPORT`, `FMT_API`), not a keyword-like
/// single letter.
fn is_macro_word(word: &[u8]) -> bool {
    word.iter().filter(|b| b.is_ascii_uppercase()).count() >= 2
        && word
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Whether the word at `start..end` is in a place only an annotation macro can be.
fn stands_alone(out: &[u8], start: usize, end: usize) -> bool {
    let next = out[end..]
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .copied();
    let prev = out[..start]
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .copied();
    let before_word = next.is_some_and(is_ident_start);
    let at_boundary = matches!(prev, None | Some(b';' | b'{' | b'}' | b')'));
    let before_end = matches!(next, None | Some(b';' | b'{' | b'}'));
    let after_if = next == Some(b'(')
        && out[..start].trim_ascii_end().ends_with(b"if")
        && !out[..start]
            .trim_ascii_end()
            .iter()
            .rev()
            .nth(2)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
    before_word && !matches!(prev, Some(b'.' | b'>' | b':'))
        || at_boundary && before_end
        || after_if
}

/// For `NAME(args)` right after a declarator and before `;`, `=`, `{` or another word (`bool on_
/// GUARDED_BY(mu_);`, `void f() NOEXCEPT_IF(x) {`; after a `)`, only before `{` or a word, as a
/// cast's operand is followed by anything else): the index just past its `)`.
fn trailing_annotation(out: &[u8], start: usize, end: usize) -> Option<usize> {
    let open = end + out[end..].iter().position(|b| !b.is_ascii_whitespace())?;
    if out[open] != b'(' {
        return None;
    }
    let before = out[..start].trim_ascii_end();
    let prev = before.last()?;
    if !(prev.is_ascii_alphanumeric() || matches!(prev, b'_' | b')')) || ends_with_keyword(before) {
        return None;
    }
    let mut depth = 0usize;
    for (k, &b) in out[open..].iter().enumerate().take(4096) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    let close = open + k + 1;
                    let next = out[close..].iter().find(|b| !b.is_ascii_whitespace());
                    let fits = next.is_some_and(|&n| {
                        is_ident_start(n) || n == b'{' || *prev != b')' && matches!(n, b';' | b'=')
                    });
                    return fits.then_some(close);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

/// Whether `text` ends with a C/C++ keyword that an expression or a condition follows.
fn ends_with_keyword(text: &[u8]) -> bool {
    let start = text
        .iter()
        .rposition(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .map_or(0, |i| i + 1);
    const KEYWORDS: &[&[u8]] = &[
        b"if",
        b"while",
        b"for",
        b"switch",
        b"return",
        b"case",
        b"sizeof",
        b"else",
        b"do",
        b"throw",
        b"new",
        b"delete",
        b"goto",
        b"typeof",
        b"alignof",
        b"decltype",
        b"co_return",
        b"co_yield",
        b"constexpr",
    ];
    KEYWORDS.contains(&&text[start..])
}

/// The index just past `close` (searched from `from`), or the end.
fn skip_to(out: &[u8], from: usize, close: &[u8]) -> usize {
    memchr::memmem::find(&out[from..], close).map_or(out.len(), |k| from + k + close.len())
}

/// The index just past the string or character literal opening at `i` (an unclosed one ends its line).
fn skip_literal(out: &[u8], i: usize) -> usize {
    let quote = out[i];
    let mut j = i + 1;
    while j < out.len() && out[j] != quote && out[j] != b'\n' {
        j += if out[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(out.len())
}

/// A symbol found in `view`, moved back onto `source`: a start after blanked annotation macros on its
/// own line begins at the line's first macro instead, and `code` is the source's text.
fn restored(source: &str, view: &str, mut sym: SymbolInfo) -> SymbolInfo {
    let ls = line_start(source, sym.start_byte);
    if view[ls..sym.start_byte].trim().is_empty() {
        let lead = source[ls..sym.start_byte].len() - source[ls..sym.start_byte].trim_start().len();
        sym.start_byte = ls + lead;
    }
    let code_end = line_end(source, sym.end_byte);
    sym.code = source[line_start(source, sym.start_byte)..code_end].to_string();
    sym
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_keeps_lengths_and_line_breaks() {
        let src = "#if A\nint f() {}\n#else\nlong f() {}\n#endif\nclass API_EXPORT C {};\n";
        for branch in [Branch::First, Branch::Last] {
            let v = view(src, branch);
            assert_eq!(v.len(), src.len());
            assert_eq!(v.matches('\n').count(), src.matches('\n').count());
        }
        assert!(view(src, Branch::First).contains("int f() {}"));
        assert!(!view(src, Branch::First).contains("long f"));
        assert!(view(src, Branch::Last).contains("long f() {}"));
        assert!(!view(src, Branch::Last).contains("int f"));
        assert!(view(src, Branch::First).contains("class            C {};"));
        let src = "int f() {\n  if CONSTEXPR20 (n) return 1;\n  endif (X);\n}\n";
        assert!(view(src, Branch::First).contains("if             (n)"));
        assert!(view(src, Branch::First).contains("endif (X)"));
        let src = "class A {\n  bool on_ GUARDED_BY(mu_);\n  int n_ GUARDED_BY(mu_) = 0;\n};\n";
        assert_eq!(
            view(src, Branch::First),
            "class A {\n  bool on_                ;\n  int n_                 = 0;\n};\n"
        );
    }

    #[test]
    fn a_range_must_hold_whole_groups() {
        assert!(holds_whole_groups(
            "int f() {\n#if A\n  a();\n#else\n  b();\n#endif\n}"
        ));
        assert!(!holds_whole_groups("int f() {\n  a();\n#else\n  b();\n}"));
        assert!(!holds_whole_groups("#ifdef A\nint f() {\n}"));
    }

    #[test]
    fn constants_in_expressions_stay() {
        let src = "int f() {\n  return MAX_LEN + 1;\n  g(FLAG_A | FLAG_B);\n  x = y * SCALE;\n}\n";
        assert_eq!(view(src, Branch::First), src);
        let src = "void f() {\n  g((const char **)UNCONST(&p), 10);\n  if (FLAG_ON(x)) y();\n}\n";
        assert_eq!(view(src, Branch::First), src);
    }
}
