//! Previews bound to what is written. [`preview`] runs a call in preview mode (see
//! [`super::apply`]): nothing is written, and the files it would change are described (action,
//! unified diff, line counts) and, when the call succeeds, stored under a token with the contents
//! it read and would write. [`apply_preview`] takes that token and writes exactly those contents
//! — never matching again — if every file still holds what the preview read; otherwise it
//! refuses, shows what changed since, and writes nothing. Tokens are single use and expire after
//! the time to live ([`Previews::ttl`]).

use super::apply::{Change, FileEdit, Plan, PlannedFile, PlannedRecording, Recording};
use super::outcome::{ErrorKind, Outcome, ToolError};
use super::preview_notes::PendingNotes;
use super::ToolContext;
use crate::fs::{FsError, ResolvedPath};
use crate::history::previews::{
    call_token, path_of, Loaded, PreviewRecord, PreviewStore, PreviewedFile, PREVIEW_FORMAT,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a preview can be applied by default (24 hours).
pub const DEFAULT_PREVIEW_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// Most lines of each file's diff a refusal shows of what changed since the preview.
const CHANGED_SINCE_LINES: usize = 40;

/// A tool object's previews: where they are stored (the history store's `previews/`; with the
/// history off, this object's own memory) and how long they can be applied.
#[derive(Debug, Clone)]
pub struct Previews {
    memory: Arc<Mutex<HashMap<String, PreviewRecord>>>,
    pub ttl: Duration,
}

impl Previews {
    /// Previews kept for `ttl` (default [`DEFAULT_PREVIEW_TTL`]).
    pub fn new(ttl: Option<Duration>) -> Self {
        Previews {
            memory: Arc::default(),
            ttl: ttl.unwrap_or(DEFAULT_PREVIEW_TTL),
        }
    }

    fn store(&self, ctx: &ToolContext) -> Result<PreviewStore, String> {
        if !ctx.history.enabled() {
            return Ok(PreviewStore::Memory(self.memory.clone()));
        }
        Ok(ctx.history.store()?.previews())
    }
}

/// What a file of a previewed change undergoes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Update,
    Create,
    Delete,
    Move,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Update => "update",
            Action::Create => "create",
            Action::Delete => "delete",
            Action::Move => "move",
        }
    }
}

/// One file of a preview, as shown to a person or a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileChange {
    pub path: String,
    pub action: Action,
    pub moved_to: Option<String>,
    /// Unified diff from the content read to the content the call would leave.
    pub diff: String,
    pub additions: usize,
    pub deletions: usize,
}

/// A previewed call: the reply the call would give, the token that applies it (`None` when it
/// cannot be applied: a failed call, a call that changes nothing, an undo), and its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    pub outcome: Outcome,
    pub token: Option<String>,
    pub files: Vec<FileChange>,
}

/// Previews the call `run` (which gets a context in preview mode); see the module doc. With
/// `call_id` (the host's id of the tool call) the preview is that call's: its token is the call's
/// ([`call_token`]), a failed one is kept too (applying it answers the failure), and once one is
/// stored, previewing the same call again, in any process sharing the store, shows that one.
pub fn preview(
    ctx: &ToolContext,
    previews: &Previews,
    call_id: Option<&str>,
    run: impl FnOnce(&ToolContext) -> Outcome,
) -> Preview {
    if let Some(shown) = call_id.and_then(|id| stored_preview(ctx, previews, id)) {
        return shown;
    }
    let (preview_ctx, collector) = ctx.preview();
    lock(&collector).notes = PendingNotes::deferring();
    let mut outcome = run(&preview_ctx);
    drop(preview_ctx);
    let mut plan = std::mem::take(&mut *lock(&collector));
    let notes = std::mem::take(&mut plan.notes);
    let undo = plan
        .files
        .iter()
        .any(|f| f.recording == PlannedRecording::Undo);
    let recording = recording_of(&plan.files);
    let merged = merge(std::mem::take(&mut plan.files));
    let files = describe(ctx, &merged, &plan.moves);
    let kept = match outcome.ok() {
        true => !merged.is_empty() && !undo,
        false => call_id.is_some(),
    };
    if !kept {
        outcome.text = notes.resolve(outcome.text);
        return Preview {
            outcome,
            token: None,
            files,
        };
    }
    let mut record = record_of(&outcome, &plan, merged, recording, files.clone());
    record.ttl_ms = u64::try_from(previews.ttl.as_millis()).unwrap_or(u64::MAX);
    let (outcome, stored) = store(ctx, previews, call_id, record, notes, outcome);
    match stored {
        Ok(token) => Preview {
            token: outcome.ok().then_some(token),
            outcome,
            files,
        },
        Err(e) => {
            let text = format!("Error: the preview could not be stored ({e}). Nothing was written; run the call itself instead.");
            Preview {
                outcome: ToolError::new(ErrorKind::Fs, text).into(),
                token: None,
                files,
            }
        }
    }
}

