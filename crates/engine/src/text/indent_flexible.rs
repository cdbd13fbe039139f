//! Indent-flexible strategy: windows equal to the search once each side loses its minimum indentation.
//!
//! Every such window is also a line-trimmed window (stripping indentation only removes white space),
//! so candidates come from the line-trimmed zones and windows ([`TrimmedSearch`]). Verifying a candidate is O(1) through a second KMP pass
//! over indentation-relative line tokens (see [`IndentTokens`]); only windows whose lines disagree in
//! the characters being stripped (mixed tabs/spaces there) are compared line by line.

use std::collections::HashMap;

use super::kmp::for_each_match;
use super::line_table::{indent_diff_too_large, LineInfo, LineTable};
use super::line_trimmed::TrimmedSearch;
use super::range_min::SlidingMin;
use super::{MatchStrategy, StrategyMatch};

const MISSING: u32 = u32::MAX;
const SPECIAL: u32 = u32::MAX - 1;
const BLANK: Token = (SPECIAL, 0, 0);

/// Probe's `indentFlexibleMatch`: windows of whole lines equal to the search lines after removing
/// the window's and the search's minimum indentation (`^[ \t]*` length over non-blank lines) from
/// every non-blank line (blank lines compare as empty), minus windows whose minimum indentation is
/// too far from the search's (same tolerance as [`line_trimmed_match`](super::line_trimmed_match)).
pub fn indent_flexible_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let trimmed = TrimmedSearch::new(search)?;
    let (search, first) = (&trimmed.table, trimmed.first);
    let (m, search_min) = (search.len(), search.min_indent());
    let mut regions = Vec::new();
    // Every window is a line-trimmed window, so it lies in one of the line-trimmed zones.
    for zone in trimmed.zones(content) {
        let table = LineTable::new(&content[zone.clone()]);
        let candidates = trimmed.windows(&table);
        if candidates.is_empty() {
            continue;
        }
        let tokens = IndentTokens::new(&table, search, search_min, first);
        let mut window_min = SlidingMin::new(table.lead_or_max());
        let mut shared_min = SlidingMin::new(tokens.shared_with_prev.clone());
        for i in candidates {
            let min = window_min.min(i, i + m);
            let consistent = shared_min.min(i + first + 1, i + m) >= min;
            let equal = if consistent {
                tokens.matches(i, &table)
            } else {
                stripped_equal(&table.lines[i..i + m], &search.lines, min, search_min)
            };
            let sample = table.lines[i + first].text;
            if equal
                && !indent_diff_too_large(
                    sample,
                    search.lines[first].text,
                    min.abs_diff(search_min),
                )
            {
                let r = table.window_range(i, m);
                regions.push(zone.start + r.start..zone.start + r.end);
            }
        }
    }
    (!regions.is_empty()).then_some(StrategyMatch {
        regions,
        anchor: None,
    })
}

/// Direct comparison of two equally long line lists after stripping `a_min` / `b_min` leading bytes
/// of every non-blank line (blank lines become empty).
fn stripped_equal(a: &[LineInfo<'_>], b: &[LineInfo<'_>], a_min: u32, b_min: u32) -> bool {
    fn strip<'a>(l: &LineInfo<'a>, n: u32) -> Option<&'a str> {
        if l.blank {
            Some("")
        } else {
            l.text.get(n as usize..)
        }
    }
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| strip(x, a_min) == strip(y, b_min))
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

fn indent_of<'a>(l: &LineInfo<'a>) -> &'a str {
    &l.text[..l.lead as usize]
}

