'use strict';
// The runtime a test process really runs in, read from inside it (a runner that falls back to
// Node shows up as Node). scripts/runtime-matrix.mjs sets EDIT_ENGINE_RUNTIME_LOG and reads the
// records the setup files (runtime-setup.mjs for Vitest, runtime-setup.cjs for Jest) append.
const { appendFileSync } = require('node:fs');
const { relative } = require('node:path');

/** `bun 1.4.5`, `deno 2.9.6` or `node 22.23.3`: the runtime executing this code. */
function runtimeName() {
  if (globalThis.Bun) return `bun ${globalThis.Bun.version}`;
  if (globalThis.Deno) return `deno ${globalThis.Deno.version.deno}`;
  return `node ${process.versions.node}`;
}

/** Appends `{ file, runtime }` (file relative to cwd) to EDIT_ENGINE_RUNTIME_LOG when it is set. */
function recordRuntime(testPath) {
  const log = process.env.EDIT_ENGINE_RUNTIME_LOG;
  if (!log) return;
  const file = relative(process.cwd(), testPath ?? '?');
  appendFileSync(log, `${JSON.stringify({ file, runtime: runtimeName() })}\n`);
}

module.exports = { runtimeName, recordRuntime };
