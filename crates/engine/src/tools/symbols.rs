//! Symbol lookup for tools (file reading + AST search). Filled in with symbol mode.

use std::path::Path;

/// A symbol found in a file, in Probe's `findSymbol` shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSymbol {
    pub start_line: usize,
    pub end_line: usize,
    pub code: String,
    pub node_type: String,
    pub qualified_name: String,
}

/// The single definition named `symbol` in `file`, or `None` (not found, ambiguous, unreadable,
/// or unsupported language).
pub fn lookup_unique(file: &Path, symbol: &str) -> Option<FoundSymbol> {
    let _ = (file, symbol);
    None
}
