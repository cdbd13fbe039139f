//! Fitting `new_string` to the region a fuzzy strategy matched, so the edit lands the way the
//! model meant it: same indentation frame, the file's quote style, unescaped text, no stray
//! boundary white space.

use crate::lines::{detect_base_indent, reindent};
use crate::text::{preserve_quote_style, trimmed_core, unescape_literal, Strategy};

/// The replacement text for one matched region.
///
/// - indentation carry-over: when the region's base indent differs from `old`'s and `new` was
///   written in `old`'s frame (same base indent), `new` is shifted to the region's indent; a
///   `new` written at another indent is kept as written;
/// - `quote-normalized`: characters `new` shares with `old` keep the file's quote characters;
/// - `escape-normalized`: a single-line `new` with literal `\n`/`\t`/`\"` escapes, like `old`,
///   is unescaped the same way;
/// - `trimmed-boundary`: leading/trailing white space of `new` is dropped, as it was for `old`.
pub fn fit_replacement(
    strategy: Option<Strategy>,
    region_text: &str,
    at_line_start: bool,
    old: &str,
    new: &str,
) -> String {
    let mut out = match strategy {
        Some(Strategy::QuoteNormalized) => preserve_quote_style(region_text, old, new),
        Some(Strategy::EscapeNormalized) if looks_escaped(old) && looks_escaped(new) => {
            unescape_literal(new).unwrap_or_else(|| new.to_string())
        }
        Some(Strategy::TrimmedBoundary) => new[trimmed_core(new)].to_string(),
        _ => new.to_string(),
    };
    if strategy.is_some() && at_line_start {
        out = carry_indentation(region_text, old, &out);
    }
    out
}

/// A single-line text holding literal escape sequences (the model escaped real newlines/quotes).
fn looks_escaped(s: &str) -> bool {
    !s.contains('\n') && (s.contains("\\n") || s.contains("\\t") || s.contains("\\\""))
}

fn carry_indentation(region_text: &str, old: &str, new: &str) -> String {
    let (old_base, region_base) = (detect_base_indent(old), detect_base_indent(region_text));
    if new.trim().is_empty() || old_base == region_base || detect_base_indent(new) != old_base {
        return new.to_string();
    }
    reindent(new, region_base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carries_indentation_when_new_shares_old_frame() {
        let out = fit_replacement(
            Some(Strategy::LineTrimmed),
            "    a();\n    b();",
            true,
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
            true,
            "a();",
            "  x();",
        );
        assert_eq!(out, "  x();");
    }

    #[test]
    fn exact_matches_are_never_adapted() {
        assert_eq!(
            fit_replacement(None, "    a();", true, "a();", "b();"),
            "b();"
        );
    }

    #[test]
    fn relative_indentation_survives_the_shift() {
        let out = fit_replacement(
            Some(Strategy::LineTrimmed),
            "  if (x) {\n    y();\n  }",
            true,
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
            false,
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
            true,
            "a();\\nb();",
            "a();\\nc();",
        );
        assert_eq!(out, "a();\nc();");
        let kept = fit_replacement(
            Some(Strategy::EscapeNormalized),
            "a();\nb();",
            true,
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
            false,
            "\n foo(1); \n",
            "\n foo(2); \n",
        );
        assert_eq!(out, "foo(2);");
    }
}
