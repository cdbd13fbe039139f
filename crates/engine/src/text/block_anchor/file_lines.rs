//! Lines a loose match found different in content: a strategy that matches a region whose lines
//! may differ from `old_string` beyond white space (block-anchor pins only the first and last
//! lines) must not write `old_string`'s version of a line the model did not mean to change.
//!
//! Contract ([`merge_file_lines`]): `old` and the region are aligned line by line (lines compared
//! up to white space, blank lines at the edges left out), and `old` and `new` by a line diff.
//! - An `old` line paired with a differing file line that `new` keeps unchanged: `new` carries the
//!   file's line there (with `new`'s indentation).
//! - One `new` changes into lines holding the file's line, or an `old` line the file lacks that
//!   `new` changes or drops: `new` is written as is (it already says what the model wants).
//! - Anything else (a differing line changed into something else, an `old` line the file lacks
//!   kept by `new`, a file line with no `old` line): refused with the differing lines; nothing is
//!   written.

use crate::text::fit::FitRefusal;
use crate::text::js::js_trim;
use similar::{capture_diff_slices, Algorithm, DiffOp};
use std::ops::Range;

/// Most differing lines shown in a refusal.
const SHOWN_LINES: usize = 6;

/// An `old` line and a region line (indices) that differ in content; one is `None` where the lines
/// do not pair 1:1.
struct Differing {
    old_line: Option<usize>,
    file_line: Option<usize>,
}

/// `new` with the file's lines in place of `old` lines that differ from the region but that `new`
/// keeps; [`FitRefusal::LinesDiffer`] with the lines to show when that cannot be decided safely.
pub(super) fn merge_file_lines(
    region_text: &str,
    old: &str,
    new: &str,
) -> Result<String, FitRefusal> {
    let old_lines: Vec<&str> = old.split('\n').collect();
    let region_lines: Vec<&str> = region_text.split('\n').collect();
    let differing = differing_lines(&old_lines, &region_lines);
    if differing.is_empty() {
        return Ok(new.to_string());
    }
    let new_lines: Vec<&str> = new.split('\n').collect();
    let fates = old_line_fates(&old_lines, &new_lines);
    let mut out: Vec<String> = new_lines.iter().map(|l| l.to_string()).collect();
    for d in &differing {
        let fate = d.old_line.map(|k| &fates[k]);
        match (fate, d.file_line) {
            (Some(Fate::Kept(n)), Some(f)) => {
                out[*n] = with_indent_of(new_lines[*n], region_lines[f])
            }
            // `new` writes the file's line where `old` had another: already as the model wants.
            (Some(Fate::Changed(to)), Some(f))
                if new_lines[to.clone()]
                    .iter()
                    .any(|l| words(l) == words(region_lines[f])) => {}
            // A line the file lacks, which `new` changes or drops.
            (Some(Fate::Changed(_)), None) => {}
            _ => {
                return Err(FitRefusal::LinesDiffer {
                    shown: shown_lines(&differing, &old_lines, &region_lines),
                })
            }
        }
    }
    Ok(out.join("\n"))
}

/// The non-blank span of `lines` (indices), `None` when every line is blank.
fn core(lines: &[&str]) -> Option<Range<usize>> {
    let first = lines.iter().position(|l| !js_trim(l).is_empty())?;
    let last = lines.iter().rposition(|l| !js_trim(l).is_empty())?;
    Some(first..last + 1)
}

/// The lines (indices into `old_lines` and `region_lines`) whose text differs beyond white space, paired 1:1
/// where the diff replaces as many lines as it removes.
fn differing_lines(old_lines: &[&str], region_lines: &[&str]) -> Vec<Differing> {
    let (Some(oc), Some(rc)) = (core(old_lines), core(region_lines)) else {
        return Vec::new();
    };
    let a: Vec<String> = old_lines[oc.clone()].iter().map(|l| words(l)).collect();
    let b: Vec<String> = region_lines[rc.clone()].iter().map(|l| words(l)).collect();
    let mut out = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, &a, &b) {
        let (olds, files) = (op.old_range(), op.new_range());
        if matches!(op, DiffOp::Equal { .. }) {
            continue;
        }
        if olds.len() == files.len() {
            out.extend(olds.zip(files).map(|(k, f)| Differing {
                old_line: Some(oc.start + k),
                file_line: Some(rc.start + f),
            }));
            continue;
        }
        out.extend(olds.map(|k| Differing {
            old_line: Some(oc.start + k),
            file_line: None,
        }));
        out.extend(files.map(|f| Differing {
            old_line: None,
            file_line: Some(rc.start + f),
        }));
    }
    out
}

/// A line's text without its white space (lines that differ only in spacing are the same line).
fn words(line: &str) -> String {
    line.split_whitespace().collect()
}

/// What `new` does with one `old` line (a line diff of the two).
enum Fate {
    /// Kept unchanged as this `new` line.
    Kept(usize),
    /// Replaced (or removed) along with its neighbours by these `new` lines.
    Changed(Range<usize>),
}

