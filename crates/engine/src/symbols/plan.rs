//! Pure planning of symbol replace / insert: the new file text, and the byte edit for incremental re-parsing.

use super::languages::{spec, Syntax};
use super::locate::{line_start, starts_line};
use super::{Language, LeadingKind, SymbolInfo};
use crate::lines::{detect_base_indent, reindent};

/// One contiguous byte edit: `old[start_byte..old_end_byte]` became `new[start_byte..new_end_byte]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteEdit {
    pub start_byte: usize,
    pub old_end_byte: usize,
    pub new_end_byte: usize,
}

/// The outcome of planning a symbol edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolEditPlan {
    /// The whole new file text (LF).
    pub new_source: String,
    /// Lines of new text written (Probe's "now N lines" / "inserted N lines"), counting kept leading parts.
    pub new_line_count: usize,
    /// 1-based line Probe reports: for insert after, `end_line + 1`; before, `start_line`; for a replace, the
    /// line where the new text starts.
    pub insert_line: usize,
    /// The single byte edit that turns the old text into `new_source`.
    pub edit: ByteEdit,
}

/// Replaces `sym` with `new_string`, reindented to the symbol's indentation.
///
/// When the symbol occupies whole lines, those lines are replaced; otherwise only its bytes, so code sharing
/// its first or last line survives (unless `new_string` starts/ends with that code, as when the model
/// restates `code`, which holds whole lines). Rule 9: a leading part of the old range (doc comment, decorators or
/// attributes, `export`/`pub` wrapper) that `new_string` does not restate is kept; one it restates is replaced.
/// A blank `new_string` deletes the symbol with all its leading parts. Never panics: out-of-range offsets are
/// clamped to the source.
pub fn plan_replace(source: &str, sym: &SymbolInfo, new_string: &str) -> SymbolEditPlan {
    let (start, end) = clamp_range(source, sym.start_byte, sym.end_byte);
    let ls = line_start(source, start);
    let le = next_newline(source, end);
    let target = leading_ws(&source[ls..]);
    let text = if new_string.trim().is_empty() {
        String::new()
    } else {
        let mut body = reindent(new_string, target);
        if matches!(sym.language, Language::C | Language::Cpp) {
            body = directives_at_column_0(new_string, body);
        }
        restore_leading(source, sym, &body, &spec(sym.language).syntax)
    };
    // Code sharing the first/last line stays, unless the new text restates it (it was shown in `code`).
    // A tail the symbol itself also ends with (`}` after a method of a one-line class) counts as
    // restated only with the head or the whole last line: the symbol's own `}` is no restatement.
    let head = source[ls..start].trim();
    let tail = source[end..le].trim();
    let last_line = source[line_start(source, end)..le].trim();
    let restated_head = !head.is_empty() && text.trim_start().starts_with(head);
    let own_ending = source[start..end].ends_with(tail);
    let whole_start = head.is_empty() || restated_head;
    let whole_end = tail.is_empty()
        || text.trim_end().ends_with(last_line)
        || (text.trim_end().ends_with(tail) && (restated_head || !own_ending));
    let (region_start, region_end) = (
        if whole_start { ls } else { start },
        if whole_end { le } else { end },
    );
    let mut text = text;
    if !whole_start {
        let trimmed = text.trim_start_matches([' ', '\t']).len();
        text.drain(..text.len() - trimmed);
    }
    let new_line_count = text.split('\n').count();
    let insert_line = line_of(source, region_start);
    spliced(
        source,
        region_start..region_end,
        &text,
        new_line_count,
        insert_line,
    )
}

/// C/C++: the `#` directive lines that `new_string` writes at column 0 stay there after reindenting
/// (`body` is `new_string` reindented, line for line).
fn directives_at_column_0(new_string: &str, body: String) -> String {
    if !new_string.split('\n').any(|l| l.starts_with('#')) {
        return body;
    }
    let given: Vec<&str> = new_string.split('\n').collect();
    let lines: Vec<&str> = body.split('\n').collect();
    if given.len() != lines.len() {
        return body;
    }
    let kept: Vec<&str> = lines
        .iter()
        .zip(&given)
        .map(|(line, g)| if g.starts_with('#') { *g } else { *line })
        .collect();
    kept.join("\n")
}

/// Inserts `new_string` before or after `sym` with Probe's splice: after = a blank line, then the new lines,
/// after the symbol's last line; before = the new lines, then a blank line, before its first line. The new
/// text is reindented to the symbol's base indentation. Never panics.
pub fn plan_insert(
    source: &str,
    sym: &SymbolInfo,
    new_string: &str,
    before: bool,
) -> SymbolEditPlan {
    let (start, end) = clamp_range(source, sym.start_byte, sym.end_byte);
    let indent = detect_base_indent(&sym.code);
    let body = reindent(new_string, indent);
    let new_line_count = body.split('\n').count();
    let (pos, text, insert_line) = if before {
        (
            line_start(source, start),
            format!("{body}\n\n"),
            line_of(source, start),
        )
    } else {
        let pos = next_newline(source, end);
        (pos, format!("\n\n{body}"), line_of(source, pos) + 1)
    };
    spliced(source, pos..pos, &text, new_line_count, insert_line)
}

