//! The syntax guard: which parse errors an edit introduced, pure (texts in, a verdict out).
//!
//! [`check`] parses the file before and after an edit with the language's tree-sitter grammar and reports
//! the errors (ERROR and MISSING nodes) found after it that were not there before, each with its line, a
//! snippet and a likely cause ([`Problem`]). Nothing here reads or writes files; the tools decide what to
//! do with the verdict ([`SyntaxCheck`]).
//!
//! **Introduced errors.** The edit is taken as one changed window: the bytes between the texts' common
//! prefix and common suffix. An error after the edit is *pre-existing* when, in this order:
//! 1. an error of the same kind (ERROR, or MISSING of the same token) starts at the same place before the
//!    edit, the place moved by the edit's length change when it lies after the window;
//! 2. it starts inside the new window and the old window held an error of the same kind (the errors of the
//!    edited text are compared by count);
//! 3. an error before the edit, of any kind, still unmatched, lies in the same top-level piece (a child of
//!    the parse tree's root, e.g. one function or class) — tree-sitter's recovery may move an existing
//!    error within its piece when a nearby line changes;
//! 4. it is in or right after a call-shaped construct (`NAME(...)`) whose name the old text already had an
//!    error of the same kind at: a macro the grammar cannot parse (C++ test macros, C assertion macros
//!    without `;`), not a mistake.
//!
//! Whatever is left was introduced, except that in a file that already had errors before the edit (the
//! grammar does not fully parse it) only clear mistakes are kept: a broken Python indentation rule, a
//! missing closing bracket, or an edit that changed the balance of brackets or the parity of quotes. A
//! file with no "before" (a new file) reports all its errors.
//!
//! **Cost.** A parse runs at a few MB/s, slower than the edit it checks, so as little as possible is
//! parsed (see [`scope`]): first only the paragraphs the edit changed, each alone ([`touched`]:
//! top-level ones, or the members of a large class; when all parse without an error, the edit
//! introduced none); when one fails, the whole file up to `max_bytes` — the tree before the edit from
//! the [`ParseCache`] when it holds one, the text after it re-parsed incrementally from that tree
//! (tree-sitter's edit API) and cached for the next edit — or, above `max_bytes`, the paragraphs
//! around the edit before and after it; else nothing ([`Verdict::Skipped`]). A new file is parsed
//! whole up to `max_bytes`. [`Pending`] lets a write proceed while the paragraphs (a new file: the
//! whole text) are parsed on another thread.
//!
//! `write_guard` is the tools' side: the check run at each write as the `syntaxCheck` option says.

mod cause;
mod introduced;
mod paragraphs;
mod problems;
mod python_indent;
mod report;
mod scope;
mod touched;
mod worker;
pub(crate) mod write_guard;

use std::path::{Path, PathBuf};

use crate::common_ends::KnownEnds;
use crate::symbols::{
    depends_on_content, language_for_path, refine_for_content, Language, ParseCache,
};

/// Default `syntaxCheckMaxBytes`: files above it are never parsed whole.
pub const DEFAULT_MAX_BYTES: usize = 256 * 1024;
/// Most problems listed in a reply; the rest are counted.
pub const MAX_LISTED: usize = 3;

/// What a writing tool does with an edit that introduces syntax errors (`syntaxCheck` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SyntaxCheck {
    /// Write it, and list the errors in the reply (the default).
    #[default]
    Warn,
    /// Leave the file untouched and answer with an error listing them.
    Refuse,
    /// No check.
    Off,
}

impl SyntaxCheck {
    /// `"warn"`, `"refuse"` or `"off"`; `None` for anything else.
    pub fn parse(value: &str) -> Option<SyntaxCheck> {
        match value {
            "warn" => Some(SyntaxCheck::Warn),
            "refuse" => Some(SyntaxCheck::Refuse),
            "off" => Some(SyntaxCheck::Off),
            _ => None,
        }
    }
}

/// The guard's settings for one tool context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxOptions {
    pub mode: SyntaxCheck,
    /// Largest file parsed whole (`syntaxCheckMaxBytes`).
    pub max_bytes: usize,
}

