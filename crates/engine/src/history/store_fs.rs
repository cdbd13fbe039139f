//! Disk helpers of the undo store: the store lock, blobs, sizes; every file reached through the
//! held store folder ([`Root`]).
use super::root::{Root, Sub};
use super::HistoryError;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn io<'a>(op: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> HistoryError + 'a {
    move |source| HistoryError::Io {
        op,
        path: path.to_string_lossy().into_owned(),
        source,
    }
}

/// Temp files older than this in `objects/` or `index/` are litter of a killed writer.
pub(super) const STALE_TEMP_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// The raw bytes of a path (no lossy conversion: two different paths never share a key).
pub(super) fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
}

/// Disk space a blob of `size` bytes takes, rounded up to whole 4 KiB blocks.
pub(super) fn blocks_of(size: u64) -> u64 {
    size.div_ceil(4096).max(1) * 4096
}

/// The store lock, held until dropped: this process's turn at the store (threads queue on it
/// instead of polling the `flock`), then the `flock` of its `.lock` (released first).
pub(super) struct StoreLock<'a> {
    root: &'a Root,
    _turn: parking_lot::MutexGuard<'a, ()>,
}

impl Drop for StoreLock<'_> {
    fn drop(&mut self) {
        self.root.unflock();
    }
}

/// Takes the store lock: this process's turn ([`Root::turn`]), then an exclusive `flock` on the
/// store's `.lock` ([`Root::flock`]); waits at most `timeout` in all, then errors with
/// [`HistoryError::Busy`]. Once had, the store must still be where it was opened
/// ([`Root::verify`]).
pub(super) fn lock(root: &Root, timeout: Duration) -> Result<StoreLock<'_>, HistoryError> {
    let busy = || HistoryError::Busy {
        path: root.path().to_string_lossy().into_owned(),
        waited_ms: timeout.as_millis() as u64,
    };
    let deadline = std::time::Instant::now() + timeout;
    let turn = root.turn().try_lock_for(timeout).ok_or_else(busy)?;
    let left = deadline.saturating_duration_since(std::time::Instant::now());
    match root.flock(left)? {
        true => Ok(StoreLock { root, _turn: turn }),
        false => Err(busy()),
    }
}

/// Removes temp files (names starting with `.tmp`) older than [`STALE_TEMP_AFTER`] from the
/// store folder and its sub-folders (best effort).
#[allow(clippy::unnecessary_cast)] // `st_mtime`'s type differs between platforms
pub(super) fn collect_stale_temps(root: &Root) {
    let now = super::now_ms() as i64 / 1000;
    let folders = [Sub::Objects, Sub::Index, Sub::Txns, Sub::Previews];
    for sub in folders.map(Some).into_iter().chain([None]) {
        for (name, st) in root.list_named(sub, |name| name.starts_with(".tmp")) {
            let age = now.saturating_sub(st.st_mtime as i64);
            if age > STALE_TEMP_AFTER.as_secs() as i64 {
                let _ = root.remove(sub, &name);
            }
        }
    }
}

/// True when the blob `sha` exists with `len` bytes.
pub(super) fn has_object(root: &Root, sha: &str, len: u64) -> bool {
    super::is_blob_name(sha)
        && root
            .stat(Sub::Objects, sha)
            .is_some_and(|st| is_file(&st) && st.st_size as u64 == len)
}

fn is_file(st: &rustix::fs::Stat) -> bool {
    rustix::fs::FileType::from_raw_mode(st.st_mode) == rustix::fs::FileType::RegularFile
}

/// Stores a blob unless one of that name and size exists; `true` when it wrote one.
pub(super) fn write_object(root: &Root, sha: &str, bytes: &[u8]) -> Result<bool, HistoryError> {
    if !super::is_blob_name(sha) || has_object(root, sha, bytes.len() as u64) {
        return Ok(false);
    }
    root.write_whole(Some(Sub::Objects), sha, bytes)
        .map_err(io("write a blob in", root.path()))?;
    Ok(true)
}

/// Writes the store file `name` of `sub` whole and durably (see [`Root::write_whole`]).
pub(super) fn write_whole(
    root: &Root,
    sub: Sub,
    name: &str,
    bytes: &[u8],
) -> Result<(), HistoryError> {
    root.write_whole(Some(sub), name, bytes)
        .map_err(io("write", &root.path().join(sub.name()).join(name)))
}

