// Runs a list of tool calls in a separate process and prints their results as a JSON array.
//
//   node tool-worker.cjs '<json job>'
//   job = { options: {...tool options}, calls: [{ tool: 'edit' | 'create' | 'multi_edit' | 'edit_file', params }],
//           concurrency: 1 }
// Used by the cross-process concurrency test and the fault tests (run as `nobody` when root).
'use strict';
const lib = require('../../lib/index.cjs');

// Tool names (as in support/trust.mjs) -> factories.
const FACTORIES = {
  edit: lib.editTool,
  create: lib.createTool,
  multi_edit: lib.multiEditTool,
  edit_file: lib.editFileTool,
  grep: lib.grepTool,
  replace_in_file: lib.replaceInFileTool,
  str_replace_editor: lib.textEditorTool,
};

async function main() {
  const job = JSON.parse(process.argv[2]);
  const tools = {};
  for (const [name, factory] of Object.entries(FACTORIES)) tools[name] = factory(job.options);
  const results = new Array(job.calls.length);
  let next = 0;
  const lane = async () => {
    while (next < job.calls.length) {
      const i = next++;
      const { tool, params } = job.calls[i];
      results[i] = await tools[tool].execute(params);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, job.concurrency || 1) }, lane));
  process.stdout.write(JSON.stringify(results));
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e));
  process.exit(1);
});
