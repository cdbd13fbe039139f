use super::*;

/// Undoes the newest level of `path` the way the undo tool does (`newest`, then `drop_newest`),
/// returning the content it restores.
pub(super) fn pop(s: &HistoryStore, path: &Path) -> Result<Option<Vec<u8>>, HistoryError> {
    let Some(level) = s.newest(path)? else {
        return Ok(None);
    };
    assert!(s.drop_newest(path, &level.entry)?);
    Ok(Some(level.content))
}

pub(super) fn store() -> (tempfile::TempDir, HistoryStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = HistoryStore::open(dir.path().join("h")).unwrap();
    (dir, s)
}

#[test]
fn levels_pop_newest_first() {
    let (_d, s) = store();
    let f = Path::new("/w/a.rs");
    assert_eq!(pop(&s, f).unwrap(), None);
    s.record(f, b"v1", "create").unwrap();
    s.record(f, b"v2\r\n", "edit").unwrap();
    s.record(f, b"", "multi_edit").unwrap();
    let levels = s.levels(f).unwrap();
    assert_eq!(
        levels.iter().map(|e| e.tool.as_str()).collect::<Vec<_>>(),
        ["create", "edit", "multi_edit"]
    );
    assert_eq!(levels[1].size, 4);
    assert_eq!(levels[1].blake3, hex(blake3::hash(b"v2\r\n").as_bytes()));
    assert!(levels[0].timestamp > 1_600_000_000_000);
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b""[..]));
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"v2\r\n"[..]));
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"v1"[..]));
    assert_eq!(pop(&s, f).unwrap(), None);
    assert!(s.levels(f).unwrap().is_empty());
}

#[test]
fn files_are_independent() {
    let (_d, s) = store();
    s.record(Path::new("/w/a"), b"a1", "edit").unwrap();
    s.record(Path::new("/w/b"), b"b1", "edit").unwrap();
    assert_eq!(
        pop(&s, Path::new("/w/a")).unwrap().as_deref(),
        Some(&b"a1"[..])
    );
    assert_eq!(s.levels(Path::new("/w/b")).unwrap().len(), 1);
    s.clear(Path::new("/w/b")).unwrap();
    assert_eq!(pop(&s, Path::new("/w/b")).unwrap(), None);
}

#[test]
fn survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let f = Path::new("/w/a.rs");
    {
        let s = HistoryStore::open(dir.path()).unwrap();
        s.record(f, b"before 1", "edit").unwrap();
        s.record(f, b"before 2", "edit").unwrap();
    }
    let s = HistoryStore::open(dir.path()).unwrap();
    assert_eq!(s.levels(f).unwrap().len(), 2);
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"before 2"[..]));
    let s = HistoryStore::open(dir.path()).unwrap();
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"before 1"[..]));
}

