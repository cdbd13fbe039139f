//! JavaScript string semantics the Probe interface depends on (`trim`, `\s`, `split('\n')`).

/// True for the characters JavaScript's `\s` and `String.prototype.trim` treat as white space.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// True for the ASCII bytes in [`is_js_whitespace`] (`\t`, `\n`, `\v`, `\f`, `\r`, space).
#[inline]
pub fn is_ascii_js_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

/// JavaScript's `s.trim()`.
pub fn js_trim(s: &str) -> &str {
    js_trim_end(js_trim_start(s))
}

/// JavaScript's `s.trimEnd()`. ASCII white space is skipped byte-wise; decoding starts only at a
/// non-ASCII byte.
pub fn js_trim_end(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = b.len();
    while i > 0 && is_ascii_js_whitespace(b[i - 1]) {
        i -= 1;
    }
    if i > 0 && b[i - 1] >= 0x80 {
        return s[..i].trim_end_matches(is_js_whitespace);
    }
    &s[..i]
}

/// JavaScript's `s.trimStart()` (ASCII fast path as in [`js_trim_end`]).
pub fn js_trim_start(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_ascii_js_whitespace(b[i]) {
        i += 1;
    }
    if i < b.len() && b[i] >= 0x80 {
        return s[i..].trim_start_matches(is_js_whitespace);
    }
    &s[i..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_whitespace_set_is_ecmascripts() {
        // Node 20: every code point c with /\s/.test(String.fromCodePoint(c)).
        let expected: Vec<u32> = [0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0xa0, 0x1680]
            .into_iter()
            .chain(0x2000..=0x200a)
            .chain([0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff])
            .collect();
        let actual: Vec<u32> = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|c| is_js_whitespace(*c))
            .map(u32::from)
            .collect();
        assert_eq!(actual, expected);
        for b in 0..0x80u8 {
            assert_eq!(is_ascii_js_whitespace(b), is_js_whitespace(char::from(b)));
        }
    }

    #[test]
    fn trims_match_the_char_based_definition() {
        let cases = [
            "",
            " ",
            "\u{a0}",
            " a ",
            "\t\u{3000}x\u{feff} \r",
            "é ",
            " \u{2028}",
            "a\u{a0}b",
            "\u{2000}\u{200a}",
            "\u{200b}x\u{200b}",
            "\n\x0b\x0c y \u{85}",
        ];
        for s in cases {
            assert_eq!(js_trim(s), s.trim_matches(is_js_whitespace), "{s:?}");
            assert_eq!(js_trim_start(s), s.trim_start_matches(is_js_whitespace));
            assert_eq!(js_trim_end(s), s.trim_end_matches(is_js_whitespace));
        }
    }
}
