//! Stored previews: a previewed change (what it read, what it would write, how it was shown,
//! the reply of the call) kept under a token until it is applied, so any process sharing the
//! store can apply it.
//!
//! Layout: `previews/<token>` in the history store, one file: a JSON header line, then the changed
//! bytes of each file's new content, back to back, then a check of the bytes before it (their
//! BLAKE3 and length). A file's new content is stored as a splice of the content the preview read
//! (its unchanged head and tail are not stored again); that content is named by its blob name
//! (BLAKE3) and length, and kept as a blob in `objects/` (shared with the undo levels, counted in
//! the store's cap) only so a refusal can show what changed since: stored when missing only up to
//! [`MAX_READ_KEPT`] bytes, and a preview whose blob is missing still applies. Reached through the
//! held-open store (its `previews/` folder handle, never a path) and written to a temp file
//! renamed into place (a reader sees all of it or nothing), without fsync: a preview is not user
//! data, and one a crash cut short fails its check and reads as missing (re-send the call),
//! never applied. A store whose path no longer names the held folders is refused. Taking a
//! preview renames it to `previews/.taken-<token>` first: of several processes taking one token,
//! exactly one gets it (single use), then removes it. Previews past their own time to live (the
//! saving tool's) and taken ones left by a killed process are collected on a save, at most once
//! per [`SWEEP_EVERY`] per store and process. A preview stored by an older build (an older
//! [`PREVIEW_FORMAT`]) is refused as such and taken; one stored by a newer build is refused as
//! such and left in the store, for that build to apply (the sweep and the cap read only its
//! times and go by its own time to live). Without a history store (`history: false`) previews
//! live in memory, in the [`PreviewStore::Memory`] of the tool object that made them.

use super::root::{Root, Sub};
use super::store_fs;
use super::{HistoryError, HistoryStore};
use crate::common_ends::KnownEnds;
use crate::tools::preview::FileChange;
use crate::tools::write_frame::TrackerEffect;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The layout of a stored preview this build writes and applies (older builds wrote none: 0).
pub const PREVIEW_FORMAT: u32 = 2;

/// Largest content read that a preview stores as a blob when the store lacks it (larger ones
/// are shown in a refusal only when the store already holds them).
pub const MAX_READ_KEPT: usize = 1 << 20;

/// How often a process sweeps a store's expired previews when saving one.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// A previewed change as stored: everything applying it needs, nothing re-planned.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct PreviewRecord {
    /// The layout it was stored in ([`PREVIEW_FORMAT`]; 0 when stored by an older build).
    pub format: u32,
    /// When the preview was made (ms since the epoch).
    pub created_ms: u64,
    /// How long it can be applied (ms; the saving tool's time to live).
    pub ttl_ms: u64,
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
    /// The files as the preview showed them (shown again, never recomputed).
    pub shown: Vec<FileChange>,
    /// The after-write bookkeeping of each landed file: `(real path, lexical path, effect)`.
    pub effects: Vec<(Vec<u8>, Vec<u8>, TrackerEffect)>,
    /// `(from, to)` real paths of the files the call moves.
    pub moves: Vec<(Vec<u8>, Vec<u8>)>,
    /// A rewind's preview: applying it takes a checkpoint of this label first (see
    /// [`crate::tools::apply::Plan::checkpoint_first`]).
    pub checkpoint_first: Option<String>,
}

/// One file of a stored preview: its paths (raw bytes), the content it read and the content
/// applying it writes.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct PreviewedFile {
    pub display: String,
    pub real: Vec<u8>,
    pub lexical: Vec<u8>,
    /// The content the preview read (`None`: no file).
    pub read: Option<ReadContent>,
    /// The content applying writes, made from the content read (`None`: the file is deleted).
    pub write: Option<Splice>,
    /// The content read, held in memory until the preview is saved (a memory store keeps it).
    #[serde(skip)]
    pub before: Option<Vec<u8>>,
}

/// A content named by its blob name (see [`super::content_name`]) and length.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct ReadContent {
    pub name: String,
    pub len: u64,
}

impl ReadContent {
    /// True when `bytes` is this content.
    pub fn is(&self, bytes: &[u8]) -> bool {
        bytes.len() as u64 == self.len && super::content_name(bytes) == self.name
    }
}

/// A content made from a base content: the base's first `head` bytes, then `middle`, then the
/// base's last `tail` bytes.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Splice {
    pub head: u64,
    pub tail: u64,
    middle_len: u64,
    #[serde(skip)]
    pub middle: Vec<u8>,
}

impl Splice {
    pub fn new(head: usize, middle: Vec<u8>, tail: usize) -> Self {
        Splice {
            head: head as u64,
            tail: tail as u64,
            middle_len: middle.len() as u64,
            middle,
        }
    }

