//! Disk helpers of the undo store: private directories, the store lock, blobs.
use super::HistoryError;
use std::fs::File;
use std::path::{Path, PathBuf};

pub(super) fn euid() -> u32 {
    #[cfg(unix)]
    // SAFETY: geteuid has no preconditions.
    return unsafe { libc::geteuid() };
    #[cfg(not(unix))]
    0
}

fn io<'a>(op: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> HistoryError + 'a {
    move |source| HistoryError::Io {
        op,
        path: path.to_string_lossy().into_owned(),
        source,
    }
}

/// Creates `dir` (mode 0o700) if missing; errors unless it is a real directory owned by us.
pub(super) fn create_private_dir(dir: &Path) -> Result<(), HistoryError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt};
        match std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
        {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io("create", dir)(e)),
        }
        let meta = std::fs::symlink_metadata(dir).map_err(io("inspect", dir))?;
        if !meta.is_dir() || meta.uid() != euid() {
            return Err(HistoryError::Unsafe {
                path: dir.to_string_lossy().into_owned(),
            });
        }
        Ok(())
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(dir).map_err(io("create", dir))
}

/// Creates the shared parent of per-user stores as a sticky, world-writable directory (like
/// `/tmp`), so every user can keep a private store below it. Best effort.
pub(super) fn create_shared_parent(dir: &Path) {
    if std::fs::create_dir(dir).is_ok() {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o1777));
        }
    }
}

/// Exclusive `flock` on `<dir>/.lock`, released when the returned file is dropped. A fresh
/// descriptor per call, so threads of one process exclude each other too.
pub(super) fn lock(dir: &Path) -> Result<File, HistoryError> {
    let path = dir.join(".lock");
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io("open the lock of", dir))?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        loop {
            // SAFETY: flock on a descriptor we own; no memory is passed.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                break;
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(io("lock", dir)(e));
            }
        }
    }
    Ok(file)
}

fn object_path(dir: &Path, sha: &str) -> PathBuf {
    dir.join("objects").join(sha)
}

/// Stores a blob unless one of that name and size exists; `true` when it wrote one.
pub(super) fn write_object(dir: &Path, sha: &str, bytes: &[u8]) -> Result<bool, HistoryError> {
    let path = object_path(dir, sha);
    if std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64) {
        return Ok(false);
    }
    write_whole(&path, bytes)?;
    Ok(true)
}

/// Writes `bytes` to a temp file beside `path` and renames it over `path`: readers see the old
/// file or the new one, never a part. Not fsynced (see the module contract of the store).
pub(super) fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), HistoryError> {
    use std::io::Write;
    let parent = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp")
        .tempfile_in(parent)
        .map_err(io("create a temporary file in", parent))?;
    tmp.write_all(bytes).map_err(io("write", path))?;
    tmp.persist(path)
        .map_err(|e| io("replace", path)(e.error))?;
    Ok(())
}

pub(super) fn read_object(dir: &Path, sha: &str) -> Option<Vec<u8>> {
    std::fs::read(object_path(dir, sha)).ok()
}

pub(super) fn remove_object(dir: &Path, sha: &str) {
    let _ = std::fs::remove_file(object_path(dir, sha));
}

/// `(name, size)` of every blob (temp files of in-flight writes excluded).
pub(super) fn objects(dir: &Path) -> Vec<(String, u64)> {
    let Ok(entries) = std::fs::read_dir(dir.join("objects")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let meta = e.metadata().ok()?;
            (!name.starts_with('.') && meta.is_file()).then_some((name, meta.len()))
        })
        .collect()
}

pub(super) fn objects_size(dir: &Path) -> u64 {
    objects(dir).iter().map(|(_, s)| s).sum()
}
