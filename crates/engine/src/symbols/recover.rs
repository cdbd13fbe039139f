//! C and C++ definitions whose parse holds errors that cannot move their range: a statement macro
//! without `;` (`test_cond(...)`, `TEST("...") {`), a type as a macro argument (`va_arg(ap, char *)`)
//! or an expression tree-sitter-cpp does not know (`decltype(a, b)`) inside a body, or a macro in a
//! template parameter list (`template <typename T, ENABLE_IF(cond)>`).
//!
//! Such a definition still counts when every error lies strictly inside its body's braces or inside
//! a `template <...>` list, and the body's braces, counted from the text alone (comments, literals
//! and directive lines skipped), close exactly where the parse ends the body: two independent readings
//! agree on the range, so replacing it replaces the definition whole. The braces of the whole text must
//! balance too: a macro that opens or closes a block (`FOR_EACH(x) BEGIN`) misleads both readings alike.

use std::cell::OnceCell;

use tree_sitter::Node;

use super::grammar::Language;

/// The name wanted, as [`unread_definition`] needs it.
pub(super) struct WantedName<'a> {
    /// The last segment (`name` of `A::name`).
    pub last: &'a str,
    /// The segment before it (`A`), if any.
    pub qualifier: Option<&'a str>,
}

/// C/C++ with a parse error: the 1-based line of a definition head of the name (`name(...)` followed,
/// past its qualifiers, by the body's `{`) that lies in a part of the tree no definition was read
/// from (an ERROR node, or a definition holding an error) and outside every range in `found`. Such a
/// same-named definition was not read, so the ones found may not be the one meant. With a qualifier
/// (`A` of `A::name`), a head counts only inside a definition named so or, outside any named one,
/// when written `A::name` or unqualified. `def_name` gives a definition node's name (`None` for
/// other nodes).
pub(super) fn unread_definition(
    root: Node,
    src: &str,
    wanted: &WantedName,
    occurrences: &[(usize, usize)],
    found: &[(usize, usize)],
    def_name: impl Fn(Node) -> Option<String>,
) -> Option<usize> {
    occurrences
        .iter()
        .filter(|&&(s, e)| !found.iter().any(|&(a, b)| a <= s && e <= b))
        .filter(|&&(s, e)| is_word(src, s, e) && heads_definition(src, e))
        .find(|&&(s, e)| {
            let Some(leaf) = root.descendant_for_byte_range(s, e) else {
                return false;
            };
            let (mut broken, mut owner) = (false, None);
            let mut cur = leaf.parent();
            while let Some(n) = cur {
                let name = def_name(n);
                broken |= n.is_error() || (name.is_some() && n.has_error());
                if owner.is_none() && name.as_deref().is_some_and(|d| d != wanted.last) {
                    owner = name;
                }
                cur = n.parent();
            }
            let code = !leaf.kind().contains("comment") && !leaf.kind().contains("string");
            code && broken && qualifier_fits(src, s, wanted.qualifier, owner.as_deref())
        })
        .map(|&(s, _)| src[..s].matches('\n').count() + 1)
}

/// Whether a head at `start`, inside a definition named `owner` (if any), can be `qualifier::name`.
fn qualifier_fits(src: &str, start: usize, qualifier: Option<&str>, owner: Option<&str>) -> bool {
    let Some(q) = qualifier else {
        return true;
    };
    if let Some(owner) = owner {
        return owner == q;
    }
    let before = src[..start].trim_end();
    match before.strip_suffix("::") {
        Some(rest) => rest.trim_end().ends_with(q),
        None => true,
    }
}

/// Whether `src[start..end]` is a whole identifier, not a member access (`.name`, `->name`).
fn is_word(src: &str, start: usize, end: usize) -> bool {
    let b = src.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let before = src[..start].trim_end().as_bytes();
    (start == 0 || !ident(b[start - 1]))
        && !b.get(end).is_some_and(|&c| ident(c))
        && !before.ends_with(b".")
        && !before.ends_with(b"->")
}

/// Whether the name ending at `end` is followed by a parameter list and then, before any `;`, `}`,
/// `=` or unmatched `)`, by a `{` (comments and literals skipped).
fn heads_definition(src: &str, end: usize) -> bool {
    let b = src.as_bytes();
    let open = end
        + b[end..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
    if b.get(open) != Some(&b'(') {
        return false;
    }
    let mut depth = 0isize;
    let mut verdict: Option<bool> = None;
    let stop = (open + 2048).min(b.len());
    for_each_code_byte(src, open, stop, |_, c| {
        if verdict.is_some() {
            return;
        }
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    verdict = Some(false);
                }
            }
            b'{' if depth == 0 => verdict = Some(true),
            b';' | b'}' => verdict = Some(false),
            b'=' if depth == 0 => verdict = Some(false),
            _ => {}
        }
    });
    verdict == Some(true)
}

