//! Rewinds to a session's checkpoints: what comes back, what is refused, what is left alone.
use super::rewind::{self, RewindOptions};
use super::ToolContext;
use crate::history::recording::HistoryOption;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

fn session_context(root: &Path, history: HistoryOption, session: &str) -> ToolContext {
    let mut ctx = crate::tools::test_context(root, history);
    ctx.history = ctx.history.clone().with_session(Some(session));
    ctx
}

fn context(root: &Path, hist: &Path, session: &str) -> ToolContext {
    let history = HistoryOption::Dir(hist.to_string_lossy().into_owned());
    session_context(root, history, session)
}

fn read(root: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(root.join(rel)).ok()
}

/// Writes `text` to `rel` through the tools (create when absent, else a recorded write).
fn write(ctx: &ToolContext, rel: &str, text: &str) {
    let path = ctx.resolve_writable(rel, None).unwrap();
    if path.real.exists() {
        ctx.open_for_tool(&path, "edit")
            .unwrap()
            .commit(text)
            .unwrap();
    } else {
        let out = crate::tools::create::run(ctx, &json!({ "file_path": rel, "content": text }));
        assert!(out.starts_with("Successfully created"), "{out}");
    }
}

fn patch(ctx: &ToolContext, input: &str) {
    let out = crate::tools::apply_patch::run_patch(ctx, &json!({ "input": input }));
    assert!(out.starts_with("Success"), "{out}");
}

fn snapshot(root: &Path, rels: &[&str]) -> BTreeMap<String, Option<String>> {
    rels.iter()
        .map(|r| (r.to_string(), read(root, r)))
        .collect()
}

const REFUSE: RewindOptions = RewindOptions {
    dry_run: false,
    skip_conflicts: false,
};

const FILES: [&str; 10] = [
    "f0.txt",
    "f1.txt",
    "f2.txt",
    "f3.txt",
    "f4.txt",
    "f5.txt",
    "f6.txt",
    "f7.txt",
    "n1.txt",
    "moved/f7.txt",
];

/// Eight files exist; 5 edits before the checkpoint, then 50 edits, a creation, a deletion and a
/// move after it.
fn fifty_edits(ctx: &ToolContext, root: &Path) -> (String, BTreeMap<String, Option<String>>) {
    for i in 0..8 {
        std::fs::write(root.join(format!("f{i}.txt")), format!("file {i}\nv0\n")).unwrap();
    }
    for k in 0..5 {
        write(
            ctx,
            &format!("f{k}.txt"),
            &format!("file {k}\nbefore {k}\n"),
        );
    }
    let at = snapshot(root, &FILES);
    let checkpoint = rewind::create(ctx, Some("start")).unwrap();
    for k in 0..50 {
        let i = k % 8;
        write(ctx, &format!("f{i}.txt"), &format!("file {i}\nedit {k}\n"));
    }
    write(ctx, "n1.txt", "new\n");
    patch(
        ctx,
        "*** Begin Patch\n*** Delete File: f6.txt\n*** End Patch",
    );
    patch(
        ctx,
        "*** Begin Patch\n*** Update File: f7.txt\n*** Move to: moved/f7.txt\n@@\n-edit 47\n+moved\n*** End Patch",
    );
    (checkpoint.id, at)
}

#[test]
fn a_rewind_across_fifty_edits_restores_every_file_exactly() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    let (id, at) = fifty_edits(&ctx, ws.path());
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert!(done.ok && done.can_rewind, "{}", done.text);
    assert_eq!(snapshot(ws.path(), &FILES), at);
    assert!(done.checkpoint.is_some());
    let action = |p: &str| {
        done.files
            .iter()
            .find(|f| f.path == p)
            .map(|f| f.action.as_str())
    };
    let moved = done.files.iter().find(|f| f.path == "moved/f7.txt");
    assert_eq!(action("moved/f7.txt"), Some("move"), "{:?}", done.files);
    assert_eq!(moved.unwrap().moved_to.as_deref(), Some("f7.txt"));
    assert_eq!(action("f7.txt"), None, "a move is one entry");
    assert_eq!(action("n1.txt"), Some("delete"));
    assert_eq!(action("f6.txt"), Some("create"));
    assert_eq!(read(ws.path(), "f0.txt").unwrap(), "file 0\nbefore 0\n");
    // Nothing left to rewind.
    let again = rewind::rewind(&ctx, &id, REFUSE);
    assert!(again.ok && again.files.is_empty(), "{}", again.text);
}