/// Tokens that make "equal after stripping `d` indentation bytes" a plain sequence equality.
///
/// A non-blank line `k` whose previous non-blank line is `p` becomes `(rest, tail, back)`: `rest`
/// = the line after its indentation, `tail` = its indentation after the prefix shared with `p`'s,
/// `back` = how far `p`'s indentation extends past that shared prefix. Search lines use their
/// indentation minus the search's minimum. When all non-blank window lines share their first `d`
/// bytes (checked with `shared_with_prev`), equal tokens after the window's first non-blank line plus
/// a direct check of that line are equivalent to Probe's comparison; equal tokens always imply it.
struct IndentTokens {
    /// Start lines of content windows where the search tokens after its first non-blank line match.
    suffix_hits: Vec<bool>,
    /// Per content line: shared indentation prefix with the previous non-blank line (`MAX` if none).
    shared_with_prev: Vec<u32>,
    rest_ids: Vec<u32>,
    first_rest: u32,
    first_tail: String,
    first: usize,
}

type Token = (u32, u32, u32);

/// Interned strings: line rests (after indentation) and indentation tails.
#[derive(Default)]
struct Interner<'a> {
    rests: HashMap<&'a str, u32>,
    tails: HashMap<&'a str, u32>,
}

fn intern<'a>(map: &mut HashMap<&'a str, u32>, s: &'a str) -> u32 {
    let next = map.len() as u32;
    *map.entry(s).or_insert(next)
}

fn rest_of<'a>(l: &LineInfo<'a>) -> &'a str {
    &l.text[l.lead as usize..]
}

/// Indentation of a search line minus the search's minimum indentation.
fn relative<'a>(l: &LineInfo<'a>, min: u32) -> &'a str {
    indent_of(l).get(min as usize..).unwrap_or("")
}

/// Content tokens, plus per line the indentation prefix shared with the previous non-blank line
/// (`MAX` when none) and the interned rest (`SPECIAL` for blank lines).
fn content_tokens<'a>(
    content: &LineTable<'a>,
    ids: &mut Interner<'a>,
) -> (Vec<Token>, Vec<u32>, Vec<u32>) {
    let mut text = Vec::with_capacity(content.len());
    let mut shared = Vec::with_capacity(content.len());
    let mut rest_ids = Vec::with_capacity(content.len());
    let mut prev: Option<&str> = None;
    for l in &content.lines {
        if l.blank {
            text.push(BLANK);
            shared.push(u32::MAX);
            rest_ids.push(SPECIAL);
            continue;
        }
        let rest = intern(&mut ids.rests, rest_of(l));
        rest_ids.push(rest);
        let indent = indent_of(l);
        let token = match prev {
            Some(p) => {
                let cp = common_prefix(indent, p);
                shared.push(cp as u32);
                (
                    rest,
                    intern(&mut ids.tails, &indent[cp..]),
                    (p.len() - cp) as u32,
                )
            }
            None => {
                shared.push(u32::MAX);
                (rest, SPECIAL, 0)
            }
        };
        text.push(token);
        prev = Some(indent);
    }
    (text, shared, rest_ids)
}

/// Tokens of the search lines after its first non-blank line `first` (strings unknown to the
/// content get `MISSING`, which no content token carries).
fn search_tokens(search: &LineTable<'_>, first: usize, min: u32, ids: &Interner<'_>) -> Vec<Token> {
    let mut pat = Vec::with_capacity(search.len());
    let mut prev = relative(&search.lines[first], min);
    for l in &search.lines[first + 1..] {
        if l.blank {
            pat.push(BLANK);
            continue;
        }
        let t = relative(l, min);
        let cp = common_prefix(t, prev);
        let rest = ids.rests.get(rest_of(l)).copied().unwrap_or(MISSING);
        let tail = ids.tails.get(&t[cp..]).copied().unwrap_or(MISSING);
        pat.push((rest, tail, (prev.len() - cp) as u32));
        prev = t;
    }
    pat
}

impl IndentTokens {
    fn new(content: &LineTable<'_>, search: &LineTable<'_>, search_min: u32, first: usize) -> Self {
        let mut ids = Interner::default();
        let (text, shared_with_prev, rest_ids) = content_tokens(content, &mut ids);
        let pat = search_tokens(search, first, search_min, &ids);
        let mut suffix_hits = vec![false; content.len() + 1];
        for_each_match(&text, &pat, |p| {
            if let Some(start) = p.checked_sub(first + 1) {
                suffix_hits[start] = true;
            }
        });
        let f = &search.lines[first];
        IndentTokens {
            suffix_hits,
            shared_with_prev,
            rest_ids,
            first_rest: ids.rests.get(rest_of(f)).copied().unwrap_or(MISSING),
            first_tail: relative(f, search_min).to_string(),
            first,
        }
    }

