use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const KT: Language = Language::Kotlin;

const SRC: &str = r#"package demo

/** Adds. */
@JvmStatic
fun add(a: Int, b: Int): Int {
    return a + b
}

class Stack {
    private val items = mutableListOf<Int>()

    /** Pushes x. */
    @Synchronized
    fun push(x: Int) {
        items.add(x)
    }

    companion object {
        fun create(): Stack {
            return Stack()
        }
    }
}

object Registry {
    fun add(name: String) {
        println(name)
    }
}

interface Shape {
    fun area(): Double
}
"#;

#[test]
fn finds_functions_classes_objects() {
    assert_eq!(
        all_names(SRC, KT),
        vec![
            "add",
            "Stack",
            "Stack.push",
            "Stack.create",
            "Registry",
            "Registry.add",
            "Shape",
            "Shape.area"
        ]
    );
    assert_eq!(
        span(&one(SRC, KT, "Stack.push")),
        (12, 16, "function_declaration", "Stack.push")
    );
    assert_eq!(
        span(&one(SRC, KT, "Registry")),
        (25, 29, "object_declaration", "Registry")
    );
}

#[test]
fn duplicates() {
    let found: Vec<String> = find_all_symbols(SRC, KT, "add")
        .unwrap()
        .into_iter()
        .map(|s| s.qualified_name)
        .collect();
    assert_eq!(found, vec!["add", "Registry.add"]);
}

#[test]
fn replace_keeps_doc_and_annotation() {
    let out = replace(
        SRC,
        KT,
        "Stack.push",
        "fun push(x: Int) {\n    items.add(0, x)\n}",
    );
    assert!(out.contains("    /** Pushes x. */\n    @Synchronized\n    fun push(x: Int) {\n        items.add(0, x)\n    }\n\n    companion object"));
}

#[test]
fn replace_top_level_function() {
    let out = replace(SRC, KT, "::add", "fun add(a: Int, b: Int): Int = a + b");
    assert!(out.contains("package demo\n\n/** Adds. */\n@JvmStatic\nfun add(a: Int, b: Int): Int = a + b\n\nclass Stack {"));
}

#[test]
fn insert_after_companion_function() {
    let out = insert_after(
        SRC,
        KT,
        "create",
        "fun empty(): Stack {\n    return Stack()\n}",
    );
    assert!(out.contains("            return Stack()\n        }\n\n        fun empty(): Stack {\n            return Stack()\n        }\n    }\n}"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, KT, "Registry.ad", "Registry.add");
}
