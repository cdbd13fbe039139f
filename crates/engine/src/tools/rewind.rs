//! Checkpoints of a session and rewinds to them (`createCheckpoints(options)`: `create`, `list`,
//! `rewind`), on the history store's sessions (see [`crate::history::checkpoints`]).
//!
//! Contracts of a rewind to a checkpoint of the context's session:
//! - Every file the session changed since the checkpoint gets back what it held before those
//!   changes: files created since are removed, deleted ones restored, moved ones moved back
//!   (the move's two files, listed as one `Move` entry). An edit made before the checkpoint and
//!   undone since is put back too, however far back the undos went (the checkpoint names the
//!   session's newest level of each file, and what the file held before its oldest level).
//!   Writes made with the history off, or by other sessions, are never rewound.
//! - Only where the file still holds what the session last wrote (or, when that write never
//!   landed, what it held before it; after undos, what they put back); any other file is a
//!   conflict (also one written by another session after the session's undos): by default
//!   the whole rewind is refused and nothing is touched; `skip` rewinds the rest and lists the
//!   skipped.
//! - A checkpoint whose levels were evicted is refused, naming the file.
//! - Every file's lock is held from the check to the write. Before writing, a checkpoint is
//!   taken (returned), so the rewind can itself be rewound; the change is one transaction on the
//!   one write path ([`ToolContext::apply`]): one undo level that undoing any of its files reverts
//!   whole. A crash leaves each file whole, rewound or not; running the rewind again completes it.
//! - `dry_run` reports the same without writing (and takes no checkpoint).
//! - Previewed (a context in preview mode, see [`super::preview`]), it plans its files as any
//!   writing tool does and takes no checkpoint: applying the stored preview takes it, then writes
//!   exactly the planned contents (refused, nothing written, if a file changed in between).

use super::apply::{Change, FileEdit, Recording};
use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{self, Loose};
use super::preview::Action;
use super::ToolContext;
use crate::fs::locks::FileLock;
use crate::fs::textfile::read_bytes_confined;
use crate::fs::{FsError, ResolvedPath};
use crate::history::checkpoints::{Checkpoint, SessionFile, Then};
use crate::history::recording::NEW_FILE_MARK;
use crate::history::{hash_hex, HistoryEntry, HistoryStore};
use crate::tools::write_frame::TrackerEffect;
use serde_json::Value;

/// How a rewind runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct RewindOptions {
    /// Report only; write nothing.
    pub dry_run: bool,
    /// Rewind the other files when some conflict (default: refuse the whole rewind).
    pub skip_conflicts: bool,
}

/// One file a rewind changes (or would).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewoundFile {
    pub path: String,
    /// `Create`: restored; `Delete`: removed (created since); `Update`: content put back;
    /// `Move`: a file moved since, moved back from `path` to `moved_to`.
    pub action: Action,
    /// Where a `Move` puts the file back (its path at the checkpoint).
    pub moved_to: Option<String>,
    /// Unified diff from its content now to its content at the checkpoint (for a `Move`, from
    /// `path`'s content now to `moved_to`'s content then).
    pub diff: String,
    pub additions: usize,
    pub deletions: usize,
}

/// A file a rewind leaves alone because it changed since the session last wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub path: String,
    pub reason: String,
}

/// What a rewind did (or would do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewind {
    pub ok: bool,
    /// Whether the rewind can go ahead (false when refused).
    pub can_rewind: bool,
    /// The failure's kind (`None` on success).
    pub kind: Option<ErrorKind>,
    pub text: String,
    pub files: Vec<RewoundFile>,
    pub conflicts: Vec<Conflict>,
    /// The checkpoint taken before writing (`None` for a dry run or a refusal).
    pub checkpoint: Option<Checkpoint>,
}

impl Rewind {
    fn refused(kind: ErrorKind, text: String, conflicts: Vec<Conflict>) -> Self {
        Rewind {
            ok: false,
            can_rewind: false,
            kind: Some(kind),
            text,
            files: Vec::new(),
            conflicts,
            checkpoint: None,
        }
    }