    /// Token equality for the window starting at content line `i` (a line-trimmed window).
    fn matches(&self, i: usize, content: &LineTable<'_>) -> bool {
        let k = i + self.first;
        self.suffix_hits[i]
            && self.rest_ids[k] == self.first_rest
            && indent_of(&content.lines[k]).ends_with(self.first_tail.as_str())
    }
}

/// Probe's indent-flexible strategy ([`indent_flexible_match`]); its regions differ from
/// `old_string` in indentation only, so `new_string` is laid into their frame.
pub(super) struct IndentFlexible;

impl MatchStrategy for IndentFlexible {
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch> {
        indent_flexible_match(content, search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_text(content: &str, search: &str) -> Option<(String, usize)> {
        let m = indent_flexible_match(content, search)?;
        Some((content[m.regions[0].clone()].to_string(), m.regions.len()))
    }

    #[test]
    fn matches_a_block_at_another_indentation() {
        let content = "    if (a) {\n      b();\n    }";
        assert_eq!(
            first_text(content, "if (a) {\n  b();\n}"),
            Some((content.to_string(), 1))
        );
    }

    #[test]
    fn relative_indentation_must_agree() {
        assert_eq!(
            indent_flexible_match("    if (a) {\n        b();\n    }", "if (a) {\n  b();\n}"),
            None
        );
    }

    #[test]
    fn tabs_allow_one_level_only() {
        let two = "\t\tif (a) {\n\t\t\tb();\n\t\t}";
        assert!(indent_flexible_match(two, "\tif (a) {\n\t\tb();\n\t}").is_some());
        let three = "\t\t\tif (a) {\n\t\t\t\tb();\n\t\t\t}";
        assert_eq!(
            indent_flexible_match(three, "\tif (a) {\n\t\tb();\n\t}"),
            None
        );
    }

    #[test]
    fn spaces_allow_four_columns() {
        assert!(indent_flexible_match("    a\n      b", "a\n  b").is_some());
        assert_eq!(indent_flexible_match("     a\n       b", "a\n  b"), None);
    }

    #[test]
    fn mixed_indentation_in_the_stripped_part() {
        // Window min indent 1: "\tx" -> "x", "    y" -> "   y"; search min 0.
        assert_eq!(
            first_text("\tx\n    y", "x\n   y"),
            Some(("\tx\n    y".to_string(), 1))
        );
        assert_eq!(indent_flexible_match("\tx\n    y", "x\n  y"), None);
    }

    #[test]
    fn blank_lines_compare_as_empty() {
        let content = "  a\n \t \n    b";
        assert_eq!(
            first_text(content, "a\n\n  b"),
            Some((content.to_string(), 1))
        );
        assert_eq!(indent_flexible_match("  a\n\n  b", "a\nb\n"), None);
    }

    #[test]
    fn trailing_white_space_is_significant() {
        assert_eq!(indent_flexible_match("  a  \n  b", "a\nb"), None);
    }

    #[test]
    fn all_blank_search_is_none() {
        assert_eq!(indent_flexible_match("a\n\n", "\n \n"), None);
    }

    #[test]
    fn counts_every_window() {
        assert_eq!(first_text("  x\n  x\n  x", "x\nx").map(|m| m.1), Some(2));
    }

    #[test]
    fn direct_comparison_strips_bytes() {
        let a = LineTable::new("  ab\n\n   c");
        let b = LineTable::new("ab\n \nc");
        assert!(!stripped_equal(&a.lines, &b.lines, 2, 0));
        assert!(stripped_equal(
            &a.lines,
            &LineTable::new("ab\n\n c").lines,
            2,
            0
        ));
    }
}
