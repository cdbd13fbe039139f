//! What gets parsed for a check: the whole file (from the cached tree, re-parsed incrementally), only the
//! top-level pieces the edit touches, or nothing (too large).

use std::path::Path;

use tree_sitter::{InputEdit, Point, Tree};

use super::cause::{is_clear_mistake, Change};
use super::introduced::{introduced, Window};
use super::problems::{collect, top_level_ranges, RawProblem};
use super::python_indent;
use crate::symbols::{new_parser, parse_with, top_level_starts, Language, ParseCache};

/// What [`super::check`] was asked.
pub(crate) struct Input<'a> {
    pub path: &'a Path,
    pub lang: Language,
    pub before: Option<&'a str>,
    pub after: &'a str,
    pub max_bytes: usize,
    pub cache: Option<&'a ParseCache>,
}

/// The errors of a check, in offsets of the new text.
pub(crate) struct Errors {
    pub introduced: Vec<RawProblem>,
    pub window: Window,
}

pub(crate) enum Found {
    Problems(Errors),
    /// Too large to check.
    Skipped,
    /// The grammar could not be loaded or a parse was cancelled.
    Failed,
}

/// Parses what the input's size and language allow and returns the introduced errors.
pub(crate) fn problems(input: &Input) -> Found {
    let size = input.after.len().max(input.before.map_or(0, str::len));
    if size > input.max_bytes {
        return Found::Skipped;
    }
    let result = match input.before.and_then(|before| pieces(input, before)) {
        Some(found) => found,
        None => whole(input),
    };
    result.map_or(Found::Failed, Found::Problems)
}

/// Whole-file check: the old tree from the cache or a parse, the new one re-parsed incrementally from it.
fn whole(input: &Input) -> Option<Errors> {
    let mut parser = new_parser(input.lang).ok()?;
    let Some(before) = input.before else {
        let tree = parse_with(&mut parser, input.after, input.lang, None).ok()?;
        remember(input, &tree);
        return Some(Errors {
            introduced: errors_of(input.lang, &tree, input.after),
            window: Window::between("", input.after),
        });
    };
    let cached = input
        .cache
        .and_then(|c| c.cached_tree(input.path, before, input.lang));
    let old = match cached {
        Some(tree) => tree,
        None => parse_with(&mut parser, before, input.lang, None).ok()?,
    };
    let window = Window::between(before, input.after);
    let mut edited = old.clone();
    edited.edit(&input_edit(before, input.after, &window));
    let new = parse_with(&mut parser, input.after, input.lang, Some(&edited)).ok()?;
    remember(input, &new);
    let old_errors = errors_of(input.lang, &old, before);
    let found = introduced(
        &old_errors,
        &errors_of(input.lang, &new, input.after),
        &window,
        &top_level_ranges(&new, 0),
    );
    Some(Errors {
        introduced: clear_if_gapped(input, before, &old_errors, found, &window),
        window,
    })
}

/// The errors of a whole text: its tree's, plus Python's indentation rules.
fn errors_of(lang: Language, tree: &Tree, text: &str) -> Vec<RawProblem> {
    let mut found = collect(tree, text, 0);
    if lang == Language::Python {
        found.extend(python_indent::problems(text));
        found.sort_by_key(|p| (p.start, p.end));
    }
    found
}

/// When the old text already had errors (the grammar does not fully parse this file: macros, syntax it
/// lacks), new errors there are as likely gaps as mistakes, so only clear mistakes are kept (see
/// [`is_clear_mistake`]).
fn clear_if_gapped(
    input: &Input,
    before: &str,
    old_errors: &[RawProblem],
    found: Vec<RawProblem>,
    window: &Window,
) -> Vec<RawProblem> {
    if old_errors.is_empty() {
        return found;
    }
    let change = Change::of(before, input.after, window);
    found
        .into_iter()
        .filter(|p| is_clear_mistake(input.lang, p, &change))
        .collect()
}

/// Caches the tree of the new text, so the next edit's old tree needs no parse.
fn remember(input: &Input, tree: &Tree) {
    if let Some(cache) = input.cache {
        cache.insert(
            input.path,
            input.lang,
            input.after.to_string(),
            tree.clone(),
        );
    }
}

/// Check of the top-level pieces the window touches (JavaScript/TypeScript splitter); `None` when the
/// old text cannot be split. Pieces parse alone exactly as inside the file, so errors elsewhere cannot
/// change; an unbalanced edit shows up inside the new slice (e.g. a MISSING `}` at its end).
fn pieces(input: &Input, before: &str) -> Option<Option<Errors>> {
    let starts = top_level_starts(before, input.lang)?;
    let window = Window::between(before, input.after);
    let mut first = starts.partition_point(|&s| s <= window.start) - 1;
    if first > 0 && starts[first] == window.start {
        first -= 1;
    }
    let last = starts.partition_point(|&s| s < window.old_end.max(window.start + 1));
    let from = starts[first];
    let old_to = starts.get(last).copied().unwrap_or(before.len());
    let new_to = old_to + window.new_end - window.old_end;
    let mut parser = new_parser(input.lang).ok()?;
    let mut parse = |text: &str| parse_with(&mut parser, text, input.lang, None).ok();
    let found = (|| {
        let (old_text, new_text) = (&before[from..old_to], &input.after[from..new_to]);
        let (old, new) = (parse(old_text)?, parse(new_text)?);
        let old_errors = collect(&old, old_text, from);
        let found = introduced(
            &old_errors,
            &collect(&new, new_text, from),
            &window,
            &top_level_ranges(&new, from),
        );
        Some(Errors {
            introduced: clear_if_gapped(input, before, &old_errors, found, &window),
            window,
        })
    })();
    Some(found)
}

/// The tree-sitter edit turning `before`'s tree into one to re-parse `after` with.
fn input_edit(before: &str, after: &str, w: &Window) -> InputEdit {
    InputEdit {
        start_byte: w.start,
        old_end_byte: w.old_end,
        new_end_byte: w.new_end,
        start_position: point(before, w.start),
        old_end_position: point(before, w.old_end),
        new_end_position: point(after, w.new_end),
    }
}

fn point(src: &str, pos: usize) -> Point {
    let bytes = &src.as_bytes()[..pos];
    let row = memchr::memchr_iter(b'\n', bytes).count();
    let column = memchr::memrchr(b'\n', bytes).map_or(pos, |i| pos - i - 1);
    Point { row, column }
}
