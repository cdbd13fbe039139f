//! The order of a call's refusals and how its params are read: the checks that need no file come
//! first, then the path and the tracker's guards, then the mode's checks that Probe makes after
//! them; a batch's `workingDirectory` reaches each operation that does not send its own.

use super::text_editor::TextEditorOptions;
use super::{edit, multi_edit, replace_in_file, test_context, text_editor, ToolContext};
use crate::history::recording::HistoryOption;
use crate::tracker::FileTracker;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

/// A context over `root` with a session tracker allowing `max_edits` consecutive text edits.
fn tracked(root: &Path, max_edits: u32) -> (ToolContext, Arc<FileTracker>) {
    let tracker = Arc::new(FileTracker::new(false));
    tracker.set_max_consecutive_text_edits(max_edits);
    let mut ctx = test_context(root, HistoryOption::Off);
    ctx.tracker = Some(tracker.clone());
    (ctx, tracker)
}

fn edit_text(ctx: &ToolContext, params: serde_json::Value) -> String {
    edit::call(ctx, &params).text
}

#[test]
fn a_missing_or_unread_file_is_refused_before_the_mode_params() {
    let ws = tempfile::tempdir().unwrap();
    std::fs::write(ws.path().join("a.js"), "let a = 1;\n").unwrap();
    let (ctx, _) = tracked(ws.path(), 3);
    let missing = edit_text(
        &ctx,
        json!({ "file_path": "gone.js", "new_string": "", "symbol": 5 }),
    );
    assert!(missing.starts_with("Error editing file: File not found - gone.js."));
    let unread = edit_text(
        &ctx,
        json!({ "file_path": "a.js", "new_string": "x", "old_string": "a", "match_strategy": 7 }),
    );
    assert!(
        unread.contains("This file has not been read yet"),
        "{unread}"
    );
}

#[test]
fn match_strategy_comes_before_the_edit_count_guard_and_expected_replacements_after_it() {
    let ws = tempfile::tempdir().unwrap();
    let file = ws.path().join("a.js");
    std::fs::write(&file, "let a = 1;\n").unwrap();
    let (ctx, tracker) = tracked(ws.path(), 0);
    tracker.mark_file_seen(&file);
    let base = json!({ "file_path": "a.js", "new_string": "b", "old_string": "a" });
    let with = |extra: serde_json::Value| {
        let mut params = base.clone();
        params
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        edit_text(&ctx, params)
    };
    let strategy = with(json!({ "match_strategy": ["x"], "expected_replacements": 0 }));
    assert!(
        strategy.starts_with("Error editing file: Invalid match_strategy \"[\"x\"]\""),
        "{strategy}"
    );
    let stale = with(json!({ "expected_replacements": 0 }));
    assert!(
        stale.contains("edited 0 times without being re-read"),
        "{stale}"
    );
    tracker.set_max_consecutive_text_edits(3);
    let count = with(json!({ "expected_replacements": "two" }));
    assert!(count.starts_with("Error editing file: Invalid expected_replacements"));
}

#[test]
fn line_references_are_read_as_javascript_strings() {
    let ws = tempfile::tempdir().unwrap();
    std::fs::write(ws.path().join("a.txt"), "one\ntwo\n").unwrap();
    let ctx = test_context(ws.path(), HistoryOption::Off);
    let text = edit_text(
        &ctx,
        json!({ "file_path": "a.txt", "new_string": "x", "start_line": [1, 2] }),
    );
    assert!(
        text.starts_with("Error editing file: Invalid start_line '1,2'."),
        "{text}"
    );
    let inverted = edit_text(
        &ctx,
        json!({ "file_path": "a.txt", "new_string": "x", "start_line": 2.0, "end_line": "1" }),
    );
    assert!(inverted.starts_with("Error editing file: end_line (1) must be >= start_line (2)."));
}

#[test]
fn a_batch_working_directory_reaches_operations_that_do_not_send_their_own() {
    let ws = tempfile::tempdir().unwrap();
    let sub = ws.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(ws.path().join("a.txt"), "root\n").unwrap();
    std::fs::write(sub.join("a.txt"), "sub\n").unwrap();
    let ctx = test_context(ws.path(), HistoryOption::Off);
    let params = json!({
        "workingDirectory": sub.to_string_lossy(),
        "edits": [
            { "file_path": "a.txt", "old_string": "sub", "new_string": "SUB" },
            { "file_path": "a.txt", "old_string": "root", "new_string": "ROOT", "workingDirectory": "" },
        ],
    });
    for atomic in [false, true] {
        std::fs::write(ws.path().join("a.txt"), "root\n").unwrap();
        std::fs::write(sub.join("a.txt"), "sub\n").unwrap();
        let mut params = params.clone();
        params["atomic"] = json!(atomic);
        let outcome = multi_edit::call(&ctx, &params);
        assert!(outcome.error.is_none(), "{}", outcome.text);
        assert_eq!(std::fs::read_to_string(sub.join("a.txt")).unwrap(), "SUB\n");
        assert_eq!(
            std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
            "ROOT\n"
        );
    }
}

#[test]
fn text_editor_params_are_refused_before_or_after_the_path_as_each_command_checks_them() {
    let ws = tempfile::tempdir().unwrap();
    let ctx = test_context(ws.path(), HistoryOption::Off);
    let options = TextEditorOptions::default();
    let run = |params: serde_json::Value| text_editor::call(&ctx, &options, &params).text;
    let insert = run(json!({ "command": "insert", "path": "gone.txt", "insert_line": "x" }));
    assert!(
        insert.starts_with("Error: Invalid `insert_line` parameter: \"x\"."),
        "{insert}"
    );
    let view = run(json!({ "command": "view", "path": "gone.txt", "view_range": "nope" }));
    assert!(
        view.starts_with("Error: The path gone.txt does not exist."),
        "{view}"
    );
    std::fs::write(ws.path().join("a.txt"), "one\ntwo\n").unwrap();
    let view = run(json!({ "command": "view", "path": "a.txt", "view_range": "[2, \"-1\"]" }));
    assert_eq!(view.lines().last().map(str::trim), Some("2\ttwo"), "{view}");
}

#[test]
fn replace_in_file_shows_a_bad_value_as_json_before_the_path_is_checked() {
    let ws = tempfile::tempdir().unwrap();
    let ctx = test_context(ws.path(), HistoryOption::Off);
    let long = "x".repeat(80);
    let params = json!({
        "filePath": "gone.txt",
        "replacements": [{ "type": "lines", "startLine": { "at": long }, "endLine": 1, "replaceWith": "" }],
    });
    let text = replace_in_file::call(&ctx, &params).text;
    let shown = format!("{{\"at\":\"{}...", "x".repeat(53));
    assert!(
        text.contains(&format!(
            "startLine must be an integer line number, got {shown}"
        )),
        "{text}"
    );
}
