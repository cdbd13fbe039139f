//! Seed 001's `edit_file` tool: exact search/replace of the first occurrence, or of all with
//! `replace_all`; `Replaced N occurrence(s)`. Shares the engine's guard, locks and atomic writes.

use super::errors::describe;
use super::params::{field, flag, non_blank_str};
use super::{diff, ToolContext};
use serde_json::Value;

/// Runs one `edit_file` call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    let Some(path_param) = non_blank_str(params, "path") else {
        return "Error: path is required and must be a non-empty string (the file to edit, e.g. \"notes/todo.md\").".to_string();
    };
    let Some(old_text) = field(params, "old_text").as_str().filter(|s| !s.is_empty()) else {
        return "Error: old_text is required and must be a non-empty string: the exact text to find in the file.".to_string();
    };
    let Some(new_text) = field(params, "new_text").as_str() else {
        return "Error: new_text is required and must be a string (use \"\" to delete old_text)."
            .to_string();
    };
    let replace_all = flag(params, "replace_all", false);
    let working_dir = non_blank_str(params, "workingDirectory");
    let path = match ctx.resolve_writable(path_param, working_dir) {
        Ok(p) => p,
        Err(e) => return format!("Error: {}", describe(&e)),
    };
    if !path.real.is_file() {
        return format!("Error: File not found: \"{path_param}\"");
    }
    let session = match ctx.open_for_tool(&path, "edit_file") {
        Ok(s) => s,
        Err(e) => return format!("Error: {}", describe(&e)),
    };
    let content = session.file.text.as_str();
    let old = session.file.to_view(old_text);
    let new = session.file.to_view(new_text);
    let count = if replace_all {
        content.matches(old.as_ref()).count()
    } else {
        usize::from(content.contains(old.as_ref()))
    };
    if count == 0 {
        let name = path
            .lexical
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return format!("Error: Text '{old_text}' not found in {name}. Read the file again and copy the exact text, including white space.");
    }
    let updated = if replace_all {
        content.replace(old.as_ref(), &new)
    } else {
        content.replacen(old.as_ref(), &new, 1)
    };
    if updated != content {
        if let Err(e) = session.commit(&updated) {
            return format!("Error: {}", describe(&e));
        }
    }
    ctx.after_write(&path, crate::tools::session::TrackerEffect::Write);
    let plural = if count == 1 {
        "occurrence"
    } else {
        "occurrences"
    };
    diff::append(
        format!("Replaced {count} {plural}"),
        ctx.return_diff,
        content,
        &updated,
        &session.display,
    )
}
