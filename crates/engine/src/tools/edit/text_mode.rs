//! Text mode: exact match first, then Probe's fuzzy cascade; uniqueness, scope and no-op guards.

use super::{fs_failure, EditCall};
use crate::text::find_fuzzy_match;
use crate::tools::diff;

const EMPTY_OLD_STRING: &str = "Error editing file: Invalid old_string - it is empty, so there is nothing to find. Copy the exact text to replace from the file, or use start_line with position=\"before\"/\"after\" to insert new lines.";

/// The text that will be replaced and how it was found.
struct Target {
    text: String,
    strategy: &'static str,
}

pub(super) fn run(call: &EditCall, old_string: &str, replace_all: bool) -> String {
    if old_string.is_empty() {
        return EMPTY_OLD_STRING.to_string();
    }
    if let Some(message) = staleness_error(call) {
        return message;
    }
    let session = match call.ctx.open_for_edit(&call.path) {
        Ok(s) => s,
        Err(e) => return fs_failure(&e),
    };
    let content = session.file.text.as_str();
    let old = session.file.to_view(old_string);
    let new = session.file.to_view(call.new_string);
    let Some(target) = locate(content, &old) else {
        return format!("Error editing file: String not found - the specified old_string was not found in {}. The text may have changed or differ from what you expected. Try: (1) Use 'search' or 'extract' to read the current file content and copy the exact text. (2) Use the symbol parameter to edit by function/class name instead. (3) Verify the file_path is correct.", call.file_path);
    };
    let occurrences = content.matches(target.text.as_str()).count();
    if !replace_all && occurrences > 1 {
        return format!("Error editing file: Multiple occurrences found - the old_string appears {occurrences} times in {}. To fix: (1) Set replace_all=true to replace all occurrences, or (2) Include more surrounding lines in old_string to make the match unique (add the full line or adjacent lines for context).", call.file_path);
    }
    if let Some(message) = scope_error(&target.text, &new) {
        return message;
    }
    let updated = if replace_all {
        content.replace(target.text.as_str(), &new)
    } else {
        content.replacen(target.text.as_str(), &new, 1)
    };
    if updated == content {
        return "Error editing file: No changes made - the replacement result is identical to the original. Verify that old_string and new_string are actually different. If fuzzy matching was used, the matched text may already equal new_string.".to_string();
    }
    if let Err(e) = session.commit(&updated) {
        return fs_failure(&e);
    }
    if let Some(t) = &call.ctx.tracker {
        t.track_file_after_write(&call.path.lexical);
        t.record_text_edit(&call.path.lexical);
    }
    let count = if replace_all { occurrences } else { 1 };
    let plural = if count != 1 { "s" } else { "" };
    let via = match target.strategy {
        "exact" => String::new(),
        s => format!(", matched via {s}"),
    };
    let message = format!("Successfully edited {} ({count} replacement{plural}{via})", call.file_path);
    diff::append(message, call.ctx.return_diff, content, &updated, &session.display)
}

/// Exact text when present; otherwise the first fuzzy candidate's actual text from the file.
fn locate(content: &str, old: &str) -> Option<Target> {
    if content.contains(old) {
        return Some(Target { text: old.to_string(), strategy: "exact" });
    }
    let fuzzy = find_fuzzy_match(content, old)?;
    Some(Target { text: fuzzy.matched_text, strategy: fuzzy.strategy.as_str() })
}

/// Probe's consecutive-text-edit guard.
fn staleness_error(call: &EditCall) -> Option<String> {
    let tracker = call.ctx.tracker.as_ref()?;
    let check = tracker.check_text_edit_staleness(&call.path.lexical);
    if check.ok {
        return None;
    }
    let shown = call.ctx.display(&call.path);
    let message = check.message.unwrap_or_default();
    Some(format!("Error editing {shown}: {message}\n\nUse the extract tool with targets=\"{shown}\" to re-read the file, then retry."))
}

/// Probe's over-scope guard: 20+ matched lines replaced by fewer than half as many.
fn scope_error(matched: &str, new: &str) -> Option<String> {
    let old_lines = matched.split('\n').count();
    let new_lines = new.split('\n').count();
    if old_lines >= 20 && (new_lines as f64) < old_lines as f64 * 0.5 {
        return Some(format!("Error editing file: Edit scope too large — replacing {old_lines} lines with {new_lines} lines risks accidental content deletion. To fix: (1) Use line-targeted editing (start_line/end_line) instead to constrain scope, or (2) Split into smaller, focused edits that each target only the lines you intend to change."));
    }
    None
}