fn old_line_fates(old_lines: &[&str], new_lines: &[&str]) -> Vec<Fate> {
    let mut fates: Vec<Fate> = Vec::with_capacity(old_lines.len());
    for op in capture_diff_slices(Algorithm::Myers, old_lines, new_lines) {
        let (olds, news) = (op.old_range(), op.new_range());
        match op {
            DiffOp::Equal { .. } => fates.extend(news.map(Fate::Kept)),
            _ => fates.extend(olds.map(|_| Fate::Changed(news.clone()))),
        }
    }
    fates
}

/// The file's `line` re-indented like `model_line`.
fn with_indent_of(model_line: &str, line: &str) -> String {
    let indent = &model_line[..model_line.len() - model_line.trim_start().len()];
    format!("{indent}{}", line.trim_start())
}

/// The differing lines as diff lines (`-` `old`'s, `+` the file's), at most [`SHOWN_LINES`] pairs.
fn shown_lines(differing: &[Differing], old_lines: &[&str], region_lines: &[&str]) -> String {
    let mut shown = String::new();
    for d in differing.iter().take(SHOWN_LINES) {
        if let Some(k) = d.old_line {
            shown.push_str(&format!("-{}\n", old_lines[k]));
        }
        if let Some(f) = d.file_line {
            shown.push_str(&format!("+{}\n", region_lines[f]));
        }
    }
    if differing.len() > SHOWN_LINES {
        shown.push_str(&format!("... and {} more\n", differing.len() - SHOWN_LINES));
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::merge_file_lines;
    use crate::text::fit::FitRefusal;

    const FILE: &str = "  def handle(msg) do\n    # send(\"some_other_event\")\n    x = 1\n  end";

    /// The merged `new`, or the lines a refusal shows.
    fn merge(old: &str, new: &str) -> Result<String, String> {
        merge_file_lines(FILE, old, new).map_err(|FitRefusal::LinesDiffer { shown }| shown)
    }

    #[test]
    fn a_kept_line_that_differs_takes_the_file_text() {
        let old = "def handle(msg) do\n  # send(\"ping\")\n  x = 1\nend";
        let new = "def handle(msg) do\n  # send(\"ping\")\n  x = 2\nend";
        let want = "def handle(msg) do\n  # send(\"some_other_event\")\n  x = 2\nend";
        assert_eq!(merge(old, new).unwrap(), want);
    }

    #[test]
    fn a_changed_line_that_differs_is_refused_with_both_versions() {
        let old = "def handle(msg) do\n  # send(\"ping\")\n  x = 1\nend";
        let new = "def handle(msg) do\n  send(\"pong\")\n  x = 1\nend";
        let err = merge(old, new).unwrap_err();
        assert_eq!(
            err,
            "-  # send(\"ping\")\n+    # send(\"some_other_event\")\n"
        );
    }

    #[test]
    fn lines_that_do_not_pair_up_are_refused() {
        let old = "def handle(msg) do\n  x = 1\nend";
        let new = "def handle(msg) do\n  x = 2\nend";
        let err = merge(old, new).unwrap_err();
        assert!(
            format!("\n{err}").ends_with("\n+    # send(\"some_other_event\")\n"),
            "{err}"
        );
    }

    #[test]
    fn white_space_only_differences_leave_new_as_written() {
        let old = "def handle(msg) do\n# send(\"some_other_event\")\nx = 1\nend";
        let new = "def handle(msg) do\n# send(\"some_other_event\")\nx = 3\nend";
        assert_eq!(merge(old, new).unwrap(), new);
    }

    #[test]
    fn a_line_changed_where_only_white_space_differs_is_written_as_new() {
        let old = "def handle(msg) do\n  # send(\"some_other_event\")\n  x  =  1\nend";
        let new = "def handle(msg) do\n  # send(\"some_other_event\")\n  x = 4\nend";
        assert_eq!(merge(old, new).unwrap(), new);
    }

    #[test]
    fn a_changed_line_the_file_already_holds_is_written_as_new() {
        let old = "def handle(msg) do\n  # send(\"ping\")\n  x = 1\nend";
        let new = "def handle(msg) do\n  # send(\"some_other_event\")\n  x = 5\nend";
        assert_eq!(merge(old, new).unwrap(), new);
    }

    #[test]
    fn a_line_the_file_lacks_that_new_drops_is_accepted() {
        let old = "def handle(msg) do\n  # send(\"some_other_event\")\n  y = 0\n  x = 1\nend";
        let new = "def handle(msg) do\n  # send(\"some_other_event\")\n  x = 6\nend";
        assert_eq!(merge(old, new).unwrap(), new);
        let kept = "def handle(msg) do\n  # send(\"some_other_event\")\n  y = 0\n  x = 6\nend";
        let shown = format!("\n{}", merge(old, kept).unwrap_err());
        assert!(shown.contains("\n-  y = 0\n"), "{shown}");
    }
}