#[test]
fn a_rewind_is_itself_rewound_and_undone_whole() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    let (id, at) = fifty_edits(&ctx, ws.path());
    let before = snapshot(ws.path(), &FILES);
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert_eq!(snapshot(ws.path(), &FILES), at);
    let back = rewind::rewind(&ctx, &done.checkpoint.unwrap().id, REFUSE);
    assert!(back.ok, "{}", back.text);
    assert_eq!(snapshot(ws.path(), &FILES), before);
    rewind::rewind(&ctx, &id, REFUSE);
    assert_eq!(snapshot(ws.path(), &FILES), at);
    let out = crate::tools::undo::run(&ctx, &json!({ "path": "n1.txt" }));
    assert!(out.contains("undone successfully"), "{out}");
    assert_eq!(snapshot(ws.path(), &FILES), before);
}

#[test]
fn a_conflict_refuses_the_whole_rewind_and_skip_rewinds_the_rest() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "a0\n").unwrap();
    std::fs::write(ws.path().join("b.txt"), "b0\n").unwrap();
    let id = rewind::create(&ctx, None).unwrap().id;
    write(&ctx, "a.txt", "a1\n");
    write(&ctx, "b.txt", "b1\n");
    std::fs::write(ws.path().join("b.txt"), "b1\nthe user's line\n").unwrap();
    let refused = rewind::rewind(&ctx, &id, REFUSE);
    assert!(!refused.ok && !refused.can_rewind, "{}", refused.text);
    assert!(
        refused.text.contains("b.txt (it changed since"),
        "{}",
        refused.text
    );
    assert_eq!(refused.conflicts.len(), 1);
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "a1\n");
    let skip = RewindOptions {
        skip_conflicts: true,
        ..REFUSE
    };
    let done = rewind::rewind(&ctx, &id, skip);
    assert!(done.ok, "{}", done.text);
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "a0\n");
    assert_eq!(read(ws.path(), "b.txt").unwrap(), "b1\nthe user's line\n");
    assert_eq!(done.conflicts[0].path, "b.txt");
    assert!(done.text.contains("Skipped 1 file"), "{}", done.text);
}

#[test]
fn sixty_edits_of_one_file_rewind_past_the_level_limit() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "v0\n").unwrap();
    let id = rewind::create(&ctx, None).unwrap().id;
    for k in 1..=60 {
        write(&ctx, "a.txt", &format!("v{k}\n"));
    }
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert!(done.ok, "{}", done.text);
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "v0\n");
}

#[test]
fn two_sessions_never_rewind_each_others_changes() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let one = context(ws.path(), hist.path(), "one");
    let two = context(ws.path(), hist.path(), "two");
    for f in ["a.txt", "b.txt", "c.txt"] {
        std::fs::write(ws.path().join(f), "0\n").unwrap();
    }
    let id = rewind::create(&one, None).unwrap().id;
    write(&one, "a.txt", "one\n");
    write(&two, "b.txt", "two\n");
    write(&one, "c.txt", "one\n");
    write(&two, "c.txt", "two\n");
    let refused = rewind::rewind(&one, &id, REFUSE);
    assert!(!refused.ok, "{}", refused.text);
    assert!(
        refused.text.contains("another session wrote it since"),
        "{}",
        refused.text
    );
    let skip = RewindOptions {
        skip_conflicts: true,
        ..REFUSE
    };
    assert!(rewind::rewind(&one, &id, skip).ok);
    let now: Vec<_> = ["a.txt", "b.txt", "c.txt"]
        .map(|f| read(ws.path(), f).unwrap())
        .into();
    assert_eq!(now, ["0\n", "two\n", "two\n"]);
    let other = rewind::rewind(&two, &id, REFUSE);
    assert!(
        other.text.contains("belongs to another session"),
        "{}",
        other.text
    );
    assert!(rewind::list(&two).unwrap().is_empty());
    assert_eq!(
        rewind::list(&one).unwrap().len(),
        2,
        "the checkpoint and the rewind's"
    );
}

