//! Parsers and locators, from the documented behaviour of the formats (own data).

use super::apply::apply_hunks;
use super::seek::{seek, Miss, Pass, Query};
use super::*;

fn v4a_update(text: &str, patch: &str) -> Result<String, PatchError> {
    let ops = v4a::parse(patch)?;
    match &ops[0] {
        FileOp::Update {
            hunks, placement, ..
        } => apply_hunks(text, hunks, *placement, "f.txt").map(|a| a.text),
        other => panic!("not an update: {other:?}"),
    }
}

/// A V4A patch that updates `f.txt` with `hunks` (each line ending in a newline).
fn update_f_txt(hunks: &str) -> String {
    format!("*** Begin Patch\n*** Update File: f.txt\n{hunks}*** End Patch")
}

fn diff_update(text: &str, diff: &str) -> Result<String, PatchError> {
    apply_to_text(text, &parse_diff(diff, Some("f.txt"))?).map(|a| a.text)
}

#[test]
fn v4a_parses_every_kind_of_section() {
    let patch = "*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Delete File: old.txt\n*** Update File: src/a.py\n*** Move to: src/b.py\n@@ def f():\n-    x = 1\n+    x = 2\n*** End Patch\n";
    let ops = v4a::parse(patch).unwrap();
    assert_eq!(ops.len(), 3);
    assert_eq!(
        ops[0],
        FileOp::Add {
            path: "new.txt".into(),
            content: "one\ntwo\n".into()
        }
    );
    assert_eq!(
        ops[1],
        FileOp::Delete {
            path: "old.txt".into()
        }
    );
    let FileOp::Update {
        path,
        move_to,
        hunks,
        ..
    } = &ops[2]
    else {
        panic!()
    };
    assert_eq!(
        (path.as_str(), move_to.as_deref()),
        ("src/a.py", Some("src/b.py"))
    );
    assert_eq!(hunks[0].anchors, vec!["def f():".to_string()]);
    assert_eq!(hunks[0].old_lines(), vec!["    x = 1"]);
}

#[test]
fn v4a_requires_the_envelope() {
    let err = v4a::parse("*** Update File: a\n-x\n+y\n*** End Patch").unwrap_err();
    assert!(
        err.message.contains("first line must be '*** Begin Patch'"),
        "{err}"
    );
    let err = v4a::parse("*** Begin Patch\n*** Update File: a\n-x\n+y\n").unwrap_err();
    assert!(
        err.message.contains("last line must be '*** End Patch'"),
        "{err}"
    );
}

#[test]
fn v4a_accepts_a_heredoc_wrapper_and_surrounding_whitespace() {
    let patch =
        "<<'EOF'\n  *** Begin Patch\n*** Update File: f.txt\n-a\n+b\n*** End Patch  \nEOF\n";
    assert_eq!(v4a_update("a\n", patch).unwrap(), "b\n");
}

#[test]
fn v4a_rejects_a_bad_header_and_an_unprefixed_line() {
    let err = v4a::parse("*** Begin Patch\n*** Frobnicate: a\n*** End Patch").unwrap_err();
    assert!(err.message.contains("is not a file header"), "{err}");
    let err =
        v4a::parse("*** Begin Patch\n*** Update File: a\n@@\nbad line\n*** End Patch").unwrap_err();
    assert!(err.message.contains("does not start with ' '"), "{err}");
}

#[test]
fn v4a_empty_update_is_refused() {
    let err = v4a::parse("*** Begin Patch\n*** Update File: a\n*** End Patch").unwrap_err();
    assert!(err.message.contains("has no hunks"), "{err}");
}

#[test]
fn v4a_hunks_apply_in_order_with_first_hunk_without_anchor() {
    let text = "a\nb\nc\nd\ne\n";
    let patch = update_f_txt(" a\n-b\n+B\n@@\n d\n-e\n+E\n");
    assert_eq!(v4a_update(text, &patch).unwrap(), "a\nB\nc\nd\nE\n");
}

