//! Removal of temp files left behind by writers that died mid-write.
//!
//! Rule: after a successful write into a directory (on the background thread), every regular
//! file there named `.edit-engine-*.tmp` that no live writer holds is removed when the process
//! named in it (`.edit-engine-<pid>-<tag>.tmp`) is gone, or else when its modification time is
//! more than [`STALE_AFTER`] ago. A writer holds an exclusive `flock` on its temp
//! file from creation until the rename (see [`temp::hold`]), in this process or any other, so a
//! slow write is never pulled from under its writer; a crashed writer's lock died with it.
//! Symlinks, directories and other names are never touched. A directory is scanned at most once
//! per [`STALE_AFTER`] per process, so frequent writes to a big directory do not list it every
//! time.
use super::temp;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::{Duration, Instant, SystemTime};

/// Age after which an unheld temp file is litter.
pub const STALE_AFTER: Duration = Duration::from_secs(60);

/// Directories scanned recently (bounded: cleared when it reaches this many entries).
const MAX_REMEMBERED_DIRS: usize = 4096;

static LAST_SCAN: LazyLock<Mutex<HashMap<PathBuf, Instant>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// What a successful atomic write runs for its folder: unless `dir` was scanned less than
/// [`STALE_AFTER`] ago in this process, a scan on the background thread (errors are ignored:
/// cleanup never fails a write). The throttle is checked here, so no task is queued when none is due.
pub fn remove_stale_temps_in_background(dir: PathBuf) {
    if scan_due(&dir) {
        let scan = move || {
            remove_stale_temps(&dir, STALE_AFTER);
        };
        super::background::submit_or_run(super::background::Job::Task(Box::new(scan)));
    }
}

/// True (and the scan counted as done now) unless `dir` was scanned less than [`STALE_AFTER`]
/// ago in this process.
fn scan_due(dir: &Path) -> bool {
    let mut seen = LAST_SCAN.lock();
    let now = Instant::now();
    if seen
        .get(dir)
        .is_some_and(|t| now.duration_since(*t) < STALE_AFTER)
    {
        return false;
    }
    if seen.len() >= MAX_REMEMBERED_DIRS {
        seen.clear();
    }
    seen.insert(dir.to_path_buf(), now);
    true
}

/// Removes the temp files in `dir` older than `max_age` that no writer holds.
pub fn remove_stale_temps(dir: &Path, max_age: Duration) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if temp::is_temp_name(name) && remove_if_stale(&entry.path(), max_age) {
            removed += 1;
        }
    }
    removed
}

fn remove_if_stale(path: &Path, max_age: Duration) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
    else {
        return false;
    };
    let Ok(meta) = file.metadata() else {
        return false;
    };
    let old = meta
        .modified()
        .ok()
        .and_then(|m| SystemTime::now().duration_since(m).ok())
        .is_some_and(|age| age > max_age);
    if !meta.is_file() || !(old || owner_is_gone(path)) {
        return false;
    }
    if file.try_lock().is_err() {
        return false; // a live writer holds it
    }
    std::fs::remove_file(path).is_ok()
}

/// True when the temp file's name carries the id of a process that no longer exists.
fn owner_is_gone(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let Some(pid) = temp::writer_pid(name) else {
        return false;
    };
    !crate::sys::process_alive(pid)
}

#[cfg(test)]
mod tests;
