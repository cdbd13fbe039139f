use edit_engine_core::symbols::Language;

use crate::common::*;

const C: Language = Language::C;

const SRC: &str = r#"#include <stdio.h>

/* Adds two ints. */
static int add(int a, int b) {
    return a + b;
}

struct Point {
    int x;
    int y;
};

typedef struct {
    int w;
} Size;

static char *name(void) {
    return "c";
}

int main(void) {
    printf("%d\n", add(1, 2));
    return 0;
}
"#;

#[test]
fn finds_functions_structs_and_typedefs() {
    assert_eq!(
        all_names(SRC, C),
        vec!["add", "Point", "Size", "name", "main"]
    );
    assert_eq!(
        span(&one(SRC, C, "add")),
        (3, 6, "function_definition", "add")
    );
    assert_eq!(
        span(&one(SRC, C, "Point")),
        (8, 11, "struct_specifier", "Point")
    );
    assert_eq!(
        span(&one(SRC, C, "Size")),
        (13, 15, "type_definition", "Size")
    );
    assert_eq!(
        span(&one(SRC, C, "name")),
        (17, 19, "function_definition", "name")
    );
}

#[test]
fn replace_keeps_comment() {
    let out = replace(
        SRC,
        C,
        "add",
        "static int add(int a, int b) {\n    return b + a;\n}",
    );
    assert!(out.contains("#include <stdio.h>\n\n/* Adds two ints. */\nstatic int add(int a, int b) {\n    return b + a;\n}\n\nstruct Point {"));
}

#[test]
fn replace_struct_drops_nothing_around_it() {
    let out = replace(SRC, C, "Point", "struct Point {\n    double x, y;\n};");
    assert!(out.contains("}\n\nstruct Point {\n    double x, y;\n};\n\ntypedef struct {"));
}

#[test]
fn insert_after_main() {
    let out = insert_after(SRC, C, "main", "void unused(void) {}");
    assert!(out.ends_with("    return 0;\n}\n\nvoid unused(void) {}\n"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, C, "mian", "main");
}
