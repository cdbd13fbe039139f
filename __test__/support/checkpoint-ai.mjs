// The checkpoint scenario through `edit-engine/ai` (shared by the AI SDK 6 and 7 runs): a mock
// model takes a checkpoint, edits a.txt, rewinds to the checkpoint (its id read from the
// checkpoint tool's result in the prompt) and finishes. Returns what the tests check.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const step = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
const call = (id, toolName, input) => step([{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }], 'tool-calls');

/** The checkpoint id a tool result in `seen` (anything the model was sent) names. */
export const checkpointIdIn = (seen) => JSON.stringify(seen).match(/Checkpoint ([0-9a-f]{32})/)[1];

/** `ai`: `{ generateText, stepCountIs, Mock }` of one SDK major; `root`: the workspace. */
export async function runCheckpoints({ ai, createAiTools, root }) {
  writeFileSync(join(root, 'a.txt'), 'v0\n');
  const steps = [
    () => call('c1', 'checkpoint', { label: 'start' }),
    () => call('c2', 'edit', { file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }),
    (prompt) => call('c3', 'rewind', { id: checkpointIdIn(prompt) }),
    () => step([{ type: 'text', text: 'done' }], 'stop'),
  ];
  const model = new ai.Mock({ doGenerate: async ({ prompt }) => steps.shift()(prompt) });
  const tools = createAiTools({ allowedFolders: [root], cwd: root, historyDir: join(root, '.history'), sessionId: 'ai', tools: 'all' });
  const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(6), prompt: 'Try a change, then take it back.' });
  const results = result.steps.flatMap((s) => s.toolResults).map((r) => [r.toolName, String(r.output)]);
  return { text: result.text, served: Object.keys(tools), results, file: readFileSync(join(root, 'a.txt'), 'utf8') };
}
