// The checkpoint and rewind tools through every framework adapter: served with the 'all' preset
// (not with smaller ones, nor with the history off); a scripted model takes a checkpoint, edits a
// file and rewinds to the checkpoint (its id read from the checkpoint tool's result), and the
// file is back as it was.
import { describe, it, expect, afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, Runner, Usage, setTracingDisabled } from '@openai/agents';
import { Agent as MastraAgent } from '@mastra/core/agent';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createAiTools } from '../lib/ai.mjs';
import { createOpenAiTools } from '../lib/openai.mjs';
import { createLangChainTools } from '../lib/langchain.mjs';
import { createMastraTools } from '../lib/mastra.mjs';
import { runCheckpoints, checkpointIdIn } from './support/checkpoint-ai.mjs';
import { functionCall, say } from './support/openai-model.mjs';
import { makeWorkspace } from './support/workspace.mjs';

setTracingDisabled(true);

let ws;
afterEach(() => ws?.cleanup());

/** A workspace holding a.txt and the options of tools over it (own history store and session). */
function setUp(sessionId) {
  ws = makeWorkspace('edit-engine-adapter-checkpoints-');
  ws.write('a.txt', 'v0\n');
  return { allowedFolders: [ws.root], cwd: ws.root, historyDir: join(ws.root, '.history'), sessionId };
}

const REWOUND = /^Rewound 1 file to checkpoint [0-9a-f]{32} \("start"\): a\.txt put back\./;

