//! The one match driver: exact occurrences first, then the fuzzy strategies in [`Strategy::ALL`]
//! order, with every candidate region kept so ambiguity can be judged. The edit tool, the
//! benches, the examples and the fuzz properties all run [`locate`].

use std::borrow::Cow;
use std::ops::Range;

use super::fit::style_around;
use super::js::js_trim;
use super::{AnchorHits, FuzzyMatch, Strategy};
use crate::lines::detect_style;

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

    fn strategies(&self) -> &[Strategy] {
        match self {
            Restriction::Any => &Strategy::ALL,
            Restriction::ExactOnly => &[],
            Restriction::Only(s) => std::slice::from_ref(s),
        }
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
/// `content` and `old` are taken as given (callers pass LF views; see [`lf_view`]).
pub fn locate(content: &str, old: &str, restriction: Restriction) -> Option<Located> {
    if let Some(found) = exact(content, old) {
        return Some(found);
    }
    if js_trim(old).is_empty() {
        return None;
    }
    restriction.strategies().iter().find_map(|&strategy| {
        fuzzy(content, old, strategy).or_else(|| through_line_end(content, old, strategy))
    })
}

/// An `old` that ends with its line's `\n` (and maybe empty lines after it): the strategy run on
/// the lines without those `\n`s (a line strategy would otherwise look for blank lines after
/// them), each region then taking as many `\n`s of the file after it. `None` when `old` has no
/// trailing `\n` or a region is not followed by them.
fn through_line_end(content: &str, old: &str, strategy: Strategy) -> Option<Located> {
    let lines = old.trim_end_matches('\n');
    let breaks = old.len() - lines.len();
    if breaks == 0 || js_trim(lines).is_empty() {
        return None;
    }
    let mut found = fuzzy(content, lines, strategy)?;
    for r in &mut found.regions {
        let after = content.as_bytes().get(r.end..r.end + breaks)?;
        if after.iter().any(|&b| b != b'\n') {
            return None;
        }
        r.end += breaks;
    }
    let disjoint = found.regions.windows(2).all(|w| w[0].end <= w[1].start);
    disjoint.then_some(found)
}

/// One strategy's candidates, deduplicated as [`locate`] describes.
fn fuzzy(content: &str, old: &str, strategy: Strategy) -> Option<Located> {
    let found = strategy.find(content, old)?;
    let anchor = found.anchor;
    let mut regions = ending_at_line_break(content, old, non_overlapping(found.regions));
    if PROBE_LINE_STRATEGIES.contains(&strategy) {
        regions = within_a_level(content, old, regions);
    }
    let first = content.get(regions.first()?.clone())?;
    let identical = regions
        .iter()
        .all(|r| content.get(r.clone()) == Some(first));
    if identical {
        let mut same = occurrences(content, first, anchor.as_ref())?;
        same.strategy = Some(strategy);
        return Some(same);
    }
    Some(Located {
        strategy: Some(strategy),
        regions,
        identical: false,
    })
}

/// An `old` that ends with its line break claims no text after it: a region whose last line is
/// whitespace only (a line strategy matched `old`'s empty last line to it) ends at the line break
/// before that line, which is left as it is.
fn ending_at_line_break(content: &str, old: &str, regions: Vec<Range<usize>>) -> Vec<Range<usize>> {
    if !old.ends_with('\n') {
        return regions;
    }
    let blank = |s: &str| !s.is_empty() && s.bytes().all(|b| b == b' ' || b == b'\t');
    let cut = |r: Range<usize>| match content[r.clone()].rfind('\n') {
        Some(i) if blank(&content[r.start + i + 1..r.end]) => r.start..r.start + i + 1,
        _ => r,
    };
    regions.into_iter().map(cut).collect()
}

/// Probe's strategies that bound the indentation gap in characters.
const PROBE_LINE_STRATEGIES: [Strategy; 3] = [
    Strategy::LineTrimmed,
    Strategy::WhitespaceNormalized,
    Strategy::IndentFlexible,
];

/// The edit tool's guard on the candidates of Probe's strategies: where the search and a candidate
/// indent in different styles (tabs against spaces), Probe's one-character limit says nothing, so
/// the gap is measured in levels (a tab is one; spaces count by the file's unit read around the
/// candidate ([`UnitNear`]), or by the model's for the search) and candidates more than one level
/// apart are dropped.
fn within_a_level(content: &str, old: &str, regions: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let tabbed = |s: &str| s.split('\n').any(|l| l.starts_with('\t'));
    // A region measured from its line's start (it may start after the indentation).
    let lines_of = |r: &Range<usize>| {
        let start = content[..r.start].rfind('\n').map_or(0, |i| i + 1);
        &content[start..r.end]
    };
    let old_tabs = tabbed(old);
    if !regions.iter().any(|r| tabbed(lines_of(r)) != old_tabs) {
        return regions;
    }
    let old_levels = min_levels(old, detect_style(old).unit);
    let mut file_unit = UnitNear::new(content);
    regions
        .into_iter()
        .filter(|r| min_levels(lines_of(r), file_unit.at(r.start)).abs_diff(old_levels) <= 1)
        .collect()
}

/// Bytes a position may lie past the last reading of [`UnitNear`] before the unit is read again.
const UNIT_REREAD: usize = 4 * 1024;

/// The file's indentation unit around positions given in ascending order ([`style_around`]), read
/// again once a position lies [`UNIT_REREAD`] bytes past the last reading: linear in the file
/// however many candidates there are.
struct UnitNear<'a> {
    content: &'a str,
    read: Option<(usize, usize)>,
}

