//! Probe's `create` tool: writes a new file (parents created), or overwrites with `overwrite`.

use super::apply::{Change, FileEdit, Recording};
use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{self, Located, Loose};
use super::{diff, ToolContext};
use crate::fs::textfile::read_bytes_confined;
use crate::fs::{FsError, ResolvedPath};
use crate::syntax::SyntaxCheck;
use serde_json::Value;

const INVALID_FILE_PATH: &str = "Error creating file: Invalid file_path - must be a non-empty string. Provide an absolute path or a path relative to the working directory (e.g. \"src/newFile.js\").";
const INVALID_CONTENT: &str = "Error creating file: Invalid content - must be a string. Provide the file content as a string value (empty string \"\" is valid for an empty file).";

/// The params of a `create` call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct CreateParams {
    file_path: Loose,
    content: Loose,
    overwrite: Loose,
}

/// A validated `create` call.
#[derive(Debug)]
pub struct CreateRequest {
    /// `file_path` exactly as given (echoed in messages).
    pub file_path: String,
    pub content: String,
    pub overwrite: bool,
    pub working_dir: Option<String>,
}

impl TryFrom<Located<CreateParams>> for CreateRequest {
    type Error = ToolError;

    /// Probe's checks, in its order: `file_path`, then `content`.
    fn try_from(call: Located<CreateParams>) -> Result<Self, ToolError> {
        let p = call.params;
        let file_path = p.file_path.non_blank().map(str::to_string);
        let file_path = file_path.ok_or(ToolError::bad_param(INVALID_FILE_PATH))?;
        let Loose::Str(content) = p.content else {
            return Err(ToolError::bad_param(INVALID_CONTENT));
        };
        Ok(CreateRequest {
            file_path,
            content,
            overwrite: p.overwrite.flag(false),
            working_dir: call.working_dir,
        })
    }
}

/// Runs one `create` call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    call(ctx, params).text
}

/// Runs one `create` call: its outcome (the file written, as `file_path` names it).
pub fn call(ctx: &ToolContext, params: &Value) -> Outcome {
    CreateRequest::try_from(params::read::<CreateParams>(params))
        .and_then(|request| run_call(ctx, &request))
        .into()
}

/// Begins the syntax guard's parse of the file a `create` call with `params` makes, before the
/// call runs (see [`crate::syntax::begin_new_file_parse`]). For the host's thread: cheap, silent.
/// Returns whether a parse was begun.
pub fn begin_guard(ctx: &ToolContext, params: &Value) -> bool {
    let max = crate::syntax::EARLY_PARSE_PARAMS_UP_TO;
    let Some(call) = params::read_small::<CreateParams>(params, max) else {
        return false;
    };
    CreateRequest::try_from(call).is_ok_and(|request| {
        let path = std::path::Path::new(&request.file_path);
        crate::syntax::begin_new_file_parse(&ctx.syntax, path, &request.content)
    })
}

fn run_call(ctx: &ToolContext, request: &CreateRequest) -> Result<Outcome, ToolError> {
    let (file_path, content) = (request.file_path.as_str(), request.content.as_str());
    let (overwrite, working_dir) = (request.overwrite, request.working_dir.as_deref());
    let path = ctx
        .resolve_writable(file_path, working_dir)
        .map_err(failure(ctx))?;
    let display = ctx.display(&path);
    crate::tools::write_frame::refuse_nul(content.as_bytes(), &display).map_err(failure(ctx))?;
    let _lock = ctx.lock(&path).map_err(failure(ctx))?;
    let target = std::fs::metadata(&path.real).ok();
    let existed = target.is_some();
    check_target(ctx, &path, file_path, target.as_ref(), overwrite)?;
    let (previous, note) = write(ctx, &path, &display, content, existed).map_err(failure(ctx))?;
    let action = if existed { "overwrote" } else { "created" };
    let message = format!(
        "Successfully {action} {file_path} ({} bytes){note}",
        content.len()
    );
    let before = previous
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let text = diff::append(message, ctx.return_diff, &before, content, &display);
    Ok(Outcome::wrote(text, file_path))
}

/// The refusals before anything is written: an existing file without `overwrite`, a folder, an
/// existing file the read state does not let this call replace. `target` is what the path names
/// now (symlinks followed; `None`: nothing).
fn check_target(
    ctx: &ToolContext,
    path: &ResolvedPath,
    file_path: &str,
    target: Option<&std::fs::Metadata>,
    overwrite: bool,
) -> Result<(), ToolError> {
    let existed = target.is_some();
    if existed && !overwrite {
        let text = format!("Error creating file: File already exists - {file_path}. Use overwrite: true to replace it.");
        return Err(ToolError::new(ErrorKind::Exists, text));
    }
    if target.is_some_and(std::fs::Metadata::is_dir) {
        let display = ctx.display(path);
        return Err(failure(ctx)(FsError::NotAFile { display }));
    }
    if existed {
        if let Err(m) = ctx.check_read_state(path) {
            let text = format!("Error creating file: {m}");
            return Err(ToolError::new(ErrorKind::Stale, text));
        }
    }
    Ok(())
}

/// Writes `content` at `path` (shown as `display`; parents created) and records the replaced
/// content in the undo history; returns the replaced content when it was read (only when the
/// diff, the history or the syntax guard needs it) and the syntax guard's note for the reply.
fn write(
    ctx: &ToolContext,
    path: &ResolvedPath,
    display: &str,
    content: &str,
    existed: bool,
) -> Result<(Option<Vec<u8>>, String), FsError> {
    let wanted = ctx.return_diff || ctx.history.enabled() || ctx.syntax.mode != SyntaxCheck::Off;
    let previous = match existed && wanted {
        true => read_previous(ctx, path, display)?,
        false => None,
    };
    // The replaced content could not be read (history off): drop the older levels rather than
    // skip one.
    let recording = match existed && previous.is_none() {
        true => Recording::Forget,
        false => Recording::Level("create"),
    };
    let file = FileEdit {
        path,
        display,
        before: previous.as_deref(),
        after: Some(content.as_bytes()),
        texts: None,
    };
    let note = ctx.apply(&Change {
        files: vec![file],
        recording,
    })?;
    ctx.after_write(path, crate::tools::write_frame::TrackerEffect::Write);
    Ok((previous, note))
}

/// `Error creating file: ...` for an engine error, naming the host's tools of `ctx`.
fn failure(ctx: &ToolContext) -> impl Fn(FsError) -> ToolError + '_ {
    |error| ToolError::fs("Error creating file: ", &error, &ctx.host_tools)
}

/// The content an overwrite replaces. When it cannot be read, the write is refused if the undo
/// history is on (no level could restore it), else `None`.
fn read_previous(
    ctx: &ToolContext,
    path: &ResolvedPath,
    display: &str,
) -> Result<Option<Vec<u8>>, FsError> {
    match read_bytes_confined(&path.real, display, Some(ctx.max_file_bytes)) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(_) if !ctx.history.enabled() => Ok(None),
        Err(FsError::TooLarge { size, max, .. }) => Err(FsError::PreviousUnreadable {
            display: display.to_string(),
            reason: format!("it is {size} bytes, over the {max}-byte maxFileBytes limit"),
        }),
        Err(e) => Err(FsError::PreviousUnreadable {
            display: display.to_string(),
            reason: e.to_string(),
        }),
    }
}
