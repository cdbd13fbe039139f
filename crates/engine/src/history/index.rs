//! Per-file level lists (`index/<key>.log`) and size-bounded eviction across all files.
//!
//! An index is an append-only log of JSON lines, so recording a level is one `write` to the end of
//! a small file instead of a whole-file rewrite (a rename over an existing file makes ext4 flush
//! the new file's data, which cost more than the rest of a small edit):
//! - `{"path": "..."}`: the file the log belongs to (first line);
//! - `{"push": {entry}}`: a new newest level;
//! - `"pop"`: the newest level was undone;
//! - `{"drop": n}`: the `n` oldest levels were dropped (level cap).
//!
//! Appends happen under the store lock, one `write` call per change. A last line without its
//! newline (a crash mid-append) is ignored and the log is rewritten whole (temp file + rename) at
//! its next change; so is a log that grew past [`COMPACT_AFTER_LINES`]. Any other unreadable line
//! makes the whole index read as empty: its levels are lost, never misread.
use super::root::{Root, Sub};
use super::{hex, store_fs, HistoryEntry, HistoryError};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// A log with more lines than this is rewritten whole at its next change.
const COMPACT_AFTER_LINES: usize = 256;

/// One line of an index log.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Line {
    Path(String),
    Push(HistoryEntry),
    Pop,
    Drop(usize),
}

/// The levels of one file, oldest first.
#[derive(Debug)]
pub(super) struct Index {
    pub path: String,
    pub entries: Vec<HistoryEntry>,
    /// The store it lives in.
    root: Arc<Root>,
    /// Its file's name in `index/`.
    file: String,
    /// Lines in the log on disk (0: no log yet).
    lines: usize,
    /// The log on disk must be rewritten whole before anything is appended (torn or too long).
    rewrite: bool,
    /// The log as opened to read it, kept for the next append (loaded and appended under one
    /// hold of the store lock, so it is still the log at its name).
    log: Option<std::fs::File>,
}

impl Index {
    /// The index of `path`; empty when there is none or it cannot be parsed.
    pub fn load(root: &Arc<Root>, path: &Path) -> Index {
        let key = hex(blake3::hash(&store_fs::path_bytes(path)).as_bytes());
        let file = format!("{key}.log");
        let mut idx = Index::read_file(root, &file).unwrap_or_else(|| {
            // An unreadable log is replaced by the next change.
            let mut idx = Index::empty(root, &file);
            idx.rewrite = root.stat(Sub::Index, &file).is_some();
            idx
        });
        idx.path = path.to_string_lossy().into_owned();
        idx
    }

    fn empty(root: &Arc<Root>, file: &str) -> Index {
        Index {
            path: String::new(),
            entries: Vec::new(),
            root: root.clone(),
            file: file.to_string(),
            lines: 0,
            rewrite: false,
            log: None,
        }
    }

    fn read_file(root: &Arc<Root>, file: &str) -> Option<Index> {
        let log = root.open_read_append(Sub::Index, file).ok()?;
        let stat = LogStat::of(&log);
        let mut idx = Index::empty(root, file);
        if unchanged_since_parse(root, file, stat.as_ref(), &mut idx) {
            idx.log = Some(log);
            idx.rewrite = idx.lines > COMPACT_AFTER_LINES;
            return Some(idx);
        }
        let bytes = store_fs::read_at_most(&log, u64::MAX / 2)?;
        #[cfg(test)]
        tests::LOGS_READ.with(|n| n.set(n.get() + 1));
        let complete = bytes.last().is_none_or(|b| *b == b'\n');
        idx.rewrite = !complete;
        idx.log = Some(log);
        let parsed = parsed_prefix(root, file, &bytes, &mut idx);
        idx.parse_lines(&bytes[parsed..], complete)?;
        if complete {
            // The status taken before the read holds only if the log did not grow meanwhile.
            let stat = stat.filter(|st| st.len == bytes.len() as u64);
            remember_parse(root, file, &bytes, stat, &idx);
        }
        idx.rewrite |= idx.lines > COMPACT_AFTER_LINES;
        Some(idx)
    }

