'use strict';
// Tool factories: plain `{ name, description, inputSchema, execute }` objects (the shape the Probe
// SDK returns). Each `execute` is one native call; it never throws, failures start with "Error".

const native = require('./native.cjs');
const schemas = require('./schemas.cjs');

const stringList = (v) =>
  Array.isArray(v) ? v.filter((x) => typeof x === 'string') : typeof v === 'string' ? [v] : undefined;
const nonEmpty = (v) => (typeof v === 'string' && v !== '' ? v : undefined);

/** Options as the native toolbox takes them; unknown or mistyped entries are dropped. */
function nativeOptions(options) {
  const o = options && typeof options === 'object' ? options : {};
  return {
    allowedFolders: stringList(o.allowedFolders),
    cwd: nonEmpty(o.cwd),
    workspaceRoot: nonEmpty(o.workspaceRoot),
    protectedPaths: stringList(o.protectedPaths),
    maxFileBytes: typeof o.maxFileBytes === 'number' ? o.maxFileBytes : undefined,
    returnDiff: Boolean(o.returnDiff),
    debug: Boolean(o.debug),
    historyDir: nonEmpty(o.historyDir),
    history: o.history === false ? false : undefined,
    durability: typeof o.durability === 'string' ? o.durability : undefined,
    lockTimeoutMs: typeof o.lockTimeoutMs === 'number' ? o.lockTimeoutMs : undefined,
  };
}

/**
 * The native toolbox for a set of options (plus tool-specific native `extra` options), or a string describing why the options are unusable
 * (every call of the tool then answers with that error).
 */
function createToolbox(options, extra = {}) {
  const tracker = options && typeof options === 'object' ? options.fileTracker : undefined;
  if (tracker != null && !(tracker instanceof native.FileTracker)) {
    return 'options.fileTracker must be a FileTracker created by edit-engine (import { FileTracker } from "edit-engine")';
  }
  const readTracker = options && typeof options === 'object' ? options.readTracker : undefined;
  if (readTracker != null && !(readTracker instanceof native.FileReadTracker)) {
    return 'options.readTracker must be a FileReadTracker created by edit-engine (import { FileReadTracker } from "edit-engine")';
  }
  return new native.NativeToolbox({ ...nativeOptions(options), ...extra }, tracker ?? null, readTracker ?? null);
}

/** A tool object whose execute forwards to `toolbox[method]`, turning any throw into an error string. */
function nativeTool(toolbox, method, { name, description, inputSchema, label }) {
  return {
    name,
    description,
    inputSchema,
    execute: async (params) => {
      if (typeof toolbox === 'string') return `${label}: ${toolbox}`;
      try {
        const input = params && typeof params === 'object' ? params : {};
        return await toolbox[method](input);
      } catch (error) {
        return `${label}: invalid parameters - ${error && error.message ? error.message : String(error)}`;
      }
    },
  };
}

/** Probe's `editTool(options)`. */
function editTool(options = {}) {
  return nativeTool(createToolbox(options), 'edit', {
    name: 'edit',
    description: schemas.editToolDescription,
    inputSchema: schemas.editSchema,
    label: 'Error editing file',
  });
}

/** Probe's `createTool(options)`. */
function createTool(options = {}) {
  return nativeTool(createToolbox(options), 'create', {
    name: 'create',
    description: schemas.createToolDescription,
    inputSchema: schemas.createSchema,
    label: 'Error creating file',
  });
}

/** Probe's `multiEditTool(options)`: up to 50 edits per call; `atomic: true` makes it all-or-nothing. */
function multiEditTool(options = {}) {
  return nativeTool(createToolbox(options), 'multiEdit', {
    name: 'multi_edit',
    description: schemas.multiEditToolDescription,
    inputSchema: schemas.multiEditToolSchema,
    label: 'Error',
  });
}

/** Seed 001's `edit_file` tool: `path`, `old_text`, `new_text`, `replace_all` (first occurrence by default). */
function editFileTool(options = {}) {
  return nativeTool(createToolbox(options), 'editFile', {
    name: 'edit_file',
    description: schemas.editFileDescription,
    inputSchema: schemas.editFileSchema,
    label: 'Error',
  });
}

module.exports = { editTool, createTool, multiEditTool, editFileTool, createToolbox, nativeTool, nativeOptions };
