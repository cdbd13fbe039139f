//! What gets parsed for a check, cheapest first:
//! 1. the paragraphs the edit changed, each parsed alone ([`super::touched`]): when all of them parse
//!    without an error (and keep Python's indentation rules), the edit introduced none;
//! 2. otherwise, up to `max_bytes`, the whole file (the old tree from the cache, the new one re-parsed
//!    incrementally from it), so that a verdict with errors is always the whole file's;
//! 3. above `max_bytes`, the paragraphs around the edit before and after it, compared;
//! 4. nothing, when even those are larger than `max_bytes`.
//!
//! PHP skips 1 and 3: a paragraph without its `<?php` opening parses as HTML.

use std::path::Path;

use tree_sitter::Tree;

use super::cause::{is_clear_mistake, Change};
use super::introduced::{introduced, Window};
use super::problems::{collect, top_level_ranges, RawProblem};
use super::touched::{touched, Region};
use super::{python_indent, worker};
use crate::common_ends::KnownEnds;
use crate::symbols::{new_parser, parse_with, text_edit, Language, ParseCache};

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

/// A check under way: what [`start`] decided, with the parse possibly running on the [`worker`]
/// thread.
pub(crate) enum Started {
    /// Decided without parsing the edit's paragraphs (PHP, too large).
    Settled(Window),
    /// A new file, parsed whole (when it fits `max_bytes`).
    NewFile(worker::WholeParse),
    /// The changed paragraphs (ranges of the new text) are being parsed.
    Paragraphs {
        window: Window,
        region: Region,
        parsing: worker::Parsing,
    },
}

/// The cheap first phase: the edit's window and the paragraphs it changed (a new file: all of it).
/// With `overlap`, their parse is handed to the worker thread, so the caller can write meanwhile;
/// else [`finish`] parses them.
pub(crate) fn start(input: &Input, known: KnownEnds, overlap: bool) -> Started {
    let Some(before) = input.before else {
        let fits = input.after.len() <= input.max_bytes;
        return Started::NewFile(worker::WholeParse::start(
            input.lang,
            input.after,
            overlap && fits,
        ));
    };
    let window = Window::between_known(before, input.after, known);
    if input.lang == Language::Php {
        return Started::Settled(window);
    }
    let region = Region::around(before, input.after, &window);
    let touched = touched(input.lang, before, input.after, &window, &region);
    let bytes = touched.bytes();
    if bytes > input.max_bytes || whole_is_cheaper(input, before, bytes) {
        return Started::Settled(window);
    }
    Started::Paragraphs {
        window,
        region,
        parsing: worker::Parsing::start(input.lang, input.after, touched, overlap),
    }
}

/// Changed paragraphs larger than this are not parsed alone: the whole file is parsed instead (when
/// it fits `max_bytes`), which caches its tree for the next edit's incremental re-parse.
const LARGE_PARAGRAPHS: usize = 8 * 1024;

/// Whether the whole-file check costs less than parsing `changed_bytes` of paragraphs: they are
/// large (a file wrapped in one class is one paragraph), or they are over a quarter of the file and
/// the cache holds the old tree, so that only an incremental re-parse is needed.
fn whole_is_cheaper(input: &Input, before: &str, changed_bytes: usize) -> bool {
    let cached = || {
        input
            .cache
            .is_some_and(|c| c.cached_tree(input.path, before, input.lang).is_some())
    };
    input.after.len().max(before.len()) <= input.max_bytes
        && (changed_bytes > LARGE_PARAGRAPHS || (changed_bytes * 4 > input.after.len() && cached()))
}

/// The second phase: clean when every changed paragraph parsed alone without an error; otherwise the
/// whole file up to `max_bytes`, the region compared above it.
pub(crate) fn finish(input: &Input, started: Started) -> Found {
    let size = input.after.len().max(input.before.map_or(0, str::len));
    let fits = size <= input.max_bytes;
    let (window, region) = match started {
        Started::NewFile(_) if !fits => return Found::Skipped,
        Started::NewFile(parse) => {
            return new_file(input, parse).map_or(Found::Failed, Found::Problems)
        }
        Started::Settled(window) => (window, None),
        Started::Paragraphs {
            window,
            region,
            parsing,
        } => match parsing.clean(input.after) {
            Some(true) => {
                return Found::Problems(Errors {
                    introduced: Vec::new(),
                    window,
                })
            }
            _ => (window, Some(region)),
        },
    };
    // Only a new file is started without a text before the edit.
    let Some(before) = input.before else {
        return Found::Failed;
    };
    let result = match region {
        _ if fits => whole(input, before, window),
        Some(region) if region.new_to - region.from <= input.max_bytes => {
            compared(input, before, &region, window)
        }
        _ => return Found::Skipped,
    };
    result.map_or(Found::Failed, Found::Problems)
}

/// A new file's check: all the errors of its whole tree (parsed by `parse`).
fn new_file(input: &Input, parse: worker::WholeParse) -> Option<Errors> {
    let tree = parse.tree(input.lang, input.after)?;
    remember(input, &tree);
    Some(Errors {
        introduced: errors_of(input.lang, &tree, input.after, 0),
        window: Window::between("", input.after),
    })
}

/// Whole-file check of the edit `before` → `after` in `window`: the old tree from the cache or a
/// parse, the new one re-parsed incrementally from it.
fn whole(input: &Input, before: &str, window: Window) -> Option<Errors> {
    let mut parser = new_parser(input.lang).ok()?;
    let cached = input
        .cache
        .and_then(|c| c.cached_tree(input.path, before, input.lang));
    let old = match cached {
        Some(tree) => tree,
        None => parse_with(&mut parser, before, input.lang, None).ok()?,
    };
    let mut edited = old.clone();
    edited.edit(&text_edit(
        before,
        input.after,
        window.start,
        window.old_end,
        window.new_end,
    ));
    let new = parse_with(&mut parser, input.after, input.lang, Some(&edited)).ok()?;
    remember(input, &new);
    let old_errors = errors_of(input.lang, &old, before, 0);
    let found = introduced(
        &old_errors,
        &errors_of(input.lang, &new, input.after, 0),
        &window,
        &top_level_ranges(&new, 0),
    );
    Some(Errors {
        introduced: clear_if_gapped(input, before, &old_errors, found, &window),
        window,
    })
}

/// The errors of a text (at `offset` of the file): its tree's, plus Python's indentation rules.
fn errors_of(lang: Language, tree: &Tree, text: &str, offset: usize) -> Vec<RawProblem> {
    let mut found = collect(tree, text, offset);
    if lang == Language::Python {
        found.extend(
            python_indent::problems(text)
                .into_iter()
                .map(|p| RawProblem {
                    start: p.start + offset,
                    end: p.end + offset,
                    ..p
                }),
        );
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

/// Check of a file too large to parse whole: the region's text before and after the edit, each parsed
/// alone, their errors compared.
fn compared(input: &Input, before: &str, region: &Region, window: Window) -> Option<Errors> {
    let mut parser = new_parser(input.lang).ok()?;
    let old_text = &before[region.from..region.old_to];
    let new_text = &input.after[region.from..region.new_to];
    let old = parse_with(&mut parser, old_text, input.lang, None).ok()?;
    let new = parse_with(&mut parser, new_text, input.lang, None).ok()?;
    let old_errors = errors_of(input.lang, &old, old_text, region.from);
    let found = introduced(
        &old_errors,
        &errors_of(input.lang, &new, new_text, region.from),
        &window,
        &top_level_ranges(&new, region.from),
    );
    Some(Errors {
        introduced: clear_if_gapped(input, before, &old_errors, found, &window),
        window,
    })
}