    /// Folds the log lines of `bytes` into this index; `None` when a line cannot be trusted (a
    /// torn last line of an incomplete log is skipped).
    fn parse_lines(&mut self, bytes: &[u8], complete: bool) -> Option<()> {
        let idx = self;
        let mut lines = bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty());
        let mut next = lines.next();
        while let Some(line) = next {
            next = lines.next();
            let parsed = match serde_json::from_slice::<Line>(line) {
                Ok(parsed) => parsed,
                Err(_) if next.is_none() && !complete => break, // torn last append
                Err(_) => return None,
            };
            if matches!(&parsed, Line::Push(entry) if !names_are_valid(entry)) {
                return None; // a name that is not a blob's: never trusted
            }
            idx.lines += 1;
            fold(&mut idx.path, &mut idx.entries, parsed);
        }
        Some(())
    }

    /// Adds `entry` as the newest level, keeping at most `max_levels` (oldest dropped).
    pub fn push(&mut self, entry: HistoryEntry, max_levels: usize) -> Result<(), HistoryError> {
        self.entries.push(entry.clone());
        let excess = self.entries.len().saturating_sub(max_levels);
        self.entries.drain(..excess);
        let mut change = vec![Line::Push(entry)];
        if excess > 0 {
            change.push(Line::Drop(excess));
        }
        self.append(change)
    }

    /// Removes the newest level (the caller has taken it from `entries`' end already).
    pub fn record_pop(&mut self) -> Result<(), HistoryError> {
        if self.entries.is_empty() {
            return self.remove_file();
        }
        self.append(vec![Line::Pop])
    }

    /// Appends `change` in one write, or rewrites the whole log when it is new, torn or long.
    fn append(&mut self, change: Vec<Line>) -> Result<(), HistoryError> {
        if self.lines == 0 || self.rewrite {
            return self.save();
        }
        let count = change.len();
        let buf = self.encode(&change)?;
        let mut file = match self.log.take() {
            Some(log) => log,
            None => self
                .root
                .open_append(Sub::Index, &self.file)
                .map_err(self.io("open the index of"))?,
        };
        file.write_all(&buf)
            .map_err(self.io("append to the index of"))?;
        self.lines += count;
        remember_append(&self.root, &self.file, &buf, change, LogStat::of(&file));
        super::root::sync_later(file);
        Ok(())
    }

    /// Writes the whole log afresh (temp file + rename); removes it when there are no levels.
    pub fn save(&mut self) -> Result<(), HistoryError> {
        if self.entries.is_empty() {
            return self.remove_file();
        }
        let path = Line::Path(self.path.clone());
        let pushes = self.entries.iter().cloned().map(Line::Push);
        let buf = self.encode(std::iter::once(path).chain(pushes))?;
        forget_parse(&self.root, &self.file);
        store_fs::write_whole(&self.root, Sub::Index, &self.file, &buf)?;
        self.lines = self.entries.len() + 1;
        self.log = None; // replaced by the rename
        self.rewrite = false;
        Ok(())
    }

    /// `lines` as JSON lines, each ending in a newline.
    fn encode<L: Serialize>(
        &self,
        lines: impl IntoIterator<Item = L>,
    ) -> Result<Vec<u8>, HistoryError> {
        let mut buf = Vec::new();
        for line in lines {
            serde_json::to_writer(&mut buf, &line)
                .map_err(|e| self.io("serialize the index of")(e.into()))?;
            buf.push(b'\n');
        }
        Ok(buf)
    }

    /// Its levels with its path, as [`super::checkpoints::note_lost`] takes levels about to go.
    pub fn lost(&self) -> impl Iterator<Item = (&str, &HistoryEntry)> {
        self.entries.iter().map(move |e| (self.path.as_str(), e))
    }

    /// Forgets every level (the blobs are collected by the next eviction).
    pub fn remove(&mut self) -> Result<(), HistoryError> {
        self.entries.clear();
        self.remove_file()
    }

    fn remove_file(&mut self) -> Result<(), HistoryError> {
        forget_parse(&self.root, &self.file);
        self.lines = 0;
        self.log = None;
        self.rewrite = false;
        match self.root.remove(Sub::Index, &self.file) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(self.io("remove the index of")(source)),
        }
    }

    fn io(&self, op: &'static str) -> impl FnOnce(std::io::Error) -> HistoryError + '_ {
        move |source| HistoryError::Io {
            op,
            path: self.path.clone(),
            source,
        }
    }
}

