//! The store's format version: stores without one (written before it was recorded) are read,
//! unknown fields are ignored, a newer major version is refused rather than misread.
use super::*;

fn open(dir: &Path) -> HistoryStore {
    HistoryStore::open(dir).unwrap()
}

/// A store as the engine wrote it before the version was recorded (no `format.json`) keeps its
/// levels, and records the version once opened.
#[test]
fn a_store_without_a_format_version_is_read() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("h");
    let file = Path::new("/w/a.txt");
    open(&dir).record(file, b"before", "edit").unwrap();
    let _ = std::fs::remove_file(dir.join("format.json"));
    let s = open(&dir);
    assert_eq!(s.newest(file).unwrap().unwrap().content, b"before");
    let format = std::fs::read_to_string(dir.join("format.json")).unwrap();
    assert!(format.contains("\"version\":\"1."), "{format}");
}

/// Fields a later minor version may add (in the format file, a level, a transaction record)
/// are ignored.
#[test]
fn unknown_fields_are_ignored() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("h");
    let file = Path::new("/w/a.txt");
    let s = open(&dir);
    let id = new_txn_id();
    let member = Member {
        path: file,
        write: Write {
            previous: b"before",
            written: Some(b"after"),
            tool: "patch",
            txn: None,
        },
        deleted: false,
        created: false,
    };
    s.record_txn(
        &id,
        &[
            member,
            Member {
                path: Path::new("/w/b.txt"),
                ..member
            },
        ],
    )
    .unwrap();
    drop(s);
    std::fs::write(
        dir.join("format.json"),
        r#"{"version":"1.7","compression":"zstd"}"#,
    )
    .unwrap();
    let add_field = |path: PathBuf, from: &str, to: &str| {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{text}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    for e in std::fs::read_dir(dir.join("index")).unwrap().flatten() {
        add_field(e.path(), "\"tool\":", "\"origin\":\"mcp\",\"tool\":");
    }
    add_field(
        dir.join("txns").join(format!("{id}.json")),
        "\"undone\"",
        "\"host\":1,\"undone\"",
    );
    let s = open(&dir);
    assert_eq!(s.newest(file).unwrap().unwrap().content, b"before");
    assert_eq!(s.txn_record(&id).unwrap().unwrap().members.len(), 2);
}

/// A store of a newer major version is refused with a message saying so, and left unchanged.
#[test]
fn a_newer_major_version_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("h");
    open(&dir)
        .record(Path::new("/w/a.txt"), b"x", "edit")
        .unwrap();
    for found in [r#"{"version":"2.0"}"#, "not json"] {
        std::fs::write(dir.join("format.json"), found).unwrap();
        let error = HistoryStore::open(&dir).unwrap_err().to_string();
        assert!(
            error.contains("newer than this edit-engine reads"),
            "{error}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("format.json")).unwrap(),
            found
        );
    }
}

/// Processes and tools opening a new store at once: whichever records the format first, every
/// opener reads the store (one that found no file, then found it written, is not refused).
#[test]
fn a_store_opened_by_many_at_once_is_read_by_all() {
    for _ in 0..200 {
        let dir = tempfile::tempdir().unwrap();
        let start = std::sync::Arc::new(std::sync::Barrier::new(4));
        let openers: Vec<_> = (0..4)
            .map(|_| {
                let (dir, start) = (dir.path().to_path_buf(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    HistoryStore::open(dir).map(drop)
                })
            })
            .collect();
        for opener in openers {
            let opened = opener.join().unwrap();
            assert!(opened.is_ok(), "{opened:?}");
        }
    }
}
