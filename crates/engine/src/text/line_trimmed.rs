//! Line-trimmed strategy: windows of whole lines whose JS-trimmed lines equal the search's.

use std::collections::HashMap;
use std::ops::Range;

use super::js::js_trim;
use super::kmp::Kmp;
use super::line_table::{indent_diff_too_large, LineTable};
use super::range_min::SlidingMin;
use super::zones::{is_whole_trimmed_line, line_zones};
use super::{AnchorHits, MatchStrategy, StrategyMatch};

/// Id of a content line whose trimmed text is no search line's.
const MISSING: u32 = u32::MAX;

/// The search side of the trimmed-line comparison, prepared once per search.
pub(crate) struct TrimmedSearch<'s> {
    pub table: LineTable<'s>,
    /// Index of the first non-blank search line.
    pub first: usize,
    /// Trimmed search line -> id; the pattern is the search lines' ids.
    ids: HashMap<&'s str, u32>,
    kmp: Kmp<u32>,
    /// The longest trimmed search line and its index: every window holds it as a whole line.
    anchor: (usize, &'s str),
}

impl<'s> TrimmedSearch<'s> {
    /// `None` when every search line is blank.
    pub fn new(search: &'s str) -> Option<Self> {
        let table = LineTable::new(search);
        let first = table.first_non_blank()?;
        let mut ids = HashMap::new();
        let mut pat = Vec::with_capacity(table.len());
        let mut anchor = (first, "");
        for (k, l) in table.lines.iter().enumerate() {
            let t = js_trim(l.text);
            let next = ids.len() as u32;
            pat.push(*ids.entry(t).or_insert(next));
            if t.len() > anchor.1.len() {
                anchor = (k, t);
            }
        }
        Some(TrimmedSearch {
            table,
            first,
            ids,
            kmp: Kmp::new(pat),
            anchor,
        })
    }

    /// Whole-line zones of `content` that together hold every window of search-many lines whose
    /// trimmed lines equal the search's (see [`line_zones`]); ascending and disjoint.
    pub fn zones(&self, content: &str) -> Vec<Range<usize>> {
        let hits = memchr::memmem::find_iter(content.as_bytes(), self.anchor.1.as_bytes());
        self.zones_at(content, hits)
    }

    /// [`TrimmedSearch::zones`] with the positions of the longest trimmed search line found for
    /// them, kept.
    fn zones_and_hits(&self, content: &str) -> (Vec<Range<usize>>, AnchorHits) {
        let hits = AnchorHits::find(content.as_bytes(), self.anchor.1.as_bytes());
        (self.zones_at(content, hits.at.iter().copied()), hits)
    }

    /// The zones around `hits` (occurrences of the longest trimmed search line) that are whole lines.
    fn zones_at(&self, content: &str, hits: impl Iterator<Item = usize>) -> Vec<Range<usize>> {
        let (k, anchor) = self.anchor;
        let whole = hits.filter(|&h| is_whole_trimmed_line(content, h, anchor.len()));
        line_zones(content.as_bytes(), whole, k, self.table.len() - 1 - k)
    }

    /// Start line of every window of `zone` (overlapping windows included, ascending) whose
    /// trimmed lines equal the trimmed search lines. O(zone + search).
    pub fn windows(&self, zone: &LineTable<'_>) -> Vec<usize> {
        let text: Vec<u32> = zone
            .lines
            .iter()
            .map(|l| self.ids.get(js_trim(l.text)).copied().unwrap_or(MISSING))
            .collect();
        let mut out = Vec::new();
        self.kmp.for_each_match(&text, |i| out.push(i));
        out
    }
}

