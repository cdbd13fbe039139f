//! Feeding a [`FileTracker`] from extract targets: the tracker does the bookkeeping, this module
//! supplies the symbol lookup (file reading + AST) it needs for `file#Symbol` targets.

use crate::tracker::FileTracker;
use std::path::Path;

/// Probe's `trackFilesFromExtract(targets, cwd)`: every target's file is marked seen; a
/// `file#Symbol` target also records the symbol's content hash when the symbol can be found.
pub fn track_files_from_extract(tracker: &FileTracker, targets: &[String], cwd: &Path) {
    tracker.track_files_from_extract(targets, cwd, |file, symbol| {
        let found = crate::symbols::file_lookup::lookup_unique(file, symbol)?;
        Some((found.code, found.start_line as u32, found.end_line as u32))
    });
}
