//! Persistent undo store: before each write the previous content of the file is recorded, so
//! an undo (`newest`, then `drop_newest` once the file is restored) can hand it back, several levels deep, even after a process restart.
//!
//! Layout of a store directory (every file written to a temp file and renamed into place, so a
//! reader never sees half a file; each write, and each append to an index, is fsynced on the
//! background sync lane ahead of the sync of the tool's own write, so a level is durable no later
//! than the write it records; after a power loss a damaged blob is still caught by its hash on
//! undo and the file's history cleared):
//! - `objects/<blake3>`: content blobs, addressed by the BLAKE3 hash of their bytes (deduplicated);
//! - `index/<blake3 of the file's raw path bytes>.log`: the file's levels as an append-only log
//!   of JSON lines (see [`index`]);
//! - `txns/<id>.json`: records of multi-file levels (see [`txn`]);
//! - `previews/<token>`: stored previews, applied at most once (see [`previews`]);
//! - `checkpoints.json`: the sessions' checkpoints (see [`checkpoints`]);
//! - `format.json`: the store's format version (see [`format`]);
//! - `.lock`: `flock`ed (a bounded wait, the tool's `lockTimeoutMs`) for the duration of every
//!   operation, so store instances in any number of threads and processes can share a directory.
//!
//! The store is held open (see [`root`]): every file is reached through the store's open folder,
//! never its path, and each operation first checks that the path still names that folder. Nothing
//! read from the store is trusted: a blob name must be 64 lowercase hex digits (an index naming
//! anything else reads as empty and is removed), files are opened without following symlinks, and
//! the store directory must be owned by this user and not writable by group or others, below
//! folders no other user can change.
//!
//! Bounds: at most `max_levels` levels per file (oldest dropped), and at most `max_bytes` of disk
//! blocks used by blobs (checked whenever this instance has added blobs worth a sixteenth of the
//! cap since its last check); when over, the least recently recorded levels of all files are
//! evicted first. An eviction rewrites the logs before it drops a blob (moved aside under the
//! store lock, unlinked after it on the background task lane), so a writer killed mid-eviction
//! leaves no level whose content is gone. Levels are only ever removed from the old end of a
//! file's chain, so an undo never skips a level: a version that cannot be stored (larger than the
//! cap) clears the file's history instead. Temp files older than [`store_fs::STALE_TEMP_AFTER`]
//! (left by a killed writer) are collected when a store is opened and at each eviction.
//!
//! The default directory is `<parent>/<hash of uid and workspace root>`, with `<parent>` the first
//! of [`default_parents`] that can hold a store (`<state>/edit-engine/history` for `$XDG_STATE_HOME`
//! or `~/.local/state`, else the user's own `/tmp/edit-engine-history-<uid>`), every level created
//! 0o700: it holds file contents, so it never lives in a folder others can change.
//!
//! [`recording`] is the tools' side: which store a tool instance uses, and the level each
//! write records.

pub mod checkpoints;
pub mod collector;
mod format;
mod index;
mod names;
pub mod previews;
pub mod recording;
pub mod retention;
mod root;
mod store_fs;
pub mod store_meta;
mod txn;

pub use txn::TxnRecord;

use crate::fs::FsError;
use index::Index;
use root::Root;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Default cap on the total size of stored contents.
pub const DEFAULT_MAX_BYTES: u64 = 64 << 20;
/// Default number of undo levels kept per file.
pub const DEFAULT_MAX_LEVELS: usize = 50;

