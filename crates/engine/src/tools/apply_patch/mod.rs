//! `apply_patch` (OpenAI's V4A envelope, parameter `input`) and `apply_diff` (unified diff or
//! SEARCH/REPLACE blocks, parameters `diff` and optional `path`).
//!
//! Both are all-or-nothing across files: every path is guarded, every file is locked (in path
//! order) and read, and every new content is computed before the first write; any failure
//! leaves every file unchanged. The write itself is [`commit::commit`].

mod commit;
mod stage;

use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{field, non_blank_str};
use super::ToolContext;
use crate::fs::FsError;
use crate::patch::{self, FileOp};
use serde_json::Value;

/// Runs one `apply_patch` call. Never panics on bad input; failures start with `Error`.
pub fn run_patch(ctx: &ToolContext, params: &Value) -> String {
    call_patch(ctx, params).text
}

/// Runs one `apply_patch` call: its outcome (the files written, as the patch names them).
pub fn call_patch(ctx: &ToolContext, params: &Value) -> Outcome {
    let Some(input) = field(params, "input")
        .as_str()
        .filter(|s| !s.trim().is_empty())
    else {
        return ToolError::bad_param("Error: Invalid input - must be a non-empty string holding the patch ('*** Begin Patch' ... '*** End Patch').").into();
    };
    match patch::v4a::parse(input) {
        Ok(ops) => run_ops(
            ctx,
            &ops,
            non_blank_str(params, "workingDirectory"),
            "apply_patch",
        )
        .into(),
        Err(e) => ToolError::bad_param(format!("Error: {e}\nNo file was changed.")).into(),
    }
}

/// Runs one `apply_diff` call. Never panics on bad input; failures start with `Error`.
pub fn run_diff(ctx: &ToolContext, params: &Value) -> String {
    call_diff(ctx, params).text
}

/// Runs one `apply_diff` call: its outcome (the files written, as the diff names them).
pub fn call_diff(ctx: &ToolContext, params: &Value) -> Outcome {
    let Some(diff) = field(params, "diff")
        .as_str()
        .filter(|s| !s.trim().is_empty())
    else {
        return ToolError::bad_param("Error: Invalid diff - must be a non-empty string holding a unified diff or SEARCH/REPLACE blocks.").into();
    };
    match patch::parse_diff(diff, non_blank_str(params, "path")) {
        Ok(ops) => run_ops(
            ctx,
            &ops,
            non_blank_str(params, "workingDirectory"),
            "apply_diff",
        )
        .into(),
        Err(e) => ToolError::bad_param(format!("Error: {e}\nNo file was changed.")).into(),
    }
}

/// Guards, locks, reads, plans and commits `ops`.
fn run_ops(
    ctx: &ToolContext,
    ops: &[FileOp],
    working_dir: Option<&str>,
    tool: &'static str,
) -> Result<Outcome, ToolError> {
    let unchanged = |e: ToolError| e.map_text(|m| format!("Error: {m}\nNo file was changed."));
    let mut staged = stage::Staged::open(ctx, ops, working_dir).map_err(unchanged)?;
    let notes = staged.plan(ops).map_err(unchanged)?;
    let syntax = commit::commit(ctx, &staged, tool).map_err(|e| {
        let text = match e {
            FsError::SyntaxRefused { .. } => format!("Error: {e}\nNo file was changed."),
            FsError::WriteTooLarge { .. } => format!(
                "Error: {tool} could not write the patch: {}",
                crate::tools::errors::describe(&e)
            ),
            _ => format!("Error: {tool} could not write the patch: {e}. No file was changed."),
        };
        ToolError::new(ErrorKind::of(&e), text)
    })?;
    Ok(Outcome {
        changed_files: staged.changed_files(ops),
        ..Outcome::read(staged.summary(ctx, &notes) + &syntax)
    })
}
