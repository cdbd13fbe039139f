//! Symbol lookup for tools: file reading, the shared parse cache, and the AST search.

use crate::fs::textfile::read_text;
use crate::symbols::{self, Language, ParseCache, SymbolError, SymbolInfo};
use std::path::Path;
use std::sync::OnceLock;

/// Trees of recently edited files, shared by every tool call in the process. A hit requires the
/// exact same content, so a stale tree is never used; symbol edits feed it incremental edits.
pub fn parse_cache() -> &'static ParseCache {
    static CACHE: OnceLock<ParseCache> = OnceLock::new();
    CACHE.get_or_init(ParseCache::default)
}

/// Every definition named `name` (bare or dot-qualified) in `content` of `path`, via the cache.
pub fn find_in(
    path: &Path,
    content: &str,
    language: Language,
    name: &str,
) -> Result<Vec<SymbolInfo>, SymbolError> {
    parse_cache().find_all_symbols(path, content, language, name)
}

/// A symbol found in a file, in Probe's `findSymbol` shape (plus `qualified_name`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSymbol {
    pub start_line: usize,
    pub end_line: usize,
    pub code: String,
    pub node_type: String,
    pub qualified_name: String,
}

impl From<SymbolInfo> for FoundSymbol {
    fn from(s: SymbolInfo) -> Self {
        FoundSymbol {
            start_line: s.start_line,
            end_line: s.end_line,
            code: s.code,
            node_type: s.node_type,
            qualified_name: s.qualified_name,
        }
    }
}

/// Probe's `findAllSymbols(file, name)`: every definition named `name` in the file; empty when
/// the file cannot be read, is not a supported language, or does not parse around the symbol.
pub fn lookup_all(file: &Path, name: &str) -> Vec<FoundSymbol> {
    let Some(language) = symbols::language_for_path(file) else {
        return Vec::new();
    };
    let display = file.display().to_string();
    let Ok(text) = read_text(file, &display, Some(crate::tools::DEFAULT_MAX_FILE_BYTES)) else {
        return Vec::new();
    };
    find_in(file, &text.text, language, name)
        .map(|v| v.into_iter().map(Into::into).collect())
        .unwrap_or_default()
}

/// The single definition named `symbol` in `file`, or `None` (not found, ambiguous, unreadable,
/// or unsupported language).
pub fn lookup_unique(file: &Path, symbol: &str) -> Option<FoundSymbol> {
    let mut all = lookup_all(file, symbol);
    if all.len() == 1 {
        all.pop()
    } else {
        None
    }
}
