//! Parsing, walking the tree for definitions, and computing each definition's full range.

use tree_sitter::{Node, Parser, Tree};

use super::grammar::Language;
use super::languages::{spec, DefKind, Spec};
use super::names::{name_of, qualified_path, Named};
use super::{LeadingKind, LeadingPart, SymbolError, SymbolInfo};

/// Parses `source` as `lang`. Fails only when the grammar cannot be loaded or the parser gives up; a tree
/// with ERROR nodes is still returned.
pub fn parse(source: &str, lang: Language) -> Result<Tree, SymbolError> {
    let mut parser = new_parser(lang)?;
    parser.parse(source, None).ok_or(SymbolError::Parse {
        language: lang.name(),
        line: 1,
    })
}

/// A parser loaded with `lang`'s grammar.
pub(crate) fn new_parser(lang: Language) -> Result<Parser, SymbolError> {
    let mut parser = Parser::new();
    parser
        .set_language(&lang.grammar())
        .map_err(|e| SymbolError::Grammar {
            language: lang.name(),
            message: e.to_string(),
        })?;
    Ok(parser)
}

/// Every definition in `source`, in source order (outer before inner), each with its qualified name.
///
/// Definitions inside ERROR nodes or containing one are left out; when the tree has errors and no intact
/// definition remains, the result is [`SymbolError::Parse`] with the line of the first error.
pub fn list_symbols(source: &str, lang: Language) -> Result<Vec<SymbolInfo>, SymbolError> {
    let tree = parse(source, lang)?;
    list_symbols_in_tree(&tree, source, lang)
}

/// [`list_symbols`] on an already parsed tree (`tree` must be the parse of `source` as `lang`).
pub fn list_symbols_in_tree(
    tree: &Tree,
    source: &str,
    lang: Language,
) -> Result<Vec<SymbolInfo>, SymbolError> {
    let spec = spec(lang);
    let found: Vec<SymbolInfo> = collect_defs(tree.root_node(), spec, source)
        .into_iter()
        .filter_map(|(node, def, named)| build_info(node, def, &named, lang, source))
        .collect();
    if found.is_empty() && tree.root_node().has_error() {
        return Err(parse_error(tree, lang));
    }
    Ok(found)
}

/// The definitions matching `name`: a bare name (`push`) or a dot-qualified one (`Calc.push`, `Demo.Calc.push`;
/// `::` and Ruby's `Class#method` also work). A qualified name matches when it is a suffix of the symbol's
/// qualified path, so outer namespaces/modules may be left out; when a dotted name equals some symbol's whole
/// qualified name, only those exact matches are returned. A leading `::` or `.` anchors the name at the top
/// level (`::add` is only the top-level `add`, not `Registry.add`). Several results mean the name is
/// ambiguous.
///
/// Symbols whose node contains or sits inside an ERROR node are skipped; when nothing intact matches and the
/// tree has errors, the result is [`SymbolError::Parse`] with the line of the first error.
pub fn find_all_symbols(
    source: &str,
    lang: Language,
    name: &str,
) -> Result<Vec<SymbolInfo>, SymbolError> {
    let tree = parse(source, lang)?;
    find_all_symbols_in_tree(&tree, source, lang, name)
}