    /// Lines added, summed over the files.
    pub fn insertions(&self) -> usize {
        self.files.iter().map(|f| f.additions).sum()
    }

    /// Lines removed, summed over the files.
    pub fn deletions(&self) -> usize {
        self.files.iter().map(|f| f.deletions).sum()
    }
}

/// Takes a checkpoint of the context's session.
pub fn create(ctx: &ToolContext, label: Option<&str>) -> Result<Checkpoint, String> {
    let store = ctx.history.store()?;
    store
        .create_checkpoint(ctx.history.session(), label)
        .map_err(|e| e.to_string())
}

/// The context's session's checkpoints, oldest first (`lost` names files whose levels were
/// evicted: such a checkpoint can no longer be rewound).
pub fn list(ctx: &ToolContext) -> Result<Vec<Checkpoint>, String> {
    let store = ctx.history.store()?;
    store
        .checkpoints(Some(ctx.history.session()))
        .map_err(|e| e.to_string())
}

/// One file of a planned rewind, locked and read.
struct Planned {
    /// The session's file it rewinds.
    file: SessionFile,
    path: ResolvedPath,
    display: String,
    current: Option<Vec<u8>>,
    then: Option<Vec<u8>>,
}

/// The params of a `rewind` call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct RewindParams {
    id: Loose,
    dry_run: Loose,
    on_conflict: Loose,
}

/// The `rewind` tool's call, `{ id, dry_run?, on_conflict? }` (`"refuse"` or `"skip"`), as an
/// [`Outcome`]: how a rewind is previewed and its preview applied, like any writing tool's call.
/// Read as the JS tool reads them: `dry_run` only when exactly `true`.
pub fn call(ctx: &ToolContext, params: &Value) -> Outcome {
    let p = params::read::<RewindParams>(params).params;
    let Some(id) = p.id.non_blank() else {
        let text = "Error: id is required: the checkpoint id the checkpoint tool returned.";
        return ToolError::bad_param(text).into();
    };
    let skip_conflicts = match p.on_conflict.js_string().as_deref() {
        None | Some("refuse") => false,
        Some("skip") => true,
        Some(other) => {
            let text = format!("Error: invalid on_conflict \"{other}\" (use \"refuse\", the default, or \"skip\"). No file was changed.");
            return ToolError::bad_param(text).into();
        }
    };
    let dry_run = p.dry_run.is_true();
    let result = rewind(
        ctx,
        id,
        RewindOptions {
            dry_run,
            skip_conflicts,
        },
    );
    let changed_files = match result.ok && !dry_run {
        true => result
            .files
            .iter()
            .flat_map(|f| std::iter::once(f.path.clone()).chain(f.moved_to.clone()))
            .collect(),
        false => Vec::new(),
    };
    Outcome {
        error: result.kind,
        text: result.text,
        changed_files,
        changes: None,
    }
}

/// Rewinds the context's session to checkpoint `id` (see the module doc).
pub fn rewind(ctx: &ToolContext, id: &str, options: RewindOptions) -> Rewind {
    match rewind_checked(ctx, id, options) {
        Ok(done) => done,
        Err(refused) => *refused,
    }
}

/// A refused rewind (boxed: a result is large).
type Refused = Box<Rewind>;

