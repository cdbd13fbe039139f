//! Line-targeted mode: `"42"` / `"42:ab"` references, hash checks, auto-corrections, context reply.

use super::line_clean::clean_line_edit;
use super::{parse_position, EditCall, EditParams, Planned, TrackerEffect};
use crate::common_ends::KnownEnds;
use crate::fs::textfile::TextFile;
use crate::lines::{compute_line_hash, parse_line_ref, validate_line_hash, LineRef, Position};
use crate::specs::HostTools;
use crate::tools::outcome::{ErrorKind, ToolError};

const INVALID_POSITION: &str = "Error editing file: Invalid position - must be \"before\" or \"after\". Use position=\"before\" to insert before start_line, position=\"after\" to insert after start_line, or omit position to replace/update the addressed lines.";

/// A validated line-targeted request, before the file is read.
pub(crate) struct LineRequest {
    start: LineRef,
    end: Option<LineRef>,
    position: Option<Position>,
}

/// Computes the edited text and Probe's reply (with context lines) for a validated request.
pub(super) fn plan(
    call: &EditCall,
    request: &LineRequest,
    file: &TextFile,
) -> Result<Planned, ToolError> {
    let start = request.start.line;
    let end = request.end.as_ref().map_or(start, |r| r.line);
    // Every line the edit reads lies at or above the one after `end`: the rest is only counted.
    let (file_lines, total) =
        crate::lines::split_on_newline_head(&file.text, end.saturating_add(1));
    check_lines(
        &file_lines,
        total,
        request,
        start,
        end,
        &call.ctx.host_tools,
    )?;
    let new_string = crate::text::lf_view(call.new_string);
    let new_string = without_second_bom(file, &new_string, start, request.position);
    let cleaned = clean_line_edit(new_string, &file_lines, start, end, request.position);
    if !cleaned.modifications.is_empty() {
        call.ctx.debug_log("Edit", || {
            format!(
                "Heuristic corrections: {}",
                cleaned.modifications.join(", ")
            )
        });
    }
    // `new_string` is the new lines' text: "" inserted is one blank line; "" replacing deletes.
    let blank_insert = new_string.is_empty() && request.position.is_some();
    let new_lines: Vec<&str> = if cleaned.text.is_empty() && !blank_insert {
        Vec::new()
    } else {
        cleaned.text.split('\n').collect()
    };
    let (updated, insert_at, action) =
        apply(&file_lines, total, &new_lines, start, end, request.position);
    let message = response(
        call.file_path,
        &updated,
        insert_at,
        new_lines.len(),
        &action,
        &cleaned.modifications,
    );
    Ok(Planned {
        new_text: updated.join(&file.text, &updated.fit_endings(&cleaned.text)),
        message,
        effect: TrackerEffect::Write,
        reparse: None,
        known: KnownEnds::NONE,
    })
}

/// `new_string` without a leading U+FEFF when it would become the first character of a file
/// that has a BOM and does not start with U+FEFF: the write restores the file's BOM, so a copy
/// of it at the start of line 1 would make a second one.
fn without_second_bom<'a>(
    file: &TextFile,
    new_string: &'a str,
    start: usize,
    position: Option<Position>,
) -> &'a str {
    let lands_first = start == 1 && position != Some(Position::After);
    match new_string.strip_prefix('\u{FEFF}') {
        Some(rest) if lands_first && file.bom && !file.text.starts_with('\u{FEFF}') => rest,
        _ => new_string,
    }
}

