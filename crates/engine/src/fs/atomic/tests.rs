use super::*;
use crate::fs::temp::TEMP_PREFIX;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

const STD: Durability = Durability::Standard;

fn temps(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(TEMP_PREFIX))
        .collect()
}

/// Runs `check` with unnamed temp files (where supported) and again with named ones.
fn with_both_temp_kinds(check: impl Fn()) {
    for named in [false, true] {
        NAMED_TEMPS.with(|n| n.set(named));
        check();
    }
    NAMED_TEMPS.with(|n| n.set(false));
}

#[test]
fn replace_writes_bytes_and_keeps_mode() {
    with_both_temp_kinds(replace_check);
}

fn replace_check() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    fs::write(&f, "old").unwrap();
    fs::set_permissions(&f, fs::Permissions::from_mode(0o640)).unwrap();
    write_atomic(&f, b"new\r\n", WriteMode::Replace, "f.txt").unwrap();
    assert_eq!(fs::read(&f).unwrap(), b"new\r\n");
    assert_eq!(fs::metadata(&f).unwrap().mode() & 0o7777, 0o640);
    fs::set_permissions(&f, fs::Permissions::from_mode(0o755)).unwrap();
    write_atomic(&f, b"", WriteMode::CreateOrReplace, "f.txt").unwrap();
    assert_eq!(fs::read(&f).unwrap(), b"");
    assert_eq!(fs::metadata(&f).unwrap().mode() & 0o7777, 0o755);
    assert!(temps(dir.path()).is_empty());
}

#[test]
fn new_file_gets_default_mode() {
    with_both_temp_kinds(new_file_check);
}

fn new_file_check() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("ref");
    fs::write(&reference, "").unwrap();
    let f = dir.path().join("new.txt");
    write_atomic(&f, b"hi", WriteMode::CreateNew, "new.txt").unwrap();
    assert_eq!(fs::read(&f).unwrap(), b"hi");
    assert_eq!(
        fs::metadata(&f).unwrap().mode() & 0o7777,
        fs::metadata(&reference).unwrap().mode() & 0o7777
    );
    let g = dir.path().join("g.txt");
    write_atomic(&g, b"x", WriteMode::CreateOrReplace, "g.txt").unwrap();
    assert_eq!(fs::read(&g).unwrap(), b"x");
}

#[test]
fn mode_mismatches_are_refused() {
    with_both_temp_kinds(mode_mismatches_check);
}

fn mode_mismatches_check() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    fs::write(&f, "keep").unwrap();
    match write_atomic(&f, b"x", WriteMode::CreateNew, "f.txt") {
        Err(FsError::Io { source, .. }) => {
            assert_eq!(source.kind(), std::io::ErrorKind::AlreadyExists)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(fs::read(&f).unwrap(), b"keep");
    let missing = dir.path().join("missing");
    assert!(matches!(
        write_atomic(&missing, b"x", WriteMode::Replace, "missing"),
        Err(FsError::NotFound { .. })
    ));
    assert!(!missing.exists());
    assert!(matches!(
        write_atomic(dir.path(), b"x", WriteMode::CreateOrReplace, "d"),
        Err(FsError::NotAFile { .. })
    ));
    assert!(temps(dir.path()).is_empty());
}

#[test]
fn hard_linked_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    fs::write(&f, "keep").unwrap();
    fs::hard_link(&f, dir.path().join("g.txt")).unwrap();
    assert!(matches!(
        write_atomic(&f, b"x", WriteMode::Replace, "f.txt"),
        Err(FsError::HardLinked { .. })
    ));
    assert_eq!(fs::read(&f).unwrap(), b"keep");
    assert!(temps(dir.path()).is_empty());
}

#[test]
fn symlink_target_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.txt");
    let link = dir.path().join("link.txt");
    fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    write_atomic(&link, b"new", WriteMode::Replace, "link.txt").unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read(&real).unwrap(), b"new");
}

#[test]
fn injected_failures_leave_original_and_no_temp() {
    with_both_temp_kinds(injected_failures_check);
}

