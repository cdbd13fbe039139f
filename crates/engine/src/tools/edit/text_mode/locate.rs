//! Finding the regions an `old_string` refers to: exact occurrences first, then the fuzzy
//! strategies in cascade order, with every candidate region kept so ambiguity can be judged.

use crate::text::js::js_trim;
use crate::text::Strategy;
use std::ops::Range;

/// Which strategies a call allows (`match_strategy` parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restriction {
    /// Exact, then every fuzzy strategy.
    Any,
    /// Exact matching only.
    ExactOnly,
    /// Exact, then only this strategy.
    Only(Strategy),
}

impl Restriction {
    /// Parses `match_strategy`: `exact` or a strategy name.
    pub fn parse(name: &str) -> Option<Restriction> {
        if name == "exact" {
            return Some(Restriction::ExactOnly);
        }
        Strategy::from_name(name).map(Restriction::Only)
    }
}

/// The candidate regions of one strategy (or of exact matching, `strategy: None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub strategy: Option<Strategy>,
    /// Byte ranges into the content, ascending and non-overlapping.
    pub regions: Vec<Range<usize>>,
    /// True when every region holds the same text.
    pub identical: bool,
}

/// Exact occurrences of `old` when there are any; otherwise the first fuzzy strategy (allowed by
/// `restriction`) with candidates. When the fuzzy candidates all hold one text, the regions are
/// that text's exact occurrences (Probe's counting); otherwise the distinct candidate regions.
pub fn locate(content: &str, old: &str, restriction: Restriction) -> Option<Located> {
    if let Some(found) = exact(content, old) {
        return Some(found);
    }
    if js_trim(old).is_empty() {
        return None;
    }
    let strategies: &[Strategy] = match restriction {
        Restriction::Any => &Strategy::ALL,
        Restriction::ExactOnly => &[],
        Restriction::Only(ref s) => std::slice::from_ref(s),
    };
    strategies.iter().find_map(|&strategy| {
        let found = strategy.matcher()(content, old)?;
        let regions = non_overlapping(found.regions);
        let first = content.get(regions.first()?.clone())?;
        let identical = regions
            .iter()
            .all(|r| content.get(r.clone()) == Some(first));
        if identical {
            let mut same = exact(content, first)?;
            same.strategy = Some(strategy);
            return Some(same);
        }
        Some(Located {
            strategy: Some(strategy),
            regions,
            identical: false,
        })
    })
}

fn exact(content: &str, needle: &str) -> Option<Located> {
    if needle.is_empty() {
        return None;
    }
    // Non-overlapping, leftmost first, as `str::match_indices`; memchr's SIMD search.
    let mut regions: Vec<Range<usize>> = Vec::new();
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    let mut at = 0;
    while let Some(i) = finder.find(&content.as_bytes()[at..]) {
        regions.push(at + i..at + i + needle.len());
        at += i + needle.len();
    }
    if regions.is_empty() {
        return None;
    }
    Some(Located {
        strategy: None,
        regions,
        identical: true,
    })
}

/// Keeps regions in order, dropping any that overlaps one already kept.
fn non_overlapping(mut regions: Vec<Range<usize>>) -> Vec<Range<usize>> {
    regions.sort_by_key(|r| (r.start, r.end));
    let mut kept: Vec<Range<usize>> = Vec::with_capacity(regions.len());
    for r in regions {
        if kept.last().is_none_or(|last| r.start >= last.end) {
            kept.push(r);
        }
    }
    kept
}

/// 1-based first and last line of a region.
pub fn line_span(content: &str, region: &Range<usize>) -> (usize, usize) {
    let before = content.get(..region.start).unwrap_or("");
    let inside = content.get(region.clone()).unwrap_or("");
    let start = memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1;
    let trailing = usize::from(inside.ends_with('\n'));
    let end = start + memchr::memchr_iter(b'\n', inside.as_bytes()).count() - trailing;
    (start, end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_occurrences_come_first() {
        let l = locate("a\nb\na\n", "a", Restriction::Any).unwrap();
        assert_eq!(
            (l.strategy, l.regions, l.identical),
            (None, vec![0..1, 4..5], true)
        );
    }

    #[test]
    fn different_indentation_candidates_are_distinct() {
        let content =
            "function f() {\n  x();\n  y();\n}\nclass A {\n  m() {\n    x();\n    y();\n  }\n}\n";
        let l = locate(content, "x();\ny();", Restriction::Any).unwrap();
        assert_eq!(l.strategy, Some(Strategy::LineTrimmed));
        assert!(!l.identical);
        assert_eq!(l.regions.len(), 2);
        assert_eq!(line_span(content, &l.regions[0]), (2, 3));
        assert_eq!(line_span(content, &l.regions[1]), (7, 8));
    }

    #[test]
    fn identical_candidates_count_like_probe() {
        let l = locate("\tx();\n\tx();\n", "  x();", Restriction::Any).unwrap();
        assert_eq!(l.strategy, Some(Strategy::LineTrimmed));
        assert!(l.identical);
        assert_eq!(l.regions, vec![0..5, 6..11]);
    }

    #[test]
    fn restriction_limits_strategies() {
        assert!(locate("    a();", "a();\n", Restriction::ExactOnly).is_none());
        assert_eq!(Restriction::parse("exact"), Some(Restriction::ExactOnly));
        assert_eq!(
            Restriction::parse("block-anchor"),
            Some(Restriction::Only(Strategy::BlockAnchor))
        );
        assert_eq!(Restriction::parse("nope"), None);
    }
}