fn rewind_checked(ctx: &ToolContext, id: &str, options: RewindOptions) -> Result<Rewind, Refused> {
    let fail = |kind, text: String| Box::new(Rewind::refused(kind, text, Vec::new()));
    let store = ctx.history.store().map_err(|m| {
        fail(
            ErrorKind::Fs,
            format!("Error: Cannot rewind: {m}. No file was changed."),
        )
    })?;
    let store_err = |e: crate::history::HistoryError| {
        fail(
            ErrorKind::Fs,
            format!("Error: Cannot rewind: {e}. No file was changed."),
        )
    };
    let checkpoint = find(ctx, &store, id).map_err(|t| fail(ErrorKind::NotFound, t))?;
    let name = shown_name(&checkpoint);
    let session = ctx.history.session();
    let changes = store.session_changes(&checkpoint).map_err(store_err)?;
    refuse_missing(&changes, &name).map_err(|t| fail(ErrorKind::NotFound, t))?;
    let (resolved, mut conflicts) = resolve_all(ctx, &changes);
    let _locks = resolved
        .iter()
        .map(|(_, p)| ctx.lock(p))
        .collect::<Result<Vec<FileLock>, FsError>>()
        .map_err(|e| {
            fail(
                ErrorKind::of(&e),
                format!(
                    "Error: Cannot rewind: {}",
                    super::errors::describe(&e, &ctx.host_tools)
                ),
            )
        })?;
    let again = store.session_changes(&checkpoint).map_err(store_err)?;
    if again
        .iter()
        .map(|c| &c.path)
        .ne(changes.iter().map(|c| &c.path))
    {
        let text = format!("Error: Cannot rewind to checkpoint {name}: this session changed other files while the rewind was checking them. No file was changed. Call rewind again.");
        return Err(fail(ErrorKind::Stale, text));
    }
    let planned = plan_all(ctx, resolved, &again, &mut conflicts);
    if !conflicts.is_empty() && !options.skip_conflicts {
        let text = refusal_text(&name, &conflicts);
        return Err(Box::new(Rewind::refused(ErrorKind::Stale, text, conflicts)));
    }
    let files = summarize(&planned, &again);
    if options.dry_run {
        let text = dry_run_text(&name, &files, &conflicts);
        return Ok(done(text, files, conflicts, None));
    }
    let label = format!("before rewind to {name}");
    if ctx.previewing() {
        plan_moves(ctx, &planned, &again);
        ctx.with_plan(|plan| plan.checkpoint_first = Some(label));
        write(ctx, &name, &planned).map_err(|t| fail(ErrorKind::Fs, t))?;
        let text = rewound_text(&name, &files, &conflicts);
        return Ok(done(text, files, conflicts, None));
    }
    let before = store
        .create_checkpoint(session, Some(&label))
        .map_err(store_err)?;
    write(ctx, &name, &planned).map_err(|t| fail(ErrorKind::Fs, t))?;
    Ok(written(&name, files, conflicts, before))
}

/// Plans every locked file from the changes read under the locks (`again`); a file that changed
/// since the session wrote it goes to `conflicts`.
fn plan_all(
    ctx: &ToolContext,
    resolved: Vec<(&SessionFile, ResolvedPath)>,
    again: &[SessionFile],
    conflicts: &mut Vec<Conflict>,
) -> Vec<Planned> {
    let mut planned = Vec::new();
    for (file, path) in resolved {
        let file = again.iter().find(|c| c.path == file.path).unwrap_or(file);
        match plan_one(ctx, file, path) {
            Ok(Some(p)) => planned.push(p),
            Ok(None) => {}
            Err(c) => conflicts.push(c),
        }
    }
    planned
}

/// The checkpoint `id` of the context's session, or the refusal.
fn find(ctx: &ToolContext, store: &HistoryStore, id: &str) -> Result<Checkpoint, String> {
    let all = store
        .checkpoints(None)
        .map_err(|e| format!("Error: Cannot rewind: {e}. No file was changed."))?;
    let Some(checkpoint) = all.into_iter().find(|c| c.id == id) else {
        return Err(format!("Error: No checkpoint {id} in this history store (list() shows this session's checkpoints). No file was changed."));
    };
    if checkpoint.session != ctx.history.session() {
        return Err(format!("Error: Checkpoint {id} belongs to another session; a session rewinds only its own checkpoints (tools made with the same sessionId are one session). No file was changed."));
    }
    if let Some(file) = checkpoint.lost.first() {
        return Err(evicted_text(&shown_name(&checkpoint), file));
    }
    Ok(checkpoint)
}

