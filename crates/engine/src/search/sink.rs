//! Formatting one file's search results in ripgrep's style: `path:line:text` for matching lines,
//! `path-line-text` for context lines, `--` between non-adjacent groups of lines.

use crate::lines::compute_line_hash;
use grep_searcher::{Searcher, Sink, SinkContext, SinkMatch};
use std::fmt::Write as _;

/// Longest line text printed, in characters; longer lines end with a note of what was cut.
pub const MAX_LINE_CHARS: usize = 1000;

/// The path printed on each line: given, or made on the first line (most files print none).
pub enum Name<'a> {
    Ready(&'a str),
    Later(&'a dyn Fn() -> String),
}

/// One printed line (or `--` break) of a file, for cutting the output at a match count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    /// Length of the output once this line was printed.
    end: usize,
    line: u64,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Match,
    Context,
    Break,
}

/// One file's printed lines, and what is needed to cut them at a smaller match count.
#[derive(Debug, Default)]
pub struct Lines {
    /// The lines, each ending in `\n`.
    pub out: String,
    /// Matching lines printed.
    pub matches: usize,
    /// After-context lines kept past the last match when cutting; `None`: cutting is off.
    after: Option<u64>,
    marks: Vec<Mark>,
}

impl Lines {
    /// Cuts the output to the first `matches` matching lines and their after-context (matches
    /// within it included), exactly as if the search had stopped at that count; `self.matches`
    /// then counts the matching lines kept. Needs [`FileSink::limit`].
    pub fn truncate(&mut self, matches: usize) {
        let Some(after) = self.after else { return };
        let mut seen = 0;
        let Some(last) = self.marks.iter().position(|m| {
            seen += usize::from(m.kind == Kind::Match);
            seen == matches
        }) else {
            return;
        };
        let end_line = self.marks[last].line + after;
        let kept = self.marks[last + 1..]
            .iter()
            .take_while(|m| m.kind != Kind::Break && m.line <= end_line)
            .count();
        self.marks.truncate(last + 1 + kept);
        self.matches = self.marks.iter().filter(|m| m.kind == Kind::Match).count();
        self.out.truncate(self.marks.last().map_or(0, |m| m.end));
    }
}

/// Collects the lines of one file. When the file turns out to be binary, `binary` is set and the
/// search of that file stops (the caller drops what was collected).
///
/// With a budget (see [`FileSink::limit`]) the search stops once the budget's last match and its
/// after-context are printed, and [`Lines::truncate`] can cut the output at any smaller count.
pub struct FileSink<'a> {
    name: Name<'a>,
    display: Option<String>,
    line_hashes: bool,
    pub lines: Lines,
    pub binary: bool,
    /// Output length at which the search of this file stops.
    cap: usize,
    /// Matching lines wanted (see [`FileSink::limit`]).
    budget: Option<usize>,
    /// Last line to print once the budget is spent.
    window_end: Option<u64>,
}

impl<'a> FileSink<'a> {
    /// A sink printing `display` as the path; with `line_hashes`, line numbers become `N:hh`.
    pub fn new(display: &'a str, line_hashes: bool) -> Self {
        FileSink::named(Name::Ready(display), line_hashes)
    }

    /// A sink printing the path `name` gives.
    pub fn named(name: Name<'a>, line_hashes: bool) -> Self {
        FileSink {
            name,
            display: None,
            line_hashes,
            lines: Lines::default(),
            binary: false,
            cap: usize::MAX,
            budget: None,
            window_end: None,
        }
    }

    /// Stops the search once the output reaches `cap` bytes (after the line that crossed it).
    pub fn cap(mut self, cap: usize) -> Self {
        self.cap = cap;
        self
    }

    /// Wants at most `matches` matching lines, shown with `after` lines of after-context (matches
    /// within those lines included, as ripgrep's `--max-count` shows them).
    pub fn limit(mut self, matches: Option<usize>, after: usize) -> Self {
        self.budget = matches;
        self.lines.after = matches.map(|_| after as u64);
        self
    }

    /// Whether a line numbered `line` is still wanted (false ends the search).
    fn wants(&self, line: u64) -> bool {
        self.lines.out.len() < self.cap && self.window_end.is_none_or(|end| line <= end)
    }

    fn push(&mut self, kind: Kind, line_number: u64, bytes: &[u8]) {
        let separator = if kind == Kind::Match { ':' } else { '-' };
        let text = String::from_utf8_lossy(trim_terminator(bytes));
        let display = self.display.get_or_insert_with(|| match self.name {
            Name::Ready(s) => s.to_string(),
            Name::Later(make) => make(),
        });
        let out = &mut self.lines.out;
        let _ = write!(out, "{display}{separator}{line_number}");
        if self.line_hashes {
            let _ = write!(out, ":{}", compute_line_hash(&text));
        }
        let _ = writeln!(out, "{separator}{}", clip(&text));
        self.mark(kind, line_number);
    }

