'use strict';
// MCP server: serves the registry's tools over the Model Context Protocol. Read-only tools are
// always listed; write tools only with `allowEdit`. Inputs are the tools' own JSON schemas; each
// result is one text block, and a failed call (the tool's structured result says `ok: false`) is
// returned with `isError: true`.

const fs = require('node:fs');
const nodePath = require('node:path');
const { requirePeer } = require('./peer.cjs');

const SDK = { peer: '@modelcontextprotocol/sdk', range: require('../package.json').peerDependencies['@modelcontextprotocol/sdk'], entry: 'edit-engine/mcp', what: 'the MCP SDK' };
const { Server } = requirePeer('@modelcontextprotocol/sdk/server/index.js', SDK);
const { ListToolsRequestSchema, CallToolRequestSchema } = requirePeer('@modelcontextprotocol/sdk/types.js', SDK);
const engine = require('./index.cjs');
const native = require('./native.cjs');
const { LimitedStdioTransport } = require('./mcp-transport.cjs');
const registry = require('./registry.cjs');
const { ownOptions } = require('./own.cjs');
const { resultOf } = require('./tools.cjs');
const { withDryRunParam, splitDryRun, dryRunText } = require('./dry-run.cjs');
const { version } = require('../package.json');

/**
 * Tool objects and their MCP descriptors for `options`: `root` (default the process cwd) confines
 * every tool; `tools` (a preset or tool names, see registry.cjs) chooses the tools, else every
 * default one; `allowEdit` adds the write tools (without it the choice's write tools are not served); `requireRead` shares one `FileReadTracker` among
 * them, so a file must be viewed (or found by grep) before it is edited; `protectedPaths`,
 * `maxFileBytes`, `returnDiff`, `fileTracker`, `readTracker` pass through to the tools. Failure
 * messages name only the tools served (`toolNames`, see tool-names.cjs).
 */
function mcpTools(options = {}) {
  const own = ownOptions(options);
  const root = fs.realpathSync(nodePath.resolve(own.root || process.cwd()));
  const { root: _r, allowEdit, factories, requireRead, tools: chosen, ...rest } = own;
  if (requireRead && !rest.readTracker) rest.readTracker = new engine.FileReadTracker();
  const toolOptions = registry.rootOptions(root, rest);
  const entries =
    chosen === undefined
      ? registry.availableEntries({ allowEdit: Boolean(allowEdit), factories })
      : registry.selectEntries({ tools: chosen, factories }).filter((e) => allowEdit || e.access === 'read');
  const tools = registry.buildServed(entries, toolOptions, factories);
  const served = entries.map((entry, i) => ({
    tool: tools[i],
    descriptor: {
      name: tools[i].name,
      description: tools[i].description,
      inputSchema: typeof tools[i].preview === 'function' ? withDryRunParam(tools[i].inputSchema) : tools[i].inputSchema,
      annotations: registry.annotationsOf(entry),
    },
  }));
  return [...served, ...sessionTools(chosen, Boolean(allowEdit), toolOptions)];
}

/** The `checkpoint` and `rewind` tools and their descriptors, where served (see `registry.sessionToolsFor`). */
function sessionTools(chosen, allowEdit, toolOptions) {
  return registry.sessionToolsFor(chosen, allowEdit, toolOptions).map((tool) => ({
    tool,
    descriptor: {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { readOnlyHint: false, destructiveHint: tool.name === 'rewind', idempotentHint: false, openWorldHint: false },
    },
  }));
}

/** Whether `tool` takes `dry_run` as its own parameter (the rewind tool) instead of the server's preview. */
const takesOwnDryRun = (tool) => Boolean(tool.inputSchema && tool.inputSchema.properties && tool.inputSchema.properties.dry_run);

/** Text content for a tool result; `ok: false` marks it as an error. */
function toolResult({ ok, text }) {
  return { content: [{ type: 'text', text: String(text) }], isError: !ok };
}

const errorResult = (text) => toolResult({ ok: false, text });

/** The reply to a call of a tool that is not served. */
function unknownTool(name, allowEdit) {
  const entry = registry.findEntry(name);
  if (entry && entry.access === 'write' && !allowEdit) {
    return errorResult(`Error: the ${name} tool is disabled: this server is read-only. Restart it with --allow-edit to enable editing tools.`);
  }
  return errorResult(`Error: unknown tool "${name}". Call tools/list for the tools this server provides.`);
}

/** An MCP `Server` (not yet connected) serving the tools for `options` (see `mcpTools`). */
function createMcpServer(options = {}) {
  const own = ownOptions(options);
  const served = mcpTools(own);
  const byName = new Map(served.map((s) => [s.tool.name, s.tool]));
  const server = new Server(
    { name: 'edit-engine', version },
    {
      capabilities: { tools: {} },
      instructions: own.allowEdit
        ? 'File viewing and editing tools confined to the server root. Paths may be relative to the root.'
        : 'Read-only file tools confined to the server root (editing is disabled). Paths may be relative to the root.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: served.map((s) => s.descriptor) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    if (!tool) return unknownTool(name, Boolean(own.allowEdit));
    try {
      const given = args && typeof args === 'object' ? args : {};
      if (typeof tool.preview !== 'function' || takesOwnDryRun(tool)) return toolResult(await resultOf(tool, given));
      const { params, dryRun } = splitDryRun(given);
      if (!dryRun) return toolResult(await resultOf(tool, params));
      const preview = await tool.preview(params);
      return toolResult({ ok: preview.ok, text: dryRunText(preview) });
    } catch (error) {
      return errorResult(`Error: ${error && error.message ? error.message : String(error)}`);
    }
  });
  return server;
}

/** The largest request the stdio server reads: the tools' `maxFileBytes` (a file's content fits) plus 1 MiB. */
function maxMessageBytes(options) {
  const given = options.maxFileBytes;
  const fileBytes = typeof given === 'number' && Number.isFinite(given) && given > 0 ? given : native.defaultMaxFileBytes();
  return fileBytes + 1024 * 1024;
}

/**
 * Serves the tools over stdio until the input closes; resolves to the connected server. A message
 * over `maxFileBytes` + 1 MiB is answered with JSON-RPC error -32600 and serving goes on.
 */
async function serveStdio(options = {}) {
  const server = createMcpServer(options);
  await server.connect(new LimitedStdioTransport(maxMessageBytes(ownOptions(options))));
  return server;
}

module.exports = { createMcpServer, serveStdio, mcpTools };
