//! Whitespace-normalized strategy: runs of spaces/tabs compare as one space; newlines stay.

use super::js::{js_trim, js_trim_end, js_trim_start};
use super::kmp::Kmp;
use super::line_table::{indent_limit_exceeded, LineTable};
use super::range_min::SlidingMin;
use super::zones::line_zones;
use super::{AnchorHits, MatchStrategy, StrategyMatch};

/// `s` with every run of `' '`/`'\t'` collapsed to one `' '`, and for each output byte the index of
/// the input byte it came from (a collapsed run maps to its first byte).
pub(crate) fn collapse_blanks(s: &str) -> (Vec<u8>, Vec<usize>) {
    let (mut out, mut map) = (Vec::new(), Vec::new());
    collapse_into(s.as_bytes(), &mut out, &mut map);
    (out, map)
}

/// [`collapse_blanks`] into reused buffers (cleared first).
fn collapse_into(bytes: &[u8], out: &mut Vec<u8>, map: &mut Vec<usize>) {
    out.clear();
    map.clear();
    out.reserve(bytes.len());
    map.reserve(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        map.push(i);
        if b == b' ' || b == b'\t' {
            out.push(b' ');
            while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
                i += 1;
            }
        } else {
            out.push(b);
            i += 1;
        }
    }
}

/// The longest run of the collapsed search without `' '` or `'\n'`, with the number of `'\n'`
/// before and after it. Such a run occurs verbatim in the content wherever the search matches, on
/// the match's line `before`. `None` when the collapsed search is only spaces and newlines.
fn anchor_piece(norm: &[u8]) -> Option<(&[u8], usize, usize)> {
    let mut best: Option<(&[u8], usize)> = None;
    let mut newlines = 0;
    for piece in norm.split(|&b| b == b'\n') {
        for run in piece.split(|&b| b == b' ') {
            if run.len() > best.map_or(0, |b| b.0.len()) {
                best = Some((run, newlines));
            }
        }
        newlines += 1;
    }
    let (run, before) = best?;
    Some((run, before, newlines - 1 - before))
}

/// Probe's `whitespaceNormalizedMatch`. Every occurrence of the collapsed search in the collapsed
/// content is a candidate (overlapping ones too). A candidate's region starts at the original byte of
/// its first collapsed byte and ends just after the original character of its last collapsed byte, so
/// when the search ends in spaces/tabs the region keeps only the first byte of the content's run
/// there. Candidates whose minimum indentation is too far from the search's are dropped (see
/// [`line_trimmed_match`](super::line_trimmed_match)). `None` for a blank search or no candidate.
///
/// Collapsing keeps newlines, so only the whole-line zones around occurrences of the search's
/// longest blank-free run are collapsed and searched (KMP): a substring search plus O(zones).
pub fn whitespace_normalized_match(content: &str, search: &str) -> Option<StrategyMatch> {
    if js_trim(search).is_empty() {
        return None;
    }
    let (norm_search, _) = collapse_blanks(search);
    let (anchor, before, after) = anchor_piece(&norm_search)?;
    let hits = AnchorHits::find(content.as_bytes(), anchor);
    let zones = line_zones(content.as_bytes(), hits.at.iter().copied(), before, after);
    let search_lines = LineTable::new(search);
    let search_min = search_lines.min_indent();
    let search_tabs = search_lines
        .first_non_blank()
        .is_some_and(|i| search_lines.lines[i].text.starts_with('\t'));
    let last = norm_search.len() - 1;
    let kmp = Kmp::new(norm_search);
    let (mut norm, mut map) = (Vec::new(), Vec::new());
    let mut regions = Vec::new();
    for zone in zones {
        let text = &content[zone.clone()];
        collapse_into(text.as_bytes(), &mut norm, &mut map);
        let mut checker: Option<IndentChecker> = None;
        kmp.for_each_match(&norm, |idx| {
            let start = map[idx];
            let end = map[idx + last] + 1;
            let checker = checker.get_or_insert_with(|| IndentChecker::new(text));
            let (min, tabs) = checker.min_indent_and_tabs(start, end);
            let tabs = tabs || search_tabs;
            if !indent_limit_exceeded(tabs, min.abs_diff(search_min)) {
                regions.push(zone.start + start..zone.start + end);
            }
        });
    }
    (!regions.is_empty()).then_some(StrategyMatch {
        regions,
        anchor: Some(hits),
    })
}

