//! Checkpoints through napi: a toolbox's `createCheckpoint`, `listCheckpoints` and `rewind` (see
//! `edit_engine_core::tools::rewind`); the JS layer's `createCheckpoints(options)` wraps them.

use crate::toolbox::NativeToolbox;
use crate::waiting::OwnThreadTask;
use edit_engine_core::history::checkpoints::Checkpoint;
use edit_engine_core::tools::rewind::{self, Rewind, RewindOptions};
use edit_engine_core::tools::ToolContext;
use napi::bindgen_prelude::{ToNapiValue, TypeName};
use napi::{Env, Task};
use napi_derive::napi;
use std::sync::Arc;

/// One checkpoint of the session.
#[napi(object)]
pub struct CheckpointInfo {
    pub id: String,
    pub label: Option<String>,
    /// When it was taken, in milliseconds since the Unix epoch.
    pub created_at: f64,
    /// Files whose history it needs was evicted (the store's size cap): it can no longer be
    /// rewound. Empty for a live checkpoint.
    pub evicted: Vec<String>,
}

impl From<Checkpoint> for CheckpointInfo {
    fn from(c: Checkpoint) -> Self {
        CheckpointInfo {
            id: c.id,
            label: c.label,
            created_at: c.created_at as f64,
            evicted: c.lost,
        }
    }
}

/// One file of a rewind.
#[napi(object)]
pub struct RewindFile {
    pub path: String,
    /// `"update"`, `"create"` (restored), `"delete"` (created since, removed) or `"move"`
    /// (moved since: moved back to `movedTo`).
    pub action: String,
    /// Where a move puts the file back (only on a move).
    pub moved_to: Option<String>,
    /// Unified diff from its content now to its content at the checkpoint.
    pub diff: String,
    pub additions: u32,
    pub deletions: u32,
}

/// A file a rewind leaves alone: it changed since the session last wrote it.
#[napi(object)]
pub struct RewindConflict {
    pub path: String,
    pub reason: String,
}

/// What a rewind did (or, with `dryRun`, would do).
#[napi(object)]
pub struct RewindResult {
    pub ok: bool,
    pub can_rewind: bool,
    /// The failure's text (absent on success).
    pub error: Option<String>,
    /// The failure's kind (`ToolCallResult`'s kinds).
    pub kind: Option<String>,
    pub text: String,
    pub files_changed: u32,
    pub insertions: u32,
    pub deletions: u32,
    pub files: Vec<RewindFile>,
    pub conflicts: Vec<RewindConflict>,
    /// The checkpoint taken before writing: rewinding to it undoes this rewind.
    pub checkpoint: Option<CheckpointInfo>,
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl From<Rewind> for RewindResult {
    fn from(r: Rewind) -> Self {
        let (insertions, deletions) = (count(r.insertions()), count(r.deletions()));
        RewindResult {
            ok: r.ok,
            can_rewind: r.can_rewind,
            error: (!r.ok).then(|| r.text.clone()),
            kind: r.kind.map(|k| k.as_str().to_string()),
            text: r.text,
            files_changed: count(
                r.files.len() + r.files.iter().filter(|f| f.moved_to.is_some()).count(),
            ),
            insertions,
            deletions,
            files: r
                .files
                .into_iter()
                .map(|f| RewindFile {
                    path: f.path,
                    action: f.action.as_str().to_string(),
                    moved_to: f.moved_to,
                    diff: f.diff,
                    additions: count(f.additions),
                    deletions: count(f.deletions),
                })
                .collect(),
            conflicts: r
                .conflicts
                .into_iter()
                .map(|c| RewindConflict {
                    path: c.path,
                    reason: c.reason,
                })
                .collect(),
            checkpoint: r.checkpoint.map(CheckpointInfo::from),
        }
    }
}

type Job<T> = Box<dyn FnOnce(&ToolContext) -> Result<T, String> + Send>;

/// One checkpoint call, run off the event loop; a failure rejects with its message.
pub struct CheckpointTask<T: Send + 'static> {
    context: Result<Arc<ToolContext>, String>,
    job: Option<Job<T>>,
}

impl<T: Send + ToNapiValue + TypeName + 'static> Task for CheckpointTask<T> {
    type Output = T;
    type JsValue = T;

    fn compute(&mut self) -> napi::Result<T> {
        let context = self.context.as_ref().map_err(napi::Error::from_reason)?;
        let job = self
            .job
            .take()
            .ok_or_else(|| napi::Error::from_reason("called twice"))?;
        job(context).map_err(napi::Error::from_reason)
    }

    fn resolve(&mut self, _env: Env, output: T) -> napi::Result<T> {
        Ok(output)
    }
}

#[napi]
impl NativeToolbox {
    /// Takes a checkpoint of this toolbox's session (its `sessionId`).
    #[napi(ts_return_type = "Promise<CheckpointInfo>")]
    pub fn create_checkpoint(
        &self,
        label: Option<String>,
    ) -> OwnThreadTask<CheckpointTask<CheckpointInfo>> {
        self.checkpoint_task(move |c| rewind::create(c, label.as_deref()).map(Into::into))
    }

    /// The session's checkpoints, oldest first.
    #[napi(ts_return_type = "Promise<Array<CheckpointInfo>>")]
    pub fn list_checkpoints(&self) -> OwnThreadTask<CheckpointTask<Vec<CheckpointInfo>>> {
        self.checkpoint_task(|c| Ok(rewind::list(c)?.into_iter().map(Into::into).collect()))
    }

    /// Rewinds the session's files to checkpoint `id`; `onConflict` is `"refuse"` (default) or
    /// `"skip"`. Never rejects: a refusal is a result with `ok: false`.
    #[napi(ts_return_type = "Promise<RewindResult>")]
    pub fn rewind(
        &self,
        id: String,
        dry_run: Option<bool>,
        on_conflict: Option<String>,
    ) -> OwnThreadTask<CheckpointTask<RewindResult>> {
        self.checkpoint_task(move |c| {
            let skip_conflicts = match on_conflict.as_deref() {
                None | Some("refuse") => false,
                Some("skip") => true,
                Some(other) => {
                    let text = format!("Error: invalid onConflict \"{other}\" (use \"refuse\", the default, or \"skip\"). No file was changed.");
                    return Ok(refused(text));
                }
            };
            let options = RewindOptions {
                dry_run: dry_run.unwrap_or(false),
                skip_conflicts,
            };
            Ok(rewind::rewind(c, &id, options).into())
        })
    }
}

/// A rewind refused before it started (a bad option).
fn refused(text: String) -> RewindResult {
    RewindResult {
        ok: false,
        can_rewind: false,
        error: Some(text.clone()),
        kind: Some("bad_param".into()),
        text,
        files_changed: 0,
        insertions: 0,
        deletions: 0,
        files: Vec::new(),
        conflicts: Vec::new(),
        checkpoint: None,
    }
}

impl NativeToolbox {
    fn checkpoint_task<T: Send + ToNapiValue + TypeName + 'static>(
        &self,
        job: impl FnOnce(&ToolContext) -> Result<T, String> + Send + 'static,
    ) -> OwnThreadTask<CheckpointTask<T>> {
        OwnThreadTask(CheckpointTask {
            context: self.context(),
            job: Some(Box::new(job)),
        })
    }
}
