//! Undo of the last write to a file, from the undo history every tool records into
//! ([`crate::history::recording`]): the text editor's `undo_edit` and the exported
//! `undoLastEdit(path)`.
//!
//! Contracts:
//! - Undo never destroys work: it applies only while the file holds exactly what the undone
//!   write left (each level records that content's hash; a deleting write left no file);
//!   otherwise it is refused with [`UndoError::Changed`] (a short diff of what changed) and the
//!   file is untouched. Undo of a creation removes the file under the same rule; undo of a
//!   deletion puts the file back while it is still absent.
//! - A level of a multi-file write (one transaction, see [`crate::history::HistoryStore::record_txn`])
//!   is undone as a whole: undoing any of its files reverts every file of it (added files removed,
//!   deleted ones restored, moved ones moved back), or the undo is refused naming the file that
//!   changed since, and no file is touched.
//! - Every file's lock is held across the whole undo (taken in path order). The restored bytes
//!   are written atomically and durably (directory fsync included) before any level is removed
//!   (a transaction's record first, then its levels), so a crash in between leaves levels over
//!   files that already hold their content: the next undo sees that and only removes them. A
//!   level is never removed before its restore landed, and the restored bytes are not
//!   themselves recorded (undoing twice goes two levels back).

use super::apply::{Change, FileEdit, Recording};
use super::errors::describe;
use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{self, Located, Loose};
use super::ToolContext;
use crate::fs::locks::FileLock;
use crate::fs::textfile::read_bytes_confined;
use crate::fs::{FsError, ResolvedPath};
use crate::history::recording::NEW_FILE_MARK;
use crate::history::{hash_hex, HistoryStore, Level, TxnRecord};
use crate::specs::HostTools;
use crate::tools::write_frame::TrackerEffect;
use serde_json::Value;

/// What an undo did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undone {
    /// The file holds `content` again, the content it had before the last write by `tool`.
    Restored {
        content: Vec<u8>,
        tool: String,
        remaining: usize,
        /// The other files of the same multi-file change, reverted too (display names).
        others: Vec<String>,
    },
    /// The last write (by `tool`) created the file; it has been removed.
    Removed {
        tool: String,
        remaining: usize,
        others: Vec<String>,
    },
}

/// Why an undo did not happen (no file is changed).
#[derive(Debug, thiserror::Error)]
pub enum UndoError {
    #[error("{0}")]
    Unavailable(String),
    #[error("no edit history found")]
    NoHistory,
    #[error("{0}")]
    Store(String),
    #[error("{}", describe(.0, &HostTools::default()))]
    Write(FsError),
    /// A file no longer holds what the undone write left; `diff` shows what changed. `other`
    /// names it when it is another file of the same multi-file change.
    #[error("the file changed since that edit")]
    Changed { diff: String, other: Option<String> },
}

impl UndoError {
    /// The failure's kind.
    pub fn kind(&self) -> ErrorKind {
        match self {
            UndoError::NoHistory => ErrorKind::NotFound,
            UndoError::Unavailable(_) | UndoError::Store(_) => ErrorKind::Fs,
            UndoError::Write(e) => ErrorKind::of(e),
            UndoError::Changed { .. } => ErrorKind::Stale,
        }
    }
}

/// Most lines of the diff an [`UndoError::Changed`] shows.
const MAX_DIFF_LINES: usize = 24;

/// One file of an undo: its path, the level undone, what it holds now, and what to do.
struct Part {
    path: ResolvedPath,
    display: String,
    level: Level,
    current: Option<Vec<u8>>,
    step: Step,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The file already holds the level's content (a crash after its restore): only drop it.
    Done,
    /// Write the level's content back.
    Restore,
    /// Remove the file (the undone write created it).
    Remove,
}

/// The multi-file change a level belongs to, as its record names it.
struct Group<'a> {
    id: &'a str,
    record: TxnRecord,
}