/// Validates references, range order and position, in Probe's order.
pub(super) fn request(params: &EditParams) -> Result<LineRequest, String> {
    let raw_start = params.start_line.js_string().unwrap_or_default();
    let start = parse_line_ref(&raw_start).ok_or_else(|| {
        format!("Error editing file: Invalid start_line '{raw_start}'. Use a line number (e.g. \"42\") or line:hash (e.g. \"42:ab\"). Line numbers are 1-indexed.")
    })?;
    let end = match params.end_line.js_string() {
        None => None,
        Some(raw) => Some(parse_line_ref(&raw).ok_or_else(|| {
            format!("Error editing file: Invalid end_line '{raw}'. Use a line number (e.g. \"55\") or line:hash (e.g. \"55:cd\"). Must be >= start_line.")
        })?),
    };
    let end_line = end.as_ref().map_or(start.line, |r| r.line);
    if end_line < start.line {
        return Err(inverted_range(start.line, end_line));
    }
    let position = parse_position(&params.position).map_err(|_| INVALID_POSITION.to_string())?;
    Ok(LineRequest {
        start,
        end,
        position,
    })
}

fn inverted_range(start: usize, end: usize) -> String {
    let hint = if end + 1 == start {
        format!(" This looks like an insertion between lines {end} and {start}. To insert there without replacing existing code, use start_line=\"{start}\" with position=\"before\" or start_line=\"{end}\" with position=\"after\".")
    } else {
        " To insert new code, choose a single anchor line in start_line and set position to \"before\" or \"after\" instead of using an inverted range.".to_string()
    };
    format!("Error editing file: end_line ({end}) must be >= start_line ({start}). Omitting position means replace/update the addressed lines, not insert.{hint} To delete lines, use new_string as the empty string \"\" with a valid non-inverted range.")
}

/// Range and hash validation against the current file lines (`file_lines`, the first of `total`;
/// a line beyond the file points to the host's read tool of `tools`).
fn check_lines(
    file_lines: &[&str],
    total: usize,
    request: &LineRequest,
    start: usize,
    end: usize,
    tools: &HostTools,
) -> Result<(), ToolError> {
    for line in [start, end] {
        if line > total {
            return Err(ToolError::new(ErrorKind::NotFound, format!("Error editing file: Line {line} is beyond file length ({total} lines). {} read the current file content.", tools.use_read())));
        }
    }
    let refs = std::iter::once(&request.start).chain(request.end.iter());
    for r in refs {
        let Some(hash) = &r.hash else { continue };
        let check = validate_line_hash(r.line as i64, hash, file_lines);
        if !check.valid {
            let (n, actual) = (r.line, &check.actual_hash);
            return Err(ToolError::new(ErrorKind::Stale, format!("Error editing file: Line {n} has changed since last read. Expected hash '{hash}' but content is now: {n}:{actual} | {}. Use '{n}:{actual}' instead.", check.actual_content)));
        }
    }
    Ok(())
}

/// Splices the new lines in; returns the file's new lines (as a view), where the new text starts
/// (0-based) and Probe's action phrase. `file_lines` are the first of the file's `total` lines,
/// through the one after `end` (when there is one).
fn apply<'a>(
    file_lines: &'a [&'a str],
    total: usize,
    new_lines: &'a [&'a str],
    start: usize,
    end: usize,
    position: Option<Position>,
) -> (Spliced<'a>, usize, String) {
    let n = new_lines.len();
    let plural = |k: usize| if k != 1 { "s" } else { "" };
    // After the phantom empty line that follows a final newline: insert before it, so the file
    // keeps its final newline.
    let phantom = total > 1 && start == total && file_lines[start - 1].is_empty();
    let (cut_from, cut_to, insert_at, action) = match position {
        Some(Position::After) => {
            let at = if phantom { start - 1 } else { start };
            (
                at,
                at,
                at,
                format!("{n} line{} inserted after line {start}", plural(n)),
            )
        }
        Some(Position::Before) => (
            start - 1,
            start - 1,
            start - 1,
            format!("{n} line{} inserted before line {start}", plural(n)),
        ),
        None => {
            let replaced = end - start + 1;
            let action = if n == 0 {
                format!(
                    "{replaced} line{} deleted (lines {start}-{end})",
                    plural(replaced)
                )
            } else if start == end {
                format!("line {start} replaced with {n} line{}", plural(n))
            } else {
                format!("lines {start}-{end} replaced with {n} line{}", plural(n))
            };
            (start - 1, end, start - 1, action)
        }
    };
    debug_assert!(cut_from <= cut_to && cut_to <= total);
    (
        Spliced {
            file_lines,
            total,
            new_lines,
            cut_from,
            cut_to,
        },
        insert_at,
        action,
    )
}

