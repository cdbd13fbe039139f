//! Parsing, walking the tree for definitions, and computing each definition's full range.

use tree_sitter::{Node, Tree};

use super::grammar::Language;
use super::languages::{spec, Spec};
use super::names::name_of;
use super::parsing::parse;
use super::recover::TextBraces;
use super::{LeadingKind, LeadingPart, SymbolError, SymbolInfo};

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
    let braces = TextBraces::new(source);
    let found: Vec<SymbolInfo> = walk_defs(tree.root_node(), spec(lang), source, None)
        .into_iter()
        .filter_map(|d| build_info(d.node, d.path, lang, &braces))
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
/// level (`::add` is only the top-level `add`, not `Registry.add`). A trailing `@LINE` keeps only the
/// (narrowest) definition whose range holds that line, which tells apart same-named overloads; a trailing
/// parameter list (`add(int)`) is ignored. Several results mean the name is ambiguous.
///
/// Symbols whose node contains or sits inside an ERROR node are skipped. When nothing intact matches and an
/// occurrence of the name lies in a broken region (inside an ERROR node or a definition holding one), the
/// result is [`SymbolError::Parse`] with the line of that error; a name that only occurs in intact code (or
/// not at all) gives an empty result even in a file with errors elsewhere.
pub fn find_all_symbols(
    source: &str,
    lang: Language,
    name: &str,
) -> Result<Vec<SymbolInfo>, SymbolError> {
    let tree = parse(source, lang)?;
    find_all_symbols_in_tree(&tree, source, lang, name)
}

/// [`find_all_symbols`] on an already parsed tree (`tree` must be the parse of `source` as `lang`).
///
/// Only the parts of the tree that contain an occurrence of the name's last segment are walked.
pub fn find_all_symbols_in_tree(
    tree: &Tree,
    source: &str,
    lang: Language,
    name: &str,
) -> Result<Vec<SymbolInfo>, SymbolError> {
    find_in_tree(tree, source, lang, name, true)
}

/// [`find_all_symbols`] without the preprocessor views (the lookup inside a view).
pub(super) fn find_without_views(
    source: &str,
    lang: Language,
    name: &str,
) -> Result<Vec<SymbolInfo>, SymbolError> {
    find_in_tree(&parse(source, lang)?, source, lang, name, false)
}

fn find_in_tree(
    tree: &Tree,
    source: &str,
    lang: Language,
    name: &str,
    views: bool,
) -> Result<Vec<SymbolInfo>, SymbolError> {
    let wanted = Wanted::parse(name);
    if wanted.segments.is_empty() {
        return Ok(Vec::new());
    }
    let filter = Filter::new(source, &wanted.segments);
    let mut found = wanted.select(candidates(tree, source, lang, &wanted, filter.as_ref()));
    if views && tree.root_node().has_error() && matches!(lang, Language::C | Language::Cpp) {
        found = with_preprocessor_views(tree, source, lang, name, filter.as_ref(), found);
        if let Some(line) = unread_same_name(tree, source, lang, &wanted, filter.as_ref(), &found) {
            return Err(SymbolError::Parse {
                language: lang.name(),
                line,
            });
        }
    }
    if found.is_empty() && tree.root_node().has_error() {
        let broken = match &filter {
            Some(f) => broken_occurrence(tree.root_node(), spec(lang), &f.last),
            None => Some(first_error(tree.root_node())),
        };
        if let Some(line) = broken {
            if let Some(found) = super::chunked::find_in_intact_pieces(source, lang, name) {
                return Ok(found);
            }
            return Err(SymbolError::Parse {
                language: lang.name(),
                line,
            });
        }
    }
    Ok(found)
}

/// C/C++: for a name without `@LINE` whose lookup found something, the line of a same-named
/// definition head in a broken region that no found definition covers
/// ([`super::recover::unread_definition`]): picking among the found ones could pick the wrong one.
fn unread_same_name(
    tree: &Tree,
    source: &str,
    lang: Language,
    wanted: &Wanted,
    filter: Option<&Filter>,
    found: &[SymbolInfo],
) -> Option<usize> {
    if found.is_empty() || wanted.line.is_some() {
        return None;
    }
    let spec = spec(lang);
    let ranges: Vec<(usize, usize)> = found.iter().map(|s| (s.start_byte, s.end_byte)).collect();
    let segments = &wanted.segments;
    let name = super::recover::WantedName {
        last: segments.last()?,
        qualifier: segments.len().checked_sub(2).map(|i| segments[i]),
    };
    let def_name = |n: Node| {
        spec.def_for(n)
            .and_then(|d| name_of(n, d, source))
            .map(|named| named.name)
    };
    super::recover::unread_definition(
        tree.root_node(),
        source,
        &name,
        &filter?.last,
        &ranges,
        def_name,
    )
}

