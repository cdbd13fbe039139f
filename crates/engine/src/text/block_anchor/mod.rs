//! Block-anchor matching: the first and last lines pin a block; the middle only has to be similar.
//!
//! Contract (our own strategy, not Probe's):
//! - The search loses leading/trailing blank lines and must keep at least 3 lines; its first and last
//!   lines, trimmed, are the anchors.
//! - A candidate block is content lines `i..=j` whose trimmed first/last lines equal the anchors,
//!   with `j - i + 1` within `max(2, m / 4)` lines of the search's length `m` (and at least 3).
//! - Similarity of the middles (lines strictly between the anchors, each trimmed, joined by `\n`):
//!   `1 - levenshtein(chars) / max(len)` (1.0 when both are empty); a block qualifies at
//!   [`BLOCK_ANCHOR_THRESHOLD`] or above. For one start line the most similar end wins (ties: the
//!   length closest to `m`, then the shorter).
//! - It matches only when exactly one start line has a qualifying block.
//! - Cost: anchors are found by a substring search (only the zones around the longer anchor's
//!   whole-line occurrences are split into lines); similarity uses a banded edit distance bounded by the
//!   threshold, under a total budget of [`BLOCK_ANCHOR_BUDGET`] cells, beyond which it gives up
//!   (`None`) rather than run long.
//! - Fit: the lines between the anchors may differ from `old_string` in content, so `new_string`
//!   first takes the file's version of the lines it keeps, or the edit is refused
//!   ([`file_lines`]); it is then laid into the region's frame.

mod file_lines;

use super::fit::FitRefusal;
use super::js::js_trim;
use super::levenshtein::bounded_levenshtein;
use super::line_table::LineTable;
use super::zones::{is_whole_trimmed_line, line_zones};
use super::{MatchStrategy, StrategyMatch};
use std::borrow::Cow;
use std::ops::Range;

/// Minimum middle similarity for a block-anchor candidate.
pub const BLOCK_ANCHOR_THRESHOLD: f64 = 0.8;
/// Maximum number of edit-distance cells computed by one block-anchor search.
pub const BLOCK_ANCHOR_BUDGET: usize = 20_000_000;

/// Block-anchor strategy (see the module contract). The region covers whole lines `i..=j`.
pub fn block_anchor_match(content: &str, search: &str) -> Option<StrategyMatch> {
    block_anchor_in(content, search, true)
}

/// [`block_anchor_match`], examining only the anchor zones when `zoned` (else the whole content,
/// which gives the same result more slowly; tests compare the two).
pub(crate) fn block_anchor_in(content: &str, search: &str, zoned: bool) -> Option<StrategyMatch> {
    let search_lines: Vec<&str> = LineTable::new(search)
        .lines
        .iter()
        .map(|l| js_trim(l.text))
        .collect();
    let first = search_lines.iter().position(|l| !l.is_empty())?;
    let last = search_lines.iter().rposition(|l| !l.is_empty())?;
    let search_lines = &search_lines[first..=last];
    let m = search_lines.len();
    if m < 3 {
        return None;
    }
    let (head, tail) = (search_lines[0], search_lines[m - 1]);
    let search_mid: Vec<char> = search_lines[1..m - 1].join("\n").chars().collect();
    let slack = (m / 4).max(2);
    let (min_len, max_len) = ((m.saturating_sub(slack)).max(3), m + slack);
    let mut budget = BLOCK_ANCHOR_BUDGET;
    let mut found: Option<std::ops::Range<usize>> = None;
    // Every candidate block lies in one zone around a whole-line occurrence of the longer anchor.
    let zones = match zoned {
        true => anchor_zones(content, head, tail, max_len),
        false => std::iter::once(0..content.len()).collect(),
    };
    for zone in zones {
        let table = LineTable::new(&content[zone.clone()]);
        let trimmed: Vec<&str> = table.lines.iter().map(|l| js_trim(l.text)).collect();
        let ends = end_positions(&trimmed, tail);
        for i in (0..trimmed.len()).filter(|&i| trimmed[i] == head) {
            let lo = ends.partition_point(|&j| j < i + min_len - 1);
            let hi = ends.partition_point(|&j| j < i + max_len);
            let mut best: Option<(f64, usize, usize)> = None; // (similarity, |len - m|, end)
            for &j in &ends[lo..hi] {
                let mid: Vec<char> = trimmed[i + 1..j].join("\n").chars().collect();
                budget = budget.checked_sub(mid.len())?;
                let sim = similarity(&search_mid, &mid, &mut budget)?;
                let key = (sim, (j + 1 - i).abs_diff(m), j);
                if sim >= BLOCK_ANCHOR_THRESHOLD && best.is_none_or(|b| better(key, b)) {
                    best = Some(key);
                }
            }
            if let Some((_, _, j)) = best {
                if found.is_some() {
                    return None;
                }
                let r = table.window_range(i, j + 1 - i);
                found = Some(zone.start + r.start..zone.start + r.end);
            }
        }
    }
    Some(StrategyMatch {
        regions: vec![found?],
        anchor: None,
    })
}

