//! Validation of `replace_in_file` params into batch operations (no file access). Every message
//! names the offending replacement as `replacement [i] (type)` and says what is expected.

use crate::batch_plan::{Op, OpKind};
use crate::tools::params::{Json, ListParam, Located, Loose};
use regex::Regex;

const TYPES: &str = "\"lines\", \"insert_before\", \"insert_after\", \"string\" or \"regex\"";

/// The params of a `replace_in_file` call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ReplaceParams {
    #[serde(rename = "filePath")]
    file_path: Loose,
    replacements: Loose,
}

/// One replacement object as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct ReplacementParams {
    #[serde(rename = "type")]
    kind: Loose,
    start_line: Loose,
    end_line: Loose,
    line_number: Loose,
    replace_with: Loose,
    insert_text: Loose,
    search_for: Loose,
}

/// A validated `replace_in_file` call.
#[derive(Debug)]
pub struct ReplaceRequest {
    /// `filePath` exactly as given (echoed in messages).
    pub file_path: String,
    pub ops: Vec<Op>,
    pub working_dir: Option<String>,
}

impl TryFrom<Located<ReplaceParams>> for ReplaceRequest {
    /// The reason, which the tool prefixes.
    type Error = String;

    fn try_from(call: Located<ReplaceParams>) -> Result<Self, String> {
        let file_path = call.params.file_path.non_blank().ok_or(
            "filePath is required and must be a non-empty string (the file to change, relative to the working directory). No changes were made.",
        )?;
        let items = replacements(&call.params.replacements)?;
        let ops = items
            .iter()
            .enumerate()
            .map(|(i, item)| operation(i + 1, item))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ReplaceRequest {
            file_path: file_path.to_string(),
            ops,
            working_dir: call.working_dir,
        })
    }
}

/// `replacements` as an array or a JSON string holding one; at least one entry.
fn replacements(param: &Loose) -> Result<Vec<Json>, String> {
    let items = match param.list() {
        ListParam::Items(items) => items,
        ListParam::NotList => return Err("replacements must be an array of replacement objects. No changes were made.".into()),
        ListParam::BadJson(e) => return Err(format!("replacements is not valid JSON ({e}). Send an array of replacement objects. No changes were made.")),
        ListParam::Missing => return Err(format!("replacements is required: an array of objects with type {TYPES}. No changes were made.")),
    };
    if items.is_empty() {
        return Err(
            "replacements is empty: give at least one replacement. No changes were made.".into(),
        );
    }
    Ok(items)
}

/// One replacement object as a batch operation.
fn operation(index: usize, item: &Json) -> Result<Op, String> {
    let Some(item) = item.object::<ReplacementParams>() else {
        return Err(format!(
            "replacement [{index}] must be an object with a type of {TYPES}. No changes were made."
        ));
    };
    let kind_name = item.kind.as_str().unwrap_or("");
    let at = Site {
        index,
        kind: kind_name,
    };
    let kind = match kind_name {
        "lines" => OpKind::Lines {
            start: at.line(&item.start_line, "startLine")?,
            end: at.line(&item.end_line, "endLine")?,
            text: at.text(
                &item.replace_with,
                "replaceWith",
                " (use \"\" to delete the lines)",
            )?,
        },
        "insert_before" => OpKind::InsertBefore {
            line: at.line(&item.line_number, "lineNumber")?,
            text: at.insert_text(&item.insert_text)?,
        },
        "insert_after" => OpKind::InsertAfter {
            line: at.line(&item.line_number, "lineNumber")?,
            text: at.insert_text(&item.insert_text)?,
        },
        "string" => OpKind::Literal {
            search: at.search(&item.search_for)?,
            replace: at.text(
                &item.replace_with,
                "replaceWith",
                " (use \"\" to delete the matches)",
            )?,
        },
        "regex" => {
            let pattern = at.search(&item.search_for)?;
            let regex = Regex::new(&pattern).map_err(|e| {
                at.fail(&format!(
                    "invalid regex `{pattern}`: {e}. Fix the pattern (Rust regex syntax)"
                ))
            })?;
            OpKind::Regex {
                regex,
                replace: at.text(
                    &item.replace_with,
                    "replaceWith",
                    " (use \"\" to delete the matches; $1 or ${name} insert captures)",
                )?,
            }
        }
        _ => {
            return Err(format!(
                "replacement [{index}] has an unknown type {}; use {TYPES}. No changes were made.",
                show(&item.kind)
            ))
        }
    };
    Ok(Op { index, kind })
}

/// The replacement being parsed, for messages.
struct Site<'a> {
    index: usize,
    kind: &'a str,
}

impl Site<'_> {
    fn fail(&self, reason: &str) -> String {
        format!(
            "replacement [{}] ({}): {reason}. No changes were made.",
            self.index, self.kind
        )
    }

    /// A 1-based line number: a positive integer, or a string holding one.
    fn line(&self, value: &Loose, key: &str) -> Result<usize, String> {
        let parsed = match value.integer() {
            Ok(None) => {
                return Err(self.fail(&format!(
                    "{key} is required (a 1-based line number of the file as read)"
                )))
            }
            Ok(Some(n)) => Some(n),
            Err(_) => None,
        };
        match parsed {
            Some(n) if n >= 1 => {
                usize::try_from(n).map_err(|_| self.fail(&format!("{key} is too large")))
            }
            Some(n) => Err(self.fail(&format!(
                "{key} must be a positive integer (line numbers start at 1), got {n}"
            ))),
            None => Err(self.fail(&format!(
                "{key} must be an integer line number, got {}",
                show(value)
            ))),
        }
    }

    /// A string field (`""` allowed).
    fn text(&self, value: &Loose, key: &str, hint: &str) -> Result<String, String> {
        match value {
            Loose::Str(s) => Ok(s.to_string()),
            Loose::Absent => Err(self.fail(&format!("{key} is required{hint}"))),
            Loose::Other(_) => {
                Err(self.fail(&format!("{key} must be a string, got {}", show(value))))
            }
        }
    }

    /// `insertText`: a non-empty string (`"\n"` inserts one empty line).
    fn insert_text(&self, value: &Loose) -> Result<String, String> {
        let text = self.text(value, "insertText", " (the lines to insert)")?;
        if text.is_empty() {
            return Err(self.fail("insertText is empty, so there is nothing to insert (use \"\\n\" for an empty line)"));
        }
        Ok(text)
    }

    /// `searchFor`: a non-empty string.
    fn search(&self, value: &Loose) -> Result<String, String> {
        let search = self.text(value, "searchFor", " (the text or pattern to find)")?;
        if search.is_empty() {
            return Err(self.fail("searchFor must not be empty"));
        }
        Ok(search)
    }
}

/// A param as shown in messages: its JSON text, cut at 60 characters (`undefined` when absent).
fn show(value: &Loose) -> String {
    if value.is_absent() {
        return "undefined".into();
    }
    let s = value.json_text();
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}
