//! Anthropic's output formats: `cat -n` numbering and the snippet shown after an edit.

/// Lines shown before and after an edit in its snippet.
pub(super) const SNIPPET_LINES: usize = 4;

/// `cat -n` numbering: each line as `{n:>6}\t{line}`, starting at `first`, joined with `\n`.
pub(super) fn numbered(lines: &[&str], first: usize) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 8).sum());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{:>6}\t{line}", first + i));
    }
    out
}

/// `Here's the result of running `cat -n` on {what}:\n{numbered}\n`.
pub(super) fn cat_n(what: &str, lines: &[&str], first: usize) -> String {
    format!(
        "Here's the result of running `cat -n` on {what}:\n{}\n",
        numbered(lines, first)
    )
}

/// The success message of an edit: `The file {path} has been edited. ` + the snippet + advice.
pub(super) fn edited(path: &str, what: &str, lines: &[&str], first: usize, advice: &str) -> String {
    format!(
        "The file {path} has been edited. {}{advice}",
        cat_n(what, lines, first)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_is_right_aligned_in_six_columns() {
        assert_eq!(
            numbered(&["a", "", "\tb"], 9),
            "     9\ta\n    10\t\n    11\t\tb"
        );
        assert_eq!(numbered(&[], 1), "");
        assert_eq!(
            cat_n("/x", &["a"], 1),
            "Here's the result of running `cat -n` on /x:\n     1\ta\n"
        );
    }
}
