#!/usr/bin/env node
// Probe conformance check: runs the Probe SDK's own unit tests for the modules edit-engine
// replaces (edit / create / multi_edit tools, FileTracker, fuzzy matching, line hashes, line-edit
// heuristics, symbol edits) against edit-engine, with their imports pointed at this package, and
// prints a table of the tests that pass and the ones that differ, each known difference with its
// class and reason. Not part of `npm test`: it needs Probe's repository (network or a local clone).
//
// Probe's files go to a cache folder outside this repository and are never committed.
//
//   npm run conformance:probe -- [options]
//   --repo <dir|url>   Probe's git repository: a local clone (bare or not) or a URL to clone into
//                      the cache (default https://github.com/probelabs/probe.git, fetched each run)
//   --ref <rev>        revision whose tests run (default HEAD)
//   --baseline         also run the same tests, unmodified, against Probe's published package
//                      (`npm pack`, its registry dependencies, its bundled binary)
//   --helpers          also compare every pure helper with Probe's own (from that package) on
//                      generated inputs, results as JSON (key order included)
//   --probe-version <v>  package version for --baseline / --helpers (default latest)
//   --cache <dir>      cache folder (default $XDG_CACHE_HOME/edit-engine/probe-conformance)
//   --keep             keep the run folders (their paths are printed)
//
// Exit status: 0 when every differing test is a classified difference listed in KNOWN_DIFFERENCES,
// every listed test still differs and (with --helpers) no helper differs; 1 otherwise (the output
// says which); 2 on a setup failure.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { compareHelpers } from './probe-helpers-differential.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(repoRoot, 'lib', 'index.mjs');
const DEFAULT_REPO = 'https://github.com/probelabs/probe.git';
const TESTS_DIR = 'npm/tests/unit';

/** Probe's modules (under src/tools/) that edit-engine's main entry replaces. */
const REPLACED_MODULES = ['edit', 'fileTracker', 'fuzzyMatch', 'hashline', 'lineEditHeuristics', 'symbolEdit'];

/** Probe's path to a replaced module, quoted, as its tests import it: `'../../src/tools/edit.js'`. */
const SPECIFIER = `['"](?:\\.\\./)+src/tools/(?:${REPLACED_MODULES.join('|')})\\.js['"]`;
const MODULE_SPECIFIER = new RegExp(SPECIFIER, 'g');

/** A named import of a replaced module: `import { a, b as c } from '…'` or `{ a } = await import('…')`. */
const NAMED_IMPORT = new RegExp(`(?:import\\s*\\{([^{}]*)\\}\\s*from\\s*|\\{([^{}]*)\\}\\s*=\\s*await\\s+import\\(\\s*)${SPECIFIER}`, 'g');

const PROSE = 'tool description text: edit-engine writes its own prose (property names, types and required lists are Probe\'s; the words are not copied) and it describes edit-engine\'s behaviour';

/**
 * Probe tests that differ on purpose, keyed `file › full test name`: class `b` (deliberate
 * difference) or `c` (a Probe feature edit-engine does not replace), and why.
 */
export const KNOWN_DIFFERENCES = {
  'edit-create-tools.test.js › Edit and Create Tools Input Validation editTool validation should handle empty strings in old_string and new_string': {
    class: 'b',
    reason:
      'an empty old_string is refused with a message saying how to insert (start_line + position); Probe counts "" between every character ("Multiple occurrences found" with a wrong count), inserts at offset 0 in a 0- or 1-character file, and with replace_all puts new_string between every character',
  },
  'line-edit-mode.test.js › Line-Targeted Edit Mode Schema editDescription should mention line-targeted': {
    class: 'b',
    reason: `${PROSE}: "replacing, inserting and deleting numbered lines verified by line hashes"`,
  },
  'line-edit-mode.test.js › Line-Targeted Edit Mode Schema editToolDefinition should document line-targeted mode': {
    class: 'b',
    reason: `${PROSE}: "Replace lines", "Insert", "Delete", "end_line < start_line is always an error, never an insertion"`,
  },
  'line-edit-mode.test.js › Line-Targeted Edit Mode Schema schema descriptions should explain replace, insert, and delete semantics': {
    class: 'b',
    reason: `${PROSE}: position "Omit it to replace."`,
  },
  'symbol-edit-tools.test.js › Unified Edit Tool - Symbol Mode Description and Definition editToolDefinition should include symbol mode examples': {
    class: 'b',
    reason: `${PROSE}: its symbol examples use applyDiscount, not Probe's calculateTax`,
  },
};

