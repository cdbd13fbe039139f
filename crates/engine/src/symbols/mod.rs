//! AST symbol lookup and symbol edits (tree-sitter), pure: text in, symbols or new text out.
//!
//! - [`language_for_path`] picks the grammar by extension ([`Language`]).
//! - [`find_all_symbols`] finds the definitions matching a bare or dot-qualified name; [`list_symbols`] lists
//!   every definition; [`closest_names`] ranks names for "did you mean" suggestions.
//! - [`plan_replace`] / [`plan_insert`] compute the new file text for a symbol replace or insert (Probe's
//!   splice rules, reindented to the symbol's indentation, and rule 9: a replace keeps the doc comment,
//!   decorators and `export`/`pub` wrapper that the new text leaves out).
//! - [`ParseCache`] keeps recent trees so repeated lookups on one file skip the parse;
//!   [`find_all_symbols_chunked`] parses only the top-level pieces of a JavaScript/TypeScript file that
//!   mention the name (the cache uses it before a full parse).
//!
//! Content is always an LF string; callers convert CRLF and strip a BOM first.
//!
//! [`file_lookup`] is the tools' side: a file read and searched through the process-wide
//! [`ParseCache`].

mod c_view;
mod cache;
mod chunked;
pub mod file_lookup;
mod grammar;
mod js_boundaries;
mod languages;
mod locate;
mod names;
mod parsing;
mod plan;
mod recover;
mod shape;
mod suggest;

pub use cache::ParseCache;
pub use chunked::find_all_symbols_chunked;
pub use grammar::{
    depends_on_content, language_for_path, refine_for_content, Language, ALL_LANGUAGES,
};
pub use locate::{find_all_symbols, find_all_symbols_in_tree, list_symbols, list_symbols_in_tree};
pub use parsing::parse;
pub(crate) use parsing::{new_parser, parse_with, text_edit};
pub use plan::{plan_insert, plan_replace, ByteEdit, SymbolEditPlan};
pub use shape::{pick_by_shape, shape_conflict};
pub use suggest::{closest_names, selectors};

/// One definition found in a source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolInfo {
    /// 1-based first line of the full range (doc comment, decorators/attributes, `export`/`pub` included).
    pub start_line: usize,
    /// 1-based last line of the full range, inclusive.
    pub end_line: usize,
    /// Byte offset where the full range starts (the doc comment, decorator or wrapper, else the definition).
    pub start_byte: usize,
    /// Byte offset just past the definition's last byte (trailing white space excluded).
    pub end_byte: usize,
    /// The source lines `start_line..=end_line`, joined by `\n`, without a trailing newline (Probe's `code`).
    pub code: String,
    /// The tree-sitter kind of the definition node (`function_declaration`, `method_definition`, ...); a
    /// `const`/`let` binding reports its declaration kind (`lexical_declaration`).
    pub node_type: String,
    /// Dot-joined path: enclosing definitions, then the name (`Demo.Calc.push`, `Stack.Push`).
    pub qualified_name: String,
    /// The language the symbol was parsed as.
    pub language: Language,
    /// The leading parts of the range before the definition proper, in source order. Their spans are
    /// contiguous: each runs up to the first non-white-space byte after it.
    pub leading: Vec<LeadingPart>,
}

impl SymbolInfo {
    /// The last segment of the qualified name (the name as written in the definition).
    pub fn name(&self) -> &str {
        self.qualified_name
            .rsplit('.')
            .next()
            .unwrap_or(&self.qualified_name)
    }
}

/// What a leading part of a symbol's range is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeadingKind {
    /// Comment lines directly above the definition (no blank line between).
    DocComment,
    /// Decorators, attributes or annotations.
    Decorators,
    /// The `export` / `export default` / `pub` wrapper.
    Modifier,
}

/// A leading part of a symbol's range: `start_byte..end_byte` is its text plus the white space after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeadingPart {
    pub kind: LeadingKind,
    pub start_byte: usize,
    pub end_byte: usize,
}

/// Why a symbol lookup failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SymbolError {
    /// The file's extension has no grammar; use text or line mode instead.
    #[error("symbol mode does not support '.{ext}' files")]
    UnsupportedLanguage { ext: String },
    /// The file does not parse cleanly around the symbols asked for. `line` is 1-based.
    #[error("{language} parse error at line {line}")]
    Parse { language: &'static str, line: usize },
    /// The grammar could not be loaded into the parser (an ABI mismatch; a build problem, not an input one).
    #[error("cannot load the {language} grammar: {message}")]
    Grammar {
        language: &'static str,
        message: String,
    },
}

/// The language of `path`, or [`SymbolError::UnsupportedLanguage`] naming its extension.
pub fn language_for_path_checked(path: &std::path::Path) -> Result<Language, SymbolError> {
    language_for_path(path).ok_or_else(|| SymbolError::UnsupportedLanguage {
        ext: path
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default(),
    })
}
