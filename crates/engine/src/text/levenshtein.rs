//! Edit distance with an upper bound (Ukkonen band): O(len · bound) instead of O(len²).

/// Levenshtein distance (insert, delete, substitute; cost 1 each) between `a` and `b` if it is at
/// most `max`, else `None`. Runs in O(a.len() · (2·max + 1)) and stops early once every cell of a
/// row exceeds `max`.
pub fn bounded_levenshtein<T: PartialEq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    if n.abs_diff(m) > max {
        return None;
    }
    let inf = max.saturating_add(1);
    let mut prev = vec![inf; m + 1];
    let mut cur = vec![inf; m + 1];
    for (j, cell) in prev.iter_mut().enumerate().take(max.min(m) + 1) {
        *cell = j;
    }
    for i in 1..=n {
        let lo = i.saturating_sub(max);
        let hi = i.saturating_add(max).min(m);
        let mut row_min = inf;
        if lo == 0 {
            cur[0] = i.min(inf);
            row_min = cur[0];
        } else {
            cur[lo - 1] = inf;
        }
        for j in lo.max(1)..=hi {
            let subst = prev[j - 1].saturating_add(usize::from(a[i - 1] != b[j - 1]));
            let v = subst
                .min(prev[j].saturating_add(1))
                .min(cur[j - 1].saturating_add(1))
                .min(inf);
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    (prev[m] <= max).then_some(prev[m])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lev(a: &str, b: &str, max: usize) -> Option<usize> {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        bounded_levenshtein(&a, &b, max)
    }

    #[test]
    fn distances_within_bound() {
        assert_eq!(lev("kitten", "sitting", 3), Some(3));
        assert_eq!(lev("kitten", "sitting", 10), Some(3));
        assert_eq!(lev("", "abc", 3), Some(3));
        assert_eq!(lev("abc", "", 5), Some(3));
        assert_eq!(lev("same", "same", 0), Some(0));
        assert_eq!(lev("flaw", "lawn", 2), Some(2));
        assert_eq!(lev("😀é", "😀e", 1), Some(1));
    }

    #[test]
    fn over_bound_is_none() {
        assert_eq!(lev("kitten", "sitting", 2), None);
        assert_eq!(lev("abc", "abcdef", 2), None);
        assert_eq!(lev("abcdef", "badcfe", 2), None);
    }

    #[test]
    fn agrees_with_full_dynamic_programming() {
        let words = [
            "", "a", "ab", "ba", "abc", "acb", "xabcx", "aaaa", "abab", "baba", "cabbage",
        ];
        for a in words {
            for b in words {
                let full = full(a, b);
                for max in 0..8 {
                    let want = (full <= max).then_some(full);
                    assert_eq!(lev(a, b, max), want, "{a:?} {b:?} {max}");
                }
            }
        }
    }

    fn full(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for i in 1..=a.len() {
            let mut diag = row[0];
            row[0] = i;
            for j in 1..=b.len() {
                let up = row[j];
                row[j] = (diag + usize::from(a[i - 1] != b[j - 1]))
                    .min(up + 1)
                    .min(row[j - 1] + 1);
                diag = up;
            }
        }
        row[b.len()]
    }
}