#[test]
fn v4a_nested_anchors_pick_the_method_of_the_right_class() {
    let text = "class A:\n    def run(self):\n        return 1\nclass B:\n    def run(self):\n        return 1\n";
    let patch =
        update_f_txt("@@ class B:\n@@     def run(self):\n-        return 1\n+        return 2\n");
    let out = v4a_update(text, &patch).unwrap();
    assert_eq!(
        out,
        "class A:\n    def run(self):\n        return 1\nclass B:\n    def run(self):\n        return 2\n"
    );
    let without_anchors = patch.replace("@@ class B:\n@@     def run(self):\n", "");
    let first = v4a_update(text, &without_anchors).unwrap();
    assert!(first.starts_with("class A:\n    def run(self):\n        return 2\n"));
    assert!(out.starts_with("class A:\n    def run(self):\n        return 1\n"));
}

#[test]
fn v4a_missing_anchor_names_the_hunk_and_what_to_resend() {
    let text = "fn alpha() {}\nfn beta() {}\n";
    let patch = update_f_txt("@@ fn gamma() {}\n-x\n+y\n");
    let err = v4a_update(text, &patch).unwrap_err();
    assert!(err.message.contains("Hunk 1 of 1 for f.txt"), "{err}");
    assert!(err.message.contains("\"fn gamma() {}\""), "{err}");
    assert!(err.message.contains("resend"), "{err}");
}

#[test]
fn v4a_end_of_file_prefers_the_last_occurrence() {
    let text = "x\nend\nx\nend\n";
    let patch = update_f_txt(" x\n-end\n+END\n*** End of File\n");
    assert_eq!(v4a_update(text, &patch).unwrap(), "x\nend\nx\nEND\n");
}

#[test]
fn v4a_pure_addition_goes_to_the_end_or_after_its_anchor() {
    let text = "one\ntwo\n";
    let at_end = update_f_txt("+three\n");
    assert_eq!(v4a_update(text, &at_end).unwrap(), "one\ntwo\nthree\n");
    let after = update_f_txt("@@ one\n+one and a half\n");
    assert_eq!(
        v4a_update(text, &after).unwrap(),
        "one\none and a half\ntwo\n"
    );
}

#[test]
fn seek_passes_go_from_exact_to_punctuation() {
    let lines = [
        "let a = 1;   ",
        "    let b = 2;",
        "say(\u{201C}hi\u{201D}) \u{2014} ok",
    ];
    let q = |p: &'static [&'static str]| Query {
        pattern: p,
        from: 0,
        end_of_file: false,
        placement: Placement::InOrder,
        hint: None,
        drift: 0,
        after: 0,
    };
    assert_eq!(
        seek(&lines, &q(&["let a = 1;   "])).unwrap().pass,
        Pass::Exact
    );
    assert_eq!(
        seek(&lines, &q(&["let a = 1;"])).unwrap().pass,
        Pass::TrailingWhitespace
    );
    assert_eq!(
        seek(&lines, &q(&["let b = 2;"])).unwrap().pass,
        Pass::SurroundingWhitespace
    );
    let found = seek(&lines, &q(&["say(\"hi\") - ok"])).unwrap();
    assert_eq!((found.start, found.pass), (2, Pass::Punctuation));
    assert_eq!(seek(&lines, &q(&["absent"])), Err(Miss::NotFound));
}

#[test]
fn seek_pattern_longer_than_file_is_not_found() {
    let q = Query {
        pattern: &["a", "b", "c"],
        from: 0,
        end_of_file: false,
        placement: Placement::Unique,
        hint: None,
        drift: 0,
        after: 0,
    };
    assert_eq!(seek(&["a"], &q), Err(Miss::NotFound));
}

#[test]
fn unique_placement_uses_the_hint_only_to_break_ties() {
    let lines = ["x", "a", "x", "b", "x"];
    let mut q = Query {
        pattern: &["x"],
        from: 0,
        end_of_file: false,
        placement: Placement::Unique,
        hint: None,
        drift: 0,
        after: 0,
    };
    assert_eq!(seek(&lines, &q), Err(Miss::Ambiguous(vec![0, 2, 4])));
    q.hint = Some(3);
    assert_eq!(
        seek(&lines, &q),
        Err(Miss::Ambiguous(vec![0, 2, 4])),
        "equally near: refused"
    );
    q.hint = Some(2);
    assert_eq!(seek(&lines, &q).unwrap().start, 2);
    q.pattern = &["a"];
    q.hint = Some(4);
    assert_eq!(seek(&lines, &q).unwrap().start, 1);
}

