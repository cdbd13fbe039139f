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
    for (i, s) in all.iter().enumerate() {
        if scored.iter().any(|(_, _, q)| *q == s.qualified_name) {
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

/// Levenshtein distance over chars (each string cut to [`MAX_CHARS`]).
fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(MAX_CHARS).collect();
    let b: Vec<char> = b.chars().take(MAX_CHARS).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
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
}
