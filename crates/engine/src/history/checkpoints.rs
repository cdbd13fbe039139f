//! Sessions and their checkpoints, in `checkpoints.json` at the store's top.
//!
//! Every level names the session of the tool that wrote it ([`HistoryEntry::session`]: tools made
//! with the same session id are one session; by default each process is one, see
//! [`process_session`]). A checkpoint is an id, a label, its session and the time it was taken; it
//! copies no content. It is taken under the store lock, which is held until the clock has passed
//! that time, so every level recorded before it is stamped at or before its time and every level
//! after it later: a file's levels of the session stamped after the checkpoint are exactly the
//! session's changes to it since, and the first of them names (as its previous content, a blob
//! kept while the level is) what the file held before them.
//!
//! Retention: levels stamped after the oldest live checkpoint are kept past the per-file level
//! limit (still counted in the byte cap). When levels a checkpoint needs go anyway (evicted for
//! the byte cap, or a file's history cleared: a content too large to store, a damaged blob, a
//! write whose previous content could not be read), the checkpoint records the file in `lost`:
//! it is no longer live, [`HistoryStore::checkpoints`] shows it, and a rewind to it is refused.
//! At most [`MAX_CHECKPOINTS`] are kept per store (the oldest dropped). The file is rewritten whole
//! (temp file + rename) under the store lock; one that cannot be read reads as no checkpoints.
use super::root::Root;
use super::{now_ms, store_fs, txn, HistoryEntry, HistoryError, HistoryStore};
use crate::history::recording::NEW_FILE_MARK;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Most checkpoints kept per store (the oldest are dropped).
pub const MAX_CHECKPOINTS: usize = 500;
/// The file's name at the store's top.
const FILE: &str = "checkpoints.json";
/// Largest file read.
const MAX_FILE_BYTES: u64 = 16 << 20;
/// Longest session id kept (a longer one is cut).
pub const MAX_SESSION_CHARS: usize = 200;

/// One checkpoint of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// 32 lowercase hex digits.
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub session: String,
    /// When it was taken, in milliseconds since the Unix epoch.
    pub created_at: u64,
    /// Files whose levels it needs were evicted or cleared (it can no longer be rewound).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<String>,
    /// The session's newest level of each file it had written when the checkpoint was taken:
    /// what a rewind puts back where an undo since took that level away.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wrote: Vec<Wrote>,
}

/// A file's newest level of a session when a checkpoint was taken (see [`Checkpoint::wrote`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wrote {
    pub path: String,
    /// The level's time (it names the level in the file's chain).
    pub at: u64,
    /// Hash of what the write left (`None`: it deleted the file).
    pub written: Option<String>,
    /// Hash of what the file held before the write (`None`: the write created it): what an
    /// undo of it puts back.
    pub before: Option<String>,
    /// What the file held before its oldest level then: what undoing every level of the file
    /// puts back (`None` in checkpoints taken by older builds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_before: Option<FileState>,
}

/// A file's content as a hash, or no file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileState {
    Absent,
    Content(String),
}

impl FileState {
    /// What the file held before the write `level` recorded.
    fn before(level: &HistoryEntry) -> FileState {
        match level.tool.ends_with(NEW_FILE_MARK) {
            true => FileState::Absent,
            false => FileState::Content(level.blake3.clone()),
        }
    }

    /// What the write `level` recorded left (`None`: not recorded).
    fn left_by(level: &HistoryEntry) -> Option<FileState> {
        match level.deleted {
            true => Some(FileState::Absent),
            false => level.written.clone().map(FileState::Content),
        }
    }

    fn hash(&self) -> Option<&str> {
        match self {
            FileState::Absent => None,
            FileState::Content(hash) => Some(hash),
        }
    }
}

#[derive(Default, Serialize, Deserialize)]
struct Saved {
    checkpoints: Vec<Checkpoint>,
}

/// This process's own session id (random, made once per process): the session of tools made
/// without one.
pub fn process_session() -> &'static str {
    static SESSION: OnceLock<String> = OnceLock::new();
    SESSION.get_or_init(txn::new_id)
}

/// A file the session changed since a checkpoint (see [`HistoryStore::session_changes`]).
#[derive(Debug, Clone)]
pub struct SessionFile {
    pub path: PathBuf,
    /// What the file held before the session's first change since the checkpoint.
    pub then: Then,
    /// The session's first level of the file since the checkpoint.
    pub first: HistoryEntry,
    /// The session's newest level of the file.
    pub last: HistoryEntry,
    /// Whether the file's newest level is that one (no other session wrote it since).
    pub last_is_newest: bool,
}

/// A file's content at a checkpoint, as the history holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Then {
    /// There was no file (the session created it since).
    Absent,
    Content(Vec<u8>),
    /// Its blob is gone (evicted or damaged): the file cannot be rewound.
    Missing,
}

