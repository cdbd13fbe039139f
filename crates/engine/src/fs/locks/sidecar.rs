//! The cross-process half of [`super::lock_path`]: `flock` on a per-path sidecar file.
use sha2::{Digest, Sha256};
use std::fs::File;
use std::path::{Path, PathBuf};

/// The directory holding the sidecar lock files of this user.
pub fn lock_dir() -> PathBuf {
    #[cfg(unix)]
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    #[cfg(not(unix))]
    let uid = 0;
    std::env::temp_dir().join(format!(".edit-engine-locks-{uid}"))
}

/// Opens the sidecar for `real_path` and blocks until it holds an exclusive `flock` on it.
/// `None` when the lock directory or file is unusable (locking is then in-process only).
#[cfg(unix)]
pub(super) fn lock(real_path: &Path) -> Option<File> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    let dir = private_dir()?;
    let digest = Sha256::digest(real_path.as_os_str().as_bytes());
    let name: String = digest.iter().take(20).map(|b| format!("{b:02x}")).collect();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(dir.join(format!("{name}.lock")))
        .ok()?;
    loop {
        // SAFETY: flock on a descriptor we own; no memory is passed.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Some(file);
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
}

#[cfg(not(unix))]
pub(super) fn lock(_real_path: &Path) -> Option<File> {
    None
}

/// The lock directory, created 0o700 if missing; `None` unless it is a directory (not a symlink)
/// owned by the effective user.
#[cfg(unix)]
fn private_dir() -> Option<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let dir = lock_dir();
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    // SAFETY: geteuid has no preconditions.
    let ours = meta.uid() == unsafe { libc::geteuid() };
    (meta.is_dir() && ours).then_some(dir)
}
