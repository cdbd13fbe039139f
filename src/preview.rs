//! Previews through napi: `preview(method, params)` plans a writing tool's call without writing
//! and stores it under a token; `applyPreview(token)` writes exactly the stored contents (see
//! `edit_engine_core::tools::preview`).

use crate::tool_call::{panic_text, ToolResult, ToolTask};
use crate::toolbox::NativeToolbox;
use crate::waiting::OwnThreadTask;
use edit_engine_core::tools::outcome::{ErrorKind, Outcome, ToolError};
use edit_engine_core::tools::preview::{self, Preview, Previews};
use edit_engine_core::tools::text_editor::TextEditorOptions;
use edit_engine_core::tools::{self, ToolContext};
use napi::{Env, Task};
use napi_derive::napi;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// One file of a preview.
#[napi(object)]
pub struct PreviewFile {
    pub path: String,
    /// `"update"`, `"create"`, `"delete"` or `"move"`.
    pub action: String,
    pub moved_to: Option<String>,
    /// Unified diff from the file's content now to the content the call would leave.
    pub diff: String,
    pub additions: u32,
    pub deletions: u32,
}

/// A previewed call: `ok`, `text`, `kind` and `changedFiles` as the call itself would answer;
/// `token` applies it (null when it cannot be applied); `files` shows what it would change.
#[napi(object)]
pub struct PreviewResult {
    pub ok: bool,
    pub text: String,
    pub kind: Option<String>,
    pub changed_files: Vec<String>,
    pub token: Option<String>,
    pub files: Vec<PreviewFile>,
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl From<Preview> for PreviewResult {
    fn from(p: Preview) -> Self {
        let result = ToolResult::from(p.outcome);
        PreviewResult {
            ok: result.ok,
            text: result.text,
            kind: result.kind,
            changed_files: result.changed_files,
            token: p.token,
            files: p
                .files
                .into_iter()
                .map(|f| PreviewFile {
                    path: f.path,
                    action: f.action.as_str().to_string(),
                    moved_to: f.moved_to,
                    diff: f.diff,
                    additions: count(f.additions),
                    deletions: count(f.deletions),
                })
                .collect(),
        }
    }
}

/// A writing tool's entry point.
type WritingFn = Box<dyn Fn(&ToolContext, &Value) -> Outcome + Send>;

/// The writing tool behind the toolbox method `method` (its JS name), or `None`.
fn writing_tool(method: &str, editor: &TextEditorOptions) -> Option<WritingFn> {
    let editor = editor.clone();
    let tool: WritingFn = match method {
        "edit" => Box::new(tools::edit::call),
        "create" => Box::new(tools::create::call),
        "multiEdit" => Box::new(tools::multi_edit::call),
        "editFile" => Box::new(tools::edit_file::call),
        "replaceInFile" => Box::new(tools::replace_in_file::call),
        "textEditor" => Box::new(move |c, p| tools::text_editor::call(c, &editor, p)),
        "applyPatch" => Box::new(tools::apply_patch::call_patch),
        "applyDiff" => Box::new(tools::apply_patch::call_diff),
        "rewind" => Box::new(tools::rewind::call),
        _ => return None,
    };
    Some(tool)
}

/// One `preview` call, computed off the event loop.
pub struct PreviewTask {
    context: Result<Arc<ToolContext>, String>,
    previews: Previews,
    params: Value,
    tool: Result<WritingFn, String>,
    call_id: Option<String>,
    label: &'static str,
}

impl PreviewTask {
    fn run(&self) -> Result<Preview, ToolError> {
        let bad = |m: &String| ToolError::bad_param(format!("{}: {m}", self.label));
        let context = self.context.as_ref().map_err(bad)?;
        let tool = self.tool.as_ref().map_err(bad)?;
        let call_id = self.call_id.as_deref();
        Ok(preview::preview(context, &self.previews, call_id, |c| {
            tool(c, &self.params)
        }))
    }
}

impl Task for PreviewTask {
    type Output = PreviewResult;
    type JsValue = PreviewResult;

    fn compute(&mut self) -> napi::Result<PreviewResult> {
        let previewed = catch_unwind(AssertUnwindSafe(|| self.run()));
        let failure = |e: ToolError| Preview {
            outcome: e.into(),
            token: None,
            files: Vec::new(),
        };
        Ok(match previewed {
            Ok(Ok(p)) => p.into(),
            Ok(Err(e)) => failure(e).into(),
            Err(panic) => {
                let text = format!("{}: internal error in edit-engine ({}). Nothing was written; please report this.", self.label, panic_text(&panic));
                failure(ToolError::new(ErrorKind::Internal, text)).into()
            }
        })
    }

    fn resolve(&mut self, _env: Env, output: PreviewResult) -> napi::Result<PreviewResult> {
        Ok(output)
    }
}

#[napi]
impl NativeToolbox {
    /// Previews the call of the writing method `method` (`"edit"`, `"multiEdit"`, ...) with
    /// `params`: nothing is written; a successful preview is stored under its `token` (with
    /// `callId`, the host's id of the tool call, the token is that call's: see
    /// `previewTokenOfCall`).
    #[napi(
        ts_args_type = "method: string, params: Record<string, unknown>, callId?: string | undefined | null",
        ts_return_type = "Promise<PreviewResult>"
    )]
    pub fn preview(
        &self,
        method: String,
        params: Value,
        call_id: Option<String>,
    ) -> OwnThreadTask<PreviewTask> {
        let tool = writing_tool(&method, self.text_editor_options())
            .ok_or_else(|| format!("{method} does not write files, so it has no preview"));
        OwnThreadTask(PreviewTask {
            context: self.context(),
            previews: self.previews().clone(),
            params,
            tool,
            call_id,
            label: crate::toolbox::error_label(&method),
        })
    }

    /// Writes exactly the contents of the preview `token` if every file still holds what the
    /// preview read; the reply is the previewed call's.
    #[napi(ts_return_type = "Promise<ToolResult>")]
    pub fn apply_preview(&self, token: String) -> OwnThreadTask<ToolTask> {
        let previews = self.previews().clone();
        // No params to parse: the token is the call's only input, taken here as a string.
        self.task(
            Value::default(),
            move |c, _| preview::apply_preview(c, &previews, &token).into(),
            "applyPreview",
        )
    }
}

/// The token of the preview made for the host's tool call `callId` (the same in every process).
#[napi]
pub fn preview_token_of_call(call_id: String) -> String {
    edit_engine_core::history::previews::call_token(&call_id)
}