/// [`find_all_symbols`] on an already parsed tree (`tree` must be the parse of `source` as `lang`).
pub fn find_all_symbols_in_tree(
    tree: &Tree,
    source: &str,
    lang: Language,
    name: &str,
) -> Result<Vec<SymbolInfo>, SymbolError> {
    let wanted = wanted_segments(name);
    let Some(last) = wanted.last() else {
        return Ok(Vec::new());
    };
    let spec = spec(lang);
    let mut found = Vec::new();
    for (node, def) in candidates(tree.root_node(), spec, source, last) {
        let Some(named) = name_of(node, def, source) else {
            continue;
        };
        if named.name != *last {
            continue;
        }
        if let Some(info) = build_info(node, def, &named, lang, source) {
            let path: Vec<&str> = info.qualified_name.split('.').collect();
            if path.len() >= wanted.len() && path[path.len() - wanted.len()..] == wanted[..] {
                found.push(info);
            }
        }
    }
    let anchored = name.trim_start().starts_with("::") || name.trim_start().starts_with('.');
    let exact = |s: &SymbolInfo| s.qualified_name.split('.').count() == wanted.len();
    if anchored || (wanted.len() > 1 && found.iter().any(exact)) {
        found.retain(exact);
    }
    found.sort_by_key(|s| s.start_byte);
    found.dedup_by_key(|s| (s.start_byte, s.end_byte, s.qualified_name.clone()));
    if found.is_empty() && tree.root_node().has_error() {
        return Err(parse_error(tree, lang));
    }
    Ok(found)
}

/// Splits a wanted name into segments on `.`, `::` and a non-leading `#`.
fn wanted_segments(name: &str) -> Vec<&str> {
    name.trim()
        .split("::")
        .flat_map(|s| s.split('.'))
        .flat_map(|s| match s.get(1..).and_then(|rest| rest.find('#')) {
            Some(i) => vec![&s[..=i], &s[i + 2..]],
            None => vec![s],
        })
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Definition nodes that may be named `last`: found from the occurrences of `last` in the source, climbing from
/// each occurrence to the nearest enclosing definition. Falls back to a full walk for names that are not plain
/// identifiers (`impl Foo`, `operator==`).
fn candidates<'t>(
    root: Node<'t>,
    spec: &'static Spec,
    src: &str,
    last: &str,
) -> Vec<(Node<'t>, &'static DefKind)> {
    let plain = last
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '#' || c == '~');
    if !plain {
        return collect_defs(root, spec, src)
            .into_iter()
            .map(|(n, d, _)| (n, d))
            .collect();
    }
    let mut out: Vec<(Node<'t>, &'static DefKind)> = Vec::new();
    for pos in memchr::memmem::find_iter(src.as_bytes(), last.as_bytes()) {
        let Some(mut cur) = root.descendant_for_byte_range(pos, pos + last.len()) else {
            continue;
        };
        for _ in 0..8 {
            if let Some(def) = spec.def_for(cur).filter(|d| d.listed) {
                if !out.iter().any(|(n, _)| n.id() == cur.id()) {
                    out.push((cur, def));
                }
                break;
            }
            match cur.parent() {
                Some(p) => cur = p,
                None => break,
            }
        }
    }
    out
}

/// Every listed definition with a name, in document order, skipping ERROR subtrees.
fn collect_defs<'t>(
    root: Node<'t>,
    spec: &'static Spec,
    src: &str,
) -> Vec<(Node<'t>, &'static DefKind, Named)> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let mut descend = !node.is_error();
        if descend {
            if let Some(def) = spec.def_for(node).filter(|d| d.listed) {
                if let Some(named) = name_of(node, def, src) {
                    out.push((node, def, named));
                }
            }
            descend = node.child_count() > 0;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// The 1-based line of the first ERROR or MISSING node.
fn parse_error(tree: &Tree, lang: Language) -> SymbolError {
    let mut node = tree.root_node();
    'down: loop {
        if node.is_error() || node.is_missing() {
            break;
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.has_error() {
                node = child;
                continue 'down;
            }
        }
        break;
    }
    SymbolError::Parse {
        language: lang.name(),
        line: node.start_position().row + 1,
    }
}

/// The [`SymbolInfo`] of a definition node; `None` when the node or an ancestor holds a parse error.
fn build_info(
    node: Node,
    def: &DefKind,
    named: &Named,
    lang: Language,
    src: &str,
) -> Option<SymbolInfo> {
    let _ = def;
    let spec = spec(lang);
    let (path, in_error) = qualified_path(node, named, spec, src);
    let ext = extent(node, spec, src);
    if in_error || ext.outer.has_error() || ext.start_byte > ext.end_byte {
        return None;
    }
    let code_start = line_start(src, ext.start_byte);
    let code_end = line_end(src, ext.end_byte);
    Some(SymbolInfo {
        start_line: ext.start_row + 1,
        end_line: ext.end_row + 1,
        start_byte: ext.start_byte,
        end_byte: ext.end_byte,
        code: src.get(code_start..code_end)?.to_string(),
        node_type: ext.node_type,
        qualified_name: path.join("."),
        language: lang,
        leading: ext.leading,
    })
}

