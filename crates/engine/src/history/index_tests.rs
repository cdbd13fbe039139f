use super::*;
use crate::history::tests::store;

thread_local! {
    /// Index logs this thread has read (not answered from the kept parses).
    pub(super) static LOGS_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A level recorded on each of a thousand files, then another on each, reads no log again: the
/// kept parses hold every one of them.
#[test]
fn the_logs_of_a_thousand_files_stay_parsed() {
    let (_d, s) = store();
    let files: Vec<std::path::PathBuf> = (0..1000)
        .map(|i| std::path::PathBuf::from(format!("/w/f{i}.js")))
        .collect();
    for round in 0..3 {
        for f in &files {
            s.record(f, format!("v{round}").as_bytes(), "edit").unwrap();
        }
    }
    let before = LOGS_READ.with(|n| n.get());
    for f in &files {
        s.record(f, b"v3", "edit").unwrap();
    }
    assert_eq!(LOGS_READ.with(|n| n.get()), before, "a log was read again");
    assert_eq!(s.levels(&files[0]).unwrap().len(), 4);
}

fn parsed(entries: usize) -> ParsedLog {
    let entry = HistoryEntry {
        blake3: "a".repeat(64),
        written: None,
        txn: None,
        deleted: false,
        size: 1,
        timestamp: 1,
        tool: "edit".into(),
        session: None,
    };
    ParsedLog {
        len: 0,
        hash: blake3::Hasher::new(),
        stat: None,
        path: "/w/a".into(),
        entries: vec![entry; entries],
        lines: entries,
    }
}

/// The kept parses stay within their budget: a log that does not fit with the others pushes
/// them out, and the size counted is the size of what is kept.
#[test]
fn the_kept_parses_stay_within_their_budget() {
    let mut kept = ParsedLogs::default();
    let key = |n: u32| (std::path::PathBuf::from("/s"), format!("{n}.log"));
    kept.insert(key(1), parsed(10));
    kept.insert(key(2), parsed(10));
    assert_eq!(kept.logs.len(), 2);
    let per_entry = parsed(1).size() - parsed(0).size();
    let fill = (PARSED_LOGS_BUDGET - parsed(0).size()) / per_entry - 5;
    kept.insert(key(3), parsed(fill));
    assert!(kept.size <= PARSED_LOGS_BUDGET, "{} kept", kept.size);
    assert!(kept.logs.contains_key(&key(3)));
    assert!(kept.logs.len() < 3, "nothing was pushed out");
    let counted: usize = kept.logs.values().map(ParsedLog::size).sum();
    assert_eq!(kept.size, counted);
    kept.insert(key(3), parsed(1));
    kept.remove(&key(1));
    let counted: usize = kept.logs.values().map(ParsedLog::size).sum();
    assert_eq!(kept.size, counted);
}
