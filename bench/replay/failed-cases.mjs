// Real failed model edits from aider histories committed in public repositories: finding them
// (a block aider reported as not matching, the model's retry that applied, the file state in the
// repository's commits) and turning a pointer record back into a case.
//
// A record (one line of failed-edits.json) holds pointers only:
//   { repo: "owner/name", history: "<commit>:<path of the history>", block: <ordinal of the failed
//     block>, retry: <ordinal of the retry that applied, or null>, model, path: <edited file>,
//     state: <commit whose file the model was editing>, result: <commit holding the edit> }

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { blockKey, firstLine, parseHistory } from './aider-history.mjs';

const git = (dir, args) =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
const tryGit = (dir, args) => {
  try {
    return git(dir, args);
  } catch {
    return null;
  }
};

/** The git dir of `owner/name` in a folder of fetched snapshots (`owner+name/repo`) or clones. */
export function repoDir(folder, repo) {
  for (const cand of [join(folder, repo.replace('/', '+'), 'repo'), join(folder, repo.replace('/', '+')), join(folder, repo.split('/')[1])]) {
    if (existsSync(join(cand, 'objects'))) return cand;
    if (existsSync(join(cand, '.git', 'objects'))) return join(cand, '.git');
  }
  return null;
}

/** Offsets where `block` (whole lines ending in `\n`) starts at a line start of `text`. */
export function lineMatches(text, block) {
  if (!block) return [];
  const t = text.endsWith('\n') ? text : `${text}\n`;
  const hits = [];
  for (let at = t.indexOf(block); at >= 0; at = t.indexOf(block, at + 1)) {
    if (at === 0 || t[at - 1] === '\n') hits.push(at);
  }
  return hits;
}

/** `text` with the single whole-line occurrence of `search` replaced, or null when not exactly one. */
export function replaceOnce(text, search, replace) {
  const hits = lineMatches(text, search);
  if (hits.length !== 1) return null;
  const end = hits[0] + search.length;
  const tail = end > text.length ? '' : text.slice(end);
  const body = end > text.length ? replace.replace(/\n$/, '') : replace;
  return text.slice(0, hits[0]) + body + tail;
}

/**
 * How much a later block looks like a retry of `a`: two points per line the two share on either
 * side, one when a line of `a`'s SEARCH sits inside a line of `b`'s (a fragment widened to its
 * line). Lines are compared trimmed; lines of fewer than 8 characters (braces, `else:`) do not count.
 */
function likeness(a, b) {
  const lines = (s) => s.split('\n').map((l) => l.trim()).filter((l) => l.length >= 8);
  const shared = (x, y) => lines(x).filter((l) => lines(y).includes(l)).length;
  const inside = lines(a.search).some((l) => lines(b.search).some((m) => m !== l && m.includes(l)));
  return 2 * (shared(a.search, b.search) + shared(a.replace, b.replace)) + (inside ? 1 : 0);
}

/** Whether `text` already holds `replace` (at least 2 non-blank lines) once, as whole lines. */
export const holdsReplace = (text, replace) =>
  replace.split('\n').filter((l) => l.trim()).length >= 2 && lineMatches(text, replace).length === 1;

/**
 * The block a report quotes: the latest block before it for the same file, in the same turn,
 * with the same SEARCH side, or failing that the same first line.
 */
function failedBlock(h, failure) {
  const before = h.blocks.filter((b) => b.line < failure.line && b.turn === failure.turn && b.path === failure.path);
  const block =
    before.filter((b) => blockKey(b.search) === blockKey(failure.search)).pop() ??
    before.filter((b) => firstLine(b.search) === firstLine(failure.search)).pop();
  return block?.search.trim() ? block : null;
}

/**
 * Each failed block with the model's retry of it: the later block for the same file, within the
 * next two turns, that was not reported as failed itself and looks most like it.
 */
