//! A replaced file's old content is freed on the background task lane, not inside the write.
//!
//! Its own test binary: the test holds the task lane's thread, which would stall (and could fill)
//! the lane for unrelated tests running alongside it in one process.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::sync::Arc;

use edit_engine_core::fs::atomic::{write_atomic_confined, WriteMode};
use edit_engine_core::fs::background::{self, Durability, Job};
use parking_lot::Mutex;

/// Whether this process has a descriptor open on the unlinked former content of `path`.
fn holds_deleted(path: &Path) -> bool {
    let deleted = format!("{} (deleted)", path.display());
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_link(e.path()).ok())
        .any(|target| target.as_os_str() == deleted.as_str())
}

#[test]
fn a_replaced_small_file_is_released_by_the_task_lane() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap().join("small.txt");
    std::fs::write(&path, "old content\n").unwrap();

    // Hold the lane: the release queued by the write cannot run until the gate opens.
    let gate = Arc::new(Mutex::new(()));
    let held = gate.lock();
    let waiter = Arc::clone(&gate);
    assert!(
        background::submit(Job::Task(Box::new(move || drop(waiter.lock())))).is_ok(),
        "the task lane must accept the gate task"
    );

    write_atomic_confined(
        &path,
        b"new content\n",
        WriteMode::Replace,
        "small.txt",
        Durability::Standard,
    )
    .unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new content\n");
    assert!(
        holds_deleted(&path),
        "the old content should still be open, waiting for the task lane"
    );

    drop(held);
    background::flush();
    assert!(
        !holds_deleted(&path),
        "after a flush the old content must be closed"
    );
}
