use super::*;
use crate::tools::ToolOptions;
use crate::tracker::read_tracker::mtime_ms;
use crate::tracker::{FileReadTracker, FileTracker};
use serde_json::json;
use std::sync::Arc;

fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = |rel: &str, content: &[u8]| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    };
    w(".gitignore", b"ignored/\n*.log\n");
    w("src/a.ts", b"one\nneedle a\nthree\n");
    w("src/b.py", b"needle b\n");
    w("ignored/c.ts", b"needle c\n");
    w("debug.log", b"needle log\n");
    w(".hidden/d.ts", b"needle d\n");
    w("bin.dat", b"needle\0binary\n");
    dir
}

fn ctx(dir: &Path) -> ToolContext {
    let options = ToolOptions {
        cwd: Some(dir.to_string_lossy().into_owned()),
        ..ToolOptions::default()
    };
    ToolContext::new(&options, None).unwrap()
}

#[test]
fn honours_gitignore_hidden_and_binary_without_git() {
    let dir = fixture();
    let out = run(&ctx(dir.path()), &json!({ "pattern": "needle" }));
    assert_eq!(out, "src/a.ts:2:needle a\nsrc/b.py:1:needle b");
}

#[test]
fn file_type_and_prefix() {
    let dir = fixture();
    let out = run(
        &ctx(dir.path()),
        &json!({ "pattern": "NEEDLE", "ignoreCase": true, "fileType": "py", "path": "src/" }),
    );
    assert_eq!(out, "src/b.py:1:needle b");
    let out = run(
        &ctx(dir.path()),
        &json!({ "pattern": "needle", "path": "src/a.ts", "context": 1 }),
    );
    assert_eq!(out, "src/a.ts-1-one\nsrc/a.ts:2:needle a\nsrc/a.ts-3-three");
    let out = run(
        &ctx(dir.path()),
        &json!({ "pattern": "needle", "fileType": "dat" }),
    );
    assert!(
        out.starts_with("No matches"),
        "binary skipped even when selected: {out}"
    );
}

#[test]
fn context_separates_files() {
    let dir = fixture();
    let out = run(
        &ctx(dir.path()),
        &json!({ "pattern": "needle", "afterContext": 1 }),
    );
    assert_eq!(
        out,
        "src/a.ts:2:needle a\nsrc/a.ts-3-three\n--\nsrc/b.py:1:needle b"
    );
}

#[test]
fn max_results_stops_early() {
    let dir = fixture();
    let out = run(
        &ctx(dir.path()),
        &json!({ "pattern": "needle", "maxResults": 1 }),
    );
    assert!(
        out.starts_with("src/a.ts:2:needle a\n\n[grep stopped at maxResults=1"),
        "{out}"
    );
}

#[test]
fn errors_name_the_problem() {
    let dir = fixture();
    let c = ctx(dir.path());
    let out = run(&c, &json!({ "pattern": "(" }));
    assert!(
        out.starts_with("Error: invalid regular expression \"(\""),
        "{out}"
    );
    assert!(run(&c, &json!({ "pattern": "x", "path": "/" })).contains("outside allowed"));
    assert!(
        run(&c, &json!({ "pattern": "x", "path": "nope" })).starts_with("Error: path not found")
    );
    assert!(run(&c, &json!({ "pattern": "x", "fileType": "a b" }))
        .starts_with("Error: unknown fileType"));
}

#[test]
fn records_reads_of_returned_files() {
    let dir = fixture();
    let reads = Arc::new(FileReadTracker::new());
    let seen = Arc::new(FileTracker::new(false));
    let options = ToolOptions {
        cwd: Some(dir.path().to_string_lossy().into_owned()),
        ..ToolOptions::default()
    };
    let c = ToolContext::new(&options, Some(seen.clone()))
        .unwrap()
        .with_read_tracker(Some(reads.clone()));
    run(&c, &json!({ "pattern": "needle a" }));
    let a = dir.path().join("src/a.ts");
    assert!(reads.has_been_read(&a));
    assert!(!reads.has_been_read(&dir.path().join("src/b.py")));
    assert_eq!(reads.get_read_time(&a), mtime_ms(&a));
    assert!(seen.is_file_seen(&a));
}

