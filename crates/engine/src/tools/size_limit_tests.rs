//! The size limit of every write: no tool leaves a file over `maxFileBytes` (refused before
//! writing, naming the limit, in write and preview mode alike), whatever lands can be undone,
//! and `create` does not overwrite a file whose content it cannot keep for undo.
use super::outcome::{ErrorKind, Outcome};
use super::text_editor::TextEditorOptions;
use super::*;
use crate::history::recording::HistoryOption;
use serde_json::{json, Value};

/// The limit of the contexts below.
const LIMIT: u64 = 1000;

/// Twenty lines of 10 bytes (220 bytes), the file every case starts from.
fn lines() -> String {
    "0123456789\n".repeat(20)
}

/// A workspace holding `a.txt` (see [`lines`]), a history store, and a context with [`LIMIT`].
fn setup() -> (tempfile::TempDir, tempfile::TempDir, ToolContext) {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(ws.path().join("a.txt"), lines()).unwrap();
    let history = HistoryOption::Dir(hist.path().to_string_lossy().into_owned());
    let mut ctx = test_context(ws.path(), history);
    ctx.max_file_bytes = LIMIT;
    (ws, hist, ctx)
}

fn editor(ctx: &ToolContext, params: &Value) -> Outcome {
    text_editor::call(ctx, &TextEditorOptions::default(), params)
}

/// `run(params)` is refused, names the limit and how to recover, and leaves the workspace as
/// it was (in write mode and in preview mode).
fn assert_refused(run: fn(&ToolContext, &Value) -> Outcome, params: Value) {
    let (ws, _hist, ctx) = setup();
    let (preview, _) = ctx.preview();
    for ctx in [&preview, &ctx] {
        let out = run(ctx, &params);
        assert_eq!(out.error, Some(ErrorKind::Fs), "{params}: {}", out.text);
        assert!(out.text.contains("nothing was written"), "{}", out.text);
        assert!(
            out.text
                .contains(&format!("over the {LIMIT}-byte limit (maxFileBytes")),
            "{}",
            out.text
        );
        assert!(
            out.text.contains("raise the tool's maxFileBytes option"),
            "{}",
            out.text
        );
        let names: Vec<_> = std::fs::read_dir(ws.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "a file was created: {params}");
        assert_eq!(
            std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
            lines()
        );
    }
}

#[test]
fn a_regex_matching_every_line_start_cannot_grow_a_file_past_the_limit() {
    let op = json!({"type": "regex", "searchFor": "(?m)^", "replaceWith": "x".repeat(50)});
    let params = json!({"filePath": "a.txt", "replacements": [op]});
    assert_refused(replace_in_file::call, params);
}

#[test]
fn replace_all_cannot_grow_a_file_past_the_limit() {
    let params = json!({"file_path": "a.txt", "old_string": "5", "new_string": "5".repeat(60), "replace_all": true});
    assert_refused(edit::call, params);
    let params =
        json!({"path": "a.txt", "old_text": "5", "new_text": "5".repeat(60), "replace_all": true});
    assert_refused(edit_file::call, params);
}

#[test]
fn no_tool_creates_a_file_over_the_limit() {
    let big = "y".repeat(LIMIT as usize + 1);
    assert_refused(
        create::call,
        json!({"file_path": "big.txt", "content": big}),
    );
    assert_refused(
        editor,
        json!({"command": "create", "path": "big.txt", "file_text": big}),
    );
    let patch = format!("*** Begin Patch\n*** Add File: big.txt\n+{big}\n*** End Patch");
    assert_refused(apply_patch::call_patch, json!({ "input": patch }));
}

/// A result of exactly the limit lands, and undo puts the file back.
#[test]
fn a_write_at_the_limit_lands_and_can_be_undone() {
    let (ws, _hist, ctx) = setup();
    let content = "z".repeat(LIMIT as usize);
    let out = create::call(
        &ctx,
        &json!({"file_path": "a.txt", "content": content, "overwrite": true}),
    );
    assert!(out.ok(), "{}", out.text);
    let undone = undo::call(&ctx, &json!({"path": "a.txt"}));
    assert!(undone.ok(), "{}", undone.text);
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        lines()
    );
}

/// `create` over a file it cannot read back (over the limit) is refused while the undo history
/// is on, naming the limit; with the history off it overwrites, as before.
#[test]
fn create_does_not_overwrite_a_file_it_cannot_keep_for_undo() {
    let (ws, _hist, mut ctx) = setup();
    ctx.max_file_bytes = 50;
    let params = json!({"file_path": "a.txt", "content": "short\n", "overwrite": true});
    let out = create::call(&ctx, &params);
    assert_eq!(out.error, Some(ErrorKind::Fs), "{}", out.text);
    assert_eq!(out.text, "Error creating file: nothing was written: a.txt could not be read back for the undo history (it is 220 bytes, over the 50-byte maxFileBytes limit), and a write that could not be undone is refused. Raise the tool's maxFileBytes option above the file's size (when that is the reason), or the host can set history: false.");
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        lines()
    );
    let mut off = test_context(ws.path(), HistoryOption::Off);
    off.max_file_bytes = 50;
    assert!(create::call(&off, &params).ok());
    assert_eq!(
        std::fs::read_to_string(ws.path().join("a.txt")).unwrap(),
        "short\n"
    );
}
