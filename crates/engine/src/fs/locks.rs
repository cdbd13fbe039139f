//! Per-file locks keyed by real path, spanning read-modify-write: an in-process mutex plus a
//! cross-process advisory `flock`.
//!
//! The in-process map holds one entry per path that is locked or waited on; the last holder to
//! release a path removes its entry, so the map never grows past the number of paths in use.
//!
//! Across processes, the holder also takes an exclusive `flock` on a lock file in a per-user
//! private directory (see [`sidecar`]; never in the user's tree), kept after use and collected
//! in the background. If that lock cannot be had, the
//! write is refused ([`LockError::Unavailable`]): it never silently degrades to in-process only.
//!
//! Every wait is bounded: when one holder keeps the lock for a whole timeout (default
//! [`DEFAULT_LOCK_TIMEOUT`], the `lockTimeoutMs` option) the wait ends in [`LockError::TimedOut`].
//! So a stopped process holding a lock delays an edit of that file by the timeout at most. Within
//! this process, a wait behind calls that each take the lock in turn starts its timeout again at
//! each hand-over: many calls queued on one file all land, however long the queue.
use parking_lot::lock_api::{RawMutex as _, RawMutexTimed as _};
use parking_lot::{Mutex, RawMutex};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

mod sidecar;
pub(crate) use sidecar::open_sidecar;
pub use sidecar::{lock_dir, sidecar_path};

/// Default longest wait for a file's lock.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a file's lock was not taken (nothing was written).
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another call (this process) or another process held the lock for the whole wait.
    #[error("another {holder} held its edit lock for the whole {waited_ms} ms wait")]
    TimedOut {
        holder: &'static str,
        waited_ms: u64,
    },
    /// The cross-process lock directory cannot be used.
    #[error(
        "cross-process locking is unavailable: the lock directory {dir} cannot be used ({reason})"
    )]
    Unavailable { dir: String, reason: String },
    /// The process (or the system) has no file descriptor left to open the lock file.
    #[error("its lock file cannot be opened: {0}")]
    NoDescriptor(std::io::Error),
}

/// One path's in-process lock, and how many times it was taken (a waiter sees hand-overs).
struct Slot {
    mutex: RawMutex,
    taken: AtomicU64,
}

type Entry = Arc<Slot>;

static LOCKS: LazyLock<Mutex<HashMap<PathBuf, Entry>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Held for the duration of one read-modify-write; released on drop.
pub struct FileLock {
    path: PathBuf,
    /// Holds the cross-process `flock` while open (released on close).
    sidecar: Option<std::fs::File>,
    /// The in-process lock, held (unlocked on drop).
    held: Option<Entry>,
}

/// Waits (at most `timeout`) until this thread holds the lock for `real_path`, in this process
/// and (via the sidecar `flock`) among all processes using this engine. Entries for unlocked
/// paths are freed.
pub fn lock_path(real_path: &Path, timeout: Duration) -> Result<FileLock, LockError> {
    let waited_ms = timeout.as_millis() as u64;
    let entry = {
        let mut map = LOCKS.lock();
        Arc::clone(map.entry(real_path.to_path_buf()).or_insert_with(|| {
            Arc::new(Slot {
                mutex: RawMutex::INIT,
                taken: AtomicU64::new(0),
            })
        }))
    };
    let mut lock = FileLock {
        path: real_path.to_path_buf(),
        sidecar: None,
        held: None,
    };
    if !take_in_process(&entry, timeout) {
        drop(entry);
        let holder = "call in this process";
        return Err(LockError::TimedOut { holder, waited_ms });
    }
    lock.held = Some(entry);
    match sidecar::lock(real_path, Instant::now() + timeout) {
        Ok(file) => lock.sidecar = Some(file),
        Err(sidecar::SidecarError::TimedOut) => {
            let holder = "process";
            return Err(LockError::TimedOut { holder, waited_ms });
        }
        Err(sidecar::SidecarError::NoDescriptor(e)) => return Err(LockError::NoDescriptor(e)),
        Err(sidecar::SidecarError::Unavailable { dir, reason }) => {
            let dir = dir.to_string_lossy().into_owned();
            return Err(LockError::Unavailable { dir, reason });
        }
    }
    Ok(lock)
}

/// Takes `slot`'s mutex; false when one holder kept it for a whole `timeout` (each hand-over to
/// another call starts the timeout again).
fn take_in_process(slot: &Slot, timeout: Duration) -> bool {
    let mut seen = slot.taken.load(Ordering::Acquire);
    loop {
        if slot.mutex.try_lock_until(Instant::now() + timeout) {
            slot.taken.fetch_add(1, Ordering::AcqRel);
            return true;
        }
        let now = slot.taken.load(Ordering::Acquire);
        if now == seen {
            return false;
        }
        seen = now;
    }
}

/// Waits at most `timeout` for an exclusive `flock` on `file`: `Ok(false)` when it stayed held
/// by another open file. Polls (sleeps of 1 ms growing to 20 ms), so no thread blocks in the
/// kernel past the deadline.
pub fn flock_within(file: &std::fs::File, timeout: Duration) -> std::io::Result<bool> {
    use std::fs::TryLockError;
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(TryLockError::Error(e)) => return Err(e),
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(false);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
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
        // Closing the lock file releases its `flock`; the file is kept for the next lock.
        let cross_process = self.sidecar.take().is_some();
        let mut map = LOCKS.lock();
        if let Some(slot) = self.held.take() {
            // SAFETY: `held` is set only once this lock took the slot's mutex, and is taken here
            // exactly once.
            unsafe { slot.mutex.unlock() };
        }
        // Clones are only made under the map lock, so a count of 1 (the map's own) means no
        // holder or waiter is left.
        if map
            .get(&self.path)
            .is_some_and(|e| Arc::strong_count(e) == 1)
        {
            map.remove(&self.path);
        }
        drop(map);
        if cross_process {
            sidecar::note_release();
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

#[cfg(test)]
mod tests;