/// A rewind needing a content the history no longer holds is refused, naming the file.
fn refuse_missing(changes: &[SessionFile], name: &str) -> Result<(), String> {
    match changes.iter().find(|c| c.then == Then::Missing) {
        Some(file) => Err(evicted_text(name, &file.path.to_string_lossy())),
        None => Ok(()),
    }
}

fn evicted_text(name: &str, file: &str) -> String {
    format!("Error: Cannot rewind to checkpoint {name}: the undo history it needs for {file} was evicted (the history store's size cap, or that file's history was cleared). No file was changed. Rewind to a later checkpoint, or raise historyMaxBytes to keep more history.")
}

/// The checkpoint as messages name it: its id, and its label when it has one.
fn shown_name(checkpoint: &Checkpoint) -> String {
    match &checkpoint.label {
        Some(label) => format!("{} (\"{label}\")", checkpoint.id),
        None => checkpoint.id.clone(),
    }
}

/// Each changed file resolved like a tool's path and guarded (in path order); a file that no
/// longer resolves to itself, or may not be written, is a conflict.
fn resolve_all<'a>(
    ctx: &ToolContext,
    changes: &'a [SessionFile],
) -> (Vec<(&'a SessionFile, ResolvedPath)>, Vec<Conflict>) {
    let (mut resolved, mut conflicts) = (Vec::new(), Vec::new());
    for file in changes {
        let raw = file.path.to_string_lossy();
        match ctx.resolve_writable(&raw, None) {
            Ok(p) if p.real == file.path => resolved.push((file, p)),
            Ok(_) => conflicts.push(Conflict {
                path: raw.into_owned(),
                reason: "a folder of its path was replaced since".into(),
            }),
            Err(e) => conflicts.push(Conflict {
                path: raw.into_owned(),
                reason: super::errors::describe(&e, &ctx.host_tools),
            }),
        }
    }
    resolved.sort_by(|a, b| a.1.real.cmp(&b.1.real));
    (resolved, conflicts)
}

/// Reads one locked file and plans its rewind: `None` when it already holds its content then;
/// a conflict when it no longer holds what the session last wrote.
fn plan_one(
    ctx: &ToolContext,
    file: &SessionFile,
    path: ResolvedPath,
) -> Result<Option<Planned>, Conflict> {
    let display = ctx.display(&path);
    let conflict = |reason: String| Conflict {
        path: display.clone(),
        reason,
    };
    let current = match read_bytes_confined(&path.real, &display, Some(ctx.max_file_bytes)) {
        Ok(bytes) => Some(bytes),
        Err(FsError::NotFound { .. }) => None,
        Err(e) => return Err(conflict(super::errors::describe(&e, &ctx.host_tools))),
    };
    holds_last_write(file, current.as_deref()).map_err(|r| conflict(r.into()))?;
    let then = match &file.then {
        Then::Content(bytes) => Some(bytes.clone()),
        Then::Absent | Then::Missing => None,
    };
    if then == current {
        return Ok(None);
    }
    Ok(Some(Planned {
        file: file.clone(),
        path,
        display,
        current,
        then,
    }))
}

/// `Ok` when the file (holding `current`) still holds what the session last wrote, or what it
/// held before that write when the write never landed (a crash between its level and its
/// rename); otherwise why not.
fn holds_last_write(file: &SessionFile, current: Option<&[u8]>) -> Result<(), &'static str> {
    if !file.last_is_newest {
        return Err("another session wrote it since");
    }
    let level = &file.last;
    let hash = current.map(hash_hex);
    let as_left = match level.deleted {
        true => current.is_none(),
        false => level.written.is_some() && hash == level.written,
    };
    let not_landed = match level.tool.ends_with(NEW_FILE_MARK) {
        true => current.is_none(),
        false => hash.as_deref() == Some(level.blake3.as_str()),
    };
    match as_left || not_landed {
        true => Ok(()),
        false => Err(
            "it changed since this session last wrote it (another program or person changed it)",
        ),
    }
}

