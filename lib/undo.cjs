'use strict';
// Undo of the last write any edit-engine tool made to a file, from the persistent undo history.

const { createToolbox, nativeTool } = require('./tools.cjs');
const { ownOptions } = require('./own.cjs');

/**
 * Undoes the last write any edit-engine tool made to `path` (restores the previous content from
 * the undo history; a file a tool created is removed). `options`: the tool options that locate
 * the file and the history (`allowedFolders`, `cwd`, `workspaceRoot`, `historyDir`,
 * `workingDirectory`). Resolves to a message; failures start with "Error".
 */
async function undoLastEdit(path, options = {}) {
  return (await undoLastEditResult(path, options)).text;
}

/** `undoLastEdit` as a structured result `{ ok, text, kind, changedFiles }`. */
async function undoLastEditResult(path, options = {}) {
  const o = ownOptions(options);
  const params = { path };
  if (typeof o.workingDirectory === 'string') params.workingDirectory = o.workingDirectory;
  return nativeTool(createToolbox(o), 'undoLastEdit', {}).executeResult(params);
}

module.exports = { undoLastEdit, undoLastEditResult };
