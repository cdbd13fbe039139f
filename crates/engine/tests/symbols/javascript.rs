use edit_engine_core::symbols::{plan_insert, Language};

use crate::common::*;

const JS: Language = Language::JavaScript;

const SRC: &str = r#"// Utilities.
const helper = require("./helper");

/**
 * Formats a name.
 */
function format(name) {
  return name.trim();
}

class Store {
  constructor() {
    this.items = [];
  }

  add(item) {
    this.items.push(item);
  }

  static create() {
    return new Store();
  }
}

const handlers = {
  onClick() {
    return 1;
  },
  onKey: (e) => e.key,
};

export const double = (n) => n * 2;

export default class Panel {
  render() {
    return format("x");
  }
}

module.exports = { format };
"#;

#[test]
fn finds_function_with_jsdoc_block() {
    let s = one(SRC, JS, "format");
    assert_eq!(span(&s), (4, 9, "function_declaration", "format"));
    assert_eq!(
        s.code,
        "/**\n * Formats a name.\n */\nfunction format(name) {\n  return name.trim();\n}"
    );
}

#[test]
fn class_methods_and_object_literal_methods_are_qualified() {
    assert_eq!(
        all_names(SRC, JS),
        vec![
            "format",
            "Store",
            "Store.constructor",
            "Store.add",
            "Store.create",
            "handlers.onClick",
            "handlers.onKey",
            "double",
            "Panel",
            "Panel.render"
        ]
    );
    assert_eq!(
        span(&one(SRC, JS, "Store.add")),
        (16, 18, "method_definition", "Store.add")
    );
}

#[test]
fn replace_method_reindents() {
    let out = replace(
        SRC,
        JS,
        "Store.add",
        "add(item) {\n  if (item) this.items.push(item);\n}",
    );
    assert!(out.contains(
        "  }\n\n  add(item) {\n    if (item) this.items.push(item);\n  }\n\n  static create()"
    ));
}

#[test]
fn replace_keeps_multiline_jsdoc() {
    let out = replace(
        SRC,
        JS,
        "format",
        "function format(name) {\n  return String(name).trim();\n}",
    );
    assert!(out.contains("\n\n/**\n * Formats a name.\n */\nfunction format(name) {\n  return String(name).trim();\n}\n\nclass Store {"));
}

#[test]
fn replace_export_default_class_keeps_wrapper() {
    let out = replace(
        SRC,
        JS,
        "Panel",
        "class Panel {\n  render() {\n    return null;\n  }\n}",
    );
    assert!(out.contains(
        "\nexport default class Panel {\n  render() {\n    return null;\n  }\n}\n\nmodule.exports"
    ));
}

#[test]
fn replace_export_arrow_const() {
    let out = replace(SRC, JS, "double", "export const double = (n) => n + n;");
    assert!(out.contains("\nexport const double = (n) => n + n;\n"));
    assert!(!out.contains("export export"));
}

#[test]
fn insert_after_static_method() {
    let sym = one(SRC, JS, "create");
    let plan = plan_insert(
        SRC,
        &sym,
        "static empty() {\n  return new Store();\n}",
        false,
    );
    assert_eq!(plan.insert_line, 23);
    assert!(plan.new_source.contains(
        "    return new Store();\n  }\n\n  static empty() {\n    return new Store();\n  }\n}\n"
    ));
    assert_clean(&plan.new_source, JS);
}

#[test]
fn insert_after_function() {
    let out = insert_after(
        SRC,
        JS,
        "format",
        "function shout(s) {\n  return s.toUpperCase();\n}",
    );
    assert!(out.contains("  return name.trim();\n}\n\nfunction shout(s) {\n  return s.toUpperCase();\n}\n\nclass Store"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, JS, "formt", "format");
    assert_suggests(SRC, JS, "Store.ad", "Store.add");
}

#[test]
fn one_line_members_are_replaced_by_bytes_only() {
    let src = "class A { a() { return 1; } b() { return 2; } }\n";
    let out = replace(src, JS, "A.a", "a() { return 3; }");
    assert_eq!(out, "class A { a() { return 3; } b() { return 2; } }\n");
}

#[test]
fn jsx_in_js_file() {
    let src = "function App() {\n  return <div>hi</div>;\n}\n";
    let out = replace(src, JS, "App", "function App() {\n  return <p>bye</p>;\n}");
    assert_eq!(out, "function App() {\n  return <p>bye</p>;\n}\n");
}