impl Default for SyntaxOptions {
    fn default() -> Self {
        SyntaxOptions {
            mode: SyntaxCheck::Warn,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// One syntax error an edit introduced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line in the edited text.
    pub line: usize,
    /// That line, trimmed and shortened.
    pub snippet: String,
    /// The likely cause, e.g. "unbalanced braces: the edit adds 1 more `{` than `}`".
    pub cause: String,
}

/// The outcome of [`check`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Not a language the engine parses (or the parser failed): nothing to say.
    Unchecked,
    /// The edit introduced no syntax error.
    Clean,
    /// The edit introduced these errors (at most [`MAX_LISTED`]; `total` counts all).
    Introduced {
        language: Language,
        problems: Vec<Problem>,
        total: usize,
    },
    /// The file was too large to check (`bytes` over `max_bytes`, no splitter).
    Skipped { bytes: usize, max_bytes: usize },
}

/// Which syntax errors the edit `before` → `after` of the file at `path` introduced (see the module
/// docs). `before` is `None` for a new file. Texts are the files' LF views. `cache` supplies the tree of
/// `before` when it has one and receives the tree of `after`.
pub fn check(
    path: &Path,
    before: Option<&str>,
    after: &str,
    max_bytes: usize,
    cache: Option<&ParseCache>,
) -> Verdict {
    check_known(path, (before, after, KnownEnds::NONE), max_bytes, cache)
}

/// [`check`] of `(before, after, known)`: the common ends of the two texts are found from what
/// is `known` of them.
pub fn check_known(
    path: &Path,
    (before, after, known): (Option<&str>, &str, KnownEnds),
    max_bytes: usize,
    cache: Option<&ParseCache>,
) -> Verdict {
    match Pending::begin(path, (before, after, known), max_bytes, cache, false) {
        Some(pending) => pending.verdict(before, after),
        None => Verdict::Unchecked,
    }
}

/// Most bytes of string params a call's look ahead reads (see
/// [`crate::tools::params::read_small`]) to begin its new file's parse: the largest text parsed
/// early, with as much again for its path and the rest.
pub const EARLY_PARSE_PARAMS_UP_TO: usize = 2 * worker::WHOLE_PARSE_BESIDE_UP_TO;

/// Begins, on the syntax worker, the whole parse the guard of a new file at `path` holding `text`
/// makes, as soon as the call arrives (see [`worker::WholeParse::begin_early`]); that call's guard
/// takes it over. Begins nothing with the guard off, for a text over `max_bytes`, or for a file
/// whose language depends on its content. Cheap enough for the host's own thread. Returns
/// whether a parse was begun.
pub fn begin_new_file_parse(options: &SyntaxOptions, path: &Path, text: &str) -> bool {
    if options.mode == SyntaxCheck::Off || text.len() > options.max_bytes {
        return false;
    }
    let Some(lang) = language_for_path(path) else {
        return false;
    };
    !depends_on_content(lang, path)
        && worker::WholeParse::begin_early(lang, text.trim_start_matches('\u{feff}'))
}

#[cfg(test)]
pub(crate) use worker::{early_kept, serial_early_parses};

/// A [`check`] split in two, so that the caller can write the file while the edit's paragraphs are
/// parsed on another thread: [`Pending::start`] before the write, [`Pending::verdict`] after it, with
/// the same texts.
pub struct Pending<'c> {
    path: PathBuf,
    lang: Language,
    max_bytes: usize,
    cache: Option<&'c ParseCache>,
    started: scope::Started,
}

impl<'c> Pending<'c> {
    /// Starts the check of the edit `before` → `after` (as [`check_known`] takes them); `None`
    /// when the file is not in a language the engine parses.
    pub fn start(
        path: &Path,
        texts: (Option<&str>, &str, KnownEnds),
        max_bytes: usize,
        cache: Option<&'c ParseCache>,
    ) -> Option<Pending<'c>> {
        Pending::begin(path, texts, max_bytes, cache, true)
    }

    fn begin(
        path: &Path,
        (before, after, known): (Option<&str>, &str, KnownEnds),
        max_bytes: usize,
        cache: Option<&'c ParseCache>,
        overlap: bool,
    ) -> Option<Pending<'c>> {
        let lang = refine_for_content(language_for_path(path)?, path, after);
        let input = scope::Input {
            path,
            lang,
            before,
            after,
            max_bytes,
            cache,
        };
        Some(Pending {
            path: path.to_path_buf(),
            lang,
            max_bytes,
            cache,
            started: scope::start(&input, known, overlap),
        })
    }

    /// Whether the parse was handed to the worker thread (a test's view).
    #[cfg(test)]
    fn handed(&self) -> bool {
        matches!(
            self.started,
            scope::Started::NewFile(worker::WholeParse::Sent(_))
                | scope::Started::Paragraphs {
                    parsing: worker::Parsing::Sent(..),
                    ..
                }
        )
    }

    /// The verdict; `before` and `after` must be the texts given to [`Pending::start`].
    pub fn verdict(self, before: Option<&str>, after: &str) -> Verdict {
        let input = scope::Input {
            path: &self.path,
            lang: self.lang,
            before,
            after,
            max_bytes: self.max_bytes,
            cache: self.cache,
        };
        match scope::finish(&input, self.started) {
            scope::Found::Skipped => Verdict::Skipped {
                bytes: after.len(),
                max_bytes: self.max_bytes,
            },
            scope::Found::Failed => Verdict::Unchecked,
            scope::Found::Problems(found) if found.introduced.is_empty() => Verdict::Clean,
            scope::Found::Problems(found) => {
                let total = found.introduced.len();
                let problems = report::describe_all(
                    self.lang,
                    before.unwrap_or(""),
                    after,
                    &found,
                    MAX_LISTED,
                );
                Verdict::Introduced {
                    language: self.lang,
                    problems,
                    total,
                }
            }
        }
    }
}

impl Verdict {
    /// The text a successful write's reply ends with (empty when there is nothing to say).
    pub fn note(&self, display: &str) -> String {
        report::note(self, display)
    }

    /// The refusal of a write in `refuse` mode, when this verdict lists introduced errors.
    pub fn refusal(&self, display: &str) -> Option<String> {
        report::refusal(self, display)
    }
}

#[cfg(test)]
mod tests;
