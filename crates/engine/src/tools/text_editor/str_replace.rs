//! `str_replace`: replaces the one occurrence of `old_str` with `new_str` (absent = delete).
//! Zero or several occurrences are errors (the latter listing the lines where they start).

use super::output::{edited, SNIPPET_LINES};
use super::Call;
use crate::batch_plan::lines_and_final_newline;
use crate::tools::outcome::{ErrorKind, Outcome, ToolError};

pub(super) fn run(call: &Call, old: &str, new: &str) -> Result<Outcome, ToolError> {
    let frame = call.open_existing("str_replace")?;
    let text = frame.file.text.as_str();
    let (old_v, new_v) = (frame.file.to_view(old), frame.file.to_view(new));
    let starts = match_lines(text, &old_v);
    let pos = match starts.as_slice() {
        [] => return Err(ToolError::new(ErrorKind::NotFound, format!("Error: No replacement was performed, old_str `{old}` did not appear verbatim in {}. View the file and copy the exact text, including white space and indentation.", call.path))),
        [(pos, _)] => *pos,
        many => {
            let lines: Vec<usize> = many.iter().map(|(_, line)| *line).collect();
            return Err(ToolError::new(ErrorKind::Ambiguous, format!("Error: No replacement was performed. Multiple occurrences of old_str `{old}` in lines {lines:?}. Please ensure it is unique (include more surrounding lines in old_str).")));
        }
    };
    let end = pos + old_v.len();
    let new_v = crate::fs::endings::carry_endings(text, pos..end, &new_v);
    let new_text = format!("{}{}{}", &text[..pos], new_v, &text[end..]);
    let changed = new_text != text;
    let mut note = String::new();
    if changed {
        note = frame
            .commit(&new_text)
            .map_err(|e| ToolError::fs("Error: ", &e, &call.ctx.host_tools))?;
        call.ctx
            .after_write(&frame.path, crate::tools::write_frame::TrackerEffect::Write);
    }
    let first_line = text[..pos].matches('\n').count();
    let text = snippet(
        call.path,
        &new_text,
        first_line,
        new_v.matches('\n').count(),
    ) + &note;
    Ok(match changed {
        true => Outcome::wrote(text, call.path),
        false => Outcome::read(text),
    })
}

/// `(byte offset, 1-based line)` of each non-overlapping occurrence of `needle`. Linear.
fn match_lines(text: &str, needle: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut line, mut counted_to) = (1, 0);
    for (pos, _) in text.match_indices(needle) {
        line += text[counted_to..pos].matches('\n').count();
        counted_to = pos;
        out.push((pos, line));
    }
    out
}

/// Anthropic's snippet: from 4 lines before the edit to 4 lines after its last new line.
fn snippet(path: &str, new_text: &str, first_line: usize, added_newlines: usize) -> String {
    let (lines, _) = lines_and_final_newline(new_text);
    let start = first_line.saturating_sub(SNIPPET_LINES);
    let end = (first_line + SNIPPET_LINES + added_newlines + 1).min(lines.len());
    let shown = lines.get(start..end).unwrap_or(&[]);
    edited(
        path,
        &format!("a snippet of {path}"),
        shown,
        start + 1,
        "Review the changes and make sure they are as expected. Edit the file again if necessary.",
    )
}
