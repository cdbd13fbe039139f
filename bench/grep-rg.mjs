// Our `grep` side by side with the `rg` binary on a real tree, in one run: the same searches through
// our Node API, through `rg -n --sort path` (the same ordered output, one thread) and through
// parallel `rg -n` (unordered, all cores), run interleaved. Plus the peak RSS of a search.
//
// The tree is copied once into <bench cache>/grep-corpus (outside the repository) from this
// project's node_modules and the cargo registry sources (~/.cargo/registry/src), or taken from
// EDIT_ENGINE_BENCH_GREP_CORPUS. Without `rg` on PATH, or with fewer than 10,000 files, the rows
// are skipped with the reason. Standalone: node bench/grep-rg.mjs [runs]

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheDir } from './probe-setup.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIB = pathToFileURL(path.join(ROOT, 'lib', 'index.mjs')).href;
const MIN_FILES = 10_000;
const DONE_MARKER = '.corpus-complete';

/** The searches: a literal, a regex with classes, an alternation, a case-insensitive literal. */
export const GREP_PATTERNS = [
  { label: 'literal', pattern: 'fn main', rg: [] },
  { label: 'regex with classes', pattern: '[A-Z][a-z]+Error\\b', rg: [] },
  { label: 'alternation', pattern: 'TODO|FIXME|XXX', rg: [] },
  { label: 'case-insensitive', pattern: 'deprecated', ignoreCase: true, rg: ['-i'] },
];

/**
 * ripgrep's flags for our contract and output: `.gitignore` honoured without a `.git` folder, and
 * lines over 1000 columns cut with a note (ours keeps 1000 characters), so both print about as much.
 */
const RG_FLAGS = ['-n', '--no-require-git', '--max-columns', '1000', '--max-columns-preview'];

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** `rg --version`'s first line, or null when `rg` cannot run. */
export function ripgrepVersion() {
  try {
    return execFileSync('rg', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0];
  } catch {
    return null;
  }
}

function countFiles(dir) {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += 1;
  return n;
}

/** The corpus folder, copied on first use; `{ dir, files, sources }` or `{ reason }`. */
export function grepCorpus(log) {
  const given = process.env.EDIT_ENGINE_BENCH_GREP_CORPUS;
  if (given) {
    const files = fs.existsSync(given) ? countFiles(given) : 0;
    return files >= MIN_FILES ? { dir: path.resolve(given), files, sources: given } : { reason: `EDIT_ENGINE_BENCH_GREP_CORPUS=${given} holds ${files} files (at least ${MIN_FILES} needed)` };
  }
  const dir = path.join(cacheDir(), 'grep-corpus');
  const marker = path.join(dir, DONE_MARKER);
  if (fs.existsSync(marker)) return { dir, ...JSON.parse(fs.readFileSync(marker, 'utf8')) };
  const cargoHome = process.env.CARGO_HOME || path.join(os.homedir(), '.cargo');
  const sources = [
    ['npm', path.join(ROOT, 'node_modules')],
    ['cargo', path.join(cargoHome, 'registry', 'src')],
  ].filter(([, src]) => fs.existsSync(src));
  if (!sources.length) return { reason: 'no corpus: neither node_modules (npm ci) nor the cargo registry sources (a cargo build) exist' };
  log(`copying a grep corpus once into ${dir} (${sources.map(([, s]) => s).join(' + ')}) ...`);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [name, src] of sources) fs.cpSync(src, path.join(dir, name), { recursive: true, verbatimSymlinks: true });
  const files = countFiles(dir);
  if (files < MIN_FILES) return { reason: `the corpus copied from ${sources.map(([, s]) => s).join(' + ')} has ${files} files (at least ${MIN_FILES} needed)` };
  const info = { files, sources: sources.map(([, s]) => s).join(' + ') };
  fs.writeFileSync(marker, JSON.stringify(info));
  return { dir, ...info };
}

/** `path:line` of every output line: what must agree between ours and rg, in order. */
function lineKeys(text) {
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => /^(.*?):(\d+):/.exec(l)?.slice(1, 3).join(':') ?? l);
}

function runRg(dir, args) {
  const r = spawnSync('rg', args, { cwd: dir, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout.toString('utf8');
}

/** One pattern, the three tools interleaved (the order rotates every round); medians in ms. */
async function comparePattern(dir, tool, p, runs) {
  const sides = {
    ours: async () => tool.execute({ pattern: p.pattern, ignoreCase: !!p.ignoreCase }),
    rgSorted: async () => runRg(dir, [...RG_FLAGS, '--sort', 'path', ...p.rg, p.pattern]),
    rgParallel: async () => runRg(dir, [...RG_FLAGS, ...p.rg, p.pattern]),
  };
  const names = Object.keys(sides);
  const outputs = {};
  for (const n of names) outputs[n] = await sides[n](); // warm-up and output check
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(r + k) % names.length];
      const t = now();
      await sides[n]();
      times[n].push(now() - t);
    }
  }
  const ours = lineKeys(outputs.ours);
  const sorted = lineKeys(outputs.rgSorted);
  const firstDiff = ours.findIndex((k, i) => k !== sorted[i]);
  const same = ours.length === sorted.length && firstDiff < 0;
  return {
    ...p,
    lines: ours.length,
    rgLines: sorted.length,
    same,
    diff: same ? null : `first difference at output line ${firstDiff < 0 ? Math.min(ours.length, sorted.length) + 1 : firstDiff + 1}: ours ${ours[firstDiff] ?? '(end)'}, rg ${sorted[firstDiff] ?? '(end)'}`,
    ms: Object.fromEntries(names.map((n) => [n, median(times[n])])),
    n: runs,
  };
}