/// A source text, with whether its braces balance worked out once, on first need.
pub(super) struct TextBraces<'s> {
    pub src: &'s str,
    balanced: OnceCell<bool>,
}

impl<'s> TextBraces<'s> {
    pub fn new(src: &'s str) -> TextBraces<'s> {
        TextBraces {
            src,
            balanced: OnceCell::new(),
        }
    }

    fn balanced(&self) -> bool {
        *self.balanced.get_or_init(|| braces_balance(self.src))
    }
}

/// Whether the errors under `outer` (the definition `def` with its wrappers) all lie where they cannot
/// change the definition's range, as the module says. Always `false` outside C and C++.
pub(super) fn errors_confined(def: Node, outer: Node, lang: Language, text: &TextBraces) -> bool {
    let src = text.src;
    if !matches!(lang, Language::C | Language::Cpp) {
        return false;
    }
    let Some(body) = def.child_by_field_name("body") else {
        return false;
    };
    if def.kind() == "function_definition" && !declares_function(def) {
        return false; // `class MACRO Name {` read as a function named `Name`
    }
    if !braces_close_at(src, body.start_byte(), body.end_byte()) || !text.balanced() {
        return false;
    }
    let mut allowed = vec![(body.start_byte() + 1, body.end_byte() - 1)];
    let mut cur = Some(def);
    while let Some(n) = cur {
        let list = (n.kind() == "template_declaration")
            .then(|| n.child_by_field_name("parameters"))
            .flatten();
        if let Some(l) = list.filter(|l| groups_balanced(src, l.start_byte(), l.end_byte())) {
            allowed.push((l.start_byte() + 1, l.end_byte() - 1));
        }
        if n.id() == outer.id() {
            break;
        }
        cur = n.parent();
    }
    error_spans(outer)
        .iter()
        .all(|&(s, e)| allowed.iter().any(|&(a, b)| a <= s && e <= b))
}

/// Whether a `function_definition`'s declarator is a function declarator (through pointer and
/// reference declarators), so its parameter list was read as one.
fn declares_function(def: Node) -> bool {
    let mut cur = def.child_by_field_name("declarator");
    while let Some(n) = cur {
        match n.kind() {
            "function_declarator" => return !n.has_error(),
            "pointer_declarator" | "reference_declarator" => {
                cur = n
                    .child_by_field_name("declarator")
                    .or_else(|| n.named_child(0));
            }
            _ => return false,
        }
    }
    false
}

/// The byte spans of the ERROR and MISSING nodes under `node` (only subtrees holding errors are entered).
fn error_spans(node: Node) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            out.push((n.start_byte(), n.end_byte()));
            continue;
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor).filter(|c| c.has_error()));
    }
    out
}

/// Whether `src[open..end]` starts with `{` whose matching `}`, counted from the text alone, is the
/// last byte of the span.
fn braces_close_at(src: &str, open: usize, end: usize) -> bool {
    let bytes = src.as_bytes();
    if end <= open || bytes.get(open) != Some(&b'{') || bytes.get(end - 1) != Some(&b'}') {
        return false;
    }
    let mut depth = 0usize;
    let mut closed_at = None;
    for_each_code_byte(src, open, end, |i, b| match b {
        b'{' => depth += 1,
        b'}' => {
            depth = depth.saturating_sub(1);
            if depth == 0 && closed_at.is_none() {
                closed_at = Some(i);
            }
        }
        _ => {}
    });
    closed_at == Some(end - 1)
}

/// Whether the braces of `src`, counted from the text alone, never close more than they opened and
/// all close by the end.
fn braces_balance(src: &str) -> bool {
    let mut depth = 0isize;
    let mut ok = true;
    for_each_code_byte(src, 0, src.len(), |_, b| match b {
        b'{' => depth += 1,
        b'}' => {
            depth -= 1;
            ok &= depth >= 0;
        }
        _ => {}
    });
    ok && depth == 0
}

