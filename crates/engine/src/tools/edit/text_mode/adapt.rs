//! Fitting `new_string` to the region a fuzzy strategy matched, so the edit lands the way the
//! model meant it: same indentation frame, the file's quote style, unescaped text, no stray
//! boundary white space.

use super::frame::{detect_style, into_file_frame, IndentStyle};
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
        Some(Strategy::EscapeNormalized) if looks_escaped(old) && looks_escaped(new) => {
            unescape_literal(new).unwrap_or_else(|| new.to_string())
        }
        Some(Strategy::EscapeNormalized) if old.contains('\n') => template_unescaped(new),
        Some(Strategy::TrimmedBoundary) => return fit_trimmed(region_text, frame, old, new),
        _ => new.to_string(),
    };
    if strategy.is_some() {
        out = carry_indentation(region_text, frame, old, &out);
    }
    out
}

/// `trimmed-boundary`: the blank lines and trailing white space around `new` are dropped as they
/// were for `old`; the first line's indentation is kept for mapping `new` into the file's frame
/// (the region starts after the file line's indentation), else `new` is trimmed like `old`.
fn fit_trimmed(region_text: &str, frame: &Frame, old: &str, new: &str) -> String {
    let (old_edges, new_edges) = (blank_edges_removed(old), blank_edges_removed(new));
    if new_edges.trim().is_empty() || detect_base_indent(new_edges) != detect_base_indent(old_edges)
    {
        return new[trimmed_core(new)].to_string();
    }
    carry_indentation(region_text, frame, old_edges, new_edges)
}

/// `s` without its leading blank lines and trailing white space.
fn blank_edges_removed(s: &str) -> &str {
    let body = s.trim_end();
    let first = body.len() - body.trim_start().len();
    let line_start = body[..first].rfind('\n').map_or(0, |i| i + 1);
    &body[line_start..]
}

/// A multi-line `old` matched by escape-normalized had only template-literal escapes to undo
/// (`\$`, `` \` ``): `new`, written the same way, loses them too (its `\n` are meant literally).
fn template_unescaped(new: &str) -> String {
    new.replace("\\$", "$").replace("\\`", "`")
}

/// A single-line text holding literal escape sequences (the model escaped real newlines/quotes).
fn looks_escaped(s: &str) -> bool {
    !s.contains('\n')
        && ["\\n", "\\t", "\\\"", "\\$", "\\`"]
            .iter()
            .any(|e| s.contains(e))
}

fn carry_indentation(region_text: &str, frame: &Frame, old: &str, new: &str) -> String {
    if new.trim().is_empty() || detect_base_indent(new) != detect_base_indent(old) {
        return new.to_string();
    }
    let mut style = frame.style;
    if style.tabs {
        // A tab file: a level of the model's spaces is the model's own step.
        style.unit = detect_style(&format!("{old}\n{new}")).unit;
    }
    into_file_frame(region_text, frame.first_indent, old, new, style)
        .unwrap_or_else(|| new.to_string())
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
}