#[test]
fn a_dry_run_writes_nothing_and_reports_the_same() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    let (id, _) = fifty_edits(&ctx, ws.path());
    let before = snapshot(ws.path(), &FILES);
    let dry = RewindOptions {
        dry_run: true,
        ..REFUSE
    };
    let planned = rewind::rewind(&ctx, &id, dry);
    assert!(
        planned.ok && planned.checkpoint.is_none(),
        "{}",
        planned.text
    );
    assert_eq!(snapshot(ws.path(), &FILES), before);
    assert_eq!(rewind::list(&ctx).unwrap().len(), 1, "no checkpoint taken");
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert_eq!(planned.files, done.files);
    assert_eq!(planned.insertions(), done.insertions());
    assert_eq!(
        planned.files.len(),
        9,
        "a move is one entry: {:?}",
        planned.files
    );
    assert!(
        planned.text.contains("moved/f7.txt moved back to f7.txt"),
        "{}",
        planned.text
    );
}

#[test]
fn a_file_moved_on_twice_is_moved_back_as_one_move() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "one\n").unwrap();
    std::fs::write(ws.path().join("gone.txt"), "gone\n").unwrap();
    let id = rewind::create(&ctx, None).unwrap().id;
    patch(&ctx, "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-one\n+two\n*** End Patch");
    patch(&ctx, "*** Begin Patch\n*** Update File: b.txt\n*** Move to: c.txt\n@@\n-two\n+three\n*** End Patch");
    // A deletion and a creation in separate changes are no move.
    patch(
        &ctx,
        "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch",
    );
    write(&ctx, "new.txt", "new\n");
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert!(done.ok, "{}", done.text);
    let shown: Vec<_> = done
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.action.as_str(), f.moved_to.as_deref()))
        .collect();
    assert_eq!(
        shown,
        [
            ("c.txt", "move", Some("a.txt")),
            ("gone.txt", "create", None),
            ("new.txt", "delete", None)
        ]
    );
    assert!(
        done.files[0].diff.contains("-three\n+one"),
        "{}",
        done.files[0].diff
    );
    assert_eq!(read(ws.path(), "a.txt").as_deref(), Some("one\n"));
    assert_eq!(read(ws.path(), "c.txt"), None);
}

#[test]
fn writes_without_history_are_never_rewound() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    let off = session_context(ws.path(), HistoryOption::Off, "s1");
    std::fs::write(ws.path().join("a.txt"), "a0\n").unwrap();
    std::fs::write(ws.path().join("b.txt"), "b0\n").unwrap();
    let id = rewind::create(&ctx, None).unwrap().id;
    write(&off, "a.txt", "a1\n");
    write(&ctx, "b.txt", "b1\n");
    write(&off, "b.txt", "b2\n");
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert!(!done.ok, "{}", done.text);
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "a1\n");
    assert_eq!(read(ws.path(), "b.txt").unwrap(), "b2\n");
    assert!(rewind::create(&off, None).is_err());
}

/// A rewind cut short after some files landed (the others' levels recorded, their renames not
/// done): running it again completes it.
#[test]
fn a_rewind_cut_short_is_completed_by_running_it_again() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "a0\n").unwrap();
    std::fs::write(ws.path().join("b.txt"), "b0\n").unwrap();
    let id = rewind::create(&ctx, None).unwrap().id;
    write(&ctx, "a.txt", "a1\n");
    write(&ctx, "b.txt", "b1\n");
    assert!(rewind::rewind(&ctx, &id, REFUSE).ok);
    std::fs::write(ws.path().join("b.txt"), "b1\n").unwrap(); // its rename never happened
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert!(done.ok, "{}", done.text);
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "a0\n");
    assert_eq!(read(ws.path(), "b.txt").unwrap(), "b0\n");
}

