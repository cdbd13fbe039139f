use super::*;
use std::io::{Read, Seek, Write};

#[test]
fn threads_serialize_on_one_path_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let counter = dir.path().join("counter");
    std::fs::write(&counter, "0").unwrap();
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let counter = counter.clone();
            std::thread::spawn(move || {
                for _ in 0..200 {
                    let _lock = lock_path(&counter, DEFAULT_LOCK_TIMEOUT).unwrap();
                    let n: u64 = std::fs::read_to_string(&counter)
                        .unwrap()
                        .trim()
                        .parse()
                        .unwrap();
                    std::fs::write(&counter, (n + 1).to_string()).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(std::fs::read_to_string(&counter).unwrap(), "1600");
    assert!(
        !LOCKS.lock().contains_key(&counter),
        "entry freed after the last release"
    );
}

#[test]
fn different_paths_do_not_block_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let a = lock_path(&dir.path().join("a"), DEFAULT_LOCK_TIMEOUT).unwrap();
    let b = lock_path(&dir.path().join("b"), DEFAULT_LOCK_TIMEOUT).unwrap();
    assert_eq!(a.path(), dir.path().join("a"));
    drop((a, b));
    assert!(!LOCKS.lock().contains_key(&dir.path().join("a")));
}

#[test]
fn waiter_keeps_entry_alive() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w");
    let first = lock_path(&p, DEFAULT_LOCK_TIMEOUT).unwrap();
    let p2 = p.clone();
    let t = std::thread::spawn(move || {
        let l = lock_path(&p2, DEFAULT_LOCK_TIMEOUT).unwrap();
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"x").unwrap();
        f.rewind().unwrap();
        let mut s = String::new();
        f.read_to_string(&mut s).unwrap();
        drop(l);
        s
    });
    // Until the waiter holds its clone of the entry (map + holder + waiter), however long the
    // machine takes to start its thread.
    let references = || LOCKS.lock().get(&p).map_or(0, std::sync::Arc::strong_count);
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while references() < 3 {
        assert!(
            std::time::Instant::now() < give_up,
            "the waiter never started waiting"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    drop(first);
    assert!(LOCKS.lock().contains_key(&p) || t.is_finished());
    assert_eq!(t.join().unwrap(), "x");
    assert!(!LOCKS.lock().contains_key(&p));
}

const CHILD_ENV: &str = "EDIT_ENGINE_LOCK_CHILD_COUNTER";

/// Child side of `processes_serialize_on_one_path`: a no-op unless spawned by it.
#[test]
fn cross_process_child() {
    let Some(counter) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let counter = std::path::PathBuf::from(counter);
    for _ in 0..100 {
        let _lock = lock_path(&counter, DEFAULT_LOCK_TIMEOUT).unwrap();
        let n: u64 = std::fs::read_to_string(&counter)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        std::thread::yield_now();
        std::fs::write(&counter, (n + 1).to_string()).unwrap();
    }
}

/// Runs `cross_process_child` in 4 processes (each set up by `configure` with its index) on one
/// counter file in `dir`, asserts they all succeed and returns the counter's final text.
fn count_in_child_processes(
    dir: &std::path::Path,
    configure: impl Fn(usize, &mut std::process::Command),
) -> String {
    let counter = dir.join("counter");
    std::fs::write(&counter, "0").unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..4)
        .map(|i| {
            let mut child = std::process::Command::new(&exe);
            child
                .args([
                    "--exact",
                    "fs::locks::tests::cross_process_child",
                    "--test-threads=1",
                    "--quiet",
                ])
                .env(CHILD_ENV, &counter)
                .stdout(std::process::Stdio::null());
            configure(i, &mut child);
            child.spawn().unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    std::fs::read_to_string(&counter).unwrap()
}

#[test]
fn processes_serialize_on_one_path() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(count_in_child_processes(dir.path(), |_, _| {}), "400");
}

#[test]
fn sidecar_lives_outside_the_users_tree() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f.rs");
    let lock = lock_path(&p, DEFAULT_LOCK_TIMEOUT).unwrap();
    assert!(format!("{lock:?}").contains("cross_process: true"));
    drop(lock);
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(entries.is_empty());
    assert!(lock_dir().unwrap().is_dir());
}

/// The sidecar directory does not depend on the environment: processes started with different
/// `TMPDIR`s (or `HOME`s) lock the same files, and lose no update.
#[test]
fn processes_with_different_environments_share_the_locks() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let counted = count_in_child_processes(dir.path(), |i, child| {
        let own = dir.path().join(format!("env{i}"));
        std::fs::create_dir(&own).unwrap();
        child
            .env("TMPDIR", &own)
            .env("HOME", &own)
            .env("XDG_RUNTIME_DIR", &own);
    });
    assert_eq!(counted, "400");
}

const HOLDER_ENV: &str = "EDIT_ENGINE_LOCK_HOLDER";

/// Child side of `a_held_lock_ends_the_wait_with_an_error`: holds the lock until killed.
#[test]
fn lock_holder_child() {
    let Some(path) = std::env::var_os(HOLDER_ENV) else {
        return;
    };
    let path = std::path::PathBuf::from(path);
    let _lock = lock_path(&path, DEFAULT_LOCK_TIMEOUT).unwrap();
    std::fs::write(path.with_extension("held"), "").unwrap();
    std::thread::sleep(std::time::Duration::from_secs(120));
}

