//! `NativeToolbox`: one engine context (path policy, tracker, limits) serving every tool call.

use crate::read_tracker::JsFileReadTracker;
use crate::tool_call::{ToolFn, ToolResult, ToolTask};
use crate::tracker::JsFileTracker;
use crate::waiting::OwnThreadTask;
use edit_engine_core::fs::background::Durability;
use edit_engine_core::history::recording::HistoryOption;
use edit_engine_core::specs::HostTools;
use edit_engine_core::syntax::{SyntaxCheck, SyntaxOptions, DEFAULT_MAX_BYTES};
use edit_engine_core::tools::preview::Previews;
use edit_engine_core::tools::text_editor::TextEditorOptions;
use edit_engine_core::tools::{self, ToolContext, ToolOptions};
use napi_derive::napi;
use serde_json::Value;
use std::sync::Arc;

/// Tool options as the JS layer passes them (already normalized there).
#[napi(object)]
#[derive(Default)]
pub struct NativeToolOptions {
    pub allowed_folders: Option<Vec<String>>,
    pub cwd: Option<String>,
    pub workspace_root: Option<String>,
    pub protected_paths: Option<Vec<String>>,
    pub max_file_bytes: Option<f64>,
    pub return_diff: Option<bool>,
    pub debug: Option<bool>,
    /// Directory of the persistent undo history (default: one per workspace in the per-user state directory).
    pub history_dir: Option<String>,
    /// `false` turns the undo history off (writes are not recorded, undo is refused).
    pub history: Option<bool>,
    /// Cap on the disk use of all default undo stores together (default 1 GiB).
    pub history_max_bytes: Option<f64>,
    /// `textEditorTool` generation: `20250124` (default), `20250429` or `20250728`.
    pub text_editor_version: Option<String>,
    /// `textEditorTool` 20250728: most characters of file content one `view` returns.
    pub max_characters: Option<f64>,
    /// `"standard"` (default) or `"strict"`: whether a write also waits for the directory fsync
    /// that makes its rename durable.
    pub durability: Option<String>,
    /// Longest wait for a file's lock, in milliseconds (default 5000).
    pub lock_timeout_ms: Option<f64>,
    /// `"warn"` (default), `"refuse"` or `"off"`: what a write does when the edit introduces syntax errors.
    pub syntax_check: Option<String>,
    /// Largest file the syntax guard parses whole when the edited paragraphs alone do not settle the check (default 256 KB).
    pub syntax_check_max_bytes: Option<f64>,
    /// The host's tools that messages point to (default: Probe's `extract`, `search`, `create`).
    pub tool_names: Option<NativeToolNames>,
    /// How long a preview can be applied, in milliseconds (default 24 hours).
    pub preview_ttl_ms: Option<f64>,
    /// The session this tool's writes belong to (checkpoints rewind a session's writes; default:
    /// one session per process).
    pub session_id: Option<String>,
}

/// The host's read, search and create tools by name; absent where the host has no such tool.
#[napi(object)]
pub struct NativeToolNames {
    pub read: Option<String>,
    pub search: Option<String>,
    pub create: Option<String>,
}

impl From<NativeToolNames> for HostTools {
    fn from(n: NativeToolNames) -> Self {
        HostTools {
            read: n.read,
            search: n.search,
            create: n.create,
        }
    }
}

impl From<NativeToolOptions> for ToolOptions {
    fn from(o: NativeToolOptions) -> Self {
        ToolOptions {
            allowed_folders: o.allowed_folders.unwrap_or_default(),
            cwd: o.cwd,
            workspace_root: o.workspace_root,
            protected_paths: o.protected_paths.unwrap_or_default(),
            max_file_bytes: o
                .max_file_bytes
                .filter(|n| n.is_finite() && *n >= 0.0)
                .map(|n| n as u64),
            return_diff: o.return_diff.unwrap_or(false),
            debug: o.debug.unwrap_or(false),
            history: match (o.history, o.history_dir) {
                (Some(false), _) => HistoryOption::Off,
                (_, Some(dir)) if !dir.is_empty() => HistoryOption::Dir(dir),
                _ => HistoryOption::Default,
            },
            history_max_bytes: o
                .history_max_bytes
                .filter(|n| n.is_finite() && *n >= 0.0)
                .map(|n| n as u64),
            durability: Durability::default(),
            syntax: SyntaxOptions::default(),
            host_tools: o.tool_names.map(HostTools::from).unwrap_or_default(),
            lock_timeout: o
                .lock_timeout_ms
                .filter(|n| n.is_finite() && *n >= 0.0)
                .map(|n| std::time::Duration::from_millis(n as u64)),
            session_id: o.session_id,
        }
    }
}

