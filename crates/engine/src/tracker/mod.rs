//! Session state the edit tools consult: Probe's `FileTracker` (seen files, symbol content hashes,
//! consecutive text-edit counts). Thread-safe; shared by the napi class and the engine via `Arc`.
//!
//! Keys, messages and results are Probe's: files are keyed by [`normalize_path`] (as a string),
//! symbol records by `"<normalized path>#<symbol>"`.
//!
//! The tools' side lives here too: the read-before-edit guard (`read_guard`) and feeding the
//! tracker from extract targets ([`extract_targets`]).

pub mod extract_targets;
pub mod modification;
mod parse;
pub(crate) mod read_guard;
pub mod read_tracker;

pub use parse::{parse_file_paths_from_output, split_extract_target};
pub use read_tracker::FileReadTracker;

use crate::text::js::js_trim_end;
use parking_lot::Mutex;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Probe's `computeContentHash`: SHA-256 of the content with each line's trailing white space
/// (JS `trimEnd`) removed, lines joined by `\n`; the first 16 hex digits.
pub fn compute_content_hash(content: &str) -> String {
    let mut hasher = Sha256::new();
    for (i, line) in content.split('\n').enumerate() {
        if i > 0 {
            hasher.update(b"\n");
        }
        hasher.update(js_trim_end(line).as_bytes());
    }
    let digest = hasher.finalize();
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Lexical normalization used for every tracker key: absolute (against the process cwd), `.`, `..`
/// and repeated separators folded, symlinks not resolved (Node's `path.resolve`). An empty path
/// stays empty (Probe's `normalizePath` returns falsy input unchanged).
pub fn normalize_path(p: &Path) -> PathBuf {
    if p.as_os_str().is_empty() {
        return PathBuf::new();
    }
    crate::fs::guard::normalize_lexically(&crate::fs::guard::absolute(p))
}

fn key_of(p: &Path) -> String {
    normalize_path(p).to_string_lossy().into_owned()
}

fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as f64)
        .unwrap_or(0.0)
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

impl Check {
    fn ok() -> Check {
        Check {
            ok: true,
            ..Check::default()
        }
    }
}

#[derive(Debug)]
struct State {
    seen: HashSet<String>,
    records: HashMap<String, SymbolRecord>,
    text_edit_counts: HashMap<String, u32>,
    max_consecutive_text_edits: u32,
}

/// Probe's `FileTracker`, every method taking `&self`.
#[derive(Debug)]
pub struct FileTracker {
    debug: bool,
    state: Mutex<State>,
}

impl Default for FileTracker {
    fn default() -> Self {
        FileTracker::new(false)
    }
}

