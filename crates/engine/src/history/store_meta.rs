//! A default store's metadata file, `owner.json`: the workspace the store belongs to and when it
//! was last used, for collection (see [`super::retention`]).
//!
//! Contracts:
//! - Read tolerantly: a missing, oversized, malformed or partly valid file yields what it holds
//!   validly (an unknown workspace, a zero time), never an error.
//! - Written whole (temp file + rename) through the store's held folder (never by path), at most
//!   once per [`TOUCH_EVERY_MS`] per store and process: "last used" is precise to that interval,
//!   and an edit almost never writes it. Collection reads it by path, following no symlink.
use super::HistoryStore;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The metadata file's name inside a store.
pub const FILE: &str = "owner.json";
/// How stale "last used" may get before a use rewrites it (one hour).
pub const TOUCH_EVERY_MS: u64 = 3_600_000;
/// Largest metadata file read.
const MAX_META_BYTES: u64 = 64 << 10;

/// What a store's metadata says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoreMeta {
    /// The workspace root the store belongs to (its real path); `None` when unknown.
    pub workspace: Option<PathBuf>,
    /// When the store was last used, in milliseconds since the Unix epoch (0: unknown).
    pub last_used_ms: u64,
}

/// The metadata of the store in `dir` (see the module contract: never fails).
pub fn read(dir: &Path) -> StoreMeta {
    parse(&read_small(&dir.join(FILE)).unwrap_or_default())
}

/// The bytes of the file at `path` (no symlink followed, nothing opened that could block) when
/// it has at most [`MAX_META_BYTES`].
fn read_small(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_META_BYTES + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_META_BYTES).then_some(bytes)
}

/// A field of the file as stored: its value when of the expected type, else ignored.
#[derive(Deserialize)]
#[serde(untagged)]
enum Lenient<T> {
    Valid(T),
    Other(serde::de::IgnoredAny),
}

impl<T> Lenient<T> {
    fn valid(self) -> Option<T> {
        match self {
            Lenient::Valid(t) => Some(t),
            Lenient::Other(_) => None,
        }
    }
}

/// The file's fields (unknown ones ignored).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stored {
    #[serde(default)]
    workspace: Option<Lenient<String>>,
    #[serde(default)]
    last_used_ms: Option<Lenient<u64>>,
}

/// The file as written.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Written<'a> {
    last_used_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    workspace: Option<&'a str>,
}

/// The metadata `bytes` hold (see the module contract).
fn parse(bytes: &[u8]) -> StoreMeta {
    let Ok(stored) = serde_json::from_slice::<Stored>(bytes) else {
        return StoreMeta::default();
    };
    StoreMeta {
        workspace: stored
            .workspace
            .and_then(Lenient::valid)
            .filter(|w| w.starts_with('/') && !w.contains('\0'))
            .map(PathBuf::from),
        last_used_ms: stored.last_used_ms.and_then(Lenient::valid).unwrap_or(0),
    }
}

/// Writes `meta` as the metadata of `store`, through its held folder (a workspace whose path is
/// not UTF-8 is left out: it reads back as unknown).
pub fn write(store: &HistoryStore, meta: &StoreMeta) -> std::io::Result<()> {
    let written = Written {
        last_used_ms: meta.last_used_ms,
        workspace: meta.workspace.as_ref().and_then(|w| w.to_str()),
    };
    let bytes = serde_json::to_vec(&written).map_err(std::io::Error::other)?;
    store.root.write_whole(None, FILE, &bytes)
}

/// When this process last found or made each store's "last used" current.
static TOUCHED: Mutex<Option<HashMap<PathBuf, u64>>> = Mutex::new(None);

/// Notes that `store`, belonging to the workspace `root` (resolved to its real path
/// when needed), is used at `now_ms`: rewrites its metadata when it names another workspace or
/// is older than [`TOUCH_EVERY_MS`], else nothing (after the first call per store and process,
/// an in-memory check). Best effort.
pub fn touch(store: &HistoryStore, root: &Path, now_ms: u64) {
    let fresh = |t: u64| now_ms.saturating_sub(t) < TOUCH_EVERY_MS && t <= now_ms;
    let key = store.dir().to_path_buf();
    if TOUCHED
        .lock()
        .as_ref()
        .and_then(|m| m.get(&key))
        .is_some_and(|t| fresh(*t))
    {
        return;
    }
    let workspace = crate::fs::guard::safe_realpath(root);
    let on_disk = store
        .root
        .open_read(None, FILE)
        .ok()
        .and_then(|f| {
            use std::io::Read;
            let mut bytes = Vec::new();
            f.take(MAX_META_BYTES + 1).read_to_end(&mut bytes).ok()?;
            Some(parse(&bytes))
        })
        .unwrap_or_default();
    let stamp = if on_disk.workspace.as_deref() == Some(&*workspace) && fresh(on_disk.last_used_ms)
    {
        on_disk.last_used_ms
    } else {
        let meta = StoreMeta {
            workspace: Some(workspace.to_path_buf()),
            last_used_ms: now_ms,
        };
        if write(store, &meta).is_err() {
            return;
        }
        now_ms
    };
    TOUCHED
        .lock()
        .get_or_insert_with(HashMap::new)
        .insert(key, stamp);
}

/// Forgets what this process noted about the store in `dir` (it was removed).
pub fn forget(dir: &Path) {
    if let Some(map) = TOUCHED.lock().as_mut() {
        map.remove(dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_reads_back_and_damaged_files_read_as_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let store = HistoryStore::open(dir.path().join("s")).unwrap();
        let dir = store.dir();
        assert_eq!(read(dir), StoreMeta::default(), "missing");
        let meta = StoreMeta {
            workspace: Some("/some/workspace".into()),
            last_used_ms: 1234,
        };
        write(&store, &meta).unwrap();
        assert_eq!(read(dir), meta);
        for (text, expected) in [
            ("not json", StoreMeta::default()),
            (
                r#"{"workspace":"relative","lastUsedMs":5}"#,
                StoreMeta {
                    workspace: None,
                    last_used_ms: 5,
                },
            ),
            (
                r#"{"workspace":null,"lastUsedMs":7,"later":{"x":[1]}}"#,
                StoreMeta {
                    workspace: None,
                    last_used_ms: 7,
                },
            ),
            (
                r#"{"workspace":"/w","lastUsedMs":"soon"}"#,
                StoreMeta {
                    workspace: Some("/w".into()),
                    last_used_ms: 0,
                },
            ),
        ] {
            std::fs::write(dir.join(FILE), text).unwrap();
            assert_eq!(read(dir), expected, "{text}");
        }
    }

    #[test]
    fn a_use_rewrites_the_metadata_at_most_hourly() {
        let dir = tempfile::tempdir().unwrap();
        let store = HistoryStore::open(dir.path().join("s")).unwrap();
        let ws = tempfile::tempdir().unwrap();
        let ws = ws.path();
        touch(&store, ws, 10_000);
        assert_eq!(read(store.dir()).last_used_ms, 10_000);
        let real = crate::fs::guard::safe_realpath(ws);
        assert_eq!(read(store.dir()).workspace.as_deref(), Some(&*real));
        touch(&store, ws, 10_000 + TOUCH_EVERY_MS - 1);
        assert_eq!(read(store.dir()).last_used_ms, 10_000, "within the hour");
        touch(&store, ws, 10_000 + TOUCH_EVERY_MS);
        assert_eq!(read(store.dir()).last_used_ms, 10_000 + TOUCH_EVERY_MS);
    }
}