/// Undoes the last recorded write to `path`, and the rest of its multi-file change if it was one.
pub fn undo_last(ctx: &ToolContext, path: &ResolvedPath) -> Result<Undone, UndoError> {
    let store = ctx.history.store().map_err(UndoError::Unavailable)?;
    let store_err = |e: crate::history::HistoryError| UndoError::Store(e.to_string());
    let txn = store
        .levels(&path.real)
        .map_err(store_err)?
        .pop()
        .and_then(|e| e.txn);
    let record = match &txn {
        Some(id) => store.txn_record(id).map_err(store_err)?,
        None => None,
    };
    let group = txn
        .as_deref()
        .zip(record.filter(|r| r.members.iter().any(|(p, _)| *p == path.real)))
        .map(|(id, record)| Group { id, record });
    let mut paths = match &group {
        Some(g) => resolve_members(ctx, &g.record, path)?,
        None => vec![path.clone()],
    };
    paths.sort_by(|a, b| a.real.cmp(&b.real));
    interrupted::settle_interrupted(ctx, &store, &paths, group.as_ref().map(|g| g.id))?;
    let _locks = paths
        .iter()
        .map(|p| ctx.lock(p))
        .collect::<Result<Vec<FileLock>, FsError>>()
        .map_err(UndoError::Write)?;
    let mut parts = Vec::with_capacity(paths.len());
    for p in paths {
        parts.extend(plan_part(ctx, &store, p, path, group.as_ref())?);
    }
    restore_all(ctx, &parts)?;
    if ctx.previewing() {
        return outcome(parts, path);
    }
    if let Some(g) = &group {
        store.mark_txn_undone(g.id).map_err(store_err)?;
    }
    for part in &parts {
        store
            .drop_newest(&part.path.real, &part.level.entry)
            .map_err(store_err)?;
        ctx.after_write(&part.path, TrackerEffect::Write);
    }
    if let Some(g) = &group {
        store.forget_txn(g.id).map_err(store_err)?;
    }
    outcome(parts, path)
}

/// The files of a multi-file change, resolved and guarded like a tool's path (`path` itself as
/// given).
fn resolve_members(
    ctx: &ToolContext,
    record: &TxnRecord,
    path: &ResolvedPath,
) -> Result<Vec<ResolvedPath>, UndoError> {
    let resolve =
        |(real, _): &(std::path::PathBuf, Option<String>)| -> Result<ResolvedPath, UndoError> {
            if *real == path.real {
                return Ok(path.clone());
            }
            let Some(raw) = real.to_str() else {
                let shown = real.to_string_lossy();
                return Err(UndoError::Unavailable(format!("{shown}, a file of the same multi-file change, has a name that is not valid UTF-8, so it cannot be reverted")));
            };
            match ctx.resolve_writable(raw, None) {
            Ok(r) if r.real == *real => Ok(r),
            Ok(_) => Err(UndoError::Unavailable(format!("{raw}, a file of the same multi-file change, no longer resolves to the same file (a folder of its path was replaced)"))),
            Err(e) => Err(UndoError::Write(e)),
        }
        };
    record.members.iter().map(resolve).collect()
}

/// Reads one locked file and decides what undoing its level does; refuses a file that changed
/// since. `None`: a member of `group` with nothing to undo (its level was already removed by an
/// undo the record marks done, or never pushed and the file still holds what the record names).
fn plan_part(
    ctx: &ToolContext,
    store: &HistoryStore,
    path: ResolvedPath,
    undone: &ResolvedPath,
    group: Option<&Group>,
) -> Result<Option<Part>, UndoError> {
    let display = ctx.display(&path);
    let other = (path.real != undone.real).then(|| display.clone());
    let level = store
        .newest(&path.real)
        .map_err(|e| UndoError::Store(e.to_string()))?;
    let current = read_current(ctx, &path, &display)?;
    let in_group = |l: &Level| group.is_some_and(|g| l.entry.txn.as_deref() == Some(g.id));
    let level = match (level, group) {
        (Some(level), None) => level,
        (None, None) => return Err(UndoError::NoHistory),
        (Some(level), Some(_)) if in_group(&level) => level,
        (_, Some(g)) if g.record.undone => return Ok(None),
        (_, Some(g)) => {
            let named = g.record.members.iter().find(|(p, _)| *p == path.real);
            let previous = named.and_then(|(_, prev)| prev.as_deref());
            if current.as_deref().map(hash_hex).as_deref() == previous {
                return Ok(None);
            }
            let diff = "(it was changed again since that change; undo or revert that first)";
            return Err(UndoError::Changed {
                diff: diff.into(),
                other,
            });
        }
    };
    let step = match group {
        Some(g) if g.record.undone => Step::Done,
        _ => step_of(&level, current.as_deref()).map_err(|()| UndoError::Changed {
            diff: changed_diff(store, &level, current.as_deref()),
            other,
        })?,
    };
    Ok(Some(Part {
        path,
        display,
        level,
        current,
        step,
    }))
}

