#!/usr/bin/env node
// `node bench/history-retention.mjs`: disk use of the default undo stores while edits spread over
// many temporary workspaces. Not part of `npm run bench` (a run takes a minute or more).
// EDITS edits (EDIT_ENGINE_BENCH_EDITS, default 20000) round-robin over WORKSPACES temporary
// workspaces (EDIT_ENGINE_BENCH_WORKSPACES, default 500), every tool using the default store in a
// fresh EDIT_ENGINE_HISTORY_ROOT with historyMaxBytes CAP (EDIT_ENGINE_BENCH_CAP, default 16 MiB).
// The root's disk use is sampled every SAMPLE edits without waiting for the background collection
// (the peak a reader could see), and at the end once it has finished. Then two thirds of the
// workspaces are removed and a collection runs: how many stores are left, and of which workspaces.
import { mkdtempSync, mkdirSync, rmSync, realpathSync, writeFileSync, lstatSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const EDITS = Number(process.env.EDIT_ENGINE_BENCH_EDITS || 20000);
const WORKSPACES = Number(process.env.EDIT_ENGINE_BENCH_WORKSPACES || 500);
const CAP = Number(process.env.EDIT_ENGINE_BENCH_CAP || 16 << 20);
const SAMPLE = 20;

const root = mkdtempSync(join(tmpdir(), 'edit-engine-bench-history-'));
process.env.EDIT_ENGINE_HISTORY_ROOT = root;
const require = createRequire(import.meta.url);
const { editTool } = require('../lib/index.cjs');
const native = require('../lib/native.cjs');

/** Disk use (allocated blocks) of `path` and everything under it (a folder removed meanwhile counts 0). */
function diskUse(path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.blocks * 512;
  let names = [];
  try {
    names = readdirSync(path);
  } catch {
    return 0;
  }
  return stat.blocks * 512 + names.reduce((sum, name) => sum + diskUse(join(path, name)), 0);
}

const parent = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-bench-ws-')));
const workspaces = Array.from({ length: WORKSPACES }, (_, i) => {
  const ws = join(parent, `ws${i}`);
  mkdirSync(ws);
  writeFileSync(join(ws, 'a.txt'), `head\n${Array.from({ length: 400 }, (_, n) => `line ${n} v0\n`).join('')}`);
  return { ws, tool: editTool({ cwd: ws, allowedFolders: [ws], historyMaxBytes: CAP }), edits: 0 };
});

const started = Date.now();
let peak = 0;
let failed = 0;
for (let i = 0; i < EDITS; i++) {
  const w = workspaces[i % WORKSPACES];
  const line = w.edits % 400;
  const from = Math.floor(w.edits / 400);
  w.edits++;
  const text = await w.tool.execute({ file_path: 'a.txt', old_string: `\nline ${line} v${from}\n`, new_string: `\nline ${line} v${from + 1}\n` });
  if (!text.startsWith('Success')) failed++;
  if (i % SAMPLE === SAMPLE - 1) peak = Math.max(peak, diskUse(root));
}
const editSeconds = (Date.now() - started) / 1000;
native.settleHistoryCollection(120000);
const settled = diskUse(root);
workspaces.forEach(({ ws }, i) => i % 3 !== 0 && rmSync(ws, { recursive: true, force: true }));
const collection = native.collectHistory(CAP, false);
const left = native.historyStores(CAP).stores;
const mib = (b) => (b / 2 ** 20).toFixed(2);
console.log(`edits ${EDITS} over ${WORKSPACES} workspaces in ${editSeconds.toFixed(1)} s, failed ${failed}`);
console.log(`cap ${mib(CAP)} MiB: peak sampled ${mib(peak)} MiB, after the background collection ${mib(settled)} MiB`);
console.log(
  `after removing ${WORKSPACES - Math.ceil(WORKSPACES / 3)} workspaces and collecting: removed ${collection.removed.length} stores, ` +
    `${left.length} left, ${left.filter((s) => s.workspaceExists === true).length} of existing workspaces, ${mib(diskUse(root))} MiB`,
);
rmSync(parent, { recursive: true, force: true });
rmSync(root, { recursive: true, force: true });
