// README's OpenAI Agents example under tsc --strict, without a cast.
import { Agent, applyPatchTool, run, tool, type ApplyPatchResult, type Editor, type Tool } from '@openai/agents';
import { createEditor, createOpenAiTools, toOpenAiTool, viewTool, editTool } from 'edit-engine/openai';

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

// The engine as the SDK's apply_patch editor (README example), without a cast.
const editor = createEditor({ allowedFolders: [root], cwd: root });
const patchAgent = new Agent({ name: 'patcher', instructions: 'Patch files in the repo.', tools: [applyPatchTool({ editor })] });
const asEditor: Editor = editor;
export async function patch(): Promise<[unknown, ApplyPatchResult, 'completed' | 'failed']> {
  const direct = await asEditor.deleteFile({ type: 'delete_file', path: 'tmp.txt' });
  const created = await editor.createFile({ type: 'create_file', path: 'a.txt', diff: '+hello\n' });
  const result = await run(patchAgent, 'Add a greeting');
  return [result.finalOutput, direct ?? created, created.status];
}
