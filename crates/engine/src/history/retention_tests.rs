use super::*;
use crate::history::{collector, store_meta, HistoryError, HistoryStore, Write};
use tempfile::TempDir;

const DAY_MS: u64 = 24 * 3_600_000;

/// A root and `n` workspaces, each with a default-named store in the root recording its use.
fn stores(n: usize) -> (TempDir, Vec<TempDir>, Vec<PathBuf>) {
    let root = tempfile::tempdir().unwrap();
    let mut workspaces = Vec::new();
    let mut dirs = Vec::new();
    for i in 0..n {
        let ws = tempfile::tempdir().unwrap();
        let dir = root.path().join(format!("{i:032x}"));
        let store = HistoryStore::open(&dir).unwrap();
        store_meta::touch(&store, ws.path(), now_ms());
        workspaces.push(ws);
        dirs.push(dir);
    }
    (root, workspaces, dirs)
}

/// One recorded edit of `file` in `store`: both contents stored, as a tool leaves them; a store
/// a collection removed meanwhile is opened afresh, as a tool instance does. Returns the store
/// the edit was recorded in.
fn edit(store: &HistoryStore, file: &Path, previous: &[u8], written: &[u8]) -> HistoryStore {
    let write = Write {
        previous,
        written: Some(written),
        tool: "edit",
        txn: None,
    };
    let (store, recorded) = match store.record_write(file, &write) {
        Err(_) if store.removed() => {
            let fresh = store.reopen_if_removed().unwrap().unwrap();
            let recorded = fresh.record_write(file, &write);
            (fresh, recorded)
        }
        other => (store.clone(), other),
    };
    if let Some(name) = recorded.unwrap() {
        store.store_blob(&name, written).unwrap();
    }
    store
}

#[test]
fn collection_removes_the_stores_of_missing_workspaces_and_keeps_the_rest() {
    let (root, mut workspaces, dirs) = stores(4);
    drop(workspaces.remove(3));
    drop(workspaces.remove(1));
    let before = list(root.path());
    assert_eq!(before.len(), 4);
    let gone = |d: &PathBuf| [&dirs[1], &dirs[3]].contains(&d);
    for s in &before {
        assert_eq!(s.workspace_exists, Some(!gone(&s.dir)), "{s:?}");
    }
    let dry = collect(root.path(), DEFAULT_TOTAL_CAP, now_ms(), true).unwrap();
    assert_eq!(dry.removed.len(), 2);
    assert_eq!(list(root.path()).len(), 4, "a dry run removes nothing");
    let done = collect(root.path(), DEFAULT_TOTAL_CAP, now_ms(), false).unwrap();
    assert!(done
        .removed
        .iter()
        .all(|(s, r)| gone(&s.dir) && *r == Reason::WorkspaceGone));
    let left: Vec<_> = list(root.path()).into_iter().map(|s| s.dir).collect();
    assert_eq!(left.len(), 2);
    assert!(left.iter().all(|d| !gone(d)), "{left:?}");
    assert!(dirs[0].join("objects").is_dir() && !dirs[1].exists());
}

#[test]
fn collection_removes_stores_unused_for_thirty_days() {
    let (root, _workspaces, _dirs) = stores(2);
    let now = now_ms();
    let plan_at = |t| plan(&list(root.path()), DEFAULT_TOTAL_CAP, t);
    assert!(plan_at(now + 29 * DAY_MS).is_empty());
    let late = plan_at(now + 31 * DAY_MS);
    assert_eq!(late.len(), 2);
    assert!(late.iter().all(|(_, r)| *r == Reason::Unused));
    collect(root.path(), DEFAULT_TOTAL_CAP, now + 31 * DAY_MS, false).unwrap();
    assert!(list(root.path()).is_empty());
}

#[test]
fn a_store_whose_lock_is_held_is_skipped_and_removed_once_free() {
    let (root, workspaces, dirs) = stores(1);
    drop(workspaces);
    let store = HistoryStore::open(&dirs[0]).unwrap();
    let held = store.lock().unwrap();
    let outcome = collect(root.path(), DEFAULT_TOTAL_CAP, now_ms(), false).unwrap();
    assert!(outcome.removed.is_empty());
    assert_eq!(outcome.busy, dirs);
    assert!(dirs[0].join("objects").is_dir(), "left whole");
    drop(held);
    let outcome = collect(root.path(), DEFAULT_TOTAL_CAP, now_ms(), false).unwrap();
    assert_eq!(outcome.removed.len(), 1);
    assert!(!dirs[0].exists());
}

