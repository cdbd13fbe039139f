//! Validation of `replace_in_file` params into batch operations (no file access). Every message
//! names the offending replacement as `replacement [i] (type)` and says what is expected.

use crate::batch_plan::{Op, OpKind};
use crate::tools::params::{field, non_blank_str, Field};
use regex::Regex;
use serde_json::Value;

const TYPES: &str = "\"lines\", \"insert_before\", \"insert_after\", \"string\" or \"regex\"";

/// `(filePath, operations)` of a call.
pub(super) fn request(params: &Value) -> Result<(&str, Vec<Op>), String> {
    let file_path = non_blank_str(params, "filePath").ok_or(
        "filePath is required and must be a non-empty string (the file to change, relative to the working directory). No changes were made.",
    )?;
    let items = replacements(params)?;
    let ops = items
        .iter()
        .enumerate()
        .map(|(i, item)| operation(i + 1, item))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((file_path, ops))
}

/// `replacements` as an array or a JSON string holding one; at least one entry.
fn replacements(params: &Value) -> Result<Vec<Value>, String> {
    let items = match params.get("replacements") {
        Some(Value::Array(items)) => items.clone(),
        Some(Value::String(raw)) => match serde_json::from_str::<Value>(raw) {
            Ok(Value::Array(items)) => items,
            Ok(_) => return Err("replacements must be an array of replacement objects. No changes were made.".into()),
            Err(e) => return Err(format!("replacements is not valid JSON ({e}). Send an array of replacement objects. No changes were made.")),
        },
        _ => return Err(format!("replacements is required: an array of objects with type {TYPES}. No changes were made.")),
    };
    if items.is_empty() {
        return Err(
            "replacements is empty: give at least one replacement. No changes were made.".into(),
        );
    }
    Ok(items)
}

/// One replacement object as a batch operation.
fn operation(index: usize, item: &Value) -> Result<Op, String> {
    if !item.is_object() {
        return Err(format!(
            "replacement [{index}] must be an object with a type of {TYPES}. No changes were made."
        ));
    }
    let kind_name = field(item, "type").as_str().unwrap_or("");
    let at = Site {
        index,
        kind: kind_name,
    };
    let kind = match kind_name {
        "lines" => OpKind::Lines {
            start: at.line(item, "startLine")?,
            end: at.line(item, "endLine")?,
            text: at.text(item, "replaceWith", " (use \"\" to delete the lines)")?,
        },
        "insert_before" => OpKind::InsertBefore {
            line: at.line(item, "lineNumber")?,
            text: at.insert_text(item)?,
        },
        "insert_after" => OpKind::InsertAfter {
            line: at.line(item, "lineNumber")?,
            text: at.insert_text(item)?,
        },
        "string" => OpKind::Literal {
            search: at.search(item)?,
            replace: at.text(item, "replaceWith", " (use \"\" to delete the matches)")?,
        },
        "regex" => {
            let pattern = at.search(item)?;
            let regex = Regex::new(&pattern).map_err(|e| {
                at.fail(&format!(
                    "invalid regex `{pattern}`: {e}. Fix the pattern (Rust regex syntax)"
                ))
            })?;
            OpKind::Regex {
                regex,
                replace: at.text(
                    item,
                    "replaceWith",
                    " (use \"\" to delete the matches; $1 or ${name} insert captures)",
                )?,
            }
        }
        _ => {
            return Err(format!(
                "replacement [{index}] has an unknown type {}; use {TYPES}. No changes were made.",
                show(item.get("type"))
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
    fn line(&self, item: &Value, key: &str) -> Result<usize, String> {
        let value = item.get(key).filter(|v| !v.is_null());
        let parsed = match value {
            None => {
                return Err(self.fail(&format!(
                    "{key} is required (a 1-based line number of the file as read)"
                )))
            }
            Some(Value::Number(n)) => n.as_i64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                    .map(|f| f as i64)
            }),
            Some(Value::String(s)) => s.trim().parse::<i64>().ok(),
            Some(_) => None,
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
    fn text(&self, item: &Value, key: &str, hint: &str) -> Result<String, String> {
        match field(item, key) {
            Field::Str(s) => Ok(s.to_string()),
            Field::Absent => Err(self.fail(&format!("{key} is required{hint}"))),
            Field::Other(v) => {
                Err(self.fail(&format!("{key} must be a string, got {}", show(Some(v)))))
            }
        }
    }

    /// `insertText`: a non-empty string (`"\n"` inserts one empty line).
    fn insert_text(&self, item: &Value) -> Result<String, String> {
        let text = self.text(item, "insertText", " (the lines to insert)")?;
        if text.is_empty() {
            return Err(self.fail("insertText is empty, so there is nothing to insert (use \"\\n\" for an empty line)"));
        }
        Ok(text)
    }

    /// `searchFor`: a non-empty string.
    fn search(&self, item: &Value) -> Result<String, String> {
        let search = self.text(item, "searchFor", " (the text or pattern to find)")?;
        if search.is_empty() {
            return Err(self.fail("searchFor must not be empty"));
        }
        Ok(search)
    }
}

/// A JSON value as shown in messages (`undefined` when absent).
fn show(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => "undefined".into(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 60 {
                format!("{}...", s.chars().take(60).collect::<String>())
            } else {
                s
            }
        }
    }
}
