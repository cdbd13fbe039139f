//! Placing the hunks of one file and computing its new content (pure).
//!
//! Hunks are placed in order, each after the previous one (and after its own `@@` anchors). The
//! file's own text is kept for context lines; added lines are re-indented to the file's frame when
//! the hunk matched only once indentation was ignored, and take the line endings of the lines they
//! replace ([`crate::fs::endings`]). The final-newline state of the file is kept.

use super::seek::{seek, Found, Miss, Pass, Query};
use super::{Hunk, HunkLine, PatchError, Placement};
use crate::fs::endings::{ends_crlf, new_line_endings, with_ending};
use crate::text::closest_region;

/// A file's new content and how each fuzzy-placed hunk matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    /// One note per hunk that needed a looser comparison than exact (e.g. "hunk 2: ignoring indentation").
    pub notes: Vec<String>,
}

/// A planned change: replace `len` lines at `start` with `lines`.
struct Replacement {
    start: usize,
    len: usize,
    lines: Vec<String>,
}

/// Applies `hunks` to `text` (LF view). `display` names the file in errors, which say which
/// hunk failed, show the closest region of the file and what to resend.
pub fn apply_hunks(
    text: &str,
    hunks: &[Hunk],
    placement: Placement,
    display: &str,
) -> Result<Applied, PatchError> {
    let final_newline = text.is_empty() || text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<&str> = if text.is_empty() {
        Vec::new()
    } else {
        body.split('\n').collect()
    };
    let mut cursor = Cursor { line: 0, drift: 0 };
    let mut replacements = Vec::with_capacity(hunks.len());
    let mut notes = Vec::new();
    for (i, hunk) in hunks.iter().enumerate() {
        let label = HunkLabel {
            index: i + 1,
            total: hunks.len(),
            display,
        };
        cursor.line = seek_anchors(&lines, hunk, cursor.line, &label, text)?;
        let (replacement, pass) = place(&lines, hunk, cursor, placement, &label, text)?;
        if pass != Pass::Exact {
            notes.push(format!("{}: matched {}", label.short(), pass.describe()));
        }
        if let Some(hint) = hunk.line_hint.filter(|_| !hunk.old_lines().is_empty()) {
            cursor.drift = replacement.start as isize - (hint as isize - 1);
        }
        if !hunk.appends_at_end() {
            cursor.line = replacement.start + replacement.len;
        }
        replacements.push(replacement);
    }
    replacements.sort_by_key(|r| r.start);
    check_overlaps(&replacements, display)?;
    Ok(Applied {
        text: assemble(&lines, &replacements, final_newline),
        notes,
    })
}

/// Where the previous hunk left off: the line after it, and how far from its line hint it was
/// found (the next hunk's numbers are likely off by as much).
#[derive(Debug, Clone, Copy)]
struct Cursor {
    line: usize,
    drift: isize,
}

/// Names a hunk in messages.
struct HunkLabel<'a> {
    index: usize,
    total: usize,
    display: &'a str,
}

impl HunkLabel<'_> {
    fn short(&self) -> String {
        format!("hunk {} of {}", self.index, self.total)
    }
    fn long(&self) -> String {
        format!("Hunk {} of {} for {}", self.index, self.total, self.display)
    }
}

/// Moves the cursor past each `@@` anchor of the hunk, outermost first. An anchor found only
/// before the cursor leaves it in place (the previous hunk already lies in that anchor's scope, as
/// when two hunks of one function repeat its `@@` line).
fn seek_anchors(
    lines: &[&str],
    hunk: &Hunk,
    mut cursor: usize,
    label: &HunkLabel,
    text: &str,
) -> Result<usize, PatchError> {
    for anchor in &hunk.anchors {
        let pattern = [anchor.as_str()];
        let query = Query {
            pattern: &pattern,
            from: cursor,
            end_of_file: false,
            placement: Placement::InOrder,
            hint: None,
            drift: 0,
            after: 0,
        };
        let earlier = Query { from: 0, ..query };
        match seek(lines, &query) {
            Ok(found) => cursor = found.start + 1,
            Err(_) if cursor > 0 && seek(lines, &earlier).is_ok() => {}
            Err(_) => {
                let mut message = format!(
                    "{} failed: its @@ anchor \"{anchor}\" was not found after line {cursor}.\n",
                    label.long()
                );
                message.push_str(&closest_hint(text, anchor));
                message.push_str("\nCopy the anchor line exactly from the file (or drop it) and resend the patch.");
                return Err(PatchError::new(message));
            }
        }
    }
    Ok(cursor)
}