fn injected_failures_check() {
    for stage in ["write", "sync", "rename"] {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f.txt");
        fs::write(&f, "original").unwrap();
        FAIL_AT.with(|c| c.set(Some(stage)));
        let r = write_atomic(&f, b"new", WriteMode::Replace, "f.txt");
        FAIL_AT.with(|c| c.set(None));
        assert!(r.is_err(), "{stage}");
        assert_eq!(fs::read(&f).unwrap(), b"original", "{stage}");
        assert!(
            temps(dir.path()).is_empty(),
            "{stage}: {:?}",
            temps(dir.path())
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_staged_temp_has_no_name_until_its_content_is_synced() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let handle = dir::Dir::open(dir.path()).unwrap();
    let mut tmp = handle.stage().unwrap();
    tmp.file.write_all(b"content").unwrap();
    tmp.file.sync_all().unwrap();
    assert!(
        temps(dir.path()).is_empty(),
        "an unnamed temp is not listed"
    );
    let name = tmp.name().unwrap();
    assert_eq!(tmp.name().unwrap(), name, "named once");
    let listed = temps(dir.path());
    assert_eq!(listed, vec![name.to_str().unwrap().to_string()]);
    assert_eq!(fs::read(dir.path().join(&listed[0])).unwrap(), b"content");
    drop(tmp);
    assert!(
        temps(dir.path()).is_empty(),
        "dropped without keep: removed"
    );

    // The named fallback: listed from the start, removed on drop, kept after `keep`.
    let mut named = handle.stage_named().unwrap();
    assert_eq!(temps(dir.path()).len(), 1);
    drop(named);
    assert!(temps(dir.path()).is_empty());
    named = handle.stage_named().unwrap();
    named.file.write_all(b"kept").unwrap();
    let name = named.name().unwrap();
    named.keep();
    drop(named);
    assert_eq!(
        fs::read(dir.path().join(name.to_str().unwrap())).unwrap(),
        b"kept"
    );
}

#[test]
fn read_only_directory_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("ro");
    fs::create_dir(&sub).unwrap();
    let f = sub.join("f.txt");
    fs::write(&f, "original").unwrap();
    fs::set_permissions(&sub, fs::Permissions::from_mode(0o555)).unwrap();
    let r = write_atomic(&f, b"new", WriteMode::Replace, "ro/f.txt");
    fs::set_permissions(&sub, fs::Permissions::from_mode(0o755)).unwrap();
    if crate::sys::effective_uid() != 0 {
        match r {
            Err(FsError::Io { op, .. }) => assert_eq!(op, "create a temporary file next to"),
            other => panic!("{other:?}"),
        }
        assert_eq!(fs::read(&f).unwrap(), b"original");
    }
    // Root bypasses directory permissions; either way nothing is left behind.
    assert!(temps(&sub).is_empty());
}

#[test]
fn owner_is_kept_when_root() {
    if crate::sys::effective_uid() != 0 {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    fs::write(&f, "old").unwrap();
    std::os::unix::fs::chown(&f, Some(4321), Some(4322)).unwrap();
    fs::set_permissions(&f, fs::Permissions::from_mode(0o2640)).unwrap();
    write_atomic(&f, b"new", WriteMode::Replace, "f.txt").unwrap();
    let m = fs::metadata(&f).unwrap();
    assert_eq!((m.uid(), m.gid(), m.mode() & 0o7777), (4321, 4322, 0o2640));
}

#[test]
fn create_parent_dirs_makes_missing_dirs_only() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a/b/c/f.txt");
    create_parent_dirs(&f, "a/b/c/f.txt").unwrap();
    assert!(dir.path().join("a/b/c").is_dir());
    create_parent_dirs(&f, "a/b/c/f.txt").unwrap();
    fs::write(dir.path().join("file"), "").unwrap();
    assert!(create_parent_dirs(&dir.path().join("file/x/y"), "file/x/y").is_err());
    assert!(create_parent_dirs(&dir.path().join("file/y"), "file/y").is_err());
}

/// Regression (issue 9): a symlink swapped in for a checked real path after the guard's check
/// used to be followed, so the write landed outside the allowed folder.
#[test]
fn confined_write_refuses_a_symlink_swapped_in_for_the_target() {
    let inside = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    fs::write(&secret, "secret").unwrap();
    let target = inside.path().join("f.txt");
    std::os::unix::fs::symlink(&secret, &target).unwrap();
    for mode in [WriteMode::Replace, WriteMode::CreateOrReplace] {
        let err = write_atomic_confined(&target, b"pwned", mode, "f.txt", STD).unwrap_err();
        assert!(matches!(err, FsError::Changed { .. }), "{err:?}");
    }
    assert_eq!(fs::read(&secret).unwrap(), b"secret");
    assert!(fs::symlink_metadata(&target)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(temps(inside.path()).is_empty());
    assert!(temps(outside.path()).is_empty());
}

/// Regression (issue 9): a folder of the checked path swapped for a symlink to an outside folder
/// used to carry the temp file and the rename outside.
#[test]
fn confined_write_refuses_a_folder_swapped_for_a_symlink() {
    let inside = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("f.txt"), "secret").unwrap();
    let sub = inside.path().join("sub");
    std::os::unix::fs::symlink(outside.path(), &sub).unwrap();
    let err = write_atomic_confined(
        &sub.join("f.txt"),
        b"pwned",
        WriteMode::Replace,
        "sub/f.txt",
        STD,
    )
    .unwrap_err();
    assert!(matches!(err, FsError::Changed { .. }), "{err:?}");
    let err = write_atomic_confined(
        &sub.join("new.txt"),
        b"pwned",
        WriteMode::CreateNew,
        "sub/new.txt",
        STD,
    )
    .unwrap_err();
    assert!(matches!(err, FsError::Changed { .. }), "{err:?}");
    assert_eq!(fs::read(outside.path().join("f.txt")).unwrap(), b"secret");
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 1);
}

