#!/usr/bin/env node
// Real failed model edits: SEARCH/REPLACE blocks that did not match when a model sent them
// (aider histories committed in public repositories), replayed as `edit` calls (old_string =
// SEARCH, new_string = REPLACE) on the file as the model saw it, and judged against the model's
// retry that applied (or the commit that made the edit). See README.md beside this file.
//
// Usage: node bench/replay/failed-edits.mjs [--repos DIR] [--list FILE] [--cache DIR] [--rebuild]
//        [--json OUT] [--lib PATH/TO/lib/index.mjs]
//        node bench/replay/failed-edits.mjs --find --repos DIR [--list FILE]   (rewrite the list)

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findCases, historyPaths, loadCase, repoDir } from './failed-cases.mjs';

function args() {
  const a = { list: new URL('./failed-edits.json', import.meta.url).pathname, cache: join(homedir(), '.cache', 'edit-engine-replay') };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--repos') a.repos = argv[++i];
    else if (k === '--list') a.list = argv[++i];
    else if (k === '--cache') a.cache = argv[++i];
    else if (k === '--rebuild') a.rebuild = true;
    else if (k === '--json') a.json = argv[++i];
    else if (k === '--lib') a.lib = argv[++i];
    else if (k === '--find') a.find = true;
    else throw new Error(`unknown argument ${k}`);
  }
  a.repos ??= process.env.EDIT_ENGINE_FAILED_EDITS_REPOS ?? join(a.cache, 'snapshots');
  return a;
}

/** Writes the list of every case found in the snapshots under `a.repos` (`owner+name` folders). */
function find(a) {
  const records = [];
  const lost = {};
  for (const name of readdirSync(a.repos).sort()) {
    if (!name.includes('+')) continue;
    const repo = name.replace('+', '/');
    const dir = repoDir(a.repos, repo);
    for (const path of dir ? historyPaths(dir) : []) records.push(...findCases(dir, repo, path, lost));
  }
  writeFileSync(a.list, `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
  console.log(`${records.length} cases written to ${a.list}; reports left out: ${JSON.stringify(lost)}`);
}

/** The cases of the list, from the cache unless `--rebuild` or the list changed. */
function cases(a) {
  const list = readFileSync(a.list, 'utf8');
  const file = join(a.cache, `failed-edits-${basename(a.list, '.json')}.json`);
  if (!a.rebuild && existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    if (cached.list === list) return cached.cases;
  }
  const got = [];
  for (const rec of JSON.parse(list)) {
    const c = loadCase(a.repos, rec);
    if (c.missing) console.error(`skipped: ${c.missing}`);
    else got.push(c);
  }
  mkdirSync(a.cache, { recursive: true });
  writeFileSync(file, JSON.stringify({ list, cases: got }));
  return got;
}

const squeeze = (s) => s.replace(/\r\n/g, '\n').split('\n').map((l) => l.trim());
const sameUpToWhitespace = (x, y) => squeeze(x).join('\n') === squeeze(y).join('\n');

/**
 * The file with the failed block's SEARCH lines replaced by its REPLACE lines, where those lines
 * (each trimmed, blank edge lines left out) occur at exactly one place; `null` otherwise. The
 * retry's SEARCH may cover other lines than the failed one, so the retry's place alone can miss
 * the block's own text.
 */
function ownTextAtSearch(c) {
  const core = (t) => t.replace(/\r\n/g, '\n').replace(/^(\s*\n)+/, '').trimEnd().split('\n');
  const want = core(c.old_string).map((l) => l.trim());
  const lines = c.content.replace(/\r\n/g, '\n').split('\n');
  const places = [];
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (want.every((w, k) => lines[i + k].trim() === w)) places.push(i);
  }
  if (places.length !== 1) return null;
  const at = places[0];
  return [...lines.slice(0, at), ...core(c.new_string), ...lines.slice(at + want.length)].join('\n');
}

/**
 * rescued (the retry's result byte for byte) | own-text (the failed block's own new text, in the
 * retry's place) | whitespace (either, up to indentation and line endings; the own text also
 * where the failed SEARCH lines are, see `ownTextAtSearch`) | refused (an error reply, file
 * untouched) | wrong (anything else, a changed file on an error reply included).
 */
export function judgeFailed(c, reply, after) {
  if (reply.startsWith('Error')) return after === c.content ? 'refused' : 'wrong';
  if (after === c.expected) return 'rescued';
  if (c.ownText !== null && after === c.ownText) return 'own-text';
  if (sameUpToWhitespace(after, c.expected) || (c.ownText !== null && sameUpToWhitespace(after, c.ownText))) return 'whitespace';
  const atSearch = c.ownText !== null ? ownTextAtSearch(c) : null;
  if (atSearch !== null && sameUpToWhitespace(after, atSearch)) return 'whitespace';
  return 'wrong';
}

/** The model's name without its provider prefix. */
const modelName = (m) => (m ?? 'unknown').split('/').pop();

function report(results) {
  const cols = ['total', 'rescued', 'own-text', 'whitespace', 'refused', 'wrong'];
  const groups = new Map();
  for (const r of results) groups.set(r.model, [...(groups.get(r.model) ?? []), r]);
  const rows = [...[...groups].sort(([x], [y]) => x.localeCompare(y)), ['**all**', results]].map(([name, rs]) => {
    const n = (o) => rs.filter((r) => r.outcome === o).length;
    return `| ${name} | ${rs.length} | ${cols.slice(1).map(n).join(' | ')} |`;
  });
  return [`| model | ${cols.join(' | ')} |`, `|${' --- |'.repeat(cols.length + 1)}`, ...rows].join('\n');
}

async function main() {
  const a = args();
  if (a.find) return find(a);
  const api = await import(a.lib ? pathToFileURL(resolve(a.lib)).href : '../../lib/index.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'edit-engine-failed-'));
  const edit = api.editTool({ cwd: dir, allowedFolders: [dir], history: false });
  const results = [];
  for (const [n, c] of cases(a).entries()) {
    const file = join(dir, `case${n}-${basename(c.path)}`);
    writeFileSync(file, c.content);
    const reply = await edit.execute({ file_path: file, old_string: c.old_string, new_string: c.new_string });
    const after = readFileSync(file, 'utf8');
    const afterHash = createHash('sha256').update(after).digest('hex').slice(0, 16);
    results.push({ id: c.id, model: modelName(c.model), path: c.path, outcome: judgeFailed(c, reply, after), reply: reply.slice(0, 300), afterHash });
    rmSync(file);
  }
  rmSync(dir, { recursive: true, force: true });
  if (a.json) writeFileSync(a.json, JSON.stringify(results, null, 1));
  console.log(report(results));
  const wrong = results.filter((r) => r.outcome === 'wrong');
  for (const r of wrong.slice(0, 10)) console.log(`wrong: ${r.id} ${r.path}: ${r.reply.split('\n')[0]}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