#[test]
fn indentation_is_fitted_when_the_hunk_matched_ignoring_it() {
    let text = "fn main() {\n\tif ok {\n\t\trun();\n\t}\n}\n";
    let patch = update_f_txt(" if ok {\n-    run();\n+    run();\n+    stop();\n }\n");
    assert_eq!(
        v4a_update(text, &patch).unwrap(),
        "fn main() {\n\tif ok {\n\t\trun();\n\t\tstop();\n\t}\n}\n"
    );
}

#[test]
fn context_lines_keep_the_file_text() {
    let text = "a   \nb\n";
    let patch = update_f_txt(" a\n-b\n+c\n");
    assert_eq!(v4a_update(text, &patch).unwrap(), "a   \nc\n");
}

#[test]
fn final_newline_state_is_kept() {
    let patch = update_f_txt("-b\n+c\n");
    assert_eq!(v4a_update("a\nb", &patch).unwrap(), "a\nc");
    assert_eq!(v4a_update("a\nb\n", &patch).unwrap(), "a\nc\n");
}

#[test]
fn unified_diff_with_headers_and_several_files() {
    let diff = "diff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n--- a/y.txt\n+++ b/y.txt\n@@ -3 +3 @@\n-z\n+Z\n";
    let ops = unified::parse(diff, None).unwrap();
    assert_eq!(ops.len(), 2);
    assert_eq!(ops[0].path(), "x.txt");
    assert_eq!(ops[1].path(), "y.txt");
    let FileOp::Update { hunks, .. } = &ops[1] else {
        panic!()
    };
    assert_eq!(hunks[0].line_hint, Some(3));
}

#[test]
fn unified_dev_null_adds_and_deletes() {
    let diff = "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n";
    let ops = unified::parse(diff, None).unwrap();
    assert_eq!(
        ops[0],
        FileOp::Add {
            path: "new.txt".into(),
            content: "hello\nworld\n".into()
        }
    );
    assert_eq!(
        ops[1],
        FileOp::Delete {
            path: "gone.txt".into()
        }
    );
}

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn unified_line_numbers_are_hints_only() {
    let text = numbered(100);
    for header in [
        "@@ -50,3 +50,3 @@",
        "@@ -80,3 +80,3 @@",
        "@@ -20,3 +20,3 @@",
        "@@",
        "@@ @@",
    ] {
        let diff = format!("{header}\n line 49\n-line 50\n+LINE 50\n line 51\n");
        let out = diff_update(&text, &diff).unwrap();
        assert_eq!(out, text.replace("line 50\n", "LINE 50\n"), "{header}");
    }
}

#[test]
fn unified_repeated_context_uses_the_nearest_line_number() {
    let text = "x\nsame\nx\nsame\nx\nsame\n";
    let diff = "@@ -4,1 +4,1 @@\n-same\n+SAME\n";
    assert_eq!(
        diff_update(text, diff).unwrap(),
        "x\nsame\nx\nSAME\nx\nsame\n"
    );
    let err = diff_update(text, "@@\n-same\n+SAME\n").unwrap_err();
    assert!(err.message.contains("occur 3 times"), "{err}");
}

#[test]
fn unified_failed_hunk_shows_the_closest_region() {
    let text = "fn one() {\n    let total = compute(1, 2);\n    total\n}\n";
    let diff = "@@ -1,3 +1,3 @@\n fn one() {\n-    let total = compute(1, 3);\n+    let total = compute(1, 4);\n";
    let err = diff_update(text, diff).unwrap_err();
    assert!(
        err.message.contains("Hunk 1 of 1 for f.txt failed"),
        "{err}"
    );
    assert!(err.message.contains("closest region is lines 1-2"), "{err}");
    assert!(err.message.contains("compute(1, 2)"), "{err}");
}

#[test]
fn unified_overlapping_hunks_are_refused() {
    let text = "a\nb\nc\n";
    let diff = "@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n";
    let err = diff_update(text, diff).unwrap_err();
    assert!(err.message.contains("change the same lines"), "{err}");
}