#[test]
fn an_evicted_checkpoint_is_listed_as_such_and_refused() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "a0\n").unwrap();
    let id = rewind::create(&ctx, None).unwrap().id;
    write(&ctx, "a.txt", "a1\n");
    let small = ctx.history.store().unwrap().with_max_bytes(24 << 10);
    for i in 0..6u8 {
        let other = ws.path().join(format!("big{i}"));
        let previous = vec![b'a' + i; 8000];
        let level = crate::history::Write {
            previous: &previous,
            written: None,
            tool: "test",
            txn: None,
        };
        small.record_write(&other, &level).unwrap();
    }
    let listed = rewind::list(&ctx).unwrap();
    let real = ctx.resolve_writable("a.txt", None).unwrap().real;
    // Levels written in the same millisecond go in no set order, so `a.txt` need not come first.
    let lost = &listed[0].lost;
    assert!(
        lost.contains(&real.to_string_lossy().into_owned()),
        "{listed:?}"
    );
    let refused = rewind::rewind(&ctx, &id, REFUSE);
    assert!(!refused.ok, "{}", refused.text);
    assert!(refused.text.contains("was evicted"), "{}", refused.text);
    let named = std::path::Path::new(&lost[0]).file_name().unwrap();
    assert!(
        refused.text.contains(&*named.to_string_lossy()),
        "{}",
        refused.text
    );
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "a1\n");
}

/// A store of format 1.0 (levels without a session) is read as it is; its levels are never
/// rewound, and the store keeps its version.
#[test]
fn levels_without_a_session_are_read_and_never_rewound() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "new\n").unwrap();
    let id = rewind::create(&ctx, None).unwrap().id;
    std::fs::write(hist.path().join("format.json"), r#"{"version":"1.0"}"#).unwrap();
    let old = crate::history::HistoryStore::open(hist.path()).unwrap();
    let real = ctx.resolve_writable("a.txt", None).unwrap().real;
    old.record(&real, b"old\n", "edit").unwrap();
    let levels = ctx.history.store().unwrap().levels(&real).unwrap();
    assert_eq!(levels[0].session, None);
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert!(done.ok && done.files.is_empty(), "{}", done.text);
    assert_eq!(read(ws.path(), "a.txt").unwrap(), "new\n");
    let format = std::fs::read_to_string(hist.path().join("format.json")).unwrap();
    assert_eq!(format, r#"{"version":"1.0"}"#);
}

fn undo(ctx: &ToolContext, rel: &str) {
    let path = ctx.resolve_writable(rel, None).unwrap();
    crate::tools::undo::undo_last(ctx, &path).unwrap();
}

#[test]
fn edits_undone_since_the_checkpoint_are_rewound_too() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "v0\n").unwrap();
    write(&ctx, "a.txt", "v1\n");
    write(&ctx, "n.txt", "new\n");
    let id = rewind::create(&ctx, None).unwrap().id;
    undo(&ctx, "a.txt");
    undo(&ctx, "n.txt");
    assert_eq!(read(ws.path(), "a.txt").as_deref(), Some("v0\n"));
    assert_eq!(read(ws.path(), "n.txt"), None);
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert!(done.ok, "{}", done.text);
    let actions: Vec<_> = done
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.action.as_str()))
        .collect();
    assert_eq!(actions, [("a.txt", "update"), ("n.txt", "create")]);
    assert_eq!(read(ws.path(), "a.txt").as_deref(), Some("v1\n"));
    assert_eq!(read(ws.path(), "n.txt").as_deref(), Some("new\n"));
    // The rewind is a level of its own: nothing left to rewind, and the rewind is itself rewound.
    assert!(rewind::rewind(&ctx, &id, REFUSE).files.is_empty());
    let back = rewind::rewind(&ctx, &done.checkpoint.unwrap().id, REFUSE);
    assert!(back.ok, "{}", back.text);
    assert_eq!(read(ws.path(), "a.txt").as_deref(), Some("v0\n"));
}

