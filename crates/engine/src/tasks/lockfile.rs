//! An exclusive advisory lock (`flock`) on a sidecar file, held until dropped.
//!
//! `flock` locks belong to an open file description, so two opens in one process exclude each
//! other as two processes do. The sidecar is never removed (removing it would let a waiter lock
//! an unlinked inode while a newcomer locks a fresh one).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `<path>.lock`.
pub fn sidecar(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// The outcome of [`LockFile::acquire`].
#[derive(Debug)]
pub enum Acquire {
    Held(LockFile),
    /// Another holder kept the lock for the whole wait.
    TimedOut,
    /// The lock path is not a regular file (what it is instead).
    NotRegular(&'static str),
}

/// A held lock; released when dropped (the file is closed).
#[derive(Debug)]
pub struct LockFile {
    _file: File,
}

impl LockFile {
    /// Opens (creating, mode 0600) `path` and waits at most `timeout` for the exclusive lock:
    /// `Ok(None)` when another holder kept it that long. A `path` that is not a regular file
    /// (a FIFO, a device) is opened without blocking and refused as [`Acquire::NotRegular`].
    pub fn acquire(path: &Path, timeout: Duration) -> std::io::Result<Acquire> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        if let Some(kind) = super::irregular_kind(&file)? {
            return Ok(Acquire::NotRegular(kind));
        }
        Ok(match crate::fs::locks::flock_within(&file, timeout)? {
            true => Acquire::Held(LockFile { _file: file }),
            false => Acquire::TimedOut,
        })
    }
}
