//! The tools' side of the undo store ([`crate::history`]): which store a tool instance
//! uses, and recording the previous content of every file a tool writes.
//!
//! Contracts:
//! - Every write by a tool records its level (keyed by real path) ahead of the write, while the
//!   file's lock is held, so levels follow write order (see [`crate::tools::write_frame`]): the
//!   previous content's blob and both contents' hashes; the written content's blob follows
//!   once the write has landed (a large one on the background thread, see [`Pending`]).
//! - Creating a file that did not exist records an empty level marked [`NEW_FILE_MARK`]; undoing it
//!   removes the file.
//! - A write whose level cannot be recorded does not land: with the history on, a store that
//!   cannot be opened or cannot record (disk full, swapped folders, its lock not had within the
//!   tool's `lockTimeoutMs`) refuses the write ([`FsError::HistoryCannotRecord`]); what was
//!   recorded of it is taken back, and the file's earlier levels are kept.
//! - The store is opened lazily, on the first write or undo of a tool instance (a large write
//!   opens it, and names both contents, on a thread beside its temp file: [`History::prepare`]),
//!   and held open from then on (see [`crate::history::HistoryStore::open`]). A default store
//!   removed by a collection (its path gone) is opened afresh at the instance's next use, and a
//!   write that finds it removed mid-operation is recorded in the fresh one; a store moved or
//!   replaced by anything else stays refused.
//! - A write recorded in a default store keeps the store's "last used" current and may start a
//!   background collection of the default stores (see [`collector::note_use`]), counting only
//!   the blobs it added: a content the store holds already does not bring a collection closer.

use crate::fs::FsError;
use crate::history::{
    collector, retention, ContentNames, HistoryError, HistoryStore, Member, Write,
};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
    /// Both contents' names when they were named ahead ([`History::prepare`] of exactly these
    /// contents); `None`: named while recording.
    pub names: Option<&'a ContentNames>,
}

/// The blob of a written content, still to be stored once the write has landed: the level is
/// complete without it (it lets a refused undo show what changed, and serves as the next
/// level's previous content). A large one is written on the background thread once the write
/// has landed, and so is every one of a strict write ([`Pending::finish_in_background`]); a small
/// one (at most [`BACKGROUND_BLOB_FROM`] bytes less one) of a standard write before its fsync and
/// rename ([`Pending::finish_if_small`]; a write that then fails leaves it unreferenced, and
/// eviction takes unreferenced blobs first), so a call that returns has left no work in the
/// store behind it in the common case.
#[derive(Debug)]
pub struct Pending {
    store: HistoryStore,
    name: String,
}

/// Written contents from this size on are stored on the background thread once their write has
/// landed: edits leaving 16-100 KB of new content returned 1-7% sooner than with the blob
/// written before the fsync; a 1 KB one 1-6% later (the background thread's wake-up costs more).
pub const BACKGROUND_BLOB_FROM: usize = 16 << 10;

impl Pending {
    /// Stores `written` now when it is small (below [`BACKGROUND_BLOB_FROM`]); a large one is
    /// handed back, to be finished once the write has landed (best effort, as [`Self::finish`]).
    pub fn finish_if_small(self, written: &[u8]) -> Option<Pending> {
        if written.len() >= BACKGROUND_BLOB_FROM {
            return Some(self);
        }
        self.finish(written);
        None
    }

    /// Stores `written` (the bytes the landed write left): see [`Pending`]. On the background
    /// thread it runs inline when the thread's queue is full; the bytes it takes are the copy the
    /// recent names keep of them (see [`crate::history::names`]) when they still hold it, so the
    /// caller's thread copies nothing. Best effort: a failure only loses the diff of a refusal.
    pub fn finish(self, written: &[u8]) {
        if written.len() < BACKGROUND_BLOB_FROM {
            return drop(self.store.store_blob(&self.name, written));
        }
        self.finish_in_background(written);
    }