#[test]
fn identical_contents_share_one_blob() {
    let (_d, s) = store();
    s.record(Path::new("/w/a"), b"same", "edit").unwrap();
    s.record(Path::new("/w/b"), b"same", "edit").unwrap();
    s.record(Path::new("/w/a"), b"same", "edit").unwrap();
    assert_eq!(
        std::fs::read_dir(s.dir().join("objects")).unwrap().count(),
        1
    );
    let blob = std::fs::read_dir(s.dir().join("objects"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let used = std::os::unix::fs::MetadataExt::blocks(&blob.metadata().unwrap()) * 512;
    assert!((1..=4096).contains(&used), "{used}");
    assert_eq!(
        pop(&s, Path::new("/w/b")).unwrap().as_deref(),
        Some(&b"same"[..])
    );
}

#[test]
fn per_file_level_cap_drops_oldest() {
    let (_d, s) = store();
    let s = s.with_max_levels(3);
    let f = Path::new("/w/a");
    for i in 0..5 {
        s.record(f, format!("v{i}").as_bytes(), "edit").unwrap();
    }
    let got: Vec<_> = std::iter::from_fn(|| pop(&s, f).unwrap()).collect();
    assert_eq!(got, [b"v4".to_vec(), b"v3".to_vec(), b"v2".to_vec()]);
}

#[test]
fn size_cap_evicts_least_recent_levels_across_files() {
    let (_d, s) = store();
    // The cap counts disk blocks: room for 5 one-block blobs and the two files' one-block logs.
    let cap = 7 * 4096 + 100;
    let s = s.with_max_bytes(cap);
    let a = Path::new("/w/a");
    let b = Path::new("/w/b");
    for i in 0..4u8 {
        s.record(a, &[b'a' + i; 50], "edit").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
        s.record(b, &[b'A' + i; 50], "edit").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(s.total_bytes() <= cap, "{}", s.total_bytes());
    // 5 blobs fit: b's and a's newest levels survive, the oldest ones went first.
    let la = s.levels(a).unwrap();
    let lb = s.levels(b).unwrap();
    assert_eq!(la.len() + lb.len(), 5);
    assert_eq!(pop(&s, a).unwrap().unwrap(), vec![b'd'; 50]);
    assert_eq!(pop(&s, b).unwrap().unwrap(), vec![b'D'; 50]);
    assert_eq!(
        pop(&s, b).unwrap().unwrap(),
        vec![b'C'; 50],
        "chains stay contiguous"
    );
}

#[test]
fn oversized_content_clears_the_chain_instead_of_skipping() {
    let (_d, s) = store();
    let s = s.with_max_bytes(10);
    let f = Path::new("/w/a");
    s.record(f, b"small", "edit").unwrap();
    s.record(f, &[b'x'; 11], "edit").unwrap();
    assert_eq!(
        pop(&s, f).unwrap(),
        None,
        "never restores a version older than the last one"
    );
}

#[test]
fn damaged_blob_is_reported_and_history_cleared() {
    let (_d, s) = store();
    let f = Path::new("/w/a");
    s.record(f, b"v1", "edit").unwrap();
    s.record(f, b"v2", "edit").unwrap();
    let sha = s.levels(f).unwrap()[1].blake3.clone();
    std::fs::write(s.dir().join("objects").join(&sha), b"xx").unwrap();
    assert!(matches!(pop(&s, f), Err(HistoryError::Corrupt { .. })));
    assert_eq!(pop(&s, f).unwrap(), None);
    s.record(f, b"v3", "edit").unwrap();
    let sha = s.levels(f).unwrap()[0].blake3.clone();
    std::fs::remove_file(s.dir().join("objects").join(&sha)).unwrap();
    let err = pop(&s, f).unwrap_err();
    assert!(err.to_string().contains("content missing"), "{err}");
}

#[test]
fn unreadable_index_reads_as_empty() {
    let (_d, s) = store();
    let f = Path::new("/w/a");
    s.record(f, b"v1", "edit").unwrap();
    for e in std::fs::read_dir(s.dir().join("index")).unwrap() {
        std::fs::write(e.unwrap().path(), b"{not json").unwrap();
    }
    assert_eq!(pop(&s, f).unwrap(), None);
    s.record(f, b"v2", "edit").unwrap();
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"v2"[..]));
}

#[test]
fn store_files_are_private_and_leave_no_temps() {
    use std::os::unix::fs::PermissionsExt;
    let (_d, s) = store();
    s.record(Path::new("/w/a"), b"secret", "edit").unwrap();
    let mode = std::fs::metadata(s.dir()).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    for sub in ["objects", "index"] {
        for e in std::fs::read_dir(s.dir().join(sub)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!name.starts_with(".edit-engine-"), "{name}");
        }
    }
}

#[test]
fn refuses_a_symlinked_store_dir() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("link")).unwrap();
    assert!(matches!(
        HistoryStore::open(dir.path().join("link")),
        Err(HistoryError::Unsafe { .. })
    ));
}