#[test]
fn one_collection_at_a_time_and_at_most_hourly() {
    let (root, _workspaces, _dirs) = stores(1);
    let held = try_lock(&root.path().join(COLLECT_LOCK)).unwrap();
    assert!(collect(root.path(), DEFAULT_TOTAL_CAP, now_ms(), false).is_none());
    drop(held);
    assert!(collector::run(root.path(), DEFAULT_TOTAL_CAP, false).is_some());
    assert!(collector::run(root.path(), DEFAULT_TOTAL_CAP, false).is_none());
    let marker: u64 = std::fs::read_to_string(root.path().join(collector::MARKER))
        .unwrap()
        .parse()
        .unwrap();
    assert!(!collector::due(
        root.path(),
        marker + collector::COLLECT_EVERY_MS - 1
    ));
    assert!(collector::due(
        root.path(),
        marker + collector::COLLECT_EVERY_MS
    ));
}

#[test]
fn a_killed_collections_leftovers_are_cleared() {
    let (root, _workspaces, _dirs) = stores(1);
    let trash = root.path().join(format!("{TRASH_PREFIX}x-1-2"));
    std::fs::create_dir_all(trash.join("objects")).unwrap();
    collect(root.path(), DEFAULT_TOTAL_CAP, now_ms(), false).unwrap();
    assert!(!trash.exists());
    assert_eq!(list(root.path()).len(), 1);
}

/// Many workspaces edited in turn through the background collector: the disk use of the root
/// never exceeds the cap once each collection has finished, and after the workspaces are
/// removed a collection leaves only the stores of those that exist.
#[test]
fn disk_use_across_many_workspaces_stays_under_the_cap() {
    const CAP: u64 = 1 << 20;
    let (root, mut workspaces, dirs) = stores(40);
    let mut peak = 0;
    for round in 0..15u32 {
        for (ws, dir) in workspaces.iter().zip(&dirs) {
            let store = HistoryStore::open(dir)
                .unwrap()
                .with_max_bytes(store_cap(CAP));
            let file = ws.path().join("a.txt");
            let previous = format!("{round}\n").repeat(2000 + round as usize);
            let written = format!("{}\n", round + 1).repeat(2001 + round as usize);
            let store = edit(&store, &file, previous.as_bytes(), written.as_bytes());
            collector::note_use(root.path(), &store, ws.path(), CAP, 2 * 4096 + 4096);
            assert!(collector::settle(std::time::Duration::from_secs(120)));
            peak = peak.max(disk_use(root.path()));
        }
    }
    assert!(peak <= CAP, "peak {peak} over the cap {CAP}");
    assert!(
        peak > CAP / 4,
        "the stores grew to the cap's collection point ({peak})"
    );
    let kept: Vec<PathBuf> = dirs.iter().step_by(3).cloned().collect();
    let mut i = 0;
    workspaces.retain(|_| {
        i += 1;
        (i - 1) % 3 == 0
    });
    collect(root.path(), CAP, now_ms(), false).unwrap();
    for s in list(root.path()) {
        assert!(kept.contains(&s.dir), "{:?} of a removed workspace", s.dir);
        assert_eq!(s.workspace_exists, Some(true));
    }
}

/// A store held open across a collection that removes it: its path is gone, so the next write
/// opens a fresh store there and is recorded (the removed levels are gone with the store).
#[test]
fn a_store_removed_by_a_collection_is_opened_afresh_by_the_next_write() {
    let (root, workspaces, dirs) = stores(1);
    let store = HistoryStore::open(&dirs[0]).unwrap();
    let file = workspaces[0].path().join("a.txt");
    let store = edit(&store, &file, b"one", b"two");
    assert!(remove_store(root.path(), &dirs[0]));
    assert!(!dirs[0].exists() && store.removed());
    assert!(store.levels(&file).is_err(), "the held store is gone");
    let fresh = edit(&store, &file, b"two", b"three");
    let levels = fresh.levels(&file).unwrap();
    assert_eq!(
        levels.len(),
        1,
        "the removed level is gone, the new one recorded"
    );
    assert_eq!(fresh.newest(&file).unwrap().unwrap().content, b"two");
    assert!(fresh.reopen_if_removed().is_none(), "nothing to reopen");
}

/// A store replaced by another folder, or by a symlink, while held open is not "removed": it is
/// never reopened, and writes stay refused as swapped.
#[test]
fn a_store_replaced_while_open_is_not_reopened() {
    let (root, workspaces, dirs) = stores(2);
    let file = workspaces[0].path().join("a.txt");
    for replace_with_symlink in [false, true] {
        let dir = &dirs[replace_with_symlink as usize];
        let store = HistoryStore::open(dir).unwrap();
        let store = edit(&store, &file, b"one", b"two");
        let away = root.path().join(format!("away-{replace_with_symlink}"));
        std::fs::rename(dir, &away).unwrap();
        if replace_with_symlink {
            std::os::unix::fs::symlink(&away, dir).unwrap();
        } else {
            std::fs::create_dir(dir).unwrap();
        }
        assert!(!store.removed());
        assert!(store.reopen_if_removed().is_none());
        let write = Write {
            previous: b"two",
            written: Some(b"three"),
            tool: "edit",
            txn: None,
        };
        let refused = store.record_write(&file, &write);
        assert!(
            matches!(refused, Err(HistoryError::Swapped { .. })),
            "{refused:?}"
        );
    }
}
