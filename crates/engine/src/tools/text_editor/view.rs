//! `view`: a file with `cat -n` numbering (optionally a `view_range`), cut at a line end to at
//! most `max_characters`, or a directory listing two levels deep.

use super::output::cat_n;
use super::request::ViewRange;
use super::Call;
use crate::batch_plan::lines_and_final_newline;
use crate::fs::textfile::read_text_confined;
use crate::fs::ResolvedPath;
use crate::tools::outcome::{ErrorKind, Outcome, ToolError};
use std::path::Path;

/// Most entries a directory listing shows.
const MAX_LISTED: usize = 1000;

pub(super) fn run(
    call: &Call,
    range: ViewRange,
    max_chars: Option<u64>,
) -> Result<Outcome, ToolError> {
    let path = call.resolve_readable()?;
    if let Some(refusal) = protected_refusal(call, &path) {
        return Err(refusal);
    }
    call.check_existing_file(&path, "view")?;
    if path.real.is_dir() {
        if range.is_some() {
            return Err(ToolError::bad_param("Error: The `view_range` parameter is not allowed when `path` points to a directory."));
        }
        return Ok(Outcome::read(list_directory(call, &path)));
    }
    view_file(call, (range, max_chars), &path).map(Outcome::read)
}

/// The answer to a view of a file or folder under `protectedPaths`: its contents (or its entries)
/// are never shown, whether or not it exists; `None` when the path is not protected.
fn protected_refusal(call: &Call, path: &ResolvedPath) -> Option<ToolError> {
    let pattern = call.ctx.policy.protected_pattern(path)?;
    Some(ToolError::new(ErrorKind::Protected, format!(
        "Error: Permission denied - {} is a protected path (matches \"{pattern}\"), so its contents are not shown. Protected paths are neither shown nor written by these tools; view a file outside them.",
        call.ctx.display(path)
    )))
}

fn view_file(
    call: &Call,
    (range, max_chars): (ViewRange, Option<u64>),
    path: &ResolvedPath,
) -> Result<String, ToolError> {
    let display = call.ctx.display(path);
    let file = read_text_confined(&path.real, &display, Some(call.ctx.max_file_bytes))
        .map_err(|e| ToolError::fs("Error: ", &e, &call.ctx.host_tools))?;
    if let Some(tracker) = &call.ctx.tracker {
        tracker.mark_file_seen(&path.lexical);
    }
    // Records the file's current modification time as read (the read tracker).
    call.ctx.read_tracker_after_write(path);
    let (lines, _) = lines_and_final_newline(&file.text);
    let (start, end) = view_range(range, lines.len()).map_err(ToolError::bad_param)?;
    let selected = lines.get(start.saturating_sub(1)..end).unwrap_or(&[]);
    let max = max_characters(call, max_chars);
    Ok(limited(call.path, selected, (start, end), lines.len(), max))
}

/// The 1-based inclusive line range to show: the whole file, or a valid `view_range`.
fn view_range(range: ViewRange, total: usize) -> Result<(usize, usize), String> {
    let Some(pair) = range else {
        return Ok((1, total));
    };
    let Some((init, last)) = pair else {
        return Err("Error: Invalid `view_range`. It should be a list of two integers, e.g. [1, 20] or [10, -1] (to the end).".to_string());
    };
    check_range(init, last, total)
}

/// Anthropic's `view_range` checks (and messages); `-1` as the end means the last line.
fn check_range(init: i64, last: i64, total: usize) -> Result<(usize, usize), String> {
    let n = total as i64;
    let shown = format!("[{init}, {last}]");
    if init < 1 || init > n {
        return Err(format!("Error: Invalid `view_range`: {shown}. Its first element `{init}` should be within the range of lines of the file: [1, {n}]"));
    }
    if last == -1 {
        return Ok((init as usize, total));
    }
    if last > n {
        return Err(format!("Error: Invalid `view_range`: {shown}. Its second element `{last}` should be smaller than the number of lines in the file: `{n}`"));
    }
    if last < init {
        return Err(format!("Error: Invalid `view_range`: {shown}. Its second element `{last}` should be larger or equal than its first `{init}`"));
    }
    Ok((init as usize, last as usize))
}

/// The most characters of numbered lines one `view` returns when neither the call's
/// `max_characters` nor the tool's `maxCharacters` says otherwise.
pub const DEFAULT_MAX_CHARACTERS: u64 = 100_000;

/// The limit in effect: the call's `max_characters` (checked: at least 1), else the tool's
/// `maxCharacters`, else [`DEFAULT_MAX_CHARACTERS`].
fn max_characters(call: &Call, from_call: Option<u64>) -> usize {
    let max = from_call
        .or(call.options.max_characters)
        .unwrap_or(DEFAULT_MAX_CHARACTERS);
    usize::try_from(max).unwrap_or(usize::MAX)
}

