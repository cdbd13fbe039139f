//! A content split on `\n` (JavaScript's `split('\n')`), with the per-line facts the strategies share.

use std::ops::Range;

use super::js::js_trim;

/// One line of a [`LineTable`]: its byte range (without the `\n`) and indentation facts.
#[derive(Debug, Clone)]
pub struct LineInfo<'a> {
    pub text: &'a str,
    pub start: usize,
    /// Number of leading `' '`/`'\t'` bytes (Probe's `^[ \t]*` length).
    pub lead: u32,
    /// `text.trim() === ''` in JavaScript terms.
    pub blank: bool,
}

/// Lines of a string split on `\n` exactly as JavaScript does (`"a\n"` has two lines, the last empty).
#[derive(Debug, Clone)]
pub struct LineTable<'a> {
    pub lines: Vec<LineInfo<'a>>,
}

/// Length of the leading run of spaces and tabs.
pub fn lead_len(line: &str) -> u32 {
    line.bytes()
        .take_while(|&b| b == b' ' || b == b'\t')
        .count() as u32
}

impl<'a> LineTable<'a> {
    pub fn new(s: &'a str) -> Self {
        let mut lines = Vec::new();
        let mut start = 0usize;
        let ends = memchr::memchr_iter(b'\n', s.as_bytes()).chain(std::iter::once(s.len()));
        for end in ends {
            let text = &s[start..end];
            lines.push(LineInfo {
                text,
                start,
                lead: lead_len(text),
                blank: js_trim(text).is_empty(),
            });
            start = end + 1;
        }
        LineTable { lines }
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Byte range covering lines `first..first + count` joined by their `\n`s (`count >= 1`).
    pub fn window_range(&self, first: usize, count: usize) -> Range<usize> {
        let last = &self.lines[first + count - 1];
        self.lines[first].start..last.start + last.text.len()
    }

    /// Probe's `getMinIndent` over all lines: minimum `lead` of non-blank lines, 0 when none.
    pub fn min_indent(&self) -> u32 {
        self.lines
            .iter()
            .filter(|l| !l.blank)
            .map(|l| l.lead)
            .min()
            .unwrap_or(0)
    }

    /// Index of the first non-blank line, if any.
    pub fn first_non_blank(&self) -> Option<usize> {
        self.lines.iter().position(|l| !l.blank)
    }

    /// Per-line indentation with blank lines as `u32::MAX` (input for range minima).
    pub fn lead_or_max(&self) -> Vec<u32> {
        self.lines
            .iter()
            .map(|l| if l.blank { u32::MAX } else { l.lead })
            .collect()
    }
}

/// Probe's `isIndentDiffTooLarge`: with `a_sample`/`b_sample` the first non-blank line of each side
/// (`""` when none), a difference above 1 is too large when either sample starts with a tab, else
/// a difference above 4.
pub fn indent_diff_too_large(a_sample: &str, b_sample: &str, diff: u32) -> bool {
    indent_limit_exceeded(
        a_sample.starts_with('\t') || b_sample.starts_with('\t'),
        diff,
    )
}

/// The tolerance itself: more than 1 when `tabs`, else more than 4.
pub fn indent_limit_exceeded(tabs: bool, diff: u32) -> bool {
    diff > if tabs { 1 } else { 4 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_javascript() {
        let t = LineTable::new("a\n  b\n\n");
        let texts: Vec<_> = t.lines.iter().map(|l| l.text).collect();
        assert_eq!(texts, vec!["a", "  b", "", ""]);
        assert_eq!(t.lines[1].start, 2);
        assert_eq!(t.lines[1].lead, 2);
        assert!(t.lines[2].blank);
        assert_eq!(LineTable::new("").len(), 1);
    }

    #[test]
    fn min_indent_skips_blank_lines() {
        assert_eq!(LineTable::new("    a\n \n\t\tb").min_indent(), 2);
        assert_eq!(LineTable::new("  \n\t").min_indent(), 0);
        // A non-breaking space is white space for trim() but not indentation.
        assert_eq!(LineTable::new("  x\n\u{a0}y").min_indent(), 0);
    }

    #[test]
    fn window_range_joins_lines() {
        let s = "ab\ncd\nef";
        let t = LineTable::new(s);
        assert_eq!(&s[t.window_range(1, 2)], "cd\nef");
        assert_eq!(&s[t.window_range(0, 1)], "ab");
    }

    #[test]
    fn indent_tolerance_rule() {
        assert!(!indent_diff_too_large("  a", "a", 4));
        assert!(indent_diff_too_large("  a", "a", 5));
        assert!(!indent_diff_too_large("\ta", "a", 1));
        assert!(indent_diff_too_large("a", "\t\ta", 2));
        assert!(!indent_diff_too_large("", "", 0));
    }
}