#[test]
fn search_replace_with_filename_line_and_fences() {
    let diff = "src/app.py\n```python\n<<<<<<< SEARCH\ndef f():\n    return 1\n=======\ndef f():\n    return 2\n>>>>>>> REPLACE\n```\n";
    let ops = search_replace::parse(diff, None).unwrap();
    assert_eq!(ops[0].path(), "src/app.py");
    let out = apply_to_text("x = 0\ndef f():\n    return 1\n", &ops)
        .unwrap()
        .text;
    assert_eq!(out, "x = 0\ndef f():\n    return 2\n");
}

#[test]
fn search_replace_blocks_apply_in_sequence() {
    let diff = "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n";
    assert_eq!(diff_update("a\n", diff).unwrap(), "c\n");
}

#[test]
fn search_replace_start_line_breaks_ties() {
    let diff = "<<<<<<< SEARCH\n:start_line:3\n-------\nv = 1\n=======\nv = 9\n>>>>>>> REPLACE\n";
    assert_eq!(
        diff_update("v = 1\nw\nv = 1\n", diff).unwrap(),
        "v = 1\nw\nv = 9\n"
    );
}

#[test]
fn search_replace_without_a_file_or_unclosed_is_refused() {
    let block = "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n";
    assert!(search_replace::parse(block, None)
        .unwrap_err()
        .message
        .contains("names no file"));
    let open = "<<<<<<< SEARCH\na\n=======\nb\n";
    assert!(search_replace::parse(open, Some("f"))
        .unwrap_err()
        .message
        .contains("not closed"));
}

#[test]
fn crlf_and_bom_survive_a_text_patch() {
    let text = "\u{feff}a\r\nb\r\n";
    let out = diff_update(text, "@@\n a\n-b\n+c\n").unwrap();
    assert_eq!(out, "\u{feff}a\r\nc\r\n");
}

#[test]
fn neither_format_is_explained() {
    let err = parse_diff("just some words", None).unwrap_err();
    assert!(err.message.contains("neither a unified diff"), "{err}");
}

#[test]
fn v4a_context_lines_may_hold_stars_and_indented_headers_end_a_section() {
    let text = "/**\n *** notes ***\n */\nx = 1\n";
    let patch = "*** Begin Patch\n*** Update File: f.txt\n  *** notes ***\n  */\n-x = 1\n+x = 2\n  *** Update File: g.txt\n-a\n+b\n*** End Patch";
    let ops = v4a::parse(patch).unwrap();
    assert_eq!(ops.len(), 2);
    assert_eq!(ops[1].path(), "g.txt");
    let FileOp::Update { hunks, .. } = &ops[0] else {
        panic!()
    };
    let out = apply_hunks(text, hunks, Placement::InOrder, "f.txt")
        .unwrap()
        .text;
    assert_eq!(out, "/**\n *** notes ***\n */\nx = 2\n");
}

/// Lines "line 1" .. "line n" with `dup` at each of the given 1-based lines.
fn with_duplicates(n: usize, dup: &str, at: &[usize]) -> String {
    (1..=n)
        .map(|i| {
            if at.contains(&i) {
                format!("{dup}\n")
            } else {
                format!("line {i}\n")
            }
        })
        .collect()
}

#[test]
fn unified_number_near_one_occurrence_picks_it_far_or_between_is_refused() {
    let text = with_duplicates(40, "same", &[10, 30]);
    // Off by 3 from the copy at line 30, 17 from the one at 10: the stated line chooses.
    let near = diff_update(&text, "@@ -27,1 +27,1 @@\n-same\n+SAME\n").unwrap();
    assert_eq!(
        near,
        with_duplicates(40, "same", &[10]).replace("line 30\n", "SAME\n")
    );
    // 15 lines from the nearest copy (more than 10), or 8 and 12 lines from the two (not twice as
    // near): refused.
    for header in ["@@ -45,1 +45,1 @@", "@@ -22,1 +22,1 @@"] {
        let err = diff_update(&text, &format!("{header}\n-same\n+SAME\n")).unwrap_err();
        let listed = err.message.contains("occur 2 times (at lines 10, 30)");
        assert!(listed, "{header}: {err}");
    }
    let exact = diff_update(&text, "@@ -10,1 +10,1 @@\n-same\n+SAME\n").unwrap();
    assert_eq!(exact, text.replacen("same", "SAME", 1));
}