/// One undo level: the content a file had before a write, and what the write left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// BLAKE3 hash (hex) of the previous content; the blob's name in `objects/`.
    pub blake3: String,
    /// BLAKE3 hash (hex) of the content the write left (also a blob when it fits the cap):
    /// undo applies only while the file still holds exactly this. `None` for levels recorded
    /// without it (those are never undone over the file's current content).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// The transaction the write belonged to: the levels of one multi-file write share it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub txn: Option<String>,
    /// The write deleted the file (`written` is `None`): undo applies while the file is absent.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// Size of the previous content in bytes.
    pub size: u64,
    /// When the level was recorded, in milliseconds since the Unix epoch.
    pub timestamp: u64,
    /// The tool whose write replaced this content (e.g. `"edit"`).
    pub tool: String,
    /// The session of the tool that wrote (see [`checkpoints`]); `None` in levels recorded
    /// before sessions were (a checkpoint never rewinds them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
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
    /// The store directory is a symlink, not a directory, owned by another user, or writable by
    /// group or others.
    #[error("undo history directory {path} is not a private directory owned by this user (it must be a real directory owned by you, not writable by group or others: fix it with chmod 700, or choose another historyDir)")]
    Unsafe { path: String },
    /// A folder above the store is another user's, or writable by others without being
    /// root-owned and sticky: whoever controls it could swap the store.
    #[error("undo history directory {path} lies in {parent}, which another user could change (every folder above the store must be owned by you or root, and one writable by others must be root-owned and sticky)")]
    UnsafeParent { path: String, parent: String },
    /// The store's path, or one of its sub-folders, no longer names the folder opened.
    #[error("undo history store {path} was moved or replaced since it was opened ({what} is not the folder it was)")]
    Swapped { path: String, what: String },
    /// The store was written by a newer, incompatible version of the engine.
    #[error("undo history store {path} has format {found}, newer than this edit-engine reads ({known}); upgrade edit-engine, or choose another historyDir")]
    NewerFormat {
        path: String,
        found: String,
        known: u32,
    },
    /// No per-user directory can hold the default store.
    #[error("undo history has no per-user state directory (set XDG_STATE_HOME or HOME, or pass historyDir)")]
    NoStateDir,
    /// Another process holds the store's lock past the wait limit.
    #[error("undo history store {path} is locked by another process (waited {waited_ms} ms); retry when it has finished")]
    Busy { path: String, waited_ms: u64 },
}

impl HistoryError {
    /// Why the store cannot record, in a few words (for a refusal that names the store itself).
    pub fn reason(&self) -> String {
        match self {
            HistoryError::Io { op, path, source } => format!("could not {op} {path}: {source}"),
            HistoryError::Fs(e) => e.to_string(),
            HistoryError::Corrupt { reason, .. } => reason.clone(),
            HistoryError::Unsafe { path } => format!("{path} is a symlink, not a directory, another user's, or writable by group or others"),
            HistoryError::UnsafeParent { parent, .. } => format!("the folder above it, {parent}, is another user's or writable by others without being root-owned and sticky"),
            HistoryError::Swapped { what, .. } => format!("{what} was moved or replaced since the store was opened"),
            HistoryError::NewerFormat { found, known, .. } => format!("its format {found} is newer than this edit-engine reads ({known})"),
            HistoryError::NoStateDir => "no per-user state directory".into(),
            HistoryError::Busy { waited_ms, .. } => format!("its lock is held by another process; waited {waited_ms} ms"),
        }
    }
}

/// Default wait for the store lock (a tool's `lockTimeoutMs` replaces it).
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// A persistent, size-bounded, content-addressed undo store.
#[derive(Debug, Clone)]
pub struct HistoryStore {
    root: Arc<Root>,
    lock_timeout: Duration,
    max_bytes: u64,
    max_levels: usize,
    /// Bytes of blobs this instance (and its clones) added since it last summed the store's size.
    unchecked: Arc<AtomicU64>,
    /// Bytes of blobs this instance (and its clones) added since it was opened.
    added: Arc<AtomicU64>,
    /// The session every level this handle records names (see [`checkpoints`]).
    session: Option<Arc<str>>,
}

impl HistoryStore {
    /// `<parent>/<hex>` for each of [`default_parents`] of this process's environment, in order
    /// of preference: `<hex>` hashes the effective uid and the real path of `workspace_root`.
    pub fn default_dirs(workspace_root: &Path) -> Result<Vec<PathBuf>, HistoryError> {
        let root = crate::fs::guard::safe_realpath(workspace_root);
        let mut h = Sha256::new();
        h.update(crate::sys::effective_uid().to_string().as_bytes());
        h.update([0]);
        h.update(store_fs::path_bytes(&root));
        let name = hex(&h.finalize()[..16]);
        let parents = default_parents(|k| std::env::var_os(k));
        if parents.is_empty() {
            return Err(HistoryError::NoStateDir);
        }
        Ok(parents.into_iter().map(|p| p.join(&name)).collect())
    }

    /// The default store's preferred place (the first of [`Self::default_dirs`]).
    pub fn default_dir(workspace_root: &Path) -> Result<PathBuf, HistoryError> {
        Ok(Self::default_dirs(workspace_root)?.swap_remove(0))
    }

