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

/// JavaScript's `s.trim()`.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// JavaScript's `s.trimEnd()`.
pub fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_whitespace)
}

/// JavaScript's `s.trimStart()`.
pub fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_whitespace)
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
    }
}