/// Finds the hunk's old lines (retrying without a trailing blank context line) and plans its
/// replacement.
fn place(
    lines: &[&str],
    hunk: &Hunk,
    cursor: Cursor,
    placement: Placement,
    label: &HunkLabel,
    text: &str,
) -> Result<(Replacement, Pass), PatchError> {
    let mut hunk_lines: &[HunkLine] = &hunk.lines;
    let old = hunk.old_lines();
    if old.is_empty() {
        return Ok((insertion(lines, hunk, cursor), Pass::Exact));
    }
    let mut result = locate(lines, hunk, &old, cursor, placement);
    if result == Err(Miss::NotFound) {
        if let Some((HunkLine::Context(last), rest)) = hunk_lines.split_last() {
            if last.trim().is_empty() && rest.iter().any(|l| !matches!(l, HunkLine::Add(_))) {
                hunk_lines = rest;
                let trimmed = &old[..old.len() - 1];
                result = locate(lines, hunk, trimmed, cursor, placement);
            }
        }
    }
    match result {
        Ok(found) => {
            let old_len = hunk_lines
                .iter()
                .filter(|l| !matches!(l, HunkLine::Add(_)))
                .count();
            let segment = &lines[found.start..found.start + old_len];
            let around = Around {
                above: found.start.checked_sub(1).map(|i| lines[i]),
                below: lines.get(found.start + old_len).copied(),
            };
            let replacement = Replacement {
                start: found.start,
                len: old_len,
                lines: fit(hunk_lines, segment, found.pass, around),
            };
            Ok((replacement, found.pass))
        }
        Err(miss) => Err(miss_error(miss, hunk, &old, label, text)),
    }
}

fn locate(
    lines: &[&str],
    hunk: &Hunk,
    old: &[&str],
    cursor: Cursor,
    placement: Placement,
) -> Result<Found, Miss> {
    let query = Query {
        pattern: old,
        from: if placement == Placement::InOrder {
            cursor.line
        } else {
            0
        },
        end_of_file: hunk.end_of_file,
        placement,
        hint: hunk.line_hint.map(|h| h.saturating_sub(1)),
        drift: cursor.drift,
        after: cursor.line,
    };
    seek(lines, &query)
}

/// A hunk with only added lines: after its anchors, else at its line hint (moved by the previous
/// hunk's drift), else at the end of the file, before a final empty line
/// ([`Hunk::appends_at_end`]). The added lines take the line ending of the line above (below at
/// the start of the file).
fn insertion(lines: &[&str], hunk: &Hunk, cursor: Cursor) -> Replacement {
    let start = if hunk.appends_at_end() {
        lines.len() - usize::from(lines.last() == Some(&""))
    } else if !hunk.anchors.is_empty() {
        cursor.line
    } else {
        let h = hunk.line_hint.unwrap_or(lines.len());
        h.saturating_add_signed(cursor.drift)
            .min(lines.len())
            .max(cursor.line)
    };
    let added: Vec<&String> = hunk
        .lines
        .iter()
        .filter_map(|l| match l {
            HunkLine::Add(t) => Some(t),
            _ => None,
        })
        .collect();
    let (above, below) = (
        start.checked_sub(1).map(|i| lines[i]),
        lines.get(start).copied(),
    );
    let endings = new_line_endings(added.len(), &[], above, below);
    let added = added
        .into_iter()
        .zip(endings)
        .map(|(t, crlf)| with_ending(t.clone(), crlf))
        .collect();
    Replacement {
        start,
        len: 0,
        lines: added,
    }
}

/// The file's lines just above and below a matched segment.
#[derive(Clone, Copy)]
struct Around<'a> {
    above: Option<&'a str>,
    below: Option<&'a str>,
}

/// The replacement lines: the file's own text for context, added lines re-indented when the
/// match ignored indentation and given their line endings ([`added_endings`]).
fn fit(hunk_lines: &[HunkLine], segment: &[&str], pass: Pass, around: Around) -> Vec<String> {
    let indents = if pass >= Pass::SurroundingWhitespace {
        indent_map(hunk_lines, segment)
    } else {
        Vec::new()
    };
    let mut crlf = added_endings(hunk_lines, segment, around).into_iter();
    let mut out = Vec::with_capacity(hunk_lines.len());
    let mut j = 0;
    for line in hunk_lines {
        match line {
            HunkLine::Context(_) => {
                out.push(segment[j].to_string());
                j += 1;
            }
            HunkLine::Remove(_) => j += 1,
            HunkLine::Add(t) => {
                let ending = crlf.next().unwrap_or(false);
                out.push(with_ending(reindent(t, &indents), ending));
            }
        }
    }
    out
}

