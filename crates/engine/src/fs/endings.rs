//! Line endings of replaced text in a file of mixed endings.
//!
//! Edits work on the LF view of a file ([`super::textfile::TextFile`]). A file whose every line
//! ends in CRLF has no `\r` left in that view and gets its CRLF back on write; a file of mixed
//! endings is edited as it is, so a line that ends in CRLF keeps its `\r` in the view. For such a
//! file the rule is: the k-th new line takes the ending of the k-th line it replaces, extra new
//! lines take the last replaced line's ending, and lines that are added without replacing any take
//! the ending of the line above (below at the start of the file). Untouched lines are never
//! rewritten, so they keep their endings byte for byte, embedded `\r` included.

use std::borrow::Cow;
use std::ops::Range;

/// True when a line of the LF view (without its `\n`) ends in CRLF: its text keeps the `\r`.
pub fn ends_crlf(line: &str) -> bool {
    line.ends_with('\r')
}

/// `line` (without its `\n`) with a CRLF ending when `crlf` (a `\r` added unless already there).
pub fn with_ending(mut line: String, crlf: bool) -> String {
    if crlf && !line.ends_with('\r') {
        line.push('\r');
    }
    line
}

/// Whether each of `added` new lines ends in CRLF when they take the place of the `replaced` lines
/// (whole lines of the LF view, without `\n`): the k-th takes the k-th replaced line's ending, the
/// ones past them the last one's; with nothing replaced, the ending of the line `above`, else of
/// the line `below` (at the start of the file).
pub fn new_line_endings<'a>(
    added: usize,
    replaced: &'a [&'a str],
    above: Option<&'a str>,
    below: Option<&'a str>,
) -> impl Iterator<Item = bool> + 'a {
    let neighbour = above.or(below).is_some_and(ends_crlf);
    (0..added).map(move |k| match replaced {
        [] => neighbour,
        _ => ends_crlf(replaced[k.min(replaced.len() - 1)]),
    })
}

/// `text`, new lines joined with `\n` that take the place of the `replaced` lines (between `above`
/// and `below`), with each line given its ending by [`new_line_endings`]. The last line gets no
/// `\r` when no line follows it (`below` is `None`). Borrows `text` when no line involved ends in
/// CRLF.
pub fn fit_new_lines<'a>(
    text: &'a str,
    replaced: &[&str],
    above: Option<&str>,
    below: Option<&str>,
) -> Cow<'a, str> {
    let involved = replaced.iter().copied().chain(above).chain(below);
    if !involved.into_iter().any(ends_crlf) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let last = lines.len() - 1;
    let endings = new_line_endings(lines.len(), replaced, above, below);
    let fitted: Vec<String> = lines
        .iter()
        .zip(endings)
        .enumerate()
        .map(|(k, (line, crlf))| {
            with_ending(line.to_string(), crlf && (k < last || below.is_some()))
        })
        .collect();
    Cow::Owned(fitted.join("\n"))
}

/// `new`, the replacement of `content[region]`, with each line break given the ending of the line
/// of `content` it takes the place of (see the module's rule): the lines the region touches are
/// those from the one it starts in to the one it ends in. A `\r` the caller wrote before a line
/// break is dropped first. Borrows `new` when nothing changes: the touched lines all end in LF and
/// `new` has no CRLF. Looks only at the touched lines (never the whole file).
pub fn carry_endings<'a>(content: &str, region: Range<usize>, new: &'a str) -> Cow<'a, str> {
    let endings = touched_endings(content.as_bytes(), region);
    let any_crlf = endings.iter().any(|&crlf| crlf);
    if endings.is_empty() || (!any_crlf && memchr::memmem::find(new.as_bytes(), b"\r\n").is_none())
    {
        return Cow::Borrowed(new);
    }
    let mut out = String::with_capacity(new.len() + endings.len());
    let mut pieces = new.split('\n').peekable();
    let mut k = 0;
    while let Some(piece) = pieces.next() {
        if pieces.peek().is_none() {
            out.push_str(piece);
            break;
        }
        out.push_str(piece.strip_suffix('\r').unwrap_or(piece));
        let crlf = endings[k.min(endings.len() - 1)];
        out.push_str(if crlf { "\r\n" } else { "\n" });
        k += 1;
    }
    Cow::Owned(out)
}

/// `content` with each of `replacements` (ascending, non-overlapping regions of `content` and
/// their new texts) put in place, endings carried by [`carry_endings`]. A `content` without any
/// `\r` (LF, or the LF view of a CRLF file) takes the new texts as they are.
pub fn splice_carrying_endings<I, S>(content: &str, replacements: I) -> String
where
    I: IntoIterator<Item = (Range<usize>, S)>,
    S: AsRef<str>,
{
    let mixed = memchr::memchr(b'\r', content.as_bytes()).is_some();
    let mut out = String::with_capacity(content.len());
    let mut last = 0;
    for (region, new) in replacements {
        out.push_str(&content[last..region.start]);
        match mixed {
            true => out.push_str(&carry_endings(content, region.clone(), new.as_ref())),
            false => out.push_str(new.as_ref()),
        }
        last = region.end;
    }
    out.push_str(&content[last..]);
    out
}

