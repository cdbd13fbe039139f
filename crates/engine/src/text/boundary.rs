//! Trimmed-boundary matching: white space around the whole `old_string` is ignored, as long as
//! the line boundaries it carries agree with the file.

use super::fit::frame::relative_to_first_line;
use super::fit::{carry_indentation, trailing_breaks, Region};
use super::js::js_trim;
use super::{MatchStrategy, StrategyMatch};
use crate::lines::detect_base_indent;

/// Byte range of `search` without its leading and trailing JavaScript white space (blank lines,
/// spaces, tabs, ...). Callers replacing a trimmed-boundary match can trim `new_string` the same way
/// so the file's surrounding white space is kept.
pub fn trimmed_core(search: &str) -> std::ops::Range<usize> {
    let start = search.len() - super::js::js_trim_start(search).len();
    start..start + js_trim(search).len()
}

/// Trimmed-boundary strategy: every non-overlapping occurrence of the JS-trimmed search whose
/// boundaries agree with the search's white space:
/// - a search that opens with white space (a line break or indentation) matches only where the
///   core starts its line (after the line's indentation);
/// - a search that closes with a line break matches only where the core ends its line; the region
///   then takes that line's break (and any trailing spaces before it);
/// - the line breaks the search carries before (after) the core, blank lines included, must be in
///   the file there with only white space between, or the file must start (end) first.
///
/// `None` when trimming changes nothing (exact matching already covers it), the trimmed search is
/// empty, or no occurrence qualifies. O(content + search).
pub fn trimmed_boundary_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let core = js_trim(search);
    if core.is_empty() || core.len() == search.len() {
        return None;
    }
    let core_at = trimmed_core(search);
    let opens_line = core_at.start > 0;
    let breaks_before = search[..core_at.start].matches('\n').count();
    let breaks_after = search[core_at.end..].matches('\n').count();
    let bytes = content.as_bytes();
    let regions: Vec<_> = memchr::memmem::find_iter(bytes, core.as_bytes())
        .filter(|&i| !opens_line || starts_line(bytes, i))
        .filter(|&i| breaks_around(bytes[..i].iter().rev(), breaks_before))
        .filter_map(|i| {
            let end = i + core.len();
            if !breaks_around(bytes[end..].iter(), breaks_after) {
                return None;
            }
            match breaks_after {
                0 => Some(i..end),
                _ => Some(i..end + line_break_len(&bytes[end..])),
            }
        })
        .collect();
    (!regions.is_empty()).then_some(StrategyMatch {
        regions,
        anchor: None,
    })
}

/// Whether `breaks` line breaks follow in `side` (the file's bytes walking away from the core)
/// with only spaces, tabs and `\r` around them, or the file ends first.
fn breaks_around<'a>(side: impl Iterator<Item = &'a u8>, breaks: usize) -> bool {
    let mut seen = 0;
    for &b in side {
        if seen == breaks {
            return true;
        }
        match b {
            b'\n' => seen += 1,
            b' ' | b'\t' | b'\r' => {}
            _ => return false,
        }
    }
    true
}

/// Whether only spaces and tabs stand between the line start and `at`.
fn starts_line(bytes: &[u8], at: usize) -> bool {
    bytes[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|&b| b == b' ' || b == b'\t')
}

/// Length of the white space up to and including the first line break of `rest` (all of `rest`
/// when it ends first); `rest` holds only white space up to there.
fn line_break_len(rest: &[u8]) -> usize {
    rest.iter()
        .position(|&b| b == b'\n')
        .map_or(rest.len(), |i| i + 1)
}

/// The trimmed-boundary strategy ([`trimmed_boundary_match`]); its fit trims `new_string` as
/// `old_string` was trimmed ([`fit_trimmed`]).
pub(super) struct TrimmedBoundary;

impl MatchStrategy for TrimmedBoundary {
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch> {
        trimmed_boundary_match(content, search)
    }

    fn fit(&self, region: &Region, old: &str, new: &str) -> String {
        fit_trimmed(region, old, new)
    }
}

