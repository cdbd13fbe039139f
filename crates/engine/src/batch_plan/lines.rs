//! The line operations of a batch: validation against the file as read, overlap detection, and
//! the one-pass rebuild (original lines interleaved with replacements and insertions).

use super::{label, BatchError, Effect, Op, OpKind};
use crate::fs::endings::{ends_crlf, new_line_endings};
use std::borrow::Cow;

/// The lines of `text` without their `\n` terminators, and whether the last line was terminated.
/// `""` has no lines; `"\n"` has one empty line; `"a\nb"` has two lines and no final newline.
pub fn lines_and_final_newline(text: &str) -> (Vec<&str>, bool) {
    if text.is_empty() {
        return (Vec::new(), false);
    }
    let trailing = text.ends_with('\n');
    let body = if trailing {
        &text[..text.len() - 1]
    } else {
        text
    };
    (body.split('\n').collect(), trailing)
}

/// A replacement or insertion text as whole lines: one trailing `\n` ends the last line.
/// `""` is no line, `"\n"` one empty line, `"a\n\n"` the lines `a` and ``.
pub fn text_lines(text: &str) -> Vec<&str> {
    lines_and_final_newline(text).0
}

/// A validated `lines` operation.
struct Range<'a> {
    start: usize,
    end: usize,
    lines: Vec<&'a str>,
    op: &'a Op,
}

/// A validated insertion at `gap` (between original lines `gap` and `gap + 1`; 0 = top).
struct Insert<'a> {
    gap: usize,
    lines: Vec<&'a str>,
    op: &'a Op,
}

/// Applies the line operations of `ops` to `text`; returns the new text and their effects.
/// When `ops` has no line operation, `text` comes back unchanged.
pub(super) fn apply(text: &str, ops: &[Op]) -> Result<(String, Vec<(usize, Effect)>), BatchError> {
    let (original, trailing) = lines_and_final_newline(text);
    let (ranges, inserts) = collect(ops, original.len())?;
    if ranges.is_empty() && inserts.is_empty() {
        return Ok((text.to_string(), Vec::new()));
    }
    check_overlaps(&ranges)?;
    check_inserts(&ranges, &inserts)?;
    let effects = effects(&ranges, &inserts);
    let rebuilt = rebuild(&original, &ranges, &inserts);
    let mut out = rebuilt.join("\n");
    if !rebuilt.is_empty() && (trailing || original.is_empty()) {
        out.push('\n');
    }
    Ok((out, effects))
}

/// Validates line numbers against `total` lines; ranges come back sorted by start, inserts by
/// gap (request order kept among equal keys).
fn collect(ops: &[Op], total: usize) -> Result<(Vec<Range<'_>>, Vec<Insert<'_>>), BatchError> {
    let mut ranges = Vec::new();
    let mut inserts = Vec::new();
    for op in ops {
        match &op.kind {
            OpKind::Lines { start, end, text } => {
                if end < start {
                    return Err(BatchError::ReversedRange {
                        op: label(op),
                        start: *start,
                        end: *end,
                    });
                }
                check_line(op, *start, total)?;
                check_line(op, *end, total)?;
                ranges.push(Range {
                    start: *start,
                    end: *end,
                    lines: text_lines(text),
                    op,
                });
            }
            OpKind::InsertBefore { line, text } => {
                // An empty file has no line 1, but "before line 1" is still its top.
                if !(total == 0 && *line == 1) {
                    check_line(op, *line, total)?;
                }
                inserts.push(Insert {
                    gap: line - 1,
                    lines: text_lines(text),
                    op,
                });
            }
            OpKind::InsertAfter { line, text } => {
                check_line(op, *line, total)?;
                inserts.push(Insert {
                    gap: *line,
                    lines: text_lines(text),
                    op,
                });
            }
            OpKind::Literal { .. } | OpKind::Regex { .. } => {}
        }
    }
    ranges.sort_by_key(|r| r.start);
    inserts.sort_by_key(|i| i.gap);
    Ok((ranges, inserts))
}

/// Line numbers are 1-based; `line` must name an existing line of the file as read.
fn check_line(op: &Op, line: usize, total: usize) -> Result<(), BatchError> {
    if line == 0 {
        return Err(BatchError::ZeroLine { op: label(op) });
    }
    if line > total {
        return Err(BatchError::OutOfRange {
            op: label(op),
            line,
            total,
        });
    }
    Ok(())
}