thread_local! {
    /// Set while a caller that logs for itself (the JS class) runs a tracker method.
    static MUTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with the tracker's own debug lines off on this thread: for a binding that prints
/// Probe's lines through its host's logger instead.
pub fn muted<T>(f: impl FnOnce() -> T) -> T {
    let before = MUTED.with(|m| m.replace(true));
    let out = f();
    MUTED.with(|m| m.set(before));
    out
}

impl FileTracker {
    fn logs(&self) -> bool {
        self.debug && !MUTED.with(|m| m.get())
    }

    /// Every seen file's key (normalized path), sorted.
    pub fn seen_files(&self) -> Vec<String> {
        let mut files: Vec<String> = self.state.lock().seen.iter().cloned().collect();
        files.sort();
        files
    }

    /// Every symbol record with its key (`"<normalized path>#<symbol>"`), sorted by key.
    pub fn content_records(&self) -> Vec<(String, SymbolRecord)> {
        let st = self.state.lock();
        let mut records: Vec<(String, SymbolRecord)> = st
            .records
            .iter()
            .map(|(k, r)| (k.clone(), r.clone()))
            .collect();
        records.sort_by(|a, b| a.0.cmp(&b.0));
        records
    }

    pub fn new(debug: bool) -> Self {
        FileTracker {
            debug,
            state: Mutex::new(State {
                seen: HashSet::new(),
                records: HashMap::new(),
                text_edit_counts: HashMap::new(),
                max_consecutive_text_edits: 3,
            }),
        }
    }

    /// Whether debug logging (to stderr, Probe's lines) is on.
    pub fn debug(&self) -> bool {
        self.debug
    }

    pub fn max_consecutive_text_edits(&self) -> u32 {
        self.state.lock().max_consecutive_text_edits
    }

    pub fn set_max_consecutive_text_edits(&self, n: u32) {
        self.state.lock().max_consecutive_text_edits = n;
    }

    /// Marks a file as seen and resets its consecutive text-edit count to 0.
    pub fn mark_file_seen(&self, path: &Path) {
        let key = key_of(path);
        let mut st = self.state.lock();
        st.seen.insert(key.clone());
        st.text_edit_counts.insert(key.clone(), 0);
        drop(st);
        if self.logs() {
            eprintln!("[FileTracker] Marked as seen: {key}");
        }
    }

    pub fn is_file_seen(&self, path: &Path) -> bool {
        self.state.lock().seen.contains(&key_of(path))
    }

    /// Stores the content hash of `code` for `symbol` in `path` (`source` is Probe's `'extract'`
    /// by default, `'edit'` after a write).
    pub fn track_symbol_content(
        &self,
        path: &Path,
        symbol: &str,
        code: &str,
        start_line: u32,
        end_line: u32,
        source: &str,
    ) {
        let key = format!("{}#{}", key_of(path), symbol);
        let content_hash = compute_content_hash(code);
        let record = SymbolRecord {
            content_hash: content_hash.clone(),
            start_line,
            end_line,
            symbol_name: Some(symbol.to_string()),
            source: source.to_string(),
            timestamp: now_ms(),
        };
        self.state.lock().records.insert(key.clone(), record);
        if self.logs() {
            eprintln!("[FileTracker] Tracked symbol {key} (hash: {content_hash}, lines {start_line}-{end_line})");
        }
    }

    pub fn get_symbol_record(&self, path: &Path, symbol: &str) -> Option<SymbolRecord> {
        self.state
            .lock()
            .records
            .get(&format!("{}#{}", key_of(path), symbol))
            .cloned()
    }

    /// `{ok: true}` when no record exists or the hash matches; else `reason: "stale"`.
    pub fn check_symbol_content(&self, path: &Path, symbol: &str, current_code: &str) -> Check {
        let key = format!("{}#{}", key_of(path), symbol);
        let Some(stored) = self
            .state
            .lock()
            .records
            .get(&key)
            .map(|r| r.content_hash.clone())
        else {
            return Check::ok();
        };
        let current = compute_content_hash(current_code);
        if current == stored {
            return Check::ok();
        }
        Check {
            ok: false,
            reason: Some("stale".into()),
            message: Some(format!(
                "Symbol \"{symbol}\" has changed since you last read it (hash: {stored} \u{2192} {current})."
            )),
            edit_count: None,
        }
    }

    /// `{ok: true}` when the file was seen; else `reason: "untracked"`.
    pub fn check_before_edit(&self, path: &Path) -> Check {
        if self.is_file_seen(path) {
            return Check::ok();
        }
        Check {
            ok: false,
            reason: Some("untracked".into()),
            message: Some(
                "This file has not been read yet in this session. Use extract or search to read the file first."
                    .into(),
            ),
            edit_count: None,
        }
    }

    /// Marks the file seen (its edit count is left as it is) and drops its symbol records.
    pub fn track_file_after_write(&self, path: &Path) {
        let key = key_of(path);
        self.state.lock().seen.insert(key.clone());
        self.invalidate_file_records(Path::new(&key));
    }

    pub fn record_text_edit(&self, path: &Path) {
        let key = key_of(path);
        let mut st = self.state.lock();
        let count = st
            .text_edit_counts
            .get(&key)
            .copied()
            .unwrap_or(0)
            .saturating_add(1);
        st.text_edit_counts.insert(key.clone(), count);
        drop(st);
        if self.logs() {
            eprintln!("[FileTracker] Text edit #{count} for {key}");
        }
    }

    /// `{ok, editCount}`; not ok (with Probe's message) once the count reaches the maximum.
    pub fn check_text_edit_staleness(&self, path: &Path) -> Check {
        let st = self.state.lock();
        let count = st.text_edit_counts.get(&key_of(path)).copied().unwrap_or(0);
        if count >= st.max_consecutive_text_edits {
            return Check {
                ok: false,
                reason: None,
                message: Some(crate::specs::HostTools::default().edited_unread(count)),
                edit_count: Some(count),
            };
        }
        Check {
            ok: true,
            reason: None,
            message: None,
            edit_count: Some(count),
        }
    }

    pub fn track_symbol_after_write(
        &self,
        path: &Path,
        symbol: &str,
        code: &str,
        start_line: u32,
        end_line: u32,
    ) {
        self.track_symbol_content(path, symbol, code, start_line, end_line, "edit");
    }

    /// Drops every symbol record whose key starts with `"<normalized path>#"`.
    pub fn invalidate_file_records(&self, path: &Path) {
        let prefix = format!("{}#", key_of(path));
        self.state
            .lock()
            .records
            .retain(|k, _| !k.starts_with(&prefix));
        if self.logs() {
            eprintln!(
                "[FileTracker] Invalidated content records for {}",
                path.to_string_lossy()
            );
        }
    }

    pub fn is_tracked(&self, path: &Path) -> bool {
        self.is_file_seen(path)
    }

    pub fn clear(&self) {
        let mut st = self.state.lock();
        st.seen.clear();
        st.records.clear();
        st.text_edit_counts.clear();
    }

    /// Probe's `trackFilesFromOutput`: marks every path found in probe output as seen, resolving
    /// relative ones against `cwd`.
    pub fn track_files_from_output(&self, output: &str, cwd: &Path) {
        for p in parse_file_paths_from_output(output) {
            self.mark_file_seen(&resolve_against(cwd, &p));
        }
    }

    /// Probe's `trackFilesFromExtract`: marks each target's file as seen (once) and, for
    /// `file#Symbol` targets, stores the hash of what `find_symbol(file, symbol)` returns
    /// (`(code, start_line, end_line)`; `None` stores nothing).
    pub fn track_files_from_extract<F>(&self, targets: &[String], cwd: &Path, mut find_symbol: F)
    where
        F: FnMut(&Path, &str) -> Option<(String, u32, u32)>,
    {
        let mut seen = HashSet::new();
        for target in targets {
            let (file, symbol) = split_extract_target(target);
            let resolved = resolve_against(cwd, file);
            if seen.insert(resolved.clone()) {
                self.mark_file_seen(&resolved);
            }
            if let Some(symbol) = symbol {
                if let Some((code, start, end)) = find_symbol(&resolved, symbol) {
                    self.track_symbol_content(&resolved, symbol, &code, start, end, "extract");
                }
            }
        }
    }
}

/// `isAbsolute(p) ? p : resolve(cwd, p)`.
fn resolve_against(cwd: &Path, p: &str) -> PathBuf {
    let path = Path::new(p);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        normalize_path(&cwd.join(path))
    }
}

#[cfg(test)]
mod tests;