#[test]
fn a_file_changed_after_an_undo_since_the_checkpoint_is_a_conflict() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "v0\n").unwrap();
    write(&ctx, "a.txt", "v1\n");
    write(&ctx, "b.txt", "b1\n");
    let id = rewind::create(&ctx, None).unwrap().id;
    undo(&ctx, "a.txt");
    std::fs::write(ws.path().join("a.txt"), "theirs\n").unwrap();
    let refused = rewind::rewind(&ctx, &id, REFUSE);
    assert!(!refused.ok, "{}", refused.text);
    assert_eq!(refused.conflicts.len(), 1, "{:?}", refused.conflicts);
    assert_eq!(refused.conflicts[0].path, "a.txt");
    assert_eq!(read(ws.path(), "a.txt").as_deref(), Some("theirs\n"));
    // b.txt, written before the checkpoint and not undone, is no change since.
    assert_eq!(read(ws.path(), "b.txt").as_deref(), Some("b1\n"));
}

/// Undos that go further back than the session's newest level at the checkpoint (two levels, or
/// every level of the file) still rewind: the file holds what those undos put back.
#[test]
fn undos_further_back_than_the_checkpoints_level_are_rewound() {
    for (levels, undos) in [(2, 2), (3, 2), (3, 3)] {
        let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ctx = context(ws.path(), hist.path(), "s1");
        std::fs::write(ws.path().join("a.txt"), "v0\n").unwrap();
        for v in 1..=levels {
            write(&ctx, "a.txt", &format!("v{v}\n"));
        }
        let id = rewind::create(&ctx, None).unwrap().id;
        for _ in 0..undos {
            undo(&ctx, "a.txt");
        }
        let undone_to = format!("v{}\n", levels - undos);
        assert_eq!(read(ws.path(), "a.txt"), Some(undone_to.clone()));
        let done = rewind::rewind(&ctx, &id, REFUSE);
        assert!(done.ok, "{levels} levels, {undos} undos: {}", done.text);
        assert_eq!(read(ws.path(), "a.txt"), Some(format!("v{levels}\n")));
        // Back to what the undos left, then that content changed by someone else: refused.
        let back = rewind::rewind(&ctx, &done.checkpoint.unwrap().id, REFUSE);
        assert!(back.ok, "{}", back.text);
        assert_eq!(read(ws.path(), "a.txt"), Some(undone_to));
        std::fs::write(ws.path().join("a.txt"), "theirs\n").unwrap();
        let refused = rewind::rewind(&ctx, &id, REFUSE);
        assert!(
            !refused.ok && refused.conflicts.len() == 1,
            "{}",
            refused.text
        );
        assert_eq!(read(ws.path(), "a.txt").as_deref(), Some("theirs\n"));
    }
}

/// Undos further back than the checkpoint's level, then a new write of the session: the rewind
/// puts back the content at the checkpoint, not the content the undos reached.
#[test]
fn a_write_after_undos_further_back_rewinds_to_the_checkpoint() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    std::fs::write(ws.path().join("a.txt"), "v0\n").unwrap();
    write(&ctx, "a.txt", "v1\n");
    write(&ctx, "a.txt", "v2\n");
    let id = rewind::create(&ctx, None).unwrap().id;
    undo(&ctx, "a.txt");
    undo(&ctx, "a.txt");
    write(&ctx, "a.txt", "v3\n");
    let done = rewind::rewind(&ctx, &id, REFUSE);
    assert!(done.ok, "{}", done.text);
    assert_eq!(read(ws.path(), "a.txt").as_deref(), Some("v2\n"));
}