/// The numbered view of lines `start..=end` of a file of `total` lines: as many whole lines as
/// fit in `max` characters (numbering included), then a note naming the last line shown and the
/// `view_range` of the rest when some were left out.
fn limited(
    path: &str,
    selected: &[&str],
    range: (usize, usize),
    total: usize,
    max: usize,
) -> String {
    let (start, end) = range;
    let shown = lines_within(selected, start, max);
    if shown == selected.len() {
        return cat_n(path, selected, start);
    }
    let rest_end = if end == total { -1 } else { end as i64 };
    let note = match shown {
        0 => format!(
            "[truncated before line {start} of {total}: that line alone is {} characters, over the {max}-character limit; view it with a larger max_characters]",
            selected[0].chars().count()
        ),
        _ => {
            let last = start + shown - 1;
            format!(
                "[truncated at line {last} of {total}; view_range [{}, {rest_end}] shows more]",
                last + 1
            )
        }
    };
    format!("{}{note}", cat_n(path, &selected[..shown], start))
}

/// How many of `lines`, numbered from `start` as `cat -n` shows them (`{n:>6}\t{line}\n`), fit
/// in `max` characters.
fn lines_within(lines: &[&str], start: usize, max: usize) -> usize {
    let mut used = 0usize;
    for (i, line) in lines.iter().enumerate() {
        let number = (start + i).to_string().len().max(6);
        used = used.saturating_add(number + 2 + line.chars().count());
        if used > max {
            return i;
        }
    }
    lines.len()
}

/// `find <path> -maxdepth 2 -not -path '*/.*'`, sorted: the directory, then each entry (with
/// `/` after directories), each directory's children right after it. Symlinks are not followed.
/// Names under `protectedPaths` are left out; a name that is not UTF-8 is shown escaped (see
/// [`shown_name`]), never lossily.
fn list_directory(call: &Call, dir: &ResolvedPath) -> String {
    let shown = call.path;
    let (real, lexical) = (&dir.real, &dir.lexical);
    let base = shown.trim_end_matches('/');
    let mut lines = vec![format!("{base}/")];
    let mut omitted = 0usize;
    let hidden = |parent: &Path, lex: &Path, name: &std::ffi::OsStr| {
        let entry = ResolvedPath {
            real: parent.join(name),
            lexical: lex.join(name),
        };
        call.ctx.policy.protected_pattern(&entry).is_some()
    };
    for (raw, is_dir) in visible_entries(real) {
        if hidden(real, lexical, &raw) {
            continue;
        }
        let name = shown_name(&raw);
        push_capped(
            &mut lines,
            &mut omitted,
            format!("{base}/{name}{}", if is_dir { "/" } else { "" }),
        );
        if is_dir {
            let (sub, sub_lex) = (real.join(&raw), lexical.join(&raw));
            for (child_raw, child_dir) in visible_entries(&sub) {
                if hidden(&sub, &sub_lex, &child_raw) {
                    continue;
                }
                let child = shown_name(&child_raw);
                push_capped(
                    &mut lines,
                    &mut omitted,
                    format!("{base}/{name}/{child}{}", if child_dir { "/" } else { "" }),
                );
            }
        }
    }
    if omitted > 0 {
        lines.push(format!(
            "... and {omitted} more entries (view a subdirectory to see them)"
        ));
    }
    format!("Here's the files and directories up to 2 levels deep in {shown}, excluding hidden items:\n{}\n", lines.join("\n"))
}

fn push_capped(lines: &mut Vec<String>, omitted: &mut usize, line: String) {
    if lines.len() <= MAX_LISTED {
        lines.push(line);
    } else {
        *omitted += 1;
    }
}

/// Names of the non-hidden entries of `dir`, sorted, with whether each is a real directory.
fn visible_entries(dir: &Path) -> Vec<(std::ffi::OsString, bool)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(std::ffi::OsString, bool)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            (!name.as_encoded_bytes().starts_with(b".")).then_some((name, is_dir))
        })
        .collect();
    out.sort();
    out
}

/// A file name as a listing shows it: as is when it is UTF-8; otherwise each byte that is not
/// part of valid UTF-8 as `\xNN`, with a note, so the shown name never addresses another file.
fn shown_name(name: &std::ffi::OsStr) -> String {
    if let Some(s) = name.to_str() {
        return s.to_string();
    }
    let mut out = String::new();
    for chunk in name.as_encoded_bytes().utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out + " (name is not UTF-8; shown escaped, not usable as a path)"
}