/// The last parse of a complete index log (the hash of its bytes and the fold of their lines),
/// so the next load of the same log parses only the lines appended since. Checked against the
/// bytes read, so a log changed any other way (rewritten, by another process) is parsed whole
/// again; a log whose status is still the one taken after that parse or this process's last
/// append to it (same file, length, change times) is not read at all. The engine only appends to
/// a log or renames a new one over it, which always changes that status; a foreign tool
/// rewriting a log in place to the same length within one timestamp tick would go unseen (undo
/// still checks the file's content hash before restoring any level).
struct ParsedLog {
    /// How many bytes of the log were parsed, and their hash (extended by each append).
    len: u64,
    hash: blake3::Hasher,
    stat: Option<LogStat>,
    path: String,
    entries: Vec<HistoryEntry>,
    lines: usize,
}

/// What identifies one state of a log file: an append changes its length and change time, a
/// rewrite (a rename over it) its inode and birth time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LogStat {
    dev: u64,
    ino: u64,
    len: u64,
    ctime_ns: i128,
    mtime_ns: i128,
    btime_ns: Option<i128>,
}

impl LogStat {
    fn of(file: &std::fs::File) -> Option<LogStat> {
        use std::os::unix::fs::MetadataExt;
        let m = file.metadata().ok()?;
        let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
        let btime_ns = m.created().ok().and_then(|t| {
            let d = t.duration_since(std::time::UNIX_EPOCH).ok()?;
            Some(d.as_nanos() as i128)
        });
        Some(LogStat {
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
            ctime_ns: ns(m.ctime(), m.ctime_nsec()),
            mtime_ns: ns(m.mtime(), m.mtime_nsec()),
            btime_ns,
        })
    }
}

/// Folds one line of a log into a file's path and levels.
fn fold(path: &mut String, entries: &mut Vec<HistoryEntry>, line: Line) {
    match line {
        Line::Path(p) => *path = p,
        Line::Push(entry) => entries.push(entry),
        Line::Pop => drop(entries.pop()),
        Line::Drop(n) => drop(entries.drain(..n.min(entries.len()))),
    }
}

/// Logs kept parsed, keyed by store folder and log name, within [`PARSED_LOGS_BUDGET`]: enough
/// for a burst of edits across a thousand files at the level cap, where a smaller set parsed
/// each file's whole log again at every level, under the store lock every writer waits for.
static PARSED_LOGS: parking_lot::Mutex<Option<ParsedLogs>> = parking_lot::Mutex::new(None);
/// Most memory the kept parses take (as [`ParsedLog::size`] estimates it).
const PARSED_LOGS_BUDGET: usize = 32 << 20;

type LogKey = (std::path::PathBuf, String);

#[derive(Default)]
struct ParsedLogs {
    logs: HashMap<LogKey, ParsedLog>,
    /// The sum of the kept logs' sizes.
    size: usize,
}

impl ParsedLog {
    /// About the memory it takes: the hasher's state, the path, the levels with their names.
    fn size(&self) -> usize {
        std::mem::size_of::<ParsedLog>()
            + self.path.len()
            + self.entries.len() * (std::mem::size_of::<HistoryEntry>() + 192)
    }
}

impl ParsedLogs {
    /// Keeps `parsed` under `key`, dropping other logs while over the budget.
    fn insert(&mut self, key: LogKey, parsed: ParsedLog) {
        self.remove(&key);
        self.size += parsed.size();
        while self.size > PARSED_LOGS_BUDGET {
            let Some(other) = self.logs.keys().next().cloned() else {
                break;
            };
            self.remove(&other);
        }
        self.logs.insert(key, parsed);
    }

    fn remove(&mut self, key: &LogKey) {
        if let Some(gone) = self.logs.remove(key) {
            self.size -= gone.size();
        }
    }
}

fn key_of(root: &Root, file: &str) -> LogKey {
    (root.path().to_path_buf(), file.to_string())
}

/// When the last parse of `file` is a prefix of `bytes`, puts its fold in `idx` and returns the
/// length already parsed; else 0.
fn parsed_prefix(root: &Root, file: &str, bytes: &[u8], idx: &mut Index) -> usize {
    let logs = PARSED_LOGS.lock();
    match logs.as_ref().and_then(|m| m.logs.get(&key_of(root, file))) {
        Some(p)
            if bytes.len() as u64 >= p.len
                && blake3::hash(&bytes[..p.len as usize]) == p.hash.finalize() =>
        {
            idx.path.clone_from(&p.path);
            idx.entries.clone_from(&p.entries);
            idx.lines = p.lines;
            p.len as usize
        }
        _ => 0,
    }
}

