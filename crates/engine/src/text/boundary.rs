//! Trimmed-boundary matching: white space around the whole `old_string` is ignored.

use super::js::js_trim;
use super::StrategyMatch;

/// Byte range of `search` without its leading and trailing JavaScript white space (blank lines,
/// spaces, tabs, ...). Callers replacing a trimmed-boundary match can trim `new_string` the same way
/// so the file's surrounding white space is kept.
pub fn trimmed_core(search: &str) -> std::ops::Range<usize> {
    let start = search.len() - super::js::js_trim_start(search).len();
    start..start + js_trim(search).len()
}

/// Trimmed-boundary strategy: every non-overlapping occurrence of the JS-trimmed search. `None`
/// when trimming changes nothing (exact matching already covers it), the trimmed search is empty,
/// or it does not occur. O(content + search).
pub fn trimmed_boundary_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let core = js_trim(search);
    if core.is_empty() || core.len() == search.len() {
        return None;
    }
    let regions: Vec<_> = memchr::memmem::find_iter(content.as_bytes(), core.as_bytes())
        .map(|i| i..i + core.len())
        .collect();
    (!regions.is_empty()).then_some(StrategyMatch { regions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignores_blank_lines_and_spaces_around_the_search() {
        let content = "a();\nfoo(1);\nb();";
        let m = trimmed_boundary_match(content, "\n\n  foo(1);\nb(); \n").unwrap();
        assert_eq!(&content[m.regions[0].clone()], "foo(1);\nb();");
        assert_eq!(m.regions.len(), 1);
    }

    #[test]
    fn untrimmed_or_blank_search_is_none() {
        assert_eq!(trimmed_boundary_match("foo", "foo"), None);
        assert_eq!(trimmed_boundary_match("foo", " \n "), None);
        assert_eq!(trimmed_boundary_match("foo", " bar "), None);
    }

    #[test]
    fn core_range() {
        assert_eq!(trimmed_core("\n  ab c \n"), 3..7);
        assert_eq!(trimmed_core("x"), 0..1);
        assert_eq!(trimmed_core("  "), 2..2);
    }
}
