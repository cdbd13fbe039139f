//! Gemini CLI's `expected_replacements`: the number of occurrences of `old_string` the caller
//! expects. The count must be met exactly; then every occurrence is replaced.

use super::super::params::Loose;

/// `Ok(None)` when absent; `Ok(Some(n))` for a positive integer (number or numeric string);
/// otherwise the error message.
pub(super) fn parse(param: &Loose) -> Result<Option<usize>, String> {
    if param.is_absent() {
        return Ok(None);
    }
    match param.unsigned() {
        Some(n) if n >= 1 => Ok(Some(n)),
        _ => Err("Error editing file: Invalid expected_replacements - must be a positive integer (the number of occurrences of old_string to replace). Omit it to replace a single, unique occurrence.".to_string()),
    }
}

/// The refusal when `old_string` occurs `lines.len()` times instead of `expected`; `lines` are
/// the 1-based first lines of the occurrences.
pub(super) fn mismatch(file_path: &str, expected: usize, lines: &[usize]) -> String {
    let found = lines.len();
    let shown: Vec<String> = lines.iter().take(20).map(|l| l.to_string()).collect();
    let more = if found > shown.len() { ", ..." } else { "" };
    format!(
        "Error editing file: Expected {expected} occurrence{} of old_string in {file_path} but found {found} (at lines {}{more}). Nothing was changed. Set expected_replacements to {found} to replace all of them, or add surrounding lines to old_string so it matches only the occurrences you mean.",
        if expected == 1 { "" } else { "s" },
        shown.join(", ")
    )
}