#[test]
fn unified_stated_line_picks_the_clearly_nearer_of_two_matches() {
    let text = "a\nx\ny\nb\nc\nx\ny\nd\n";
    let diff = "--- a/f.txt\n+++ b/f.txt\n@@ -7,2 +7,2 @@\n-x\n-y\n+X\n+Y\n";
    assert_eq!(diff_update(text, diff).unwrap(), "a\nx\ny\nb\nc\nX\nY\nd\n");
}

#[test]
fn unified_hunks_in_file_order_choose_the_occurrence_after_the_previous_hunk() {
    let text = with_duplicates(40, "same", &[5, 30]);
    // No numbers: the first hunk is at line 20, so the repeated lines can only be those at 30.
    let diff = "@@\n line 19\n-line 20\n+LINE 20\n line 21\n@@\n-same\n+SAME\n";
    let out = diff_update(&text, diff).unwrap();
    let expected = with_duplicates(40, "same", &[5])
        .replace("line 20\n", "LINE 20\n")
        .replace("line 30\n", "SAME\n");
    assert_eq!(out, expected);
}

#[test]
fn unified_numbers_off_by_the_same_amount_follow_the_first_hunk() {
    let text = with_duplicates(60, "same", &[34, 45]);
    // Every number is 13 too high: the unique first hunk (stated 22, found at 9) gives the offset
    // that picks line 34 of the two copies for the second hunk (stated 47, nearer the one at 45).
    let diff = "@@ -22,3 +22,3 @@\n line 9\n-line 10\n+LINE 10\n line 11\n@@ -47,1 +47,1 @@\n-same\n+SAME\n";
    let out = diff_update(&text, diff).unwrap();
    let expected = with_duplicates(60, "same", &[45])
        .replace("line 10\n", "LINE 10\n")
        .replace("line 34\n", "SAME\n");
    assert_eq!(out, expected);
}

#[test]
fn v4a_two_hunks_of_one_function_may_repeat_its_anchor() {
    let text = "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n";
    let patch = update_f_txt(
        "@@ def f():\n-    a = 1\n+    a = 10\n@@ def f():\n-    e = 5\n+    e = 50\n",
    );
    assert_eq!(
        v4a_update(text, &patch).unwrap(),
        "def f():\n    a = 10\n    b = 2\n    c = 3\n    d = 4\n    e = 50\n"
    );
}

#[test]
fn v4a_anchor_before_the_previous_hunk_still_orders_the_hunks() {
    // The anchor is behind the cursor: the hunk is still sought after the previous hunk, so the
    // first "x = 1" (already passed) is not taken again.
    let text = "def f():\n    x = 1\n    y = 2\n    x = 1\n";
    let patch =
        update_f_txt("@@ def f():\n-    y = 2\n+    y = 3\n@@ def f():\n-    x = 1\n+    x = 9\n");
    assert_eq!(
        v4a_update(text, &patch).unwrap(),
        "def f():\n    x = 1\n    y = 3\n    x = 9\n"
    );
}

#[test]
fn missing_anchor_message_puts_the_closest_region_on_its_own_line() {
    let text = "fn alpha() {}\nfn beta() {}\n";
    let patch = update_f_txt("@@ fn alphx() {}\n-x\n+y\n");
    let err = v4a_update(text, &patch).unwrap_err();
    assert!(
        err.message
            .contains("was not found after line 0.\nNothing similar"),
        "{err}"
    );
}

fn v4a_on_bytes(text: &str, hunks: &str) -> Result<String, PatchError> {
    apply_to_text(text, &v4a::parse(&update_f_txt(hunks))?).map(|a| a.text)
}

#[test]
fn v4a_replaced_lines_keep_their_crlf_beside_embedded_carriage_returns() {
    let text = "foo\r\r\nbar\r\nbaz\r\n";
    assert_eq!(
        v4a_on_bytes(text, " bar\n-baz\n+BAZ\n").unwrap(),
        "foo\r\r\nbar\r\nBAZ\r\n"
    );
    assert_eq!(
        v4a_on_bytes(text, "@@\n+qux\n").unwrap(),
        "foo\r\r\nbar\r\nbaz\r\nqux\r\n"
    );
}