#[test]
fn default_dir_is_per_workspace_under_the_default_parent() {
    let a = HistoryStore::default_dir(Path::new("/w/one")).unwrap();
    let b = HistoryStore::default_dir(Path::new("/w/two")).unwrap();
    assert_ne!(a, b);
    assert_eq!(a, HistoryStore::default_dir(Path::new("/w/./one")).unwrap());
    let parent = default_parent(|k| std::env::var_os(k)).unwrap();
    assert_eq!(a.parent(), Some(parent.as_path()));
    let ws = tempfile::tempdir().unwrap();
    let s = HistoryStore::open_default(ws.path()).unwrap();
    let f = ws.path().join("x.rs");
    s.record(&f, b"old", "edit").unwrap();
    assert_eq!(pop(&s, &f).unwrap().as_deref(), Some(&b"old"[..]));
}

#[test]
fn concurrent_instances_lose_no_levels() {
    let dir = tempfile::tempdir().unwrap();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let d = dir.path().to_path_buf();
            std::thread::spawn(move || {
                let s = HistoryStore::open(d).unwrap();
                for i in 0..10 {
                    s.record(
                        Path::new("/w/shared"),
                        format!("{t}-{i}").as_bytes(),
                        "edit",
                    )
                    .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let s = HistoryStore::open(dir.path()).unwrap();
    assert_eq!(s.levels(Path::new("/w/shared")).unwrap().len(), 40);
}

fn index_log(s: &HistoryStore) -> std::path::PathBuf {
    let mut logs: Vec<_> = std::fs::read_dir(s.dir().join("index"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    logs.pop().unwrap()
}

/// Recording appends one line per level to the same log file (no rewrite), and an undo appends
/// a `pop` line; a fresh instance replays the log to the same levels.
#[test]
fn levels_are_appended_to_a_log() {
    use std::os::unix::fs::MetadataExt;
    let (_d, s) = store();
    let f = Path::new("/w/a");
    s.record(f, b"v1", "edit").unwrap();
    let log = index_log(&s);
    let inode = std::fs::metadata(&log).unwrap().ino();
    s.record(f, b"v2", "edit").unwrap();
    s.record(f, b"v3", "edit").unwrap();
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"v3"[..]));
    assert_eq!(
        std::fs::metadata(&log).unwrap().ino(),
        inode,
        "appended in place"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let kinds: Vec<&str> = text
        .lines()
        .map(|l| l.split(['"', ':']).nth(1).unwrap_or(l))
        .collect();
    assert_eq!(kinds, ["path", "push", "push", "push", "pop"], "{text}");
    let again = HistoryStore::open(s.dir()).unwrap();
    let tools: Vec<u64> = again.levels(f).unwrap().iter().map(|e| e.size).collect();
    assert_eq!(tools, [2, 2]);
    assert_eq!(pop(&again, f).unwrap().as_deref(), Some(&b"v2"[..]));
}

/// A log changed behind this store's back (rewritten shorter, or with other levels) is read as
/// it now is, never from the parse kept of its earlier bytes; lines appended since that parse
/// are read too.
#[test]
fn a_log_changed_behind_the_store_is_read_as_it_now_is() {
    let (_d, s) = store();
    let f = Path::new("/w/a");
    for v in [&b"v1"[..], b"v2", b"v3"] {
        s.record(f, v, "edit").unwrap();
    }
    let log = index_log(&s);
    let full = std::fs::read_to_string(&log).unwrap();
    assert_eq!(s.levels(f).unwrap().len(), 3);
    let first_two: String = full.split_inclusive('\n').take(2).collect();
    std::fs::write(&log, &first_two).unwrap();
    assert_eq!(s.levels(f).unwrap().len(), 1, "a shorter log is read anew");
    let other = first_two.replace("\"tool\":\"edit\"", "\"tool\":\"write\"");
    assert_ne!(other, first_two);
    std::fs::write(&log, &other).unwrap();
    let tools: Vec<String> = s.levels(f).unwrap().into_iter().map(|e| e.tool).collect();
    assert_eq!(
        tools,
        ["write"],
        "a log of the same length with other bytes is read anew"
    );
    s.record(f, b"v4", "edit").unwrap();
    let tools: Vec<String> = s.levels(f).unwrap().into_iter().map(|e| e.tool).collect();
    assert_eq!(tools, ["write", "edit"], "the appended line is read");
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"v4"[..]));
}

/// A log whose status changed since this process last parsed or appended to it is read again:
/// a line appended by another writer, and a copy renamed over it (same length, other bytes).
#[test]
fn a_log_appended_or_replaced_by_another_writer_is_read_again() {
    use std::io::Write;
    let (_d, s) = store();
    let f = Path::new("/w/a");
    s.record(f, b"v1", "edit").unwrap();
    s.record(f, b"v2", "edit").unwrap();
    assert_eq!(s.levels(f).unwrap().len(), 2);
    let log = index_log(&s);
    let text = std::fs::read_to_string(&log).unwrap();
    let last = text.lines().last().unwrap().to_string();
    let mut appender = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    appender.write_all(format!("{last}\n").as_bytes()).unwrap();
    drop(appender);
    assert_eq!(s.levels(f).unwrap().len(), 3, "the appended line is read");
    let swapped = std::fs::read_to_string(&log)
        .unwrap()
        .replace("\"tool\":\"edit\"", "\"tool\":\"sed1\"");
    let copy = log.with_extension("copy");
    std::fs::write(&copy, &swapped).unwrap();
    std::fs::rename(&copy, &log).unwrap();
    let tools: Vec<String> = s.levels(f).unwrap().into_iter().map(|e| e.tool).collect();
    assert_eq!(tools, ["sed1", "sed1", "sed1"], "the replaced log is read");
    s.record(f, b"v3", "edit").unwrap();
    assert_eq!(s.levels(f).unwrap().len(), 4);
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"v3"[..]));
}