impl HistoryStore {
    /// Takes a checkpoint of `session` now (see the module doc).
    pub fn create_checkpoint(
        &self,
        session: &str,
        label: Option<&str>,
    ) -> Result<Checkpoint, HistoryError> {
        let _lock = self.lock()?;
        let checkpoint = Checkpoint {
            id: txn::new_id(),
            label: label.map(str::to_string),
            session: session.to_string(),
            created_at: now_ms(),
            lost: Vec::new(),
            wrote: newest_writes(&self.root, session),
        };
        let mut all = read(&self.root);
        all.push(checkpoint.clone());
        let excess = all.len().saturating_sub(MAX_CHECKPOINTS);
        all.drain(..excess);
        write(&self.root, &all)?;
        while now_ms() <= checkpoint.created_at {
            std::thread::sleep(std::time::Duration::from_micros(250));
        }
        Ok(checkpoint)
    }

    /// The checkpoints of `session` (all sessions' when `None`), oldest first.
    pub fn checkpoints(&self, session: Option<&str>) -> Result<Vec<Checkpoint>, HistoryError> {
        let _lock = self.lock()?;
        let mut all = read(&self.root);
        all.retain(|c| session.is_none_or(|s| c.session == s));
        Ok(all)
    }

    /// The files `session` changed after `since` (a checkpoint's time), each with what it held
    /// before those changes and the session's newest level of it; one consistent view, read
    /// under the store lock.
    pub fn session_changes(
        &self,
        checkpoint: &Checkpoint,
    ) -> Result<Vec<SessionFile>, HistoryError> {
        let (session, since) = (checkpoint.session.as_str(), checkpoint.created_at);
        let _lock = self.lock()?;
        let mut out = Vec::new();
        let all = super::index::load_all(&self.root);
        for idx in &all {
            let ours =
                |e: &&HistoryEntry| e.session.as_deref() == Some(session) && e.timestamp > since;
            let (Some(first), Some(last)) = (
                idx.entries.iter().find(ours),
                idx.entries.iter().rev().find(ours),
            ) else {
                continue;
            };
            let then = match first.tool.ends_with(NEW_FILE_MARK) {
                true => Then::Absent,
                false => match store_fs::read_object(&self.root, &first.blake3) {
                    Some(bytes) if super::hash_hex(&bytes) == first.blake3 => Then::Content(bytes),
                    _ => Then::Missing,
                },
            };
            out.push(SessionFile {
                path: PathBuf::from(&idx.path),
                then,
                first: first.clone(),
                last: last.clone(),
                last_is_newest: idx.entries.last() == Some(last),
            });
        }
        for wrote in &checkpoint.wrote {
            let chain = all.iter().find(|i| i.path == wrote.path);
            let entries = chain.map_or(&[][..], |i| &i.entries[..]);
            if entries.iter().any(|e| e.timestamp == wrote.at) {
                continue;
            }
            let undone = undone_file(&self.root, wrote, session, entries);
            match out.iter_mut().find(|f| f.path == undone.path) {
                // Written again since the undos: from what the undos put back.
                Some(file) if accepts(&undone.last, &FileState::before(&file.first)) => {
                    file.then = undone.then
                }
                Some(_) => {}
                None if was_undone(entries, wrote, since, &undone.last) => out.push(undone),
                None => {}
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }
}

/// The session's newest level of each file it wrote (the caller holds the store lock).
fn newest_writes(root: &std::sync::Arc<Root>, session: &str) -> Vec<Wrote> {
    let mut out = Vec::new();
    for idx in super::index::load_all(root) {
        let ours = idx
            .entries
            .iter()
            .rev()
            .find(|e| e.session.as_deref() == Some(session));
        if let Some(level) = ours {
            out.push(Wrote {
                path: idx.path.clone(),
                at: level.timestamp,
                written: level.written.clone().filter(|_| !level.deleted),
                before: Some(level.blake3.clone()).filter(|_| !level.tool.ends_with(NEW_FILE_MARK)),
                first_before: idx.entries.first().map(FileState::before),
            });
        }
    }
    out
}

/// Whether a file holding `content` holds what the level `level` stands for: what its write
/// left, or what the file held before it (the write never landed, or was undone).
fn accepts(level: &HistoryEntry, content: &FileState) -> bool {
    FileState::left_by(level).as_ref() == Some(content) || FileState::before(level) == *content
}

/// What the file held once the session's undos since the checkpoint took `wrote`'s level away,
/// and maybe older ones with it: what the newest level left below it left, or, when no older
/// level is left, what the file held before its oldest level then; `None` when unknown.
fn undone_to(entries: &[HistoryEntry], wrote: &Wrote) -> Option<FileState> {
    match entries.iter().rev().find(|e| e.timestamp < wrote.at) {
        Some(below) => FileState::left_by(below),
        None => wrote.first_before.clone(),
    }
}

/// Whether `wrote`'s level left the file's chain (`entries`, now) by an undo, not by eviction:
/// an undo takes the newest levels away, eviction the oldest. Levels recorded between it and the
/// checkpoint (`since`) still there: evicted. Older levels still there: undone. Neither: undone
/// when there are no levels, or when the first one (written after the checkpoint) replaced what
/// the undos put back (`undone`, see [`undone_file`]).
fn was_undone(entries: &[HistoryEntry], wrote: &Wrote, since: u64, undone: &HistoryEntry) -> bool {
    if entries
        .iter()
        .any(|e| e.timestamp > wrote.at && e.timestamp <= since)
    {
        return false;
    }
    if entries.iter().any(|e| e.timestamp < wrote.at) {
        return true;
    }
    entries
        .first()
        .is_none_or(|first| accepts(undone, &FileState::before(first)))
}

/// A file whose level `wrote` was undone since the checkpoint (no later level of the session;
/// `entries` the file's chain now): its content then is what that level's write left, and what
/// the session last left is what its undos put back: what undoing that level put back, or what
/// undoing the levels below it too put back (see [`undone_to`]), as one level stands for both;
/// a level recorded since (the undos came first) means another session wrote it since.
fn undone_file(root: &Root, wrote: &Wrote, session: &str, entries: &[HistoryEntry]) -> SessionFile {
    let then = match &wrote.written {
        None => Then::Absent,
        Some(hash) => match store_fs::read_object(root, hash) {
            Some(bytes) if super::hash_hex(&bytes) == *hash => Then::Content(bytes),
            _ => Then::Missing,
        },
    };
    let one_back = wrote
        .before
        .clone()
        .map_or(FileState::Absent, FileState::Content);
    let further = undone_to(entries, wrote).unwrap_or_else(|| one_back.clone());
    let level = HistoryEntry {
        blake3: one_back.hash().unwrap_or_default().to_string(),
        written: further.hash().map(str::to_string),
        txn: None,
        deleted: further == FileState::Absent,
        size: 0,
        timestamp: wrote.at,
        tool: match one_back {
            FileState::Absent => format!("undo{NEW_FILE_MARK}"),
            FileState::Content(_) => "undo".to_string(),
        },
        session: Some(session.to_string()),
    };
    SessionFile {
        path: PathBuf::from(&wrote.path),
        then,
        first: level.clone(),
        last: level,
        last_is_newest: !entries.iter().any(|e| e.timestamp > wrote.at),
    }
}

/// The checkpoints in the store (the caller holds the store lock).
fn read(root: &Root) -> Vec<Checkpoint> {
    let saved = store_fs::read_small(root, None, FILE, MAX_FILE_BYTES)
        .and_then(|bytes| serde_json::from_slice::<Saved>(&bytes).ok())
        .unwrap_or_default();
    let mut all = saved.checkpoints;
    all.retain(|c| txn::is_txn_id(&c.id));
    all
}

/// Writes the checkpoints (the caller holds the store lock).
fn write(root: &Root, all: &[Checkpoint]) -> Result<(), HistoryError> {
    let io = |source: std::io::Error| HistoryError::Io {
        op: "write the checkpoints of",
        path: root.path().to_string_lossy().into_owned(),
        source,
    };
    let saved = Saved {
        checkpoints: all.to_vec(),
    };
    let bytes = serde_json::to_vec(&saved).map_err(|e| io(e.into()))?;
    root.write_whole(None, FILE, &bytes).map_err(io)
}

/// The level limit of a file whose chain is `entries` (the caller holds the store lock): at
/// least `max_levels`, and enough to keep every level stamped after the oldest live checkpoint
/// besides the one being pushed.
pub(super) fn level_limit(root: &Root, entries: &[HistoryEntry], max_levels: usize) -> usize {
    if entries.len() < max_levels {
        return max_levels;
    }
    let live = read(root);
    let Some(oldest) = live
        .iter()
        .filter(|c| c.lost.is_empty())
        .map(|c| c.created_at)
        .min()
    else {
        return max_levels;
    };
    let needed = entries.iter().position(|e| e.timestamp > oldest);
    max_levels.max(needed.map_or(0, |i| entries.len() - i) + 1)
}

/// Records, in every checkpoint that needs them, files whose levels are going (the caller holds
/// the store lock): `lost` gives each level's file and the level. Best effort.
pub(super) fn note_lost<'a>(
    root: &Root,
    lost: impl IntoIterator<Item = (&'a str, &'a HistoryEntry)>,
) {
    let lost: Vec<(&str, &str, u64)> = lost
        .into_iter()
        .filter_map(|(path, e)| Some((path, e.session.as_deref()?, e.timestamp)))
        .collect();
    note_lost_writes(root, &lost);
}

/// As [`note_lost`], for `(file, session, time)` of each level or write that goes unrecorded.
pub(super) fn note_lost_writes(root: &Root, lost: &[(&str, &str, u64)]) {
    if lost.is_empty() {
        return;
    }
    let mut all = read(root);
    let mut changed = false;
    for checkpoint in &mut all {
        for (path, session, at) in lost {
            let needed = *session == checkpoint.session && *at > checkpoint.created_at;
            if needed && !checkpoint.lost.iter().any(|p| p == path) {
                checkpoint.lost.push(path.to_string());
                changed = true;
            }
        }
    }
    if changed {
        let _ = write(root, &all);
    }
}