impl<'a> UnitNear<'a> {
    fn new(content: &'a str) -> UnitNear<'a> {
        UnitNear {
            content,
            read: None,
        }
    }

    fn at(&mut self, at: usize) -> usize {
        match self.read {
            Some((read_at, unit)) if at < read_at + UNIT_REREAD => unit,
            _ => {
                let unit = style_around(self.content, at).unit;
                self.read = Some((at, unit));
                unit
            }
        }
    }
}

/// The smallest indentation of `text`'s non-blank lines in levels (tab = 1, `unit` spaces = 1).
fn min_levels(text: &str, unit: usize) -> usize {
    text.split('\n')
        .filter(|l| !js_trim(l).is_empty())
        .map(|l| {
            let ind = &l[..l.len() - l.trim_start_matches([' ', '\t']).len()];
            let tabs = ind.bytes().filter(|&b| b == b'\t').count();
            tabs + (ind.len() - tabs) / unit.max(1)
        })
        .min()
        .unwrap_or(0)
}

/// [`exact`] occurrences of a region's text, from the strategy's anchor positions when they can
/// give them ([`AnchorHits::occurrences`]), else by a scan.
fn occurrences(content: &str, needle: &str, anchor: Option<&AnchorHits>) -> Option<Located> {
    let Some(regions) = anchor.and_then(|a| a.occurrences(content, needle)) else {
        return exact(content, needle);
    };
    (!regions.is_empty()).then_some(Located {
        strategy: None,
        regions,
        identical: true,
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

/// Probe's `findFuzzyMatch` over `strategies` on the CRLF->LF normalized inputs; the first with a
/// region wins. Regions are reported as the strategy found them (Probe's overlapping windows).
pub(crate) fn run(content: &str, search: &str, strategies: &[Strategy]) -> Option<FuzzyMatch> {
    if js_trim(search).is_empty() {
        return None;
    }
    let content = lf_view(content);
    let search = lf_view(search);
    strategies.iter().find_map(|&strategy| {
        let found = strategy.find(&content, &search)?;
        let first = found.regions.first()?.clone();
        Some(FuzzyMatch {
            matched_text: content.get(first)?.to_string(),
            strategy,
            count: found.regions.len(),
            regions: found.regions,
        })
    })
}

/// `s` with every CRLF replaced by LF, borrowed when it has none (one `memmem` scan).
pub fn lf_view(s: &str) -> Cow<'_, str> {
    if memchr::memmem::find(s.as_bytes(), b"\r\n").is_some() {
        Cow::Owned(s.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fuzzy_only(content: &str, search: &str) -> Option<Located> {
        locate(content, search, Restriction::Any).filter(|l| l.strategy.is_some())
    }

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
        let content = "  foo(a,  b)";
        let only = |name: &str| locate(content, "foo(a, b)", Restriction::parse(name).unwrap());
        assert_eq!(
            only("whitespace-normalized").unwrap().strategy,
            Some(Strategy::WhitespaceNormalized)
        );
        assert_eq!(only("line-trimmed"), None);
        assert_eq!(only("quote-normalized"), None);
    }

    #[test]
    fn later_strategies_run_after_probes() {
        let content = lf_view("say(\u{201C}hi\u{201D});\r\nnext();\r\n");
        let l = fuzzy_only(&content, "say(\"hi\");").unwrap();
        assert_eq!(l.strategy, Some(Strategy::QuoteNormalized));
        assert_eq!(&content[l.regions[0].clone()], "say(\u{201C}hi\u{201D});");
        assert_eq!(
            crate::text::find_fuzzy_match(&content, "say(\"hi\");"),
            None
        );
    }

    #[test]
    fn each_new_strategy_is_reachable() {
        let l = fuzzy_only("a(\"x\");\nb();", r#"a(\"x\");\nb();"#).unwrap();
        assert_eq!(l.strategy, Some(Strategy::EscapeNormalized));
        let content = "x();\nfoo(1);\ny();";
        let l = fuzzy_only(content, "\nfoo(1); \n").unwrap();
        assert_eq!(
            (l.strategy, &content[l.regions[0].clone()]),
            (Some(Strategy::TrimmedBoundary), "foo(1);\n")
        );
        // Line breaks around the search are line boundaries: text inside a line is no match.
        assert_eq!(fuzzy_only("x = foo(1); y();", "\nfoo(1); \n"), None);
        let content = "fn a() {\n    let value = compute(1, 2);\n    value\n}\n";
        let search = "fn a() {\n    let value = compute(1,2);\n    value\n}";
        let l = fuzzy_only(content, search).unwrap();
        assert_eq!(l.strategy, Some(Strategy::BlockAnchor));
        assert_eq!(&content[l.regions[0].clone()], content.trim_end());
    }

    #[test]
    fn a_trailing_line_break_with_other_indentation_still_matches() {
        let content = "fn a() {\n        x();\n        y();\n}\n";
        let l = fuzzy_only(content, "    x();\n    y();\n").unwrap();
        assert_eq!(l.strategy, Some(Strategy::LineTrimmed));
        let region = &content[l.regions[0].clone()];
        assert_eq!(region, "        x();\n        y();\n");
        let deeper = "fn a() {\n            x();\n            y();\n}\n";
        let l = fuzzy_only(deeper, "x();\ny();\n").unwrap();
        assert_eq!(l.strategy, Some(Strategy::IndentShifted));
        let region = &deeper[l.regions[0].clone()];
        assert_eq!(region, "            x();\n            y();\n");
    }

    /// Closing braces copied in tabs (four and three levels) for a file of four-space levels:
    /// Probe's one-character limit takes the pair at two and one levels (lines 9-10); measured in
    /// levels it is too far, and the pair at the copied levels (lines 7-8) is taken.
    #[test]
    fn tab_copies_are_measured_in_levels() {
        let mut content = String::new();
        for depth in 0..5 {
            content.push_str(&format!("{}if c{depth} {{\n", "    ".repeat(depth)));
        }
        content.push_str(&format!("{}x();\n", "    ".repeat(5)));
        for depth in (0..5).rev() {
            content.push_str(&format!("{}}}\n", "    ".repeat(depth)));
        }
        let search = "\t\t\t\t}\n\t\t\t}";
        let probe = crate::text::line_trimmed_match(&content, search).unwrap();
        assert_eq!(line_span(&content, &probe.regions[0]), (9, 10));
        let found = fuzzy_only(&content, search);
        let spans: Vec<_> = found
            .iter()
            .flat_map(|l| {
                l.regions
                    .iter()
                    .map(|r| (l.strategy, line_span(&content, r)))
            })
            .collect();
        assert!(
            !spans.is_empty() && spans.iter().all(|s| s.1 == (7, 8)),
            "{spans:?}"
        );
    }

    #[test]
    fn probe_strategies_keep_priority() {
        let l = fuzzy_only("  a\u{2019}\n  b", "a\u{2019}\nb").unwrap();
        assert_eq!(l.strategy, Some(Strategy::LineTrimmed));
    }

    #[test]
    fn names_round_trip() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::from_name(s.as_str()), Some(s));
        }
        assert_eq!(Strategy::QuoteNormalized.as_str(), "quote-normalized");
        assert_eq!(Strategy::EscapeNormalized.as_str(), "escape-normalized");
        assert_eq!(Strategy::TrimmedBoundary.as_str(), "trimmed-boundary");
        assert_eq!(Strategy::BlockAnchor.as_str(), "block-anchor");
        assert_eq!(Strategy::from_name("Line-Trimmed"), None);
    }

    #[test]
    fn lf_view_borrows_without_crlf() {
        assert!(matches!(lf_view("a\nb\r"), Cow::Borrowed("a\nb\r")));
        assert_eq!(lf_view("a\r\nb\r\r\n"), "a\nb\r\n");
    }

    #[test]
    fn blank_search_is_none() {
        assert_eq!(locate("a", " \n ", Restriction::Any), None);
        let tb = Restriction::Only(Strategy::TrimmedBoundary);
        assert_eq!(locate("a", "", tb), None);
    }

    /// `old` ends with its line break and the file's next line holds only white space: the
    /// region ends at the line break (a line strategy matched the white space to `old`'s empty
    /// last line, and the edit then removed that line).
    #[test]
    fn a_whitespace_line_after_old_stays_out_of_the_region() {
        let content = "def f():\n\tx = 1\n        return x\n    \n    def g():\n";
        let l = fuzzy_only(content, "\tx = 1\n\treturn x\n").unwrap();
        assert_eq!(
            &content[l.regions[0].clone()],
            "\tx = 1\n        return x\n"
        );
    }

    /// A 2-space head longer than 16 KB, then a 4-space part: the unit of tab copies is read
    /// around each candidate, not at the file's head.
    fn two_space_head_then(body: &str) -> String {
        let mut content = "  h();\n".repeat(2_500);
        content.push_str(&"    f();\n".repeat(1_200));
        content.push_str(body);
        content
    }

    /// [`tab_copies_are_measured_in_levels`] far down a file whose head indents by 2.
    #[test]
    fn levels_are_measured_in_the_unit_around_the_candidate() {
        let mut block = String::new();
        for depth in 0..5 {
            block.push_str(&format!("{}if c{depth} {{\n", "    ".repeat(depth)));
        }
        block.push_str(&format!("{}x();\n", "    ".repeat(5)));
        for depth in (0..5).rev() {
            block.push_str(&format!("{}}}\n", "    ".repeat(depth)));
        }
        let content = two_space_head_then(&block);
        let first = line_span(&content, &(content.len() - block.len()..content.len())).0;
        let found = fuzzy_only(&content, "\t\t\t\t}\n\t\t\t}").expect("a candidate");
        let spans: Vec<_> = found
            .regions
            .iter()
            .map(|r| line_span(&content, r))
            .collect();
        assert_eq!(spans, vec![(first + 6, first + 7)]);
    }

    /// Random files of a few indented lines and searches cut from them with their white space
    /// changed: a fuzzy match whose candidates hold one text reports that text's exact
    /// occurrences, as a scan of the file finds them, however they were found.
    #[test]
    fn one_texts_occurrences_are_the_scans() {
        const LINES: [&str; 6] = ["a", "a b", "b", "a  a", "}", "ab"];
        const INDENTS: [&str; 4] = ["", "  ", "    ", "\t"];
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut fuzzy_ones = 0;
        for _ in 0..20_000 {
            let lines: Vec<String> = (0..1 + next(12))
                .map(|_| format!("{}{}", INDENTS[next(4)], LINES[next(LINES.len())]))
                .collect();
            let content = lines.join("\n");
            let from = next(lines.len());
            let to = (from + 1 + next(3)).min(lines.len());
            let old: Vec<String> = lines[from..to]
                .iter()
                .map(|l| {
                    l.trim_start()
                        .replace(' ', if next(2) == 0 { "  " } else { " " })
                })
                .collect();
            let Some(l) = locate(&content, &old.join("\n"), Restriction::Any) else {
                continue;
            };
            if l.strategy.is_none() || !l.identical {
                continue;
            }
            fuzzy_ones += 1;
            let scanned = exact(&content, &content[l.regions[0].clone()]).unwrap();
            assert_eq!(l.regions, scanned.regions, "{content:?} {old:?}");
        }
        assert!(fuzzy_ones > 2_000, "only {fuzzy_ones} fuzzy matches");
    }
}
