// README's example of the engine as the OpenAI Agents SDK's apply_patch editor (the lines between the
// `README example` markers, copied verbatim into README.md) under tsc --strict, without a cast.
// README example: begin
import { Agent, applyPatchTool } from '@openai/agents';
import { createEditor } from 'edit-engine/openai';

const editor = createEditor({ allowedFolders: ['/repo'], cwd: '/repo' });
export const patcher = new Agent({ name: 'patcher', instructions: 'Patch files in the repo.', tools: [applyPatchTool({ editor })] });
// README example: end

import { run, type ApplyPatchResult, type Editor } from '@openai/agents';

// createEditor's value is the SDK's Editor, and its results are the SDK's ApplyPatchResult.
const asEditor: Editor = editor;
export async function patch(): Promise<[unknown, ApplyPatchResult, 'completed' | 'failed']> {
  const direct = await asEditor.deleteFile({ type: 'delete_file', path: 'tmp.txt' });
  const created = await editor.createFile({ type: 'create_file', path: 'a.txt', diff: '+hello\n' });
  const result = await run(patcher, 'Add a greeting');
  return [result.finalOutput, direct ?? created, created.status];
}
