// Mastra adapter: a Mastra Agent on the AI SDK's mock model (no network) views a file, fails an
// edit (Mastra reports it as that call's error), edits, greps a tree whose first hit starts with
// "Error" (a success) and finishes.
import { describe, it, expect, afterEach } from 'vitest';
import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV3 } from 'ai/test';
import { createMastraTools, toMastraTool, viewTool } from '../lib/mastra.mjs';
import { makeWorkspace } from './support/workspace.mjs';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const turn = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
const call = (id, toolName, input) => turn([{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }], 'tool-calls');

/** Tool results the model saw in its last prompt, as [callId, type, text]. */
function resultsSeen(prompt) {
  return prompt
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.content)
    .filter((p) => p.type === 'tool-result')
    .map((p) => [p.toolCallId, p.output.type, String(p.output.value)]);
}

describe('edit-engine/mastra', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('a mock model views, fails an edit, edits and greps through a Mastra Agent', async () => {
    ws = makeWorkspace('edit-engine-mastra-');
    ws.write('src/cart.js', 'export function total(items) {\n  return items.length;\n}\n');
    ws.write('ErrorHandling/retry.ts', 'export const retries = 3;\n');
    const script = [
      call('c1', 'view', { path: 'src/cart.js' }),
      call('c2', 'edit', { file_path: 'src/cart.js', old_string: 'items.size', new_string: 'x' }),
      call('c3', 'edit', { file_path: 'src/cart.js', old_string: 'return items.length;', new_string: 'return items.reduce((s, i) => s + i.price, 0);' }),
      call('c4', 'grep', { pattern: 'retries' }),
      turn([{ type: 'text', text: 'done' }], 'stop'),
    ];
    const model = new MockLanguageModelV3({ doGenerate: async () => script.shift() });
    const agent = new Agent({ id: 'editor', name: 'editor', instructions: 'edit', model, tools: createMastraTools({ allowedFolders: [ws.root], cwd: ws.root, tools: 'editing' }) });
    const result = await agent.generate('Make total() sum the prices.', { maxSteps: 8 });

    expect(result.text).toBe('done');
    expect(ws.read('src/cart.js')).toBe('export function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n');
    const seen = resultsSeen(model.doGenerateCalls.at(-1).prompt);
    const byId = Object.fromEntries(seen.map(([id, type, text]) => [id, { type, text }]));
    expect(byId.c1.type).toBe('text');
    expect(byId.c2.type).toBe('error-text');
    expect(byId.c2.text).toContain('String not found');
    expect(byId.c3).toEqual({ type: 'text', text: 'Successfully edited src/cart.js (1 replacement)' });
    expect(byId.c4.type).toBe('text');
    expect(byId.c4.text).toMatch(/^ErrorHandling\/retry\.ts:1:/);
  });

  it('chooses tool sets and wraps any factory', () => {
    expect(Object.keys(createMastraTools({ tools: 'read-only' }))).toEqual(['view', 'grep']);
    expect(Object.keys(createMastraTools({ tools: ['edit', 'view'] }))).toEqual(['view', 'edit']);
    expect(toMastraTool(viewTool()).id).toBe('view');
  });
});
