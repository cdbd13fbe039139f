//! Anthropic's text editor tool, in its two shapes: the current one and the first one, which
//! also has `undo_edit`.

use super::{Access, Param, Serving, Shape, ToolSpec, WORKING_DIRECTORY};

macro_rules! text_editor_description {
    () => {
        r#"View, create and edit text files. `view` shows a file with line numbers (or lists a directory two levels deep); `str_replace` replaces text that occurs exactly once; `create` writes a new file; `insert` adds text after a line."#
    };
}

const COMMAND: &str = "The command to run";
const PATH: &str = "Absolute path of the file or directory, e.g. `/repo/file.py` or `/repo`";
const FILE_TEXT: &str = "`create`: the content of the new file";
const OLD_STR: &str = "`str_replace`: the exact text to replace; must occur exactly once";
const INSERT_LINE: &str = "`insert`: insert after this line (0 = at the top)";
const VIEW_RANGE: &str =
    "`view`: [start, end] lines to show (1-based, inclusive); [start, -1] shows to the end";
const RANGE: Shape = Shape::Array {
    items: &Shape::Integer { minimum: None },
    min_items: None,
    max_items: None,
};
const PAIR: &str = "[number, number]";
/// `view`'s per-call limit, in the schema so hosts that send only what it lists can send it.
const MAX_CHARACTERS: Param = Param::optional(
    "max_characters",
    Shape::Integer { minimum: Some(1) },
    "`view`: most characters of numbered lines to show (default: the tool's limit)",
);

/// The generations named `str_replace_based_edit_tool` (no `undo_edit`; text to insert in `insert_text`).
pub const CURRENT: ToolSpec = ToolSpec {
    name: "str_replace_based_edit_tool",
    factory: "textEditorTool",
    access: Access::Write,
    serving: Serving::Default,
    summary: text_editor_description!(),
    description: text_editor_description!(),
    definition: None,
    params: &[
        Param::required(
            "command",
            Shape::Enum(&["view", "create", "str_replace", "insert"]),
            COMMAND,
        ),
        Param::required("path", Shape::String, PATH),
        Param::optional("file_text", Shape::String, FILE_TEXT),
        Param::optional("old_str", Shape::String, OLD_STR),
        Param::optional(
            "new_str",
            Shape::String,
            "`str_replace`: the replacement (omit to delete old_str)",
        ),
        Param::optional("insert_line", Shape::Integer { minimum: None }, INSERT_LINE),
        Param::optional("view_range", RANGE, VIEW_RANGE).ts(PAIR),
        Param::optional("insert_text", Shape::String, "`insert`: the text to insert"),
        MAX_CHARACTERS,
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};

/// The first generation, `str_replace_editor`: with `undo_edit`; `insert` takes its text in `new_str`.
pub const WITH_UNDO: ToolSpec = ToolSpec {
    name: "str_replace_editor",
    factory: "textEditorTool",
    access: Access::Write,
    serving: Serving::Never,
    summary: text_editor_description!(),
    description: concat!(
        text_editor_description!(),
        r#" `undo_edit` reverts the last edit of a file."#
    ),
    definition: None,
    params: &[
        Param::required(
            "command",
            Shape::Enum(&["view", "create", "str_replace", "insert", "undo_edit"]),
            COMMAND,
        ),
        Param::required("path", Shape::String, PATH),
        Param::optional("file_text", Shape::String, FILE_TEXT),
        Param::optional("old_str", Shape::String, OLD_STR),
        Param::optional(
            "new_str",
            Shape::String,
            "`str_replace`: the replacement (omit to delete old_str); `insert`: the text to insert",
        ),
        Param::optional("insert_line", Shape::Integer { minimum: None }, INSERT_LINE),
        Param::optional("view_range", RANGE, VIEW_RANGE).ts(PAIR),
        MAX_CHARACTERS,
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};
