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

use crate::history::HistoryStore;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

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
        let error = result.err()?;
        let _ = store.clear(real_path);
        Some(error.to_string())
    }

    /// Forgets every level of `real_path` (best effort), for a write whose previous content is
    /// unknown: a later undo then finds no level instead of skipping one.
    pub fn forget(&self, real_path: &Path) {
        if let Ok(store) = self.store() {
            let _ = store.clear(real_path);
        }
    }
}
