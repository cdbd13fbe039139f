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

/// Lines of context around each change of a diff.
const CONTEXT: usize = 3;

/// A unified diff (3 lines of context) from `before` to `after`, headed `a/<name>` / `b/<name>`,
/// and its added and deleted line counts. Only the lines between the texts' common leading and
/// trailing lines are diffed (a one-line change of a large file costs a scan, not a whole diff);
/// the hunk headers still number the file's own lines. Empty when the texts are equal.
pub fn unified_counted(before: &str, after: &str, name: &str) -> (String, usize, usize) {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let from = prefix.saturating_sub(CONTEXT);
    let to = |lines: &[&str]| lines.len() - suffix + suffix.min(CONTEXT);
    let old_mid = lines_span(before, &old, from, to(&old));
    let new_mid = lines_span(after, &new, from, to(&new));
    let diff = TextDiff::from_lines(old_mid, new_mid);
    let (mut additions, mut deletions) = (0, 0);
    for op in diff
        .ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
    {
        deletions += op.old_range().len();
        additions += op.new_range().len();
    }
    if additions + deletions == 0 {
        return (String::new(), 0, 0);
    }
    let text = diff
        .unified_diff()
        .context_radius(CONTEXT)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string();
    let shifted: Vec<String> = text
        .split_inclusive('\n')
        .map(|l| shift_hunk(l, from))
        .collect();
    (shifted.concat(), additions, deletions)
}

/// The part of `text` (split into `lines`) from line `from` up to line `to` (0-based, exclusive).
fn lines_span<'a>(text: &'a str, lines: &[&str], from: usize, to: usize) -> &'a str {
    let bytes = |lines: &[&str]| lines.iter().map(|l| l.len()).sum::<usize>();
    let start = bytes(&lines[..from]);
    &text[start..start + bytes(&lines[from..to])]
}

/// A hunk header line (`@@ -a[,b] +c[,d] @@`) with both starts moved down by `by` lines; any
/// other line as it is.
fn shift_hunk(line: &str, by: usize) -> String {
    let shift = |part: &str| match part.split_once(',') {
        Some((start, len)) => format!("{},{len}", start.parse::<usize>().unwrap_or(0) + by),
        None => (part.parse::<usize>().unwrap_or(0) + by).to_string(),
    };
    let header = line
        .strip_prefix("@@ -")
        .and_then(|rest| rest.split_once(" @@"))
        .and_then(|(ranges, tail)| Some((ranges.split_once(" +")?, tail)));
    match header {
        Some(((old, new), tail)) if by > 0 => {
            format!("@@ -{} +{} @@{tail}", shift(old), shift(new))
        }
        _ => line.to_string(),
    }
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

    /// The windowed diff of a change deep in a file numbers the file's own lines and counts the
    /// changed lines; it equals the whole-file diff.
    #[test]
    fn a_windowed_diff_is_the_whole_files_diff() {
        let before: String = (1..=40).map(|i| format!("line {i}\n")).collect();
        let after = before
            .replace("line 20\n", "line twenty\nline 20b\n")
            .replace("line 33\n", "");
        let (shown, additions, deletions) = unified_counted(&before, &after, "f");
        assert_eq!(shown, unified(&before, &after, "f"));
        assert!(shown.contains("@@ -17,7 +17,8 @@"), "{shown}");
        assert_eq!((additions, deletions), (2, 2));
        assert_eq!(unified_counted("a\n", "a\n", "f"), (String::new(), 0, 0));
        let (tail, ..) = unified_counted("a\nb", "a\nc", "f");
        assert_eq!(tail, unified("a\nb", "a\nc", "f"));
    }

    #[test]
    fn append_is_a_no_op_when_disabled_or_unchanged() {
        assert_eq!(append("ok".into(), false, "a", "b", "f"), "ok");
        assert_eq!(append("ok".into(), true, "a", "a", "f"), "ok");
        assert!(append("ok".into(), true, "a\n", "b\n", "f").contains("```diff\n--- a/f"));
    }
}
