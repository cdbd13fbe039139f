//! Whole lines wrapped in blank lines the file does not have: an `old_string` that opens or
//! closes with blank lines claims whole lines; when nothing else matched, those surplus blank
//! lines are set aside and the lines between them are looked for by their trimmed text.

use std::ops::Range;

use super::fit::style_around;
use super::js::js_trim;
use super::kmp::for_each_match;
use super::{Located, Strategy};

/// Where an `old_string`'s lines were found without its surplus blank lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WholeLines {
    /// The one region (whole file lines) the lines match.
    pub located: Located,
    /// The byte range of `old` that holds the lines (its first line's indentation and last
    /// line's break included).
    pub core: Range<usize>,
    /// Blank lines set aside before and after the core.
    pub blank_before: usize,
    pub blank_after: usize,
}

/// The lines of `old` between its leading and trailing blank lines, found as whole lines of
/// `content` whose trimmed text equals theirs line for line, at exactly one place, with one
/// indentation difference (in columns, a tab counted as the file's unit read around that place)
/// on every non-blank line.
/// `None` when `old` has no such blank lines, its lines are blank, they match no place or several,
/// or the indentation differs unevenly. `content` and `old` are LF views.
pub fn whole_lines_without_blank_edges(content: &str, old: &str) -> Option<WholeLines> {
    let (core, blank_before, blank_after) = blank_edges(old)?;
    let lines: Vec<&str> = old[core.clone()]
        .strip_suffix('\n')
        .unwrap_or(&old[core.clone()])
        .split('\n')
        .collect();
    let starts = line_starts(content);
    let at = only_place(content, &starts, &lines)?;
    let unit = style_around(content, starts[at]).unit;
    let shift = uniform_shift(content, &starts[at..at + lines.len()], &lines, unit)?;
    let last = at + lines.len() - 1;
    let end = line_end(content, starts[last]);
    let end = match old[core.clone()].ends_with('\n') && end < content.len() {
        true => end + 1,
        false => end,
    };
    let strategy = match shift {
        0 => Strategy::LineTrimmed,
        _ => Strategy::IndentShifted,
    };
    let located = Located {
        strategy: Some(strategy),
        regions: std::iter::once(starts[at]..end).collect(),
        identical: true,
    };
    Some(WholeLines {
        located,
        core,
        blank_before,
        blank_after,
    })
}

/// The byte range of `old`'s lines between its blank edge lines, and how many blank lines lie
/// before and after; `None` when there are none or nothing but blank lines.
fn blank_edges(old: &str) -> Option<(Range<usize>, usize, usize)> {
    let blank = |c: char| c == ' ' || c == '\t' || c == '\n';
    let text_start = old.len() - old.trim_start_matches(blank).len();
    let text_end = old.trim_end_matches(blank).len();
    if text_start >= text_end {
        return None;
    }
    let head = &old[..text_start];
    let before = head.matches('\n').count();
    let start = head.rfind('\n').map_or(0, |i| i + 1);
    let tail = &old[text_end..];
    let (end, after) = match tail.find('\n') {
        Some(i) => (text_end + i + 1, tail.matches('\n').count() - 1),
        None => (old.len(), 0),
    };
    (before + after > 0).then_some((start..end, before, after))
}

fn line_starts(content: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(memchr::memchr_iter(b'\n', content.as_bytes()).map(|i| i + 1));
    if starts.last() == Some(&content.len()) && content.ends_with('\n') {
        starts.pop();
    }
    starts
}

fn line_end(content: &str, start: usize) -> usize {
    memchr::memchr(b'\n', &content.as_bytes()[start..]).map_or(content.len(), |i| start + i)
}

/// The index of the single file line from which `lines` match by trimmed text; `None` for no
/// place or several. One pass over the trimmed lines (Knuth-Morris-Pratt), so a file of many
/// equal lines (`}`) and as long a run of them costs lines plus lines, not their product.
fn only_place(content: &str, starts: &[usize], lines: &[&str]) -> Option<usize> {
    let file: Vec<&str> = starts
        .iter()
        .map(|&s| js_trim(&content[s..line_end(content, s)]))
        .collect();
    let wanted: Vec<&str> = lines.iter().map(|l| js_trim(l)).collect();
    let (mut found, mut several) = (None, false);
    for_each_match(&file, &wanted, |at| several |= found.replace(at).is_some());
    found.filter(|_| !several)
}