    /// `after` as a splice of `base`: their longest common head and tail are not copied.
    pub fn of(base: &[u8], after: &[u8]) -> Self {
        Splice::of_known(base, after, KnownEnds::NONE)
    }

    /// [`Splice::of`], the ends found from what is `known` of them.
    pub fn of_known(base: &[u8], after: &[u8], known: KnownEnds) -> Self {
        let (head, tail) = known.widen(base, after);
        Splice::new(head, after[head..after.len() - tail].to_vec(), tail)
    }

    /// Its head length, middle bytes and tail length.
    pub fn parts(&self) -> (usize, &[u8], usize) {
        (self.head as usize, &self.middle, self.tail as usize)
    }

    /// True when it makes `base` itself (`base` being the content it was made from).
    pub fn keeps(&self, base: &[u8]) -> bool {
        self.middle.is_empty() && self.head.saturating_add(self.tail) == base.len() as u64
    }

    /// The content this splice makes of `base`; `None` when `base` is shorter than its head and
    /// tail together.
    pub fn apply(&self, base: &[u8]) -> Option<Vec<u8>> {
        let head = usize::try_from(self.head).ok()?;
        let tail = usize::try_from(self.tail).ok()?;
        let tail_from = base.len().checked_sub(tail).filter(|&t| t >= head)?;
        let mut out = Vec::with_capacity(head + self.middle.len() + tail);
        out.extend_from_slice(&base[..head]);
        out.extend_from_slice(&self.middle);
        out.extend_from_slice(&base[tail_from..]);
        Some(out)
    }
}

