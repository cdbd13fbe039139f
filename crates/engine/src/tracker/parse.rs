//! Probe's target and output parsing, with JavaScript's exact regex semantics.
use crate::text::js::{is_js_whitespace, js_trim};

/// Probe's extract-target parsing: `file#Symbol` -> (file, Some(symbol)); `file:10-20` / `file:10`
/// -> (file, None); anything else is a plain file path. `file#` gives (file, None).
pub fn split_extract_target(target: &str) -> (&str, Option<&str>) {
    if let Some(i) = target.find('#') {
        let symbol = &target[i + 1..];
        return (&target[..i], (!symbol.is_empty()).then_some(symbol));
    }
    if let Some(i) = target.rfind(':') {
        if is_line_ref(&target[i + 1..]) {
            return (&target[..i], None);
        }
    }
    (target, None)
}

/// `/^\d+(-\d+)?$/` (ASCII digits, as JS `\d`).
fn is_line_ref(s: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match s.split_once('-') {
        Some((a, b)) => digits(a) && digits(b),
        None => digits(s),
    }
}

/// Probe's `parseFilePathsFromOutput`: paths from `File: path` and `--- path ---` header lines.
///
/// Equivalent to running `/^(?:File:\s+|---\s+)([^\s].*?)(?:\s+---)?$/gm` with JavaScript
/// semantics (`\s` is ECMAScript white space and line terminators, `.` and `^`/`$` know `\n`, `\r`,
/// U+2028 and U+2029), then keeping the trimmed captures that are non-empty, do not start with
/// `Results` or `Page`, and contain `/`, `.` or `\`. Linear in the output size.
pub fn parse_file_paths_from_output(output: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut resume = 0usize;
    for start in line_starts(output) {
        if start < resume {
            continue;
        }
        let Some((cap_start, cap_end, end)) = match_at(output, start) else {
            continue;
        };
        resume = end;
        let path = js_trim(&output[cap_start..cap_end]);
        if !path.is_empty()
            && !path.starts_with("Results")
            && !path.starts_with("Page")
            && (path.contains('/') || path.contains('.') || path.contains('\\'))
        {
            paths.push(path.to_string());
        }
    }
    paths
}

fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Offsets where JS multiline `^` matches: 0 and after every line terminator.
fn line_starts(s: &str) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(0).chain(
        s.char_indices()
            .filter(|(_, c)| is_line_terminator(*c))
            .map(|(i, c)| i + c.len_utf8()),
    )
}

fn char_at(s: &str, i: usize) -> Option<char> {
    s.get(i..).and_then(|t| t.chars().next())
}

/// End of the run of JS white space starting at `i` (== `i` when there is none).
fn ws_run_end(s: &str, i: usize) -> usize {
    s[i..]
        .char_indices()
        .find(|(_, c)| !is_js_whitespace(*c))
        .map_or(s.len(), |(j, _)| i + j)
}

/// JS `$` in multiline mode.
fn at_line_end(s: &str, i: usize) -> bool {
    match char_at(s, i) {
        None => true,
        Some(c) => is_line_terminator(c),
    }
}

/// Runs the regex anchored at `start`: `Some((capture start, capture end, match end))`.
fn match_at(s: &str, start: usize) -> Option<(usize, usize, usize)> {
    let rest = &s[start..];
    let after_prefix = if rest.starts_with("File:") {
        start + 5
    } else if rest.starts_with("---") {
        start + 3
    } else {
        return None;
    };
    // `\s+` then `[^\s]`: only the maximal white-space run can be followed by a non-space.
    let cap_start = ws_run_end(s, after_prefix);
    let first = char_at(s, cap_start)?;
    if cap_start == after_prefix {
        return None;
    }
    let mut p = cap_start + first.len_utf8();
    // Lazy `.*?`: at each p try `(?:\s+---)?$` (group first), else take one more non-terminator.
    let mut run_end = 0usize; // end of the white-space run containing p (valid while p < run_end)
    loop {
        let c = char_at(s, p);
        if c.is_some_and(is_js_whitespace) {
            if p >= run_end {
                run_end = ws_run_end(s, p);
            }
            // `\s+---`: '-' is not white space, so only the maximal run can precede "---".
            if s[run_end..].starts_with("---") && at_line_end(s, run_end + 3) {
                return Some((cap_start, p, run_end + 3));
            }
        }
        match c {
            None => return Some((cap_start, p, p)),
            Some(c) if is_line_terminator(c) => return Some((cap_start, p, p)),
            Some(c) => p += c.len_utf8(),
        }
    }
}
