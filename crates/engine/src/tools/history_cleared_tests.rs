//! A write the undo history cannot keep (a replaced content over the store's size cap) lands,
//! clears the history of its files, and says so in its reply; every other reply is unchanged.
use super::*;
use crate::history::recording::HistoryOption;
use crate::history::HistoryStore;
use serde_json::json;
use std::path::Path;

/// A context on a history store in `hist` whose size cap is `cap` bytes.
fn capped(ws: &Path, hist: &Path, cap: u64) -> ToolContext {
    let dir = hist.to_string_lossy().into_owned();
    let ctx = test_context(ws, HistoryOption::Dir(dir));
    let store = HistoryStore::open(hist)
        .unwrap()
        .with_max_bytes(cap)
        .with_session(Some(ctx.history.session()));
    ctx.history.hold(store);
    ctx
}

fn undo_text(ctx: &ToolContext, rel: &str) -> String {
    undo::call(ctx, &json!({ "path": rel })).text
}

#[test]
fn an_edit_replacing_content_over_the_cap_says_its_history_was_cleared() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = capped(ws.path(), hist.path(), 5000);
    let big = format!("head\n{}\n", "x".repeat(6000));
    std::fs::write(ws.path().join("a.txt"), "small\n").unwrap();
    let edit = |old: &str, new: &str| {
        edit::call(
            &ctx,
            &json!({"file_path": "a.txt", "old_string": old, "new_string": new}),
        )
    };
    let grown = edit("small\n", &big);
    assert!(grown.ok(), "{}", grown.text);
    assert!(!grown.text.contains("undo history"), "{}", grown.text);
    let over = edit("head", "top");
    assert!(over.ok(), "{}", over.text);
    let said = format!(" This write was not kept in the undo history: the content it replaced ({} bytes) is over the history store's 5000-byte size cap, so the undo history of a.txt was cleared and undo cannot bring back its earlier contents.", big.len());
    assert!(over.text.ends_with(&said), "{}", over.text);
    let undone = undo_text(&ctx, "a.txt");
    assert!(
        undone.starts_with("Error: No edit history found for a.txt"),
        "{undone}"
    );
    // A preview answers the same sentence as the call would.
    let now = std::fs::read(ws.path().join("a.txt")).unwrap().len();
    let said = said.replace(&format!("({} bytes)", big.len()), &format!("({now} bytes)"));
    let shown = preview::preview(&ctx, &preview::Previews::new(None), None, |c| {
        edit::call(
            c,
            &json!({"file_path": "a.txt", "old_string": "top", "new_string": "head"}),
        )
    });
    assert!(
        shown.outcome.text.ends_with(&said),
        "{}",
        shown.outcome.text
    );
}

#[test]
fn a_multi_file_write_over_the_cap_names_every_file_cleared() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = capped(ws.path(), hist.path(), 5000);
    std::fs::write(
        ws.path().join("big.txt"),
        format!("one\n{}\n", "y".repeat(6000)),
    )
    .unwrap();
    std::fs::write(ws.path().join("small.txt"), "two\n").unwrap();
    let out = multi_edit::call(
        &ctx,
        &json!({"atomic": true, "edits": [
            {"file_path": "big.txt", "old_string": "one", "new_string": "ONE"},
            {"file_path": "small.txt", "old_string": "two", "new_string": "TWO"},
        ]}),
    );
    assert!(out.ok(), "{}", out.text);
    assert!(
        out.text.contains("so the undo history of big.txt, small.txt was cleared and undo cannot bring back their earlier contents."),
        "{}",
        out.text
    );
    assert!(undo_text(&ctx, "small.txt").starts_with("Error: No edit history found"));
}

/// Writes the history keeps answer as before: no sentence about it, under a small cap or not.
#[test]
fn writes_the_history_keeps_say_nothing_about_it() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = capped(ws.path(), hist.path(), 64 << 10);
    std::fs::write(
        ws.path().join("a.txt"),
        format!("one\n{}\n", "z".repeat(6000)),
    )
    .unwrap();
    let out = edit::call(
        &ctx,
        &json!({"file_path": "a.txt", "old_string": "one", "new_string": "ONE"}),
    );
    assert_eq!(out.text, "Successfully edited a.txt (1 replacement)");
    let undone = undo_text(&ctx, "a.txt");
    assert!(
        undone.starts_with("Last edit to a.txt undone successfully"),
        "{undone}"
    );
}
