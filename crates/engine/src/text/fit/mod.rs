//! Fitting `new_string` to a region a fuzzy strategy matched, so the edit lands the way the model
//! meant it. Each strategy's own fit lives beside its find (see [`MatchStrategy`]); what the fits
//! share lives here: the region in its file ([`Region`]), laying `new` into the region's
//! indentation frame ([`framed`], [`carry_indentation`]) and the frame arithmetic ([`frame`]).
//!
//! [`MatchStrategy`]: super::MatchStrategy

pub(crate) mod frame;
mod indent;

use std::borrow::Cow;
use std::ops::Range;

pub use frame::{style_around, IndentStyle};
pub(crate) use indent::carry_indentation;

/// A region a strategy matched, in its file: its text, the indentation of the file line it starts
/// on (the region itself starts after it when it starts mid-line) and the file's indentation style
/// around it.
#[derive(Debug, Clone, Copy)]
pub struct Region<'a> {
    pub text: &'a str,
    pub first_indent: &'a str,
    pub style: IndentStyle,
}

impl<'a> Region<'a> {
    /// The region `range` of `content` (an LF view), read in `style`.
    pub fn at(content: &'a str, range: Range<usize>, style: IndentStyle) -> Region<'a> {
        let line_start = content[..range.start].rfind('\n').map_or(0, |i| i + 1);
        let line = &content[line_start..];
        let first_indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        Region {
            text: &content[range],
            first_indent,
            style,
        }
    }
}

/// What a strategy's fit made of `new_string` for one region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted<'n> {
    /// The text that replaces the region.
    pub text: String,
    /// `new_string` as the fit read it before laying it into the region's frame: `new_string`
    /// itself, or with the file's version of lines it keeps where the strategy matched lines that
    /// differ in content ([`Strategy::BlockAnchor`](super::Strategy::BlockAnchor)).
    pub meant: Cow<'n, str>,
}

/// Why `new_string` cannot be fitted to a region its strategy matched; nothing may be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FitRefusal {
    /// A block-anchor region whose lines between the anchors differ from `old_string` where
    /// `new_string` changes them, or do not line up with it. `shown` lists them as diff lines,
    /// `-` for `old_string`'s and `+` for the file's, each ending in a line break.
    LinesDiffer { shown: String },
}

/// `new` laid into `region`'s frame, the fit of every strategy whose region differs from `old` in
/// white space only: the line breaks `old` carries beyond the region are dropped from both
/// ([`unmatched_edges_dropped`]), then `new` takes the file's indentation
/// ([`carry_indentation`]).
pub(crate) fn framed(region: &Region, old: &str, new: &str) -> String {
    let (old, kept) = unmatched_edges_dropped(region.text, old, new);
    carry_indentation(region, old, kept)
}

/// Line breaks `old` carries at its ends beyond the matched region (a strategy that matched whole
/// lines without them, or a file that ends there) are not meant as text: when `new` carries at
/// least as many at both ends (written in the same frame as `old`), it loses the same number.
/// Returns `old` and `new` without them.
fn unmatched_edges_dropped<'a>(
    region_text: &str,
    old: &'a str,
    new: &'a str,
) -> (&'a str, &'a str) {
    let (old_lead, old_trail) = (leading_breaks(old), trailing_breaks(old));
    let extra_lead = old_lead.saturating_sub(leading_breaks(region_text));
    let extra_trail = old_trail.saturating_sub(trailing_breaks(region_text));
    let same_frame = leading_breaks(new) >= old_lead && trailing_breaks(new) >= old_trail;
    if (extra_lead == 0 && extra_trail == 0) || !same_frame {
        return (old, new);
    }
    let cut = |s: &'a str| &s[extra_lead..s.len() - extra_trail];
    (cut(old), cut(new))
}

fn leading_breaks(s: &str) -> usize {
    s.bytes().take_while(|&b| b == b'\n').count()
}

