// Turns the changed hunks of real commits into edit cases with their exact expected result.
// A case is { repo, commit, path, lang, content, hunk: { start, oldLines, newLines } } before
// perturbation; the hunk alone is applied to the parent's file to get the expected content.

import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, extname } from 'node:path';

/** Extension -> language name used in the report. */
export const LANGUAGES = {
  '.py': 'python', '.rs': 'rust', '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
  '.ts': 'typescript', '.tsx': 'tsx', '.go': 'go', '.java': 'java', '.rb': 'ruby', '.c': 'c',
  '.h': 'c-header', '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.kt': 'kotlin',
  '.cs': 'csharp', '.php': 'php', '.swift': 'swift', '.scala': 'scala', '.lua': 'lua',
};

const MAX_FILE_BYTES = 200_000;
const git = (dir, args) =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** Git directories (bare, or a work tree's `.git`) directly inside `folder`. */
export function gitDirs(folder) {
  const dirs = [];
  for (const name of readdirSync(folder)) {
    const base = join(folder, name);
    if (!statSync(base).isDirectory()) continue;
    for (const cand of [join(base, '.git'), join(base, 'repo'), base]) {
      try {
        if (statSync(join(cand, 'HEAD')).isFile() && statSync(join(cand, 'objects')).isDirectory()) {
          dirs.push({ name, dir: cand });
          break;
        }
      } catch {}
    }
  }
  return dirs;
}

/** `-U0` hunks of one file between two commits: { start (1-based old line), oldCount, newLines }. */
export function hunks(dir, parent, commit, path) {
  const diff = git(dir, ['diff', '-U0', '--no-color', '--no-ext-diff', parent, commit, '--', path]);
  const out = [];
  let cur = null;
  for (const line of diff.split('\n')) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
    if (m) {
      cur = { start: Number(m[1]), oldCount: m[2] === undefined ? 1 : Number(m[2]), newLines: [] };
      out.push(cur);
    } else if (cur && line.startsWith('+') && !line.startsWith('+++')) {
      cur.newLines.push(line.slice(1));
    } else if (line.startsWith('\\')) {
      cur = null; // "\ No newline at end of file": skip such hunks' tails
      out.pop();
    }
  }
  return out;
}

/** Files of `commit` the replay edits: modified source files outside vendored folders. */
function editedFiles(dir, parent, commit) {
  return git(dir, ['diff', '--name-only', '--diff-filter=M', parent, commit])
    .split('\n')
    .filter((p) => LANGUAGES[extname(p)] && !/(^|\/)(vendor|third_party|node_modules)\//.test(p));
}

/**
 * Cases of one file of one commit: its first `hunksPerFile` hunks, or those numbered in `only`
 * (0-based). Each case carries `hunkIndex`; `caseId` names it.
 */
function fileCases(repo, commit, parent, path, { hunksPerFile, only }) {
  let content;
  try {
    content = git(repo.dir, ['show', `${parent}:${path}`]);
  } catch {
    return [];
  }
  if (content.length > MAX_FILE_BYTES || content.includes('\0') || content.includes('\r')) return [];
  return hunks(repo.dir, parent, commit, path)
    .map((hunk, hunkIndex) => ({ repo: repo.name, commit: commit.slice(0, 10), path, lang: LANGUAGES[extname(path)], content, hunk, hunkIndex }))
    .filter((c) => (only ? only.includes(c.hunkIndex) : c.hunkIndex < hunksPerFile));
}

/** A case's stable id within its repository: `path#hunkIndex` (the commit is listed apart). */
export const caseId = (c) => `${c.path}#${c.hunkIndex}`;

/** Cases from up to `commits` non-merge commits of one repository. */
export function repoCases(repo, { commits, filesPerCommit, hunksPerFile }) {
  const log = git(repo.dir, ['log', '--no-merges', '--format=%H %P', '-n', String(commits * 6), 'HEAD']);
  const cases = [];
  let used = 0;
  for (const row of log.trim().split('\n')) {
    const [commit, parent, extra] = row.split(' ');
    if (!parent || extra || used >= commits) continue;
    let took = false;
    for (const path of editedFiles(repo.dir, parent, commit).slice(0, filesPerCommit)) {
      const got = fileCases(repo, commit, parent, path, { hunksPerFile });
      for (const c of got) cases.push({ ...c, commit });
      took ||= got.length > 0;
    }
    if (took) used++;
  }
  return cases;
}

/**
 * The cases a pinned list names for one repository: `commits` maps a full commit id to its case
 * ids (`path#hunkIndex`). Throws when a commit is missing from the repository.
 */
export function pinnedCases(repo, commits) {
  const cases = [];
  for (const [commit, ids] of Object.entries(commits)) {
    const parent = git(repo.dir, ['rev-parse', `${commit}^`]).trim();
    const byPath = new Map();
    for (const id of ids) {
      const at = id.lastIndexOf('#');
      const path = id.slice(0, at);
      byPath.set(path, [...(byPath.get(path) ?? []), Number(id.slice(at + 1))]);
    }
    for (const [path, only] of byPath) {
      for (const c of fileCases(repo, commit, parent, path, { only })) cases.push({ ...c, commit });
    }
  }
  return cases;
}

/** The content with only `hunk` applied (lines joined with LF, as the file's). */
export function applyHunk(content, hunk) {
  const lines = content.split('\n');
  // -U0: an insertion's start is the line after which the new lines go.
  const at = hunk.oldCount === 0 ? hunk.start : hunk.start - 1;
  lines.splice(at, hunk.oldCount, ...hunk.newLines);
  return lines.join('\n');
}
