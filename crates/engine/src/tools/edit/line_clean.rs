//! The edit tool's auto-corrections for line-targeted edits: stricter than Probe's
//! `cleanNewString` (kept as it is in `crate::lines`) so that real edits never lose lines.
//!
//! - line-number prefixes are stripped as Probe does;
//! - an echoed boundary line is dropped only when it is a byte-exact copy of the neighbouring
//!   file line AND holds a bracket AND dropping it makes the block's bracket balance equal the
//!   replaced lines' (or zero for an insertion) while keeping it does not;
//! - lost indentation is restored only when the new block starts flush left while the replaced
//!   lines are indented (the model dropped the whole frame): every line moves by the same shift.

use crate::lines::{strip_hashline_prefixes, Corrected, Position};
use crate::text::js::js_trim;

/// Bracket balance: openers minus closers of `()[]{}`.
fn balance<'a>(lines: impl IntoIterator<Item = &'a str>) -> i64 {
    let mut n = 0i64;
    for l in lines {
        for b in l.bytes() {
            match b {
                b'(' | b'[' | b'{' => n += 1,
                b')' | b']' | b'}' => n -= 1,
                _ => {}
            }
        }
    }
    n
}

fn has_bracket(line: &str) -> bool {
    line.bytes().any(|b| b"()[]{}".contains(&b))
}

/// Whether `lines[idx]`, equal to the file's neighbour line, is an echo by the rule above.
fn is_echo(lines: &[&str], idx: usize, neighbour: Option<&str>, target: i64) -> bool {
    let Some(neighbour) = neighbour else {
        return false;
    };
    let line = lines[idx];
    if line != neighbour || js_trim(line).is_empty() || !has_bracket(line) {
        return false;
    }
    let all = balance(lines.iter().copied());
    all != target && all - balance([line]) == target
}

/// Strict echo stripping and indentation restoring for a line edit of 1-based lines
/// `start..=end` (an insertion when `position` is set).
pub fn clean_line_edit(
    new_str: &str,
    file_lines: &[&str],
    start: usize,
    end: usize,
    position: Option<Position>,
) -> Corrected {
    let mut modifications = Vec::new();
    let (text, stripped) = strip_hashline_prefixes(new_str);
    if stripped {
        modifications.push("stripped line-number prefixes".to_string());
    }
    let mut lines: Vec<&str> = text.split('\n').collect();
    let at = |i: usize| file_lines.get(i).copied();
    let replaced: &[&str] = match position {
        None => file_lines
            .get(start - 1..end.min(file_lines.len()))
            .unwrap_or(&[]),
        Some(_) => &[],
    };
    let target = balance(replaced.iter().copied());
    let (before, after) = match position {
        Some(Position::After) => (at(start - 1), None),
        Some(Position::Before) => (None, at(start - 1)),
        None => (start.checked_sub(2).and_then(at), at(end)),
    };
    let (before_note, after_note) = echo_notes(position);
    if !lines.is_empty() && is_echo(&lines, 0, before, target) {
        lines.remove(0);
        modifications.push(before_note.to_string());
    }
    if !lines.is_empty() && is_echo(&lines, lines.len() - 1, after, target) {
        lines.pop();
        modifications.push(after_note.to_string());
    }
    let text = restore_flush_left(&lines, replaced, &mut modifications);
    Corrected {
        text,
        modifications,
    }
}

/// The notes for an echo dropped at the block's start and end, in Probe's words: for an
/// insertion the echoed line is the anchor itself.
fn echo_notes(position: Option<Position>) -> (&'static str, &'static str) {
    const BEFORE: &str = "stripped echoed line before range";
    const AFTER: &str = "stripped echoed line after range";
    match position {
        Some(Position::After) => ("stripped echoed anchor line (insert-after)", AFTER),
        Some(Position::Before) => (BEFORE, "stripped echoed anchor line (insert-before)"),
        None => (BEFORE, AFTER),
    }
}

fn lead(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// `lines` moved by the replaced lines' base indentation when the first non-blank one is flush
/// left while the replaced lines are indented.
fn restore_flush_left(lines: &[&str], replaced: &[&str], notes: &mut Vec<String>) -> String {
    let non_blank = |l: &&&str| !js_trim(l).is_empty();
    let base = replaced.iter().find(non_blank).map_or("", |l| lead(l));
    let flush = lines
        .iter()
        .find(non_blank)
        .is_some_and(|l| lead(l).is_empty());
    let many = lines.iter().filter(non_blank).count() > 0;
    if base.is_empty() || !flush || !many {
        return lines.join("\n");
    }
    notes.push(format!("reindented from \"\" to \"{base}\""));
    let moved: Vec<String> = lines
        .iter()
        .map(|l| {
            if js_trim(l).is_empty() {
                String::new()
            } else {
                format!("{base}{l}")
            }
        })
        .collect();
    moved.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: [&str; 5] = ["f(() => {", "  g(() => {", "    x();", "  });", "});"];

    /// A real edit that adds a `});` beside an existing one keeps it.
    #[test]
    fn a_real_closing_line_next_to_its_twin_is_kept() {
        let new = "    x();\n  });\n  h(() => {\n    y();\n  });";
        let out = clean_line_edit(new, &FILE, 3, 4, None);
        assert_eq!(out.text, new);
        assert!(out.modifications.is_empty());
    }

    #[test]
    fn an_echo_that_unbalances_the_block_is_dropped() {
        let out = clean_line_edit("    z();\n  });", &FILE, 3, 3, None);
        assert_eq!(out.text, "    z();");
        let out = clean_line_edit("  g(() => {\n    z();", &FILE, 3, 3, None);
        assert_eq!(out.text, "    z();");
    }

    /// An insertion's echoed anchor is named as Probe names it.
    #[test]
    fn an_echoed_anchor_is_reported_in_probes_words() {
        let after = clean_line_edit("  g(() => {\n    y();", &FILE, 2, 2, Some(Position::After));
        assert_eq!(after.text, "    y();");
        assert_eq!(
            after.modifications,
            ["stripped echoed anchor line (insert-after)"]
        );
        let before = clean_line_edit("    y();\n  });", &FILE, 4, 4, Some(Position::Before));
        assert_eq!(before.text, "    y();");
        assert_eq!(
            before.modifications,
            ["stripped echoed anchor line (insert-before)"]
        );
    }

    #[test]
    fn deliberate_reindentation_is_kept_and_flush_left_blocks_restored() {
        let wrapped = "    if (a) {\n      x();\n    }";
        assert_eq!(clean_line_edit(wrapped, &FILE, 3, 3, None).text, wrapped);
        let deeper = "      x();";
        assert_eq!(clean_line_edit(deeper, &FILE, 3, 3, None).text, deeper);
        let flush = clean_line_edit("if (a) {\n  x();\n}", &FILE, 3, 3, None);
        assert_eq!(flush.text, "    if (a) {\n      x();\n    }");
    }
}
