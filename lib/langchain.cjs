'use strict';
// LangChain adapter: edit-engine tools as `StructuredTool`s (`tool()` of @langchain/core with the
// tool's JSON schema). Invoked with a tool call (as agents do), a success becomes a ToolMessage
// and a failure a ToolMessage with `status: 'error'`; nothing throws. Invoked with bare arguments,
// the tool returns its message.

const { requirePeer } = require('./peer.cjs');

const PEER = { peer: '@langchain/core', range: require('../package.json').peerDependencies['@langchain/core'], entry: 'edit-engine/langchain', what: 'LangChain core' };
const { tool } = requirePeer('@langchain/core/tools', PEER);
const { ToolMessage } = requirePeer('@langchain/core/messages', PEER);
const registry = require('./registry.cjs');
const { resultOf } = require('./tools.cjs');

/** Wraps one edit-engine tool object as a LangChain `StructuredTool`. */
function toLangChainTool(engineTool) {
  return tool(
    async (input, config) => {
      const { ok, text } = await resultOf(engineTool, input && typeof input === 'object' ? input : {});
      const call = config && config.toolCall;
      if (ok || !call || call.id == null) return text;
      return new ToolMessage({ content: text, tool_call_id: call.id, name: engineTool.name, status: 'error' });
    },
    { name: engineTool.name, description: engineTool.description, schema: engineTool.inputSchema },
  );
}

/**
 * `StructuredTool`s for an agent or `model.bindTools()`: `tools` (a preset: 'read-only',
 * 'anthropic-style', 'editing', 'openai', 'all'; or tool names such as ['edit', 'view']), else the
 * read-only tools plus every editing tool when `allowEdit: true`. Other options are the tool
 * factories' options.
 */
function createLangChainTools(options = {}) {
  const { allowEdit, tools: chosen, ...toolOptions } = options && typeof options === 'object' ? options : {};
  return registry.buildTools(toolOptions, { allowEdit: Boolean(allowEdit), tools: chosen }).map(toLangChainTool);
}

module.exports = { toLangChainTool, createLangChainTools, ...require('./adapter-exports.cjs') };
