'use strict';
// The `grep` tool: a ripgrep search confined to the allowed folders, one native call per search.

const { specTool } = require('./tools.cjs');
const { specOf } = require('./specs.cjs');

const { description: grepDescription, inputSchema: grepSchema } = specOf('grep');

/**
 * `grepTool(options)`: `{ name: 'grep', description, inputSchema, execute }`. Options are
 * the edit tools' (`allowedFolders`, `cwd`, `workspaceRoot`, `fileTracker`, `readTracker`, ...):
 * the search is confined to the allowed folders and every returned file counts as read.
 */
function grepTool(options = {}) {
  return specTool('grep', 'grep', options);
}

/** `grep(args, options?)`: resolves to the tool's output string (never rejects). */
function grep(args, options = {}) {
  return grepTool(options).execute(args);
}

module.exports = { grep, grepTool, grepSchema, grepDescription };
