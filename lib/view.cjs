'use strict';
// The read-only `view` tool the adapters (MCP server, AI SDK, CLI) serve: the text editor's `view`
// command (one native call) under its own name and schema. A file it shows is recorded as read in
// the `fileTracker` / `readTracker` options by the engine. Never throws: failures resolve to
// "Error ..." strings; `executeResult` gives `{ ok, text, changedFiles }` as for every tool.

const { withResult } = require('./tools.cjs');
const { textEditorTool } = require('./text-editor.cjs');
const { ownOptions, ownParams } = require('./own.cjs');
const { specOf } = require('./specs.cjs');

const { description: viewDescription, inputSchema: viewSchema } = specOf('view');

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
