//! `insert`: inserts text after line `insert_line` (0 = at the top). The text is taken from
//! `insert_text` (versions 20250429+) or `new_str` (20250124); both are accepted in every version.
//! It is inserted as whole lines: one trailing `\n` ends its last line; `""` inserts one empty line.

use super::output::{edited, SNIPPET_LINES};
use super::Call;
use crate::batch_plan::{lines_and_final_newline, text_lines};
use crate::tools::outcome::{ErrorKind, Outcome, ToolError};

pub(super) fn run(call: &Call, at: i64, text: &str) -> Result<Outcome, ToolError> {
    let frame = call.open_existing("insert")?;
    let (lines, trailing) = lines_and_final_newline(&frame.file.text);
    if at < 0 || at as usize > lines.len() {
        return Err(ToolError::new(ErrorKind::NotFound, format!("Error: Invalid `insert_line` parameter: {at}. It should be within the range of lines of the file: [0, {}]", lines.len())));
    }
    let at = at as usize;
    let view = frame.file.to_view(text);
    let inserted = if view.is_empty() {
        vec![""]
    } else {
        text_lines(&view)
    };
    let joined = inserted.join("\n");
    let above = at.checked_sub(1).map(|i| lines[i]);
    let below = lines.get(at).copied().or(trailing.then_some(""));
    let fitted = crate::fs::endings::fit_new_lines(&joined, &[], above, below);
    let mut all: Vec<&str> = Vec::with_capacity(lines.len() + inserted.len());
    all.extend_from_slice(&lines[..at]);
    all.extend(fitted.split('\n'));
    all.extend_from_slice(&lines[at..]);
    let mut new_text = all.join("\n");
    if trailing || lines.is_empty() {
        new_text.push('\n');
    }
    let note = frame
        .commit(&new_text)
        .map_err(|e| ToolError::fs("Error: ", &e, &call.ctx.host_tools))?;
    call.ctx
        .after_write(&frame.path, crate::tools::write_frame::TrackerEffect::Write);
    let from = at.saturating_sub(SNIPPET_LINES);
    let to = (at + SNIPPET_LINES).min(lines.len());
    let mut shown: Vec<&str> = lines[from..at].to_vec();
    shown.extend_from_slice(&inserted);
    shown.extend_from_slice(&lines[at..to]);
    let text = edited(
        call.path,
        "a snippet of the edited file",
        &shown,
        from + 1,
        "Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.",
    ) + &note;
    Ok(Outcome::wrote(text, call.path))
}