    fn mark(&mut self, kind: Kind, line: u64) {
        let (Some(wanted), Some(after)) = (self.budget, self.lines.after) else {
            return;
        };
        let end = self.lines.out.len();
        self.lines.marks.push(Mark { end, line, kind });
        if kind == Kind::Match && self.lines.matches == wanted && self.window_end.is_none() {
            self.window_end = Some(line + after);
        }
    }
}

impl Sink for FileSink<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _searcher: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        for (line_number, line) in (mat.line_number().unwrap_or(0)..).zip(mat.lines()) {
            if !self.wants(line_number) {
                return Ok(false);
            }
            self.lines.matches += 1;
            self.push(Kind::Match, line_number, line);
        }
        Ok(true)
    }

    fn context(
        &mut self,
        _searcher: &Searcher,
        context: &SinkContext<'_>,
    ) -> Result<bool, Self::Error> {
        let line_number = context.line_number().unwrap_or(0);
        if !self.wants(line_number) {
            return Ok(false);
        }
        self.push(Kind::Context, line_number, context.bytes());
        Ok(true)
    }

    fn context_break(&mut self, _searcher: &Searcher) -> Result<bool, Self::Error> {
        if self.window_end.is_some() {
            return Ok(false);
        }
        self.lines.out.push_str("--\n");
        self.mark(Kind::Break, 0);
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

    /// A matcher for the test pattern `hit` and a line-numbered searcher with the given context.
    fn hit_search(before: usize, after: usize) -> (RegexMatcher, Searcher) {
        let matcher = RegexMatcher::new_line_matcher("hit").unwrap();
        let searcher = SearcherBuilder::new()
            .line_number(true)
            .before_context(before)
            .after_context(after)
            .build();
        (matcher, searcher)
    }

    fn run(text: &str, before: usize, after: usize, hashes: bool) -> String {
        let (matcher, mut searcher) = hit_search(before, after);
        let mut sink = FileSink::new("f.txt", hashes);
        searcher
            .search_slice(&matcher, text.as_bytes(), &mut sink)
            .unwrap();
        sink.lines.out
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

    /// The lines a search stopped by ripgrep's own `max_matches` prints.
    fn ripgrep_max(text: &str, before: usize, after: usize, max: usize) -> (String, usize) {
        let matcher = RegexMatcher::new_line_matcher("hit").unwrap();
        let mut searcher = SearcherBuilder::new()
            .line_number(true)
            .before_context(before)
            .after_context(after)
            .max_matches(Some(max as u64))
            .build();
        let mut sink = FileSink::new("f.txt", false);
        searcher
            .search_slice(&matcher, text.as_bytes(), &mut sink)
            .unwrap();
        (sink.lines.out, sink.lines.matches)
    }

    /// A search with a generous budget, cut afterwards at `max` matches.
    fn cut(text: &str, before: usize, after: usize, budget: usize, max: usize) -> (String, usize) {
        let (matcher, mut searcher) = hit_search(before, after);
        let mut sink = FileSink::new("f.txt", false).limit(Some(budget), after);
        searcher
            .search_slice(&matcher, text.as_bytes(), &mut sink)
            .unwrap();
        sink.lines.truncate(max);
        (sink.lines.out, sink.lines.matches)
    }

    #[test]
    fn cutting_at_a_match_count_equals_stopping_there() {
        let text: String = (1..=60)
            .map(|i| match i % 9 {
                0 | 1 | 4 => format!("hit {i}\n"),
                _ => format!("line {i}\n"),
            })
            .collect();
        for (before, after) in [(0, 0), (1, 0), (0, 2), (2, 3), (4, 4)] {
            for max in 1..=20 {
                for budget in [max, max + 1, max + 7, 1000] {
                    assert_eq!(
                        cut(&text, before, after, budget, max),
                        ripgrep_max(&text, before, after, max),
                        "context {before}/{after}, max {max}, budget {budget}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_budget_stops_the_search_and_the_cap_bounds_the_output() {
        let text = "hit\n".repeat(1000);
        let (out, matches) = cut(&text, 0, 0, 5, 1000);
        assert_eq!(
            (out.lines().count(), matches),
            (5, 5),
            "the budget stops the search"
        );
        let matcher = RegexMatcher::new_line_matcher("hit").unwrap();
        let mut sink = FileSink::new("f.txt", false).cap(100);
        SearcherBuilder::new()
            .line_number(true)
            .build()
            .search_slice(&matcher, text.as_bytes(), &mut sink)
            .unwrap();
        assert!(
            (100..120).contains(&sink.lines.out.len()),
            "{}",
            sink.lines.out.len()
        );
        assert_eq!(sink.lines.matches, sink.lines.out.lines().count());
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
