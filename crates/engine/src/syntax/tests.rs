use super::*;

fn verdict(name: &str, before: &str, after: &str) -> Verdict {
    check(
        Path::new(name),
        Some(before),
        after,
        DEFAULT_MAX_BYTES,
        None,
    )
}

fn introduced(v: &Verdict) -> &[Problem] {
    match v {
        Verdict::Introduced { problems, .. } => problems,
        other => panic!("expected introduced errors, got {other:?}"),
    }
}

#[test]
fn a_clean_edit_is_clean() {
    let before = "function a() {\n  return 1;\n}\n";
    let after = "function a() {\n  return 2;\n}\n";
    assert_eq!(verdict("a.js", before, after), Verdict::Clean);
}

#[test]
fn an_unclosed_brace_is_reported_as_unbalanced() {
    let before = "function a() {\n  if (x) {\n    go();\n  }\n}\n";
    let after = "function a() {\n  if (x) {\n    go();\n}\n";
    let v = verdict("a.js", before, after);
    let p = introduced(&v);
    assert!(p[0].cause.starts_with("unbalanced braces"), "{p:?}");
}

#[test]
fn an_extra_parenthesis_names_the_line_and_the_cause() {
    let before = "def f(x):\n    return g(x)\n\n\ndef h():\n    pass\n";
    let after = "def f(x):\n    return g(x))\n\n\ndef h():\n    pass\n";
    let v = verdict("m.py", before, after);
    let p = introduced(&v);
    assert_eq!(p[0].line, 2);
    assert_eq!(p[0].snippet, "return g(x))");
    assert!(p[0].cause.contains("1 more `)` than `(`"), "{p:?}");
}

#[test]
fn python_indentation_is_named() {
    let before = "def f(x):\n    y = 1\n    return y\n";
    let after = "def f(x):\n    y = 1\n        return y\n";
    let v = verdict("m.py", before, after);
    let p = introduced(&v);
    assert!(p[0].cause.starts_with("indentation"), "{p:?}");
}

#[test]
fn an_unterminated_string_is_named() {
    let before = "fn main() {\n    let s = \"hi\";\n    println!(\"{s}\");\n}\n";
    let after = "fn main() {\n    let s = \"hi;\n    println!(\"{s}\");\n}\n";
    let v = verdict("m.rs", before, after);
    let p = introduced(&v);
    assert!(p[0].cause.starts_with("unterminated string"), "{p:?}");
}

#[test]
fn errors_that_were_there_before_are_not_reported() {
    let broken = "function a( {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n";
    let edited = broken.replace("return 2", "return 3 + 4");
    assert_eq!(verdict("a.js", broken, &edited), Verdict::Clean);
    let inserted = format!("// a new first line\n{broken}");
    assert_eq!(verdict("a.js", broken, &inserted), Verdict::Clean);
}

#[test]
fn a_new_error_next_to_an_old_one_is_reported() {
    let broken = "function a( {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n";
    let edited = broken.replace("return 2;", "return (2;");
    let v = verdict("a.js", broken, &edited);
    assert_eq!(introduced(&v)[0].line, 6);
}

#[test]
fn a_new_file_reports_all_its_errors() {
    let v = check(
        Path::new("n.go"),
        None,
        "package main\nfunc main() {\n",
        DEFAULT_MAX_BYTES,
        None,
    );
    assert!(matches!(v, Verdict::Introduced { .. }), "{v:?}");
    let v = check(
        Path::new("n.go"),
        None,
        "package main\n",
        DEFAULT_MAX_BYTES,
        None,
    );
    assert_eq!(v, Verdict::Clean);
}

#[test]
fn other_files_are_not_checked() {
    assert_eq!(verdict("notes.txt", "a", "a {"), Verdict::Unchecked);
}

fn big_js(units: usize) -> String {
    (0..units)
        .map(|i| format!("export function f{i}(x) {{\n  if (x > {i}) {{\n    return x * {i};\n  }}\n  return {i};\n}}\n\n"))
        .collect()
}

#[test]
fn a_large_script_is_checked_on_the_edited_pieces() {
    let before = big_js(4000);
    let limit = 2 * before.len();
    let check_js = |after: &str| check(Path::new("big.js"), Some(&before), after, limit, None);
    let good = before.replace("return x * 1500;", "return x * 1501;");
    assert_eq!(check_js(&good), Verdict::Clean);
    let bad = before.replace("return x * 1500;\n  }", "return x * 1500;\n");
    let v = check_js(&bad);
    assert!(
        introduced(&v)[0].cause.starts_with("unbalanced braces"),
        "{v:?}"
    );
}

