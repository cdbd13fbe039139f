//! Wiring of the undo store ([`crate::history`]) into the tools: which store a tool instance
//! uses, and recording the previous content of every file a tool writes.
//!
//! Contracts:
//! - Every successful write by a tool records the file's previous bytes (keyed by real path) after
//!   the write landed and while the file's lock is still held, so levels follow write order (edit
//!   sessions do it on the background thread, see [`super::session`]).
//! - Creating a file that did not exist records an empty level marked [`NEW_FILE_MARK`]; undoing it
//!   removes the file.
//! - Recording never fails a write. If it cannot be done, the file's history is cleared (best
//!   effort) so a later undo never skips a level; with `debug` the reason goes to stderr.
//! - The store is opened lazily, on the first write or undo of a tool instance.

use crate::history::HistoryStore;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Suffix of the tool label of a level recorded when a write created the file.
pub const NEW_FILE_MARK: &str = " (new file)";

/// Which undo store a tool instance uses (`historyDir` / `history: false` options).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum HistoryOption {
    /// `<per-user state dir>/edit-engine/history/<hash of user and workspace root>`.
    #[default]
    Default,
    /// A store in this directory (created if needed).
    Dir(String),
    /// No history: writes are not recorded and undo is refused.
    Off,
}

/// A landed write, as a tool hands it to [`History::record`].
#[derive(Debug, Clone, Copy)]
pub struct Recorded<'a> {
    /// The file's content before the write; `None` when the write created it.
    pub previous: Option<&'a [u8]>,
    /// The bytes the write left.
    pub written: &'a [u8],
    /// The tool that wrote.
    pub tool: &'a str,
    /// Transaction id shared by the files of one multi-file write.
    pub txn: Option<&'a str>,
}

/// A tool instance's undo store, opened on first use.
#[derive(Debug, Clone)]
pub struct History {
    spec: Spec,
    store: Arc<OnceLock<Result<HistoryStore, String>>>,
}

#[derive(Debug, Clone)]
enum Spec {
    Off,
    Default(PathBuf),
    Dir(PathBuf),
}

impl History {
    /// The history for `option`; `workspace_root` keys the default store, `cwd` resolves a
    /// relative `historyDir`.
    pub fn new(option: &HistoryOption, workspace_root: &Path, cwd: &Path) -> Self {
        let spec = match option {
            HistoryOption::Off => Spec::Off,
            HistoryOption::Default => Spec::Default(workspace_root.to_path_buf()),
            HistoryOption::Dir(dir) => Spec::Dir(cwd.join(dir)),
        };
        History {
            spec,
            store: Arc::new(OnceLock::new()),
        }
    }

    /// The store, or why there is none (history off, or the directory is unusable).
    pub fn store(&self) -> Result<&HistoryStore, String> {
        let opened = self.store.get_or_init(|| match &self.spec {
            Spec::Off => {
                Err("undo history is turned off for this tool (option history: false)".to_string())
            }
            Spec::Default(root) => HistoryStore::open_default(root).map_err(|e| e.to_string()),
            Spec::Dir(dir) => HistoryStore::open(dir.clone()).map_err(|e| e.to_string()),
        });
        opened.as_ref().map_err(Clone::clone)
    }

    /// True unless the history is turned off.
    pub fn enabled(&self) -> bool {
        !matches!(self.spec, Spec::Off)
    }

    /// Records a write of `real_path` (what it held before, what the write left). Returns a
    /// warning when the level could not be recorded (the write itself stands).
    pub fn record(&self, real_path: &Path, write: &Recorded) -> Option<String> {
        if !self.enabled() {
            return None;
        }
        let store = match self.store() {
            Ok(s) => s,
            Err(e) => return Some(e),
        };
        let created = format!("{}{NEW_FILE_MARK}", write.tool);
        let level = crate::history::Write {
            previous: write.previous.unwrap_or(b""),
            written: Some(write.written),
            tool: if write.previous.is_some() {
                write.tool
            } else {
                &created
            },
            txn: write.txn,
        };
        let result = store.record_write(real_path, &level);
        // A level that cannot be recorded clears the file's history, so a later undo never skips one.
        let error = result.err()?;
        let _ = store.clear(real_path);
        Some(error.to_string())
    }

