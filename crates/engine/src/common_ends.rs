//! The common head and tail of two contents (the text before and after a change): the one scan
//! the diff, the stored preview and the syntax guard start from, and [`KnownEnds`], what a plan
//! already knows of them, so that a change of a few bytes in a large file is not found again by
//! comparing the whole file.

/// Bytes compared at once first; doubled per equal block up to [`MAX_BLOCK`] (one `memcmp` per
/// block, so a long equal run costs few calls and a near difference little).
const FIRST_BLOCK: usize = 64;
const MAX_BLOCK: usize = 4096;

/// The length of the longest common prefix of `a` and `b`.
pub fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (mut i, mut block) = (0, FIRST_BLOCK);
    while i + block <= n && a[i..i + block] == b[i..i + block] {
        i += block;
        block = (block * 2).min(MAX_BLOCK);
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// The length of the longest common suffix of `a` and `b`.
pub fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let (mut i, mut block) = (0, FIRST_BLOCK);
    while i + block <= n && a[n - i - block..n - i] == b[n - i - block..n - i] {
        i += block;
        block = (block * 2).min(MAX_BLOCK);
    }
    i + a[..n - i]
        .iter()
        .rev()
        .zip(b[..n - i].iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// What is known of the common ends of a content before (`a`) and after (`b`) a change: their
/// first `head` bytes are equal, and so are their last `tail` bytes (each at most the shorter
/// length; the two may overlap). [`KnownEnds::NONE`] knows nothing. A plan that replaced
/// `a[range]` knows [`KnownEnds::around`] it. A wrong claim gives wrong ends: only a plan that
/// built `b` from `a` makes one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KnownEnds {
    pub head: usize,
    pub tail: usize,
}

impl KnownEnds {
    pub const NONE: KnownEnds = KnownEnds { head: 0, tail: 0 };

    /// The ends kept when the bytes `range` of a content `len` bytes long are replaced.
    pub fn around(len: usize, range: std::ops::Range<usize>) -> KnownEnds {
        KnownEnds {
            head: range.start,
            tail: len.saturating_sub(range.end),
        }
    }

    /// [`common_prefix`]`(a, b)`, scanning only past the known head.
    pub fn prefix(self, a: &[u8], b: &[u8]) -> usize {
        let head = self.head.min(a.len()).min(b.len());
        debug_assert!(a[..head] == b[..head], "a known head that differs");
        head + common_prefix(&a[head..], &b[head..])
    }

    /// [`common_suffix`]`(&a[from..], &b[from..])`, scanning only up to the known tail.
    pub fn suffix_after(self, a: &[u8], b: &[u8], from: usize) -> usize {
        let tail = self.tail.min(a.len() - from).min(b.len() - from);
        let (a_end, b_end) = (a.len() - tail, b.len() - tail);
        debug_assert!(a[a_end..] == b[b_end..], "a known tail that differs");
        tail + common_suffix(&a[from..a_end], &b[from..b_end])
    }

    /// The longest common prefix of `a` and `b`, and the longest common suffix of what follows
    /// it in each.
    pub fn widen(self, a: &[u8], b: &[u8]) -> (usize, usize) {
        let head = self.prefix(a, b);
        (head, self.suffix_after(a, b, head))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_ends_are_found_across_blocks() {
        let a: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let mut b = a.clone();
        b[7_000] ^= 1;
        assert_eq!(
            (common_prefix(&a, &b), common_suffix(&a, &b)),
            (7_000, 2_999)
        );
        assert_eq!(
            (common_prefix(&a, &a[..10]), common_suffix(&a, &a[..10])),
            (10, 0)
        );
        assert_eq!(
            (common_prefix(b"", &a), common_suffix(b"ab", b"cb")),
            (0, 1)
        );
    }

    /// Byte by byte, the definition.
    fn slow_ends(a: &[u8], b: &[u8]) -> (usize, usize) {
        let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let (a, b) = (&a[head..], &b[head..]);
        let tail = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take_while(|(x, y)| x == y);
        (head, tail.count())
    }

    /// Replacing a random range of random text (few letters, so that the replacement often
    /// repeats what it replaces or its neighbours) and widening from the replaced range's ends
    /// finds the ends a byte-by-byte scan finds, from any start of the suffix too.
    #[test]
    fn widened_known_ends_are_the_scanned_ends() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        for round in 0..3_000 {
            let len = next(if round % 10 == 0 { 20_000 } else { 300 });
            let a: Vec<u8> = (0..len).map(|_| b"ab\n"[next(3)]).collect();
            let start = next(len + 1);
            let end = start + next(len - start + 1);
            let new: Vec<u8> = (0..next(12)).map(|_| b"ab\n"[next(3)]).collect();
            let b = [&a[..start], &new[..], &a[end..]].concat();
            let known = KnownEnds::around(a.len(), start..end);
            assert_eq!(known.widen(&a, &b), slow_ends(&a, &b), "round {round}");
            assert_eq!(KnownEnds::NONE.widen(&a, &b), slow_ends(&a, &b));
            let from = next(known.prefix(&a, &b) + 1);
            let (x, y) = (&a[from..], &b[from..]);
            let slow = x
                .iter()
                .rev()
                .zip(y.iter().rev())
                .take_while(|(p, q)| p == q);
            let slow = slow.count();
            assert_eq!(known.suffix_after(&a, &b, from), slow, "round {round}");
            assert_eq!(common_suffix(x, y), slow);
        }
    }
}
