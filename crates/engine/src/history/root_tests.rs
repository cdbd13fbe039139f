use super::*;
use std::time::{Duration, SystemTime};

fn opened() -> (tempfile::TempDir, Root) {
    let dir = tempfile::tempdir().unwrap();
    let root = Root::open(&dir.path().join("store")).unwrap();
    (dir, root)
}

/// Checks as if the folder's times were long past, so the check trusts them from then on.
fn settle(root: &Root) {
    assert!(root
        .check_at(SystemTime::now() + Duration::from_secs(60))
        .is_ok());
    assert!(
        root.settled.lock().is_some(),
        "the check trusts the folder's times"
    );
}

fn refused_naming(root: &Root, what: &str) {
    match root.verify() {
        Err(HistoryError::Swapped { what: named, .. }) => assert_eq!(named, what),
        other => panic!("expected {what} refused, got {other:?}"),
    }
}

#[test]
fn a_fresh_folder_is_checked_whole_until_its_times_are_old_enough() {
    let before = SystemTime::now();
    let (_dir, root) = opened();
    assert!(root.check_at(before).is_ok());
    assert!(
        root.settled.lock().is_none(),
        "times of a just-made folder are not trusted"
    );
    settle(&root);
    assert!(root.verify().is_ok());
}

#[test]
fn a_sub_folder_swapped_after_the_store_settled_is_still_refused() {
    for sub in Sub::ALL {
        let (dir, root) = opened();
        settle(&root);
        let path = dir.path().join("store").join(sub.name());
        std::fs::rename(&path, dir.path().join("moved")).unwrap();
        std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), &path).unwrap();
        refused_naming(&root, &format!("{}/", sub.name()));
    }
}

#[test]
fn the_store_folder_replaced_after_it_settled_is_refused() {
    let (dir, root) = opened();
    settle(&root);
    let path = dir.path().join("store");
    std::fs::rename(&path, dir.path().join("moved")).unwrap();
    std::fs::create_dir(&path).unwrap();
    refused_naming(&root, "the store folder");
}

/// The lock file kept open between locks: once `.lock` names another file, the next lock opens
/// and locks that one, so it still excludes every other holder of `.lock`.
#[test]
fn a_lock_file_replaced_between_locks_is_opened_and_locked_afresh() {
    let (dir, root) = opened();
    assert!(root.flock(Duration::from_secs(5)).unwrap());
    root.unflock();
    settle(&root);
    let lock = dir.path().join("store").join(".lock");
    std::fs::remove_file(&lock).unwrap();
    std::fs::write(&lock, b"").unwrap();
    assert!(root.flock(Duration::from_secs(5)).unwrap());
    let other = std::fs::File::open(&lock).unwrap();
    assert!(other.try_lock().is_err(), "the new .lock is the one held");
    root.unflock();
    assert!(other.try_lock().is_ok(), "released by unflock");
}

#[test]
fn whole_second_times_are_trusted_later_than_finer_ones() {
    let at = |ms: u64| SystemTime::UNIX_EPOCH + Duration::from_millis(ms);
    let times = |ns| FolderTimes {
        changed: (100, ns),
        modified: (100, ns),
    };
    assert!(!times(0).settled(at(102_500)), "2 s steps: not yet");
    assert!(times(0).settled(at(103_500)));
    assert!(!times(4_000_000).settled(at(100_900)));
    assert!(times(4_000_000).settled(at(101_500)));
}
