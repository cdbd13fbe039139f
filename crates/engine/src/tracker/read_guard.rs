//! The read-before-edit guard: with a `readTracker`, the writing tools refuse a file the
//! agent never read and a file whose modification time moved since it was read, and record the
//! new modification time after each write of their own (so chained edits need no re-read).
//!
//! A read is looked up under the path as the caller named it (lexical) and, failing that, under
//! its real path (symlinks resolved).

use crate::fs::ResolvedPath;
use crate::tools::ToolContext;
use crate::tracker::read_tracker::{mtime_ms, same_time};

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
            Some(now) if same_time(now, recorded) => self.check_read_content(path, &shown),
            _ => Err(format!(
                "{shown} was modified externally since you last read it (its modification time changed). Re-read the file to see its current content, then retry your edit."
            )),
        }
    }

    /// With the modification time unchanged, the content must still hash as it did at the read
    /// (a change within the time's granularity, or with the time put back, is still caught).
    fn check_read_content(&self, path: &ResolvedPath, shown: &str) -> Result<(), String> {
        let Some(reads) = &self.read_tracker else {
            return Ok(());
        };
        let Ok(content) = std::fs::read(&path.real) else {
            return Ok(()); // the edit's own read reports a missing or unreadable file
        };
        let unchanged = reads
            .content_unchanged(&path.lexical, &content)
            .or_else(|| reads.content_unchanged(&path.real, &content));
        match unchanged {
            Some(false) => Err(format!(
                "{shown} was modified externally since you last read it (its content changed). Re-read the file to see its current content, then retry your edit."
            )),
            _ => Ok(()),
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

#[cfg(test)]
mod tests {
    use crate::history::recording::HistoryOption;
    use crate::tracker::read_tracker::mtime_ms;
    use crate::tracker::FileReadTracker;
    use std::sync::Arc;

    /// A change after the read that leaves the modification time as it was (a write within its
    /// granularity, or the time put back) is still refused: the read recorded a content hash.
    #[test]
    fn a_change_with_the_same_mtime_is_seen_by_its_content() {
        let ws = tempfile::tempdir().unwrap();
        let reads = Arc::new(FileReadTracker::new());
        let ctx = crate::tools::test_context(ws.path(), HistoryOption::Off)
            .with_read_tracker(Some(Arc::clone(&reads)));
        let file = ws.path().join("a.txt");
        std::fs::write(&file, "alpha one\n").unwrap();
        let then = std::fs::metadata(&file).unwrap().modified().unwrap();
        reads.record_read(&file, mtime_ms(&file).unwrap());
        std::fs::write(&file, "alpha two\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(then)
            .unwrap();
        let params = serde_json::json!({ "file_path": "a.txt", "old_string": "alpha", "new_string": "beta" });
        let out = crate::tools::edit::run(&ctx, &params);
        assert!(
            out.contains("modified externally since you last read it (its content changed)"),
            "{out}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "alpha two\n");
    }

    /// A read time in whole milliseconds (Deno's `stats.mtimeMs`) lets the edit through.
    #[test]
    fn a_read_time_in_whole_milliseconds_allows_the_edit() {
        let ws = tempfile::tempdir().unwrap();
        let reads = Arc::new(FileReadTracker::new());
        let ctx = crate::tools::test_context(ws.path(), HistoryOption::Off)
            .with_read_tracker(Some(Arc::clone(&reads)));
        let file = ws.path().join("a.txt");
        std::fs::write(&file, "alpha one\n").unwrap();
        reads.record_read(&file, mtime_ms(&file).unwrap().floor());
        let params = serde_json::json!({ "file_path": "a.txt", "old_string": "alpha", "new_string": "beta" });
        let out = crate::tools::edit::run(&ctx, &params);
        assert!(out.starts_with("Successfully edited"), "{out}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "beta one\n");
    }
}
