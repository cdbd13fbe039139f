'use strict';
// The `replace_in_file` tool: a batch of line replacements, insertions and string / regex
// replacements on one file, all-or-nothing in one atomic write. Same contract as tools.cjs: execute
// makes one native call, never throws, and failures start with "Error".

const { createToolbox, nativeTool, namesOf } = require('./tools.cjs');
const { ownOptions } = require('./own.cjs');

const replacementTypes = ['lines', 'insert_before', 'insert_after', 'string', 'regex'];

const replaceInFileSchema = {
  type: 'object',
  properties: {
    filePath: { type: 'string', description: 'Path of the file to change, relative to the working directory' },
    replacements: {
      type: 'array',
      description:
        'Changes to make, all applied in one atomic write. Line numbers refer to the file as read (they never shift between operations). Line operations first, then string/regex operations in order.',
      items: {
        type: 'object',
        properties: {
          type: {
            type: 'string',
            enum: replacementTypes,
            description:
              '"lines" (preferred): replace startLine..endLine with replaceWith; "insert_before"/"insert_after": insert insertText at lineNumber; "string": replace every literal searchFor; "regex": replace every match of the regex searchFor ($1 inserts a capture)',
          },
          startLine: { type: 'integer', minimum: 1, description: 'First line to replace (1-based, "lines")' },
          endLine: { type: 'integer', minimum: 1, description: 'Last line to replace, inclusive ("lines")' },
          lineNumber: { type: 'integer', minimum: 1, description: 'Line to insert before/after (insert types)' },
          insertText: { type: 'string', description: 'Whole lines to insert (insert types)' },
          searchFor: { type: 'string', description: 'Literal text ("string") or regex pattern ("regex")' },
          replaceWith: {
            type: 'string',
            description: 'Replacement ("lines", "string", "regex"); "" deletes the lines or the matches',
          },
        },
        required: ['type'],
        additionalProperties: false,
      },
    },
  },
  required: ['filePath', 'replacements'],
  additionalProperties: false,
};

const replaceInFileDescription =
  'Make several precise changes to one file in a single atomic call: replace line ranges, insert lines before/after a line, and replace literal strings or regex matches. Line numbers refer to the file as you read it; overlapping ranges are refused; if any operation fails, nothing is written.';

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
    name: 'replace_in_file',
    description: replaceInFileDescription,
    inputSchema: replaceInFileSchema,
    toolNames: namesOf(options),
    observe: progressReporter(ownOptions(options).onProgress),
  });
}

module.exports = { replaceInFileTool, replaceInFileSchema, replaceInFileDescription };
