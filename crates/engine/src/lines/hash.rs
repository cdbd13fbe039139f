//! Line hashes (Probe's hashline format `42:ab`) and line references.

use super::{HashCheck, LineRef};
use crate::text::js::{is_js_whitespace, js_trim};

/// Probe's `computeLineHash`: DJB2 (`h = h * 33 + unit`, wrapping at 32 bits, seed 5381) over the
/// UTF-16 code units of the line with every JS white-space character removed; the low byte as two
/// lower-case hex digits.
pub fn compute_line_hash(line: &str) -> String {
    let mut units = [0u16; 2];
    let mut h: u32 = 5381;
    for c in line.chars().filter(|&c| !is_js_whitespace(c)) {
        for &unit in c.encode_utf16(&mut units).iter() {
            h = h.wrapping_mul(33).wrapping_add(u32::from(unit));
        }
    }
    format!("{:02x}", h & 0xFF)
}

/// Probe's `parseLineRef` for a string (numbers are stringified by the caller): after a JS `trim`,
/// `^\d+:[0-9a-fA-F]{2}$` or `^\d+$` with ASCII digits; the line must be >= 1. A number too large
/// for `usize` saturates to `usize::MAX`, except one beyond `f64` range, which JavaScript parses as
/// `Infinity` and Probe rejects (`None`). The hash is returned lower-cased.
pub fn parse_line_ref(s: &str) -> Option<LineRef> {
    let s = js_trim(s);
    let (digits, hash) = match s.split_once(':') {
        Some((d, h)) if h.len() == 2 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            (d, Some(h.to_ascii_lowercase()))
        }
        Some(_) => return None,
        None => (s, None),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let line = match digits.parse::<usize>() {
        Ok(n) => n,
        Err(_) if digits.parse::<f64>().is_ok_and(f64::is_finite) => usize::MAX,
        Err(_) => return None,
    };
    (line >= 1).then_some(LineRef { line, hash })
}

/// Probe's `validateLineHash`: compares `hash` (case-insensitively) with the hash of the 1-based
/// line `line_num` of `file_lines`; a line outside the file is invalid with empty hash and content.
pub fn validate_line_hash(line_num: i64, hash: &str, file_lines: &[&str]) -> HashCheck {
    let line = usize::try_from(line_num)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| file_lines.get(i));
    match line {
        Some(content) => {
            let actual_hash = compute_line_hash(content);
            HashCheck {
                valid: actual_hash == hash.to_lowercase(),
                actual_hash,
                actual_content: content.to_string(),
            }
        }
        None => HashCheck {
            valid: false,
            actual_hash: String::new(),
            actual_content: String::new(),
        },
    }
}