/// A definition's full range.
struct Extent<'t> {
    /// The outermost node of the definition (wrapper or holder, else the definition node).
    outer: Node<'t>,
    node_type: String,
    start_byte: usize,
    end_byte: usize,
    start_row: usize,
    end_row: usize,
    leading: Vec<LeadingPart>,
}

fn extent<'t>(node: Node<'t>, spec: &Spec, src: &str) -> Extent<'t> {
    let mut outer = node;
    let mut node_type = node.kind();
    if let Some(p) = node.parent().filter(|p| spec.holders.contains(&p.kind())) {
        let mut cursor = p.walk();
        let members = p
            .named_children(&mut cursor)
            .filter(|c| !spec.comments.contains(&c.kind()))
            .count();
        if members == 1 {
            outer = p;
            node_type = p.kind();
        }
    }
    let mut chain = vec![node];
    if outer.id() != node.id() {
        chain.push(outer);
    }
    while let Some(p) = outer.parent().filter(|p| spec.wrappers.contains(&p.kind())) {
        outer = p;
        chain.push(p);
    }
    chain.reverse();
    let mut marks = sibling_marks(outer, spec, src);
    marks.extend(inner_marks(&chain, spec));
    let (start_byte, start_row) = marks
        .first()
        .map(|m| (m.start, m.row))
        .unwrap_or((outer.start_byte(), outer.start_position().row));
    let last = outer
        .next_sibling()
        .filter(|n| n.kind() == ";" && n.start_position().row == outer.end_position().row)
        .unwrap_or(outer);
    let (end_byte, end_row) = trimmed_end(last, src);
    let leading = group_marks(&marks, src);
    Extent {
        outer,
        node_type: node_type.to_string(),
        start_byte,
        end_byte,
        start_row,
        end_row,
        leading,
    }
}

/// One node that belongs to a leading part.
#[derive(Debug, Clone, Copy)]
struct Mark {
    kind: LeadingKind,
    start: usize,
    end: usize,
    row: usize,
}

fn mark(kind: LeadingKind, n: Node) -> Mark {
    Mark {
        kind,
        start: n.start_byte(),
        end: n.end_byte(),
        row: n.start_position().row,
    }
}

/// Doc comments and decorators/attributes just above `outer`, as earlier siblings, in source order. A `;`
/// right after the definition on its last line belongs to the definition (see [`extent`]).
fn sibling_marks(outer: Node, spec: &Spec, src: &str) -> Vec<Mark> {
    let mut marks: Vec<Mark> = Vec::new();
    let mut top_row = outer.start_position().row;
    // A body that starts with the definition may have the comment above it as the body's own sibling
    // (Ruby, Python: the comment hangs off the enclosing class/module before its body node).
    let mut anchor = outer;
    while anchor.prev_sibling().is_none() {
        match anchor.parent() {
            Some(p) if p.start_byte() == anchor.start_byte() => anchor = p,
            _ => break,
        }
    }
    let mut cur = anchor.prev_sibling();
    while let Some(prev) = cur {
        let kind = prev.kind();
        if spec.decorators.contains(&kind) {
            marks.push(mark(LeadingKind::Decorators, prev));
        } else if spec.comments.contains(&kind) {
            let last_row = last_row(prev, src);
            if last_row + 1 < top_row || !starts_line(src, prev.start_byte()) {
                break;
            }
            marks.push(mark(LeadingKind::DocComment, prev));
        } else {
            break;
        }
        top_row = prev.start_position().row;
        cur = prev.prev_sibling();
    }
    marks.reverse();
    // Comments between attributes belong to the attributes: only comments above the first one are docs.
    let mut seen_decorator = false;
    for m in &mut marks {
        if m.kind == LeadingKind::Decorators {
            seen_decorator = true;
        } else if seen_decorator {
            m.kind = LeadingKind::Decorators;
        }
    }
    marks
}