/// What each planned file undergoes: a file moved since is one `Move` entry from where it is now
/// back to where it was (see [`moves_back`]).
fn summarize(planned: &[Planned], changes: &[SessionFile]) -> Vec<RewoundFile> {
    let moves = moves_back(planned, changes);
    let mut out = Vec::new();
    for (i, p) in planned.iter().enumerate() {
        if moves.iter().any(|&(_, to)| to == i) {
            continue;
        }
        let dest = moves
            .iter()
            .find(|&&(from, _)| from == i)
            .map(|&(_, to)| &planned[to]);
        let action = match (dest, &p.current, &p.then) {
            (Some(_), _, _) => Action::Move,
            (None, None, _) => Action::Create,
            (None, _, None) => Action::Delete,
            _ => Action::Update,
        };
        let then = dest.unwrap_or(p).then.as_deref();
        let old = String::from_utf8_lossy(p.current.as_deref().unwrap_or_default());
        let new = String::from_utf8_lossy(then.unwrap_or_default());
        let (diff, additions, deletions) = super::diff::unified_counted(&old, &new, &p.display);
        out.push(RewoundFile {
            path: p.display.clone(),
            action,
            moved_to: dest.map(|d| d.display.clone()),
            diff,
            additions,
            deletions,
        });
    }
    out
}

/// The moves a rewind undoes, as `(from, to)` indexes into `planned`: a file the rewind removes
/// (created since) and one it restores (deleted since) where the session's deletion of the one
/// and its creation of the other were one change (a move), possibly through files created and
/// removed again in between (moved on). The history records no moves: a change that deleted one
/// file and created one is a move; of a change that deleted or created several, only a file
/// created with a deleted file's exact content is taken as its move.
fn moves_back(planned: &[Planned], changes: &[SessionFile]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (to, restored) in planned.iter().enumerate() {
        if restored.current.is_some() || restored.then.is_none() {
            continue;
        }
        let mut gone = &restored.file.last;
        for _ in 0..changes.len() {
            let Some(made) = created_with(changes, gone) else {
                break;
            };
            let from = planned.iter().position(|p| p.file.path == made.path);
            let removed = |&i: &usize| planned[i].then.is_none() && planned[i].current.is_some();
            if let Some(from) = from.filter(removed) {
                if !out.iter().any(|&(f, _)| f == from) {
                    out.push((from, to));
                }
                break;
            }
            if !made.last.deleted {
                break;
            }
            gone = &made.last;
        }
    }
    out
}

/// The file the change of the deleting level `gone` moved its file to (see [`moves_back`]).
fn created_with<'a>(changes: &'a [SessionFile], gone: &HistoryEntry) -> Option<&'a SessionFile> {
    let txn = gone.txn.as_deref()?;
    let in_txn = |e: &HistoryEntry| e.txn.as_deref() == Some(txn);
    let made: Vec<&SessionFile> = changes
        .iter()
        .filter(|c| c.first.tool.ends_with(NEW_FILE_MARK) && in_txn(&c.first))
        .collect();
    let deleted = changes
        .iter()
        .filter(|c| c.last.deleted && in_txn(&c.last))
        .count();
    match (made.as_slice(), deleted) {
        ([one], 1) => Some(one),
        _ => made
            .into_iter()
            .find(|c| c.first.written.as_deref() == Some(gone.blake3.as_str())),
    }
}

/// In preview mode, records the moves the rewind undoes (each shown as one `move`).
fn plan_moves(ctx: &ToolContext, planned: &[Planned], changes: &[SessionFile]) {
    let moves = moves_back(planned, changes);
    ctx.with_plan(|plan| {
        for (from, to) in moves {
            let (from, to) = (&planned[from].path.real, &planned[to].path.real);
            plan.moves.push((from.clone(), to.clone()));
        }
    });
}