/// Whole-line zones holding every block of at most `max_len` lines from a `head` line to a `tail`
/// line (trimmed), found from the longer anchor's whole-line occurrences. Start lines are processed
/// in the same order as over the whole content, and each start's candidate ends share its zone.
fn anchor_zones(content: &str, head: &str, tail: &str, max_len: usize) -> Vec<Range<usize>> {
    let (anchor, before, after) = if tail.len() > head.len() {
        (tail, max_len - 1, 0)
    } else {
        (head, 0, max_len - 1)
    };
    let hits = memchr::memmem::find_iter(content.as_bytes(), anchor.as_bytes())
        .filter(|&h| is_whole_trimmed_line(content, h, anchor.len()));
    line_zones(content.as_bytes(), hits, before, after)
}

fn better(a: (f64, usize, usize), b: (f64, usize, usize)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && (a.1, a.2) < (b.1, b.2))
}

/// Ascending indices of the lines equal to `anchor`.
fn end_positions(trimmed: &[&str], anchor: &str) -> Vec<usize> {
    (0..trimmed.len())
        .filter(|&k| trimmed[k] == anchor)
        .collect()
}

/// `1 - distance / max_len` when at least the threshold, `Some(0.0)` below it, `None` when the
/// budget is exhausted.
fn similarity(a: &[char], b: &[char], budget: &mut usize) -> Option<f64> {
    let longest = a.len().max(b.len());
    if longest == 0 {
        return Some(1.0);
    }
    let max_dist = ((1.0 - BLOCK_ANCHOR_THRESHOLD) * longest as f64).floor() as usize;
    if a.len().abs_diff(b.len()) > max_dist {
        return Some(0.0);
    }
    let cost = a.len().saturating_mul(2 * max_dist + 1);
    *budget = budget.checked_sub(cost)?;
    Some(match bounded_levenshtein(a, b, max_dist) {
        Some(d) => 1.0 - d as f64 / longest as f64,
        None => 0.0,
    })
}

/// The block-anchor strategy ([`block_anchor_match`]).
pub(super) struct BlockAnchor;

impl MatchStrategy for BlockAnchor {
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch> {
        block_anchor_match(content, search)
    }

    fn reconcile<'n>(
        &self,
        region_text: &str,
        old: &str,
        new: &'n str,
    ) -> Result<Cow<'n, str>, FitRefusal> {
        file_lines::merge_file_lines(region_text, old, new).map(Cow::Owned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "fn a() {\n    let x = compute(1, 2);\n    let y = x * 2;\n    y\n}\n\nfn b() {\n    other();\n}\n";

    #[test]
    fn matches_when_the_middle_is_similar() {
        let search = "fn a() {\n  let x = compute(1,2);\n  let y = x*2;\n  y\n}";
        let m = block_anchor_match(FILE, search).unwrap();
        assert_eq!(
            &FILE[m.regions[0].clone()],
            &FILE[..FILE.find("}\n").unwrap() + 1]
        );
    }

    #[test]
    fn rejects_a_dissimilar_middle() {
        assert_eq!(
            block_anchor_match(FILE, "fn a() {\n    totally(different);\n    code();\n}"),
            None
        );
    }

    #[test]
    fn needs_three_lines_and_both_anchors() {
        assert_eq!(block_anchor_match(FILE, "fn a() {\n}"), None);
        assert_eq!(block_anchor_match(FILE, "\n\nfn a() {\n}\n\n"), None);
        assert_eq!(
            block_anchor_match(FILE, "fn c() {\n    let x = compute(1, 2);\n}"),
            None
        );
    }

    #[test]
    fn ambiguous_blocks_are_rejected() {
        let twice = format!("{FILE}{FILE}");
        let search = "fn a() {\n    let x = compute(1, 2);\n    let y = x * 3;\n    y\n}";
        assert!(block_anchor_match(FILE, search).is_some());
        assert_eq!(block_anchor_match(&twice, search), None);
    }

    #[test]
    fn prefers_the_best_end_for_a_start() {
        let content = "f() {\n  if (x) {\n    y();\n  }\n}\nrest";
        let search = "f() {\n  if (x) {\n    y(1);\n  }\n}";
        let m = block_anchor_match(content, search).unwrap();
        assert_eq!(
            &content[m.regions[0].clone()],
            "f() {\n  if (x) {\n    y();\n  }\n}"
        );
    }

    #[test]
    fn tolerates_a_missing_or_extra_line() {
        let content = "start {\n  one();\n  two();\n  three();\n  four();\n  five();\n}";
        let search = "start {\n  one();\n  two();\n  three();\n  four();\n  five();\n  six();\n}";
        assert!(block_anchor_match(content, search).is_some());
    }

    #[test]
    fn similarity_metric() {
        let mut budget = 1_000;
        let a: Vec<char> = "abcdefghij".chars().collect();
        let b: Vec<char> = "abcdefghiX".chars().collect();
        assert_eq!(similarity(&a, &b, &mut budget), Some(0.9));
        assert_eq!(similarity(&a, &a[..5], &mut budget), Some(0.0));
        assert_eq!(similarity(&[], &[], &mut budget), Some(1.0));
        let mut empty = 0;
        assert_eq!(similarity(&a, &b, &mut empty), None);
    }
}
