//! `FileTracker`: Probe's session tracker, state held in Rust and shared with the engine.

use edit_engine_core::tracker::extract_targets;
use edit_engine_core::tracker::{muted, Check, FileTracker, SymbolRecord};
use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Task};
use napi_derive::napi;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[napi(object)]
#[derive(Default)]
pub struct FileTrackerOptions {
    pub debug: Option<bool>,
}

/// `{ ok, reason?, message?, editCount? }` as Probe's check methods return it.
#[napi(object)]
pub struct TrackerCheck {
    pub ok: bool,
    pub reason: Option<String>,
    pub message: Option<String>,
    pub edit_count: Option<u32>,
}

impl From<Check> for TrackerCheck {
    fn from(c: Check) -> Self {
        TrackerCheck {
            ok: c.ok,
            reason: c.reason,
            message: c.message,
            edit_count: c.edit_count,
        }
    }
}

/// A stored symbol hash, as Probe's `getSymbolRecord` returns it.
#[napi(object)]
pub struct SymbolContentRecord {
    pub content_hash: String,
    pub start_line: u32,
    pub end_line: u32,
    pub symbol_name: Option<String>,
    pub source: String,
    pub timestamp: f64,
}

impl From<SymbolRecord> for SymbolContentRecord {
    fn from(r: SymbolRecord) -> Self {
        SymbolContentRecord {
            content_hash: r.content_hash,
            start_line: r.start_line,
            end_line: r.end_line,
            symbol_name: r.symbol_name,
            source: r.source,
            timestamp: r.timestamp,
        }
    }
}

/// One entry of the content records: its key (`"<normalized path>#<symbol>"`) and record.
#[napi(object)]
pub struct ContentRecordEntry {
    pub key: String,
    pub record: SymbolContentRecord,
}

/// Probe's `FileTracker`. Pass it to a tool factory as `fileTracker` and the engine consults it
/// natively on every call. Methods called from JS do not print debug lines themselves (the JS
/// class prints Probe's lines through `console.error`); tool calls print them to stderr.
#[napi(js_name = "FileTracker")]
pub struct JsFileTracker {
    inner: Arc<FileTracker>,
    debug: bool,
}

impl JsFileTracker {
    /// The shared state, for tool contexts.
    pub fn shared(&self) -> Arc<FileTracker> {
        self.inner.clone()
    }
}

#[napi]
impl JsFileTracker {
    #[napi(constructor)]
    pub fn new(options: Option<FileTrackerOptions>) -> Self {
        let debug = options.and_then(|o| o.debug).unwrap_or(false);
        JsFileTracker {
            inner: Arc::new(FileTracker::new(debug)),
            debug,
        }
    }

    #[napi(getter)]
    pub fn debug(&self) -> bool {
        self.debug
    }

    #[napi(getter)]
    pub fn max_consecutive_text_edits(&self) -> u32 {
        self.inner.max_consecutive_text_edits()
    }

    #[napi(setter)]
    pub fn set_max_consecutive_text_edits(&self, value: u32) {
        self.inner.set_max_consecutive_text_edits(value);
    }

    #[napi]
    pub fn mark_file_seen(&self, resolved_path: String) {
        muted(|| self.inner.mark_file_seen(Path::new(&resolved_path)));
    }

    #[napi]
    pub fn is_file_seen(&self, resolved_path: String) -> bool {
        self.inner.is_file_seen(Path::new(&resolved_path))
    }

    #[napi]
    pub fn track_symbol_content(
        &self,
        resolved_path: String,
        symbol_name: String,
        code: String,
        start_line: u32,
        end_line: u32,
        source: Option<String>,
    ) {
        let source = source.unwrap_or_else(|| "extract".to_string());
        muted(|| {
            self.inner.track_symbol_content(
                Path::new(&resolved_path),
                &symbol_name,
                &code,
                start_line,
                end_line,
                &source,
            )
        });
    }

    #[napi]
    pub fn get_symbol_record(
        &self,
        resolved_path: String,
        symbol_name: String,
    ) -> Option<SymbolContentRecord> {
        self.inner
            .get_symbol_record(Path::new(&resolved_path), &symbol_name)
            .map(Into::into)
    }

    #[napi]
    pub fn check_symbol_content(
        &self,
        resolved_path: String,
        symbol_name: String,
        current_code: String,
    ) -> TrackerCheck {
        self.inner
            .check_symbol_content(Path::new(&resolved_path), &symbol_name, &current_code)
            .into()
    }

