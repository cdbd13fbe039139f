//! Undo of multi-file changes (apply_patch, apply_diff, atomic multi_edit): one undo reverts every
//! file of the change, or is refused naming the file that changed since, with no file touched.
use super::*;
use crate::history::recording::HistoryOption;
use serde_json::json;
use std::path::Path;

fn context(root: &Path, history: &Path) -> ToolContext {
    let history = HistoryOption::Dir(history.to_string_lossy().into_owned());
    crate::tools::test_context(root, history)
}

fn read(root: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(root.join(rel)).ok()
}

fn patch(ctx: &ToolContext, input: &str) {
    let out = crate::tools::apply_patch::run_patch(ctx, &json!({ "input": input }));
    assert!(out.starts_with("Success"), "{out}");
}

const UPDATE_ADD_DELETE: &str = "*** Begin Patch
*** Update File: a.txt
@@
-alpha
+ALPHA
*** Add File: n.txt
+new file
*** Delete File: d.txt
*** End Patch";

/// Update + add + delete in one patch: undoing any of its files reverts all three.
#[test]
fn one_undo_reverts_the_whole_patch() {
    for undone in ["a.txt", "n.txt", "d.txt"] {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path());
        std::fs::write(ws.path().join("a.txt"), "alpha\nbeta\n").unwrap();
        std::fs::write(ws.path().join("d.txt"), "doomed\r\n").unwrap();
        patch(&ctx, UPDATE_ADD_DELETE);
        assert_eq!(read(ws.path(), "d.txt"), None);
        let out = run(&ctx, &json!({ "path": undone }));
        assert!(out.contains("undone successfully"), "{undone}: {out}");
        assert!(out.contains("the others were reverted too"), "{out}");
        assert_eq!(read(ws.path(), "a.txt").unwrap(), "alpha\nbeta\n");
        assert_eq!(read(ws.path(), "n.txt"), None, "the added file is removed");
        assert_eq!(read(ws.path(), "d.txt").unwrap(), "doomed\r\n");
        for rel in ["a.txt", "n.txt", "d.txt"] {
            let out = run(&ctx, &json!({ "path": rel }));
            assert!(out.contains("No edit history"), "{rel}: {out}");
        }
        assert_eq!(
            std::fs::read_dir(hist.path().join("txns")).unwrap().count(),
            0,
            "the change's record is gone"
        );
    }
}

/// A moved file goes back: the destination is removed, the source restored.
#[test]
fn undo_moves_a_moved_file_back() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path());
    std::fs::write(ws.path().join("m.txt"), "one\ntwo\n").unwrap();
    patch(
        &ctx,
        "*** Begin Patch\n*** Update File: m.txt\n*** Move to: sub/k.txt\n@@\n-two\n+TWO\n*** End Patch",
    );
    assert_eq!(read(ws.path(), "sub/k.txt").unwrap(), "one\nTWO\n");
    let out = run(&ctx, &json!({ "path": "sub/k.txt" }));
    assert!(out.contains("undone successfully"), "{out}");
    assert_eq!(read(ws.path(), "m.txt").unwrap(), "one\ntwo\n");
    assert_eq!(read(ws.path(), "sub/k.txt"), None);
}

