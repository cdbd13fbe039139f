//! The read-modify-write frame every writing tool uses: open (guard, the file's lock, the
//! read-before-edit check under that same lock, decode), compute, commit (content checks, atomic
//! write, undo record of every write (see [`super::history`]), read-tracker bookkeeping).
//!
//! Undo levels are written ahead: the level of a write (previous content, and the hash and blob
//! of the new content) is recorded under the file's lock before the new content is renamed into
//! place, and retracted if the write fails. A crash between the two leaves a level whose previous
//! content is what the file still holds, which undo recognises and only removes (see
//! [`super::undo`]); so a write that landed always has its level, and no undo ever skips one.

use super::history::{History, Recorded};
use super::syntax_guard::{guard, guard_bytes};
use super::ToolContext;
use crate::fs::atomic::{write_atomic_confined, WriteMode};
use crate::fs::background::Durability;
use crate::fs::locks::FileLock;
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::{FsError, ResolvedPath};
use crate::syntax::SyntaxOptions;

/// An open, locked text file. The lock is held until the session is dropped, so the content read here is the content the write replaces
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
    syntax: SyntaxOptions,
    _lock: FileLock,
}

impl EditSession {
    /// Writes `new_text` (an LF-view string) back in the file's own encoding and line endings,
    /// with its undo level written ahead (a failure to record never fails the write). New text
    /// with a NUL byte is refused (the file would turn binary); nothing is written. `Ok` holds the
    /// syntax guard's note for the reply (empty when it has nothing to say); its refusal is an error.
    pub fn commit(&self, new_text: &str) -> Result<String, FsError> {
        refuse_nul(new_text.as_bytes(), &self.display)?;
        let note = guard(
            &self.syntax,
            &self.path.real,
            &self.display,
            Some(&self.file.text),
            new_text,
        )?;
        let bytes = self.file.encode(new_text);
        let previous = self.file.encode(&self.file.text);
        let recorded = Recorded {
            previous: Some(&previous),
            written: &bytes,
            tool: self.tool,
            txn: None,
        };
        if let (Some(warning), true) = (self.history.record(&self.path.real, &recorded), self.debug)
        {
            eprintln!("[{}] {warning}", self.tool);
        }
        let result = write_atomic_confined(
            &self.path.real,
            &bytes,
            WriteMode::Replace,
            &self.display,
            self.durability,
        );
        if result.is_err() {
            self.history.retract(&self.path.real, &bytes);
        }
        result.map(|()| note)
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
            syntax: self.syntax,
            _lock: lock,
        })
    }

    /// A whole-file write outside an [`EditSession`] (file creation, overwrite), with the file's
    /// lock held by the caller: the undo level written ahead, the atomic write (the level
    /// retracted if it fails), then the trackers' bookkeeping. `Ok` holds the syntax guard's note.
    pub fn write_recorded(
        &self,
        path: &ResolvedPath,
        mode: WriteMode,
        write: &Recorded,
    ) -> Result<String, FsError> {
        let display = self.display(path);
        refuse_nul(write.written, &display)?;
        let note = guard_bytes(
            &self.syntax,
            &path.real,
            &display,
            write.previous,
            write.written,
        )?;
        if let Some(warning) = self.history.record(&path.real, write) {
            self.debug_log(write.tool, || warning);
        }
        if let Err(e) = self.write_file(&path.real, write.written, mode, &display) {
            self.history.retract(&path.real, write.written);
            return Err(e);
        }
        self.tracker_after_write(path);
        self.read_tracker_after_write(path);
        Ok(note)
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
