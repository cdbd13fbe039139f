use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const CPP: Language = Language::Cpp;

pub const SRC: &str = r#"#include <vector>

namespace demo {

// A calculator.
class Calc {
public:
    void push(int x) {
        items.push_back(x);
    }
    int pop();

private:
    std::vector<int> items;
};

int Calc::pop() {
    int v = items.back();
    items.pop_back();
    return v;
}

template <typename T>
T twice(T v) {
    return v + v;
}

}  // namespace demo

void push(int) {}
"#;

#[test]
fn qualified_names_from_namespaces_classes_and_out_of_class_definitions() {
    assert_eq!(
        all_names(SRC, CPP),
        vec![
            "demo",
            "demo.Calc",
            "demo.Calc.push",
            "demo.Calc.pop",
            "demo.twice",
            "push"
        ]
    );
    assert_eq!(
        span(&one(SRC, CPP, "Calc.pop")),
        (17, 21, "function_definition", "demo.Calc.pop")
    );
    assert_eq!(
        span(&one(SRC, CPP, "demo::Calc::push")),
        (8, 10, "function_definition", "demo.Calc.push")
    );
    assert_eq!(
        span(&one(SRC, CPP, "Calc")),
        (5, 15, "class_specifier", "demo.Calc")
    );
}

#[test]
fn template_range_includes_template_header() {
    let s = one(SRC, CPP, "twice");
    assert_eq!(span(&s), (23, 26, "function_definition", "demo.twice"));
    assert!(s.code.starts_with("template <typename T>\nT twice(T v) {"));
}

#[test]
fn bare_name_is_ambiguous() {
    let found: Vec<String> = find_all_symbols(SRC, CPP, "push")
        .unwrap()
        .into_iter()
        .map(|s| s.qualified_name)
        .collect();
    assert_eq!(found, vec!["demo.Calc.push", "push"]);
}

#[test]
fn replace_inline_method_reindents() {
    let out = replace(
        SRC,
        CPP,
        "Calc.push",
        "void push(int x) {\n    items.insert(items.begin(), x);\n}",
    );
    assert!(out.contains("public:\n    void push(int x) {\n        items.insert(items.begin(), x);\n    }\n    int pop();"));
}

#[test]
fn replace_out_of_class_method() {
    let out = replace(SRC, CPP, "Calc.pop", "int Calc::pop() {\n    return 0;\n}");
    assert!(out.contains("};\n\nint Calc::pop() {\n    return 0;\n}\n\ntemplate"));
}

#[test]
fn insert_after_class_keeps_comment_with_class() {
    let out = insert_after(SRC, CPP, "Calc", "struct Extra {};");
    assert!(out.contains("    std::vector<int> items;\n};\n\nstruct Extra {};\n\nint Calc::pop()"));
    let out = replace(SRC, CPP, "Calc", "class Calc {};");
    assert!(out.contains("namespace demo {\n\n// A calculator.\nclass Calc {};\n\nint Calc::pop()"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, CPP, "Calc.popp", "demo.Calc.pop");
}

#[test]
fn operator_names() {
    let src = "struct V {\n    bool operator==(const V& o) const { return true; }\n    int operator()(int x) { return x; }\n};\n";
    assert_eq!(
        all_names(src, CPP),
        vec!["V", "V.operator==", "V.operator()"]
    );
    assert_eq!(matches(src, CPP, "V::operator()"), vec!["V.operator()"]);
    assert_eq!(matches(src, CPP, "operator=="), vec!["V.operator=="]);
}

/// A name with `operator` inside a word is a plain name (minimized from a test struct of a
/// formatting library: `phantom_subscript_operator_container`).
#[test]
fn operator_inside_a_word_is_a_plain_name() {
    let src = "struct phantom_subscript_operator_container {\n    std::vector<char> buffer;\n    operator const char*() const noexcept { return buffer.data(); }\n};\n\nstruct operators {};\n";
    assert_eq!(
        matches(src, CPP, "phantom_subscript_operator_container"),
        vec!["phantom_subscript_operator_container"]
    );
    assert_eq!(matches(src, CPP, "operators"), vec!["operators"]);
}