    /// Takes back the level just recorded for a write of `written` that then failed (best
    /// effort; the caller still holds the file's lock).
    pub fn retract(&self, real_path: &Path, written: &[u8]) {
        let Ok(store) = self.store() else { return };
        let Ok(levels) = store.levels(real_path) else {
            return;
        };
        let hash = crate::history::hash_hex(written);
        if let Some(last) = levels
            .last()
            .filter(|l| l.written.as_deref() == Some(hash.as_str()))
        {
            let _ = store.drop_newest(real_path, last);
        }
    }

    /// Forgets every level of `real_path` (best effort), for a write whose previous content is
    /// unknown: a later undo then finds no level instead of skipping one.
    pub fn forget(&self, real_path: &Path) {
        if let Ok(store) = self.store() {
            let _ = store.clear(real_path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::locks::lock_path;
    use crate::fs::ResolvedPath;
    use crate::tools::{test_context as context, ToolContext};
    use tempfile::TempDir;

    /// A history folder, a workspace with `a.txt` holding `content`, a context using both, and
    /// the resolved `a.txt`.
    fn with_history(content: &str) -> (TempDir, TempDir, ToolContext, ResolvedPath) {
        let (hist, ws) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let dir = hist.path().join("h").to_string_lossy().into_owned();
        let ctx = context(ws.path(), HistoryOption::Dir(dir));
        std::fs::write(ws.path().join("a.txt"), content).unwrap();
        let path = ctx.resolve_writable("a.txt", None).unwrap();
        (hist, ws, ctx, path)
    }

    /// A committed session records its previous bytes once it ends, holding the file's lock until
    /// then: the next session of the file sees the level already recorded.
    #[test]
    fn a_committed_session_records_the_previous_content_before_releasing_the_lock() {
        let (_hist, _ws, ctx, path) = with_history("v1\r\n");
        for (i, next) in ["v2\n", "v3\n", "v4\n"].into_iter().enumerate() {
            let session = ctx.open_for_tool(&path, "test").unwrap();
            let levels = ctx.history.store().unwrap().levels(&path.real).unwrap();
            assert_eq!(levels.len(), i, "the previous session's level is in place");
            session.commit(next).unwrap();
        }
        let _wait = ctx.open_for_tool(&path, "test").unwrap();
        let store = ctx.history.store().unwrap();
        assert_eq!(store.levels(&path.real).unwrap().len(), 3);
        assert_eq!(store.undo_last(&path.real).unwrap().unwrap(), b"v3\r\n");
    }

    /// No commit (or a failed one), or history off: nothing is recorded and the lock is released.
    #[test]
    fn sessions_without_a_commit_or_without_history_record_nothing() {
        let (_hist, ws, ctx, path) = with_history("v1");
        drop(ctx.open_for_tool(&path, "test").unwrap());
        let session = ctx.open_for_tool(&path, "test").unwrap();
        std::fs::remove_file(ws.path().join("a.txt")).unwrap();
        assert!(session.commit("v2").is_err());
        drop(session);
        let _wait = lock_path(&path.real, crate::fs::locks::DEFAULT_LOCK_TIMEOUT).unwrap();
        assert!(ctx
            .history
            .store()
            .unwrap()
            .levels(&path.real)
            .unwrap()
            .is_empty());

        let off = context(ws.path(), HistoryOption::Off);
        std::fs::write(ws.path().join("b.txt"), "v1").unwrap();
        let path = off.resolve_writable("b.txt", None).unwrap();
        off.open_for_tool(&path, "test")
            .unwrap()
            .commit("v2")
            .unwrap();
        let _wait = lock_path(&path.real, crate::fs::locks::DEFAULT_LOCK_TIMEOUT).unwrap();
        assert_eq!(
            std::fs::read_to_string(ws.path().join("b.txt")).unwrap(),
            "v2"
        );
        assert!(off.history.store().is_err());
    }
}