/// C/C++ whose parse broke where the name occurs: the definitions found in the preprocessor views
/// ([`super::c_view`]) join those of the whole parse, which they replace where both end at the same
/// byte (a view starts a definition at its annotation macro).
fn with_preprocessor_views(
    tree: &Tree,
    source: &str,
    lang: Language,
    name: &str,
    filter: Option<&Filter>,
    found: Vec<SymbolInfo>,
) -> Vec<SymbolInfo> {
    let broken = match filter {
        Some(f) => broken_occurrence(tree.root_node(), spec(lang), &f.last).is_some(),
        None => true,
    };
    let Some(mut viewed) = broken
        .then(|| super::c_view::find_in_views(source, lang, name))
        .flatten()
    else {
        return found;
    };
    for sym in found {
        if !viewed.iter().any(|v| v.end_byte == sym.end_byte) {
            viewed.push(sym);
        }
    }
    viewed.sort_by_key(|s| s.start_byte);
    viewed
}

/// A definition whose qualified path ends with the wanted segments, before [`Wanted::select`].
pub(super) struct Candidate {
    /// `None` when the definition holds a parse error (it still counts for [`Wanted::select`]'s rules).
    pub info: Option<SymbolInfo>,
    /// Length of the definition's qualified path.
    pub depth: usize,
}

/// The definitions in `tree` (the parse of `source`) whose path ends with the wanted segments.
pub(super) fn candidates(
    tree: &Tree,
    source: &str,
    lang: Language,
    wanted: &Wanted,
    filter: Option<&Filter>,
) -> Vec<Candidate> {
    let segments = &wanted.segments;
    let braces = TextBraces::new(source);
    walk_defs(tree.root_node(), spec(lang), source, filter)
        .into_iter()
        .filter(|d| {
            d.path.len() >= segments.len()
                && d.path[d.path.len() - segments.len()..] == segments[..]
        })
        .map(|d| Candidate {
            depth: d.path.len(),
            info: build_info(d.node, d.path, lang, &braces),
        })
        .collect()
}

/// The line of the parse error near the first occurrence of the name that sits in a broken region: inside an
/// ERROR node, or inside a definition-kind node that contains an error. `None` when every occurrence is in
/// intact code (the name is simply not defined).
fn broken_occurrence(root: Node, spec: &Spec, occ: &[(usize, usize)]) -> Option<usize> {
    for &(start, end) in occ {
        let mut cur = root.descendant_for_byte_range(start, end);
        while let Some(n) = cur {
            let def_kind = spec.defs.iter().any(|d| d.kind == n.kind());
            if n.is_error() || n.is_missing() || (def_kind && n.has_error()) {
                return Some(first_error(n));
            }
            cur = n.parent();
        }
    }
    None
}

/// A symbol name as asked for.
pub(super) struct Wanted<'a> {
    /// Path segments, outermost first.
    pub segments: Vec<&'a str>,
    /// A leading `::` or `.`: the path must be the whole qualified name.
    anchored: bool,
    /// A trailing `@LINE`: only the definition whose range holds that 1-based line.
    line: Option<usize>,
}

impl<'a> Wanted<'a> {
    /// Parses `Outer.Inner.name`, `ns::Class::name`, Lua's `M:name`, Ruby's `Class#name`, an optional
    /// parameter list (`name(int)`, ignored) and an optional `@LINE` suffix.
    pub(super) fn parse(name: &'a str) -> Wanted<'a> {
        let mut text = name.trim();
        let mut line = None;
        if let Some((head, digits)) = text.rsplit_once('@') {
            let digits = digits.trim();
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                line = digits.parse().ok();
                text = head.trim_end();
            }
        }
        if text.ends_with(')') {
            if let Some(open) = text.find('(').filter(|&i| !text[..i].ends_with("operator")) {
                text = text[..open].trim_end();
            }
        }
        let anchored = text.starts_with("::") || text.starts_with('.');
        let segments = text
            .split("::")
            .flat_map(|s| s.split(['.', ':']))
            .flat_map(|s| match s.get(1..).and_then(|rest| rest.find('#')) {
                Some(i) => vec![&s[..=i], &s[i + 2..]],
                None => vec![s],
            })
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        Wanted {
            segments,
            anchored,
            line,
        }
    }

    /// The matches among every candidate of the file: an anchored name, or a qualified one that some
    /// candidate spells out whole, keeps only whole-path matches; `@LINE` keeps the narrowest definition
    /// holding that line.
    pub(super) fn select(&self, candidates: Vec<Candidate>) -> Vec<SymbolInfo> {
        let n = self.segments.len();
        let exact_only = self.anchored || (n > 1 && candidates.iter().any(|c| c.depth == n));
        let mut found: Vec<SymbolInfo> = candidates
            .into_iter()
            .filter(|c| !exact_only || c.depth == n)
            .filter_map(|c| c.info)
            .collect();
        if let Some(line) = self.line {
            found.retain(|s| s.start_line <= line && line <= s.end_line);
            let narrowest = found.iter().map(|s| s.end_line - s.start_line).min();
            found.retain(|s| Some(s.end_line - s.start_line) == narrowest);
        }
        found
    }
}

/// Sorted `(start, end)` byte ranges of `name` in the source, or `None` (walk everything) when the name is
/// not a plain identifier, as for `impl Foo` or `operator==`, whose text may be spelled differently.
pub(super) fn occurrences(src: &str, name: &str) -> Option<Vec<(usize, usize)>> {
    if !is_plain(name) {
        return None;
    }
    let hits = memchr::memmem::find_iter(src.as_bytes(), name.as_bytes())
        .map(|p| (p, p + name.len()))
        .collect();
    Some(hits)
}

