//! Locating a hunk's lines in a file: exact first, then ignoring trailing whitespace, then
//! ignoring surrounding whitespace, then with typographic punctuation normalised (as OpenAI's
//! reference `apply_patch` does). The first pass that finds the lines decides.

use super::Placement;
use std::borrow::Cow;

/// How strictly lines were compared when a hunk was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pass {
    Exact,
    TrailingWhitespace,
    SurroundingWhitespace,
    Punctuation,
}

impl Pass {
    pub const ALL: [Pass; 4] = [
        Pass::Exact,
        Pass::TrailingWhitespace,
        Pass::SurroundingWhitespace,
        Pass::Punctuation,
    ];

    /// Name shown in success messages.
    pub fn describe(self) -> &'static str {
        match self {
            Pass::Exact => "exact",
            Pass::TrailingWhitespace => "ignoring trailing whitespace",
            Pass::SurroundingWhitespace => "ignoring indentation",
            Pass::Punctuation => "normalising typographic punctuation",
        }
    }

    /// `line` as this pass compares it.
    pub fn key(self, line: &str) -> Cow<'_, str> {
        match self {
            Pass::Exact => Cow::Borrowed(line.strip_suffix('\r').unwrap_or(line)),
            Pass::TrailingWhitespace => Cow::Borrowed(line.trim_end()),
            Pass::SurroundingWhitespace => Cow::Borrowed(line.trim()),
            Pass::Punctuation => Cow::Owned(line.trim().chars().map(plain_char).collect()),
        }
    }
}

/// Typographic dashes, quotes and spaces mapped to their ASCII form.
fn plain_char(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '\u{2018}'..='\u{201B}' => '\'',
        '\u{201C}'..='\u{201F}' => '"',
        '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        other => other,
    }
}

/// Where a sequence was found and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// 0-based index of the first matched line.
    pub start: usize,
    pub pass: Pass,
}

/// Why a sequence could not be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    NotFound,
    /// Several occurrences (0-based starts) and no hint that picks one.
    Ambiguous(Vec<usize>),
}

/// What to look for and how to choose.
#[derive(Debug, Clone, Copy)]
pub struct Query<'a> {
    pub pattern: &'a [&'a str],
    /// First line index a match may start at.
    pub from: usize,
    /// The match should end the file (tried at the end first).
    pub end_of_file: bool,
    pub placement: Placement,
    /// 0-based line where the match is expected.
    pub hint: Option<usize>,
    /// Lines by which the previous hunk of the file was found away from its own hint: a line
    /// `hint + drift` counts as expected too (line numbers that are off by the same amount).
    pub drift: isize,
    /// Where the previous hunk of the file ended: hunks come in file order, so of several
    /// occurrences only those from here on are candidates (unless there is none).
    pub after: usize,
}

/// Finds `query.pattern` in `lines` with the first pass that finds it at all.
pub fn seek(lines: &[&str], query: &Query) -> Result<Found, Miss> {
    for pass in Pass::ALL {
        match seek_pass(lines, query, pass) {
            Err(Miss::NotFound) => continue,
            Ok(start) => return Ok(Found { start, pass }),
            Err(miss) => return Err(miss),
        }
    }
    Err(Miss::NotFound)
}

fn seek_pass(lines: &[&str], query: &Query, pass: Pass) -> Result<usize, Miss> {
    let n = query.pattern.len();
    if n > lines.len() {
        return Err(Miss::NotFound);
    }
    let last_start = lines.len() - n;
    let keys: Vec<Cow<str>> = query.pattern.iter().map(|p| pass.key(p)).collect();
    let matches_at = |i: usize| (0..n).all(|k| pass.key(lines[i + k]) == keys[k]);
    if query.end_of_file && last_start >= query.from && matches_at(last_start) {
        return Ok(last_start);
    }
    if query.from > last_start {
        return Err(Miss::NotFound);
    }
    match query.placement {
        Placement::InOrder => {
            let mut found = (query.from..=last_start).filter(|&i| matches_at(i));
            let expected = query.hint.and_then(|h| h.checked_add_signed(query.drift));
            match expected {
                None => found.next(),
                Some(e) => {
                    let all: Vec<usize> = found.collect();
                    nearest(&all, e).or(all.first().copied())
                }
            }
            .ok_or(Miss::NotFound)
        }
        Placement::Unique => {
            let all: Vec<usize> = (query.from..=last_start)
                .filter(|&i| matches_at(i))
                .collect();
            choose(all, query)
        }
    }
}

/// The only occurrence; of several, the only one after the previous hunk, else the only one at
/// the expected line (`hint`, or `hint + drift`), else the one [`nearest`] to `hint + drift`.
fn choose(all: Vec<usize>, query: &Query) -> Result<usize, Miss> {
    if all.len() <= 1 {
        return all.first().copied().ok_or(Miss::NotFound);
    }
    let later: Vec<usize> = all.iter().copied().filter(|&i| i >= query.after).collect();
    if later.len() == 1 {
        return Ok(later[0]);
    }
    let pool = if later.is_empty() { &all } else { &later };
    if let Some(h) = query.hint {
        let expected = [Some(h), h.checked_add_signed(query.drift)];
        let at: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|i| expected.contains(&Some(*i)))
            .collect();
        if at.len() == 1 {
            return Ok(at[0]);
        }
        if let Some(near) = h
            .checked_add_signed(query.drift)
            .and_then(|e| nearest(pool, e))
        {
            return Ok(near);
        }
    }
    Err(Miss::Ambiguous(all))
}

/// Most lines a stated line number may be off and still choose between occurrences.
const NEAR_LINES: usize = 10;

/// Of several occurrences, the one nearest `expected` when it lies within [`NEAR_LINES`] of it and
/// every other is at least twice as far (as GNU patch picks by line number); `None` when the
/// number does not tell them apart clearly.
pub fn nearest(candidates: &[usize], expected: usize) -> Option<usize> {
    let distance = |i: usize| i.abs_diff(expected);
    let best = candidates.iter().copied().min_by_key(|&i| distance(i))?;
    let d = distance(best);
    let clear = candidates
        .iter()
        .all(|&i| i == best || distance(i) >= 2 * d);
    (d <= NEAR_LINES && clear).then_some(best)
}
