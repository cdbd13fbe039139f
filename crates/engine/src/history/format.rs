//! The store's format version, in `format.json` at its top: `{"version": "<major>.<minor>"}`.
//!
//! Read tolerantly: unknown fields are ignored, a store without the file (written before the
//! version was recorded) is today's layout and gains the file, and any minor version of a known
//! major is read. A newer major version is refused ([`HistoryError::NewerFormat`]) rather than
//! misread; so is a file that cannot be parsed, since what wrote it is unknown.
use super::root::Root;
use super::{store_fs, HistoryError};
use serde::{Deserialize, Serialize};

/// The major version this engine writes and reads (a layout older ones cannot read bumps it).
pub(super) const MAJOR: u32 = 1;
/// The minor version this engine writes (additions older readers of the major can ignore:
/// 1 added the levels' session and `checkpoints.json`).
const MINOR: u32 = 1;
/// The format file's name in the store folder.
const FILE: &str = "format.json";

#[derive(Serialize, Deserialize)]
struct Format {
    version: String,
}

/// Checks the store's format (the caller has just opened it), recording today's version in a
/// store that has none. The file is opened once: openers of a new store race to write it, and
/// one that found none must not take the file another then renamed into place for another kind
/// of failure.
pub(super) fn check(root: &Root) -> Result<(), HistoryError> {
    let Ok(file) = root.open_read(None, FILE) else {
        return write(root);
    };
    let Some(bytes) = store_fs::read_at_most(&file, 64 << 10) else {
        return Err(newer(root, "unknown (its format.json is too large)"));
    };
    let found = serde_json::from_slice::<Format>(&bytes)
        .map_err(|_| newer(root, "unknown (its format.json cannot be read)"))?
        .version;
    match found.split('.').next().and_then(|m| m.parse::<u32>().ok()) {
        Some(major) if major <= MAJOR => Ok(()),
        _ => Err(newer(root, &found)),
    }
}

fn newer(root: &Root, found: &str) -> HistoryError {
    HistoryError::NewerFormat {
        path: root.path().to_string_lossy().into_owned(),
        found: found.to_string(),
        known: MAJOR,
    }
}

/// Records this engine's version (best effort: a store without it reads as today's anyway).
fn write(root: &Root) -> Result<(), HistoryError> {
    let format = Format {
        version: format!("{MAJOR}.{MINOR}"),
    };
    let bytes = serde_json::to_vec(&format).unwrap_or_default();
    let _ = root.write_whole(None, FILE, &bytes);
    Ok(())
}
