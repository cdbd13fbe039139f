use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const ZIG: Language = Language::Zig;

const SRC: &str = r#"const std = @import("std");

/// Adds two numbers.
pub fn add(a: i32, b: i32) i32 {
    return a + b;
}

pub const Stack = struct {
    items: [8]i32 = undefined,
    len: usize = 0,

    /// Pushes x.
    pub fn push(self: *Stack, x: i32) void {
        self.items[self.len] = x;
        self.len += 1;
    }
};

const Color = enum { red, green };

fn push() void {}
"#;

#[test]
fn functions_and_container_consts() {
    assert_eq!(
        all_names(SRC, ZIG),
        vec!["add", "Stack", "Stack.push", "Color", "push"]
    );
    assert_eq!(
        span(&one(SRC, ZIG, "add")),
        (3, 6, "function_declaration", "add")
    );
    assert_eq!(
        span(&one(SRC, ZIG, "Stack")),
        (8, 17, "variable_declaration", "Stack")
    );
    assert_eq!(
        span(&one(SRC, ZIG, "Stack.push")),
        (12, 16, "function_declaration", "Stack.push")
    );
    let found: Vec<String> = find_all_symbols(SRC, ZIG, "push")
        .unwrap()
        .into_iter()
        .map(|s| s.qualified_name)
        .collect();
    assert_eq!(found, vec!["Stack.push", "push"]);
}

#[test]
fn replace_keeps_doc_and_pub() {
    let out = replace(
        SRC,
        ZIG,
        "add",
        "fn add(a: i32, b: i32) i32 {\n    return b + a;\n}",
    );
    assert!(out.contains(
        "/// Adds two numbers.\npub fn add(a: i32, b: i32) i32 {\n    return b + a;\n}\n"
    ));
}

#[test]
fn replace_method_reindents() {
    let out = replace(
        SRC,
        ZIG,
        "Stack.push",
        "pub fn push(self: *Stack, x: i32) void {\n    _ = x;\n    self.len += 1;\n}",
    );
    assert!(out.contains("    /// Pushes x.\n    pub fn push(self: *Stack, x: i32) void {\n        _ = x;\n        self.len += 1;\n    }\n};"));
    assert!(!out.contains("pub pub"));
}

#[test]
fn insert_after_function() {
    let out = insert_after(
        SRC,
        ZIG,
        "add",
        "fn sub(a: i32, b: i32) i32 {\n    return a - b;\n}",
    );
    assert!(out.contains("    return a + b;\n}\n\nfn sub(a: i32, b: i32) i32 {\n    return a - b;\n}\n\npub const Stack"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, ZIG, "Colour", "Color");
}