function failedPairs(h) {
  const failed = new Map();
  for (const f of h.failures) {
    const b = failedBlock(h, f);
    if (b && !failed.has(b.ordinal)) failed.set(b.ordinal, { block: b, turn: f.turn, line: f.line });
  }
  const pairs = [];
  for (const { block, turn, line } of failed.values()) {
    const later = h.blocks.filter((b) => b.line > line && b.turn <= turn + 2 && b.path === block.path && !failed.has(b.ordinal));
    const retries = later.filter((b) => b.search.trim() && likeness(block, b) > 0);
    const retry = retries.sort((a, b) => likeness(block, b) - likeness(block, a))[0];
    pairs.push({ failed: block, retry });
  }
  return pairs;
}

/** The file at `commit`, or null. */
const fileAt = (dir, commit, path) => tryGit(dir, ['show', `${commit}:${path}`]);

/** The text as aider read it (line endings as LF). */
const lf = (text) => text && text.replace(/\r\n/g, '\n');

/** Whether `content` is a state the failed block was made against and the retry applies to. */
const isState = (content, pair) =>
  content !== null && lineMatches(lf(content), pair.retry.search).length === 1 && lineMatches(lf(content), pair.failed.search).length === 0;

/**
 * The commits of the file state and of the retry's result: the commit aider reported after the
 * retry when it exists, else the file's versions, oldest first, searched for a state followed by
 * a version holding the retry's new text.
 */
function stateOf(dir, h, pair) {
  const { path } = pair.failed;
  const after = h.commits.find((c) => c.line > pair.retry.line);
  const full = after && tryGit(dir, ['rev-parse', '--verify', '--quiet', `${after.hash}^{commit}`]);
  if (full && isState(fileAt(dir, `${full.trim()}^`, path), pair)) {
    return { state: git(dir, ['rev-parse', `${full.trim()}^`]).trim(), result: full.trim() };
  }
  const log = tryGit(dir, ['log', '--all', '--reverse', '--format=%H', '--', path]);
  const versions = (log ?? '').split('\n').filter(Boolean);
  for (let i = 0; i < versions.length; i++) {
    if (!isState(fileAt(dir, versions[i], path), pair)) continue;
    const next = versions[i + 1] && fileAt(dir, versions[i + 1], path);
    if (next && lineMatches(lf(next), pair.retry.replace).length > 0) return { state: versions[i], result: versions[i + 1] };
  }
  return null;
}

/** Paths of aider chat histories ever committed in a repository (`.aider.chat.history.md`, or renamed without the dot). */
export function historyPaths(dir) {
  const names = tryGit(dir, ['log', '--all', '--format=', '--name-only', '--diff-filter=AM', '--', '.aider.chat.history.md', '*/.aider.chat.history.md', 'aider.chat.history.md', '*/aider.chat.history.md']);
  return [...new Set((names ?? '').split('\n').filter(Boolean))];
}

/**
 * The records of every failed block with a retry and a recoverable state in one history of a
 * repository (its last committed version); `lost` counts the reports left out, by reason.
 */
/**
 * Where no retry applied: the file's versions, oldest first, searched for one the failed block
 * does not match, followed by one that differs from it only by the block's REPLACE text, in place
 * of lines sharing a line with its SEARCH (the edit as the model meant it, made by a later commit).
 */
function landedLater(dir, failed) {
  const log = tryGit(dir, ['log', '--all', '--reverse', '--format=%H', '--', failed.path]);
  const versions = (log ?? '').split('\n').filter(Boolean);
  for (let i = 0; i + 1 < versions.length; i++) {
    const before = lf(fileAt(dir, versions[i], failed.path));
    const after = lf(fileAt(dir, versions[i + 1], failed.path));
    if (before === null || after === null || lineMatches(before, failed.search).length) continue;
    if (replacedRegion(before, after, failed.replace, failed.search)) return { state: versions[i], result: versions[i + 1] };
  }
  return null;
}

/** Whether `after` is `before` with one run of lines, sharing a line with `search`, replaced by `replace`. */
function replacedRegion(before, after, replace, search) {
  const hits = lineMatches(after, replace);
  if (hits.length !== 1 || lineMatches(before, replace).length) return false;
  const b = before.split('\n'), a = after.split('\n');
  const r0 = after.slice(0, hits[0]).split('\n').length - 1;
  const r1 = r0 + replace.split('\n').length - 1;
  const tail = a.length - r1;
  if (r0 + tail > b.length) return false;
  if (a.slice(0, r0).join('\n') !== b.slice(0, r0).join('\n') || a.slice(r1).join('\n') !== b.slice(b.length - tail).join('\n')) return false;
  const old = b.slice(r0, b.length - tail).map((l) => l.trim()).filter(Boolean);
  return search.split('\n').some((l) => l.trim() && old.includes(l.trim()));
}

