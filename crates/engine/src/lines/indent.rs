//! Base indentation of a code block, and re-indenting a block to another base.

use crate::text::js::{is_ascii_js_whitespace, is_js_whitespace, js_trim};

/// Probe's `detectBaseIndent`: the leading JS white space of the first non-blank line of `code`
/// (`""` when every line is blank).
pub fn detect_base_indent(code: &str) -> &str {
    code.split('\n')
        .find(|l| !js_trim(l).is_empty())
        .map_or("", |l| {
            &l[..l.len() - l.trim_start_matches(is_js_whitespace).len()]
        })
}

/// Probe's `reindent`: blank lines become empty; lines starting with the content's base indent
/// ([`detect_base_indent`]) get it replaced by `target_indent`; other lines are kept as they are.
pub fn reindent(new_content: &str, target_indent: &str) -> String {
    let source = detect_base_indent(new_content);
    let lines: Vec<String> = new_content
        .split('\n')
        .map(|line| {
            if js_trim(line).is_empty() {
                String::new()
            } else if let Some(rest) = line.strip_prefix(source) {
                format!("{target_indent}{rest}")
            } else {
                line.to_string()
            }
        })
        .collect();
    lines.join("\n")
}

/// How a file indents: with tabs, or with `unit` spaces per level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndentStyle {
    pub tabs: bool,
    /// Columns per level.
    pub unit: usize,
}

/// The indentation of one line as [`detect_style`] reads it: whether it starts with a tab, has a
/// tab, and its count of spaces; `None` for a blank line (JS white space only).
struct LineIndent {
    first_tab: bool,
    has_tab: bool,
    spaces: usize,
}

/// The indentation style of `text`: tabs when more indented lines start with a tab than with a
/// space; the space unit is the smallest indent step of 2..=8 columns (4 when none). One pass over
/// the bytes: a line's leading spaces and tabs are counted, its end found with `memchr`.
pub fn detect_style(text: &str) -> IndentStyle {
    let (mut tabs, mut spaces, mut step) = (0usize, 0usize, usize::MAX);
    let mut prev = 0usize;
    let mut start = 0;
    let bytes = text.as_bytes();
    while start <= bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        if let Some(ind) = line_indent(&text[start..end]) {
            if ind.first_tab {
                tabs += 1;
            } else if ind.spaces > 0 {
                spaces += 1;
            }
            let d = ind.spaces.abs_diff(prev);
            if (2..=8).contains(&d) && !ind.has_tab {
                step = step.min(d);
            }
            prev = ind.spaces;
        }
        start = end + 1;
    }
    let unit = if step == usize::MAX { 4 } else { step };
    IndentStyle {
        tabs: tabs > spaces,
        unit,
    }
}

/// `line`'s leading spaces and tabs ([`LineIndent`]); `None` when the line is blank. The text after
/// them decides blankness from its first byte (ASCII text or its end); other white space or a
/// non-ASCII byte is settled by [`js_trim`].
fn line_indent(line: &str) -> Option<LineIndent> {
    let b = line.as_bytes();
    let (mut i, mut spaces, mut has_tab) = (0, 0, false);
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        spaces += usize::from(b[i] == b' ');
        has_tab |= b[i] == b'\t';
        i += 1;
    }
    let blank = match b.get(i) {
        None => true,
        Some(&c) if c.is_ascii() && !is_ascii_js_whitespace(c) => false,
        Some(_) => js_trim(&line[i..]).is_empty(),
    };
    (!blank).then(|| LineIndent {
        first_tab: b.first() == Some(&b'\t'),
        has_tab,
        spaces,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_indent_of_first_non_blank_line() {
        assert_eq!(detect_base_indent("\n   \n    foo\n  bar"), "    ");
        assert_eq!(detect_base_indent("\tx"), "\t");
        assert_eq!(detect_base_indent("\u{a0} x"), "\u{a0} ");
        assert_eq!(detect_base_indent("x\n  y"), "");
        assert_eq!(detect_base_indent(" \n\t"), "");
        assert_eq!(detect_base_indent(""), "");
    }

    #[test]
    fn reindents_to_target() {
        assert_eq!(reindent("  a\n    b\n  c", "\t"), "\ta\n\t  b\n\tc");
        assert_eq!(reindent("a\n  b", "    "), "    a\n      b");
    }

    #[test]
    fn blank_lines_are_emptied_and_shallower_lines_kept() {
        assert_eq!(reindent("    a\n  \n  b\n    c", ""), "a\n\n  b\nc");
        assert_eq!(reindent("\t\ta\n\r\n", "  "), "  a\n\n");
    }

    /// [`detect_style`] as a filter over `split('\n')`: the reference its one pass must equal.
    fn style_line_by_line(text: &str) -> IndentStyle {
        let (mut tabs, mut spaces, mut step) = (0usize, 0usize, usize::MAX);
        let mut prev = 0usize;
        for line in text.split('\n').filter(|l| !js_trim(l).is_empty()) {
            let ind = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
            if ind.starts_with('\t') {
                tabs += 1;
            } else if !ind.is_empty() {
                spaces += 1;
            }
            let cols = ind.bytes().filter(|&b| b == b' ').count();
            let d = cols.abs_diff(prev);
            if (2..=8).contains(&d) && !ind.contains('\t') {
                step = step.min(d);
            }
            prev = cols;
        }
        let unit = if step == usize::MAX { 4 } else { step };
        IndentStyle {
            tabs: tabs > spaces,
            unit,
        }
    }

    /// Random texts of spaces, tabs, other white space, letters and line breaks.
    #[test]
    fn the_one_pass_style_is_the_line_by_line_style() {
        const PIECES: [&str; 12] = [
            " ", "  ", "    ", "\t", "\n", "\n", "x", "ab", "\r", "\u{a0}", "\u{3000}", "é",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let len = next(40);
            let text: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
            assert_eq!(detect_style(&text), style_line_by_line(&text), "{text:?}");
        }
        for text in ["", "\n", "\t\n  x", " \u{a0}\n\tx\n   y"] {
            assert_eq!(detect_style(text), style_line_by_line(text), "{text:?}");
        }
    }
}
