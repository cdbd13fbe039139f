//! Undo of the last write to a file, from the undo history every tool records into
//! ([`super::history`]): the text editor's `undo_edit` and the exported `undoLastEdit(path)`.
//!
//! Contracts:
//! - Undo never destroys work: it applies only while the file holds exactly what the undone
//!   write left (each level records that content's hash); otherwise it is refused with
//!   [`UndoError::Changed`] (a short diff of what changed) and the file is untouched. Undo of a
//!   creation removes the file under the same rule.
//! - The file's lock is held across the whole undo. The restored bytes are written atomically and
//!   durably (directory fsync included) before the level is removed, so a crash in between
//!   leaves the level in place over a file that already holds its content: the next undo sees
//!   that and only removes the level. A level is never removed before its restore landed, and
//!   the restored bytes are not themselves recorded (undoing twice goes two levels back).

use super::errors::describe;
use super::history::NEW_FILE_MARK;
use super::params::non_blank_str;
use super::ToolContext;
use crate::fs::atomic::{remove_file_confined, write_atomic_confined, WriteMode};
use crate::fs::background::Durability;
use crate::fs::textfile::read_bytes_confined;
use crate::fs::{FsError, ResolvedPath};
use crate::history::{hash_hex, HistoryStore, Level};
use serde_json::Value;

/// What an undo did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undone {
    /// The file holds `content` again, the content it had before the last write by `tool`.
    Restored {
        content: Vec<u8>,
        tool: String,
        remaining: usize,
    },
    /// The last write (by `tool`) created the file; it has been removed.
    Removed { tool: String, remaining: usize },
}

/// Why an undo did not happen (the file is unchanged).
#[derive(Debug, thiserror::Error)]
pub enum UndoError {
    #[error("{0}")]
    Unavailable(String),
    #[error("no edit history found")]
    NoHistory,
    #[error("{0}")]
    Store(String),
    #[error("{}", describe(.0))]
    Write(FsError),
    /// The file no longer holds what the undone write left; `diff` shows what changed.
    #[error("the file changed since that edit")]
    Changed { diff: String },
}

/// Most lines of the diff an [`UndoError::Changed`] shows.
const MAX_DIFF_LINES: usize = 24;

/// Undoes the last recorded write to `path`.
pub fn undo_last(ctx: &ToolContext, path: &ResolvedPath) -> Result<Undone, UndoError> {
    let store = ctx.history.store().map_err(UndoError::Unavailable)?;
    let display = ctx.display(path);
    let _lock = ctx.lock(path).map_err(UndoError::Write)?;
    let level = match store.newest(&path.real) {
        Ok(Some(level)) => level,
        Ok(None) => return Err(UndoError::NoHistory),
        Err(e) => return Err(UndoError::Store(e.to_string())),
    };
    let current = read_current(ctx, path, &display)?;
    let creator = level.entry.tool.strip_suffix(NEW_FILE_MARK);
    let already_restored = match creator {
        Some(_) => current.is_none(),
        None => current.as_deref().map(hash_hex).as_ref() == Some(&level.entry.blake3),
    };
    if !already_restored {
        check_unchanged(store, &level, current.as_deref())?;
        restore(&level, creator.is_some(), path, &display).map_err(UndoError::Write)?;
    }
    store
        .drop_newest(&path.real, &level.entry)
        .map_err(|e| UndoError::Store(e.to_string()))?;
    ctx.tracker_after_write(path);
    ctx.read_tracker_after_write(path);
    let remaining = level.remaining;
    Ok(match creator {
        Some(tool) => Undone::Removed {
            tool: tool.to_string(),
            remaining,
        },
        None => Undone::Restored {
            content: level.content,
            tool: level.entry.tool,
            remaining,
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

/// `Ok` when the file holds exactly what the level's write left; else `Changed` with a diff
/// from that content to the current one.
fn check_unchanged(
    store: &HistoryStore,
    level: &Level,
    current: Option<&[u8]>,
) -> Result<(), UndoError> {
    let written = level.entry.written.as_deref();
    if written.is_some() && current.map(hash_hex).as_deref() == written {
        return Ok(());
    }
    let now = current.map(String::from_utf8_lossy).unwrap_or_default();
    let diff = match (written, store.written_content(&level.entry)) {
        (None, _) => "(this level was recorded without the content of its write, so the file cannot be checked)".to_string(),
        (Some(_), None) if current.is_none() => "(the file has been deleted)".to_string(),
        (Some(_), None) => "(the content the edit wrote is no longer stored, so no diff can be shown)".to_string(),
        (Some(_), Some(then)) => short_diff(&String::from_utf8_lossy(&then), &now),
    };
    Err(UndoError::Changed { diff })
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

/// Puts the level's content back (or removes a file the level's write created), durably.
fn restore(
    level: &Level,
    created: bool,
    path: &ResolvedPath,
    display: &str,
) -> Result<(), FsError> {
    if created {
        // The undone write created the file: remove it.
        return remove_file_confined(&path.real, display);
    }
    write_atomic_confined(
        &path.real,
        &level.content,
        WriteMode::CreateOrReplace,
        display,
        Durability::Strict,
    )
}

/// The exported `undoLastEdit(path)`: params `{ path, workingDirectory? }`. Never panics;
/// failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    let Some(path_param) = non_blank_str(params, "path") else {
        return "Error: path is required and must be a non-empty string (the file whose last edit to undo).".to_string();
    };
    let working_dir = non_blank_str(params, "workingDirectory");
    let path = match ctx.resolve_writable(path_param, working_dir) {
        Ok(p) => p,
        Err(e) => return format!("Error: {}", describe(&e)),
    };
    match undo_last(ctx, &path) {
        Ok(Undone::Restored { tool, remaining, .. }) => format!(
            "Last edit to {path_param} undone successfully: restored the content from before the last {tool} write ({remaining} earlier level{} remain{}).",
            plural(remaining),
            if remaining == 1 { "s" } else { "" }
        ),
        Ok(Undone::Removed { tool, remaining }) => format!(
            "Last edit to {path_param} undone successfully: the file had been created by {tool} and was removed ({remaining} earlier level{} remain{}).",
            plural(remaining),
            if remaining == 1 { "s" } else { "" }
        ),
        Err(e) => failure(path_param, &e),
    }
}

/// `Error: ...` for an undo that did not happen, with what to do next.
pub fn failure(path_param: &str, error: &UndoError) -> String {
    match error {
        UndoError::NoHistory => format!("Error: No edit history found for {path_param}. Only writes made through edit-engine tools (with undo history on) can be undone; edit the file directly to change it."),
        UndoError::Unavailable(reason) => format!("Error: Undo is unavailable: {reason}. The file was not changed."),
        UndoError::Store(reason) => format!("Error: Could not read the undo history of {path_param}: {reason}. The file was not changed."),
        UndoError::Write(e) => format!("Error: Could not undo the last edit to {path_param}: {}", describe(e)),
        UndoError::Changed { diff } => format!("Error: Cannot undo the last edit to {path_param}: the file changed since that edit (another program or person changed it), and undoing would throw those changes away. The file was not changed. What changed since the edit:\n{diff}\nTo go back anyway, edit the file to the content you want."),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::history::HistoryOption;
    use crate::tools::ToolOptions;
    use serde_json::json;

    fn context(root: &std::path::Path, history: &std::path::Path) -> ToolContext {
        let history = HistoryOption::Dir(history.to_string_lossy().into_owned());
        crate::tools::test_context(root, history)
    }

    #[test]
    fn session_commits_are_undone_level_by_level() {
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
                remaining: 1
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
                remaining: 0
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
