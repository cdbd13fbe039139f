//! Line-trimmed strategy: windows of whole lines whose JS-trimmed lines equal the search's.

use std::collections::HashMap;

use super::js::js_trim;
use super::kmp::for_each_match;
use super::line_table::{indent_diff_too_large, LineTable};
use super::range_min::SlidingMin;
use super::StrategyMatch;

/// Start line of every window of `search.len()` content lines whose trimmed lines equal the trimmed
/// search lines (overlapping windows included), ascending. Lines are interned by trimmed text and
/// matched with KMP over the id sequence: O(content + search).
pub(crate) fn trimmed_windows(content: &LineTable<'_>, search: &LineTable<'_>) -> Vec<usize> {
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let text: Vec<u32> = content
        .lines
        .iter()
        .map(|l| {
            let next = ids.len() as u32;
            *ids.entry(js_trim(l.text)).or_insert(next)
        })
        .collect();
    let mut pat = Vec::with_capacity(search.len());
    for l in &search.lines {
        match ids.get(js_trim(l.text)) {
            Some(&id) => pat.push(id),
            None => return Vec::new(),
        }
    }
    let mut out = Vec::new();
    for_each_match(&text, &pat, |i| out.push(i));
    out
}

/// Probe's `lineTrimmedMatch` on `content.split('\n')` and `search.split('\n')`: every window whose
/// trimmed lines equal the trimmed search lines, minus windows whose minimum indentation differs
/// from the search's by more than the tolerance (1 when either side's first non-blank line starts
/// with a tab, else 4). `None` when the search is all blank or nothing qualifies.
pub fn line_trimmed_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let search = LineTable::new(search);
    let first = search.first_non_blank()?;
    let content = LineTable::new(content);
    let search_min = search.min_indent();
    let mut window_min = SlidingMin::new(content.lead_or_max());
    let m = search.len();
    let mut regions = Vec::new();
    for i in trimmed_windows(&content, &search) {
        // Trimmed lines agree, so blank lines sit at the same offsets on both sides.
        let min = window_min.min(i, i + m);
        let sample = content.lines[i + first].text;
        if indent_diff_too_large(sample, search.lines[first].text, min.abs_diff(search_min)) {
            continue;
        }
        regions.push(content.window_range(i, m));
    }
    (!regions.is_empty()).then_some(StrategyMatch { regions })
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
