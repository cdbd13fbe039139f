//! Python's indentation rules, checked the way Python's tokenizer does (tree-sitter's Python grammar
//! accepts an unexpected indent without an error).
//!
//! Logical lines are found by a lexical scan (strings, triple-quoted strings, comments, brackets and `\`
//! continuations); each one's indentation is compared with a stack of open block levels, measured twice
//! as Python does: a tab advancing to the next multiple of 8, and a tab counting 1. When the two
//! measures disagree on the comparison, the indentation depends on the tab size (a TabError).

use super::problems::{Kind, RawProblem};

pub(crate) const UNEXPECTED: &str =
    "unexpected indent (the line is deeper than the block it is in)";
pub(crate) const EXPECTED: &str = "expected an indented block after the line ending in `:`";
pub(crate) const UNMATCHED: &str = "the dedent matches no outer indentation level";
pub(crate) const TABS: &str =
    "tabs and spaces mixed inconsistently (Python's TabError): indent with the file's own style";

/// Lexical state carried from one physical line to the next.
#[derive(Default)]
struct Scan {
    /// Open string: its quote and whether it is triple-quoted.
    string: Option<(u8, bool)>,
    depth: usize,
    continued: bool,
    /// The last logical line ended with `:`.
    opens_block: bool,
}

/// Every indentation error of `src` (positions: the first code byte of the offending line).
pub(crate) fn problems(src: &str) -> Vec<RawProblem> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut stack: Vec<Level> = vec![Level { col: 0, alt: 0 }];
    let mut scan = Scan::default();
    let mut pos = 0;
    while pos < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
        let line = &bytes[pos..end];
        let first = line
            .iter()
            .position(|&b| !matches!(b, b' ' | b'\t' | b'\x0c' | b'\r'));
        let logical_start = scan.string.is_none() && scan.depth == 0 && !scan.continued;
        match first {
            Some(first) if line[first] != b'#' || !logical_start => {
                if logical_start {
                    if let Some(message) =
                        judge(&mut stack, Level::of(&line[..first]), scan.opens_block)
                    {
                        out.push(RawProblem {
                            kind: Kind::Indent(message),
                            start: pos + first,
                            end: end.max(pos + first),
                            call: None,
                        });
                    }
                }
                scan_line(&mut scan, line);
            }
            _ => {}
        }
        pos = end + 1;
    }
    out
}

/// A line's indentation: its column with tabs to multiples of 8, and with tabs counting 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Level {
    col: usize,
    alt: usize,
}

impl Level {
    fn of(indent: &[u8]) -> Level {
        indent
            .iter()
            .fold(Level { col: 0, alt: 0 }, |l, &b| match b {
                b'\t' => Level {
                    col: (l.col / 8 + 1) * 8,
                    alt: l.alt + 1,
                },
                _ => Level {
                    col: l.col + 1,
                    alt: l.alt + 1,
                },
            })
    }
}

/// Applies a logical line at `level` to the block stack; the rule it breaks, if any.
fn judge(stack: &mut Vec<Level>, level: Level, opens_block: bool) -> Option<&'static str> {
    let top = *stack.last().unwrap_or(&Level { col: 0, alt: 0 });
    if level.col > top.col {
        stack.push(level);
        if level.alt <= top.alt {
            return Some(TABS);
        }
        return (!opens_block).then_some(UNEXPECTED);
    }
    while stack.len() > 1 && level.col < stack.last().map_or(0, |l| l.col) {
        stack.pop();
    }
    let top = *stack.last().unwrap_or(&Level { col: 0, alt: 0 });
    if level.col != top.col {
        stack.push(level);
        return Some(if opens_block { EXPECTED } else { UNMATCHED });
    }
    if level.alt != top.alt {
        return Some(TABS);
    }
    opens_block.then_some(EXPECTED)
}

/// Advances the lexical state over one physical line (without its `\n`).
fn scan_line(scan: &mut Scan, line: &[u8]) {
    let mut last_code: Option<u8> = None;
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if let Some((q, triple)) = scan.string {
            if b == b'\\' {
                i += 2;
                continue;
            }
            if triple && line[i..].starts_with(&[q, q, q]) {
                scan.string = None;
                i += 3;
                last_code = Some(q);
                continue;
            }
            if !triple && b == q {
                scan.string = None;
                last_code = Some(q);
            }
            i += 1;
            continue;
        }
        match b {
            b'#' => break,
            b'"' | b'\'' => {
                let triple = line[i..].starts_with(&[b, b, b]);
                scan.string = Some((b, triple));
                i += if triple { 3 } else { 1 };
                continue;
            }
            b'(' | b'[' | b'{' => scan.depth += 1,
            b')' | b']' | b'}' => scan.depth = scan.depth.saturating_sub(1),
            _ => {}
        }
        if !matches!(b, b' ' | b'\t' | b'\r' | b'\x0c') {
            last_code = Some(b);
        }
        i += 1;
    }
    if matches!(scan.string, Some((_, false))) {
        scan.string = None;
    }
    scan.continued = scan.string.is_none() && last_code == Some(b'\\');
    if scan.string.is_none() && scan.depth == 0 && !scan.continued {
        scan.opens_block = last_code == Some(b':');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(src: &str) -> Vec<&'static str> {
        problems(src)
            .into_iter()
            .map(|p| match p.kind {
                Kind::Indent(m) => m,
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn clean_code_has_no_problem() {
        let src = "def f(x):\n    if x:\n        return [\n  1,\n]\n    s = \"\"\"\n  doc\n\"\"\"\n    return x \\\n  + 1\n\n# c\nclass A:\n\tpass\n";
        assert!(messages(src).is_empty(), "{:?}", messages(src));
    }

    #[test]
    fn each_rule_is_found() {
        assert_eq!(messages("x = 1\n    y = 2\n"), vec![UNEXPECTED]);
        assert_eq!(messages("if x:\ny = 2\n"), vec![EXPECTED]);
        assert_eq!(messages("if x:\n    y = 1\n  z = 2\n"), vec![UNMATCHED]);
        assert_eq!(messages("if x:\n        y = 1\n\tz = 2\n"), vec![TABS]);
        assert!(messages("if x:\n\ty = 1\n\tz = 2\n").is_empty());
    }
}
