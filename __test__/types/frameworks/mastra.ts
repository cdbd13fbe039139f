// README's Mastra example (the lines between the `README example` markers, copied verbatim into
// README.md; __test__/readme.test.mjs checks the copy) under tsc --strict, without a cast.
// README example: begin
import { Agent, type MastraLanguageModel } from '@mastra/core/agent';
import { createMastraTools } from 'edit-engine/mastra';

export async function renameFoo(model: MastraLanguageModel, root: string): Promise<string> {
  const tools = createMastraTools({ allowedFolders: [root], cwd: root, tools: 'editing' });
  const agent = new Agent({ id: 'editor', name: 'editor', instructions: 'Edit files in the repo.', model, tools });
  const { text } = await agent.generate('Rename foo to bar in src/a.js', { maxSteps: 10 });
  return text;
}
// README example: end

// The 'all' preset serves the session tools too (unless the undo history is off).
const everything = createMastraTools({ allowedFolders: ['/repo'], tools: 'all' });
export const sessionTools: EditEngineMastraTool[] = [everything.checkpoint, everything.rewind, everything.edit];
// @ts-expect-error without the undo history there is nothing to rewind from
createMastraTools({ tools: 'all', history: false }).checkpoint;
import type { EditEngineMastraTool } from 'edit-engine/mastra';
