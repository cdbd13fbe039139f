//! Quote-normalized matching: typographic quotes and straight quotes compare equal.
//!
//! U+2018, U+2019, U+201A compare as `'`; U+201C, U+201D, U+201E compare as `"`. The mapping is one
//! character to one character, so a normalized match maps back to the original text exactly.

use std::ops::Range;

use super::fit::{framed, Region};
use super::zones::line_zones;
use super::{MatchStrategy, StrategyMatch};

/// The straight quote a typographic quote stands for, or the character itself.
pub fn straight_quote(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' => '"',
        other => other,
    }
}

/// `text` with every typographic quote replaced by its straight quote (the `QuoteNormalizer`'s
/// `normalize`).
pub fn normalize_quotes(text: &str) -> String {
    text.chars().map(straight_quote).collect()
}

/// Result of [`quote_fuzzy_match`] (the `QuoteNormalizer`'s `FuzzyMatchResult`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteMatch {
    /// Always `true` (kept for the `{ matched, ... }` shape).
    pub matched: bool,
    /// The haystack's own text at the match (its quote style).
    pub original_match: String,
    /// The same text with quotes normalized (equals the normalized needle).
    pub normalized_match: String,
    /// Byte offset of the match in the haystack.
    pub position: usize,
    /// The same offset in UTF-16 code units (a JavaScript string index).
    pub position_utf16: usize,
}

/// The first occurrence of `needle` in `haystack` when both are quote-normalized; `None` for an
/// empty needle or no occurrence. O(needle + haystack).
pub fn quote_fuzzy_match(needle: &str, haystack: &str) -> Option<QuoteMatch> {
    if needle.is_empty() {
        return None;
    }
    let (norm, map) = normalize_with_map(haystack);
    let norm_needle = normalize_quotes(needle);
    let idx = memchr::memmem::find(norm.as_bytes(), norm_needle.as_bytes())?;
    let range = map[idx]..map[idx + norm_needle.len()];
    Some(QuoteMatch {
        matched: true,
        original_match: haystack.get(range.clone())?.to_string(),
        normalized_match: norm_needle,
        position: range.start,
        position_utf16: haystack.get(..range.start)?.encode_utf16().count(),
    })
}

/// Quote-normalized text plus, for each of its bytes and its end, the byte offset in `s` of the
/// character that byte came from (`map[norm.len()] == s.len()`).
fn normalize_with_map(s: &str) -> (String, Vec<usize>) {
    let mut norm = String::with_capacity(s.len());
    let mut map = Vec::with_capacity(s.len() + 1);
    for (i, c) in s.char_indices() {
        let n = straight_quote(c);
        norm.push(n);
        map.extend(std::iter::repeat_n(i, n.len_utf8()));
    }
    map.push(s.len());
    (norm, map)
}

/// Quote-normalized strategy: every non-overlapping occurrence (leftmost first) of the normalized
/// search in the normalized content, as byte ranges of the original content. `None` when the search
/// is empty or nothing matches. O(content + search).
///
/// Without straight quotes in the normalized search a match is a verbatim occurrence, found by one
/// substring search. Otherwise only the whole-line zones around the search's longest quote-free run
/// are normalized and searched (quotes map one character to one, newlines stay).
pub fn quote_normalized_match(content: &str, search: &str) -> Option<StrategyMatch> {
    if search.is_empty() {
        return None;
    }
    let needle = normalize_quotes(search);
    let bytes = content.as_bytes();
    let regions: Vec<Range<usize>> = match quote_free_anchor(needle.as_bytes()) {
        None => memchr::memmem::find_iter(bytes, needle.as_bytes())
            .map(|i| i..i + needle.len())
            .collect(),
        Some((anchor, before, after)) => {
            let zones = match anchor {
                [] => std::iter::once(0..content.len()).collect(),
                _ => line_zones(
                    bytes,
                    memchr::memmem::find_iter(bytes, anchor),
                    before,
                    after,
                ),
            };
            let finder = memchr::memmem::Finder::new(needle.as_bytes());
            let mut regions = Vec::new();
            for zone in zones {
                let (norm, map) = normalize_with_map(&content[zone.clone()]);
                regions.extend(
                    finder
                        .find_iter(norm.as_bytes())
                        .map(|i| zone.start + map[i]..zone.start + map[i + needle.len()]),
                );
            }
            regions
        }
    };
    (!regions.is_empty()).then_some(StrategyMatch {
        regions,
        anchor: None,
    })
}