/// Whether `src[start..end]` is `<...>` with its parentheses, brackets and braces balanced (counted
/// from the text alone), so the list's end is not inside one of them.
fn groups_balanced(src: &str, start: usize, end: usize) -> bool {
    let bytes = src.as_bytes();
    if end <= start + 1 || bytes[start] != b'<' || bytes[end - 1] != b'>' {
        return false;
    }
    let mut stack: Vec<u8> = Vec::new();
    let mut ok = true;
    for_each_code_byte(src, start, end, |_, b| match b {
        b'(' | b'[' | b'{' => stack.push(b),
        b')' | b']' | b'}' => {
            let open = match b {
                b')' => b'(',
                b']' => b'[',
                _ => b'{',
            };
            ok &= stack.pop() == Some(open);
        }
        _ => {}
    });
    ok && stack.is_empty()
}

/// Calls `f(index, byte)` for each byte of `src[start..end]` outside comments, string and character
/// literals (raw strings included) and preprocessor directive lines.
fn for_each_code_byte(src: &str, start: usize, end: usize, mut f: impl FnMut(usize, u8)) {
    let b = src.as_bytes();
    let mut i = start;
    while i < end {
        let next = match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => line_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |k| i + 2 + k + 2)
            }
            b'"' if i > 0 && b[i - 1] == b'R' => raw_string_end(b, i),
            b'"' => literal_end(b, i),
            b'\'' if i == 0 || !b[i - 1].is_ascii_hexdigit() => literal_end(b, i),
            b'#' if at_line_start(b, i) => line_end(b, i),
            byte => {
                f(i, byte);
                i + 1
            }
        };
        i = next.max(i + 1);
    }
}

/// Whether only spaces and tabs precede `i` on its line.
fn at_line_start(b: &[u8], i: usize) -> bool {
    b[..i]
        .iter()
        .rev()
        .take_while(|&&c| c != b'\n')
        .all(|&c| c == b' ' || c == b'\t')
}

/// The index of the `\n` ending the line at `i` (`\`-continued lines go on), or the length.
fn line_end(b: &[u8], mut i: usize) -> usize {
    loop {
        let Some(k) = memchr::memchr(b'\n', &b[i..]) else {
            return b.len();
        };
        let nl = i + k;
        if nl == 0 || b[nl - 1] != b'\\' {
            return nl;
        }
        i = nl + 1;
    }
}

/// The index past the literal opening with the quote at `i` (an unclosed one ends at its line's end).
fn literal_end(b: &[u8], i: usize) -> usize {
    let quote = b[i];
    let mut j = i + 1;
    while j < b.len() && b[j] != quote && b[j] != b'\n' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(b.len())
}

/// The index past the raw string `R"delim( ... )delim"` whose `"` is at `i`.
fn raw_string_end(b: &[u8], i: usize) -> usize {
    let Some(paren) = b[i + 1..].iter().take(17).position(|&c| c == b'(') else {
        return literal_end(b, i);
    };
    let mut close = vec![b')'];
    close.extend_from_slice(&b[i + 1..i + 1 + paren]);
    close.push(b'"');
    memchr::memmem::find(&b[i + 2 + paren..], &close)
        .map_or(b.len(), |k| i + 2 + paren + k + close.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_are_counted_from_the_text_alone() {
        let src = "{ a(\"}\"); /* } */ // }\n#define X }\n  if (x) { c = '}'; }\n}";
        assert!(braces_close_at(src, 0, src.len()));
        let src = "{ if (a) {\n#if A\n  if (b) {\n#endif\n} }";
        assert!(!braces_close_at(src, 0, src.len()));
        let src = "{ a(); } b(); }";
        assert!(!braces_close_at(src, 0, src.len()));
        let src = "{ s = R\"x(})x\"; n = 1'000; }";
        assert!(braces_close_at(src, 0, src.len()));
        assert!(braces_balance(src));
        assert!(!braces_balance("int f() {\n  BEGIN\n  }\n}\n"));
    }

    #[test]
    fn definition_heads_are_told_from_calls() {
        let src = "auto f(int x) const -> decltype(g(x)) {";
        assert!(heads_definition(src, 6));
        assert!(!heads_definition("f(x);", 1));
        assert!(!heads_definition("while (f(x)) {", 8));
        assert!(!heads_definition("f(x) = default;", 1));
        assert!(!heads_definition("f() output. // see g() {", 1));
        assert!(is_word("a f(", 2, 3));
        assert!(!is_word("a.f(", 2, 3));
        assert!(!is_word("p->f(", 3, 4));
    }

    #[test]
    fn template_lists_need_balanced_groups() {
        let src = "<typename T, ENABLE_IF(a > b && (c))>";
        assert!(groups_balanced(src, 0, src.len()));
        let src = "<typename T, ENABLE_IF(a > b>";
        assert!(!groups_balanced(src, 0, src.len()));
    }
}
