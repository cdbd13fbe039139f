//! Slips a model makes around the text it copies, answered when no strategy matched or the match
//! needs no change: blank lines the file lacks around whole lines, an edit that already landed,
//! a fragment of a line given as a line.

use crate::common_ends::KnownEnds;
use std::ops::Range;

use super::super::{Planned, TrackerEffect};
use crate::text::js::js_trim;
use crate::text::{line_span, whole_lines_without_blank_edges, Located, Restriction};
use crate::tools::outcome::{ErrorKind, ToolError};

/// How the reply to an edit that needed no change starts (it is a success: nothing is written).
const ALREADY_APPLIED_LEAD: &str = "No change needed: ";
/// The least non-space characters of a fragment given as a line.
const FRAGMENT_MIN_CHARS: usize = 8;
/// Most lines listed when a fragment is found at several places.
const LISTED_LINES: usize = 10;

/// `old` without the blank lines around its whole lines that the file lacks, where its lines match
/// one place ([`whole_lines_without_blank_edges`]), with `new` losing the blank lines it mirrors
/// from them. Only when every strategy is allowed.
pub(super) fn without_blank_edges(
    content: &str,
    old: &str,
    new: &str,
    restriction: Restriction,
) -> Option<(Located, String, String)> {
    if restriction != Restriction::Any {
        return None;
    }
    let found = whole_lines_without_blank_edges(content, old)?;
    let new = mirrored_blank_lines_dropped(new, found.blank_before, found.blank_after);
    Some((found.located, old[found.core].to_string(), new))
}

/// `new` without `before` leading and `after` trailing blank lines when it has at least as many
/// as `old` had (beyond its last line's own break); otherwise as written.
fn mirrored_blank_lines_dropped(new: &str, before: usize, after: usize) -> String {
    let blank = |c: char| c == ' ' || c == '\t' || c == '\n';
    let text_start = new.len() - new.trim_start_matches(blank).len();
    let mut start = 0;
    if before > 0 && new[..text_start].matches('\n').count() >= before {
        start = new
            .match_indices('\n')
            .nth(before - 1)
            .map_or(0, |(i, _)| i + 1);
    }
    let text_end = new.trim_end_matches(blank).len().max(start);
    let breaks = new[text_end..].matches('\n').count();
    if after > 0 && breaks > after {
        return format!("{}{}", &new[start..text_end], "\n".repeat(breaks - after));
    }
    new[start..].to_string()
}

/// The answer when no strategy found `old`: new_string already in the file, or a fragment of a
/// line given as a line; `None` when neither applies (the caller reports not found).
pub(super) fn unmatched(
    file_path: &str,
    content: &str,
    old: &str,
    new: &str,
) -> Option<Result<Planned, ToolError>> {
    if let Some(region) = already_present(content, new).filter(|_| changes_text(old, new)) {
        return Some(Ok(already_applied(file_path, content, &region)));
    }
    let (region, line) = match fragment_in_line(content, old)? {
        Fragment::Once(region, line) => (region, line),
        Fragment::Several { places, lines } => {
            let message = several_fragments(file_path, places, &lines);
            return Some(Err(ToolError::new(ErrorKind::NotFound, message)));
        }
    };
    let replacement = js_trim(new);
    if replacement.is_empty() || replacement.contains('\n') {
        return Some(Err(ToolError::new(ErrorKind::NotFound, format!("Error editing file: old_string was found only as part of line {line} of {file_path}, and new_string is {} - nothing was changed. To fix: copy the whole line {line} into old_string and give its whole replacement line(s) in new_string.", if replacement.is_empty() { "empty" } else { "several lines" }))));
    }
    let new_text = format!(
        "{}{replacement}{}",
        &content[..region.start],
        &content[region.end..]
    );
    Some(Ok(Planned {
        new_text,
        message: format!(
            "Successfully edited {file_path} (1 replacement, matched as a fragment of line {line})"
        ),
        effect: TrackerEffect::TextEdit,
        reparse: None,
        known: KnownEnds::NONE,
    }))
}

/// The reply to an edit whose text is already in the file at `region`: nothing is written.
pub(super) fn already_applied(file_path: &str, content: &str, region: &Range<usize>) -> Planned {
    let (a, b) = line_span(content, region);
    Planned {
        new_text: content.to_string(),
        message: format!("{ALREADY_APPLIED_LEAD}{file_path} already contains new_string at lines {a}-{b}; nothing was written."),
        effect: TrackerEffect::Write,
        reparse: None,
        known: KnownEnds::NONE,
    }
}