/// A crash mid-append leaves a last line without its newline: it is ignored, and the next
/// change rewrites the log whole so the torn bytes never end up in the middle.
#[test]
fn a_torn_last_line_is_ignored_and_repaired() {
    let (_d, s) = store();
    let f = Path::new("/w/a");
    s.record(f, b"v1", "edit").unwrap();
    s.record(f, b"v2", "edit").unwrap();
    let log = index_log(&s);
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(b"{\"push\":{\"blake3\":\"ab");
    std::fs::write(&log, &bytes).unwrap();
    assert_eq!(s.levels(f).unwrap().len(), 2);
    s.record(f, b"v3", "edit").unwrap();
    assert!(std::fs::read(&log).unwrap().ends_with(b"\n"));
    let got: Vec<_> = std::iter::from_fn(|| pop(&s, f).unwrap()).collect();
    assert_eq!(got, [b"v3".to_vec(), b"v2".to_vec(), b"v1".to_vec()]);
}

/// A log that grew long (many levels recorded and undone) is compacted to its live levels.
#[test]
fn a_long_log_is_compacted() {
    let (_d, s) = store();
    let f = Path::new("/w/a");
    for i in 0..200 {
        s.record(f, format!("v{i}").as_bytes(), "edit").unwrap();
        if i % 2 == 1 {
            pop(&s, f).unwrap().unwrap();
        }
    }
    let lines = std::fs::read_to_string(index_log(&s))
        .unwrap()
        .lines()
        .count();
    assert!(lines <= 256 + 3, "{lines} lines");
    let levels = s.levels(f).unwrap();
    // Capped at 50 by the last record, then one undone.
    assert_eq!(levels.len(), 49);
    assert_eq!(pop(&s, f).unwrap().as_deref(), Some(&b"v198"[..]));
}

/// The size is summed only every sixteenth of the cap of added blobs, so the store may exceed
/// its cap by less than that between checks, never more.
#[test]
fn size_cap_holds_within_a_sixteenth() {
    let (_d, s) = store();
    let cap = 64 * 4096; // checked every 4 one-block blobs
    let s = s.with_max_bytes(cap);
    for i in 0..300u32 {
        let blob = format!("{i:09}");
        s.record(Path::new(&format!("/w/{}", i % 7)), blob.as_bytes(), "edit")
            .unwrap();
        assert!(
            s.total_bytes() <= cap + cap / 16,
            "{} at {i}",
            s.total_bytes()
        );
    }
    assert!(s.total_bytes() >= cap - cap / 16, "{}", s.total_bytes());
}

