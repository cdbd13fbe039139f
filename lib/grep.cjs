'use strict';
// The `grep` tool: a ripgrep search confined to the allowed folders, one native call per search.

const { createToolbox, nativeTool, namesOf } = require('./tools.cjs');

const grepDescription = `Search file contents with a regular expression (ripgrep engine and syntax).

Output is ripgrep's: "path:line:text" for matching lines, "path-line-text" for context lines, "--" between separate groups. Hidden files, files ignored by .gitignore and binary files are skipped. With lineHashes: true each line number becomes a "line:hash" reference (e.g. "42:ab") that the edit tool's start_line accepts.

Parameters:
- pattern: (required) regular expression, e.g. "fn \\w+" or "handleError\\(" (escape special characters for a literal match)
- path: file or directory to search (default: the working directory)
- beforeContext / afterContext / context: lines to show before / after / around each match
- fileType: only files of this type (js, ts, py, rust, go, java, md, ... or a bare extension)
- ignoreCase: case-insensitive search
- maxResults: stop after this many matching lines
- lineHashes: print "line:hash" references for line-targeted edits`;

const count = { type: 'integer', minimum: 0 };
const grepSchema = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'Regular expression to search for (ripgrep syntax)' },
    path: { type: 'string', description: 'File or directory to search (default: the working directory)' },
    beforeContext: { ...count, description: 'Lines of context before each match (-B)' },
    afterContext: { ...count, description: 'Lines of context after each match (-A)' },
    context: { ...count, description: 'Lines of context before and after each match (-C)' },
    fileType: { type: 'string', description: 'Only search files of this type: js, ts, py, rust, go, ... or a file extension' },
    ignoreCase: { type: 'boolean', description: 'Case-insensitive search' },
    maxResults: { type: 'integer', minimum: 1, description: 'Stop after this many matching lines' },
    lineHashes: { type: 'boolean', description: 'Print "line:hash" references usable as start_line in the edit tool' },
  },
  required: ['pattern'],
  additionalProperties: false,
};

/**
 * `grepTool(options)`: `{ name: 'grep', description, inputSchema, execute }`. Options are
 * the edit tools' (`allowedFolders`, `cwd`, `workspaceRoot`, `fileTracker`, `readTracker`, ...):
 * the search is confined to the allowed folders and every returned file counts as read.
 */
function grepTool(options = {}) {
  return nativeTool(createToolbox(options), 'grep', {
    name: 'grep',
    description: grepDescription,
    inputSchema: grepSchema,
    toolNames: namesOf(options),
  });
}

/** `grep(args, options?)`: resolves to the tool's output string (never rejects). */
function grep(args, options = {}) {
  return grepTool(options).execute(args);
}

module.exports = { grep, grepTool, grepSchema, grepDescription };
