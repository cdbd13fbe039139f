use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const RB: Language = Language::Ruby;

const SRC: &str = r#"require "json"

# Demo module.
module Demo
  # A stack.
  class Stack
    def initialize
      @items = []
    end

    def push(x)
      @items.push(x)
    end

    def self.build
      new
    end
  end
end

def push(x)
  x
end
"#;

#[test]
fn modules_classes_and_methods_are_qualified() {
    assert_eq!(
        all_names(SRC, RB),
        vec![
            "Demo",
            "Demo.Stack",
            "Demo.Stack.initialize",
            "Demo.Stack.push",
            "Demo.Stack.build",
            "push"
        ]
    );
    assert_eq!(
        span(&one(SRC, RB, "Stack.push")),
        (11, 13, "method", "Demo.Stack.push")
    );
    assert_eq!(
        span(&one(SRC, RB, "Stack#push")),
        (11, 13, "method", "Demo.Stack.push")
    );
    assert_eq!(
        span(&one(SRC, RB, "build")),
        (15, 17, "singleton_method", "Demo.Stack.build")
    );
    assert_eq!(span(&one(SRC, RB, "Stack")), (5, 18, "class", "Demo.Stack"));
}

#[test]
fn duplicates() {
    let found: Vec<String> = find_all_symbols(SRC, RB, "push")
        .unwrap()
        .into_iter()
        .map(|s| s.qualified_name)
        .collect();
    assert_eq!(found, vec!["Demo.Stack.push", "push"]);
}

#[test]
fn replace_method_reindents() {
    let out = replace(
        SRC,
        RB,
        "Stack.push",
        "def push(x)\n  @items.unshift(x)\nend",
    );
    assert!(out.contains(
        "    end\n\n    def push(x)\n      @items.unshift(x)\n    end\n\n    def self.build"
    ));
}

#[test]
fn replace_class_keeps_comment() {
    let out = replace(SRC, RB, "Stack", "class Stack\nend");
    assert!(out.contains("module Demo\n  # A stack.\n  class Stack\n  end\nend\n"));
}

#[test]
fn insert_after_method() {
    let out = insert_after(SRC, RB, "initialize", "def size\n  @items.size\nend");
    assert!(out.contains(
        "      @items = []\n    end\n\n    def size\n      @items.size\n    end\n\n    def push(x)"
    ));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, RB, "Stack.pusj", "Demo.Stack.push");
}
