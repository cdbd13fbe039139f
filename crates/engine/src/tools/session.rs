//! The read-modify-write frame every writing tool uses: open (guard, the file's lock, the
//! read-before-edit check under that same lock, decode), compute, commit (content checks, atomic
//! write, undo record of every write (see [`super::history`])), then the one after-write
//! bookkeeping ([`ToolContext::after_write`]). A multi-file write commits through
//! [`ToolContext::commit_files`]: one undo level across its files, all or nothing.
//!
//! Undo levels are written ahead: the level of a write (the previous content's blob, and the
//! hashes of both contents) is recorded under the file's lock before the new content is renamed
//! into place, and retracted if the write fails; the new content's blob, which no undo needs, is
//! stored once the write has landed (a large one on the background thread). A crash between
//! the level and the write leaves a level whose previous content is what the file still holds,
//! which undo recognises and only removes (see [`super::undo`]); so a write that landed always
//! has its level, and no undo ever skips one.

use std::borrow::Cow;

use super::history::{History, Recorded, TxnFile};
use super::syntax_guard::{start_guard, start_guard_bytes};
use super::ToolContext;
use crate::fs::atomic::{
    create_parent_dirs, remove_file_confined, write_atomic_confined, WriteMode,
};
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
        let guard = start_guard(
            &self.syntax,
            &self.path.real,
            &self.display,
            Some(Cow::Borrowed(&self.file.text)),
            Cow::Borrowed(new_text),
        )?;
        let bytes = self.file.encode(new_text);
        let previous = self.file.encode(&self.file.text);
        let recorded = Recorded {
            previous: Some(&previous),
            written: &bytes,
            tool: self.tool,
            txn: None,
        };
        let pending = match self.history.record(&self.path.real, &recorded) {
            Ok(pending) => pending,
            Err(warning) => {
                if self.debug {
                    eprintln!("[{}] {warning}", self.tool);
                }
                None
            }
        };
        let result = write_atomic_confined(
            &self.path.real,
            &bytes,
            WriteMode::Replace,
            &self.display,
            self.durability,
        );
        match (&result, pending) {
            (Err(_), _) => self.history.retract(&self.path.real, &bytes),
            (Ok(()), Some(pending)) => pending.finish(bytes.into_owned()),
            (Ok(()), None) => {}
        }
        result.map(|()| guard.note())
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
        let guard = start_guard_bytes(
            &self.syntax,
            &path.real,
            &display,
            write.previous,
            write.written,
        )?;
        let pending = self
            .history
            .record(&path.real, write)
            .unwrap_or_else(|warning| {
                self.debug_log(write.tool, || warning);
                None
            });
        if let Err(e) = self.write_file(&path.real, write.written, mode, &display) {
            self.history.retract(&path.real, write.written);
            return Err(e);
        }
        if let Some(pending) = pending {
            pending.finish(write.written.to_vec());
        }
        self.after_write(path, TrackerEffect::Write);
        Ok(guard.note())
    }

    /// Writes every change of a multi-file write (the caller holds every file's lock, taken in
    /// path order), all or nothing, as one undo level (one transaction, recorded ahead of the
    /// writes; see [`History::record_txn`]): if a write fails, the files already written are put
    /// back as they were (best effort), the level is taken back and the error returned. Once all
    /// landed, each file left in place gets the after-write bookkeeping ([`TrackerEffect::Write`]).
    pub fn commit_files(&self, changes: &[FileChange], tool: &str) -> Result<(), FsError> {
        for change in changes {
            if let Some(next) = change.next {
                refuse_nul(next, change.display)?;
            }
        }
        let txn = crate::history::new_txn_id();
        let files: Vec<TxnFile> = changes
            .iter()
            .map(|c| TxnFile {
                path: &c.path.real,
                previous: c.previous,
                written: c.next,
            })
            .collect();
        let pending = self
            .history
            .record_txn(&txn, &files, tool)
            .unwrap_or_else(|warning| {
                self.debug_log(tool, || warning);
                Vec::new()
            });
        for (i, change) in changes.iter().enumerate() {
            if let Err(e) = self.write_change(change) {
                changes[..i].iter().rev().for_each(|c| self.undo_change(c));
                let paths: Vec<&std::path::Path> = files.iter().map(|f| f.path).collect();
                self.history.retract_txn(&txn, &paths);
                return Err(e);
            }
        }
        for (change, pending) in changes.iter().zip(pending) {
            if let (Some(pending), Some(next)) = (pending, change.next) {
                pending.finish(next.to_vec());
            }
        }
        for change in changes.iter().filter(|c| c.next.is_some()) {
            self.after_write(change.path, TrackerEffect::Write);
        }
        Ok(())
    }

    /// Puts one change's new state on disk.
    fn write_change(&self, change: &FileChange) -> Result<(), FsError> {
        let (real, display) = (&change.path.real, change.display);
        match (change.previous, change.next) {
            (_, None) => remove_file_confined(real, display),
            (Some(_), Some(next)) => self.write_file(real, next, WriteMode::Replace, display),
            (None, Some(next)) => {
                create_parent_dirs(real, display)?;
                self.write_file(real, next, WriteMode::CreateNew, display)
            }
        }
    }

    /// Best effort: puts a written change's file back as it was before.
    fn undo_change(&self, change: &FileChange) {
        let (real, display) = (&change.path.real, change.display);
        let _ = match change.previous {
            Some(bytes) => self.write_file(real, bytes, WriteMode::CreateOrReplace, display),
            None => remove_file_confined(real, display),
        };
    }

    /// The one after-write bookkeeping of every writing tool: the read tracker records the
    /// file's new state as read (chained edits need no re-read), the session tracker applies
    /// `effect`.
    pub fn after_write(&self, path: &ResolvedPath, effect: TrackerEffect) {
        self.read_tracker_after_write(path);
        let Some(tracker) = &self.tracker else {
            return;
        };
        let lexical = &path.lexical;
        match effect {
            TrackerEffect::TextEdit => {
                tracker.track_file_after_write(lexical);
                tracker.record_text_edit(lexical);
            }
            TrackerEffect::Write => tracker.track_file_after_write(lexical),
            TrackerEffect::Symbol { name, updated } => {
                if let Some((code, start, end)) = updated {
                    tracker.track_symbol_after_write(
                        lexical,
                        &name,
                        &code,
                        start as u32,
                        end as u32,
                    );
                }
                tracker.mark_file_seen(lexical);
            }
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
}

/// What a landed write does to the session tracker ([`ToolContext::after_write`]).
pub enum TrackerEffect {
    /// A text edit: file re-seen, symbol records dropped, one more consecutive text edit.
    TextEdit,
    /// Any other write: file re-seen, symbol records dropped.
    Write,
    /// A symbol replace: the symbol's new hash and position recorded, file marked seen.
    Symbol {
        name: String,
        updated: Option<(String, usize, usize)>,
    },
}

/// One file of a multi-file write ([`ToolContext::commit_files`]).
pub struct FileChange<'a> {
    pub path: &'a ResolvedPath,
    pub display: &'a str,
    /// The file's bytes when it was locked (`None`: there was no file).
    pub previous: Option<&'a [u8]>,
    /// The bytes to leave (`None`: delete the file).
    pub next: Option<&'a [u8]>,
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
