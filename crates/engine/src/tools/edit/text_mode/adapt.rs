//! Fitting `new_string` to the region a fuzzy strategy matched, so the edit lands the way the
//! model meant it: same indentation frame, the file's quote style, unescaped text, no stray
//! boundary white space.

use super::frame::{
    detect_style, into_file_frame, relative_to_first_line, restyled, uniform_shift, IndentStyle,
};
use crate::lines::detect_base_indent;
use crate::text::{preserve_quote_style, trimmed_core, unescape_literal, Strategy};

/// Where a region sits in the file: the indentation of the line it starts on and the file's
/// indentation style.
pub struct Frame<'a> {
    pub first_indent: &'a str,
    pub style: IndentStyle,
}

/// The replacement text for one matched region.
///
/// - indentation: when `new` was written in `old`'s frame (same base indent), every line of `new`
///   is mapped into the file's frame line by line ([`into_file_frame`]) and written in the file's
///   style; a `new` written at another base indent is kept as written;
/// - `quote-normalized`: characters `new` shares with `old` keep the file's quote characters;
/// - `escape-normalized`: a single-line `new` with literal `\n`/`\t`/`\"` escapes, like `old`,
///   is unescaped the same way; after a multi-line `old`, only `\$` and `` \` `` are undone;
/// - `trimmed-boundary`: leading/trailing white space of `new` is dropped, as it was for `old`.
pub fn fit_replacement(
    strategy: Option<Strategy>,
    region_text: &str,
    frame: &Frame,
    old: &str,
    new: &str,
) -> String {
    let mut out = match strategy {
        Some(Strategy::QuoteNormalized) => preserve_quote_style(region_text, old, new),
        Some(Strategy::EscapeNormalized) if fully_escaped(region_text, old, new) => {
            unescape_literal(new).unwrap_or_else(|| new.to_string())
        }
        Some(Strategy::EscapeNormalized) => template_unescaped(region_text, old, new),
        Some(Strategy::TrimmedBoundary) => return fit_trimmed(region_text, frame, old, new),
        _ => new.to_string(),
    };
    if strategy.is_some() {
        let (old, kept) = unmatched_edges_dropped(region_text, old, &out);
        out = carry_indentation(region_text, frame, old, kept);
    }
    out
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

fn trailing_breaks(s: &str) -> usize {
    s.bytes().rev().take_while(|&b| b == b'\n').count()
}

/// `trimmed-boundary`: the blank lines and trailing white space around `new` are dropped as they
/// were for `old`, except line breaks `new` ends with beyond those `old` had outside the region
/// (the region takes its last line's break when `old` closes a line) — unless `new` was not
/// written in `old`'s frame (it lacks `old`'s opening line breaks), when they are all kept. The
/// first line's indentation is kept for mapping `new` into the file's frame (the region starts
/// after the file line's indentation); a `new` at another base indent moves as one block, its first
/// line onto the file line ([`relative_to_first_line`]), else `new` is trimmed like `old`.
fn fit_trimmed(region_text: &str, frame: &Frame, old: &str, new: &str) -> String {
    let (old_edges, new_edges) = (blank_edges_removed(old), blank_edges_removed(new));
    let breaks = |s: &str| s[trimmed_core(s).end..].matches('\n').count();
    let opening = |s: &str| s[..trimmed_core(s).start].matches('\n').count();
    let outside = breaks(old).saturating_sub(trailing_breaks(region_text));
    let same_frame = opening(new) >= opening(old) && breaks(new) >= breaks(old);
    // The region's own line break stays a line break: no untouched line is joined.
    let kept = match same_frame {
        true => breaks(new).saturating_sub(outside),
        false => breaks(new),
    }
    .max(trailing_breaks(region_text));
    let opens_line = trimmed_core(old).start > 0;
    let body = if new_edges.trim().is_empty() {
        new[trimmed_core(new)].to_string()
    } else if detect_base_indent(new_edges) == detect_base_indent(old_edges) {
        carry_indentation(region_text, frame, old_edges, new_edges)
    } else if opens_line {
        relative_to_first_line(new_edges, frame.first_indent, frame.style)
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

/// A template-literal escape (`\$`, `` \` ``) that `old` has and the matched region has not was
/// the model's: `new`, written the same way, loses every kind the region does not have (escapes
/// the file itself has there, and other escapes, are kept as written).
fn template_unescaped(region_text: &str, old: &str, new: &str) -> String {
    let model_escapes: Vec<&str> = ["\\$", "\\`"]
        .into_iter()
        .filter(|e| !region_text.contains(e))
        .collect();
    if !model_escapes.iter().any(|e| old.contains(e)) {
        return new.to_string();
    }
    let mut out = new.to_string();
    for e in model_escapes {
        out = out.replace(e, &e[1..]);
    }
    out
}

/// `old` and `new` both escaped whole ([`looks_escaped`]) and `old` matched as fully unescaped:
/// `new` is unescaped the same way. (A match of `old`'s template escapes alone keeps the rest.)
fn fully_escaped(region_text: &str, old: &str, new: &str) -> bool {
    looks_escaped(old)
        && looks_escaped(new)
        && unescape_literal(old).is_some_and(|u| u == region_text)
}

/// A single-line text holding literal escape sequences (the model escaped real newlines/quotes).
fn looks_escaped(s: &str) -> bool {
    !s.contains('\n')
        && ["\\n", "\\t", "\\\"", "\\$", "\\`"]
            .iter()
            .any(|e| s.contains(e))
}

/// The columns one tab of `old` stands for in a space-indented region, read from the matched lines
/// themselves (two lines with different tab counts: the difference of their file columns, less
/// their own spaces, over the difference of tabs; lines with one count of tabs: their columns over
/// that count); `None` without such lines or when they disagree or give no width of 1..=8. The
/// file's detected unit can be off (hanging indents). A region starting mid-line counts its first
/// line at the file line's indentation.
fn tab_width(region_text: &str, first_indent: &str, old: &str) -> Option<usize> {
    let lead = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let mid_line = !first_indent.is_empty() && !region_text.starts_with(first_indent);
    let points: Vec<(isize, isize)> = old
        .split('\n')
        .zip(region_text.split('\n'))
        .enumerate()
        .filter(|(_, (o, r))| !(o.trim().is_empty() || r.trim().is_empty()))
        .map(|(i, (o, r))| match i == 0 && mid_line {
            true => (o, first_indent),
            false => (o, &r[..lead(r)]),
        })
        .filter(|(_, indent)| !indent.contains('\t'))
        .map(|(o, indent)| {
            let tabs = o[..lead(o)].bytes().filter(|&b| b == b'\t').count() as isize;
            (tabs, indent.len() as isize - (lead(o) as isize - tabs))
        })
        .collect();
    let mut width: Option<isize> = None;
    for (a, b) in points.iter().zip(points.iter().skip(1)) {
        if a.0 == b.0 {
            continue;
        }
        let (dc, dt) = (b.1 - a.1, b.0 - a.0);
        if dc % dt != 0 || *width.get_or_insert(dc / dt) != dc / dt {
            return None;
        }
    }
    width
        .or_else(|| one_tab_count_width(&points))
        .filter(|w| (1..=8).contains(w))
        .map(|w| w as usize)
}

/// Lines that all have the same count of tabs at the same file columns (a single matched line, say):
/// the columns those tabs stand for, over their count; `None` without tabs or when not whole.
fn one_tab_count_width(points: &[(isize, isize)]) -> Option<isize> {
    let &(tabs, cols) = points.first()?;
    let same = points.iter().all(|&p| p == (tabs, cols));
    (same && tabs > 0 && cols % tabs == 0).then(|| cols / tabs)
}

/// `new` in the file's frame: mapped line by line when written at `old`'s base indent or when
/// `old` was written at one uniform indentation difference ([`in_old_frame`]), else kept at its own
/// levels (moved as one block onto the file line when the region starts mid-line), written in the
/// file's indentation style.
fn carry_indentation(region_text: &str, frame: &Frame, old: &str, new: &str) -> String {
    if new.trim().is_empty() {
        return new.to_string();
    }
    let style = fitted_style(region_text, frame, old, new);
    if detect_base_indent(new) != detect_base_indent(old) {
        if let Some(out) = in_old_frame(region_text, frame, old, new, style) {
            return out;
        }
        let mid_line =
            !frame.first_indent.is_empty() && !region_text.starts_with(frame.first_indent);
        return match mid_line {
            true => relative_to_first_line(new, frame.first_indent, style),
            false => restyled(new, style),
        };
    }
    into_file_frame(region_text, frame.first_indent, old, new, style)
        .unwrap_or_else(|| new.to_string())
}

/// The file's indentation style with the unit `old` and `new` are read in: in a tab file a level of
/// the model's spaces is the model's own step; in a space file a tab of `old` is as wide as the
/// matched lines say ([`tab_width`]).
fn fitted_style(region_text: &str, frame: &Frame, old: &str, new: &str) -> IndentStyle {
    let mut style = frame.style;
    if style.tabs {
        style.unit = detect_style(&format!("{old}\n{new}")).unit;
    } else if let Some(unit) = tab_width(region_text, frame.first_indent, old) {
        style.unit = unit;
    }
    style
}

/// A `new` at another base indent than `old`, when `old` was written with indentation (its first
/// line indented) that differs from the file's by one shift on every line: `new` was written in
/// `old`'s frame, at its own levels there, and moves by that shift. `None` otherwise (`old`'s
/// first line flush, as when its indentation was left out, or shifts that differ).
fn in_old_frame(
    region_text: &str,
    frame: &Frame,
    old: &str,
    new: &str,
    style: IndentStyle,
) -> Option<String> {
    let first = old.split('\n').find(|l| !l.trim().is_empty())?;
    if !first.starts_with([' ', '\t']) {
        return None;
    }
    uniform_shift(region_text, frame.first_indent, old, style.unit)?;
    into_file_frame(region_text, frame.first_indent, old, new, style)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPACES2: IndentStyle = IndentStyle {
        tabs: false,
        unit: 2,
    };

    /// A region starting on a line indented by `indent`.
    fn on(indent: &str) -> Frame<'_> {
        Frame {
            first_indent: indent,
            style: SPACES2,
        }
    }

    #[test]
    fn carries_indentation_when_new_shares_old_frame() {
        let out = fit_replacement(
            Some(Strategy::LineTrimmed),
            "    a();\n    b();",
            &on("    "),
            "a();\nb();",
            "a();\nc();",
        );
        assert_eq!(out, "    a();\n    c();");
    }

    #[test]
    fn keeps_new_written_at_its_own_indent() {
        let out = fit_replacement(
            Some(Strategy::LineTrimmed),
            "    a();",
            &on("    "),
            "a();",
            "  x();",
        );
        assert_eq!(out, "  x();");
    }

    #[test]
    fn exact_matches_are_never_adapted() {
        assert_eq!(
            fit_replacement(None, "    a();", &on("    "), "a();", "b();"),
            "b();"
        );
    }

    #[test]
    fn relative_indentation_survives_the_shift() {
        let out = fit_replacement(
            Some(Strategy::LineTrimmed),
            "  if (x) {\n    y();\n  }",
            &on("  "),
            "if (x) {\n  y();\n}",
            "if (x) {\n  z();\n}",
        );
        assert_eq!(out, "  if (x) {\n    z();\n  }");
    }

    #[test]
    fn keeps_the_files_curly_quotes() {
        let out = fit_replacement(
            Some(Strategy::QuoteNormalized),
            "say(\u{201C}hi\u{201D});",
            &on(""),
            "say(\"hi\");",
            "say(\"hi there\");",
        );
        assert_eq!(out, "say(\u{201C}hi there\u{201D});");
    }

    #[test]
    fn unescapes_an_escaped_new_string_only_when_old_was_escaped() {
        let out = fit_replacement(
            Some(Strategy::EscapeNormalized),
            "a();\nb();",
            &on(""),
            "a();\\nb();",
            "a();\\nc();",
        );
        assert_eq!(out, "a();\nc();");
        let kept = fit_replacement(
            Some(Strategy::EscapeNormalized),
            "a();\nb();",
            &on(""),
            "a();\\nb();",
            "print(\"x\")",
        );
        assert_eq!(kept, "print(\"x\")");
    }

    #[test]
    fn trims_new_like_the_trimmed_old() {
        let out = fit_replacement(
            Some(Strategy::TrimmedBoundary),
            "foo(1);",
            &on(""),
            "\n foo(1); \n",
            "\n foo(2); \n",
        );
        assert_eq!(out, "foo(2);");
        // Tabs for the file's four spaces, one line between blank lines, a comment added above.
        let tabs = IndentStyle {
            tabs: false,
            unit: 4,
        };
        let frame = Frame {
            first_indent: "    ",
            style: tabs,
        };
        let out = fit_replacement(
            Some(Strategy::TrimmedBoundary),
            "va_start(ap);",
            &frame,
            "\n\tva_start(ap);",
            "\n\t/* a\n\t * b */\n\tva_start(ap);",
        );
        assert_eq!(out, "/* a\n     * b */\n    va_start(ap);");
    }

    const SPACES4: IndentStyle = IndentStyle {
        tabs: false,
        unit: 4,
    };

    fn fit(strategy: Strategy, region: &str, indent: &str, old: &str, new: &str) -> String {
        let frame = Frame {
            first_indent: indent,
            style: SPACES4,
        };
        fit_replacement(Some(strategy), region, &frame, old, new)
    }

    /// Whole lines matched at the end of a file, `old` and `new` both ending in a blank line the
    /// file does not have: `new` loses it too (it used to add two blank lines).
    #[test]
    fn breaks_old_has_beyond_the_region_leave_new_too() {
        let out = fit(
            Strategy::BlockAnchor,
            "  })\n})",
            "  ",
            "    })\n  })\n\n",
            "    })\n  })\n\n  x();\n\n",
        );
        assert_eq!(out, "  })\n})\n\nx();");
        // A `new` that does not carry them was written in the file's frame: kept.
        let out = fit(
            Strategy::BlockAnchor,
            "  })\n})",
            "  ",
            "    })\n  })\n\n",
            "    })\n  })",
        );
        assert_eq!(out, "  })\n})");
    }

    /// trimmed-boundary: `new`'s own trailing line break (a blank line added after the edited
    /// line) is kept; the region's line break stays; a `new` that lacks `old`'s opening break keeps
    /// its trailing breaks as written.
    #[test]
    fn trimmed_boundary_keeps_the_line_breaks_new_adds() {
        let out = fit(
            Strategy::TrimmedBoundary,
            "for (a) {",
            "    ",
            "\tfor (a) {",
            "\tfor (b) {\n\t\tc();\n\t}\n",
        );
        assert_eq!(out, "for (b) {\n        c();\n    }\n");
        let out = fit(
            Strategy::TrimmedBoundary,
            "// v1\n",
            "",
            "\n// v1\n",
            "// v2",
        );
        assert_eq!(out, "// v2\n");
        let out = fit(Strategy::TrimmedBoundary, "}\n", "", "\n}\n\n", "}\n\n");
        assert_eq!(out, "}\n\n");
        let out = fit(Strategy::TrimmedBoundary, "}\n", "", "}\n\n", "};\n\n");
        assert_eq!(out, "};\n");
    }

    /// Template-literal escapes of a single-line `old` are undone in a multi-line `new`, and
    /// `\$` goes with `` \` `` even when `old` had only one kind.
    #[test]
    fn template_escapes_are_undone_in_any_new() {
        let out = fit(
            Strategy::EscapeNormalized,
            "a `b` c",
            "",
            "a \\`b\\` c",
            "a \\`b\\`\nd \\${e}",
        );
        assert_eq!(out, "a `b`\nd ${e}");
        // Escapes the file itself has are kept.
        let region = "a \\$x\nb `c`";
        let out = fit(
            Strategy::EscapeNormalized,
            region,
            "",
            "a \\$x\nb \\`c\\`",
            "a \\$y\nb \\`c\\`",
        );
        assert_eq!(out, "a \\$y\nb `c`");
    }

    /// A `new` written at another base indent than `old` keeps its levels, in the file's style.
    #[test]
    fn new_at_its_own_indent_takes_the_files_style() {
        let region = "        if a {\n            b();\n        }";
        let out = fit(
            Strategy::LineTrimmed,
            region,
            "        ",
            "\t\tif a {\n\t\t\tb();\n\t\t}",
            "\t});",
        );
        assert_eq!(out, "    });");
    }

    /// Tabs copied for a file whose detected unit (2, from hanging indents) is not the block's
    /// (4): the matched lines say what a tab stands for, and the added line lands with them.
    #[test]
    fn a_tab_is_as_wide_as_the_matched_lines_say() {
        let frame = Frame {
            first_indent: "",
            style: SPACES2,
        };
        let region = "if TYPE_CHECKING:\n    from a import B";
        let old = "if TYPE_CHECKING:\n\tfrom a import B";
        let new = "if TYPE_CHECKING:\n\tfrom c import D\n\tfrom a import B";
        let out = fit_replacement(Some(Strategy::LineTrimmed), region, &frame, old, new);
        assert_eq!(
            out,
            "if TYPE_CHECKING:\n    from c import D\n    from a import B"
        );
    }

    /// `old` written one level off on every line and `new` at another base indent than `old`, in
    /// the same frame: `new` moves by the same shift (a one-line `old` included).
    #[test]
    fn new_at_another_level_moves_with_olds_frame() {
        let one_line = |region: &str, indent: &str, old: &str, new: &str| {
            fit_replacement(Some(Strategy::LineTrimmed), region, &on(indent), old, new)
        };
        let out = one_line("// populate", "", "  // populate", "      await c();");
        assert_eq!(out, "    await c();");
        let region = "    x();\n  }";
        let out = one_line(region, "    ", "  x();\n}", "  });");
        assert_eq!(out, "    });");
        // Shifts that differ line by line say nothing of `new`'s frame: kept as written.
        let out = one_line("    x();\n  }", "    ", "  x();\n    }", "      });");
        assert_eq!(out, "      });");
    }

    /// A tab of a single matched line stands for its file columns over its tabs, also where the
    /// region starts after the line's indentation; the file's detected unit (2) is not the block's.
    #[test]
    fn a_single_lines_tabs_give_the_tab_width() {
        let frame = Frame {
            first_indent: "        ",
            style: SPACES2,
        };
        let old = "\t\t@{Name = $n}";
        let new = "\t\tNew-Object @{\n\t\t\tName = $n\n\t\t}";
        let out = fit_replacement(
            Some(Strategy::TrimmedBoundary),
            "@{Name = $n}",
            &frame,
            old,
            new,
        );
        assert_eq!(out, "New-Object @{\n            Name = $n\n        }");
        let frame = Frame {
            first_indent: "    ",
            style: SPACES2,
        };
        let new = "\tdef get(\n\t\tself,\n\t):";
        let out = fit_replacement(
            Some(Strategy::LineTrimmed),
            "    def get(self):",
            &frame,
            "\tdef get(self):",
            new,
        );
        assert_eq!(out, "    def get(\n        self,\n    ):");
    }
}
