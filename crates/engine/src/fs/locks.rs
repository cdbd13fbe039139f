//! Per-file locks keyed by real path, spanning read-modify-write: an in-process mutex plus a
//! cross-process advisory `flock`.
//!
//! The in-process map holds one entry per path that is locked or waited on; the last holder to
//! release a path removes its entry, so the map never grows past the number of paths in use.
//!
//! Across processes, the holder also takes an exclusive `flock` on a sidecar file
//! `<os temp>/.edit-engine-locks-<uid>/<sha256(real path)>.lock` (never in the user's tree). The
//! directory is private (0o700) and must be a real directory owned by us; if it cannot be used,
//! locking degrades to in-process only. Sidecar files are empty and never deleted (deleting a lock
//! file races with processes that already opened it); one exists per path ever locked.
use parking_lot::{Mutex, RawMutex};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

mod sidecar;
pub use sidecar::lock_dir;

type Entry = Arc<Mutex<()>>;

static LOCKS: LazyLock<Mutex<HashMap<PathBuf, Entry>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Held for the duration of one read-modify-write; released on drop.
pub struct FileLock {
    path: PathBuf,
    /// Holds the cross-process `flock` while open (released on close).
    sidecar: Option<std::fs::File>,
    guard: Option<parking_lot::ArcMutexGuard<RawMutex, ()>>,
}

/// Blocks until this thread holds the lock for `real_path`, in this process and (via the sidecar
/// `flock`) among all processes using this engine. Entries for unlocked paths are freed.
pub fn lock_path(real_path: &Path) -> FileLock {
    let entry = {
        let mut map = LOCKS.lock();
        Arc::clone(map.entry(real_path.to_path_buf()).or_default())
    };
    let guard = entry.lock_arc();
    drop(entry);
    let sidecar = sidecar::lock(real_path);
    FileLock {
        path: real_path.to_path_buf(),
        sidecar,
        guard: Some(guard),
    }
}

impl FileLock {
    /// The real path this lock is held for.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        drop(self.sidecar.take());
        let mut map = LOCKS.lock();
        drop(self.guard.take());
        // Clones are only made under the map lock, so a count of 1 (the map's own) means no
        // holder or waiter is left.
        if map
            .get(&self.path)
            .is_some_and(|e| Arc::strong_count(e) == 1)
        {
            map.remove(&self.path);
        }
    }
}

impl std::fmt::Debug for FileLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileLock")
            .field("path", &self.path)
            .field("cross_process", &self.sidecar.is_some())
            .finish()
    }
}

/// Number of paths currently in the lock map (locked or waited on).
pub fn live_entries() -> usize {
    LOCKS.lock().len()
}

#[cfg(test)]
mod tests;
