import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FileTracker, computeContentHash } from '../lib/index.mjs';

/** Oracle: SHA-256 of trailing-white-space-trimmed lines, first 16 hex digits. */
const oracle = (s) => createHash('sha256').update(s.split('\n').map((l) => l.trimEnd()).join('\n')).digest('hex').slice(0, 16);

describe('computeContentHash', () => {
  it('hashes like Probe (trailing white space ignored)', () => {
    const code = 'function a() {  \n  return 1;\t\n}';
    expect(computeContentHash(code)).toBe(oracle(code));
    expect(computeContentHash(code)).toBe(computeContentHash('function a() {\n  return 1;\n}'));
    expect(computeContentHash(undefined)).toBe(oracle(''));
  });
});

describe('FileTracker', () => {
  it('tracks seen files under normalized paths', () => {
    const t = new FileTracker();
    expect(t.isFileSeen('/w/a.js')).toBe(false);
    t.markFileSeen('/w/x/../a.js');
    expect(t.isFileSeen('/w/a.js')).toBe(true);
    expect(t.isTracked('/w//a.js')).toBe(true);
    expect(t.checkBeforeEdit('/w/b.js')).toEqual({ ok: false, reason: 'untracked', message: 'This file has not been read yet in this session. Use extract or search to read the file first.' });
    expect(t.checkBeforeEdit('/w/a.js').ok).toBe(true);
  });

  it('records and checks symbol content', () => {
    const t = new FileTracker();
    t.trackSymbolContent('/w/a.js', 'f', 'function f() {}', 3, 5);
    const rec = t.getSymbolRecord('/w/a.js', 'f');
    expect(rec).toMatchObject({ contentHash: oracle('function f() {}'), startLine: 3, endLine: 5, symbolName: 'f', source: 'extract' });
    expect(typeof rec.timestamp).toBe('number');
    expect(t.checkSymbolContent('/w/a.js', 'f', 'function f() {}  ').ok).toBe(true);
    expect(t.checkSymbolContent('/w/a.js', 'g', 'anything').ok).toBe(true);
    expect(t.checkSymbolContent('/w/a.js', 'f', 'function f() { x }')).toEqual({
      ok: false,
      reason: 'stale',
      message: `Symbol "f" has changed since you last read it (hash: ${oracle('function f() {}')} → ${oracle('function f() { x }')}).`,
    });
    t.trackSymbolAfterWrite('/w/a.js', 'f', 'function f() { x }', 3, 6);
    expect(t.getSymbolRecord('/w/a.js', 'f')).toMatchObject({ source: 'edit', endLine: 6 });
    t.invalidateFileRecords('/w/a.js');
    expect(t.getSymbolRecord('/w/a.js', 'f')).toBeNull();
  });

  it('counts consecutive text edits and resets on a read', () => {
    const t = new FileTracker();
    expect(t.maxConsecutiveTextEdits).toBe(3);
    t.maxConsecutiveTextEdits = 2;
    expect(t.maxConsecutiveTextEdits).toBe(2);
    t.markFileSeen('/w/a.js');
    t.recordTextEdit('/w/a.js');
    expect(t.checkTextEditStaleness('/w/a.js')).toEqual({ ok: true, editCount: 1 });
    t.recordTextEdit('/w/a.js');
    expect(t.checkTextEditStaleness('/w/a.js')).toMatchObject({ ok: false, editCount: 2 });
    t.markFileSeen('/w/a.js');
    expect(t.checkTextEditStaleness('/w/a.js')).toEqual({ ok: true, editCount: 0 });
  });

  it('learns files from extract targets and from tool output (async like Probe)', async () => {
    const t = new FileTracker();
    const pending = t.trackFilesFromExtract(['src/a.js#fn', 'src/b.js:10-20', 'src/c.js'], '/w');
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    for (const f of ['a', 'b', 'c']) expect(t.isFileSeen(`/w/src/${f}.js`)).toBe(true);
    await t.trackFilesFromOutput('File: lib/x.ts\nsome text\n--- lib/y.rs ---\nResults: 3\n', '/w');
    expect(t.isFileSeen('/w/lib/x.ts')).toBe(true);
    expect(t.isFileSeen('/w/lib/y.rs')).toBe(true);
  });

  it('trackFileAfterWrite marks seen and drops symbol records; clear forgets all', async () => {
    const t = new FileTracker();
    t.trackSymbolContent('/w/a.js', 'f', 'x', 1, 1);
    await t.trackFileAfterWrite('/w/a.js');
    expect(t.isFileSeen('/w/a.js')).toBe(true);
    expect(t.getSymbolRecord('/w/a.js', 'f')).toBeNull();
    t.clear();
    expect(t.isFileSeen('/w/a.js')).toBe(false);
  });

  it('resolves relative paths against the process cwd like path.resolve', () => {
    const t = new FileTracker();
    t.markFileSeen('rel/a.js');
    expect(t.isFileSeen(resolve('rel/a.js'))).toBe(true);
  });
});

