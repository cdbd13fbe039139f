// README's Mastra example under tsc --strict, without a cast.
import { Agent } from '@mastra/core/agent';
import type { MastraLanguageModel } from '@mastra/core/agent';
import { createMastraTools } from 'edit-engine/mastra';

declare const model: MastraLanguageModel;
const root = '/repo';

const agent = new Agent({
  id: 'editor',
  name: 'editor',
  instructions: 'Edit files in the repo.',
  model,
  tools: createMastraTools({ allowedFolders: [root], cwd: root, tools: 'editing' }),
});

export async function go(): Promise<string> {
  const result = await agent.generate('Rename foo to bar in src/a.js', { maxSteps: 10 });
  return result.text;
}
