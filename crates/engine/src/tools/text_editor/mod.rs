//! Anthropic's text editor tool (`str_replace_editor` / `str_replace_based_edit_tool`):
//! `view`, `str_replace`, `create`, `insert` and, in version 20250124, `undo_edit`. Results follow
//! Anthropic's reference formats (`cat -n` numbering, a snippet around each edit); every failure
//! starts with `Error: `.
//!
//! Differences from the reference, by design: paths may be absolute or relative (resolved against
//! `workingDirectory`, else the tool's `cwd`) and must lie inside the allowed folders; files over
//! `maxFileBytes` are refused; tabs are kept as they are (no tab expansion); writes are atomic,
//! locked per file and keep the file's BOM and line endings; undo levels live in the persistent
//! undo history shared by all tools (so `undo_edit` undoes the last write of any tool).

mod create;
mod insert;
mod output;
mod request;
mod str_replace;
mod undo_edit;
mod view;

pub use view::DEFAULT_MAX_CHARACTERS;

use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params;
use super::ToolContext;
use crate::fs::FsError;
use crate::fs::ResolvedPath;
use crate::specs::HostTools;
use crate::tools::write_frame::WriteFrame;
use request::{Command, EditorParams, EditorRequest};
use serde_json::Value;

/// Per-instance options of `textEditorTool(options)`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextEditorOptions {
    /// `20250124` (default), `20250429` or `20250728`; a `text_editor_` prefix is accepted.
    pub version: Option<String>,
    /// The most characters of numbered lines one `view` returns (`maxCharacters`; default
    /// [`DEFAULT_MAX_CHARACTERS`]); a call's `max_characters` wins.
    pub max_characters: Option<u64>,
}

/// The tool generation, which fixes the tool's name and its commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    V20250124,
    V20250429,
    V20250728,
}

/// The prefix of a version's Messages API tool type (`text_editor_20250728`).
const TYPE_PREFIX: &str = "text_editor_";

impl Version {
    /// Every version, oldest first.
    pub const ALL: [Version; 3] = [Version::V20250124, Version::V20250429, Version::V20250728];

    /// Parses `20250124`, `text_editor_20250124`, ...; absent means 20250124.
    pub fn parse(version: Option<&str>) -> Result<Version, String> {
        let v = version.map(str::trim).unwrap_or("20250124");
        Version::from_name(v).ok_or_else(|| format!("Error: Unknown text editor version \"{v}\". Use 20250124, 20250429 or 20250728 (the version option of textEditorTool)."))
    }

    /// The version a date (`20250728`) or a tool type (`text_editor_20250728`) names, if any.
    pub fn from_name(name: &str) -> Option<Version> {
        let date = name.strip_prefix(TYPE_PREFIX).unwrap_or(name);
        Version::ALL.into_iter().find(|v| v.as_str() == date)
    }

    /// The Messages API tool type (`text_editor_20250728`).
    pub fn tool_type(self) -> String {
        format!("{TYPE_PREFIX}{}", self.as_str())
    }

    /// The tool name the model calls.
    pub fn tool_name(self) -> &'static str {
        match self {
            Version::V20250124 => "str_replace_editor",
            Version::V20250429 | Version::V20250728 => "str_replace_based_edit_tool",
        }
    }

    /// The version's date string.
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V20250124 => "20250124",
            Version::V20250429 => "20250429",
            Version::V20250728 => "20250728",
        }
    }

    /// Only 20250124 has `undo_edit`.
    pub fn has_undo(self) -> bool {
        self == Version::V20250124
    }

    /// Only 20250728's definition advertises the `max_characters` limit of `view` (every
    /// version's `view` keeps it).
    pub fn has_max_characters(self) -> bool {
        self == Version::V20250728
    }
}

/// One call: the context, the version and the `path` parameter as given.
pub(crate) struct Call<'a> {
    ctx: &'a ToolContext,
    options: &'a TextEditorOptions,
    version: Version,
    /// The `path` parameter exactly as given (echoed in messages).
    path: &'a str,
    working_dir: Option<&'a str>,
}

/// Runs one text editor call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, options: &TextEditorOptions, params: &Value) -> String {
    call(ctx, options, params).text
}

