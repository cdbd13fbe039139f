// The C/C++ symbol corpus: hunks of pinned commits (c-symbols.txt) replayed as symbol calls that
// rewrite the whole function or type holding the hunk (the definitions and calls come from
// `c-defs.mjs`, the one home of both replays' C/C++ symbol calls).
//
// c-symbols.txt lines: `<owner>/<name> <commit> <path>`; the repository is looked up in the
// repos folder as `<owner>+<name>`, `<name>` or `<owner>/<name>` (bare, or with `.git`/`repo`).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hunks as fileHunks } from './cases.mjs';
import { cSymbolCall } from './c-defs.mjs';

export const LIST = join(dirname(fileURLToPath(import.meta.url)), 'c-symbols.txt');
const C_EXT = new Set(['.c', '.h', '.cc', '.cpp', '.hpp', '.hh', '.cxx']);
const CPP_EXT = new Set(['.cc', '.cpp', '.hpp', '.hh', '.cxx']);
const git = (dir, args) =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** The git directory of `owner/name` inside `repos`. */
function repoDir(repos, slug) {
  const [owner, name] = slug.split('/');
  for (const base of [join(repos, `${owner}+${name}`), join(repos, name), join(repos, owner, name)]) {
    for (const cand of [join(base, 'repo'), join(base, '.git'), base]) {
      if (existsSync(join(cand, 'HEAD')) && statSync(join(cand, 'objects')).isDirectory()) return cand;
    }
  }
  throw new Error(`repository ${slug} not found in ${repos} (see bench/replay/README.md)`);
}

const langOf = (slug, path, cppRepos) => (CPP_EXT.has(extname(path)) || cppRepos.has(slug) ? 'cpp' : 'c');

/** Cases of the pinned list: one per hunk (at most 4 per file) that a definition holds. */
export function cSymbolCases(repos, listFile = LIST) {
  const rows = readFileSync(listFile, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  const cppRepos = new Set(rows.filter((r) => CPP_EXT.has(extname(r.split(/\s+/)[2]))).map((r) => r.split(/\s+/)[0]));
  const cases = [];
  for (const row of rows) {
    const [slug, commit, path] = row.trim().split(/\s+/);
    const dir = repoDir(repos, slug);
    const content = git(dir, ['show', `${commit}^:${path}`]);
    for (const hunk of fileHunks(dir, `${commit}^`, commit, path).slice(0, 4)) {
      const c = { repo: slug, commit, path, lang: langOf(slug, path, cppRepos), content, hunk };
      if (cSymbolCall(c)) cases.push(c);
    }
  }
  return cases;
}

/** Writes `listFile` from the newest commits of each repository that touch a definition. */
export function pinCSymbols(repos, slugs, perRepo, listFile = LIST) {
  const out = ['# C/C++ symbol replay corpus: <owner>/<name> <commit> <path> (see c-symbols.mjs)'];
  for (const slug of slugs) {
    const dir = repoDir(repos, slug);
    const log = git(dir, ['log', '--no-merges', '--format=%H %P', '-n', '3000', 'HEAD']).trim().split('\n');
    let taken = 0;
    for (const row of log) {
      const [commit, parent, extra] = row.split(' ');
      if (!parent || extra || taken >= perRepo) continue;
      const files = git(dir, ['diff', '--name-only', '--diff-filter=M', parent, commit]).split('\n')
        .filter((p) => C_EXT.has(extname(p)) && !/(^|\/)(vendor|third_party|deps)\//.test(p)).slice(0, 3);
      let took = false;
      for (const path of files) {
        const content = git(dir, ['show', `${parent}:${path}`]);
        if (content.length > 200_000 || content.includes('\0') || content.includes('\r')) continue;
        const hunks = fileHunks(dir, parent, commit, path).slice(0, 4);
        if (hunks.some((hunk) => cSymbolCall({ content, hunk }))) {
          out.push(`${slug} ${commit} ${path}`);
          took = true;
        }
      }
      if (took) taken++;
    }
  }
  writeFileSync(listFile, out.join('\n') + '\n');
}

// `node bench/replay/c-symbols.mjs --repos DIR --pin owner/name,... [--per-repo N]` rewrites the list.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
  pinCSymbols(opt('--repos'), opt('--pin').split(','), Number(opt('--per-repo', 15)));
}
