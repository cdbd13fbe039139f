//! Persistent undo store: before each write the previous content of the file is recorded, so
//! `undo_last` can hand it back, several levels deep, even after a process restart.
//!
//! Layout of a store directory (every file written to a temp file and renamed into place, so a
//! reader never sees half a file; not fsynced: the history is a convenience, and after a power
//! loss a damaged blob is caught by its hash on undo and the file's history cleared):
//! - `objects/<blake3>`: content blobs, addressed by the BLAKE3 hash of their bytes (deduplicated);
//! - `index/<blake3 of the file's path>.log`: the file's levels as an append-only log of JSON
//!   lines (see [`index`]; entries `{"blake3", "size", "timestamp", "tool"}`);
//! - `.lock`: `flock`ed for the duration of every operation, so store instances in any number of
//!   threads and processes can share a directory.
//!
//! Bounds: at most `max_levels` levels per file (oldest dropped), and at most `max_bytes` of blobs
//! in total (checked whenever this instance has added blobs worth a sixteenth of the cap since
//! its last check); when over, the least recently recorded levels of all files are evicted first.
//! Levels are only ever removed from the old end of a file's chain, so `undo_last` never skips a level:
//! a version that cannot be stored (larger than the cap) clears the file's history instead.
//!
//! The default directory is `<os temp>/edit-engine-history/<hash of uid and workspace root>`,
//! created 0o700 (it holds file contents) and used only if it is a real directory owned by us.

mod index;
mod store_fs;

use crate::fs::FsError;
use index::Index;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Default cap on the total size of stored contents.
pub const DEFAULT_MAX_BYTES: u64 = 64 << 20;
/// Default number of undo levels kept per file.
pub const DEFAULT_MAX_LEVELS: usize = 50;

/// One undo level: the content a file had before a write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// BLAKE3 hash (hex) of the previous content; the blob's name in `objects/`.
    pub blake3: String,
    /// Size of the previous content in bytes.
    pub size: u64,
    /// When the level was recorded, in milliseconds since the Unix epoch.
    pub timestamp: u64,
    /// The tool whose write replaced this content (e.g. `"edit"`).
    pub tool: String,
}

/// What can go wrong in the undo store.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("undo history: could not {op} {path}: {source}")]
    Io {
        op: &'static str,
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("undo history: {0}")]
    Fs(#[from] FsError),
    /// A stored level is missing or damaged; the file's history has been cleared.
    #[error("undo history for {path} is damaged ({reason}); its history was cleared")]
    Corrupt { path: String, reason: String },
    /// The store directory is a symlink, not a directory, or owned by another user.
    #[error("undo history directory {path} is not a private directory owned by this user")]
    Unsafe { path: String },
}

/// A persistent, size-bounded, content-addressed undo store.
#[derive(Debug, Clone)]
pub struct HistoryStore {
    dir: PathBuf,
    max_bytes: u64,
    max_levels: usize,
    /// Bytes of blobs this instance (and its clones) added since it last summed the store's size.
    unchecked: Arc<AtomicU64>,
}

