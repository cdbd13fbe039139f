//! Exact and fuzzy matching of an `old_string` against file content (pure functions).
//!
//! Every strategy works on an LF view of the content and reports regions as byte ranges into the
//! `content` it was given; the Probe-compatible wrappers turn those into `{ matchedText, count }`.

pub mod js;

use std::ops::Range;

/// Fuzzy strategies, in the order Probe tries them after exact matching fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    LineTrimmed,
    WhitespaceNormalized,
    IndentFlexible,
}

impl Strategy {
    /// Probe's name for the strategy (`line-trimmed`, `whitespace-normalized`, `indent-flexible`).
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::LineTrimmed => "line-trimmed",
            Strategy::WhitespaceNormalized => "whitespace-normalized",
            Strategy::IndentFlexible => "indent-flexible",
        }
    }
}

/// What one strategy found: every accepted candidate region, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyMatch {
    /// Byte ranges into the searched content, ascending, non-empty.
    pub regions: Vec<Range<usize>>,
}

/// Probe's `findFuzzyMatch` result: the first candidate's text, the strategy, the candidate count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuzzyMatch {
    pub matched_text: String,
    pub strategy: Strategy,
    pub count: usize,
    pub regions: Vec<Range<usize>>,
}

/// Tries line-trimmed, whitespace-normalized, indent-flexible in order; first strategy with a match wins.
/// `content` and `search` may contain CRLF; they are normalized to LF first (regions then refer to the
/// LF-normalized content). Returns `None` for an empty or whitespace-only search.
pub fn find_fuzzy_match(content: &str, search: &str) -> Option<FuzzyMatch> {
    let _ = (content, search);
    todo!("text::find_fuzzy_match")
}

/// Line-trimmed strategy over already-split lines (Probe's `lineTrimmedMatch`).
pub fn line_trimmed_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let _ = (content, search);
    todo!("text::line_trimmed_match")
}

/// Whitespace-normalized strategy (Probe's `whitespaceNormalizedMatch`).
pub fn whitespace_normalized_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let _ = (content, search);
    todo!("text::whitespace_normalized_match")
}

/// Indent-flexible strategy (Probe's `indentFlexibleMatch`).
pub fn indent_flexible_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let _ = (content, search);
    todo!("text::indent_flexible_match")
}