/// Writes every planned file as one transaction; `Err` is the failure's text (no file changed).
fn write(ctx: &ToolContext, name: &str, planned: &[Planned]) -> Result<(), String> {
    if planned.is_empty() {
        return Ok(());
    }
    let files = planned
        .iter()
        .map(|p| FileEdit {
            path: &p.path,
            display: &p.display,
            before: p.current.as_deref(),
            after: p.then.as_deref(),
            texts: None,
        })
        .collect();
    let change = Change {
        files,
        recording: Recording::Restore("rewind"),
    };
    ctx.apply(&change).map_err(|e| {
        format!(
            "Error: Cannot rewind to checkpoint {name}: {} No file was changed.",
            super::errors::describe(&e, &ctx.host_tools)
        )
    })?;
    for p in planned {
        ctx.after_write(&p.path, TrackerEffect::Write);
    }
    Ok(())
}

fn done(
    text: String,
    files: Vec<RewoundFile>,
    conflicts: Vec<Conflict>,
    checkpoint: Option<Checkpoint>,
) -> Rewind {
    Rewind {
        ok: true,
        can_rewind: true,
        kind: None,
        text,
        files,
        conflicts,
        checkpoint,
    }
}

/// The result of a rewind that wrote its files.
fn written(
    name: &str,
    files: Vec<RewoundFile>,
    conflicts: Vec<Conflict>,
    before: Checkpoint,
) -> Rewind {
    let mut text = rewound_text(name, &files, &conflicts);
    if !files.is_empty() {
        text.push_str(&taken_before_text(&before.id));
    }
    done(text, files, conflicts, Some(before))
}

/// What a rewind that wrote `files` answers, but the checkpoint it took first.
fn rewound_text(name: &str, files: &[RewoundFile], conflicts: &[Conflict]) -> String {
    match files.is_empty() {
        true => format!("Nothing to rewind: every file this session changed since checkpoint {name} holds its content from then.{}", skipped_text(conflicts)),
        false => format!("Rewound {} to checkpoint {name}: {}.{}", count(files.len(), "file"), listed(files), skipped_text(conflicts)),
    }
}

/// The sentence naming the checkpoint `id` a rewind took before writing.
pub fn taken_before_text(id: &str) -> String {
    format!(" Checkpoint {id} was taken before this rewind: rewind to it to go back (or undo the last edit of any of these files).")
}

fn dry_run_text(name: &str, files: &[RewoundFile], conflicts: &[Conflict]) -> String {
    match files.is_empty() {
        true => format!("Nothing to rewind: every file this session changed since checkpoint {name} holds its content from then.{}", skipped_text(conflicts)),
        false => format!("Rewinding to checkpoint {name} would change {}: {}.{} Nothing was written (dry run).", count(files.len(), "file"), listed(files), skipped_text(conflicts)),
    }
}

fn refusal_text(name: &str, conflicts: &[Conflict]) -> String {
    format!("Error: Cannot rewind to checkpoint {name}: {} changed since this session last wrote {}, and rewinding would throw those changes away: {}. No file was changed. Pass onConflict: 'skip' to rewind the other files and leave these as they are, or bring these files back to what the session wrote first.", count(conflicts.len(), "file"), if conflicts.len() == 1 { "it" } else { "them" }, conflicted(conflicts))
}

fn skipped_text(conflicts: &[Conflict]) -> String {
    match conflicts.is_empty() {
        true => String::new(),
        false => format!(
            " Skipped {} changed since this session last wrote {}: {}.",
            count(conflicts.len(), "file"),
            if conflicts.len() == 1 { "it" } else { "them" },
            conflicted(conflicts)
        ),
    }
}

fn conflicted(conflicts: &[Conflict]) -> String {
    let each = conflicts
        .iter()
        .map(|c| format!("{} ({})", c.path, c.reason));
    each.collect::<Vec<_>>().join("; ")
}

fn listed(files: &[RewoundFile]) -> String {
    let each = files.iter().map(|f| match f.action {
        Action::Move => format!(
            "{} moved back to {}",
            f.path,
            f.moved_to.as_deref().unwrap_or_default()
        ),
        Action::Create => format!("{} restored", f.path),
        Action::Delete => format!("{} removed", f.path),
        _ => format!("{} put back", f.path),
    });
    each.collect::<Vec<_>>().join(", ")
}

fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}
