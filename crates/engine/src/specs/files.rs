//! The read tools (view, grep) and the single-file search-and-replace tools.

use super::{Access, Param, Serving, Shape, ToolSpec, WORKING_DIRECTORY};

const LINE_PAIR: Shape = Shape::Array {
    items: &Shape::Integer { minimum: None },
    min_items: Some(2),
    max_items: Some(2),
};

pub const VIEW: ToolSpec = ToolSpec {
    name: "view",
    factory: "viewTool",
    access: Access::Read,
    serving: Serving::Default,
    summary: VIEW_DESCRIPTION,
    description: VIEW_DESCRIPTION,
    definition: None,
    params: &[
        Param::required("path", Shape::String, "File or directory to show (absolute, or relative to the working directory)"),
        Param::optional("view_range", LINE_PAIR, "Optional [start, end] line range, 1-based and inclusive; end -1 means to the end of the file").ts("[number, number]"),
        Param::optional(
            "max_characters",
            Shape::Integer { minimum: None },
            "Most characters of numbered lines to show; wins over the `maxCharacters` option.",
        )
        .host_only(),
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};

const VIEW_DESCRIPTION: &str = r#"Show a text file with line numbers (optionally only view_range; a long file is cut at a line end, saying which view_range shows the rest), or list a directory two levels deep (hidden entries excluded). Read-only."#;

const COUNT: Shape = Shape::Integer { minimum: Some(0) };

pub const GREP: ToolSpec = ToolSpec {
    name: "grep",
    factory: "grepTool",
    access: Access::Read,
    serving: Serving::Default,
    summary: GREP_DESCRIPTION,
    description: GREP_DESCRIPTION,
    definition: None,
    params: &[
        Param::required(
            "pattern",
            Shape::String,
            "Regular expression to search for (ripgrep syntax)",
        ),
        Param::optional(
            "path",
            Shape::String,
            "File or directory to search (default: the working directory)",
        ),
        Param::optional(
            "beforeContext",
            COUNT,
            "Lines of context before each match (-B)",
        ),
        Param::optional(
            "afterContext",
            COUNT,
            "Lines of context after each match (-A)",
        ),
        Param::optional(
            "context",
            COUNT,
            "Lines of context before and after each match (-C)",
        ),
        Param::optional(
            "fileType",
            Shape::String,
            "Only search files of this type: js, ts, py, rust, go, ... or a file extension",
        ),
        Param::optional("ignoreCase", Shape::Boolean, "Case-insensitive search"),
        Param::optional(
            "maxResults",
            Shape::Integer { minimum: Some(1) },
            "Stop after this many matching lines",
        ),
        Param::optional(
            "lineHashes",
            Shape::Boolean,
            "Print \"line:hash\" references usable as start_line in the edit tool",
        ),
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};

const GREP_DESCRIPTION: &str = r#"Search file contents with a regular expression (ripgrep engine and syntax).

Output is ripgrep's: "path:line:text" for matching lines, "path-line-text" for context lines, "--" between separate groups. Hidden files, files ignored by .gitignore and binary files are skipped. With lineHashes: true each line number becomes a "line:hash" reference (e.g. "42:ab") that the edit tool's start_line accepts.

Parameters:
- pattern: (required) regular expression, e.g. "fn \w+" or "handleError\(" (escape special characters for a literal match)
- path: file or directory to search (default: the working directory)
- beforeContext / afterContext / context: lines to show before / after / around each match
- fileType: only files of this type (js, ts, py, rust, go, java, md, ... or a bare extension)
- ignoreCase: case-insensitive search
- maxResults: stop after this many matching lines
- lineHashes: print "line:hash" references for line-targeted edits"#;

pub const EDIT_FILE: ToolSpec = ToolSpec {
    name: "edit_file",
    factory: "editFileTool",
    access: Access::Write,
    serving: Serving::Default,
    summary: EDIT_FILE_DESCRIPTION,
    description: EDIT_FILE_DESCRIPTION,
    definition: None,
    params: &[
        Param::required("path", Shape::String, "Path of the file to edit"),
        Param::required("old_text", Shape::String, "Exact text to find"),
        Param::required("new_text", Shape::String, "Text to put in its place"),
        Param::optional(
            "replace_all",
            Shape::Boolean,
            "Replace every occurrence instead of the first (default false)",
        ),
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};

const EDIT_FILE_DESCRIPTION: &str = r#"Search and replace in a file: replaces the first occurrence of old_text with new_text, or every occurrence with replace_all. Protected paths cannot be edited."#;

/// The kinds of replace_in_file operation.
const REPLACEMENT_TYPES: &[&str] = &["lines", "insert_before", "insert_after", "string", "regex"];

const LINE: Shape = Shape::Integer { minimum: Some(1) };

/// One replace_in_file operation.
const REPLACEMENT: Shape = Shape::Object(&[
    Param::required("type", Shape::Enum(REPLACEMENT_TYPES), "\"lines\" (preferred): replace startLine..endLine with replaceWith; \"insert_before\"/\"insert_after\": insert insertText at lineNumber; \"string\": replace every literal searchFor; \"regex\": replace every match of the regex searchFor ($1 inserts a capture)"),
    Param::optional("startLine", LINE, "First line to replace (1-based, \"lines\")"),
    Param::optional("endLine", LINE, "Last line to replace, inclusive (\"lines\")"),
    Param::optional("lineNumber", LINE, "Line to insert before/after (insert types)"),
    Param::optional("insertText", Shape::String, "Whole lines to insert (insert types)"),
    Param::optional("searchFor", Shape::String, "Literal text (\"string\") or regex pattern (\"regex\")"),
    Param::optional("replaceWith", Shape::String, "Replacement (\"lines\", \"string\", \"regex\"); \"\" deletes the lines or the matches"),
]);

pub const REPLACE_IN_FILE: ToolSpec = ToolSpec {
    name: "replace_in_file",
    factory: "replaceInFileTool",
    access: Access::Write,
    serving: Serving::Default,
    summary: REPLACE_IN_FILE_DESCRIPTION,
    description: REPLACE_IN_FILE_DESCRIPTION,
    definition: None,
    params: &[
        Param::required("filePath", Shape::String, "Path of the file to change, relative to the working directory"),
        Param::required("replacements", Shape::Array { items: &REPLACEMENT, min_items: None, max_items: None }, "Changes to make, all applied in one atomic write. Line numbers refer to the file as read (they never shift between operations). Line operations first, then string/regex operations in order.").ts("Replacement[] | string"),
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};

const REPLACE_IN_FILE_DESCRIPTION: &str = r#"Make several precise changes to one file in a single atomic call: replace line ranges, insert lines before/after a line, and replace literal strings or regex matches. Line numbers refer to the file as you read it; overlapping ranges are refused; if any operation fails, nothing is written."#;
