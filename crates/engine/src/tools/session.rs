//! The read-modify-write frame every writing tool uses: guard, per-file lock, decode, atomic write,
//! and the undo record of every write (see [`super::history`]).

use super::history::History;
use super::ToolContext;
use crate::fs::atomic::{write_atomic_confined, WriteMode};
use crate::fs::background::Durability;
use crate::fs::locks::{lock_path, FileLock};
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::{FsError, ResolvedPath};

/// An open, locked text file. The lock is held until the session is dropped, so the content read
/// here is the content the write replaces (no lost updates between concurrent calls).
pub struct EditSession {
    pub path: ResolvedPath,
    pub display: String,
    pub file: TextFile,
    /// The tool named in the undo level this session's commit records.
    tool: &'static str,
    history: History,
    debug: bool,
    durability: Durability,
    _lock: FileLock,
}

impl EditSession {
    /// Writes `new_text` (an LF-view string) back in the file's own encoding and line endings,
    /// and records the previous content in the undo history (never failing the write for it).
    pub fn commit(&self, new_text: &str) -> Result<(), FsError> {
        let bytes = self.file.encode(new_text);
        let previous = if self.history.enabled() {
            self.file.encode(&self.file.text)
        } else {
            std::borrow::Cow::Borrowed(&[][..])
        };
        let (written, warning) =
            self.history
                .write_recorded(&self.path.real, &previous, self.tool, || {
                    write_atomic_confined(
                        &self.path.real,
                        &bytes,
                        WriteMode::Replace,
                        &self.display,
                        self.durability,
                    )
                });
        if let (Some(warning), true) = (warning, self.debug) {
            eprintln!("[{}] {warning}", self.tool);
        }
        written
    }
}

impl ToolContext {
    /// Resolves a tool's path parameter and checks it may be written.
    pub fn resolve_writable(
        &self,
        file_path: &str,
        working_dir: Option<&str>,
    ) -> Result<ResolvedPath, FsError> {
        let resolved = self.policy.resolve(file_path, working_dir)?;
        self.policy.check_writable(&resolved)?;
        Ok(resolved)
    }

    /// Display form of a path (relative to the workspace root when inside it).
    pub fn display(&self, path: &ResolvedPath) -> String {
        self.policy.display(&path.lexical)
    }

    /// Locks the file and reads it as text (undo levels of its commit are labelled `edit`).
    pub fn open_for_edit(&self, path: &ResolvedPath) -> Result<EditSession, FsError> {
        self.open_for_tool(path, "edit")
    }

    /// Locks the file and reads it as text; `tool` labels the undo level its commit records.
    pub fn open_for_tool(
        &self,
        path: &ResolvedPath,
        tool: &'static str,
    ) -> Result<EditSession, FsError> {
        let display = self.display(path);
        let lock = lock_path(&path.real);
        let file = read_text_confined(&path.real, &display, Some(self.max_file_bytes))?;
        let (history, debug) = (self.history.clone(), self.debug);
        Ok(EditSession {
            path: path.clone(),
            display,
            file,
            tool,
            history,
            debug,
            durability: self.durability,
            _lock: lock,
        })
    }

    /// Records a write made outside an [`EditSession`] (file creation, batch writes) in the undo
    /// history: `previous` is the file's content before the write, `None` if it did not exist.
    /// Call it after the write landed, with the file's lock still held.
    pub fn record_write(&self, real_path: &std::path::Path, previous: Option<&[u8]>, tool: &str) {
        if let Some(warning) = self.history.record(real_path, previous, tool) {
            self.debug_log(tool, || warning);
        }
    }

    /// True when the session's tracker (if any) has seen the file, under either its lexical or
    /// its real path.
    pub fn tracker_has_seen(&self, path: &ResolvedPath) -> bool {
        match &self.tracker {
            None => true,
            Some(t) => t.is_file_seen(&path.lexical) || t.is_file_seen(&path.real),
        }
    }

    /// Records a successful write in the tracker (file seen again, symbol records invalidated).
    pub fn tracker_after_write(&self, path: &ResolvedPath) {
        if let Some(t) = &self.tracker {
            t.track_file_after_write(&path.lexical);
        }
    }
}
