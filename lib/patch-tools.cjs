'use strict';
// The patch-format tools: OpenAI's `apply_patch` (V4A envelope) and `apply_diff` (unified diffs or
// SEARCH/REPLACE blocks), plus their in-memory helpers. Same contract as tools.cjs: execute makes
// one native call, never throws, and failures start with "Error".

const native = require('./native.cjs');
const { createToolbox, nativeTool } = require('./tools.cjs');
const { specOf, shownSpec } = require('./specs.cjs');

const { description: applyPatchDescription, inputSchema: applyPatchSchema } = specOf('apply_patch');
const { description: applyDiffDescription, inputSchema: applyDiffSchema } = specOf('apply_diff');

/** OpenAI's `apply_patch` tool (parameter `input`: the V4A envelope), all-or-nothing across files. */
function applyPatchTool(options = {}) {
  return nativeTool(createToolbox(options), 'applyPatch', shownSpec('apply_patch'));
}

/** The `apply_diff` tool (parameters `diff`, optional `path`), all-or-nothing across files. */
function applyDiffTool(options = {}) {
  return nativeTool(createToolbox(options), 'applyDiff', shownSpec('apply_diff'));
}

const notString = (what) => ({ ok: false, text: '', message: `Error: ${what} must be a string.` });

/** Applies a V4A patch to `text` in memory: `{ ok, text, message }` (never throws). */
function applyPatchToText(text, patch) {
  if (typeof text !== 'string') return notString('text');
  if (typeof patch !== 'string') return { ...notString('patch'), text };
  return native.applyPatchToText(text, patch);
}

/** Applies a unified diff or SEARCH/REPLACE blocks to `text` in memory: `{ ok, text, message }`. */
function applyDiffToText(text, diff) {
  if (typeof text !== 'string') return notString('text');
  if (typeof diff !== 'string') return { ...notString('diff'), text };
  return native.applyDiffToText(text, diff);
}

module.exports = {
  applyPatchTool,
  applyDiffTool,
  applyPatchToText,
  applyDiffToText,
  applyPatchSchema,
  applyPatchDescription,
  applyDiffSchema,
  applyDiffDescription,
};
