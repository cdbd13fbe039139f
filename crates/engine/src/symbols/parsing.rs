//! Running the tree-sitter parser: grammar loading, a time budget, and grammar-specific input guards.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{InputEdit, ParseOptions, ParseState, Parser, Point, Tree};

use super::grammar::Language;
use super::SymbolError;

/// A parse that runs longer than this is cancelled and reported as a parse error.
const PARSE_BUDGET: Duration = Duration::from_secs(10);

/// Parses `source` as `lang`. Fails only when the grammar cannot be loaded or the parse is cancelled; a tree
/// with ERROR nodes is still returned.
pub fn parse(source: &str, lang: Language) -> Result<Tree, SymbolError> {
    let mut parser = new_parser(lang)?;
    parse_with(&mut parser, source, lang, None)
}

/// A parser loaded with `lang`'s grammar.
pub(crate) fn new_parser(lang: Language) -> Result<Parser, SymbolError> {
    let mut parser = Parser::new();
    parser
        .set_language(&lang.grammar())
        .map_err(|e| SymbolError::Grammar {
            language: lang.name(),
            message: e.to_string(),
        })?;
    Ok(parser)
}

/// Parses with `parser` (already loaded with `lang`), reusing `old` incrementally when given (it must have
/// been edited to match `source`).
///
/// Kotlin is parsed with one `\n` appended: the Kotlin grammar's scanner loops forever when an annotation
/// runs into the end of the input. Node offsets are unaffected; only the root may extend one byte further.
pub(crate) fn parse_with(
    parser: &mut Parser,
    source: &str,
    lang: Language,
    old: Option<&Tree>,
) -> Result<Tree, SymbolError> {
    let padded;
    let text: &[u8] = if lang == Language::Kotlin {
        padded = format!("{source}\n");
        padded.as_bytes()
    } else {
        source.as_bytes()
    };
    let started = Instant::now();
    let mut progress = |_: &ParseState| {
        if started.elapsed() > PARSE_BUDGET {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut progress);
    let mut read = |offset: usize, _| text.get(offset..).unwrap_or(&[]);
    parser
        .parse_with_options(&mut read, old, Some(options))
        .ok_or(SymbolError::Parse {
            language: lang.name(),
            line: 1,
        })
}

/// The tree-sitter edit telling a tree of `old` that `old[start..old_end]` became
/// `new[start..new_end]` (`old` and `new` equal before `start`), so that `new` re-parses incrementally.
pub(crate) fn text_edit(
    old: &str,
    new: &str,
    start: usize,
    old_end: usize,
    new_end: usize,
) -> InputEdit {
    InputEdit {
        start_byte: start,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point(old, start),
        old_end_position: point(old, old_end),
        new_end_position: point(new, new_end),
    }
}

/// The row and byte column of `pos` in `src`.
fn point(src: &str, pos: usize) -> Point {
    let bytes = &src.as_bytes()[..pos];
    let row = memchr::memchr_iter(b'\n', bytes).count();
    let column = memchr::memrchr(b'\n', bytes).map_or(pos, |i| pos - i - 1);
    Point { row, column }
}
