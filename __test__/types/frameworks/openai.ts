// README's OpenAI Agents example under tsc --strict, without a cast.
import { Agent, run, tool, type Tool } from '@openai/agents';
import { createOpenAiTools, toOpenAiTool, viewTool, editTool } from 'edit-engine/openai';

const root = '/repo';
const tools: Tool[] = createOpenAiTools({ allowedFolders: [root], cwd: root, tools: 'editing' });
const agent = new Agent({ name: 'editor', instructions: 'Edit files in the repo.', tools: [...tools, toOpenAiTool(viewTool({ cwd: root }))] });
// A tool's own schema fits `tool()`'s strict parameters as it is.
const edit = editTool({ cwd: root });
const custom = tool({ name: edit.name, description: edit.description, parameters: edit.inputSchema, strict: true, execute: async (input) => edit.execute(input as never) });

export async function go(): Promise<unknown> {
  const result = await run(agent, 'Rename foo to bar in src/a.js');
  return [result.finalOutput, custom];
}
