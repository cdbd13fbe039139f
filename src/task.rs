//! Running a tool call on libuv's thread pool, with panics turned into error strings.

use edit_engine_core::tools::ToolContext;
use napi::{Env, Task};
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// A tool entry point of the engine: params in, result message out.
pub type ToolFn = fn(&ToolContext, &Value) -> String;

/// One `execute` call, computed off the event loop.
pub struct ToolTask {
    pub context: Result<Arc<ToolContext>, String>,
    pub params: Value,
    pub tool: ToolFn,
    /// Prefix for failures detected here, e.g. `Error editing file`.
    pub label: &'static str,
}

impl Task for ToolTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        let context = match &self.context {
            Ok(c) => c.clone(),
            Err(message) => return Ok(format!("{}: {message}", self.label)),
        };
        let (tool, params) = (self.tool, &self.params);
        let outcome = catch_unwind(AssertUnwindSafe(|| tool(&context, params)));
        Ok(outcome.unwrap_or_else(|panic| {
            let detail = panic_text(&panic);
            format!("{}: internal error in edit-engine ({detail}). Re-read the file to check its state, then retry; please report this.", self.label)
        }))
    }

    fn resolve(&mut self, _env: Env, output: String) -> napi::Result<String> {
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