/// One file of the patch changed since: the undo is refused naming it, and no file changes.
#[test]
fn undo_is_refused_when_one_file_changed_since() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path());
    std::fs::write(ws.path().join("a.txt"), "alpha\nbeta\n").unwrap();
    std::fs::write(ws.path().join("d.txt"), "doomed\n").unwrap();
    patch(&ctx, UPDATE_ADD_DELETE);
    std::fs::write(ws.path().join("n.txt"), "new file\nthe user's line\n").unwrap();
    let out = run(&ctx, &json!({ "path": "a.txt" }));
    assert!(
        out.starts_with("Error: Cannot undo the last edit to a.txt: that edit was part of a change to several files, and n.txt changed since"),
        "{out}"
    );
    assert!(out.contains("+the user's line"), "{out}");
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "ALPHA\nbeta\n");
    assert_eq!(read(ws.path(), "d.txt"), None);
    // A file deleted by the patch and created again since is refused too.
    std::fs::write(ws.path().join("n.txt"), "new file\n").unwrap();
    std::fs::write(ws.path().join("d.txt"), "back\n").unwrap();
    let out = run(&ctx, &json!({ "path": "n.txt" }));
    assert!(out.contains("d.txt changed since"), "{out}");
    assert_eq!(read(ws.path(), "n.txt").unwrap(), "new file\n");
    std::fs::remove_file(ws.path().join("d.txt")).unwrap();
    assert!(run(&ctx, &json!({ "path": "d.txt" })).contains("undone successfully"));
    assert_eq!(read(ws.path(), "d.txt").unwrap(), "doomed\n");
    assert_eq!(read(ws.path(), "n.txt"), None);
}

/// An atomic multi_edit across two files is one change too.
#[test]
fn an_atomic_multi_edit_is_undone_as_one_change() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path());
    std::fs::write(ws.path().join("x.txt"), "x1\n").unwrap();
    std::fs::write(ws.path().join("y.txt"), "y1\n").unwrap();
    let edits = json!({ "atomic": true, "edits": [
        { "file_path": "x.txt", "old_string": "x1", "new_string": "x2" },
        { "file_path": "y.txt", "old_string": "y1", "new_string": "y2" },
    ]});
    let out = crate::tools::multi_edit::run(&ctx, &edits);
    assert!(out.starts_with("Multi-edit: 2/2"), "{out}");
    assert!(run(&ctx, &json!({ "path": "y.txt" })).contains("x.txt"));
    assert_eq!(read(ws.path(), "x.txt").unwrap(), "x1\n");
    assert_eq!(read(ws.path(), "y.txt").unwrap(), "y1\n");
}

/// A crash in the middle of a multi-file commit (levels and record written, one file written,
/// the other not): every file is whole, and one undo brings the change back consistently.
#[test]
fn an_interrupted_commit_is_undone_consistently() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (ctx, _p, _q, _id) = recorded_change(ws.path(), hist.path());
    std::fs::write(ws.path().join("p.txt"), "p2\n").unwrap(); // landed; q's write never did
    let out = run(&ctx, &json!({ "path": "q.txt" }));
    assert!(out.contains("undone successfully"), "{out}");
    assert_eq!(read(ws.path(), "p.txt").unwrap(), "p1\n");
    assert_eq!(read(ws.path(), "q.txt").unwrap(), "q1\n");
    assert!(run(&ctx, &json!({ "path": "p.txt" })).contains("No edit history"));
}

/// Two files of a change, `p.txt` and `q.txt` holding `p1` / `q1`, with their level recorded
/// ahead (no file written yet); returns the context, the resolved paths and the change's id.
fn recorded_change(ws: &Path, hist: &Path) -> (ToolContext, ResolvedPath, ResolvedPath, String) {
    let ctx = context(ws, hist);
    std::fs::write(ws.join("p.txt"), "p1\n").unwrap();
    std::fs::write(ws.join("q.txt"), "q1\n").unwrap();
    let p = ctx.resolve_writable("p.txt", None).unwrap();
    let q = ctx.resolve_writable("q.txt", None).unwrap();
    let file =
        |path: &'static [u8], written: &'static [u8], real| crate::history::recording::TxnFile {
            path: real,
            previous: Some(path),
            written: Some(written),
        };
    let files = [
        file(b"p1\n", b"p2\n", &p.real),
        file(b"q1\n", b"q2\n", &q.real),
    ];
    let id = crate::history::new_txn_id();
    ctx.history.record_txn(&id, &files, "apply_patch").unwrap();
    (ctx, p, q, id)
}

