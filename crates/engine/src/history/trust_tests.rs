//! Attacks on the store: crafted metadata, colliding keys, disk use, stale litter, shared folders.
use super::tests::{pop, store};
use super::*;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;

/// Disk blocks (bytes) used by the regular files directly in `dir`.
fn disk_use(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.blocks() * 512)
        .sum()
}

/// An index entry naming `../../victim` as its blob: a later eviction must not delete the
/// victim outside the store.
#[test]
fn a_crafted_index_cannot_name_a_file_outside_the_store() {
    let root = tempfile::tempdir().unwrap();
    let victim = root.path().join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    let s = HistoryStore::open(root.path().join("h"))
        .unwrap()
        .with_max_bytes(12);
    let crafted = concat!(
        "{\"path\":\"/w/x\"}\n",
        "{\"push\":{\"blake3\":\"../../victim\",\"size\":1,\"timestamp\":1,\"tool\":\"edit\"}}\n"
    );
    std::fs::write(s.dir().join("index").join("crafted.log"), crafted).unwrap();
    s.record(Path::new("/w/y"), b"0123456789", "edit").unwrap();
    s.record(Path::new("/w/y"), b"9876543210", "edit").unwrap();
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
}

/// Two paths that differ only in bytes that are not UTF-8 keep separate histories.
#[test]
fn non_utf8_paths_have_separate_histories() {
    let (_d, s) = store();
    let fe = Path::new(std::ffi::OsStr::from_bytes(b"/w/x\xfe"));
    let ff = Path::new(std::ffi::OsStr::from_bytes(b"/w/x\xff"));
    s.record(fe, b"fe content", "edit").unwrap();
    s.record(ff, b"ff content", "edit").unwrap();
    assert_eq!(pop(&s, fe).unwrap().as_deref(), Some(&b"fe content"[..]));
    assert_eq!(pop(&s, ff).unwrap().as_deref(), Some(&b"ff content"[..]));
}

/// Many tiny levels: the cap bounds the blocks they use on disk, not their content bytes.
#[test]
fn the_cap_counts_disk_blocks() {
    let (_d, s) = store();
    let cap = 64 << 10;
    let s = s.with_max_bytes(cap);
    for i in 0..200 {
        s.record(
            Path::new(&format!("/w/{}", i % 9)),
            format!("tiny {i}").as_bytes(),
            "edit",
        )
        .unwrap();
    }
    // The blobs evictions dropped are unlinked on the background task lane.
    crate::fs::background::flush();
    let objects = s.dir().join("objects");
    let names = std::fs::read_dir(&objects).unwrap();
    let names: Vec<String> = names
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| is_blob_name(n)), "{names:?}");
    let used = disk_use(&objects);
    assert!(
        used <= cap + cap / 16 + 4096,
        "{used} bytes on disk for a {cap}-byte cap"
    );
}

/// A temp file left by a killed blob write is collected; a fresh one (a live write) is not.
#[test]
fn stale_temps_in_the_store_are_collected() {
    let (_d, s) = store();
    let stale = s.dir().join("objects").join(".tmpDEAD");
    let fresh = s.dir().join("objects").join(".tmpLIVE");
    std::fs::write(&stale, vec![7u8; 100_000]).unwrap();
    std::fs::write(&fresh, b"x").unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let s = HistoryStore::open(s.dir()).unwrap();
    s.record(Path::new("/w/a"), b"v1", "edit").unwrap();
    assert!(!stale.exists(), "the stale temp is still there");
    assert!(fresh.exists(), "a fresh temp was removed");
}

/// A store directory that other users can write to is refused, whoever created it.
#[test]
fn a_group_or_world_writable_store_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    for mode in [0o777, 0o770] {
        let dir = root.path().join(format!("h{mode:o}"));
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode)).unwrap();
        assert!(
            matches!(HistoryStore::open(&dir), Err(HistoryError::Unsafe { .. })),
            "mode {mode:o} accepted"
        );
    }
}