impl PreviewedFile {
    /// A file of a preview that read `before` (`None`: no file; `name` its blob name when
    /// already known) and would leave `write` made of it (`None`: no file).
    pub fn new(
        display: String,
        (real, lexical): (&Path, &Path),
        before: Option<Vec<u8>>,
        name: Option<String>,
        write: Option<Splice>,
    ) -> Self {
        PreviewedFile {
            display,
            real: store_fs::path_bytes(real).into_owned(),
            lexical: store_fs::path_bytes(lexical).into_owned(),
            read: before.as_deref().map(|b| ReadContent {
                name: name.unwrap_or_else(|| super::content_name(b)),
                len: b.len() as u64,
            }),
            write,
            before,
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

impl PreviewRecord {
    /// Whether it is past its own time to live at `now_ms`.
    pub fn expired_at(&self, now_ms: u64) -> bool {
        now_ms.saturating_sub(self.created_ms) > self.ttl_ms
    }
}

/// A stored preview as loaded.
#[derive(Debug)]
pub enum Loaded {
    Record(Box<PreviewRecord>),
    /// None by that token (never made, taken, collected, or cut short by a crash).
    Missing,
    /// Stored by an older build, in a layout this one does not apply.
    Older,
    /// Stored by a newer build, in a layout this one does not apply (left in the store).
    Newer,
}

/// The previews of an open history store (see [`super::HistoryStore::previews`]).
#[derive(Debug, Clone)]
pub struct StoredPreviews(pub(super) HistoryStore);

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
    /// token is replaced) and returns the token; sweeps expired previews first (see the module
    /// doc). The record keeps its own time to live.
    pub fn save(
        &self,
        record: PreviewRecord,
        token: Option<String>,
    ) -> Result<String, HistoryError> {
        let token = token.unwrap_or_else(super::txn::new_id);
        match self {
            PreviewStore::Memory(map) => {
                let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
                let now = super::now_ms();
                map.retain(|_, r| !r.expired_at(now));
                map.insert(token.clone(), record);
            }
            PreviewStore::Store(StoredPreviews(store)) => {
                let root = &store.root;
                root.verify()?;
                if sweep_due(root) {
                    collect_expired(root);
                }
                let encoded = encode(&record);
                store_fs::write_whole_unsynced(root, Sub::Previews, &token, &encoded)?;
                // Best effort: the contents read only let a refusal show what changed since.
                for file in &record.files {
                    if let (Some(read), Some(before)) = (&file.read, &file.before) {
                        if before.len() <= MAX_READ_KEPT {
                            let _ = store.keep_blob(&read.name, before);
                        }
                    }
                }
                let _ = store.count_preview(encoded.len() as u64);
            }
        }
        Ok(token)
    }

    /// The content `file` of a preview read, when it is still held (in memory, or as a blob of
    /// the store that the store's cap has not evicted).
    pub fn content_read(&self, file: &PreviewedFile) -> Option<Vec<u8>> {
        let read = file.read.as_ref()?;
        match self {
            PreviewStore::Memory(_) => file.before.clone(),
            PreviewStore::Store(StoredPreviews(store)) => {
                store_fs::read_object(&store.root, &read.name)
                    .filter(|bytes| super::hash_hex(bytes) == read.name)
            }
        }
    }

    /// The preview `token`, left in the store; `None` when there is none by that token that
    /// this build applies.
    pub fn peek(&self, token: &str) -> Option<PreviewRecord> {
        if !is_token(token) {
            return None;
        }
        match self {
            PreviewStore::Memory(map) => {
                let map = map.lock().unwrap_or_else(|e| e.into_inner());
                map.get(token).cloned()
            }
            PreviewStore::Store(StoredPreviews(store)) => {
                let root = &store.root;
                root.verify().ok()?;
                let bytes = store_fs::read_small(root, Some(Sub::Previews), token, u64::MAX / 2)?;
                match decode(&bytes) {
                    Loaded::Record(record) => Some(*record),
                    Loaded::Missing | Loaded::Older | Loaded::Newer => None,
                }
            }
        }
    }

    /// Takes the preview `token` out of the store (it can be taken once); `Missing` when there
    /// is none by that token (never made, already taken, collected, or damaged); `Newer` (and
    /// put back, for the build that stored it) when a newer build stored it; `Err` when the
    /// store's path no longer names the folders held open (nothing is taken).
    pub fn take(&self, token: &str) -> Result<Loaded, HistoryError> {
        if !is_token(token) {
            return Ok(Loaded::Missing);
        }
        match self {
            PreviewStore::Memory(map) => {
                let taken = map.lock().unwrap_or_else(|e| e.into_inner()).remove(token);
                Ok(taken.map_or(Loaded::Missing, |r| Loaded::Record(Box::new(r))))
            }
            PreviewStore::Store(StoredPreviews(store)) => {
                let root = &store.root;
                root.verify()?;
                let taken = format!(".taken-{token}");
                if root.rename(Sub::Previews, token, &taken).is_err() {
                    return Ok(Loaded::Missing);
                }
                let bytes = store_fs::read_small(root, Some(Sub::Previews), &taken, u64::MAX / 2);
                let loaded = bytes.map_or(Loaded::Missing, |b| decode(&b));
                if matches!(loaded, Loaded::Newer) {
                    let _ = root.rename(Sub::Previews, &taken, token);
                } else {
                    let _ = root.remove(Sub::Previews, &taken);
                }
                Ok(loaded)
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

/// Bytes of a stored preview's check: the BLAKE3 of the bytes before it, then their length
/// (8 bytes, little-endian).
const CHECK_LEN: usize = 32 + 8;

/// The header line, then the changed bytes of each file's new content, in file order, then the
/// check of all of that.
fn encode(record: &PreviewRecord) -> Vec<u8> {
    let mut out = serde_json::to_vec(record).unwrap_or_default();
    out.push(b'\n');
    for write in record.files.iter().filter_map(|f| f.write.as_ref()) {
        out.extend_from_slice(&write.middle);
    }
    let hash = blake3::hash(&out);
    let len = out.len() as u64;
    out.extend_from_slice(hash.as_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out
}

/// A stored preview from its bytes: `Older` or `Newer` when its header names another layout
/// (a newer one is told by its header's `format` alone, whatever else the header holds),
/// `Missing` when its check fails (cut short or damaged) or it does not parse.
fn decode(bytes: &[u8]) -> Loaded {
    let Some(end) = memchr::memchr(b'\n', bytes) else {
        return Loaded::Missing;
    };
    let header = &bytes[..end];
    let Ok(mut record) = serde_json::from_slice::<PreviewRecord>(header) else {
        return match stamp(header) {
            Some(s) if s.format > PREVIEW_FORMAT => Loaded::Newer,
            _ => Loaded::Missing,
        };
    };
    if record.format < PREVIEW_FORMAT {
        return Loaded::Older;
    }
    if record.format > PREVIEW_FORMAT {
        return Loaded::Newer;
    }
    let Some(body) = checked(bytes) else {
        return Loaded::Missing;
    };
    let mut rest = &body[end + 1..];
    for write in record.files.iter_mut().filter_map(|f| f.write.as_mut()) {
        let Some(len) = usize::try_from(write.middle_len)
            .ok()
            .filter(|&n| n <= rest.len())
        else {
            return Loaded::Missing;
        };
        let (middle, tail) = rest.split_at(len);
        write.middle = middle.to_vec();
        rest = tail;
    }
    Loaded::Record(Box::new(record))
}

/// The bytes a stored preview's check covers, when the check holds.
fn checked(bytes: &[u8]) -> Option<&[u8]> {
    let body_len = bytes.len().checked_sub(CHECK_LEN)?;
    let (body, check) = bytes.split_at(body_len);
    let (hash, len) = check.split_at(32);
    let len = u64::from_le_bytes(len.try_into().ok()?);
    (len == body_len as u64 && blake3::hash(body).as_bytes() == hash).then_some(body)
}

/// When each store (by folder id) was last swept for expired previews by this process.
static SWEPT: Mutex<Option<HashMap<(u64, u64), u64>>> = Mutex::new(None);

/// True (and the sweep counted as done now) when this process last swept `root`'s previews
/// [`SWEEP_EVERY`] ago or never.
fn sweep_due(root: &Root) -> bool {
    let now = super::now_ms();
    let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
    let last = swept
        .get_or_insert_with(HashMap::new)
        .entry(root.id())
        .or_insert(0);
    let due = *last == 0 || now.saturating_sub(*last) >= SWEEP_EVERY.as_millis() as u64;
    if due {
        *last = now;
    }
    due
}

/// Removes previews past their own time to live (or unreadable), and taken ones or temp files
/// left behind (best effort).
#[allow(clippy::unnecessary_cast)] // `st_mtime`'s type differs between platforms
fn collect_expired(root: &Root) {
    let now_ms = super::now_ms();
    for (name, st) in root.list(Sub::Previews) {
        let expired = match is_token(&name) {
            true => read_header(root, &name).is_none_or(|r| r.expired_at(now_ms)),
            false => {
                let modified_ms = st.st_mtime as i64 * 1000 + st.st_mtime_nsec as i64 / 1_000_000;
                let age_ms = (now_ms as i64).saturating_sub(modified_ms);
                age_ms > STALE_TAKEN_AFTER.as_millis() as i64
            }
        };
        if expired {
            let _ = root.remove(Sub::Previews, &name);
        }
    }
}

/// A stored preview as the store's cap sees it (see [`super::index::evict`]).
#[derive(Debug)]
pub(super) struct Held {
    name: String,
    pub created_ms: u64,
    /// Older than the default time to live (evicted before anything else).
    pub expired: bool,
    /// The blobs it names (the contents its files read).
    pub blobs: Vec<String>,
    /// Its disk use.
    pub bytes: u64,
}

impl Held {
    /// True when it is the stored preview `token`.
    #[cfg(test)]
    pub fn is(&self, token: &str) -> bool {
        self.name == token
    }

    /// Removes the stored preview (best effort).
    pub fn remove(&self, root: &Root) {
        let _ = root.remove(Sub::Previews, &self.name);
    }
}

/// The stored previews in the order the cap evicts them: those past their own time to live
/// first, then the rest oldest first. A preview whose header cannot be read counts as expired.
#[allow(clippy::unnecessary_cast)] // `st_blocks`' type differs between platforms
pub(super) fn held(root: &Root) -> VecDeque<Held> {
    let now = super::now_ms();
    let mut held: Vec<Held> = root
        .list(Sub::Previews)
        .into_iter()
        .filter(|(name, _)| is_token(name))
        .map(|(name, st)| {
            let header = read_header(root, &name);
            let created_ms = header.as_ref().map_or(0, |r| r.created_ms);
            Held {
                expired: header.as_ref().is_none_or(|r| r.expired_at(now)),
                blobs: header
                    .into_iter()
                    .flat_map(|r| r.files)
                    .filter_map(|f| f.read.map(|r| r.name))
                    .collect(),
                bytes: st.st_blocks as u64 * 512,
                created_ms,
                name,
            }
        })
        .collect();
    held.sort_by_key(|h| (!h.expired, h.created_ms));
    held.into()
}

/// The header line of the stored preview `name` (its contents not read); of a header in a
/// newer layout that this build cannot read whole, only its layout and times.
fn read_header(root: &Root, name: &str) -> Option<PreviewRecord> {
    use std::io::BufRead;
    let file = root.open_read(Some(Sub::Previews), name).ok()?;
    let mut line = Vec::new();
    std::io::BufReader::new(file)
        .read_until(b'\n', &mut line)
        .ok()?;
    let header = line.strip_suffix(b"\n")?;
    serde_json::from_slice(header).ok().or_else(|| {
        let s = stamp(header).filter(|s| s.format > PREVIEW_FORMAT)?;
        Some(PreviewRecord {
            format: s.format,
            created_ms: s.created_ms,
            ttl_ms: s.ttl_ms,
            ..PreviewRecord::default()
        })
    })
}

/// The fields of a header every layout keeps: its layout and times.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Stamp {
    format: u32,
    created_ms: u64,
    ttl_ms: u64,
}

fn stamp(header: &[u8]) -> Option<Stamp> {
    serde_json::from_slice(header).ok()
}