/// An eviction moves the blobs it drops aside once the logs no longer name them, and leaves
/// their unlinking for after the store lock: a content recorded again meanwhile is stored anew,
/// and every level left restores its content.
#[test]
fn evicted_blobs_are_moved_aside_then_unlinked() {
    let (_d, s) = store();
    let f = Path::new("/w/a");
    for i in 0..6u32 {
        s.record(f, format!("content {i}").as_bytes(), "edit")
            .unwrap();
    }
    let oldest = hash_hex(b"content 0");
    let discarded = {
        let _lock = s.lock().unwrap();
        let usage = store_fs::usage(&s.root);
        // A cap just under the store's use drops the oldest level.
        index::evict(&s.root, usage.total - 1, usage.objects).unwrap()
    };
    let objects = s.dir().join("objects");
    assert_eq!(discarded.len(), 1, "{discarded:?}");
    assert!(
        objects.join(&discarded[0]).is_file(),
        "unlinked under the lock"
    );
    assert!(!objects.join(&oldest).exists());
    assert!(s.levels(f).unwrap().iter().all(|e| e.blake3 != oldest));
    s.record(Path::new("/w/b"), b"content 0", "edit").unwrap();
    assert!(objects.join(&oldest).is_file(), "not stored again");
    store_fs::remove_discarded(&s.root, &discarded);
    assert!(!objects.join(&discarded[0]).exists());
    let restored = pop(&s, Path::new("/w/b")).unwrap();
    assert_eq!(restored.as_deref(), Some(&b"content 0"[..]));
    for i in (1..6u32).rev() {
        let content = format!("content {i}").into_bytes();
        assert_eq!(pop(&s, f).unwrap(), Some(content));
    }
    assert_eq!(pop(&s, f).unwrap(), None);
}

/// An eviction stopped at any step (as by a kill) leaves every level the logs name restorable:
/// the logs are rewritten before any blob goes, and the blobs left behind are collected by the
/// next eviction.
#[test]
fn an_eviction_killed_at_any_step_leaves_every_level_whole() {
    for step in ["saving the logs", "dropping the blobs"] {
        let (_d, s) = store();
        let f = Path::new("/w/a");
        let contents: Vec<Vec<u8>> = (0..6u32)
            .map(|i| format!("content {i}").into_bytes())
            .collect();
        contents
            .iter()
            .for_each(|c| s.record(f, c, "edit").unwrap());
        let evict = |killed: Option<&'static str>| {
            let _lock = s.lock().unwrap();
            let usage = store_fs::usage(&s.root);
            index::EVICTION_KILLED_BEFORE.with(|k| k.set(killed));
            let discarded = index::evict(&s.root, usage.total - 1, usage.objects);
            index::EVICTION_KILLED_BEFORE.with(|k| k.set(None));
            discarded.unwrap()
        };
        assert_eq!(evict(Some(step)), Vec::<String>::new());
        let kept = s.levels(f).unwrap();
        for level in &kept {
            let blob = store_fs::read_object(&s.root, &level.blake3);
            assert!(blob.is_some_and(|b| hash_hex(&b) == level.blake3), "{step}");
        }
        // The next eviction (the cap just under the use again) finishes the work: one level
        // fewer, and no blob left that no level names.
        let discarded = evict(None);
        store_fs::remove_discarded(&s.root, &discarded);
        let levels = s.levels(f).unwrap().len();
        assert_eq!((levels, store_fs::objects(&s.root).len()), (5, 5), "{step}");
        for c in contents.iter().rev().take(levels) {
            assert_eq!(pop(&s, f).unwrap().as_ref(), Some(c), "{step}");
        }
    }
}

