//! Every occurrence of a strategy's anchor (a piece of text every region it finds holds verbatim),
//! kept from the strategy's own search so that the match driver finds a matched text's exact
//! occurrences without scanning the content again ([`AnchorHits::occurrences`]).

use std::ops::Range;

/// The positions of `text` in a content, ascending; `complete` when they are all of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnchorHits {
    text: Vec<u8>,
    pub at: Vec<usize>,
    complete: bool,
}

impl AnchorHits {
    /// The occurrences of `anchor` in `hay` that `memmem` reports: non-overlapping ones, which are
    /// all of them unless `anchor` can overlap itself (a proper prefix equal to a suffix).
    pub fn find(hay: &[u8], anchor: &[u8]) -> AnchorHits {
        AnchorHits {
            text: anchor.to_vec(),
            at: memchr::memmem::find_iter(hay, anchor).collect(),
            complete: !anchor.is_empty() && !self_overlapping(anchor),
        }
    }

    /// The leftmost non-overlapping occurrences of `needle` in `content` (what a scan with
    /// `str::match_indices` gives), taken from the anchor's positions when `needle` holds the
    /// anchor: each occurrence of `needle` puts one of the anchor at a fixed offset. `None` when
    /// that cannot be used (hits not complete, anchor not in `needle`, or more comparing than a
    /// scan of the content would cost): the caller scans.
    pub fn occurrences(&self, content: &str, needle: &str) -> Option<Vec<Range<usize>>> {
        let offset = memchr::memmem::find(needle.as_bytes(), &self.text)?;
        let budget = content.len().saturating_mul(2);
        if !self.complete || self.at.len().saturating_mul(needle.len()) > budget {
            return None;
        }
        let mut found: Vec<Range<usize>> = Vec::new();
        for &hit in &self.at {
            let Some(start) = hit.checked_sub(offset) else {
                continue;
            };
            let end = start + needle.len();
            let free = found.last().is_none_or(|last| start >= last.end);
            if free && content.as_bytes().get(start..end) == Some(needle.as_bytes()) {
                found.push(start..end);
            }
        }
        Some(found)
    }
}

/// Whether two occurrences of `s` can overlap: some proper prefix of `s` is also its suffix.
fn self_overlapping(s: &[u8]) -> bool {
    let borders = super::kmp::failure_table(s);
    borders.last().is_some_and(|&b| b > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `str::match_indices`'s non-overlapping occurrences, as ranges.
    fn scanned(content: &str, needle: &str) -> Vec<Range<usize>> {
        content
            .match_indices(needle)
            .map(|(i, m)| i..i + m.len())
            .collect()
    }

    #[test]
    fn an_anchor_that_can_overlap_itself_is_not_complete() {
        assert!(self_overlapping(b"aa"));
        assert!(self_overlapping(b"abcab"));
        assert!(!self_overlapping(b"ab"));
        assert!(!self_overlapping(b"a"));
        // memmem reports "aa" at 0 only in "aaa": an occurrence at 1 would be missed.
        let hits = AnchorHits::find(b"aaa", b"aa");
        assert_eq!(hits.occurrences("aaa", "aa"), None);
    }

    /// Random contents and needles over a small alphabet: the occurrences taken from the
    /// anchor's positions are the scan's, whenever they are given.
    #[test]
    fn occurrences_from_the_anchor_are_the_scans() {
        const PIECES: [&str; 6] = ["a", "b", "ab", "\n", " ", "ba"];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut compared = 0;
        for _ in 0..20_000 {
            let text = |next: &mut dyn FnMut(usize) -> usize, len: usize| -> String {
                (0..len).map(|_| PIECES[next(PIECES.len())]).collect()
            };
            let (content_len, needle_len) = (1 + next(40), 1 + next(6));
            let content = text(&mut next, content_len);
            let needle = text(&mut next, needle_len);
            let (from, len) = (next(needle.len()), 1 + next(3));
            let anchor = &needle.as_bytes()[from..(from + len).min(needle.len())];
            let hits = AnchorHits::find(content.as_bytes(), anchor);
            if let Some(found) = hits.occurrences(&content, &needle) {
                assert_eq!(found, scanned(&content, &needle), "{content:?} {needle:?}");
                compared += 1;
            }
        }
        assert!(compared > 5_000, "only {compared} cases compared");
    }
}
