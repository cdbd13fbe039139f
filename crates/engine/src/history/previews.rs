//! Stored previews: a previewed change (the contents it read, the contents it would write, the
//! reply of the call) kept under a token until it is applied, so any process sharing the store
//! can apply it.
//!
//! Layout: `previews/<token>` in the history store, one file: a JSON header line, then the
//! contents it lists, back to back. Reached through the held-open store (its `previews/` folder
//! handle, never a path) and written to a temp file renamed into place (a reader sees all of it
//! or nothing); a store whose path no longer names the held folders is refused. Taking a preview renames it to `previews/.taken-<token>` first: of
//! several processes taking one token, exactly one gets it (single use), then removes it.
//! Expired previews (older than the saving tool's time to live) and taken ones left by a killed
//! process are collected on each save. Without a history store (`history: false`) previews live
//! in memory, in the [`PreviewStore::Memory`] of the tool object that made them.

use super::root::{Root, Sub};
use super::store_fs;
use super::HistoryError;
use crate::tools::write_frame::TrackerEffect;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A previewed change as stored: everything applying it needs, nothing re-planned.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct PreviewRecord {
    /// When the preview was made (ms since the epoch).
    pub created_ms: u64,
    /// The tool its undo level names.
    pub tool: String,
    /// The write replaces content that could not be read: it forgets the file's levels.
    pub forget: bool,
    /// The reply of the call (what the direct call answers).
    pub text: String,
    /// The error kind of a failed call (`None`: it succeeded): applying the preview answers that
    /// failure and writes nothing.
    pub failed: Option<String>,
    pub changed_files: Vec<String>,
    pub changes: Option<usize>,
    pub files: Vec<PreviewedFile>,
    /// The after-write bookkeeping of each landed file: `(real path, lexical path, effect)`.
    pub effects: Vec<(Vec<u8>, Vec<u8>, TrackerEffect)>,
    /// `(from, to)` real paths of the files the call moves.
    pub moves: Vec<(Vec<u8>, Vec<u8>)>,
}

/// One file of a stored preview: its paths (raw bytes), and its contents before and after
/// (`None`: no file).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct PreviewedFile {
    pub display: String,
    pub real: Vec<u8>,
    pub lexical: Vec<u8>,
    #[serde(skip)]
    pub before: Option<Vec<u8>>,
    #[serde(skip)]
    pub after: Option<Vec<u8>>,
    /// Lengths of `before` and `after` in the stored file (the header's record of them).
    before_len: Option<u64>,
    after_len: Option<u64>,
}

impl PreviewedFile {
    pub fn new(
        display: String,
        real: &Path,
        lexical: &Path,
        before: Option<Vec<u8>>,
        after: Option<Vec<u8>>,
    ) -> Self {
        PreviewedFile {
            display,
            real: store_fs::path_bytes(real).into_owned(),
            lexical: store_fs::path_bytes(lexical).into_owned(),
            before_len: before.as_ref().map(|b| b.len() as u64),
            after_len: after.as_ref().map(|a| a.len() as u64),
            before,
            after,
        }
    }

    /// The real path; `None` when the stored bytes cannot name one.
    pub fn real_path(&self) -> Option<PathBuf> {
        store_fs::path_from_bytes(self.real.clone())
    }

    /// The lexical path (as the call named it, absolute).
    pub fn lexical_path(&self) -> Option<PathBuf> {
        store_fs::path_from_bytes(self.lexical.clone())
    }
}

/// A path from raw bytes stored in a preview.
pub fn path_of(bytes: &[u8]) -> Option<PathBuf> {
    store_fs::path_from_bytes(bytes.to_vec())
}

/// The raw bytes of a path, as a preview stores it.
pub fn bytes_of(path: &Path) -> Vec<u8> {
    store_fs::path_bytes(path).into_owned()
}

/// The `previews/` folder of an open history store (see [`super::HistoryStore::previews`]).
#[derive(Debug, Clone)]
pub struct StoredPreviews(pub(super) Arc<Root>);

/// Where a tool object's previews live.
#[derive(Debug, Clone)]
pub enum PreviewStore {
    /// `previews/` of a history store: shared by every process using that store.
    Store(StoredPreviews),
    /// This tool object's own memory (history off).
    Memory(Arc<Mutex<HashMap<String, PreviewRecord>>>),
}

/// Taken previews older than this were left by a process killed while applying one.
const STALE_TAKEN_AFTER: Duration = Duration::from_secs(60);