    /// Opens the default store of `workspace_root`: the first of [`Self::default_dirs`] that
    /// opens (see [`Self::open`]); when none does, the first one's error.
    pub fn open_default(workspace_root: &Path) -> Result<Self, HistoryError> {
        Self::open_first(Self::default_dirs(workspace_root)?)
    }

    /// Opens the first of `dirs` that opens (see [`Self::open`]); when none does, the first
    /// one's error.
    pub fn open_first(dirs: Vec<PathBuf>) -> Result<Self, HistoryError> {
        let mut first = None;
        for dir in dirs {
            match Self::open(dir) {
                Ok(store) => return Ok(store),
                Err(e) if first.is_none() => first = Some(e),
                Err(_) => {}
            }
        }
        Err(first.unwrap_or(HistoryError::NoStateDir))
    }

    /// Opens (creating missing folders, mode 0o700) a store in the absolute `dir`, with the
    /// default bounds, and holds it open (see [`root`]): the folders above it must be safe and
    /// the store private; a store of a newer format is refused.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self, HistoryError> {
        let root = Root::open(&dir.into())?;
        format::check(&root)?;
        store_fs::collect_stale_temps(&root);
        Ok(HistoryStore {
            root: Arc::new(root),
            lock_timeout: DEFAULT_LOCK_TIMEOUT,
            max_bytes: DEFAULT_MAX_BYTES,
            max_levels: DEFAULT_MAX_LEVELS,
            // The first added blob checks the size (other processes may have filled the store).
            unchecked: Arc::new(AtomicU64::new(u64::MAX / 2)),
            added: Arc::new(AtomicU64::new(0)),
            session: None,
        })
    }

    /// Sets the session the levels this handle records name.
    pub fn with_session(mut self, session: Option<&str>) -> Self {
        self.session = session.map(Arc::from);
        self
    }

    /// Sets the longest wait for the store's lock ([`HistoryError::Busy`] after it).
    pub fn with_lock_timeout(mut self, timeout: Duration) -> Self {
        self.lock_timeout = timeout;
        self
    }

    /// The store lock, held until the returned guard is dropped.
    fn lock(&self) -> Result<store_fs::StoreLock<'_>, HistoryError> {
        store_fs::lock(&self.root, self.lock_timeout)
    }

    /// Sets the cap on the total size of stored contents.
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The cap on the total size of stored contents.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// Whether a write replacing `previous_len` bytes can be recorded (see [`fits_cap`]).
    pub fn keeps(&self, previous_len: usize) -> bool {
        fits_cap(previous_len, self.max_bytes)
    }

    /// Sets the number of levels kept per file (at least 1).
    pub fn with_max_levels(mut self, max_levels: usize) -> Self {
        self.max_levels = max_levels.max(1);
        self
    }

    /// The store directory (its path when opened; the store itself is reached through the
    /// folder held open).
    pub fn dir(&self) -> &Path {
        self.root.path()
    }

    /// The store's previews (its `previews/` folder, reached through the held-open store).
    pub fn previews(&self) -> previews::PreviewStore {
        previews::PreviewStore::Store(previews::StoredPreviews(self.clone()))
    }

    /// True when the store's path names nothing any more (a collection removed the store, see
    /// [`retention`]); false while it names a folder, the one held or any other.
    pub fn removed(&self) -> bool {
        std::fs::symlink_metadata(self.dir())
            .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    }

    /// True when the held store folder is removed (its link count is 0: a collection removed
    /// it, see [`retention`]), found without a look-up of its path. A store moved rather than
    /// removed is found by the store lock's check instead ([`HistoryError::Swapped`]).
    pub fn gone(&self) -> bool {
        self.root.gone()
    }

    /// When the store was [`Self::removed`]: a fresh store opened at its path with the same
    /// bounds (every check of [`Self::open`] made again), for a tool instance that held the
    /// removed one. `None` while the path names a folder: a store moved or replaced by anything
    /// else stays refused ([`HistoryError::Swapped`]).
    pub fn reopen_if_removed(&self) -> Option<Result<Self, HistoryError>> {
        if !self.removed() {
            return None;
        }
        store_meta::forget(self.dir());
        Some(Self::open(self.dir()).map(|store| HistoryStore {
            lock_timeout: self.lock_timeout,
            max_bytes: self.max_bytes,
            max_levels: self.max_levels,
            session: self.session.clone(),
            ..store
        }))
    }

    /// Records `previous` (the content `path` had before a write by `tool`) as the newest level,
    /// without the written content's hash (see [`Self::record_write`]).
    pub fn record(&self, path: &Path, previous: &[u8], tool: &str) -> Result<(), HistoryError> {
        self.record_write(
            path,
            &Write {
                previous,
                written: None,
                tool,
                txn: None,
            },
        )
        .map(drop)
    }

    /// Records a write as the newest level of `path` and stores the blob of its previous content
    /// (unless one of that name and size exists), so the level is complete on return; the blob of
    /// the written content is left to the caller: `Ok(Some(name))` when it still has to be stored
    /// with [`Self::store_blob`] (at leisure, e.g. on a background thread; until then a refusal
    /// to undo shows the diff from the previous content). Content larger than the size cap is
    /// not stored and clears the file's history instead. Both contents are named outside the
    /// store lock (a content named recently by a byte comparison, see [`names`], else by its
    /// hash) and the previous blob written under it, so no eviction can remove it between its
    /// write and the level that names it.
    pub fn record_write(&self, path: &Path, write: &Write) -> Result<Option<String>, HistoryError> {
        self.record_write_named(path, write, None)
    }

    /// [`Self::record_write`] with the contents' names when they are known already (from
    /// [`content_names`] of exactly these contents).
    pub fn record_write_named(
        &self,
        path: &Path,
        write: &Write,
        names: Option<ContentNames>,
    ) -> Result<Option<String>, HistoryError> {
        if !self.keeps(write.previous.len()) {
            let _lock = self.lock()?;
            self.clear_unrecordable(path)?;
            return Ok(None);
        }
        let hashes = names.unwrap_or_else(|| hash_pair(write.previous, write.written));
        let _lock = self.lock()?;
        let (pending, added) = self.push_level(path, write, false, hashes)?;
        self.count_added(added)?;
        Ok(pending)
    }

    /// Records a multi-file write (transaction `id`) as one level: a level naming `id` on each
    /// member's index, then the transaction's record (see [`txn`]), all under one store lock.
    /// Returns, per member, the written blob left to the caller (as [`Self::record_write`]). A
    /// previous content larger than the size cap clears every member's history instead.
    pub fn record_txn(
        &self,
        id: &str,
        members: &[Member],
    ) -> Result<Vec<Option<String>>, HistoryError> {
        if members.iter().any(|m| !self.keeps(m.write.previous.len())) {
            let _lock = self.lock()?;
            for m in members {
                self.clear_unrecordable(m.path)?;
            }
            return Ok(vec![None; members.len()]);
        }
        let hashes: Vec<_> = members
            .iter()
            .map(|m| hash_pair(m.write.previous, m.write.written))
            .collect();
        let _lock = self.lock()?;
        if members.len() > 1 {
            let record = TxnRecord {
                members: members
                    .iter()
                    .zip(&hashes)
                    .map(|(m, (prev, _))| {
                        (m.path.to_path_buf(), (!m.created).then(|| prev.clone()))
                    })
                    .collect(),
                undone: false,
            };
            txn::write(&self.root, id, &record)?;
        }
        let (mut pending, mut added) = (Vec::with_capacity(members.len()), 0);
        for (m, hashes) in members.iter().zip(hashes) {
            let write = Write {
                txn: Some(id),
                ..m.write
            };
            let (name, size) = self.push_level(m.path, &write, m.deleted, hashes)?;
            pending.push(name);
            added += size;
        }
        self.count_added(added)?;
        Ok(pending)
    }

    /// Clears the history of `path`, whose write cannot be recorded (the caller holds the store
    /// lock); the checkpoints that needed its levels, or this write, are told (see [`checkpoints`]).
    fn clear_unrecordable(&self, path: &Path) -> Result<(), HistoryError> {
        let mut idx = Index::load(&self.root, path);
        checkpoints::note_lost(&self.root, idx.lost());
        if let Some(session) = self.session.as_deref() {
            checkpoints::note_lost_writes(&self.root, &[(idx.path.as_str(), session, now_ms())]);
        }
        idx.remove()
    }

    /// Pushes one level (the caller holds the store lock) after storing its previous blob;
    /// returns the written blob still to store and the disk use added.
    fn push_level(
        &self,
        path: &Path,
        write: &Write,
        deleted: bool,
        (hash, written): (String, Option<String>),
    ) -> Result<(Option<String>, u64), HistoryError> {
        let size = write.previous.len() as u64;
        let mut idx = Index::load(&self.root, path);
        let mut added = 0;
        if store_fs::write_object(&self.root, &hash, write.previous)? {
            added += store_fs::blocks_of(size);
        }
        let len = write.written.map_or(0, |w| w.len() as u64);
        let pending = written
            .as_ref()
            .filter(|name| len <= self.max_bytes && !store_fs::has_object(&self.root, name, len))
            .cloned();
        let entry = HistoryEntry {
            blake3: hash,
            written,
            txn: write.txn.map(str::to_string),
            deleted,
            size,
            timestamp: now_ms(),
            tool: write.tool.into(),
            session: self.session.as_deref().map(str::to_string),
        };
        let limit = checkpoints::level_limit(&self.root, &idx.entries, self.max_levels);
        idx.push(entry, limit)?;
        Ok((pending, added))
    }

    /// The record of transaction `id` when it exists and is valid; `None` otherwise (its levels
    /// are then undone one by one).
    pub fn txn_record(&self, id: &str) -> Result<Option<TxnRecord>, HistoryError> {
        let _lock = self.lock()?;
        Ok(txn::read(&self.root, id))
    }

    /// Marks transaction `id` undone: every file of it has been restored (the commit point of
    /// its undo; the levels are removed next, then the record).
    pub fn mark_txn_undone(&self, id: &str) -> Result<(), HistoryError> {
        let _lock = self.lock()?;
        match txn::read(&self.root, id) {
            Some(record) => txn::write(
                &self.root,
                id,
                &TxnRecord {
                    undone: true,
                    ..record
                },
            ),
            None => Ok(()),
        }
    }

    /// Removes the record of transaction `id` (once no level of it is left).
    pub fn forget_txn(&self, id: &str) -> Result<(), HistoryError> {
        let _lock = self.lock()?;
        txn::remove(&self.root, id)
    }

    /// Stores `bytes` as the blob `name` (a written content [`Self::record_write`] left to the
    /// caller) unless it is not a valid name, does not match `bytes`' hash, or exists already.
    /// Needs no store lock (the blob appears whole, temp file + rename, and a level names it)
    /// unless a size check is due: only then is the lock taken, to evict.
    pub fn store_blob(&self, name: &str, bytes: &[u8]) -> Result<(), HistoryError> {
        if bytes.len() as u64 > self.max_bytes || names::name_of(bytes) != name {
            return Ok(());
        }
        self.keep_blob(name, bytes)
    }

    /// Stores `bytes` as the blob `name` (its [`content_name`]) unless it exists already or is
    /// larger than the cap; its disk use counts toward the cap (the store lock is taken only when
    /// a size check is due, to evict).
    fn keep_blob(&self, name: &str, bytes: &[u8]) -> Result<(), HistoryError> {
        if bytes.len() as u64 > self.max_bytes {
            return Ok(());
        }
        let added = store_fs::blocks_of(bytes.len() as u64);
        if store_fs::write_object(&self.root, name, bytes)? && self.size_check_due(added) {
            let _lock = self.lock()?;
            self.evict_if_over()?;
        }
        Ok(())
    }

    /// Counts a stored preview of `bytes` bytes toward the cap, as [`Self::count_added`] (the
    /// store lock taken only when a size check is due).
    fn count_preview(&self, bytes: u64) -> Result<(), HistoryError> {
        if !self.size_check_due(store_fs::blocks_of(bytes)) {
            return Ok(());
        }
        let _lock = self.lock()?;
        self.evict_if_over()
    }

    /// Counts `added` bytes of new blobs and evicts old levels when a size check is due and the
    /// store is over its cap. The caller holds the store lock.
    fn count_added(&self, added: u64) -> Result<(), HistoryError> {
        if added > 0 && self.size_check_due(added) {
            self.evict_if_over()?;
        }
        Ok(())
    }

    /// Evicts old levels when the store is over its cap. The caller holds the store lock; the
    /// blobs dropped are unlinked on the background task lane (see [`store_fs::discard_object`]).
    fn evict_if_over(&self) -> Result<(), HistoryError> {
        let usage = store_fs::usage(&self.root);
        if usage.total > self.max_bytes {
            let discarded = index::evict(&self.root, self.max_bytes, usage.objects)?;
            if !discarded.is_empty() {
                let root = self.root.clone();
                let unlink = move || store_fs::remove_discarded(&root, &discarded);
                crate::fs::background::submit_or_run(crate::fs::background::Job::Task(Box::new(
                    unlink,
                )));
            }
        }
        Ok(())
    }

    /// The newest level of `path` with the content it restores, without removing it; `None`
    /// when there is none. A missing or damaged blob clears the file's history (`Corrupt`).
    pub fn newest(&self, path: &Path) -> Result<Option<Level>, HistoryError> {
        let _lock = self.lock()?;
        let mut idx = Index::load(&self.root, path);
        let Some(entry) = idx.entries.last().cloned() else {
            return Ok(None);
        };
        let content = self.level_content(&mut idx, path, &entry.blake3)?;
        Ok(Some(Level {
            entry,
            content,
            remaining: idx.entries.len() - 1,
        }))
    }

    /// The content a level's write left, when it was stored and is intact.
    pub fn written_content(&self, entry: &HistoryEntry) -> Option<Vec<u8>> {
        let name = entry.written.as_deref()?;
        let _lock = self.lock().ok()?;
        store_fs::read_object(&self.root, name).filter(|b| hash_hex(b) == name)
    }

    /// Removes the newest level of `path` if it is still `entry` (true when it was removed).
    pub fn drop_newest(&self, path: &Path, entry: &HistoryEntry) -> Result<bool, HistoryError> {
        let _lock = self.lock()?;
        let mut idx = Index::load(&self.root, path);
        if idx.entries.last() != Some(entry) {
            return Ok(false);
        }
        idx.entries.pop();
        idx.record_pop()?;
        Ok(true)
    }

    /// The blob `hash` a level of `path` restores, checked against its name. A missing or damaged
    /// blob removes the file's index (its history is cleared) and is reported as `Corrupt`.
    fn level_content(
        &self,
        idx: &mut Index,
        path: &Path,
        hash: &str,
    ) -> Result<Vec<u8>, HistoryError> {
        match store_fs::read_object(&self.root, hash) {
            Some(bytes) if hash_hex(&bytes) == hash => Ok(bytes),
            found => {
                checkpoints::note_lost(&self.root, idx.lost());
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

    /// The levels of `path`, oldest first (the last one is what `newest` returns).
    pub fn levels(&self, path: &Path) -> Result<Vec<HistoryEntry>, HistoryError> {
        let _lock = self.lock()?;
        Ok(Index::load(&self.root, path).entries)
    }

    /// Forgets every level of `path` (a write whose previous content could not be read: the
    /// checkpoints that needed them, or that write, are told).
    pub fn clear(&self, path: &Path) -> Result<(), HistoryError> {
        let _lock = self.lock()?;
        self.clear_unrecordable(path)
    }

    /// Counts `added` bytes (disk blocks) of new blobs; true when they (with earlier uncounted ones) reach a
    /// sixteenth of the cap, so the store's size is summed (a directory scan) only that often.
    fn size_check_due(&self, added: u64) -> bool {
        self.added.fetch_add(added, Ordering::Relaxed);
        let before = self.unchecked.fetch_add(added, Ordering::Relaxed);
        let due = before.saturating_add(added) >= self.max_bytes / 16;
        if due {
            self.unchecked.store(0, Ordering::Relaxed);
        }
        due
    }

    /// Bytes (disk blocks) of blobs this instance and its clones have added since it was opened:
    /// a content already stored adds nothing.
    pub fn added_bytes(&self) -> u64 {
        self.added.load(Ordering::Relaxed)
    }

    /// Disk space used by the stored contents, in bytes of allocated blocks.
    pub fn total_bytes(&self) -> u64 {
        store_fs::store_size(&self.root)
    }
}

/// Whether a write replacing `previous_len` bytes can be recorded in a store capped at `cap`
/// bytes: a larger previous content is not stored, and recording the write clears the file's
/// history instead (every member's, for a multi-file write).
pub fn fits_cap(previous_len: usize, cap: u64) -> bool {
    previous_len as u64 <= cap
}

/// A write to record: see [`HistoryStore::record_write`].
#[derive(Debug, Clone, Copy)]
pub struct Write<'a> {
    /// The file's content before the write.
    pub previous: &'a [u8],
    /// The content the write left (`None`: unknown).
    pub written: Option<&'a [u8]>,
    /// The tool that wrote.
    pub tool: &'a str,
    /// Transaction id shared by the levels of one multi-file write.
    pub txn: Option<&'a str>,
}

/// One file of a multi-file write: see [`HistoryStore::record_txn`].
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    /// The file's real path.
    pub path: &'a Path,
    /// Its write (`txn` is set by the store).
    pub write: Write<'a>,
    /// The write deletes the file (`write.written` is `None`).
    pub deleted: bool,
    /// The write creates the file (`write.previous` is empty and names no content).
    pub created: bool,
}

