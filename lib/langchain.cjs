'use strict';
// LangChain adapter: edit-engine tools as `StructuredTool`s (`tool()` of @langchain/core with the
// tool's JSON schema). Invoked with a tool call (as agents do), a success becomes a ToolMessage
// and a failure a ToolMessage with `status: 'error'`, arguments that do not match the schema
// included; nothing throws. Invoked with bare arguments, the tool returns its message.

const { requirePeer } = require('./peer.cjs');

const PEER = { peer: '@langchain/core', range: require('../package.json').peerDependencies['@langchain/core'], entry: 'edit-engine/langchain', what: 'LangChain core' };
const { tool, ToolInputParsingException } = requirePeer('@langchain/core/tools', PEER);
const { ToolMessage } = requirePeer('@langchain/core/messages', PEER);
const registry = require('./registry.cjs');
const { ownOptions } = require('./own.cjs');
const { resultOf } = require('./tools.cjs');

/** The id of the tool call behind a `StructuredTool.call(arg, config)`, or undefined. */
function toolCallId(arg, config) {
  if (arg && typeof arg === 'object' && arg.type === 'tool_call' && arg.id != null) return arg.id;
  const call = config && typeof config === 'object' ? config.toolCall : undefined;
  return call && call.id != null ? call.id : undefined;
}

const isParsingError = (error) =>
  error instanceof ToolInputParsingException || (error != null && error.name === 'ToolInputParsingException');

/**
 * Makes `lcTool` answer a call whose arguments fail its schema as every other failure: an error
 * `ToolMessage` for a tool call, the message itself for bare arguments (LangChain would throw
 * `ToolInputParsingException` out of `invoke`, ending the agent's loop).
 */
function answerSchemaErrors(lcTool, name) {
  const call = lcTool.call.bind(lcTool);
  lcTool.call = async (arg, config, tags) => {
    try {
      return await call(arg, config, tags);
    } catch (error) {
      if (!isParsingError(error)) throw error;
      const text = `Error: the ${name} call's arguments do not match its schema. ${error.message.replace(/\s+/g, ' ').replace(/[. ]+$/, '')}. Resend the call with every required parameter, each of the type the schema gives.`;
      const id = toolCallId(arg, config);
      return id === undefined ? text : new ToolMessage({ content: text, tool_call_id: id, name, status: 'error' });
    }
  };
  return lcTool;
}

/** Wraps one edit-engine tool object as a LangChain `StructuredTool`. */
function toLangChainTool(engineTool) {
  const lcTool = tool(
    async (input, config) => {
      const { ok, text } = await resultOf(engineTool, input && typeof input === 'object' ? input : {});
      const call = config && config.toolCall;
      if (ok || !call || call.id == null) return text;
      return new ToolMessage({ content: text, tool_call_id: call.id, name: engineTool.name, status: 'error' });
    },
    { name: engineTool.name, description: engineTool.description, schema: engineTool.inputSchema, verboseParsingErrors: true },
  );
  return answerSchemaErrors(lcTool, engineTool.name);
}

/**
 * `StructuredTool`s for an agent or `model.bindTools()`: `tools` (a preset: 'read-only',
 * 'anthropic-style', 'editing', 'openai', 'all'; or tool names such as ['edit', 'view']), else the
 * read-only tools plus every editing tool when `allowEdit: true`. Other options are the tool
 * factories' options.
 */
function createLangChainTools(options = {}) {
  const { allowEdit, tools: chosen, ...toolOptions } = ownOptions(options);
  return registry.buildTools(toolOptions, { allowEdit: Boolean(allowEdit), tools: chosen }).map(toLangChainTool);
}

module.exports = { toLangChainTool, createLangChainTools, ...require('./adapter-exports.cjs') };
