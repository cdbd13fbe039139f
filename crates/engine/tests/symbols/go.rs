use edit_engine_core::symbols::{find_all_symbols, plan_insert, Language};

use crate::common::*;

const GO: Language = Language::Go;

const SRC: &str = r#"package main

import "fmt"

// Stack holds ints.
type Stack struct {
	items []int
}

// Push adds x.
func (s *Stack) Push(x int) {
	s.items = append(s.items, x)
}

func (s Stack) Len() int {
	return len(s.items)
}

type Queue[T any] struct{ items []T }

func (q *Queue[T]) Push(x T) {
	q.items = append(q.items, x)
}

type Shape interface {
	Area() float64
}

func Push() {}

func main() {
	fmt.Println("hi")
}
"#;

#[test]
fn methods_are_receiver_qualified() {
    let found: Vec<_> = find_all_symbols(SRC, GO, "Push")
        .unwrap()
        .iter()
        .map(|s| (s.start_line, s.qualified_name.clone()))
        .collect();
    assert_eq!(
        found,
        vec![
            (10, "Stack.Push".to_string()),
            (21, "Queue.Push".to_string()),
            (29, "Push".to_string())
        ]
    );
    let s = one(SRC, GO, "Stack.Push");
    assert_eq!(span(&s), (10, 13, "method_declaration", "Stack.Push"));
    assert_eq!(
        s.code,
        "// Push adds x.\nfunc (s *Stack) Push(x int) {\n\ts.items = append(s.items, x)\n}"
    );
}

#[test]
fn type_declarations() {
    assert_eq!(
        span(&one(SRC, GO, "Stack")),
        (5, 8, "type_declaration", "Stack")
    );
    assert_eq!(
        span(&one(SRC, GO, "Shape.Area")),
        (26, 26, "method_elem", "Shape.Area")
    );
    assert_eq!(
        all_names(SRC, GO),
        vec![
            "Stack",
            "Stack.Push",
            "Stack.Len",
            "Queue",
            "Queue.Push",
            "Shape",
            "Shape.Area",
            "Push",
            "main"
        ]
    );
}

#[test]
fn replace_method_keeps_comment() {
    let out = replace(
        SRC,
        GO,
        "Stack.Push",
        "func (s *Stack) Push(x int) {\n\ts.items = append([]int{x}, s.items...)\n}",
    );
    assert!(out.contains("// Push adds x.\nfunc (s *Stack) Push(x int) {\n\ts.items = append([]int{x}, s.items...)\n}\n\nfunc (s Stack) Len()"));
}

#[test]
fn replace_type_with_doc() {
    let out = replace(
        SRC,
        GO,
        "Stack",
        "type Stack struct {\n\titems []int\n\tcap   int\n}",
    );
    assert!(out.contains("import \"fmt\"\n\n// Stack holds ints.\ntype Stack struct {\n\titems []int\n\tcap   int\n}\n"));
}

#[test]
fn insert_after_function() {
    let sym = one(SRC, GO, "main");
    let plan = plan_insert(SRC, &sym, "func helper() {}", false);
    assert_eq!(plan.insert_line, 34);
    assert!(plan
        .new_source
        .ends_with("\tfmt.Println(\"hi\")\n}\n\nfunc helper() {}\n"));
    assert_clean(&plan.new_source, GO);
}

#[test]
fn grouped_type_specs_are_separate() {
    let src = "package p\n\ntype (\n\tA int\n\tB = string\n)\n";
    assert_eq!(span(&one(src, GO, "A")), (4, 4, "type_spec", "A"));
    assert_eq!(span(&one(src, GO, "B")), (5, 5, "type_alias", "B"));
    let out = replace(src, GO, "A", "A int64");
    assert_eq!(out, "package p\n\ntype (\n\tA int64\n\tB = string\n)\n");
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, GO, "Stack.Pop", "Stack.Push");
    assert_suggests(SRC, GO, "mian", "main");
}