/// Probe's `getMinIndent` and tab sample of `content[start..end].split('\n')` in amortized O(1) per
/// region, for regions whose `start` and `end` never decrease and that contain a non-blank character.
struct IndentChecker<'a> {
    content: &'a [u8],
    lines: LineTable<'a>,
    /// Per line: byte offset where its leading JS white space ends / its trailing JS white space starts.
    ws_lead_end: Vec<usize>,
    trim_end: Vec<usize>,
    /// Index of the first non-blank line at or after each line (`len` when none).
    next_non_blank: Vec<usize>,
    middle_min: SlidingMin,
    first_line: usize,
    last_line: usize,
}

impl<'a> IndentChecker<'a> {
    fn new(content: &'a str) -> Self {
        let lines = LineTable::new(content);
        let n = lines.len();
        let mut next_non_blank = vec![n; n + 1];
        for i in (0..n).rev() {
            next_non_blank[i] = if lines.lines[i].blank {
                next_non_blank[i + 1]
            } else {
                i
            };
        }
        let ws_lead_end = lines
            .lines
            .iter()
            .map(|l| l.start + l.text.len() - js_trim_start(l.text).len())
            .collect();
        let trim_end = lines
            .lines
            .iter()
            .map(|l| l.start + js_trim_end(l.text).len())
            .collect();
        let middle_min = SlidingMin::new(lines.lead_or_max());
        IndentChecker {
            content: content.as_bytes(),
            lines,
            ws_lead_end,
            trim_end,
            next_non_blank,
            middle_min,
            first_line: 0,
            last_line: 0,
        }
    }

    /// Index of the last line starting at or before `pos`, searching forward from `from`.
    fn line_at(&self, mut from: usize, pos: usize) -> usize {
        while from + 1 < self.lines.len() && self.lines.lines[from + 1].start <= pos {
            from += 1;
        }
        from
    }

    /// `(min indent, first non-blank segment starts with a tab)` of `content[start..end]`.
    fn min_indent_and_tabs(&mut self, start: usize, end: usize) -> (u32, bool) {
        self.first_line = self.line_at(self.first_line, start);
        self.last_line = self.line_at(self.last_line.max(self.first_line), end);
        let (first, last) = (self.first_line, self.last_line);
        let first_lead = self.content[start..end]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count() as u32;
        if first == last {
            // The region holds a non-blank character, so its only segment is non-blank.
            return (first_lead, self.content.get(start) == Some(&b'\t'));
        }
        let first_blank = start >= self.trim_end[first];
        let last_info = &self.lines.lines[last];
        let last_blank = end <= self.ws_lead_end[last];
        let mut min = self.middle_min.min(first + 1, last);
        if !first_blank {
            min = min.min(first_lead);
        }
        if !last_blank {
            min = min.min(last_info.lead);
        }
        let tabs = if !first_blank {
            self.content.get(start) == Some(&b'\t')
        } else {
            let k = self.next_non_blank[first + 1];
            if k < last {
                self.lines.lines[k].text.starts_with('\t')
            } else {
                // A blank full line has a blank prefix, so `k > last` implies `last_blank`.
                !last_blank && last_info.text.starts_with('\t')
            }
        };
        (if min == u32::MAX { 0 } else { min }, tabs)
    }
}

/// Probe's whitespace-normalized strategy ([`whitespace_normalized_match`]); its regions differ
/// from `old_string` in white space only, so `new_string` is laid into their frame.
pub(super) struct WhitespaceNormalized;

