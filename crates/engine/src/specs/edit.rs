//! The edit, create and multi_edit tools (Probe's editing tools).

use super::{Access, Param, Serving, Shape, ToolSpec, WORKING_DIRECTORY};

/// What edit does, in one sentence.
macro_rules! edit_summary {
    () => {
        r#"Change a file by replacing text (with fuzzy matching), by rewriting or inserting next to a named symbol (AST-aware), or by replacing, inserting and deleting numbered lines verified by line hashes."#
    };
}

/// The edit modes and how each is chosen (shared by the description and the definition).
macro_rules! edit_modes {
    () => {
        r#"Modes (the first that applies wins: symbol, then start_line, then old_string):
1. Text edit - old_string + new_string. Copy old_string from the file exactly; small differences in whitespace or indentation are still matched, and the reply names the fuzzy strategy used; new_string is then re-indented line by line into the file's indentation style. new_string's line endings become the file's. A line break at the start or end of old_string is kept when a non-empty new_string lacks it there and dropping it would join two lines (lines you did not include are never joined); with new_string empty it is removed, so old_string "foo\n" with new_string "" deletes the whole line. Line breaks and blank lines around old_string's text are line boundaries: a fuzzy match never starts or ends inside a line they mark. If old_string occurs more than once, add surrounding lines or set replace_all=true.
2. Symbol replace - symbol + new_string. Replaces the whole definition of a function, class or method found by name ("Class.method" for members); new_string is re-indented to fit.
3. Symbol insert - symbol + new_string + position ("before" or "after"). Adds code next to the definition, separated by a blank line.
4. Line-targeted edit - start_line (+ end_line) + new_string, with line numbers or line:hash references from extract/search output.
   - Replace lines: give start_line and optionally end_line, no position.
   - Insert: give start_line as the anchor and position "before" or "after"; new_string "" inserts one blank line.
   - Delete: give the exact range and new_string "".
   - end_line < start_line is always an error, never an insertion.
   - A stale hash is refused with the current line:hash so you can retry."#
    };
}

macro_rules! create_summary {
    () => {
        r#"Write a new file with the given content, creating missing parent directories."#
    };
}

macro_rules! multi_edit_summary {
    () => {
        r#"Apply several edit operations (each with the edit tool's parameters) in one call, in order."#
    };
}

const LINE_REF: &str = "string | number";

/// The edit tool's parameters, every mode's in one list.
const EDIT_PARAMS: &[Param] = &[
    Param::required("file_path", Shape::String, "Path of the file to edit (absolute, or relative to the working directory)"),
    Param::optional("old_string", Shape::String, "Text to find and replace (text mode); copy it verbatim from the file"),
    Param::required("new_string", Shape::String, "The replacement text or new code. An empty string \"\" deletes the addressed line range."),
    Param::optional("replace_all", Shape::Boolean, "Replace every occurrence of old_string (text mode only; default false)"),
    Param::optional("expected_replacements", Shape::Integer { minimum: None }, "Text mode: the exact number of occurrences of old_string to replace (all of them); the edit is refused when the count differs").ts("number | string"),
    Param::optional("match_strategy", Shape::String, "Text mode: \"exact\", or the one fuzzy strategy allowed (e.g. \"line-trimmed\"); omit it to allow every strategy"),
    Param::optional("symbol", Shape::String, "Name of a function, class or method for AST-aware editing (e.g. \"myFunction\", \"MyClass.myMethod\")"),
    Param::optional("position", Shape::Enum(&["before", "after"]), "Insert before/after the symbol or the start_line anchor instead of replacing. Omit it to replace."),
    Param::optional("start_line", Shape::String, "Line reference for line-targeted edits: \"42\" or \"42:ab\" (line:hash). First line replaced, or the insertion anchor when position is set.").ts(LINE_REF),
    Param::optional("end_line", Shape::String, "Last line of the range to replace or delete, inclusive (\"55\" or \"55:cd\"); must be >= start_line; defaults to start_line.").ts(LINE_REF),
    WORKING_DIRECTORY,
];

