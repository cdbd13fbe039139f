// A pinned replay corpus: the repositories, commits and case ids of one run, written down so that
// a rerun replays exactly the same hunks. The list holds pointers only (names, fetch sources,
// commit ids, `path#hunkIndex`), never code. Format (JSON):
//   { "repos": [ { "name", "source": "github:owner/name", "commits": { "<sha>": ["path#k", ...] } } ] }

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { caseId, gitDirs, pinnedCases } from './cases.mjs';

/** `github:owner/name` -> the folder name a fetched snapshot has (`owner+name`). */
const mirrorName = (source) => source.replace(/^github:/, '').replace('/', '+');

/** The git dir of a listed repository in `folder`: a subfolder named `name` or `owner+name`. */
function findRepo(folder, entry) {
  const dirs = gitDirs(folder);
  return dirs.find((d) => d.name === entry.name) ?? dirs.find((d) => d.name === mirrorName(entry.source ?? ''));
}

/**
 * The cases a list names, read from the repositories in `folder`. Throws, naming every source to
 * fetch, when a listed repository is missing.
 */
export function pinnedCorpus(listFile, folder) {
  const list = JSON.parse(readFileSync(listFile, 'utf8'));
  const missing = list.repos.filter((e) => !findRepo(folder, e));
  if (missing.length) {
    const names = missing.map((e) => `${e.name} (fetch ${e.source})`).join(', ');
    throw new Error(`not in ${folder}: ${names}; put their git dirs there as <name> or <owner+name>`);
  }
  const cases = [];
  for (const entry of list.repos) {
    const got = pinnedCases({ ...findRepo(folder, entry), name: entry.name }, entry.commits);
    const listed = Object.values(entry.commits).flat().length;
    if (got.length !== listed) console.error(`${entry.name}: ${got.length} of ${listed} listed hunks rebuilt`);
    cases.push(...got);
  }
  return cases;
}

/** Writes the list naming `cases`; sources come from a `.source` file or `owner+name` folder names. */
export function writePin(listFile, cases, folder) {
  const repos = new Map();
  for (const c of cases) {
    if (!repos.has(c.repo)) repos.set(c.repo, { name: c.repo, source: sourceOf(folder, c.repo), commits: {} });
    const commits = repos.get(c.repo).commits;
    (commits[c.commit] ??= []).push(caseId(c));
  }
  writeFileSync(listFile, `${JSON.stringify({ repos: [...repos.values()] }, null, 1)}\n`);
}

function sourceOf(folder, name) {
  if (name.includes('+')) return `github:${name.replace('+', '/')}`;
  try {
    return readFileSync(join(folder, name, '.source'), 'utf8').trim();
  } catch {
    return null;
  }
}