/// Stores `record`, the preview of `outcome`, while the syntax notes still pending are found:
/// with them taken as empty, then again if they are not (the record kept for that is a small
/// file's). The outcome with its notes in place, and the preview's token or why it could not be
/// stored.
fn store(
    ctx: &ToolContext,
    previews: &Previews,
    call_id: Option<&str>,
    mut record: PreviewRecord,
    notes: PendingNotes,
    mut outcome: Outcome,
) -> (Outcome, Result<String, String>) {
    let again = (!notes.is_empty()).then(|| {
        record.text = notes.assumed_clean(&record.text);
        record.clone()
    });
    let stored = previews.store(ctx).and_then(|store| {
        let token = store.save(record, call_id.map(call_token));
        token.map(|t| (store, t)).map_err(|e| e.to_string())
    });
    outcome.text = notes.resolve(outcome.text);
    let stored = stored.and_then(|(store, token)| match again {
        Some(mut record) if record.text != outcome.text => {
            record.text.clone_from(&outcome.text);
            store.save(record, Some(token)).map_err(|e| e.to_string())
        }
        _ => Ok(token),
    });
    (outcome, stored)
}

fn lock(collector: &Mutex<Plan>) -> std::sync::MutexGuard<'_, Plan> {
    collector.lock().unwrap_or_else(|e| e.into_inner())
}

/// The unexpired preview stored for the call `call_id`, shown again.
fn stored_preview(ctx: &ToolContext, previews: &Previews, call_id: &str) -> Option<Preview> {
    let token = call_token(call_id);
    let record = previews.store(ctx).ok()?.peek(&token)?;
    if record.expired_at(crate::history::now_ms()) {
        return None;
    }
    let outcome = outcome_of(&record);
    let token = outcome.ok().then_some(token);
    Some(Preview {
        files: record.shown,
        token,
        outcome,
    })
}

/// The reply a stored preview's call gives.
fn outcome_of(record: &PreviewRecord) -> Outcome {
    let kind = |name: &str| ErrorKind::ALL.into_iter().find(|k| k.as_str() == name);
    Outcome {
        error: record
            .failed
            .as_deref()
            .map(|k| kind(k).unwrap_or(ErrorKind::Internal)),
        text: record.text.clone(),
        changed_files: record.changed_files.clone(),
        changes: record.changes,
    }
}

/// The files of a plan, each once (first read, last written), in the order first planned.
fn merge(files: Vec<PlannedFile>) -> Vec<PlannedFile> {
    let mut merged: Vec<PlannedFile> = Vec::new();
    for file in files {
        match merged.iter_mut().find(|m| m.path.real == file.path.real) {
            Some(m) => m.then(&file),
            None => merged.push(file),
        }
    }
    merged.retain(|f| !f.unchanged());
    merged
}

/// The shown form of each merged file; a moved file's source and destination are one entry.
fn describe(
    ctx: &ToolContext,
    merged: &[PlannedFile],
    moves: &[(std::path::PathBuf, std::path::PathBuf)],
) -> Vec<FileChange> {
    let find = |real: &std::path::Path| merged.iter().find(|f| f.path.real == real);
    let mut moved_into = Vec::new();
    let mut out = Vec::new();
    for file in merged {
        if moved_into.contains(&&file.path.real) {
            continue;
        }
        let dest = moves.iter().find(|(from, _)| *from == file.path.real);
        let dest = dest
            .filter(|_| file.after.is_none())
            .and_then(|(_, to)| find(to));
        let (action, last) = match (dest, &file.before, &file.after) {
            (Some(dest), _, _) => (Action::Move, dest),
            (None, None, _) => (Action::Create, file),
            (None, _, None) => (Action::Delete, file),
            (None, _, _) => (Action::Update, file),
        };
        if let Some(dest) = dest {
            moved_into.push(&dest.path.real);
        }
        let hidden = ctx.policy.check_writable(&file.path).is_err()
            || ctx.policy.check_writable(&last.path).is_err();
        let name = &file.display;
        // A file that is not moved shows the diff found when it was planned.
        let counted = match dest {
            None => file.diff.clone(),
            Some(_) => super::diff::unified_counted_bytes(
                file.base(),
                &last.after_bytes().unwrap_or_default(),
                name,
            ),
        };
        let (diff, additions, deletions) = shown(counted, name, hidden);
        out.push(FileChange {
            path: file.display.clone(),
            action,
            moved_to: dest.map(|d| d.display.clone()),
            diff,
            additions,
            deletions,
        });
    }
    out
}