/// What undoing `level` does to a file holding `current`; `Err` when it holds neither the
/// level's content nor what the level's write left.
fn step_of(level: &Level, current: Option<&[u8]>) -> Result<Step, ()> {
    let entry = &level.entry;
    let created = entry.tool.ends_with(NEW_FILE_MARK);
    let hash = current.map(hash_hex);
    let restored = match created {
        true => current.is_none(),
        false => hash.as_deref() == Some(entry.blake3.as_str()),
    };
    let as_written = match entry.deleted {
        true => current.is_none(),
        false => entry.written.is_some() && hash == entry.written,
    };
    match (restored, as_written, created) {
        (true, _, _) => Ok(Step::Done),
        (false, true, true) => Ok(Step::Remove),
        (false, true, false) => Ok(Step::Restore),
        (false, false, _) => Err(()),
    }
}

/// Restores every part as one change ([`ToolContext::apply`], recording no level): if one
/// fails, the parts already restored get back what they held.
fn restore_all(ctx: &ToolContext, parts: &[Part]) -> Result<(), UndoError> {
    let files: Vec<FileEdit> = parts
        .iter()
        .filter(|p| p.step != Step::Done)
        .map(|p| FileEdit {
            path: &p.path,
            display: &p.display,
            before: p.current.as_deref(),
            after: (p.step == Step::Restore).then_some(p.level.content.as_slice()),
            texts: None,
        })
        .collect();
    let change = Change {
        files,
        recording: Recording::Undo,
    };
    ctx.apply(&change).map(drop).map_err(UndoError::Write)
}

/// The result for the undone file, naming the other files reverted with it.
fn outcome(parts: Vec<Part>, undone: &ResolvedPath) -> Result<Undone, UndoError> {
    let others: Vec<String> = parts
        .iter()
        .filter(|p| p.path.real != undone.real)
        .map(|p| p.display.clone())
        .collect();
    let mut parts = parts;
    let Some(index) = parts.iter().position(|p| p.path.real == undone.real) else {
        return Err(UndoError::NoHistory);
    };
    let part = parts.swap_remove(index);
    let remaining = part.level.remaining;
    Ok(match part.level.entry.tool.strip_suffix(NEW_FILE_MARK) {
        Some(tool) => Undone::Removed {
            tool: tool.to_string(),
            remaining,
            others,
        },
        None => Undone::Restored {
            content: part.level.content,
            tool: part.level.entry.tool,
            remaining,
            others,
        },
    })
}

/// The file's bytes, `None` when it does not exist.
fn read_current(
    ctx: &ToolContext,
    path: &ResolvedPath,
    display: &str,
) -> Result<Option<Vec<u8>>, UndoError> {
    match read_bytes_confined(&path.real, display, Some(ctx.max_file_bytes)) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(FsError::NotFound { .. }) => Ok(None),
        Err(e) => Err(UndoError::Write(e)),
    }
}

/// A diff from what the level's write left to the file's current content, for a refusal. That
/// content's blob is stored on the background thread after the write: a write of this process
/// still queued is waited for (a little); without it, the diff is from the content before the
/// edit.
fn changed_diff(store: &HistoryStore, level: &Level, current: Option<&[u8]>) -> String {
    let now = current.map(String::from_utf8_lossy).unwrap_or_default();
    if level.entry.deleted {
        return short_diff("", &now);
    }
    if level.entry.written.is_none() {
        return "(this level was recorded without the content of its write, so the file cannot be checked)".to_string();
    }
    let then = store.written_content(&level.entry).or_else(|| {
        crate::fs::background::flush_within(Some(std::time::Duration::from_secs(2)));
        store.written_content(&level.entry)
    });
    match then {
        Some(then) => short_diff(&String::from_utf8_lossy(&then), &now),
        None if current.is_none() => "(the file has been deleted)".to_string(),
        None => format!(
            "(the content the edit wrote is not stored; this diff is from the content before the edit)\n{}",
            short_diff(&String::from_utf8_lossy(&level.content), &now)
        ),
    }
}

