// Run inside a consumer project (cwd) that installed edit-engine and one major of `ai`: a mock
// model (the newest mock that major offers) views a file, makes a failing edit, retries it and
// finishes, through `edit-engine/ai`. Prints what the pack test checks, as JSON.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { generateText, stepCountIs } from 'ai';
import * as aiTest from 'ai/test';
import { createAiTools } from 'edit-engine/ai';

const root = join(process.cwd(), 'ai-work');
mkdirSync(join(root, 'src'), { recursive: true });
writeFileSync(join(root, 'src', 'cart.js'), 'export function total(items) {\n  return items.length;\n}\n');

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const step = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
const call = (id, toolName, input) => step([{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }], 'tool-calls');
const steps = [
  call('c1', 'view', { path: 'src/cart.js' }),
  call('c2', 'edit', { file_path: 'src/cart.js', old_string: 'return items.size;', new_string: 'x' }),
  call('c3', 'edit', { file_path: 'src/cart.js', old_string: 'return items.length;', new_string: 'return items.reduce((s, i) => s + i.price, 0);' }),
  step([{ type: 'text', text: 'Done.' }], 'stop'),
];
const Mock = aiTest.MockLanguageModelV4 || aiTest.MockLanguageModelV3;
const model = new Mock({ doGenerate: async () => steps.shift() });
const result = await generateText({
  model,
  tools: createAiTools({ allowedFolders: [root], cwd: root, allowEdit: true }),
  stopWhen: stepCountIs(6),
  prompt: 'Make total() sum the prices.',
});
const seen = model.doGenerateCalls[3].prompt
  .filter((m) => m.role === 'tool')
  .flatMap((m) => m.content)
  .filter((p) => p.type === 'tool-result')
  .map((p) => [p.toolName, p.output.type]);
const require = createRequire(join(process.cwd(), 'package.json'));
console.log(JSON.stringify({
  ai: require('ai/package.json').version,
  mock: Mock.name,
  text: result.text,
  steps: result.steps.length,
  seen,
  file: readFileSync(join(root, 'src', 'cart.js'), 'utf8'),
}));
