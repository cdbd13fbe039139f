'use strict';
// Tool factories: plain `{ name, description, inputSchema, execute }` objects (the shape the Probe
// SDK returns). Each `execute` is one native call; it never throws, failures start with "Error".
// Adapters use the non-enumerable `executeResult(params)` instead: it resolves to the engine's
// `{ ok, text, kind, changedFiles }` (success decided by the engine, never from the text: a grep
// hit in `ErrorHandling/` is still `ok`).

const native = require('./native.cjs');
const { shownSpec } = require('./specs.cjs');
const { resolveToolNames } = require('./tool-names.cjs');
const { ownOptions, optionsProblem, ownParams } = require('./own.cjs');

const stringList = (v) =>
  Array.isArray(v) ? v.filter((x) => typeof x === 'string') : typeof v === 'string' ? [v] : undefined;
const nonEmpty = (v) => (typeof v === 'string' && v !== '' ? v : undefined);

/** Options as the native toolbox takes them (own properties only); unknown or mistyped entries are dropped. */
function nativeOptions(options) {
  const o = ownOptions(options);
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
    historyMaxBytes: typeof o.historyMaxBytes === 'number' ? o.historyMaxBytes : undefined,
    durability: typeof o.durability === 'string' ? o.durability : undefined,
    lockTimeoutMs: typeof o.lockTimeoutMs === 'number' ? o.lockTimeoutMs : undefined,
    // Passed on as given (a wrong type becomes a string or NaN) so the engine names the bad value.
    syntaxCheck: o.syntaxCheck === undefined ? undefined : String(o.syntaxCheck),
    syntaxCheckMaxBytes:
      o.syntaxCheckMaxBytes === undefined ? undefined : typeof o.syntaxCheckMaxBytes === 'number' ? o.syntaxCheckMaxBytes : NaN,
    // The host's tools the engine's messages point to (see tool-names.cjs); absent: none.
    toolNames: Object.fromEntries(Object.entries(resolveToolNames(o.toolNames)).map(([k, v]) => [k, v ?? undefined])),
    previewTtlMs: o.previewTtlMs === undefined ? undefined : typeof o.previewTtlMs === 'number' ? o.previewTtlMs : NaN,
    sessionId: nonEmpty(o.sessionId),
  };
}

/**
 * The native toolbox for a set of options (plus tool-specific native `extra` options), or a string describing why the options are unusable
 * (every call of the tool then answers with that error).
 */
function createToolbox(options, extra = {}) {
  const o = ownOptions(options);
  if (optionsProblem(o)) return optionsProblem(o);
  const tracker = o.fileTracker;
  if (tracker != null && !(tracker instanceof native.FileTracker)) {
    return 'options.fileTracker must be a FileTracker created by edit-engine (import { FileTracker } from "edit-engine")';
  }
  const readTracker = o.readTracker;
  if (readTracker != null && !(readTracker instanceof native.FileReadTracker)) {
    return 'options.readTracker must be a FileReadTracker created by edit-engine (import { FileReadTracker } from "edit-engine")';
  }
  try {
    return new native.NativeToolbox({ ...nativeOptions(o), ...extra }, tracker ?? null, readTracker ?? null);
  } catch (error) {
    return `the tool options could not be read (${error && error.message ? error.message : String(error)}); pass a plain object of options`;
  }
}

/** The result of a call that failed before reaching the engine (unusable params). */
const failure = (text) => ({ ok: false, text, kind: 'bad_param', changedFiles: [] });

/**
 * Attaches the structured-result entry point to `tool`: `executeResult(params)` resolves to
 * `{ ok, text, kind, changedFiles }` and never rejects. `execute` resolves to its `text`.
 * `executeResult` is non-enumerable, so spreading or serializing the tool leaves it out.
 */
function withResult(tool, executeResult) {
  Object.defineProperty(tool, 'executeResult', { value: executeResult, enumerable: false, writable: true, configurable: true });
  tool.execute = async (params) => (await tool.executeResult(params)).text;
  return tool;
}

/**
 * Calls `toolbox[method](input)` and shapes its answer: `{ result, changes }` (`result`: the
 * engine's outcome `{ ok, text, kind, changedFiles }`, `kind` only on failure; `changes`: the
 * engine's change count, where the tool reports one). A call that cannot reach the engine
 * (unusable options: `toolbox` is then the reason; unusable params) fails with `label`, the
 * method's own failure lead. Never rejects.
 */
async function callEngine(toolbox, method, input, label) {
  if (typeof toolbox === 'string') return { result: failure(`${label}: ${toolbox}`) };
  try {
    const { ok, text, kind, changedFiles, changes } = await toolbox[method](input);
    const result = { ok, text, changedFiles };
    if (kind != null) result.kind = kind;
    return { result, changes };
  } catch (error) {
    return { result: failure(`${label}: invalid parameters - ${error && error.message ? error.message : String(error)}`) };
  }
}

/**
 * A tool object whose calls forward to `toolbox[method]`, turning any throw into a failure.
 * `observe(input)`, if given, runs as each call starts and may return `finish(result, changes)`,
 * run with the call's result (and the engine's change count) as it ends.
 */
