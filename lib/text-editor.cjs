'use strict';
// Schemas and descriptions of the replace_in_file (seed 004) and Anthropic text editor (seed 003)
// tools. Property names, types and required lists follow the specs (an interface); the prose is
// edit-engine's own.

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

/** Input schema of the text editor for a version ('20250124' | '20250429' | '20250728'). */
function textEditorSchema(version) {
  const withUndo = version === '20250124';
  const properties = {
    command: {
      type: 'string',
      enum: withUndo ? ['view', 'create', 'str_replace', 'insert', 'undo_edit'] : ['view', 'create', 'str_replace', 'insert'],
      description: 'The command to run',
    },
    path: { type: 'string', description: 'Absolute path of the file or directory, e.g. `/repo/file.py` or `/repo`' },
    file_text: { type: 'string', description: '`create`: the content of the new file' },
    old_str: { type: 'string', description: '`str_replace`: the exact text to replace; must occur exactly once' },
    new_str: {
      type: 'string',
      description: withUndo
        ? '`str_replace`: the replacement (omit to delete old_str); `insert`: the text to insert'
        : '`str_replace`: the replacement (omit to delete old_str)',
    },
    insert_line: { type: 'integer', description: '`insert`: insert after this line (0 = at the top)' },
    view_range: {
      type: 'array',
      items: { type: 'integer' },
      description: '`view`: [start, end] lines to show (1-based, inclusive); [start, -1] shows to the end',
    },
  };
  if (!withUndo) properties.insert_text = { type: 'string', description: '`insert`: the text to insert' };
  return { type: 'object', properties, required: ['command', 'path'], additionalProperties: false };
}

const textEditorDescription =
  'View, create and edit text files. `view` shows a file with line numbers (or lists a directory two levels deep); `str_replace` replaces text that occurs exactly once; `create` writes a new file; `insert` adds text after a line.';

module.exports = {
  replaceInFileSchema,
  replaceInFileDescription,
  textEditorSchema,
  textEditorDescription,
  textEditorUndoDescription: `${textEditorDescription} \`undo_edit\` reverts the last edit of a file.`,
};
