//! The `edit_file` tool: exact search/replace of the first occurrence, or of all with
//! `replace_all`; `Replaced N occurrence(s)`. Shares the engine's guard, locks and atomic writes.

use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{self, Located, Loose};
use super::{diff, ToolContext};
use crate::fs::endings::splice_carrying_endings;
use crate::fs::FsError;
use serde_json::Value;

/// The params of an `edit_file` call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct EditFileParams {
    path: Loose,
    old_text: Loose,
    new_text: Loose,
    replace_all: Loose,
}

/// A validated `edit_file` call.
#[derive(Debug)]
pub struct EditFileRequest {
    /// `path` exactly as given (echoed in messages).
    pub path: String,
    /// Non-empty.
    pub old_text: String,
    pub new_text: String,
    pub replace_all: bool,
    pub working_dir: Option<String>,
}

impl TryFrom<Located<EditFileParams>> for EditFileRequest {
    type Error = ToolError;

    /// Checks `path`, `old_text`, `new_text` in that order.
    fn try_from(call: Located<EditFileParams>) -> Result<Self, ToolError> {
        let p = call.params;
        let Some(path) = p.path.non_blank().map(str::to_string) else {
            return Err(ToolError::bad_param("Error: path is required and must be a non-empty string (the file to edit, e.g. \"notes/todo.md\")."));
        };
        let old_text = match p.old_text {
            Loose::Str(s) if !s.is_empty() => s,
            _ => return Err(ToolError::bad_param("Error: old_text is required and must be a non-empty string: the exact text to find in the file.")),
        };
        let Loose::Str(new_text) = p.new_text else {
            return Err(ToolError::bad_param(
                "Error: new_text is required and must be a string (use \"\" to delete old_text).",
            ));
        };
        Ok(EditFileRequest {
            path,
            old_text,
            new_text,
            replace_all: p.replace_all.flag(false),
            working_dir: call.working_dir,
        })
    }
}

/// Runs one `edit_file` call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    call(ctx, params).text
}

/// Runs one `edit_file` call: its outcome (the file written, as `path` names it).
pub fn call(ctx: &ToolContext, params: &Value) -> Outcome {
    EditFileRequest::try_from(params::read::<EditFileParams>(params))
        .and_then(|request| run_call(ctx, &request))
        .into()
}

fn run_call(ctx: &ToolContext, request: &EditFileRequest) -> Result<Outcome, ToolError> {
    let (path_param, old_text) = (request.path.as_str(), request.old_text.as_str());
    let (new_text, replace_all) = (request.new_text.as_str(), request.replace_all);
    let working_dir = request.working_dir.as_deref();
    let failure = |e: FsError| ToolError::fs("Error: ", &e, &ctx.host_tools);
    let path = ctx
        .resolve_writable(path_param, working_dir)
        .map_err(failure)?;
    if !path.real.is_file() {
        let text = format!("Error: File not found: \"{path_param}\"");
        return Err(ToolError::new(ErrorKind::NotFound, text));
    }
    let frame = ctx.open_for_tool(&path, "edit_file").map_err(failure)?;
    let content = frame.file.text.as_str();
    let old = frame.file.to_view(old_text);
    let new = frame.file.to_view(new_text);
    let Some((count, updated)) = replace(content, &old, &new, replace_all) else {
        let name = path
            .lexical
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = format!("Error: Text '{old_text}' not found in {name}. Read the file again and copy the exact text, including white space.");
        return Err(ToolError::new(ErrorKind::NotFound, text));
    };
    let changed = updated != content;
    let mut note = String::new();
    if changed {
        note = frame.commit(&updated).map_err(failure)?;
    }
    ctx.after_write(&path, crate::tools::write_frame::TrackerEffect::Write);
    let plural = if count == 1 {
        "occurrence"
    } else {
        "occurrences"
    };
    let text = diff::append(
        format!("Replaced {count} {plural}{note}"),
        ctx.return_diff,
        content,
        &updated,
        &frame.display,
    );
    Ok(match changed {
        true => Outcome::wrote(text, path_param),
        false => Outcome::read(text),
    })
}

/// `content` with `old` replaced by `new` (the first occurrence, or every one with `replace_all`)
/// and the number replaced; `None` when `old` does not occur. In a file of mixed endings each
/// new line takes the ending of the line it replaces ([`crate::fs::endings`]).
fn replace(content: &str, old: &str, new: &str, replace_all: bool) -> Option<(usize, String)> {
    let take = if replace_all { usize::MAX } else { 1 };
    let regions: Vec<_> = content
        .match_indices(old)
        .take(take)
        .map(|(at, _)| (at..at + old.len(), new))
        .collect();
    let count = regions.len();
    (count > 0).then(|| (count, splice_carrying_endings(content, regions)))
}

#[cfg(test)]
mod tests {
    use super::replace;

    #[test]
    fn each_occurrence_takes_the_endings_of_the_lines_it_replaces() {
        let mixed = "x\r\nx\nx";
        assert_eq!(
            replace(mixed, "x", "y\nz", true),
            Some((3, "y\r\nz\r\ny\nz\ny\nz".to_string()))
        );
        assert_eq!(
            replace(mixed, "x\n", "a\nb\n", false),
            Some((1, "x\r\na\nb\nx".to_string()))
        );
        assert_eq!(
            replace("a\nb", "b", "c\r\nd", false).unwrap().1,
            "a\nc\r\nd"
        );
        assert_eq!(replace("a", "q", "c", true), None);
    }
}
