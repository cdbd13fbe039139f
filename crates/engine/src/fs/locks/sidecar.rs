//! The cross-process half of [`super::lock_path`]: `flock` on a per-path sidecar file.
//!
//! The sidecar directory is per-user and private, and its place does not depend on the
//! environment (`TMPDIR`, `HOME`), so every process of a user locks in the same directory:
//! `/run/user/<uid>/edit-engine-locks` when the system provides that private runtime directory,
//! else `<home from the user database>/.local/state/edit-engine/locks` when that home is a
//! directory owned by the user, else `/tmp/edit-engine-locks-<uid>` (a fixed path, not `TMPDIR`;
//! refused, never shared, if another user created it). A holder removes its
//! sidecar before releasing it; a waiter that then gets the `flock` of a removed file sees that the
//! path names another file (or none) and starts over, so no lock file outlives its use.
use sha2::{Digest, Sha256};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Why the cross-process lock could not be had.
#[derive(Debug)]
pub enum SidecarError {
    /// The lock directory cannot be used (the reason says why).
    Unavailable { dir: PathBuf, reason: String },
    /// Another holder kept it past the deadline.
    TimedOut,
    /// No file descriptor was left to open the sidecar (`EMFILE`, `ENFILE`).
    NoDescriptor(std::io::Error),
}

/// The directory holding the sidecar lock files of this user (`None`: no usable place).
pub fn lock_dir() -> Option<PathBuf> {
    use crate::fs::user_dirs::{fallback_dir, owned_home};
    let uid = crate::sys::effective_uid();
    let runtime = PathBuf::from(format!("/run/user/{uid}"));
    if private_owned(&runtime) {
        return Some(runtime.join("edit-engine-locks"));
    }
    Some(match owned_home() {
        Some(h) => h.join(".local/state/edit-engine/locks"),
        None => fallback_dir("edit-engine-locks"),
    })
}

/// Opens the sidecar for `real_path` and waits until `deadline` for an exclusive `flock` on it.
pub(super) fn lock(real_path: &Path, deadline: Instant) -> Result<File, SidecarError> {
    let dir = lock_dir().ok_or_else(|| SidecarError::Unavailable {
        dir: PathBuf::from("~/.local/state/edit-engine/locks"),
        reason: "this user has no home directory in the user database".into(),
    })?;
    lock_in(&dir, real_path, deadline)
}

/// [`lock`] with the sidecar directory `dir` (created 0o700 if missing).
pub(super) fn lock_in(
    dir: &Path,
    real_path: &Path,
    deadline: Instant,
) -> Result<File, SidecarError> {
    let unavailable = |reason: String| SidecarError::Unavailable {
        dir: dir.to_path_buf(),
        reason,
    };
    ensure_private_dir(dir).map_err(unavailable)?;
    let path = sidecar_in(dir, real_path);
    loop {
        let file = open_sidecar(&path).map_err(|e| match e.raw_os_error() {
            Some(libc::EMFILE | libc::ENFILE) => SidecarError::NoDescriptor(e),
            _ => unavailable(e.to_string()),
        })?;
        let left = deadline.saturating_duration_since(Instant::now());
        match super::flock_within(&file, left) {
            Ok(true) if still_named(&file, &path) => return Ok(file),
            Ok(true) => continue, // its holder removed it: lock the file now at the path
            Ok(false) => return Err(SidecarError::TimedOut),
            Err(e) => return Err(unavailable(format!("flock failed: {e}"))),
        }
    }
}

/// The sidecar file whose `flock` is the cross-process lock of `real_path` (`None`: no lock
/// directory).
pub fn sidecar_path(real_path: &Path) -> Option<PathBuf> {
    Some(sidecar_in(&lock_dir()?, real_path))
}

fn sidecar_in(dir: &Path, real_path: &Path) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    let digest = Sha256::digest(real_path.as_os_str().as_bytes());
    let name: String = digest.iter().take(20).map(|b| format!("{b:02x}")).collect();
    dir.join(format!("{name}.lock"))
}

/// Opens (creating it 0o600 if missing) the lock file at `path`, read-write, never following a
/// symlink.
pub(crate) fn open_sidecar(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// True when `path` still names the file `file` is open on.
fn still_named(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Removes the sidecar of `real_path` (called by its holder, just before releasing it).
pub(super) fn remove(file: &File, real_path: &Path) {
    let Some(path) = sidecar_path(real_path) else {
        return;
    };
    if still_named(file, &path) {
        let _ = std::fs::remove_file(path);
    }
}

/// Creates `dir` (missing levels 0o700) and checks it is a real directory owned by us and not
/// writable by group or others; the error says what is wrong.
fn ensure_private_dir(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::DirBuilderExt;
    let _ = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir);
    if private_owned(dir) {
        Ok(())
    } else {
        Err("it is not a directory owned by this user with mode 700 (a symlink, another user's, or group/world-writable)".into())
    }
}

/// True for a real directory (not a symlink) owned by the effective user, not writable by
/// group or others.
fn private_owned(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(dir).is_ok_and(|m| {
        m.is_dir() && m.uid() == crate::sys::effective_uid() && m.mode() & 0o022 == 0
    })
}