/// A level is complete once `record_write` returns: the previous content's blob is stored; the
/// written content's blob is left to the caller (`store_blob`), who may store it later or never.
#[test]
fn the_written_blob_is_left_to_the_caller() {
    let (_d, s) = store();
    let f = Path::new("/w/a");
    let write = |previous: &'static [u8], written: &'static [u8]| Write {
        previous,
        written: Some(written),
        tool: "edit",
        txn: None,
    };
    let name = s.record_write(f, &write(b"v1", b"v2")).unwrap().unwrap();
    assert_eq!(name, hash_hex(b"v2"));
    let level = s.newest(f).unwrap().unwrap();
    assert_eq!(level.content, b"v1");
    assert_eq!(s.written_content(&level.entry), None);
    s.store_blob(&name, b"not v2").unwrap(); // refused: not the named content
    assert_eq!(s.written_content(&level.entry), None);
    s.store_blob(&name, b"v2").unwrap();
    assert_eq!(s.written_content(&level.entry).unwrap(), b"v2");
    // Stored already: nothing left to do for the next level's previous or written content.
    assert_eq!(s.record_write(f, &write(b"v2", b"v2")).unwrap(), None);
    assert_eq!(pop(&s, f).unwrap().unwrap(), b"v2");
    assert_eq!(pop(&s, f).unwrap().unwrap(), b"v1");
}

/// Storing a written content's blob needs no store lock: it lands while another holder keeps
/// the lock past the wait limit (an edit's one lock is its level's).
#[test]
fn storing_a_written_blob_does_not_wait_for_the_store_lock() {
    let (_d, s) = store();
    let s = s.with_lock_timeout(std::time::Duration::from_millis(100));
    let f = Path::new("/w/a");
    let write = Write {
        previous: b"v1",
        written: Some(b"v2"),
        tool: "edit",
        txn: None,
    };
    let name = s.record_write(f, &write).unwrap().unwrap();
    let held = s.lock().unwrap();
    s.store_blob(&name, b"v2").unwrap();
    drop(held);
    let level = s.newest(f).unwrap().unwrap();
    assert_eq!(s.written_content(&level.entry).unwrap(), b"v2");
}

/// Written blobs stored without the lock still count against the cap: once a size check is due,
/// storing one evicts, so the store stays within a sixteenth over its cap.
#[test]
fn written_blobs_count_against_the_cap() {
    let (_d, s) = store();
    let cap = 64 * 4096;
    let s = s.with_max_bytes(cap);
    for i in 0..300u32 {
        let f = PathBuf::from(format!("/w/{}", i % 7));
        let (previous, written) = (format!("p{i:09}"), format!("w{i:09}"));
        let write = Write {
            previous: previous.as_bytes(),
            written: Some(written.as_bytes()),
            tool: "edit",
            txn: None,
        };
        let name = s.record_write(&f, &write).unwrap().unwrap();
        s.store_blob(&name, written.as_bytes()).unwrap();
        let total = s.total_bytes();
        assert!(total <= cap + cap / 16, "{total} at {i}");
    }
}

/// Threads of one process recording into one store (through separately opened handles, as two
/// tool instances have) take turns at its lock: every level lands, none is refused as busy.
#[test]
fn threads_of_one_process_take_turns_at_the_store_lock() {
    let (d, _) = store();
    let dir = d.path().join("h");
    let threads: Vec<_> = (0..6)
        .map(|t| {
            let s = HistoryStore::open(&dir)
                .unwrap()
                .with_lock_timeout(std::time::Duration::from_secs(60));
            std::thread::spawn(move || {
                for i in 0..40u32 {
                    let f = PathBuf::from(format!("/w/{t}"));
                    s.record(&f, format!("{t}-{i}").as_bytes(), "edit").unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let s = HistoryStore::open(&dir).unwrap();
    for t in 0..6 {
        let levels = s.levels(Path::new(&format!("/w/{t}"))).unwrap();
        assert_eq!(levels.len(), 40);
    }
}

/// Names and keys are lowercase hex, two digits per byte, as BLAKE3's own hex form.
#[test]
fn hex_is_two_lowercase_digits_per_byte() {
    assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff, 0x10]), "000fa5ff10");
    let hash = blake3::hash(b"content");
    assert_eq!(hash_hex(b"content"), hash.to_hex().as_str());
}
