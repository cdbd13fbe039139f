//! Symbol lookup that parses only the top-level pieces of a file that mention the name.
//!
//! A cold lookup in a large file is dominated by the tree-sitter parse of the whole file (about 40 ms for
//! 328 KB of JavaScript); the pieces holding the name are usually a few hundred bytes. The pieces come from
//! [`top_level_starts`], which only splits where each side parses alone exactly as inside the file; every
//! piece parsed must also come out without errors. Otherwise the caller parses the whole file. On a file
//! that parses cleanly the results are those of [`super::find_all_symbols`]; with a syntax error in
//! another piece, the whole-file parse's error recovery may swallow the symbol's statement, while this
//! lookup still finds it as written.

use tree_sitter::Parser;

use super::grammar::Language;
use super::js_boundaries::{is_word_byte, top_level_starts};
use super::locate::{candidates, is_plain, occurrences, Filter, Wanted};
use super::parsing::{new_parser, parse_with};
use super::{SymbolError, SymbolInfo};

/// [`super::find_all_symbols`] by parsing only the pieces that contain the name's last segment; `None`
/// when that is not possible: the language is not JavaScript or TypeScript, the file cannot be split
/// safely, the last segment is not a plain identifier, or a piece holding it has a parse error.
pub fn find_all_symbols_chunked(
    source: &str,
    lang: Language,
    name: &str,
) -> Option<Result<Vec<SymbolInfo>, SymbolError>> {
    let starts = top_level_starts(source, lang)?;
    find_in_pieces(source, lang, name, &starts)
}

/// The definitions named `name` in a file whose whole parse has an error that swallowed them
/// (languages other than JavaScript and TypeScript, which [`find_all_symbols_chunked`] serves): the pieces holding the name, cut at [`paragraph_starts`], parsed alone. `None` when
/// a piece holding the name has a parse error of its own (the definition itself is broken) or
/// nothing is found.
pub(super) fn find_in_intact_pieces(
    source: &str,
    lang: Language,
    name: &str,
) -> Option<Vec<SymbolInfo>> {
    if matches!(
        lang,
        Language::JavaScript | Language::TypeScript | Language::Tsx
    ) {
        return None;
    }
    let found = find_in_pieces(source, lang, name, &paragraph_starts(source))?.ok()?;
    (!found.is_empty()).then_some(found)
}

/// Byte offsets where a top-level paragraph starts: the file's start, and every line that begins
/// at column 0 with a letter or `_` right after a blank line, with every `{` before it closed (a
/// piece after an unclosed block may be inside it).
fn paragraph_starts(source: &str) -> Vec<usize> {
    let mut starts = vec![0];
    let (mut after_blank, mut depth, mut at) = (false, 0isize, 0);
    for line in source.split('\n') {
        let first = line.bytes().next();
        let word = first.is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
        if after_blank && at > 0 && depth == 0 && word {
            starts.push(at);
        }
        after_blank = line.trim().is_empty();
        depth += line.bytes().filter(|&b| b == b'{').count() as isize;
        depth -= line.bytes().filter(|&b| b == b'}').count() as isize;
        at += line.len() + 1;
    }
    starts
}

/// The definitions named `name` found by parsing alone each piece (from one of `starts` to the
/// next) that holds the name's last segment; `None` as [`find_all_symbols_chunked`] says.
fn find_in_pieces(
    source: &str,
    lang: Language,
    name: &str,
    starts: &[usize],
) -> Option<Result<Vec<SymbolInfo>, SymbolError>> {
    let wanted = Wanted::parse(name);
    let last = wanted.segments.last()?;
    let hits = occurrences(source, last)?;
    let mut parser: Option<Parser> = None;
    let mut found = Vec::new();
    let mut done_until = 0;
    // Lines before `counted_to`, counted as the pieces advance.
    let (mut counted_to, mut line_base) = (0, 0);
    for (hit, hit_end) in hits {
        if hit < done_until || !whole_word(source, hit, hit_end) {
            continue;
        }
        let piece = starts.partition_point(|&s| s <= hit) - 1;
        let (start, end) = (
            starts[piece],
            starts.get(piece + 1).copied().unwrap_or(source.len()),
        );
        done_until = end;
        let text = &source[start..end];
        // Every plain segment of a qualified path is spelled in its piece as a whole token (an identifier,
        // key or member of a chain), so a piece missing one holds no match.
        if !wanted
            .segments
            .iter()
            .all(|s| !is_plain(s) || holds_word(text, s))
        {
            continue;
        }
        let parser = match &mut parser {
            Some(p) => p,
            None => match new_parser(lang) {
                Ok(p) => parser.insert(p),
                Err(e) => return Some(Err(e)),
            },
        };
        let tree = parse_with(parser, text, lang, None).ok()?;
        if tree.root_node().has_error() {
            return None;
        }
        line_base += memchr::memchr_iter(b'\n', &source.as_bytes()[counted_to..start]).count();
        counted_to = start;
        let filter = Filter::new(text, &wanted.segments);
        for mut candidate in candidates(&tree, text, lang, &wanted, filter.as_ref()) {
            if let Some(info) = &mut candidate.info {
                shift(info, start, line_base);
            }
            found.push(candidate);
        }
    }
    Some(Ok(wanted.select(found)))
}

/// Whether `text[start..end]` is not glued to identifier characters on either side (names are whole
/// tokens: `Service7` inside `Service70` is not a mention).
fn whole_word(text: &str, start: usize, end: usize) -> bool {
    let bytes = text.as_bytes();
    let glued = |outer: Option<&u8>, inner: u8| {
        outer.is_some_and(|&b| is_word_byte(b) && is_word_byte(inner))
    };
    !glued(
        start.checked_sub(1).and_then(|i| bytes.get(i)),
        bytes[start],
    ) && !glued(bytes.get(end), bytes[end - 1])
}

/// Whether `word` occurs in `text` as a whole token.
fn holds_word(text: &str, word: &str) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), word.as_bytes())
        .any(|at| whole_word(text, at, at + word.len()))
}

/// Moves a symbol found in a piece starting at byte `bytes` (line `lines` + 1) to file coordinates.
fn shift(info: &mut SymbolInfo, bytes: usize, lines: usize) {
    info.start_byte += bytes;
    info.end_byte += bytes;
    info.start_line += lines;
    info.end_line += lines;
    for part in &mut info.leading {
        part.start_byte += bytes;
        part.end_byte += bytes;
    }
}

#[cfg(test)]
mod tests {
    use super::paragraph_starts;

    #[test]
    fn paragraphs_start_after_blank_lines_outside_open_blocks() {
        let source = "a {\n\nb\n}\n\nc\n  d\n\n e\n";
        assert_eq!(paragraph_starts(source), vec![0, source.find('c').unwrap()]);
    }
}