    /// [`Self::finish`] on the background thread whatever the size (inline when its queue is
    /// full). A strict write stores its written content this way once it has landed: it waits
    /// for every sync queued before its rename, and this blob is no part of the undo level.
    pub fn finish_in_background(self, written: &[u8]) {
        let written = crate::history::names::kept(&self.name)
            .filter(|kept| kept.len() == written.len())
            .unwrap_or_else(|| Arc::from(written));
        let job = move || drop(self.store.store_blob(&self.name, &written));
        crate::fs::background::submit_or_run(crate::fs::background::Job::Task(Box::new(job)));
    }
}

/// One file of a multi-file write, as a tool hands it to [`History::record_txn`].
#[derive(Debug, Clone, Copy)]
pub struct TxnFile<'a> {
    /// The file's real path.
    pub path: &'a Path,
    /// Its content before the write; `None` when the write creates it.
    pub previous: Option<&'a [u8]>,
    /// The content the write leaves; `None` when it deletes the file.
    pub written: Option<&'a [u8]>,
}

/// A tool instance's undo store, opened on first use.
#[derive(Debug, Clone)]
pub struct History {
    spec: Spec,
    lock_timeout: Duration,
    /// The store once opened (shared by the instance's clones); a failed open is tried again at
    /// the next use (the disk may have room again, the folder may have been fixed).
    store: Arc<Mutex<Option<HistoryStore>>>,
    /// Cap on all default stores together (`historyMaxBytes`; `None`: see [`retention::total_cap`]).
    total_cap: Option<u64>,
    /// The session every level of this instance names (see [`crate::history::checkpoints`]).
    session: String,
}