function nativeTool(toolbox, method, { name, description, inputSchema, observe }) {
  const label = native.toolErrorLabel(method);
  const tool = withResult({ name, description, inputSchema }, async (params) => {
    const { params: input, problem } = ownParams(params);
    if (problem !== undefined) return failure(`${label}: invalid parameters - ${problem}`);
    const finish = observe ? observe(input) : undefined;
    const { result, changes } = await callEngine(toolbox, method, input, label);
    if (finish) finish(result, changes);
    return result;
  });
  return WRITING_METHODS.has(method) ? withPreview(tool, toolbox, method, label) : tool;
}

/** The native methods whose calls write files, so they can be previewed. */
const WRITING_METHODS = new Set(['edit', 'create', 'multiEdit', 'editFile', 'replaceInFile', 'textEditor', 'applyPatch', 'applyDiff']);

/** Most previews kept per tool object by tool call id (the oldest is forgotten first). */
const MAX_CALL_PREVIEWS = 1024;

/** The tool call id of `options` (`{ toolCallId }`), or undefined. */
const callIdOf = (options) => {
  const id = options != null && typeof options === 'object' ? options.toolCallId : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/** A preview that failed before reaching the engine. */
const previewFailure = (text) => ({ ...failure(text), token: null, files: [] });

/**
 * Attaches `preview(params, { toolCallId }?)` and `applyPreview(token | { toolCallId })` to a
 * writing tool (non-enumerable, like `executeResult`). A preview resolves to `{ ok, text, kind?,
 * changedFiles, token, files }` and never rejects; with a `toolCallId` it is that call's preview:
 * asking again for the same call, in any process sharing the history store, shows the same
 * preview, and `applyPreview({ toolCallId })` applies it (a failed one answers its failure).
 */
function withPreview(tool, toolbox, method, label) {
  const byCall = new Map();
  const plan = async (params, callId) => {
    if (typeof toolbox === 'string') return previewFailure(`${label}: ${toolbox}`);
    const { params: input, problem } = ownParams(params);
    if (problem !== undefined) return previewFailure(`${label}: invalid parameters - ${problem}`);
    try {
      const { ok, text, kind, changedFiles, token, files } = await toolbox.preview(method, input, callId ?? null);
      const result = { ok, text, changedFiles, token: token ?? null, files: files.map(shownFile) };
      if (kind != null) result.kind = kind;
      return result;
    } catch (error) {
      return previewFailure(`${label}: invalid parameters - ${error && error.message ? error.message : String(error)}`);
    }
  };
  const preview = (params, options) => {
    const callId = callIdOf(options);
    if (callId === undefined) return plan(params);
    if (!byCall.has(callId)) {
      if (byCall.size >= MAX_CALL_PREVIEWS) byCall.delete(byCall.keys().next().value);
      byCall.set(callId, plan(params, callId));
    }
    return byCall.get(callId);
  };
  const applyPreview = async (token) => {
    const callId = callIdOf(token);
    if (callId !== undefined) {
      await byCall.get(callId); // a preview still being planned is stored first
      byCall.delete(callId);
    }
    const key = callId !== undefined ? native.previewTokenOfCall(callId) : token;
    if (typeof key !== 'string') return failure(`${label}: applyPreview takes the token of a preview (a string) or { toolCallId }`);
    return (await callEngine(toolbox, 'applyPreview', key, label)).result;
  };
  for (const [key, value] of Object.entries({ preview, applyPreview })) {
    Object.defineProperty(tool, key, { value, enumerable: false, writable: true, configurable: true });
  }
  return tool;
}

/** A preview's file as the JS API shows it (`movedTo` only on a move). */
function shownFile({ path, action, movedTo, diff, additions, deletions }) {
  const file = { path, action, diff, additions, deletions };
  if (movedTo != null) file.movedTo = movedTo;
  return file;
}

/**
 * The structured result of calling any tool object. A host's own Probe-shaped tool (one without
 * `executeResult`) has only its text: the Probe SDK's contract is that its failures start with
 * "Error", so that lead decides (the one place a text is read for success; the engine's own tools
 * always have `executeResult`). A rejection propagates to the adapter, which reports a failure.
 */
async function resultOf(tool, params) {
  if (typeof tool.executeResult === 'function') return tool.executeResult(params);
  const text = String(await tool.execute(params));
  return { ok: !text.startsWith('Error'), text, changedFiles: [] };
}

/** The native tool named `name` (its spec: lib/specs.cjs), its calls going to `toolbox[method]`. */
function specTool(name, method, options) {
  return nativeTool(createToolbox(options), method, shownSpec(name));
}

/** Probe's `editTool(options)`. */
function editTool(options = {}) {
  return specTool('edit', 'edit', options);
}

/** Probe's `createTool(options)`. */
function createTool(options = {}) {
  return specTool('create', 'create', options);
}

/** Probe's `multiEditTool(options)`: up to 50 edits per call; `atomic: true` makes it all-or-nothing. */
function multiEditTool(options = {}) {
  return specTool('multi_edit', 'multiEdit', options);
}

/** The `edit_file` tool: `path`, `old_text`, `new_text`, `replace_all` (first occurrence by default). */
function editFileTool(options = {}) {
  return specTool('edit_file', 'editFile', options);
}

module.exports = { specTool, editTool, createTool, multiEditTool, editFileTool, createToolbox, nativeTool, nativeOptions, withResult, withPreview, resultOf };