/// A unified diff of at most [`MAX_DIFF_LINES`] lines.
fn short_diff(before: &str, after: &str) -> String {
    let full = super::diff::unified(before, after, "file");
    let lines: Vec<&str> = full.lines().collect();
    if lines.len() <= MAX_DIFF_LINES {
        return full;
    }
    let more = lines.len() - MAX_DIFF_LINES;
    format!(
        "{}\n... ({more} more diff lines)",
        lines[..MAX_DIFF_LINES].join("\n")
    )
}

/// The params of an undo call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct UndoParams {
    path: Loose,
}

/// A validated undo call.
struct UndoRequest {
    /// `path` exactly as given (echoed in messages).
    path: String,
    working_dir: Option<String>,
}

impl TryFrom<Located<UndoParams>> for UndoRequest {
    type Error = ToolError;

    fn try_from(call: Located<UndoParams>) -> Result<Self, ToolError> {
        let Some(path) = call.params.path.non_blank() else {
            return Err(ToolError::bad_param("Error: path is required and must be a non-empty string (the file whose last edit to undo)."));
        };
        Ok(UndoRequest {
            path: path.to_string(),
            working_dir: call.working_dir,
        })
    }
}

/// The exported `undoLastEdit(path)`: params `{ path, workingDirectory? }`. Never panics;
/// failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    call(ctx, params).text
}

/// Runs one undo call: the files it changed are the path given and the other files of a
/// multi-file change it reverted.
pub fn call(ctx: &ToolContext, params: &Value) -> Outcome {
    let request = match UndoRequest::try_from(params::read::<UndoParams>(params)) {
        Ok(request) => request,
        Err(refusal) => return refusal.into(),
    };
    let (path_param, working_dir) = (request.path.as_str(), request.working_dir.as_deref());
    let path = match ctx.resolve_writable(path_param, working_dir) {
        Ok(p) => p,
        Err(e) => return ToolError::fs("Error: ", &e, &ctx.host_tools).into(),
    };
    let undone = match undo_last(ctx, &path) {
        Ok(undone) => undone,
        Err(e) => return ToolError::new(e.kind(), failure(path_param, &e, &ctx.host_tools)).into(),
    };
    let mut outcome = Outcome::wrote(undone_text(path_param, &undone), path_param);
    let (Undone::Restored { others, .. } | Undone::Removed { others, .. }) = &undone;
    others.iter().for_each(|other| outcome.add_changed(other));
    outcome
}

/// The success message of an undo of `path_param`.
fn undone_text(path_param: &str, undone: &Undone) -> String {
    match undone {
        Undone::Restored { tool, remaining, others, .. } => format!(
            "Last edit to {path_param} undone successfully: restored the content from before the last {tool} write ({remaining} earlier level{} remain{}).{}",
            plural(*remaining),
            if *remaining == 1 { "s" } else { "" },
            also_reverted(others)
        ),
        Undone::Removed { tool, remaining, others } => format!(
            "Last edit to {path_param} undone successfully: the file had been created by {tool} and was removed ({remaining} earlier level{} remain{}).{}",
            plural(*remaining),
            if *remaining == 1 { "s" } else { "" },
            also_reverted(others)
        ),
    }
}

/// The sentence naming the other files of a multi-file change an undo reverted ("" for none).
pub fn also_reverted(others: &[String]) -> String {
    if others.is_empty() {
        return String::new();
    }
    format!(
        " That edit was part of a change to several files, so the others were reverted too: {}.",
        others.join(", ")
    )
}