/// The native side of the tool objects: every call resolves to a `ToolResult` (`{ ok, text }`).
/// Invalid options do not throw: every call then resolves to a failure naming the bad option.
#[napi]
pub struct NativeToolbox {
    context: Result<Arc<ToolContext>, String>,
    /// `textEditorTool`'s own options (version, `max_characters`).
    text_editor: TextEditorOptions,
    /// Where this tool object's previews are kept, and for how long.
    previews: Previews,
}

#[napi]
impl NativeToolbox {
    #[napi(constructor)]
    pub fn new(
        options: Option<NativeToolOptions>,
        tracker: Option<&JsFileTracker>,
        read_tracker: Option<&JsFileReadTracker>,
    ) -> Self {
        let options = options.unwrap_or_default();
        let max_characters = max_characters_option(&options);
        let text_editor = TextEditorOptions {
            version: options.text_editor_version.clone(),
            max_characters: max_characters.clone().ok().flatten(),
        };
        let durability = match options.durability.as_deref() {
            None => Ok(Durability::default()),
            Some(value) => Durability::parse(value).ok_or_else(|| {
                format!("invalid durability option \"{value}\" (use \"standard\" or \"strict\")")
            }),
        };
        let syntax = syntax_options(&options);
        let ttl = preview_ttl(&options);
        let previews = Previews::new(ttl.clone().ok().flatten());
        let tracker = tracker.map(|t| t.shared());
        let read_tracker = read_tracker.map(|t| t.shared());
        let context = durability.and_then(|durability| {
            let syntax = syntax?;
            ttl?;
            max_characters?;
            let options = ToolOptions {
                durability,
                syntax,
                ..options.into()
            };
            ToolContext::new(&options, tracker)
                .map(|c| Arc::new(c.with_read_tracker(read_tracker)))
                .map_err(|e| tools::errors::describe(&e, &options.host_tools))
        });
        NativeToolbox {
            context,
            text_editor,
            previews,
        }
    }

    /// Probe's `edit` tool call.
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn edit(&self, params: Value) -> OwnThreadTask<ToolTask> {
        self.task(params, |c, p| tools::edit::call(c, p).into(), "edit")
    }

    /// Probe's `multi_edit` tool call (plus `atomic: true`).
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn multi_edit(&self, params: Value) -> OwnThreadTask<ToolTask> {
        self.task(
            params,
            |c, p| tools::multi_edit::call(c, p).into(),
            "multiEdit",
        )
    }

    /// The `edit_file` tool call (plain search and replace).
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn edit_file(&self, params: Value) -> OwnThreadTask<ToolTask> {
        self.task(
            params,
            |c, p| tools::edit_file::call(c, p).into(),
            "editFile",
        )
    }

    /// The `replace_in_file` tool call (line ranges, insertions, literal and regex replacements).
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn replace_in_file(&self, params: Value) -> OwnThreadTask<ToolTask> {
        self.task(
            params,
            |c, p| tools::replace_in_file::call(c, p).into(),
            "replaceInFile",
        )
    }

    /// Anthropic's text editor tool call (version from the options).
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn text_editor(&self, params: Value) -> OwnThreadTask<ToolTask> {
        if let Ok(context) = &self.context {
            tools::text_editor::begin_guard(context, &self.text_editor, &params);
        }
        let options = self.text_editor.clone();
        self.task(
            params,
            move |c, p| tools::text_editor::call(c, &options, p).into(),
            "textEditor",
        )
    }

    /// Undoes the last recorded write to `params.path` from the undo history.
    #[napi(
        ts_args_type = "params: { path: string; workingDirectory?: string }",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn undo_last_edit(&self, params: Value) -> OwnThreadTask<ToolTask> {
        self.task(
            params,
            |c, p| tools::undo::call(c, p).into(),
            "undoLastEdit",
        )
    }

