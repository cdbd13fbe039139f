#!/usr/bin/env node
// `npm run bench`: edit-engine side by side with Probe's JS tools and with the disk's own limit.
// See bench/README.md for how to read the output. Exits 0 whenever the bench itself ran, whether or
// not Probe could be fetched and whether or not the targets are met.

import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ours from '../lib/index.mjs';
import { editRows, extractOutput, generateSource, targetOf } from './gen.mjs';
import { benchGrepVsRg, printGrepVsRg } from './grep-rg.mjs';
import { loadProbe } from './probe-setup.mjs';
import { benchPatchFormats } from './patch.mjs';
import { benchSyntaxGuard } from './syntax-guard.mjs';
import { benchDenseFile } from './dense-file.mjs';
import { previewCost } from './preview-cost.mjs';
import { nativeBaselineBinary } from './native.mjs';
import { nodeReadWriteFsync, nodeReadWriteFsyncAsync } from './interleaved.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1024;
const MB = 1024 * KB;
const SIZES = [
  ['1 KB', KB],
  ['100 KB', 100 * KB],
  ['1 MB', MB],
  ['4 MB', 4 * MB],
  ['8 MB', 8 * MB],
];
const SYMBOL_SIZES = [
  ['6 KB', 6 * KB],
  ['328 KB', 328 * KB],
];
const CONCURRENT_FILES = 1000;
const ANNOTATE_LINES = 100_000;
/** Wall-time budget of one measurement (one side of one row), in ms; scaled by EDIT_ENGINE_BENCH_SCALE. */
const SCALE = Number(process.env.EDIT_ENGINE_BENCH_SCALE || 1);
const BUDGET_MS = 1500 * SCALE;
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

// ---------------------------------------------------------------------------------------------
// Measurement

const now = () => Number(process.hrtime.bigint()) / 1e6;

function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const q = (p) => s[Math.round((s.length - 1) * p)];
  const median = q(0.5);
  const mad = [...s.map((t) => Math.abs(t - median))].sort((a, b) => a - b)[Math.floor(s.length / 2)];
  return { median, p10: q(0.1), p90: q(0.9), mad, n: s.length };
}

/** Max repetitions by input size: many for small inputs, few for big ones. */
const maxRepsFor = (bytes) => (bytes <= 100 * KB ? 200 : bytes <= MB ? 60 : 25);

/**
 * Times `run` (setup excluded): one warm-up whose result `check` validates, then repetitions until
 * the wall budget is spent (at least `min`: 5, or 3 when one run takes over a second).
 * Returns `{ ...stats, times }` or `{ error }`.
 */
async function measure({ setup = () => {}, run, check = () => null, maxReps = 60, budgetMs = BUDGET_MS }) {
  await setup();
  const t0 = now();
  const first = await run();
  const warm = now() - t0;
  const problem = check(first);
  if (problem) return { error: problem };
  const min = warm > 1000 ? 3 : 5;
  const times = [];
  const start = now();
  while (times.length < min || (times.length < maxReps && now() - start < budgetMs)) {
    await setup();
    const t = now();
    await run();
    times.push(now() - t);
  }
  return { ...stats(times), times };
}

const okMessage = (msg) => (typeof msg === 'string' && msg.startsWith('Success') ? null : `unexpected result: ${String(msg).slice(0, 200)}`);

function restore(file, bytes) {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, bytes);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
}

// ---------------------------------------------------------------------------------------------
// Native baseline (crates/engine/examples/io_baseline.rs)

function nativeBaseline(bin, file, bytes) {
  if (!bin) return null;
  try {
    const out = execFileSync(bin, ['5', String(maxRepsFor(bytes)), String(Math.round(BUDGET_MS)), file], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop());
  } catch (e) {
    log(`native baseline failed on ${file}: ${e.message}`);
    return null;
  }
}

