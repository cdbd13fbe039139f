'use strict';
// The read-only `view` tool the adapters (MCP server, AI SDK, CLI) serve: the text editor's `view`
// command (one native call) under its own name and schema. A file it shows is recorded as read in
// the `fileTracker` / `readTracker` options by the engine. Never throws: failures resolve to
// "Error ..." strings; `executeResult` gives `{ ok, text, changedFiles }` as for every tool.

const { withResult } = require('./tools.cjs');
const { textEditorTool } = require('./text-editor.cjs');
const { ownOptions, ownParams } = require('./own.cjs');

const viewSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File or directory to show (absolute, or relative to the working directory)' },
    view_range: {
      type: 'array',
      items: { type: 'integer' },
      minItems: 2,
      maxItems: 2,
      description: 'Optional [start, end] line range, 1-based and inclusive; end -1 means to the end of the file',
    },
  },
  required: ['path'],
  additionalProperties: false,
};

const viewDescription =
  'Show a text file with line numbers (optionally only view_range; a long file is cut at a line end, saying which view_range shows the rest), or list a directory two levels deep (hidden entries excluded). Read-only.';

/**
 * `viewTool(options)`: the tool object; options are the edit tools' (`allowedFolders`, `cwd`, ...)
 * plus `maxCharacters` (most characters one view returns, default 100,000). A host may pass
 * `max_characters` with a call (not offered to the model, as `workingDirectory`).
 */
function viewTool(options = {}) {
  const editor = textEditorTool({ ...ownOptions(options), version: '20250728' });
  return withResult({ name: 'view', description: viewDescription, inputSchema: viewSchema }, async (params) => {
    const { params: p, problem } = ownParams(params);
    if (problem !== undefined) return { ok: false, text: `Error: invalid parameters - ${problem}`, changedFiles: [] };
    const input = { command: 'view', path: p.path };
    if (p.view_range !== undefined) input.view_range = p.view_range;
    if (p.max_characters !== undefined) input.max_characters = p.max_characters;
    if (p.workingDirectory !== undefined) input.workingDirectory = p.workingDirectory;
    return editor.executeResult(input);
  });
}

module.exports = { viewTool, viewSchema, viewDescription };
