//! `FileReadTracker`: which files were read and their modification time at the read.
//! Pass it to the edit tools as `readTracker` and the engine consults it natively.

use edit_engine_core::tracker::FileReadTracker;
use napi::bindgen_prelude::Either;
use napi_derive::napi;
use std::path::Path;
use std::sync::Arc;

/// The `FileReadTracker` (read-before-edit guard); state lives in Rust and is shared with tool
/// contexts.
#[napi(js_name = "FileReadTracker")]
pub struct JsFileReadTracker {
    inner: Arc<FileReadTracker>,
}

impl JsFileReadTracker {
    /// The shared state, for tool contexts.
    pub fn shared(&self) -> Arc<FileReadTracker> {
        self.inner.clone()
    }
}

impl Default for JsFileReadTracker {
    fn default() -> Self {
        JsFileReadTracker::new()
    }
}

#[napi]
impl JsFileReadTracker {
    #[napi(constructor)]
    pub fn new() -> Self {
        JsFileReadTracker {
            inner: Arc::new(FileReadTracker::new()),
        }
    }

    /// Records that `filePath` was read while its modification time was `mtime` (`stats.mtimeMs`).
    #[napi]
    pub fn record_read(&self, file_path: String, mtime: f64) {
        self.inner.record_read(Path::new(&file_path), mtime);
    }

    /// True once `recordRead` was called for the file (paths are normalized: `a/../b` is `b`).
    #[napi]
    pub fn has_been_read(&self, file_path: String) -> bool {
        self.inner.has_been_read(Path::new(&file_path))
    }

    /// The modification time recorded at the last read, or `undefined`.
    #[napi(ts_return_type = "number | undefined")]
    pub fn get_read_time(&self, file_path: String) -> Either<f64, ()> {
        match self.inner.get_read_time(Path::new(&file_path)) {
            Some(t) => Either::A(t),
            None => Either::B(()),
        }
    }

    /// True when the file was read and `currentMtime` differs from the recorded time (a file
    /// never read reports `false`).
    #[napi]
    pub fn check_external_modification(&self, file_path: String, current_mtime: f64) -> bool {
        self.inner
            .check_external_modification(Path::new(&file_path), current_mtime)
    }

    /// Forgets every read.
    #[napi]
    pub fn clear(&self) {
        self.inner.clear();
    }

    /// Number of files recorded.
    #[napi(getter)]
    pub fn size(&self) -> u32 {
        u32::try_from(self.inner.len()).unwrap_or(u32::MAX)
    }
}
