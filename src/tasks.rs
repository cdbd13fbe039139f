//! `BackgroundTaskPersistence`: background tasks kept in a locked JSON file. Every
//! method runs on the addon's own threads (its lock wait never occupies libuv's pool) and
//! returns a Promise; failures reject with a clear message.

use crate::ffi::JsonValue;
use crate::waiting::OwnThreadTask;
use edit_engine_core::tasks::{default_path, TaskStore, DEFAULT_LOCK_TIMEOUT};
use napi::bindgen_prelude::Either;
use napi::{Env, Task};
use napi_derive::napi;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// The constructor's options: `{ filePath?: string, lockTimeoutMs?: number }`, nothing else.
const OPTIONS_HELP: &str = "the options are filePath, the JSON file of the tasks (default: ~/.code-agent/background-tasks.json), and lockTimeoutMs, the longest wait for its lock (default 5000)";

/// The constructor's options, read.
#[derive(Default)]
struct StoreOptions {
    /// `filePath` (None: the default file).
    path: Option<String>,
    /// `lockTimeoutMs` (None: the default).
    lock_timeout: Option<Duration>,
}

/// The options, or an error naming what is wrong.
fn store_options(options: Option<&Value>) -> napi::Result<StoreOptions> {
    let invalid = |what: String| {
        napi::Error::new(
            napi::Status::InvalidArg,
            format!("BackgroundTaskPersistence: {what}; {OPTIONS_HELP}"),
        )
    };
    let map = match options {
        None | Some(Value::Null) => return Ok(StoreOptions::default()),
        Some(Value::Object(map)) => map,
        Some(_) => return Err(invalid("options must be an object".to_string())),
    };
    if let Some(key) = map
        .keys()
        .find(|k| !["filePath", "lockTimeoutMs"].contains(&k.as_str()))
    {
        return Err(invalid(format!("unknown option \"{key}\"")));
    }
    let path = match map.get("filePath") {
        None | Some(Value::Null) => None,
        Some(Value::String(p)) if !p.is_empty() => Some(p.clone()),
        Some(_) => return Err(invalid("filePath must be a non-empty string".to_string())),
    };
    let lock_timeout = match map.get("lockTimeoutMs") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) if n.as_f64().is_some_and(|ms| ms >= 0.0 && ms.is_finite()) => {
            Some(Duration::from_millis(n.as_f64().unwrap_or(0.0) as u64))
        }
        Some(_) => {
            return Err(invalid(
                "lockTimeoutMs must be a number of milliseconds >= 0".to_string(),
            ))
        }
    };
    Ok(StoreOptions { path, lock_timeout })
}

/// `BackgroundTaskPersistence`: a persistent store of background tasks.
#[napi(js_name = "BackgroundTaskPersistence")]
pub struct JsTaskStore {
    store: Result<TaskStore, String>,
}