    /// The `grep` call: confined by the path policy; the trackers learn the files returned.
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn grep(&self, params: Value) -> OwnThreadTask<ToolTask> {
        self.task(
            params,
            |c, p| edit_engine_core::search::call(c, p).into(),
            "grep",
        )
    }

    /// Probe's `create` tool call.
    #[napi(
        ts_args_type = "params: Record<string, unknown>",
        ts_return_type = "Promise<ToolResult>"
    )]
    pub fn create(&self, params: Value) -> OwnThreadTask<ToolTask> {
        if let Ok(context) = &self.context {
            tools::create::begin_guard(context, &params);
        }
        self.task(params, |c, p| tools::create::call(c, p).into(), "create")
    }
}

/// The `maxCharacters` option: a whole number of at least 1, or the message naming the bad value.
fn max_characters_option(o: &NativeToolOptions) -> Result<Option<u64>, String> {
    match o.max_characters {
        None => Ok(None),
        Some(n) if n.is_finite() && n >= 1.0 && n.fract() == 0.0 => Ok(Some(n as u64)),
        Some(n) => {
            Err(format!(
            "invalid maxCharacters option {} (use a whole number of characters >= 1, default {})",
            if n.is_nan() { "(not a number)".to_string() } else { n.to_string() },
            edit_engine_core::tools::text_editor::DEFAULT_MAX_CHARACTERS
        ))
        }
    }
}

/// The `previewTtlMs` option (`None`: the default), or the message naming a bad value.
fn preview_ttl(o: &NativeToolOptions) -> Result<Option<std::time::Duration>, String> {
    match o.preview_ttl_ms {
        None => Ok(None),
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(std::time::Duration::from_millis(n as u64))),
        Some(n) => Err(format!(
            "invalid previewTtlMs option {n} (use a number of milliseconds >= 0, default 86400000 = 24 hours)"
        )),
    }
}

/// The syntax guard's options, or the message naming the bad one.
fn syntax_options(o: &NativeToolOptions) -> Result<SyntaxOptions, String> {
    let mode = match o.syntax_check.as_deref() {
        None => SyntaxCheck::default(),
        Some(value) => SyntaxCheck::parse(value).ok_or_else(|| {
            format!("invalid syntaxCheck option \"{value}\" (use \"warn\", \"refuse\" or \"off\")")
        })?,
    };
    let max_bytes = match o.syntax_check_max_bytes {
        None => DEFAULT_MAX_BYTES,
        Some(n) if n.is_finite() && n >= 0.0 => n as usize,
        Some(n) => {
            return Err(format!(
                "invalid syntaxCheckMaxBytes option {n} (use a number of bytes >= 0, default {DEFAULT_MAX_BYTES})"
            ))
        }
    };
    Ok(SyntaxOptions { mode, max_bytes })
}

impl NativeToolbox {
    /// The engine context, or why the options are unusable.
    pub(crate) fn context(&self) -> Result<Arc<ToolContext>, String> {
        self.context.clone()
    }

    pub(crate) fn text_editor_options(&self) -> &TextEditorOptions {
        &self.text_editor
    }

    pub(crate) fn previews(&self) -> &Previews {
        &self.previews
    }

    /// A call of `tool`, the toolbox method named `method` in JS.
    pub(crate) fn task(
        &self,
        params: Value,
        tool: impl Fn(&ToolContext, &Value) -> ToolResult + Send + 'static,
        method: &str,
    ) -> OwnThreadTask<ToolTask> {
        let tool: ToolFn = Box::new(tool);
        OwnThreadTask(ToolTask {
            context: self.context.clone(),
            params,
            tool,
            label: error_label(method),
        })
    }
}

/// The lead of a failure a toolbox method reports without running its tool (unusable options,
/// unusable params, an internal error), by the method's JS name: the lead the tool's own
/// failures use.
pub(crate) fn error_label(method: &str) -> &'static str {
    match method {
        "edit" => "Error editing file",
        "create" => "Error creating file",
        "replaceInFile" => "Error performing replacements",
        _ => "Error",
    }
}

/// The failure lead of the `NativeToolbox` method `method` (e.g. `"Error editing file"` for
/// `edit`), for failures the JS layer finds before calling it.
#[napi]
pub fn tool_error_label(method: String) -> String {
    error_label(&method).to_string()
}