/// Why a tool instance has no store: the message for undo, and the refusal of a write.
#[derive(Debug, Clone)]
struct Unopened {
    message: String,
    /// The store's path and why it cannot record (`None`: the history is off).
    refusal: Option<(String, String)>,
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
            lock_timeout: crate::history::DEFAULT_LOCK_TIMEOUT,
            store: Arc::new(Mutex::new(None)),
            total_cap: None,
            session: crate::history::checkpoints::process_session().to_string(),
        }
    }

    /// Sets the session (the `sessionId` option; `None` or blank: this process's own, see
    /// [`crate::history::checkpoints::process_session`]); a longer id than
    /// [`crate::history::checkpoints::MAX_SESSION_CHARS`] is cut.
    pub fn with_session(mut self, session: Option<&str>) -> Self {
        if let Some(id) = session.filter(|s| !s.trim().is_empty()) {
            use crate::history::checkpoints::MAX_SESSION_CHARS;
            self.session = id.chars().take(MAX_SESSION_CHARS).collect();
        }
        self
    }

    /// The session every level of this instance names.
    pub fn session(&self) -> &str {
        &self.session
    }

    /// Sets the cap on all default stores together (see [`retention`]).
    pub fn with_total_cap(mut self, total_cap: Option<u64>) -> Self {
        self.total_cap = total_cap;
        self
    }

    /// Sets the longest wait for the store's lock (the tool's `lockTimeoutMs`).
    pub fn with_lock_timeout(mut self, timeout: Duration) -> Self {
        self.lock_timeout = timeout;
        self
    }

    /// The store (a handle sharing the instance's open store), or why there is none (history
    /// off, or the directory is unusable).
    pub fn store(&self) -> Result<HistoryStore, String> {
        self.opened().map_err(|u| u.message)
    }

    /// The held store, or a fresh one when there is none yet or a collection removed the held
    /// default store ([`HistoryStore::gone`]; one moved away is found by its lock and opened
    /// afresh by [`Self::run_in`]).
    fn opened(&self) -> Result<HistoryStore, Unopened> {
        let mut held = self.store.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(store) = held.as_ref() {
            let collected = self.is_default() && store.gone();
            if !collected {
                return Ok(store.clone());
            }
        }
        let store = match &self.spec {
            Spec::Off => {
                return Err(Unopened {
                    message: "undo history is turned off for this tool (option history: false)"
                        .to_string(),
                    refusal: None,
                })
            }
            Spec::Default(root) => HistoryStore::open_default(root),
            Spec::Dir(dir) => HistoryStore::open(dir.clone()),
        };
        let store = store
            .map(|s| {
                s.with_max_bytes(self.store_cap())
                    .with_lock_timeout(self.lock_timeout)
                    .with_session(Some(self.session.as_str()))
            })
            .map_err(|e| Unopened {
                message: e.to_string(),
                refusal: Some((self.configured_path(), self.reason(&e))),
            })?;
        *held = Some(store.clone());
        Ok(store)
    }

    /// The size cap of this instance's store: for a default store a share of the cap on all of
    /// them (see [`retention::store_cap`]), else the store default.
    fn store_cap(&self) -> u64 {
        match self.spec {
            Spec::Default(_) => retention::store_cap(self.total_cap()),
            _ => crate::history::DEFAULT_MAX_BYTES,
        }
    }

    fn is_default(&self) -> bool {
        matches!(self.spec, Spec::Default(_))
    }

    /// The cap on all default stores together in effect.
    fn total_cap(&self) -> u64 {
        retention::total_cap(self.total_cap)
    }

    /// Runs `op` on `store`; when it fails because a collection removed the (default) store
    /// meanwhile, opens a fresh store at its path, holds it for the instance and runs `op` once
    /// more. Returns the store `op` last ran on, and its result.
    fn run_in<T>(
        &self,
        store: HistoryStore,
        op: impl Fn(&HistoryStore) -> Result<T, HistoryError>,
    ) -> (HistoryStore, Result<T, HistoryError>) {
        let result = op(&store);
        if result.is_ok() || !self.is_default() {
            return (store, result);
        }
        match store.reopen_if_removed() {
            Some(Ok(fresh)) => {
                let mut held = self.store.lock().unwrap_or_else(|e| e.into_inner());
                *held = Some(fresh.clone());
                drop(held);
                let result = op(&fresh);
                (fresh, result)
            }
            Some(Err(error)) => (store, Err(error)),
            None => (store, result),
        }
    }

    /// After a write recorded in a default store: keeps its "last used" current and lets a due
    /// collection start in the background (see [`collector::note_use`]). Nothing for other
    /// stores. The store grew by what it added since `added_before` (its
    /// [`HistoryStore::added_bytes`] before recording; a content already stored adds nothing)
    /// plus the `pending` written contents still to be stored, each with a block for its level.
    fn note_use(&self, store: &HistoryStore, added_before: u64, pending: &[Option<&[u8]>]) {
        let (Spec::Default(root), Some(parent)) = (&self.spec, store.dir().parent()) else {
            return;
        };
        let blocks = |len: usize| (len as u64).div_ceil(4096) * 4096;
        let written = store.added_bytes().saturating_sub(added_before)
            + pending
                .iter()
                .map(|c| c.map_or(0, <[u8]>::len))
                .map(|len| blocks(len) + 4096)
                .sum::<u64>();
        collector::note_use(parent, store, root, self.total_cap(), written);
    }

    /// The store's configured path (for a store that could not be opened).
    fn configured_path(&self) -> String {
        let path = match &self.spec {
            Spec::Dir(dir) => Some(dir.clone()),
            Spec::Default(root) => HistoryStore::default_dir(root).ok(),
            Spec::Off => None,
        };
        path.map_or_else(
            || "the per-user state directory".to_string(),
            |p| p.to_string_lossy().into_owned(),
        )
    }

    /// Why the store cannot record; a misconfigured `historyDir` is named as such.
    fn reason(&self, error: &HistoryError) -> String {
        let configured = matches!(self.spec, Spec::Dir(_))
            && matches!(
                error,
                HistoryError::Unsafe { .. } | HistoryError::UnsafeParent { .. }
            );
        match configured {
            true => format!("the historyDir option: {}", error.reason()),
            false => error.reason(),
        }
    }

    /// The store, or the refusal of a write when the history is on and no store can record.
    fn store_for_write(&self) -> Result<Option<HistoryStore>, FsError> {
        match self.opened() {
            Ok(store) => Ok(Some(store)),
            Err(Unopened { refusal: None, .. }) => Ok(None),
            Err(Unopened {
                refusal: Some((path, reason)),
                ..
            }) => Err(FsError::HistoryCannotRecord { path, reason }),
        }
    }

    fn cannot_record(&self, store: &HistoryStore, error: &HistoryError) -> FsError {
        FsError::HistoryCannotRecord {
            path: store.dir().to_string_lossy().into_owned(),
            reason: self.reason(error),
        }
    }

    /// True unless the history is turned off.
    pub fn enabled(&self) -> bool {
        !matches!(self.spec, Spec::Off)
    }

    /// Readies the level of a write of `written` over `previous` (`None`: a new file) before it
    /// is due, on a thread beside the write: opens the store while another thread names both
    /// contents (two at once when both are large and to be hashed, see
    /// [`crate::history::content_names`]), for [`Recorded::names`]. `None` with the history off
    /// or a store that cannot be opened (the recording tries again and refuses the write).
    pub fn prepare(&self, previous: Option<&[u8]>, written: &[u8]) -> Option<ContentNames> {
        std::thread::scope(|scope| {
            let names =
                move || crate::history::content_names(previous.unwrap_or(b""), Some(written));
            let naming = std::thread::Builder::new()
                .name("edit-engine-name".into())
                .spawn_scoped(scope, names);
            let opened = self.opened().is_ok();
            let names = match naming {
                Ok(thread) => thread.join().ok()?,
                Err(_) => names(),
            };
            opened.then_some(names)
        })
    }

    /// Whether readying a write's level ahead ([`Self::prepare`]) would save the recording work
    /// on the writer's path: the store is not open yet, or a content is likely to need hashing.
    pub fn worth_preparing(&self, previous: Option<&[u8]>, written: &[u8]) -> bool {
        let open = self
            .store
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some();
        !open || crate::history::names_likely_hashed(previous.unwrap_or(b""), written)
    }

    /// The store's size cap when a write replacing `previous_len` bytes is over it, so recording
    /// it clears the file's history (see [`crate::history::fits_cap`]); `None` otherwise and with
    /// the history off. Free for a content up to [`retention::MIN_STORE_CAP`]; above it, one look
    /// at the held store (none held yet: at the cap it will have, without opening it).
    pub fn over_cap(&self, previous_len: usize) -> Option<u64> {
        if previous_len as u64 <= retention::MIN_STORE_CAP || !self.enabled() {
            return None;
        }
        let held = self.store.lock().unwrap_or_else(|e| e.into_inner());
        let cap = held.as_ref().map(HistoryStore::max_bytes);
        drop(held);
        let cap = cap.unwrap_or_else(|| self.store_cap());
        (!crate::history::fits_cap(previous_len, cap)).then_some(cap)
    }

    /// Holds `store` as this instance's store (a test's store with a small cap).
    #[cfg(test)]
    pub fn hold(&self, store: HistoryStore) {
        *self.store.lock().unwrap_or_else(|e| e.into_inner()) = Some(store);
    }

    /// Records the level of a write of `real_path` (what it held before, what the write will
    /// leave) ahead of the write. `Ok` holds what is left to do once the write has landed (see
    /// [`Pending`]); `Err` refuses the write: the level could not be recorded (nothing of it
    /// is left in the store, and the file's earlier levels are kept).
    pub fn record(&self, real_path: &Path, write: &Recorded) -> Result<Option<Pending>, FsError> {
        let Some(store) = self.store_for_write()? else {
            return Ok(None);
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
        let added_before = store.added_bytes();
        let (store, recorded) = self.run_in(store, |s| {
            s.record_write_named(real_path, &level, write.names.cloned())
        });
        if let Ok(name) = &recorded {
            let pending = name.as_ref().map(|_| write.written);
            self.note_use(&store, added_before, &[pending]);
        }
        match recorded {
            Ok(name) => Ok(name.map(|name| Pending {
                store: store.clone(),
                name,
            })),
            Err(error) => Err(self.cannot_record(&store, &error)),
        }
    }

    /// Records a multi-file write as one level (one transaction, see
    /// [`HistoryStore::record_txn`]) ahead of its writes; `Ok` holds, per file, what is left to do
    /// once its write has landed; `Err` refuses the change (what was recorded of it is taken
    /// back, best effort, as [`Self::retract_txn`] does).
    pub fn record_txn(
        &self,
        id: &str,
        files: &[TxnFile],
        tool: &str,
    ) -> Result<Vec<Option<Pending>>, FsError> {
        let Some(store) = self.store_for_write()? else {
            return Ok(Vec::new());
        };
        let created = format!("{tool}{NEW_FILE_MARK}");
        let members: Vec<Member> = files
            .iter()
            .map(|f| Member {
                path: f.path,
                write: Write {
                    previous: f.previous.unwrap_or(b""),
                    written: f.written,
                    tool: if f.previous.is_some() { tool } else { &created },
                    txn: Some(id),
                },
                deleted: f.written.is_none(),
                created: f.previous.is_none(),
            })
            .collect();
        let added_before = store.added_bytes();
        let (store, recorded) = self.run_in(store, |s| s.record_txn(id, &members));
        if let Ok(names) = &recorded {
            let pending: Vec<_> = (names.iter().zip(files))
                .map(|(name, f)| name.as_ref().and(f.written))
                .collect();
            self.note_use(&store, added_before, &pending);
        }
        match recorded {
            Ok(names) => Ok(names
                .into_iter()
                .map(|n| {
                    n.map(|name| Pending {
                        store: store.clone(),
                        name,
                    })
                })
                .collect()),
            Err(error) => {
                let paths: Vec<&Path> = files.iter().map(|f| f.path).collect();
                self.retract_txn(id, &paths);
                Err(self.cannot_record(&store, &error))
            }
        }
    }

    /// Takes back a multi-file level whose writes failed and were put back (the caller holds
    /// every file's lock), as an undo does: record marked undone, levels removed, record removed
    /// (best effort).
    pub fn retract_txn(&self, id: &str, paths: &[&Path]) {
        let Ok(store) = self.store() else { return };
        let _ = store.mark_txn_undone(id);
        for path in paths {
            if let Ok(levels) = store.levels(path) {
                if let Some(last) = levels.last().filter(|l| l.txn.as_deref() == Some(id)) {
                    let _ = store.drop_newest(path, last);
                }
            }
        }
        let _ = store.forget_txn(id);
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

    /// Forgets every level of `real_path`, for a write whose previous content is unknown: a
    /// later undo then finds no level instead of skipping one. `Err` refuses the write (with the
    /// history on, the store cannot be reached, so it would be skipped).
    pub fn forget(&self, real_path: &Path) -> Result<(), FsError> {
        match self.store_for_write()? {
            Some(store) => match self.run_in(store, |s| s.clear(real_path)) {
                (store, Err(e)) => Err(self.cannot_record(&store, &e)),
                (_, Ok(())) => Ok(()),
            },
            None => Ok(()),
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

    /// A committed write frame records its previous bytes once it ends, holding the file's lock
    /// until then: the next frame of the file sees the level already recorded.
    #[test]
    fn a_committed_frame_records_the_previous_content_before_releasing_the_lock() {
        let (_hist, _ws, ctx, path) = with_history("v1\r\n");
        for (i, next) in ["v2\n", "v3\n", "v4\n"].into_iter().enumerate() {
            let frame = ctx.open_for_tool(&path, "test").unwrap();
            let levels = ctx.history.store().unwrap().levels(&path.real).unwrap();
            assert_eq!(levels.len(), i, "the previous frame's level is in place");
            frame.commit(next).unwrap();
        }
        let _wait = ctx.open_for_tool(&path, "test").unwrap();
        let store = ctx.history.store().unwrap();
        assert_eq!(store.levels(&path.real).unwrap().len(), 3);
        let newest = store.newest(&path.real).unwrap().unwrap();
        assert_eq!(newest.content, b"v3\r\n");
    }

    /// No commit (or a failed one), or history off: nothing is recorded and the lock is released.
    #[test]
    fn frames_without_a_commit_or_without_history_record_nothing() {
        let (_hist, ws, ctx, path) = with_history("v1");
        drop(ctx.open_for_tool(&path, "test").unwrap());
        let frame = ctx.open_for_tool(&path, "test").unwrap();
        std::fs::remove_file(ws.path().join("a.txt")).unwrap();
        assert!(frame.commit("v2").is_err());
        drop(frame);
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

    /// A write large enough to have its level readied beside it (store opened, contents named
    /// on another thread) records the same level: both contents' names, the previous content
    /// restorable, and the written content's blob stored once the write has landed.
    #[test]
    fn a_level_readied_beside_the_write_names_both_contents() {
        let line = "let value = compute(1, 2, 3);\n";
        let previous = line.repeat(crate::history::PARALLEL_NAMES_FROM / line.len() + 10);
        let (_hist, ws, ctx, path) = with_history(&previous);
        let written = format!("{previous}tail\n");
        let frame = ctx.open_for_tool(&path, "test").unwrap();
        frame.commit(&written).unwrap();
        drop(frame);
        crate::fs::background::flush();
        let store = ctx.history.store().unwrap();
        let level = store.levels(&path.real).unwrap().pop().unwrap();
        assert_eq!(level.blake3, crate::history::hash_hex(previous.as_bytes()));
        let written_name = crate::history::hash_hex(written.as_bytes());
        assert_eq!(level.written.as_deref(), Some(written_name.as_str()));
        assert_eq!(store.written_content(&level).unwrap(), written.as_bytes());
        assert_eq!(
            store.newest(&path.real).unwrap().unwrap().content,
            previous.as_bytes()
        );
        assert_eq!(
            std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
            written
        );
    }

    /// A standard write stores a small written content's blob before it returns; a large one,
    /// and any of a strict write (which waits for every sync queued before its rename, and that
    /// blob is no part of the level), once it has landed, on the background thread.
    #[test]
    fn only_a_small_standard_write_stores_its_written_content_before_returning() {
        use crate::fs::background::{self, Durability};
        let large = "x".repeat(BACKGROUND_BLOB_FROM);
        let cases = [
            (Durability::Standard, "v2\n", true),
            (Durability::Standard, large.as_str(), false),
            (Durability::Strict, "v2\n", false),
        ];
        for (durability, written, before_returning) in cases {
            let (_hist, _ws, mut ctx, path) = with_history("v1\n");
            ctx.durability = durability;
            let blocked = background::block_task_lane();
            let frame = ctx.open_for_tool(&path, "test").unwrap();
            frame.commit(written).unwrap();
            drop(frame);
            let store = ctx.history.store().unwrap();
            let level = store.levels(&path.real).unwrap().pop().unwrap();
            let on_return = store.written_content(&level);
            drop(blocked);
            background::flush();
            let case = format!("{durability:?}, {} bytes", written.len());
            assert_eq!(on_return.is_some(), before_returning, "{case}");
            assert_eq!(
                store.written_content(&level).unwrap(),
                written.as_bytes(),
                "{case}"
            );
        }
    }

    /// Recording contents the store holds already adds nothing to its growth (what the
    /// background collection of default stores counts).
    #[test]
    fn contents_stored_already_add_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = HistoryStore::open(dir.path().join("h")).unwrap();
        let file = dir.path().join("a.txt");
        let write = |previous: &'static [u8], written: &'static [u8]| crate::history::Write {
            previous,
            written: Some(written),
            tool: "edit",
            txn: None,
        };
        let name = store
            .record_write(&file, &write(b"one\n", b"two\n"))
            .unwrap();
        store.store_blob(&name.unwrap(), b"two\n").unwrap();
        let grown = store.added_bytes();
        assert!(grown >= 2 * 4096, "both blobs counted: {grown}");
        let again = store
            .record_write(&file, &write(b"two\n", b"one\n"))
            .unwrap();
        assert_eq!(again, None, "the written content is stored already");
        assert_eq!(store.added_bytes(), grown);
    }
}
