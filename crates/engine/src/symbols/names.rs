//! Names of definition nodes and their qualified paths.

use tree_sitter::Node;

use super::languages::{DefKind, NameRule};

/// The name a definition declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    /// Segments written before the name in the definition itself (`Calc` in `void Calc::pop()`, `M` in Lua's
    /// `function M.push`, the receiver type of a Go method).
    pub qualifier: Vec<String>,
    pub name: String,
    /// The scope the definition's children live in, relative to the enclosing scope; `None` means
    /// `qualifier + name`. A Rust `impl Trait for Type` scopes its items under `Type`.
    pub child_scope: Option<Vec<String>>,
}

impl Named {
    fn plain(mut segments: Vec<String>) -> Option<Named> {
        let name = segments.pop()?;
        Some(Named {
            qualifier: segments,
            name,
            child_scope: None,
        })
    }

    /// The segments that definitions nested inside this one are qualified with.
    pub(crate) fn scope(&self) -> Vec<String> {
        match &self.child_scope {
            Some(scope) => scope.clone(),
            None => {
                let mut s = self.qualifier.clone();
                s.push(self.name.clone());
                s
            }
        }
    }
}

/// The name of a definition node, `None` when it has none (anonymous class, `export default function ()`).
pub(crate) fn name_of(node: Node, def: &DefKind, src: &str) -> Option<Named> {
    match def.name {
        NameRule::Field(field) => {
            let n = node.child_by_field_name(field)?;
            Named::plain(split_qualified(text(n, src)))
        }
        NameRule::FirstChild(kinds) => {
            let mut cursor = node.walk();
            let n = node
                .named_children(&mut cursor)
                .find(|c| kinds.contains(&c.kind()))?;
            Named::plain(split_qualified(text(n, src)))
        }
        NameRule::Declarator => declarator_name(node, src),
        NameRule::GoReceiver => go_method_name(node, src),
        NameRule::RustImpl => rust_impl_name(node, src),
        NameRule::JsMember => {
            let left = text(node.child_by_field_name("left")?, src);
            let mut segs = split_qualified(left);
            if segs.first().is_some_and(|s| s == "module")
                && segs.get(1).is_some_and(|s| s == "exports")
            {
                segs.remove(0);
            }
            segs.retain(|s| s != "prototype" && s != "exports");
            Named::plain(segs)
        }
    }
}

fn text<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

/// Splits `A::B<T>.c` / `M:pop` into clean segments (generic arguments, quotes and white space removed).
/// C++ operator names (`operator==`, `operator bool`) are kept whole.
pub(crate) fn split_qualified(raw: &str) -> Vec<String> {
    if let Some(idx) = operator_start(raw) {
        let mut segs = split_qualified(&raw[..idx]);
        segs.push(raw[idx..].chars().filter(|c| !c.is_whitespace()).collect());
        return segs;
    }
    let cleaned: String = strip_generics(raw)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let cleaned = cleaned.trim_matches(|c| c == '"' || c == '\'' || c == '`');
    cleaned
        .split("::")
        .flat_map(|s| s.split(['.', ':']))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Where the keyword `operator` starts in `raw`: the word alone, not part of an identifier such as
/// `sub_operator_list` or `operators`.
fn operator_start(raw: &str) -> Option<usize> {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    raw.match_indices("operator").map(|(i, _)| i).find(|&i| {
        !ident(raw[..i].chars().next_back()) && !ident(raw[i + "operator".len()..].chars().next())
    })
}

/// Removes `<...>` groups (generic arguments).
fn strip_generics(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut depth = 0usize;
    for c in raw.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// C/C++: the identifier at the bottom of the `declarator` chain.
fn declarator_name(node: Node, src: &str) -> Option<Named> {
    let mut cur = node.child_by_field_name("declarator")?;
    for _ in 0..32 {
        match cur.kind() {
            "identifier"
            | "field_identifier"
            | "type_identifier"
            | "qualified_identifier"
            | "destructor_name"
            | "operator_name"
            | "template_function"
            | "primitive_type" => {
                return Named::plain(split_qualified(text(cur, src)));
            }
            _ => {}
        }
        let next = cur.child_by_field_name("declarator").or_else(|| {
            let mut cursor = cur.walk();
            let last = cur.named_children(&mut cursor).last();
            last
        });
        cur = next?;
    }
    None
}

/// Go: `func (s *Stack[T]) Push()` is `Stack.Push`.
fn go_method_name(node: Node, src: &str) -> Option<Named> {
    let name = text(node.child_by_field_name("name")?, src).to_string();
    let receiver = node.child_by_field_name("receiver")?;
    let mut cursor = receiver.walk();
    let param = receiver
        .named_children(&mut cursor)
        .find(|c| c.kind() == "parameter_declaration")?;
    let ty = text(param.child_by_field_name("type")?, src);
    let base = ty.trim_start_matches(['*', '(', ' ']);
    let base = base.split(['[', ')', ' ']).next().unwrap_or("");
    let qualifier = if base.is_empty() {
        vec![]
    } else {
        vec![base.to_string()]
    };
    Some(Named {
        qualifier,
        name,
        child_scope: None,
    })
}

/// Rust: `impl<T> Foo<T>` is named `impl Foo`, `impl fmt::Display for Foo` is `impl Display for Foo`; items
/// inside are scoped under `Foo`.
fn rust_impl_name(node: Node, src: &str) -> Option<Named> {
    let ty = split_qualified(text(node.child_by_field_name("type")?, src)).pop()?;
    let name = match node.child_by_field_name("trait") {
        Some(t) => {
            let tr = split_qualified(text(t, src)).pop()?;
            format!("impl {tr} for {ty}")
        }
        None => format!("impl {ty}"),
    };
    Some(Named {
        qualifier: vec![],
        name,
        child_scope: Some(vec![ty]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_qualified_text() {
        assert_eq!(split_qualified("A::B<T>::c"), vec!["A", "B", "c"]);
        assert_eq!(split_qualified("M:pop"), vec!["M", "pop"]);
        assert_eq!(split_qualified("Demo.Sub"), vec!["Demo", "Sub"]);
        assert_eq!(split_qualified("\"quoted\""), vec!["quoted"]);
        assert_eq!(
            split_qualified("Calc::operator<<"),
            vec!["Calc", "operator<<"]
        );
        assert_eq!(
            split_qualified("A<T>::operator bool"),
            vec!["A", "operatorbool"]
        );
        assert_eq!(
            split_qualified("ns::sub_operator_list"),
            vec!["ns", "sub_operator_list"]
        );
        assert_eq!(split_qualified("operators"), vec!["operators"]);
        assert_eq!(split_qualified("~Calc"), vec!["~Calc"]);
        assert!(split_qualified("").is_empty());
    }
}