impl PreviewStore {
    /// Stores `record` under `token` (a fresh one when `None`; an earlier preview under the same
    /// token is replaced) and returns the token; first collects previews older than `ttl`.
    pub fn save(
        &self,
        record: PreviewRecord,
        ttl: Duration,
        token: Option<String>,
    ) -> Result<String, HistoryError> {
        let token = token.unwrap_or_else(super::txn::new_id);
        match self {
            PreviewStore::Memory(map) => {
                let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
                let now = super::now_ms();
                map.retain(|_, r| now.saturating_sub(r.created_ms) <= ttl.as_millis() as u64);
                map.insert(token.clone(), record);
            }
            PreviewStore::Store(StoredPreviews(root)) => {
                root.verify()?;
                collect_expired(root, ttl);
                store_fs::write_whole(root, Sub::Previews, &token, &encode(&record))?;
            }
        }
        Ok(token)
    }

    /// The preview `token`, left in the store; `None` when there is none by that token.
    pub fn peek(&self, token: &str) -> Option<PreviewRecord> {
        if !is_token(token) {
            return None;
        }
        match self {
            PreviewStore::Memory(map) => {
                let map = map.lock().unwrap_or_else(|e| e.into_inner());
                map.get(token).cloned()
            }
            PreviewStore::Store(StoredPreviews(root)) => {
                root.verify().ok()?;
                decode(&store_fs::read_small(
                    root,
                    Some(Sub::Previews),
                    token,
                    u64::MAX / 2,
                )?)
            }
        }
    }

    /// Takes the preview `token` out of the store (it can be taken once); `Ok(None)` when there
    /// is none by that token (never made, already taken, collected, or unreadable); `Err` when
    /// the store's path no longer names the folders held open (nothing is taken).
    pub fn take(&self, token: &str) -> Result<Option<PreviewRecord>, HistoryError> {
        if !is_token(token) {
            return Ok(None);
        }
        match self {
            PreviewStore::Memory(map) => {
                Ok(map.lock().unwrap_or_else(|e| e.into_inner()).remove(token))
            }
            PreviewStore::Store(StoredPreviews(root)) => {
                root.verify()?;
                let taken = format!(".taken-{token}");
                if root.rename(Sub::Previews, token, &taken).is_err() {
                    return Ok(None);
                }
                let bytes = store_fs::read_small(root, Some(Sub::Previews), &taken, u64::MAX / 2);
                let _ = root.remove(Sub::Previews, &taken);
                Ok(bytes.and_then(|b| decode(&b)))
            }
        }
    }
}

/// The token of the preview made for the tool call `call_id`: the same in every process, so
/// the approved execution of a call finds the preview shown for it.
pub fn call_token(call_id: &str) -> String {
    let hash = blake3::hash(format!("tool call\0{call_id}").as_bytes());
    super::hex(&hash.as_bytes()[..16])
}

/// A token is 32 lowercase hex digits (so it always names a file inside `previews/`).
fn is_token(token: &str) -> bool {
    token.len() == 32
        && token
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The header line, then every stored content in file order (before, then after).
fn encode(record: &PreviewRecord) -> Vec<u8> {
    let mut out = serde_json::to_vec(record).unwrap_or_default();
    out.push(b'\n');
    for file in &record.files {
        out.extend(file.before.iter().chain(&file.after).flatten());
    }
    out
}

fn decode(bytes: &[u8]) -> Option<PreviewRecord> {
    let end = bytes.iter().position(|&b| b == b'\n')?;
    let mut record: PreviewRecord = serde_json::from_slice(&bytes[..end]).ok()?;
    let mut rest = &bytes[end + 1..];
    let mut next = |len: Option<u64>| -> Option<Option<Vec<u8>>> {
        let Some(len) = len else { return Some(None) };
        let len = usize::try_from(len).ok().filter(|&n| n <= rest.len())?;
        let (content, tail) = rest.split_at(len);
        rest = tail;
        Some(Some(content.to_vec()))
    };
    for file in &mut record.files {
        file.before = next(file.before_len)?;
        file.after = next(file.after_len)?;
    }
    Some(record)
}

/// Removes previews older than `ttl` and taken ones or temp files left behind (best effort).
#[allow(clippy::unnecessary_cast)] // `st_mtime`'s type differs between platforms
fn collect_expired(root: &Root, ttl: Duration) {
    let now_ms = super::now_ms() as i64;
    for (name, st) in root.list(Sub::Previews) {
        let limit = match name.starts_with(".taken-") || name.starts_with(".tmp") {
            true => STALE_TAKEN_AFTER,
            false => ttl,
        };
        let modified_ms = st.st_mtime as i64 * 1000 + st.st_mtime_nsec as i64 / 1_000_000;
        let age_ms = now_ms.saturating_sub(modified_ms);
        if age_ms > limit.as_millis() as i64 {
            let _ = root.remove(Sub::Previews, &name);
        }
    }
}
