// The replay instruments' own rules: reading an aider history, placing a block by whole lines,
// finding a C/C++ definition from the text, and a pinned corpus rebuilt from its list.
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHistory } from '../bench/replay/aider-history.mjs';
import { lineMatches, replaceOnce } from '../bench/replay/failed-cases.mjs';
import { cSymbolCall, textDefs } from '../bench/replay/c-defs.mjs';
import { caseId, pinnedCases, repoCases } from '../bench/replay/cases.mjs';

const fence = '```';
const block = (path, search, replace) => `${path}\n${fence}js\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n${fence}\n`;

describe('aider history', () => {
  const history = [
    '# aider chat started at 2026-01-01 10:00:00',
    '> Main model: model-a with diff edit format',
    '#### rename the counter',
    '#### and keep the rest',
    block('src/count.js', 'let n = 0;\n', 'let count = 0;\n'),
    '> # 1 SEARCH/REPLACE block failed to match!',
    '',
    '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src\\count.js',
    '<<<<<<< SEARCH\nlet n = 0;\n=======\nlet count = 0;\n>>>>>>> REPLACE',
    '',
    block('src/count.js', 'let n = 1;\n', 'let count = 1;\n'),
    '> Commit abc1234 rename',
    '> Model: model-b',
    '#### next',
    block('src/other.js', 'a\n', 'b\n'),
  ].join('\r\n');

  it('separates the model blocks from the quoted failure and numbers them', () => {
    const h = parseHistory(history);
    expect(h.blocks.map((b) => [b.ordinal, b.path, b.model, b.turn])).toEqual([
      [0, 'src/count.js', 'model-a', 1],
      [1, 'src/count.js', 'model-a', 1],
      [2, 'src/other.js', 'model-b', 2],
    ]);
    expect(h.failures).toEqual([{ line: 15, path: 'src/count.js', search: 'let n = 0;\n', replace: 'let count = 0;\n', turn: 1 }]);
    expect(h.commits.map((c) => c.hash)).toEqual(['abc1234']);
  });
});

describe('whole-line placement', () => {
  it('matches only at line starts and replaces a single occurrence', () => {
    expect(lineMatches('xa = 1;\na = 1;\n', 'a = 1;\n')).toEqual([8]);
    expect(replaceOnce('x\ny\nz', 'z\n', 'Z\n')).toBe('x\ny\nZ');
    expect(replaceOnce('y\ny\n', 'y\n', 'Y\n')).toBeNull();
  });
});

describe('C and C++ definitions from the text', () => {
  const source = [
    '/* a comment with a brace { */',
    'static int add(int a,',
    '               int b) {',
    '  if (a) {',
    '    return a + b; // }',
    '  }',
    '  return b;',
    '}',
    'template <class T>',
    'T Box<T>::get() const {',
    '  return value;',
    '}',
    'public:',
    'static const char *',
    'name_of(int kind) {',
    '  return "kind";',
    '}',
  ].join('\n');

  it('finds each function with its template and return-type lines', () => {
    const defs = textDefs(source).map(({ name, startLine, endLine }) => ({ name, startLine, endLine }));
    expect(defs).toEqual([
      { name: 'add', startLine: 2, endLine: 8 },
      { name: 'Box::get', startLine: 9, endLine: 12 },
      { name: 'name_of', startLine: 14, endLine: 17 },
    ]);
  });

  const overloads = ['class A {', ' public:', '  int f(int x) {', '    return x;', '  }', '  int f(long x,', '        int y) {', '    return 2;', '  }', '};'].join('\n');
  const call = (start, line) => cSymbolCall({ content: overloads, hunk: { start, oldCount: 1, newLines: [line] } });

  it('names an overload bare when the commit keeps its signature, with @LINE when it changes it', () => {
    const kept = call(8, '    return 3;');
    expect(kept.params.symbol).toBe('A::f');
    expect(kept.params.new_string).toBe('  int f(long x,\n        int y) {\n    return 3;\n  }');
    expect(call(7, '        short y) {').params.symbol).toBe('A::f@6');
    expect(call(4, '    return -x;').params.symbol).toBe('A::f');
    expect(cSymbolCall({ content: source, hunk: { start: 1, oldCount: 1, newLines: ['//'] } })).toBeNull();
  });
});

describe('pinned corpus', () => {
  it('rebuilds exactly the listed hunks of the listed commits', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinned-'));
    try {
      const git = (...a) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { encoding: 'utf8' });
      git('init', '-q');
      writeFileSync(join(dir, 'a.py'), 'a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n');
      git('add', '.');
      git('commit', '-qm', 'one');
      writeFileSync(join(dir, 'a.py'), 'a = 10\nb = 2\nc = 3\nd = 4\ne = 50\n');
      git('commit', '-qam', 'two');
      const repo = { name: 'demo', dir: join(dir, '.git') };
      const sampled = repoCases(repo, { commits: 5, filesPerCommit: 3, hunksPerFile: 4 });
      expect(sampled.map(caseId)).toEqual(['a.py#0', 'a.py#1']);
      const commit = sampled[0].commit;
      const pinned = pinnedCases(repo, { [commit]: ['a.py#1'] });
      expect(pinned).toEqual([sampled[1]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('replay --preview', () => {
  it('names each way a previewed-then-applied call differs from the direct one', async () => {
    const { previewMismatches, previewReport } = await import('../bench/replay/preview-check.mjs');
    const { applyDiffToText } = await import('../lib/index.mjs');
    const call = { content: 'a\nb\n' };
    const diff = '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n';
    const same = { shown: { text: 'ok', files: [{ action: 'update', diff }] }, reply: 'ok', after: 'a\nB\n' };
    const direct = { reply: 'ok', after: 'a\nB\n' };
    expect(previewMismatches({ applyDiffToText }, call, same, direct)).toEqual([]);
    const off = { shown: { text: 'other', files: [{ action: 'update', diff }] }, reply: 'ok', after: 'a\nb\n' };
    expect(previewMismatches({ applyDiffToText }, call, off, { reply: 'ok', after: 'a\nC\n' })).toEqual(['preview text', 'file', 'diff']);
    expect(previewReport([{ applied: true, mismatches: [] }, { applied: false, mismatches: ['file'] }]))
      .toBe('preview check: 2 calls, 1 applied through their preview, 1 differ from the direct call (file 1)');
  });
});