/// The blank lines and trailing white space around `new` are dropped as they were for `old`,
/// except line breaks `new` ends with beyond those `old` had outside the region (the region takes
/// its last line's break when `old` closes a line) — unless `new` was not written in `old`'s frame
/// (it lacks `old`'s opening line breaks), when they are all kept. The first line's indentation is
/// kept for mapping `new` into the file's frame (the region starts after the file line's
/// indentation); a `new` at another base indent moves as one block, its first line onto the file
/// line ([`relative_to_first_line`]), else `new` is trimmed like `old`.
fn fit_trimmed(region: &Region, old: &str, new: &str) -> String {
    let (old_edges, new_edges) = (blank_edges_removed(old), blank_edges_removed(new));
    let breaks = |s: &str| s[trimmed_core(s).end..].matches('\n').count();
    let opening = |s: &str| s[..trimmed_core(s).start].matches('\n').count();
    let outside = breaks(old).saturating_sub(trailing_breaks(region.text));
    let same_frame = opening(new) >= opening(old) && breaks(new) >= breaks(old);
    // The region's own line break stays a line break: no untouched line is joined.
    let kept = match same_frame {
        true => breaks(new).saturating_sub(outside),
        false => breaks(new),
    }
    .max(trailing_breaks(region.text));
    let opens_line = trimmed_core(old).start > 0;
    let body = if new_edges.trim().is_empty() {
        new[trimmed_core(new)].to_string()
    } else if detect_base_indent(new_edges) == detect_base_indent(old_edges) {
        carry_indentation(region, old_edges, new_edges)
    } else if opens_line {
        relative_to_first_line(new_edges, region.first_indent, region.style)
    } else {
        new[trimmed_core(new)].to_string()
    };
    body + &"\n".repeat(kept)
}

/// `s` without its leading blank lines and trailing white space.
fn blank_edges_removed(s: &str) -> &str {
    let body = s.trim_end();
    let first = body.len() - body.trim_start().len();
    let line_start = body[..first].rfind('\n').map_or(0, |i| i + 1);
    &body[line_start..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fit::tests::fit;
    use crate::text::fit::IndentStyle;
    use crate::text::Strategy;

    const SPACES4: IndentStyle = IndentStyle {
        tabs: false,
        unit: 4,
    };

    #[test]
    fn ignores_blank_lines_and_spaces_around_the_search() {
        let content = "a();\n\nfoo(1);\nb();";
        let m = trimmed_boundary_match(content, "\n\n  foo(1);\nb(); \n").unwrap();
        assert_eq!(&content[m.regions[0].clone()], "foo(1);\nb();");
        assert_eq!(m.regions.len(), 1);
        let m = trimmed_boundary_match(content, "\nfoo(1);\n").unwrap();
        assert_eq!(&content[m.regions[0].clone()], "foo(1);\n");
    }

    #[test]
    fn line_boundaries_of_the_search_must_hold_in_the_file() {
        // The search opens a line: the tail of a longer line is no match.
        let content = "        assert(x);\n    }\n}\n";
        assert_eq!(trimmed_boundary_match(content, "    );\n    }\n}\n"), None);
        // The search closes a line: the head of a longer line is no match.
        assert_eq!(
            trimmed_boundary_match("foo(1); bar();\n", "foo(1);\n"),
            None
        );
        // A blank line the search carries after (before) its text must be in the file, or the
        // file must end (start) there.
        let content = "a {\n  })\n  b();\n}\n  })\n";
        let m = trimmed_boundary_match(content, "  })\n\n").unwrap();
        assert_eq!(m.regions, vec![content.len() - 3..content.len()]);
        assert_eq!(trimmed_boundary_match("x();\ny();\n", "\n\ny();"), None);
        // Without boundary white space on that side, mid-line text still matches.
        let m = trimmed_boundary_match("x = foo(1); y();", "foo(1); ").unwrap();
        assert_eq!(m.regions, vec![4..11]);
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

    #[test]
    fn its_fit_trims_new_like_the_trimmed_old() {
        let trimmed = |text: &str, indent: &str, old: &str, new: &str| {
            fit(Strategy::TrimmedBoundary, text, indent, SPACES4, old, new)
        };
        assert_eq!(
            trimmed("foo(1);", "", "\n foo(1); \n", "\n foo(2); \n"),
            "foo(2);"
        );
        // Tabs for the file's four spaces, one line between blank lines, a comment added above.
        let out = trimmed(
            "va_start(ap);",
            "    ",
            "\n\tva_start(ap);",
            "\n\t/* a\n\t * b */\n\tva_start(ap);",
        );
        assert_eq!(out, "/* a\n     * b */\n    va_start(ap);");
    }

    /// `new`'s own trailing line break (a blank line added after the edited line) is kept; the
    /// region's line break stays; a `new` that lacks `old`'s opening break keeps its trailing
    /// breaks as written.
    #[test]
    fn its_fit_keeps_the_line_breaks_new_adds() {
        let trimmed = |text: &str, indent: &str, old: &str, new: &str| {
            fit(Strategy::TrimmedBoundary, text, indent, SPACES4, old, new)
        };
        let out = trimmed(
            "for (a) {",
            "    ",
            "\tfor (a) {",
            "\tfor (b) {\n\t\tc();\n\t}\n",
        );
        assert_eq!(out, "for (b) {\n        c();\n    }\n");
        assert_eq!(trimmed("// v1\n", "", "\n// v1\n", "// v2"), "// v2\n");
        assert_eq!(trimmed("}\n", "", "\n}\n\n", "}\n\n"), "}\n\n");
        assert_eq!(trimmed("}\n", "", "}\n\n", "};\n\n"), "};\n");
    }
}
