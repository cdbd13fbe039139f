//! Per-user folders chosen the same way by every per-user store (the lock folder, the default
//! undo history): a preferred place under the user's home, else a fixed folder in `/tmp`.

use std::path::PathBuf;

/// `/tmp/<prefix>-<uid>`: the user's last-resort folder for `prefix`. A fixed path (not
/// `TMPDIR`), so every process of the user agrees on it; whoever uses it must refuse it unless
/// it is a directory owned by this user and not writable by others, as another user may have
/// created it first.
pub fn fallback_dir(prefix: &str) -> PathBuf {
    PathBuf::from(format!("/tmp/{prefix}-{}", crate::sys::effective_uid()))
}

/// The user's home from the user database, when it is a directory owned by this user.
pub fn owned_home() -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let uid = crate::sys::effective_uid();
    super::user_home()
        .filter(|h| std::fs::symlink_metadata(h).is_ok_and(|m| m.is_dir() && m.uid() == uid))
}
