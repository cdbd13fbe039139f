//! Running a tool call on libuv's thread pool, with panics turned into error strings.

use edit_engine_core::tools::outcome::{ErrorKind, Outcome, ToolError};
use edit_engine_core::tools::ToolContext;
use napi::{Env, Task};
use napi_derive::napi;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// The result of one tool call (the engine's [`Outcome`]): `ok` says whether it succeeded,
/// `text` is the tool's message (the Probe-compatible string `execute` returns).
#[napi(object)]
pub struct ToolResult {
    pub ok: bool,
    pub text: String,
    /// On failure, why: one of the engine's error kinds (`"bad_param"`, `"not_found"`, ...).
    pub kind: Option<String>,
    /// The files the call wrote, as the call named them.
    pub changed_files: Vec<String>,
    /// `replace_in_file` on success: the number of changes made (the count `text` states).
    pub changes: Option<u32>,
}

impl ToolResult {
    /// A failure of `kind` found outside the tool (unusable options, a caught panic).
    pub fn failure(kind: ErrorKind, text: String) -> Self {
        Outcome::from(ToolError::new(kind, text)).into()
    }
}

impl From<Outcome> for ToolResult {
    fn from(outcome: Outcome) -> Self {
        ToolResult {
            ok: outcome.ok(),
            kind: outcome.error.map(|k| k.as_str().to_string()),
            changes: outcome
                .changes
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
            changed_files: outcome.changed_files,
            text: outcome.text,
        }
    }
}

/// Every error kind a failed call's `kind` can be, in documentation order (the one list the
/// JS types and docs repeat).
#[napi]
pub fn error_kinds() -> Vec<String> {
    ErrorKind::ALL
        .iter()
        .map(|k| k.as_str().to_string())
        .collect()
}

/// A tool entry point: params in, result out (with what the tool instance holds besides the
/// shared context, e.g. the text editor's options).
pub type ToolFn = Box<dyn Fn(&ToolContext, &Value) -> ToolResult + Send>;

/// One `execute` call, computed off the event loop.
pub struct ToolTask {
    pub context: Result<Arc<ToolContext>, String>,
    pub params: Value,
    pub tool: ToolFn,
    /// Prefix for failures detected here, e.g. `Error editing file`.
    pub label: &'static str,
}

impl Task for ToolTask {
    type Output = ToolResult;
    type JsValue = ToolResult;

    fn compute(&mut self) -> napi::Result<ToolResult> {
        let context = match &self.context {
            Ok(c) => c.clone(),
            Err(message) => {
                let text = format!("{}: {message}", self.label);
                return Ok(ToolResult::failure(ErrorKind::BadParam, text));
            }
        };
        let (tool, params) = (&self.tool, &self.params);
        let outcome = catch_unwind(AssertUnwindSafe(|| tool(&context, params)));
        Ok(outcome.unwrap_or_else(|panic| {
            let detail = panic_text(&panic);
            ToolResult::failure(ErrorKind::Internal, format!("{}: internal error in edit-engine ({detail}). Re-read the file to check its state, then retry; please report this.", self.label))
        }))
    }

    fn resolve(&mut self, _env: Env, output: ToolResult) -> napi::Result<ToolResult> {
        Ok(output)
    }
}

/// The message carried by a panic payload.
pub fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