/// Probe's `annotateOutputWithHashes`: every `\n`-separated line of the form
/// `^(\s*)(\d+)(\s*\|)(.*)$` (after removing one trailing `\r`, which is put back) becomes
/// `prefix + number + ":" + hash(rest) + pipe + rest`. As in JavaScript, `.` does not match `\r`,
/// U+2028 or U+2029, so a line whose rest contains one of them is left unchanged.
pub fn annotate_output_with_hashes(output: &str) -> String {
    let mut out = String::with_capacity(output.len() + output.len() / 8);
    for (i, line) in output.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let (clean, cr) = match line.strip_suffix('\r') {
            Some(clean) => (clean, "\r"),
            None => (line, ""),
        };
        match split_numbered_line(clean) {
            Some((number_end, rest_start)) => {
                let rest = &clean[rest_start..];
                out.push_str(&clean[..number_end]);
                out.push(':');
                out.push_str(&compute_line_hash(rest));
                out.push_str(&clean[number_end..]);
                out.push_str(cr);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// For `^(\s*)(\d+)(\s*\|)(.*)$`: the byte offsets where the digits end and where the rest starts.
fn split_numbered_line(line: &str) -> Option<(usize, usize)> {
    let digits_start = line.len() - line.trim_start_matches(is_js_whitespace).len();
    let after = &line[digits_start..];
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let number_end = digits_start + digits;
    let pipe_at = number_end
        + (line[number_end..].len()
            - line[number_end..]
                .trim_start_matches(is_js_whitespace)
                .len());
    if !line[pipe_at..].starts_with('|') {
        return None;
    }
    let rest_start = pipe_at + 1;
    let rest_ok = !line[rest_start..].contains(['\r', '\u{2028}', '\u{2029}']);
    rest_ok.then_some((number_end, rest_start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_match_probe() {
        // Values computed with Probe's JavaScript implementation.
        assert_eq!(compute_line_hash("function foo() {}"), "78");
        assert_eq!(compute_line_hash(""), "05");
        assert_eq!(compute_line_hash("   "), "05");
        assert_eq!(compute_line_hash("a b\tc"), "8b");
        assert_eq!(compute_line_hash("  return x;"), "18");
        assert_eq!(compute_line_hash("héllo wörld"), "2c");
        assert_eq!(compute_line_hash("const 名前 = \"値\";"), "66");
        assert_eq!(compute_line_hash(&"x".repeat(1000)), "c5");
    }

    #[test]
    fn hash_ignores_js_white_space_and_counts_surrogates() {
        assert_eq!(compute_line_hash("\u{3000}x\u{a0}y"), "36");
        assert_eq!(
            compute_line_hash("\u{3000}x\u{a0}y"),
            compute_line_hash("xy")
        );
        // A non-BMP character contributes both UTF-16 surrogates (0xD83D, 0xDE00).
        assert_eq!(compute_line_hash("ab😀"), "05");
        assert_ne!(compute_line_hash("ab😀"), compute_line_hash("ab\u{1F601}"));
        // U+200B (zero-width space) is not JS white space.
        assert_ne!(compute_line_hash("a\u{200B}b"), compute_line_hash("ab"));
    }

    #[test]
    fn parses_line_refs() {
        assert_eq!(
            parse_line_ref("42"),
            Some(LineRef {
                line: 42,
                hash: None
            })
        );
        assert_eq!(
            parse_line_ref(" 42:AB "),
            Some(LineRef {
                line: 42,
                hash: Some("ab".into())
            })
        );
        assert_eq!(
            parse_line_ref("007"),
            Some(LineRef {
                line: 7,
                hash: None
            })
        );
        assert_eq!(
            parse_line_ref("\u{a0}42\u{3000}"),
            Some(LineRef {
                line: 42,
                hash: None
            })
        );
    }

    #[test]
    fn rejects_malformed_refs() {
        for bad in [
            "0",
            "00",
            "",
            "  ",
            "-1",
            "+5",
            "5.0",
            "4 2",
            "42:abc",
            "42:a",
            "42:ag",
            "42:",
            ":ab",
            "١٢",
            "42:\u{ab}",
            "1:2:ab",
        ] {
            assert_eq!(parse_line_ref(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn huge_numbers_saturate_until_infinity() {
        assert_eq!(
            parse_line_ref("99999999999999999999").map(|r| r.line),
            Some(usize::MAX)
        );
        assert_eq!(parse_line_ref(&"9".repeat(400)), None);
    }

    #[test]
    fn validates_hashes() {
        let lines = ["function foo() {}", "  return 1;"];
        assert_eq!(
            validate_line_hash(1, "78", &lines),
            HashCheck {
                valid: true,
                actual_hash: "78".into(),
                actual_content: "function foo() {}".into()
            }
        );
        assert!(validate_line_hash(2, "F1", &lines).valid);
        assert!(!validate_line_hash(1, "ZZ", &lines).valid);
        let outside = HashCheck {
            valid: false,
            actual_hash: String::new(),
            actual_content: String::new(),
        };
        assert_eq!(validate_line_hash(0, "05", &lines), outside);
        assert_eq!(validate_line_hash(3, "05", &lines), outside);
        assert_eq!(validate_line_hash(-4, "05", &lines), outside);
    }

    #[test]
    fn annotates_like_probe() {
        let input = "  1 | function foo() {}\r\n  2 |   return 1;\n3| x\r\r\nno\n 10 |\n\u{2028} 7 | y\n 8 | a\u{2028}b\n 9 | a\rb\n  11  |  z";
        let want = "  1:78 | function foo() {}\r\n  2:f1 |   return 1;\n3| x\r\r\nno\n 10:05 |\n\u{2028} 7:1e | y\n 8 | a\u{2028}b\n 9 | a\rb\n  11:1f  |  z";
        assert_eq!(annotate_output_with_hashes(input), want);
        assert_eq!(annotate_output_with_hashes(""), "");
        assert_eq!(annotate_output_with_hashes("x | 1"), "x | 1");
    }
}
