use super::*;

#[test]
fn content_hash_matches_node() {
    // node -e "console.log(require('crypto').createHash('sha256').update('a\nb').digest('hex').slice(0,16))"
    assert_eq!(compute_content_hash("a\nb"), "7e18f737311b2dc3");
    assert_eq!(compute_content_hash("a  \nb\t\r\n"), "911169ddaaf146af");
    assert_eq!(compute_content_hash(""), "e3b0c44298fc1c14");
    // JS trimEnd strips U+FEFF, U+3000, U+00A0, U+2028 but not U+0085.
    assert_eq!(
        compute_content_hash("x\u{85}\ny\u{FEFF}\u{3000} \n\u{a0}z\u{2028}"),
        "fb8c05d58561107e"
    );
    assert_eq!(
        compute_content_hash("a\nb"),
        compute_content_hash("a \nb\t")
    );
}

#[test]
fn normalize_path_is_node_resolve() {
    assert_eq!(
        normalize_path(Path::new("/a/./b/../c//d/")),
        PathBuf::from("/a/c/d")
    );
    assert_eq!(normalize_path(Path::new("/../x")), PathBuf::from("/x"));
    assert_eq!(
        normalize_path(Path::new("rel/x")),
        std::env::current_dir().unwrap().join("rel/x")
    );
    assert_eq!(normalize_path(Path::new("")), PathBuf::new());
}

#[test]
fn seen_files_and_untracked_message() {
    let t = FileTracker::default();
    assert_eq!(t.max_consecutive_text_edits(), 3);
    let c = t.check_before_edit(Path::new("/w/a.js"));
    assert!(!c.ok);
    assert_eq!(c.reason.as_deref(), Some("untracked"));
    assert_eq!(
        c.message.as_deref(),
        Some("This file has not been read yet in this session. Use extract or search to read the file first.")
    );
    t.mark_file_seen(Path::new("/w/x/../a.js"));
    assert!(t.is_file_seen(Path::new("/w//a.js")));
    assert!(t.is_tracked(Path::new("/w/a.js")));
    assert_eq!(
        t.check_before_edit(Path::new("/w/a.js")),
        Check {
            ok: true,
            ..Check::default()
        }
    );
    t.clear();
    assert!(!t.is_file_seen(Path::new("/w/a.js")));
}

#[test]
fn symbol_records_and_stale_message() {
    let t = FileTracker::new(false);
    let f = Path::new("/w/a.js");
    assert!(
        t.check_symbol_content(f, "fn", "anything").ok,
        "no record -> ok"
    );
    t.track_symbol_content(f, "fn", "function fn() {}  ", 3, 5, "extract");
    let r = t.get_symbol_record(Path::new("/w/./a.js"), "fn").unwrap();
    assert_eq!(
        (r.start_line, r.end_line, r.source.as_str()),
        (3, 5, "extract")
    );
    assert_eq!(r.symbol_name.as_deref(), Some("fn"));
    assert_eq!(r.content_hash, compute_content_hash("function fn() {}"));
    assert!(r.timestamp > 1.6e12);
    assert!(t.check_symbol_content(f, "fn", "function fn() {}\t").ok);
    let c = t.check_symbol_content(f, "fn", "function fn() { x }");
    assert!(!c.ok);
    assert_eq!(c.reason.as_deref(), Some("stale"));
    let expected = format!(
        "Symbol \"fn\" has changed since you last read it (hash: {} \u{2192} {}).",
        r.content_hash,
        compute_content_hash("function fn() { x }")
    );
    assert_eq!(c.message.as_deref(), Some(expected.as_str()));
    t.track_symbol_after_write(f, "fn", "new", 3, 3);
    assert_eq!(t.get_symbol_record(f, "fn").unwrap().source, "edit");
}

#[test]
fn invalidate_uses_probes_prefix_rule() {
    let t = FileTracker::new(false);
    t.track_symbol_content(Path::new("/w/a.js"), "f", "x", 1, 1, "extract");
    t.track_symbol_content(Path::new("/w/a.js#b"), "g", "x", 1, 1, "extract");
    t.track_symbol_content(Path::new("/w/a.jsx"), "h", "x", 1, 1, "extract");
    t.track_file_after_write(Path::new("/w/a.js"));
    assert!(t.is_file_seen(Path::new("/w/a.js")));
    assert!(t.get_symbol_record(Path::new("/w/a.js"), "f").is_none());
    assert!(
        t.get_symbol_record(Path::new("/w/a.js#b"), "g").is_none(),
        "same key prefix as Probe"
    );
    assert!(t.get_symbol_record(Path::new("/w/a.jsx"), "h").is_some());
}

