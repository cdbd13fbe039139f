//! Removal of `42 | ` / `42:ab | ` prefixes that models echo from numbered output.

use crate::text::js::{is_js_whitespace, js_trim};

/// Length in bytes of a `^\s*\d+(?::[0-9a-fA-F]{2})?\s*\|\s?` prefix of `line` (JS `\s`), if any.
pub fn hashline_prefix_len(line: &str) -> Option<usize> {
    let skip_ws = |from: usize| {
        from + line[from..].len() - line[from..].trim_start_matches(is_js_whitespace).len()
    };
    let start = skip_ws(0);
    let digits = line[start..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let mut at = start + digits;
    let b = line.as_bytes();
    if b.get(at) == Some(&b':')
        && b.len() >= at + 3
        && b[at + 1].is_ascii_hexdigit()
        && b[at + 2].is_ascii_hexdigit()
    {
        at += 3;
    }
    at = skip_ws(at);
    if b.get(at) != Some(&b'|') {
        return None;
    }
    at += 1;
    let next_ws = line[at..].chars().next().filter(|&c| is_js_whitespace(c));
    Some(at + next_ws.map_or(0, char::len_utf8))
}

/// Probe's `stripHashlinePrefixes`: when more than half of the non-blank lines start with a line
/// number prefix ([`hashline_prefix_len`]), the prefix is removed from every non-blank line that has
/// one. Returns `(cleaned, stripped)`; `cleaned == text` when nothing was stripped.
pub fn strip_hashline_prefixes(text: &str) -> (String, bool) {
    let non_blank = text.split('\n').filter(|l| !js_trim(l).is_empty()).count();
    let prefixed = text
        .split('\n')
        .filter(|l| !js_trim(l).is_empty() && hashline_prefix_len(l).is_some())
        .count();
    if non_blank == 0 || prefixed * 2 <= non_blank {
        return (text.to_string(), false);
    }
    let cleaned: Vec<&str> = text
        .split('\n')
        .map(|l| match hashline_prefix_len(l) {
            Some(n) if !js_trim(l).is_empty() => &l[n..],
            _ => l,
        })
        .collect();
    (cleaned.join("\n"), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_lengths() {
        assert_eq!(hashline_prefix_len("42 | x"), Some(5));
        assert_eq!(hashline_prefix_len("  12:Ff |   x"), Some(10));
        assert_eq!(hashline_prefix_len("14|z"), Some(3));
        assert_eq!(hashline_prefix_len("1 |\u{a0}a"), Some(5));
        assert_eq!(hashline_prefix_len("1:zz | a"), None);
        assert_eq!(hashline_prefix_len("2:ab x | b"), None);
        assert_eq!(hashline_prefix_len("x | b"), None);
        assert_eq!(hashline_prefix_len("12"), None);
        assert_eq!(hashline_prefix_len("1:a"), None);
    }

    #[test]
    fn strips_when_most_lines_are_prefixed() {
        assert_eq!(
            strip_hashline_prefixes("1 | a\n2:ab | b\n\nc"),
            ("a\nb\n\nc".to_string(), true)
        );
        assert_eq!(
            strip_hashline_prefixes("  12:Ff |   x\n 13  |\ty\n14|z"),
            ("  x\ny\nz".to_string(), true)
        );
        assert_eq!(
            strip_hashline_prefixes("1 |\u{a0}a\n2 |  b"),
            ("a\n b".to_string(), true)
        );
    }

    #[test]
    fn keeps_text_without_a_majority() {
        let half = "1 | a\nb\nc\n4 | d";
        assert_eq!(strip_hashline_prefixes(half), (half.to_string(), false));
        let bad = "1:zz | a\n2:ab x | b";
        assert_eq!(strip_hashline_prefixes(bad), (bad.to_string(), false));
        assert_eq!(
            strip_hashline_prefixes("\n  \n"),
            ("\n  \n".to_string(), false)
        );
        assert_eq!(strip_hashline_prefixes(""), (String::new(), false));
    }
}
