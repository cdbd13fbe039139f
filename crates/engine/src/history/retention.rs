//! Retention of the default stores (the per-workspace stores under [`super::default_parent`]):
//! what is there, and collection.
//!
//! Collection removes a whole store when its workspace no longer exists, when it has not been
//! used for [`MAX_UNUSED_MS`], and, while the stores together use more than half the total cap,
//! the least recently used ones until they fit in half (the other half is headroom for what is
//! written between two collections and during one, so the total stays under the cap). Sizes are
//! disk use (allocated blocks of every file and folder of a store).
//!
//! A store is removed only while its lock can be taken without waiting (a store in use holds
//! it for every operation): under the lock it is renamed out of the way (a `.trash-` folder in
//! the root, removed at once or by the next collection if this one is killed), so no process
//! ever sees half a store. A tool instance that still holds the removed store open finds its
//! path gone at its next operation and opens a fresh store there (see
//! [`super::HistoryStore::reopen_if_removed`]); a store replaced by anything else is refused. Stores named otherwise than a default store, or not owned by this
//! user, are never touched. Stores chosen by `historyDir` are not under the root: never touched.
use super::store_meta;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Default cap on the disk use of all default stores together (1 GiB).
pub const DEFAULT_TOTAL_CAP: u64 = 1 << 30;
/// A store unused for this long (30 days) is removed.
pub const MAX_UNUSED_MS: u64 = 30 * 24 * 3_600_000;
/// Environment variable overriding the default total cap (bytes).
pub const CAP_ENV: &str = "EDIT_ENGINE_HISTORY_MAX_BYTES";
/// Environment variable overriding the clock of the retention rules (milliseconds since the
/// Unix epoch), so the age rule can be tested.
pub const CLOCK_ENV: &str = "EDIT_ENGINE_HISTORY_NOW_MS";
/// Prefix of a store being removed.
const TRASH_PREFIX: &str = ".trash-";
/// The root's lock file, held by the one collection running.
pub(super) const COLLECT_LOCK: &str = ".collect.lock";

/// The total cap in effect: `option` when given, else [`CAP_ENV`] when it holds a number, else
/// [`DEFAULT_TOTAL_CAP`].
pub fn total_cap(option: Option<u64>) -> u64 {
    option
        .or_else(|| std::env::var(CAP_ENV).ok()?.trim().parse().ok())
        .unwrap_or(DEFAULT_TOTAL_CAP)
}

/// The size cap of one default store under total cap `total`: a quarter of it, at most the
/// store default (so a single store never outgrows the headroom).
pub fn store_cap(total: u64) -> u64 {
    (total / 4).clamp(MIN_STORE_CAP, super::DEFAULT_MAX_BYTES)
}

/// The smallest size cap a tool's store has (see [`store_cap`]).
pub const MIN_STORE_CAP: u64 = 4096;

/// Now for the retention rules: [`CLOCK_ENV`] when set to a number, else the system clock.
pub fn now_ms() -> u64 {
    std::env::var(CLOCK_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(super::now_ms)
}

/// One default store as collection sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreInfo {
    pub dir: PathBuf,
    /// Its workspace (from its metadata); `None` when unknown (a store older than metadata).
    pub workspace: Option<PathBuf>,
    /// Whether the workspace folder exists; `None` when the workspace is unknown.
    pub workspace_exists: Option<bool>,
    /// Last use (ms since the epoch): the later of the metadata's and its folders' change times.
    pub last_used_ms: u64,
    /// Disk use in bytes.
    pub bytes: u64,
}

/// Why collection removes a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    WorkspaceGone,
    Unused,
    OverCap,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Reason::WorkspaceGone => "its workspace no longer exists",
            Reason::Unused => "unused for 30 days",
            Reason::OverCap => "least recently used while over the cap",
        })
    }
}

/// True for a default store's folder name (see [`super::HistoryStore::default_dir`]).
fn is_store_name(name: &str) -> bool {
    name.len() == 32 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Every default store in `root` owned by this user, least recently used first.
pub fn list(root: &Path) -> Vec<StoreInfo> {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut stores: Vec<StoreInfo> = entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(is_store_name))
        .filter(|e| {
            e.metadata()
                .is_ok_and(|m| m.is_dir() && m.uid() == crate::sys::effective_uid())
        })
        .map(|e| describe(&e.path()))
        .collect();
    stores.sort_by_key(|s| (s.last_used_ms, s.dir.clone()));
    stores
}

