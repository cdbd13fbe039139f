//! Unified diffs of a change (`returnDiff` option), via `similar`.

use similar::TextDiff;

/// A unified diff (3 lines of context) from `before` to `after`, headed `a/<name>` / `b/<name>`.
/// Empty when the texts are equal.
pub fn unified(before: &str, after: &str, name: &str) -> String {
    if before == after {
        return String::new();
    }
    TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

/// Appends the diff block to a success message when `enabled`.
pub fn append(message: String, enabled: bool, before: &str, after: &str, name: &str) -> String {
    if !enabled {
        return message;
    }
    let diff = unified(before, after, name);
    if diff.is_empty() {
        return message;
    }
    format!(
        "{message}\n\nDiff:\n```diff\n{}```",
        ensure_trailing_newline(&diff)
    )
}

fn ensure_trailing_newline(s: &str) -> String {
    if s.ends_with('\n') {
        s.to_string()
    } else {
        format!("{s}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_changed_line_with_context() {
        let d = unified("a\nb\nc\n", "a\nB\nc\n", "x.js");
        assert!(d.starts_with("--- a/x.js\n+++ b/x.js\n"));
        assert!(d.contains("-b\n+B\n"));
        assert!(d.contains(" a\n"));
    }

    #[test]
    fn append_is_a_no_op_when_disabled_or_unchanged() {
        assert_eq!(append("ok".into(), false, "a", "b", "f"), "ok");
        assert_eq!(append("ok".into(), true, "a", "a", "f"), "ok");
        assert!(append("ok".into(), true, "a\n", "b\n", "f").contains("```diff\n--- a/f"));
    }
}