/// The file's lines after an edit — `file_lines[..cut_from] ++ new_lines ++ file_lines[cut_to..]` —
/// without copying any line: `file_lines` are the first `split('\n')` pieces of the file's text
/// (through the one at `cut_to` when there is one), `total` the number of all of them.
struct Spliced<'a> {
    file_lines: &'a [&'a str],
    total: usize,
    new_lines: &'a [&'a str],
    cut_from: usize,
    cut_to: usize,
}

impl<'a> Spliced<'a> {
    fn len(&self) -> usize {
        self.cut_from + self.new_lines.len() + (self.total - self.cut_to)
    }

    fn get(&self, i: usize) -> &'a str {
        let n = self.new_lines.len();
        if i < self.cut_from {
            self.file_lines[i]
        } else if i < self.cut_from + n {
            self.new_lines[i - self.cut_from]
        } else {
            self.file_lines[i - self.cut_from - n + self.cut_to]
        }
    }

    /// `new_text` (the new lines, `\n`-joined) with the line endings of the lines they replace, or
    /// for an insertion of the line above ([`crate::fs::endings::fit_new_lines`]).
    fn fit_endings<'t>(&self, new_text: &'t str) -> std::borrow::Cow<'t, str> {
        let (from, to) = (self.cut_from, self.cut_to);
        let above = from.checked_sub(1).map(|i| self.file_lines[i]);
        let below = self.file_lines.get(to).copied();
        crate::fs::endings::fit_new_lines(new_text, &self.file_lines[from..to], above, below)
    }

    /// The lines joined with `\n` (what `lines.join("\n")` gives), built from three slices: the
    /// file's text up to the cut, `new_text` (the new lines, already `\n`-joined) and the text
    /// after it. `text` is the string `file_lines` were split from.
    fn join(&self, text: &str, new_text: &str) -> String {
        let offset = |line: &str| line.as_ptr() as usize - text.as_ptr() as usize;
        let mut parts: [&str; 3] = [""; 3];
        let mut count = 0;
        if self.cut_from > 0 {
            let last = self.file_lines[self.cut_from - 1];
            parts[count] = &text[..offset(last) + last.len()];
            count += 1;
        }
        if !self.new_lines.is_empty() {
            parts[count] = new_text;
            count += 1;
        }
        if self.cut_to < self.total {
            parts[count] = &text[offset(self.file_lines[self.cut_to])..];
            count += 1;
        }
        parts[..count].join("\n")
    }
}

