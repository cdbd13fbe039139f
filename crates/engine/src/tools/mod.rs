//! One module per tool: params -> validated operation -> engine -> message.
//!
//! Every tool entry point takes a [`ToolContext`] and the raw JSON params, reads them once into
//! its typed request ([`params`]) and returns an [`outcome::Outcome`]. Tools never panic on bad
//! input and never leave a file partly written (all writes go through [`crate::fs::atomic`]).

pub mod apply;
pub mod apply_patch;
pub mod create;
pub mod diff;
pub mod edit;
pub mod edit_file;
pub mod errors;
#[cfg(test)]
mod history_cleared_tests;
#[cfg(test)]
mod history_refusal_tests;
pub mod multi_edit;
pub mod outcome;
pub mod params;
pub mod preview;
#[cfg(test)]
mod preview_apply_tests;
pub mod preview_notes;
#[cfg(test)]
mod preview_tests;
pub mod replace_in_file;
#[cfg(test)]
mod request_order_tests;
pub mod rewind;
#[cfg(test)]
mod rewind_tests;
mod size_limit;
#[cfg(test)]
mod size_limit_tests;
pub mod text_editor;
pub mod undo;
pub mod write_frame;

use crate::fs::background::Durability;
use crate::fs::guard::PathPolicy;
use crate::fs::locks::{lock_path, FileLock, DEFAULT_LOCK_TIMEOUT};
use crate::fs::FsError;
use crate::history::recording::{History, HistoryOption};
use crate::specs::HostTools;
use crate::tracker::FileReadTracker;
use crate::tracker::FileTracker;
use std::sync::Arc;

/// Default cap on the size of a file a tool reads (64 MiB).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Options shared by every tool factory (`editTool(options)`, `createTool(options)`, ...).
#[derive(Debug, Clone, Default)]
pub struct ToolOptions {
    pub allowed_folders: Vec<String>,
    pub cwd: Option<String>,
    pub workspace_root: Option<String>,
    pub protected_paths: Vec<String>,
    pub max_file_bytes: Option<u64>,
    pub return_diff: bool,
    pub debug: bool,
    /// Undo store: the default per-user one, a `historyDir`, or none.
    pub history: HistoryOption,
    /// Cap on the disk use of all default stores together (`historyMaxBytes`; `None`: the
    /// environment's or the default, see [`crate::history::retention::total_cap`]).
    pub history_max_bytes: Option<u64>,
    /// Whether a write returns before or after the directory fsync of its rename.
    pub durability: Durability,
    /// Longest wait for a file's lock (`lockTimeoutMs`; default [`DEFAULT_LOCK_TIMEOUT`]).
    pub lock_timeout: Option<std::time::Duration>,
    /// The syntax guard (`syntaxCheck`, `syntaxCheckMaxBytes`).
    pub syntax: crate::syntax::SyntaxOptions,
    /// The host's tools that messages point to (`toolNames`; default Probe's).
    pub host_tools: HostTools,
    /// The session the tool's writes belong to (`sessionId`; `None`: this process's own).
    pub session_id: Option<String>,
}

/// Everything a tool call needs besides its params. Built once per tool instance.
#[derive(Debug, Clone)]
pub struct ToolContext {
    pub policy: PathPolicy,
    pub tracker: Option<Arc<FileTracker>>,
    /// The read tracker: edits refuse unread or externally changed files.
    pub read_tracker: Option<Arc<FileReadTracker>>,
    pub max_file_bytes: u64,
    pub return_diff: bool,
    pub debug: bool,
    /// Where every write records the previous content (see [`crate::history::recording`]).
    pub history: History,
    pub durability: Durability,
    /// Longest wait for a file's lock.
    pub lock_timeout: std::time::Duration,
    /// The syntax guard every write runs (see [`crate::syntax::write_guard`]).
    pub syntax: crate::syntax::SyntaxOptions,
    /// Whether changes are written or only previewed (see [`apply`]).
    pub mode: apply::Mode,
    /// The host's tools that messages point to.
    pub host_tools: HostTools,
}

impl ToolContext {
    /// Fails only on invalid `protectedPaths` globs or unusable folders.
    pub fn new(options: &ToolOptions, tracker: Option<Arc<FileTracker>>) -> Result<Self, FsError> {
        let policy = PathPolicy::new(
            &options.allowed_folders,
            options.cwd.as_deref(),
            options.workspace_root.as_deref(),
            &options.protected_paths,
        )?;
        let lock_timeout = options.lock_timeout.unwrap_or(DEFAULT_LOCK_TIMEOUT);
        let history = History::new(&options.history, policy.workspace_root(), policy.cwd())
            .with_lock_timeout(lock_timeout)
            .with_total_cap(options.history_max_bytes)
            .with_session(options.session_id.as_deref());
        Ok(ToolContext {
            policy,
            tracker,
            read_tracker: None,
            max_file_bytes: options.max_file_bytes.unwrap_or(DEFAULT_MAX_FILE_BYTES),
            return_diff: options.return_diff,
            debug: options.debug,
            history,
            durability: options.durability,
            lock_timeout,
            syntax: options.syntax,
            mode: apply::Mode::Write,
            host_tools: options.host_tools.clone(),
        })
    }

    /// The same context with a read tracker (the `readTracker` tool option).
    pub fn with_read_tracker(mut self, read_tracker: Option<Arc<FileReadTracker>>) -> Self {
        self.read_tracker = read_tracker;
        self
    }

    /// Takes the lock of `path` (the one lock helper of every writing tool), waiting at most
    /// this context's lock timeout; the error names the file and says who holds it.
    pub fn lock(&self, path: &crate::fs::ResolvedPath) -> Result<FileLock, FsError> {
        lock_path(&path.real, self.lock_timeout)
            .map_err(|e| FsError::from_lock(e, &self.display(path)))
    }

    /// Writes a debug line to stderr when the `debug` option is on.
    pub fn debug_log(&self, tool: &str, message: impl FnOnce() -> String) {
        if self.debug {
            eprintln!("[{tool}] {}", message());
        }
    }
}

/// A context confined to `root` (also its cwd) with the undo history `history`, for tests.
#[cfg(test)]
pub(crate) fn test_context(root: &std::path::Path, history: HistoryOption) -> ToolContext {
    let root = root.to_string_lossy().into_owned();
    let options = ToolOptions {
        allowed_folders: vec![root.clone()],
        cwd: Some(root),
        history,
        ..ToolOptions::default()
    };
    ToolContext::new(&options, None).unwrap()
}
