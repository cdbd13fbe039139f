//! Indentation helpers with the semantics of Probe's `detectBaseIndent` / `reindent`.
//!
//! These mirror `lines::detect_base_indent` / `lines::reindent`; once those land, the symbol planner can call
//! them instead (same contracts).

/// The leading white space of the first line that is not blank ("" when every line is blank).
pub(crate) fn detect_base_indent(code: &str) -> &str {
    for line in code.split('\n') {
        if !line.trim().is_empty() {
            let rest = line.trim_start();
            return &line[..line.len() - rest.len()];
        }
    }
    ""
}

/// Reindents `new_content` to `target_indent`: every line that starts with the content's own base indent gets
/// that prefix replaced by `target_indent`; other lines are kept as they are; blank lines become empty.
pub(crate) fn reindent(new_content: &str, target_indent: &str) -> String {
    let source_indent = detect_base_indent(new_content);
    let mut out = String::with_capacity(new_content.len() + 16);
    for (i, line) in new_content.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.trim().is_empty() {
            continue;
        }
        match line.strip_prefix(source_indent) {
            Some(rest) => {
                out.push_str(target_indent);
                out.push_str(rest);
            }
            None => out.push_str(line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_indent_is_first_non_blank_line() {
        assert_eq!(detect_base_indent("\n   \n    foo\n  bar"), "    ");
        assert_eq!(detect_base_indent("\tx"), "\t");
        assert_eq!(detect_base_indent("   \n"), "");
    }

    #[test]
    fn reindent_swaps_base_indent_and_empties_blank_lines() {
        assert_eq!(
            reindent("def f():\n    pass\n  \n", "    "),
            "    def f():\n        pass\n\n"
        );
        assert_eq!(reindent("  a\n b\n  c", "\t"), "\ta\n b\n\tc");
        assert_eq!(reindent("x", ""), "x");
    }
}
