//! Symbol mode (AST-aware replace/insert by name).

use super::{EditCall, Planned};
use crate::fs::textfile::TextFile;
use crate::fs::ResolvedPath;
use serde_json::Value;

pub(crate) struct SymbolRequest<'a> {
    _name: &'a str,
}

pub(super) fn request<'a>(_params: &'a Value, _path: &ResolvedPath) -> Result<SymbolRequest<'a>, String> {
    Err("Error editing file: Symbol mode is not available in this build. Use old_string + new_string (text mode) or start_line (line-targeted mode) instead.".to_string())
}

pub(super) fn plan(_call: &EditCall, _request: &SymbolRequest, _file: &TextFile) -> Result<Planned, String> {
    unreachable!("request() never yields a SymbolRequest")
}
