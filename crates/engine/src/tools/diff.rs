//! Unified diffs of a change (`returnDiff` option, previews, undo's refusals), via `similar`.
//! Only the region between the texts' common head and tail (with a margin of lines) is diffed,
//! so a small change of a large file costs a byte comparison; when a change could settle
//! differently in the whole texts (`similar` slides changes along repeated lines), the lines of
//! the whole texts are compared once, without hashing every line (what makes `similar`'s own text
//! diff slow on a large file). Either way the output is the whole-file diff's, byte for byte.
//! Byte contents (previews) are decoded as text only in that region.

use crate::common_ends::KnownEnds;
use similar::{Algorithm, DiffOp, DiffTag, TextDiff};

/// Lines of context around each change of a diff.
const CONTEXT: usize = 3;

/// A unified diff (3 lines of context) from `before` to `after`, headed `a/<name>` / `b/<name>`.
/// Empty when the texts are equal.
pub fn unified(before: &str, after: &str, name: &str) -> String {
    unified_counted(before, after, name).0
}

/// [`unified`] and the diff's added and deleted line counts. The hunk headers number the file's
/// own lines.
pub fn unified_counted(before: &str, after: &str, name: &str) -> (String, usize, usize) {
    if before == after {
        return (String::new(), 0, 0);
    }
    around_change(before, after, name).unwrap_or_else(|| whole(before, after, name))
}

/// The diff of the whole texts: their lines compared once (no hashing) for the changes, then
/// those changes and their context diffed and formatted alone.
fn whole(before: &str, after: &str, name: &str) -> (String, usize, usize) {
    let (old, new) = (lines_of(before), lines_of(after));
    let ops = similar::capture_diff_slices(Algorithm::Myers, &old, &new);
    let changed: Vec<_> = ops
        .iter()
        .filter(|op| op.tag() != DiffTag::Equal)
        .map(DiffOp::as_tag_tuple)
        .collect();
    let (Some(first), Some(last)) = (changed.first(), changed.last()) else {
        return (String::new(), 0, 0);
    };
    let deletions = changed.iter().map(|(_, o, _)| o.len()).sum();
    let additions = changed.iter().map(|(_, _, n)| n.len()).sum();
    // Before the first change both texts hold the same lines, so it starts on the same line.
    let from = first.1.start.saturating_sub(CONTEXT);
    let old_to = (last.1.end + CONTEXT).min(old.len());
    let new_to = (last.2.end + CONTEXT).min(new.len());
    let window = TextDiff::from_lines(
        span(before, &old, from, old_to),
        span(after, &new, from, new_to),
    );
    let shifted = |(tag, o, n): (DiffTag, std::ops::Range<usize>, std::ops::Range<usize>)| {
        (
            tag,
            o.start + from..o.end + from,
            n.start + from..n.end + from,
        )
    };
    let same = window
        .ops()
        .iter()
        .filter(|op| op.tag() != DiffTag::Equal)
        .map(|op| shifted(op.as_tag_tuple()))
        .eq(changed.iter().cloned());
    let text = match same {
        true => formatted(&window, name, from),
        // Never seen; kept so the output is the whole-file diff's whatever `similar` does.
        false => formatted(&TextDiff::from_lines(before, after), name, 0),
    };
    (text, additions, deletions)
}

/// Lines kept on each side of the changed region when it is diffed alone (room for the context
/// and for `similar`'s compaction to settle inside the region).
const MARGIN: usize = 16;

/// The diff of the changed region alone (see [`Region`]). `None` (diff the whole texts) when a
/// text has a lone `\r` (a line end to `similar`, not to this scan) or a change settles within
/// [`CONTEXT`] lines of the region's edge, where more lines could move it.
fn around_change(before: &str, after: &str, name: &str) -> Option<(String, usize, usize)> {
    if has_lone_cr(before.as_bytes()) || has_lone_cr(after.as_bytes()) {
        return None;
    }
    let (a, b) = (before.as_bytes(), after.as_bytes());
    let (head, tail) = KnownEnds::NONE.widen(a, b);
    let region = Region::of(a, head, a.len() - tail);
    let new_end = b.len() - (a.len() - region.end);
    region.diff(
        &before[region.start..region.end],
        &after[region.start..new_end],
        name,
    )
}

