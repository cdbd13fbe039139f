use edit_engine_core::symbols::{find_all_symbols, plan_replace, Language};

use crate::common::*;

const PY: Language = Language::Python;

const SRC: &str = r#"import os


# Reads the config.
def load(path):
    return open(path).read()


class Store:
    """A store."""

    def __init__(self):
        self.items = []

    @property
    def size(self):
        return len(self.items)

    def add(self, item):
        self.items.append(item)

    class Meta:
        def add(self):
            pass


@app.route("/x")
def add(request):
    return "ok"
"#;

#[test]
fn finds_function_with_comment_above() {
    let s = one(SRC, PY, "load");
    assert_eq!(span(&s), (4, 6, "function_definition", "load"));
    assert_eq!(
        s.code,
        "# Reads the config.\ndef load(path):\n    return open(path).read()"
    );
}

#[test]
fn duplicates_have_distinct_qualified_names() {
    let found = find_all_symbols(SRC, PY, "add").unwrap();
    let spans: Vec<_> = found.iter().map(span).collect();
    assert_eq!(
        spans,
        vec![
            (19, 20, "function_definition", "Store.add"),
            (23, 24, "function_definition", "Store.Meta.add"),
            (27, 29, "function_definition", "add"),
        ]
    );
    assert_eq!(matches(SRC, PY, "Meta.add"), vec!["Store.Meta.add"]);
    assert_eq!(matches(SRC, PY, "Store.add"), vec!["Store.add"]);
}

#[test]
fn decorated_method_range_includes_decorator() {
    let s = one(SRC, PY, "size");
    assert_eq!(span(&s), (15, 17, "function_definition", "Store.size"));
    assert_eq!(
        s.code,
        "    @property\n    def size(self):\n        return len(self.items)"
    );
}

#[test]
fn replace_method_keeps_decorator_and_reindents() {
    let out = replace(SRC, PY, "Store.size", "def size(self):\n    return 0");
    assert!(out.contains("        self.items = []\n\n    @property\n    def size(self):\n        return 0\n\n    def add(self, item):"));
}

#[test]
fn replace_restating_decorator_replaces_it() {
    let out = replace(
        SRC,
        PY,
        "Store.size",
        "@cached_property\ndef size(self):\n    return 1",
    );
    assert!(out.contains("\n    @cached_property\n    def size(self):\n        return 1\n"));
    assert!(!out.contains("@property"));
}

#[test]
fn replace_top_level_decorated_function_keeps_decorator_args() {
    let sym = find_all_symbols(SRC, PY, "add").unwrap().pop().unwrap();
    let plan = plan_replace(SRC, &sym, "def add(request):\n    return \"changed\"");
    assert!(plan
        .new_source
        .ends_with("\n\n@app.route(\"/x\")\ndef add(request):\n    return \"changed\"\n"));
    assert_eq!(plan.new_line_count, 3);
    assert_clean(&plan.new_source, PY);
}

#[test]
fn replace_keeps_comment_above() {
    let out = replace(
        SRC,
        PY,
        "load",
        "def load(path):\n    with open(path) as f:\n        return f.read()",
    );
    assert!(out.contains("\n\n\n# Reads the config.\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\n\nclass Store:"));
}

#[test]
fn insert_after_method() {
    let out = insert_after(
        SRC,
        PY,
        "Store.__init__",
        "def clear(self):\n    self.items = []",
    );
    assert!(out.contains(
        "        self.items = []\n\n    def clear(self):\n        self.items = []\n\n    @property"
    ));
}

#[test]
fn insert_after_class_at_top_level() {
    let out = insert_after(SRC, PY, "Store", "def helper():\n    pass");
    assert!(out.contains("            pass\n\ndef helper():\n    pass\n\n\n@app.route"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, PY, "lod", "load");
    assert_suggests(SRC, PY, "Store.sise", "Store.size");
}
