use super::*;

fn op(index: usize, kind: OpKind) -> Op {
    Op { index, kind }
}
fn lines(i: usize, start: usize, end: usize, text: &str) -> Op {
    op(
        i,
        OpKind::Lines {
            start,
            end,
            text: text.into(),
        },
    )
}
fn before(i: usize, line: usize, text: &str) -> Op {
    op(
        i,
        OpKind::InsertBefore {
            line,
            text: text.into(),
        },
    )
}
fn after(i: usize, line: usize, text: &str) -> Op {
    op(
        i,
        OpKind::InsertAfter {
            line,
            text: text.into(),
        },
    )
}
fn literal(i: usize, search: &str, replace: &str) -> Op {
    op(
        i,
        OpKind::Literal {
            search: search.into(),
            replace: replace.into(),
        },
    )
}
fn regex(i: usize, pattern: &str, replace: &str) -> Op {
    op(
        i,
        OpKind::Regex {
            regex: Regex::new(pattern).unwrap(),
            replace: replace.into(),
        },
    )
}
fn text_of(text: &str, ops: &[Op]) -> String {
    apply(text, ops).unwrap().new_text
}

const FIVE: &str = "1\n2\n3\n4\n5\n";

#[test]
fn lines_and_final_newline_tracks_the_final_newline() {
    assert_eq!(lines_and_final_newline(""), (vec![], false));
    assert_eq!(lines_and_final_newline("\n"), (vec![""], true));
    assert_eq!(lines_and_final_newline("a\nb"), (vec!["a", "b"], false));
    assert_eq!(lines_and_final_newline("a\n\n"), (vec!["a", ""], true));
    assert_eq!(text_lines("x\n"), vec!["x"]);
    assert!(text_lines("").is_empty());
}

#[test]
fn line_numbers_refer_to_the_original_file() {
    let ops = [
        lines(1, 1, 1, "one\nuno"),
        lines(2, 3, 4, "three-four"),
        after(3, 5, "six"),
    ];
    assert_eq!(text_of(FIVE, &ops), "one\nuno\n2\nthree-four\n5\nsix\n");
    // Request order does not matter for line operations.
    let reversed = [
        after(1, 5, "six"),
        lines(2, 3, 4, "three-four"),
        lines(3, 1, 1, "one\nuno"),
    ];
    assert_eq!(
        text_of(FIVE, &reversed),
        "one\nuno\n2\nthree-four\n5\nsix\n"
    );
}

#[test]
fn empty_replacement_deletes_the_lines() {
    let out = apply(FIVE, &[lines(1, 2, 4, "")]).unwrap();
    assert_eq!(out.new_text, "1\n5\n");
    assert_eq!(
        out.effects,
        vec![(
            1,
            Effect::Lines {
                removed: 3,
                added: 0
            }
        )]
    );
    assert_eq!(text_of(FIVE, &[lines(1, 1, 5, "")]), "");
    assert_eq!(text_of(FIVE, &[lines(1, 2, 2, "\n")]), "1\n\n3\n4\n5\n");
}

#[test]
fn inserts_at_edges_of_a_range_land_outside_it() {
    let ops = [before(1, 2, "B"), lines(2, 2, 3, "X"), after(3, 3, "A")];
    assert_eq!(text_of(FIVE, &ops), "1\nB\nX\nA\n4\n5\n");
}

#[test]
fn inserts_at_one_point_keep_request_order() {
    let ops = [
        before(1, 3, "second"),
        after(2, 2, "first?"),
        before(3, 3, "third"),
    ];
    assert_eq!(
        text_of(FIVE, &ops),
        "1\n2\nsecond\nfirst?\nthird\n3\n4\n5\n"
    );
}

#[test]
fn inserts_at_file_boundaries() {
    assert_eq!(
        text_of(FIVE, &[before(1, 1, "top\n"), after(2, 5, "end")]),
        "top\n1\n2\n3\n4\n5\nend\n"
    );
    assert_eq!(text_of("a\nb", &[after(1, 2, "c")]), "a\nb\nc");
    assert_eq!(text_of("", &[before(1, 1, "first")]), "first\n");
}

#[test]
fn overlapping_ranges_name_both_operations() {
    let err = apply(FIVE, &[lines(1, 1, 3, "x"), lines(2, 3, 4, "y")]).unwrap_err();
    assert_eq!(
        err,
        BatchError::Overlap {
            first: "[1] lines 1-3".into(),
            second: "[2] lines 3-4".into()
        }
    );
    let err = apply(FIVE, &[lines(1, 4, 4, "x"), lines(2, 2, 5, "y")]).unwrap_err();
    assert_eq!(err.to_string(), "[2] lines 2-5 overlaps [1] lines 4; line ranges must not overlap - merge them into one \"lines\" operation");
}

#[test]
fn inserts_inside_a_replaced_range_are_refused() {
    let err = apply(FIVE, &[lines(1, 2, 4, "x"), after(2, 3, "y")]).unwrap_err();
    assert_eq!(
        err,
        BatchError::InsertInsideRange {
            insert: "[2] insert_after 3".into(),
            range: "[1] lines 2-4".into()
        }
    );
    assert!(apply(FIVE, &[lines(1, 2, 4, "x"), before(2, 4, "y")]).is_err());
    assert!(apply(FIVE, &[lines(1, 2, 4, "x"), after(2, 2, "y")]).is_err());
    assert!(apply(
        FIVE,
        &[lines(1, 2, 4, "x"), before(2, 5, "y"), after(3, 1, "z")]
    )
    .is_ok());
}

