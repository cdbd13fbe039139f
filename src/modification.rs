//! `ExternalModificationDetector`: file snapshots and change detection.
//!
//! `snapshot` / `detect` are synchronous, as the spec's interface and example are: the one
//! documented exception to running file work off the event loop. They cost a `stat` (plus one
//! content hash in `snapshot`, and in `detect` only when the time moved but the size did not).
//! `snapshotAsync` / `detectAsync` do the same on libuv's thread pool and return Promises.

use edit_engine_core::tracker::modification;
use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Task};
use napi_derive::napi;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// `{ path, mtime, size, hash }`: `mtime` is `stats.mtimeMs`, `hash` the hex SHA-256 of the content.
#[napi(object)]
pub struct FileSnapshot {
    pub path: String,
    pub mtime: f64,
    pub size: f64,
    pub hash: Option<String>,
}

#[napi(object)]
pub struct ModificationChanges {
    pub mtime_changed: bool,
    pub size_changed: bool,
    pub content_changed: bool,
}

/// `modified`: the content differs or the file is gone; `deleted`: the file no longer exists.
#[napi(object)]
pub struct ModificationResult {
    pub modified: bool,
    pub deleted: bool,
    pub changes: ModificationChanges,
}

/// The `ExternalModificationDetector`: did a file change on disk since a snapshot?
#[napi]
pub struct ExternalModificationDetector {}

impl Default for ExternalModificationDetector {
    fn default() -> Self {
        ExternalModificationDetector::new()
    }
}

#[napi]
impl ExternalModificationDetector {
    #[napi(constructor)]
    pub fn new() -> Self {
        ExternalModificationDetector {}
    }

    /// Snapshot of a regular file (stat + SHA-256 of the content); throws when it is missing,
    /// unreadable or not a regular file.
    #[napi]
    pub fn snapshot(&self, file_path: String) -> napi::Result<FileSnapshot> {
        SnapshotTask {
            path: PathBuf::from(file_path),
        }
        .run()
    }

    /// Compares the file with `snapshot` (a stat; the content is hashed only when the time moved
    /// and the size did not). A missing file gives `{ modified: true, deleted: true, ... }`.
    #[napi]
    pub fn detect(
        &self,
        file_path: String,
        snapshot: FileSnapshot,
    ) -> napi::Result<ModificationResult> {
        detect_task(file_path, snapshot).run()
    }

    /// `snapshot` on libuv's thread pool; rejects when the file is missing or unreadable.
    #[napi(ts_return_type = "Promise<FileSnapshot>")]
    pub fn snapshot_async(&self, file_path: String) -> AsyncTask<SnapshotTask> {
        AsyncTask::new(SnapshotTask {
            path: PathBuf::from(file_path),
        })
    }

    /// `detect` on libuv's thread pool.
    #[napi(ts_return_type = "Promise<ModificationResult>")]
    pub fn detect_async(&self, file_path: String, snapshot: FileSnapshot) -> AsyncTask<DetectTask> {
        AsyncTask::new(detect_task(file_path, snapshot))
    }
}

fn detect_task(file_path: String, snapshot: FileSnapshot) -> DetectTask {
    let previous = modification::FileSnapshot {
        path: snapshot.path,
        mtime: snapshot.mtime,
        size: if snapshot.size.is_finite() && snapshot.size >= 0.0 {
            snapshot.size as u64
        } else {
            u64::MAX
        },
        hash: snapshot.hash,
    };
    DetectTask {
        path: PathBuf::from(file_path),
        previous,
    }
}

/// A task run on the calling thread: compute, then convert.
trait RunNow: Task {
    fn run(mut self) -> napi::Result<Self::JsValue>
    where
        Self: Sized,
    {
        let output = self.compute()?;
        self.convert(output)
    }

    fn convert(&mut self, output: Self::Output) -> napi::Result<Self::JsValue>;
}

fn guarded<T>(
    what: &str,
    path: &std::path::Path,
    f: impl FnOnce() -> std::io::Result<T>,
) -> napi::Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(napi::Error::from_reason(format!(
            "cannot {what} {}: {e}",
            path.display()
        ))),
        Err(p) => Err(napi::Error::from_reason(format!(
            "internal error in edit-engine ({})",
            crate::tool_call::panic_text(&p)
        ))),
    }
}

pub struct SnapshotTask {
    path: PathBuf,
}

impl Task for SnapshotTask {
    type Output = modification::FileSnapshot;
    type JsValue = FileSnapshot;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        guarded("snapshot", &self.path, || {
            modification::snapshot(&self.path)
        })
    }

    fn resolve(&mut self, _env: Env, s: Self::Output) -> napi::Result<FileSnapshot> {
        self.convert(s)
    }
}

impl RunNow for SnapshotTask {
    fn convert(&mut self, s: Self::Output) -> napi::Result<FileSnapshot> {
        Ok(FileSnapshot {
            path: s.path,
            mtime: s.mtime,
            size: s.size as f64,
            hash: s.hash,
        })
    }
}

pub struct DetectTask {
    path: PathBuf,
    previous: modification::FileSnapshot,
}

impl Task for DetectTask {
    type Output = modification::Detection;
    type JsValue = ModificationResult;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        guarded("check", &self.path, || {
            modification::detect(&self.path, &self.previous)
        })
    }

    fn resolve(&mut self, _env: Env, d: Self::Output) -> napi::Result<ModificationResult> {
        self.convert(d)
    }
}

impl RunNow for DetectTask {
    fn convert(&mut self, d: Self::Output) -> napi::Result<ModificationResult> {
        let c = d.changes;
        let changes = ModificationChanges {
            mtime_changed: c.mtime_changed,
            size_changed: c.size_changed,
            content_changed: c.content_changed,
        };
        Ok(ModificationResult {
            modified: d.modified,
            deleted: d.deleted,
            changes,
        })
    }
}