#[test]
fn a_file_over_the_limit_is_checked_on_the_paragraphs_around_the_edit() {
    let before = big_js(4000);
    assert!(before.len() > DEFAULT_MAX_BYTES);
    let good = before.replace("return x * 1500;", "return x * 1501;");
    assert_eq!(verdict("big.js", &before, &good), Verdict::Clean);
    let bad = before.replace("return x * 1500;\n  }", "return x * 1500;\n");
    let v = verdict("big.js", &before, &bad);
    assert!(
        introduced(&v)[0].cause.starts_with("unbalanced braces"),
        "{v:?}"
    );
    let python: String = (0..8000)
        .map(|i| format!("def f{i}(x):\n    y = x\n    return y * {i}\n\n\n"))
        .collect();
    let bad = python.replace("    return y * 1500\n", "      return y * 1500\n");
    let v = verdict("big.py", &python, &bad);
    assert!(introduced(&v)[0].cause.starts_with("indentation"), "{v:?}");
}

#[test]
fn a_paragraph_cut_inside_a_string_leaves_the_verdict_to_the_whole_file() {
    let before = "const doc = `\nintro\n\nusage: run it\n`;\n\nfunction f() {\n  return doc;\n}\n";
    let after = before.replace("usage: run it", "usage: run it (twice)");
    assert_eq!(verdict("d.js", before, &after), Verdict::Clean);
}

#[test]
fn php_is_checked_whole() {
    // A paragraph of PHP without the file's `<?php` opening parses as HTML, never with an error.
    let before = "<?php\n\nfunction f() {\n  return 1;\n}\n\nfunction g() {\n  return 2;\n}\n";
    let after = before.replace("  return 1;\n}", "  return 1;\n");
    let v = verdict("a.php", before, &after);
    assert!(matches!(v, Verdict::Introduced { .. }), "{v:?}");
}

#[test]
fn every_changed_paragraph_is_checked() {
    let before = big_js(40);
    let after = before
        .replace("return x * 3;", "return x * 33;")
        .replace("return x * 30;", "return (x * 30;");
    let v = verdict("two.js", &before, &after);
    let line = 1 + after[..after.find("(x * 30").unwrap()]
        .matches('\n')
        .count();
    assert_eq!(introduced(&v)[0].line, line, "{v:?}");
}

#[test]
fn a_large_file_without_a_splitter_is_skipped() {
    let before: String = (0..20_000).map(|i| format!("x{i} = {i}\n")).collect();
    let after = before.replacen("x1 = 1", "x1 = (1", 1);
    let v = check(Path::new("big.py"), Some(&before), &after, 64 * 1024, None);
    assert!(matches!(v, Verdict::Skipped { .. }), "{v:?}");
    assert!(v.note("big.py").contains("Syntax check skipped"));
}

#[test]
fn the_cache_supplies_the_old_tree_and_keeps_the_new_one() {
    // Edits whose paragraphs parse clean need no tree; an edit that breaks one is checked whole.
    let cache = ParseCache::new(4);
    let path = Path::new("c.go");
    let v1 = "package a\n\nvar a = 1\n";
    let v2 = "package a\n\nvar a = (2\n";
    let v = check(path, Some(v1), v2, DEFAULT_MAX_BYTES, Some(&cache));
    assert!(matches!(v, Verdict::Introduced { .. }), "{v:?}");
    assert!(cache.cached_tree(path, v2, Language::Go).is_some());
    let v3 = "package a\n\nvar a = (2\n\nvar b = (3\n";
    let v = check(path, Some(v2), v3, DEFAULT_MAX_BYTES, Some(&cache));
    assert!(matches!(v, Verdict::Introduced { total: 1, .. }), "{v:?}");
    assert!(cache.cached_tree(path, v3, Language::Go).is_some());
}

#[test]
fn the_note_and_the_refusal_list_the_problems() {
    let v = verdict("a.js", "f(1);\n", "f(1;\n");
    let note = v.note("src/a.js");
    assert!(
        note.contains("Syntax check: this edit introduced 1 syntax error in src/a.js (javascript)"),
        "{note}"
    );
    assert!(note.contains("- line 1:"), "{note}");
    let refusal = v.refusal("src/a.js").unwrap();
    assert!(refusal.starts_with("the edit was not applied"), "{refusal}");
    assert!(refusal.contains("syntaxCheck"), "{refusal}");
    assert_eq!(Verdict::Clean.note("a.js"), "");
    assert!(Verdict::Clean.refusal("a.js").is_none());
}

#[test]
fn options_parse() {
    assert_eq!(SyntaxCheck::parse("refuse"), Some(SyntaxCheck::Refuse));
    assert_eq!(SyntaxCheck::parse("off"), Some(SyntaxCheck::Off));
    assert_eq!(SyntaxCheck::parse("Warn"), None);
}

