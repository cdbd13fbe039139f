//! Base indentation of a code block, and re-indenting a block to another base.

use crate::text::js::{is_js_whitespace, js_trim};

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

fn leading_white(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// The indentation style of `text`: tabs when more indented lines start with a tab than with a
/// space; the space unit is the smallest indent step of 2..=8 columns (4 when none).
pub fn detect_style(text: &str) -> IndentStyle {
    let (mut tabs, mut spaces, mut step) = (0usize, 0usize, usize::MAX);
    let mut prev = 0usize;
    for line in text.split('\n').filter(|l| !js_trim(l).is_empty()) {
        let ind = leading_white(line);
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
}
