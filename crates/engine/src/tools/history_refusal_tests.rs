//! A write lands with its undo level or not at all: every way the store can fail to record
//! (swapped or symlinked folders, a lock held past `lockTimeoutMs`, a misconfigured or exposed
//! `historyDir`) refuses the write and leaves the file as it was.
use super::{ToolContext, ToolOptions};
use crate::history::recording::HistoryOption;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tempfile::TempDir;

const REFUSED: &str = "nothing was written: the undo history at ";

/// A workspace with `a.txt` holding `one`, a folder for stores, and a context whose store is
/// `<stores>/h` (lock wait `timeout`).
fn setup(timeout: Duration) -> (TempDir, TempDir, ToolContext) {
    let (ws, stores) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(ws.path().join("a.txt"), "one\n").unwrap();
    let ctx = context(ws.path(), &stores.path().join("h"), timeout);
    (ws, stores, ctx)
}

fn context(ws: &Path, store: &Path, timeout: Duration) -> ToolContext {
    let root = ws.to_string_lossy().into_owned();
    let options = ToolOptions {
        allowed_folders: vec![root.clone()],
        cwd: Some(root),
        history: HistoryOption::Dir(store.to_string_lossy().into_owned()),
        lock_timeout: Some(timeout),
        ..ToolOptions::default()
    };
    ToolContext::new(&options, None).unwrap()
}

fn edit(ctx: &ToolContext, old: &str, new: &str) -> String {
    super::edit::run(
        ctx,
        &json!({ "file_path": "a.txt", "old_string": old, "new_string": new }),
    )
}

fn content(ws: &TempDir) -> String {
    std::fs::read_to_string(ws.path().join("a.txt")).unwrap()
}

/// The names of the entries of `dir`, recursively (what was written into it).
fn contents_of(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        out.push(e.path());
        if e.file_type().unwrap().is_dir() {
            out.extend(contents_of(&e.path()));
        }
    }
    out
}

fn assert_refused(out: &str, reason: &str) {
    assert!(out.starts_with("Error") && out.contains(REFUSED), "{out}");
    assert!(out.contains(reason), "{out}");
    assert!(out.contains("the host can set history: false"), "{out}");
}

/// The store folder replaced by a symlink to another folder between two edits: the second edit
/// is refused and nothing is written into the symlink's target.
#[test]
fn a_store_replaced_by_a_symlink_between_two_edits_refuses_the_write() {
    let (ws, stores, ctx) = setup(Duration::from_secs(5));
    assert!(edit(&ctx, "one", "two").starts_with("Successfully"));
    let (store, elsewhere) = (stores.path().join("h"), stores.path().join("elsewhere"));
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::rename(&store, stores.path().join("h.old")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &store).unwrap();
    assert_refused(&edit(&ctx, "two", "three"), "was moved or replaced");
    assert_eq!(content(&ws), "two\n");
    assert!(
        contents_of(&elsewhere).is_empty(),
        "{:?}",
        contents_of(&elsewhere)
    );
}

/// The store folder replaced by another real folder between two edits (a user owning the folder
/// above it can do this): nothing is written into the new folder.
#[test]
fn a_store_replaced_by_another_folder_between_two_edits_is_not_written_into() {
    let (ws, stores, ctx) = setup(Duration::from_secs(5));
    assert!(edit(&ctx, "one", "two").starts_with("Successfully"));
    let store = stores.path().join("h");
    std::fs::rename(&store, stores.path().join("h.old")).unwrap();
    std::fs::create_dir(&store).unwrap();
    assert_refused(
        &edit(&ctx, "two", "three"),
        "the store folder was moved or replaced",
    );
    assert_eq!(content(&ws), "two\n");
    assert!(contents_of(&store).is_empty(), "{:?}", contents_of(&store));
}

/// `objects/`, `index/`, `txns/` or `previews/` replaced by a symlink: refused, nothing lands in
/// the target.
#[test]
fn a_store_subfolder_replaced_by_a_symlink_refuses_the_write() {
    for sub in ["objects", "index", "txns", "previews"] {
        let (ws, stores, ctx) = setup(Duration::from_secs(5));
        assert!(edit(&ctx, "one", "two").starts_with("Successfully"));
        let target = stores.path().join("target");
        std::fs::create_dir(&target).unwrap();
        let path = stores.path().join("h").join(sub);
        std::fs::rename(&path, stores.path().join("moved")).unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
        assert_refused(&edit(&ctx, "two", "three"), &format!("{sub}/ was moved"));
        assert_eq!(content(&ws), "two\n", "{sub}");
        assert!(
            contents_of(&target).is_empty(),
            "{sub}: {:?}",
            contents_of(&target)
        );
    }
}

/// The store's lock held by another holder (a stopped process): the edit waits `lockTimeoutMs`
/// (not a fixed time), is refused, and the earlier level can still be undone afterwards.
#[test]
fn a_held_store_lock_refuses_the_write_after_the_tools_lock_timeout() {
    let (ws, stores, ctx) = setup(Duration::from_millis(300));
    assert!(edit(&ctx, "one", "two").starts_with("Successfully"));
    let lock = std::fs::File::open(stores.path().join("h").join(".lock")).unwrap();
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive).unwrap();
    let out = edit(&ctx, "two", "three");
    assert_refused(&out, "its lock is held by another process; waited 300 ms");
    assert_eq!(content(&ws), "two\n");
    drop(lock);
    let undone = super::undo::run(&ctx, &json!({ "path": "a.txt" }));
    assert!(undone.starts_with("Last edit to a.txt undone"), "{undone}");
    assert_eq!(content(&ws), "one\n");
}