pub const EDIT: ToolSpec = ToolSpec {
    name: "edit",
    factory: "editTool",
    access: Access::Write,
    serving: Serving::Default,
    summary: edit_summary!(),
    description: concat!(
        edit_summary!(),
        "\n\n",
        edit_modes!(),
        r#"

Parameters:
- file_path: (required) file to edit
- new_string: (required) replacement text; "" deletes the addressed lines
- old_string: (optional) exact text to replace (text mode)
- replace_all: (optional, default false) replace every occurrence (text mode)
- symbol: (optional) definition name for AST-aware edits
- position: (optional) "before" | "after" to insert instead of replace
- start_line / end_line: (optional) line references such as "42" or "42:ab""#
    ),
    definition: Some(concat!(
        "\n## edit\nDescription: ",
        edit_summary!(),
        "\n\n",
        edit_modes!(),
        r#"

Parameters:
- file_path: (required) Path of the file to edit
- new_string: (required) Replacement text or new code; "" deletes the addressed line range
- old_string: (optional) Text to replace, copied verbatim from the file
- replace_all: (optional, default: false) Replace all occurrences of old_string (text mode only)
- symbol: (optional) Function, class or method name, e.g. "calculateTotal" or "Cart.addItem"
- position: (optional) "before" or "after": insert next to the symbol or line instead of replacing
- start_line: (optional) Line reference, e.g. "42" or "42:ab"
- end_line: (optional) Inclusive end of the range, e.g. "55" or "55:cd"; defaults to start_line

If an edit fails, the error says why and how to retry: follow it.

Examples:

Replace text:
<edit>
<file_path>src/cart.js</file_path>
<old_string>return total;</old_string>
<new_string>return Math.round(total * 100) / 100;</new_string>
</edit>

Replace every occurrence:
<edit>
<file_path>src/config.js</file_path>
<old_string>retries: 1</old_string>
<new_string>retries: 3</new_string>
<replace_all>true</replace_all>
</edit>

Rewrite a function by name:
<edit>
<file_path>src/cart.js</file_path>
<symbol>applyDiscount</symbol>
<new_string>function applyDiscount(total, pct) {
  return total * (1 - pct / 100);
}</new_string>
</edit>

Add a function after another:
<edit>
<file_path>src/cart.js</file_path>
<symbol>applyDiscount</symbol>
<position>after</position>
<new_string>function applyTax(total, rate) {
  return total * (1 + rate);
}</new_string>
</edit>

Replace lines 12-14, verified by hashes:
<edit>
<file_path>src/cart.js</file_path>
<start_line>12:3f</start_line>
<end_line>14:a0</end_line>
<new_string>  const total = sum(items);</new_string>
</edit>

Insert after line 20:
<edit>
<file_path>src/cart.js</file_path>
<start_line>20</start_line>
<position>after</position>
<new_string>  log.debug('cart updated');</new_string>
</edit>

Delete lines 30-32:
<edit>
<file_path>src/cart.js</file_path>
<start_line>30</start_line>
<end_line>32</end_line>
<new_string></new_string>
</edit>"#
    )),
    params: EDIT_PARAMS,
    probe_params: None,
};

pub const CREATE: ToolSpec = ToolSpec {
    name: "create",
    factory: "createTool",
    access: Access::Write,
    serving: Serving::Default,
    summary: create_summary!(),
    description: concat!(
        create_summary!(),
        r#"

Parameters:
- file_path: (required) where to write the file
- content: (required) the full content
- overwrite: (optional, default false) replace an existing file

The call fails when the file exists and overwrite is not true."#
    ),
    definition: Some(concat!(
        "\n## create\nDescription: ",
        create_summary!(),
        r#"

Use it for new files; use edit to change an existing one.

Parameters:
- file_path: (required) Path of the file to create
- content: (required) Complete content of the file
- overwrite: (optional, default: false) Replace the file if it already exists

Missing parent directories are created. Without overwrite, an existing file is never touched.

Examples:
<create>
<file_path>src/greet.js</file_path>
<content>export function greet(name) {
  return `Hello, ${name}!`;
}</content>
</create>

<create>
<file_path>notes/todo.md</file_path>
<content># TODO</content>
<overwrite>true</overwrite>
</create>"#
    )),
    params: &[
        Param::required("file_path", Shape::String, "Path of the file to create"),
        Param::required("content", Shape::String, "Complete content of the new file"),
        Param::optional(
            "overwrite",
            Shape::Boolean,
            "Replace the file if it already exists (default false)",
        ),
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};

/// An edit operation: a JSON string holding the array, or the array itself.
const EDITS: Shape = Shape::AnyOf(&[
    Shape::String,
    Shape::Array {
        items: &Shape::OpenObject,
        min_items: None,
        max_items: None,
    },
]);

pub const MULTI_EDIT: ToolSpec = ToolSpec {
    name: "multi_edit",
    factory: "multiEditTool",
    access: Access::Write,
    serving: Serving::Default,
    summary: multi_edit_summary!(),
    description: concat!(multi_edit_summary!(), r#"

Parameters:
- edits: (required) JSON array of edit objects; each has file_path plus the parameters of one edit mode (old_string/new_string, symbol, start_line/end_line, position, replace_all)
- atomic: (optional, default false) when true, either every operation applies or no file changes

Without atomic, operations run one after another and a failure does not stop the rest. At most 50 operations per call."#),
    definition: Some(concat!("\n## multi_edit\nDescription: ", multi_edit_summary!(), r#"

Parameters:
- edits: (required) JSON array of edit objects, each with file_path plus the parameters of one edit mode

Edits run in order; a failing edit does not stop the rest. At most 50 edits per call.

Example:
<multi_edit>
<edits>[
  {"file_path": "src/cart.js", "old_string": "retries: 1", "new_string": "retries: 3"},
  {"file_path": "src/api.js", "start_line": "8", "new_string": "const TIMEOUT = 5000;"}
]</edits>
</multi_edit>"#)),
    params: &[
        Param::required("edits", EDITS, "JSON array (or a string holding one) of edit operations, each with the edit tool's parameters").ts("string | EditParams[]"),
        Param::optional("atomic", Shape::Boolean, "All-or-nothing: plan every operation first and write files only if all succeed (default false)"),
        WORKING_DIRECTORY,
    ],
    // Probe's multiEditSchema: the edits as a string only, no `atomic`.
    probe_params: Some(&[Param::required("edits", Shape::String, "JSON array of edit operations, each with the edit tool's parameters")]),
};
