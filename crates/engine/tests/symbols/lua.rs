use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const LUA: Language = Language::Lua;

const SRC: &str = r#"local M = {}

-- Adds two numbers.
local function add(a, b)
  return a + b
end

function M.push(stack, x)
  table.insert(stack, x)
end

function M:pop()
  return table.remove(self)
end

function push(x)
  return x
end

return M
"#;

#[test]
fn dotted_and_method_functions_are_qualified() {
    assert_eq!(all_names(SRC, LUA), vec!["add", "M.push", "M.pop", "push"]);
    assert_eq!(
        span(&one(SRC, LUA, "add")),
        (3, 6, "function_declaration", "add")
    );
    assert_eq!(
        span(&one(SRC, LUA, "M.pop")),
        (12, 14, "function_declaration", "M.pop")
    );
    let found: Vec<String> = find_all_symbols(SRC, LUA, "push")
        .unwrap()
        .into_iter()
        .map(|s| s.qualified_name)
        .collect();
    assert_eq!(found, vec!["M.push", "push"]);
}

#[test]
fn replace_keeps_comment() {
    let out = replace(
        SRC,
        LUA,
        "add",
        "local function add(a, b)\n  return b + a\nend",
    );
    assert!(out.contains("local M = {}\n\n-- Adds two numbers.\nlocal function add(a, b)\n  return b + a\nend\n\nfunction M.push"));
}

#[test]
fn insert_after_method() {
    let out = insert_after(
        SRC,
        LUA,
        "M.pop",
        "function M:peek()\n  return self[#self]\nend",
    );
    assert!(out.contains("  return table.remove(self)\nend\n\nfunction M:peek()\n  return self[#self]\nend\n\nfunction push(x)"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, LUA, "M.popp", "M.pop");
}
