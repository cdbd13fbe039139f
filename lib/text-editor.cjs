'use strict';
// Anthropic's text editor tool (`str_replace_editor` / `str_replace_based_edit_tool`): its versions,
// schema, description and factory. The version table is the engine's (`textEditorVersions()`);
// execute makes one native call, never throws, and failures start with "Error".

const native = require('./native.cjs');
const { createToolbox, nativeTool, namesOf } = require('./tools.cjs');
const { ownOptions } = require('./own.cjs');

/** The engine's text editor versions by date, oldest first: `{ version, name, type, hasUndo, maxCharacters }`. */
const VERSIONS = new Map(native.textEditorVersions().map((v) => [v.version, v]));

/**
 * The version date `value` names (a date or a `text_editor_` type, as the engine reads it; null
 * or undefined: the default version), or undefined for an unknown name.
 */
function editorVersion(value) {
  return native.textEditorVersion(value != null ? String(value) : undefined) ?? undefined;
}

/** Input schema of the text editor for a version date (a key of VERSIONS; `undo_edit` where it has it). */
function textEditorSchema(version) {
  const withUndo = VERSIONS.get(version)?.hasUndo === true;
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

const textEditorUndoDescription = `${textEditorDescription} \`undo_edit\` reverts the last edit of a file.`;

/**
 * The `maxCharacters` a view of a tool built with options `o` keeps to: the option (a number of
 * at least 1, as the engine reads it), else the engine's default.
 */
function maxCharactersOf(o) {
  const given = o.maxCharacters ?? o.max_characters;
  return typeof given === 'number' && Number.isFinite(given) && given >= 1 ? Math.floor(given) : native.defaultMaxCharacters();
}

/**
 * Anthropic's text editor tool. `options.version`: '20250124' (default; name str_replace_editor,
 * with undo_edit), '20250429' or '20250728' (name str_replace_based_edit_tool, no undo_edit).
 * Every version's view returns at most `maxCharacters` (default 100,000; a call's
 * `max_characters` wins), cut at a line end; 20250728's tool object advertises the limit as
 * `max_characters`. An unknown version
 * builds the default's tool, whose every call fails naming the known versions.
 */
function textEditorTool(options = {}) {
  const o = ownOptions(options);
  const info = VERSIONS.get(editorVersion(o.version) ?? editorVersion(undefined));
  const maxCharacters = o.maxCharacters ?? o.max_characters;
  const extra = {
    textEditorVersion: o.version != null ? String(o.version) : undefined,
    maxCharacters: typeof maxCharacters === 'number' ? maxCharacters : undefined,
  };
  const tool = nativeTool(createToolbox(o, extra), 'textEditor', {
    name: info.name,
    description: info.hasUndo ? textEditorUndoDescription : textEditorDescription,
    inputSchema: textEditorSchema(info.version),
    toolNames: namesOf(o),
  });
  tool.type = info.type;
  if (info.maxCharacters) tool.max_characters = maxCharactersOf(o);
  return tool;
}

module.exports = {
  textEditorTool,
  textEditorSchema,
  textEditorDescription,
  textEditorUndoDescription,
  VERSIONS,
  editorVersion,
  maxCharactersOf,
};
