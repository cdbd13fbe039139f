// AI SDK adapter: a mock language model (no network) drives a multi-step generateText run that
// views a file, edits it through edit-engine's tools, sees the results and finishes.
import { describe, it, expect, afterEach } from 'vitest';
import { createRequire } from 'node:module';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createAiTools, toAiTool } from '../lib/ai.mjs';
import { editTool, editSchema } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const toolCall = (id, toolName, input) => ({
  content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage,
  warnings: [],
});
const finalText = (text) => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage,
  warnings: [],
});

/** Text of every tool result part in a prompt. */
function toolResultsIn(prompt) {
  return prompt
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.content)
    .filter((p) => p.type === 'tool-result')
    .map((p) => ({ name: p.toolName, type: p.output.type, value: p.output.value }));
}

describe('edit-engine/ai', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('a mock model views, edits (one failure, then a retry) and finishes in a multi-step run', async () => {
    ws = makeWorkspace('edit-engine-ai-');
    ws.write('src/cart.js', 'export function total(items) {\n  return items.length;\n}\n');
    const steps = [
      toolCall('c1', 'view', { path: 'src/cart.js' }),
      toolCall('c2', 'edit', { file_path: 'src/cart.js', old_string: 'return items.size;', new_string: 'x' }),
      toolCall('c3', 'edit', {
        file_path: 'src/cart.js',
        old_string: 'return items.length;',
        new_string: 'return items.reduce((s, i) => s + i.price, 0);',
      }),
      finalText('Done: total now sums prices.'),
    ];
    const model = new MockLanguageModelV3({ doGenerate: async () => steps.shift() });

    const result = await generateText({
      model,
      tools: createAiTools({ allowedFolders: [ws.root], cwd: ws.root, allowEdit: true }),
      stopWhen: stepCountIs(6),
      prompt: 'Make total() sum the prices.',
    });

    expect(result.text).toBe('Done: total now sums prices.');
    expect(result.steps).toHaveLength(4);
    expect(ws.read('src/cart.js')).toBe('export function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n');

    // The tools were offered with edit-engine's JSON schemas.
    const offered = Object.fromEntries(model.doGenerateCalls[0].tools.map((t) => [t.name, t]));
    expect(Object.keys(offered).sort()).toEqual(expect.arrayContaining(['create', 'edit', 'edit_file', 'multi_edit', 'view']));
    expect(offered.edit.inputSchema).toEqual(editSchema);

    // Each step saw the previous tool results: the view as text, the failed edit as error text.
    const seen = toolResultsIn(model.doGenerateCalls[3].prompt);
    expect(seen.map((r) => [r.name, r.type])).toEqual([
      ['view', 'text'],
      ['edit', 'error-text'],
      ['edit', 'text'],
    ]);
    expect(seen[0].value).toContain('     2\t  return items.length;');
    expect(seen[1].value).toMatch(/^Error/);
    expect(seen[2].value).toBe('Successfully edited src/cart.js (1 replacement)');
    expect(result.steps[2].toolResults[0].output).toBe('Successfully edited src/cart.js (1 replacement)');
  });

  it('createAiTools is read-only unless allowEdit is set', () => {
    ws = makeWorkspace('edit-engine-ai-');
    const names = Object.keys(createAiTools({ allowedFolders: [ws.root], cwd: ws.root }));
    expect(names).toContain('view');
    expect(names).toContain('grep');
    expect(names).not.toContain('edit');
    expect(names).not.toContain('create');
  });

  it('toAiTool wraps any edit-engine tool; its execute never throws', async () => {
    ws = makeWorkspace('edit-engine-ai-');
    ws.write('a.txt', 'one\n');
    const wrapped = toAiTool(editTool({ allowedFolders: [ws.root], cwd: ws.root }));
    expect(wrapped.description).toContain('edit');
    const ok = await wrapped.execute({ file_path: 'a.txt', old_string: 'one', new_string: 'two' }, { toolCallId: 't', messages: [] });
    expect(ok).toBe('Successfully edited a.txt (1 replacement)');
    const thrower = toAiTool({ name: 'x', description: 'x', inputSchema: { type: 'object', properties: {}, required: [] }, execute: async () => { throw new Error('boom'); } });
    await expect(thrower.execute({}, { toolCallId: 't', messages: [] })).resolves.toBe('Error: boom');
  });

  it('is loadable from require()', () => {
    const require = createRequire(import.meta.url);
    const cjs = require('../lib/ai.cjs');
    expect(typeof cjs.createAiTools).toBe('function');
    expect(typeof cjs.toAiTool).toBe('function');
  });
});