/// When `file`'s log still has the status `stat` recorded with its last parse, puts that parse
/// in `idx` (nothing read) and returns true.
fn unchanged_since_parse(root: &Root, file: &str, stat: Option<&LogStat>, idx: &mut Index) -> bool {
    let Some(stat) = stat else { return false };
    let logs = PARSED_LOGS.lock();
    match logs.as_ref().and_then(|m| m.logs.get(&key_of(root, file))) {
        Some(p) if p.stat.as_ref() == Some(stat) => {
            idx.path.clone_from(&p.path);
            idx.entries.clone_from(&p.entries);
            idx.lines = p.lines;
            true
        }
        _ => false,
    }
}

/// After this process appended `appended` (the lines `change`) to `file`'s log, now of status
/// `stat`: folds them into the kept parse when it was the log just before the append (loaded
/// under the same hold of the store lock); else forgets it.
fn remember_append(
    root: &Root,
    file: &str,
    appended: &[u8],
    change: Vec<Line>,
    stat: Option<LogStat>,
) {
    let mut logs = PARSED_LOGS.lock();
    let Some(kept) = logs.as_mut() else { return };
    let key = key_of(root, file);
    let Some(mut p) = kept.logs.remove(&key) else {
        return;
    };
    kept.size -= p.size();
    match stat {
        Some(stat) if p.len + appended.len() as u64 == stat.len => {
            p.hash.update(appended);
            p.len = stat.len;
            p.stat = Some(stat);
            p.lines += change.len();
            for line in change {
                fold(&mut p.path, &mut p.entries, line);
            }
            kept.insert(key, p);
        }
        _ => {}
    }
}

/// Forgets the kept parse of `file`'s log (about to be rewritten or removed).
fn forget_parse(root: &Root, file: &str) {
    if let Some(kept) = PARSED_LOGS.lock().as_mut() {
        kept.remove(&key_of(root, file));
    }
}

/// Keeps `idx`, the fold of the complete log `bytes` (of status `stat` when it was read whole),
/// for [`parsed_prefix`] and [`unchanged_since_parse`].
fn remember_parse(root: &Root, file: &str, bytes: &[u8], stat: Option<LogStat>, idx: &Index) {
    let mut hash = blake3::Hasher::new();
    hash.update(bytes);
    let parsed = ParsedLog {
        len: bytes.len() as u64,
        hash,
        stat,
        path: idx.path.clone(),
        entries: idx.entries.clone(),
        lines: idx.lines,
    };
    let mut logs = PARSED_LOGS.lock();
    logs.get_or_insert_with(ParsedLogs::default)
        .insert(key_of(root, file), parsed);
}

/// Brings the blobs and stored previews under `max_bytes`: unreferenced blobs go first, then
/// previews older than their default time to live, then the oldest previews and levels of all
/// files (levels always from the old end of a file's chain). The blobs dropped are moved aside
/// once the logs no longer name them (see [`store_fs::discard_object`]); returns their names, for
/// [`store_fs::remove_discarded`] once the store lock is released.
pub(super) fn evict(
    dir: &Arc<Root>,
    max_bytes: u64,
    objects: Vec<(String, u64)>,
) -> Result<Vec<String>, HistoryError> {
    let mut indexes = load_all(dir);
    let mut previews = super::previews::held(dir);
    store_fs::collect_stale_temps(dir);
    let txns: std::collections::HashSet<String> = indexes
        .iter()
        .flat_map(|i| &i.entries)
        .filter_map(|e| e.txn.clone())
        .collect();
    super::txn::collect(dir, &txns);
    let mut tally = Tally::of(dir, &indexes, &previews, objects);
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = indexes
        .iter()
        .enumerate()
        .filter_map(|(i, idx)| idx.entries.first().map(|e| Reverse((e.timestamp, i))))
        .collect();
    let mut dirty = vec![false; indexes.len()];
    let mut lost = Vec::new();
    while tally.total > max_bytes {
        // Expired previews go first, then previews and levels alike, oldest first.
        let oldest_level = heap.peek().map(|Reverse((t, _))| *t);
        let preview_first = previews
            .front()
            .is_some_and(|p| p.expired || oldest_level.is_none_or(|t| p.created_ms <= t));
        if let Some(p) = preview_first.then(|| previews.pop_front()).flatten() {
            p.remove(dir);
            tally.total = tally.total.saturating_sub(p.bytes);
            p.blobs.iter().for_each(|name| tally.release(name));
            continue;
        }
        let Some(Reverse((_, i))) = heap.pop() else {
            break;
        };
        let e = indexes[i].entries.remove(0);
        dirty[i] = true;
        lost.push((indexes[i].path.clone(), e.clone()));
        for name in std::iter::once(&e.blake3).chain(&e.written) {
            tally.release(name);
        }
        if let Some(first) = indexes[i].entries.first() {
            heap.push(Reverse((first.timestamp, i)));
        }
    }
    if killed_before("saving the logs") {
        return Ok(Vec::new());
    }
    for (idx, _) in indexes.iter_mut().zip(&dirty).filter(|(_, d)| **d) {
        idx.save()?;
    }
    super::checkpoints::note_lost(dir, lost.iter().map(|(p, e)| (p.as_str(), e)));
    if killed_before("dropping the blobs") {
        return Ok(Vec::new());
    }
    let doomed = tally.doomed.iter();
    Ok(doomed
        .filter_map(|name| store_fs::discard_object(dir, name))
        .collect())
}

