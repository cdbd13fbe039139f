//! Per-file in-process locks keyed by real path, spanning read-modify-write.
use std::path::Path;

/// Held for the duration of one read-modify-write; released on drop.
pub struct FileLock {
    _todo: (),
}

/// Blocks until this thread holds the lock for `real_path`. Entries for unlocked paths are freed.
pub fn lock_path(real_path: &Path) -> FileLock {
    let _ = real_path;
    todo!("fs::locks::lock_path")
}
