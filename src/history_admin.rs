//! The default undo stores seen from outside an edit: list them, collect them (the CLI's
//! `edit-engine history`), and wait for a background collection (tests and benchmarks).
use edit_engine_core::history::{collector, retention};
use napi_derive::napi;
use std::path::Path;

/// One default store.
#[napi(object)]
pub struct HistoryStoreInfo {
    pub dir: String,
    /// Its workspace; absent when the store does not record it.
    pub workspace: Option<String>,
    /// Whether the workspace folder exists; absent when the workspace is unknown.
    pub workspace_exists: Option<bool>,
    /// Last use, in milliseconds since the Unix epoch.
    pub last_used_ms: f64,
    /// Disk use in bytes.
    pub bytes: f64,
    /// Why a collection removed it (only in `collectHistory`'s `removed`).
    pub reason: Option<String>,
}

/// The default stores' roots and their stores, least recently used first.
#[napi(object)]
pub struct HistoryStores {
    /// Where default stores live by preference; absent when this user has no state directory.
    pub root: Option<String>,
    /// Every root listed: `root`, then each other default parent that exists (stores that fell
    /// back to it when `root` could not hold them).
    pub roots: Vec<String>,
    pub stores: Vec<HistoryStoreInfo>,
    /// The cap on their total disk use in effect (option or environment, else 1 GiB).
    pub cap_bytes: f64,
}

/// What `collectHistory` did.
#[napi(object)]
pub struct HistoryCollection {
    pub root: Option<String>,
    /// Every root collected (as `HistoryStores.roots`).
    pub roots: Vec<String>,
    /// False when another process was collecting (nothing was done).
    pub ran: bool,
    pub removed: Vec<HistoryStoreInfo>,
    /// Stores due for removal but in use: left for a later collection.
    pub busy: Vec<String>,
    pub bytes_before: f64,
    pub bytes_after: f64,
    pub cap_bytes: f64,
}

fn info(s: retention::StoreInfo, reason: Option<retention::Reason>) -> HistoryStoreInfo {
    let text = |p: &Path| p.to_string_lossy().into_owned();
    HistoryStoreInfo {
        dir: text(&s.dir),
        workspace: s.workspace.as_deref().map(text),
        workspace_exists: s.workspace_exists,
        last_used_ms: s.last_used_ms as f64,
        bytes: s.bytes as f64,
        reason: reason.map(|r| r.to_string()),
    }
}

fn cap_of(max_bytes: Option<f64>) -> u64 {
    retention::total_cap(
        max_bytes
            .filter(|n| n.is_finite() && *n >= 0.0)
            .map(|n| n as u64),
    )
}

fn texts(paths: &[std::path::PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

/// The default undo stores of this user, in every root, least recently used first.
#[napi]
pub fn history_stores(max_bytes: Option<f64>) -> HistoryStores {
    let roots = collector::default_roots();
    HistoryStores {
        stores: collector::list_default_stores(&roots)
            .into_iter()
            .map(|s| info(s, None))
            .collect(),
        root: texts(&roots).into_iter().next(),
        roots: texts(&roots),
        cap_bytes: cap_of(max_bytes) as f64,
    }
}

/// Collects the default undo stores now (see the retention rules in docs/guarantees.md);
/// `dryRun` only reports what would be removed.
#[napi]
pub fn collect_history(max_bytes: Option<f64>, dry_run: Option<bool>) -> HistoryCollection {
    let cap = cap_of(max_bytes);
    let roots = collector::default_roots();
    let (outcome, ran) = collector::collect_default_roots(&roots, cap, dry_run.unwrap_or(false));
    HistoryCollection {
        root: texts(&roots).into_iter().next(),
        roots: texts(&roots),
        ran,
        removed: outcome
            .removed
            .into_iter()
            .map(|(s, r)| info(s, Some(r)))
            .collect(),
        busy: outcome
            .busy
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect(),
        bytes_before: outcome.bytes_before as f64,
        bytes_after: outcome.bytes_after as f64,
        cap_bytes: cap as f64,
    }
}

/// Waits (at most `timeoutMs`, default 60000) for this process's background collection of the
/// undo stores to finish; true when none is running. Blocks the calling thread: for tests and
/// benchmarks.
#[napi]
pub fn settle_history_collection(timeout_ms: Option<f64>) -> bool {
    let ms = timeout_ms
        .filter(|n| n.is_finite() && *n >= 0.0)
        .unwrap_or(60_000.0);
    collector::settle(std::time::Duration::from_millis(ms as u64))
}