/// Probe's `lineTrimmedMatch` on `content.split('\n')` and `search.split('\n')`: every window whose
/// trimmed lines equal the trimmed search lines, minus windows whose minimum indentation differs
/// from the search's by more than the tolerance (1 when either side's first non-blank line starts
/// with a tab, else 4). `None` when the search is all blank or nothing qualifies.
///
/// Only the zones around whole-line occurrences of the longest trimmed search line are examined
/// (every window lies in one), so the cost is a substring search plus O(zones + search).
pub fn line_trimmed_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let search = TrimmedSearch::new(search)?;
    let (first, m) = (search.first, search.table.len());
    let search_min = search.table.min_indent();
    let search_sample = search.table.lines[first].text;
    let mut regions = Vec::new();
    let (zones, hits) = search.zones_and_hits(content);
    for zone in zones {
        let table = LineTable::new(&content[zone.clone()]);
        let windows = search.windows(&table);
        if windows.is_empty() {
            continue;
        }
        let mut window_min = SlidingMin::new(table.lead_or_max());
        for i in windows {
            // Trimmed lines agree, so blank lines sit at the same offsets on both sides.
            let min = window_min.min(i, i + m);
            let sample = table.lines[i + first].text;
            if !indent_diff_too_large(sample, search_sample, min.abs_diff(search_min)) {
                let r = table.window_range(i, m);
                regions.push(zone.start + r.start..zone.start + r.end);
            }
        }
    }
    (!regions.is_empty()).then_some(StrategyMatch {
        regions,
        anchor: Some(hits),
    })
}

/// Probe's line-trimmed strategy ([`line_trimmed_match`]); its regions differ from `old_string` in
/// indentation and trailing white space only, so `new_string` is laid into their frame.
pub(super) struct LineTrimmed;

impl MatchStrategy for LineTrimmed {
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch> {
        line_trimmed_match(content, search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(content: &str, search: &str) -> Option<Vec<String>> {
        let m = line_trimmed_match(content, search)?;
        Some(
            m.regions
                .into_iter()
                .map(|r| content[r].to_string())
                .collect(),
        )
    }

    #[test]
    fn matches_lines_ignoring_surrounding_white_space() {
        let content = "fn a() {\n    let x = 1;  \n    let y = 2;\n}";
        assert_eq!(
            texts(content, "let x = 1;\n  let y = 2;").unwrap(),
            vec!["    let x = 1;  \n    let y = 2;"]
        );
    }

    #[test]
    fn all_blank_search_and_no_match() {
        assert_eq!(line_trimmed_match("a\n\nb", "\n  \n"), None);
        assert_eq!(line_trimmed_match("a\nb", "a\nc"), None);
        assert_eq!(line_trimmed_match("a", "a\na"), None);
    }

    #[test]
    fn counts_overlapping_windows() {
        let m = line_trimmed_match("x\nx\nx\nx", "x\nx").unwrap();
        assert_eq!(m.regions, vec![0..3, 2..5, 4..7]);
    }

    #[test]
    fn rejects_windows_too_far_in_nesting() {
        // 8 spaces vs 0: more than 4.
        assert_eq!(
            line_trimmed_match("        foo();\n        bar();", "foo();\nbar();"),
            None
        );
        // 4 spaces vs 0 is tolerated.
        assert!(line_trimmed_match("    foo();\n    bar();", "foo();\nbar();").is_some());
        // Tabs: only one level.
        assert!(line_trimmed_match("\tfoo();", "foo();").is_some());
        assert_eq!(line_trimmed_match("\t\tfoo();", "foo();"), None);
        // A tab in the search's first non-blank line also selects the tab limit.
        assert_eq!(line_trimmed_match("foo();", "\t\tfoo();"), None);
        // Only the first non-blank line decides: spaces first, tab later -> limit 4.
        assert!(line_trimmed_match("   a\n\t\tb", "a\nb").is_some());
    }

    #[test]
    fn keeps_only_qualifying_windows() {
        let content = "        x\n    y\nx\n";
        let m = line_trimmed_match(content, "x").unwrap();
        assert_eq!(m.regions.len(), 1);
        assert_eq!(&content[m.regions[0].clone()], "x");
    }

    #[test]
    fn crlf_lines_match_because_trim_removes_cr() {
        let content = "a\r\nb\r\nc";
        assert_eq!(texts(content, "a\nb").unwrap(), vec!["a\r\nb\r"]);
    }

    #[test]
    fn unicode_white_space_is_trimmed() {
        let content = "\u{3000}名前 = 1;\u{a0}";
        assert_eq!(texts(content, "名前 = 1;").unwrap(), vec![content]);
    }
}
