//! Exact and fuzzy matching of an `old_string` against file content (pure functions).
//!
//! Every strategy works on an LF view of the content and reports regions as byte ranges into the
//! `content` it was given; the Probe-compatible wrappers turn those into `{ matchedText, count }`.
//!
//! Probe's strategies ([`line_trimmed_match`], [`whitespace_normalized_match`],
//! [`indent_flexible_match`]) reproduce Probe's results exactly, in O(content + search): lines are
//! interned and matched with KMP instead of sliding a window. Ours ([`quote_normalized_match`],
//! [`escape_normalized_match`], [`trimmed_boundary_match`], [`block_anchor_match`]) run after them
//! in [`locate`], the one driver the edit tool runs; [`closest_region`] suggests where a failed search was probably meant.
//!
//! Each strategy's rules live in its own module as a [`MatchStrategy`]: how it finds `old_string`
//! and how `new_string` is fitted to a region it found (the shared indentation framing is
//! [`fit`]'s). [`Strategy::find`] and [`Strategy::fit`] reach them.

mod anchor_hits;
mod block_anchor;
mod boundary;
mod cascade;
mod closest;
mod escapes;
pub mod fit;
mod indent_flexible;
mod indent_shifted;
pub mod js;
mod kmp;
mod levenshtein;
mod line_table;
mod line_trimmed;
mod quotes;
mod range_min;
#[cfg(test)]
mod reference_tests;
mod surplus;
mod whitespace;
mod zones;

use std::borrow::Cow;
use std::ops::Range;

pub use anchor_hits::AnchorHits;
pub use block_anchor::{block_anchor_match, BLOCK_ANCHOR_BUDGET, BLOCK_ANCHOR_THRESHOLD};
pub use boundary::{trimmed_boundary_match, trimmed_core};
pub use cascade::{lf_view, line_span, locate, Located, Restriction};
pub use closest::{
    closest_region, ClosestRegion, CLOSEST_CANDIDATES, CLOSEST_DIFF_LINES, CLOSEST_MIN_SCORE,
    CLOSEST_PAIR_BUDGET,
};
pub use escapes::{escape_normalized_match, unescape_literal};
pub use fit::{FitRefusal, Fitted, Region};
pub use indent_flexible::indent_flexible_match;
pub use indent_shifted::indent_shifted_match;
pub use levenshtein::bounded_levenshtein;
pub use line_trimmed::line_trimmed_match;
pub use quotes::{
    normalize_quotes, preserve_quote_style, quote_fuzzy_match, quote_normalized_match,
    straight_quote, QuoteMatch,
};
pub use surplus::{whole_lines_without_blank_edges, WholeLines};
pub use whitespace::whitespace_normalized_match;

/// Fuzzy strategies, in the order they are tried after exact matching fails: Probe's three, then
/// ours ([`locate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strategy {
    LineTrimmed,
    WhitespaceNormalized,
    IndentFlexible,
    IndentShifted,
    QuoteNormalized,
    EscapeNormalized,
    TrimmedBoundary,
    BlockAnchor,
}

impl Strategy {
    /// Every strategy, in cascade order.
    pub const ALL: [Strategy; 8] = [
        Strategy::LineTrimmed,
        Strategy::WhitespaceNormalized,
        Strategy::IndentFlexible,
        Strategy::IndentShifted,
        Strategy::QuoteNormalized,
        Strategy::EscapeNormalized,
        Strategy::TrimmedBoundary,
        Strategy::BlockAnchor,
    ];