/// `None` when `needle` has no straight quote (it can only match verbatim); else its longest run
/// without quotes or newlines (possibly empty) and the number of newlines before and after it.
fn quote_free_anchor(needle: &[u8]) -> Option<(&[u8], usize, usize)> {
    memchr::memchr2(b'\'', b'"', needle)?;
    let mut best: (&[u8], usize) = (&[], 0);
    let mut newlines = 0;
    for line in needle.split(|&b| b == b'\n') {
        for run in line.split(|&b| b == b'\'' || b == b'"') {
            if run.len() > best.0.len() {
                best = (run, newlines);
            }
        }
        newlines += 1;
    }
    Some((best.0, best.1, newlines - 1 - best.1))
}

/// Writes `new_string` over a quote-normalized match while keeping the file's quote style where
/// the text is unchanged.
///
/// `original_match` is the file's text (normalized, it equals `normalize_quotes(old_string)`).
/// The normalized `old_string` and `new_string` are diffed character by character; characters
/// the diff keeps are taken from `original_match` (so `’` stays `’`), inserted characters are
/// taken from `new_string` as written. When `original_match` does not normalize to the normalized
/// `old_string`, `new_string` is returned unchanged.
pub fn preserve_quote_style(original_match: &str, old_string: &str, new_string: &str) -> String {
    let file: Vec<char> = original_match.chars().collect();
    let old: Vec<char> = old_string.chars().map(straight_quote).collect();
    let new_raw: Vec<char> = new_string.chars().collect();
    let new: Vec<char> = new_raw.iter().copied().map(straight_quote).collect();
    if file.len() != old.len() || file.iter().zip(&old).any(|(&f, &o)| straight_quote(f) != o) {
        return new_string.to_string();
    }
    let mut out = String::with_capacity(new_string.len());
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
        match op {
            similar::DiffOp::Equal { old_index, len, .. } => {
                out.extend(&file[old_index..old_index + len]);
            }
            similar::DiffOp::Insert {
                new_index, new_len, ..
            }
            | similar::DiffOp::Replace {
                new_index, new_len, ..
            } => {
                out.extend(&new_raw[new_index..new_index + new_len]);
            }
            similar::DiffOp::Delete { .. } => {}
        }
    }
    out
}

/// The quote-normalized strategy ([`quote_normalized_match`]): `new_string` keeps the file's
/// quote characters where it shares its text with `old_string` ([`preserve_quote_style`]), then is
/// laid into the region's frame.
pub(super) struct QuoteNormalized;

impl MatchStrategy for QuoteNormalized {
    fn find(&self, content: &str, search: &str) -> Option<StrategyMatch> {
        quote_normalized_match(content, search)
    }

