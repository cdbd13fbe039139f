// The cost of the undo history and the syntax guard on a large file with no blank lines: 80,000
// one-line JavaScript statements (about 4.4 MB), one whitespace-drifted edit of a line near the
// middle. The same call through a default tool and through one made with
// `history: false, syntaxCheck: 'off'`, taking turns call by call (their order alternating), the
// file restored and fsynced before every call; then the first call of fresh processes (a new
// Node process loads the addon, makes a default tool and times its first call).
// Run alone: `node bench/dense-file.mjs`; `npm run bench` runs it too.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ours from '../lib/index.mjs';

const STATEMENTS = 80_000;
const FRESH_PROCESSES = 3;
const FILE = 'dense.js';

/** The file's text and one whitespace-drifted edit of its middle statement. */
export function denseSubject(statements = STATEMENTS) {
  const line = (i, v) => `const value_${i} = combine(${i}, "item-${i}", [${i % 7}, ${v}]);`;
  const lines = Array.from({ length: statements }, (_, i) => line(i, i % 11));
  const mid = Math.floor(statements / 2);
  const drifted = line(mid, mid % 11).replace(/ /g, '  ');
  return { text: `${lines.join('\n')}\n`, old: drifted, new: line(mid, 'extra') };
}

/** Writes `text` to `file` and fsyncs it (outside the timed region). */
function restore(file, text) {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const success = (msg) => (String(msg).startsWith('Success') ? null : `unexpected result: ${String(msg).slice(0, 200)}`);
const stats = (times) => {
  const t = [...times].sort((x, y) => x - y);
  const q = (p) => t[Math.round((t.length - 1) * p)];
  return { median: q(0.5), p10: q(0.1), p90: q(0.9), n: t.length };
};

/** The first call of a fresh Node process with a default tool, in ms (the addon loaded first). */
function firstCall(dir, s) {
  const lib = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'lib', 'index.mjs');
  const script = `
    const ours = await import(${JSON.stringify(lib)});
    const edit = ours.editTool({ allowedFolders: [${JSON.stringify(dir)}], cwd: ${JSON.stringify(dir)} });
    const t = performance.now();
    const out = await edit.execute(${JSON.stringify({ file_path: FILE, old_string: s.old, new_string: s.new })});
    console.log(JSON.stringify({ ms: performance.now() - t, out: String(out).slice(0, 200) }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n').pop());
  return { ms: out.ms, problem: success(out.out) };
}

/** Defaults vs stripped, call by call, then fresh processes' first calls. */
export async function benchDenseFile({ work, log = () => {}, budgetMs = 6000 } = {}) {
  const dir = fs.mkdtempSync(path.join(work ?? os.tmpdir(), 'dense-file-'));
  const s = denseSubject();
  const target = path.join(dir, FILE);
  const tools = {
    defaults: ours.editTool({ allowedFolders: [dir], cwd: dir }),
    stripped: ours.editTool({ allowedFolders: [dir], cwd: dir, history: false, syntaxCheck: 'off' }),
  };
  const call = async (side) => {
    restore(target, s.text);
    const t = performance.now();
    const out = await tools[side].execute({ file_path: FILE, old_string: s.old, new_string: s.new });
    return { ms: performance.now() - t, problem: success(out) };
  };
  const row = { file: `${STATEMENTS} one-line statements`, bytes: Buffer.byteLength(s.text) };
  try {
    log('dense file: defaults vs history off + syntax check off');
    const times = { defaults: [], stripped: [] };
    row.problem = (await call('stripped')).problem ?? (await call('defaults')).problem;
    const start = performance.now();
    for (let i = 0; !row.problem && (i < 14 || (i < 40 && performance.now() - start < budgetMs)); i++) {
      for (const side of i % 2 ? ['stripped', 'defaults'] : ['defaults', 'stripped']) times[side].push((await call(side)).ms);
    }
    const firsts = [];
    for (let i = 0; !row.problem && i < FRESH_PROCESSES; i++) {
      restore(target, s.text);
      const first = firstCall(dir, s);
      row.problem ??= first.problem;
      firsts.push(first.ms);
    }
    if (!row.problem) Object.assign(row, { defaults: stats(times.defaults), stripped: stats(times.stripped), first: stats(firsts) });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  printDense(row);
  return row;
}

const cell = (m) => (m ? `${m.median.toFixed(2)} [${m.p10.toFixed(2)}-${m.p90.toFixed(2)}] n=${m.n}` : '-');

function printDense(r) {
  console.log(`\nDense file (${r.file}, ${r.bytes} bytes, whitespace-drifted edit; ms per call, median [p10-p90]):`);
  if (r.problem) return console.log(`  ! ${r.problem}`);
  console.log('| defaults | history: false, syntaxCheck: off | defaults/stripped | first call of a process | first/defaults |');
  console.log('| --- | --- | --- | --- | --- |');
  const ratio = (a, b) => (a.median / b.median).toFixed(2);
  console.log(`| ${cell(r.defaults)} | ${cell(r.stripped)} | ${ratio(r.defaults, r.stripped)}x | ${cell(r.first)} | ${ratio(r.first, r.defaults)}x |`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchDenseFile({ log: (m) => process.stderr.write(`[bench] ${m}\n`) }).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
