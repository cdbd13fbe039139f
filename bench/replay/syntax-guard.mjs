#!/usr/bin/env node
// The syntax guard on the real-commit replay: every replayed edit is applied by a build's editTool
// (this one, or another with --lib, e.g. an older matcher), judged as replay.mjs judges it, and then
// the file's change (before -> result) is checked by this build's syntax guard. Reports how many
// mis-applied results it flags and its false alarms on correct results (listed, to investigate).
//
// A flagged correct result is a false alarm unless the file really is broken: a hunk replayed alone
// can leave it so (its commit's other hunks close what it opens). Such results are counted apart when
// the whole commit's file (read from the repositories folder) passes the guard.
//
// Usage: node bench/replay/syntax-guard.mjs [--lib PATH/TO/lib/index.mjs] [--cache DIR] [--commits N]
//        [--repos DIR] [--json OUT]   (the cases come from replay.mjs's cache; build them there first)

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ours from '../../lib/index.mjs';
import { applyCall, caseCalls } from './calls.mjs';
import { judge, markPythonFailures } from './judge.mjs';

const FLAG = 'Syntax check: this edit introduced';

function args() {
  const a = { cache: join(homedir(), '.cache', 'edit-engine-replay'), commits: 40 };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--lib') a.lib = argv[++i];
    else if (k === '--cache') a.cache = argv[++i];
    else if (k === '--commits') a.commits = Number(argv[++i]);
    else if (k === '--json') a.json = argv[++i];
    else if (k === '--repos') a.repos = argv[++i];
    else throw new Error(`unknown argument ${k}`);
  }
  a.repos ??= process.env.EDIT_ENGINE_REPLAY_REPOS ?? join(a.cache, 'repos');
  return a;
}

/** The file of case `c` as its whole commit left it, or null when the repository is not there. */
function commitFile(repos, c) {
  for (const gitDir of [join(repos, c.repo, '.git'), join(repos, c.repo)]) {
    try {
      return execFileSync('git', ['--git-dir', gitDir, 'show', `${c.commit}:${c.path}`], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {}
  }
  return null;
}

/** Marks flagged correct results whose whole commit passes the guard (`hunkAlone`). */
async function classifyAlarms(results, repos, dir) {
  const create = ours.createTool({ cwd: dir, allowedFolders: [dir], history: false, returnDiff: true });
  const verdicts = new Map();
  for (const r of results.filter((r) => r.outcome === 'correct' && r.note)) {
    if (!verdicts.has(r.case)) {
      const full = commitFile(repos, r.case);
      verdicts.set(r.case, full != null && !(await guardNote(create, join(dir, `full${extname(r.case.path)}`), r.case.content, full)));
    }
    r.hunkAlone = verdicts.get(r.case);
  }
}

/** The guard's verdict on `before` -> `after` of `file`: the note, or '' (an overwrite by createTool). */
async function guardNote(create, file, before, after) {
  writeFileSync(file, before);
  const reply = await create.execute({ file_path: file, content: after, overwrite: true });
  if (reply.startsWith('Error')) throw new Error(`guard probe failed: ${reply}`);
  const at = reply.indexOf(FLAG);
  if (at < 0) return '';
  const end = reply.indexOf('\n\n', at);
  return reply.slice(at, end < 0 ? undefined : end);
}

/** Every replayed call of every case, applied by `api`, judged, and checked by the guard. */
async function replay(api, cases, dir) {
  const edit = api.editTool({ cwd: dir, allowedFolders: [dir], history: false, syntaxCheck: 'off' });
  // returnDiff makes create read the file it replaces, so any build of the guard compares with it.
  const create = ours.createTool({ cwd: dir, allowedFolders: [dir], history: false, returnDiff: true });
  const results = [];
  let n = 0;
  for (const c of cases) {
    for (const call of await caseCalls(api, dir, c)) {
      const { file, reply, after } = await applyCall(edit, join(dir, `case${n++}${extname(c.path)}`), call);
      const judged = judge(call, { file, reply, after }, c);
      const note = judged.outcome === 'refused' ? '' : await guardNote(create, join(dir, `guard${extname(c.path)}`), call.content, after);
      results.push({ lang: c.lang, category: call.category, id: `${c.repo}@${c.commit}:${c.path}`, ...judged, note, case: c });
      if (!c.path.endsWith('.py')) rmSync(file);
    }
  }
  markPythonFailures(results);
  return results;
}

function summary(results) {
  const rows = ['| outcome | results | flagged by the guard |', '| --- | --- | --- |'];
  for (const outcome of ['correct', 'whitespace', 'wrong']) {
    const rs = results.filter((r) => r.outcome === outcome);
    rows.push(`| ${outcome} | ${rs.length} | ${rs.filter((r) => r.note).length} |`);
  }
  const py = results.filter((r) => r.pyFail);
  rows.push(`| Python results that do not compile (pyFail) | ${py.length} | ${py.filter((r) => r.note).length} |`);
  const wrongByLang = new Map();
  for (const r of results.filter((r) => r.outcome === 'wrong')) {
    const t = wrongByLang.get(r.lang) ?? { wrong: 0, flagged: 0 };
    t.wrong++;
    if (r.note) t.flagged++;
    wrongByLang.set(r.lang, t);
  }
  const langs = [...wrongByLang].sort(([a], [b]) => a.localeCompare(b)).map(([l, t]) => `${l} ${t.flagged}/${t.wrong}`);
  return `${rows.join('\n')}\n\nwrong results flagged, per language: ${langs.join(', ') || 'none'}`;
}

async function main() {
  const a = args();
  const api = a.lib ? await import(pathToFileURL(resolve(a.lib)).href) : ours;
  const cases = JSON.parse(readFileSync(join(a.cache, `cases-${a.commits}.json`), 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'edit-engine-guard-replay-'));
  try {
    const results = await replay(api, cases, dir);
    await classifyAlarms(results, a.repos, dir);
    console.log(summary(results));
    const flagged = results.filter((r) => r.outcome === 'correct' && r.note);
    const alone = flagged.filter((r) => r.hunkAlone);
    const alarms = flagged.filter((r) => !r.hunkAlone);
    console.log(`\nflagged correct results: ${flagged.length}; the hunk alone leaves the file broken (its whole commit passes): ${alone.length} (${new Set(alone.map((r) => r.case)).size} hunks)`);
    console.log(`false alarms (flagged correct results whose whole commit is flagged too, or unknown): ${alarms.length}`);
    for (const r of alarms.slice(0, 20)) console.log(`- ${r.category} ${r.id}\n  ${r.note.replace(/\n/g, '\n  ')}`);
    if (a.json) writeFileSync(a.json, JSON.stringify(results.map(({ expectedText, case: _, ...r }) => r)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
