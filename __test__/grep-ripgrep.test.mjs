// grep's output against the `rg` binary's `rg -n --sort path` on a generated tree: the same lines in
// the same order, for several patterns. Skipped (with the reason) when `rg` is not on PATH, except in
// CI (CI set), where a missing `rg` fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { grepTool } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

const rgVersion = (() => {
  try {
    return execFileSync('rg', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0];
  } catch {
    return null;
  }
})();

/** ripgrep's flags for our contract: ignore files honoured without `.git`, no config file. */
const RG = ['--no-config', '-n', '--no-heading', '--with-filename', '--color', 'never', '--no-require-git', '--sort', 'path'];
/** Ours prints at most this many characters of a line, then `[... N more characters]`. */
const MAX_LINE_CHARS = 1000;

/** A deterministic pseudo-random generator (mulberry32). */
function rng(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'beta', 'Gamma', 'needle', 'NEEDLE', 'omega', 'Delta_42', 'Zeta_07', 'plain', 'text', 'é', 'ünïcode'];
/** Names whose byte order differs from a locale or case-insensitive order. */
const NAMES = ['a', 'A', 'a-b', 'a.b', 'a_b', 'a10', 'a2', 'B', 'b', 'z', 'Z', 'é', 'mod'];

function buildTree(ws) {
  const next = rng(22);
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const line = () => Array.from({ length: 1 + Math.floor(next() * 8) }, () => pick(WORDS)).join(' ');
  for (let i = 0; i < 1500; i++) {
    const depth = 1 + Math.floor(next() * 3);
    const dirs = Array.from({ length: depth }, () => pick(NAMES));
    const lines = Array.from({ length: 1 + Math.floor(next() * 30) }, line);
    ws.write(`${dirs.join('/')}/${pick(NAMES)}${i}.${pick(['ts', 'js', 'py', 'txt'])}`, lines.join('\n') + '\n');
  }
  ws.write('.gitignore', 'ignored/\n*.log\n');
  ws.write('ignored/x.ts', 'needle omega\n');
  ws.write('debug.log', 'needle omega\n');
  ws.write('mod/.gitignore', '*.tmp\n!keep.tmp\n');
  ws.write('mod/drop.tmp', 'needle\n');
  ws.write('mod/keep.tmp', 'needle kept\n');
  ws.write('.hidden/h.ts', 'needle omega\n');
  ws.write('bin/data.bin', Buffer.concat([Buffer.from('needle omega\n'), Buffer.alloc(64), Buffer.from('needle\n')]));
  ws.write('crlf/win.txt', 'first\r\nneedle in crlf\r\nomega last\r\n');
  ws.write('long/min.js', `${'x'.repeat(1500)} needle ${'y'.repeat(700)}\nshort needle\n`);
  ws.write('empty/none.txt', '');
}

/** rg's line as ours prints it: no `\r` before the newline, text cut at MAX_LINE_CHARS characters. */
function rgLineAsOurs(line) {
  const m = /^(.*?)([:-])(\d+)\2(.*)$/s.exec(line);
  if (!m) return line; // `--` between groups
  const [, path, sep, number, rawText] = m;
  const chars = Array.from(rawText.replace(/\r$/, ''));
  const text = chars.length > MAX_LINE_CHARS ? `${chars.slice(0, MAX_LINE_CHARS).join('')} [... ${chars.length - MAX_LINE_CHARS} more characters]` : chars.join('');
  return `${path}${sep}${number}${sep}${text}`;
}

const CASES = [
  { name: 'a literal', params: { pattern: 'needle' }, rg: ['needle'] },
  { name: 'a regex with classes', params: { pattern: '[A-Z][a-z]+_\\d{2}\\b' }, rg: ['[A-Z][a-z]+_\\d{2}\\b'] },
  { name: 'an alternation', params: { pattern: 'omega|Gamma beta' }, rg: ['omega|Gamma beta'] },
  { name: 'a case-insensitive literal', params: { pattern: 'NeEdLe', ignoreCase: true }, rg: ['-i', 'NeEdLe'] },
  { name: 'non-ASCII text', params: { pattern: 'ünïcode é' }, rg: ['ünïcode é'] },
  { name: 'context lines', params: { pattern: 'omega', context: 1 }, rg: ['-C', '1', 'omega'] },
  { name: 'a type filter and a path', params: { pattern: 'Delta', fileType: 'ts', path: 'a' }, rg: ['-t', 'ts', 'Delta', 'a'] },
];

describe.skipIf(!rgVersion)(`grep's output equals rg -n --sort path (${rgVersion ?? 'rg not on PATH'})`, () => {
  let ws;
  let tool;
  beforeAll(() => {
    ws = makeWorkspace();
    buildTree(ws);
    tool = grepTool({ allowedFolders: [ws.root], cwd: ws.root });
  });
  afterAll(() => ws?.cleanup());

  for (const c of CASES) {
    it(`on ${c.name}`, async () => {
      const rg = spawnSync('rg', [...RG, ...c.rg], { cwd: ws.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(rg.status, rg.stderr).toBe(0);
      const expected = rg.stdout.split('\n').filter((l) => l !== '').map(rgLineAsOurs);
      const ours = (await tool.execute(c.params)).split('\n');
      expect(expected.length).toBeGreaterThan(c.params.context ? 20 : 5);
      expect(ours).toEqual(expected);
    });
  }

  it('checks the line mapping itself: long lines, CRLF and binary files are covered', async () => {
    const out = await tool.execute({ pattern: 'needle' });
    expect(out).toContain(`long/min.js:1:${'x'.repeat(MAX_LINE_CHARS)} [... ${1500 + 8 + 700 - MAX_LINE_CHARS} more characters]`);
    expect(out).toContain('crlf/win.txt:2:needle in crlf\n');
    expect(out).toContain('mod/keep.tmp:1:needle kept');
    expect(out).not.toMatch(/bin\/data\.bin|debug\.log|ignored\/|\.hidden|drop\.tmp/);
  });
});

if (!rgVersion) {
  // In CI (CI set) a missing rg fails the run instead of passing unnoticed.
  const needed = process.env.CI ? it : it.skip;
  describe('grep vs rg', () => {
    needed('`rg` is on PATH (install ripgrep, e.g. apt-get install ripgrep, to compare grep with rg --sort path)', () => {
      expect.fail('rg is not on PATH: install ripgrep (apt-get install ripgrep) so grep can be compared with rg --sort path');
    });
  });
}
