'use strict';
// Mastra adapter: edit-engine tools as Mastra tools (`createTool()` of @mastra/core with the tool's
// JSON schema as `inputSchema`), keyed by name for `new Agent({ tools })`. A failed call is thrown
// to Mastra as a `ToolCallFailed` carrying the tool's own message: Mastra reports it as that tool
// call's error (the model sees the message as an error result) and the run goes on.

const { requirePeer } = require('./peer.cjs');

const { createTool } = requirePeer('@mastra/core/tools', { peer: '@mastra/core', range: require('../package.json').peerDependencies['@mastra/core'], entry: 'edit-engine/mastra', what: 'Mastra' });
const registry = require('./registry.cjs');
const { ownOptions } = require('./own.cjs');
const { resultOf } = require('./tools.cjs');

/** A failed tool call, as thrown to Mastra: `message` is the tool's own message for the model. */
class ToolCallFailed extends Error {
  constructor(text) {
    super(text);
    this.name = 'ToolCallFailed';
  }
}

/** Wraps one edit-engine tool object as a Mastra tool (id = the tool's name). */
function toMastraTool(engineTool) {
  return createTool({
    id: engineTool.name,
    description: engineTool.description,
    inputSchema: engineTool.inputSchema,
    execute: async (input) => {
      const { ok, text } = await resultOf(engineTool, input && typeof input === 'object' ? input : {});
      if (!ok) throw new ToolCallFailed(text);
      return text;
    },
  });
}

/**
 * Mastra tools keyed by name, for `new Agent({ tools })`: `tools` (a preset: 'read-only',
 * 'anthropic-style', 'editing', 'openai', 'all'; or tool names such as ['edit', 'view']), else the
 * read-only tools plus every editing tool when `allowEdit: true`. Other options are the tool
 * factories' options.
 */
function createMastraTools(options = {}) {
  const { allowEdit, tools: chosen, ...toolOptions } = ownOptions(options);
  const tools = registry.buildTools(toolOptions, { allowEdit: Boolean(allowEdit), tools: chosen });
  return Object.fromEntries(tools.map((t) => [t.name, toMastraTool(t)]));
}

module.exports = { toMastraTool, createMastraTools, ToolCallFailed, ...require('./adapter-exports.cjs') };