/// The plan that puts `text` in place of `source[region]`, with the edit tree-sitter needs to
/// re-parse incrementally.
fn spliced(
    source: &str,
    region: std::ops::Range<usize>,
    text: &str,
    new_line_count: usize,
    insert_line: usize,
) -> SymbolEditPlan {
    SymbolEditPlan {
        new_source: splice(source, region.start, region.end, text),
        new_line_count,
        insert_line,
        edit: ByteEdit {
            start_byte: region.start,
            old_end_byte: region.end,
            new_end_byte: region.start + text.len(),
        },
    }
}

/// The index of the first `\n` at or after `pos`, or the source length.
fn next_newline(source: &str, pos: usize) -> usize {
    memchr::memchr(b'\n', &source.as_bytes()[pos..]).map_or(source.len(), |i| pos + i)
}

fn splice(source: &str, from: usize, to: usize, text: &str) -> String {
    let mut out = String::with_capacity(source.len() + text.len());
    out.push_str(&source[..from]);
    out.push_str(text);
    out.push_str(&source[to..]);
    out
}

/// `start..end` clamped into the source and onto char boundaries, with `start <= end`.
fn clamp_range(source: &str, start: usize, end: usize) -> (usize, usize) {
    let fix = |mut p: usize| {
        p = p.min(source.len());
        while !source.is_char_boundary(p) {
            p -= 1;
        }
        p
    };
    let s = fix(start);
    (s, fix(end).max(s))
}

/// 1-based line number of byte `pos`.
fn line_of(source: &str, pos: usize) -> usize {
    memchr::memchr_iter(b'\n', &source.as_bytes()[..pos.min(source.len())]).count() + 1
}

fn leading_ws(line: &str) -> &str {
    let rest = line.trim_start_matches([' ', '\t']);
    &line[..line.len() - rest.len()]
}

/// Puts back the leading parts of `sym` that `body` (already reindented) leaves out.
fn restore_leading(source: &str, sym: &SymbolInfo, body: &str, syntax: &Syntax) -> String {
    let pre = scan_preamble(body, syntax);
    let kept = |kind: LeadingKind, restated: bool| -> String {
        if restated {
            return String::new();
        }
        sym.leading
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| part_text(source, p.start_byte, p.end_byte))
            .collect()
    };
    let doc = kept(LeadingKind::DocComment, pre.comment);
    let dec = kept(LeadingKind::Decorators, pre.decorator);
    let modifier = kept(LeadingKind::Modifier, pre.modifier);
    if doc.is_empty() && dec.is_empty() && modifier.is_empty() {
        return body.to_string();
    }
    // Whole-line texts (and empty ones) go to the start of the line, inline texts right before the token.
    let at = |text: &str, pos: usize| {
        if (text.is_empty() || text.ends_with('\n')) && starts_line(body, pos) {
            line_start(body, pos)
        } else {
            pos
        }
    };
    let p_doc = at(&doc, pre.first);
    let p_dec = at(&dec, pre.after_comments).max(p_doc);
    let p_mod = pre.core.max(p_dec);
    let mut out = String::with_capacity(body.len() + doc.len() + dec.len() + modifier.len());
    out.push_str(&body[..p_doc]);
    out.push_str(&doc);
    out.push_str(&body[p_doc..p_dec]);
    out.push_str(&dec);
    out.push_str(&body[p_dec..p_mod]);
    out.push_str(&modifier);
    out.push_str(&body[p_mod..]);
    out
}

/// The text of a leading part as it should be re-inserted: whole lines (with their newline) when the part
/// starts a line and ends before the next line, else the exact bytes (e.g. `export `).
fn part_text(source: &str, start: usize, end: usize) -> String {
    let (start, end) = clamp_range(source, start, end);
    let raw = &source[start..end];
    if starts_line(source, start) && raw.contains('\n') {
        source[line_start(source, start)..line_start(source, end)].to_string()
    } else {
        raw.to_string()
    }
}

/// What the model's text states before the definition proper.
#[derive(Debug, Default)]
struct Preamble {
    comment: bool,
    decorator: bool,
    modifier: bool,
    /// First non-white-space byte.
    first: usize,
    /// First byte that is not white space or a comment.
    after_comments: usize,
    /// Where the definition proper starts (after comments, decorators and modifier words).
    core: usize,
}

