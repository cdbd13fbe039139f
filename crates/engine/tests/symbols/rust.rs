use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const RS: Language = Language::Rust;

const SRC: &str = r#"use std::fmt;

/// A stack of numbers.
#[derive(Debug, Default)]
pub struct Stack {
    items: Vec<i32>,
}

impl Stack {
    /// Pushes a value.
    pub fn push(&mut self, x: i32) {
        self.items.push(x);
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }
}

impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.items)
    }
}

pub trait Shape {
    fn area(&self) -> f64;
}

mod inner {
    pub fn push() {}
}

pub fn push() {}
"#;

#[test]
fn struct_range_has_doc_attribute_and_pub() {
    let s = one(SRC, RS, "Stack");
    assert_eq!(span(&s), (3, 7, "struct_item", "Stack"));
    assert!(s
        .code
        .starts_with("/// A stack of numbers.\n#[derive(Debug, Default)]\npub struct Stack {"));
}

#[test]
fn impl_methods_are_type_qualified() {
    assert_eq!(
        all_names(SRC, RS),
        vec![
            "Stack",
            "impl Stack",
            "Stack.push",
            "Stack.len",
            "impl Display for Stack",
            "Stack.fmt",
            "Shape",
            "Shape.area",
            "inner",
            "inner.push",
            "push"
        ]
    );
    assert_eq!(
        span(&one(SRC, RS, "Stack.fmt")),
        (22, 24, "function_item", "Stack.fmt")
    );
    assert_eq!(
        span(&one(SRC, RS, "impl Stack")),
        (9, 19, "impl_item", "impl Stack")
    );
}

#[test]
fn bare_name_lists_method_module_fn_and_free_fn() {
    let found: Vec<String> = find_all_symbols(SRC, RS, "push")
        .unwrap()
        .into_iter()
        .map(|s| s.qualified_name)
        .collect();
    assert_eq!(found, vec!["Stack.push", "inner.push", "push"]);
}

#[test]
fn replace_method_keeps_doc_and_pub() {
    let out = replace(
        SRC,
        RS,
        "Stack.push",
        "fn push(&mut self, x: i32) {\n    self.items.insert(0, x);\n}",
    );
    assert!(out.contains("impl Stack {\n    /// Pushes a value.\n    pub fn push(&mut self, x: i32) {\n        self.items.insert(0, x);\n    }\n\n    #[inline]"));
}

#[test]
fn replace_keeps_attribute_and_pub_crate() {
    let out = replace(SRC, RS, "Stack.len", "fn len(&self) -> usize {\n    0\n}");
    assert!(
        out.contains("    #[inline]\n    pub(crate) fn len(&self) -> usize {\n        0\n    }\n}")
    );
}

#[test]
fn replace_restating_everything_replaces_everything() {
    let out = replace(
        SRC,
        RS,
        "Stack",
        "/// Numbers.\n#[derive(Clone)]\npub(crate) struct Stack {\n    items: Vec<i64>,\n}",
    );
    assert!(out.contains("use std::fmt;\n\n/// Numbers.\n#[derive(Clone)]\npub(crate) struct Stack {\n    items: Vec<i64>,\n}\n\nimpl Stack {"));
    assert!(!out.contains("A stack of numbers"));
    assert!(!out.contains("pub pub"));
}

#[test]
fn replace_keeps_doc_when_only_attributes_restated() {
    let out = replace(
        SRC,
        RS,
        "Stack",
        "#[derive(Clone)]\nstruct Stack {\n    items: Vec<i32>,\n}",
    );
    assert!(out.contains("/// A stack of numbers.\n#[derive(Clone)]\npub struct Stack {\n"));
}

#[test]
fn insert_after_trait_impl_method() {
    let out = insert_after(SRC, RS, "Stack.fmt", "fn extra(&self) {}");
    assert!(
        out.contains("        write!(f, \"{:?}\", self.items)\n    }\n\n    fn extra(&self) {}\n}")
    );
}

#[test]
fn nested_module_function() {
    let out = replace(
        SRC,
        RS,
        "inner.push",
        "fn push() {\n    println!(\"hi\");\n}",
    );
    assert!(out.contains("mod inner {\n    pub fn push() {\n        println!(\"hi\");\n    }\n}"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, RS, "Stack.pusj", "Stack.push");
    assert_suggests(SRC, RS, "Shap", "Shape");
}
