//! Formatting one file's search results in ripgrep's style: `path:line:text` for matching lines,
//! `path-line-text` for context lines, `--` between non-adjacent groups of lines.

use crate::lines::compute_line_hash;
use grep_searcher::{Searcher, Sink, SinkContext, SinkMatch};
use std::fmt::Write as _;

/// Longest line text printed, in characters; longer lines end with a note of what was cut.
pub const MAX_LINE_CHARS: usize = 1000;

/// Collects the lines of one file. When the file turns out to be binary, `binary` is set and the
/// search of that file stops (the caller drops what was collected).
pub struct FileSink<'a> {
    display: &'a str,
    line_hashes: bool,
    /// This file's lines, each ending in `\n`.
    pub out: String,
    /// Matching lines seen.
    pub matches: usize,
    pub binary: bool,
}

impl<'a> FileSink<'a> {
    /// A sink printing `display` as the path; with `line_hashes`, line numbers become `N:hh`.
    pub fn new(display: &'a str, line_hashes: bool) -> Self {
        FileSink {
            display,
            line_hashes,
            out: String::new(),
            matches: 0,
            binary: false,
        }
    }

    fn push(&mut self, separator: char, line_number: u64, bytes: &[u8]) {
        let text = String::from_utf8_lossy(trim_terminator(bytes));
        let _ = write!(self.out, "{}{separator}{line_number}", self.display);
        if self.line_hashes {
            let _ = write!(self.out, ":{}", compute_line_hash(&text));
        }
        let _ = writeln!(self.out, "{separator}{}", clip(&text));
    }
}

impl Sink for FileSink<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _searcher: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        for (line_number, line) in (mat.line_number().unwrap_or(0)..).zip(mat.lines()) {
            self.push(':', line_number, line);
            self.matches += 1;
        }
        Ok(true)
    }

    fn context(
        &mut self,
        _searcher: &Searcher,
        context: &SinkContext<'_>,
    ) -> Result<bool, Self::Error> {
        self.push('-', context.line_number().unwrap_or(0), context.bytes());
        Ok(true)
    }

    fn context_break(&mut self, _searcher: &Searcher) -> Result<bool, Self::Error> {
        self.out.push_str("--\n");
        Ok(true)
    }

    fn binary_data(&mut self, _searcher: &Searcher, _offset: u64) -> Result<bool, Self::Error> {
        self.binary = true;
        Ok(false)
    }
}

/// The line without its `\n` or `\r\n`.
fn trim_terminator(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    bytes.strip_suffix(b"\r").unwrap_or(bytes)
}

/// `text` cut to [`MAX_LINE_CHARS`] characters, with a note of how many were left out.
fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_LINE_CHARS) {
        None => text.into(),
        Some((cut, _)) => {
            let rest = text[cut..].chars().count();
            format!("{} [... {rest} more characters]", &text[..cut]).into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grep_regex::RegexMatcher;
    use grep_searcher::SearcherBuilder;

    fn run(text: &str, before: usize, after: usize, hashes: bool) -> String {
        let matcher = RegexMatcher::new_line_matcher("hit").unwrap();
        let mut searcher = SearcherBuilder::new()
            .line_number(true)
            .before_context(before)
            .after_context(after)
            .build();
        let mut sink = FileSink::new("f.txt", hashes);
        searcher
            .search_slice(&matcher, text.as_bytes(), &mut sink)
            .unwrap();
        sink.out
    }

    #[test]
    fn prints_matches_and_context_like_ripgrep() {
        let text = "a\nhit 1\nb\nc\nd\ne\nhit 2\r\nf\n";
        assert_eq!(run(text, 0, 0, false), "f.txt:2:hit 1\nf.txt:7:hit 2\n");
        assert_eq!(
            run(text, 1, 1, false),
            "f.txt-1-a\nf.txt:2:hit 1\nf.txt-3-b\n--\nf.txt-6-e\nf.txt:7:hit 2\nf.txt-8-f\n"
        );
        assert_eq!(
            run(text, 2, 2, false).matches("--").count(),
            0,
            "adjacent groups merge"
        );
    }

    #[test]
    fn line_hashes_use_the_engine_hash() {
        let out = run("x\nhit  one\n", 1, 0, true);
        let expected = format!(
            "f.txt-1:{}-x\nf.txt:2:{}:hit  one\n",
            compute_line_hash("x"),
            compute_line_hash("hit  one")
        );
        assert_eq!(out, expected);
    }

    #[test]
    fn long_lines_are_clipped() {
        let long = "é".repeat(MAX_LINE_CHARS + 5);
        assert_eq!(
            clip(&long),
            format!("{} [... 5 more characters]", "é".repeat(MAX_LINE_CHARS))
        );
        assert_eq!(clip("short"), "short");
    }
}
