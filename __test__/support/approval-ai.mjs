// A scripted AI SDK run with approval (shared by the AI SDK 6 and 7 checks): the mock model
// edits a file; the edit needs approval; the host shows the call's preview, then `between`
// runs (e.g. the file changes) and the host answers `approved`. Resolves to what the test checks.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const step = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
const call = (id, toolName, input) => step([{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }], 'tool-calls');

/**
 * `ai`: `{ generateText, stepCountIs, Mock }` of one AI SDK major; `createAiTools`: edit-engine's
 * adapter loaded against that major; `root`: an empty workspace.
 */
export async function runApproval({ ai, createAiTools, root, approved, between = () => {} }) {
  mkdirSync(join(root, 'src'), { recursive: true });
  const file = join(root, 'src', 'cart.js');
  writeFileSync(file, 'export function total(items) {\n  return items.length;\n}\n');
  const input = { file_path: 'src/cart.js', old_string: 'return items.length;', new_string: 'return items.reduce((s, i) => s + i.price, 0);' };
  const steps = [call('c1', 'edit', input), step([{ type: 'text', text: 'Done.' }], 'stop')];
  const model = new ai.Mock({ doGenerate: async () => steps.shift() });
  const asked = [];
  const tools = createAiTools({
    allowedFolders: [root], cwd: root, historyDir: join(root, '.history'), allowEdit: true,
    needsApproval: (callInput, options) => {
      asked.push([callInput.file_path, options.toolCallId]);
      return true;
    },
  });
  const prompt = [{ role: 'user', content: 'Make total() sum the prices.' }];
  const first = await ai.generateText({ model, tools, messages: prompt, stopWhen: ai.stepCountIs(4) });
  const request = first.content.find((p) => p.type === 'tool-approval-request');
  const shown = await tools.edit.preview(request.toolCall.input, { toolCallId: request.toolCall.toolCallId });
  const fileWhileAsked = readFileSync(file, 'utf8');
  between(file);
  const answer = { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved }] };
  await ai.generateText({ model, tools, messages: [...prompt, ...first.response.messages, answer], stopWhen: ai.stepCountIs(4) });
  const lastPrompt = model.doGenerateCalls.at(-1).prompt;
  const toModel = lastPrompt.filter((m) => m.role === 'tool').flatMap((m) => m.content).filter((p) => p.type === 'tool-result').map((p) => p.output);
  return { asked, requestCall: request.toolCall.toolCallId, shown, fileWhileAsked, toModel, file: readFileSync(file, 'utf8') };
}

/**
 * The same with a rewind: the session edits a file after a checkpoint, then the mock model
 * rewinds to it; the rewind needs approval; the host shows its preview, `between` runs and the
 * host answers. `lib`: edit-engine's main module (for the session's checkpoint and edit).
 */
export async function runRewindApproval({ ai, createAiTools, lib, root, approved, between = () => {} }) {
  mkdirSync(join(root, 'src'), { recursive: true });
  const file = join(root, 'src', 'cart.js');
  writeFileSync(file, 'export function total(items) {\n  return items.length;\n}\n');
  const options = { allowedFolders: [root], cwd: root, historyDir: join(root, '.history'), sessionId: 'rewind-approval' };
  const checkpoint = await lib.createCheckpoints(options).create('start');
  const edited = await lib.editTool(options).execute({ file_path: 'src/cart.js', old_string: 'return items.length;', new_string: 'return items.reduce((s, i) => s + i.price, 0);' });
  const steps = [call('c1', 'rewind', { id: checkpoint.id }), step([{ type: 'text', text: 'Done.' }], 'stop')];
  const model = new ai.Mock({ doGenerate: async () => steps.shift() });
  const asked = [];
  const tools = createAiTools({
    ...options, tools: 'all',
    needsApproval: (callInput, callOptions) => {
      asked.push([callInput.id, callOptions.toolCallId]);
      return true;
    },
  });
  const checkpointAsks = tools.checkpoint.needsApproval === undefined ? false : await tools.checkpoint.needsApproval({}, { toolCallId: 'c0', messages: [] });
  const prompt = [{ role: 'user', content: 'Undo your changes.' }];
  const first = await ai.generateText({ model, tools, messages: prompt, stopWhen: ai.stepCountIs(4) });
  const request = first.content.find((p) => p.type === 'tool-approval-request');
  const shown = await tools.rewind.preview(request.toolCall.input, { toolCallId: request.toolCall.toolCallId });
  const fileWhileAsked = readFileSync(file, 'utf8');
  between(file);
  const answer = { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved }] };
  await ai.generateText({ model, tools, messages: [...prompt, ...first.response.messages, answer], stopWhen: ai.stepCountIs(4) });
  const lastPrompt = model.doGenerateCalls.at(-1).prompt;
  const toModel = lastPrompt.filter((m) => m.role === 'tool').flatMap((m) => m.content).filter((p) => p.type === 'tool-result').map((p) => p.output);
  const checkpoints = (await lib.createCheckpoints(options).list()).length;
  return { edited, checkpointAsks, asked, checkpointId: checkpoint.id, requestCall: request.toolCall.toolCallId, shown, fileWhileAsked, toModel, checkpoints, file: readFileSync(file, 'utf8') };
}
