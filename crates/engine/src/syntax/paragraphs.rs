//! Top-level paragraphs: the pieces of a file the guard parses alone instead of the whole file.
//!
//! A paragraph starts at the text's start, or at a line that follows a blank line and begins at column 0
//! with a word character or one of `$ @ # / "` (a definition, a decorator, an attribute, a comment), but
//! not with a word that continues a statement (`else`, `end`, `except`, ...). It runs to the next start.
//! This is a heuristic with no lexing: a multi-line string or an unindented block can hold such a line.
//! The guard therefore trusts a paragraph only when it parses alone without an error; see
//! [`super::scope`].

use std::collections::HashMap;
use std::ops::Range;

/// Words that begin a line continuing the statement above it, never a new one.
const CONTINUATIONS: &[&str] = &[
    "catch", "elif", "else", "elseif", "elsif", "end", "ensure", "except", "finally", "rescue",
    "until", "when",
];

/// Whether a paragraph starts at `at` (`at` must be a character boundary).
pub(crate) fn starts_at(text: &str, at: usize) -> bool {
    if at == 0 {
        return true;
    }
    let bytes = text.as_bytes();
    if at > bytes.len() || bytes[at - 1] != b'\n' {
        return false;
    }
    let opens = bytes.get(at).is_some_and(|&b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'@' | b'#' | b'/' | b'"')
    });
    opens && !continues(&text[at..]) && previous_line(text, at).trim().is_empty()
}

/// The last paragraph start at or before `pos`.
pub(crate) fn start_at_or_before(text: &str, pos: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = line_start(bytes, pos);
    while !starts_at(text, at) {
        at = line_start(bytes, at - 1);
    }
    at
}

/// The first paragraph start at or after `pos`; the text's length when there is none.
pub(crate) fn start_at_or_after(text: &str, pos: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = if pos == 0 || bytes.get(pos - 1) == Some(&b'\n') {
        pos
    } else {
        next_line(bytes, pos)
    };
    while at < bytes.len() && !starts_at(text, at) {
        at = next_line(bytes, at);
    }
    at.min(bytes.len())
}

/// The paragraphs of `text[range]` (the range's start is taken as one), as ranges of `text`.
pub(crate) fn split(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = range.start;
    while from < range.end {
        let to = start_at_or_after(text, next_line(text.as_bytes(), from)).min(range.end);
        out.push(from..to);
        from = to;
    }
    out
}

/// The paragraphs of `after[new]` whose text is not among the paragraphs of `before[old]` (each old
/// paragraph accounts for one equal new one): the only ones an edit between them can have broken.
pub(crate) fn changed(
    before: &str,
    old: Range<usize>,
    after: &str,
    new: Range<usize>,
) -> Vec<Range<usize>> {
    let mut unchanged: HashMap<&str, usize> = HashMap::new();
    for p in split(before, old) {
        *unchanged.entry(&before[p]).or_default() += 1;
    }
    split(after, new)
        .into_iter()
        .filter(|p| match unchanged.get_mut(&after[p.clone()]) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

fn continues(line: &str) -> bool {
    let word_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(line.len());
    CONTINUATIONS.contains(&&line[..word_end])
}

/// The line before the one starting at `at` (`at > 0`), without its `\n`.
fn previous_line(text: &str, at: usize) -> &str {
    let end = at - 1;
    &text[line_start(text.as_bytes(), end)..end]
}

/// The start of the line holding `pos`.
fn line_start(bytes: &[u8], pos: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..pos]).map_or(0, |i| i + 1)
}

/// The start of the line after the one holding `pos`; the length when it is the last.
fn next_line(bytes: &[u8], pos: usize) -> usize {
    memchr::memchr(b'\n', &bytes[pos.min(bytes.len())..]).map_or(bytes.len(), |i| pos + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "import a\n\ndef f():\n    x = 1\n\n    return x\n\n@d\ndef g():\n    pass\nelse\n\nelse:\n    pass\n";

    #[test]
    fn paragraphs_start_at_column_zero_after_a_blank_line() {
        let starts: Vec<usize> = split(SRC, 0..SRC.len()).iter().map(|r| r.start).collect();
        let lines: Vec<&str> = starts
            .iter()
            .map(|&s| SRC[s..].lines().next().unwrap())
            .collect();
        assert_eq!(lines, ["import a", "def f():", "@d"]);
    }

    #[test]
    fn a_position_finds_the_paragraph_around_it() {
        let inside = SRC.find("return").unwrap();
        assert_eq!(start_at_or_before(SRC, inside), SRC.find("def f").unwrap());
        assert_eq!(start_at_or_after(SRC, inside), SRC.find("@d").unwrap());
        let at_start = SRC.find("@d").unwrap();
        assert_eq!(start_at_or_before(SRC, at_start), at_start);
        assert_eq!(start_at_or_after(SRC, at_start), at_start);
        assert_eq!(start_at_or_after(SRC, at_start + 1), SRC.len());
    }

    #[test]
    fn only_paragraphs_not_found_before_are_changed() {
        let before = "a\n\nb\n\nc\n";
        let after = "a\n\nc\n\nb2\n\nc\n";
        let changed: Vec<&str> = changed(before, 0..before.len(), after, 0..after.len())
            .into_iter()
            .map(|r| &after[r])
            .collect();
        assert_eq!(changed, ["c\n\n", "b2\n\n"]);
    }
}
