//! Records of multi-file levels (`txns/<id>.json`): which files one transaction changed, and what
//! each held before.
//!
//! A multi-file write first writes the transaction's record, in one file (temp file + rename),
//! then pushes one level onto each file's index (each naming the transaction): the record is what
//! makes the levels one change, undone together. A member without the transaction's level (a crash
//! between the record and its push, when no file had been written yet) still holds the content
//! the record names, so undo passes over it. Undo restores every file, then marks the record
//! undone (its commit point: after a crash, the next undo only removes the levels left), removes
//! the levels, then the record. A record no level names any more is collected by the next
//! eviction. Record names and contents are validated like blob names: an id is 32 lowercase hex
//! digits, a member's path the hex of its raw bytes, its previous content a blob name.
use super::root::{Root, Sub};
use super::{hex, store_fs, HistoryError};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Largest record read (a patch of thousands of files stays far below it).
const MAX_RECORD_BYTES: u64 = 4 << 20;

#[derive(Debug, Serialize, Deserialize)]
struct Record {
    members: Vec<RecordMember>,
    /// Every file was restored by an undo; only the levels are left to remove.
    #[serde(default)]
    undone: bool,
}

#[derive(Debug, Serialize, Deserialize)]
struct RecordMember {
    /// The raw bytes of the member's path, in hex.
    path: String,
    /// The blob name of its content before the change; `None`: the change created it.
    previous: Option<String>,
}

/// A transaction's record as read: see [`super::HistoryStore::txn_record`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxnRecord {
    /// Each member's real path and the blob name of its content before the change (`None`: the
    /// change created the file).
    pub members: Vec<(PathBuf, Option<String>)>,
    /// An undo restored every file already; only its levels are left to remove.
    pub undone: bool,
}

/// True for a valid transaction id: 32 lowercase hex digits.
pub(crate) fn is_txn_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A fresh transaction id (unique per process, time and call).
pub(crate) fn new_id() -> String {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let seed = format!("{}-{nanos}-{n}", std::process::id());
    hex(&blake3::hash(seed.as_bytes()).as_bytes()[..16])
}

/// The record's file name in `txns/`; `None` unless `id` is a valid one.
fn record_name(id: &str) -> Option<String> {
    is_txn_id(id).then(|| format!("{id}.json"))
}

/// Writes the record of transaction `id` (the caller holds the store lock).
pub(super) fn write(root: &Root, id: &str, record: &TxnRecord) -> Result<(), HistoryError> {
    let Some(name) = record_name(id) else {
        return Ok(());
    };
    let record = Record {
        members: record
            .members
            .iter()
            .map(|(path, previous)| RecordMember {
                path: hex(&store_fs::path_bytes(path)),
                previous: previous.clone(),
            })
            .collect(),
        undone: record.undone,
    };
    let bytes = serde_json::to_vec(&record).map_err(|e| HistoryError::Io {
        op: "serialize the record of",
        path: id.to_string(),
        source: e.into(),
    })?;
    store_fs::write_whole(root, Sub::Txns, &name, &bytes)
}

/// The record of transaction `id`; `None` when it has none or it is not a valid one (then the
/// levels naming it are undone one by one).
pub(super) fn read(root: &Root, id: &str) -> Option<TxnRecord> {
    let bytes = store_fs::read_small(root, Some(Sub::Txns), &record_name(id)?, MAX_RECORD_BYTES)?;
    let record: Record = serde_json::from_slice(&bytes).ok()?;
    let members = record
        .members
        .iter()
        .map(|m| {
            let valid = m.previous.as_deref().is_none_or(super::is_blob_name);
            Some((decode_path(&m.path)?, m.previous.clone())).filter(|_| valid)
        })
        .collect::<Option<Vec<_>>>()?;
    Some(TxnRecord {
        members,
        undone: record.undone,
    })
}

/// Removes the record of transaction `id` (missing is fine).
pub(super) fn remove(root: &Root, id: &str) -> Result<(), HistoryError> {
    let Some(name) = record_name(id) else {
        return Ok(());
    };
    match root.remove(Sub::Txns, &name) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(HistoryError::Io {
            op: "remove the record of",
            path: id.to_string(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// Removes every record no level names (`referenced` holds the ids levels name).
pub(super) fn collect(root: &Root, referenced: &std::collections::HashSet<String>) {
    for (name, _) in root.list(Sub::Txns) {
        let id = name.strip_suffix(".json");
        if id.is_some_and(|id| is_txn_id(id) && !referenced.contains(id)) {
            let _ = root.remove(Sub::Txns, &name);
        }
    }
}

/// A path from the hex of its raw bytes; `None` when not valid hex or not absolute.
fn decode_path(hex_bytes: &str) -> Option<PathBuf> {
    if !hex_bytes.len().is_multiple_of(2) {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..hex_bytes.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex_bytes.get(i..i + 2)?, 16).ok())
        .collect();
    let path = store_fs::path_from_bytes(bytes?)?;
    path.is_absolute().then_some(path)
}
