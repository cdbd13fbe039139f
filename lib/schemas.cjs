'use strict';
// JSON schemas, descriptions and XML-style tool definitions. Property names, types and required
// lists are the Probe SDK's (an interface); the prose is edit-engine's own.

const editSchema = {
  type: 'object',
  properties: {
    file_path: { type: 'string', description: 'Path of the file to edit (absolute, or relative to the working directory)' },
    old_string: { type: 'string', description: 'Text to find and replace (text mode); copy it verbatim from the file' },
    new_string: {
      type: 'string',
      description: 'The replacement text or new code. An empty string "" deletes the addressed line range.',
    },
    replace_all: { type: 'boolean', description: 'Replace every occurrence of old_string (text mode only; default false)' },
    expected_replacements: {
      type: 'integer',
      description: 'Text mode: the exact number of occurrences of old_string to replace (all of them); the edit is refused when the count differs',
    },
    match_strategy: {
      type: 'string',
      description: 'Text mode: "exact", or the one fuzzy strategy allowed (e.g. "line-trimmed"); omit it to allow every strategy',
    },
    symbol: {
      type: 'string',
      description: 'Name of a function, class or method for AST-aware editing (e.g. "myFunction", "MyClass.myMethod")',
    },
    position: {
      type: 'string',
      enum: ['before', 'after'],
      description: 'Insert before/after the symbol or the start_line anchor instead of replacing. Omit it to replace.',
    },
    start_line: {
      type: 'string',
      description: 'Line reference for line-targeted edits: "42" or "42:ab" (line:hash). First line replaced, or the insertion anchor when position is set.',
    },
    end_line: {
      type: 'string',
      description: 'Last line of the range to replace or delete, inclusive ("55" or "55:cd"); must be >= start_line; defaults to start_line.',
    },
  },
  required: ['file_path', 'new_string'],
  additionalProperties: false,
};

const createSchema = {
  type: 'object',
  properties: {
    file_path: { type: 'string', description: 'Path of the file to create' },
    content: { type: 'string', description: 'Complete content of the new file' },
    overwrite: { type: 'boolean', description: 'Replace the file if it already exists (default false)' },
  },
  required: ['file_path', 'content'],
  additionalProperties: false,
};

const multiEditSchema = {
  type: 'object',
  properties: {
    edits: { type: 'string', description: 'JSON array of edit operations, each with the edit tool\'s parameters' },
  },
  required: ['edits'],
  additionalProperties: false,
};

const editDescription =
  'Change a file by replacing text (with fuzzy matching), by rewriting or inserting next to a named symbol (AST-aware), or by replacing, inserting and deleting numbered lines verified by line hashes.';
const createDescription = 'Write a new file with the given content, creating missing parent directories.';
const multiEditDescription =
  'Apply several edit operations (each with the edit tool\'s parameters) in one call, in order.';

const editModes = `Modes (the first that applies wins: symbol, then start_line, then old_string):
1. Text edit - old_string + new_string. Copy old_string from the file exactly; small differences in whitespace or indentation are still matched, and the reply names the fuzzy strategy used; new_string is then re-indented line by line into the file's indentation style. new_string's line endings become the file's. A line break at the start or end of old_string is kept when a non-empty new_string lacks it there and dropping it would join two lines (lines you did not include are never joined); with new_string empty it is removed, so old_string "foo\\n" with new_string "" deletes the whole line. Line breaks and blank lines around old_string's text are line boundaries: a fuzzy match never starts or ends inside a line they mark. If old_string occurs more than once, add surrounding lines or set replace_all=true.
2. Symbol replace - symbol + new_string. Replaces the whole definition of a function, class or method found by name ("Class.method" for members); new_string is re-indented to fit.
3. Symbol insert - symbol + new_string + position ("before" or "after"). Adds code next to the definition, separated by a blank line.
4. Line-targeted edit - start_line (+ end_line) + new_string, with line numbers or line:hash references from extract/search output.
   - Replace lines: give start_line and optionally end_line, no position.
   - Insert: give start_line as the anchor and position "before" or "after"; new_string "" inserts one blank line.
   - Delete: give the exact range and new_string "".
   - end_line < start_line is always an error, never an insertion.
   - A stale hash is refused with the current line:hash so you can retry.`;

const editToolDescription = `${editDescription}

${editModes}

Parameters:
- file_path: (required) file to edit
- new_string: (required) replacement text; "" deletes the addressed lines
- old_string: (optional) exact text to replace (text mode)
- replace_all: (optional, default false) replace every occurrence (text mode)
- symbol: (optional) definition name for AST-aware edits
- position: (optional) "before" | "after" to insert instead of replace
- start_line / end_line: (optional) line references such as "42" or "42:ab"`;

const createToolDescription = `${createDescription}

Parameters:
- file_path: (required) where to write the file
- content: (required) the full content
- overwrite: (optional, default false) replace an existing file

The call fails when the file exists and overwrite is not true.`;

const editToolDefinition = `
## edit
Description: ${editDescription}

${editModes}

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
</edit>`;

const createToolDefinition = `
## create
Description: ${createDescription}

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
  return \`Hello, \${name}!\`;
}</content>
</create>

<create>
<file_path>notes/todo.md</file_path>
<content># TODO</content>
<overwrite>true</overwrite>
</create>`;

const multiEditToolDefinition = `
## multi_edit
Description: ${multiEditDescription}

Parameters:
- edits: (required) JSON array of edit objects, each with file_path plus the parameters of one edit mode

Edits run in order; a failing edit does not stop the rest. At most 50 edits per call.

Example:
<multi_edit>
<edits>[
  {"file_path": "src/cart.js", "old_string": "retries: 1", "new_string": "retries: 3"},
  {"file_path": "src/api.js", "start_line": "8", "new_string": "const TIMEOUT = 5000;"}
]</edits>
</multi_edit>`;

// The multi_edit tool object's schema: Probe's (edits as a string), widened to accept an array,
// plus edit-engine's `atomic` flag.
const multiEditToolSchema = {
  type: 'object',
  properties: {
    edits: {
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object', additionalProperties: true } }],
      description: 'JSON array (or a string holding one) of edit operations, each with the edit tool\'s parameters',
    },
    atomic: {
      type: 'boolean',
      description: 'All-or-nothing: plan every operation first and write files only if all succeed (default false)',
    },
  },
  required: ['edits'],
  additionalProperties: false,
};

const multiEditToolDescription = `${multiEditDescription}

Parameters:
- edits: (required) JSON array of edit objects; each has file_path plus the parameters of one edit mode (old_string/new_string, symbol, start_line/end_line, position, replace_all)
- atomic: (optional, default false) when true, either every operation applies or no file changes

Without atomic, operations run one after another and a failure does not stop the rest. At most 50 operations per call.`;

const editFileSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Path of the file to edit' },
    old_text: { type: 'string', description: 'Exact text to find' },
    new_text: { type: 'string', description: 'Text to put in its place' },
    replace_all: { type: 'boolean', description: 'Replace every occurrence instead of the first (default false)' },
  },
  required: ['path', 'old_text', 'new_text'],
  additionalProperties: false,
};

const editFileDescription =
  'Search and replace in a file: replaces the first occurrence of old_text with new_text, or every occurrence with replace_all. Protected paths cannot be edited.';

module.exports = {
  multiEditToolSchema,
  multiEditToolDescription,
  editFileSchema,
  editFileDescription,
  editSchema,
  createSchema,
  multiEditSchema,
  editDescription,
  createDescription,
  multiEditDescription,
  editToolDescription,
  createToolDescription,
  editToolDefinition,
  createToolDefinition,
  multiEditToolDefinition,
};