/// `Error: ...` for an undo that did not happen, with what to do next (naming the host's `tools`).
pub fn failure(path_param: &str, error: &UndoError, tools: &HostTools) -> String {
    match error {
        UndoError::NoHistory => format!("Error: No edit history found for {path_param}. Only writes made through edit-engine tools (with undo history on) can be undone; edit the file directly to change it."),
        UndoError::Unavailable(reason) => format!("Error: Undo is unavailable: {reason}. The file was not changed."),
        UndoError::Store(reason) => format!("Error: Could not read the undo history of {path_param}: {reason}. The file was not changed."),
        UndoError::Write(e @ FsError::TooLarge { size, .. }) => format!("Error: Could not undo the last edit to {path_param}: {e} (this tool's maxFileBytes, the largest file it reads). The file was not changed. Undo it through a tool made with the option maxFileBytes: {size} or more."),
        UndoError::Write(e) => format!("Error: Could not undo the last edit to {path_param}: {}", describe(e, tools)),
        UndoError::Changed { diff, other: None } => format!("Error: Cannot undo the last edit to {path_param}: the file changed since that edit (another program or person changed it), and undoing would throw those changes away. The file was not changed. What changed since the edit:\n{diff}\nTo go back anyway, edit the file to the content you want."),
        UndoError::Changed { diff, other: Some(other) } => format!("Error: Cannot undo the last edit to {path_param}: that edit was part of a change to several files, and {other} changed since (another program, person or edit changed it); undoing would throw those changes away. No file was changed. What changed in {other} since the edit:\n{diff}\nTo go back anyway, edit the files to the content you want."),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[path = "undo_interrupted.rs"]
mod interrupted;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::recording::HistoryOption;
    use crate::tools::ToolOptions;
    use serde_json::json;

    fn context(root: &std::path::Path, history: &std::path::Path) -> ToolContext {
        let history = HistoryOption::Dir(history.to_string_lossy().into_owned());
        crate::tools::test_context(root, history)
    }

    #[test]
    fn frame_commits_are_undone_level_by_level() {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        let file = ws.path().join("a.txt");
        std::fs::write(&file, "v1\r\n").unwrap();
        let path = ctx.resolve_writable("a.txt", None).unwrap();
        for next in ["v2\n", "v3\n"] {
            ctx.open_for_tool(&path, "test")
                .unwrap()
                .commit(next)
                .unwrap();
        }
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "v3\r\n");
        let undone = undo_last(&ctx, &path).unwrap();
        assert_eq!(
            undone,
            Undone::Restored {
                content: b"v2\r\n".to_vec(),
                tool: "test".into(),
                remaining: 1,
                others: vec![],
            }
        );
        assert!(run(&ctx, &json!({ "path": "a.txt" }))
            .starts_with("Last edit to a.txt undone successfully"));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "v1\r\n");
        assert!(matches!(undo_last(&ctx, &path), Err(UndoError::NoHistory)));
    }

    #[test]
    fn undoing_a_creation_removes_the_file() {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        let out = crate::tools::create::run(&ctx, &json!({ "file_path": "n.txt", "content": "x" }));
        assert!(out.starts_with("Successfully created"), "{out}");
        let path = ctx.resolve_writable("n.txt", None).unwrap();
        assert_eq!(
            undo_last(&ctx, &path).unwrap(),
            Undone::Removed {
                tool: "create".into(),
                remaining: 0,
                others: vec![],
            }
        );
        assert!(!ws.path().join("n.txt").exists());
    }

    #[test]
    fn a_failed_restore_keeps_the_level_and_the_file() {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        std::fs::write(ws.path().join("a.txt"), "old").unwrap();
        let path = ctx.resolve_writable("a.txt", None).unwrap();
        ctx.open_for_tool(&path, "test")
            .unwrap()
            .commit("new")
            .unwrap();
        std::fs::remove_file(ws.path().join("a.txt")).unwrap();
        std::fs::create_dir(ws.path().join("a.txt")).unwrap();
        assert!(matches!(
            undo_last(&ctx, &path),
            Err(UndoError::Write(FsError::NotAFile { .. }))
        ));
        let store = ctx.history.store().unwrap();
        assert_eq!(store.levels(&path.real).unwrap().len(), 1);
        std::fs::remove_dir(ws.path().join("a.txt")).unwrap();
        // Deleted since the edit: refused (the deletion is a change undo would throw away).
        assert!(matches!(
            undo_last(&ctx, &path),
            Err(UndoError::Changed { .. })
        ));
        std::fs::write(ws.path().join("a.txt"), "new").unwrap();
        assert!(matches!(
            undo_last(&ctx, &path),
            Ok(Undone::Restored { .. })
        ));
        assert_eq!(
            std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
            "old"
        );
    }

    #[test]
    fn history_off_records_nothing_and_refuses_undo() {
        let ws = tempfile::tempdir().unwrap();
        let options = ToolOptions {
            allowed_folders: vec![ws.path().to_string_lossy().into_owned()],
            history: HistoryOption::Off,
            ..ToolOptions::default()
        };
        let ctx = ToolContext::new(&options, None).unwrap();
        std::fs::write(ws.path().join("a.txt"), "old").unwrap();
        let out = run(&ctx, &json!({ "path": ws.path().join("a.txt") }));
        assert!(
            out.starts_with("Error: Undo is unavailable: undo history is turned off"),
            "{out}"
        );
    }

    /// Edit, then someone appends a line: undo is refused with a diff, the file and its level stay.
    #[test]
    fn undo_refuses_a_file_changed_since_the_edit() {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        let file = ws.path().join("a.txt");
        std::fs::write(&file, "one\n").unwrap();
        let path = ctx.resolve_writable("a.txt", None).unwrap();
        ctx.open_for_tool(&path, "edit")
            .unwrap()
            .commit("two\n")
            .unwrap();
        std::fs::write(&file, "two\nthe user's line\n").unwrap();
        let out = run(&ctx, &json!({ "path": "a.txt" }));
        assert!(
            out.starts_with(
                "Error: Cannot undo the last edit to a.txt: the file changed since that edit"
            ),
            "{out}"
        );
        assert!(out.contains("+the user's line"), "{out}");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "two\nthe user's line\n"
        );
        assert_eq!(
            ctx.history
                .store()
                .unwrap()
                .levels(&path.real)
                .unwrap()
                .len(),
            1
        );
    }

    /// A created file rewritten by someone else is not removed by undo.
    #[test]
    fn undo_of_a_create_refuses_a_rewritten_file() {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        let out = crate::tools::create::run(&ctx, &json!({ "file_path": "n.txt", "content": "x" }));
        assert!(out.starts_with("Successfully created"), "{out}");
        std::fs::write(ws.path().join("n.txt"), "their work").unwrap();
        let path = ctx.resolve_writable("n.txt", None).unwrap();
        assert!(matches!(
            undo_last(&ctx, &path),
            Err(UndoError::Changed { .. })
        ));
        assert_eq!(
            std::fs::read_to_string(ws.path().join("n.txt")).unwrap(),
            "their work"
        );
    }

    /// A write whose level was lost (a crash before it was recorded, a failed history write)
    /// never makes undo go back two edits: the older level no longer matches the file.
    #[test]
    fn a_lost_level_never_makes_undo_skip_an_edit() {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        let file = ws.path().join("a.txt");
        std::fs::write(&file, "v1").unwrap();
        let path = ctx.resolve_writable("a.txt", None).unwrap();
        ctx.open_for_tool(&path, "edit")
            .unwrap()
            .commit("v2")
            .unwrap();
        std::fs::write(&file, "v3").unwrap(); // landed, its level never recorded
        assert!(matches!(
            undo_last(&ctx, &path),
            Err(UndoError::Changed { .. })
        ));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "v3");
    }

    /// A crash after the restore landed but before its level was removed: the next undo only
    /// removes that level, and the one after goes back exactly one more edit.
    #[test]
    fn an_undo_interrupted_after_its_restore_completes_without_skipping() {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        let file = ws.path().join("a.txt");
        std::fs::write(&file, "v1").unwrap();
        let path = ctx.resolve_writable("a.txt", None).unwrap();
        for next in ["v2", "v3"] {
            ctx.open_for_tool(&path, "edit")
                .unwrap()
                .commit(next)
                .unwrap();
        }
        let _wait = ctx.lock(&path).unwrap();
        drop(_wait);
        std::fs::write(&file, "v2").unwrap(); // the restore landed; the process died
        assert!(
            matches!(undo_last(&ctx, &path), Ok(Undone::Restored { ref content, .. }) if content == b"v2")
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "v2");
        assert!(
            matches!(undo_last(&ctx, &path), Ok(Undone::Restored { ref content, .. }) if content == b"v1")
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "v1");
    }

    /// New content with a NUL byte is refused by every writer; the file is unchanged.
    #[test]
    fn nul_in_new_content_is_refused() {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        std::fs::write(ws.path().join("a.txt"), "alpha\n").unwrap();
        let out = crate::tools::edit::run(
            &ctx,
            &json!({ "file_path": "a.txt", "old_string": "alpha", "new_string": "al\u{0}pha" }),
        );
        assert!(out.starts_with("Error") && out.contains("NUL"), "{out}");
        assert_eq!(
            std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
            "alpha\n"
        );
        let out =
            crate::tools::create::run(&ctx, &json!({ "file_path": "b.txt", "content": "a\u{0}b" }));
        assert!(out.starts_with("Error") && out.contains("NUL"), "{out}");
        assert!(!ws.path().join("b.txt").exists());
    }
}

#[cfg(test)]
#[path = "undo_group_tests.rs"]
mod group_tests;
