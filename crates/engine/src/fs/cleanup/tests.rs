use super::*;
use crate::fs::atomic::{write_atomic, WriteMode};
use crate::fs::temp::{hold, TEMP_PREFIX, TEMP_SUFFIX};
use std::fs;

fn age(path: &Path, secs: u64) {
    let f = fs::OpenOptions::new().write(true).open(path).unwrap();
    f.set_modified(SystemTime::now() - Duration::from_secs(secs))
        .unwrap();
}

#[test]
fn successful_write_removes_only_stale_unheld_temps() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let stale = d.join(".edit-engine-AAAAAA.tmp");
    let fresh = d.join(".edit-engine-BBBBBB.tmp");
    let held = d.join(".edit-engine-CCCCCC.tmp");
    let other = d.join("user.tmp");
    let not_ours = d.join(".edit-engine-notes.txt");
    for p in [&stale, &fresh, &held, &other, &not_ours] {
        fs::write(p, "x").unwrap();
    }
    for p in [&stale, &held, &other, &not_ours] {
        age(p, 3600);
    }
    let holder = fs::File::open(&held).unwrap();
    holder.try_lock().unwrap();
    let stale_dir = d.join(".edit-engine-DDDDDD.tmp.d.tmp");
    fs::create_dir(&stale_dir).unwrap();
    let link = d.join(".edit-engine-EEEEEE.tmp");
    std::os::unix::fs::symlink(&other, &link).unwrap();

    write_atomic(
        &d.join("f.txt"),
        b"data",
        WriteMode::CreateOrReplace,
        "f.txt",
    )
    .unwrap();
    crate::fs::background::flush(); // the scan runs on the background thread

    assert!(!stale.exists(), "stale unheld temp removed");
    for p in [&fresh, &held, &other, &not_ours, &stale_dir] {
        assert!(p.exists(), "{p:?} kept");
    }
    assert!(fs::symlink_metadata(&link).is_ok(), "symlink kept");
    drop(holder);
    assert_eq!(
        remove_stale_temps(d, STALE_AFTER),
        1,
        "released temp is now litter"
    );
    assert!(!held.exists());
}

#[test]
fn scans_are_throttled_per_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_path_buf();
    let first = d.join(".edit-engine-AAAAAA.tmp");
    fs::write(&first, "x").unwrap();
    age(&first, 3600);
    remove_stale_temps_in_background(d.clone());
    crate::fs::background::flush();
    assert!(!first.exists(), "the first scan removes a stale temp");
    let stale = d.join(".edit-engine-BBBBBB.tmp");
    fs::write(&stale, "x").unwrap();
    age(&stale, 3600);
    remove_stale_temps_in_background(d.clone());
    crate::fs::background::flush();
    assert!(stale.exists(), "second scan within the window is skipped");
    assert_eq!(remove_stale_temps(&d, STALE_AFTER), 1);
}

#[test]
fn missing_directory_is_harmless() {
    assert_eq!(
        remove_stale_temps(Path::new("/nonexistent/edit-engine/dir"), STALE_AFTER),
        0
    );
}

#[test]
fn a_writers_own_temp_is_held() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir.path())
        .unwrap();
    hold(tmp.as_file());
    age(tmp.path(), 3600);
    assert_eq!(remove_stale_temps(dir.path(), STALE_AFTER), 0);
    assert!(tmp.path().exists());
    let path = tmp.path().to_path_buf();
    let (_file, kept) = tmp.keep().unwrap();
    drop(_file);
    assert_eq!(remove_stale_temps(dir.path(), STALE_AFTER), 1);
    assert!(!kept.exists() && !path.exists());
}

/// A fresh temp file of a process that is gone (killed between linking its temp and the rename)
/// is removed by the next write in its folder; one of a live process is kept.
#[test]
fn a_dead_writers_fresh_temp_is_removed_by_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let orphan = d.join(format!(".edit-engine-{dead}-0123456789abcdef.tmp"));
    let live = d.join(format!(
        ".edit-engine-{}-0123456789abcdef.tmp",
        std::process::id()
    ));
    fs::write(&orphan, "x").unwrap();
    fs::write(&live, "x").unwrap();
    assert_eq!(remove_stale_temps(d, STALE_AFTER), 1);
    assert!(!orphan.exists(), "the dead writer's temp is still there");
    assert!(live.exists(), "a live writer's temp was removed");
}