/// Decorators and export/visibility tokens inside the wrapper chain, before each inner node.
fn inner_marks(chain: &[Node], spec: &Spec) -> Vec<Mark> {
    let mut marks = Vec::new();
    for (i, node) in chain.iter().enumerate() {
        let next_id = chain.get(i + 1).map(|n| n.id());
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if Some(child.id()) == next_id {
                break;
            }
            let kind = child.kind();
            if spec.decorators.contains(&kind) {
                marks.push(mark(LeadingKind::Decorators, child));
            } else if spec.visibility.contains(&kind) {
                marks.push(mark(LeadingKind::Modifier, child));
            } else if spec.modifier_lists.contains(&kind) {
                let mut c2 = child.walk();
                for m in child.children(&mut c2) {
                    if spec.decorators.contains(&m.kind()) {
                        marks.push(mark(LeadingKind::Decorators, m));
                    } else if !spec.comments.contains(&m.kind()) {
                        break;
                    }
                }
            } else if next_id.is_none() && !spec.comments.contains(&kind) {
                // The definition proper starts here.
                break;
            }
        }
    }
    marks
}

/// Contiguous leading parts: consecutive marks of one kind merge; each part runs to the first non-white-space
/// byte after its last node.
fn group_marks(marks: &[Mark], src: &str) -> Vec<LeadingPart> {
    let mut parts: Vec<LeadingPart> = Vec::new();
    for m in marks {
        let end = skip_ws(src, m.end);
        match parts.last_mut() {
            Some(p) if p.kind == m.kind => p.end_byte = end.max(p.end_byte),
            _ => parts.push(LeadingPart {
                kind: m.kind,
                start_byte: m.start,
                end_byte: end,
            }),
        }
    }
    parts
}

/// The node's end with trailing white space removed, and the row of its last byte.
fn trimmed_end(node: Node, src: &str) -> (usize, usize) {
    let start = node.start_byte();
    let end = node.end_byte();
    let text = src.get(start..end).unwrap_or("");
    let trimmed = start + text.trim_end().len();
    let dropped_rows = src.get(trimmed..end).map_or(0, |t| t.matches('\n').count());
    let row = node.end_position().row.saturating_sub(dropped_rows);
    (trimmed, row)
}

fn last_row(node: Node, src: &str) -> usize {
    trimmed_end(node, src).1
}

/// Whether only spaces/tabs precede `pos` on its line.
pub(crate) fn starts_line(src: &str, pos: usize) -> bool {
    let ls = line_start(src, pos);
    src.get(ls..pos)
        .is_some_and(|t| t.chars().all(|c| c == ' ' || c == '\t'))
}

/// The byte offset of the start of the line holding `pos`.
pub(crate) fn line_start(src: &str, pos: usize) -> usize {
    let pos = pos.min(src.len());
    memchr::memrchr(b'\n', &src.as_bytes()[..pos]).map_or(0, |i| i + 1)
}

/// The byte offset of the end of the line holding the byte before `pos` (the `\n` position, or the end).
pub(crate) fn line_end(src: &str, pos: usize) -> usize {
    let pos = pos.min(src.len());
    if pos > 0 && src.as_bytes()[pos - 1] == b'\n' {
        return pos - 1;
    }
    memchr::memchr(b'\n', &src.as_bytes()[pos..]).map_or(src.len(), |i| pos + i)
}

/// The first byte at or after `pos` that is not white space.
fn skip_ws(src: &str, pos: usize) -> usize {
    let bytes = src.as_bytes();
    let mut i = pos.min(bytes.len());
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}
