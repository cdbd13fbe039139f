use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const JAVA: Language = Language::Java;

const SRC: &str = r#"package demo;

import java.util.List;

/** A calculator. */
@Service
public class Calc {
    private int total;

    /** Adds x. */
    @Override
    public int add(int x) {
        total += x;
        return total;
    }

    public int add(int x, int y) {
        return x + y;
    }

    static class Inner {
        void reset() {}
    }

    interface Listener {
        void changed(int value);
    }
}
"#;

#[test]
fn class_range_has_javadoc_and_annotation() {
    let s = one(SRC, JAVA, "Calc");
    assert_eq!(span(&s), (5, 28, "class_declaration", "Calc"));
    assert!(s
        .code
        .starts_with("/** A calculator. */\n@Service\npublic class Calc {"));
}

#[test]
fn overloads_are_listed_separately() {
    let found: Vec<_> = find_all_symbols(SRC, JAVA, "add")
        .unwrap()
        .iter()
        .map(span)
        .map(|(a, b, c, d)| (a, b, c.to_string(), d.to_string()))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                10,
                15,
                "method_declaration".to_string(),
                "Calc.add".to_string()
            ),
            (
                17,
                19,
                "method_declaration".to_string(),
                "Calc.add".to_string()
            ),
        ]
    );
}

#[test]
fn nested_types() {
    assert_eq!(
        span(&one(SRC, JAVA, "Inner.reset")),
        (22, 22, "method_declaration", "Calc.Inner.reset")
    );
    assert_eq!(
        span(&one(SRC, JAVA, "Listener.changed")),
        (26, 26, "method_declaration", "Calc.Listener.changed")
    );
}

#[test]
fn replace_keeps_javadoc_and_annotation() {
    let out = replace(
        SRC,
        JAVA,
        "Inner",
        "static class Inner {\n    void reset() { }\n    void clear() { }\n}",
    );
    assert!(out.contains(
        "\n    static class Inner {\n        void reset() { }\n        void clear() { }\n    }\n"
    ));
    let src = "class A {\n    /** Doc. */\n    @Override\n    public String toString() {\n        return \"a\";\n    }\n}\n";
    let out = replace(
        src,
        JAVA,
        "toString",
        "public String toString() {\n    return \"b\";\n}",
    );
    assert_eq!(out, "class A {\n    /** Doc. */\n    @Override\n    public String toString() {\n        return \"b\";\n    }\n}\n");
}

#[test]
fn replace_restating_annotation_replaces_it() {
    let src = "class A {\n    @Deprecated\n    void f() {}\n}\n";
    let out = replace(src, JAVA, "A.f", "@Override\nvoid f() { }");
    assert_eq!(out, "class A {\n    @Override\n    void f() { }\n}\n");
}

#[test]
fn insert_after_method() {
    let src = "class A {\n    void f() {}\n}\n";
    let out = insert_after(src, JAVA, "f", "void g() {}");
    assert_eq!(out, "class A {\n    void f() {}\n\n    void g() {}\n}\n");
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, JAVA, "Calc.ad", "Calc.add");
}