#[test]
fn in_a_file_the_grammar_already_fails_on_only_clear_mistakes_are_reported() {
    // `MACRO(x) {` blocks are not C++ to tree-sitter: a new one is not a mistake, a lost brace is.
    let before = "TEST(a) {\n  CHECK(x)\n}\n\nint f() {\n  return 1;\n}\n";
    let added =
        format!("{before}\nint g() {{\n  SECTION(y) {{\n    run()\n  }}\n  return 2;\n}}\n");
    assert_eq!(verdict("t.cpp", before, &added), Verdict::Clean);
    let lost = before.replace("  return 1;\n}", "  return 1;\n");
    let v = verdict("t.cpp", before, &lost);
    assert!(
        introduced(&v)[0].cause.starts_with("unbalanced braces"),
        "{v:?}"
    );
}

#[test]
fn an_error_wrapping_the_edit_points_at_the_edit() {
    let before = big_js(3);
    let after = before.replace("    return x * 1;\n  }", "    return x * 1;\n  }}");
    let v = verdict("w.js", &before, &after);
    let p = introduced(&v);
    let edited = 1 + after[..after.find("}}").unwrap()].matches('\n').count();
    assert!(p.iter().all(|p| p.line >= edited), "{p:?}");
    assert!(p[0].cause.contains("1 more `}` than `{`"), "{p:?}");
}

#[test]
fn an_edit_that_starts_a_member_inside_another_checks_the_one_it_cut() {
    // The new `g30` header splits `f30`, which loses its closing brace: `g30` alone is balanced.
    let members: String = (0..60)
        .map(|i| format!("  public boolean f{i}(int x) {{\n    if (x > 1) {{\n      return true;\n    }}\n\n    if (x > 2) {{\n      return true;\n    }}\n    return false;\n  }}\n\n"))
        .collect();
    let before = format!("public class S {{\n{members}}}\n");
    let at = before.find("f30").unwrap();
    let target = "    if (x > 2) {\n      return true;";
    let cut = at + before[at..].find(target).unwrap();
    let header = "  private boolean g30(int x) {\n    if (x > 3) {\n      return false;";
    let after = format!(
        "{}{header}{}",
        &before[..cut],
        &before[cut + target.len()..]
    );
    let v = verdict("S.java", &before, &after);
    assert!(matches!(v, Verdict::Introduced { .. }), "{v:?}");
    let fine = before.replacen("return true;", "return x > 9;", 31);
    assert_eq!(verdict("S.java", &before, &fine), Verdict::Clean);
}

/// A new file's check started beside a write hands its whole parse to the worker thread (when
/// the worker is idle; other tests may be using it, so a few starts are tried), and its verdict is
/// the one the check gives on the caller's thread.
#[test]
fn a_new_file_is_parsed_beside_the_write_with_the_same_verdict() {
    let cases = [
        ("n.js", "function a() {\n  if (x {\n    go();\n  }\n}\n"),
        ("n.js", "function a() {\n  return 1;\n}\n"),
        (
            "n.py",
            "def f(x):\n    return g(x\n\n\ndef h():\n    pass\n",
        ),
        ("n.py", "def f(x):\n    y = 1\n        return y\n"),
    ];
    for (name, text) in cases {
        let path = Path::new(name);
        let here = check(path, None, text, DEFAULT_MAX_BYTES, None);
        let mut handed = false;
        for _ in 0..200 {
            let pending =
                Pending::start(path, (None, text, KnownEnds::NONE), DEFAULT_MAX_BYTES, None)
                    .unwrap();
            handed = pending.handed();
            assert_eq!(pending.verdict(None, text), here, "{name}: {text}");
            if handed {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(handed, "{name}: the parse never went to the worker");
    }
}

/// A new file whose parse would outlast the write is parsed after it, on the caller's thread.
#[test]
fn a_larger_new_file_is_parsed_after_the_write() {
    let text = big_js(200);
    assert!(text.len() > worker::WHOLE_PARSE_BESIDE_UP_TO);
    let path = Path::new("n.js");
    let pending = Pending::start(
        path,
        (None, &text, KnownEnds::NONE),
        DEFAULT_MAX_BYTES,
        None,
    )
    .unwrap();
    assert!(!pending.handed());
    assert_eq!(pending.verdict(None, &text), Verdict::Clean);
}

/// A new file over `max_bytes` is not parsed at all, beside the write or not.
#[test]
fn a_new_file_over_the_limit_is_skipped_without_a_parse() {
    let text = big_js(400);
    let max_bytes = text.len() - 1;
    let pending = Pending::start(
        Path::new("n.js"),
        (None, &text, KnownEnds::NONE),
        max_bytes,
        None,
    )
    .unwrap();
    assert!(!pending.handed());
    let expected = Verdict::Skipped {
        bytes: text.len(),
        max_bytes,
    };
    assert_eq!(pending.verdict(None, &text), expected);
}
