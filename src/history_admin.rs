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

/// The default stores' root and its stores, least recently used first.
#[napi(object)]
pub struct HistoryStores {
    /// Where default stores live; absent when this user has no state directory.
    pub root: Option<String>,
    pub stores: Vec<HistoryStoreInfo>,
    /// The cap on their total disk use in effect (option or environment, else 1 GiB).
    pub cap_bytes: f64,
}

/// What `collectHistory` did.
#[napi(object)]
pub struct HistoryCollection {
    pub root: Option<String>,
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

/// The default undo stores of this user, least recently used first.
#[napi]
pub fn history_stores(max_bytes: Option<f64>) -> HistoryStores {
    let root = collector::default_root();
    HistoryStores {
        stores: root
            .as_deref()
            .map(retention::list)
            .unwrap_or_default()
            .into_iter()
            .map(|s| info(s, None))
            .collect(),
        root: root.map(|r| r.to_string_lossy().into_owned()),
        cap_bytes: cap_of(max_bytes) as f64,
    }
}

/// Collects the default undo stores now (see the retention rules in docs/guarantees.md);
/// `dryRun` only reports what would be removed.
#[napi]
pub fn collect_history(max_bytes: Option<f64>, dry_run: Option<bool>) -> HistoryCollection {
    let cap = cap_of(max_bytes);
    let root = collector::default_root();
    let outcome = root
        .as_deref()
        .and_then(|r| retention::collect(r, cap, retention::now_ms(), dry_run.unwrap_or(false)));
    let ran = outcome.is_some() || root.is_none();
    let outcome = outcome.unwrap_or_default();
    HistoryCollection {
        root: root.map(|r| r.to_string_lossy().into_owned()),
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
