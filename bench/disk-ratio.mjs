#!/usr/bin/env node
// Our small writes against the disk's own atomic write of the same bytes, taking turns call by
// call: `node bench/disk-ratio.mjs [--other DIR] [--runs N] [--json OUT]`. See bench/README.md.
//
// Each run first waits for a quiet machine (1-minute load average below --load, at most --wait
// seconds), then measures every row: this build's call, the --other build's call (a checkout with
// its own `npm run build`), and `io_baseline --serve`'s native atomic write of the same bytes,
// who goes first rotating each round; files are restored (and fsynced) outside the timed region,
// after both builds' background work is done (`flushWritesAsync`). A row's ratio in one run is
// the median of our calls over the median of the native ones; over the runs, the median ratio
// and its spread are judged against the row's target.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as here from '../lib/index.mjs';
import { KB, concurrentRow, failureOf, median, nodeReadWriteFsyncAsync, now, restore, rowsFor, sideOf, syncDir } from './interleaved.mjs';
import { NativeServer, nativeBaselineBinary } from './native.mjs';
import { loadProbe } from './probe-setup.mjs';

/** Threads of the concurrent row's native baseline: as many as libuv's default pool. */
const NATIVE_THREADS = 4;
const USAGE = 'usage: node bench/disk-ratio.mjs [--other DIR] [--runs N=5] [--json OUT] [--budget MS=3000] [--load L=0.5] [--wait S=600] [--files N=1000] [--no-probe] [--only TEXT]';
const log = (msg) => process.stderr.write(`[disk-ratio] ${msg}\n`);

