use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const SC: Language = Language::Scala;

const SRC: &str = r#"package demo

/** Adds. */
@inline
def add(a: Int, b: Int): Int = a + b

class Stack {
  private var items: List[Int] = Nil

  /** Pushes x. */
  def push(x: Int): Unit = {
    items = x :: items
  }
}

object Stack {
  def empty: Stack = new Stack
}

trait Shape {
  def area(): Double
}
"#;

#[test]
fn finds_defs_classes_objects_traits() {
    assert_eq!(
        all_names(SRC, SC),
        vec![
            "add",
            "Stack",
            "Stack.push",
            "Stack",
            "Stack.empty",
            "Shape",
            "Shape.area"
        ]
    );
    assert_eq!(
        span(&one(SRC, SC, "add")),
        (3, 5, "function_definition", "add")
    );
    assert_eq!(
        span(&one(SRC, SC, "Stack.push")),
        (10, 13, "function_definition", "Stack.push")
    );
    assert_eq!(
        span(&one(SRC, SC, "Shape.area")),
        (21, 21, "function_declaration", "Shape.area")
    );
}

#[test]
fn class_and_companion_object_both_match() {
    let found: Vec<_> = find_all_symbols(SRC, SC, "Stack")
        .unwrap()
        .iter()
        .map(|s| (s.start_line, s.node_type.clone()))
        .collect();
    assert_eq!(
        found,
        vec![
            (7, "class_definition".to_string()),
            (16, "object_definition".to_string())
        ]
    );
}

#[test]
fn replace_keeps_doc_and_annotation() {
    let out = replace(SRC, SC, "add", "def add(a: Int, b: Int): Int = b + a");
    assert!(out.contains("package demo\n\n/** Adds. */\n@inline\ndef add(a: Int, b: Int): Int = b + a\n\nclass Stack {"));
}

#[test]
fn replace_method_reindents() {
    let out = replace(
        SRC,
        SC,
        "Stack.push",
        "def push(x: Int): Unit = {\n  items = items :+ x\n}",
    );
    assert!(out.contains(
        "  /** Pushes x. */\n  def push(x: Int): Unit = {\n    items = items :+ x\n  }\n}"
    ));
}

#[test]
fn insert_after_object_method() {
    let out = insert_after(SRC, SC, "Stack.empty", "def of(x: Int): Stack = new Stack");
    assert!(
        out.contains("  def empty: Stack = new Stack\n\n  def of(x: Int): Stack = new Stack\n}")
    );
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, SC, "Shape.are", "Shape.area");
}
