// LangChain adapter: a scripted chat model (a real BaseChatModel, no network) drives the usual
// tool loop (model -> tool calls -> ToolMessages -> model): a view, a failed edit (a ToolMessage
// with status 'error'), an edit, and a grep whose first hit starts with "Error" (a success).
import { describe, it, expect, afterEach } from 'vitest';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { isStructuredTool } from '@langchain/core/tools';
import { createLangChainTools, toLangChainTool, viewTool } from '../lib/langchain.mjs';
import { makeWorkspace } from './support/workspace.mjs';

class ScriptedChatModel extends BaseChatModel {
  constructor(replies) {
    super({});
    this.replies = replies;
    this.seen = [];
    this.bound = [];
  }
  _llmType() {
    return 'scripted';
  }
  bindTools(tools) {
    this.bound = tools.map((t) => t.name);
    return this;
  }
  async _generate(messages) {
    this.seen.push(messages);
    return { generations: [{ message: this.replies.shift(), text: '' }] };
  }
}

const calls = (...list) => new AIMessage({ content: '', tool_calls: list.map(([id, name, args]) => ({ id, name, args, type: 'tool_call' })) });

/** The plain tool loop of LangChain's docs: run the model until it stops calling tools. */
async function runLoop(model, tools, prompt) {
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const bound = model.bindTools(tools);
  const messages = [new HumanMessage(prompt)];
  for (let turn = 0; turn < 8; turn++) {
    const reply = await bound.invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls || reply.tool_calls.length === 0) return messages;
    for (const call of reply.tool_calls) messages.push(await byName[call.name].invoke(call));
  }
  throw new Error('too many turns');
}

describe('edit-engine/langchain', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('a scripted model views, fails an edit, edits and greps; failures are ToolMessages with status error', async () => {
    ws = makeWorkspace('edit-engine-langchain-');
    ws.write('src/cart.js', 'export function total(items) {\n  return items.length;\n}\n');
    ws.write('ErrorHandling/retry.ts', 'export const retries = 3;\n');
    const model = new ScriptedChatModel([
      calls(['c1', 'view', { path: 'src/cart.js' }]),
      calls(['c2', 'edit', { file_path: 'src/cart.js', old_string: 'items.size', new_string: 'x' }]),
      calls(['c3', 'edit', { file_path: 'src/cart.js', old_string: 'return items.length;', new_string: 'return items.reduce((s, i) => s + i.price, 0);' }], ['c4', 'grep', { pattern: 'retries' }]),
      new AIMessage('done'),
    ]);
    const tools = createLangChainTools({ allowedFolders: [ws.root], cwd: ws.root, tools: 'editing' });
    expect(tools.every((t) => isStructuredTool(t))).toBe(true);
    const messages = await runLoop(model, tools, 'Make total() sum the prices.');

    expect(model.bound).toEqual(['view', 'grep', 'edit', 'create']);
    expect(ws.read('src/cart.js')).toBe('export function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n');
    const results = Object.fromEntries(messages.filter((m) => ToolMessage.isInstance(m)).map((m) => [m.tool_call_id, m]));
    expect(results.c1.status).toBe('success');
    expect(results.c1.content).toContain('     2\t  return items.length;');
    expect(results.c2.status).toBe('error');
    expect(results.c2.content).toMatch(/^Error editing file: String not found/);
    expect(results.c3.status).toBe('success');
    expect(results.c3.content).toBe('Successfully edited src/cart.js (1 replacement)');
    expect(results.c4.status).toBe('success');
    expect(results.c4.content).toMatch(/^ErrorHandling\/retry\.ts:1:/);
    expect(messages.at(-1).content).toBe('done');
  });

  it('invoked with bare arguments, a tool returns its message and never throws', async () => {
    ws = makeWorkspace('edit-engine-langchain-');
    ws.write('a.txt', 'one\n');
    const view = toLangChainTool(viewTool({ allowedFolders: [ws.root], cwd: ws.root }));
    expect(await view.invoke({ path: 'a.txt' })).toContain('     1\tone');
    expect(await view.invoke({ path: 'nope.txt' })).toMatch(/^Error/);
    expect(createLangChainTools({ tools: 'anthropic-style' }).map((t) => t.name)).toEqual(['str_replace_based_edit_tool']);
  });
});