/// Session A writes, takes a checkpoint, undoes; session B (same store) then writes the file. A's
/// rewind does not overwrite B's work and does not leave the file out silently: it is a conflict
/// (the whole rewind refused; with `skip`, listed as skipped).
#[test]
fn another_sessions_write_after_an_undo_is_a_conflict() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = context(ws.path(), hist.path(), "a");
    let b = context(ws.path(), hist.path(), "b");
    std::fs::write(ws.path().join("f.txt"), "v0\n").unwrap();
    write(&a, "f.txt", "a1\n");
    write(&a, "g.txt", "g1\n");
    let id = rewind::create(&a, None).unwrap().id;
    undo(&a, "f.txt");
    undo(&a, "g.txt");
    write(&b, "f.txt", "b1\n");
    let refused = rewind::rewind(&a, &id, REFUSE);
    assert!(!refused.ok, "{}", refused.text);
    let conflicts: Vec<_> = refused.conflicts.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(conflicts, ["f.txt"], "{}", refused.text);
    assert!(
        refused.conflicts[0].reason.contains("another session"),
        "{:?}",
        refused.conflicts
    );
    assert_eq!(read(ws.path(), "f.txt").as_deref(), Some("b1\n"));
    assert_eq!(read(ws.path(), "g.txt"), None);
    let skip = RewindOptions {
        dry_run: false,
        skip_conflicts: true,
    };
    let done = rewind::rewind(&a, &id, skip);
    assert!(done.ok, "{}", done.text);
    assert_eq!(done.conflicts.len(), 1, "{}", done.text);
    assert!(done.text.contains("Skipped 1 file"), "{}", done.text);
    assert_eq!(read(ws.path(), "f.txt").as_deref(), Some("b1\n"));
    assert_eq!(read(ws.path(), "g.txt").as_deref(), Some("g1\n"));
}

/// A file the session wrote before the checkpoint, whose level then went by eviction (another
/// session's writes past the level limit), is no change of the session since: not rewound, not
/// a conflict. Nor is one the session wrote and undid after the checkpoint before another
/// session wrote it: the undo already gave it back its content from then.
#[test]
fn another_sessions_writes_are_no_change_of_the_session_since() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = context(ws.path(), hist.path(), "a");
    let b = context(ws.path(), hist.path(), "b");
    std::fs::write(ws.path().join("f.txt"), "v0\n").unwrap();
    std::fs::write(ws.path().join("g.txt"), "v0\n").unwrap();
    write(&a, "f.txt", "a1\n");
    let id = rewind::create(&a, None).unwrap().id;
    for i in 0..55 {
        write(&b, "f.txt", &format!("b{i}\n"));
    }
    let path = a.resolve_writable("f.txt", None).unwrap();
    let store = a.history.store().unwrap();
    let sessions: Vec<_> = store.levels(&path.real).unwrap();
    assert!(sessions.iter().all(|e| e.session.as_deref() == Some("b")));
    write(&a, "g.txt", "a1\n");
    undo(&a, "g.txt");
    write(&b, "g.txt", "b1\n");
    let done = rewind::rewind(&a, &id, REFUSE);
    assert!(done.ok, "{}", done.text);
    assert!(
        done.files.is_empty() && done.conflicts.is_empty(),
        "{}",
        done.text
    );
    assert_eq!(read(ws.path(), "f.txt").as_deref(), Some("b54\n"));
    assert_eq!(read(ws.path(), "g.txt").as_deref(), Some("b1\n"));
}

/// A temp file left by a crash while `checkpoints.json` was written is collected when the store
/// is opened; a fresh one (a write under way) is not.
#[test]
fn a_stale_temp_of_the_checkpoints_file_is_collected() {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    rewind::create(&ctx, None).unwrap();
    let store_dir = std::fs::read_dir(hist.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.join("checkpoints.json").exists())
        .unwrap_or_else(|| hist.path().to_path_buf());
    assert!(store_dir.join("checkpoints.json").exists());
    let (stale, fresh) = (store_dir.join(".tmpDEAD"), store_dir.join(".tmpLIVE"));
    std::fs::write(&stale, b"{\"checkpoints\":[").unwrap();
    std::fs::write(&fresh, b"x").unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let file = std::fs::File::options().write(true).open(&stale).unwrap();
    file.set_modified(old).unwrap();
    crate::history::HistoryStore::open(&store_dir).unwrap();
    assert!(!stale.exists(), "the stale temp is still there");
    assert!(fresh.exists(), "a fresh temp was removed");
}

