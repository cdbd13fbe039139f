//! Telling apart same-named C/C++ definitions by what the replacement text is: a class and its
//! constructors share a name (`Slice`, `Slice::Slice`), as do a constructor with a body and its
//! `= delete` copy. When exactly one of them has the shape of `new_string`, that one is meant.

use super::grammar::Language;
use super::SymbolInfo;

/// What a definition's text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `class`/`struct`/`union`/`enum` with a body.
    Type,
    /// A function with a body.
    Function,
    /// A function declared `= delete;` or `= default;`.
    Defaulted,
}

/// The one definition among `found` (C or C++) whose shape `new_string` has; among several functions
/// of that shape (overloads), the one whose signature (the text before the body's `{`, white space and
/// comments aside) `new_string` repeats. `None` when the language is another, the shape of `new_string`
/// is unclear, or not exactly one definition fits.
pub fn pick_by_shape<'a>(found: &'a [SymbolInfo], new_string: &str) -> Option<&'a SymbolInfo> {
    if !found
        .iter()
        .all(|s| matches!(s.language, Language::C | Language::Cpp))
    {
        return None;
    }
    let wanted = text_shape(new_string)?;
    let same: Vec<&SymbolInfo> = found
        .iter()
        .filter(|s| symbol_shape(s) == Some(wanted))
        .collect();
    match same.as_slice() {
        [one] => Some(one),
        [_, _, ..] if wanted == Shape::Function => {
            let given = signature(new_string)?;
            let mut matching = same
                .into_iter()
                .filter(|s| signature(&s.code).as_deref() == Some(given.as_str()));
            match (matching.next(), matching.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A function text's signature: from its first token after comments (a `template <...>` clause
/// included) to the first `{` outside parentheses, with white space and comments removed.
fn signature(text: &str) -> Option<String> {
    let head = skip_comments(text);
    let mut depth = 0usize;
    let mut out = String::new();
    let mut rest = head;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("//") || rest.starts_with("/*") {
            rest = skip_comments(rest);
            continue;
        }
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '{' if depth == 0 => return Some(out),
            _ => {}
        }
        if !c.is_whitespace() {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    None
}

/// `text` after leading white space and comments.
fn skip_comments(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(r) = text.strip_prefix("//") {
            text = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = text.strip_prefix("/*") {
            text = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else {
            return text;
        }
    }
}

/// C/C++: when `new_string` is a type definition and `sym` a function, or the reverse, what
/// `new_string` is (`"a class/struct/union/enum"`, `"a function"`): replacing `sym` with it
/// would put one kind of definition in place of another (the one meant was not found).
pub fn shape_conflict(sym: &SymbolInfo, new_string: &str) -> Option<&'static str> {
    if !matches!(sym.language, Language::C | Language::Cpp) {
        return None;
    }
    let (given, found) = (text_shape(new_string)?, symbol_shape(sym)?);
    match (given == Shape::Type, found == Shape::Type) {
        (true, false) => Some("a class/struct/union/enum"),
        (false, true) => Some("a function"),
        _ => None,
    }
}

fn symbol_shape(sym: &SymbolInfo) -> Option<Shape> {
    match sym.node_type.as_str() {
        "class_specifier" | "struct_specifier" | "union_specifier" | "enum_specifier" => {
            Some(Shape::Type)
        }
        "function_definition" => text_shape(&sym.code),
        _ => None,
    }
}

/// The shape of a definition's text: comments, `template <...>` and `[[...]]` skipped, then a type
/// keyword, a parameter list before the first `{`, or a `= delete;`/`= default;` ending.
fn text_shape(text: &str) -> Option<Shape> {
    let head = skip_preamble(text);
    let word_end = head
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(head.len());
    let brace = head.find('{');
    let is_type = matches!(&head[..word_end], "class" | "struct" | "union" | "enum");
    if is_type && brace.is_some_and(|b| !head[..b].contains('(')) {
        return Some(Shape::Type);
    }
    let trimmed = head.trim_end();
    if brace.is_none() && (trimmed.ends_with("= delete;") || trimmed.ends_with("= default;")) {
        return Some(Shape::Defaulted);
    }
    brace
        .filter(|&b| head[..b].contains('(') && trimmed.ends_with('}'))
        .map(|_| Shape::Function)
}

/// `text` after leading white space, comments, `template <...>` clauses and `[[...]]` attributes.
fn skip_preamble(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        let rest = if let Some(r) = text.strip_prefix("//") {
            r.find('\n').map_or("", |i| &r[i..])
        } else if let Some(r) = text.strip_prefix("/*") {
            r.find("*/").map_or("", |i| &r[i + 2..])
        } else if let Some(r) = text.strip_prefix("[[") {
            r.find("]]").map_or("", |i| &r[i + 2..])
        } else if let Some(r) = text.strip_prefix("template") {
            match r.trim_start().strip_prefix('<') {
                Some(args) => after_angles(args),
                None => return text,
            }
        } else {
            return text;
        };
        text = rest;
    }
}

/// The text after the `>` closing an already opened `<` (nested pairs counted).
fn after_angles(text: &str) -> &str {
    let mut depth = 1usize;
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_of_texts() {
        assert_eq!(text_shape("// c\nclass A {\n};"), Some(Shape::Type));
        assert_eq!(
            text_shape("template <typename T, typename U = std::vector<T>>\nstruct B {};"),
            Some(Shape::Type)
        );
        assert_eq!(text_shape("A(int x) : x_(x) {\n}"), Some(Shape::Function));
        assert_eq!(text_shape("A(const A&) = delete;"), Some(Shape::Defaulted));
        assert_eq!(text_shape("class A;"), None);
        assert_eq!(text_shape("int x = 1;"), None);
        assert_eq!(
            text_shape("struct node *make(void) {\n  return 0;\n}"),
            Some(Shape::Function)
        );
    }

    #[test]
    fn signatures_leave_out_white_space_and_comments() {
        let a =
            "/// Doc.\ntemplate <typename T>\nvoid f(T x,\n       int y = {}) /* c */ {\n  g();\n}";
        assert_eq!(
            signature(a).as_deref(),
            Some("template<typenameT>voidf(Tx,inty={})")
        );
        assert_eq!(signature("void f();"), None);
    }
}
