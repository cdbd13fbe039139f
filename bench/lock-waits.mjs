#!/usr/bin/env node
// `node bench/lock-waits.mjs`: what edits waiting on a stopped lock holder cost everything else.
// Not part of `npm run bench`: a run with the waits stalling Node takes about 30 s a round.
// A flock(1) process takes a file's cross-process lock and is stopped (SIGSTOP); 12 edits of that
// file wait on it (lockTimeoutMs EDIT_ENGINE_BENCH_LOCK_MS, default 5000). Measured over ROUNDS
// rounds (EDIT_ENGINE_BENCH_ROUNDS, default 5): an unrelated `fs.promises.readFile` and an edit of
// another file started together meanwhile, and the time from a child's `process.exit()` (its own
// 12 edits still waiting) to its exit. Needs flock(1) (Linux).
import { spawn } from 'node:child_process';
import { promises as fsp, realpathSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { editTool } from '../lib/index.mjs';
import { haveFlock, holdStopped } from '../__test__/support/lock-holder.mjs';

const { lockFilePath } = createRequire(import.meta.url)('../lib/native.cjs');
const WAITERS = 12;
const ROUNDS = Number(process.env.EDIT_ENGINE_BENCH_ROUNDS || 5);
const LOCK_MS = Number(process.env.EDIT_ENGINE_BENCH_LOCK_MS || 5000);
const lines = (n, word) => Array.from({ length: n }, (_, i) => `${word} ${i}\n`).join('');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

/** One round: the two latencies (ms) while WAITERS edits wait on a stopped holder. */
async function latencies(root) {
  const held = join(root, 'held.txt');
  writeFileSync(held, lines(WAITERS, 'line'));
  writeFileSync(join(root, 'other.txt'), 'alpha\n');
  writeFileSync(join(root, 'unrelated.bin'), Buffer.alloc(1 << 16, 120));
  const holder = await holdStopped(lockFilePath(held));
  const edit = editTool({ allowedFolders: [root], cwd: root, lockTimeoutMs: LOCK_MS });
  const waiting = Array.from({ length: WAITERS }, (_, i) =>
    edit.execute({ file_path: 'held.txt', old_string: `line ${i}\n`, new_string: `edited ${i}\n` }),
  );
  await new Promise((r) => setTimeout(r, 200));
  const t0 = process.hrtime.bigint();
  const [read, [other, out]] = await Promise.all([
    fsp.readFile(join(root, 'unrelated.bin')).then(() => ms(t0)),
    edit.execute({ file_path: 'other.txt', old_string: 'alpha', new_string: 'beta' }).then((r) => [ms(t0), r]),
  ]);
  if (!out.startsWith('Successfully')) throw new Error(out);
  holder.release();
  await Promise.all(waiting);
  return { read, other };
}

/** One round: ms from the child's `process.exit()` (its "waiting" line) to its exit. */
async function exitTime(root) {
  const held = join(root, 'held.txt');
  writeFileSync(held, lines(WAITERS, 'line'));
  const holder = await holdStopped(lockFilePath(held));
  const script = fileURLToPath(new URL('../__test__/support/exit-while-waiting.cjs', import.meta.url));
  const child = spawn(process.execPath, [script, root, 'held.txt', String(WAITERS), String(LOCK_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let t0;
  child.stdout.once('data', () => (t0 = process.hrtime.bigint()));
  await new Promise((resolve) => child.on('exit', resolve));
  holder.release();
  return ms(t0);
}

if (!haveFlock) {
  console.log('lock-waits: flock(1) is not installed; skipped');
  process.exit(0);
}
const rows = { read: [], other: [], exit: [] };
for (let round = 0; round < ROUNDS; round++) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-lock-waits-')));
  try {
    const { read, other } = await latencies(root);
    rows.read.push(read);
    rows.other.push(other);
    rows.exit.push(await exitTime(root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
console.log(`| with ${WAITERS} edits waiting on a stopped holder (${ROUNDS} rounds) | median ms | max ms |`);
console.log('| --- | --- | --- |');
const row = (name, xs) => console.log(`| ${name} | ${median(xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`);
row('unrelated fs.promises.readFile (64 KiB)', rows.read);
row('edit of another file', rows.other);
row('process.exit() to exit', rows.exit);
