'use strict';
// The `replace_in_file` tool: a batch of line replacements, insertions and string / regex
// replacements on one file, all-or-nothing in one atomic write. Same contract as tools.cjs: execute
// makes one native call, never throws, and failures start with "Error".

const { createToolbox, nativeTool } = require('./tools.cjs');
const { ownOptions } = require('./own.cjs');
const { specOf, shownSpec } = require('./specs.cjs');

const { description: replaceInFileDescription, inputSchema: replaceInFileSchema } = specOf('replace_in_file');

/** Calls `onProgress(event)`, ignoring anything it throws or returns. */
function report(onProgress, event) {
  if (typeof onProgress !== 'function') return;
  try {
    const result = onProgress(event);
    if (result && typeof result.catch === 'function') result.catch(() => {});
  } catch {
    // A failing progress callback must not break the tool.
  }
}

/**
 * The `observe` hook of a replace_in_file tool reporting to `onProgress({ percentage, operation,
 * details })`: 10% as a call starts, 100% as it ends ("completed" with the engine's change count,
 * or "failed" with the message). Undefined without a callback.
 */
function progressReporter(onProgress) {
  if (typeof onProgress !== 'function') return undefined;
  return (input) => {
    const count = Array.isArray(input.replacements) ? input.replacements.length : 0;
    report(onProgress, {
      percentage: 10,
      operation: `Processing ${count} replacement(s)...`,
      details: `Reading file: ${typeof input.filePath === 'string' ? input.filePath : ''}`,
    });
    return (result, changes) =>
      report(
        onProgress,
        result.ok
          ? { percentage: 100, operation: 'Replacements completed', details: `Applied ${changes ?? 0} change(s)` }
          : { percentage: 100, operation: 'Replacements failed', details: result.text },
      );
  };
}

/**
 * `replaceInFileTool(options)`: `filePath` + `replacements[]` (lines, insert_before, insert_after,
 * string, regex), all-or-nothing. `options.onProgress({ percentage, operation, details })` is
 * called with 10% before the native call and 100% after it (or a final "failed" event).
 */
function replaceInFileTool(options = {}) {
  return nativeTool(createToolbox(options), 'replaceInFile', {
    ...shownSpec('replace_in_file'),
    observe: progressReporter(ownOptions(options).onProgress),
  });
}

module.exports = { replaceInFileTool, replaceInFileSchema, replaceInFileDescription };
