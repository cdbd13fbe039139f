//! Probe's `edit` tool: text (exact + fuzzy), line-targeted and symbol modes.
//!
//! Validation order and every message follow `@probelabs/probe`'s `editTool`, so an agent prompted
//! for Probe gets the same answers. Mode priority: `symbol` > `start_line` > `old_string`.
//!
//! A call runs in three steps: [`prepare`] validates params and the path (no file content read),
//! [`plan`] computes the new text from the current text (pure), and the caller commits it —
//! [`run`] writes one file; `multi_edit` can plan a whole batch before writing anything.

mod expected_count;
mod line_clean;
mod line_mode;
mod symbol_mode;
mod text_mode;

use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{field, flag, non_blank_str, Field};
use super::{diff, ToolContext};
use crate::fs::textfile::TextFile;
use crate::fs::{FsError, ResolvedPath};
use crate::specs::HostTools;
use serde_json::Value;

const INVALID_FILE_PATH: &str = "Error editing file: Invalid file_path - must be a non-empty string. Provide an absolute path or a path relative to the working directory (e.g. \"src/main.js\").";
const INVALID_NEW_STRING: &str = "Error editing file: Invalid new_string - must be a string. Provide the replacement content as a string value (empty string \"\" is valid for deletions).";
const INVALID_OLD_STRING: &str = "Error editing file: Invalid old_string - must be a string. Provide the exact text to find in the file, or use the symbol parameter instead for AST-aware editing by name.";

/// The refusal of a call that gives no mode, line references sourced from the host's `tools`.
fn no_mode(tools: &HostTools) -> String {
    format!("Error editing file: Must provide either old_string (for text edit), symbol (for AST-aware edit), or start_line (for line-targeted edit). For text editing: set old_string to the exact text to find and new_string to its replacement. For symbol editing: set symbol to a function/class/method name (e.g. \"myFunction\"). For line-targeted editing: set start_line to a line number from {} (e.g. \"42\" or \"42:ab\").", tools.line_source())
}

/// A validated edit call: its target file and its mode, ready to be planned against content.
pub(crate) struct EditCall<'a> {
    pub ctx: &'a ToolContext,
    /// `file_path` exactly as the caller gave it (Probe echoes it in messages).
    pub file_path: &'a str,
    pub path: ResolvedPath,
    pub new_string: &'a str,
    mode: Mode<'a>,
}

enum Mode<'a> {
    Text(text_mode::TextRequest<'a>),
    Line(line_mode::LineRequest),
    Symbol(symbol_mode::SymbolRequest<'a>),
}

pub(crate) use super::session::TrackerEffect;

/// A computed change to one file.
pub(crate) struct Planned {
    /// The file's new text (LF view).
    pub new_text: String,
    /// The success message (without the optional diff).
    pub message: String,
    pub effect: TrackerEffect,
    /// A symbol edit's byte edit, for the parse cache once the write has landed.
    pub reparse: Option<(crate::symbols::Language, crate::symbols::ByteEdit)>,
}

impl Planned {
    /// Tells the parse cache that `before` became this plan's text, once the write has landed
    /// (planning itself leaves the cache alone; a preview never tells it).
    pub fn landed(&self, call: &EditCall, before: &str) {
        if let (Some((lang, edit)), false) = (self.reparse, call.ctx.previewing()) {
            let cache = super::symbols::parse_cache();
            cache.record_edit(&call.path.real, lang, before, &self.new_text, edit);
        }
    }
}

/// Runs one `edit` call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    call(ctx, params).text
}

/// Runs one `edit` call: its outcome (the file written, as `file_path` names it).
pub fn call(ctx: &ToolContext, params: &Value) -> Outcome {
    run_call(ctx, params).into()
}

