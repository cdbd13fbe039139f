'use strict';
// The patch-format tools: OpenAI's `apply_patch` (V4A envelope) and `apply_diff` (unified diffs or
// SEARCH/REPLACE blocks), plus their in-memory helpers. Same contract as tools.cjs: execute makes
// one native call, never throws, and failures start with "Error".

const native = require('./native.cjs');
const { createToolbox, nativeTool } = require('./tools.cjs');

const applyPatchDescription = `Apply a patch in the apply_patch format to one or more files. The input is one envelope:

*** Begin Patch
*** Add File: path/new.txt
+every line of the new file, each prefixed with +
*** Delete File: path/old.txt
*** Update File: path/file.py
*** Move to: path/renamed.py   (optional)
@@ class Outer                  (optional anchors, outermost first, to narrow the place)
@@     def method(self):
 context line (3 before and after each change)
-removed line
+added line
*** End Patch

Context and removed lines must match the file (trailing whitespace, indentation and typographic quotes are forgiven); hunks apply in order. All files change together or none does.`;

const applyPatchSchema = {
  type: 'object',
  properties: {
    input: { type: 'string', description: 'The whole patch, from "*** Begin Patch" to "*** End Patch"' },
  },
  required: ['input'],
  additionalProperties: false,
};

const applyDiffDescription = `Apply a diff to one or more files, in either form:
- a unified diff ("--- a/path", "+++ b/path", then "@@ -l,n +l,n @@" hunks of " ", "-", "+" lines); hunks are placed by their context, line numbers only break ties, so numbers may be off or missing ("@@" alone);
- SEARCH/REPLACE blocks: the file path on its own line (or the path parameter), then
<<<<<<< SEARCH
exact lines to find
=======
lines to put instead
>>>>>>> REPLACE
(an optional ":start_line:N" line after SEARCH says where the lines are expected).
All files change together or none does.`;

const applyDiffSchema = {
  type: 'object',
  properties: {
    diff: { type: 'string', description: 'A unified diff or SEARCH/REPLACE blocks' },
    path: { type: 'string', description: 'The file the diff applies to when the diff does not name it' },
  },
  required: ['diff'],
  additionalProperties: false,
};

/** OpenAI's `apply_patch` tool (parameter `input`: the V4A envelope), all-or-nothing across files. */
function applyPatchTool(options = {}) {
  return nativeTool(createToolbox(options), 'applyPatch', {
    name: 'apply_patch',
    description: applyPatchDescription,
    inputSchema: applyPatchSchema,
    label: 'Error',
  });
}

/** The `apply_diff` tool (parameters `diff`, optional `path`), all-or-nothing across files. */
function applyDiffTool(options = {}) {
  return nativeTool(createToolbox(options), 'applyDiff', {
    name: 'apply_diff',
    description: applyDiffDescription,
    inputSchema: applyDiffSchema,
    label: 'Error',
  });
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
