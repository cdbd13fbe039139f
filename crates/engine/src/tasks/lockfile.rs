//! An exclusive advisory lock (`flock`) on a sidecar file, held until dropped.
//!
//! `flock` locks belong to an open file description, so two opens in one process exclude each
//! other as two processes do. The sidecar is never removed (removing it would let a waiter lock
//! an unlinked inode while a newcomer locks a fresh one).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// `<path>.lock`.
pub fn sidecar(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// A held lock; released when dropped (the file is closed).
#[derive(Debug)]
pub struct LockFile {
    _file: File,
}

impl LockFile {
    /// Opens (creating, mode 0600) `path` and blocks until the exclusive lock is held.
    pub fn acquire(path: &Path) -> std::io::Result<LockFile> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)?;
        loop {
            match file.lock() {
                Ok(()) => return Ok(LockFile { _file: file }),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }
}
