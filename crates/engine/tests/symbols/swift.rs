use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const SW: Language = Language::Swift;

const SRC: &str = r#"import Foundation

/// Adds two numbers.
@discardableResult
public func add(_ a: Int, _ b: Int) -> Int {
    return a + b
}

class Stack {
    var items: [Int] = []

    /// Pushes x.
    func push(_ x: Int) {
        items.append(x)
    }

    init() {
    }
}

extension Stack {
    func peek() -> Int? {
        return items.last
    }
}

protocol Shape {
    func area() -> Double
}
"#;

#[test]
fn finds_functions_types_and_extensions() {
    assert_eq!(
        all_names(SRC, SW),
        vec![
            "add",
            "Stack",
            "Stack.push",
            "Stack.init",
            "Stack",
            "Stack.peek",
            "Shape",
            "Shape.area"
        ]
    );
    assert_eq!(
        span(&one(SRC, SW, "add")),
        (3, 7, "function_declaration", "add")
    );
    assert_eq!(
        span(&one(SRC, SW, "Stack.push")),
        (12, 15, "function_declaration", "Stack.push")
    );
    assert_eq!(
        span(&one(SRC, SW, "Stack.peek")),
        (22, 24, "function_declaration", "Stack.peek")
    );
}

#[test]
fn class_and_extension_share_a_name() {
    let found: Vec<_> = find_all_symbols(SRC, SW, "Stack")
        .unwrap()
        .iter()
        .map(|s| s.start_line)
        .collect();
    assert_eq!(found, vec![9, 21]);
}

#[test]
fn replace_keeps_doc_and_attribute() {
    let out = replace(
        SRC,
        SW,
        "add",
        "public func add(_ a: Int, _ b: Int) -> Int {\n    return b + a\n}",
    );
    assert!(out.contains("import Foundation\n\n/// Adds two numbers.\n@discardableResult\npublic func add(_ a: Int, _ b: Int) -> Int {\n    return b + a\n}\n\nclass Stack {"));
}

#[test]
fn replace_method_reindents_and_keeps_doc() {
    let out = replace(
        SRC,
        SW,
        "Stack.push",
        "func push(_ x: Int) {\n    items.insert(x, at: 0)\n}",
    );
    assert!(out.contains("    /// Pushes x.\n    func push(_ x: Int) {\n        items.insert(x, at: 0)\n    }\n\n    init()"));
}

#[test]
fn insert_after_extension_method() {
    let out = insert_after(
        SRC,
        SW,
        "peek",
        "func count() -> Int {\n    return items.count\n}",
    );
    assert!(out.contains("        return items.last\n    }\n\n    func count() -> Int {\n        return items.count\n    }\n}"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, SW, "Stack.psh", "Stack.push");
}