/// Ranges are sorted by start: any overlap shows between neighbours.
fn check_overlaps(ranges: &[Range]) -> Result<(), BatchError> {
    for pair in ranges.windows(2) {
        if pair[1].start <= pair[0].end {
            let (first, second) = ordered(pair[0].op, pair[1].op);
            return Err(BatchError::Overlap { first, second });
        }
    }
    Ok(())
}

/// An insertion at gap `g` is inside range `start..=end` when `start <= g < end`.
fn check_inserts(ranges: &[Range], inserts: &[Insert]) -> Result<(), BatchError> {
    for insert in inserts {
        let before = ranges.partition_point(|r| r.start <= insert.gap);
        if let Some(range) = before.checked_sub(1).map(|i| &ranges[i]) {
            if insert.gap < range.end {
                return Err(BatchError::InsertInsideRange {
                    insert: label(insert.op),
                    range: label(range.op),
                });
            }
        }
    }
    Ok(())
}

/// Labels of two operations, the one earlier in the request first.
fn ordered(a: &Op, b: &Op) -> (String, String) {
    if a.index <= b.index {
        (label(a), label(b))
    } else {
        (label(b), label(a))
    }
}

fn effects(ranges: &[Range], inserts: &[Insert]) -> Vec<(usize, Effect)> {
    let ranges = ranges.iter().map(|r| {
        (
            r.op.index,
            Effect::Lines {
                removed: r.end - r.start + 1,
                added: r.lines.len(),
            },
        )
    });
    let inserts = inserts.iter().map(|i| {
        (
            i.op.index,
            Effect::Inserted {
                lines: i.lines.len(),
            },
        )
    });
    ranges.chain(inserts).collect()
}

/// One pass over the original lines: at each gap its insertions, at each range start the
/// replacement (then skip to the range's end), otherwise the original line. New lines take their
/// endings from the lines around them ([`fitted`]).
fn rebuild<'a>(
    original: &[&'a str],
    ranges: &[Range<'a>],
    inserts: &[Insert<'a>],
) -> Vec<Cow<'a, str>> {
    let extra: usize = ranges.iter().map(|r| r.lines.len()).sum::<usize>()
        + inserts.iter().map(|i| i.lines.len()).sum::<usize>();
    let mut out = Vec::with_capacity(original.len() + extra);
    let (mut next_range, mut next_insert, mut line) = (0, 0, 1);
    loop {
        while next_insert < inserts.len() && inserts[next_insert].gap == line - 1 {
            let gap = inserts[next_insert].gap;
            let (above, below) = (gap.checked_sub(1), gap);
            let above = above.and_then(|i| original.get(i).copied());
            let new = &inserts[next_insert].lines;
            out.extend(fitted(new, &[], above, original.get(below).copied()));
            next_insert += 1;
        }
        if line > original.len() {
            break;
        }
        match ranges.get(next_range) {
            Some(range) if range.start == line => {
                let replaced = &original[range.start - 1..range.end];
                out.extend(fitted(&range.lines, replaced, None, None));
                line = range.end + 1;
                next_range += 1;
            }
            _ => {
                out.push(Cow::Borrowed(original[line - 1]));
                line += 1;
            }
        }
    }
    out
}

/// `lines` (new lines, without `\n`) taking the place of the `replaced` lines between `above` and
/// `below`, each given its ending by [`new_line_endings`] (a `\r` the caller wrote dropped first)
/// when any of those lines ends in CRLF; as they are otherwise.
fn fitted<'a>(
    lines: &[&'a str],
    replaced: &[&str],
    above: Option<&str>,
    below: Option<&str>,
) -> Vec<Cow<'a, str>> {
    let involved = replaced.iter().copied().chain(above).chain(below);
    if !involved.into_iter().any(ends_crlf) {
        return lines.iter().map(|line| Cow::Borrowed(*line)).collect();
    }
    let endings = new_line_endings(lines.len(), replaced, above, below);
    lines
        .iter()
        .zip(endings)
        .map(|(line, crlf)| {
            let bare = line.strip_suffix('\r').unwrap_or(line);
            match crlf {
                true => Cow::Owned(format!("{bare}\r")),
                false => Cow::Borrowed(bare),
            }
        })
        .collect()
}
