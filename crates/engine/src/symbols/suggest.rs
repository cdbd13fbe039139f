//! "Did you mean" ranking of symbol names.

use super::SymbolInfo;

/// Names are compared on at most this many characters, which bounds the edit-distance cost.
const MAX_CHARS: usize = 96;

/// Up to `n` distinct qualified names from `all`, closest to `wanted` first.
///
/// The score is the case-insensitive edit distance to the qualified name or, when `wanted` has no dots, to
/// the bare name (whichever is smaller); a name containing `wanted` (3+ characters) scores as if one edit
/// away. Ties keep source order.
pub fn closest_names(all: &[SymbolInfo], wanted: &str, n: usize) -> Vec<String> {
    let wanted_lc = wanted.trim().to_lowercase();
    if n == 0 || wanted_lc.is_empty() {
        return Vec::new();
    }
    let qualified_wanted = wanted_lc.contains('.') || wanted_lc.contains("::");
    let wanted_norm = wanted_lc.replace("::", ".");
    let mut scored: Vec<(usize, usize, &str)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, s) in all.iter().enumerate() {
        if !seen.insert(s.qualified_name.as_str()) {
            continue;
        }
        let q = s.qualified_name.to_lowercase();
        let bare = s.name().to_lowercase();
        let mut d = levenshtein(&wanted_norm, &q);
        if !qualified_wanted {
            d = d.min(levenshtein(&wanted_norm, &bare));
        }
        let target = if qualified_wanted { &q } else { &bare };
        if d > 1 && wanted_norm.chars().count() >= 3 && target.contains(wanted_norm.as_str()) {
            d = 1;
        }
        scored.push((d, i, s.qualified_name.as_str()));
    }
    scored.sort_by_key(|&(d, i, _)| (d, i));
    scored
        .into_iter()
        .take(n)
        .map(|(_, _, q)| q.to_string())
        .collect()
}

/// For each of several same-named definitions (a [`super::find_all_symbols`] result), a name that selects
/// exactly that one: its qualified name when no other has it (`Calc.push`), `::name` for a lone top-level
/// definition among nested ones, else `qualified@LINE` with its first line.
pub fn selectors(found: &[SymbolInfo]) -> Vec<String> {
    found
        .iter()
        .map(|s| {
            let q = s.qualified_name.as_str();
            let same = found.iter().filter(|o| o.qualified_name == q).count();
            if same > 1 {
                format!("{q}@{}", s.start_line)
            } else if q.contains('.') || found.len() == 1 {
                q.to_string()
            } else {
                format!("::{q}")
            }
        })
        .collect()
}

/// Levenshtein distance over chars (each string cut to [`MAX_CHARS`]).
fn levenshtein(a: &str, b: &str) -> usize {
    strsim::levenshtein(first_chars(a), first_chars(b))
}

/// `s` cut to its first [`MAX_CHARS`] characters.
fn first_chars(s: &str) -> &str {
    s.char_indices()
        .nth(MAX_CHARS)
        .map_or(s, |(end, _)| &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levenshtein_basics() {
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("same", "same"), 0);
    }

    #[test]
    fn levenshtein_compares_the_first_max_chars_only() {
        let long = "é".repeat(MAX_CHARS);
        assert_eq!(levenshtein(&format!("{long}abc"), &format!("{long}xyz")), 0);
        assert_eq!(levenshtein(&format!("{long}abc"), &long), 0);
        assert_eq!(levenshtein("ab", &"é".repeat(MAX_CHARS + 50)), MAX_CHARS);
    }
}