/// The one difference (file columns - `old` columns) of every non-blank line pair; `None` when
/// they differ.
fn uniform_shift(content: &str, starts: &[usize], lines: &[&str], unit: usize) -> Option<isize> {
    let cols = |s: &str| -> isize {
        s.bytes()
            .take_while(|&b| b == b' ' || b == b'\t')
            .map(|b| if b == b'\t' { unit as isize } else { 1 })
            .sum()
    };
    let mut shift = None;
    for (&start, line) in starts.iter().zip(lines) {
        let file_line = &content[start..line_end(content, start)];
        if js_trim(line).is_empty() {
            continue;
        }
        let d = cols(file_line) - cols(line);
        if *shift.get_or_insert(d) != d {
            return None;
        }
    }
    shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_edges_are_set_aside() {
        assert_eq!(blank_edges("\n  a\n  b\n"), Some((1..9, 1, 0)));
        assert_eq!(blank_edges("\n\n  b();  \n\n"), Some((2..11, 2, 1)));
        assert_eq!(blank_edges("  a\n"), None);
        assert_eq!(blank_edges("\n \n"), None);
    }

    #[test]
    fn lines_match_once_at_one_shift() {
        let found =
            whole_lines_without_blank_edges("    a\n    b\n    c\n", "\n  a\n  b\n").unwrap();
        assert_eq!(found.located.regions, vec![0..12]);
        assert_eq!(found.located.strategy, Some(Strategy::IndentShifted));
        // Uneven indentation, two places, a match inside a line: none.
        assert_eq!(
            whole_lines_without_blank_edges("  a\n    b\n", "\na\nb\n"),
            None
        );
        assert_eq!(
            whole_lines_without_blank_edges("a\nx\na\n", "\n\na\n\n"),
            None
        );
        assert_eq!(
            whole_lines_without_blank_edges("x = a; y\n", "\n\na;\n\n"),
            None
        );
    }

    /// The single place is found as by trying every file line in turn (overlapping runs of
    /// equal lines included), on files of few distinct lines.
    #[test]
    fn the_only_place_is_the_one_every_line_start_would_find() {
        let naive = |content: &str, starts: &[usize], lines: &[&str]| {
            let trimmed = |i: usize| js_trim(&content[starts[i]..line_end(content, starts[i])]);
            let at_here = |at: usize| {
                let mut pairs = lines.iter().enumerate();
                pairs.all(|(k, l)| trimmed(at + k) == js_trim(l))
            };
            let places: Vec<usize> = (0..(starts.len() + 1).saturating_sub(lines.len()))
                .filter(|&at| at_here(at))
                .collect();
            (places.len() == 1).then(|| places[0])
        };
        const LINES: [&str; 4] = ["}", "  }", "x();", ""];
        let mut seed = 0x9e37_79b9_u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        for round in 0..2000 {
            let file: Vec<&str> = (0..1 + next(30))
                .map(|_| LINES[next(3 + round % 2)])
                .collect();
            let content = file.join("\n") + "\n";
            let lines: Vec<&str> = (0..1 + next(4)).map(|_| LINES[next(3)]).collect();
            let starts = line_starts(&content);
            assert_eq!(
                only_place(&content, &starts, &lines),
                naive(&content, &starts, &lines),
                "{content:?} {lines:?}"
            );
        }
    }

    /// Tabs for the file's 4 spaces, far from a 2-space head longer than 16 KB: the unit read
    /// around the lines makes the shift uniform.
    #[test]
    fn tabs_count_in_the_unit_around_the_lines() {
        let mut content = "  h();\n".repeat(2_500);
        content.push_str(&"    f();\n".repeat(1_200));
        let at = content.len();
        content.push_str("    foo()\n        bar()\n");
        let found = whole_lines_without_blank_edges(&content, "\n\tfoo()\n\t\tbar()\n").unwrap();
        assert_eq!(found.located.regions, vec![at..content.len()]);
        assert_eq!(found.located.strategy, Some(Strategy::LineTrimmed));
    }
}
