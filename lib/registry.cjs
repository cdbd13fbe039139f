'use strict';
// The tools the adapters (MCP server, AI SDK, CLI) serve: the engine's tool specs (lib/specs.cjs)
// but the variants no adapter serves. An entry whose factory the package does not export is
// skipped.

const engine = require('./index.cjs');
const { viewTool } = require('./view.cjs');
const { ownOptions } = require('./own.cjs');
const { SPECS } = require('./specs.cjs');
const { checkpointTools } = require('./checkpoints.cjs');

/** Options a tool is built with under the caller's, by tool name. */
const DEFAULTS = { str_replace_based_edit_tool: { version: '20250728' } };

/**
 * The served tools, from the engine's spec table in its order. `name`: the tool name the adapters
 * use; `factory`: the export that builds it; `access`: 'read' tools are always served, 'write'
 * tools only when editing is allowed; `defaults`: options merged under the caller's; `optional`:
 * served only when asked for (`includeOptional`, or by name in an adapter's `tools`), so the
 * default tool sets stay small. Every write tool replaces or removes existing content (edit,
 * overwrite on create, undo), so each is destructive in MCP's sense.
 */
const TOOL_ENTRIES = SPECS.filter((s) => s.serving !== 'never').map(({ name, factory, access, serving }) => ({
  name,
  factory,
  access,
  ...(DEFAULTS[name] ? { defaults: DEFAULTS[name] } : {}),
  ...(serving === 'when_named' ? { optional: true } : {}),
}));

/**
 * Named tool sets an adapter's `tools` option accepts: 'read-only' (view, grep), 'anthropic-style'
 * (the text editor alone), 'editing' (view, grep, edit, create: one tool per job), 'openai'
 * (view, grep and apply_patch, the edit format OpenAI's models are trained on) and 'all'.
 * Each list is in `TOOL_ENTRIES` order, the order the tools are served in.
 */
const PRESETS = {
  'read-only': ['view', 'grep'],
  'anthropic-style': ['str_replace_based_edit_tool'],
  editing: ['view', 'grep', 'edit', 'create'],
  openai: ['view', 'grep', 'apply_patch'],
  all: TOOL_ENTRIES.map((e) => e.name),
};

/**
 * The entries an adapter serves: `tools` (a preset name or an array of tool names) when given,
 * else every tool with `allowEdit` and the read-only ones without. Throws a TypeError naming the
 * valid choices for an unknown preset or tool name (a setup mistake, not a tool call).
 */
function selectEntries({ tools, allowEdit = false, factories = defaultFactories() } = {}) {
  if (tools === undefined) return availableEntries({ allowEdit, factories });
  const names = typeof tools === 'string' ? PRESETS[tools] : Array.isArray(tools) ? tools : undefined;
  if (!names) {
    throw new TypeError(`tools must be a preset (${Object.keys(PRESETS).join(', ')}) or an array of tool names (${TOOL_ENTRIES.map((e) => e.name).join(', ')}); got ${JSON.stringify(tools)}`);
  }
  const unknown = names.filter((n) => !findEntry(n));
  if (unknown.length > 0) {
    throw new TypeError(`unknown tool name${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} in tools; the tools are ${TOOL_ENTRIES.map((e) => e.name).join(', ')}`);
  }
  return availableEntries({ allowEdit: true, factories, includeOptional: true }).filter((e) => names.includes(e.name));
}

/** MCP tool annotations for `entry`: what the tool may do to the files under its root. */
function annotationsOf(entry) {
  const read = entry.access === 'read';
  return { readOnlyHint: read, destructiveHint: !read, idempotentHint: read, openWorldHint: false };
}

/** Every factory the adapters may use: the package's exports plus the read-only `viewTool`. */
function defaultFactories() {
  return { ...engine, viewTool };
}

/**
 * The entries whose factory exists in `factories`, optionally only the read-only ones; optional
 * entries only with `includeOptional`.
 */
function availableEntries({ allowEdit = false, factories = defaultFactories(), includeOptional = false } = {}) {
  return TOOL_ENTRIES.filter(
    (e) =>
      typeof factories[e.factory] === 'function' &&
      (allowEdit || e.access === 'read') &&
      (includeOptional || !e.optional),
  );
}

/** The entry named `name` (whether or not its factory exists), or undefined. */
function findEntry(name) {
  return TOOL_ENTRIES.find((e) => e.name === name);
}

/** Builds the tool object of `entry` with `options` (the entry's defaults underneath). */
function buildTool(entry, options = {}, factories = defaultFactories()) {
  const tool = factories[entry.factory]({ ...(entry.defaults || {}), ...ownOptions(options) });
  if (tool.name !== entry.name) tool.name = entry.name; // a fresh object: keeps executeResult
  return tool;
}

/**
 * The `toolNames` option for tools served together with `names`: the read, search and create
 * tools their messages may point to (null where none is served).
 */
function hostToolNames(names) {
  const has = (n) => names.includes(n);
  const editor = 'str_replace_based_edit_tool';
  return {
    read: has('view') ? 'view' : has(editor) ? editor : null,
    search: has('grep') ? 'grep' : null,
    create: has('create') ? 'create' : has(editor) ? editor : null,
  };
}

/** `entries` built with `options`, their messages naming only tools among `entries` (unless `options.toolNames` says otherwise). */
function buildServed(entries, options = {}, factories = defaultFactories()) {
  const own = ownOptions(options);
  const toolNames = own.toolNames ?? hostToolNames(entries.map((e) => e.name));
  return entries.map((e) => buildTool(e, { ...own, toolNames }, factories));
}

/**
 * The `checkpoint` and `rewind` tools served with the choice `tools` (see `checkpointTools`): with
 * the 'all' preset when editing is allowed (`editing`) and the undo history is on; none otherwise.
 * The session is the served tools' (`options`), so a rewind puts back what they wrote.
 */
function sessionToolsFor(tools, editing, options = {}) {
  return tools === 'all' && editing && ownOptions(options).history !== false ? checkpointTools(options) : [];
}

/**
 * Tool objects for `tools` (see `selectEntries`), or every available entry; `allowEdit` adds the
 * write tools. A named choice serves its write tools, so the 'all' preset adds the `checkpoint`
 * and `rewind` tools (see `sessionToolsFor`).
 */
function buildTools(options = {}, { allowEdit = false, tools, factories = defaultFactories() } = {}) {
  const served = buildServed(selectEntries({ tools, allowEdit, factories }), options, factories);
  return [...served, ...sessionToolsFor(tools, true, options)];
}

/** Tool options confining every tool to `root` (a real directory). */
function rootOptions(root, extra = {}) {
  return { allowedFolders: [root], cwd: root, workspaceRoot: root, ...extra };
}

module.exports = { TOOL_ENTRIES, PRESETS, selectEntries, annotationsOf, hostToolNames, buildServed, sessionToolsFor, availableEntries, findEntry, buildTool, buildTools, defaultFactories, rootOptions };