/// A crash between the change's record and one file's level (nothing written): the file without
/// its level still holds what the record names, so undo passes over it.
#[test]
fn a_member_whose_level_was_never_pushed_is_passed_over() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (ctx, _p, q, _id) = recorded_change(ws.path(), hist.path());
    let store = ctx.history.store().unwrap();
    let level = store.newest(&q.real).unwrap().unwrap();
    assert!(store.drop_newest(&q.real, &level.entry).unwrap());
    let out = run(&ctx, &json!({ "path": "p.txt" }));
    assert!(out.contains("undone successfully"), "{out}");
    assert_eq!(read(ws.path(), "p.txt").unwrap(), "p1\n");
    assert_eq!(read(ws.path(), "q.txt").unwrap(), "q1\n");
}

/// A crash after an undo marked the change undone, with one file's level removed: the next undo
/// only removes the level left, touching no file.
#[test]
fn an_undo_interrupted_after_its_commit_point_only_removes_what_is_left() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (ctx, p, _q, id) = recorded_change(ws.path(), hist.path());
    let store = ctx.history.store().unwrap();
    store.mark_txn_undone(&id).unwrap();
    let level = store.newest(&p.real).unwrap().unwrap();
    assert!(store.drop_newest(&p.real, &level.entry).unwrap());
    std::fs::write(ws.path().join("p.txt"), "p1 edited later\n").unwrap();
    let out = run(&ctx, &json!({ "path": "q.txt" }));
    assert!(out.contains("undone successfully"), "{out}");
    assert_eq!(read(ws.path(), "p.txt").unwrap(), "p1 edited later\n");
    assert_eq!(read(ws.path(), "q.txt").unwrap(), "q1\n");
    assert!(run(&ctx, &json!({ "path": "q.txt" })).contains("No edit history"));
    assert_eq!(
        std::fs::read_dir(hist.path().join("txns")).unwrap().count(),
        0
    );
}

/// A later change that moves a file back, cut short while recording its levels (the moved files
/// got theirs, `p.txt` not; nothing written): undoing the earlier change from `p.txt` settles the
/// cut-short one and reverts the earlier change, never refusing the moved file as changed.
#[test]
fn a_change_cut_short_while_recording_does_not_block_the_earlier_undo() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path());
    std::fs::write(ws.path().join("p.txt"), "p0\n").unwrap();
    std::fs::write(ws.path().join("a.txt"), "m0\n").unwrap();
    patch(
        &ctx,
        "*** Begin Patch\n*** Update File: p.txt\n@@\n-p0\n+p1\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-m0\n+m1\n*** End Patch",
    );
    let [a, b, p] = ["a.txt", "b.txt", "p.txt"].map(|f| ctx.resolve_writable(f, None).unwrap());
    let file = |path: &'static str, previous: Option<&'static [u8]>, written| {
        let real = match path {
            "a.txt" => &a.real,
            "b.txt" => &b.real,
            _ => &p.real,
        };
        crate::history::recording::TxnFile {
            path: real,
            previous,
            written,
        }
    };
    let back = [
        file("a.txt", None, Some(b"m2\n".as_slice())),
        file("b.txt", Some(b"m1\n".as_slice()), None),
        file("p.txt", Some(b"p1\n".as_slice()), Some(b"p2\n".as_slice())),
    ];
    let id = crate::history::new_txn_id();
    ctx.history.record_txn(&id, &back, "apply_patch").unwrap();
    let store = ctx.history.store().unwrap();
    let level = store.newest(&p.real).unwrap().unwrap();
    assert!(store.drop_newest(&p.real, &level.entry).unwrap());

    let out = run(&ctx, &json!({ "path": "p.txt" }));
    assert!(out.contains("undone successfully"), "{out}");
    assert_eq!(read(ws.path(), "p.txt").unwrap(), "p0\n");
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "m0\n");
    assert_eq!(read(ws.path(), "b.txt"), None);
    for rel in ["p.txt", "a.txt", "b.txt"] {
        let out = run(&ctx, &json!({ "path": rel }));
        assert!(out.contains("No edit history"), "{rel}: {out}");
    }
    assert_eq!(
        std::fs::read_dir(hist.path().join("txns")).unwrap().count(),
        0
    );
}