/// A unified diff and its added and deleted line counts as shown for the file `name`: a
/// protected file's contents are never shown (only counted).
fn shown(
    (diff, additions, deletions): (String, usize, usize),
    name: &str,
    hidden: bool,
) -> (String, usize, usize) {
    match hidden {
        true => (
            format!("(the contents of the protected file {name} are not shown)\n"),
            additions,
            deletions,
        ),
        false => (diff, additions, deletions),
    }
}

/// The tool a plan's undo level names, and whether its write forgets the file's levels.
fn recording_of(files: &[PlannedFile]) -> (String, bool) {
    let tool = files.iter().find_map(|f| match &f.recording {
        PlannedRecording::Level(tool) => Some(tool.clone()),
        _ => None,
    });
    let forget = files
        .iter()
        .any(|f| f.recording == PlannedRecording::Forget);
    (tool.unwrap_or_default(), forget)
}

/// The stored form of a preview.
fn record_of(
    outcome: &Outcome,
    plan: &Plan,
    merged: Vec<PlannedFile>,
    (tool, forget): (String, bool),
    shown: Vec<FileChange>,
) -> PreviewRecord {
    PreviewRecord {
        format: PREVIEW_FORMAT,
        created_ms: crate::history::now_ms(),
        ttl_ms: u64::try_from(DEFAULT_PREVIEW_TTL.as_millis()).unwrap_or(u64::MAX),
        tool,
        forget,
        text: outcome.text.clone(),
        failed: outcome.error.map(|k| k.as_str().to_string()),
        changed_files: outcome.changed_files.clone(),
        changes: outcome.changes,
        files: merged
            .into_iter()
            .map(|f| {
                let paths = (&*f.path.real, &*f.path.lexical);
                PreviewedFile::new(f.display, paths, f.before, f.before_name, f.after)
            })
            .collect(),
        shown,
        effects: plan
            .effects
            .iter()
            .map(|(p, e)| (bytes(&p.real), bytes(&p.lexical), e.clone()))
            .collect(),
        moves: plan
            .moves
            .iter()
            .map(|(from, to)| (bytes(from), bytes(to)))
            .collect(),
        checkpoint_first: plan.checkpoint_first.clone(),
    }
}

fn bytes(path: &std::path::Path) -> Vec<u8> {
    crate::history::previews::bytes_of(path)
}

/// Applies the preview `token` (see the module doc). The reply is the previewed call's own.
pub fn apply_preview(ctx: &ToolContext, previews: &Previews, token: &str) -> Outcome {
    let store = match previews.store(ctx) {
        Ok(store) => store,
        Err(e) => {
            let text = format!(
                "Error: the preview cannot be applied: {e}. Nothing was written; re-send the call."
            );
            return ToolError::new(ErrorKind::Fs, text).into();
        }
    };
    let record = match store.take(token.trim()) {
        Ok(Loaded::Record(record)) => *record,
        Ok(Loaded::Missing) => return ToolError::new(ErrorKind::NotFound, MISSING).into(),
        Ok(Loaded::Older) => return ToolError::new(ErrorKind::Stale, OLDER).into(),
        Ok(Loaded::Newer) => return ToolError::new(ErrorKind::Stale, NEWER).into(),
        Err(e) => {
            let text = format!(
                "Error: the preview cannot be applied: {e}. Nothing was written; re-send the call."
            );
            return ToolError::new(ErrorKind::Fs, text).into();
        }
    };
    if record.expired_at(crate::history::now_ms()) {
        let text = format!(
            "Error: this preview has expired (previews can be applied for {}). Nothing was written. Re-send the call.",
            span(Duration::from_millis(record.ttl_ms))
        );
        return ToolError::new(ErrorKind::Stale, text).into();
    }
    if record.failed.is_some() {
        return outcome_of(&record); // a failed call's preview: its failure, nothing written
    }
    apply_record(ctx, &store, &record).into()
}

