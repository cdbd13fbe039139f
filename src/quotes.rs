//! The quote normalizer (typographic to straight quotes and back), as two functions the JS
//! `QuoteNormalizer` class calls.

use edit_engine_core::text;
use napi_derive::napi;

/// `{ matched, originalMatch, normalizedMatch, position }` from `QuoteNormalizer.fuzzyMatch`;
/// `position` is a JavaScript string index (UTF-16 code units) into the haystack.
#[napi(object)]
pub struct QuoteFuzzyMatch {
    pub matched: bool,
    pub original_match: String,
    pub normalized_match: String,
    pub position: u32,
}

/// `text` with U+2018/2019/201A as `'` and U+201C/201D/201E as `"`.
#[napi]
pub fn normalize_quotes(text: String) -> String {
    text::normalize_quotes(&text)
}

/// The first place `needle` occurs in `haystack` when quotes are compared normalized; `null`
/// when it does not occur or `needle` is empty.
#[napi]
pub fn quote_fuzzy_match(needle: String, haystack: String) -> Option<QuoteFuzzyMatch> {
    text::quote_fuzzy_match(&needle, &haystack).map(|m| QuoteFuzzyMatch {
        matched: m.matched,
        original_match: m.original_match,
        normalized_match: m.normalized_match,
        position: u32::try_from(m.position_utf16).unwrap_or(u32::MAX),
    })
}