    /// The strategy's name: Probe's (`line-trimmed`, `whitespace-normalized`, `indent-flexible`)
    /// and ours (`indent-shifted`, `quote-normalized`, `escape-normalized`, `trimmed-boundary`, `block-anchor`).
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::LineTrimmed => "line-trimmed",
            Strategy::WhitespaceNormalized => "whitespace-normalized",
            Strategy::IndentFlexible => "indent-flexible",
            Strategy::IndentShifted => "indent-shifted",
            Strategy::QuoteNormalized => "quote-normalized",
            Strategy::EscapeNormalized => "escape-normalized",
            Strategy::TrimmedBoundary => "trimmed-boundary",
            Strategy::BlockAnchor => "block-anchor",
        }
    }

    /// The strategy named `name` (exactly as [`Strategy::as_str`] spells it).
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// Every candidate region of `search` in `content` ([`MatchStrategy::find`]).
    pub fn find(self, content: &str, search: &str) -> Option<StrategyMatch> {
        self.rules().find(content, search)
    }

    /// The replacement for `region`, which this strategy found for `old`: `new` as the file's text
    /// there makes it ([`MatchStrategy::reconcile`]), laid into the region
    /// ([`MatchStrategy::fit`]).
    pub fn fit<'n>(
        self,
        region: &Region,
        old: &str,
        new: &'n str,
    ) -> Result<Fitted<'n>, FitRefusal> {
        let rules = self.rules();
        let meant = rules.reconcile(region.text, old, new)?;
        let text = rules.fit(region, old, &meant);
        Ok(Fitted { text, meant })
    }

    /// The module that owns this strategy's rules.
    fn rules(self) -> &'static dyn MatchStrategy {
        match self {
            Strategy::LineTrimmed => &line_trimmed::LineTrimmed,
            Strategy::WhitespaceNormalized => &whitespace::WhitespaceNormalized,
            Strategy::IndentFlexible => &indent_flexible::IndentFlexible,
            Strategy::IndentShifted => &indent_shifted::IndentShifted,
            Strategy::QuoteNormalized => &quotes::QuoteNormalized,
            Strategy::EscapeNormalized => &escapes::EscapeNormalized,
            Strategy::TrimmedBoundary => &boundary::TrimmedBoundary,
            Strategy::BlockAnchor => &block_anchor::BlockAnchor,
        }
    }
}

/// One fuzzy strategy's rules, kept in the strategy's own module: how it finds `old_string` and how
/// `new_string` is fitted to a region it found. Reached through [`Strategy`].
pub trait MatchStrategy {
    /// Every accepted candidate region of `search` in `content`, in file order (byte ranges into
    /// `content` as given; no CRLF handling); `None` when there is none.
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch>;

    /// `new` as the caller meant it for the region holding `region_text`, before it is laid out.
    /// A strategy whose regions may differ from `old` in content puts the file's version back
    /// where `new` keeps `old`'s line, or refuses; the others take `new` as given (the default).
    fn reconcile<'n>(
        &self,
        region_text: &str,
        old: &str,
        new: &'n str,
    ) -> Result<Cow<'n, str>, FitRefusal> {
        let _ = (region_text, old);
        Ok(Cow::Borrowed(new))
    }

    /// The text that replaces `region`, from `new` written against `old`. The default lays `new`
    /// into the region's indentation frame (the [`fit`] module's shared framing).
    fn fit(&self, region: &Region, old: &str, new: &str) -> String {
        fit::framed(region, old, new)
    }
}