/// Without an override, the default store lives in the user's state directory, never in the
/// shared temp dir.
#[test]
fn the_default_store_is_per_user_and_outside_the_temp_dir() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |key: &str| {
            vars.iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| std::ffi::OsString::from(v))
        }
    };
    let xdg = default_parent(env(&[("XDG_STATE_HOME", "/s"), ("HOME", "/h")])).unwrap();
    assert_eq!(xdg, Path::new("/s/edit-engine/history"));
    let home = default_parent(env(&[("HOME", "/h")])).unwrap();
    assert_eq!(home, Path::new("/h/.local/state/edit-engine/history"));
    let relative = default_parent(env(&[("XDG_STATE_HOME", "rel"), ("HOME", "/h")])).unwrap();
    assert_eq!(relative, Path::new("/h/.local/state/edit-engine/history"));
    let root = default_parent(env(&[("EDIT_ENGINE_HISTORY_ROOT", "/t"), ("HOME", "/h")])).unwrap();
    assert_eq!(root, Path::new("/t"));
    for dir in [xdg, home] {
        assert!(!dir.starts_with(std::env::temp_dir()), "{}", dir.display());
    }
}

/// The default store falls back like the lock folder: after the state folders, the user's own
/// folder in `/tmp`; a place that cannot hold a store is passed over.
#[test]
fn the_default_store_falls_back_to_the_users_tmp_folder() {
    let env = |k: &str| (k == "HOME").then(|| std::ffi::OsString::from("/h"));
    let parents = default_parents(env);
    assert_eq!(
        parents.first().unwrap(),
        Path::new("/h/.local/state/edit-engine/history")
    );
    let uid = crate::sys::effective_uid();
    let last = PathBuf::from(format!("/tmp/edit-engine-history-{uid}"));
    assert_eq!(parents.last(), Some(&last));
    let d = tempfile::tempdir().unwrap();
    let (link, usable) = (d.path().join("link"), d.path().join("usable"));
    std::os::unix::fs::symlink(d.path(), &link).unwrap();
    let s = HistoryStore::open_first(vec![link.clone(), usable.clone()]).unwrap();
    assert_eq!(s.dir(), usable);
    let error = HistoryStore::open_first(vec![link.clone()]).unwrap_err();
    assert!(
        error.to_string().contains(&*link.to_string_lossy()),
        "{error}"
    );
}

/// Temp files left by a writer killed mid-write are collected when the store is opened, in
/// `previews/` and in the store folder itself (an `owner.json` being written) as elsewhere.
#[test]
fn stale_temps_in_previews_and_the_store_folder_are_collected_at_open() {
    let (_d, s) = store();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let mut left = Vec::new();
    for folder in [s.dir().join("previews"), s.dir().to_path_buf()] {
        let (stale, fresh) = (folder.join(".tmp1-1-1"), folder.join(".tmp1-1-2"));
        std::fs::write(&stale, b"half an owner.json").unwrap();
        std::fs::write(&fresh, b"x").unwrap();
        let file = std::fs::File::options().write(true).open(&stale).unwrap();
        file.set_modified(old).unwrap();
        left.push((stale, fresh));
    }
    let _reopened = HistoryStore::open(s.dir()).unwrap();
    for (stale, fresh) in left {
        assert!(!stale.exists(), "{} is still there", stale.display());
        assert!(
            fresh.exists(),
            "a fresh temp was removed: {}",
            fresh.display()
        );
    }
}

/// Stored previews count in the store's cap: once over it, a preview past its default time to
/// live goes first, then previews and levels alike, oldest first; the store ends under the cap.
/// The cap evicts previews past their own time to live first: a fresh preview made with a
/// short one goes before an hour-old one made with the default.
#[test]
fn the_cap_evicts_previews_by_their_own_time_to_live() {
    use super::previews::{PreviewRecord, PreviewedFile, Splice, PREVIEW_FORMAT};
    let (_d, s) = store();
    let s = s.with_max_bytes(64 << 10);
    let store = s.previews();
    let preview = |created_ms: u64, ttl_ms: u64| {
        let paths = (Path::new("/w/p"), Path::new("/w/p"));
        let file = PreviewedFile::new(
            "p".into(),
            paths,
            None,
            None,
            Some(Splice::of(&[], &[b'p'; 20_000])),
        );
        let record = PreviewRecord {
            format: PREVIEW_FORMAT,
            created_ms,
            ttl_ms,
            files: vec![file],
            ..PreviewRecord::default()
        };
        store.save(record, None).unwrap()
    };
    let hour = 3600 * 1000;
    let older = preview(now_ms() - hour, 24 * hour);
    let brief = preview(now_ms(), 1);
    std::thread::sleep(std::time::Duration::from_millis(5));
    for i in 0..40u8 {
        s.record(Path::new(&format!("/w/{}", i % 4)), &[i; 6_000], "edit")
            .unwrap();
        let kept = (store.peek(&brief).is_some(), store.peek(&older).is_some());
        assert_ne!(
            kept,
            (true, false),
            "the older preview went before the expired one"
        );
        if kept.0 {
            continue;
        }
        return;
    }
    panic!("the expired preview was never evicted");
}

