//! The text editor's params: read once into an [`EditorRequest`], checked in the reference
//! tool's order (`command`, `path`, then the command's own params; `view` checks its range
//! against the file later).

use super::Version;
use crate::tools::outcome::ToolError;
use crate::tools::params::{Located, Loose};

/// The params of a text editor call as sent (each command reads its own).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub(crate) struct EditorParams {
    command: Loose,
    path: Loose,
    view_range: Loose,
    max_characters: Loose,
    file_text: Loose,
    old_str: Loose,
    new_str: Loose,
    insert_line: Loose,
    insert_text: Loose,
}

/// A validated text editor call.
#[derive(Debug)]
pub(crate) struct EditorRequest {
    /// The command's name as sent (echoed in the debug log).
    pub name: String,
    pub command: Command,
    /// `path` exactly as given (echoed in messages).
    pub path: String,
    pub working_dir: Option<String>,
}

/// `view_range`: `None` when absent, `Some(None)` when not a pair of integers.
pub(crate) type ViewRange = Option<Option<(i64, i64)>>;

/// A command and its params.
#[derive(Debug)]
pub(crate) enum Command {
    View {
        range: ViewRange,
        max_characters: Option<u64>,
    },
    StrReplace {
        old: String,
        new: String,
    },
    Create {
        content: String,
    },
    Insert {
        line: i64,
        text: String,
    },
    UndoEdit,
}

impl TryFrom<(Located<EditorParams>, Version)> for EditorRequest {
    type Error = ToolError;

    fn try_from((call, version): (Located<EditorParams>, Version)) -> Result<Self, ToolError> {
        let p = call.params;
        let Some(name) = p.command.as_str() else {
            return Err(ToolError::bad_param(format!(
                "Error: Parameter `command` is required: one of {}.",
                commands(version)
            )));
        };
        let Some(path) = p.path.non_blank() else {
            return Err(ToolError::bad_param(format!("Error: Parameter `path` is required for command: {name}. Give the absolute path of the file or directory.")));
        };
        let command = match name {
            "view" => Command::View {
                range: (!p.view_range.is_absent()).then(|| p.view_range.integer_pair()),
                max_characters: max_characters(&p.max_characters)?,
            },
            "str_replace" => str_replace(&p)?,
            "create" => Command::Create {
                content: file_text(&p.file_text)?,
            },
            "insert" => insert(&p, version)?,
            "undo_edit" => Command::UndoEdit,
            other => {
                return Err(ToolError::bad_param(format!(
                "Error: Unrecognized command {other}. The allowed commands for the {} tool are: {}",
                version.tool_name(),
                commands(version)
            )))
            }
        };
        Ok(EditorRequest {
            name: name.to_string(),
            command,
            path: path.to_string(),
            working_dir: call.working_dir,
        })
    }
}

/// The commands of `version`, as messages list them.
pub(super) fn commands(version: Version) -> &'static str {
    if version.has_undo() {
        "view, create, str_replace, insert, undo_edit"
    } else {
        "view, create, str_replace, insert"
    }
}

/// `view`'s `max_characters`: absent, or a whole number of at least 1 (a string holding one too).
fn max_characters(given: &Loose) -> Result<Option<u64>, ToolError> {
    match given.integer() {
        Ok(None) => Ok(None),
        Ok(Some(n)) if n >= 1 => Ok(Some(n as u64)),
        _ => Err(ToolError::bad_param(format!(
            "Error: Parameter `max_characters` must be a whole number of at least 1 (the most characters of numbered lines one view shows), not {}. Send such a number, or leave it out to use the tool's limit.",
            given.json_text()
        ))),
    }
}

/// `old_str` (non-empty) and `new_str` (absent = delete).
fn str_replace(p: &EditorParams) -> Result<Command, ToolError> {
    let old = match &p.old_str {
        Loose::Str(s) if !s.is_empty() => s.clone(),
        Loose::Str(_) => return Err(ToolError::bad_param("Error: Parameter `old_str` must not be empty for command: str_replace. Give the exact text to replace, with enough context to be unique.")),
        _ => return Err(ToolError::bad_param("Error: Parameter `old_str` is required for command: str_replace (a string: the exact text to replace).")),
    };
    let new = match &p.new_str {
        Loose::Absent => String::new(),
        Loose::Str(s) => s.clone(),
        Loose::Other(_) => return Err(ToolError::bad_param(
            "Error: Parameter `new_str` must be a string (omit it or use \"\" to delete old_str).",
        )),
    };
    Ok(Command::StrReplace { old, new })
}