/// [`unified_counted`] of two contents read as text (invalid UTF-8 replaced as
/// `String::from_utf8_lossy` does), the new one given as the old one's first `head` bytes, then
/// `middle`, then its last `tail` bytes (`head + tail` at most `before.len()`). Only the changed
/// region is decoded and the new content is not built, unless a lone `\r` or a change settling
/// at the region's edge needs the whole texts; the output is the whole texts' diff either way.
pub fn unified_counted_spliced(
    before: &[u8],
    (head, middle, tail): (usize, &[u8], usize),
    name: &str,
) -> (String, usize, usize) {
    let len = before.len();
    if middle.is_empty() && head + tail == len {
        return (String::new(), 0, 0);
    }
    let around = || {
        if has_lone_cr(before) {
            return None;
        }
        let region = Region::of(before, head, len - tail);
        let new = [
            &before[region.start..head],
            middle,
            &before[len - tail..region.end],
        ]
        .concat();
        if has_lone_cr(&new) {
            return None;
        }
        let old = String::from_utf8_lossy(&before[region.start..region.end]);
        region.diff(&old, &String::from_utf8_lossy(&new), name)
    };
    around().unwrap_or_else(|| {
        let after = [&before[..head], middle, &before[len - tail..]].concat();
        let (old, new) = (
            String::from_utf8_lossy(before),
            String::from_utf8_lossy(&after),
        );
        unified_counted(&old, &new, name)
    })
}

/// [`unified_counted_spliced`] of two whole contents.
pub fn unified_counted_bytes(before: &[u8], after: &[u8], name: &str) -> (String, usize, usize) {
    let (head, tail) = KnownEnds::NONE.widen(before, after);
    unified_counted_spliced(before, (head, &after[head..after.len() - tail], tail), name)
}

/// The lines of the old text diffed for a change of its bytes `head..changed_end`: from
/// [`MARGIN`] lines above the change's first line to [`MARGIN`] below its last, numbered as the
/// file's own (`first_line` lines above it).
struct Region {
    start: usize,
    end: usize,
    len: usize,
    first_line: usize,
}

impl Region {
    fn of(old: &[u8], head: usize, changed_end: usize) -> Region {
        let mut start = line_start(old, head);
        let mut end = line_after(old, changed_end);
        for _ in 0..MARGIN {
            start = if start > 0 {
                line_start(old, start - 1)
            } else {
                0
            };
            end = line_after(old, end);
        }
        Region {
            start,
            end,
            len: old.len(),
            first_line: memchr::memchr_iter(b'\n', &old[..start]).count(),
        }
    }

    /// The diff of the region's old lines `old` and the new lines in their place `new`; `None`
    /// when it has no change or a change settles too near an edge of the region that is not
    /// the text's.
    fn diff(&self, old: &str, new: &str, name: &str) -> Option<(String, usize, usize)> {
        let diff = TextDiff::from_lines(old, new);
        let changed: Vec<_> = diff
            .ops()
            .iter()
            .filter(|op| op.tag() != DiffTag::Equal)
            .map(DiffOp::as_tag_tuple)
            .collect();
        let (first, last) = (changed.first()?, changed.last()?);
        let (old_lines, new_lines) = (diff.old_slices().len(), diff.new_slices().len());
        let room = CONTEXT + 1;
        let settled = (self.start == 0 || first.1.start >= room)
            && (self.end == self.len
                || (last.1.end + room <= old_lines && last.2.end + room <= new_lines));
        if !settled {
            return None;
        }
        let deletions = changed.iter().map(|(_, o, _)| o.len()).sum();
        let additions = changed.iter().map(|(_, _, n)| n.len()).sum();
        Some((
            formatted(&diff, name, self.first_line),
            additions,
            deletions,
        ))
    }
}

/// The start of the line holding byte `at` of `text` (`at` itself when it starts one).
fn line_start(text: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &text[..at]).map_or(0, |i| i + 1)
}

/// The start of the line after the one holding byte `at` (the text's end when there is none).
fn line_after(text: &[u8], at: usize) -> usize {
    match at < text.len() {
        true => memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i + 1),
        false => text.len(),
    }
}

/// True when `bytes` has a `\r` not followed by `\n`.
fn has_lone_cr(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n'))
}

/// The unified form of `diff`, its hunk headers moved down by `from` lines.
fn formatted<'a>(diff: &'a TextDiff<'a, 'a, 'a, str>, name: &str, from: usize) -> String {
    let text = diff
        .unified_diff()
        .context_radius(CONTEXT)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string();
    lines_of(&text)
        .into_iter()
        .map(|l| shift_hunk(l, from))
        .collect()
}

/// The lines of `text` as `similar` splits them (each with its ending: `\n`, `\r\n`, or a lone
/// `\r`), found with a byte scan.
fn lines_of(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if i < start {
            continue; // the `\n` of a `\r\n` already taken
        }
        let end = match bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            true => i + 2,
            false => i + 1,
        };
        lines.push(&text[start..end]);
        start = end;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// Lines `from..to` of `text` (split into `lines` by [`lines_of`]), as one slice of it.
