//! `apply_patch` (OpenAI's V4A envelope, parameter `input`) and `apply_diff` (unified diff or
//! SEARCH/REPLACE blocks, parameters `diff` and optional `path`).
//!
//! Both are all-or-nothing across files: every path is guarded, every file is locked (in path
//! order) and read, and every new content is computed before the first write; any failure
//! leaves every file unchanged. The write itself is [`commit::commit`].

mod commit;
mod stage;

use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{self, Located, Loose};
use super::ToolContext;
use crate::fs::FsError;
use crate::patch::{self, FileOp};
use serde_json::Value;

/// The params of an `apply_patch` call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct PatchParams {
    input: Loose,
}

/// The params of an `apply_diff` call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct DiffParams {
    diff: Loose,
    path: Loose,
}

/// A validated `apply_patch` or `apply_diff` call: its parsed file operations.
struct PatchRequest {
    ops: Vec<FileOp>,
    working_dir: Option<String>,
}

impl TryFrom<Located<PatchParams>> for PatchRequest {
    type Error = ToolError;

    /// `input` must be a non-blank string holding a V4A patch.
    fn try_from(call: Located<PatchParams>) -> Result<Self, ToolError> {
        let Some(input) = text_param(&call.params.input) else {
            return Err(ToolError::bad_param("Error: Invalid input - must be a non-empty string holding the patch ('*** Begin Patch' ... '*** End Patch')."));
        };
        let ops = patch::v4a::parse(input).map_err(unparsable)?;
        Ok(PatchRequest {
            ops,
            working_dir: call.working_dir,
        })
    }
}

impl TryFrom<Located<DiffParams>> for PatchRequest {
    type Error = ToolError;

    /// `diff` must be a non-blank string holding a unified diff or SEARCH/REPLACE blocks;
    /// `path` names the file of a diff that names none.
    fn try_from(call: Located<DiffParams>) -> Result<Self, ToolError> {
        let Some(diff) = text_param(&call.params.diff) else {
            return Err(ToolError::bad_param("Error: Invalid diff - must be a non-empty string holding a unified diff or SEARCH/REPLACE blocks."));
        };
        let ops = patch::parse_diff(diff, call.params.path.non_blank()).map_err(unparsable)?;
        Ok(PatchRequest {
            ops,
            working_dir: call.working_dir,
        })
    }
}

/// A string param that is not blank after Rust's `trim()` (the patch text itself).
fn text_param(param: &Loose) -> Option<&str> {
    param.as_str().filter(|s| !s.trim().is_empty())
}

/// The refusal of a patch or diff that does not parse.
fn unparsable(error: patch::PatchError) -> ToolError {
    ToolError::bad_param(format!("Error: {error}\nNo file was changed."))
}

/// Runs one `apply_patch` call. Never panics on bad input; failures start with `Error`.
pub fn run_patch(ctx: &ToolContext, params: &Value) -> String {
    call_patch(ctx, params).text
}

/// Runs one `apply_patch` call: its outcome (the files written, as the patch names them).
pub fn call_patch(ctx: &ToolContext, params: &Value) -> Outcome {
    PatchRequest::try_from(params::read::<PatchParams>(params))
        .and_then(|request| run_request(ctx, &request, "apply_patch"))
        .into()
}

/// Runs one `apply_diff` call. Never panics on bad input; failures start with `Error`.
pub fn run_diff(ctx: &ToolContext, params: &Value) -> String {
    call_diff(ctx, params).text
}

/// Runs one `apply_diff` call: its outcome (the files written, as the diff names them).
pub fn call_diff(ctx: &ToolContext, params: &Value) -> Outcome {
    PatchRequest::try_from(params::read::<DiffParams>(params))
        .and_then(|request| run_request(ctx, &request, "apply_diff"))
        .into()
}

fn run_request(
    ctx: &ToolContext,
    request: &PatchRequest,
    tool: &'static str,
) -> Result<Outcome, ToolError> {
    run_ops(ctx, &request.ops, request.working_dir.as_deref(), tool)
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
                crate::tools::errors::describe(&e, &ctx.host_tools)
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
