//! The `FileReadTracker`: which files the agent has read, and the modification time each
//! had when it was read. Edit tools given a read tracker refuse files never read and files whose
//! modification time moved since the read (changed by someone else).
//!
//! Keys are [`normalize_path`] strings (absolute, `.`/`..` folded, symlinks kept), so `a/../b.js`
//! and `b.js` are one file. Times are milliseconds since the Unix epoch as Node's `stats.mtimeMs`
//! computes them (see [`mtime_ms`]), so a value from `fs.statSync(p).mtimeMs` compares exactly; a
//! runtime that reports whole milliseconds (Deno) matches within its millisecond.

use super::normalize_path;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Read times by normalized path. Thread-safe; shared by the napi class and tool contexts.
#[derive(Debug, Default)]
pub struct FileReadTracker {
    reads: Mutex<HashMap<String, f64>>,
    /// BLAKE3 of the content at the read, when the file still had the recorded modification time
    /// then (`None`: it did not, so it counts as changed).
    hashes: Mutex<HashMap<String, Option<[u8; 32]>>>,
}

fn key_of(path: &Path) -> String {
    normalize_path(path).to_string_lossy().into_owned()
}

impl FileReadTracker {
    pub fn new() -> Self {
        FileReadTracker::default()
    }

    /// Records that `path` was read while its modification time was `mtime` (replacing any
    /// earlier record). If the file still has that modification time its content is hashed, so
    /// a later change that leaves the time as it was is still seen; otherwise the file counts as
    /// changed since the read.
    pub fn record_read(&self, path: &Path, mtime: f64) {
        let key = key_of(path);
        let file = normalize_path(path);
        let hash = (mtime_ms(&file).is_some_and(|now| same_time(now, mtime)))
            .then(|| std::fs::read(&file).ok())
            .flatten()
            .map(|bytes| *blake3::hash(&bytes).as_bytes());
        self.hashes.lock().insert(key.clone(), hash);
        self.reads.lock().insert(key, mtime);
    }

    /// True when `path` was read, its content was hashed then, and `content` hashes the same;
    /// `None` when it was never read.
    pub fn content_unchanged(&self, path: &Path, content: &[u8]) -> Option<bool> {
        let recorded = *self.hashes.lock().get(&key_of(path))?;
        Some(recorded.is_some_and(|h| h == *blake3::hash(content).as_bytes()))
    }

    /// True once [`record_read`](Self::record_read) was called for `path` (since the last clear).
    pub fn has_been_read(&self, path: &Path) -> bool {
        self.reads.lock().contains_key(&key_of(path))
    }

    /// The modification time recorded at the last read, if any.
    pub fn get_read_time(&self, path: &Path) -> Option<f64> {
        self.reads.lock().get(&key_of(path)).copied()
    }

    /// True when `path` was read and `current_mtime` differs from the recorded time. A file never
    /// read has no recorded time and so reports `false` (use [`has_been_read`](Self::has_been_read)).
    pub fn check_external_modification(&self, path: &Path, current_mtime: f64) -> bool {
        self.get_read_time(path)
            .is_some_and(|t| !same_time(t, current_mtime))
    }

    /// Forgets every read.
    pub fn clear(&self) {
        self.hashes.lock().clear();
        self.reads.lock().clear();
    }

    /// Number of files recorded.
    pub fn len(&self) -> usize {
        self.reads.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Times are equal when equal as numbers (or both NaN), or when one is a whole millisecond and
/// the other lies within it: Deno's `stats.mtimeMs` is cut to whole milliseconds where Node's
/// keeps the fraction. A change within that millisecond is still caught by the content hash
/// taken at the read.
pub fn same_time(a: f64, b: f64) -> bool {
    let within = |whole: f64, precise: f64| whole.fract() == 0.0 && precise.floor() == whole;
    a == b || (a.is_nan() && b.is_nan()) || within(a, b) || within(b, a)
}

/// A file's modification time in milliseconds since the epoch, computed as Node computes
/// `stats.mtimeMs` (`sec * 1e3 + nsec / 1e6` in doubles), so both sides agree to the bit.
/// Times before the epoch come out negative. `None` when the file cannot be stat'ed.
pub fn mtime_ms(path: &Path) -> Option<f64> {
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(system_time_ms(modified))
}

/// [`mtime_ms`] for an already known `SystemTime`.
pub fn system_time_ms(time: SystemTime) -> f64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs() as f64 * 1e3 + f64::from(d.subsec_nanos()) / 1e6,
        Err(e) => {
            // Before the epoch: Node sees sec < 0 and 0 <= nsec < 1e9.
            let d = e.duration();
            let (mut sec, mut nsec) = (-(d.as_secs() as f64), -f64::from(d.subsec_nanos()));
            if nsec < 0.0 {
                sec -= 1.0;
                nsec += 1e9;
            }
            sec * 1e3 + nsec / 1e6
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_forgets_reads() {
        let t = FileReadTracker::new();
        assert!(!t.has_been_read(Path::new("/w/a.js")));
        assert_eq!(t.get_read_time(Path::new("/w/a.js")), None);
        t.record_read(Path::new("/w/x/../a.js"), 1234.5);
        assert!(t.has_been_read(Path::new("/w//a.js")));
        assert_eq!(t.get_read_time(Path::new("/w/a.js")), Some(1234.5));
        t.clear();
        assert!(t.is_empty());
    }

    #[test]
    fn external_modification_compares_times() {
        let t = FileReadTracker::new();
        let p = Path::new("/w/a.js");
        assert!(
            !t.check_external_modification(p, 1.0),
            "never read: nothing to compare"
        );
        t.record_read(p, 1000.25);
        assert!(!t.check_external_modification(p, 1000.25));
        assert!(t.check_external_modification(p, 1000.5));
        assert!(t.check_external_modification(p, 999.0));
        t.record_read(p, 1000.5);
        assert!(!t.check_external_modification(p, 1000.5));
    }

    #[test]
    fn a_time_in_whole_milliseconds_matches_within_its_millisecond() {
        let t = FileReadTracker::new();
        let p = Path::new("/w/a.js");
        t.record_read(p, 1000.0);
        assert!(!t.check_external_modification(p, 1000.25));
        assert!(!t.check_external_modification(p, 1000.0));
        assert!(t.check_external_modification(p, 1001.0));
        assert!(t.check_external_modification(p, 999.75));
        t.record_read(p, 1000.25);
        assert!(!t.check_external_modification(p, 1000.0));
        assert!(t.check_external_modification(p, 1001.0));
    }

    #[test]
    fn a_whole_millisecond_read_time_still_hashes_the_content() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a");
        std::fs::write(&f, "x").unwrap();
        let t = FileReadTracker::new();
        t.record_read(&f, mtime_ms(&f).unwrap().floor());
        assert_eq!(t.content_unchanged(&f, b"x"), Some(true));
        assert_eq!(t.content_unchanged(&f, b"y"), Some(false));
    }

    #[test]
    fn mtime_matches_node_formula() {
        let t = UNIX_EPOCH + std::time::Duration::new(1_700_000_000, 123_456_789);
        assert_eq!(
            system_time_ms(t),
            1_700_000_000f64 * 1e3 + 123_456_789f64 / 1e6
        );
        let before = UNIX_EPOCH - std::time::Duration::new(1, 500_000_000);
        assert_eq!(system_time_ms(before), -1500.0);
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a");
        std::fs::write(&f, "x").unwrap();
        assert!(mtime_ms(&f).is_some_and(|m| m > 0.0));
        assert_eq!(mtime_ms(&dir.path().join("missing")), None);
    }
}
