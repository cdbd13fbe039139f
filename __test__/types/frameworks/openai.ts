// README's OpenAI Agents example (the lines between the `README example` markers, copied verbatim
// into README.md; __test__/readme.test.mjs checks the copy) under tsc --strict, without a cast.
// README example: begin
import { Agent, run } from '@openai/agents';
import { createOpenAiTools } from 'edit-engine/openai';

export async function renameFoo(root: string): Promise<unknown> {
  const agent = new Agent({ name: 'editor', instructions: 'Edit files in the repo.', tools: createOpenAiTools({ allowedFolders: [root], cwd: root, tools: 'editing' }) });
  const result = await run(agent, 'Rename foo to bar in src/a.js');
  return result.finalOutput;
}
// README example: end

import { tool, type Tool } from '@openai/agents';
import { toOpenAiTool, viewTool, editTool } from 'edit-engine/openai';

const root = '/repo';
const tools: Tool[] = createOpenAiTools({ allowedFolders: [root], cwd: root, tools: 'editing' });
export const more = new Agent({ name: 'editor', instructions: 'x', tools: [...tools, toOpenAiTool(viewTool({ cwd: root }))] });
// A tool's own schema fits `tool()`'s strict parameters as it is.
const edit = editTool({ cwd: root });
export const custom = tool({ name: edit.name, description: edit.description, parameters: edit.inputSchema, strict: true, execute: async (input) => edit.execute(input as never) });

// Approval: `needsApproval` as a boolean or the SDK's approval function; the host shows the
// preview planned for the call.
const gated = createOpenAiTools({ allowedFolders: [root], tools: 'editing', needsApproval: async (_context, _input, callId) => callId !== undefined });
export const approving = new Agent({ name: 'editor', instructions: 'x', tools: gated });
export async function showApproval(callId: string, input: unknown): Promise<number> {
  const editing = gated.find((t) => t.name === 'edit');
  const shown = await editing?.preview?.(input, { toolCallId: callId });
  return shown ? shown.files.length : 0;
}
