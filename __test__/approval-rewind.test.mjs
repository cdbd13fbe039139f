// Approval of rewinds in the frameworks: with `needsApproval`, a model's `rewind` call waits for
// the host like any writing call; the host shows its preview (`tools.rewind.preview(input, {
// toolCallId })`: the files it puts back and their diffs); approved, exactly that lands;
// denied, nothing is written; a file changed in between refuses it. `checkpoint` writes nothing
// in the workspace and never asks.
import { describe, it, expect, afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, Runner, setTracingDisabled } from '@openai/agents';
import * as lib from '../lib/index.mjs';
import { createAiTools } from '../lib/ai.mjs';
import { createOpenAiTools } from '../lib/openai.mjs';
import { runRewindApproval } from './support/approval-ai.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { functionCall as call, say, scriptedModel } from './support/openai-model.mjs';

setTracingDisabled(true);

const BEFORE = 'export function total(items) {\n  return items.length;\n}\n';
const AFTER = 'export function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n';
const CHANGED = 'export const changed = true;\n';

/** What every run shows, whatever the answer: the rewind asked, its preview the file put back. */
function expectAsked(out) {
  expect(out.edited).toMatch(/^Success/);
  expect(out.checkpointAsks).toBe(false);
  expect(out.asked[0]).toEqual([out.checkpointId, 'c1']);
  expect(out.requestCall).toBe('c1');
  expect(out.fileWhileAsked).toBe(AFTER);
  expect(out.shown).toMatchObject({ ok: true, files: [{ path: 'src/cart.js', action: 'update', additions: 1, deletions: 1 }] });
  expect(out.shown.files[0].diff).toContain('+  return items.length;');
  expect(out.shown.files[0].diff).toContain('-  return items.reduce((s, i) => s + i.price, 0);');
}

describe.each([
  ['AI SDK 6', async (root, scenario) => runRewindApproval({
    ai: { generateText, stepCountIs, Mock: MockLanguageModelV3 },
    createAiTools,
    lib,
    root,
    approved: scenario !== 'deny',
    between: scenario === 'change' ? (file) => writeFileSync(file, CHANGED) : undefined,
  })],
  ['AI SDK 7', async (root, scenario) => {
    const script = fileURLToPath(new URL('./support/approval-ai-v7.mjs', import.meta.url));
    const out = JSON.parse(execFileSync(process.execPath, [script, root, scenario, 'rewind'], { encoding: 'utf8' }));
    expect(out.version).toMatch(/^7\./);
    return out;
  }],
])('needsApproval gates rewind with the %s', (_label, run) => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('approved: exactly the previewed rewind lands, after a checkpoint that undoes it', async () => {
    ws = makeWorkspace('edit-engine-rewind-approval-');
    const out = await run(ws.root, 'approve');
    expectAsked(out);
    expect(out.file).toBe(BEFORE);
    expect(out.toModel).toHaveLength(1);
    expect(out.toModel[0].type).toBe('text');
    expect(out.toModel[0].value).toContain(`Rewound 1 file to checkpoint ${out.checkpointId}`);
    expect(out.toModel[0].value).toContain('was taken before this rewind');
    expect(out.checkpoints).toBe(2);
  }, 60_000);

  it('denied: nothing is written', async () => {
    ws = makeWorkspace('edit-engine-rewind-approval-');
    const out = await run(ws.root, 'deny');
    expectAsked(out);
    expect(out.file).toBe(AFTER);
    expect(out.toModel).toEqual([{ type: 'execution-denied' }]);
    expect(out.checkpoints).toBe(1);
  }, 60_000);

  it('the file changed between preview and approval: refused, the change kept', async () => {
    ws = makeWorkspace('edit-engine-rewind-approval-');
    const out = await run(ws.root, 'change');
    expectAsked(out);
    expect(out.file).toBe(CHANGED);
    expect(out.toModel).toHaveLength(1);
    expect(out.toModel[0].type).toBe('error-text');
    expect(out.toModel[0].value).toContain('src/cart.js changed since the preview. Nothing was written.');
    expect(out.checkpoints).toBe(1);
  }, 60_000);
});

