//! Knuth–Morris–Pratt search for every (overlapping) occurrence of a pattern, O(text + pattern).

/// Calls `on_match(start)` for every start index where `pat` occurs in `text`, overlapping
/// occurrences included, in ascending order. An empty pattern occurs at every index `0..=text.len()`.
pub fn for_each_match<T: Eq>(text: &[T], pat: &[T], on_match: impl FnMut(usize)) {
    search(text, pat, &failure_table(pat), on_match);
}

/// A pattern with its failure table, prepared once for searching several texts.
pub struct Kmp<T> {
    pat: Vec<T>,
    fail: Vec<usize>,
}

impl<T: Eq> Kmp<T> {
    pub fn new(pat: Vec<T>) -> Self {
        let fail = failure_table(&pat);
        Kmp { pat, fail }
    }

    /// [`for_each_match`] of this pattern in `text`.
    pub fn for_each_match(&self, text: &[T], on_match: impl FnMut(usize)) {
        search(text, &self.pat, &self.fail, on_match);
    }
}

fn search<T: Eq>(text: &[T], pat: &[T], fail: &[usize], mut on_match: impl FnMut(usize)) {
    if pat.is_empty() {
        (0..=text.len()).for_each(on_match);
        return;
    }
    if pat.len() > text.len() {
        return;
    }
    let mut k = 0usize; // length of the current partial match
    for (i, item) in text.iter().enumerate() {
        while k > 0 && pat[k] != *item {
            k = fail[k - 1];
        }
        if pat[k] == *item {
            k += 1;
        }
        if k == pat.len() {
            on_match(i + 1 - k);
            k = fail[k - 1];
        }
    }
}

/// `fail[i]` = length of the longest proper border of `pat[..=i]`.
pub(crate) fn failure_table<T: Eq>(pat: &[T]) -> Vec<usize> {
    let mut fail = vec![0usize; pat.len()];
    let mut k = 0usize;
    for i in 1..pat.len() {
        while k > 0 && pat[k] != pat[i] {
            k = fail[k - 1];
        }
        if pat[k] == pat[i] {
            k += 1;
        }
        fail[i] = k;
    }
    fail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str, pat: &str) -> Vec<usize> {
        let mut out = Vec::new();
        for_each_match(text.as_bytes(), pat.as_bytes(), |i| out.push(i));
        out
    }

    #[test]
    fn finds_overlapping_occurrences() {
        assert_eq!(all("aaaa", "aa"), vec![0, 1, 2]);
        assert_eq!(all("abababa", "aba"), vec![0, 2, 4]);
    }

    #[test]
    fn no_match_and_edge_sizes() {
        assert_eq!(all("abc", "abd"), Vec::<usize>::new());
        assert_eq!(all("ab", "abc"), Vec::<usize>::new());
        assert_eq!(all("ab", ""), vec![0, 1, 2]);
        assert_eq!(all("aabaabaaab", "aab"), vec![0, 3, 7]);
    }
}