/// `file_text`: the new file's content.
fn file_text(param: &Loose) -> Result<String, ToolError> {
    match param {
        Loose::Str(s) => Ok(s.clone()),
        Loose::Absent => Err(ToolError::bad_param("Error: Parameter `file_text` is required for command: create (the full content of the new file; \"\" for an empty file).")),
        Loose::Other(_) => Err(ToolError::bad_param("Error: Parameter `file_text` must be a string for command: create.")),
    }
}

/// `insert_line`, then the text: `insert_text`, else `new_str` (both accepted in every version;
/// a missing text names the version's own parameter).
fn insert(p: &EditorParams, version: Version) -> Result<Command, ToolError> {
    let line = match p.insert_line.integer() {
        Ok(Some(n)) => n,
        Ok(None) => return Err(ToolError::bad_param("Error: Parameter `insert_line` is required for command: insert (the line after which to insert; 0 = top of the file).")),
        Err(shown) => return Err(ToolError::bad_param(format!("Error: Invalid `insert_line` parameter: {shown}. It must be an integer line number (0 = top of the file)."))),
    };
    for (key, value) in [("insert_text", &p.insert_text), ("new_str", &p.new_str)] {
        match value {
            Loose::Str(s) => {
                return Ok(Command::Insert {
                    line,
                    text: s.clone(),
                })
            }
            Loose::Other(_) => {
                return Err(ToolError::bad_param(format!(
                    "Error: Parameter `{key}` must be a string (the text to insert)."
                )))
            }
            Loose::Absent => {}
        }
    }
    let key = if version == Version::V20250124 {
        "new_str"
    } else {
        "insert_text"
    };
    Err(ToolError::bad_param(format!(
        "Error: Parameter `{key}` is required for command: insert (the text to insert)."
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::params::read;
    use serde_json::json;

    fn parse(params: serde_json::Value, version: Version) -> Result<EditorRequest, String> {
        EditorRequest::try_from((read::<EditorParams>(&params), version)).map_err(|e| e.text)
    }

    #[test]
    fn command_then_path_then_the_command_itself() {
        let v = Version::V20250429;
        let no_command = parse(json!({ "path": "a" }), v).unwrap_err();
        assert!(no_command.ends_with("one of view, create, str_replace, insert."));
        let no_path = parse(json!({ "command": "frob", "path": " " }), v).unwrap_err();
        assert!(no_path.starts_with("Error: Parameter `path` is required for command: frob."));
        let unknown = parse(json!({ "command": "frob", "path": "a" }), v).unwrap_err();
        assert!(unknown.starts_with("Error: Unrecognized command frob."));
    }

    #[test]
    fn insert_names_the_text_param_of_its_version() {
        let params = json!({ "command": "insert", "path": "a", "insert_line": "0" });
        let newer = parse(params.clone(), Version::V20250429).unwrap_err();
        assert!(newer.starts_with("Error: Parameter `insert_text` is required"));
        let older = parse(params, Version::V20250124).unwrap_err();
        assert!(older.starts_with("Error: Parameter `new_str` is required"));
        let given = json!({ "command": "insert", "path": "a", "insert_line": 2, "new_str": "x" });
        let request = parse(given, Version::V20250728).unwrap();
        assert!(matches!(request.command, Command::Insert { line: 2, ref text } if text == "x"));
    }

    #[test]
    fn view_keeps_a_bad_range_for_the_file_check() {
        let request = parse(
            json!({ "command": "view", "path": "a", "view_range": [1], "max_characters": "9" }),
            Version::V20250728,
        )
        .unwrap();
        let Command::View {
            range,
            max_characters,
        } = request.command
        else {
            panic!("not a view");
        };
        assert_eq!((range, max_characters), (Some(None), Some(9)));
    }

    /// A `max_characters` that is not a whole number of at least 1 is refused, naming the value
    /// and how to recover; a whole float counts as its integer.
    #[test]
    fn view_refuses_a_max_characters_below_one_or_not_whole() {
        for bad in [
            json!(0),
            json!(-5),
            json!(2.5),
            json!("many"),
            json!(true),
            json!([9]),
        ] {
            let params = json!({ "command": "view", "path": "a", "max_characters": bad });
            for version in [Version::V20250124, Version::V20250429, Version::V20250728] {
                let refused = parse(params.clone(), version).unwrap_err();
                assert!(
                    refused.starts_with(
                        "Error: Parameter `max_characters` must be a whole number of at least 1"
                    ),
                    "{refused}"
                );
                assert!(refused.contains(&format!("not {bad}.")), "{refused}");
                assert!(
                    refused.ends_with("or leave it out to use the tool's limit."),
                    "{refused}"
                );
            }
        }
        let whole = json!({ "command": "view", "path": "a", "max_characters": 40.0 });
        let request = parse(whole, Version::V20250728).unwrap();
        assert!(matches!(
            request.command,
            Command::View {
                max_characters: Some(40),
                ..
            }
        ));
    }
}
