'use strict';
// Quote normalization: typographic and straight quotes compare equal (two native calls).

const native = require('./native.cjs');

/**
 * `QuoteNormalizer`: typographic quotes (U+2018/2019/201A -> ', U+201C/201D/201E -> ")
 * compare equal to straight ones. Never throws: `normalize` returns a non-string unchanged and
 * `fuzzyMatch` answers `null` for non-string arguments.
 */
class QuoteNormalizer {
  /** `text` with every typographic quote replaced by its straight form. */
  normalize(text) {
    return typeof text === 'string' ? native.normalizeQuotes(text) : text;
  }

  /**
   * The first occurrence of `needle` in `haystack`, quotes normalized on both sides:
   * `{ matched: true, originalMatch, normalizedMatch, position }` (`originalMatch` is the haystack's
   * own text, `position` its string index), or `null`.
   */
  fuzzyMatch(needle, haystack) {
    if (typeof needle !== 'string' || typeof haystack !== 'string') return null;
    return native.quoteFuzzyMatch(needle, haystack);
  }
}

module.exports = { QuoteNormalizer };