/// Begins the syntax guard's parse of the file a `create` command with `params` makes, before the
/// call runs (see [`crate::syntax::begin_new_file_parse`]). For the host's thread: cheap, silent.
/// Returns whether a parse was begun.
pub fn begin_guard(ctx: &ToolContext, options: &TextEditorOptions, params: &Value) -> bool {
    let Ok(version) = Version::parse(options.version.as_deref()) else {
        return false;
    };
    let max = crate::syntax::EARLY_PARSE_PARAMS_UP_TO;
    let Some(call) = params::read_small::<EditorParams>(params, max) else {
        return false;
    };
    match EditorRequest::try_from((call, version)) {
        Ok(EditorRequest {
            command: Command::Create { content },
            path,
            ..
        }) => {
            crate::syntax::begin_new_file_parse(&ctx.syntax, std::path::Path::new(&path), &content)
        }
        _ => false,
    }
}

/// Runs one text editor call: its outcome (a write's file, as `path` names it).
pub fn call(ctx: &ToolContext, options: &TextEditorOptions, params: &Value) -> Outcome {
    run_call(ctx, options, params).into()
}

fn run_call(
    ctx: &ToolContext,
    options: &TextEditorOptions,
    params: &Value,
) -> Result<Outcome, ToolError> {
    let version = Version::parse(options.version.as_deref()).map_err(ToolError::bad_param)?;
    let request = EditorRequest::try_from((params::read::<EditorParams>(params), version))?;
    let call = Call {
        ctx,
        options,
        version,
        path: &request.path,
        working_dir: request.working_dir.as_deref(),
    };
    ctx.debug_log(version.tool_name(), || {
        format!("{} {}", request.name, request.path)
    });
    match &request.command {
        Command::View {
            range,
            max_characters,
        } => view::run(&call, *range, *max_characters),
        Command::StrReplace { old, new } => str_replace::run(&call, old, new),
        Command::Create { content } => create::run(&call, content),
        Command::Insert { line, text } => insert::run(&call, *line, text),
        Command::UndoEdit => undo_edit::run(&call),
    }
}

impl Call<'_> {
    /// The path for reading: inside the allowed folders (`view` refuses protected ones itself).
    fn resolve_readable(&self) -> Result<ResolvedPath, ToolError> {
        let policy = &self.ctx.policy;
        let path = policy
            .resolve(self.path, self.working_dir)
            .map_err(failure(&self.ctx.host_tools))?;
        policy
            .check_allowed(&path)
            .map_err(failure(&self.ctx.host_tools))?;
        Ok(path)
    }

    /// The path for writing: inside the allowed folders and outside `protectedPaths`.
    fn resolve_writable(&self) -> Result<ResolvedPath, ToolError> {
        self.ctx
            .resolve_writable(self.path, self.working_dir)
            .map_err(failure(&self.ctx.host_tools))
    }

    /// Locks and reads an existing regular file for `command`.
    fn open_existing(&self, command: &str) -> Result<WriteFrame<'_>, ToolError> {
        let path = self.resolve_writable()?;
        self.check_existing_file(&path, command)?;
        self.ctx
            .open_for_tool(&path, self.version.tool_name())
            .map_err(failure(&self.ctx.host_tools))
    }

    /// Anthropic's checks: the path exists and, except for `view`, is not a directory.
    fn check_existing_file(&self, path: &ResolvedPath, command: &str) -> Result<(), ToolError> {
        if !path.real.exists() {
            let text = format!(
                "Error: The path {} does not exist. Please provide a valid path.",
                self.path
            );
            return Err(ToolError::new(ErrorKind::NotFound, text));
        }
        if path.real.is_dir() && command != "view" {
            return Err(ToolError::new(ErrorKind::Fs, format!("Error: The path {} is a directory and only the `view` command can be used on directories.", self.path)));
        }
        Ok(())
    }
}

/// `Error: ...` for an engine error, naming the host's `tools`.
fn failure(tools: &HostTools) -> impl Fn(FsError) -> ToolError + '_ {
    |error| ToolError::fs("Error: ", &error, tools)
}

#[cfg(test)]
mod tests;
