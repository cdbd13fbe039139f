//! `BackgroundTaskPersistence`: background tasks (JSON objects with a string `id` and
//! an optional `pid`) kept in a JSON file so an agent finds them again after a restart.
//!
//! Contract:
//! - The file holds a JSON array of task objects. A missing (or blank) file is an empty store.
//! - Every operation runs under an exclusive `flock` on the sidecar `<file>.lock` (across
//!   processes and threads) and reads, modifies and atomically rewrites the file while holding
//!   it, so concurrent savers lose nothing.
//! - A file that is not a JSON array of objects is never overwritten: it is renamed to
//!   `<file>.corrupt-<unix ms>` and the operation fails with [`TaskStoreError::Corrupt`] naming
//!   both paths; the next operation starts from an empty store.
//! - `cleanup` drops tasks whose `pid` names no live process (`kill(pid, 0)` fails with `ESRCH`;
//!   `EPERM` means alive). A `pid` that is not a positive 32-bit integer cannot be alive.

mod lockfile;

use crate::fs::atomic::{create_parent_dirs, write_atomic, WriteMode};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Why a task-store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum TaskStoreError {
    #[error("invalid task: {0}")]
    InvalidTask(String),
    #[error("background task file {path} is corrupt ({reason}); it was moved aside to {moved_to} and left untouched there. The store starts empty again; recover tasks from the preserved copy if needed")]
    Corrupt {
        path: String,
        reason: String,
        moved_to: String,
    },
    #[error("background task file {path}: could not {op}: {source}")]
    Io {
        op: &'static str,
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Write(String),
    #[error("no home directory (HOME is unset); pass filePath to choose where background tasks are stored")]
    NoHome,
}

/// A store of background tasks in one JSON file.
#[derive(Debug, Clone)]
pub struct TaskStore {
    path: PathBuf,
}

/// `$HOME/.code-agent/background-tasks.json`.
pub fn default_path() -> Result<PathBuf, TaskStoreError> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .ok_or(TaskStoreError::NoHome)?;
    Ok(PathBuf::from(home)
        .join(".code-agent")
        .join("background-tasks.json"))
}