/** The native atomic write of every file in `dir`, on `threads` threads per round (io_baseline --concurrent). */
function nativeConcurrent(bin, dir, threads) {
  if (!bin) return null;
  try {
    const out = execFileSync(bin, ['--concurrent', String(threads), '5', '10', String(Math.round(3 * BUDGET_MS)), dir], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop());
  } catch (e) {
    log(`native concurrent baseline failed on ${dir}: ${e.message}`);
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Workloads

function checkFor(strategy) {
  return (msg) => {
    const bad = okMessage(msg);
    if (bad) return bad;
    if (strategy && !msg.includes(`matched via ${strategy}`)) return `matched by another strategy: ${msg}`;
    return null;
  };
}

/** A tool pair working in its own directory: ours and Probe's see identical files. */
function makeSides(work, probe) {
  const sides = [];
  const dir = (name) => {
    const d = path.join(work, name);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const od = dir('ours');
  sides.push({
    name: 'ours',
    dir: od,
    edit: ours.editTool({ allowedFolders: [od], cwd: od }),
    strict: ours.editTool({ allowedFolders: [od], cwd: od, durability: 'strict' }),
    diffing: ours.editTool({ allowedFolders: [od], cwd: od, returnDiff: true }),
    create: ours.createTool({ allowedFolders: [od], cwd: od }),
  });
  if (probe.ok) {
    const pd = dir('probe');
    sides.push({ name: 'probe', dir: pd, edit: probe.editTool({ allowedFolders: [pd], cwd: pd }), create: probe.createTool({ allowedFolders: [pd], cwd: pd }) });
  }
  return sides;
}

const results = [];
function record(row) {
  results.push(row);
  printRow(row);
}

async function benchSize(label, bytes, sides, nativeBin, work) {
  const { text, units } = generateSource(bytes, 'js');
  const buf = Buffer.from(text);
  const file = `src_${bytes}.js`;
  // Baselines on their own copy of the same bytes.
  const baseFile = path.join(work, `base_${bytes}.js`);
  fs.writeFileSync(baseFile, buf);
  const node = await measure({ run: () => nodeReadWriteFsync(baseFile), maxReps: maxRepsFor(bytes) });
  const native = nativeBaseline(nativeBin, baseFile, bytes);
  const baseline = { node, native };
  const rows = editRows(text, units, ours.computeLineHash);
  // The default durability leaves the directory fsync to a background thread; show what waiting
  // for it costs (Probe has no such option: its side is the same call as in "exact edit").
  if (bytes === KB || bytes === 4 * MB) rows.push({ ...rows[0], mode: 'exact edit (durability: strict)', strict: true });
  // A preview plans the same edit and stores it, writing nothing: it should cost no more than the
  // call minus its write (Probe has no previews: its side is the same call as in "exact edit").
  if (bytes === KB || bytes === 4 * MB) rows.push({ ...rows[0], mode: 'exact edit (preview)', preview: true });
  // returnDiff appends the change's diff to the reply: it should cost a scan, not a whole-file diff.
  if (bytes === 4 * MB) rows.push({ ...rows[0], mode: 'exact edit (returnDiff)', returnDiff: true });
  for (const row of rows) {
    const out = { row: row.mode, size: label, bytes: buf.length, sides: {}, baseline };
    let reference = null;
    for (const side of sides) {
      const target = path.join(side.dir, file);
      const m = await measure({
        setup: () => restore(target, buf),
        run: () => callOf(row, side, { file_path: file, ...row.params }),
        check: checkFor(row.strategy),
        maxReps: maxRepsFor(bytes),
      });
      // Both tools must produce the same file from the same input (checked on the last run).
      if (!m.error && !row.preview) {
        const result = fs.readFileSync(target);
        if (reference && !reference.equals(result)) out.mismatch = mismatchNote(reference, result);
        reference = result;
      }
      out.sides[side.name] = m;
    }
    record(out);
  }
  // create: a new file of the same bytes each iteration (deleted outside the timed region).
  const out = { row: 'create', size: label, bytes: buf.length, sides: {}, baseline };
  for (const side of sides) {
    const name = `new_${bytes}.js`;
    out.sides[side.name] = await measure({
      setup: () => fs.rmSync(path.join(side.dir, name), { force: true }),
      run: () => side.create.execute({ file_path: name, content: text }),
      check: okMessage,
      maxReps: maxRepsFor(bytes),
    });
  }
  record(out);
}

/** One timed call of `row` on `side`: the edit, its strict or returnDiff twin, or (ours) its preview; resolves to the reply text. */
async function callOf(row, side, params) {
  if (row.preview && side.edit.preview) return (await side.edit.preview(params)).text;
  if (row.returnDiff && side.diffing) return side.diffing.execute(params);
  return (row.strict && side.strict ? side.strict : side.edit).execute(params);
}

/** Why the files written by the two tools differ: indentation only is ours keeping the file's. */
function mismatchNote(a, b) {
  const dedented = (buf) => buf.toString('utf8').split('\n').map((l) => l.trimStart()).join('\n');
  return dedented(a) === dedented(b)
    ? 'ours and Probe differ in indentation only (expected: ours re-indents new_string to the matched lines, Probe writes it as given)'
    : 'ours and Probe wrote different files';
}

/** Threads of the native baseline of the concurrent row: as many as libuv's default pool. */
const CONCURRENT_NATIVE_THREADS = 4;

async function benchConcurrent(sides, work, nativeBin) {
  const { text, units } = generateSource(KB, 'js');
  const buf = Buffer.from(text);
  const row = editRows(text, units, ours.computeLineHash)[0];
  const names = Array.from({ length: CONCURRENT_FILES }, (_, i) => `c${i}.js`);
  const baseDir = path.join(work, 'concurrent-base');
  fs.mkdirSync(baseDir, { recursive: true });
  for (const n of names) fs.writeFileSync(path.join(baseDir, n), buf);
  // Baseline: the same 1,000 read + write + fsync, issued concurrently through fs.promises.
  const node = await measure({
    setup: () => execSync('sync'),
    run: () => Promise.all(names.map((n) => nodeReadWriteFsyncAsync(path.join(baseDir, n)))),
    maxReps: 10,
    budgetMs: 3 * BUDGET_MS,
  });
  // The disk's own atomic write of the same files (temp + fsync + rename + folder fsync each), on 4 threads.
  const native = nativeConcurrent(nativeBin, baseDir, CONCURRENT_NATIVE_THREADS);
  const out = { row: `${CONCURRENT_FILES} concurrent edits`, size: `${CONCURRENT_FILES} x 1 KB`, bytes: buf.length * CONCURRENT_FILES, sides: {}, baseline: { node, native } };
  for (const side of sides) {
    const dir = path.join(side.dir, 'concurrent');
    fs.mkdirSync(dir, { recursive: true });
    out.sides[side.name] = await measure({
      setup: () => {
        for (const n of names) fs.writeFileSync(path.join(dir, n), buf);
        execSync('sync');
      },
      run: () => Promise.all(names.map((n) => side.edit.execute({ file_path: `concurrent/${n}`, ...row.params }))),
      check: (msgs) => msgs.map(okMessage).find(Boolean) ?? null,
      maxReps: 10,
      budgetMs: 3 * BUDGET_MS,
    });
  }
  record(out);
}

async function benchAnnotate(probe) {
  const input = extractOutput(ANNOTATE_LINES);
  const out = { row: 'annotateOutputWithHashes', size: `${ANNOTATE_LINES / 1000}k lines`, bytes: input.length, sides: {}, baseline: null };
  const expected = probe.ok ? probe.annotateOutputWithHashes(input) : null;
  const impls = [['ours', ours.annotateOutputWithHashes]];
  if (probe.ok) impls.push(['probe', probe.annotateOutputWithHashes]);
  for (const [name, fn] of impls) {
    out.sides[name] = await measure({
      run: () => fn(input),
      check: (r) => (expected !== null && r !== expected ? 'output differs from Probe' : typeof r === 'string' ? null : 'no output'),
      maxReps: 60,
    });
  }
  record(out);
}

/** Symbol replace, cold (a file the engine has not parsed) and warm (re-editing its own output). */
async function benchSymbols(sides, probe, work) {
  const probeNote = !probe.ok ? probe.reason : probe.bin ? null : probe.binReason;
  const oursAvailable = await symbolModeAvailable(work);
  for (const flavour of ['js', 'ts']) {
    for (const [label, bytes] of SYMBOL_SIZES) {
      const { text, units } = generateSource(bytes, flavour);
      const buf = Buffer.from(text);
      const { name, lines, ifLine } = targetOf(text, units);
      const start = lines.slice(0, ifLine).findLastIndex((l) => l.startsWith('export function '));
      const end = lines.indexOf('}', ifLine);
      const body = lines.slice(start, end + 1);
      const variants = [body.join('\n'), body.map((l) => l.replace(`> limit_`, `>= limit_`)).join('\n')];
      for (const temp of ['cold', 'warm']) {
        const out = { row: `symbol replace (${flavour}, ${temp})`, size: label, bytes: buf.length, sides: {}, baseline: null, notes: {} };
        for (const side of sides) {
          const available = side.name === 'ours' ? oursAvailable : !probeNote;
          if (!available) {
            out.sides[side.name] =
              side.name === 'ours'
                ? { error: 'not available yet', reason: 'symbol mode is not in this build yet (branch symbols not merged)', unavailable: true }
                : { error: probe.ok ? 'probe binary not available' : 'Probe not available', reason: probeNote, unavailable: true };
            continue;
          }
          let iteration = 0;
          const file = () => (temp === 'cold' ? `sym_${flavour}_${bytes}_${iteration}.${flavour}` : `sym_${flavour}_${bytes}.${flavour}`);
          if (temp === 'warm') restore(path.join(side.dir, file()), buf);
          out.sides[side.name] = await measure({
            setup: () => {
              iteration += 1;
              if (temp === 'cold') restore(path.join(side.dir, file()), buf);
            },
            run: () => side.edit.execute({ file_path: file(), symbol: name, new_string: variants[iteration % 2] }),
            check: okMessage,
            maxReps: 60,
          });
        }
        record(out);
      }
    }
  }
}

async function symbolModeAvailable(work) {
  const dir = path.join(work, 'symcheck');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'a.js'), 'function a() {\n  return 1;\n}\n');
  const tool = ours.editTool({ allowedFolders: [dir], cwd: dir });
  const msg = await tool.execute({ file_path: 'a.js', symbol: 'a', new_string: 'function a() {\n  return 2;\n}' });
  return typeof msg === 'string' && msg.startsWith('Success');
}

// ---------------------------------------------------------------------------------------------
// Output

const ms = (m) => (m == null ? '' : m >= 100 ? m.toFixed(0) : m >= 10 ? m.toFixed(1) : m >= 1 ? m.toFixed(2) : m.toFixed(3));
const cell = (m) => (!m ? 'n/a' : m.error ? (m.unavailable ? m.error : `ERROR`) : `${ms(m.median)} [${ms(m.p10)}-${ms(m.p90)}] n=${m.n}`);
const ratio = (a, b) => (a && b && !a.error && !b.error ? a.median / b.median : null);
const fmtRatio = (r, suffix = 'x') => (r == null ? '-' : `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}${suffix}`);
const COLS = [
  ['mode', 30],
  ['size', 12],
  ['ours ms median [p10-p90]', 30],
  ['probe ms median [p10-p90]', 30],
  ['probe/ours', 10],
  ['ours/node r+w+fsync', 19],
  ['ours/native r+w+fsync', 21],
  ['ours/native atomic', 18],
];
const pad = (s, w) => String(s).padEnd(w);
function printHeaderRow() {
  console.log(COLS.map(([h, w]) => pad(h, w)).join(' | '));
  console.log(COLS.map(([, w]) => '-'.repeat(w)).join('-|-'));
}

function printRow(r) {
  const o = r.sides.ours;
  const p = r.sides.probe;
  const nodeBase = r.baseline?.node;
  const nat = r.baseline?.native;
  r.ratios = {
    probeOverOurs: ratio(p, o),
    oursOverNode: ratio(o, nodeBase),
    oursOverNative: nat ? ratio(o, nat.inplace) : null,
    oursOverNativeAtomic: nat ? ratio(o, nat.atomic) : null,
  };
  const probeCell = p ? cell(p) : r.probeNote || 'Probe not available';
  const cols = [r.row, r.size, cell(o), probeCell, fmtRatio(r.ratios.probeOverOurs), fmtRatio(r.ratios.oursOverNode), fmtRatio(r.ratios.oursOverNative), fmtRatio(r.ratios.oursOverNativeAtomic)];
  console.log(cols.map((c, i) => pad(c, COLS[i][1])).join(' | '));
  for (const [side, m] of Object.entries(r.sides)) if (m.error && !m.unavailable) console.log(`    ! ${side}: ${m.error}`);
  if (r.mismatch) console.log(`    ! ${r.mismatch}`);
}

function baselineTable() {
  console.log('\nBaselines (ms, median [p10-p90]) of the same bytes:');
  const seen = new Set();
  for (const r of results) {
    if (!r.baseline || seen.has(r.size)) continue;
    seen.add(r.size);
    const n = r.baseline.native;
    console.log(
      `  ${pad(r.size, 12)} node read+write+fsync ${pad(cell(r.baseline.node), 28)}` +
        (n?.threads ? ` native atomic of every file on ${n.threads} threads ${cell(n.atomic)}` : n ? ` native read+write+fsync ${pad(cell(n.inplace), 28)} native atomic (tmp+fsync+rename+dir fsync) ${cell(n.atomic)}` : ' native: n/a'),
    );
  }
}

function find(row, size) {
  return results.find((r) => r.row === row && r.size === size);
}

/** The issue's targets, judged only where both sides were measured. */
function targets(grep, dense, previewRows) {
  const out = [];
  const add = (name, value, limit, pass, note = '') => out.push({ target: name, value, limit, status: value == null ? 'n/a' : pass ? 'PASS' : 'MISS', note });
  const e4 = find('exact edit', '4 MB');
  add('exact edit 4 MB: >= 2.5x faster than Probe', e4?.ratios.probeOverOurs, '>= 2.5x', e4?.ratios.probeOverOurs >= 2.5);
  add('exact edit 4 MB: within 1.5x of native read+write+fsync', e4?.ratios.oursOverNative, '<= 1.5x', e4?.ratios.oursOverNative <= 1.5);
  const w4 = find('fuzzy: whitespace-normalized', '4 MB');
  add('whitespace-drifted fuzzy edit 4 MB: >= 30x faster than Probe', w4?.ratios.probeOverOurs, '>= 30x', w4?.ratios.probeOverOurs >= 30);
  const sym = (flavour, temp, size) => find(`symbol replace (${flavour}, ${temp})`, size)?.ratios.probeOverOurs ?? null;
  for (const flavour of ['js', 'ts']) {
    add(`symbol replace 6 KB (${flavour}): >= 50x faster`, sym(flavour, 'cold', '6 KB'), '>= 50x', sym(flavour, 'cold', '6 KB') >= 50);
    add(`symbol replace 328 KB (${flavour}) cold: >= 3x faster`, sym(flavour, 'cold', '328 KB'), '>= 3x', sym(flavour, 'cold', '328 KB') >= 3);
    add(`symbol replace 328 KB (${flavour}) warm: >= 20x faster`, sym(flavour, 'warm', '328 KB'), '>= 20x', sym(flavour, 'warm', '328 KB') >= 20);
  }
  // At 1 KB both sides are mostly the disk's latency: show what the bare protocols cost in this run.
  const disk = find('exact edit', '1 KB')?.baseline?.native;
  const diskNote = disk?.atomic && disk?.inplace ? `disk: native atomic ${ms(disk.atomic.median)} ms, in-place ${ms(disk.inplace.median)} ms` : '';
  for (const row of ['exact edit', 'fuzzy: line-trimmed', 'fuzzy: whitespace-normalized', 'line edit (hashes)']) {
    const r = find(row, '1 KB');
    add(`1 KB ${row}: no slower than Probe`, r?.ratios.probeOverOurs, '>= 1x', r?.ratios.probeOverOurs >= 1, diskNote);
  }
  for (const row of ['exact edit', 'fuzzy: line-trimmed', 'fuzzy: whitespace-normalized', 'line edit (hashes)', 'create', 'exact edit (durability: strict)']) {
    const r = find(row, '1 KB');
    add(`1 KB ${row}: within 1.1x of native atomic`, r?.ratios.oursOverNativeAtomic, '<= 1.1x', r?.ratios.oursOverNativeAtomic <= 1.1);
  }
  for (const row of ['exact edit', 'fuzzy: line-trimmed', 'fuzzy: whitespace-normalized', 'line edit (hashes)', 'create']) {
    const r = find(row, '100 KB');
    add(`100 KB ${row}: within 1.15x of native atomic`, r?.ratios.oursOverNativeAtomic, '<= 1.15x', r?.ratios.oursOverNativeAtomic <= 1.15);
  }
  // A preview plans and stores the call without writing: it should cost no more than the edit
  // minus its write, measured on tmpfs where no write waits for the disk (bench/preview-cost.mjs);
  // the disk rows of this run are shown beside it for context.
  for (const size of ['1 KB', '4 MB']) {
    const tmpfs = previewRows?.find((r) => r.size === size && r.side === 'here');
    const disk = find('exact edit (preview)', size)?.sides.ours;
    const edit = find('exact edit', size)?.sides.ours;
    const spread = tmpfs ? `tmpfs: preview ${ms(tmpfs.preview)} ms, edit ${ms(tmpfs.edit)} - native atomic ${ms(tmpfs.native)} ms, runs ${fmtRatio(tmpfs.min)}-${fmtRatio(tmpfs.max)}` : '';
    const onDisk = disk && edit ? `; disk: preview ${ms(disk.median)} ms, edit ${ms(edit.median)} ms` : '';
    add(`${size} preview: no more than the edit minus its write (tmpfs)`, tmpfs?.value ?? null, '<= 1x', tmpfs?.value <= 1, spread + onDisk);
  }
  const conc = results.find((r) => r.row.endsWith('concurrent edits'));
  const concNote = conc ? `node r+w+fsync ${fmtRatio(conc.ratios.oursOverNode)} of ours; Probe ${fmtRatio(conc.ratios.probeOverOurs)} (probe/ours)` : '';
  add(`${CONCURRENT_FILES} concurrent 1 KB edits: within 1.1x of native atomic on ${CONCURRENT_NATIVE_THREADS} threads`, conc?.ratios.oursOverNativeAtomic, '<= 1.1x', conc?.ratios.oursOverNativeAtomic <= 1.1, concNote);
  for (const row of ['exact edit', 'fuzzy: line-trimmed', 'fuzzy: whitespace-normalized', 'line edit (hashes)', 'create']) {
    const a = find(row, '1 MB')?.sides.ours;
    const b = find(row, '8 MB')?.sides.ours;
    const g = ratio(b, a);
    const pa = find(row, '1 MB')?.sides.probe;
    const pb = find(row, '8 MB')?.sides.probe;
    const pg = ratio(pb, pa);
    add(`growth 1 MB -> 8 MB, ${row}: <= 10x`, g, '<= 10x', g <= 10, pg == null ? '' : `Probe: ${fmtRatio(pg)}`);
  }
  const denseRatio = dense?.defaults ? dense.defaults.median / dense.stripped.median : null;
  add('dense 4 MB file: defaults within 1.2x of history off + syntax check off', denseRatio, '<= 1.2x', denseRatio <= 1.2);
  const firstRatio = dense?.first ? dense.first.median / dense.defaults.median : null;
  add('dense 4 MB file: first call of a process within 2x of the median', firstRatio, '<= 2x', firstRatio <= 2);
  const gm = grep?.geomean;
  const same = grep?.rows ? `output same as rg --sort path on ${grep.rows.filter((r) => r.same).length}/${grep.rows.length} patterns` : grep?.skipped ?? '';
  add('grep: geometric mean >= 1.0x of rg --sort path', gm?.vsSorted, '>= 1x', gm?.vsSorted >= 1, same);
  add('grep: geometric mean >= 0.8x of parallel rg', gm?.vsParallel, '>= 0.8x', gm?.vsParallel >= 0.8);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Settling after the previous run (opt-in)

/**
 * With `EDIT_ENGINE_BENCH_SETTLE=1`, a run started less than 65 s after the previous run's cleanup
 * first waits out the rest. On file systems whose inode allocator skips recently freed inodes (ext4
 * without a journal), every new file in the temp folder is slower for about a minute after a mass
 * deletion, which would make the create and atomic-write rows of back-to-back runs noisy.
 */
const SETTLE_AFTER_CLEANUP_MS = 65_000;
const CLEANUP_MARKER = path.join(ROOT, 'bench', 'results', '.last-cleanup');

async function settleAfterPreviousRun() {
  if (process.env.EDIT_ENGINE_BENCH_SETTLE !== '1') return;
  let last;
  try {
    last = Number(fs.readFileSync(CLEANUP_MARKER, 'utf8'));
  } catch {
    return;
  }
  const wait = Math.min(SETTLE_AFTER_CLEANUP_MS, last + SETTLE_AFTER_CLEANUP_MS - Date.now());
  if (!(wait > 0)) return;
  log(`waiting ${Math.ceil(wait / 1000)} s: the previous run deleted its files less than a minute ago (EDIT_ENGINE_BENCH_SETTLE=1, see bench/README.md)`);
  await new Promise((resolve) => setTimeout(resolve, wait));
}

function markCleanup() {
  fs.mkdirSync(path.dirname(CLEANUP_MARKER), { recursive: true });
  fs.writeFileSync(CLEANUP_MARKER, String(Date.now()));
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const cpus = os.cpus();
  const header = {
    date: new Date().toISOString(),
    cores: cpus.length,
    cpu: cpus[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    engine: ours.engineVersion ? ours.engineVersion() : 'unknown',
    commit: safe(() => execSync('git rev-parse --short HEAD', { cwd: ROOT, encoding: 'utf8' }).trim()),
    loadavgStart: os.loadavg().map((x) => x.toFixed(2)).join(' '),
    uvThreadpool: process.env.UV_THREADPOOL_SIZE || '4 (default)',
  };
  const probe = await loadProbe(log);
  header.probe = probe.ok ? `@probelabs/probe ${probe.version} (${probe.dir})` : probe.reason;
  header.probeBinary = probe.ok ? probe.bin || probe.binReason : probe.reason;
  const nativeBin = nativeBaselineBinary(log);
  header.nativeBaseline = nativeBin ? 'crates/engine/examples/io_baseline.rs' : 'not available (cargo build failed)';

  console.log(`edit-engine bench — ${header.date}`);
  console.log(`machine: ${header.cores} cores (${header.cpu}), ${header.platform}, node ${header.node}, load average at start ${header.loadavgStart}`);
  console.log(`engine ${header.engine} @ ${header.commit}; Probe: ${header.probe}; probe binary: ${header.probeBinary}`);
  console.log(`native baseline: ${header.nativeBaseline}; libuv threadpool: ${header.uvThreadpool}; budget per measurement ${BUDGET_MS} ms`);
  console.log('times: ms per call, median [p10-p90] over n timed runs after 1 warm-up; the file is restored (and fsynced) outside the timed region.\n');

  await settleAfterPreviousRun();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'edit-engine-bench-'));
  const started = now();
  let patchRows = [];
  let syntaxRows = [];
  let dense = null;
  let previewRows = null;
  try {
    const sides = makeSides(work, probe);
    printHeaderRow();
    for (const [label, bytes] of SIZES) await benchSize(label, bytes, sides, nativeBin, work);
    await benchAnnotate(probe);
    await benchConcurrent(sides, work, nativeBin);
    await benchSymbols(sides, probe, work);
    patchRows = await benchPatchFormats({ measure, work, log, cell });
    syntaxRows = await benchSyntaxGuard({ work, log });
    dense = await benchDenseFile({ work, log });
    console.log('');
    previewRows = await safePreviewCost();
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    markCleanup();
  }
  console.log('');
  const grep = await benchGrepVsRg({ log, runs: Math.max(3, Math.round(7 * SCALE)) });
  printGrepVsRg(grep);
  header.loadavgEnd = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  header.seconds = ((now() - started) / 1000).toFixed(0);
  baselineTable();
  console.log('\nNotes: Probe writes with plain fs.writeFile (no fsync, not atomic); ours writes a temp file, fsyncs it, renames it over');
  console.log('the target; the directory fsync follows on a background thread (durability "standard", the default), and the');
  console.log('"(durability: strict)" rows wait for it. "native atomic" is the strict protocol done by a bare Rust binary; "native r+w+fsync"');
  console.log('rewrites the file in place. ratios: probe/ours > 1 means we are faster; ours/baseline is the overhead over raw I/O.');
  const reasons = new Set(results.flatMap((r) => Object.values(r.sides).filter((m) => m.unavailable && m.reason).map((m) => `${m.error}: ${m.reason}`)));
  for (const r of reasons) console.log(`- ${r}`);
  if (!probe.ok) console.log(`- ${probe.reason}`);
  console.log(`load average at end ${header.loadavgEnd}; total ${header.seconds} s.`);

  const verdicts = targets(grep, dense, previewRows);
  console.log('\nTargets, judged where both sides were measured:');
  for (const v of verdicts) {
    const val = v.value == null ? 'not measured' : fmtRatio(v.value);
    console.log(`  ${pad(v.status, 4)} ${pad(v.target, 62)} ${pad(val, 12)} (${v.limit})${v.note ? ` ${v.note}` : ''}`);
  }

  const outDir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(outDir, { recursive: true });
  const strip = (m) => (m && m.times ? { ...m, times: m.times.map((t) => +t.toFixed(4)) } : m);
  const json = {
    header,
    rows: results.map((r) => ({ ...r, sides: Object.fromEntries(Object.entries(r.sides).map(([k, v]) => [k, strip(v)])), baseline: r.baseline && { node: strip(r.baseline.node), native: r.baseline.native } })),
    grep,
    targets: verdicts,
    syntaxGuard: syntaxRows.map((r) => ({ ...r, off: strip(r.off), warn: strip(r.warn) })),
    denseFile: dense,
    patchFormats: patchRows.map((r) => ({ ...r, sides: Object.fromEntries(Object.entries(r.sides).map(([k, v]) => [k, strip(v)])) })),
  };
  fs.writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify(json, null, 2));
  console.log(`\nJSON: ${path.relative(process.cwd(), path.join(outDir, 'latest.json'))}`);
}

/** The preview-cost rows (bench/preview-cost.mjs, 5 runs), or `null` when they cannot run here. */
async function safePreviewCost() {
  if (!fs.existsSync('/dev/shm')) {
    log('preview cost: no /dev/shm (tmpfs) here, not measured');
    return null;
  }
  try {
    return await previewCost({ runs: 5, budget: Math.max(200, 2000 * SCALE) });
  } catch (e) {
    log(`preview cost not measured: ${e.message}`);
    return null;
  }
}

function safe(f) {
  try {
    return f();
  } catch {
    return 'unknown';
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
