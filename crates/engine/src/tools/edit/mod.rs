//! Probe's `edit` tool: text (exact + fuzzy), line-targeted and symbol modes.
//!
//! Validation order and every message follow `@probelabs/probe`'s `editTool`, so an agent prompted
//! for Probe gets the same answers. Mode priority: `symbol` > `start_line` > `old_string`.

mod line_mode;
mod symbol_mode;
mod text_mode;

use super::errors::describe;
use super::params::{field, flag, non_blank_str, Field};
use super::ToolContext;
use crate::fs::{FsError, ResolvedPath};
use serde_json::Value;

const INVALID_FILE_PATH: &str = "Error editing file: Invalid file_path - must be a non-empty string. Provide an absolute path or a path relative to the working directory (e.g. \"src/main.js\").";
const INVALID_NEW_STRING: &str = "Error editing file: Invalid new_string - must be a string. Provide the replacement content as a string value (empty string \"\" is valid for deletions).";
const NO_MODE: &str = "Error editing file: Must provide either old_string (for text edit), symbol (for AST-aware edit), or start_line (for line-targeted edit). For text editing: set old_string to the exact text to find and new_string to its replacement. For symbol editing: set symbol to a function/class/method name (e.g. \"myFunction\"). For line-targeted editing: set start_line to a line number from extract/search output (e.g. \"42\" or \"42:ab\").";
const INVALID_OLD_STRING: &str = "Error editing file: Invalid old_string - must be a string. Provide the exact text to find in the file, or use the symbol parameter instead for AST-aware editing by name.";

/// What every mode handler receives.
pub(crate) struct EditCall<'a> {
    pub ctx: &'a ToolContext,
    pub params: &'a Value,
    /// `file_path` exactly as the caller gave it (Probe echoes it in messages).
    pub file_path: &'a str,
    pub path: ResolvedPath,
    pub new_string: &'a str,
}

/// Runs one `edit` call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    let Some(file_path) = non_blank_str(params, "file_path") else {
        return INVALID_FILE_PATH.to_string();
    };
    let Some(new_string) = field(params, "new_string").as_str() else {
        return INVALID_NEW_STRING.to_string();
    };
    let working_dir = non_blank_str(params, "workingDirectory");
    ctx.debug_log("Edit", || format!("Attempting to edit file: {file_path}"));
    let path = match ctx.resolve_writable(file_path, working_dir) {
        Ok(p) => p,
        Err(e) => return format!("Error editing file: {}", describe(&e)),
    };
    if !path.real.exists() {
        return format!("Error editing file: File not found - {file_path}. Verify the path is correct and the file exists. Use 'search' to find files by name, or 'create' to make a new file.");
    }
    if !ctx.tracker_has_seen(&path) {
        let shown = ctx.display(&path);
        return format!("Error editing {shown}: This file has not been read yet in this session. Use the extract tool with targets=\"{shown}\" to read the file first, then retry your edit.");
    }
    let call = EditCall { ctx, params, file_path, path, new_string };
    route(&call)
}

fn route(call: &EditCall) -> String {
    if !field(call.params, "symbol").is_absent() {
        return symbol_mode::run(call);
    }
    if !field(call.params, "start_line").is_absent() {
        return line_mode::run(call);
    }
    match field(call.params, "old_string") {
        Field::Absent => NO_MODE.to_string(),
        Field::Other(_) => INVALID_OLD_STRING.to_string(),
        Field::Str(old) => text_mode::run(call, old, flag(call.params, "replace_all", false)),
    }
}

/// `Error editing file: ...` for an engine error met after validation.
pub(crate) fn fs_failure(error: &FsError) -> String {
    format!("Error editing file: {}", describe(error))
}

/// Validated `position`: `Ok(None)` when absent, `Err(())` when present but not before/after.
pub(crate) fn parse_position(params: &Value) -> Result<Option<crate::lines::Position>, ()> {
    use crate::lines::Position;
    match field(params, "position") {
        Field::Absent => Ok(None),
        Field::Str("before") => Ok(Some(Position::Before)),
        Field::Str("after") => Ok(Some(Position::After)),
        _ => Err(()),
    }
}