impl TaskStore {
    /// A store over `path` (nothing is touched until the first operation).
    pub fn new(path: PathBuf) -> Self {
        TaskStore { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Adds `task`, or replaces the stored task with the same `id`.
    pub fn save(&self, task: Value) -> Result<(), TaskStoreError> {
        let id = validate(&task)?;
        self.update(|tasks| {
            match tasks.iter_mut().find(|t| task_id(t) == Some(id.as_str())) {
                Some(existing) => *existing = task,
                None => tasks.push(task),
            }
            true
        })
        .map(|_| ())
    }

    /// Every stored task, in the order first saved.
    pub fn load(&self) -> Result<Vec<Value>, TaskStoreError> {
        let _lock = self.lock()?;
        self.read()
    }

    /// Removes the task with `id`; true when one was stored.
    pub fn remove(&self, id: &str) -> Result<bool, TaskStoreError> {
        self.update(|tasks| {
            let before = tasks.len();
            tasks.retain(|t| task_id(t) != Some(id));
            tasks.len() != before
        })
    }

    /// Drops the tasks whose `pid` is not a live process and returns them.
    pub fn cleanup(&self) -> Result<Vec<Value>, TaskStoreError> {
        let mut dropped = Vec::new();
        self.update(|tasks| {
            let (alive, dead): (Vec<Value>, Vec<Value>) =
                std::mem::take(tasks).into_iter().partition(is_alive);
            *tasks = alive;
            dropped = dead;
            !dropped.is_empty()
        })?;
        Ok(dropped)
    }

    /// Read-modify-write under the lock; `change` returns whether to write back.
    fn update(&self, change: impl FnOnce(&mut Vec<Value>) -> bool) -> Result<bool, TaskStoreError> {
        let _lock = self.lock()?;
        let mut tasks = self.read()?;
        let changed = change(&mut tasks);
        if changed {
            self.write(&tasks)?;
        }
        Ok(changed)
    }

    fn lock(&self) -> Result<lockfile::LockFile, TaskStoreError> {
        let display = self.path.to_string_lossy().into_owned();
        create_parent_dirs(&self.path, &display)
            .map_err(|e| TaskStoreError::Write(e.to_string()))?;
        lockfile::LockFile::acquire(&lockfile::sidecar(&self.path))
            .map_err(|source| self.io("lock", source))
    }

    fn io(&self, op: &'static str, source: std::io::Error) -> TaskStoreError {
        TaskStoreError::Io {
            op,
            path: self.path.to_string_lossy().into_owned(),
            source,
        }
    }

    /// The stored tasks; a corrupt file is moved aside and reported.
    fn read(&self) -> Result<Vec<Value>, TaskStoreError> {
        let bytes = match std::fs::read(&self.path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(self.io("read", e)),
        };
        match parse_tasks(&bytes) {
            Ok(tasks) => Ok(tasks),
            Err(reason) => Err(self.preserve_corrupt(reason)),
        }
    }

    fn preserve_corrupt(&self, reason: String) -> TaskStoreError {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let mut aside = self.path.clone().into_os_string();
        aside.push(format!(".corrupt-{stamp}"));
        let aside = PathBuf::from(aside);
        if let Err(e) = std::fs::rename(&self.path, &aside) {
            return self.io("move the corrupt file aside", e);
        }
        TaskStoreError::Corrupt {
            path: self.path.to_string_lossy().into_owned(),
            reason,
            moved_to: aside.to_string_lossy().into_owned(),
        }
    }

    fn write(&self, tasks: &[Value]) -> Result<(), TaskStoreError> {
        let mut bytes =
            serde_json::to_vec_pretty(tasks).map_err(|e| TaskStoreError::Write(e.to_string()))?;
        bytes.push(b'\n');
        let display = self.path.to_string_lossy().into_owned();
        write_atomic(&self.path, &bytes, WriteMode::CreateOrReplace, &display)
            .map_err(|e| TaskStoreError::Write(e.to_string()))
    }
}

/// The tasks in a file's bytes, or why they are not a JSON array of objects. Blank is empty.
pub fn parse_tasks(bytes: &[u8]) -> Result<Vec<Value>, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Array(items)) if items.iter().all(Value::is_object) => Ok(items),
        Ok(Value::Array(_)) => Err("an entry is not a JSON object".to_string()),
        Ok(_) => Err("not a JSON array".to_string()),
        Err(e) => Err(format!("invalid JSON: {e}")),
    }
}

/// A task's id, when it has a string one.
fn task_id(task: &Value) -> Option<&str> {
    task.get("id").and_then(Value::as_str)
}

/// Checks `task` is an object with a non-empty string `id` and, if present, a positive integer
/// `pid`; returns the id.
pub fn validate(task: &Value) -> Result<String, TaskStoreError> {
    let Value::Object(map) = task else {
        return Err(TaskStoreError::InvalidTask(
            "a task must be an object with a string id".into(),
        ));
    };
    let id = match map.get("id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => {
            return Err(TaskStoreError::InvalidTask(
                "task.id must be a non-empty string".into(),
            ))
        }
    };
    match map.get("pid") {
        None | Some(Value::Null) => Ok(id),
        Some(p) if pid_of(p).is_some() => Ok(id),
        Some(_) => Err(TaskStoreError::InvalidTask(
            "task.pid must be a positive integer process id".into(),
        )),
    }
}

fn pid_of(value: &Value) -> Option<i32> {
    value
        .as_i64()
        .and_then(|p| i32::try_from(p).ok())
        .filter(|p| *p > 0)
}

/// True for a task without a pid, or whose pid is a live process.
fn is_alive(task: &Value) -> bool {
    let Value::Object(map) = task else {
        return false;
    };
    match map.get("pid") {
        None | Some(Value::Null) => true,
        Some(p) => pid_of(p).is_some_and(process_alive),
    }
}

pub use crate::sys::process_alive;

#[cfg(test)]
mod tests;
