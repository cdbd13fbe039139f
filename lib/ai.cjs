'use strict';
// Vercel AI SDK adapter: edit-engine tools as `ai` tools (`tool()` + `jsonSchema()`), ready for
// `generateText({ tools })` / `streamText({ tools })`. The tool's JSON schema is its input schema;
// `execute` resolves to the tool's message and never throws; a failed call (the tool's structured
// result says `ok: false`) reaches the model as error text.

const { requirePeer } = require('./peer.cjs');

const ai = requirePeer('ai', { peer: 'ai', range: require('../package.json').peerDependencies.ai, entry: 'edit-engine/ai', what: 'the Vercel AI SDK' });
const registry = require('./registry.cjs');
const { ownOptions } = require('./own.cjs');
const { resultOf } = require('./tools.cjs');
const { approvalGate, decision } = require('./approval.cjs');

/** Most call outcomes kept for `toModelOutput` (a call whose output is never sent is forgotten). */
const MAX_PENDING = 1024;

/**
 * Wraps one edit-engine tool object (`{ description, inputSchema, execute }`) as an `ai` tool.
 * `needsApproval` (boolean, or the SDK's `(input, { toolCallId, messages, ... })` function): a
 * writing call that needs approval is previewed under its `toolCallId` (the tool's
 * `preview(input, { toolCallId })` returns that preview for the host to show); its approved
 * execution applies exactly that preview.
 */
function toAiTool(engineTool, { needsApproval } = {}) {
  const failed = new Map(); // toolCallId -> whether that call failed, until its output is sent
  const remember = (id, ok) => {
    if (failed.size >= MAX_PENDING) failed.delete(failed.keys().next().value);
    failed.set(id, !ok);
  };
  const gate = approvalGate(engineTool, needsApproval);
  const spec = {
    description: engineTool.description,
    inputSchema: ai.jsonSchema(engineTool.inputSchema),
    execute: async (input, callOptions) => {
      const id = callOptions && callOptions.toolCallId;
      try {
        const { ok, text } = gate ? await gate.run(input, id) : await resultOf(engineTool, input);
        if (id != null) remember(id, ok);
        return text;
      } catch (error) {
        if (id != null) remember(id, false);
        return `Error: ${error && error.message ? error.message : String(error)}`;
      }
    },
    toModelOutput: ({ toolCallId, output }) => {
      const isError = failed.get(toolCallId) === true;
      failed.delete(toolCallId);
      return { type: isError ? 'error-text' : 'text', value: String(output) };
    },
  };
  if (gate) {
    spec.needsApproval = (input, options) =>
      gate.check(input, options && options.toolCallId, decision(needsApproval, [input, options]));
  }
  const aiTool = ai.tool(spec);
  if (typeof engineTool.preview === 'function') {
    const preview = (input, options) => engineTool.preview(input, options);
    Object.defineProperty(aiTool, 'preview', { value: preview, enumerable: false, writable: true, configurable: true });
  }
  return aiTool;
}

/**
 * A `ToolSet` keyed by tool name: `tools` (a preset: 'read-only', 'anthropic-style', 'editing',
 * 'openai', 'all'; or tool names such as ['edit', 'view']), else the read-only tools (`view`, `grep`) plus
 * every editing tool when `allowEdit: true`. `needsApproval`: see `toAiTool`. Other options are the tool factories' options
 * (`allowedFolders`, `cwd`, `fileTracker`, `protectedPaths`, ...).
 */
function createAiTools(options = {}) {
  const { allowEdit, tools: chosen, needsApproval, ...toolOptions } = ownOptions(options);
  const tools = registry.buildTools(toolOptions, { allowEdit: Boolean(allowEdit), tools: chosen });
  return Object.fromEntries(tools.map((t) => [t.name, toAiTool(t, { needsApproval })]));
}

module.exports = { toAiTool, createAiTools, ...require('./adapter-exports.cjs') };