/** Peak RSS (MB) of a fresh Node process that loads the engine and runs one search (or none). */
function peakRss(dir, params) {
  const script = `
    const lib = await import(${JSON.stringify(LIB)});
    const params = ${JSON.stringify(params)};
    if (params) {
      const out = await lib.grep(params, { cwd: ${JSON.stringify(dir)}, allowedFolders: [${JSON.stringify(dir)}] });
      if (!out || out.startsWith('Error')) throw new Error(out);
    }
    process.stdout.write(String(process.resourceUsage().maxRSS));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return Number(out) / 1024;
}

export function memoryRows(dir) {
  const p = GREP_PATTERNS[1];
  const baseline = peakRss(dir, null);
  return [
    { what: 'node + engine loaded, no search', mb: baseline },
    { what: `search "${p.pattern}", maxResults 100`, mb: peakRss(dir, { pattern: p.pattern, maxResults: 100 }) },
    { what: `search "${p.pattern}", no limit`, mb: peakRss(dir, { pattern: p.pattern }) },
  ];
}

const geomean = (xs) => (xs.length ? Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length) : null);

/**
 * Runs every comparison. Returns `{ skipped }` with the reason, or `{ corpus, rg, rows, geomean,
 * memory }` where each row's `vsSorted` / `vsParallel` are rg's time over ours (> 1: we are faster).
 */
export async function benchGrepVsRg({ log = () => {}, runs = 7 } = {}) {
  const rg = ripgrepVersion();
  if (!rg) return { skipped: '`rg` is not on PATH (install ripgrep from the system package manager, e.g. apt-get install ripgrep)' };
  const corpus = grepCorpus(log);
  if (corpus.reason) return { skipped: corpus.reason };
  const { grepTool } = await import(LIB);
  const tool = grepTool({ cwd: corpus.dir, allowedFolders: [corpus.dir] });
  const rows = [];
  for (const p of GREP_PATTERNS) {
    log(`grep vs rg: ${p.label} (${p.pattern}) ...`);
    const row = await comparePattern(corpus.dir, tool, p, runs);
    row.vsSorted = row.ms.rgSorted / row.ms.ours;
    row.vsParallel = row.ms.rgParallel / row.ms.ours;
    rows.push(row);
  }
  return {
    corpus,
    rg,
    rows,
    geomean: { vsSorted: geomean(rows.map((r) => r.vsSorted)), vsParallel: geomean(rows.map((r) => r.vsParallel)) },
    memory: memoryRows(corpus.dir),
  };
}

/** The comparison as printed by `npm run bench`. */
export function printGrepVsRg(result, print = console.log) {
  if (result.skipped) {
    print(`grep vs rg: skipped: ${result.skipped}`);
    return;
  }
  const { corpus, rows } = result;
  print(`grep vs ${result.rg} on ${corpus.files} files (${corpus.sources}, copied to ${corpus.dir}); ms medians of ${rows[0]?.n} interleaved runs`);
  print(`rg runs as \`rg ${RG_FLAGS.join(' ')} [--sort path] PATTERN\` in the tree (a child process, its output read by Node)`);
  const cols = [['pattern', 40], ['ours', 8], ['rg --sort path', 14], ['rg (parallel)', 13], ['vs rg --sort', 12], ['vs rg', 8], ['lines', 7], ['same lines as rg --sort', 24]];
  const pad = (s, w) => String(s).padEnd(w);
  print(cols.map(([h, w]) => pad(h, w)).join(' | '));
  print(cols.map(([, w]) => '-'.repeat(w)).join('-|-'));
  const f = (x) => x.toFixed(0);
  for (const r of rows) {
    const name = `${r.label}: ${r.pattern}${r.ignoreCase ? ' (-i)' : ''}`;
    print([name, f(r.ms.ours), f(r.ms.rgSorted), f(r.ms.rgParallel), `${r.vsSorted.toFixed(2)}x`, `${r.vsParallel.toFixed(2)}x`, r.lines, r.same ? 'yes' : 'NO'].map((c, i) => pad(c, cols[i][1])).join(' | '));
    if (!r.same) print(`    ! ${r.diff}`);
  }
  print(`geometric mean: ${result.geomean.vsSorted.toFixed(2)}x of rg --sort path, ${result.geomean.vsParallel.toFixed(2)}x of parallel rg (rg's time / ours: > 1 means we are faster)`);
  print('peak RSS (fresh node process):');
  for (const m of result.memory) print(`  ${pad(m.what, 48)} ${m.mb.toFixed(0)} MB`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] || 7);
  const result = await benchGrepVsRg({ log: (m) => process.stderr.write(`[bench] ${m}\n`), runs });
  printGrepVsRg(result);
}