function options() {
  const { values } = parseArgs({
    options: {
      repo: { type: 'string', default: DEFAULT_REPO },
      ref: { type: 'string', default: 'HEAD' },
      baseline: { type: 'boolean', default: false },
      helpers: { type: 'boolean', default: false },
      'probe-version': { type: 'string', default: 'latest' },
      cache: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  values.cache = resolve(values.cache || join(cacheHome, 'edit-engine', 'probe-conformance'));
  return values;
}

function git(gitDir, args) {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** The git directory holding Probe's history: a local clone as given, or a partial clone in the cache. */
function probeGitDir(repo, cache) {
  if (existsSync(repo)) {
    return execFileSync('git', ['-C', repo, 'rev-parse', '--absolute-git-dir'], { encoding: 'utf8' }).trim();
  }
  const dir = join(cache, 'probe.git');
  if (existsSync(dir)) git(dir, ['fetch', '--quiet', '--force', 'origin', '+refs/heads/*:refs/heads/*']);
  else execFileSync('git', ['clone', '--quiet', '--bare', '--filter=blob:none', repo, dir], { stdio: 'inherit' });
  return dir;
}

/** Probe's unit test files that import a replaced module: `[{ name, text }]` at `commit`. */
function probeTests(gitDir, commit) {
  const names = git(gitDir, ['ls-tree', '--name-only', `${commit}:${TESTS_DIR}`]).split('\n');
  return names
    .filter((name) => name.endsWith('.test.js'))
    .map((name) => ({ name, text: git(gitDir, ['show', `${commit}:${TESTS_DIR}/${name}`]) }))
    .filter(({ text }) => new RegExp(SPECIFIER).test(text));
}

/** Names a test imports from replaced modules that edit-engine's entry does not export. */
export function missingExports(text, exported) {
  const missing = new Set();
  for (const match of text.matchAll(NAMED_IMPORT)) {
    for (const part of (match[1] ?? match[2]).split(',')) {
      const name = part.trim().split(/\s+as\s+|\s*:\s*/)[0];
      if (name && !exported.has(name)) missing.add(name);
    }
  }
  return [...missing];
}

/**
 * `test` ({ name, text }) with its replaced-module imports pointed at edit-engine's entry, plus
 * `original` (the text as given), `foreign` (other Probe modules it imports: it cannot run here)
 * and `missing` (imported names edit-engine does not export).
 */
export function rewrite(test, exported) {
  const text = test.text.replace(MODULE_SPECIFIER, () => JSON.stringify(pathToFileURL(entry).href));
  const foreign = [...text.matchAll(/(['"])((?:\.\.\/)+src\/[^'"]+)\1/g)].map((m) => m[2]);
  return { ...test, original: test.text, text, foreign: [...new Set(foreign)], missing: missingExports(test.text, exported) };
}

/** Writes a jest config whose tests are `<rootDir>/tests/unit/*.test.js`; its path. */
function writeJestConfig(rootDir) {
  const config = {
    rootDir,
    testEnvironment: 'node',
    transform: {},
    testMatch: ['<rootDir>/tests/unit/*.test.js'],
    moduleDirectories: ['node_modules', join(repoRoot, 'node_modules')],
  };
  const path = join(rootDir, 'conformance.jest.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

function writeTests(rootDir, tests) {
  mkdirSync(join(rootDir, 'tests', 'unit'), { recursive: true });
  for (const { name, text } of tests) writeFileSync(join(rootDir, 'tests', 'unit', name), text);
}

/** Runs jest with a config of writeJestConfig; `{ file: [{ name, passed, message }] }`. */
function runJest(config, env = {}) {
  const dir = dirname(config);
  const jest = join(dirname(createRequire(import.meta.url).resolve('jest/package.json')), 'bin', 'jest.js');
  const report = join(dir, 'jest-report.json');
  rmSync(report, { force: true });
  const history = mkdtempSync(join(tmpdir(), 'edit-engine-probe-conformance-history-'));
  const run = spawnSync(process.execPath, ['--experimental-vm-modules', jest, '--config', config, '--json', '--outputFile', report, '--silent'], {
    cwd: dir,
    env: { ...process.env, EDIT_ENGINE_HISTORY_ROOT: history, ...env },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  rmSync(history, { recursive: true, force: true });
  if (!existsSync(report)) throw new Error(`jest wrote no report in ${dir}:\n${run.stderr || run.error}`);
  const results = {};
  for (const suite of JSON.parse(readFileSync(report, 'utf8')).testResults) {
    const file = suite.name.slice(suite.name.lastIndexOf('/') + 1);
    results[file] = suite.assertionResults.map((a) => ({
      name: [...a.ancestorTitles, a.title].join(' '),
      passed: a.status === 'passed',
      message: (a.failureMessages[0] || suite.message || '').split('\n').slice(0, 3).join(' ').trim(),
    }));
    if (!suite.assertionResults.length) results[file] = [{ name: '(file failed to load)', passed: false, message: suite.message.split('\n').slice(0, 3).join(' ') }];
  }
  return results;
}

/** Probe's published package, installed in the cache with its registry dependencies; its folder. */
function installProbePackage(cache, version) {
  const folder = join(cache, `package-${version}`);
  if (existsSync(join(folder, 'node_modules'))) return folder;
  mkdirSync(folder, { recursive: true });
  const tarball = execFileSync('npm', ['pack', '--silent', `@probelabs/probe@${version}`, '--pack-destination', folder], { encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['-xzf', join(folder, tarball), '-C', folder, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  // Dependencies from git hosts cannot be installed everywhere; the tools under test do not load them.
  for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) if (/^(github:|git[+:]|https?:)/.test(spec)) delete manifest.dependencies[name];
  delete manifest.devDependencies;
  delete manifest.scripts;
  writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  execFileSync('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--silent'], { cwd: folder, stdio: 'inherit' });
  return folder;
}

/** Probe's bundled search binary for this platform, unpacked; its path, or undefined. */
function probeBinary(folder) {
  const cpu = { x64: 'x86_64', arm64: 'aarch64' }[process.arch];
  const os = { linux: 'linux', darwin: 'apple-darwin' }[process.platform];
  const binaries = join(folder, 'bin', 'binaries');
  const archive = existsSync(binaries) && readdirSync(binaries).find((f) => f.includes(`${cpu}-`) && f.includes(os) && f.endsWith('.tar.gz'));
  if (!cpu || !os || !archive) return undefined;
  const out = join(folder, 'bin', 'unpacked');
  mkdirSync(out, { recursive: true });
  execFileSync('tar', ['-xzf', join(binaries, archive), '-C', out]);
  const found = readdirSync(out, { recursive: true }).find((f) => f.endsWith('/probe') || f === 'probe');
  return found && join(out, found);
}

/** Probe's tests unmodified against Probe's own package: the same result shape as runJest. */
function runBaseline(cache, version, tests) {
  const folder = installProbePackage(cache, version);
  // The tests import '../../src/tools/*.js': they go two folders under the package root.
  rmSync(join(folder, 'tests'), { recursive: true, force: true });
  writeTests(folder, tests);
  const binary = probeBinary(folder);
  return { results: runJest(writeJestConfig(folder), binary ? { PROBE_PATH: binary } : {}), version: readPackageVersion(folder) };
}

function readPackageVersion(folder) {
  return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version;
}

/**
 * Differing tests, each with its `known` classification (undefined: unclassified); `stale`: known
 * differences that now pass; `absent`: known differences this revision of Probe's tests lacks.
 */
export function classify(results, known = KNOWN_DIFFERENCES) {
  const differ = [];
  const passing = new Set();
  for (const [file, tests] of Object.entries(results)) {
    for (const test of tests) {
      const key = `${file} › ${test.name}`;
      if (test.passed) passing.add(key);
      else differ.push({ key, message: test.message, known: known[key] });
    }
  }
  const failing = new Set(differ.map((d) => d.key));
  const stale = Object.keys(known).filter((key) => passing.has(key));
  const absent = Object.keys(known).filter((key) => !passing.has(key) && !failing.has(key));
  return { differ, stale, absent };
}

function count(tests = []) {
  return { total: tests.length, pass: tests.filter((t) => t.passed).length };
}

function printTable(files, results, baseline) {
  const head = ['Probe test file', 'tests', 'pass', 'differ', ...(baseline ? ['pass against Probe'] : [])];
  const rows = [head, head.map(() => '---')];
  const sum = { total: 0, pass: 0, probe: 0 };
  for (const file of files) {
    const c = count(results[file]);
    const b = baseline && count(baseline[file]).pass;
    sum.total += c.total;
    sum.pass += c.pass;
    sum.probe += b || 0;
    rows.push([file, c.total, c.pass, c.total - c.pass, ...(baseline ? [b] : [])]);
  }
  rows.push(['**total**', sum.total, sum.pass, sum.total - sum.pass, ...(baseline ? [sum.probe] : [])]);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

function printDifferences({ differ, stale, absent }, prepared) {
  for (const t of prepared.filter((p) => p.missing.length || p.foreign.length)) {
    if (t.missing.length) console.log(`\n${t.name}: imports names edit-engine does not export: ${t.missing.join(', ')}`);
    if (t.foreign.length) console.log(`\n${t.name}: also imports Probe modules edit-engine does not replace: ${t.foreign.join(', ')}`);
  }
  if (differ.length) console.log('\nDiffering tests:');
  for (const d of differ) {
    const label = d.known ? `(${d.known.class}) ${d.known.reason}` : `UNCLASSIFIED — ${d.message}`;
    console.log(`- ${d.key}\n  ${label}`);
  }
  for (const key of stale) console.log(`- now passes, remove from KNOWN_DIFFERENCES: ${key}`);
  for (const key of absent) console.log(`- not in this revision of Probe's tests: ${key}`);
}

/** Prints the helper comparison; whether every helper agreed. */
function printHelpers(report) {
  console.log('\n| helper | calls | differ |\n| --- | --- | --- |');
  for (const [name, r] of Object.entries(report)) console.log(`| ${name} | ${r.calls} | ${r.differ} |`);
  for (const [name, r] of Object.entries(report).filter(([, r]) => r.example)) {
    console.log(`- ${name}${JSON.stringify(r.example.args)}\n  Probe: ${r.example.probe}\n  ours:  ${r.example.ours}`);
  }
  return Object.values(report).every((r) => r.differ === 0);
}

async function main() {
  const opts = options();
  mkdirSync(opts.cache, { recursive: true });
  const gitDir = probeGitDir(opts.repo, opts.cache);
  const commit = git(gitDir, ['rev-parse', `${opts.ref}^{commit}`]).trim();
  const ours = await import(pathToFileURL(entry).href);
  const prepared = probeTests(gitDir, commit).map((t) => rewrite(t, new Set(Object.keys(ours))));
  const project = mkdtempSync(join(opts.cache, 'run-'));
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  writeTests(project, prepared.filter((t) => !t.foreign.length));
  const results = runJest(writeJestConfig(project));
  const originals = prepared.map((t) => ({ name: t.name, text: t.original }));
  const baseline = opts.baseline ? runBaseline(opts.cache, opts['probe-version'], originals) : undefined;
  console.log(`Probe tests at ${commit} (${TESTS_DIR}) against edit-engine ${readPackageVersion(repoRoot)}${baseline ? `; baseline: Probe package ${baseline.version}` : ''}\n`);
  printTable(prepared.map((t) => t.name), results, baseline?.results);
  const verdict = classify(results);
  printDifferences(verdict, prepared);
  const helpersAgree = !opts.helpers || printHelpers(await compareHelpers(ours, installProbePackage(opts.cache, opts['probe-version'])));
  if (opts.keep) console.log(`\nrun folder: ${project}`);
  else rmSync(project, { recursive: true, force: true });
  const testsOk = verdict.differ.every((d) => d.known) && !verdict.stale.length && prepared.every((t) => !t.foreign.length);
  process.exitCode = testsOk && helpersAgree ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(`probe-conformance: ${err.message}`);
    process.exitCode = 2;
  });
}