    fn fit(&self, region: &Region, old: &str, new: &str) -> String {
        framed(region, old, &preserve_quote_style(region.text, old, new))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fit::tests::fit;
    use crate::text::fit::IndentStyle;
    use crate::text::Strategy;

    const SPACES2: IndentStyle = IndentStyle {
        tabs: false,
        unit: 2,
    };

    #[test]
    fn normalizes_all_six_quotes() {
        assert_eq!(
            normalize_quotes("\u{2018}a\u{2019} \u{201A}b \u{201C}c\u{201D} \u{201E}d"),
            "'a' 'b \"c\" \"d"
        );
        assert_eq!(
            normalize_quotes("plain 'x' \"y\" «z»"),
            "plain 'x' \"y\" «z»"
        );
    }

    #[test]
    fn fuzzy_match_in_both_directions() {
        let hay = "say(\u{201C}Hello\u{201D});";
        let m = quote_fuzzy_match("\"Hello\"", hay).unwrap();
        assert!(m.matched);
        assert_eq!(m.original_match, "\u{201C}Hello\u{201D}");
        assert_eq!(m.normalized_match, "\"Hello\"");
        assert_eq!((m.position, m.position_utf16), (4, 4));
        let back = quote_fuzzy_match("it\u{2019}s", "x = 'it's';").unwrap();
        assert_eq!(back.original_match, "it's");
        assert_eq!(back.position, 5);
    }

    #[test]
    fn fuzzy_match_positions_after_wide_characters() {
        let m = quote_fuzzy_match("'a'", "😀 é \u{2018}a\u{2019}").unwrap();
        assert_eq!(m.position, 8);
        assert_eq!(m.position_utf16, 5);
        assert_eq!(quote_fuzzy_match("", "abc"), None);
        assert_eq!(quote_fuzzy_match("'b'", "\u{2018}a\u{2019}"), None);
    }

    #[test]
    fn strategy_reports_original_ranges() {
        let content = "a(\u{201C}x\u{201D}); a(\"x\"); a(\u{201E}x\u{201C});";
        let m = quote_normalized_match(content, "a(\"x\")").unwrap();
        let texts: Vec<_> = m.regions.iter().map(|r| &content[r.clone()]).collect();
        assert_eq!(
            texts,
            vec!["a(\u{201C}x\u{201D})", "a(\"x\")", "a(\u{201E}x\u{201C})"]
        );
        assert_eq!(quote_normalized_match(content, "b"), None);
        let lines = "x = 1;\nsay(\u{2018}a\u{2019});\nsay('a');\n'\n\u{201C}";
        let texts = |search: &str| -> Vec<&str> {
            quote_normalized_match(lines, search)
                .map(|m| m.regions.iter().map(|r| &lines[r.clone()]).collect())
                .unwrap_or_default()
        };
        assert_eq!(
            texts("say('a');"),
            vec!["say(\u{2018}a\u{2019});", "say('a');"]
        );
        assert_eq!(texts("1;\nsay('a')"), vec!["1;\nsay(\u{2018}a\u{2019})"]);
        assert_eq!(texts("'"), vec!["\u{2018}", "\u{2019}", "'", "'", "'"]);
        assert_eq!(texts("'\n\""), vec!["'\n\u{201C}"]);
        assert_eq!(quote_normalized_match(content, ""), None);
    }

    #[test]
    fn keeps_file_quotes_in_unchanged_parts() {
        let file = "msg = \u{201C}Don\u{2019}t panic\u{201D};";
        let old = "msg = \"Don't panic\";";
        let new = "msg = \"Don't panic now\";";
        assert_eq!(
            preserve_quote_style(file, old, new),
            "msg = \u{201C}Don\u{2019}t panic now\u{201D};"
        );
        // Inserted quotes stay as the model wrote them.
        let new2 = "msg = \"Don't panic\"; x = 'y';";
        assert_eq!(
            preserve_quote_style(file, old, new2),
            "msg = \u{201C}Don\u{2019}t panic\u{201D}; x = 'y';"
        );
        // A mismatching original is left alone.
        assert_eq!(preserve_quote_style("other", old, new), new);
    }

    #[test]
    fn its_fit_keeps_the_files_curly_quotes() {
        let out = fit(
            Strategy::QuoteNormalized,
            "say(\u{201C}hi\u{201D});",
            "",
            SPACES2,
            "say(\"hi\");",
            "say(\"hi there\");",
        );
        assert_eq!(out, "say(\u{201C}hi there\u{201D});");
    }
}