const OLDER: &str = "Error: this preview was stored by an older version of edit-engine, which this one does not apply. Nothing was written. Re-send the call.";

const NEWER: &str = "Error: this preview was stored by a newer version of edit-engine, which this one cannot apply. Nothing was written, and the preview is kept: apply it with that newer version, or re-send the call to preview and apply it with this one.";

const MISSING: &str = "Error: there is no preview with this token (a preview can be applied once, and only until it expires). Nothing was written. Re-send the call.";

/// A duration as a person reads it: whole hours, minutes or seconds, else milliseconds.
fn span(d: Duration) -> String {
    let ms = d.as_millis();
    match ms {
        ms if ms >= 3_600_000 && ms % 3_600_000 == 0 => format!("{} h", ms / 3_600_000),
        ms if ms >= 60_000 && ms % 60_000 == 0 => format!("{} min", ms / 60_000),
        ms if ms >= 1000 && ms % 1000 == 0 => format!("{} s", ms / 1000),
        ms => format!("{ms} ms"),
    }
}

/// A file of a stored preview, resolved and locked again, with what it holds now.
struct Target<'r> {
    file: &'r PreviewedFile,
    path: ResolvedPath,
    current: Option<Vec<u8>>,
}

impl Target<'_> {
    /// True when the file holds what the preview read.
    fn unchanged(&self) -> bool {
        match (&self.file.read, &self.current) {
            (None, None) => true,
            (Some(read), Some(now)) => read.is(now),
            _ => false,
        }
    }

    /// The content to write: the preview's, made from what the file holds (which is what the
    /// preview read); `Err` when the stored preview does not fit it (damaged).
    fn written(&self) -> Result<Option<Vec<u8>>, ToolError> {
        let Some(write) = &self.file.write else {
            return Ok(None);
        };
        write
            .apply(self.current.as_deref().unwrap_or_default())
            .map(Some)
            .ok_or_else(|| {
                let text = format!("Error: the previewed change was not applied: the stored preview of {} is damaged. Nothing was written. Re-send the call.", self.file.display);
                ToolError::new(ErrorKind::Internal, text)
            })
    }
}

/// Locks every file of `record` (in real-path order), runs the read guard, checks each still
/// holds what the preview read, and writes the previewed contents as one change.
fn apply_record(
    ctx: &ToolContext,
    store: &PreviewStore,
    record: &PreviewRecord,
) -> Result<Outcome, ToolError> {
    const LEAD: &str = "Error: the previewed change was not applied: ";
    let fail = |e: &FsError| ToolError::fs(LEAD, e, &ctx.host_tools);
    let mut targets = record
        .files
        .iter()
        .map(|file| resolve(ctx, file))
        .collect::<Result<Vec<_>, _>>()?;
    targets.sort_by(|a, b| a.path.real.cmp(&b.path.real));
    let mut locks = Vec::with_capacity(targets.len());
    for target in &mut targets {
        locks.push(ctx.lock(&target.path).map_err(|e| fail(&e))?);
        if target.file.read.is_some() {
            ctx.check_read_state(&target.path)
                .map_err(|message| fail(&FsError::ReadState { message }))?;
        }
        target.current = current(ctx, target).map_err(|e| fail(&e))?;
    }
    refuse_changed(store, &targets)?;
    let written = targets
        .iter()
        .map(Target::written)
        .collect::<Result<Vec<_>, _>>()?;
    let files = targets
        .iter()
        .zip(&written)
        .map(|(t, after)| FileEdit {
            path: &t.path,
            display: &t.file.display,
            before: t.current.as_deref(),
            after: after.as_deref(),
            texts: None,
        })
        .collect::<Vec<_>>();
    let recording = match (&record.checkpoint_first, record.forget, files.len()) {
        (Some(_), _, _) => Recording::Restore(&record.tool),
        (None, true, _) => Recording::Forget,
        (None, false, 1) => Recording::Level(&record.tool),
        (None, false, _) => Recording::Transaction(&record.tool),
    };
    let taken = checkpoint_first(ctx, record)?;
    ctx.apply(&Change { files, recording })
        .map_err(|e| fail(&e))?;
    drop(locks);
    for (real, lexical, effect) in &record.effects {
        if let (Some(real), Some(lexical)) = (path_of(real), path_of(lexical)) {
            ctx.after_write(&ResolvedPath { lexical, real }, effect.clone());
        }
    }
    let text = match taken {
        Some(id) => format!("{}{}", record.text, super::rewind::taken_before_text(&id)),
        None => record.text.clone(),
    };
    Ok(Outcome {
        error: None,
        text,
        changed_files: record.changed_files.clone(),
        changes: record.changes,
    })
}