/// Whether `old` and `new` differ in more than white space (their non-blank lines, trimmed): only
/// then can a fuzzy match that already holds `new` be taken as the edit having landed (a change of
/// indentation alone may have been fitted away).
pub(super) fn changes_text(old: &str, new: &str) -> bool {
    let lines = |s: &str| -> Vec<String> {
        s.split('\n')
            .map(js_trim)
            .filter(|l| !l.is_empty())
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    lines(old) != lines(new)
}

/// Where `new` (without its blank edge lines and trailing white space) occurs in `content`, when
/// it spans at least two non-blank lines and occurs exactly once.
fn already_present(content: &str, new: &str) -> Option<Range<usize>> {
    let body = new.trim_end();
    let first = body.len() - body.trim_start().len();
    let body = &body[body[..first].rfind('\n').map_or(0, |i| i + 1)..];
    if body.split('\n').filter(|l| !js_trim(l).is_empty()).count() < 2 {
        return None;
    }
    let mut hits = memchr::memmem::find_iter(content.as_bytes(), body.as_bytes());
    let at = hits.next()?;
    hits.next().is_none().then_some(at..at + body.len())
}

/// Where a single-line `old` given as a line occurs as a fragment of the file's lines.
enum Fragment {
    /// Once, starting and ending at token boundaries: its range and 1-based line.
    Once(Range<usize>, usize),
    /// Twice or more: how many times, and the 1-based lines holding it, ascending, each once.
    Several { places: usize, lines: Vec<usize> },
}

/// A single-line `old` given as a line (with indentation or its line break) whose trimmed text,
/// of at least [`FRAGMENT_MIN_CHARS`] non-space characters, occurs in `content`: exactly once,
/// starting and ending at token boundaries ([`Fragment::Once`]), or several times
/// ([`Fragment::Several`]); `None` otherwise.
fn fragment_in_line(content: &str, old: &str) -> Option<Fragment> {
    let fragment = js_trim(old);
    let visible = fragment.chars().filter(|c| !c.is_whitespace()).count();
    if fragment.contains('\n') || fragment.len() == old.len() || visible < FRAGMENT_MIN_CHARS {
        return None;
    }
    let hits: Vec<usize> =
        memchr::memmem::find_iter(content.as_bytes(), fragment.as_bytes()).collect();
    match hits[..] {
        [] => None,
        [at] => {
            let end = at + fragment.len();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            let joins = |a: Option<char>, b: Option<char>| word(a) && word(b);
            if joins(content[..at].chars().next_back(), fragment.chars().next())
                || joins(fragment.chars().next_back(), content[end..].chars().next())
            {
                return None;
            }
            Some(Fragment::Once(at..end, line_span(content, &(at..end)).0))
        }
        _ => Some(Fragment::Several {
            places: hits.len(),
            lines: lines_of(content, &hits),
        }),
    }
}

/// The 1-based lines of ascending byte offsets, each once (one pass over the content).
fn lines_of(content: &str, offsets: &[usize]) -> Vec<usize> {
    let (mut line, mut from) = (1, 0);
    let mut lines: Vec<usize> = Vec::new();
    for &at in offsets {
        line += memchr::memchr_iter(b'\n', &content.as_bytes()[from..at]).count();
        from = at;
        if lines.last() != Some(&line) {
            lines.push(line);
        }
    }
    lines
}

/// The refusal of a fragment found at several places: the lines holding it.
fn several_fragments(file_path: &str, places: usize, lines: &[usize]) -> String {
    let shown: Vec<String> = lines
        .iter()
        .take(LISTED_LINES)
        .map(|l| l.to_string())
        .collect();
    let more = match lines.len() > LISTED_LINES {
        true => format!(" and {} more", lines.len() - LISTED_LINES),
        false => String::new(),
    };
    let which = match lines.len() {
        1 => "line",
        _ => "lines",
    };
    format!("Error editing file: old_string was found only as part of a line, at {places} places ({which} {}{more} of {file_path}), and nowhere as a whole line - nothing was changed. To fix: copy the whole line you mean into old_string (with the line above or below it when that line repeats too) and give its whole replacement in new_string.", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_new_mirrors_are_dropped() {
        assert_eq!(
            mirrored_blank_lines_dropped("\n\n  d();\n\n", 2, 1),
            "  d();\n"
        );
        assert_eq!(mirrored_blank_lines_dropped("  d();\n", 1, 0), "  d();\n");
        assert_eq!(mirrored_blank_lines_dropped("\nx\n", 2, 0), "\nx\n");
        assert_eq!(mirrored_blank_lines_dropped("x\n", 0, 1), "x\n");
    }

    #[test]
    fn new_string_present_once_over_two_lines() {
        assert_eq!(already_present("a\nb\nc\n", "\nb\nc\n\n"), Some(2..5));
        assert_eq!(already_present("a\nb\nc\n", "b"), None);
        assert_eq!(already_present("b\nc\nb\nc\n", "b\nc"), None);
        // A new_string that differs from old_string only by blank lines proves nothing.
        let content = "a();\nb();\nc();\n";
        assert!(unmatched("a.js", content, "b();\nc();\n", "b();\nc();\n\n").is_none());
        let found = unmatched("a.js", content, "x();\nc();\n", "b();\nc();\n\n");
        assert_eq!(found.unwrap().unwrap().new_text, content);
    }
}
