//! Escape-normalized matching: an `old_string` written with literal escape sequences.

use super::fit::{framed, Region};
use super::{MatchStrategy, StrategyMatch};

/// `s` with the escape sequences `\n`, `\t`, `\"`, `\'`, `\\`, `\$` and `` \` `` replaced by the characters they
/// stand for, read left to right (so `\\n` is a backslash followed by `n`). Other backslashes are
/// kept. Returns `None` when `s` contains none of these sequences.
pub fn unescape_literal(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut changed = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let replacement = match (c, chars.peek()) {
            ('\\', Some('n')) => Some('\n'),
            ('\\', Some('t')) => Some('\t'),
            ('\\', Some(&q @ ('"' | '\'' | '\\' | '$' | '`'))) => Some(q),
            _ => None,
        };
        match replacement {
            Some(r) => {
                chars.next();
                out.push(r);
                changed = true;
            }
            None => out.push(c),
        }
    }
    changed.then_some(out)
}

/// `s` with only its template-literal escapes (`\$`, `` \` ``) replaced by the characters they
/// stand for, read left to right (`\\` is kept as written, both characters); `None` when it has
/// none. The model escaped a template literal's text and nothing else (`\n` stays literal).
pub fn unescape_template(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut changed = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(q @ ('$' | '`')) => {
                out.push(q);
                changed = true;
            }
            Some(other) => {
                out.push(c);
                out.push(other);
            }
            None => out.push(c),
        }
    }
    changed.then_some(out)
}

/// Escape-normalized strategy: every non-overlapping occurrence of [`unescape_literal`]`(search)`
/// in `content`, else of [`unescape_template`]`(search)` (the file's own `\n` or `\\` kept). `None`
/// when the search has no such escape sequence, unescapes to white space only, or does not occur.
/// O(content + search).
pub fn escape_normalized_match(content: &str, search: &str) -> Option<StrategyMatch> {
    let needle = unescape_literal(search)?;
    occurrences(content, &needle).or_else(|| {
        let template = unescape_template(search).filter(|t| *t != needle)?;
        occurrences(content, &template)
    })
}

fn occurrences(content: &str, needle: &str) -> Option<StrategyMatch> {
    if super::js::js_trim(needle).is_empty() {
        return None;
    }
    let regions: Vec<_> = memchr::memmem::find_iter(content.as_bytes(), needle.as_bytes())
        .map(|i| i..i + needle.len())
        .collect();
    (!regions.is_empty()).then_some(StrategyMatch {
        regions,
        anchor: None,
    })
}

/// The escape-normalized strategy ([`escape_normalized_match`]). Its fit: a single-line
/// `new_string` with literal `\n`/`\t`/`\"` escapes, like `old_string` (which matched fully
/// unescaped), is unescaped the same way; otherwise only the template-literal escapes `old_string`
/// had and the region has not are undone ([`template_unescaped`]). Then it is laid into the
/// region's frame.
pub(super) struct EscapeNormalized;

impl MatchStrategy for EscapeNormalized {
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch> {
        escape_normalized_match(content, search)
    }

    fn fit(&self, region: &Region, old: &str, new: &str) -> String {
        let unescaped = match fully_escaped(region.text, old, new) {
            true => unescape_literal(new).unwrap_or_else(|| new.to_string()),
            false => template_unescaped(region.text, old, new),
        };
        framed(region, old, &unescaped)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fit::tests::fit;
    use crate::text::fit::IndentStyle;
    use crate::text::Strategy;

    const SPACES2: IndentStyle = IndentStyle {
        tabs: false,
        unit: 2,
    };

    #[test]
    fn unescapes_the_five_sequences() {
        assert_eq!(
            unescape_literal(r#"a\nb\tc\"d\'e\\f"#).as_deref(),
            Some("a\nb\tc\"d'e\\f")
        );
        assert_eq!(unescape_literal(r"\\n").as_deref(), Some("\\n"));
        assert_eq!(
            unescape_literal(r"\`a \${b}\`").as_deref(),
            Some("`a ${b}`")
        );
        assert_eq!(unescape_literal(r"\x \r").as_deref(), None);
        assert_eq!(unescape_literal("plain"), None);
        assert_eq!(unescape_literal("ends with \\"), None);
    }

    #[test]
    fn matches_unescaped_text() {
        let content = "if (a) {\n\tsay(\"hi\");\n}";
        let m = escape_normalized_match(content, r#"if (a) {\n\tsay(\"hi\");"#).unwrap();
        assert_eq!(m.regions, vec![0..20]);
        assert_eq!(&content[m.regions[0].clone()], "if (a) {\n\tsay(\"hi\");");
    }

    #[test]
    fn no_escapes_or_no_match_is_none() {
        assert_eq!(escape_normalized_match("a\nb", "a b"), None);
        assert_eq!(escape_normalized_match("a\nb", r"a\nc"), None);
        assert_eq!(escape_normalized_match("a\n\nb", r"\n\n"), None);
    }

    #[test]
    fn template_escapes_alone_match_text_with_its_own_backslashes() {
        let content = "    done < <(printf \"%s\\n\" \"${items[@]}\")\n";
        let m = escape_normalized_match(content, r#"done < <(printf "%s\n" "\${items[@]}")"#);
        assert_eq!(m.unwrap().regions, vec![4..content.len() - 1]);
        let content = "/// as `\\xNN`\nwrite!(f, \"\\\\x\")";
        let m = escape_normalized_match(content, "/// as \\`\\xNN\\`\nwrite!(f, \"\\\\x\")");
        assert_eq!(m.unwrap().regions, vec![0..content.len()]);
        assert_eq!(
            unescape_template(r"a \$ \\$ \n"),
            Some(r"a $ \\$ \n".into())
        );
        assert_eq!(unescape_template(r"\n \\"), None);
    }

    #[test]
    fn counts_non_overlapping_occurrences() {
        let m = escape_normalized_match("x\tx\tx\tx", r"x\tx").unwrap();
        assert_eq!(m.regions, vec![0..3, 4..7]);
    }

    #[test]
    fn its_fit_unescapes_an_escaped_new_string_only_when_old_was_escaped() {
        let escaped = |new: &str| {
            let (region, old) = ("a();\nb();", "a();\\nb();");
            fit(Strategy::EscapeNormalized, region, "", SPACES2, old, new)
        };
        assert_eq!(escaped("a();\\nc();"), "a();\nc();");
        assert_eq!(escaped("print(\"x\")"), "print(\"x\")");
    }

    /// Template-literal escapes of a single-line `old` are undone in a multi-line `new`, and
    /// `\$` goes with `` \` `` even when `old` had only one kind.
    #[test]
    fn its_fit_undoes_template_escapes_in_any_new() {
        let out = fit(
            Strategy::EscapeNormalized,
            "a `b` c",
            "",
            SPACES2,
            "a \\`b\\` c",
            "a \\`b\\`\nd \\${e}",
        );
        assert_eq!(out, "a `b`\nd ${e}");
        // Escapes the file itself has are kept.
        let out = fit(
            Strategy::EscapeNormalized,
            "a \\$x\nb `c`",
            "",
            SPACES2,
            "a \\$x\nb \\`c\\`",
            "a \\$y\nb \\`c\\`",
        );
        assert_eq!(out, "a \\$y\nb `c`");
    }
}