#[napi]
impl JsTaskStore {
    /// `options.filePath`: the JSON file (default `~/.code-agent/background-tasks.json`; relative
    /// paths resolve against the process cwd now); `options.lockTimeoutMs`: the longest wait for
    /// its lock (default 5000). Throws on any other option.
    #[napi(
        constructor,
        ts_args_type = "options?: { filePath?: string; lockTimeoutMs?: number }"
    )]
    pub fn new(options: Option<Value>) -> napi::Result<Self> {
        let options = store_options(options.as_ref())?;
        let path = match options.path {
            Some(p) => std::path::absolute(&p).map_err(|e| format!("invalid filePath {p}: {e}")),
            None => default_path().map_err(|e| e.to_string()),
        };
        let timeout = options.lock_timeout.unwrap_or(DEFAULT_LOCK_TIMEOUT);
        Ok(JsTaskStore {
            store: path.map(|p| TaskStore::new(p).with_lock_timeout(timeout)),
        })
    }

    /// The JSON file this store uses (undefined when no default could be found).
    #[napi(getter, ts_return_type = "string | undefined")]
    pub fn file_path(&self) -> Either<String, ()> {
        match &self.store {
            Ok(s) => Either::A(s.path().to_string_lossy().into_owned()),
            Err(_) => Either::B(()),
        }
    }

    /// Adds the task, or replaces the stored one with the same `id`.
    #[napi(
        ts_args_type = "task: { id: string; pid?: number; [key: string]: unknown }",
        ts_return_type = "Promise<void>"
    )]
    pub fn save(&self, task: Value) -> OwnThreadTask<SaveTask> {
        OwnThreadTask(SaveTask(self.store_task(Job::Save(task))))
    }

    /// Every stored task; rejects (after moving the file aside) when the file is corrupt.
    #[napi(ts_return_type = "Promise<Array<Record<string, unknown>>>")]
    pub fn load(&self) -> OwnThreadTask<StoreTask> {
        self.task(Job::Load)
    }

    /// Removes the task with `id`; resolves to whether one was stored.
    #[napi(ts_return_type = "Promise<boolean>")]
    pub fn remove(&self, id: String) -> OwnThreadTask<StoreTask> {
        self.task(Job::Remove(id))
    }

    /// Drops tasks whose `pid` is not a live process; resolves to the dropped tasks.
    #[napi(ts_return_type = "Promise<Array<Record<string, unknown>>>")]
    pub fn cleanup(&self) -> OwnThreadTask<StoreTask> {
        self.task(Job::Cleanup)
    }
}

impl JsTaskStore {
    fn task(&self, job: Job) -> OwnThreadTask<StoreTask> {
        OwnThreadTask(self.store_task(job))
    }

    fn store_task(&self, job: Job) -> StoreTask {
        StoreTask {
            store: self.store.clone(),
            job: Some(job),
        }
    }
}

pub enum Job {
    Save(Value),
    Load,
    Remove(String),
    Cleanup,
}

pub struct StoreTask {
    store: Result<TaskStore, String>,
    job: Option<Job>,
}

fn run(store: &TaskStore, job: Job) -> Result<Option<Value>, String> {
    let result = match job {
        Job::Save(task) => store.save(task).map(|_| None),
        Job::Load => store.load().map(|t| Some(Value::Array(t))),
        Job::Remove(id) => store.remove(&id).map(|b| Some(Value::Bool(b))),
        Job::Cleanup => store.cleanup().map(|t| Some(Value::Array(t))),
    };
    result.map_err(|e| e.to_string())
}

impl StoreTask {
    fn compute_value(&mut self) -> napi::Result<Option<Value>> {
        let store = self
            .store
            .as_ref()
            .map_err(|m| napi::Error::from_reason(m.clone()))?;
        let job = self
            .job
            .take()
            .ok_or_else(|| napi::Error::from_reason("task already run"))?;
        match catch_unwind(AssertUnwindSafe(|| run(store, job))) {
            Ok(result) => result.map_err(napi::Error::from_reason),
            Err(p) => Err(napi::Error::from_reason(format!(
                "internal error in edit-engine ({})",
                crate::tool_call::panic_text(&p)
            ))),
        }
    }
}

impl Task for StoreTask {
    type Output = Value;
    type JsValue = JsonValue;

    fn compute(&mut self) -> napi::Result<Value> {
        self.compute_value().map(Option::unwrap_or_default)
    }

    fn resolve(&mut self, _env: Env, output: Value) -> napi::Result<JsonValue> {
        Ok(JsonValue(output))
    }
}

/// `save`: a store task whose Promise resolves to `undefined`.
pub struct SaveTask(StoreTask);

impl Task for SaveTask {
    type Output = ();
    type JsValue = ();

    fn compute(&mut self) -> napi::Result<()> {
        self.0.compute_value().map(|_| ())
    }

    fn resolve(&mut self, _env: Env, _output: ()) -> napi::Result<()> {
        Ok(())
    }
}
