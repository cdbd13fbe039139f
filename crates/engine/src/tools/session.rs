//! The read-modify-write frame every writing tool uses: guard, per-file lock, decode, atomic write.

use super::ToolContext;
use crate::fs::atomic::{write_atomic_confined, WriteMode};
use crate::fs::locks::{lock_path, FileLock};
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::{FsError, ResolvedPath};

/// An open, locked text file. The lock is held until the session is dropped, so the content read
/// here is the content the write replaces (no lost updates between concurrent calls).
pub struct EditSession {
    pub path: ResolvedPath,
    pub display: String,
    pub file: TextFile,
    _lock: FileLock,
}

impl EditSession {
    /// Writes `new_text` (an LF-view string) back in the file's own encoding and line endings.
    pub fn commit(&self, new_text: &str) -> Result<(), FsError> {
        let bytes = self.file.encode(new_text);
        write_atomic_confined(&self.path.real, &bytes, WriteMode::Replace, &self.display)
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

    /// Locks the file and reads it as text.
    pub fn open_for_edit(&self, path: &ResolvedPath) -> Result<EditSession, FsError> {
        let display = self.display(path);
        let lock = lock_path(&path.real);
        let file = read_text_confined(&path.real, &display, Some(self.max_file_bytes))?;
        Ok(EditSession {
            path: path.clone(),
            display,
            file,
            _lock: lock,
        })
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
