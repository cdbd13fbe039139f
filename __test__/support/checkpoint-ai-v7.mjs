// Runs the checkpoint scenario (support/checkpoint-ai.mjs) with AI SDK 7: edit-engine's adapter
// is loaded with `ai` resolved to the `ai-v7` copy. argv: the workspace root.
import { createRequire } from 'node:module';
import Module from 'node:module';
import * as ai from 'ai-v7';
import * as aiTest from 'ai-v7/test';
import { runCheckpoints } from './checkpoint-ai.mjs';

const require = createRequire(import.meta.url);
const aiPath = require.resolve('ai');
const v7 = new Module(aiPath);
Object.assign(v7, { filename: aiPath, loaded: true, exports: ai });
require.cache[aiPath] = v7;
const { createAiTools } = require('../../lib/ai.cjs');

const out = await runCheckpoints({
  ai: { generateText: ai.generateText, stepCountIs: ai.stepCountIs, Mock: aiTest.MockLanguageModelV4 },
  createAiTools,
  root: process.argv[2],
});
process.stdout.write(JSON.stringify({ version: require('ai-v7/package.json').version, ...out }));