/// [`write_whole`] without fsync (see [`Root::write_whole_unsynced`]).
pub(super) fn write_whole_unsynced(
    root: &Root,
    sub: Sub,
    name: &str,
    bytes: &[u8],
) -> Result<(), HistoryError> {
    root.write_whole_unsynced(Some(sub), name, bytes)
        .map_err(io("write", &root.path().join(sub.name()).join(name)))
}

/// The bytes of the store's file `name` (no symlink followed) when it has at most `max` bytes.
pub(super) fn read_small(root: &Root, sub: Option<Sub>, name: &str, max: u64) -> Option<Vec<u8>> {
    read_at_most(&root.open_read(sub, name).ok()?, max)
}

/// The rest of `file` when it has at most `max` bytes; sized from its status, so a file that
/// did not grow meanwhile is read in one call (plus the one that finds its end).
pub(super) fn read_at_most(file: &File, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let expected = file.metadata().map_or(0, |m| m.len()).min(max) as usize;
    let mut bytes = Vec::with_capacity(expected + 1);
    file.take(max + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= max).then_some(bytes)
}

/// A path from its raw bytes (see [`path_bytes`]); `None` when they cannot name one here.
pub(super) fn path_from_bytes(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    (!bytes.contains(&0)).then(|| PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

pub(super) fn read_object(root: &Root, sha: &str) -> Option<Vec<u8>> {
    use std::io::Read;
    if !super::is_blob_name(sha) {
        return None;
    }
    let mut file = root.open_read(Some(Sub::Objects), sha).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Prefix of a blob's name once an eviction dropped it: the blob is renamed under the store
/// lock, so that no level recorded later can find it, and unlinked after the lock is released
/// ([`remove_discarded`]; on ext4 an unlink, which frees the blocks, costs ~10 renames). A
/// temp name: one a crash leaves behind is collected with the stale temps.
const DISCARDED: &str = ".tmp-discarded-";

/// Moves the blob `sha` aside (see [`DISCARDED`]): the name it now has, `None` when there was
/// no such blob.
pub(super) fn discard_object(root: &Root, sha: &str) -> Option<String> {
    if !super::is_blob_name(sha) {
        return None;
    }
    let aside = format!("{DISCARDED}{sha}");
    root.rename(Sub::Objects, sha, &aside).ok().map(|()| aside)
}

/// Unlinks the blobs [`discard_object`] moved aside, by the `names` it gave. Needs no store
/// lock: nothing but an eviction ever names them.
pub(super) fn remove_discarded(root: &Root, names: &[String]) {
    for name in names.iter().filter(|n| n.starts_with(DISCARDED)) {
        let _ = root.remove(Sub::Objects, name);
    }
}

/// `(name, disk use)` of every blob (temp files and any other names excluded).
pub(super) fn objects(root: &Root) -> Vec<(String, u64)> {
    root.list(Sub::Objects)
        .into_iter()
        .filter(|(name, _)| super::is_blob_name(name))
        .map(|(name, st)| (name, disk_use(&st)))
        .collect()
}

/// Disk use of the blobs, the index logs and the stored previews: what the size cap bounds.
pub(super) fn store_size(root: &Root) -> u64 {
    usage(root).total
}

/// [`store_size`] (`total`) with the blobs it counted (`objects`, as [`objects`] lists them).
pub(super) struct Usage {
    pub objects: Vec<(String, u64)>,
    pub total: u64,
}

/// The store's [`Usage`]: one listing of its blobs, for a size check and the eviction after it.
pub(super) fn usage(root: &Root) -> Usage {
    let previews: u64 = root
        .list(Sub::Previews)
        .iter()
        .map(|(_, st)| disk_use(st))
        .sum();
    let objects = objects(root);
    let total = objects.iter().map(|(_, s)| s).sum::<u64>() + index_size(root) + previews;
    Usage { objects, total }
}

/// Disk use of the index logs.
pub(super) fn index_size(root: &Root) -> u64 {
    root.list(Sub::Index)
        .iter()
        .map(|(_, st)| disk_use(st))
        .sum()
}

/// Bytes of disk blocks a file uses.
fn disk_use(st: &rustix::fs::Stat) -> u64 {
    st.st_blocks as u64 * 512
}
