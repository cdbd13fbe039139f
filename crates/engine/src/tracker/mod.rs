//! Session state the edit tools consult: Probe's `FileTracker` (seen files, symbol content hashes,
//! consecutive text-edit counts). Thread-safe; shared by the napi class and the engine via `Arc`.

use std::path::{Path, PathBuf};

/// Probe's `computeContentHash`: SHA-256 of the content with each line's trailing white space
/// (JS `trimEnd`) removed, lines joined by `\n`; the first 16 hex digits.
pub fn compute_content_hash(content: &str) -> String {
    let _ = content;
    todo!("tracker::compute_content_hash")
}

/// Lexical normalization used for every tracker key: absolute (against the process cwd), `.`, `..`
/// and repeated separators folded, symlinks not resolved (Node's `path.resolve`).
pub fn normalize_path(p: &Path) -> PathBuf {
    let _ = p;
    todo!("tracker::normalize_path")
}

/// One stored symbol hash (Probe's content record).
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolRecord {
    pub content_hash: String,
    pub start_line: u32,
    pub end_line: u32,
    pub symbol_name: Option<String>,
    pub source: String,
    /// Milliseconds since the Unix epoch.
    pub timestamp: f64,
}

/// `{ ok, reason?, message?, editCount? }` as Probe's check methods return it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Check {
    pub ok: bool,
    pub reason: Option<String>,
    pub message: Option<String>,
    pub edit_count: Option<u32>,
}

/// Probe's `FileTracker`, every method taking `&self`.
#[derive(Debug, Default)]
pub struct FileTracker {
    _todo: (),
}

impl FileTracker {
    pub fn new(debug: bool) -> Self {
        let _ = debug;
        todo!("tracker::FileTracker::new")
    }
    pub fn max_consecutive_text_edits(&self) -> u32 {
        todo!()
    }
    pub fn set_max_consecutive_text_edits(&self, n: u32) {
        let _ = n;
        todo!()
    }
    pub fn mark_file_seen(&self, path: &Path) {
        let _ = path;
        todo!()
    }
    pub fn is_file_seen(&self, path: &Path) -> bool {
        let _ = path;
        todo!()
    }
    pub fn track_symbol_content(&self, path: &Path, symbol: &str, code: &str, start_line: u32, end_line: u32, source: &str) {
        let _ = (path, symbol, code, start_line, end_line, source);
        todo!()
    }
    pub fn get_symbol_record(&self, path: &Path, symbol: &str) -> Option<SymbolRecord> {
        let _ = (path, symbol);
        todo!()
    }
    pub fn check_symbol_content(&self, path: &Path, symbol: &str, current_code: &str) -> Check {
        let _ = (path, symbol, current_code);
        todo!()
    }
    pub fn check_before_edit(&self, path: &Path) -> Check {
        let _ = path;
        todo!()
    }
    pub fn track_file_after_write(&self, path: &Path) {
        let _ = path;
        todo!()
    }
    pub fn record_text_edit(&self, path: &Path) {
        let _ = path;
        todo!()
    }
    pub fn check_text_edit_staleness(&self, path: &Path) -> Check {
        let _ = path;
        todo!()
    }
    pub fn track_symbol_after_write(&self, path: &Path, symbol: &str, code: &str, start_line: u32, end_line: u32) {
        let _ = (path, symbol, code, start_line, end_line);
        todo!()
    }
    pub fn invalidate_file_records(&self, path: &Path) {
        let _ = path;
        todo!()
    }
    pub fn is_tracked(&self, path: &Path) -> bool {
        let _ = path;
        todo!()
    }
    pub fn clear(&self) {
        todo!()
    }
}

/// Probe's extract-target parsing: `file#Symbol` -> (file, Some(symbol)); `file:10-20` / `file:10`
/// -> (file, None); anything else is a plain file path.
pub fn split_extract_target(target: &str) -> (&str, Option<&str>) {
    let _ = target;
    todo!("tracker::split_extract_target")
}

/// Probe's `parseFilePathsFromOutput`: paths from `File: path` and `--- path ---` header lines.
pub fn parse_file_paths_from_output(output: &str) -> Vec<String> {
    let _ = output;
    todo!("tracker::parse_file_paths_from_output")
}
