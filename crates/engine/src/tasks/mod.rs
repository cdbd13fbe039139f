//! `BackgroundTaskPersistence`: background tasks (JSON objects with a string `id` and
//! an optional `pid`) kept in a JSON file so an agent finds them again after a restart.
//!
//! Contract:
//! - The file holds a JSON array of task objects. A missing (or blank) file is an empty store.
//! - Every operation runs under an exclusive `flock` on the sidecar `<file>.lock` (across
//!   processes and threads) and reads, modifies and atomically rewrites the file while holding
//!   it, so concurrent savers lose nothing. The wait for that lock is bounded (`lockTimeoutMs`,
//!   default [`DEFAULT_LOCK_TIMEOUT`]); past it the operation fails and nothing is changed.
//! - The file and its sidecar must be regular files (or not exist yet): a FIFO or a device is
//!   refused without being opened for blocking I/O.
//! - A file that is not a JSON array of objects is never overwritten: it is renamed to
//!   `<file>.corrupt-<unix ms>` and the operation fails with [`TaskStoreError::Corrupt`] naming
//!   both paths; the next operation starts from an empty store.
//! - `cleanup` drops tasks whose `pid` names no live process (`kill(pid, 0)` fails with `ESRCH`;
//!   `EPERM` means alive). A `pid` that is not a positive 32-bit integer cannot be alive.

mod lockfile;

use crate::fs::atomic::{create_parent_dirs, write_atomic, WriteMode};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    #[error("background task file {path} is locked: its lock file {lock} was held by another process or call for the whole {waited_ms} ms wait. Nothing was changed; retry when that operation has finished, or raise the lockTimeoutMs option")]
    LockTimedOut {
        path: String,
        lock: String,
        waited_ms: u64,
    },
    #[error("background task file: {path} is {kind}, not a regular file; nothing was read or written. Give filePath a regular JSON file (or a path that does not exist yet)")]
    NotRegular { path: String, kind: &'static str },
    #[error("no home directory (HOME is unset); pass filePath to choose where background tasks are stored")]
    NoHome,
}

/// Default longest wait for the store's lock.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// A store of background tasks in one JSON file.
#[derive(Debug, Clone)]
pub struct TaskStore {
    path: PathBuf,
    lock_timeout: Duration,
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
        TaskStore {
            path,
            lock_timeout: DEFAULT_LOCK_TIMEOUT,
        }
    }

    /// This store with the longest wait for its lock set to `timeout`.
    pub fn with_lock_timeout(self, timeout: Duration) -> Self {
        TaskStore {
            lock_timeout: timeout,
            ..self
        }
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
        if let Ok(meta) = std::fs::metadata(&self.path) {
            if let Some(kind) = kind_name(&meta.file_type()) {
                return Err(TaskStoreError::NotRegular {
                    path: display,
                    kind,
                });
            }
        }
        create_parent_dirs(&self.path, &display)
            .map_err(|e| TaskStoreError::Write(e.to_string()))?;
        let sidecar = lockfile::sidecar(&self.path);
        let display = |p: &Path| p.to_string_lossy().into_owned();
        match lockfile::LockFile::acquire(&sidecar, self.lock_timeout) {
            Ok(lockfile::Acquire::Held(lock)) => Ok(lock),
            Ok(lockfile::Acquire::TimedOut) => Err(TaskStoreError::LockTimedOut {
                path: display(&self.path),
                lock: display(&sidecar),
                waited_ms: self.lock_timeout.as_millis() as u64,
            }),
            Ok(lockfile::Acquire::NotRegular(kind)) => Err(TaskStoreError::NotRegular {
                path: display(&sidecar),
                kind,
            }),
            Err(source) => Err(self.io("lock", source)),
        }
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
        let bytes = match self.read_bytes()? {
            Some(b) => b,
            None => return Ok(Vec::new()),
        };
        match parse_tasks(&bytes) {
            Ok(tasks) => Ok(tasks),
            Err(reason) => Err(self.preserve_corrupt(reason)),
        }
    }

    /// The file's bytes (`None`: no file), opened without blocking so a FIFO or device is
    /// refused rather than waited on.
    fn read_bytes(&self) -> Result<Option<Vec<u8>>, TaskStoreError> {
        use std::os::unix::fs::OpenOptionsExt;
        let opened = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&self.path);
        let mut file = match opened {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.io("read", e)),
        };
        if let Some(kind) = irregular_kind(&file).map_err(|e| self.io("read", e))? {
            let path = self.path.to_string_lossy().into_owned();
            return Err(TaskStoreError::NotRegular { path, kind });
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| self.io("read", e))?;
        Ok(Some(bytes))
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

/// What an open file is when it is not a regular file (`None`: a regular file).
fn irregular_kind(file: &std::fs::File) -> std::io::Result<Option<&'static str>> {
    Ok(kind_name(&file.metadata()?.file_type()))
}

/// What a file type names when it is not a regular file (`None`: a regular file).
fn kind_name(kind: &std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_file() {
        None
    } else if kind.is_fifo() {
        Some("a FIFO")
    } else if kind.is_char_device() || kind.is_block_device() {
        Some("a device")
    } else if kind.is_dir() {
        Some("a directory")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        Some("a special file")
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
