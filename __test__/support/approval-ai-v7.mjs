// Runs the approval scenario (support/approval-ai.mjs) with AI SDK 7: edit-engine's adapter is
// loaded with `ai` resolved to the `ai-v7` copy. argv: root, "approve" | "deny" | "change", and
// "rewind" to run the rewind's scenario instead of the edit's.
import { createRequire } from 'node:module';
import Module from 'node:module';
import * as ai from 'ai-v7';
import * as aiTest from 'ai-v7/test';
import { runApproval, runRewindApproval } from './approval-ai.mjs';

const require = createRequire(import.meta.url);
const aiPath = require.resolve('ai');
const v7 = new Module(aiPath);
Object.assign(v7, { filename: aiPath, loaded: true, exports: ai });
require.cache[aiPath] = v7;
const { createAiTools } = require('../../lib/ai.cjs');

const [root, scenario, kind] = process.argv.slice(2);
const between = scenario === 'change' ? (file) => require('node:fs').writeFileSync(file, 'export const changed = true;\n') : undefined;
const run = kind === 'rewind' ? runRewindApproval : runApproval;
const out = await run({
  ai: { generateText: ai.generateText, stepCountIs: ai.stepCountIs, Mock: aiTest.MockLanguageModelV4 },
  createAiTools,
  lib: require('../../lib/index.cjs'),
  root,
  approved: scenario !== 'deny',
  between,
});
process.stdout.write(JSON.stringify({ version: require('ai-v7/package.json').version, ...out }));