/// How many `\n`s `s` ends with.
pub(crate) fn trailing_breaks(s: &str) -> usize {
    s.bytes().rev().take_while(|&b| b == b'\n').count()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::text::Strategy;

    const SPACES2: IndentStyle = IndentStyle {
        tabs: false,
        unit: 2,
    };
    const SPACES4: IndentStyle = IndentStyle {
        tabs: false,
        unit: 4,
    };

    /// A region `text` starting on a line indented by `indent`, in `style`.
    pub(crate) fn region<'a>(text: &'a str, indent: &'a str, style: IndentStyle) -> Region<'a> {
        Region {
            text,
            first_indent: indent,
            style,
        }
    }

    /// `strategy`'s fit of `new` (written against `old`) to `text` on a line indented by `indent`.
    pub(crate) fn fit(
        strategy: Strategy,
        text: &str,
        indent: &str,
        style: IndentStyle,
        old: &str,
        new: &str,
    ) -> String {
        let fitted = strategy
            .fit(&region(text, indent, style), old, new)
            .unwrap();
        fitted.text
    }

    #[test]
    fn carries_indentation_when_new_shares_old_frame() {
        let out = fit(
            Strategy::LineTrimmed,
            "    a();\n    b();",
            "    ",
            SPACES2,
            "a();\nb();",
            "a();\nc();",
        );
        assert_eq!(out, "    a();\n    c();");
    }

    #[test]
    fn keeps_new_written_at_its_own_indent() {
        let out = fit(
            Strategy::LineTrimmed,
            "    a();",
            "    ",
            SPACES2,
            "a();",
            "  x();",
        );
        assert_eq!(out, "  x();");
    }

    #[test]
    fn relative_indentation_survives_the_shift() {
        let out = fit(
            Strategy::LineTrimmed,
            "  if (x) {\n    y();\n  }",
            "  ",
            SPACES2,
            "if (x) {\n  y();\n}",
            "if (x) {\n  z();\n}",
        );
        assert_eq!(out, "  if (x) {\n    z();\n  }");
    }

    #[test]
    fn region_at_reads_its_lines_indentation() {
        let content = "a\n    b(c);\n";
        let r = Region::at(content, 6..11, SPACES4);
        assert_eq!((r.text, r.first_indent), ("b(c);", "    "));
        let r = Region::at(content, 8..11, SPACES4);
        assert_eq!((r.text, r.first_indent), ("c);", "    "));
    }

    /// Whole lines matched at the end of a file, `old` and `new` both ending in a blank line the
    /// file does not have: `new` loses it too (it used to add two blank lines).
    #[test]
    fn breaks_old_has_beyond_the_region_leave_new_too() {
        let (old, region_text) = ("    })\n  })\n\n", "  })\n})");
        let out = fit(
            Strategy::BlockAnchor,
            region_text,
            "  ",
            SPACES4,
            old,
            "    })\n  })\n\n  x();\n\n",
        );
        assert_eq!(out, "  })\n})\n\nx();");
        // A `new` that does not carry them was written in the file's frame: kept.
        let out = fit(
            Strategy::BlockAnchor,
            region_text,
            "  ",
            SPACES4,
            old,
            "    })\n  })",
        );
        assert_eq!(out, "  })\n})");
    }

    /// A `new` written at another base indent than `old` keeps its levels, in the file's style.
    #[test]
    fn new_at_its_own_indent_takes_the_files_style() {
        let region_text = "        if a {\n            b();\n        }";
        let out = fit(
            Strategy::LineTrimmed,
            region_text,
            "        ",
            SPACES4,
            "\t\tif a {\n\t\t\tb();\n\t\t}",
            "\t});",
        );
        assert_eq!(out, "    });");
    }

    /// Tabs copied for a file whose detected unit (2, from hanging indents) is not the block's
    /// (4): the matched lines say what a tab stands for, and the added line lands with them.
    #[test]
    fn a_tab_is_as_wide_as_the_matched_lines_say() {
        let region_text = "if TYPE_CHECKING:\n    from a import B";
        let old = "if TYPE_CHECKING:\n\tfrom a import B";
        let new = "if TYPE_CHECKING:\n\tfrom c import D\n\tfrom a import B";
        let out = fit(Strategy::LineTrimmed, region_text, "", SPACES2, old, new);
        assert_eq!(
            out,
            "if TYPE_CHECKING:\n    from c import D\n    from a import B"
        );
    }

    /// `old` written one level off on every line and `new` at another base indent than `old`, in
    /// the same frame: `new` moves by the same shift (a one-line `old` included).
    #[test]
    fn new_at_another_level_moves_with_olds_frame() {
        let one_line = |text: &str, indent: &str, old: &str, new: &str| {
            fit(Strategy::LineTrimmed, text, indent, SPACES2, old, new)
        };
        let out = one_line("// populate", "", "  // populate", "      await c();");
        assert_eq!(out, "    await c();");
        let out = one_line("    x();\n  }", "    ", "  x();\n}", "  });");
        assert_eq!(out, "    });");
        // Shifts that differ line by line say nothing of `new`'s frame: kept as written.
        let out = one_line("    x();\n  }", "    ", "  x();\n    }", "      });");
        assert_eq!(out, "      });");
    }

    /// A tab of a single matched line stands for its file columns over its tabs, also where the
    /// region starts after the line's indentation; the file's detected unit (2) is not the block's.
    #[test]
    fn a_single_lines_tabs_give_the_tab_width() {
        let old = "\t\t@{Name = $n}";
        let new = "\t\tNew-Object @{\n\t\t\tName = $n\n\t\t}";
        let out = fit(
            Strategy::TrimmedBoundary,
            "@{Name = $n}",
            "        ",
            SPACES2,
            old,
            new,
        );
        assert_eq!(out, "New-Object @{\n            Name = $n\n        }");
        let new = "\tdef get(\n\t\tself,\n\t):";
        let out = fit(
            Strategy::LineTrimmed,
            "    def get(self):",
            "    ",
            SPACES2,
            "\tdef get(self):",
            new,
        );
        assert_eq!(out, "    def get(\n        self,\n    ):");
    }
}
