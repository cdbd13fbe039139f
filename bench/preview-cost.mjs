#!/usr/bin/env node
// What a preview costs against the call minus its write: `node bench/preview-cost.mjs [--runs N]
// [--other DIR] [--json OUT]`. See bench/README.md ("Targets").
//
// The workspace and the history store (`historyDir`) are on tmpfs, so no write waits for a disk:
// on a real disk an edit overlaps its own work with the fsync of its bytes, and "edit minus the
// disk's write" would undercount what the call does besides writing. In one process, call by call,
// who goes first rotating: the direct exact edit, its preview (`tool.preview(params)`), and the
// native atomic write of the same bytes on the same tmpfs (`io_baseline --serve`'s `write`: the
// call's write alone, the file read before its timer starts); with --other, that build's edit and
// preview too. Files are restored outside the timed region. Per run and size, the value is
// preview / (edit - native) of the medians; over the runs, its median and spread (min-max) are
// judged against the target: <= 1.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as here from '../lib/index.mjs';
import { editRows, generateSource } from './gen.mjs';
import { KB, MB, failureOf, median, now, restore } from './interleaved.mjs';
import { NativeServer, nativeBaselineBinary } from './native.mjs';

const USAGE = 'usage: node bench/preview-cost.mjs [--runs N=5] [--other DIR] [--json OUT] [--budget MS=2000] [--tmp DIR=/dev/shm]';
const log = (msg) => process.stderr.write(`[preview-cost] ${msg}\n`);

/** The sizes measured, with the most rounds a run takes of each. */
export const SIZES = [
  { label: '1 KB', bytes: KB, maxRounds: 400 },
  { label: '4 MB', bytes: 4 * MB, maxRounds: 40 },
];

function args(argv) {
  const a = { runs: 5, budget: 2000, tmp: '/dev/shm' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--other') a.other = path.resolve(argv[++i]);
    else if (flag === '--json') a.json = argv[++i];
    else if (flag === '--tmp') a.tmp = argv[++i];
    else if (flag === '--runs' || flag === '--budget') {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number (${USAGE})`);
      a[flag.slice(2)] = n;
    } else throw new Error(`unknown argument ${flag} (${USAGE})`);
  }
  a.runs = Math.max(1, Math.round(a.runs));
  return a;
}

/** One build's edit tool, its workspace and its history store in `<work>/<name>`. */
function sideOf(name, lib, work) {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const historyDir = path.join(work, `${name}-history`);
  return { name, dir, edit: lib.editTool({ allowedFolders: [dir], cwd: dir, historyDir }) };
}

/** The participants of one size: each side's edit and preview, and the native atomic write. */
function turnsFor(size, sides, server, work) {
  const { text, units } = generateSource(size.bytes, 'js');
  const buf = Buffer.from(text);
  const file = `src_${size.bytes}.js`;
  const params = { file_path: file, ...editRows(text, units, here.computeLineHash)[0].params };
  const turns = [];
  for (const s of sides) {
    const prepare = () => restore(path.join(s.dir, file), buf);
    turns.push({ key: `${s.name} edit`, prepare, call: () => s.edit.execute(params) });
    turns.push({ key: `${s.name} preview`, prepare, call: async () => (await s.edit.preview(params)).text });
  }
  const nativeFile = path.join(work, `native_${size.bytes}.js`);
  turns.push({ key: 'native', prepare: () => restore(nativeFile, buf), native: () => server.write(nativeFile) });
  return turns;
}

/** One run of one size: rounds of every turn (order rotating) until the budget is spent. */
async function measureSize(size, turns, budget) {
  const times = Object.fromEntries(turns.map((t) => [t.key, []]));
  for (const t of turns.filter((t) => t.call)) {
    await t.prepare();
    const failure = failureOf(await t.call()); // warm-up, and a check the call works
    if (failure !== undefined) throw new Error(`${t.key} ${size.label}: ${failure}`);
  }
  const start = now();
  for (let round = 0; round < size.maxRounds && (round < 5 || now() - start < budget); round++) {
    const shift = round % turns.length;
    for (const t of [...turns.slice(shift), ...turns.slice(0, shift)]) {
      await t.prepare();
      if (t.native) times[t.key].push(await t.native());
      else {
        const t0 = now();
        await t.call();
        times[t.key].push(now() - t0);
      }
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** preview / (edit - native): at most 1 meets the target. */
const ratio = (m, side) => m[`${side} preview`] / (m[`${side} edit`] - m.native);

/**
 * Runs the measurement (options as the command line's: `runs`, `budget` ms per size and run,
 * `tmp`, `other`, `json`) and prints per-run figures and, per size and side, the median ratio
 * with its spread and PASS/MISS. Resolves to the summary rows (`value` is the median ratio).
 */
export async function previewCost(options = {}, print = console.log) {
  const a = { ...args([]), ...options };
  const bin = nativeBaselineBinary(log);
  if (!bin) throw new Error('the native baseline (io_baseline) could not be built');
  const work = fs.mkdtempSync(path.join(a.tmp, 'edit-engine-preview-cost-'));
  const server = new NativeServer(bin);
  const sides = [sideOf('here', here, work)];
  if (a.other) sides.push(sideOf('other', await import(pathToFileURL(path.join(a.other, 'lib', 'index.mjs')).href), work));
  const fmt = (x) => x.toFixed(3);
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  print(`preview cost on tmpfs (${work}), ${a.runs} runs, load ${load()}${a.other ? `; other: ${a.other}` : ''}`);
  const runs = [];
  try {
    for (let run = 0; run < a.runs; run++) {
      for (const size of SIZES) {
        const m = await measureSize(size, turnsFor(size, sides, server, work), a.budget);
        runs.push({ run, size: size.label, medians: m });
        const cols = sides.map((s) => `${s.name}: edit ${fmt(m[`${s.name} edit`])} preview ${fmt(m[`${s.name} preview`])} -> ${ratio(m, s.name).toFixed(2)}x`);
        print(`run ${run + 1} ${size.label.padEnd(5)} native ${fmt(m.native)} ms | ${cols.join(' | ')}`);
      }
    }
  } finally {
    server.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  const summary = [];
  for (const size of SIZES) {
    for (const s of sides) {
      const of = runs.filter((r) => r.size === size.label);
      const values = of.map((r) => ratio(r.medians, s.name)).map((v) => (v > 0 ? v : Infinity));
      const value = median(values);
      const med = (k) => median(of.map((r) => r.medians[k]));
      summary.push({ size: size.label, side: s.name, value, min: Math.min(...values), max: Math.max(...values), preview: med(`${s.name} preview`), edit: med(`${s.name} edit`), native: med('native') });
    }
  }
  print('size  | side  | preview ms | edit ms | native ms | preview / (edit - native), median [min-max] | target <= 1');
  for (const r of summary) {
    const verdict = r.value <= 1 ? 'PASS' : 'MISS';
    print(`${r.size.padEnd(6)}| ${r.side.padEnd(6)}| ${fmt(r.preview).padStart(10)} | ${fmt(r.edit).padStart(7)} | ${fmt(r.native).padStart(9)} | ${r.value.toFixed(2)}x [${r.min.toFixed(2)}-${r.max.toFixed(2)}] | ${verdict}`);
  }
  print(`load at end ${load()}`);
  if (a.json) fs.writeFileSync(a.json, JSON.stringify({ runs, summary }, null, 2));
  return summary;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  previewCost(args(process.argv.slice(2))).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
