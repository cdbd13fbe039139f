//! `apply_patch` / `apply_diff` tool calls and their pure in-memory helpers.

use crate::tool_call::ToolTask;
use crate::toolbox::NativeToolbox;
use crate::waiting::OwnThreadTask;
use edit_engine_core::patch::{self, FileOp, PatchError};
use edit_engine_core::tools;
use napi_derive::napi;
use serde_json::Value;

/// `{ ok, text, message }` of an in-memory patch: on success `text` is the new content and
/// `message` lists the fuzzy matches (if any); on failure `text` is the input unchanged and
/// `message` says what failed and what to resend.
#[napi(object)]
pub struct TextPatchResult {
    pub ok: bool,
    pub text: String,
    pub message: String,
}

fn text_result(text: String, ops: Result<Vec<FileOp>, PatchError>) -> TextPatchResult {
    match ops.and_then(|ops| patch::apply_to_text(&text, &ops)) {
        Ok(applied) => TextPatchResult {
            ok: true,
            text: applied.text,
            message: applied.notes.join("\n"),
        },
        Err(e) => TextPatchResult {
            ok: false,
            text,
            message: format!("Error: {e}"),
        },
    }
}

/// Applies a V4A patch (`*** Begin Patch` ... `*** End Patch`) to `text`; file names in the
/// patch are not consulted.
#[napi]
pub fn apply_patch_to_text(text: String, patch: String) -> TextPatchResult {
    let ops = patch::v4a::parse(&patch);
    text_result(text, ops)
}

/// Applies a unified diff or SEARCH/REPLACE blocks to `text`; file names are not consulted.
#[napi]
pub fn apply_diff_to_text(text: String, diff: String) -> TextPatchResult {
    let ops = patch::parse_diff(&diff, Some("the text"));
    text_result(text, ops)
}

#[napi]
impl NativeToolbox {
    /// OpenAI's `apply_patch` tool call (parameter `input`).
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn apply_patch(&self, params: Value) -> OwnThreadTask<ToolTask> {
        self.task(
            params,
            |c, p| tools::apply_patch::call_patch(c, p).into(),
            "applyPatch",
        )
    }

    /// The `apply_diff` tool call (parameters `diff`, optional `path`).
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn apply_diff(&self, params: Value) -> OwnThreadTask<ToolTask> {
        self.task(
            params,
            |c, p| tools::apply_patch::call_diff(c, p).into(),
            "applyDiff",
        )
    }
}