describe('checkpoint and rewind in the adapters', () => {
  it('only the all preset with the history on serves them', () => {
    const options = setUp('names');
    const names = (tools) => tools.map((t) => t.name);
    expect(names(createOpenAiTools({ ...options, tools: 'all' })).slice(-2)).toEqual(['checkpoint', 'rewind']);
    expect(names(createOpenAiTools({ ...options, tools: 'editing' }))).not.toContain('checkpoint');
    expect(names(createOpenAiTools({ ...options, allowEdit: true }))).not.toContain('rewind');
    expect(names(createOpenAiTools({ ...options, tools: 'all', history: false }))).not.toContain('checkpoint');
    expect(names(createLangChainTools({ ...options, tools: 'all' })).slice(-2)).toEqual(['checkpoint', 'rewind']);
    expect(Object.keys(createMastraTools({ ...options, tools: 'all' })).slice(-2)).toEqual(['checkpoint', 'rewind']);
    expect(Object.keys(createAiTools({ ...options, tools: 'all' })).slice(-2)).toEqual(['checkpoint', 'rewind']);
  });

  it.each([
    ['AI SDK 6', async (root) => runCheckpoints({ ai: { generateText, stepCountIs, Mock: MockLanguageModelV3 }, createAiTools, root })],
    ['AI SDK 7', async (root) => {
      const script = fileURLToPath(new URL('./support/checkpoint-ai-v7.mjs', import.meta.url));
      const out = JSON.parse(execFileSync(process.execPath, [script, root], { encoding: 'utf8' }));
      expect(out.version).toMatch(/^7\./);
      return out;
    }],
  ])('%s: a model checkpoints, edits and rewinds', async (_label, run) => {
    setUp('ai');
    const out = await run(ws.root);
    expect(out.served.slice(-2)).toEqual(['checkpoint', 'rewind']);
    expect(out.results.map(([name]) => name)).toEqual(['checkpoint', 'edit', 'rewind']);
    expect(out.results[0][1]).toMatch(/^Checkpoint [0-9a-f]{32} \("start"\) taken\./);
    expect(out.results[2][1]).toMatch(REWOUND);
    expect(out.text).toBe('done');
    expect(out.file).toBe('v0\n');
  });

  it('OpenAI Agents: a model checkpoints, edits and rewinds', async () => {
    const options = setUp('openai');
    const edit = { file_path: 'a.txt', old_string: 'v0', new_string: 'v1', replace_all: null, symbol: null, position: null, start_line: null, end_line: null };
    const outputs = [
      () => functionCall('c1', 'checkpoint', { label: 'start' }),
      () => functionCall('c2', 'edit', edit),
      (request) => functionCall('c3', 'rewind', { id: checkpointIdIn(request.input), dry_run: null, on_conflict: null }),
      () => say('done'),
    ];
    const requests = [];
    const model = {
      async getResponse(request) {
        requests.push(request);
        return { usage: new Usage(), output: [outputs.shift()(request)], responseId: `r${requests.length}` };
      },
      async *getStreamedResponse() {
        throw new Error('not used');
      },
    };
    const agent = new Agent({ name: 'editor', instructions: 'edit', model, tools: createOpenAiTools({ ...options, tools: 'all' }) });
    const result = await new Runner().run(agent, 'Try a change, then take it back.', { maxTurns: 8 });
    expect(result.finalOutput).toBe('done');
    const seen = Object.fromEntries(
      requests.at(-1).input.filter((i) => i.type === 'function_call_result').map((i) => [i.callId, i.output.text ?? i.output]),
    );
    expect(seen.c2).toBe('Successfully edited a.txt (1 replacement)');
    expect(seen.c3).toMatch(REWOUND);
    expect(ws.read('a.txt')).toBe('v0\n');
  });

  it('LangChain: a model checkpoints, edits and rewinds', async () => {
    const options = setUp('langchain');
    class Scripted extends BaseChatModel {
      constructor(replies) {
        super({});
        this.replies = replies;
      }
      _llmType() {
        return 'scripted';
      }
      bindTools() {
        return this;
      }
      async _generate(messages) {
        return { generations: [{ message: this.replies.shift()(messages), text: '' }] };
      }
    }
    const calls = (id, name, args) => () => new AIMessage({ content: '', tool_calls: [{ id, name, args, type: 'tool_call' }] });
    const model = new Scripted([
      calls('c1', 'checkpoint', { label: 'start' }),
      calls('c2', 'edit', { file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }),
      (messages) => calls('c3', 'rewind', { id: checkpointIdIn(messages.map((m) => m.content)) })(),
      () => new AIMessage('done'),
    ]);
    const tools = createLangChainTools({ ...options, tools: 'all' });
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const messages = [new HumanMessage('Try a change, then take it back.')];
    for (let turn = 0; turn < 6; turn++) {
      const reply = await model.invoke(messages);
      messages.push(reply);
      if (!reply.tool_calls || reply.tool_calls.length === 0) break;
      for (const call of reply.tool_calls) messages.push(await byName[call.name].invoke(call));
    }
    const results = Object.fromEntries(messages.filter((m) => ToolMessage.isInstance(m)).map((m) => [m.tool_call_id, m]));
    expect(results.c3.status).toBe('success');
    expect(results.c3.content).toMatch(REWOUND);
    expect(messages.at(-1).content).toBe('done');
    expect(ws.read('a.txt')).toBe('v0\n');
  });

  it('Mastra: a model checkpoints, edits and rewinds', async () => {
    const options = setUp('mastra');
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const turn = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
    const call = (id, toolName, input) => turn([{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }], 'tool-calls');
    const script = [
      () => call('c1', 'checkpoint', { label: 'start' }),
      () => call('c2', 'edit', { file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }),
      (prompt) => call('c3', 'rewind', { id: checkpointIdIn(prompt) }),
      () => turn([{ type: 'text', text: 'done' }], 'stop'),
    ];
    const model = new MockLanguageModelV3({ doGenerate: async ({ prompt }) => script.shift()(prompt) });
    const agent = new MastraAgent({ id: 'editor', name: 'editor', instructions: 'edit', model, tools: createMastraTools({ ...options, tools: 'all' }) });
    const result = await agent.generate('Try a change, then take it back.', { maxSteps: 6 });
    expect(result.text).toBe('done');
    const seen = model.doGenerateCalls.at(-1).prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content);
    const rewound = seen.find((p) => p.toolCallId === 'c3');
    expect(String(rewound.output.value)).toMatch(REWOUND);
    expect(ws.read('a.txt')).toBe('v0\n');
  });
});