#[test]
fn many_files_keep_walk_order_and_exact_limits() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..600 {
        let sub = dir.path().join(format!("d{}", i % 7));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(format!("f{i:03}.txt")), "hit one\nmiss\nhit two\n").unwrap();
    }
    let c = ctx(dir.path());
    let all = run(&c, &json!({ "pattern": "hit" }));
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 1200);
    let mut sorted = lines.clone();
    sorted.sort_by_key(|l| {
        (
            l[..2].to_string(),
            l[3..7].to_string(),
            l.split(':').nth(1).unwrap().to_string(),
        )
    });
    assert_eq!(lines, sorted, "path order, lines in file order");
    let limited = run(&c, &json!({ "pattern": "hit", "maxResults": 301 }));
    let (body, note) = limited.split_once("\n\n").unwrap();
    assert_eq!(body.lines().count(), 301);
    assert_eq!(body.lines().collect::<Vec<_>>(), lines[..301].to_vec());
    assert!(note.contains("maxResults=301"));
}

/// Protected files are never shown: the walk skips them and a protected `path` is refused.
#[test]
fn protected_paths_are_neither_walked_nor_searched() {
    let dir = fixture();
    std::fs::write(dir.path().join(".env"), "needle secret\n").unwrap();
    std::fs::create_dir_all(dir.path().join("secrets")).unwrap();
    std::fs::write(dir.path().join("secrets/key.ts"), "needle key\n").unwrap();
    let options = ToolOptions {
        cwd: Some(dir.path().to_string_lossy().into_owned()),
        protected_paths: vec!["secrets/**".into(), "src/b.py".into(), ".env".into()],
        ..ToolOptions::default()
    };
    let c = ToolContext::new(&options, None).unwrap();
    assert_eq!(
        run(&c, &json!({ "pattern": "needle" })),
        "src/a.ts:2:needle a"
    );
    let refused = run(
        &c,
        &json!({ "pattern": "needle", "path": "secrets/key.ts" }),
    );
    assert!(
        refused.starts_with("Error:") && refused.contains("protected"),
        "{refused}"
    );
    let refused = run(&c, &json!({ "pattern": "needle", "path": "SRC/B.PY" }));
    assert!(refused.starts_with("Error:"), "{refused}");
}

/// A folder swapped for a symlink after the walk is not searched through.
#[test]
fn search_one_does_not_follow_a_swapped_in_symlink() {
    let dir = fixture();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("a.ts"), "needle outside\n").unwrap();
    let request = params::parse(&json!({ "pattern": "needle" })).unwrap();
    let matcher = build_matcher(&request).unwrap();
    let c = ctx(dir.path());
    let root = resolve_root(&c, &request).unwrap();
    let job = file::Job::new(&c, &request, &matcher, &root);
    let mut searcher = job.searcher();
    let walked = root.path.real.join("src/a.ts");
    assert!(job.search(&mut searcher, &walked).is_some());
    std::fs::remove_dir_all(dir.path().join("src")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("src")).unwrap();
    assert!(job.search(&mut searcher, &walked).is_none());
}

/// A hard link in the workspace to another user's file is not searched (the rule `view` applies);
/// the user's own linked files (package stores) are.
#[test]
fn a_hard_link_to_another_users_file_is_not_searched() {
    let dir = tempfile::tempdir().unwrap();
    let links = crate::fs::textfile::hard_links_to_foreign_and_own(
        dir.path(),
        "needle secret\n",
        "needle mine\n",
    );
    let Some(_outside) = links else {
        return; // giving a file to another user needs root
    };
    let c = ctx(dir.path());
    assert_eq!(
        run(&c, &json!({ "pattern": "needle" })),
        "own.txt:1:needle mine"
    );
    let out = run(&c, &json!({ "pattern": "needle", "path": "link.txt" }));
    assert!(!out.contains("secret"), "{out}");
    assert_eq!(
        run(&c, &json!({ "pattern": "needle", "path": "own.txt" })),
        "own.txt:1:needle mine"
    );
}