#[test]
fn stored_previews_count_in_the_cap_expired_ones_first() {
    use super::previews::{PreviewRecord, PreviewedFile, Splice};
    let (_d, s) = store();
    let cap = 64 << 10;
    let s = s.with_max_bytes(cap);
    let store = s.previews();
    let day = 24 * 3600 * 1000;
    let preview = |created_ms: u64| {
        let paths = (Path::new("/w/p"), Path::new("/w/p"));
        let file = PreviewedFile::new(
            "p".into(),
            paths,
            None,
            None,
            Some(Splice::of(&[], &[b'p'; 20_000])),
        );
        let record = PreviewRecord {
            format: super::previews::PREVIEW_FORMAT,
            created_ms,
            ttl_ms: day,
            files: vec![file],
            ..PreviewRecord::default()
        };
        store.save(record, None).unwrap()
    };
    let two_days = 2 * 24 * 3600 * 1000;
    let expired = preview(now_ms() - two_days);
    let live = preview(now_ms());
    let mut evicted_first = None;
    for i in 0..40u8 {
        s.record(Path::new(&format!("/w/{}", i % 4)), &[i; 6_000], "edit")
            .unwrap();
        let kept = (store.peek(&expired).is_some(), store.peek(&live).is_some());
        assert_ne!(
            kept,
            (true, false),
            "the live preview went before the expired one"
        );
        if evicted_first.is_none() && kept != (true, true) {
            evicted_first = Some(i);
        }
    }
    assert!(store.peek(&expired).is_none() && store.peek(&live).is_none());
    assert!(evicted_first.is_some_and(|i| i < 20), "{evicted_first:?}");
    assert!(
        pop(&s, Path::new("/w/3")).unwrap().is_some(),
        "the newest levels were evicted"
    );
    let used = s.total_bytes();
    assert!(used <= cap, "{used} bytes for a {cap}-byte cap");
}

/// A preview stored by a newer build is kept by the cap and the sweep by its own time to live,
/// even when the rest of its header is laid out in a way this build cannot read.
#[test]
fn a_newer_builds_preview_is_kept_by_its_own_time_to_live() {
    use super::previews::{held, PreviewRecord, PREVIEW_FORMAT};
    let (_d, s) = store();
    let previews = s.previews();
    let hour = 3600 * 1000;
    let mut tokens = Vec::new();
    for (created_ms, ttl_ms) in [(now_ms(), 24 * hour), (now_ms() - 2 * hour, hour)] {
        let record = PreviewRecord {
            format: PREVIEW_FORMAT,
            created_ms,
            ttl_ms,
            ..PreviewRecord::default()
        };
        let token = previews.save(record, None).unwrap();
        let stored = s.dir().join("previews").join(&token);
        let bytes = std::fs::read(&stored).unwrap();
        let end = bytes.iter().position(|&b| b == b'\n').unwrap();
        let mut header: serde_json::Value = serde_json::from_slice(&bytes[..end]).unwrap();
        header["format"] = serde_json::json!(PREVIEW_FORMAT + 1);
        header["files"] = serde_json::json!("laid out otherwise");
        let mut newer = serde_json::to_vec(&header).unwrap();
        newer.extend_from_slice(&bytes[end..]);
        std::fs::write(&stored, newer).unwrap();
        tokens.push(token);
    }
    let expired: Vec<bool> = tokens
        .iter()
        .map(|t| held(&s.root).iter().find(|h| h.is(t)).unwrap().expired)
        .collect();
    assert_eq!(expired, [false, true]);
}