/// A rewind previewed as a tool call plans its files (a move shown as one move) and writes
/// nothing; applying the preview restores exactly that, as one transaction, after taking a
/// checkpoint that rewinds it.
#[test]
fn a_previewed_rewind_applies_exactly_what_it_showed() {
    use super::preview::{apply_preview, preview, Action, Previews};
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    let (id, at) = fifty_edits(&ctx, ws.path());
    let before = snapshot(ws.path(), &FILES);
    let previews = Previews::new(None);
    let params = json!({ "id": id });
    let shown = preview(&ctx, &previews, Some("call-1"), |c| {
        rewind::call(c, &params)
    });
    assert!(shown.outcome.ok(), "{}", shown.outcome.text);
    assert_eq!(
        snapshot(ws.path(), &FILES),
        before,
        "a preview writes nothing"
    );
    let moved: Vec<_> = shown
        .files
        .iter()
        .filter(|f| f.action == Action::Move)
        .collect();
    assert_eq!(moved.len(), 1, "{:?}", shown.files);
    assert_eq!(moved[0].moved_to.as_deref(), Some("f7.txt"));
    assert!(shown
        .files
        .iter()
        .any(|f| f.path == "f0.txt" && f.diff.contains("+before 0")));
    assert_eq!(
        rewind::list(&ctx).unwrap().len(),
        1,
        "no checkpoint taken by a preview"
    );
    let applied = apply_preview(&ctx, &previews, &shown.token.unwrap());
    assert!(applied.ok(), "{}", applied.text);
    assert_eq!(snapshot(ws.path(), &FILES), at);
    assert!(
        applied.text.contains("was taken before this rewind"),
        "{}",
        applied.text
    );
    let taken = rewind::list(&ctx).unwrap();
    assert_eq!(taken.len(), 2, "{taken:?}");
    let back = rewind::rewind(&ctx, &taken[1].id, REFUSE);
    assert!(back.ok, "{}", back.text);
    assert_eq!(snapshot(ws.path(), &FILES), before);
}

/// A previewed rewind is refused, nothing written, when a file changed between the preview and
/// its application.
#[test]
fn a_previewed_rewind_is_refused_when_a_file_changed_in_between() {
    use super::preview::{apply_preview, preview, Previews};
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    let (id, _) = fifty_edits(&ctx, ws.path());
    let previews = Previews::new(None);
    let params = json!({ "id": id });
    let shown = preview(&ctx, &previews, None, |c| rewind::call(c, &params));
    std::fs::write(ws.path().join("f1.txt"), "changed by a person\n").unwrap();
    let before = snapshot(ws.path(), &FILES);
    let out = apply_preview(&ctx, &previews, &shown.token.unwrap());
    assert_eq!(
        out.error,
        Some(crate::tools::outcome::ErrorKind::Stale),
        "{}",
        out.text
    );
    assert!(
        out.text.contains("f1.txt changed since the preview"),
        "{}",
        out.text
    );
    assert_eq!(snapshot(ws.path(), &FILES), before);
    assert_eq!(rewind::list(&ctx).unwrap().len(), 1, "no checkpoint taken");
}

/// The rewind call reads its params as the JS tool does: `dry_run` only when exactly `true` (so a
/// call the host approves from its preview is the call that runs), `id` required.
#[test]
fn the_rewind_call_reads_dry_run_only_when_exactly_true() {
    use super::preview::{preview, Previews};
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ctx = context(ws.path(), hist.path(), "s1");
    let (id, _) = fifty_edits(&ctx, ws.path());
    let previews = Previews::new(None);
    for (dry_run, planned) in [
        (json!(true), false),
        (json!("true"), true),
        (json!(null), true),
    ] {
        let params = json!({ "id": id, "dry_run": dry_run });
        let shown = preview(&ctx, &previews, None, |c| rewind::call(c, &params));
        assert_eq!(
            !shown.files.is_empty(),
            planned,
            "{dry_run}: {}",
            shown.outcome.text
        );
    }
    let missing = rewind::call(&ctx, &json!({ "id": "  " }));
    assert!(
        missing.text.starts_with("Error: id is required"),
        "{}",
        missing.text
    );
    let bad = rewind::call(&ctx, &json!({ "id": id, "on_conflict": 1 }));
    assert!(
        bad.text.contains("invalid on_conflict \"1\""),
        "{}",
        bad.text
    );
}
