#!/usr/bin/env node
// Real-diff replay: the `git diff` of sampled commits of public projects, applied through the
// built addon's `apply_diff` (unified: exact, shifted and missing line numbers) and `apply_patch`
// (the same hunks as a V4A envelope: bare `@@`, or git's function-context line as the `@@`
// anchor). One call per commit, with every eligible file of it; each result is compared with the
// real post-commit files. See README.md beside this file.
//
// Usage: node bench/replay/diffs.mjs [--repos DIR] [--commits N] [--files N] [--seed N]
//        [--json OUT] [--lib PATH/TO/lib/index.mjs]

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LANGUAGES, gitDirs } from './cases.mjs';

const MAX_FILE_BYTES = 200_000;
const MAX_HUNKS_PER_FILE = 12;

function args() {
  const a = { commits: 40, files: 3, seed: 1 };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--repos') a.repos = argv[++i];
    else if (k === '--commits') a.commits = Number(argv[++i]);
    else if (k === '--files') a.files = Number(argv[++i]);
    else if (k === '--seed') a.seed = Number(argv[++i]);
    else if (k === '--json') a.json = argv[++i];
    else if (k === '--lib') a.lib = argv[++i];
    else throw new Error(`unknown argument ${k}`);
  }
  a.repos ??= process.env.EDIT_ENGINE_REPLAY_REPOS ?? join(homedir(), '.cache', 'edit-engine-replay', 'repos');
  return a;
}

