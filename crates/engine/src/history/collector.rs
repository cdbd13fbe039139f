//! When collection of the default stores ([`super::retention`]) runs: on its own thread, never
//! on the thread of an edit, and at most one at a time per process (and, through the root's
//! collection lock, per machine) for each root.
//!
//! A use of a default store ([`note_use`]) starts a collection when either
//! - the last one (any process's, read from the marker file `.last-collection` in the root) is
//!   an hour old or more (this process checks the marker at most hourly), or
//! - this process has written a sixteenth of the total cap since its last collection (so the
//!   cap holds however fast stores grow).
use super::{retention, store_meta, HistoryStore};
use parking_lot::{Condvar, Mutex};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The marker file in the root: the time of the last collection (ms since the epoch, as text).
pub const MARKER: &str = ".last-collection";
/// Collections run at most this often (one hour), unless stores grow fast.
pub const COLLECT_EVERY_MS: u64 = 3_600_000;

/// What this process knows of collections of one root.
#[derive(Default)]
struct State {
    running: bool,
    /// Bytes written to default stores since the last collection started.
    written: u64,
    /// Retention-clock time (ms) of the next marker check.
    next_check_ms: u64,
}

static STATES: Mutex<Option<HashMap<PathBuf, State>>> = Mutex::new(None);
static IDLE: Condvar = Condvar::new();

/// Notes a use of the default store `store` (of `workspace`, in `root`) that wrote about
/// `written` bytes, under total cap `cap`: keeps the store's "last used" current and starts a
/// background collection when one is due (see the module doc). Cheap when none is: a lock and
/// a few comparisons.
pub fn note_use(root: &Path, store: &HistoryStore, workspace: &Path, cap: u64, written: u64) {
    let now = retention::now_ms();
    store_meta::touch(store, workspace, now);
    let force = {
        let mut states = STATES.lock();
        let state = states
            .get_or_insert_with(HashMap::new)
            .entry(root.to_path_buf())
            .or_default();
        state.written = state.written.saturating_add(written);
        let grown = state.written >= cap / 16;
        if state.running || !(grown || now >= state.next_check_ms) {
            return;
        }
        state.running = true;
        state.written = 0;
        state.next_check_ms = now.saturating_add(COLLECT_EVERY_MS);
        grown
    };
    let spawned = std::thread::Builder::new()
        .name("edit-engine-collect".into())
        .spawn({
            let root = root.to_path_buf();
            move || {
                run(&root, cap, force);
                finish(&root);
            }
        });
    if spawned.is_err() {
        finish(root);
    }
}

fn finish(root: &Path) {
    if let Some(state) = STATES.lock().as_mut().and_then(|m| m.get_mut(root)) {
        state.running = false;
    }
    IDLE.notify_all();
}

/// One collection of `root` if due: `force`, or the marker an hour old. Returns what was done
/// (`None`: not due, or another process is collecting).
pub fn run(root: &Path, cap: u64, force: bool) -> Option<retention::Outcome> {
    let now = retention::now_ms();
    if !force && !due(root, now) {
        return None;
    }
    let outcome = retention::collect(root, cap, now, false)?;
    write_marker(root, now);
    Some(outcome)
}

/// Writes the marker file of `root` whole (a temp file renamed over it, no symlink followed);
/// best effort: a marker not written only makes the next collection come sooner.
fn write_marker(root: &Path, now: u64) {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let tmp = root.join(format!("{MARKER}.tmp{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&tmp)
        .and_then(|mut f| f.write_all(now.to_string().as_bytes()))
        .and_then(|()| std::fs::rename(&tmp, root.join(MARKER)));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// True when the marker is missing, unreadable, or an hour old (or in the future).
pub(super) fn due(root: &Path, now: u64) -> bool {
    let last: Option<u64> = std::fs::read_to_string(root.join(MARKER))
        .ok()
        .and_then(|t| t.trim().parse().ok());
    last.is_none_or(|t| t > now || now - t >= COLLECT_EVERY_MS)
}

/// Waits (at most `timeout`) until no background collection of this process is running; true
/// when none is. For tests and benchmarks.
pub fn settle(timeout: std::time::Duration) -> bool {
    let running = |m: &Option<HashMap<PathBuf, State>>| {
        m.as_ref().is_some_and(|m| m.values().any(|s| s.running))
    };
    let mut states = STATES.lock();
    let deadline = std::time::Instant::now() + timeout;
    while running(&states) {
        if IDLE.wait_until(&mut states, deadline).timed_out() {
            return !running(&states);
        }
    }
    true
}

/// Every root default stores of this process's environment may live in: the preferred one (see
/// [`super::default_parent`]) whether it exists or not, then each other of
/// [`super::default_parents`] that is a folder (stores that fell back to it).
pub fn default_roots() -> Vec<PathBuf> {
    roots_of(super::default_parents(|k| std::env::var_os(k)))
}

/// The first of `parents`, then the others that are folders.
fn roots_of(parents: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut parents = parents.into_iter();
    parents
        .next()
        .into_iter()
        .chain(parents.filter(|p| p.is_dir()))
        .collect()
}

/// The default stores of every root (see [`default_roots`]), least recently used first.
pub fn list_default_stores(roots: &[PathBuf]) -> Vec<retention::StoreInfo> {
    let mut stores: Vec<_> = roots.iter().flat_map(|r| retention::list(r)).collect();
    stores.sort_by_key(|s| s.last_used_ms);
    stores
}

/// Collects each of `roots` that is a folder under total cap `cap` (see [`retention::collect`]):
/// what was done in all of them, and whether every collection ran (`false`: another process was
/// collecting one of them).
pub fn collect_default_roots(
    roots: &[PathBuf],
    cap: u64,
    dry_run: bool,
) -> (retention::Outcome, bool) {
    let now = retention::now_ms();
    let mut all = retention::Outcome::default();
    let mut ran = true;
    for root in roots.iter().filter(|r| r.is_dir()) {
        let Some(outcome) = retention::collect(root, cap, now, dry_run) else {
            ran = false;
            continue;
        };
        all.removed.extend(outcome.removed);
        all.busy.extend(outcome.busy);
        all.bytes_before += outcome.bytes_before;
        all.bytes_after += outcome.bytes_after;
    }
    (all, ran)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stores that fell back to a later default parent are listed and collected too: the
    /// preferred parent always counts, every other one that exists.
    #[test]
    fn every_existing_default_parent_is_a_root() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second, third) = (
            dir.path().join("missing"),
            dir.path().join("fallback"),
            dir.path().join("absent"),
        );
        std::fs::create_dir(&second).unwrap();
        let parents = vec![first.clone(), second.clone(), third];
        assert_eq!(roots_of(parents), vec![first, second]);
        assert_eq!(roots_of(Vec::new()), Vec::<PathBuf>::new());
    }
}
