//! Probe's `edit` tool: text (exact + fuzzy), line-targeted and symbol modes.
//!
//! Validation order and every message follow `@probelabs/probe`'s `editTool`, so an agent prompted
//! for Probe gets the same answers. Mode priority: `symbol` > `start_line` > `old_string`.
//!
//! A call runs in three steps: its params are read once into an [`EditRequest`]; [`prepare`]
//! checks the path and the mode against the file's name and the trackers (no content read),
//! [`plan`] computes the new text from the current text (pure), and the caller commits it —
//! [`run`] writes one file; `multi_edit` can plan a whole batch before writing anything.

mod expected_count;
mod line_clean;
mod line_mode;
mod symbol_mode;
mod text_mode;

use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{self, Located, Loose};
use super::{diff, ToolContext};
use crate::common_ends::KnownEnds;
use crate::fs::textfile::TextFile;
use crate::fs::{FsError, ResolvedPath};
use crate::specs::HostTools;
use serde_json::Value;

const INVALID_FILE_PATH: &str = "Error editing file: Invalid file_path - must be a non-empty string. Provide an absolute path or a path relative to the working directory (e.g. \"src/main.js\").";
const INVALID_NEW_STRING: &str = "Error editing file: Invalid new_string - must be a string. Provide the replacement content as a string value (empty string \"\" is valid for deletions).";
const INVALID_OLD_STRING: &str = "Error editing file: Invalid old_string - must be a string. Provide the exact text to find in the file, or use the symbol parameter instead for AST-aware editing by name.";

/// The params of an `edit` call (or of one `multi_edit` operation) as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct EditParams {
    file_path: Loose,
    new_string: Loose,
    old_string: Loose,
    replace_all: Loose,
    symbol: Loose,
    start_line: Loose,
    end_line: Loose,
    position: Loose,
    match_strategy: Loose,
    expected_replacements: Loose,
}

/// The refusal of a call that gives no mode, line references sourced from the host's `tools`.
fn no_mode(tools: &HostTools) -> String {
    format!("Error editing file: Must provide either old_string (for text edit), symbol (for AST-aware edit), or start_line (for line-targeted edit). For text editing: set old_string to the exact text to find and new_string to its replacement. For symbol editing: set symbol to a function/class/method name (e.g. \"myFunction\"). For line-targeted editing: set start_line to a line number from {} (e.g. \"42\" or \"42:ab\").", tools.line_source())
}

/// A validated `edit` request: the file, the replacement and the mode's params. A refusal of
/// the mode's params is kept until the path checks have run, as Probe refuses in that order.
pub struct EditRequest {
    /// `file_path` exactly as given (Probe echoes it in messages).
    pub file_path: String,
    pub new_string: String,
    pub working_dir: Option<String>,
    mode: Result<ModeParams, ToolError>,
}

/// A mode's params, checked without the file (mode priority: `symbol` > `start_line` >
/// `old_string`).
enum ModeParams {
    Symbol(symbol_mode::SymbolParams),
    Line(line_mode::LineRequest),
    Text(text_mode::TextParams),
    /// No mode param was given (refused once the host's tool names are at hand).
    Missing,
}

impl TryFrom<Located<EditParams>> for EditRequest {
    type Error = ToolError;

    /// Refuses a bad `file_path`, then a bad `new_string`; a bad mode is kept for later.
    fn try_from(call: Located<EditParams>) -> Result<Self, ToolError> {
        let mut p = call.params;
        let file_path = p.file_path.non_blank().map(str::to_string);
        let file_path = file_path.ok_or(ToolError::bad_param(INVALID_FILE_PATH))?;
        let Loose::Str(new_string) = std::mem::take(&mut p.new_string) else {
            return Err(ToolError::bad_param(INVALID_NEW_STRING));
        };
        Ok(EditRequest {
            file_path,
            new_string,
            working_dir: call.working_dir,
            mode: mode_params(&p),
        })
    }
}