fn span<'a>(text: &'a str, lines: &[&str], from: usize, to: usize) -> &'a str {
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

    /// The diff of the whole texts, as `similar` makes it.
    fn whole_file(before: &str, after: &str, name: &str) -> String {
        TextDiff::from_lines(before, after)
            .unified_diff()
            .context_radius(CONTEXT)
            .header(&format!("a/{name}"), &format!("b/{name}"))
            .to_string()
    }

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
        assert_eq!(shown, whole_file(&before, &after, "f"));
        assert!(shown.contains("@@ -17,7 +17,8 @@"), "{shown}");
        assert_eq!((additions, deletions), (2, 2));
        assert_eq!(unified_counted("a\n", "a\n", "f"), (String::new(), 0, 0));
        let (tail, ..) = unified_counted("a\nb", "a\nc", "f");
        assert_eq!(tail, whole_file("a\nb", "a\nc", "f"));
        let big: String = (1..=5000).map(|i| format!("line {i}\r\n")).collect();
        let edited = big
            .replace("line 2500\r\n", "")
            .replace("line 4000", "four thousand");
        assert_eq!(unified(&big, &edited, "f"), whole_file(&big, &edited, "f"));
        // A blank line inserted before a run of blank lines settles at the run's end.
        let blanks = format!("{}\n\n\n\n\n\n{}", "x\n".repeat(50), "y\n".repeat(50));
        let more = blanks.replacen("x\n\n", "x\n\n\n", 1);
        assert_eq!(
            unified(&blanks, &more, "f"),
            whole_file(&blanks, &more, "f")
        );
    }

    /// Texts drawn from a few repeated lines (runs a diff can align several ways), with CRLF,
    /// lone CR and missing final newlines: every windowed diff is the whole-file diff.
    #[test]
    fn windowed_diffs_equal_whole_file_diffs_on_repetitive_texts() {
        const LINES: [&str; 6] = ["a\n", "b\n", "a\n", "c\r\n", "b", "x\ry\n"];
        let mut seed = 0x9e37_79b9_u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        for round in 0..3000 {
            let kinds = if round % 3 == 0 { LINES.len() } else { 3 };
            let count = if round % 2 == 0 { next(30) } else { next(150) };
            let before: String = (0..count).map(|_| LINES[next(kinds)]).collect();
            let mut lines: Vec<&str> = before.split_inclusive('\n').collect();
            for _ in 0..=next(3) {
                let at = next(lines.len() + 1);
                match next(3) {
                    0 if at < lines.len() => drop(lines.remove(at)),
                    1 if at < lines.len() => lines[at] = LINES[next(kinds)],
                    _ => lines.insert(at, LINES[next(kinds)]),
                }
            }
            let after = lines.concat();
            let shown = unified(&before, &after, "f");
            assert_eq!(
                shown,
                whole_file(&before, &after, "f"),
                "{before:?} -> {after:?}"
            );
        }
    }

    /// Byte contents (invalid UTF-8, multi-byte characters, CRLF and lone CR among their
    /// lines), diffed from their common ends with only the changed region decoded: the diff and
    /// its counts are the whole texts', read with replacement characters.
    #[test]
    fn byte_diffs_equal_the_whole_lossy_texts_diffs() {
        const LINES: [&[u8]; 8] = [
            b"a\n",
            b"b\n",
            b"\xff\n",
            b"\xfe\n",
            "\u{e9}\n".as_bytes(),
            b"c\r\n",
            b"\xc3",
            b"x\ry\n",
        ];
        let mut seed = 0x2545_f491_u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        for round in 0..3000 {
            let kinds = [3, 6, LINES.len()][round % 3];
            let count = if round % 2 == 0 { next(40) } else { next(200) };
            let before: Vec<u8> = (0..count)
                .flat_map(|_| LINES[next(kinds)])
                .copied()
                .collect();
            let mut lines: Vec<&[u8]> = before.split_inclusive(|&b| b == b'\n').collect();
            for _ in 0..=next(3) {
                let at = next(lines.len() + 1);
                match next(3) {
                    0 if at < lines.len() => drop(lines.remove(at)),
                    1 if at < lines.len() => lines[at] = LINES[next(kinds)],
                    _ => lines.insert(at, LINES[next(kinds)]),
                }
            }
            let after = lines.concat();
            let (old, new) = (
                String::from_utf8_lossy(&before),
                String::from_utf8_lossy(&after),
            );
            let counted = unified_counted_bytes(&before, &after, "f");
            assert_eq!(
                counted,
                unified_counted(&old, &new, "f"),
                "{old:?} -> {new:?}"
            );
            assert_eq!(counted.0, whole_file(&old, &new, "f"), "{old:?} -> {new:?}");
        }
    }

    #[test]
    fn append_is_a_no_op_when_disabled_or_unchanged() {
        assert_eq!(append("ok".into(), false, "a", "b", "f"), "ok");
        assert_eq!(append("ok".into(), true, "a", "a", "f"), "ok");
        assert!(append("ok".into(), true, "a\n", "b\n", "f").contains("```diff\n--- a/f"));
    }
}
