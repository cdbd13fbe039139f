'use strict';
// Vercel AI SDK adapter: edit-engine tools as `ai` tools (`tool()` + `jsonSchema()`), ready for
// `generateText({ tools })` / `streamText({ tools })`. The tool's JSON schema is its input schema;
// `execute` resolves to the tool's message and never throws, and a message starting with "Error"
// reaches the model as error text.

const { requirePeer } = require('./peer.cjs');

const ai = requirePeer('ai', { peer: 'ai', range: require('../package.json').peerDependencies.ai, entry: 'edit-engine/ai', what: 'the Vercel AI SDK' });
const registry = require('./registry.cjs');

const isError = (text) => typeof text === 'string' && text.startsWith('Error');

/** Wraps one edit-engine tool object (`{ description, inputSchema, execute }`) as an `ai` tool. */
function toAiTool(engineTool) {
  return ai.tool({
    description: engineTool.description,
    inputSchema: ai.jsonSchema(engineTool.inputSchema),
    execute: async (input) => {
      try {
        return await engineTool.execute(input);
      } catch (error) {
        return `Error: ${error && error.message ? error.message : String(error)}`;
      }
    },
    toModelOutput: ({ output }) => ({ type: isError(output) ? 'error-text' : 'text', value: String(output) }),
  });
}

/**
 * A `ToolSet` keyed by tool name: the read-only tools (`view`, and `grep` when available), plus
 * the editing tools when `allowEdit: true`. Other options are the tool factories' options
 * (`allowedFolders`, `cwd`, `fileTracker`, `protectedPaths`, ...).
 */
function createAiTools(options = {}) {
  const { allowEdit, ...toolOptions } = options && typeof options === 'object' ? options : {};
  const tools = registry.buildTools(toolOptions, { allowEdit: Boolean(allowEdit) });
  return Object.fromEntries(tools.map((t) => [t.name, toAiTool(t)]));
}

module.exports = { toAiTool, createAiTools };