/// Whether `name` is spelled in the source exactly as written: an identifier, not a name that
/// [`super::names::split_qualified`] cleaned (white space, generic arguments or quotes removed).
pub(super) fn is_plain(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '#' | '~'))
}

/// Whether some occurrence lies inside `start..end`.
fn holds_occurrence(occ: &[(usize, usize)], start: usize, end: usize) -> bool {
    let i = occ.partition_point(|&(s, _)| s < start);
    occ.get(i).is_some_and(|&(_, e)| e <= end)
}

/// A definition found by [`walk_defs`], with its full qualified path.
struct Def<'t> {
    node: Node<'t>,
    path: Vec<String>,
}

/// Which subtrees can hold a definition matching a wanted name: those containing an occurrence of its last
/// segment and, for a qualified name, either an occurrence of its first segment or an enclosing scope that
/// has it (the first segment names an enclosing definition, whose name lies inside it).
pub(super) struct Filter {
    last: Vec<(usize, usize)>,
    first: Option<(String, Vec<(usize, usize)>)>,
}

impl Filter {
    /// `None` when the last segment is not a plain identifier (then everything is walked).
    pub(super) fn new(src: &str, wanted: &[&str]) -> Option<Filter> {
        let last = occurrences(src, wanted.last()?)?;
        let first = match wanted {
            [first, _, ..] => occurrences(src, first).map(|o| (first.to_string(), o)),
            _ => None,
        };
        Some(Filter { last, first })
    }

    fn admits(&self, node: Node, path: &[String]) -> bool {
        let (start, end) = (node.start_byte(), node.end_byte());
        holds_occurrence(&self.last, start, end)
            && match &self.first {
                Some((name, occ)) => {
                    path.iter().any(|p| p == name) || holds_occurrence(occ, start, end)
                }
                None => true,
            }
    }
}

/// Every listed, named definition in document order with its qualified path, in one cursor walk that keeps
/// the enclosing scopes on a stack. ERROR subtrees are not entered, nor, with a filter, subtrees it rejects.
fn walk_defs<'t>(
    root: Node<'t>,
    spec: &'static Spec,
    src: &str,
    filter: Option<&Filter>,
) -> Vec<Def<'t>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    let mut path: Vec<String> = Vec::new();
    // (depth of the definition node, path length before its scope was pushed)
    let mut scopes: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        let relevant = !node.is_error()
            && match filter {
                Some(f) => f.admits(node, &path),
                None => true,
            };
        if relevant {
            if let Some((def, named)) = spec
                .def_for(node)
                .and_then(|d| Some((d, name_of(node, d, src)?)))
            {
                if def.listed {
                    let mut full = path.clone();
                    full.extend(named.qualifier.iter().cloned());
                    full.push(named.name.clone());
                    out.push(Def { node, path: full });
                }
                scopes.push((depth, path.len()));
                path.extend(named.scope());
            }
        }
        if relevant && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            while let Some(&(d, len)) = scopes.last() {
                if d < depth {
                    break;
                }
                path.truncate(len);
                scopes.pop();
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
            depth -= 1;
        }
    }
}

/// The 1-based line of the first ERROR or MISSING node.
fn parse_error(tree: &Tree, lang: Language) -> SymbolError {
    SymbolError::Parse {
        language: lang.name(),
        line: first_error(tree.root_node()),
    }
}

/// The 1-based line of the first ERROR or MISSING node at or under `node` (its own line when none).
fn first_error(mut node: Node) -> usize {
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
    node.start_position().row + 1
}

/// The [`SymbolInfo`] of a definition node with its qualified path; `None` when the definition (with its
/// wrappers) holds a parse error, unless [`super::recover::errors_confined`] shows the error cannot move
/// its range.
fn build_info(
    node: Node,
    path: Vec<String>,
    lang: Language,
    braces: &TextBraces,
) -> Option<SymbolInfo> {
    let src = braces.src;
    let spec = spec(lang);
    let ext = extent(node, spec, src);
    let broken =
        ext.outer.has_error() && !super::recover::errors_confined(node, ext.outer, lang, braces);
    if broken || ext.start_byte > ext.end_byte {
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

/// The full range of the definition `node`: climbs to a single-declarator holder and to wrappers (export,
/// decorated definition, template), then takes in the doc comments and decorators above; a `;` right after
/// the definition on its last line belongs to it.
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

/// Doc comments and decorators/attributes just above `outer`, as earlier siblings, in source order. Comments
/// must touch the definition (no blank line) and start their line; inner doc comments (`//!`) never count.
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
            let text = src.get(prev.byte_range()).unwrap_or("");
            let inner_doc = text.starts_with("//!") || text.starts_with("/*!");
            if last_row + 1 < top_row || !starts_line(src, prev.start_byte()) || inner_doc {
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
    let end = node.end_byte().min(src.len());
    let start = node.start_byte().min(end);
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