#[cfg(test)]
thread_local! {
    /// Test-only: the step of [`evict`] on this thread before which it stops, as a process killed
    /// there would.
    pub(super) static EVICTION_KILLED_BEFORE: std::cell::Cell<Option<&'static str>> =
        const { std::cell::Cell::new(None) };
}

/// Whether a test stops [`evict`] before `step` (see [`EVICTION_KILLED_BEFORE`]).
#[cfg(test)]
fn killed_before(step: &'static str) -> bool {
    EVICTION_KILLED_BEFORE.with(|k| k.get() == Some(step))
}

#[cfg(not(test))]
#[inline(always)]
fn killed_before(_step: &'static str) -> bool {
    false
}

/// What an eviction counts: the references to each blob, the disk use of each referenced blob,
/// the store's disk use counted against the cap, and the blobs to drop (nothing references them).
struct Tally {
    refs: HashMap<String, usize>,
    sizes: HashMap<String, u64>,
    total: u64,
    doomed: Vec<String>,
}

impl Tally {
    /// The references of `indexes`' levels and of `previews`; blobs nothing references are
    /// doomed on the way. The logs count against the cap too (about constant while blobs go).
    fn of(
        dir: &Root,
        indexes: &[Index],
        previews: &VecDeque<super::previews::Held>,
        objects: Vec<(String, u64)>,
    ) -> Self {
        let mut refs: HashMap<String, usize> = HashMap::new();
        let levels = indexes.iter().flat_map(|i| &i.entries);
        let level_blobs = levels.flat_map(|e| std::iter::once(&e.blake3).chain(&e.written));
        for name in level_blobs.chain(previews.iter().flat_map(|p| &p.blobs)) {
            *refs.entry(name.clone()).or_default() += 1;
        }
        let mut sizes: HashMap<String, u64> = HashMap::new();
        let mut total = store_fs::index_size(dir) + previews.iter().map(|p| p.bytes).sum::<u64>();
        let mut doomed = Vec::new();
        for (name, size) in objects {
            if refs.contains_key(&name) {
                total += size;
                sizes.insert(name, size);
            } else {
                doomed.push(name);
            }
        }
        Tally {
            refs,
            sizes,
            total,
            doomed,
        }
    }

    /// Drops one reference to the blob `name`, dooming it once nothing references it.
    fn release(&mut self, name: &str) {
        let count = self.refs.entry(name.to_string()).or_default();
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.doomed.push(name.to_string());
            let size = self.sizes.get(name).copied().unwrap_or(0);
            self.total = self.total.saturating_sub(size);
        }
    }
}

/// True when every blob name of `entry` is a valid one (64 lowercase hex digits).
fn names_are_valid(entry: &HistoryEntry) -> bool {
    super::is_blob_name(&entry.blake3)
        && entry.written.as_deref().is_none_or(super::is_blob_name)
        && entry.txn.as_deref().is_none_or(super::txn::is_txn_id)
}

/// Every readable index; unreadable ones (and indexes of an older layout) are removed: their
/// levels are lost, never misread.
pub(super) fn load_all(root: &Arc<Root>) -> Vec<Index> {
    let mut out = Vec::new();
    for (name, _) in root.list(Sub::Index) {
        if name.starts_with('.') {
            continue;
        }
        match name
            .ends_with(".log")
            .then(|| Index::read_file(root, &name))
            .flatten()
        {
            Some(mut idx) => {
                idx.log = None; // not held for thousands of logs
                out.push(idx);
            }
            None => {
                let _ = root.remove(Sub::Index, &name);
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