const git = (dir, argv) => execFileSync('git', ['--git-dir', dir, ...argv], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The `-U3` hunks of one file's diff: `{ header, oldStart, oldCount, func, lines }` where `lines`
 * are the body lines as git wrote them and `func` is git's function-context text (may be '').
 * Null when the diff marks a missing final newline (the engine keeps a file's final-newline state).
 */
function fileHunks(dir, parent, commit, path) {
  const diff = git(dir, ['diff', '-U3', '--no-color', '--no-ext-diff', '--no-renames', parent, commit, '--', path]);
  if (diff.includes('\n\\ No newline at end of file')) return null;
  const hunks = [];
  for (const line of diff.split('\n')) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/.exec(line);
    if (m) {
      hunks.push({ oldStart: Number(m[1]), oldCount: m[2] === undefined ? 1 : Number(m[2]), newStart: Number(m[3]), newCount: m[4] === undefined ? 1 : Number(m[4]), func: m[5], lines: [] });
    } else if (hunks.length > 0 && /^[ +-]/.test(line)) {
      hunks.at(-1).lines.push(line);
    }
  }
  return hunks;
}

/** The files of one commit that can be replayed: `{ path, before, after, hunks }`. */
function commitFiles(dir, parent, commit, maxFiles) {
  const names = git(dir, ['diff', '--name-only', '--diff-filter=M', '--no-renames', parent, commit])
    .split('\n')
    .filter((p) => LANGUAGES[extname(p)] && !/(^|\/)(vendor|third_party|node_modules)\//.test(p));
  const files = [];
  for (const path of names) {
    if (files.length >= maxFiles) break;
    let before;
    let after;
    try {
      before = git(dir, ['show', `${parent}:${path}`]);
      after = git(dir, ['show', `${commit}:${path}`]);
    } catch {
      continue;
    }
    const bad = (t) => t.length > MAX_FILE_BYTES || t.includes('\0') || t.includes('\r') || t === '';
    if (bad(before) || bad(after)) continue;
    const hunks = fileHunks(dir, parent, commit, path);
    if (!hunks || hunks.length === 0 || hunks.length > MAX_HUNKS_PER_FILE) continue;
    files.push({ path, before, after, hunks });
  }
  return files;
}

/** The sampled commits of every repository, each `{ repo, commit, files }`. */
function sampleCommits(a) {
  const commits = [];
  for (const repo of gitDirs(a.repos)) {
    const log = git(repo.dir, ['log', '--no-merges', '--format=%H %P', '-n', String(a.commits * 8), 'HEAD']);
    let used = 0;
    for (const row of log.trim().split('\n')) {
      const [commit, parent, extra] = row.split(' ');
      if (!parent || extra || used >= a.commits) continue;
      const files = commitFiles(repo.dir, parent, commit, a.files);
      if (files.length === 0) continue;
      commits.push({ repo: repo.name, commit: commit.slice(0, 10), files });
      used++;
    }
  }
  return commits;
}

/** A shift of ±5..±30 lines. */
const shiftOf = (rand) => (rand() < 0.5 ? -1 : 1) * (5 + Math.floor(rand() * 26));

/**
 * The unified diff of `files` with each hunk's numbers exact, shifted (each hunk by its own
 * amount, or every hunk of a file by the same: 'shifted-file'), or missing (bare `@@`).
 */
function unifiedDiff(files, numbers, rand) {
  const out = [];
  for (const f of files) {
    out.push(`--- a/${f.path}`, `+++ b/${f.path}`);
    const fileShift = shiftOf(rand);
    for (const h of f.hunks) {
      const d = numbers === 'shifted' ? shiftOf(rand) : numbers === 'shifted-file' ? fileShift : 0;
      const at = (start) => Math.max(1, start + d);
      out.push(numbers === 'missing' ? '@@' : `@@ -${at(h.oldStart)},${h.oldCount} +${at(h.newStart)},${h.newCount} @@`);
      out.push(...h.lines);
    }
  }
  return `${out.join('\n')}\n`;
}

/** Git's function context as a model would write the anchor: a whole line of the file (git cuts long ones). */
const anchorable = (func, oldLines) => func.trim() !== '' && oldLines.has(func);

/** The V4A envelope of `files`: bare `@@` per hunk, or git's function-context line as the anchor. */
function v4aPatch(files, anchors) {
  const out = ['*** Begin Patch'];
  for (const f of files) {
    out.push(`*** Update File: ${f.path}`);
    const oldLines = new Set(f.before.split('\n'));
    const lastLine = f.before.split('\n').length - 1;
    for (const h of f.hunks) {
      out.push(anchors && anchorable(h.func, oldLines) ? `@@ ${h.func}` : '@@');
      out.push(...h.lines);
      if (h.oldCount > 0 && h.oldStart + h.oldCount - 1 === lastLine) out.push('*** End of File');
    }
  }
  out.push('*** End Patch');
  return out.join('\n');
}

/** Each format/perturbation: its row name and the tool call it makes for a commit's files. */
const VARIANTS = [
  { row: 'apply_diff unified, exact numbers', tool: 'diff', make: (files, rand) => unifiedDiff(files, 'exact', rand) },
  { row: 'apply_diff unified, each hunk shifted ±5..±30', tool: 'diff', make: (files, rand) => unifiedDiff(files, 'shifted', rand) },
  { row: 'apply_diff unified, whole file shifted ±5..±30', tool: 'diff', make: (files, rand) => unifiedDiff(files, 'shifted-file', rand) },
  { row: 'apply_diff unified, no numbers (bare @@)', tool: 'diff', make: (files, rand) => unifiedDiff(files, 'missing', rand) },
  { row: 'apply_patch V4A, bare @@', tool: 'patch', make: (files) => v4aPatch(files, false) },
  { row: 'apply_patch V4A, @@ git function context', tool: 'patch', make: (files) => v4aPatch(files, true) },
];

/** Runs one call in a fresh folder holding the commit's parent files; judges the outcome. */
async function replay(lib, commit, variant, text) {
  const root = mkdtempSync(join(tmpdir(), 'edit-engine-diffs-'));
  try {
    for (const f of commit.files) {
      mkdirSync(dirname(join(root, f.path)), { recursive: true });
      writeFileSync(join(root, f.path), f.before);
    }
    const options = { allowedFolders: [root], cwd: root, history: false };
    const tool = variant.tool === 'diff' ? lib.applyDiffTool(options) : lib.applyPatchTool(options);
    const message = await tool.execute(variant.tool === 'diff' ? { diff: text } : { input: text });
    const now = commit.files.map((f) => readFileSync(join(root, f.path), 'utf8'));
    const failed = message.startsWith('Error');
    let outcome;
    if (failed) outcome = now.every((t, i) => t === commit.files[i].before) ? 'refused' : 'wrong';
    else outcome = now.every((t, i) => t === commit.files[i].after) ? 'correct' : 'wrong';
    return { outcome, message };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function table(rows) {
  const head = '| format / line numbers | calls | hunks | applied correctly | refused | wrong |';
  const lines = [head, '|---|---:|---:|---:|---:|---:|'];
  for (const [row, r] of rows) {
    lines.push(`| ${row} | ${r.calls} | ${r.hunks} | ${r.correct.calls} (${r.correct.hunks} hunks) | ${r.refused.calls} (${r.refused.hunks} hunks) | ${r.wrong.calls} (${r.wrong.hunks} hunks) |`);
  }
  return lines.join('\n');
}

async function main() {
  const a = args();
  const lib = await import(pathToFileURL(resolve(a.lib ?? new URL('../../lib/index.mjs', import.meta.url).pathname)).href);
  const commits = sampleCommits(a);
  const rows = new Map(VARIANTS.map((v) => [v.row, { calls: 0, hunks: 0, correct: { calls: 0, hunks: 0 }, refused: { calls: 0, hunks: 0 }, wrong: { calls: 0, hunks: 0 } }]));
  const judged = [];
  for (const [k, variant] of VARIANTS.entries()) {
    const rand = random(a.seed * 1000 + k);
    for (const commit of commits) {
      const text = variant.make(commit.files, rand);
      const { outcome, message } = await replay(lib, commit, variant, text);
      const hunks = commit.files.reduce((n, f) => n + f.hunks.length, 0);
      const r = rows.get(variant.row);
      r.calls++;
      r.hunks += hunks;
      r[outcome].calls++;
      r[outcome].hunks += hunks;
      judged.push({ row: variant.row, repo: commit.repo, commit: commit.commit, files: commit.files.map((f) => f.path), outcome, message: outcome === 'correct' ? undefined : message, input: outcome === 'wrong' ? text : undefined });
    }
  }
  const repos = [...new Set(commits.map((c) => c.repo))];
  console.log(`${commits.length} commits from ${repos.length} repositories (${repos.join(', ')}), ${commits.reduce((n, c) => n + c.files.length, 0)} files\n`);
  console.log(table(rows));
  const wrong = judged.filter((j) => j.outcome === 'wrong');
  for (const w of wrong.slice(0, 10)) console.log(`\nWRONG ${w.row}: ${w.repo} ${w.commit} ${w.files.join(', ')}\n${w.message.slice(0, 300)}`);
  if (a.json) writeFileSync(a.json, JSON.stringify(judged, null, 1));
  process.exitCode = wrong.length > 0 ? 1 : 0;
}

await main();
