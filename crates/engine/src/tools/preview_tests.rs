//! Preview mode for every writing tool: a previewed call writes nothing, records no undo level
//! and has no tracker effect, and answers the very text the write then gives; the files it plans
//! are, byte for byte, what the write leaves on disk.
use super::apply::{PlannedFile, PlannedRecording};
use super::outcome::Outcome;
use super::preview::{self, Action, FileChange, Previews};
use super::text_editor::TextEditorOptions;
use super::*;
use crate::history::recording::HistoryOption;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

type Run = fn(&ToolContext, &Value) -> Outcome;

/// Every file under `root`, by relative path.
fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in walkdir(root) {
        let rel = entry
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        out.insert(rel, std::fs::read(&entry).unwrap());
    }
    out
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walkdir(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// A workspace holding `files` (after `setup`, e.g. an earlier write for undo) with its own
/// history store, and a context on it.
fn workspace(
    files: &[(&str, &str)],
    setup: &Option<(Run, Value)>,
) -> (tempfile::TempDir, tempfile::TempDir, ToolContext) {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (rel, content) in files {
        std::fs::write(ws.path().join(rel), content).unwrap();
    }
    let history = HistoryOption::Dir(hist.path().to_string_lossy().into_owned());
    let ctx = test_context(ws.path(), history);
    if let Some((setup, p)) = setup {
        assert!(setup(&ctx, p).ok(), "setup failed");
    }
    (ws, hist, ctx)
}

/// Runs `params` through `run` as a preview, then as a write, in a workspace holding `files`
/// (after `setup`), and checks the preview against the write; then, in a second such
/// workspace, stores the preview and applies it: the reply and every file must be those of the
/// direct write, and each updated file's shown diff must turn its old content into its new one.
fn check(files: &[(&str, &str)], setup: Option<(Run, Value)>, run: Run, params: Value) {
    let (ws, hist, ctx) = workspace(files, &setup);
    let (on_disk, levels) = (snapshot(ws.path()), snapshot(hist.path()));
    let (preview_ctx, collector) = ctx.preview();
    let previewed = run(&preview_ctx, &params);
    assert!(previewed.ok(), "{}", previewed.text);
    assert_eq!(snapshot(ws.path()), on_disk, "the preview wrote: {params}");
    assert_eq!(
        snapshot(hist.path()),
        levels,
        "the preview recorded: {params}"
    );
    let planned: Vec<PlannedFile> = collector.lock().unwrap().files.clone();
    assert!(!planned.is_empty(), "nothing planned: {params}");
    let undo = planned
        .iter()
        .any(|f| f.recording == PlannedRecording::Undo);
    let written = run(&ctx, &params);
    assert_eq!(previewed, written, "{params}");
    // The last content planned for each file is what the write left there.
    let last: BTreeMap<String, Option<Vec<u8>>> = planned
        .iter()
        .map(|f| (f.display.clone(), f.after_bytes()))
        .collect();
    for (display, after) in last {
        let on_disk = std::fs::read(ws.path().join(&display)).ok();
        assert_eq!(on_disk, after, "{display} after {params}");
    }
    let direct = (&written, &snapshot(ws.path()));
    check_applied(files, setup, run, &params, direct, undo);
}

/// The stored preview of `params`, applied in a fresh workspace, gives `direct` (the direct
/// call's reply and files).
fn check_applied(
    files: &[(&str, &str)],
    setup: Option<(Run, Value)>,
    run: Run,
    params: &Value,
    direct: (&Outcome, &BTreeMap<String, Vec<u8>>),
    undo: bool,
) {
    let (ws, _hist, ctx) = workspace(files, &setup);
    let before = snapshot(ws.path());
    let previews = Previews::new(None);
    let shown = preview::preview(&ctx, &previews, None, |c| run(c, params));
    assert_eq!(&shown.outcome, direct.0, "{params}");
    for file in &shown.files {
        check_diff(&before, direct.1, file);
    }
    // An undo's preview is shown, not applied (undo itself takes back its level).
    assert_eq!(shown.token.is_none(), undo, "token of {params}");
    let Some(token) = shown.token else { return };
    let applied = preview::apply_preview(&ctx, &previews, &token);
    assert_eq!(&applied, direct.0, "{params}");
    assert_eq!(
        &snapshot(ws.path()),
        direct.1,
        "applied preview of {params}"
    );
}

/// An updated file's diff, applied to its old content, gives its new content.
fn check_diff(
    before: &BTreeMap<String, Vec<u8>>,
    after: &BTreeMap<String, Vec<u8>>,
    file: &FileChange,
) {
    if file.action != Action::Update {
        return;
    }
    let old = String::from_utf8(before[&file.path].clone()).unwrap();
    let ops = crate::patch::parse_diff(&file.diff, Some(&file.path)).unwrap();
    let new = crate::patch::apply_to_text(&old, &ops).unwrap().text;
    assert_eq!(
        new.as_bytes(),
        &after[&file.path][..],
        "diff of {}",
        file.path
    );
}

const JS: &str = "function greet() {\n  return 'hi';\n}\n\nfunction other() {\n  return 1;\n}\n";

#[test]
fn edit_in_every_mode() {
    let files = [("a.js", JS)];
    let text =
        json!({"file_path": "a.js", "old_string": "return 'hi';", "new_string": "return 'hello';"});
    check(&files, None, edit::call, text);
    let line = json!({"file_path": "a.js", "start_line": "2", "new_string": "  return 2;"});
    check(&files, None, edit::call, line);
    let symbol = json!({"file_path": "a.js", "symbol": "other", "new_string": "function other() {\n  return 3;\n}"});
    check(&files, None, edit::call, symbol);
}

/// A file of 1 MiB or more, whose syntax guard runs beside the planning as beside a write: the
/// preview answers the direct call's text, its syntax warning included.
#[test]
fn a_large_files_preview_carries_the_direct_calls_syntax_note() {
    let big = format!("{}{JS}", "let a = 1;\n".repeat(110_000));
    assert!(big.len() >= super::apply::GUARD_BESIDE_WRITE_FROM);
    let files = [("big.js", big.as_str())];
    let broken = json!({"file_path": "big.js", "old_string": "return 'hi';", "new_string": "return 'hi' +;"});
    check(&files, None, edit::call, broken.clone());
    let (_ws, _hist, ctx) = workspace(&files, &None);
    let direct = edit::call(&ctx, &broken);
    assert!(
        direct.text.to_lowercase().contains("syntax"),
        "{}",
        direct.text
    );
}

/// Small writes, whose syntax notes a preview finds while it is stored: the preview answers the
/// direct call's text with every note in place (two in a batch), the applied preview answers it
/// too, and the stored preview of a call, shown again, holds the notes.
#[test]
fn a_small_files_preview_carries_the_direct_calls_syntax_notes() {
    let files = [("a.js", JS)];
    let broken =
        json!({"file_path": "a.js", "old_string": "return 'hi';", "new_string": "return 'hi' +;"});
    let (_ws, _hist, ctx) = workspace(&files, &None);
    let direct = edit::call(&ctx, &broken);
    assert!(direct.text.contains("syntax"), "{}", direct.text);
    check(&files, None, edit::call, broken.clone());
    let twice = json!({"edits": [
        {"file_path": "a.js", "old_string": "return 'hi';", "new_string": "return 'hi' +;"},
        {"file_path": "a.js", "old_string": "return 1;", "new_string": "return (1;"},
    ]});
    check(&files, None, multi_edit::call, twice);
    let new = json!({"file_path": "n.js", "content": "function f( {\n"});
    check(&[], None, create::call, new);
    let (_ws, _hist, ctx) = workspace(&files, &None);
    let previews = Previews::new(None);
    let first = preview::preview(&ctx, &previews, Some("call-9"), |c| edit::call(c, &broken));
    let again = preview::preview(&ctx, &previews, Some("call-9"), |c| edit::call(c, &broken));
    assert_eq!(first.outcome.text, direct.text);
    assert_eq!(again.outcome, first.outcome);
}

#[test]
fn create_new_and_overwrite() {
    let new = json!({"file_path": "dir/n.txt", "content": "new\n"});
    check(&[], None, create::call, new);
    let over = json!({"file_path": "a.js", "content": "let x = 1;\n", "overwrite": true});
    check(&[("a.js", JS)], None, create::call, over);
}

#[test]
fn multi_edit_atomic_and_sequential() {
    let files = [("a.js", JS), ("b.txt", "one\ntwo\n")];
    let chained = json!({"atomic": true, "edits": [
        {"file_path": "a.js", "old_string": "return 1;", "new_string": "return 2;"},
        {"file_path": "b.txt", "old_string": "two", "new_string": "2"},
        {"file_path": "b.txt", "old_string": "2", "new_string": "zwei"},
    ]});
    check(&files, None, multi_edit::call, chained);
    // Each operation of a non-atomic batch is its own change; in preview, a later one builds
    // on what the earlier ones planned, as it does on what they wrote.
    let separate = json!({"edits": [
        {"file_path": "a.js", "old_string": "return 1;", "new_string": "return 2;"},
        {"file_path": "b.txt", "old_string": "two", "new_string": "2"},
        {"file_path": "b.txt", "old_string": "2", "new_string": "zwei"},
    ]});
    check(&files, None, multi_edit::call, separate);
}

#[test]
fn edit_file_and_replace_in_file() {
    let files = [("b.txt", "one\ntwo\none\n")];
    let params = json!({"path": "b.txt", "old_text": "one", "new_text": "1", "replace_all": true});
    check(&files, None, edit_file::call, params);
    let params = json!({"filePath": "b.txt", "replacements": [
        {"type": "lines", "startLine": 2, "endLine": 2, "replaceWith": "deux"},
        {"type": "string", "searchFor": "one", "replaceWith": "un"},
    ]});
    check(&files, None, replace_in_file::call, params);
}

fn editor(ctx: &ToolContext, params: &Value) -> Outcome {
    let options = TextEditorOptions {
        version: Some("20250124".into()),
        max_characters: None,
    };
    text_editor::call(ctx, &options, params)
}

#[test]
fn text_editor_writes() {
    let files = [("b.txt", "one\ntwo\n")];
    let replace =
        json!({"command": "str_replace", "path": "b.txt", "old_str": "two", "new_str": "2"});
    check(&files, None, editor, replace.clone());
    let insert = json!({"command": "insert", "path": "b.txt", "insert_line": 1, "new_str": "one and a half"});
    check(&files, None, editor, insert);
    let create = json!({"command": "create", "path": "c.txt", "file_text": "c\n"});
    check(&files, None, editor, create);
    let undo = json!({"command": "undo_edit", "path": "b.txt"});
    check(&files, Some((editor, replace)), editor, undo);
}

#[test]
fn patches_and_undo() {
    let files = [
        ("a.txt", "alpha\nbeta\n"),
        ("d.txt", "doomed\n"),
        ("m.txt", "move me\n"),
    ];
    let input = "*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** Add File: n.txt\n+new file\n*** Delete File: d.txt\n*** Update File: m.txt\n*** Move to: moved.txt\n@@\n-move me\n+moved\n*** End Patch";
    let patch = json!({ "input": input });
    check(&files, None, apply_patch::call_patch, patch.clone());
    let diff =
        json!({"diff": "<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE", "path": "a.txt"});
    check(&files, None, apply_patch::call_diff, diff);
    let undo = json!({"path": "n.txt"});
    check(
        &files,
        Some((apply_patch::call_patch, patch)),
        undo::call,
        undo,
    );
}

/// A call refused at the apply step (the syntax guard in refuse mode, a NUL byte) is refused the
/// same way in preview, with the same text and kind, and nothing is planned.
#[test]
fn a_refused_write_is_refused_in_preview() {
    let ws = tempfile::tempdir().unwrap();
    std::fs::write(ws.path().join("a.js"), JS).unwrap();
    std::fs::write(ws.path().join("b.js"), JS).unwrap();
    let mut ctx = test_context(ws.path(), HistoryOption::Off);
    ctx.syntax.mode = crate::syntax::SyntaxCheck::Refuse;
    let broken = json!({"atomic": true, "edits": [
        {"file_path": "a.js", "old_string": "return 1;", "new_string": "return 2;"},
        {"file_path": "b.js", "old_string": "return 1;", "new_string": "return (2;"},
    ]});
    let nul =
        json!({"file_path": "a.js", "old_string": "return 1;", "new_string": "return '\u{0}';"});
    for (run, params) in [(multi_edit::call as Run, broken), (edit::call as Run, nul)] {
        let (preview_ctx, collector) = ctx.preview();
        let previewed = run(&preview_ctx, &params);
        assert!(!previewed.ok(), "{}", previewed.text);
        assert!(collector.lock().unwrap().files.is_empty());
        assert_eq!(previewed, run(&ctx, &params));
    }
    assert_eq!(std::fs::read_to_string(ws.path().join("b.js")).unwrap(), JS);
}
