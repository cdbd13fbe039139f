//! Atomic, durable writes: temp file in the target's directory, fsync, rename, fsync directory.
use super::FsError;
use std::path::Path;

/// How to treat an existing file at the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    /// Replace the existing file, keeping its permissions (and owner when permitted).
    Replace,
    /// Fail with `Io { kind: AlreadyExists }` if the target exists at rename time (no clobber).
    CreateNew,
    /// Replace if present, create otherwise.
    CreateOrReplace,
}

/// Writes `bytes` to `path` atomically: on success the file holds exactly `bytes` and is durable;
/// on any error the previous file (if any) is untouched and no temp file is left behind.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: WriteMode, display: &str) -> Result<(), FsError> {
    let _ = (path, bytes, mode, display);
    todo!("fs::atomic::write_atomic")
}

/// Creates the missing parent directories of `path` (the caller has already checked that the
/// nearest existing ancestor lies inside an allowed folder).
pub fn create_parent_dirs(path: &Path, display: &str) -> Result<(), FsError> {
    let _ = (path, display);
    todo!("fs::atomic::create_parent_dirs")
}
