use edit_engine_core::symbols::Language;

use crate::common::*;

const PHP: Language = Language::Php;

const SRC: &str = r#"<?php
namespace App;

/** Adds. */
function add($a, $b) {
    return $a + $b;
}

class Calc {
    /** Pushes. */
    #[Route("/push")]
    public function push($x) {
        $this->items[] = $x;
    }

    private function reset() {
        $this->items = [];
    }
}

interface Shape {
    public function area();
}
"#;

#[test]
fn finds_functions_classes_methods() {
    assert_eq!(
        all_names(SRC, PHP),
        vec![
            "add",
            "Calc",
            "Calc.push",
            "Calc.reset",
            "Shape",
            "Shape.area"
        ]
    );
    assert_eq!(
        span(&one(SRC, PHP, "add")),
        (4, 7, "function_definition", "add")
    );
    assert_eq!(
        span(&one(SRC, PHP, "Calc.push")),
        (10, 14, "method_declaration", "Calc.push")
    );
}

#[test]
fn replace_keeps_doc_and_attribute() {
    let out = replace(
        SRC,
        PHP,
        "Calc.push",
        "public function push($x) {\n    array_unshift($this->items, $x);\n}",
    );
    assert!(out.contains("class Calc {\n    /** Pushes. */\n    #[Route(\"/push\")]\n    public function push($x) {\n        array_unshift($this->items, $x);\n    }\n\n    private function reset()"));
}

#[test]
fn replace_restating_attribute_replaces_it() {
    let out = replace(
        SRC,
        PHP,
        "Calc.push",
        "#[Route(\"/p\")]\npublic function push($x) {}",
    );
    assert!(
        out.contains("    /** Pushes. */\n    #[Route(\"/p\")]\n    public function push($x) {}\n")
    );
    assert_eq!(out.matches("#[Route").count(), 1);
}

#[test]
fn insert_after_method() {
    let out = insert_after(
        SRC,
        PHP,
        "reset",
        "public function size() {\n    return count($this->items);\n}",
    );
    assert!(out.contains("        $this->items = [];\n    }\n\n    public function size() {\n        return count($this->items);\n    }\n}"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, PHP, "Calc.rest", "Calc.reset");
}
