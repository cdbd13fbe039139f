#!/usr/bin/env node
// Real-commit replay: every changed hunk of sampled commits becomes text-, line- and symbol-mode
// edit calls (exact and with the mistakes models make), run through the built addon's editTool;
// each result is judged against the exact post-commit file. See README.md beside this file.
//
// Usage: node bench/replay/replay.mjs --repos DIR [--cache DIR] [--commits N] [--rebuild] [--json OUT]
//        [--lib PATH/TO/lib/index.mjs] (another build of the package, e.g. to compare with main)
//        [--pinned [LIST]] (the cases the list names, default corpus.json beside this file)
//        [--pin LIST] (write the cases in use as such a list)
//        [--preview] (also preview each call and apply the preview: it must equal the direct call)

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gitDirs, repoCases } from './cases.mjs';
import { pinnedCorpus, writePin } from './pinned.mjs';
import { applyCall, caseCalls } from './calls.mjs';
import { cSymbolCases } from './c-symbols.mjs';
import { cSymbolCall } from './c-defs.mjs';
import { judge, markPythonFailures, report } from './judge.mjs';
import { previewMismatches, previewReport, previewThenApply } from './preview-check.mjs';

const PINNED = new URL('./corpus.json', import.meta.url).pathname;

function args() {
  const a = { cache: join(homedir(), '.cache', 'edit-engine-replay'), commits: 40, rebuild: false };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--repos') a.repos = argv[++i];
    else if (k === '--cache') a.cache = argv[++i];
    else if (k === '--commits') a.commits = Number(argv[++i]);
    else if (k === '--rebuild') a.rebuild = true;
    else if (k === '--json') a.json = argv[++i];
    else if (k === '--lib') a.lib = argv[++i];
    else if (k === '--pinned') a.pinned = argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : PINNED;
    else if (k === '--pin') a.pin = argv[++i];
    else if (k === '--c-symbols') a.cSymbols = true;
    else if (k === '--preview') a.preview = true;
    else throw new Error(`unknown argument ${k}`);
  }
  a.repos ??= process.env.EDIT_ENGINE_REPLAY_REPOS ?? join(a.cache, 'repos');
  return a;
}

/**
 * The base cases (one per hunk): those a pinned list names, or sampled from the cache unless
 * `--rebuild` or the cache is missing.
 */
function baseCases(a) {
  if (a.pinned) return pinnedCorpus(a.pinned, a.repos);
  const file = join(a.cache, `cases-${a.commits}.json`);
  if (!a.rebuild && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  if (!existsSync(a.repos)) throw new Error(`no repositories folder ${a.repos} (see bench/replay/README.md)`);
  const cases = [];
  for (const repo of gitDirs(a.repos)) {
    const got = repoCases(repo, { commits: a.commits, filesPerCommit: 3, hunksPerFile: 4 });
    console.error(`${repo.name}: ${got.length} hunks`);
    cases.push(...got);
  }
  mkdirSync(a.cache, { recursive: true });
  writeFileSync(file, JSON.stringify(cases));
  return cases;
}

async function main() {
  const a = args();
  const api = await import(a.lib ? pathToFileURL(resolve(a.lib)).href : '../../lib/index.mjs');
  const cases = a.cSymbols ? cSymbolCases(a.repos) : baseCases(a);
  if (a.pin && !a.cSymbols) writePin(a.pin, cases, a.repos);
  const dir = mkdtempSync(join(tmpdir(), 'edit-engine-replay-'));
  const edit = api.editTool({ cwd: dir, allowedFolders: [dir], history: false });
  const results = [];
  const checks = [];
  let n = 0;
  for (const c of cases) {
    for (const call of a.cSymbols ? [cSymbolCall(c)] : await caseCalls(api, dir, c)) {
      const file = join(dir, `case${n++}${extname(c.path)}`);
      const viaPreview = a.preview ? await previewThenApply(edit, file, call) : undefined;
      const out = await applyCall(edit, file, call);
      if (viaPreview) checks.push({ applied: viaPreview.shown.ok, mismatches: previewMismatches(api, call, viaPreview, { reply: out.reply, after: out.after }) });
      results.push({ lang: c.lang, category: call.category, id: `${c.repo}@${c.commit}:${c.path}`, ...judge(call, out, c) });
      if (!c.path.endsWith('.py')) rmSync(out.file);
    }
  }
  markPythonFailures(results);
  rmSync(dir, { recursive: true, force: true });
  if (a.json) writeFileSync(a.json, JSON.stringify(results.map(({ expectedText, ...r }) => r)));
  console.log(report(results));
  if (a.preview) {
    console.log(previewReport(checks));
    if (checks.some((c) => c.mismatches.length > 0)) process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
