//! Running a tool call on libuv's thread pool, with panics turned into error strings.

use edit_engine_core::tools::ToolContext;
use napi::{Env, Task};
use napi_derive::napi;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// The result of one tool call: `ok` says whether it succeeded, `text` is the tool's message
/// (the Probe-compatible string `execute` returns).
#[napi(object)]
pub struct ToolResult {
    pub ok: bool,
    pub text: String,
    /// `replace_in_file` on success: the number of changes made (the count `text` states);
    /// `edit`: 0 when the edit was already in the file and nothing was written.
    pub changes: Option<u32>,
}

impl ToolResult {
    pub fn failure(text: String) -> Self {
        ToolResult::new(false, text)
    }

    /// A result with no change count.
    pub fn new(ok: bool, text: String) -> Self {
        ToolResult {
            ok,
            text,
            changes: None,
        }
    }

    /// The result of a tool whose success messages have a fixed lead ("Successfully ...",
    /// "Here's ...") and whose failures all start with `Error`, so the lead decides.
    pub fn from_fixed_lead(text: String) -> Self {
        ToolResult::new(!text.starts_with("Error"), text)
    }
}

impl ToolResult {
    /// The result of an `edit` call ([`ToolResult::from_fixed_lead`]); an edit already in the file
    /// reports 0 changes, so no file is listed as changed.
    pub fn from_edit(text: String) -> Self {
        let unchanged = text.starts_with(edit_engine_core::tools::edit::ALREADY_APPLIED_LEAD);
        let mut result = ToolResult::from_fixed_lead(text);
        if unchanged {
            result.changes = Some(0);
        }
        result
    }
}

impl From<Result<String, String>> for ToolResult {
    fn from(result: Result<String, String>) -> Self {
        match result {
            Ok(text) => ToolResult::new(true, text),
            Err(text) => ToolResult::failure(text),
        }
    }
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
            Err(message) => return Ok(ToolResult::failure(format!("{}: {message}", self.label))),
        };
        let (tool, params) = (&self.tool, &self.params);
        let outcome = catch_unwind(AssertUnwindSafe(|| tool(&context, params)));
        Ok(outcome.unwrap_or_else(|panic| {
            let detail = panic_text(&panic);
            ToolResult::failure(format!("{}: internal error in edit-engine ({detail}). Re-read the file to check its state, then retry; please report this.", self.label))
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
