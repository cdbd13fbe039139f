//! `apply_patch` (OpenAI's V4A envelope, parameter `input`) and `apply_diff` (unified diff or
//! SEARCH/REPLACE blocks, parameters `diff` and optional `path`).
//!
//! Both are all-or-nothing across files: every path is guarded, every file is locked (in path
//! order) and read, and every new content is computed before the first write; any failure
//! leaves every file unchanged. The write itself is [`commit::commit`].

mod commit;
mod stage;

use super::params::{field, non_blank_str};
use super::syntax_guard::guard;
use super::ToolContext;
use crate::patch::{self, FileOp};
use serde_json::Value;

/// Runs one `apply_patch` call. Never panics on bad input; failures start with `Error`.
pub fn run_patch(ctx: &ToolContext, params: &Value) -> String {
    let Some(input) = field(params, "input")
        .as_str()
        .filter(|s| !s.trim().is_empty())
    else {
        return "Error: Invalid input - must be a non-empty string holding the patch ('*** Begin Patch' ... '*** End Patch').".to_string();
    };
    match patch::v4a::parse(input) {
        Ok(ops) => run_ops(
            ctx,
            &ops,
            non_blank_str(params, "workingDirectory"),
            "apply_patch",
        ),
        Err(e) => format!("Error: {e}\nNo file was changed."),
    }
}

/// Runs one `apply_diff` call. Never panics on bad input; failures start with `Error`.
pub fn run_diff(ctx: &ToolContext, params: &Value) -> String {
    let Some(diff) = field(params, "diff")
        .as_str()
        .filter(|s| !s.trim().is_empty())
    else {
        return "Error: Invalid diff - must be a non-empty string holding a unified diff or SEARCH/REPLACE blocks.".to_string();
    };
    match patch::parse_diff(diff, non_blank_str(params, "path")) {
        Ok(ops) => run_ops(
            ctx,
            &ops,
            non_blank_str(params, "workingDirectory"),
            "apply_diff",
        ),
        Err(e) => format!("Error: {e}\nNo file was changed."),
    }
}

/// Guards, locks, reads, plans and commits `ops`.
fn run_ops(
    ctx: &ToolContext,
    ops: &[FileOp],
    working_dir: Option<&str>,
    tool: &'static str,
) -> String {
    let mut staged = match stage::Staged::open(ctx, ops, working_dir) {
        Ok(s) => s,
        Err(message) => return format!("Error: {message}\nNo file was changed."),
    };
    let notes = match staged.plan(ops) {
        Ok(notes) => notes,
        Err(message) => return format!("Error: {message}\nNo file was changed."),
    };
    let syntax = match guard_slots(ctx, &staged) {
        Ok(syntax) => syntax,
        Err(message) => return format!("Error: {message}\nNo file was changed."),
    };
    if let Err(message) = commit::commit(ctx, &staged, tool) {
        return format!("Error: {tool} could not write the patch: {message}. No file was changed.");
    }
    staged.summary(ctx, &notes) + &syntax
}

/// The syntax guard on every file the patch writes: the notes for the reply, or the first refusal.
fn guard_slots(ctx: &ToolContext, staged: &stage::Staged) -> Result<String, String> {
    let mut notes = String::new();
    for slot in staged.slots.values().filter(|s| s.changed()) {
        let Some(after) = slot.current.as_deref() else {
            continue;
        };
        let before = slot.original.as_ref().map(|f| f.text.as_str());
        notes += &guard(&ctx.syntax, &slot.path.real, &slot.display, before, after)
            .map_err(|e| e.to_string())?;
    }
    Ok(notes)
}
