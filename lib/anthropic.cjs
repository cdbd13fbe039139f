'use strict';
// Anthropic SDK adapter: runs a `tool_use` block for the text editor tool (`str_replace_based_edit_tool`
// or `str_replace_editor`) through edit-engine's `textEditorTool` and answers with the matching
// `tool_result` block (`is_error: true` for failures). Never throws.

const { resultOf } = require('./tools.cjs');
const { ownOptions } = require('./own.cjs');
const { textEditorTool, VERSIONS, editorVersion, maxCharactersOf } = require('./text-editor.cjs');

/** Tool name -> the text editor version that uses it (the newest, for a name versions share). */
const NAME_VERSIONS = Object.fromEntries([...VERSIONS.values()].map((v) => [v.name, v.version]));
const TEXT_EDITOR_TOOL_NAMES = Object.keys(NAME_VERSIONS);
/** The newest text editor version: the definition for no (or an unknown) `version`. */
const NEWEST = [...VERSIONS.values()].at(-1);

const isObject = (v) => v !== null && typeof v === 'object';
/** Whether `v` is a ready tool object (a value that cannot be read is not). */
const isEditor = (v) => {
  try {
    return isObject(v) && typeof v.execute === 'function';
  } catch {
    return false;
  }
};

/** Whether `block` is a `tool_use` block addressed to the text editor tool. */
function isTextEditorToolUse(block) {
  return isObject(block) && block.type === 'tool_use' && Object.hasOwn(NAME_VERSIONS, block.name);
}

/** The version `options.version` names (undefined when absent or unknown). */
const requestedVersion = (options) => (options.version != null ? editorVersion(options.version) : undefined);

/** The text editor version for a tool name, honouring `options.version` where it fits the name. */
function versionFor(name, options) {
  const requested = requestedVersion(options);
  return requested !== undefined && VERSIONS.get(requested).name === name ? requested : NAME_VERSIONS[name];
}

function errorResult(id, message) {
  return { type: 'tool_result', tool_use_id: id, content: message, is_error: true };
}

/** `{ type: 'tool_result', tool_use_id, content, is_error? }` for a tool's structured result. */
function toToolResult(id, { ok, text }) {
  const content = String(text);
  return ok ? { type: 'tool_result', tool_use_id: id, content } : errorResult(id, content);
}

/**
 * A handler holding one text editor per version: `definition` (the entry for the Messages API's
 * `tools` list), `handle(block)` (one tool_use block -> its tool_result) and `handleAll(content)`
 * (every text editor tool_use block of an assistant message, in order -> their tool_results).
 * `options`: the tool options (`allowedFolders`, `cwd`, `fileTracker`, ...) plus `version`
 * (default: the newest, 20250728) and `maxCharacters`; or pass `editor` to use a ready text editor object.
 */
function createTextEditorHandler(options = {}) {
  const o = ownOptions(options);
  const { editor: given, ...toolOptions } = o;
  const editors = new Map();
  const editorFor = (name) => {
    if (isEditor(given)) return given;
    const version = versionFor(name, toolOptions);
    const toolNames = { read: name, search: null, create: name };
    if (!editors.has(version)) editors.set(version, textEditorTool({ toolNames, ...toolOptions, version }));
    return editors.get(version);
  };
  const handle = async (block) => {
    const id = isObject(block) && block.id != null ? String(block.id) : '';
    if (!isTextEditorToolUse(block)) {
      const what = isObject(block) ? `a ${block.type} block for "${block.name}"` : 'not a content block';
      return errorResult(id, `Error: expected a tool_use block for ${TEXT_EDITOR_TOOL_NAMES.join(' or ')}, got ${what}.`);
    }
    const editor = editorFor(block.name);
    try {
      return toToolResult(id, await resultOf(editor, isObject(block.input) ? block.input : {}));
    } catch (error) {
      return errorResult(id, `Error: ${error && error.message ? error.message : String(error)}`);
    }
  };
  const handleAll = async (content) => {
    const results = [];
    for (const block of Array.isArray(content) ? content : []) {
      if (isTextEditorToolUse(block)) results.push(await handle(block));
    }
    return results;
  };
  return { definition: textEditorDefinition(o), handle, handleAll };
}

/**
 * The Messages API `tools` entry for the text editor of `options.version` (default: the newest);
 * 20250728's names the `max_characters` its views keep to (`options.maxCharacters`, else the default).
 */
function textEditorDefinition(options = {}) {
  const o = ownOptions(options);
  const info = VERSIONS.get(requestedVersion(o)) ?? NEWEST;
  const definition = { type: info.type, name: info.name };
  if (info.maxCharacters) definition.max_characters = maxCharactersOf(o);
  return definition;
}

/** One tool_use block -> its tool_result (see `createTextEditorHandler` for `options`). */
function textEditorToolResult(block, options = {}) {
  return createTextEditorHandler(isEditor(options) ? { editor: options } : options).handle(block);
}

/** Every text editor tool_use block in `content`, run in order -> their tool_results. */
function textEditorToolResults(content, options = {}) {
  return createTextEditorHandler(isEditor(options) ? { editor: options } : options).handleAll(content);
}

module.exports = {
  TEXT_EDITOR_TOOL_NAMES,
  isTextEditorToolUse,
  createTextEditorHandler,
  textEditorDefinition,
  textEditorToolResult,
  textEditorToolResults,
};
