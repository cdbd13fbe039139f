//! Undo of the last write to a file, from the undo history every tool records into
//! ([`super::history`]): the text editor's `undo_edit` and the exported `undoLastEdit(path)`.
//!
//! Contracts: the file's lock is held across the whole undo; the restored bytes are written
//! atomically and are not themselves recorded (undoing twice goes two levels back); a level that
//! marks a file creation removes the file; if the restore cannot be written, the level is put
//! back and the file is unchanged.

use super::errors::describe;
use super::history::NEW_FILE_MARK;
use super::params::non_blank_str;
use super::ToolContext;
use crate::fs::atomic::{remove_file_confined, WriteMode};
use crate::fs::locks::lock_path;
use crate::fs::{FsError, ResolvedPath};
use crate::history::HistoryStore;
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
}

/// Undoes the last recorded write to `path`.
pub fn undo_last(ctx: &ToolContext, path: &ResolvedPath) -> Result<Undone, UndoError> {
    let store = ctx.history.store().map_err(UndoError::Unavailable)?;
    let _lock = lock_path(&path.real);
    let levels = store
        .levels(&path.real)
        .map_err(|e| UndoError::Store(e.to_string()))?;
    let Some(last) = levels.last() else {
        return Err(UndoError::NoHistory);
    };
    let tool = last.tool.clone();
    let remaining = levels.len() - 1;
    let content = match store.undo_last(&path.real) {
        Ok(Some(content)) => content,
        Ok(None) => return Err(UndoError::NoHistory),
        Err(e) => return Err(UndoError::Store(e.to_string())),
    };
    let display = ctx.display(path);
    let outcome = match tool.strip_suffix(NEW_FILE_MARK) {
        // The undone write created the file: remove it (already gone is fine).
        Some(creator) => remove_file_confined(&path.real, &display).map(|()| Undone::Removed {
            tool: creator.to_string(),
            remaining,
        }),
        None => ctx
            .write_file(&path.real, &content, WriteMode::CreateOrReplace, &display)
            .map(|()| Undone::Restored {
                content: content.clone(),
                tool: tool.clone(),
                remaining,
            }),
    };
    match outcome {
        Ok(undone) => {
            ctx.tracker_after_write(path);
            ctx.read_tracker_after_write(path);
            Ok(undone)
        }
        Err(e) => {
            put_back(store, path, &content, &tool);
            Err(UndoError::Write(e))
        }
    }
}

/// Re-records a popped level whose restore failed, so the history is as before.
fn put_back(store: &HistoryStore, path: &ResolvedPath, content: &[u8], tool: &str) {
    let _ = store.record(&path.real, content, tool);
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
}