impl MatchStrategy for WhitespaceNormalized {
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch> {
        whitespace_normalized_match(content, search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(content: &str, search: &str) -> Option<Vec<&'static str>> {
        let m = whitespace_normalized_match(content, search)?;
        let leaked: &'static str = Box::leak(content.to_string().into_boxed_str());
        Some(m.regions.into_iter().map(|r| &leaked[r]).collect())
    }

    #[test]
    fn collapses_runs_of_spaces_and_tabs_only() {
        let (norm, map) = collapse_blanks("a \t b\n\n  c");
        assert_eq!(norm, b"a b\n\n c");
        assert_eq!(map, vec![0, 1, 4, 5, 6, 7, 9]);
    }

    #[test]
    fn anchor_is_the_longest_blank_free_run() {
        assert_eq!(anchor_piece(b"a bcd\nef g"), Some((&b"bcd"[..], 0, 1)));
        assert_eq!(anchor_piece(b" \n x\nyy \n"), Some((&b"yy"[..], 2, 1)));
        assert_eq!(anchor_piece(b" \n "), None);
    }

    #[test]
    fn trailing_white_space_keeps_only_first_byte_of_the_run() {
        // Probe maps the collapsed final space back to the first byte of the content's run.
        assert_eq!(
            texts("let  x =\t\t1;  // c", "let x = 1; ").unwrap(),
            vec!["let  x =\t\t1; "]
        );
        assert_eq!(texts("  x  \n", " x \n").unwrap(), vec!["  x  \n"]);
        assert_eq!(texts("a\t\t\tb", "a ").unwrap(), vec!["a\t"]);
    }

    #[test]
    fn leading_white_space_run_is_included_whole() {
        assert_eq!(
            texts("\t\tfoo  (x)", "\tfoo (x)").unwrap(),
            vec!["\t\tfoo  (x)"]
        );
        assert_eq!(
            texts("        foo  bar", "foo bar").unwrap(),
            vec!["foo  bar"]
        );
    }

    #[test]
    fn finds_overlapping_occurrences() {
        assert_eq!(texts("aaaa", "aa").unwrap(), vec!["aa", "aa", "aa"]);
        assert_eq!(texts("a  b\n  a b", "a b").unwrap(), vec!["a  b", "a b"]);
    }

    #[test]
    fn newlines_are_not_white_space_here() {
        assert_eq!(whitespace_normalized_match("a\n b", "a b"), None);
        assert_eq!(
            whitespace_normalized_match("  x\n        foo  bar", "x\nfoo bar"),
            None
        );
    }

    #[test]
    fn blank_search_is_none() {
        assert_eq!(whitespace_normalized_match("a  b", " \t\n "), None);
        assert_eq!(whitespace_normalized_match("a  b", ""), None);
    }

    #[test]
    fn indent_tolerance_applies_to_the_matched_lines() {
        // Matched lines "if (a) {" (0) and "\t\t\treturn  1;" (3) -> min 0; the search's min is 0 but
        // the match must also collapse the tabs, which it cannot here: no candidate at all.
        assert_eq!(
            whitespace_normalized_match("if (a) {\n\t\t\treturn  1;\n}", "if (a) {\nreturn 1;"),
            None
        );
        // Region " x\n        y": min indent 1 (first line) vs search " x\n y" min 1 -> fine.
        assert!(whitespace_normalized_match(" x\n        y", " x\n y").is_some());
        // Region "          y  z" has indent 10 vs search indent 1 -> rejected (> 4).
        assert_eq!(whitespace_normalized_match("          y  z", " y z"), None);
        // With tabs the limit is 1: region indent 3 tabs vs search indent 1.
        assert_eq!(whitespace_normalized_match("\t\t\ty  z", "\ty z"), None);
        assert!(whitespace_normalized_match("\t\ty  z", "\ty z").is_some());
    }

    #[test]
    fn blank_first_segment_defers_the_tab_sample_to_the_next_line() {
        // Region " \n\t\t\tb": the first segment " " is blank, so "\t\t\tb" is the sample (tab
        // limit 1); min indent 3 vs the search's 1.
        assert_eq!(whitespace_normalized_match("a \n\t\t\tb", " \n b"), None);
        assert!(whitespace_normalized_match("a \n\t\tb", " \n b").is_some());
        // Same distance with spaces is within the limit of 4 until it exceeds it.
        assert!(whitespace_normalized_match("a \n     b", " \n b").is_some());
        assert_eq!(whitespace_normalized_match("a \n      b", " \n b"), None);
    }

    #[test]
    fn unicode_content() {
        assert_eq!(
            texts("héllo   wörld 😀", "héllo wörld 😀").unwrap(),
            vec!["héllo   wörld 😀"]
        );
        assert_eq!(
            texts("x\u{a0}\u{a0}y", "x\u{a0}\u{a0}y").unwrap(),
            vec!["x\u{a0}\u{a0}y"]
        );
        assert_eq!(whitespace_normalized_match("x\u{a0}y", "x y"), None);
    }
}