#[test]
fn mixed_endings_follow_the_replaced_lines_and_untouched_lines_stay() {
    let text = "one\r\ntwo\nthree\r\nfour\n";
    let applied = apply_to_text(
        text,
        &v4a::parse(&update_f_txt("-three\n+THREE\n")).unwrap(),
    );
    let applied = applied.unwrap();
    assert_eq!(applied.text, "one\r\ntwo\nTHREE\r\nfour\n");
    assert!(
        applied.notes.is_empty(),
        "a CRLF line matches exactly: {:?}",
        applied.notes
    );
    // The k-th new line takes the k-th replaced line's ending, extra ones the last one's.
    assert_eq!(
        v4a_on_bytes(text, " one\n-two\n-three\n+2\n+3\n+3b\n").unwrap(),
        "one\r\n2\n3\r\n3b\r\nfour\n"
    );
    // Added lines without removed ones take the ending of the line above.
    assert_eq!(
        v4a_on_bytes(text, " one\n+1b\n two\n+2b\n").unwrap(),
        "one\r\n1b\r\ntwo\n2b\nthree\r\nfour\n"
    );
    // At the start of the file, the line below's.
    let diff = "@@ -0,0 +1,1 @@\n+zero\n";
    assert_eq!(
        diff_update(text, diff).unwrap(),
        "zero\r\none\r\ntwo\nthree\r\nfour\n"
    );
}

#[test]
fn v4a_added_only_chunk_without_context_is_appended_wherever_it_sits() {
    let text = "line1\nline2\nline3\n";
    let hunks =
        "@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement\n";
    assert_eq!(
        v4a_update(text, &update_f_txt(hunks)).unwrap(),
        "line1\nline2-replacement\nafter-context\nsecond-line\n"
    );
    // Before a final empty line.
    assert_eq!(
        v4a_update("a\n\n", &update_f_txt("+b\n")).unwrap(),
        "a\nb\n\n"
    );
}

#[test]
fn v4a_line_number_header_is_a_position_hint_and_keeps_a_trailing_anchor() {
    let patch = update_f_txt("@@ -1,2 +1,2 @@\n one\n-two\n+2\n");
    assert_eq!(v4a_update("one\ntwo\n", &patch).unwrap(), "one\n2\n");
    let ops = v4a::parse(&update_f_txt("@@ -5,2 +5,2 @@ def g():\n-    x\n+    y\n")).unwrap();
    let FileOp::Update { hunks, .. } = &ops[0] else {
        panic!()
    };
    assert_eq!(hunks[0].anchors, vec!["def g():".to_string()]);
    assert_eq!(hunks[0].line_hint, Some(5));
    // Of two equal places, the hint picks the one it clearly points to.
    let text = "x\nb\nc\nd\nx\nf\n";
    let near_second = update_f_txt("@@ -5,1 +5,1 @@\n-x\n+X\n");
    assert_eq!(
        v4a_update(text, &near_second).unwrap(),
        "x\nb\nc\nd\nX\nf\n"
    );
    // Numbers that do not fit the pattern stay anchor text.
    let odd = v4a::parse(&update_f_txt("@@ -1,2 +x @@\n-a\n+b\n")).unwrap();
    let FileOp::Update { hunks, .. } = &odd[0] else {
        panic!()
    };
    assert_eq!(hunks[0].anchors, vec!["-1,2 +x @@".to_string()]);
}

#[test]
fn search_replace_block_without_filename_continues_the_previous_file() {
    let diff = "```text\nfoo.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n\n...\n\n<<<<<<< SEARCH\nthree\n=======\nfour\n>>>>>>> REPLACE\n```\n";
    let ops = parse_diff(diff, None).unwrap();
    let paths: Vec<&str> = ops.iter().map(FileOp::path).collect();
    assert_eq!(paths, vec!["foo.txt", "foo.txt"]);
    assert_eq!(
        apply_to_text("one\nthree\n", &ops).unwrap().text,
        "two\nfour\n"
    );
}
