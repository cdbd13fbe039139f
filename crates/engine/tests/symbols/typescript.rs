use edit_engine_core::symbols::{
    find_all_symbols, plan_insert, plan_replace, Language, LeadingKind,
};

use crate::common::*;

const TS: Language = Language::TypeScript;

const SRC: &str = r#"import { x } from "./x";

/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}

export class Calc {
  private items: number[] = [];

  /** Pushes a value. */
  @log
  push(x: number): void {
    this.items.push(x);
  }

  pop(): number | undefined {
    return this.items.pop();
  }
}

export const mul = (a: number, b: number): number => a * b;

namespace Demo {
  export class Calc {
    push(): void {}
  }
}

export default function main(): void {
  add(1, 2);
}

interface Shape {
  area(): number;
}

type Id = string;
"#;

#[test]
fn finds_top_level_function_with_doc_and_export() {
    let s = one(SRC, TS, "add");
    assert_eq!(span(&s), (3, 6, "function_declaration", "add"));
    assert!(s
        .code
        .starts_with("/** Adds two numbers. */\nexport function add("));
    assert!(s.code.ends_with("  return a + b;\n}"));
    let kinds: Vec<LeadingKind> = s.leading.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, vec![LeadingKind::DocComment, LeadingKind::Modifier]);
}

#[test]
fn bare_name_matching_two_methods_is_ambiguous() {
    let found = find_all_symbols(SRC, TS, "push").unwrap();
    let spans: Vec<_> = found.iter().map(span).collect();
    assert_eq!(
        spans,
        vec![
            (11, 15, "method_definition", "Calc.push"),
            (26, 26, "method_definition", "Demo.Calc.push")
        ]
    );
}

#[test]
fn qualified_names_pick_one_and_may_omit_outer_namespaces() {
    assert_eq!(matches(SRC, TS, "Calc.push"), vec!["Calc.push"]);
    assert_eq!(matches(SRC, TS, "Demo.Calc.push"), vec!["Demo.Calc.push"]);
    assert_eq!(matches(SRC, TS, "Calc.pop"), vec!["Calc.pop"]);
    assert_eq!(matches(SRC, TS, "Shape.area"), vec!["Shape.area"]);
}

#[test]
fn arrow_function_const_is_a_symbol_with_its_export() {
    let s = one(SRC, TS, "mul");
    assert_eq!(span(&s), (22, 22, "lexical_declaration", "mul"));
    assert_eq!(
        s.code,
        "export const mul = (a: number, b: number): number => a * b;"
    );
}

#[test]
fn lists_every_definition() {
    assert_eq!(
        all_names(SRC, TS),
        vec![
            "add",
            "Calc",
            "Calc.push",
            "Calc.pop",
            "mul",
            "Demo",
            "Demo.Calc",
            "Demo.Calc.push",
            "main",
            "Shape",
            "Shape.area",
            "Id"
        ]
    );
}

#[test]
fn replace_keeps_doc_comment_and_export_left_out() {
    let out = replace(
        SRC,
        TS,
        "add",
        "function add(a: number, b: number): number {\n  return a + b + 0;\n}",
    );
    assert!(out.contains(
        "\n/** Adds two numbers. */\nexport function add(a: number, b: number): number {\n  return a + b + 0;\n}\n\nexport class Calc {"
    ));
    assert_eq!(out.matches("Adds two numbers").count(), 1);
}

#[test]
fn replace_restating_export_and_doc_replaces_them() {
    let out = replace(
        SRC,
        TS,
        "add",
        "/** Sum. */\nexport function add(a: number, b: number): number {\n  return b + a;\n}",
    );
    assert!(out.contains("\n\n/** Sum. */\nexport function add(a: number, b: number): number {\n  return b + a;\n}\n"));
    assert!(!out.contains("Adds two numbers"));
    assert!(!out.contains("export export"));
}

#[test]
fn replace_restating_only_export_keeps_doc() {
    let out = replace(
        SRC,
        TS,
        "add",
        "export function add(): number {\n  return 0;\n}",
    );
    assert!(
        out.contains("/** Adds two numbers. */\nexport function add(): number {\n  return 0;\n}")
    );
    assert!(!out.contains("export export"));
}

