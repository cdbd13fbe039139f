'use strict';
// Anthropic's text editor tool (`str_replace_editor` / `str_replace_based_edit_tool`): its versions,
// schema, description and factory. The version table and the two specs (with and without
// `undo_edit`) are the engine's; execute makes one native call, never throws, and failures start
// with "Error".

const native = require('./native.cjs');
const { createToolbox, nativeTool } = require('./tools.cjs');
const { ownOptions } = require('./own.cjs');
const { specOf } = require('./specs.cjs');

/** The engine's text editor versions by date, oldest first: `{ version, name, type, hasUndo, maxCharacters }`. */
const VERSIONS = new Map(native.textEditorVersions().map((v) => [v.version, v]));

/**
 * The version date `value` names (a date or a `text_editor_` type, as the engine reads it; null
 * or undefined: the default version), or undefined for an unknown name.
 */
function editorVersion(value) {
  return native.textEditorVersion(value != null ? String(value) : undefined) ?? undefined;
}

/** The spec of the text editor for a version date: the first generation's (with `undo_edit`) where it has undo, else the current one's. */
const specOfVersion = (version) => specOf(VERSIONS.get(version)?.hasUndo === true ? 'str_replace_editor' : 'str_replace_based_edit_tool');

/** Input schema of the text editor for a version date (a key of VERSIONS; `undo_edit` where it has it), a fresh copy. */
function textEditorSchema(version) {
  return structuredClone(specOfVersion(version).inputSchema);
}

const textEditorDescription = specOf('str_replace_based_edit_tool').description;

const textEditorUndoDescription = specOf('str_replace_editor').description;

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
    // Anything but a number reaches the engine as NaN, which it refuses naming the option.
    maxCharacters: maxCharacters == null ? undefined : typeof maxCharacters === 'number' ? maxCharacters : NaN,
  };
  const tool = nativeTool(createToolbox(o, extra), 'textEditor', {
    name: info.name,
    description: specOfVersion(info.version).description,
    inputSchema: textEditorSchema(info.version),
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