/// Scans comments, decorators and export/visibility words at the start of `body`.
fn scan_preamble(body: &str, syn: &Syntax) -> Preamble {
    let mut pre = Preamble {
        first: skip_ws(body, 0),
        ..Preamble::default()
    };
    let mut after_comments: Option<usize> = None;
    let mut i = pre.first;
    loop {
        i = skip_ws(body, i);
        let rest = &body[i..];
        if let Some(m) = syn.decorators.iter().find(|m| rest.starts_with(**m)) {
            after_comments.get_or_insert(i);
            pre.decorator = true;
            i = skip_decorator(body, i, m);
        } else if let Some((open, close)) = syn
            .block_comments
            .iter()
            .find(|(o, _)| rest.starts_with(*o))
        {
            pre.comment = true;
            i = rest[open.len()..]
                .find(close)
                .map_or(body.len(), |k| i + open.len() + k + close.len());
        } else if syn.line_comments.iter().any(|c| rest.starts_with(*c)) {
            pre.comment = true;
            i = rest.find('\n').map_or(body.len(), |k| i + k);
        } else if let Some(w) = syn.modifiers.iter().find(|w| starts_with_word(rest, w)) {
            after_comments.get_or_insert(i);
            pre.modifier = true;
            i += w.len();
            if body[i..].starts_with('(') {
                i = skip_balanced(body, i, b'(', b')');
            }
        } else {
            break;
        }
    }
    pre.core = i.min(body.len());
    pre.after_comments = after_comments.unwrap_or(pre.core);
    pre
}

fn starts_with_word(rest: &str, word: &str) -> bool {
    rest.starts_with(word)
        && !rest[word.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Skips a decorator starting at `i` with `marker` (`@name(args)`, `#[...]`, `[...]`).
fn skip_decorator(body: &str, i: usize, marker: &str) -> usize {
    if marker.ends_with('[') {
        return skip_balanced(body, i + marker.len() - 1, b'[', b']');
    }
    let bytes = body.as_bytes();
    let mut j = i + marker.len();
    while j < bytes.len()
        && (bytes[j].is_ascii_alphanumeric() || b"_.:$".contains(&bytes[j]) || bytes[j] >= 0x80)
    {
        j += 1;
    }
    if j < bytes.len() && bytes[j] == b'(' {
        j = skip_balanced(body, j, b'(', b')');
    }
    j
}

/// From an opening bracket at `i`, the index just past its matching close (strings skipped), or the end.
fn skip_balanced(body: &str, i: usize, open: u8, close: u8) -> usize {
    let bytes = body.as_bytes();
    let mut depth = 0usize;
    let mut j = i;
    while j < bytes.len() {
        let b = bytes[j];
        if b == b'"' || b == b'\'' || b == b'`' {
            j += 1;
            while j < bytes.len() && bytes[j] != b {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
        } else if b == open {
            depth += 1;
        } else if b == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return (j + 1).min(bytes.len());
            }
        }
        j += 1;
    }
    bytes.len()
}

fn skip_ws(body: &str, i: usize) -> usize {
    let bytes = body.as_bytes();
    let mut j = i.min(bytes.len());
    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
        j += 1;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::languages::spec;
    use crate::symbols::Language;

    fn scan(body: &str, lang: Language) -> (bool, bool, bool, usize, usize, usize) {
        let p = scan_preamble(body, &spec(lang).syntax);
        (
            p.comment,
            p.decorator,
            p.modifier,
            p.first,
            p.after_comments,
            p.core,
        )
    }

    #[test]
    fn preamble_of_plain_definition() {
        assert_eq!(
            scan("  function f() {}", Language::JavaScript),
            (false, false, false, 2, 2, 2)
        );
    }

    #[test]
    fn preamble_with_doc_decorator_and_export() {
        let body = "/** d */\n@dec({ a: \")\" })\nexport default class X {}";
        assert_eq!(
            scan(body, Language::TypeScript),
            (true, true, true, 0, 9, 41)
        );
        assert_eq!(&body[41..], "class X {}");
    }

    #[test]
    fn preamble_rust_attributes_and_pub_crate() {
        let body = "/// d\n#[derive(Debug, \"]\")]\npub(crate) async fn f() {}";
        let (c, d, m, _, after, core) = scan(body, Language::Rust);
        assert!(c && d && m);
        assert_eq!(
            &body[after..],
            "#[derive(Debug, \"]\")]\npub(crate) async fn f() {}"
        );
        assert_eq!(&body[core..], "async fn f() {}");
    }

    #[test]
    fn preamble_php_attribute_is_not_a_hash_comment() {
        let (c, d, ..) = scan("#[Route]\nfunction f() {}", Language::Php);
        assert_eq!((c, d), (false, true));
        let (c, d, ..) = scan("# note\nfunction f() {}", Language::Php);
        assert_eq!((c, d), (true, false));
    }

    #[test]
    fn preamble_word_boundaries() {
        // `exports` and `public` are not the `export` / `pub` wrappers.
        assert!(!scan("exports.f = 1", Language::JavaScript).2);
        assert!(!scan("public fn", Language::Rust).2);
        assert!(scan("--[[ block ]] function f() end", Language::Lua).0);
    }

    #[test]
    fn unterminated_constructs_stop_at_the_end() {
        assert_eq!(scan("/* open", Language::C).5, 7);
        assert_eq!(scan("@dec(\"x", Language::Python).5, 7);
        assert_eq!(scan("#[attr", Language::Rust).5, 6);
    }

    #[test]
    fn clamp_range_handles_out_of_range_and_char_boundaries() {
        assert_eq!(clamp_range("héllo", 2, 100), (1, 6));
        assert_eq!(clamp_range("abc", 5, 1), (3, 3));
    }
}