/// A fresh id for a multi-file write.
pub fn new_txn_id() -> String {
    txn::new_id()
}

/// The newest level of a file, as [`HistoryStore::newest`] returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    pub entry: HistoryEntry,
    /// The content the level restores (hash-checked).
    pub content: Vec<u8>,
    /// Levels below this one.
    pub remaining: usize,
}

/// Where default stores live, in order of preference: `$EDIT_ENGINE_HISTORY_ROOT` alone when set
/// (test suites point it at a folder they remove); else `<state>/edit-engine/history` for each
/// `<state>` of the absolute `$XDG_STATE_HOME`, `$HOME/.local/state` and the passwd home's
/// `.local/state`, then the user's fallback folder in `/tmp` (see
/// [`crate::fs::user_dirs::fallback_dir`]). `env` reads a variable (the process environment in
/// production).
pub fn default_parents(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Vec<PathBuf> {
    let var = |k: &str| env(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(root) = var("EDIT_ENGINE_HISTORY_ROOT") {
        return vec![root];
    }
    let states = [
        var("XDG_STATE_HOME").filter(|p| p.is_absolute()),
        var("HOME")
            .filter(|p| p.is_absolute())
            .map(|h| h.join(".local/state")),
        crate::fs::user_dirs::owned_home().map(|h| h.join(".local/state")),
    ];
    let mut out: Vec<PathBuf> = Vec::new();
    for state in states.into_iter().flatten() {
        let parent = state.join("edit-engine").join("history");
        if !out.contains(&parent) {
            out.push(parent);
        }
    }
    out.push(crate::fs::user_dirs::fallback_dir("edit-engine-history"));
    out
}

/// The preferred place of default stores (the first of [`default_parents`]).
pub fn default_parent(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    default_parents(env).into_iter().next()
}

/// Contents from this size on are named on two threads at once (see [`hash_pair`]).
pub const PARALLEL_NAMES_FROM: usize = 1 << 20;

/// Whether naming these contents is likely to need a hash: no content of the same length is
/// remembered for one of them (see [`names`]).
pub fn names_likely_hashed(previous: &[u8], written: &[u8]) -> bool {
    !names::has_length(previous.len()) || !names::has_length(written.len())
}

/// The blob names of a write's previous and written contents, as a level records them.
pub type ContentNames = (String, Option<String>);

/// The names of a write's contents (see [`hash_pair`]), for a level readied ahead of its
/// recording ([`HistoryStore::record_write_named`]).
pub fn content_names(previous: &[u8], written: Option<&[u8]>) -> ContentNames {
    hash_pair(previous, written)
}

/// The names of a write's previous and written contents (see [`names`]); when both are large
/// and one is likely to need hashing, the previous one is named on a scoped thread while this
/// one names the written one (comparisons with remembered contents are left on this thread).
fn hash_pair(previous: &[u8], written: Option<&[u8]>) -> (String, Option<String>) {
    let Some(written) = written.filter(|w| {
        w.len().min(previous.len()) >= PARALLEL_NAMES_FROM && names_likely_hashed(previous, w)
    }) else {
        return (names::name_of(previous), written.map(names::name_of));
    };
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("edit-engine-name".into())
            .spawn_scoped(scope, || names::name_of(previous));
        let written = names::name_of(written);
        let previous = match spawned {
            Ok(thread) => thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => names::name_of(previous),
        };
        (previous, Some(written))
    })
}

/// The blob name of `bytes` (their BLAKE3 hash, see [`hash_hex`]), from memory when the same
/// bytes were named recently.
pub fn content_name(bytes: &[u8]) -> String {
    names::name_of(bytes)
}

/// BLAKE3 of `bytes` as 64 lowercase hex digits (a blob's name).
pub(crate) fn hash_hex(bytes: &[u8]) -> String {
    hex(blake3::hash(bytes).as_bytes())
}

/// True for a valid blob name: 64 lowercase hex digits.
pub(crate) fn is_blob_name(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `bytes` as lowercase hex digits, two per byte (one allocation: names and keys are made on
/// every write).
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

#[cfg(test)]
mod format_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod trust_tests;
