'use strict';
// Tool factories for seed 004's replace_in_file and Anthropic's text editor (seed 003), plus
// undoLastEdit. Same contract as tools.cjs: execute makes one native call, never throws, and
// failures start with "Error"; `executeResult` gives `{ ok, text, changedFiles }`.

const schemas = require('./more-schemas.cjs');
const { createToolbox, nativeTool, namesOf } = require('./tools.cjs');

const VERSIONS = {
  20250124: { name: 'str_replace_editor', type: 'text_editor_20250124' },
  20250429: { name: 'str_replace_based_edit_tool', type: 'text_editor_20250429' },
  20250728: { name: 'str_replace_based_edit_tool', type: 'text_editor_20250728' },
};

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
 * Seed 004's `replace_in_file`: `filePath` + `replacements[]` (lines, insert_before, insert_after,
 * string, regex), all-or-nothing. `options.onProgress({ percentage, operation, details })` is
 * called with 10% before the native call and 100% after it (or a final "failed" event).
 */
function replaceInFileTool(options = {}) {
  const onProgress = options && typeof options === 'object' ? options.onProgress : undefined;
  const tool = nativeTool(createToolbox(options), 'replaceInFile', {
    name: 'replace_in_file',
    description: schemas.replaceInFileDescription,
    inputSchema: schemas.replaceInFileSchema,
    label: 'Error performing replacements',
    writes: true,
    toolNames: namesOf(options),
  });
  const run = tool.executeResult;
  tool.executeResult = async (params) => {
    const p = params && typeof params === 'object' ? params : {};
    const count = Array.isArray(p.replacements) ? p.replacements.length : 0;
    report(onProgress, {
      percentage: 10,
      operation: `Processing ${count} replacement(s)...`,
      details: `Reading file: ${typeof p.filePath === 'string' ? p.filePath : ''}`,
    });
    const result = await run(params);
    if (!result.ok) {
      report(onProgress, { percentage: 100, operation: 'Replacements failed', details: result.text });
    } else {
      const changes = /\((\d+) changes?\)/.exec(result.text);
      report(onProgress, {
        percentage: 100,
        operation: 'Replacements completed',
        details: `Applied ${changes ? changes[1] : 0} change(s)`,
      });
    }
    return result;
  };
  return tool;
}

/** The version of a text editor options object, as a key of VERSIONS (undefined if unknown). */
function editorVersion(options) {
  const raw = options && options.version != null ? String(options.version) : '20250124';
  const v = raw.replace(/^text_editor_/, '');
  return Object.prototype.hasOwnProperty.call(VERSIONS, v) ? v : undefined;
}

/**
 * Anthropic's text editor tool. `options.version`: '20250124' (default; name str_replace_editor,
 * with undo_edit), '20250429' or '20250728' (name str_replace_based_edit_tool, no undo_edit;
 * 20250728 honours `maxCharacters` / the `max_characters` parameter on view).
 */
function textEditorTool(options = {}) {
  const o = options && typeof options === 'object' ? options : {};
  const version = editorVersion(o);
  const maxCharacters = o.maxCharacters ?? o.max_characters;
  const extra = {
    textEditorVersion: o.version != null ? String(o.version) : undefined,
    maxCharacters: typeof maxCharacters === 'number' ? maxCharacters : undefined,
  };
  const info = VERSIONS[version ?? '20250124'];
  const tool = nativeTool(createToolbox(o, extra), 'textEditor', {
    name: info.name,
    description: version === '20250124' || version === undefined ? schemas.textEditorUndoDescription : schemas.textEditorDescription,
    inputSchema: schemas.textEditorSchema(version ?? '20250124'),
    label: 'Error',
    writes: (input) => input.command !== 'view',
    toolNames: namesOf(o),
  });
  tool.type = info.type;
  if (version === '20250728' && extra.maxCharacters !== undefined) tool.max_characters = extra.maxCharacters;
  return tool;
}

/**
 * Undoes the last write any edit-engine tool made to `path` (restores the previous content from
 * the undo history; a file a tool created is removed). `options`: the tool options that locate
 * the file and the history (`allowedFolders`, `cwd`, `workspaceRoot`, `historyDir`,
 * `workingDirectory`). Resolves to a message; failures start with "Error".
 */
async function undoLastEdit(path, options = {}) {
  return (await undoLastEditResult(path, options)).text;
}

/** `undoLastEdit` as a structured result `{ ok, text, changedFiles }`. */
async function undoLastEditResult(path, options = {}) {
  const o = options && typeof options === 'object' ? options : {};
  const params = { path };
  if (typeof o.workingDirectory === 'string') params.workingDirectory = o.workingDirectory;
  return nativeTool(createToolbox(o), 'undoLastEdit', { label: 'Error', writes: true, toolNames: namesOf(o) }).executeResult(params);
}

module.exports = { replaceInFileTool, textEditorTool, undoLastEdit, undoLastEditResult };
