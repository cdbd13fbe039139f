//! Whole-line zones around anchor hits: an exact prefilter for the line-based strategies.
//!
//! A strategy whose every match spans lines `L - before ..= L + after` of a line `L` holding an
//! anchor hit (a place where some part of the search must occur verbatim) can run on the zones
//! instead of the whole content and find the same matches: each zone is a byte range of whole lines
//! (from a line start to a line end, the final `\n` excluded), zones are disjoint and ascending, and
//! every such span lies inside one zone. Zones may be larger than needed: overlapping or adjacent
//! spans are merged and spans are clamped to the content. Each content byte is scanned O(1) times,
//! so building zones is O(content) however many hits there are.

use std::ops::Range;

use memchr::{memchr, memchr_iter, memrchr};

/// Zones for `hits` (ascending byte offsets into `hay`; a hit belongs to the line holding that byte)
/// covering `before` lines above and `after` lines below each hit's line.
pub fn line_zones(
    hay: &[u8],
    hits: impl IntoIterator<Item = usize>,
    before: usize,
    after: usize,
) -> Vec<Range<usize>> {
    let mut zones = Vec::new();
    // The open zone (start, end) and the previous hit in it.
    let mut open: Option<(usize, usize)> = None;
    let mut prev = 0usize;
    for h in hits {
        open = Some(match open {
            Some((start, end)) if h <= end => {
                // Same zone: its end moves down by the lines between the previous hit and this one.
                let passed = memchr_iter(b'\n', &hay[prev..h]).count();
                (start, extend(hay, end, passed))
            }
            Some((start, end)) => match line_start_above(hay, end + 1, h, before) {
                Some(new_start) => {
                    zones.push(start..end);
                    (new_start, line_end_below(hay, h, after))
                }
                None => (start, line_end_below(hay, h, after)),
            },
            None => (
                line_start_above(hay, 0, h, before).unwrap_or(0),
                line_end_below(hay, h, after),
            ),
        });
        prev = h;
    }
    zones.extend(open.map(|(start, end)| start..end));
    zones
}

/// Start of the line `n` lines above the line holding `pos`, when that start lies after `floor`
/// (`hay[floor..pos]` is all that is searched); `None` when the walk reaches `floor`.
fn line_start_above(hay: &[u8], floor: usize, pos: usize, n: usize) -> Option<usize> {
    let mut p = pos;
    for _ in 0..=n {
        p = floor + memrchr(b'\n', &hay[floor..p])?;
    }
    Some(p + 1)
}

/// End (offset of the `\n`, or `hay.len()`) of the line `n` lines below the line holding `pos`.
fn line_end_below(hay: &[u8], pos: usize, n: usize) -> usize {
    let mut p = pos;
    for i in 0..=n {
        match memchr(b'\n', &hay[p..]) {
            Some(k) if i == n => return p + k,
            Some(k) => p += k + 1,
            None => return hay.len(),
        }
    }
    unreachable!("the loop returns on its last step")
}

/// Moves a line end `end` down by `n` lines.
fn extend(hay: &[u8], end: usize, n: usize) -> usize {
    if n == 0 || end >= hay.len() {
        end
    } else {
        line_end_below(hay, end + 1, n - 1)
    }
}

/// True when `hay[at..at + len]` is all of its line but JavaScript white space around it.
pub fn is_whole_trimmed_line(hay: &str, at: usize, len: usize) -> bool {
    let inline_ws = |c: char| c != '\n' && super::js::is_js_whitespace(c);
    let before = hay[..at].trim_end_matches(inline_ws);
    let after = hay[at + len..].trim_start_matches(inline_ws);
    (before.is_empty() || before.ends_with('\n')) && (after.is_empty() || after.starts_with('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference: line index per byte, then whole lines `L - before ..= L + after`, merged when
    /// they overlap or touch.
    fn naive(hay: &str, hits: &[usize], before: usize, after: usize) -> Vec<Range<usize>> {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(memchr_iter(b'\n', hay.as_bytes()).map(|i| i + 1))
            .collect();
        let end_of = |l: usize| starts.get(l + 1).map_or(hay.len(), |s| s - 1);
        let mut spans: Vec<(usize, usize)> = hits
            .iter()
            .map(|&h| {
                let l = starts.partition_point(|&s| s <= h) - 1;
                (l.saturating_sub(before), (l + after).min(starts.len() - 1))
            })
            .collect();
        spans.sort();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (a, b) in spans {
            match merged.last_mut() {
                Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        merged
            .into_iter()
            .map(|(a, b)| starts[a]..end_of(b))
            .collect()
    }

    #[test]
    fn zones_match_a_line_index_reference() {
        let hays = [
            "a\nbb\n\nccc\nd\ne\nf\n\ng",
            "x",
            "\n\n\n",
            "one long line with words",
            "l0\nl1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\n",
        ];
        for hay in hays {
            let n = hay.len();
            for before in 0..4 {
                for after in 0..4 {
                    for mask in 0u32..(1 << n.min(12)) {
                        let hits: Vec<usize> =
                            (0..n.min(12)).filter(|i| mask >> i & 1 == 1).collect();
                        let got = line_zones(hay.as_bytes(), hits.iter().copied(), before, after);
                        assert_eq!(
                            got,
                            naive(hay, &hits, before, after),
                            "{hay:?} {hits:?} {before} {after}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn no_hits_no_zones() {
        assert!(line_zones(b"a\nb", [], 1, 1).is_empty());
    }

    #[test]
    fn whole_trimmed_lines() {
        let hay = "  ab \u{a0}\nxab\n\tab";
        assert!(is_whole_trimmed_line(hay, 2, 2));
        assert!(!is_whole_trimmed_line(hay, 10, 2));
        assert!(is_whole_trimmed_line(hay, hay.len() - 2, 2));
        assert!(is_whole_trimmed_line("ab", 0, 2));
        assert!(!is_whole_trimmed_line("ab c", 0, 2));
    }
}