fn run_call(ctx: &ToolContext, params: &Value) -> Result<Outcome, ToolError> {
    let call = prepare(ctx, params)?;
    let session = ctx
        .open_for_edit(&call.path)
        .map_err(|e| fs_failure(&e, &ctx.host_tools))?;
    let planned = plan(&call, &session.file)?;
    let changed = planned.new_text != session.file.text;
    let mut note = String::new();
    if changed {
        note = session
            .commit(&planned.new_text)
            .map_err(|e| fs_failure(&e, &ctx.host_tools))?;
        planned.landed(&call, &session.file.text);
    }
    apply_effect(&call, planned.effect);
    let text = diff::append(
        planned.message + &note,
        ctx.return_diff,
        &session.file.text,
        &planned.new_text,
        &session.display,
    );
    Ok(match changed {
        true => Outcome::wrote(text, call.file_path),
        false => Outcome::read(text),
    })
}

/// Validates params, path, existence and the tracker's read-before-edit guard; picks the mode.
pub(crate) fn prepare<'a>(
    ctx: &'a ToolContext,
    params: &'a Value,
) -> Result<EditCall<'a>, ToolError> {
    let file_path =
        non_blank_str(params, "file_path").ok_or(ToolError::bad_param(INVALID_FILE_PATH))?;
    let new_string = field(params, "new_string")
        .as_str()
        .ok_or(ToolError::bad_param(INVALID_NEW_STRING))?;
    let working_dir = non_blank_str(params, "workingDirectory");
    ctx.debug_log("Edit", || format!("Attempting to edit file: {file_path}"));
    let path = ctx
        .resolve_writable(file_path, working_dir)
        .map_err(|e| fs_failure(&e, &ctx.host_tools))?;
    if !path.real.exists() {
        return Err(ToolError::new(ErrorKind::NotFound, format!("Error editing file: File not found - {file_path}. Verify the path is correct and the file exists.{}", ctx.host_tools.find_or_create())));
    }
    if !ctx.tracker_has_seen(&path) {
        let shown = ctx.display(&path);
        let read = ctx.host_tools.read_lead(&shown, &shown, false);
        return Err(ToolError::new(ErrorKind::Stale, format!("Error editing {shown}: This file has not been read yet in this session. {read} the file first, then retry your edit.")));
    }
    let mode = select_mode(ctx, params, &path)?;
    Ok(EditCall {
        ctx,
        file_path,
        path,
        new_string,
        mode,
    })
}

fn select_mode<'a>(
    ctx: &ToolContext,
    params: &'a Value,
    path: &ResolvedPath,
) -> Result<Mode<'a>, ToolError> {
    if !field(params, "symbol").is_absent() {
        return symbol_mode::request(params, path)
            .map(Mode::Symbol)
            .map_err(ToolError::bad_param);
    }
    if !field(params, "start_line").is_absent() {
        return line_mode::request(params)
            .map(Mode::Line)
            .map_err(ToolError::bad_param);
    }
    match field(params, "old_string") {
        Field::Absent => Err(ToolError::bad_param(no_mode(&ctx.host_tools))),
        Field::Other(_) => Err(ToolError::bad_param(INVALID_OLD_STRING)),
        Field::Str(old) => {
            text_mode::request(ctx, path, params, old, flag(params, "replace_all", false))
                .map(Mode::Text)
        }
    }
}

/// Computes the new text of `file` for a prepared call (pure: no I/O).
pub(crate) fn plan(call: &EditCall, file: &TextFile) -> Result<Planned, ToolError> {
    match &call.mode {
        Mode::Text(request) => text_mode::plan(call, request, file),
        Mode::Line(request) => line_mode::plan(call, request, file),
        Mode::Symbol(request) => symbol_mode::plan(call, request, file),
    }
}

/// The after-write bookkeeping of a landed edit (see [`ToolContext::after_write`]).
pub(crate) fn apply_effect(call: &EditCall, effect: TrackerEffect) {
    call.ctx.after_write(&call.path, effect);
}

/// `Error editing file: ...` for an engine error met after validation, naming the host's `tools`.
pub(crate) fn fs_failure(error: &FsError, tools: &HostTools) -> ToolError {
    ToolError::fs("Error editing file: ", error, tools)
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