/// A `historyDir` that is a symlink, or writable by group or others, is refused before
/// anything is written, naming the option.
#[test]
fn a_misconfigured_history_dir_refuses_the_write_naming_the_option() {
    use std::os::unix::fs::PermissionsExt;
    let (ws, stores) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(ws.path().join("a.txt"), "one\n").unwrap();
    let real = stores.path().join("real");
    std::fs::create_dir(&real).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o700)).unwrap();
    let link = stores.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let open = stores.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    for dir in [&link, &open] {
        let ctx = context(ws.path(), dir, Duration::from_secs(5));
        assert_refused(&edit(&ctx, "one", "two"), "the historyDir option");
        assert_eq!(content(&ws), "one\n", "{}", dir.display());
    }
    assert!(contents_of(&real).is_empty());
}

/// A store below a folder writable by others that is not root-owned and sticky: whoever can
/// write that folder could swap the store, so the write is refused.
#[test]
fn a_store_below_a_folder_others_can_write_refuses_the_write() {
    use std::os::unix::fs::PermissionsExt;
    let (ws, stores) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(ws.path().join("a.txt"), "one\n").unwrap();
    let shared = stores.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let ctx = context(ws.path(), &shared.join("h"), Duration::from_secs(5));
    assert_refused(
        &edit(&ctx, "one", "two"),
        "is another user's or writable by others",
    );
    assert_eq!(content(&ws), "one\n");
}

/// As root: a store (or the folder above it) owned by another user, even in a sticky folder,
/// refuses the write; a default fallback folder another user created is never used.
#[test]
fn stores_and_folders_of_another_user_refuse_the_write() {
    use std::os::unix::fs::PermissionsExt;
    if crate::sys::effective_uid() != 0 {
        return; // giving a folder to another user needs root
    }
    let (ws, stores) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(ws.path().join("a.txt"), "one\n").unwrap();
    let (theirs, sticky) = (stores.path().join("theirs"), stores.path().join("sticky"));
    for (dir, mode) in [(&theirs, 0o700), (&sticky, 0o1777)] {
        std::fs::create_dir(dir).unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode)).unwrap();
        std::os::unix::fs::chown(dir, Some(65534), Some(65534)).unwrap();
    }
    for store in [theirs.clone(), sticky.join("h")] {
        let ctx = context(ws.path(), &store, Duration::from_secs(5));
        assert_refused(&edit(&ctx, "one", "two"), "another user's");
        assert_eq!(content(&ws), "one\n", "{}", store.display());
    }
    assert!(contents_of(&theirs).is_empty());
}

/// A store that could not be opened is tried again at the next write: once the folder is
/// fixed, the same tool instance writes (and records) again.
#[test]
fn a_store_that_failed_to_open_is_tried_again_once_fixed() {
    use std::os::unix::fs::PermissionsExt;
    let (ws, stores) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(ws.path().join("a.txt"), "one\n").unwrap();
    let store = stores.path().join("h");
    std::fs::create_dir(&store).unwrap();
    std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o777)).unwrap();
    let ctx = context(ws.path(), &store, Duration::from_secs(5));
    assert_refused(&edit(&ctx, "one", "two"), "the historyDir option");
    std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o700)).unwrap();
    assert!(edit(&ctx, "one", "two").starts_with("Successfully"));
    let undone = super::undo::run(&ctx, &json!({ "path": "a.txt" }));
    assert!(undone.starts_with("Last edit to a.txt undone"), "{undone}");
}

/// A replace records its level while its bytes go to disk, ahead of the rename: a write that
/// fails before the level (writing the bytes) or after it (their fsync, the rename) leaves the
/// file, its levels and its folder as they were.
#[test]
fn a_replace_that_fails_around_its_level_leaves_the_file_and_its_levels() {
    let (ws, _stores, ctx) = setup(Duration::from_secs(5));
    assert!(edit(&ctx, "one", "two").starts_with("Successfully"));
    let real = ctx.resolve_writable("a.txt", None).unwrap().real;
    for stage in ["write", "sync", "rename"] {
        crate::fs::atomic::FAIL_AT.with(|f| f.set(Some(stage)));
        let out = edit(&ctx, "two", "three");
        crate::fs::atomic::FAIL_AT.with(|f| f.set(None));
        assert!(out.starts_with("Error"), "{stage}: {out}");
        assert_eq!(content(&ws), "two\n", "{stage}");
        let levels = ctx.history.store().unwrap().levels(&real).unwrap();
        assert_eq!(levels.len(), 1, "{stage}");
    }
    assert_eq!(contents_of(ws.path()), vec![ws.path().join("a.txt")]);
    let undone = super::undo::run(&ctx, &json!({ "path": "a.txt" }));
    assert!(undone.starts_with("Last edit to a.txt undone"), "{undone}");
    assert_eq!(content(&ws), "one\n");
}

/// A create refused because its level cannot be recorded leaves nothing in the workspace: no
/// file, and no folder made for it (its level is recorded before the folders are made).
#[test]
fn a_refused_create_leaves_no_file_and_no_folder() {
    let (ws, stores, ctx) = setup(Duration::from_secs(5));
    assert!(edit(&ctx, "one", "two").starts_with("Successfully"));
    let store = stores.path().join("h");
    std::fs::rename(&store, stores.path().join("h.old")).unwrap();
    std::os::unix::fs::symlink(stores.path().join("h.old"), &store).unwrap();
    for path in ["b.txt", "new/deeper/c.txt"] {
        let out = super::create::run(&ctx, &json!({ "file_path": path, "content": "x\n" }));
        assert_refused(&out, "was moved or replaced");
    }
    let left: Vec<_> = contents_of(ws.path());
    assert_eq!(left, [ws.path().join("a.txt")], "{left:?}");
}