/// Probe's reply: action, corrections, and one line of context around the new lines with hashes.
fn response(
    file_path: &str,
    lines: &Spliced,
    insert_at: usize,
    count: usize,
    action: &str,
    mods: &[String],
) -> String {
    let mut msg = format!("Successfully edited {file_path} ({action})");
    if !mods.is_empty() {
        msg.push_str(&format!(" [auto-corrected: {}]", mods.join(", ")));
    }
    msg.push_str("\nContext:\n");
    let from = insert_at.saturating_sub(1);
    let to = (insert_at + count + 1).min(lines.len());
    for i in from..to {
        let line = lines.get(i);
        let marker = if i >= insert_at && i < insert_at + count {
            '>'
        } else {
            ' '
        };
        msg.push_str(&format!(
            "{marker} {}:{} | {line}\n",
            i + 1,
            compute_line_hash(line)
        ));
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Spliced` agrees with building the line list and joining it, for every cut and new-line
    /// count, also when the file is cut into lines only through the line at `cut_to`.
    #[test]
    fn spliced_matches_naive_join() {
        for text in ["", "a", "a\n", "a\nb", "a\nb\n", "\n\n", "x\n\ny\nz\n"] {
            let file_lines: Vec<&str> = text.split('\n').collect();
            for new_text in ["", "N", "N\n", "N\nM", "\n"] {
                let new_lines: Vec<&str> = if new_text.is_empty() {
                    Vec::new()
                } else {
                    new_text.split('\n').collect()
                };
                for cut_from in 0..=file_lines.len() {
                    for cut_to in cut_from..=file_lines.len() {
                        let s = Spliced {
                            file_lines: &file_lines,
                            total: file_lines.len(),
                            new_lines: &new_lines,
                            cut_from,
                            cut_to,
                        };
                        let naive: Vec<&str> = file_lines[..cut_from]
                            .iter()
                            .chain(&new_lines)
                            .chain(&file_lines[cut_to..])
                            .copied()
                            .collect();
                        assert_eq!(
                            s.join(text, new_text),
                            naive.join("\n"),
                            "{text:?} {new_text:?} {cut_from}..{cut_to}"
                        );
                        assert_eq!(s.len(), naive.len());
                        assert!((0..naive.len()).all(|i| s.get(i) == naive[i]));
                        // Cut only through the line at `cut_to`: the same text, length and
                        // lines up to the one after the new ones (all a reply reads).
                        let head = &file_lines[..(cut_to + 1).min(file_lines.len())];
                        let cut = Spliced {
                            file_lines: head,
                            ..s
                        };
                        assert_eq!(cut.join(text, new_text), naive.join("\n"));
                        assert_eq!(cut.len(), naive.len());
                        let read = (cut_from + new_lines.len() + 1).min(naive.len());
                        assert!((0..read).all(|i| cut.get(i) == naive[i]));
                    }
                }
            }
        }
    }

    /// Inserting after the line one past the last (the phantom line after a final newline)
    /// keeps the final newline.
    #[test]
    fn inserting_after_the_phantom_last_line_keeps_the_final_newline() {
        let ws = tempfile::tempdir().unwrap();
        let ctx =
            crate::tools::test_context(ws.path(), crate::history::recording::HistoryOption::Off);
        std::fs::write(ws.path().join("a.txt"), "a\nb\n").unwrap();
        let params = serde_json::json!({ "file_path": "a.txt", "start_line": "3", "position": "after", "new_string": "c" });
        let out = crate::tools::edit::run(&ctx, &params);
        assert!(!out.starts_with("Error"), "{out}");
        assert_eq!(
            std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
            "a\nb\nc\n"
        );
    }

    /// An empty `new_string` inserted is one blank line (a commit adding a blank line between two
    /// declarations); an empty `new_string` replacing lines still deletes them.
    #[test]
    fn an_empty_insertion_is_one_blank_line() {
        let ws = tempfile::tempdir().unwrap();
        let ctx =
            crate::tools::test_context(ws.path(), crate::history::recording::HistoryOption::Off);
        let file = ws.path().join("a.c");
        let run = |params: serde_json::Value| {
            std::fs::write(&file, "#include <a.h>\n#include \"b.h\"\n").unwrap();
            let out = crate::tools::edit::run(&ctx, &params);
            assert!(!out.starts_with("Error"), "{out}");
            (out, std::fs::read_to_string(&file).unwrap())
        };
        let (out, text) = run(
            serde_json::json!({ "file_path": "a.c", "start_line": "1", "position": "after", "new_string": "" }),
        );
        assert_eq!(text, "#include <a.h>\n\n#include \"b.h\"\n");
        assert!(out.contains("1 line inserted after line 1"), "{out}");
        let (_, text) = run(
            serde_json::json!({ "file_path": "a.c", "start_line": "2", "position": "before", "new_string": "" }),
        );
        assert_eq!(text, "#include <a.h>\n\n#include \"b.h\"\n");
        let (_, text) =
            run(serde_json::json!({ "file_path": "a.c", "start_line": "1", "new_string": "" }));
        assert_eq!(text, "#include \"b.h\"\n");
    }
}