describe("FileTracker: Probe's inspectable surface", () => {
  it('_seenFiles is a live read-only Set-like view of the normalized keys', () => {
    const t = new FileTracker();
    const seen = t._seenFiles;
    expect(seen.size).toBe(0);
    t.markFileSeen('/w/b.js');
    t.markFileSeen('/w/x/../a.js');
    expect(seen.size).toBe(2);
    expect(seen.has('/w/a.js')).toBe(true);
    expect(seen.has('/w/x/../a.js')).toBe(false);
    expect([...seen]).toEqual(['/w/a.js', '/w/b.js']);
    expect(() => seen.add('/w/c.js')).toThrow(/read-only view; change it with markFileSeen/);
    expect(() => seen.clear()).toThrow(TypeError);
    t.clear();
    expect(seen.size).toBe(0);
  });

  it('_contentRecords is a read-only Map-like view keyed "<path>#<symbol>"', () => {
    const t = new FileTracker();
    t.trackSymbolContent('/w/a/../a.js', 'foo', 'code', 3, 5);
    const records = t._contentRecords;
    expect(records.size).toBe(1);
    expect(records.has('/w/a.js#foo')).toBe(true);
    expect(records.get('/w/a.js#foo')).toMatchObject({ contentHash: oracle('code'), startLine: 3, endLine: 5, symbolName: 'foo', source: 'extract' });
    expect([...records.keys()]).toEqual(['/w/a.js#foo']);
    expect(() => records.set('k', {})).toThrow(/read-only view/);
    t.invalidateFileRecords('/w/a.js');
    expect(records.size).toBe(0);
  });

  it('records and staleness results list their keys in Probe\'s order', () => {
    const t = new FileTracker();
    t.trackSymbolContent('/w/a.js', 'foo', 'code', 3, 5);
    const order = ['contentHash', 'startLine', 'endLine', 'symbolName', 'source', 'timestamp'];
    expect(Object.keys(t.getSymbolRecord('/w/a.js', 'foo'))).toEqual(order);
    expect(Object.keys(t._contentRecords.get('/w/a.js#foo'))).toEqual(order);
    expect(Object.keys([...t._contentRecords.values()][0])).toEqual(order);
    expect(t.getSymbolRecord('/w/a.js', 'bar')).toBeNull();
    expect(JSON.stringify(t.checkTextEditStaleness('/w/a.js'))).toBe('{"ok":true,"editCount":0}');
    for (let i = 0; i < 3; i++) t.recordTextEdit('/w/a.js');
    expect(Object.keys(t.checkTextEditStaleness('/w/a.js'))).toEqual(['ok', 'editCount', 'message']);
  });

  it('debug: true prints Probe\'s [FileTracker] lines once each through console.error', () => {
    const lines = [];
    const original = console.error;
    console.error = (...args) => lines.push(args.join(' '));
    try {
      const t = new FileTracker({ debug: true });
      t.markFileSeen('/w/./a.js');
      t.trackSymbolContent('/w/a.js', 'foo', 'code', 1, 2);
      t.recordTextEdit('/w/a.js');
      t.invalidateFileRecords('/w/a.js');
      new FileTracker().markFileSeen('/w/quiet.js');
    } finally {
      console.error = original;
    }
    expect(lines).toEqual([
      '[FileTracker] Marked as seen: /w/a.js',
      `[FileTracker] Tracked symbol /w/a.js#foo (hash: ${oracle('code')}, lines 1-2)`,
      '[FileTracker] Text edit #1 for /w/a.js',
      '[FileTracker] Invalidated content records for /w/a.js',
    ]);
  });
});

it('a debug line reaches stderr once (the native tracker does not print it again)', () => {
  const entry = fileURLToPath(new URL('../lib/index.cjs', import.meta.url));
  const script = `const { FileTracker } = require(${JSON.stringify(entry)}); new FileTracker({ debug: true }).markFileSeen('/w/a.js');`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(run.stderr.split('\n').filter((l) => l.startsWith('[FileTracker]'))).toEqual(['[FileTracker] Marked as seen: /w/a.js']);
});
