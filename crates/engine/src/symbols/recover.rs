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

use tree_sitter::Node;

use super::grammar::Language;

/// Whether the errors under `outer` (the definition `def` with its wrappers) all lie where they cannot
/// change the definition's range, as the module says. Always `false` outside C and C++.
pub(super) fn errors_confined(def: Node, outer: Node, lang: Language, src: &str) -> bool {
    if !matches!(lang, Language::C | Language::Cpp) {
        return false;
    }
    let Some(body) = def.child_by_field_name("body") else {
        return false;
    };
    if def.kind() == "function_definition" && !declares_function(def) {
        return false; // `class MACRO Name {` read as a function named `Name`
    }
    if !braces_close_at(src, body.start_byte(), body.end_byte()) || !braces_balance(src) {
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
    fn template_lists_need_balanced_groups() {
        let src = "<typename T, ENABLE_IF(a > b && (c))>";
        assert!(groups_balanced(src, 0, src.len()));
        let src = "<typename T, ENABLE_IF(a > b>";
        assert!(!groups_balanced(src, 0, src.len()));
    }
}
