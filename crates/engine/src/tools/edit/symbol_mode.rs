//! Symbol mode (AST-aware replace/insert by name).

use super::EditCall;

pub(super) fn run(call: &EditCall) -> String {
    format!("Error editing file: Symbol mode is not available in this build. Use old_string + new_string (text mode) or start_line (line-targeted mode) to edit {} instead.", call.file_path)
}
