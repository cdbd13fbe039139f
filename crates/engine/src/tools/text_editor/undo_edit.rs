//! `undo_edit` (version 20250124 only): restores the content the file had before its last
//! recorded write (by any tool sharing the undo history), and shows it.

use super::output::cat_n;
use super::Call;
use crate::batch_plan::lines_and_final_newline;
use crate::fs::textfile::TextFile;
use crate::tools::outcome::{Outcome, ToolError};
use crate::tools::undo::{also_reverted, failure, undo_last, Undone};

pub(super) fn run(call: &Call) -> Result<Outcome, ToolError> {
    if !call.version.has_undo() {
        return Err(ToolError::bad_param(format!(
            "Error: The undo_edit command is not supported by {} (text editor version {}). Revert the change with str_replace or insert instead.",
            call.version.tool_name(),
            call.version.as_str()
        )));
    }
    let path = call.resolve_writable()?;
    let undone = undo_last(call.ctx, &path)
        .map_err(|e| ToolError::new(e.kind(), failure(call.path, &e, &call.ctx.host_tools)))?;
    let text = undone_text(call, &undone);
    let mut outcome = Outcome::wrote(text, call.path);
    let (Undone::Restored { others, .. } | Undone::Removed { others, .. }) = &undone;
    others.iter().for_each(|other| outcome.add_changed(other));
    Ok(outcome)
}

/// The reply to a done undo: the restored file's content, or that it was removed.
fn undone_text(call: &Call, undone: &Undone) -> String {
    match undone {
        Undone::Restored {
            content, others, ..
        } => {
            let text = match TextFile::decode(content.clone(), call.path) {
                Ok(file) => file.text,
                Err(_) => String::from_utf8_lossy(content).into_owned(),
            };
            let (lines, _) = lines_and_final_newline(&text);
            format!(
                "Last edit to {} undone successfully.{} {}",
                call.path,
                also_reverted(others),
                cat_n(call.path, &lines, 1)
            )
        }
        Undone::Removed { tool, others, .. } => format!(
            "Last edit to {} undone successfully. The file had been created by {tool}, so it was removed.{}",
            call.path,
            also_reverted(others)
        ),
    }
}
