#![deny(clippy::all)]
// The `#[napi]` functions are called from JS only; the lib test build does not register them, so
// rustc would see them as unused there.
#![cfg_attr(test, allow(dead_code))]
//! napi bindings for edit-engine: JS values <-> engine types, thread-pool plumbing, class
//! wrappers. No edit logic lives here; everything is in the `edit-engine-core` crate.

mod checkpoints;
mod ffi;
mod helpers;
mod history_admin;
mod modification;
mod patch;
mod preview;
mod quotes;
mod read_tracker;
mod symbols;
mod tasks;
mod text_editor;
mod tool_call;
mod toolbox;
mod tracker;
mod waiting;

use napi_derive::napi;

/// mimalloc keeps freed memory for reuse, so the large buffers of every call (file contents, new
/// text) do not come from fresh, page-faulting mappings each time as with the system allocator
/// (measured: a 4 MB edit 12 -> 6 ms once the system allocator's mmap threshold was exceeded).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Longest wait of `flushWrites` (a stuck lock can delay a queued undo record by the lock
/// timeout at most; this bound keeps process exit from hanging in any case).
const FLUSH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(15);

/// Waits (at most 15 s) until every write made so far in this process has its directory fsync
/// and undo record done (the steps `durability: "standard"` leaves to background threads), so
/// all of them are durable (it gives up after that bound; exit never hangs on it).
#[napi]
pub fn flush_writes() {
    edit_engine_core::fs::background::flush_within(Some(FLUSH_TIMEOUT));
}

/// `flushWrites` on a worker thread: the event loop keeps running while it waits.
pub struct FlushTask;

impl napi::Task for FlushTask {
    type Output = bool;
    type JsValue = bool;
    fn compute(&mut self) -> napi::Result<bool> {
        Ok(edit_engine_core::fs::background::flush_within(Some(
            FLUSH_TIMEOUT,
        )))
    }
    fn resolve(&mut self, _env: napi::Env, output: bool) -> napi::Result<bool> {
        Ok(output)
    }
}

/// The async form of `flushWrites`: resolves (true when everything was flushed) without
/// blocking the event loop.
#[napi(ts_return_type = "Promise<boolean>")]
pub fn flush_writes_async() -> napi::bindgen_prelude::AsyncTask<FlushTask> {
    napi::bindgen_prelude::AsyncTask::new(FlushTask)
}

/// The tool spec table as JSON text, key order kept (see `edit_engine_core::specs::to_json`);
/// `lib/specs.cjs` parses it once at load.
#[napi]
pub fn tool_specs_json() -> String {
    edit_engine_core::specs::to_json()
}

/// Version of the native engine (the crate version).
#[napi]
pub fn engine_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The `maxFileBytes` a tool uses when the option is not given (the largest file it reads).
#[napi]
pub fn default_max_file_bytes() -> f64 {
    edit_engine_core::tools::DEFAULT_MAX_FILE_BYTES as f64
}

/// The `maxCharacters` a `view` uses when neither the option nor the call's `max_characters`
/// is given (the most characters of numbered lines one view returns).
#[napi]
pub fn default_max_characters() -> f64 {
    edit_engine_core::tools::text_editor::DEFAULT_MAX_CHARACTERS as f64
}

/// The file whose `flock` is the cross-process lock of the file at `realPath` (a real path, as
/// edits lock it), for diagnostics: who holds it, or holding it from a script. Null when this
/// user has no lock directory.
#[napi]
pub fn lock_file_path(real_path: String) -> Option<String> {
    edit_engine_core::fs::locks::sidecar_path(std::path::Path::new(&real_path))
        .map(|p| p.to_string_lossy().into_owned())
}