#[test]
fn text_edit_counts_and_staleness() {
    let t = FileTracker::new(false);
    let f = Path::new("/w/a.js");
    assert_eq!(
        t.check_text_edit_staleness(f),
        Check {
            ok: true,
            edit_count: Some(0),
            ..Check::default()
        }
    );
    for _ in 0..3 {
        t.record_text_edit(f);
    }
    let c = t.check_text_edit_staleness(f);
    assert!(!c.ok);
    assert_eq!(c.edit_count, Some(3));
    assert_eq!(c.reason, None);
    assert_eq!(c.message.as_deref(), Some("This file has been edited 3 times without being re-read. Use 'extract' to re-read the current file content before making more edits, to ensure you are working with the actual state of the file."));
    t.set_max_consecutive_text_edits(5);
    assert!(t.check_text_edit_staleness(f).ok);
    t.track_file_after_write(f);
    assert_eq!(
        t.check_text_edit_staleness(f).edit_count,
        Some(3),
        "write does not reset"
    );
    t.mark_file_seen(f);
    assert_eq!(
        t.check_text_edit_staleness(f).edit_count,
        Some(0),
        "read resets"
    );
}

#[test]
fn extract_targets() {
    assert_eq!(split_extract_target("a.js#fn"), ("a.js", Some("fn")));
    assert_eq!(split_extract_target("a.js#"), ("a.js", None));
    assert_eq!(split_extract_target("a.js#A.b:1"), ("a.js", Some("A.b:1")));
    assert_eq!(split_extract_target("a.js:10-20"), ("a.js", None));
    assert_eq!(split_extract_target("a.js:10"), ("a.js", None));
    assert_eq!(split_extract_target("a.js:10-"), ("a.js:10-", None));
    assert_eq!(split_extract_target("a.js:x"), ("a.js:x", None));
    assert_eq!(split_extract_target("C:\\a.js"), ("C:\\a.js", None));
    assert_eq!(split_extract_target("a:1:2"), ("a:1", None));
    assert_eq!(
        split_extract_target("a.js:\u{661}"),
        ("a.js:\u{661}", None),
        "JS \\d is ASCII"
    );
}

#[test]
fn output_parsing_matches_js_regex() {
    // Expected values produced by Probe's parseFilePathsFromOutput under Node 20.
    let cases: &[(&str, &[&str])] = &[
        (
            "File: src/a.js\nsome\n--- src/b.rs ---\n",
            &["src/a.js", "src/b.rs"],
        ),
        ("--- a\n---", &[]),
        ("--- a.js\n---\n", &["a.js"]),
        ("File:\n\nfoo.js\n", &["foo.js"]),
        ("File: foo   \n--- bar.js", &["bar.js"]),
        (
            "File: a b.js  ---   \r\n--- c\\d ---\rFile: e.f\u{2028}--- g/h ---\u{2029}x",
            &["a b.js  ---", "c\\d", "e.f", "g/h"],
        ),
        (
            "Results: 3 found.\n--- Page 2 ---\nFile: noext\nFile: ./x\n",
            &["./x"],
        ),
        (
            "  File: indented.js\nFile:x.js\n----- y.js\n--- y.js ----\n--- z.js --- \n",
            &["y.js ----", "z.js ---"],
        ),
        (
            "--- \u{a0}a.js\u{85} ---\n--- b.js\u{feff}---\n",
            &["a.js\u{85}", "b.js"],
        ),
        ("File: a.js --- b.js ---\n", &["a.js --- b.js"]),
    ];
    for (input, expected) in cases {
        assert_eq!(parse_file_paths_from_output(input), *expected, "{input:?}");
    }
}

#[test]
fn output_parsing_is_linear_on_pathological_input() {
    let mut s = String::from("--- a");
    s.push_str(&" ".repeat(200_000));
    s.push('x');
    let t = std::time::Instant::now();
    assert!(parse_file_paths_from_output(&s).is_empty());
    assert!(t.elapsed() < std::time::Duration::from_secs(2));
}

#[test]
fn tracking_from_output_and_extract() {
    let t = FileTracker::new(false);
    t.track_files_from_output("File: src/a.js\n--- /abs/b.rs ---\n", Path::new("/w"));
    assert!(t.is_file_seen(Path::new("/w/src/a.js")));
    assert!(t.is_file_seen(Path::new("/abs/b.rs")));
    let targets = vec![
        "src/c.js#fn".to_string(),
        "src/c.js:1-2".to_string(),
        "d.js#missing".to_string(),
    ];
    let mut calls = Vec::new();
    t.track_files_from_extract(&targets, Path::new("/w"), |p, s| {
        calls.push((p.to_path_buf(), s.to_string()));
        (s == "fn").then(|| ("code".to_string(), 1, 2))
    });
    assert_eq!(calls.len(), 2);
    assert!(t.is_file_seen(Path::new("/w/src/c.js")) && t.is_file_seen(Path::new("/w/d.js")));
    assert_eq!(
        t.get_symbol_record(Path::new("/w/src/c.js"), "fn")
            .unwrap()
            .content_hash,
        compute_content_hash("code")
    );
}

#[test]
fn tracker_is_shareable_across_threads() {
    let t = std::sync::Arc::new(FileTracker::new(false));
    let hs: Vec<_> = (0..4)
        .map(|i| {
            let t = t.clone();
            std::thread::spawn(move || {
                for j in 0..100 {
                    let p = PathBuf::from(format!("/w/{i}/{j}.js"));
                    t.mark_file_seen(&p);
                    t.record_text_edit(&p);
                }
            })
        })
        .collect();
    for h in hs {
        h.join().unwrap();
    }
    assert!(t.is_file_seen(Path::new("/w/3/99.js")));
}
