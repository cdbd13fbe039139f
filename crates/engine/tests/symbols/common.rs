//! Helpers shared by the per-language symbol tests.

use edit_engine_core::symbols::{
    closest_names, find_all_symbols, find_all_symbols_chunked, list_symbols, parse, plan_insert,
    plan_replace, Language, SymbolError, SymbolInfo,
};
use serde_json::json;

#[path = "../support/edit_call.rs"]
mod edit_call;

/// [`find_all_symbols`], checking on the way that the chunked lookup (when it applies) agrees on a source
/// that parses cleanly: every JavaScript and TypeScript test doubles as a test of the chunked lookup.
pub fn lookup(src: &str, lang: Language, name: &str) -> Result<Vec<SymbolInfo>, SymbolError> {
    let full = find_all_symbols(src, lang, name);
    if !parse(src, lang).expect("parse").root_node().has_error() {
        if let Some(chunked) = find_all_symbols_chunked(src, lang, name) {
            assert_eq!(
                chunked, full,
                "chunked lookup of `{name}` differs in:\n{src}"
            );
        }
    }
    full
}

/// The single symbol named `name`; panics (test failure) when there are zero or several.
pub fn one(src: &str, lang: Language, name: &str) -> SymbolInfo {
    let found = lookup(src, lang, name).expect("lookup");
    assert_eq!(
        found.len(),
        1,
        "expected one `{name}`, got {:?}",
        found.iter().map(|s| &s.qualified_name).collect::<Vec<_>>()
    );
    found.into_iter().next().unwrap()
}

/// Qualified names of every match of `name`.
pub fn matches(src: &str, lang: Language, name: &str) -> Vec<String> {
    lookup(src, lang, name)
        .expect("lookup")
        .into_iter()
        .map(|s| s.qualified_name)
        .collect()
}

/// Qualified names of every definition.
pub fn all_names(src: &str, lang: Language) -> Vec<String> {
    list_symbols(src, lang)
        .expect("list")
        .into_iter()
        .map(|s| s.qualified_name)
        .collect()
}

/// Asserts that `src` parses without ERROR or MISSING nodes.
pub fn assert_clean(src: &str, lang: Language) {
    let tree = parse(src, lang).expect("parse");
    assert!(
        !tree.root_node().has_error(),
        "result does not parse cleanly:\n{src}"
    );
}

/// Replaces `name` with `new` and checks the result still parses cleanly.
pub fn replace(src: &str, lang: Language, name: &str, new: &str) -> String {
    assert_clean(src, lang);
    let sym = one(src, lang, name);
    let plan = plan_replace(src, &sym, new);
    assert_clean(&plan.new_source, lang);
    plan.new_source
}

/// Inserts `new` after `name` and checks the result still parses cleanly.
pub fn insert_after(src: &str, lang: Language, name: &str, new: &str) -> String {
    let sym = one(src, lang, name);
    let plan = plan_insert(src, &sym, new, false);
    assert_clean(&plan.new_source, lang);
    plan.new_source
}

/// Checks that `wanted` is not found and that the first suggestion is `expected`.
pub fn assert_suggests(src: &str, lang: Language, wanted: &str, expected: &str) {
    assert!(
        matches(src, lang, wanted).is_empty(),
        "`{wanted}` should not be found"
    );
    let all = list_symbols(src, lang).expect("list");
    let names = closest_names(&all, wanted, 3);
    assert_eq!(
        names.first().map(String::as_str),
        Some(expected),
        "suggestions: {names:?}"
    );
}

/// `(start_line, end_line, node_type, qualified_name)` of a symbol.
pub fn span(s: &SymbolInfo) -> (usize, usize, &str, &str) {
    (
        s.start_line,
        s.end_line,
        s.node_type.as_str(),
        s.qualified_name.as_str(),
    )
}

/// Runs one symbol `edit` call on `name` holding `content`; the reply and the file after it.
pub fn symbol_edit(name: &str, content: &str, symbol: &str, new: &str) -> (String, String) {
    edit_call::edit_in(
        name,
        content,
        json!({ "symbol": symbol, "new_string": new }),
    )
}