fn mode_params(p: &EditParams) -> Result<ModeParams, ToolError> {
    if !p.symbol.is_absent() {
        return symbol_mode::params(p)
            .map(ModeParams::Symbol)
            .map_err(ToolError::bad_param);
    }
    if !p.start_line.is_absent() {
        return line_mode::request(p)
            .map(ModeParams::Line)
            .map_err(ToolError::bad_param);
    }
    match &p.old_string {
        Loose::Absent => Ok(ModeParams::Missing),
        Loose::Other(_) => Err(ToolError::bad_param(INVALID_OLD_STRING)),
        Loose::Str(old) => text_mode::params(p, old).map(ModeParams::Text),
    }
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
    Line(&'a line_mode::LineRequest),
    Symbol(symbol_mode::SymbolRequest<'a>),
}

pub(crate) use crate::tools::write_frame::TrackerEffect;

/// A computed change to one file.
pub(crate) struct Planned {
    /// The file's new text (LF view).
    pub new_text: String,
    /// The success message (without the optional diff).
    pub message: String,
    pub effect: TrackerEffect,
    /// A symbol edit's byte edit, for the parse cache once the write has landed.
    pub reparse: Option<(crate::symbols::Language, crate::symbols::ByteEdit)>,
    /// What is known of the common ends of the text read and `new_text`.
    pub known: KnownEnds,
}

impl Planned {
    /// Tells the parse cache that `before` became this plan's text, once the write has landed
    /// (planning itself leaves the cache alone; a preview never tells it).
    pub fn landed(&self, call: &EditCall, before: &str) {
        if let (Some((lang, edit)), false) = (self.reparse, call.ctx.previewing()) {
            let cache = crate::symbols::file_lookup::parse_cache();
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
    call_located(ctx, params::read::<EditParams>(params))
}

/// Runs one edit call from its loose params (an `edit` call or a `multi_edit` operation).
pub(crate) fn call_located(ctx: &ToolContext, params: Located<EditParams>) -> Outcome {
    EditRequest::try_from(params)
        .and_then(|request| run_call(ctx, &request))
        .into()
}

fn run_call(ctx: &ToolContext, request: &EditRequest) -> Result<Outcome, ToolError> {
    let call = prepare(ctx, request)?;
    let frame = ctx
        .open_for_edit(&call.path)
        .map_err(|e| fs_failure(&e, &ctx.host_tools))?;
    let planned = frame.planning(|file| plan(&call, file))?;
    let changed = planned.new_text != frame.file.text;
    let mut note = String::new();
    if changed {
        note = frame
            .commit_known(&planned.new_text, planned.known)
            .map_err(|e| fs_failure(&e, &ctx.host_tools))?;
        planned.landed(&call, &frame.file.text);
    }
    apply_effect(&call, planned.effect);
    let text = diff::append(
        planned.message + &note,
        ctx.return_diff,
        &frame.file.text,
        &planned.new_text,
        &frame.display,
    );
    Ok(match changed {
        true => Outcome::wrote(text, call.file_path),
        false => Outcome::read(text),
    })
}

/// Checks the path, its existence and the tracker's read-before-edit guard, then the mode.
pub(crate) fn prepare<'a>(
    ctx: &'a ToolContext,
    request: &'a EditRequest,
) -> Result<EditCall<'a>, ToolError> {
    let (file_path, new_string) = (request.file_path.as_str(), request.new_string.as_str());
    let working_dir = request.working_dir.as_deref();
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
    let mode = select_mode(ctx, request, &path)?;
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
    request: &'a EditRequest,
    path: &ResolvedPath,
) -> Result<Mode<'a>, ToolError> {
    match &request.mode {
        Err(refusal) => Err(refusal.clone()),
        Ok(ModeParams::Symbol(params)) => symbol_mode::request(params, path)
            .map(Mode::Symbol)
            .map_err(ToolError::bad_param),
        Ok(ModeParams::Line(params)) => Ok(Mode::Line(params)),
        Ok(ModeParams::Text(params)) => text_mode::request(ctx, path, params).map(Mode::Text),
        Ok(ModeParams::Missing) => Err(ToolError::bad_param(no_mode(&ctx.host_tools))),
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
fn parse_position(position: &Loose) -> Result<Option<crate::lines::Position>, ()> {
    use crate::lines::Position;
    match position.as_str() {
        _ if position.is_absent() => Ok(None),
        Some("before") => Ok(Some(Position::Before)),
        Some("after") => Ok(Some(Position::After)),
        _ => Err(()),
    }
}
