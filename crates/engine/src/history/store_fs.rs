//! Disk helpers of the undo store: private directories, the store lock, blobs.
use super::HistoryError;
use std::fs::File;
use std::path::{Path, PathBuf};

fn io<'a>(op: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> HistoryError + 'a {
    move |source| HistoryError::Io {
        op,
        path: path.to_string_lossy().into_owned(),
        source,
    }
}

/// Temp files older than this in `objects/` or `index/` are litter of a killed writer.
pub(super) const STALE_TEMP_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// Longest wait for the store lock before an operation fails with [`HistoryError::Busy`].
pub(super) const LOCK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The raw bytes of a path (no lossy conversion: two different paths never share a key).
pub(super) fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
}

/// Disk space a blob of `size` bytes takes, rounded up to whole 4 KiB blocks.
pub(super) fn blocks_of(size: u64) -> u64 {
    size.div_ceil(4096).max(1) * 4096
}

/// Creates `dir` (every missing level mode 0o700) if missing; errors unless it is a real
/// directory owned by us and not writable by group or others.
pub(super) fn create_private_dir(dir: &Path) -> Result<(), HistoryError> {
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
    if !meta.is_dir() || meta.uid() != crate::sys::effective_uid() || meta.mode() & 0o022 != 0 {
        return Err(HistoryError::Unsafe {
            path: dir.to_string_lossy().into_owned(),
        });
    }
    Ok(())
}

/// Exclusive `flock` on `<dir>/.lock`, released when the returned file is dropped; waits at
/// most [`LOCK_TIMEOUT`]. A fresh descriptor per call, so threads of one process exclude each
/// other too.
pub(super) fn lock(dir: &Path) -> Result<File, HistoryError> {
    let path = dir.join(".lock");
    let file = open_nofollow(
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
        &path,
    )
    .map_err(io("open the lock of", dir))?;
    match crate::fs::locks::flock_within(&file, LOCK_TIMEOUT) {
        Ok(true) => Ok(file),
        Ok(false) => Err(HistoryError::Busy {
            path: dir.to_string_lossy().into_owned(),
            waited_ms: LOCK_TIMEOUT.as_millis() as u64,
        }),
        Err(e) => Err(io("lock", dir)(e)),
    }
}

/// Opens `path` with `options`, refusing to follow a symlink in its last component.
fn open_nofollow(options: &mut std::fs::OpenOptions, path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NOFOLLOW).mode(0o600);
    options.open(path)
}

/// Removes temp files (names starting with `.tmp`) older than [`STALE_TEMP_AFTER`] from the
/// store's `objects/` and `index/` (best effort).
pub(super) fn collect_stale_temps(dir: &Path) {
    let now = std::time::SystemTime::now();
    for sub in ["objects", "index", "txns"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for e in entries.flatten() {
            let stale = e.file_name().to_string_lossy().starts_with(".tmp")
                && e.metadata().is_ok_and(|m| {
                    m.is_file()
                        && m.modified()
                            .ok()
                            .and_then(|t| now.duration_since(t).ok())
                            .is_some_and(|age| age > STALE_TEMP_AFTER)
                });
            if stale {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// The blob's path; `None` unless `sha` is a valid blob name (so it stays inside `objects/`).
fn object_path(dir: &Path, sha: &str) -> Option<PathBuf> {
    super::is_blob_name(sha).then(|| dir.join("objects").join(sha))
}

/// True when the blob `sha` exists with `len` bytes.
pub(super) fn has_object(dir: &Path, sha: &str, len: u64) -> bool {
    object_path(dir, sha).is_some_and(|path| {
        std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() == len)
    })
}

/// Stores a blob unless one of that name and size exists; `true` when it wrote one.
pub(super) fn write_object(dir: &Path, sha: &str, bytes: &[u8]) -> Result<bool, HistoryError> {
    let Some(path) = object_path(dir, sha) else {
        return Ok(false);
    };
    if has_object(dir, sha, bytes.len() as u64) {
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

/// The bytes of the store's file `path` (no symlink followed) when it has at most `max` bytes.
pub(super) fn read_small(path: &Path, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = open_nofollow(std::fs::OpenOptions::new().read(true), path).ok()?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= max).then_some(bytes)
}

/// A path from its raw bytes (see [`path_bytes`]); `None` when they cannot name one here.
pub(super) fn path_from_bytes(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    (!bytes.contains(&0)).then(|| PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

pub(super) fn read_object(dir: &Path, sha: &str) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut file = open_nofollow(
        std::fs::OpenOptions::new().read(true),
        &object_path(dir, sha)?,
    )
    .ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

pub(super) fn remove_object(dir: &Path, sha: &str) {
    if let Some(path) = object_path(dir, sha) {
        let _ = std::fs::remove_file(path);
    }
}

/// `(name, disk use)` of every blob (temp files and any other names excluded).
pub(super) fn objects(dir: &Path) -> Vec<(String, u64)> {
    let Ok(entries) = std::fs::read_dir(dir.join("objects")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let meta = e.metadata().ok()?;
            (super::is_blob_name(&name) && meta.is_file()).then(|| (name, disk_use(&meta)))
        })
        .collect()
}

/// Disk use of the blobs and the index logs: what the size cap bounds.
pub(super) fn store_size(dir: &Path) -> u64 {
    objects(dir).iter().map(|(_, s)| s).sum::<u64>() + index_size(dir)
}

/// Disk use of the index logs.
pub(super) fn index_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir.join("index")) else {
        return 0;
    };
    entries
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| disk_use(&m))
        .sum()
}

/// Bytes of disk blocks a file uses.
fn disk_use(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.blocks() * 512
}
