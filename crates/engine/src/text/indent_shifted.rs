//! Indent-shifted strategy: a block of two or more non-blank lines that equals the search line by
//! line once one uniform indentation shift is removed, measured in columns with a tab as one
//! level (tried at 4, 2 and 8 columns per level). Accepted at any depth, but only when exactly one
//! place of the content qualifies, or, of several, exactly one is not shifted at all for a tab
//! width (tabs copied for the file's spaces at the very levels of one place); otherwise single
//! lines and repeated blocks keep Probe's one-level guard.

use super::line_table::LineTable;
use super::line_trimmed::TrimmedSearch;
use super::{MatchStrategy, StrategyMatch};

/// Columns of a line's leading white space with a tab as `tab` columns.
fn columns(line: &str, tab: usize) -> usize {
    line.bytes()
        .take_while(|&b| b == b' ' || b == b'\t')
        .map(|b| if b == b'\t' { tab } else { 1 })
        .sum()
}

/// Most candidates weighed before the search is refused as repeated.
const MAX_CANDIDATES: usize = 64;

/// Whether every non-blank line pair is shifted by the same number of columns for some tab width:
/// `Some(true)` when for one of those widths the shift is nothing, `Some(false)` when it is some;
/// `None` when no width shifts them alike.
fn uniform_shift(window: &[&str], search: &[&str]) -> Option<bool> {
    let shifts: Vec<isize> = [4usize, 2, 8]
        .iter()
        .filter_map(|&tab| {
            let mut shift: Option<isize> = None;
            let uniform = window.iter().zip(search).all(|(w, s)| {
                if s.trim().is_empty() {
                    return true;
                }
                let d = columns(w, tab) as isize - columns(s, tab) as isize;
                *shift.get_or_insert(d) == d
            });
            uniform.then_some(shift.unwrap_or(0))
        })
        .collect();
    (!shifts.is_empty()).then(|| shifts.contains(&0))
}

/// The single block matching `search` under a uniform indentation shift (of several, the single one
/// not shifted); `None` when the search has fewer than two non-blank lines or when no place, or more
/// than one, qualifies.
pub fn indent_shifted_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let prepared = TrimmedSearch::new(search)?;
    let search_lines: Vec<&str> = prepared.table.lines.iter().map(|l| l.text).collect();
    if search_lines.iter().filter(|l| !l.trim().is_empty()).count() < 2 {
        return None;
    }
    let m = search_lines.len();
    let mut candidates = Vec::new();
    for zone in prepared.zones(content) {
        let table = LineTable::new(&content[zone.clone()]);
        for i in prepared.windows(&table) {
            let window: Vec<&str> = table.lines[i..i + m].iter().map(|l| l.text).collect();
            if let Some(unshifted) = uniform_shift(&window, &search_lines) {
                let r = table.window_range(i, m);
                candidates.push((zone.start + r.start..zone.start + r.end, unshifted));
                if candidates.len() > MAX_CANDIDATES {
                    return None;
                }
            }
        }
    }
    if candidates.len() > 1 {
        candidates.retain(|(_, unshifted)| *unshifted);
    }
    let regions: Vec<_> = candidates.into_iter().map(|(r, _)| r).collect();
    (regions.len() == 1).then_some(StrategyMatch {
        regions,
        anchor: None,
    })
}

/// The indent-shifted strategy ([`indent_shifted_match`]); its regions differ from `old_string`
/// by one indentation shift, so `new_string` is laid into their frame.
pub(super) struct IndentShifted;

impl MatchStrategy for IndentShifted {
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch> {
        indent_shifted_match(content, search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_levels_deeper_and_tabs_for_spaces_match_once() {
        let content = "class A:\n    def f(self):\n        if x:\n            y()\n";
        let m = indent_shifted_match(content, "if x:\n    y()").unwrap();
        assert_eq!(
            &content[m.regions[0].clone()],
            "        if x:\n            y()"
        );
        let m = indent_shifted_match(content, "\t\tif x:\n\t\t\ty()").unwrap();
        assert_eq!(m.regions.len(), 1);
    }

    #[test]
    fn non_uniform_single_line_or_repeated_blocks_do_not_match() {
        let content = "        if x:\n            y()\n";
        assert!(indent_shifted_match(content, "if x:\ny()").is_none());
        assert!(indent_shifted_match(content, "if x:").is_none());
        let twice = "  a\n    b\n      a\n        b\n";
        assert!(indent_shifted_match(twice, "a\n  b").is_none());
    }

    #[test]
    fn of_several_shifted_places_the_one_at_the_copied_levels_is_taken() {
        let content = "a {\n    b {\n        c {\n        }\n    }\n}\n";
        let m = indent_shifted_match(content, "\t\t}\n\t}").unwrap();
        assert_eq!(&content[m.regions[0].clone()], "        }\n    }");
        // Both pairs shifted (no place at the copied levels): repeated, refused.
        assert!(indent_shifted_match(content, "\t\t\t}\n\t\t}").is_none());
    }
}
