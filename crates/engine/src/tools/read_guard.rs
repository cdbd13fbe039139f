//! Seed 002's read-before-edit guard: with a `readTracker`, the writing tools refuse a file the
//! agent never read and a file whose modification time moved since it was read, and record the
//! new modification time after each write of their own (so chained edits need no re-read).
//!
//! A read is looked up under the path as the caller named it (lexical) and, failing that, under
//! its real path (symlinks resolved).

use super::ToolContext;
use crate::fs::ResolvedPath;
use crate::tracker::read_tracker::mtime_ms;

impl ToolContext {
    /// `Ok` without a read tracker, or when `path` was read and still has the recorded
    /// modification time. Otherwise the message body (without the tool's `Error...:` prefix)
    /// saying what to do. The caller holds the file's lock (the write frame checks under it).
    pub fn check_read_state(&self, path: &ResolvedPath) -> Result<(), String> {
        let Some(reads) = &self.read_tracker else {
            return Ok(());
        };
        let shown = self.display(path);
        let recorded = reads
            .get_read_time(&path.lexical)
            .or_else(|| reads.get_read_time(&path.real));
        let Some(recorded) = recorded else {
            return Err(format!(
                "{shown} has not been read yet in this session. Read (view) the file first, then retry your edit."
            ));
        };
        match mtime_ms(&path.real) {
            Some(now) if now == recorded => Ok(()),
            _ => Err(format!(
                "{shown} was modified externally since you last read it (its modification time changed). Re-read the file to see its current content, then retry your edit."
            )),
        }
    }

    /// After a successful write: records the file's current modification time as read, under
    /// its lexical path and (when different) its real path. No-op without a read tracker.
    pub fn read_tracker_after_write(&self, path: &ResolvedPath) {
        let Some(reads) = &self.read_tracker else {
            return;
        };
        let Some(now) = mtime_ms(&path.real) else {
            return;
        };
        reads.record_read(&path.lexical, now);
        if path.real != path.lexical {
            reads.record_read(&path.real, now);
        }
    }
}
