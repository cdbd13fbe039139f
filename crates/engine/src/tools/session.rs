//! The read-modify-write frame every writing tool uses: open (guard, the file's lock, the
//! read-before-edit check under that same lock, decode), compute, commit (content checks, atomic
//! write, undo record of every write (see [`super::history`]), read-tracker bookkeeping).
//!
//! The undo level of a commit is recorded after the call's own work, on the background thread
//! ([`crate::fs::background`]): when the session ends, a task takes over the file's lock, records
//! the previous content and only then releases the lock. The next edit or undo of the file (in
//! this process or another) waits for the lock, so levels still follow write order and an undo
//! never misses the newest level; `flushWrites` (and a normal process exit) waits for the task.

use super::history::{History, Recorded};
use super::ToolContext;
use crate::fs::atomic::{write_atomic_confined, WriteMode};
use crate::fs::background::{self, Durability, Job};
use crate::fs::locks::FileLock;
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::{FsError, ResolvedPath};

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
    /// The bytes a landed commit wrote: the drop records them with the previous content.
    written: std::cell::RefCell<Option<Vec<u8>>>,
    lock: Option<FileLock>,
}

impl EditSession {
    /// Writes `new_text` (an LF-view string) back in the file's own encoding and line endings.
    /// The previous content is recorded in the undo history when the session ends (never failing
    /// the write for it).
    /// New text with a NUL byte is refused (the file would turn binary); nothing is written.
    pub fn commit(&self, new_text: &str) -> Result<(), FsError> {
        refuse_nul(new_text.as_bytes(), &self.display)?;
        let bytes = self.file.encode(new_text);
        write_atomic_confined(
            &self.path.real,
            &bytes,
            WriteMode::Replace,
            &self.display,
            self.durability,
        )?;
        *self.written.borrow_mut() = Some(bytes.into_owned());
        Ok(())
    }
}

impl Drop for EditSession {
    /// Hands the lock and the previous content to a background task that records the undo level
    /// and then releases the lock (inline when there is no background thread).
    fn drop(&mut self) {
        let lock = self.lock.take();
        let Some(written) = self.written.get_mut().take() else {
            return;
        };
        if !self.history.enabled() {
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
            let write = Recorded {
                previous: Some(&previous),
                written: &written,
                tool,
                txn: None,
            };
            if let (Some(warning), true) = (history.record(&real, &write), debug) {
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

    /// Locks the file, checks the read-before-edit guard under that lock, and reads it as text;
    /// `tool` labels the undo level its commit records.
    pub fn open_for_tool(
        &self,
        path: &ResolvedPath,
        tool: &'static str,
    ) -> Result<EditSession, FsError> {
        let display = self.display(path);
        let lock = self.lock(path)?;
        self.check_read_state(path)
            .map_err(|message| FsError::ReadState { message })?;
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
            written: std::cell::RefCell::new(None),
            lock: Some(lock),
        })
    }

    /// After a write made outside an [`EditSession`] (file creation, batch writes) landed, with
    /// the file's lock still held: records it in the undo history and updates the trackers.
    pub fn after_write(&self, path: &ResolvedPath, write: &Recorded) {
        if let Some(warning) = self.history.record(&path.real, write) {
            self.debug_log(write.tool, || warning);
        }
        self.tracker_after_write(path);
        self.read_tracker_after_write(path);
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

/// Refuses new content with a NUL byte (it would turn the text file binary).
pub fn refuse_nul(bytes: &[u8], display: &str) -> Result<(), FsError> {
    if bytes.contains(&0) {
        return Err(FsError::NulInContent {
            display: display.to_string(),
        });
    }
    Ok(())
}