#[test]
fn line_numbers_outside_the_file_are_refused() {
    let err = apply(FIVE, &[lines(1, 4, 6, "x")]).unwrap_err();
    assert_eq!(err.to_string(), "[1] lines 4-6: line 6 is beyond the end of the file (5 lines); line numbers refer to the file as read");
    assert!(matches!(
        apply(FIVE, &[after(1, 6, "x")]),
        Err(BatchError::OutOfRange {
            line: 6,
            total: 5,
            ..
        })
    ));
    assert!(matches!(
        apply(FIVE, &[before(1, 0, "x")]),
        Err(BatchError::ZeroLine { .. })
    ));
    assert!(matches!(
        apply(FIVE, &[lines(1, 4, 3, "x")]),
        Err(BatchError::ReversedRange {
            start: 4,
            end: 3,
            ..
        })
    ));
    assert!(matches!(
        apply("", &[after(1, 1, "x")]),
        Err(BatchError::OutOfRange { total: 0, .. })
    ));
}

#[test]
fn patterns_run_after_line_operations_in_order() {
    let ops = [
        literal(1, "foo", "bar"),
        lines(2, 1, 1, "foo foo"),
        literal(3, "bar", "baz"),
    ];
    let out = apply("x\nfoo\n", &ops).unwrap();
    assert_eq!(out.new_text, "baz baz\nbaz\n");
    assert_eq!(
        out.effects,
        vec![
            (1, Effect::Replaced { count: 3 }),
            (
                2,
                Effect::Lines {
                    removed: 1,
                    added: 1
                }
            ),
            (3, Effect::Replaced { count: 3 })
        ]
    );
}

#[test]
fn regex_replaces_all_matches_with_captures() {
    let out = apply(
        "let a = 1;\nlet b = 2;\n",
        &[regex(1, r"let (\w+)", "const ${1}_v")],
    )
    .unwrap();
    assert_eq!(out.new_text, "const a_v = 1;\nconst b_v = 2;\n");
    assert_eq!(out.effects[0].1.changes(), 2);
    assert_eq!(text_of("a1b22", &[regex(1, r"\d+", "")]), "ab");
}

#[test]
fn a_pattern_that_matches_nothing_fails_the_batch() {
    let err = apply(FIVE, &[lines(1, 1, 1, "x"), literal(2, "nope", "y")]).unwrap_err();
    assert_eq!(
        err,
        BatchError::NoMatch {
            op: "[2] string \"nope\"".into()
        }
    );
    let err = apply(FIVE, &[regex(1, "z+", "y")]).unwrap_err();
    assert!(err
        .to_string()
        .starts_with("[1] regex /z+/ matched nothing"));
}

#[test]
fn a_batch_without_line_operations_keeps_the_text_shape() {
    assert_eq!(text_of("a\r\nb", &[literal(1, "a", "c")]), "c\r\nb");
    assert_eq!(text_of("no newline", &[literal(1, "no", "a")]), "a newline");
}

#[test]
fn labels_are_short_and_escaped() {
    let long = "x".repeat(100);
    let label = label(&literal(7, &format!("{long}\n\"q\""), ""));
    assert!(label.starts_with("[7] string \"xxx"));
    assert!(label.ends_with("...\""));
    assert_eq!(
        super::label(&literal(1, "a\tb", "")),
        "[1] string \"a\\tb\""
    );
}

const MIXED: &str = "one\r\ntwo\nthree\r\nfour\n";

#[test]
fn new_lines_take_the_endings_of_the_lines_they_replace_in_a_mixed_file() {
    assert_eq!(
        text_of(MIXED, &[lines(0, 2, 3, "2\r\n3\n3b\n")]),
        "one\r\n2\n3\r\n3b\r\nfour\n"
    );
    assert_eq!(
        text_of(MIXED, &[after(0, 1, "1b\n"), before(1, 1, "0")]),
        "0\r\none\r\n1b\r\ntwo\nthree\r\nfour\n"
    );
    assert_eq!(
        text_of(MIXED, &[literal(0, "three", "3\n3b")]),
        "one\r\ntwo\n3\r\n3b\r\nfour\n"
    );
    assert_eq!(
        text_of(MIXED, &[regex(0, "t(w)o", "T$1\nO")]),
        "one\r\nTw\nO\nthree\r\nfour\n"
    );
    assert_eq!(
        text_of(MIXED, &[regex(0, "(?m)^o(ne)", "O$1\nX")]),
        "One\r\nX\r\ntwo\nthree\r\nfour\n"
    );
}

#[test]
fn files_without_carriage_returns_take_new_text_as_given() {
    assert_eq!(
        text_of(FIVE, &[lines(0, 2, 2, "b\r\n")]),
        "1\nb\r\n3\n4\n5\n"
    );
    assert_eq!(
        text_of(FIVE, &[literal(0, "3", "c\r\nc")]),
        "1\n2\nc\r\nc\n4\n5\n"
    );
}