#[test]
fn replace_method_reindents_and_keeps_doc_and_decorator() {
    let sym = one(SRC, TS, "Calc.push");
    let plan = plan_replace(
        SRC,
        &sym,
        "push(x: number): void {\n  this.items.unshift(x);\n}",
    );
    assert_eq!(plan.new_line_count, 5);
    assert!(plan.new_source.contains(
        "  private items: number[] = [];\n\n  /** Pushes a value. */\n  @log\n  push(x: number): void {\n    this.items.unshift(x);\n  }\n\n  pop()"
    ));
    assert_clean(&plan.new_source, TS);
}

#[test]
fn replace_restating_decorator_does_not_duplicate_it() {
    let out = replace(SRC, TS, "Calc.push", "@trace\npush(x: number): void {}");
    assert!(out.contains("  /** Pushes a value. */\n  @trace\n  push(x: number): void {}\n"));
    assert!(!out.contains("@log"));
}

#[test]
fn replace_keeps_export_default() {
    let out = replace(SRC, TS, "main", "function main(): void {\n  add(2, 3);\n}");
    assert!(out.contains("\nexport default function main(): void {\n  add(2, 3);\n}\n"));
}

#[test]
fn replace_arrow_const_keeps_export() {
    let out = replace(
        SRC,
        TS,
        "mul",
        "const mul = (a: number, b: number): number => b * a;",
    );
    assert!(out.contains("\nexport const mul = (a: number, b: number): number => b * a;\n"));
}

#[test]
fn insert_after_method_uses_probe_splice_and_numbers() {
    let sym = one(SRC, TS, "Calc.pop");
    let plan = plan_insert(
        SRC,
        &sym,
        "peek(): number {\n  return this.items[0];\n}",
        false,
    );
    assert_eq!((plan.insert_line, plan.new_line_count), (20, 3));
    assert!(plan.new_source.contains(
        "    return this.items.pop();\n  }\n\n  peek(): number {\n    return this.items[0];\n  }\n}\n"
    ));
    assert_clean(&plan.new_source, TS);
}

#[test]
fn insert_before_goes_above_the_doc_comment() {
    let sym = one(SRC, TS, "add");
    let plan = plan_insert(SRC, &sym, "const ZERO = 0;", true);
    assert_eq!((plan.insert_line, plan.new_line_count), (3, 1));
    assert!(plan
        .new_source
        .contains("\"./x\";\n\nconst ZERO = 0;\n\n/** Adds two numbers. */\n"));
}

#[test]
fn insert_after_top_level_function() {
    let out = insert_after(
        SRC,
        TS,
        "add",
        "export function sub(a: number, b: number): number {\n  return a - b;\n}",
    );
    assert!(out.contains("  return a + b;\n}\n\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n\nexport class Calc"));
}

#[test]
fn not_found_suggests_closest() {
    assert_suggests(SRC, TS, "ad", "add");
    assert_suggests(SRC, TS, "Calc.pusj", "Calc.push");
    assert_suggests(SRC, TS, "multiply", "mul");
}

#[test]
fn tsx_component() {
    let src = "export const App = () => {\n  return <div className=\"x\">hi</div>;\n};\n";
    let s = one(src, Language::Tsx, "App");
    assert_eq!(span(&s), (1, 3, "lexical_declaration", "App"));
    let out = replace(src, Language::Tsx, "App", "const App = () => <span />;");
    assert_eq!(out, "export const App = () => <span />;\n");
}

#[test]
fn interface_enum_type_alias_abstract() {
    let src =
        "enum Color { Red }\nabstract class Base {\n  abstract run(): void;\n}\ntype T = number;\n";
    assert_eq!(all_names(src, TS), vec!["Color", "Base", "Base.run", "T"]);
    let out = replace(src, TS, "Color", "enum Color {\n  Red,\n  Blue,\n}");
    assert_eq!(out, "enum Color {\n  Red,\n  Blue,\n}\nabstract class Base {\n  abstract run(): void;\n}\ntype T = number;\n");
}

#[test]
fn decorator_before_export_is_kept() {
    let src = "@Component({ selector: \"x\" })\nexport class Widget {\n  render() {}\n}\n";
    let s = one(src, TS, "Widget");
    assert_eq!(span(&s), (1, 4, "class_declaration", "Widget"));
    let out = replace(
        src,
        TS,
        "Widget",
        "class Widget {\n  render() { return 1; }\n}",
    );
    assert_eq!(
        out,
        "@Component({ selector: \"x\" })\nexport class Widget {\n  render() { return 1; }\n}\n"
    );
}
