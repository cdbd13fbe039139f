// Approval in the frameworks: with `needsApproval`, a writing call waits for the host; the host
// shows the call's preview (`tools.edit.preview(input, { toolCallId })`); approved, exactly that
// change lands; denied, nothing is written; a file changed in between refuses the approved call.
import { describe, it, expect, afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, Runner, setTracingDisabled } from '@openai/agents';
import { createAiTools } from '../lib/ai.mjs';
import { createOpenAiTools } from '../lib/openai.mjs';
import { runApproval } from './support/approval-ai.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { functionCall as call, say, scriptedModel } from './support/openai-model.mjs';

setTracingDisabled(true);

const BEFORE = 'export function total(items) {\n  return items.length;\n}\n';
const AFTER = 'export function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n';
const CHANGED = 'export const changed = true;\n';

/** What every run of the approval scenario shows, whatever the answer. */
function expectAsked(out) {
  // The SDK asks again before it runs an approved call; the preview stays the one first shown.
  expect(out.asked[0]).toEqual(['src/cart.js', 'c1']);
  expect(out.asked.every(([path, id]) => path === 'src/cart.js' && id === 'c1')).toBe(true);
  expect(out.requestCall).toBe('c1');
  expect(out.fileWhileAsked).toBe(BEFORE);
  expect(out.shown).toMatchObject({ ok: true, files: [{ path: 'src/cart.js', action: 'update', additions: 1, deletions: 1 }] });
  expect(out.shown.files[0].diff).toContain('+  return items.reduce((s, i) => s + i.price, 0);');
}

describe.each([
  ['AI SDK 6', async (root, scenario) => runApproval({
    ai: { generateText, stepCountIs, Mock: MockLanguageModelV3 },
    createAiTools,
    root,
    approved: scenario !== 'deny',
    between: scenario === 'change' ? (file) => writeFileSync(file, CHANGED) : undefined,
  })],
  ['AI SDK 7', async (root, scenario) => {
    const script = fileURLToPath(new URL('./support/approval-ai-v7.mjs', import.meta.url));
    const out = JSON.parse(execFileSync(process.execPath, [script, root, scenario], { encoding: 'utf8' }));
    expect(out.version).toMatch(/^7\./);
    return out;
  }],
])('needsApproval with the %s', (_label, run) => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('approved: exactly the previewed change lands', async () => {
    ws = makeWorkspace('edit-engine-approval-');
    const out = await run(ws.root, 'approve');
    expectAsked(out);
    expect(out.file).toBe(AFTER);
    expect(out.toModel).toEqual([{ type: 'text', value: out.shown.text }]);
  }, 60_000);

  it('denied: nothing is written', async () => {
    ws = makeWorkspace('edit-engine-approval-');
    const out = await run(ws.root, 'deny');
    expectAsked(out);
    expect(out.file).toBe(BEFORE);
    expect(out.toModel).toEqual([{ type: 'execution-denied' }]);
  }, 60_000);

  it('the file changed between preview and approval: refused, the change kept', async () => {
    ws = makeWorkspace('edit-engine-approval-');
    const out = await run(ws.root, 'change');
    expectAsked(out);
    expect(out.file).toBe(CHANGED);
    expect(out.toModel).toHaveLength(1);
    expect(out.toModel[0].type).toBe('error-text');
    expect(out.toModel[0].value).toContain('src/cart.js changed since the preview. Nothing was written. Re-read the file and re-send the call.');
  }, 60_000);
});

describe('needsApproval with the OpenAI Agents SDK', () => {
  let ws;
  afterEach(() => ws?.cleanup());
  const editArgs = { file_path: 'src/cart.js', old_string: 'return items.length;', new_string: 'return items.reduce((s, i) => s + i.price, 0);', replace_all: null, symbol: null, position: null, start_line: null, end_line: null };

  /** Runs until the approval request, shows the preview, runs `between`, answers, resumes. */
  async function scenario(answer, between = () => {}) {
    ws = makeWorkspace('edit-engine-approval-');
    ws.write('src/cart.js', BEFORE);
    const asked = [];
    const tools = createOpenAiTools({
      allowedFolders: [ws.root], cwd: ws.root, tools: 'editing',
      needsApproval: async (_context, input, callId) => {
        asked.push([input.file_path, callId]);
        return true;
      },
    });
    const { model, requests } = scriptedModel([call('c1', 'edit', editArgs), say('done')]);
    const agent = new Agent({ name: 'editor', instructions: 'edit', model, tools });
    const runner = new Runner();
    const first = await runner.run(agent, 'Make total() sum the prices.', { maxTurns: 6 });
    expect(first.interruptions).toHaveLength(1);
    const item = first.interruptions[0];
    const edit = tools.find((t) => t.name === 'edit');
    const shown = await edit.preview(JSON.parse(item.rawItem.arguments), { toolCallId: item.rawItem.callId });
    expect(ws.read('src/cart.js')).toBe(BEFORE);
    between();
    if (answer) first.state.approve(item);
    else first.state.reject(item);
    const second = await runner.run(agent, first.state, { maxTurns: 6 });
    const outputs = requests.at(-1).input.filter((i) => i.type === 'function_call_result').map((i) => i.output.text ?? i.output);
    return { asked, shown, second, outputs };
  }

  it('approved: exactly the previewed change lands', async () => {
    const { asked, shown, second, outputs } = await scenario(true);
    expect(asked).toEqual([['src/cart.js', 'c1']]);
    expect(shown.files).toMatchObject([{ path: 'src/cart.js', action: 'update' }]);
    expect(second.finalOutput).toBe('done');
    expect(ws.read('src/cart.js')).toBe(AFTER);
    expect(outputs).toEqual([shown.text]);
  });

  it('denied: nothing is written', async () => {
    const { outputs } = await scenario(false);
    expect(ws.read('src/cart.js')).toBe(BEFORE);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).not.toContain('Successfully');
  });

  it('the file changed between preview and approval: refused, the change kept', async () => {
    const { outputs } = await scenario(true, () => ws.write('src/cart.js', CHANGED));
    expect(ws.read('src/cart.js')).toBe(CHANGED);
    expect(outputs[0]).toContain('src/cart.js changed since the preview. Nothing was written.');
  });
});
