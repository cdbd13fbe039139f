//! Text mode: exact match first, then Probe's fuzzy cascade; uniqueness, scope and no-op guards.

use super::{EditCall, Planned, TrackerEffect};
use crate::fs::textfile::TextFile;
use crate::fs::ResolvedPath;
use crate::text::find_fuzzy_match;
use crate::tools::ToolContext;

const EMPTY_OLD_STRING: &str = "Error editing file: Invalid old_string - it is empty, so there is nothing to find. Copy the exact text to replace from the file, or use start_line with position=\"before\"/\"after\" to insert new lines.";
const NO_CHANGES: &str = "Error editing file: No changes made - the replacement result is identical to the original. Verify that old_string and new_string are actually different. If fuzzy matching was used, the matched text may already equal new_string.";

pub(crate) struct TextRequest<'a> {
    old_string: &'a str,
    replace_all: bool,
}

/// The text that will be replaced and how it was found.
struct Target {
    text: String,
    strategy: &'static str,
}

/// Validates a text-mode call (non-empty `old_string`, tracker's consecutive-edit guard).
pub(super) fn request<'a>(ctx: &ToolContext, path: &ResolvedPath, old_string: &'a str, replace_all: bool) -> Result<TextRequest<'a>, String> {
    if old_string.is_empty() {
        return Err(EMPTY_OLD_STRING.to_string());
    }
    if let Some(tracker) = &ctx.tracker {
        let check = tracker.check_text_edit_staleness(&path.lexical);
        if !check.ok {
            let shown = ctx.display(path);
            let message = check.message.unwrap_or_default();
            return Err(format!("Error editing {shown}: {message}\n\nUse the extract tool with targets=\"{shown}\" to re-read the file, then retry."));
        }
    }
    Ok(TextRequest { old_string, replace_all })
}

pub(super) fn plan(call: &EditCall, request: &TextRequest, file: &TextFile) -> Result<Planned, String> {
    let content = file.text.as_str();
    let old = file.to_view(request.old_string);
    let new = file.to_view(call.new_string);
    let Some(target) = locate(content, &old) else {
        return Err(format!("Error editing file: String not found - the specified old_string was not found in {}. The text may have changed or differ from what you expected. Try: (1) Use 'search' or 'extract' to read the current file content and copy the exact text. (2) Use the symbol parameter to edit by function/class name instead. (3) Verify the file_path is correct.", call.file_path));
    };
    let occurrences = content.matches(target.text.as_str()).count();
    if !request.replace_all && occurrences > 1 {
        return Err(format!("Error editing file: Multiple occurrences found - the old_string appears {occurrences} times in {}. To fix: (1) Set replace_all=true to replace all occurrences, or (2) Include more surrounding lines in old_string to make the match unique (add the full line or adjacent lines for context).", call.file_path));
    }
    check_scope(&target.text, &new)?;
    let new_text = if request.replace_all {
        content.replace(target.text.as_str(), &new)
    } else {
        content.replacen(target.text.as_str(), &new, 1)
    };
    if new_text == content {
        return Err(NO_CHANGES.to_string());
    }
    let count = if request.replace_all { occurrences } else { 1 };
    let plural = if count != 1 { "s" } else { "" };
    let via = match target.strategy {
        "exact" => String::new(),
        s => format!(", matched via {s}"),
    };
    let message = format!("Successfully edited {} ({count} replacement{plural}{via})", call.file_path);
    Ok(Planned { new_text, message, effect: TrackerEffect::TextEdit })
}

/// Exact text when present; otherwise the first fuzzy candidate's actual text from the file.
fn locate(content: &str, old: &str) -> Option<Target> {
    if content.contains(old) {
        return Some(Target { text: old.to_string(), strategy: "exact" });
    }
    let fuzzy = find_fuzzy_match(content, old)?;
    Some(Target { text: fuzzy.matched_text, strategy: fuzzy.strategy.as_str() })
}

/// Probe's over-scope guard: 20+ matched lines replaced by fewer than half as many.
fn check_scope(matched: &str, new: &str) -> Result<(), String> {
    let old_lines = matched.split('\n').count();
    let new_lines = new.split('\n').count();
    if old_lines >= 20 && (new_lines as f64) < old_lines as f64 * 0.5 {
        return Err(format!("Error editing file: Edit scope too large — replacing {old_lines} lines with {new_lines} lines risks accidental content deletion. To fix: (1) Use line-targeted editing (start_line/end_line) instead to constrain scope, or (2) Split into smaller, focused edits that each target only the lines you intend to change."));
    }
    Ok(())
}