/// What one strategy found: every accepted candidate region, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyMatch {
    /// Byte ranges into the searched content, ascending, non-empty.
    pub regions: Vec<Range<usize>>,
    /// The positions of a piece every region holds verbatim, when the strategy searched for one.
    pub anchor: Option<AnchorHits>,
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
/// LF-normalized content). Returns `None` for an empty or whitespace-only search. `matched_text` is
/// the first region's text and `count` the number of regions.
pub fn find_fuzzy_match(content: &str, search: &str) -> Option<FuzzyMatch> {
    // Indent-flexible never wins after line-trimmed (its matches are line-trimmed matches); it is
    // still run, as Probe does.
    cascade::run(content, search, &Strategy::ALL[..3])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tries_line_trimmed_first() {
        let m = find_fuzzy_match("fn a() {\n    x  = 1;\n}", "x  = 1;").unwrap();
        assert_eq!(m.strategy, Strategy::LineTrimmed);
        assert_eq!(m.matched_text, "    x  = 1;");
        assert_eq!(m.count, 1);
        assert_eq!(m.regions, vec![9..20]);
    }

    #[test]
    fn falls_back_to_whitespace_normalized() {
        let m = find_fuzzy_match("foo(a,  b)\r\nbar", "foo(a, b)\nbar").unwrap();
        assert_eq!(m.strategy, Strategy::WhitespaceNormalized);
        assert_eq!(m.matched_text, "foo(a,  b)\nbar");
        assert_eq!(m.count, 1);
    }

    #[test]
    fn normalizes_crlf_in_both_inputs() {
        let m = find_fuzzy_match("a\r\n  b\r\nc", "a\r\nb").unwrap();
        assert_eq!(m.strategy, Strategy::LineTrimmed);
        assert_eq!(m.matched_text, "a\n  b");
        assert_eq!(m.regions, vec![0..5]);
        assert_eq!(find_fuzzy_match("a\r\n  b  c\r\n", "a\r\nb c"), None);
    }

    #[test]
    fn blank_or_missing_search_is_none() {
        assert_eq!(find_fuzzy_match("x", ""), None);
        assert_eq!(find_fuzzy_match("x", "  \n\t"), None);
        assert_eq!(find_fuzzy_match("x", "y"), None);
        assert_eq!(find_fuzzy_match("", "y"), None);
    }

    #[test]
    fn reports_every_candidate() {
        let m = find_fuzzy_match("  a\nb\n    a\nb\n", "a\nb").unwrap();
        assert_eq!(m.count, 2);
        assert_eq!(m.matched_text, "  a\nb");
    }

    #[test]
    fn strategy_names() {
        assert_eq!(Strategy::LineTrimmed.as_str(), "line-trimmed");
        assert_eq!(
            Strategy::WhitespaceNormalized.as_str(),
            "whitespace-normalized"
        );
        assert_eq!(Strategy::IndentFlexible.as_str(), "indent-flexible");
    }

    /// 200k identical lines against a 2k-line search of the same line: every window is a candidate,
    /// which a sliding-window scan would verify in O(file x search). Finishing at all is the check.
    #[test]
    fn worst_case_repetition_is_linear() {
        let content = "    x  y\n".repeat(200_000);
        let search = "x  y\n".repeat(2_000);
        let lt = line_trimmed_match(&content, search.trim_end()).unwrap();
        assert_eq!(lt.regions.len(), 200_000 - 2_000 + 1);
        let ws = whitespace_normalized_match(&content, &"x y\n    ".repeat(2_000)).unwrap();
        assert_eq!(ws.regions.len(), 200_000 - 2_000);
        let flex = indent_flexible_match(&content, "  x  y\n".repeat(2_000).trim_end()).unwrap();
        assert_eq!(flex.regions.len(), 200_000 - 2_000 + 1);
        let tabs = "\tz\n".repeat(200_000);
        let flex_tabs = indent_flexible_match(&tabs, "z\n".repeat(2_000).trim_end()).unwrap();
        assert_eq!(flex_tabs.regions.len(), 200_000 - 2_000 + 1);
        // With the trailing newline the search ends in a blank line: only the file's end qualifies.
        assert_eq!(
            indent_flexible_match(&tabs, &"z\n".repeat(2_000))
                .unwrap()
                .regions
                .len(),
            1
        );
    }

    #[test]
    fn worst_case_single_long_line_is_linear() {
        let content = "a ".repeat(500_000);
        let m = whitespace_normalized_match(&content, &"a\t".repeat(5_000)).unwrap();
        assert_eq!(m.regions.len(), 500_000 - 5_000 + 1);
        assert_eq!(find_fuzzy_match(&content, "b"), None);
    }
}
