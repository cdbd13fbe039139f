//! The read-modify-write frame every writing tool uses: guard, per-file lock, decode, atomic write,
//! and the undo record of every write (see [`super::history`]).
//!
//! The undo level of a commit is recorded after the call's own work, on the background thread
//! ([`crate::fs::background`]): when the session ends, a task takes over the file's lock, records
//! the previous content and only then releases the lock. The next edit or undo of the file (in
//! this process or another) waits for the lock, so levels still follow write order and an undo
//! never misses the newest level; `flushWrites` (and a normal process exit) waits for the task.

use super::history::History;
use super::ToolContext;
use crate::fs::atomic::{write_atomic_confined, WriteMode};
use crate::fs::background::{self, Durability, Job};
use crate::fs::locks::{lock_path, FileLock};
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::{FsError, ResolvedPath};
use std::cell::Cell;

/// An open, locked text file. The lock is held until the session is dropped (and, after a commit,
/// until its undo level is recorded), so the content read here is the content the write replaces
/// (no lost updates between concurrent calls).
pub struct EditSession {
    pub path: ResolvedPath,
    pub display: String,
    pub file: TextFile,
    /// The tool named in the undo level this session's commit records.
    tool: &'static str,
    history: History,
    debug: bool,
    durability: Durability,
    /// A commit landed: the drop records the previous content.
    committed: Cell<bool>,
    lock: Option<FileLock>,
}

impl EditSession {
    /// Writes `new_text` (an LF-view string) back in the file's own encoding and line endings.
    /// The previous content is recorded in the undo history when the session ends (never failing
    /// the write for it).
    pub fn commit(&self, new_text: &str) -> Result<(), FsError> {
        let bytes = self.file.encode(new_text);
        write_atomic_confined(
            &self.path.real,
            &bytes,
            WriteMode::Replace,
            &self.display,
            self.durability,
        )?;
        self.committed.set(true);
        Ok(())
    }
}

impl Drop for EditSession {
    /// Hands the lock and the previous content to a background task that records the undo level
    /// and then releases the lock (inline when there is no background thread).
    fn drop(&mut self) {
        let lock = self.lock.take();
        if !self.committed.get() || !self.history.enabled() {
            return;
        }
        let previous = match self.file.encode(&self.file.text) {
            std::borrow::Cow::Owned(bytes) => bytes,
            std::borrow::Cow::Borrowed(_) => std::mem::take(&mut self.file.text).into_bytes(),
        };
        let (history, real, tool, debug) = (
            self.history.clone(),
            self.path.real.clone(),
            self.tool,
            self.debug,
        );
        background::submit_or_run(Job::Task(Box::new(move || {
            if let (Some(warning), true) = (history.record(&real, Some(&previous), tool), debug) {
                eprintln!("[{tool}] {warning}");
            }
            drop(lock);
        })));
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
            committed: Cell::new(false),
            lock: Some(lock),
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
