//! Wiring of the undo store ([`crate::history`]) into the tools: which store a tool instance
//! uses, and recording the previous content of every file a tool writes.
//!
//! Contracts:
//! - Every successful write by a tool records the file's previous bytes (keyed by real path) after
//!   the write landed and while the file's lock is still held, so levels follow write order.
//! - Creating a file that did not exist records an empty level marked [`NEW_FILE_MARK`]; undoing it
//!   removes the file.
//! - Recording never fails a write. If it cannot be done, the file's history is cleared (best
//!   effort) so a later undo never skips a level; with `debug` the reason goes to stderr.
//! - The store is opened lazily, on the first write or undo of a tool instance.

use crate::fs::FsError;
use crate::history::{HistoryError, HistoryStore};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Previous contents from this size up are staged in the history while the write runs.
pub const PARALLEL_STAGE_BYTES: usize = 256 << 10;

/// Suffix of the tool label of a level recorded when a write created the file.
pub const NEW_FILE_MARK: &str = " (new file)";

/// Which undo store a tool instance uses (`historyDir` / `history: false` options).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum HistoryOption {
    /// `<os temp>/edit-engine-history/<hash of user and workspace root>`.
    #[default]
    Default,
    /// A store in this directory (created if needed).
    Dir(String),
    /// No history: writes are not recorded and undo is refused.
    Off,
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

    /// Records what `real_path` held before a write by `tool` (`None`: the file did not exist).
    /// Returns a warning when the level could not be recorded (the write itself stands).
    pub fn record(&self, real_path: &Path, previous: Option<&[u8]>, tool: &str) -> Option<String> {
        if !self.enabled() {
            return None;
        }
        let store = match self.store() {
            Ok(s) => s,
            Err(e) => return Some(e),
        };
        let result = match previous {
            Some(bytes) => store.record(real_path, bytes, tool),
            None => store.record(real_path, b"", &format!("{tool}{NEW_FILE_MARK}")),
        };
        warn_and_clear(store, real_path, result)
    }

    /// Runs `write` (the write that replaces `previous` at `real_path`) and, once it succeeded,
    /// records `previous` as the newest level by `tool`. From [`PARALLEL_STAGE_BYTES`] up, the
    /// blob is hashed and stored on a scoped thread while `write` runs, so the history adds
    /// little to a large write. Returns the write's result and, when the level could not be
    /// recorded, a warning (the write stands; the file's history is cleared).
    pub fn write_recorded(
        &self,
        real_path: &Path,
        previous: &[u8],
        tool: &str,
        write: impl FnOnce() -> Result<(), FsError>,
    ) -> (Result<(), FsError>, Option<String>) {
        if !self.enabled() {
            return (write(), None);
        }
        let store = match self.store() {
            Ok(store) => store,
            Err(e) => {
                let written = write();
                let warning = written.is_ok().then_some(e);
                return (written, warning);
            }
        };
        let (written, staged) = if previous.len() >= PARALLEL_STAGE_BYTES {
            std::thread::scope(|s| {
                let staging = s.spawn(|| store.stage(previous));
                let written = write();
                let staged = staging.join().unwrap_or_else(|_| {
                    Some(Err(HistoryError::Io {
                        op: "store the previous content of",
                        path: real_path.to_string_lossy().into_owned(),
                        source: std::io::Error::other("the staging thread panicked"),
                    }))
                });
                (written, staged)
            })
        } else {
            let written = write();
            let staged = written.is_ok().then(|| store.stage(previous)).flatten();
            (written, staged)
        };
        if written.is_err() {
            return (written, None);
        }
        let recorded = store.record_staged(real_path, previous, staged, tool);
        (written, warn_and_clear(store, real_path, recorded))
    }

    /// Forgets every level of `real_path` (best effort), for a write whose previous content is
    /// unknown: a later undo then finds no level instead of skipping one.
    pub fn forget(&self, real_path: &Path) {
        if let Ok(store) = self.store() {
            let _ = store.clear(real_path);
        }
    }
}

/// A level that could not be recorded: the file's history is cleared (best effort) so a later undo
/// never skips a level, and the reason is returned as a warning.
fn warn_and_clear(
    store: &HistoryStore,
    real_path: &Path,
    recorded: Result<(), HistoryError>,
) -> Option<String> {
    let error = recorded.err()?;
    let _ = store.clear(real_path);
    Some(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(dir: &Path) -> History {
        let option = HistoryOption::Dir(dir.join("h").to_string_lossy().into_owned());
        History::new(&option, dir, dir)
    }

    /// Large contents are staged on a second thread while the write runs; small ones after it.
    /// Either way a successful write leaves exactly one level holding the previous bytes.
    #[test]
    fn write_recorded_records_after_a_successful_write() {
        let dir = tempfile::tempdir().unwrap();
        let h = history(dir.path());
        let file = dir.path().join("f.txt");
        for previous in [vec![b'a'; 10], vec![b'b'; PARALLEL_STAGE_BYTES + 1]] {
            let mut wrote = false;
            let (written, warning) = h.write_recorded(&file, &previous, "edit", || {
                wrote = true;
                Ok(())
            });
            assert!(written.is_ok() && warning.is_none() && wrote);
            let store = h.store().unwrap();
            assert_eq!(store.levels(&file).unwrap().len(), 1);
            assert_eq!(store.undo_last(&file).unwrap(), Some(previous));
        }
    }

    /// A failed write records nothing and hands its error back unchanged.
    #[test]
    fn write_recorded_records_nothing_when_the_write_fails() {
        let dir = tempfile::tempdir().unwrap();
        let h = history(dir.path());
        let file = dir.path().join("f.txt");
        for size in [10, PARALLEL_STAGE_BYTES] {
            let (written, warning) = h.write_recorded(&file, &vec![b'x'; size], "edit", || {
                Err(FsError::NotFound {
                    display: "f.txt".into(),
                })
            });
            assert!(matches!(written, Err(FsError::NotFound { .. })));
            assert!(warning.is_none());
            assert!(h.store().unwrap().levels(&file).unwrap().is_empty());
        }
    }

    /// History off: the write runs, nothing is stored.
    #[test]
    fn write_recorded_with_history_off_only_writes() {
        let dir = tempfile::tempdir().unwrap();
        let h = History::new(&HistoryOption::Off, dir.path(), dir.path());
        let mut wrote = false;
        let (written, warning) = h.write_recorded(&dir.path().join("f"), b"x", "edit", || {
            wrote = true;
            Ok(())
        });
        assert!(written.is_ok() && warning.is_none() && wrote);
        assert!(!dir.path().join("h").exists());
    }
}