    #[napi(ts_return_type = "Promise<void>")]
    pub fn track_files_from_extract(
        &self,
        targets: Vec<String>,
        cwd: Option<String>,
    ) -> AsyncTask<TrackerTask> {
        self.task(TrackerJob::Extract(targets), cwd)
    }

    #[napi(ts_return_type = "Promise<void>")]
    pub fn track_files_from_output(
        &self,
        output: String,
        cwd: Option<String>,
    ) -> AsyncTask<TrackerTask> {
        self.task(TrackerJob::Output(output), cwd)
    }

    #[napi]
    pub fn check_before_edit(&self, resolved_path: String) -> TrackerCheck {
        self.inner
            .check_before_edit(Path::new(&resolved_path))
            .into()
    }

    #[napi(ts_return_type = "Promise<void>")]
    pub fn track_file_after_write(&self, resolved_path: String) -> AsyncTask<TrackerTask> {
        self.task(TrackerJob::AfterWrite(PathBuf::from(resolved_path)), None)
    }

    #[napi]
    pub fn record_text_edit(&self, resolved_path: String) {
        muted(|| self.inner.record_text_edit(Path::new(&resolved_path)));
    }

    #[napi]
    pub fn check_text_edit_staleness(&self, resolved_path: String) -> TrackerCheck {
        self.inner
            .check_text_edit_staleness(Path::new(&resolved_path))
            .into()
    }

    #[napi]
    pub fn track_symbol_after_write(
        &self,
        resolved_path: String,
        symbol_name: String,
        code: String,
        start_line: u32,
        end_line: u32,
    ) {
        muted(|| {
            self.inner.track_symbol_after_write(
                Path::new(&resolved_path),
                &symbol_name,
                &code,
                start_line,
                end_line,
            )
        });
    }

    #[napi]
    pub fn invalidate_file_records(&self, resolved_path: String) {
        muted(|| {
            self.inner
                .invalidate_file_records(Path::new(&resolved_path))
        });
    }

    #[napi]
    pub fn is_tracked(&self, resolved_path: String) -> bool {
        self.inner.is_tracked(Path::new(&resolved_path))
    }

    #[napi]
    pub fn clear(&self) {
        self.inner.clear();
    }

    /// The keys (normalized paths) of the seen files, sorted: backs the `_seenFiles` view.
    #[napi]
    pub fn seen_file_keys(&self) -> Vec<String> {
        self.inner.seen_files()
    }

    /// The symbol content records with their keys, sorted: backs the `_contentRecords` view.
    #[napi]
    pub fn content_record_entries(&self) -> Vec<ContentRecordEntry> {
        self.inner
            .content_records()
            .into_iter()
            .map(|(key, record)| ContentRecordEntry {
                key,
                record: record.into(),
            })
            .collect()
    }
}

impl JsFileTracker {
    fn task(&self, job: TrackerJob, cwd: Option<String>) -> AsyncTask<TrackerTask> {
        let cwd = cwd
            .map(PathBuf::from)
            .unwrap_or_else(|| std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")));
        AsyncTask::new(TrackerTask {
            tracker: self.inner.clone(),
            job: Some(job),
            cwd,
        })
    }
}

/// Tracker work that Probe exposes as async (it may read files).
pub enum TrackerJob {
    Extract(Vec<String>),
    Output(String),
    AfterWrite(PathBuf),
}

pub struct TrackerTask {
    tracker: Arc<FileTracker>,
    job: Option<TrackerJob>,
    cwd: PathBuf,
}

impl Task for TrackerTask {
    type Output = ();
    type JsValue = ();

    fn compute(&mut self) -> napi::Result<()> {
        let tracker = &self.tracker;
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match self.job.take() {
                Some(TrackerJob::Extract(targets)) => {
                    extract_targets::track_files_from_extract(tracker, &targets, &self.cwd)
                }
                Some(TrackerJob::Output(output)) => {
                    tracker.track_files_from_output(&output, &self.cwd)
                }
                Some(TrackerJob::AfterWrite(path)) => tracker.track_file_after_write(&path),
                None => {}
            }));
        result.map_err(|p| napi::Error::from_reason(crate::tool_call::panic_text(&p)))
    }

    fn resolve(&mut self, _env: Env, _output: ()) -> napi::Result<()> {
        Ok(())
    }
}