/// For a rewind's preview, the checkpoint taken before it writes (its id); `None` for any other.
fn checkpoint_first(
    ctx: &ToolContext,
    record: &PreviewRecord,
) -> Result<Option<String>, ToolError> {
    let Some(label) = &record.checkpoint_first else {
        return Ok(None);
    };
    let taken = ctx.history.store().and_then(|store| {
        store
            .create_checkpoint(ctx.history.session(), Some(label))
            .map_err(|e| e.to_string())
    });
    match taken {
        Ok(checkpoint) => Ok(Some(checkpoint.id)),
        Err(e) => {
            let text = format!("Error: the previewed rewind was not applied: no checkpoint could be taken before it ({e}). Nothing was written. Re-send the call.");
            Err(ToolError::new(ErrorKind::Fs, text))
        }
    }
}

/// Resolves a stored file's path again under this context's path policy; it must still be the
/// file the preview read.
fn resolve<'r>(ctx: &ToolContext, file: &'r PreviewedFile) -> Result<Target<'r>, ToolError> {
    let unusable = || {
        let text = format!("Error: the previewed change was not applied: the stored path of {} is unusable. Nothing was written. Re-send the call.", file.display);
        ToolError::new(ErrorKind::Internal, text)
    };
    let lexical = file.lexical_path().ok_or_else(unusable)?;
    let real = file.real_path().ok_or_else(unusable)?;
    let lexical = lexical.to_str().ok_or_else(unusable)?;
    let path = ctx.resolve_writable(lexical, None).map_err(|e| {
        ToolError::fs(
            "Error: the previewed change was not applied: ",
            &e,
            &ctx.host_tools,
        )
    })?;
    if path.real != real {
        let text = format!("Error: the previewed change was not applied: {} now resolves to another file (a link changed since the preview). Nothing was written. Re-read the file and re-send the call.", file.display);
        return Err(ToolError::new(ErrorKind::Stale, text));
    }
    Ok(Target {
        file,
        path,
        current: None,
    })
}

/// What the file holds now (`None`: no file).
fn current(ctx: &ToolContext, target: &Target) -> Result<Option<Vec<u8>>, FsError> {
    let (real, display) = (&target.path.real, &target.file.display);
    match crate::fs::textfile::read_bytes_confined(real, display, Some(ctx.max_file_bytes)) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(FsError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Refuses when any file no longer holds what the preview read, showing what changed since.
fn refuse_changed(store: &PreviewStore, targets: &[Target]) -> Result<(), ToolError> {
    let changed: Vec<&Target> = targets.iter().filter(|t| !t.unchanged()).collect();
    if changed.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = changed.iter().map(|t| t.file.display.as_str()).collect();
    let mut text = format!(
        "Error: the previewed change was not applied: {} changed since the preview. Nothing was written. Re-read the file{} and re-send the call.\n\nWhat changed since the preview:\n",
        names.join(", "),
        if names.len() > 1 { "s" } else { "" }
    );
    for t in changed {
        text.push_str(&changed_since(store, t));
    }
    Err(ToolError::new(ErrorKind::Stale, text))
}

/// A short diff of one file from what the preview read to what it holds now (when the content
/// read is no longer held, only that it changed).
fn changed_since(store: &PreviewStore, t: &Target) -> String {
    let name = &t.file.display;
    match (&t.file.read, &t.current) {
        (Some(_), None) => format!("{name} was deleted.\n"),
        (None, Some(_)) => format!("{name} was created.\n"),
        (_, now) => {
            let Some(before) = store.content_read(t.file) else {
                return format!("{name} holds other content (the content the preview read is no longer kept to show the difference).\n");
            };
            let now = now.as_deref().unwrap_or_default();
            let (diff, _, _) = super::diff::unified_counted_bytes(&before, now, name);
            let lines: Vec<&str> = diff.lines().collect();
            let mut shown = lines[..lines.len().min(CHANGED_SINCE_LINES)].join("\n");
            if lines.len() > CHANGED_SINCE_LINES {
                shown.push_str(&format!(
                    "\n... ({} more lines)",
                    lines.len() - CHANGED_SINCE_LINES
                ));
            }
            format!("```diff\n{shown}\n```\n")
        }
    }
}