#[test]
fn confined_write_replaces_creates_and_refuses_like_write_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    write_atomic_confined(&f, b"one", WriteMode::CreateNew, "f.txt", STD).unwrap();
    let err = write_atomic_confined(&f, b"two", WriteMode::CreateNew, "f.txt", STD).unwrap_err();
    assert!(
        matches!(&err, FsError::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists)
    );
    fs::set_permissions(&f, fs::Permissions::from_mode(0o640)).unwrap();
    write_atomic_confined(&f, b"three", WriteMode::Replace, "f.txt", STD).unwrap();
    assert_eq!(fs::read(&f).unwrap(), b"three");
    assert_eq!(fs::metadata(&f).unwrap().mode() & 0o7777, 0o640);
    let missing = dir.path().join("missing.txt");
    assert!(matches!(
        write_atomic_confined(&missing, b"x", WriteMode::Replace, "missing.txt", STD),
        Err(FsError::NotFound { .. })
    ));
    fs::create_dir(dir.path().join("d")).unwrap();
    assert!(matches!(
        write_atomic_confined(&dir.path().join("d"), b"x", WriteMode::Replace, "d", STD),
        Err(FsError::NotAFile { .. })
    ));
    assert!(temps(dir.path()).is_empty());
}

/// Whether this process holds a handle of a file that was at `path` and has been replaced
/// (`/proc/self/fd` shows such a handle as `<path> (deleted)`).
#[cfg(target_os = "linux")]
fn holds_replaced(path: &Path) -> bool {
    let gone = format!("{} (deleted)", path.display());
    fs::read_dir("/proc/self/fd")
        .unwrap()
        .flatten()
        .filter_map(|e| fs::read_link(e.path()).ok())
        .any(|target| target.to_string_lossy() == gone)
}

/// A standard write's replaced content is released on its sync lane, with its folder's sync: it
/// is closed once the syncs are flushed, even while the task lane is busy.
#[cfg(target_os = "linux")]
#[test]
fn a_standard_write_releases_the_replaced_content_with_its_folder_sync() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    fs::write(&f, "old").unwrap();
    let real = fs::canonicalize(&f).unwrap();
    let blocked = background::block_task_lane();
    write_atomic_confined(&real, b"new", WriteMode::Replace, "f.txt", STD).unwrap();
    background::flush_syncs();
    let still_held = holds_replaced(&real);
    drop(blocked);
    background::flush();
    assert!(
        !still_held,
        "the replaced content was still open after the syncs were flushed"
    );
    assert_eq!(fs::read(&f).unwrap(), b"new");
}

/// A strict write's `before_sync` runs under `background::writeback_first` (it waits for what
/// that queues, see there); a standard write's does not, and neither leaves the guard behind.
#[test]
fn only_a_strict_write_hands_its_levels_files_to_the_disk_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    fs::write(&f, "old").unwrap();
    let real = fs::canonicalize(&f).unwrap();
    for (durability, expected) in [(Durability::Strict, true), (STD, false)] {
        let mut seen = None;
        let mut before_sync = || {
            seen = Some(background::writing_back_first());
            Ok(())
        };
        write_atomic_confined_before(
            &real,
            b"new",
            WriteMode::Replace,
            "f.txt",
            durability,
            &mut before_sync,
        )
        .unwrap();
        assert_eq!(seen, Some(expected), "{durability:?}");
        assert!(!background::writing_back_first(), "{durability:?}");
    }
}