/// For each added line, in order, whether it ends in CRLF (the rule of [`crate::fs::endings`]):
/// in a run of changes between context lines, the k-th added line takes the ending of the run's
/// k-th removed line (the last one's past them); a run without removed lines takes the ending of
/// the line above it (below it at the start of the file). Empty when no line around ends in CRLF.
fn added_endings(hunk_lines: &[HunkLine], segment: &[&str], around: Around) -> Vec<bool> {
    let near = segment
        .iter()
        .copied()
        .chain(around.above)
        .chain(around.below);
    if !near.into_iter().any(ends_crlf) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut i, mut j, mut above) = (0, 0, around.above);
    while i < hunk_lines.len() {
        if let HunkLine::Context(_) = hunk_lines[i] {
            above = Some(segment[j]);
            (i, j) = (i + 1, j + 1);
            continue;
        }
        let (run_start, mut added) = (j, 0);
        while let Some(line) = hunk_lines
            .get(i)
            .filter(|l| !matches!(l, HunkLine::Context(_)))
        {
            match line {
                HunkLine::Remove(_) => j += 1,
                _ => added += 1,
            }
            i += 1;
        }
        let below = segment.get(j).copied().or(around.below);
        out.extend(new_line_endings(
            added,
            &segment[run_start..j],
            above,
            below,
        ));
    }
    out
}

/// (hunk indentation, file indentation) pairs of the old lines, first occurrence of each hunk
/// indentation; the first pair is the one of the first non-blank old line.
fn indent_map<'a>(hunk_lines: &'a [HunkLine], segment: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    let old = hunk_lines.iter().filter_map(|l| match l {
        HunkLine::Context(t) | HunkLine::Remove(t) => Some(t.as_str()),
        HunkLine::Add(_) => None,
    });
    let mut map: Vec<(&str, &str)> = Vec::new();
    for (k, t) in old.enumerate() {
        if t.trim().is_empty() {
            continue;
        }
        let from = leading_ws(t);
        if !map.iter().any(|(f, _)| *f == from) {
            map.push((from, leading_ws(segment[k])));
        }
    }
    map
}

/// An added line in the file's frame: an indentation some old line had maps to that line's
/// file indentation; otherwise the first old line's shift applies to its prefix.
fn reindent(line: &str, indents: &[(&str, &str)]) -> String {
    if line.trim().is_empty() || indents.is_empty() {
        return line.to_string();
    }
    let ws = leading_ws(line);
    if let Some((_, to)) = indents.iter().find(|(from, _)| *from == ws) {
        return format!("{to}{}", &line[ws.len()..]);
    }
    let (from, to) = indents[0];
    match line.strip_prefix(from) {
        Some(rest) => format!("{to}{rest}"),
        None => line.to_string(),
    }
}

fn leading_ws(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

/// The error for a hunk that matched nowhere or in several places.
fn miss_error(miss: Miss, hunk: &Hunk, old: &[&str], label: &HunkLabel, text: &str) -> PatchError {
    let expected = old.join("\n");
    let message = match miss {
        Miss::Ambiguous(starts) => {
            let at: Vec<String> = starts
                .iter()
                .take(10)
                .map(|s| (s + 1).to_string())
                .collect();
            format!(
                "{} failed: its lines occur {} times (at lines {}).\nAdd context lines (or an @@ anchor / correct line numbers) so the hunk matches one place, and resend the patch.",
                label.long(),
                starts.len(),
                at.join(", ")
            )
        }
        Miss::NotFound => {
            let mut m = format!(
                "{} failed: these lines were not found{}:\n{expected}\n",
                label.long(),
                match hunk.anchors.last() {
                    Some(a) => format!(" after the @@ anchor \"{a}\""),
                    None => String::new(),
                }
            );
            m.push_str(&closest_hint(text, &expected));
            m.push_str("\nCopy the hunk's context and '-' lines exactly from the file's current content, and resend the patch.");
            m
        }
    };
    PatchError::new(message)
}

/// "The closest region ..." with a diff, or a hint to re-read the file.
fn closest_hint(text: &str, expected: &str) -> String {
    match closest_region(text, expected) {
        Some(r) => format!(
            "The closest region is lines {}-{} ({:.0}% similar; '-' is the patch, '+' the file):\n{}",
            r.start_line,
            r.end_line,
            r.score * 100.0,
            r.diff.trim_end()
        ),
        None => "Nothing similar is in the file; view it to see its current content.".to_string(),
    }
}

/// Refuses two hunks that change the same lines.
fn check_overlaps(replacements: &[Replacement], display: &str) -> Result<(), PatchError> {
    for pair in replacements.windows(2) {
        if pair[1].start < pair[0].start + pair[0].len {
            return Err(PatchError::new(format!(
                "Two hunks for {display} change the same lines (around line {}). Merge them into one hunk and resend the patch.",
                pair[1].start + 1
            )));
        }
    }
    Ok(())
}

/// The new text: original lines with the replacements spliced in.
fn assemble(lines: &[&str], replacements: &[Replacement], final_newline: bool) -> String {
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut next = 0;
    for r in replacements {
        out.extend_from_slice(&lines[next..r.start]);
        out.extend(r.lines.iter().map(String::as_str));
        next = r.start + r.len;
    }
    out.extend_from_slice(&lines[next..]);
    let mut text = out.join("\n");
    if final_newline && !out.is_empty() {
        text.push('\n');
    }
    text
}