function args() {
  const a = { runs: 5, budget: 3000, load: 0.5, wait: 600, files: 1000, probe: true };
  const argv = process.argv.slice(2);
  const num = (i) => {
    const n = Number(argv[i]);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${argv[i - 1]} needs a number (${USAGE})`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--other') a.other = path.resolve(argv[++i]);
    else if (flag === '--json') a.json = argv[++i];
    else if (flag === '--no-probe') a.probe = false;
    else if (flag === '--only') a.only = argv[++i];
    else if (['--runs', '--budget', '--load', '--wait', '--files'].includes(flag)) a[flag.slice(2)] = num(++i);
    else throw new Error(`unknown argument ${flag} (${USAGE})`);
  }
  a.runs = Math.max(1, Math.round(a.runs));
  a.files = Math.max(1, Math.round(a.files));
  return a;
}

const load1 = () => os.loadavg()[0];
const fmtLoad = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** Waits until the 1-minute load average is below `below`, at most `waitS` seconds; says how it went. */
async function waitForQuiet(below, waitS) {
  const start = now();
  while (load1() >= below && now() - start < waitS * 1000) await new Promise((r) => setTimeout(r, 2000));
  const waited = ((now() - start) / 1000).toFixed(0);
  if (load1() < below) return `load ${fmtLoad()} (waited ${waited} s for < ${below})`;
  return `load ${fmtLoad()}: gave up waiting after ${waited} s for the 1-minute load to drop below ${below}`;
}

/** The native participant: `io_baseline --serve` writing its own copy of a row's bytes. */
function nativeSide(server, work) {
  const dir = path.join(work, 'native');
  fs.mkdirSync(path.join(dir, 'concurrent'), { recursive: true });
  return { name: 'native', dir, server };
}

/** How `side` takes part in `row`: its untimed preparation and its timed call (in ms). */
function turnOf(row, side) {
  if (side.name === 'native') {
    if (row.names) {
      const folder = path.join(side.dir, 'concurrent');
      return { prepare: () => row.prepare(side), call: () => side.server.concurrent(NATIVE_THREADS, folder) };
    }
    const file = path.join(side.dir, row.file);
    return { prepare: () => restore(file, row.bytes), call: () => side.server.atomic(file) };
  }
  if (side.name === 'node') {
    const folder = path.join(side.dir, 'concurrent');
    return { prepare: () => row.prepare(side), call: timed(() => Promise.all(row.names.map((n) => nodeReadWriteFsyncAsync(path.join(folder, n)))), false) };
  }
  return { prepare: () => row.prepare(side), call: timed(() => row.call(side)) };
}

/** `run` as a call that resolves to the milliseconds it took (with `isTool`, a failed reply rejects). */
function timed(run, isTool = true) {
  return async () => {
    const t = now();
    const reply = await run();
    const ms = now() - t;
    const failure = isTool ? failureOf(reply) : undefined;
    if (failure !== undefined) throw new Error(failure);
    return ms;
  };
}

/**
 * Rounds of one call per side, who goes first rotating, until the budget is spent; medians in ms.
 * Each call starts once every build's background work is done (untimed), so no side's timing
 * takes in the folder syncs another side's earlier call left queued.
 */
async function measureRow(row, sides, budgetMs) {
  const settle = () => Promise.all(sides.filter((s) => s.settle).map((s) => s.settle()));
  const turns = sides.map((s) => {
    const turn = turnOf(row, s);
    return [s.name, { ...turn, prepare: async () => (await settle(), await turn.prepare()) }];
  });
  const times = Object.fromEntries(sides.map((s) => [s.name, []]));
  for (const [name, turn] of turns) {
    await turn.prepare();
    await turn.call().catch((e) => {
      throw new Error(`${row.row} ${row.size} on ${name}: ${e.message}`);
    }); // warm-up, and a check that the call works
  }
  const [min, max] = row.names ? [3, row.reps] : [5, 200];
  const start = now();
  for (let i = 0; i < max && (i < min || now() - start < budgetMs); i++) {
    for (let k = 0; k < turns.length; k++) {
      const [name, turn] = turns[(i + k) % turns.length];
      await turn.prepare();
      times[name].push(await turn.call());
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, ts]) => [name, { median: median(ts), n: ts.length }]));
}

/** The Probe side of the concurrent row, or `null` (with the reason logged) when Probe cannot load. */
async function probeSide(work, wanted) {
  if (!wanted) return null;
  const probe = await loadProbe(log);
  if (!probe.ok) {
    log(`${probe.reason}: the concurrent row shows no Probe column`);
    return null;
  }
  const dir = path.join(work, 'probe');
  fs.mkdirSync(path.join(dir, 'concurrent'), { recursive: true });
  return { name: 'probe', dir, edit: probe.editTool({ allowedFolders: [dir], cwd: dir }) };
}

const ratioOf = (m, side) => (m[side] && m.native ? m[side].median / m.native.median : null);
const fmt = (r) => (r == null ? '-' : `${r.toFixed(2)}x`);

/** Over the runs: each run's ratio, their median, spread and the verdict against `target`. */
function summary(ratios, target) {
  const rs = ratios.filter((r) => r != null);
  if (rs.length === 0) return null;
  const med = median(rs);
  return { runs: rs, median: med, min: Math.min(...rs), max: Math.max(...rs), pass: med <= target };
}

function printSummary(rows, names) {
  console.log('\nOver the runs (ratio to the native atomic write of the same bytes: median [min-max] of the runs\' medians)');
  console.log(`${'row'.padEnd(34)}| ${'size'.padEnd(13)}| ${names.map((n) => `${n}/native`.padEnd(36)).join('| ')}| target`);
  for (const r of rows) {
    const cells = names.map((n) => {
      const s = r.summary[n];
      if (!s) return '-'.padEnd(36);
      const verdict = n === 'here' ? (s.pass ? ' PASS' : ' MISS') : '';
      return `${fmt(s.median)} [${fmt(s.min)}-${fmt(s.max)}]${verdict} runs: ${s.runs.map((x) => x.toFixed(2)).join(' ')}`.padEnd(36);
    });
    console.log(`${r.row.padEnd(34)}| ${r.size.padEnd(13)}| ${cells.join('| ')}| ${r.target}x`);
  }
}

async function main() {
  const a = args();
  const bin = nativeBaselineBinary(log);
  if (!bin) throw new Error('the native baseline could not be built: nothing to compare against');
  const server = new NativeServer(bin);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'edit-engine-disk-ratio-'));
  try {
    const other = a.other && (await import(pathToFileURL(path.join(a.other, 'lib', 'index.mjs')).href));
    // Each run's tools start with empty undo stores of their own, so runs measure alike.
    const sidesOf = (run) => {
      const history = (name) => ({ historyDir: path.join(work, 'history', `${name}-${run}`) });
      const builds = [sideOf('here', here, work, history('here'))];
      if (other) builds.push(sideOf('other', other, work, history('other')));
      return [...builds, nativeSide(server, work)];
    };
    const context = [{ name: 'node', dir: path.join(work, 'node') }, await probeSide(work, a.probe)].filter(Boolean);
    const allRows = [...rowsFor('1 KB', KB, here.computeLineHash), ...rowsFor('100 KB', 100 * KB, here.computeLineHash), concurrentRow(here.computeLineHash, a.files)];
    const rows = allRows.filter((r) => !a.only || `${r.row} ${r.size}`.includes(a.only));
    const names = a.other ? ['here', 'other'] : ['here'];
    const results = rows.map((r) => ({ row: r.row, size: r.size, target: r.target, runs: [] }));
    console.log(`this build: ${path.resolve('.')}${a.other ? `; other: ${a.other}` : ''}; native: ${bin} --serve`);
    for (let run = 0; run < a.runs; run++) {
      const sides = sidesOf(run);
      console.log(`\nrun ${run + 1}/${a.runs}: ${await waitForQuiet(a.load, a.wait)}`);
      console.log(`${'row'.padEnd(34)}| ${'size'.padEnd(13)}| ${[...names, 'native'].map((n) => `${n} ms`.padEnd(9)).join('| ')}| ${names.map((n) => `${n}/native`).join(' | ')}`);
      for (const [i, row] of rows.entries()) {
        const all = row.names ? [...sides, ...context] : sides;
        const m = await measureRow(row, all, row.names ? 3 * a.budget : a.budget);
        results[i].runs.push({ load: os.loadavg()[0], medians: m });
        const extra = row.names ? `  (context: ${context.map((c) => `${c.name} ${m[c.name].median.toFixed(1)} ms`).join(', ')})` : '';
        console.log(`${row.row.padEnd(34)}| ${row.size.padEnd(13)}| ${[...names, 'native'].map((n) => m[n].median.toFixed(3).padStart(8)).join(' | ')} | ${names.map((n) => fmt(ratioOf(m, n))).join(' | ')}${extra}`);
      }
      console.log(`end of run ${run + 1}: load ${fmtLoad()}`);
    }
    for (const r of results) r.summary = Object.fromEntries(names.map((n) => [n, summary(r.runs.map((x) => ratioOf(x.medians, n)), r.target)]));
    printSummary(results, names);
    if (a.json) fs.writeFileSync(a.json, JSON.stringify(results, null, 2));
  } finally {
    server.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