describe('needsApproval gates rewind with the OpenAI Agents SDK', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  /** The session edits after a checkpoint; the model rewinds; the host shows the preview, runs `between`, answers. */
  async function scenario(answer, between = () => {}) {
    ws = makeWorkspace('edit-engine-rewind-approval-');
    ws.write('src/cart.js', BEFORE);
    const options = { allowedFolders: [ws.root], cwd: ws.root, historyDir: join(ws.root, '.history'), sessionId: 'rewind-openai' };
    const checkpoint = await lib.createCheckpoints(options).create();
    const edited = await lib.editTool(options).execute({ file_path: 'src/cart.js', old_string: 'return items.length;', new_string: 'return items.reduce((s, i) => s + i.price, 0);' });
    expect(edited).toMatch(/^Success/);
    const asked = [];
    const tools = createOpenAiTools({
      ...options, tools: 'all',
      needsApproval: async (_context, input, callId) => {
        asked.push([input.id, callId]);
        return true;
      },
    });
    const { model, requests } = scriptedModel([call('c1', 'rewind', { id: checkpoint.id, dry_run: null, on_conflict: null }), say('done')]);
    const agent = new Agent({ name: 'editor', instructions: 'edit', model, tools });
    const runner = new Runner();
    const first = await runner.run(agent, 'Undo your changes.', { maxTurns: 6 });
    expect(first.interruptions).toHaveLength(1);
    const item = first.interruptions[0];
    const rewind = tools.find((t) => t.name === 'rewind');
    const shown = await rewind.preview(JSON.parse(item.rawItem.arguments), { toolCallId: item.rawItem.callId });
    expect(ws.read('src/cart.js')).toBe(AFTER);
    between();
    if (answer) first.state.approve(item);
    else first.state.reject(item);
    const second = await runner.run(agent, first.state, { maxTurns: 6 });
    const outputs = requests.at(-1).input.filter((i) => i.type === 'function_call_result').map((i) => i.output.text ?? i.output);
    return { asked, checkpoint, shown, second, outputs };
  }

  it('approved: exactly the previewed rewind lands', async () => {
    const { asked, checkpoint, shown, second, outputs } = await scenario(true);
    expect(asked).toEqual([[checkpoint.id, 'c1']]);
    expect(shown.files).toMatchObject([{ path: 'src/cart.js', action: 'update' }]);
    expect(shown.files[0].diff).toContain('+  return items.length;');
    expect(second.finalOutput).toBe('done');
    expect(ws.read('src/cart.js')).toBe(BEFORE);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toContain(`Rewound 1 file to checkpoint ${checkpoint.id}`);
  });

  it('denied: nothing is written', async () => {
    const { outputs } = await scenario(false);
    expect(ws.read('src/cart.js')).toBe(AFTER);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).not.toContain('Rewound');
  });

  it('the file changed between preview and approval: refused, the change kept', async () => {
    const { outputs } = await scenario(true, () => ws.write('src/cart.js', CHANGED));
    expect(ws.read('src/cart.js')).toBe(CHANGED);
    expect(outputs[0]).toContain('src/cart.js changed since the preview. Nothing was written.');
  });
});

describe('the MCP server keeps the rewind tool its own dry_run', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('dry_run: true answers the rewind dry run and writes nothing; the rewind then lands', async () => {
    ws = makeWorkspace('edit-engine-rewind-mcp-');
    ws.write('a.txt', 'v0\n');
    const { createMcpServer } = await import('../lib/mcp.mjs');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const server = createMcpServer({ root: ws.root, allowEdit: true, tools: 'all', historyDir: join(ws.root, '.history'), sessionId: 'mcp-rewind' });
    const client = new Client({ name: 'rewind-dry-run-test', version: '0.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const taken = await client.callTool({ name: 'checkpoint', arguments: {} });
    const id = taken.content[0].text.match(/^Checkpoint ([0-9a-f]{32}) taken/)[1];
    await client.callTool({ name: 'edit', arguments: { file_path: 'a.txt', old_string: 'v0', new_string: 'v1' } });
    const dry = await client.callTool({ name: 'rewind', arguments: { id, dry_run: true } });
    expect(dry.isError).toBe(false);
    expect(dry.content[0].text).toMatch(/^Rewinding to checkpoint [0-9a-f]{32} would change 1 file: a\.txt put back\. Nothing was written \(dry run\)\.$/);
    expect(ws.read('a.txt')).toBe('v1\n');
    const real = await client.callTool({ name: 'rewind', arguments: { id } });
    expect(real.isError, real.content[0].text).toBe(false);
    expect(ws.read('a.txt')).toBe('v0\n');
    await client.close();
  });
});