impl HistoryStore {
    /// `<os temp>/edit-engine-history/<hex>` where `<hex>` hashes the effective uid and the real
    /// path of `workspace_root`. The environment variable `EDIT_ENGINE_HISTORY_ROOT`, when set,
    /// replaces `<os temp>/edit-engine-history` (test suites point it at a folder they remove).
    pub fn default_dir(workspace_root: &Path) -> PathBuf {
        let root = crate::fs::guard::safe_realpath(workspace_root);
        let mut h = Sha256::new();
        h.update(store_fs::euid().to_string().as_bytes());
        h.update([0]);
        h.update(root.to_string_lossy().as_bytes());
        let parent = std::env::var_os("EDIT_ENGINE_HISTORY_ROOT")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join("edit-engine-history"));
        parent.join(hex(&h.finalize()[..16]))
    }

    /// Opens (creating if needed) the default store of `workspace_root`.
    pub fn open_default(workspace_root: &Path) -> Result<Self, HistoryError> {
        let dir = Self::default_dir(workspace_root);
        if let Some(parent) = dir.parent() {
            store_fs::create_shared_parent(parent);
        }
        store_fs::create_private_dir(&dir)?;
        Self::open(dir)
    }

    /// Opens (creating if needed, mode 0o700) a store in `dir`, with the default bounds.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self, HistoryError> {
        let dir = dir.into();
        store_fs::create_private_dir(&dir)?;
        for sub in ["objects", "index"] {
            store_fs::create_private_dir(&dir.join(sub))?;
        }
        Ok(HistoryStore {
            dir,
            max_bytes: DEFAULT_MAX_BYTES,
            max_levels: DEFAULT_MAX_LEVELS,
            // The first added blob checks the size (other processes may have filled the store).
            unchecked: Arc::new(AtomicU64::new(u64::MAX / 2)),
        })
    }

    /// Sets the cap on the total size of stored contents.
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// Sets the number of levels kept per file (at least 1).
    pub fn with_max_levels(mut self, max_levels: usize) -> Self {
        self.max_levels = max_levels.max(1);
        self
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Records `previous` (the content `path` had before a write by `tool`) as the newest level.
    /// Content larger than the size cap is not stored and clears the file's history instead.
    /// The blob is hashed outside the store lock and written under it (deduplicated by name and
    /// size), so no eviction can remove it between its write and the level that names it.
    pub fn record(&self, path: &Path, previous: &[u8], tool: &str) -> Result<(), HistoryError> {
        let size = previous.len() as u64;
        let hash = (size <= self.max_bytes).then(|| hex(blake3::hash(previous).as_bytes()));
        let _lock = store_fs::lock(&self.dir)?;
        let mut idx = Index::load(&self.dir, path);
        let Some(hash) = hash else {
            return idx.remove();
        };
        let added = store_fs::write_object(&self.dir, &hash, previous)?;
        let entry = HistoryEntry {
            blake3: hash,
            size,
            timestamp: now_ms(),
            tool: tool.into(),
        };
        idx.push(entry, self.max_levels)?;
        if added && self.size_check_due(size) && store_fs::objects_size(&self.dir) > self.max_bytes
        {
            index::evict(&self.dir, self.max_bytes)?;
        }
        Ok(())
    }

    /// Pops the newest level of `path` and returns its content; `None` when there is none.
    /// A missing or damaged blob clears the file's history and is reported as `Corrupt`.
    pub fn undo_last(&self, path: &Path) -> Result<Option<Vec<u8>>, HistoryError> {
        let _lock = store_fs::lock(&self.dir)?;
        let mut idx = Index::load(&self.dir, path);
        let Some(entry) = idx.entries.pop() else {
            return Ok(None);
        };
        match store_fs::read_object(&self.dir, &entry.blake3) {
            Some(bytes) if hex(blake3::hash(&bytes).as_bytes()) == entry.blake3 => {
                idx.record_pop()?;
                Ok(Some(bytes))
            }
            found => {
                idx.remove()?;
                let reason = if found.is_some() {
                    "content does not match its hash"
                } else {
                    "content missing"
                };
                Err(HistoryError::Corrupt {
                    path: path.to_string_lossy().into_owned(),
                    reason: reason.into(),
                })
            }
        }
    }

    /// The levels of `path`, oldest first (the last one is what `undo_last` returns).
    pub fn levels(&self, path: &Path) -> Result<Vec<HistoryEntry>, HistoryError> {
        let _lock = store_fs::lock(&self.dir)?;
        Ok(Index::load(&self.dir, path).entries)
    }

    /// Forgets every level of `path`.
    pub fn clear(&self, path: &Path) -> Result<(), HistoryError> {
        let _lock = store_fs::lock(&self.dir)?;
        Index::load(&self.dir, path).remove()
    }

    /// Counts `added` bytes of new blobs; true when they (with earlier uncounted ones) reach a
    /// sixteenth of the cap, so the store's size is summed (a directory scan) only that often.
    fn size_check_due(&self, added: u64) -> bool {
        let before = self.unchecked.fetch_add(added, Ordering::Relaxed);
        let due = before.saturating_add(added) >= self.max_bytes / 16;
        if due {
            self.unchecked.store(0, Ordering::Relaxed);
        }
        due
    }

    /// Total size of the stored contents in bytes.
    pub fn total_bytes(&self) -> u64 {
        store_fs::objects_size(&self.dir)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests;