/// What collection needs to know of the store in `dir`.
fn describe(dir: &Path) -> StoreInfo {
    let meta = store_meta::read(dir);
    let changed = ["", "objects", "index"]
        .iter()
        .filter_map(|sub| {
            std::fs::symlink_metadata(dir.join(sub))
                .ok()?
                .modified()
                .ok()
        })
        .filter_map(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as u64)
        .max()
        .unwrap_or(0);
    let workspace_exists = meta
        .workspace
        .as_ref()
        .map(|w| std::fs::metadata(w).is_ok_and(|m| m.is_dir()));
    StoreInfo {
        dir: dir.to_path_buf(),
        workspace: meta.workspace,
        workspace_exists,
        last_used_ms: meta.last_used_ms.max(changed),
        bytes: disk_use(dir),
    }
}

/// Disk use of `path` and everything under it (symlinks not followed).
pub fn disk_use(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    let own = meta.blocks() * 512;
    if !meta.is_dir() {
        return own;
    }
    let inner: u64 = std::fs::read_dir(path)
        .map(|entries| entries.flatten().map(|e| disk_use(&e.path())).sum())
        .unwrap_or(0);
    own + inner
}

/// Which of `stores` (least recently used first, as [`list`] returns them) collection removes
/// at `now` under total cap `cap`, with why (see the module doc).
pub fn plan(stores: &[StoreInfo], cap: u64, now: u64) -> Vec<(usize, Reason)> {
    let mut chosen = Vec::new();
    let mut kept = 0u64;
    for (i, s) in stores.iter().enumerate() {
        if s.workspace_exists == Some(false) {
            chosen.push((i, Reason::WorkspaceGone));
        } else if now.saturating_sub(s.last_used_ms) > MAX_UNUSED_MS {
            chosen.push((i, Reason::Unused));
        } else {
            kept += s.bytes;
        }
    }
    let fit = cap / 2;
    let mut remaining: Vec<usize> = (0..stores.len())
        .filter(|i| !chosen.iter().any(|(c, _)| c == i))
        .collect();
    remaining.reverse();
    while kept > fit {
        let Some(i) = remaining.pop() else { break };
        kept -= stores[i].bytes;
        chosen.push((i, Reason::OverCap));
    }
    chosen
}

/// What a collection did (or, dry, would do).
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Stores removed, with why.
    pub removed: Vec<(StoreInfo, Reason)>,
    /// Stores due for removal but in use (their lock held): left for a later collection.
    pub busy: Vec<PathBuf>,
    /// Disk use of all stores before and after.
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// Collects the default stores in `root` under total cap `cap` at time `now`; `dry_run` only
/// reports what would be removed. Also clears what a killed collection left. `None` when another
/// collection holds the root's collection lock.
pub fn collect(root: &Path, cap: u64, now: u64, dry_run: bool) -> Option<Outcome> {
    let _lock = if dry_run {
        None
    } else {
        Some(try_lock(&root.join(COLLECT_LOCK))?)
    };
    if !dry_run {
        clear_trash(root);
    }
    let stores = list(root);
    let bytes_before: u64 = stores.iter().map(|s| s.bytes).sum();
    let mut outcome = Outcome {
        bytes_before,
        bytes_after: bytes_before,
        ..Outcome::default()
    };
    for (i, reason) in plan(&stores, cap, now) {
        let store = &stores[i];
        if dry_run || remove_store(root, &store.dir) {
            outcome.bytes_after -= store.bytes;
            outcome.removed.push((store.clone(), reason));
        } else {
            outcome.busy.push(store.dir.clone());
        }
    }
    Some(outcome)
}

/// An exclusive `flock` on `path` (created if missing, no symlink followed) when it can be had
/// without waiting; released when the file is dropped.
pub(super) fn try_lock(path: &Path) -> Option<File> {
    let file = crate::fs::locks::open_sidecar(path).ok()?;
    crate::fs::locks::flock_within(&file, std::time::Duration::ZERO)
        .ok()?
        .then_some(file)
}

/// Removes the store in `dir` (see the module doc); false when its lock is held (or it could
/// not be moved away), leaving it as it is.
pub fn remove_store(root: &Path, dir: &Path) -> bool {
    let Some(lock) = try_lock(&dir.join(".lock")) else {
        return false;
    };
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    let trash = root.join(format!(
        "{TRASH_PREFIX}{name}-{}-{}",
        std::process::id(),
        super::now_ms()
    ));
    let moved = std::fs::rename(dir, &trash).is_ok();
    drop(lock);
    if moved {
        store_meta::forget(dir);
        let _ = std::fs::remove_dir_all(&trash);
    }
    moved
}

/// Removes the `.trash-` folders a killed collection left in `root`.
fn clear_trash(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let trash = e.file_name().to_string_lossy().starts_with(TRASH_PREFIX);
        if trash && e.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

#[cfg(test)]
#[path = "retention_tests.rs"]
mod tests;