/**
 * A block re-sent after it was applied: the file at the last commit aider reported before the
 * failure holds the block's REPLACE text and not its SEARCH text (aider says so too: "The REPLACE
 * lines are already in ..."). The intended result is the file unchanged.
 */
function alreadyThere(dir, h, failed) {
  const before = h.commits.filter((c) => c.line < failed.line).pop();
  const full = before && tryGit(dir, ['rev-parse', '--verify', '--quiet', `${before.hash}^{commit}`])?.trim();
  const content = full && lf(fileAt(dir, full, failed.path));
  if (!content || lineMatches(content, failed.search).length || !holdsReplace(content, failed.replace)) return null;
  return { state: full, result: full };
}

export function findCases(dir, repo, historyPath, lost = {}) {
  const commit = tryGit(dir, ['log', '--all', '--diff-filter=AM', '--format=%H', '-n1', '--', historyPath])?.trim();
  if (!commit) return [];
  const h = parseHistory(fileAt(dir, commit, historyPath) ?? '');
  const records = [];
  const pairs = failedPairs(h);
  lost['no block'] = (lost['no block'] ?? 0) + h.failures.length - pairs.length;
  for (const pair of pairs) {
    const viaRetry = pair.retry && stateOf(dir, h, pair);
    const at = viaRetry || alreadyThere(dir, h, pair.failed) || landedLater(dir, pair.failed);
    if (!at) {
      const why = pair.retry ? 'no state' : 'no retry';
      lost[why] = (lost[why] ?? 0) + 1;
      continue;
    }
    const { failed } = pair;
    const retry = viaRetry ? pair.retry.ordinal : null;
    records.push({ repo, history: `${commit}:${historyPath}`, block: failed.ordinal, retry, model: failed.model, path: failed.path, ...at });
  }
  return records;
}

/**
 * A record turned back into a case: `{ id, model, path, content, old_string, new_string,
 * expected, ownText }` (`expected`: the state unchanged when it already holds the block's REPLACE
 * text, else the state with the retry applied, or without a retry the result commit's file, which
 * holds the block's own text; `ownText`: the retry's place
 * given the failed block's own new text; a file whose every line ends in CRLF keeps CRLF, as aider
 * writes it). `{ missing }`, with the reason, when the pointers do not resolve.
 */
export function loadCase(folder, rec) {
  const dir = repoDir(folder, rec.repo);
  if (!dir) return { missing: `no snapshot of ${rec.repo} in ${folder} (fetch github:${rec.repo})` };
  const at = rec.history.indexOf(':');
  const text = fileAt(dir, rec.history.slice(0, at), rec.history.slice(at + 1));
  const content = fileAt(dir, rec.state, rec.path);
  if (text === null || content === null) return { missing: `${rec.repo}: history or state not found` };
  const { blocks } = parseHistory(text);
  const failed = blocks[rec.block];
  const retry = rec.retry === null ? null : blocks[rec.retry];
  const crlf = content.includes('\r\n') && !/(^|[^\r])\n/.test(content);
  const endings = (t) => (t !== null && crlf ? t.replace(/\n/g, '\r\n') : t);
  const already = holdsReplace(lf(content), failed?.replace ?? '');
  const expected = already ? content : retry ? endings(replaceOnce(lf(content), retry.search, retry.replace)) : fileAt(dir, rec.result, rec.path);
  if (!failed || (rec.retry !== null && !retry) || expected === null) {
    return { missing: `${rec.repo}: blocks ${rec.block}/${rec.retry} do not resolve` };
  }
  const ownText = retry && !already ? endings(replaceOnce(lf(content), retry.search, failed.replace)) : null;
  return { id: `${rec.repo}#${rec.block}`, model: rec.model, path: rec.path, content, old_string: failed.search, new_string: failed.replace, expected, ownText };
}
