use super::*;
use serde_json::json;

fn store() -> (tempfile::TempDir, TaskStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = TaskStore::new(dir.path().join("nested/tasks.json"));
    (dir, store)
}

#[test]
fn save_load_remove_round_trip() {
    let (_dir, s) = store();
    assert_eq!(s.load().unwrap(), Vec::<Value>::new());
    s.save(json!({ "id": "a", "command": "sleep 1" })).unwrap();
    s.save(json!({ "id": "b" })).unwrap();
    s.save(json!({ "id": "a", "command": "sleep 2" })).unwrap();
    assert_eq!(
        s.load().unwrap(),
        vec![
            json!({ "id": "a", "command": "sleep 2" }),
            json!({ "id": "b" })
        ]
    );
    assert!(s.remove("a").unwrap());
    assert!(!s.remove("a").unwrap());
    assert_eq!(s.load().unwrap(), vec![json!({ "id": "b" })]);
    assert!(lockfile::sidecar(s.path()).exists());
}

#[test]
fn rejects_invalid_tasks() {
    let (_dir, s) = store();
    for bad in [
        json!(1),
        json!({}),
        json!({ "id": "" }),
        json!({ "id": 3 }),
        json!({ "id": "x", "pid": -1 }),
        json!({ "id": "x", "pid": "12" }),
    ] {
        assert!(matches!(s.save(bad), Err(TaskStoreError::InvalidTask(_))));
    }
    assert!(!s.path().exists());
}

#[test]
fn cleanup_drops_dead_pids() {
    let (_dir, s) = store();
    let me = std::process::id() as i64;
    s.save(json!({ "id": "me", "pid": me })).unwrap();
    s.save(json!({ "id": "none" })).unwrap();
    s.save(json!({ "id": "dead", "pid": i32::MAX })).unwrap();
    let dropped = s.cleanup().unwrap();
    assert_eq!(dropped, vec![json!({ "id": "dead", "pid": i32::MAX })]);
    assert_eq!(s.load().unwrap().len(), 2);
    assert!(process_alive(1) || !process_alive(i32::MAX));
    assert!(!process_alive(0) && !process_alive(-5));
}

#[test]
fn corrupt_file_is_preserved_and_reported() {
    let (dir, s) = store();
    std::fs::create_dir_all(s.path().parent().unwrap()).unwrap();
    std::fs::write(s.path(), b"{ not json").unwrap();
    let err = s.load().unwrap_err();
    let TaskStoreError::Corrupt { moved_to, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(std::fs::read(moved_to).unwrap(), b"{ not json");
    assert!(err.to_string().contains("moved aside"));
    assert!(!s.path().exists());
    assert_eq!(s.load().unwrap(), Vec::<Value>::new());
    drop(dir);
}

#[test]
fn parse_accepts_blank_and_rejects_non_arrays() {
    assert_eq!(parse_tasks(b"  \n").unwrap(), Vec::<Value>::new());
    assert!(parse_tasks(b"{}").is_err());
    assert!(parse_tasks(b"[1]").is_err());
    assert_eq!(parse_tasks(b"[{\"id\":\"a\"}]").unwrap().len(), 1);
}

#[test]
fn threads_saving_at_once_lose_nothing() {
    let (_dir, s) = store();
    std::thread::scope(|scope| {
        for t in 0..4 {
            let s = s.clone();
            scope.spawn(move || {
                for i in 0..10 {
                    s.save(json!({ "id": format!("{t}-{i}") })).unwrap();
                }
            });
        }
    });
    assert_eq!(s.load().unwrap().len(), 40);
}

#[test]
fn a_held_lock_is_waited_on_for_the_timeout_only() {
    let (_dir, s) = store();
    let s = s.with_lock_timeout(std::time::Duration::from_millis(50));
    s.save(json!({ "id": "a" })).unwrap();
    let holder = std::fs::File::open(lockfile::sidecar(s.path())).unwrap();
    holder.lock().unwrap();
    let err = s.save(json!({ "id": "b" })).unwrap_err();
    assert!(
        matches!(err, TaskStoreError::LockTimedOut { waited_ms: 50, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("raise the lockTimeoutMs option"));
    drop(holder);
    assert_eq!(s.load().unwrap(), vec![json!({ "id": "a" })]);
}

#[test]
fn a_fifo_store_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.fifo");
    let c_path = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let s = TaskStore::new(path.clone());
    for err in [
        s.load().unwrap_err(),
        s.save(json!({ "id": "a" })).unwrap_err(),
    ] {
        assert!(
            matches!(err, TaskStoreError::NotRegular { kind: "a FIFO", .. }),
            "{err}"
        );
    }
    assert!(!lockfile::sidecar(&path).exists());
}
