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
                    let _lock = lock_path(&counter);
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
    let a = lock_path(&dir.path().join("a"));
    let b = lock_path(&dir.path().join("b"));
    assert_eq!(a.path(), dir.path().join("a"));
    drop((a, b));
    assert!(!LOCKS.lock().contains_key(&dir.path().join("a")));
}

#[test]
fn waiter_keeps_entry_alive() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w");
    let first = lock_path(&p);
    let p2 = p.clone();
    let t = std::thread::spawn(move || {
        let l = lock_path(&p2);
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"x").unwrap();
        f.rewind().unwrap();
        let mut s = String::new();
        f.read_to_string(&mut s).unwrap();
        drop(l);
        s
    });
    std::thread::sleep(std::time::Duration::from_millis(50));
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
        let _lock = lock_path(&counter);
        let n: u64 = std::fs::read_to_string(&counter)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        std::thread::yield_now();
        std::fs::write(&counter, (n + 1).to_string()).unwrap();
    }
}

#[test]
fn processes_serialize_on_one_path() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let counter = dir.path().join("counter");
    std::fs::write(&counter, "0").unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "fs::locks::tests::cross_process_child",
                    "--test-threads=1",
                    "--quiet",
                ])
                .env(CHILD_ENV, &counter)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    assert_eq!(std::fs::read_to_string(&counter).unwrap(), "400");
}

#[test]
fn sidecar_lives_outside_the_users_tree() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f.rs");
    let lock = lock_path(&p);
    assert!(format!("{lock:?}").contains("cross_process: true"));
    drop(lock);
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(entries.is_empty());
    assert!(lock_dir().is_dir());
}
