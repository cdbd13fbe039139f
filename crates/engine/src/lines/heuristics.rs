//! Auto-corrections for line-targeted edits: echoed boundary lines, lost indentation, prefixes.

use super::{detect_base_indent, reindent, strip_hashline_prefixes, Corrected, Position};
use crate::text::js::js_trim;

/// Trimmed, non-blank file line at 0-based `idx` (blank lines never count as echoes).
fn anchor<'a>(file_lines: &[&'a str], idx: Option<usize>) -> Option<&'a str> {
    let t = js_trim(file_lines.get(idx?)?);
    (!t.is_empty()).then_some(t)
}

/// Probe's `stripEchoedBoundaries`. Insert-after: drops the first new line when it equals
/// (trimmed) the anchor line `start_line`; insert-before: drops the last new line when it equals
/// the anchor. Replace: drops the first new line when it equals the line before `start_line`, then
/// the last remaining line when it equals the line after `end_line`. Lines are 1-based.
pub fn strip_echoed_boundaries(
    new_str: &str,
    file_lines: &[&str],
    start_line: usize,
    end_line: usize,
    position: Option<Position>,
) -> Corrected {
    let mut lines: Vec<&str> = new_str.split('\n').collect();
    let mut modifications = Vec::new();
    let same = |line: Option<&&str>, a: Option<&str>| matches!((line, a), (Some(l), Some(a)) if js_trim(l) == a);
    match position {
        Some(Position::After) => {
            if same(lines.first(), anchor(file_lines, start_line.checked_sub(1))) {
                lines.remove(0);
                modifications.push("stripped echoed anchor line (insert-after)".to_string());
            }
        }
        Some(Position::Before) => {
            if same(lines.last(), anchor(file_lines, start_line.checked_sub(1))) {
                lines.pop();
                modifications.push("stripped echoed anchor line (insert-before)".to_string());
            }
        }
        None => {
            if same(lines.first(), anchor(file_lines, start_line.checked_sub(2))) {
                lines.remove(0);
                modifications.push("stripped echoed line before range".to_string());
            }
            if same(lines.last(), anchor(file_lines, Some(end_line))) {
                lines.pop();
                modifications.push("stripped echoed line after range".to_string());
            }
        }
    }
    Corrected {
        text: lines.join("\n"),
        modifications,
    }
}

/// Probe's `restoreIndentation`: when the base indent of `new_str` differs from that of
/// `original_lines`, re-indents `new_str` to the original's base — unless the two differ by more
/// than one level (more than 1 character when either contains a tab, else more than 4), in which
/// case `new_str` is returned unchanged. Notes `reindented from "<new>" to "<target>"`.
pub fn restore_indentation(new_str: &str, original_lines: &[&str]) -> Corrected {
    let unchanged = || Corrected {
        text: new_str.to_string(),
        modifications: Vec::new(),
    };
    if new_str.is_empty() || original_lines.is_empty() {
        return unchanged();
    }
    let original = original_lines.join("\n");
    let target = detect_base_indent(&original);
    let current = detect_base_indent(new_str);
    if target == current {
        return unchanged();
    }
    // JS white space is all in the BMP, so UTF-16 length == char count.
    let diff = target.chars().count().abs_diff(current.chars().count());
    let tabs = target.contains('\t') || current.contains('\t');
    if diff > if tabs { 1 } else { 4 } {
        return unchanged();
    }
    let text = reindent(new_str, target);
    if text == new_str {
        return unchanged();
    }
    let modifications = vec![format!("reindented from \"{current}\" to \"{target}\"")];
    Corrected {
        text,
        modifications,
    }
}

/// Probe's `cleanNewString`: [`strip_hashline_prefixes`] (noted as `stripped line-number
/// prefixes`), then [`strip_echoed_boundaries`], then — in replace mode only (`position` is `None`)
/// — [`restore_indentation`] against file lines `start_line..=end_line` (JS `slice` semantics).
pub fn clean_new_string(
    new_str: &str,
    file_lines: &[&str],
    start_line: usize,
    end_line: usize,
    position: Option<Position>,
) -> Corrected {
    let mut modifications = Vec::new();
    let (after_prefixes, stripped) = strip_hashline_prefixes(new_str);
    if stripped {
        modifications.push("stripped line-number prefixes".to_string());
    }
    let echoes =
        strip_echoed_boundaries(&after_prefixes, file_lines, start_line, end_line, position);
    modifications.extend(echoes.modifications);
    if position.is_some() {
        return Corrected {
            text: echoes.text,
            modifications,
        };
    }
    let original = js_slice(file_lines, start_line, end_line);
    let indent = restore_indentation(&echoes.text, original);
    modifications.extend(indent.modifications);
    Corrected {
        text: indent.text,
        modifications,
    }
}

