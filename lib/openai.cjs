'use strict';
// OpenAI Agents SDK adapter: edit-engine tools as function tools (`tool()` of @openai/agents).
// Schemas are strict-mode schemas where the tool's schema allows (all of them but multi_edit,
// whose edit objects are free-form): optional parameters become nullable and a null is read as
// "absent". A failed call is thrown to the SDK, whose `errorFunction` hands the tool's own message
// to the model (the SDK's error mechanism: the run goes on, the span records the error).

const { requirePeer } = require('./peer.cjs');

const agents = requirePeer('@openai/agents', { peer: '@openai/agents', range: require('../package.json').peerDependencies['@openai/agents'], entry: 'edit-engine/openai', what: 'the OpenAI Agents SDK' });
const registry = require('./registry.cjs');
const { ownOptions } = require('./own.cjs');
const { resultOf } = require('./tools.cjs');
const { approvalGate, decision } = require('./approval.cjs');
const { strictSchema, dropNulls } = require('./strict-schema.cjs');

/** A failed tool call, as thrown to the SDK: `message` is the tool's own message for the model. */
class ToolCallFailed extends Error {
  constructor(text) {
    super(text);
    this.name = 'ToolCallFailed';
  }
}

/** The SDK's `errorFunction`: the tool's message for a failed call, an "Error: ..." line otherwise. */
function modelMessage(_context, error) {
  if (error instanceof ToolCallFailed) return error.message;
  return `Error: ${error && error.message ? error.message : String(error)}`;
}

/**
 * Wraps one edit-engine tool object as an Agents SDK function tool. `needsApproval` (boolean, or
 * the SDK's `(runContext, input, callId)` function): a writing call that needs approval is
 * previewed under its call id (the tool's `preview(input, { toolCallId })` returns that preview
 * for the host to show); its approved execution applies exactly that preview.
 */
function toOpenAiTool(engineTool, { needsApproval } = {}) {
  const strict = strictSchema(engineTool.inputSchema);
  const gate = approvalGate(engineTool, needsApproval);
  const paramsOf = (input) => dropNulls(typeof input === 'string' ? JSON.parse(input) : input);
  const spec = {
    name: engineTool.name,
    description: engineTool.description,
    parameters: strict ?? { ...engineTool.inputSchema, additionalProperties: true },
    strict: strict !== null,
    execute: async (input, _context, details) => {
      const params = paramsOf(input);
      const callId = details && details.toolCall ? details.toolCall.callId : undefined;
      const { ok, text } = gate ? await gate.run(params, callId) : await resultOf(engineTool, params);
      if (!ok) throw new ToolCallFailed(text);
      return text;
    },
    errorFunction: modelMessage,
  };
  if (gate) {
    spec.needsApproval = async (runContext, input, callId) =>
      gate.check(paramsOf(input), callId, decision(needsApproval, [runContext, input, callId]));
  }
  const functionTool = agents.tool(spec);
  if (typeof engineTool.preview === 'function') {
    const preview = (input, options) => engineTool.preview(paramsOf(input), options);
    Object.defineProperty(functionTool, 'preview', { value: preview, enumerable: false, writable: true, configurable: true });
  }
  return functionTool;
}

/**
 * Function tools for an `Agent({ tools })`: `tools` (a preset: 'read-only', 'anthropic-style',
 * 'editing', 'openai', 'all'; or tool names such as ['edit', 'view']), else the read-only tools plus every
 * editing tool when `allowEdit: true`. `needsApproval`: see `toOpenAiTool`. Other options are the tool
 * factories' options.
 */
function createOpenAiTools(options = {}) {
  const { allowEdit, tools: chosen, needsApproval, ...toolOptions } = ownOptions(options);
  return registry.buildTools(toolOptions, { allowEdit: Boolean(allowEdit), tools: chosen }).map((t) => toOpenAiTool(t, { needsApproval }));
}

const { createEditor } = require('./openai-editor.cjs');

module.exports = { toOpenAiTool, createOpenAiTools, ToolCallFailed, createEditor, ...require('./adapter-exports.cjs') };