/// A process that holds a file's lock and stops does not block a writer forever: the wait ends
/// in an error saying another process holds the lock.
#[test]
fn a_held_lock_ends_the_wait_with_an_error() {
    if std::env::var_os(HOLDER_ENV).is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.txt");
    let mut holder = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "fs::locks::tests::lock_holder_child",
            "--test-threads=1",
            "--quiet",
        ])
        .env(HOLDER_ENV, &path)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while !path.with_extension("held").exists() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = path.clone();
    std::thread::spawn(move || {
        let result = lock_path(&waiter, std::time::Duration::from_millis(300));
        let _ = tx.send(result.map(drop).map_err(|e| e.to_string()));
    });
    let outcome = rx.recv_timeout(std::time::Duration::from_secs(30));
    holder.kill().unwrap();
    holder.wait().unwrap();
    let message = outcome
        .expect("the wait for a held lock never ended")
        .unwrap_err();
    assert!(message.contains("another process"), "{message}");
    drop(lock_path(&path, DEFAULT_LOCK_TIMEOUT).expect("free once the holder is gone"));
}

/// A lock directory that cannot be used refuses the lock with the reason, instead of degrading.
#[test]
fn an_unusable_lock_directory_refuses_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, "").unwrap();
    let result = sidecar::LockDir::open(&not_a_dir);
    assert!(matches!(
        result,
        Err(sidecar::SidecarError::Unavailable { .. })
    ));
}

/// Lock files are kept after use (a lock is an open and a `flock`, no create and remove); a
/// collection removes those nobody holds once old enough, never a held one, and a lock taken
/// after the collection works on a fresh file.
#[test]
fn released_lock_files_are_kept_and_collected_when_free() {
    let dir = tempfile::tempdir().unwrap();
    let locks = sidecar::LockDir::open(&dir.path().join("locks")).unwrap();
    let deadline = || Instant::now() + DEFAULT_LOCK_TIMEOUT;
    let count = || std::fs::read_dir(dir.path().join("locks")).unwrap().count();
    for i in 0..5 {
        drop(
            locks
                .lock(Path::new(&format!("/f{i}")), deadline())
                .unwrap(),
        );
    }
    assert_eq!(count(), 5, "released lock files are kept");
    assert_eq!(locks.collect(Duration::from_secs(3600)), 0, "too young");
    let held = locks.lock(Path::new("/f0"), deadline()).unwrap();
    std::fs::write(dir.path().join("locks").join("not-a-lock"), "").unwrap();
    assert_eq!(locks.collect(Duration::ZERO), 4, "every free lock file");
    assert_eq!(count(), 2, "the held one and the foreign file stay");
    drop(held);
    drop(locks.lock(Path::new("/f1"), deadline()).unwrap());
    assert_eq!(count(), 3);
}

/// A collection another process made recently is not repeated: the folder is scanned once per
/// period by all processes together, not once by each process that starts.
#[test]
fn a_recent_collection_by_any_process_is_not_repeated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("locks");
    let (first, second) = (
        sidecar::LockDir::open(&path).unwrap(),
        sidecar::LockDir::open(&path).unwrap(),
    );
    let deadline = Instant::now() + DEFAULT_LOCK_TIMEOUT;
    drop(first.lock(Path::new("/f0"), deadline).unwrap());
    let hour = Duration::from_secs(3600);
    assert_eq!(first.collect_if_due(Duration::ZERO, hour), Some(1));
    drop(second.lock(Path::new("/f1"), deadline).unwrap());
    assert_eq!(second.collect_if_due(Duration::ZERO, hour), None, "marked");
    assert!(path.join(".collected").is_file());
    assert_eq!(
        second.collect_if_due(Duration::ZERO, Duration::ZERO),
        Some(1),
        "due again"
    );
}

/// Lockers of one path in many threads (each its own open file, as separate processes have)
/// never hold the lock at once while a collector removes free lock files as fast as it can:
/// a holder that got the `flock` of a removed file starts over.
#[test]
fn a_collector_never_lets_two_holders_in() {
    let dir = tempfile::tempdir().unwrap();
    let locks = Arc::new(sidecar::LockDir::open(dir.path()).unwrap());
    let inside = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let collector = {
        let (locks, stop) = (locks.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut removed = 0;
            while !stop.load(Ordering::Relaxed) {
                removed += locks.collect(Duration::ZERO);
            }
            removed
        })
    };
    let holders: Vec<_> = (0..4)
        .map(|_| {
            let (locks, inside) = (locks.clone(), inside.clone());
            std::thread::spawn(move || {
                for _ in 0..300 {
                    let deadline = Instant::now() + Duration::from_secs(60);
                    let file = locks.lock(Path::new("/shared"), deadline).unwrap();
                    assert!(!inside.swap(true, Ordering::SeqCst), "two holders at once");
                    std::thread::yield_now();
                    inside.store(false, Ordering::SeqCst);
                    drop(file);
                }
            })
        })
        .collect();
    for h in holders {
        h.join().unwrap();
    }
    stop.store(true, Ordering::Relaxed);
    assert!(collector.join().unwrap() > 0, "the collector removed files");
}

/// A queue of calls that each hold the lock briefly, longer in total than the timeout: every one
/// gets it (the timeout starts again at each hand-over).
#[test]
fn a_queue_longer_than_the_timeout_all_lands_when_holders_hand_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("queued");
    // 16 holds of 100 ms queue for 1.6 s in all, longer than the timeout; each hand-over leaves
    // a loaded machine a whole second to schedule the next holder.
    let timeout = Duration::from_secs(1);
    let threads: Vec<_> = (0..16)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let lock = lock_path(&path, timeout);
                std::thread::sleep(Duration::from_millis(100));
                lock.is_ok()
            })
        })
        .collect();
    let taken = threads.into_iter().map(|t| t.join().unwrap());
    assert_eq!(taken.filter(|ok| *ok).count(), 16);
}