/// `file_lines.slice(start_line - 1, end_line)` with JavaScript's handling of a -1 start.
fn js_slice<'s, 'a>(
    file_lines: &'s [&'a str],
    start_line: usize,
    end_line: usize,
) -> &'s [&'a str] {
    let len = file_lines.len();
    let start = match start_line.checked_sub(1) {
        Some(s) => s.min(len),
        None => len.saturating_sub(1),
    };
    let end = end_line.min(len);
    file_lines.get(start..end).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: [&str; 6] = [
        "function a() {",
        "  const x = 1;",
        "  return x;",
        "}",
        "",
        "end",
    ];

    fn c(text: &str, mods: &[&str]) -> Corrected {
        Corrected {
            text: text.to_string(),
            modifications: mods.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn replace_strips_both_echoed_neighbours() {
        let got = strip_echoed_boundaries(
            "function a() {\n  const y = 2;\n  return y;\n}",
            &FILE,
            2,
            3,
            None,
        );
        let mods = [
            "stripped echoed line before range",
            "stripped echoed line after range",
        ];
        assert_eq!(got, c("  const y = 2;\n  return y;", &mods));
        // A single echoed line leaves nothing for the after-check.
        let single = strip_echoed_boundaries("function a() {", &FILE, 2, 3, None);
        assert_eq!(single, c("", &["stripped echoed line before range"]));
    }

    #[test]
    fn insert_modes_strip_the_echoed_anchor() {
        let after = strip_echoed_boundaries("  return x;\nfoo", &FILE, 3, 3, Some(Position::After));
        assert_eq!(
            after,
            c("foo", &["stripped echoed anchor line (insert-after)"])
        );
        let before =
            strip_echoed_boundaries("foo\n  return x;", &FILE, 3, 3, Some(Position::Before));
        assert_eq!(
            before,
            c("foo", &["stripped echoed anchor line (insert-before)"])
        );
        let no_echo =
            strip_echoed_boundaries("return x;\nfoo", &FILE, 3, 3, Some(Position::Before));
        assert_eq!(no_echo, c("return x;\nfoo", &[]));
    }

    #[test]
    fn blank_lines_and_out_of_range_lines_never_match() {
        // Line after line 4 is blank; line before line 6 is blank.
        assert_eq!(
            strip_echoed_boundaries("x\n", &FILE, 4, 4, None),
            c("x\n", &[])
        );
        assert_eq!(
            strip_echoed_boundaries("\nfoo", &FILE, 6, 6, None),
            c("\nfoo", &[])
        );
        assert_eq!(
            strip_echoed_boundaries("end", &FILE, 6, 9, None),
            c("end", &[])
        );
        assert_eq!(
            strip_echoed_boundaries("x", &FILE, 0, 0, Some(Position::After)),
            c("x", &[])
        );
        assert_eq!(strip_echoed_boundaries("x", &[], 1, 1, None), c("x", &[]));
    }

    #[test]
    fn restores_indentation_within_one_level() {
        let got = restore_indentation(
            "const y = 2;\nreturn y;",
            &["  const x = 1;", "  return x;"],
        );
        assert_eq!(
            got,
            c(
                "  const y = 2;\n  return y;",
                &["reindented from \"\" to \"  \""]
            )
        );
        assert_eq!(
            restore_indentation("\tfoo();", &["  foo();"]),
            c("  foo();", &["reindented from \"\t\" to \"  \""])
        );
        assert_eq!(
            restore_indentation("  a\n b", &["    x"]),
            c("    a\n b", &["reindented from \"  \" to \"    \""])
        );
    }

    #[test]
    fn refuses_to_reindent_across_scopes() {
        assert_eq!(
            restore_indentation("          const y = 2;", &["  const x = 1;"]),
            c("          const y = 2;", &[])
        );
        assert_eq!(
            restore_indentation("\t\tfoo();", &["foo();"]),
            c("\t\tfoo();", &[])
        );
        assert_eq!(restore_indentation("", &["x"]), c("", &[]));
        assert_eq!(restore_indentation("x", &[]), c("x", &[]));
        assert_eq!(restore_indentation("  x", &["  y"]), c("  x", &[]));
    }

    #[test]
    fn clean_runs_the_pipeline() {
        let got = clean_new_string(
            "2 | function a() {\n3 |   const y = 2;\n4 | }",
            &FILE,
            2,
            3,
            None,
        );
        let mods = [
            "stripped line-number prefixes",
            "stripped echoed line before range",
            "stripped echoed line after range",
        ];
        assert_eq!(got, c("  const y = 2;", &mods));
        let got = clean_new_string("1 | const y = 2;\n2 | return y;", &FILE, 2, 3, None);
        let mods = [
            "stripped line-number prefixes",
            "reindented from \"\" to \"  \"",
        ];
        assert_eq!(got, c("  const y = 2;\n  return y;", &mods));
    }

    #[test]
    fn clean_skips_indentation_when_inserting() {
        assert_eq!(
            clean_new_string("const y = 2;", &FILE, 2, 2, Some(Position::After)),
            c("const y = 2;", &[])
        );
        let got = clean_new_string("  return x;\nfoo();", &FILE, 3, 3, Some(Position::After));
        assert_eq!(
            got,
            c("foo();", &["stripped echoed anchor line (insert-after)"])
        );
    }

    #[test]
    fn clean_edge_ranges() {
        assert_eq!(clean_new_string("x", &FILE, 0, 1, None), c("x", &[]));
        assert_eq!(clean_new_string("", &FILE, 2, 3, None), c("", &[]));
        assert_eq!(js_slice(&FILE, 0, 6), &FILE[5..]);
        assert_eq!(js_slice(&FILE, 2, 3), &FILE[1..3]);
        assert!(js_slice(&FILE, 5, 2).is_empty());
        assert!(js_slice(&FILE, 9, 12).is_empty());
    }
}
