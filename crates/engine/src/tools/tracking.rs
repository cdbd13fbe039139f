//! Feeding a [`FileTracker`] from what an agent read: extract targets and search/extract output.

use crate::tracker::{normalize_path, parse_file_paths_from_output, split_extract_target, FileTracker};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn resolve_against(cwd: &Path, file: &str) -> PathBuf {
    normalize_path(&cwd.join(file))
}

/// Probe's `trackFilesFromExtract(targets, cwd)`: every target's file is marked seen; a
/// `file#Symbol` target also records the symbol's content hash when the symbol can be found.
pub fn track_files_from_extract(tracker: &FileTracker, targets: &[String], cwd: &Path) {
    let mut seen: HashSet<PathBuf> = HashSet::new();
    for target in targets {
        let (file, symbol) = split_extract_target(target);
        let resolved = resolve_against(cwd, file);
        if seen.insert(resolved.clone()) {
            tracker.mark_file_seen(&resolved);
        }
        if let Some(symbol) = symbol {
            record_symbol(tracker, &resolved, symbol);
        }
    }
}

/// Records the current hash of `symbol` in `file` (no-op when it cannot be found).
fn record_symbol(tracker: &FileTracker, file: &Path, symbol: &str) {
    if let Some(found) = super::symbols::lookup_unique(file, symbol) {
        tracker.track_symbol_content(file, symbol, &found.code, found.start_line as u32, found.end_line as u32, "extract");
    }
}

/// Probe's `trackFilesFromOutput(output, cwd)`: marks every file named in `File: path` or
/// `--- path ---` header lines as seen.
pub fn track_files_from_output(tracker: &FileTracker, output: &str, cwd: &Path) {
    for file in parse_file_paths_from_output(output) {
        tracker.mark_file_seen(&resolve_against(cwd, &file));
    }
}
