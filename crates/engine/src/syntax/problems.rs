//! The parse errors of a tree: ERROR nodes (nested ones too: a file whose recovery wraps everything in one
//! ERROR still shows where a new error is) and MISSING tokens.

use tree_sitter::{Node, Tree};

/// Most errors collected from one tree (a hopeless file stops the walk early).
const MAX_ERRORS: usize = 256;

/// What tree-sitter reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Text the grammar could not place.
    Error,
    /// A token the parser inserted to recover (its kind: `}`, `)`, `;`, ...).
    Missing(String),
    /// A Python indentation rule broken (the rule, in words).
    Indent(&'static str),
}

/// One error, in byte offsets of the text it was found in (plus the caller's `offset`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawProblem {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
    /// The name of the call-shaped construct the error is in or right after (`TEST_CASE` for a MISSING
    /// `;` after `TEST_CASE("x") {`), when there is one: macros a grammar cannot parse fail this way.
    pub call: Option<String>,
}

/// Every error of `tree`, ascending by start, offsets moved by `offset`. Descends only into nodes that
/// contain an error, so a clean tree costs one check of the root.
pub(crate) fn collect(tree: &Tree, src: &str, offset: usize) -> Vec<RawProblem> {
    let mut found = Vec::new();
    let root = tree.root_node();
    if !root.has_error() {
        return found;
    }
    let mut stack: Vec<Node> = vec![root];
    while let Some(node) = stack.pop() {
        if found.len() >= MAX_ERRORS {
            break;
        }
        let kind = if node.is_missing() {
            Some(Kind::Missing(node.kind().to_string()))
        } else if node.is_error() {
            Some(Kind::Error)
        } else {
            None
        };
        if let Some(kind) = kind {
            let shaped = match kind {
                Kind::Missing(_) => node.prev_sibling(),
                _ => Some(node),
            };
            found.push(RawProblem {
                kind,
                start: node.start_byte() + offset,
                end: node.end_byte() + offset,
                call: shaped.and_then(|n| call_name(src.get(n.start_byte()..n.end_byte())?)),
            });
        }
        if !node.has_error() {
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    found.sort_by_key(|p| (p.start, p.end));
    found
}

/// `NAME` when `text` starts with `NAME(` (an identifier, possibly `::`-qualified, then a parenthesis).
fn call_name(text: &str) -> Option<String> {
    let text = text.trim_start();
    let name_len = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    let (name, rest) = text.split_at(name_len);
    let named = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    (named && rest.trim_start().starts_with('(')).then(|| name.to_string())
}

/// Byte ranges of the root's children (the top-level pieces), moved by `offset`.
pub(crate) fn top_level_ranges(tree: &Tree, offset: usize) -> Vec<(usize, usize)> {
    let root = tree.root_node();
    let mut cursor = root.walk();
    root.children(&mut cursor)
        .map(|n| (n.start_byte() + offset, n.end_byte() + offset))
        .collect()
}
