//! Line hashes, line references, indentation helpers and the line-edit auto-corrections (pure).
//!
//! All functions follow Probe's JavaScript semantics: "lines" are `split('\n')` pieces, "trim" and
//! "white space" are JavaScript's (see [`crate::text::js`]).

mod hash;
mod heuristics;
mod indent;
mod prefixes;

pub use hash::{
    annotate_output_with_hashes, compute_line_hash, parse_line_ref, validate_line_hash,
};
pub use heuristics::{clean_new_string, restore_indentation, strip_echoed_boundaries};
pub use indent::{detect_base_indent, detect_style, reindent, IndentStyle};
pub use prefixes::{hashline_prefix_len, strip_hashline_prefixes};

/// `text.split('\n').collect()`: n newlines give n + 1 pieces, so a final newline gives a last
/// empty piece ([`crate::batch_plan::lines_and_final_newline`] gives lines without it). Sized up
/// front and cut with `memchr` (at 4 MB / 176k lines it took 3 ms as a plain `split`, most of it
/// growing the vector).
pub fn split_on_newline(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        lines.push(&text[start..end]);
        start = end + 1;
    }
    lines.push(&text[start..]);
    lines
}

/// The first `n` pieces of [`split_on_newline`] (all of them when there are fewer) and the
/// number of all its pieces: what an edit of the lines before piece `n` needs, without cutting
/// the rest of the text into lines (only its line breaks are counted).
pub fn split_on_newline_head(text: &str, n: usize) -> (Vec<&str>, usize) {
    let mut head = Vec::with_capacity(n.min(4096));
    let mut newlines = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut start = 0;
    while head.len() < n {
        let Some(end) = newlines.next() else {
            head.push(&text[start..]);
            let total = head.len();
            return (head, total);
        };
        head.push(&text[start..end]);
        start = end + 1;
    }
    let total = head.len() + newlines.count() + 1;
    (head, total)
}

#[cfg(test)]
mod split_tests {
    /// Same pieces as `split('\n')` (all of them, or a head of them and their number) for empty
    /// text, trailing and leading newlines, CR and UTF-8.
    #[test]
    fn split_on_newline_is_str_split() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "\na\n\nb",
            "x\r\ny\n",
            "é\n€\n\n𝄞",
            "\n\n\n",
        ] {
            let expected: Vec<&str> = text.split('\n').collect();
            assert_eq!(super::split_on_newline(text), expected, "{text:?}");
            for n in 0..expected.len() + 2 {
                let (head, total) = super::split_on_newline_head(text, n);
                assert_eq!(head, expected[..n.min(expected.len())], "{text:?} {n}");
                assert_eq!(total, expected.len(), "{text:?} {n}");
            }
        }
    }
}

/// Where new text goes relative to an anchor (symbol or line). `None` at call sites means "replace".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    Before,
    After,
}

impl Position {
    pub fn as_str(self) -> &'static str {
        match self {
            Position::Before => "before",
            Position::After => "after",
        }
    }
}

/// A parsed `"42"` or `"42:ab"` reference. `line` is 1-based; `hash` is lower-case hex when present.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRef {
    pub line: usize,
    pub hash: Option<String>,
}

/// Result of checking a line's hash against the file (Probe's `validateLineHash`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashCheck {
    pub valid: bool,
    pub actual_hash: String,
    pub actual_content: String,
}

/// A text after an auto-correction step, and the human-readable notes of what was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrected {
    pub text: String,
    pub modifications: Vec<String>,
}