/// Whether each line that `region` touches ends in CRLF, in order. A last line without a line
/// break takes the ending of the line above it; empty when no touched line has a known ending.
fn touched_endings(bytes: &[u8], region: Range<usize>) -> Vec<bool> {
    let crlf_at = |nl: usize| nl > 0 && bytes[nl - 1] == b'\r';
    let closes_line = region.end > region.start && bytes[region.end - 1] == b'\n';
    let tail = if closes_line {
        region.end - 1
    } else {
        region.end
    };
    let last_break = memchr::memchr(b'\n', &bytes[tail..]).map(|p| tail + p);
    let scan_end = last_break.map_or(bytes.len(), |p| p + 1);
    let mut endings: Vec<bool> = memchr::memchr_iter(b'\n', &bytes[region.start..scan_end])
        .map(|p| crlf_at(region.start + p))
        .collect();
    if last_break.is_none() {
        let above = match endings.last() {
            Some(&crlf) => Some(crlf),
            None => memchr::memrchr(b'\n', &bytes[..region.start]).map(crlf_at),
        };
        endings.extend(above);
    }
    endings
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `content` with the first occurrence of `old` replaced by `new`, endings carried.
    fn replace(content: &str, old: &str, new: &str) -> String {
        let start = content.find(old).unwrap();
        let region = start..start + old.len();
        let carried = carry_endings(content, region.clone(), new);
        format!("{}{carried}{}", &content[..start], &content[region.end..])
    }

    #[test]
    fn each_new_line_takes_the_ending_of_the_line_it_replaces() {
        let mixed = "one\r\ntwo\nthree\r\nfour\n";
        assert_eq!(
            replace(mixed, "three", "THREE"),
            "one\r\ntwo\nTHREE\r\nfour\n"
        );
        assert_eq!(
            replace(mixed, "two\nthree\r\n", "X\nY\nZ\n"),
            "one\r\nX\nY\r\nZ\r\nfour\n"
        );
        assert_eq!(
            replace(mixed, "two\nthree", "X\nY\nZ"),
            "one\r\nX\nY\r\nZ\r\nfour\n"
        );
        // A CRLF the caller wrote gives way to the replaced line's LF.
        assert_eq!(
            replace(mixed, "two\n", "2\r\n2b\r\n"),
            "one\r\n2\n2b\nthree\r\nfour\n"
        );
    }

    #[test]
    fn embedded_carriage_returns_stay_and_extra_lines_take_the_last_ending() {
        let text = "foo\r\r\nbar\r\nbaz\r\n";
        assert_eq!(
            replace(text, "baz", "BAZ\nQ"),
            "foo\r\r\nbar\r\nBAZ\r\nQ\r\n"
        );
        assert_eq!(replace(text, "bar", "B"), "foo\r\r\nB\r\nbaz\r\n");
    }

    #[test]
    fn a_last_line_without_a_break_takes_the_ending_above() {
        assert_eq!(replace("a\nb\r\nc", "c", "c\nd"), "a\nb\r\nc\r\nd");
        assert_eq!(replace("a\r\nb\nc", "c", "c\nd"), "a\r\nb\nc\nd");
    }

    #[test]
    fn new_lines_pair_with_replaced_lines_or_take_the_neighbours_ending() {
        let ends = |n, replaced: &[&str], above, below| -> Vec<bool> {
            new_line_endings(n, replaced, above, below).collect()
        };
        assert_eq!(ends(3, &["a", "b\r"], None, None), [false, true, true]);
        assert_eq!(ends(1, &["a\r", "b"], None, None), [true]);
        assert_eq!(ends(2, &[], Some("a\r"), Some("b")), [true, true]);
        assert_eq!(ends(1, &[], None, Some("b\r")), [true]);
        assert_eq!(ends(1, &[], Some("a"), Some("b\r")), [false]);
    }

    #[test]
    fn fitted_new_lines_end_like_the_lines_they_replace() {
        assert_eq!(
            fit_new_lines("X\nY\nZ", &["two", "three\r"], Some("one\r"), Some("four")),
            "X\nY\r\nZ\r"
        );
        assert_eq!(fit_new_lines("X\nY", &[], Some("one\r"), None), "X\r\nY");
        assert!(matches!(
            fit_new_lines("X", &["a"], Some("b"), None),
            Cow::Borrowed("X")
        ));
    }

    #[test]
    fn spliced_replacements_carry_endings_only_in_files_with_carriage_returns() {
        let mixed = "one\r\ntwo\nthree\r\nfour\n";
        let at = |s: &str| mixed.find(s).map(|p| p..p + s.len()).unwrap();
        let spliced = splice_carrying_endings(mixed, [(at("one"), "1\n1b"), (at("three"), "3")]);
        assert_eq!(spliced, "1\r\n1b\r\ntwo\n3\r\nfour\n");
        assert_eq!(
            splice_carrying_endings("a\nb\n", [(0..1, "x\r\ny")]),
            "x\r\ny\nb\n"
        );
    }

    #[test]
    fn lf_lines_borrow_the_replacement() {
        let carried = carry_endings("a\nb\r\nc\n", 0..1, "x\ny");
        assert!(matches!(carried, Cow::Borrowed("x\ny")));
        assert_eq!(carry_endings("a\nb\n", 0..2, "x\r\ny\r\n"), "x\ny\n");
    }
}
