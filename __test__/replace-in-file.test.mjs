import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replaceInFileTool, replaceInFileSchema, undoLastEdit, FileReadTracker, flushWrites } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

let ws;
let historyDir;
let tool;
beforeEach(() => {
  ws = makeWorkspace();
  historyDir = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-hist-')));
  tool = replaceInFileTool({ allowedFolders: [ws.root], cwd: ws.root, historyDir });
  ws.write('ten.txt', TEN);
});
afterEach(() => {
  ws.cleanup();
  flushWrites(); // undo levels are recorded on the engine's background thread
  rmSync(historyDir, { recursive: true, force: true });
});

const run = (replacements, filePath = 'ten.txt') => tool.execute({ filePath, replacements });
const lines = (...numbers) => numbers.map((n) => `line ${n}`);
const text = (...parts) => parts.join('\n') + '\n';

describe('replace_in_file: tool object', () => {
  it('has the replace_in_file name and schema', () => {
    expect(tool.name).toBe('replace_in_file');
    expect(tool.inputSchema).toBe(replaceInFileSchema);
    expect(tool.inputSchema.required).toEqual(['filePath', 'replacements']);
    expect(tool.inputSchema.properties.replacements.items.properties.type.enum).toEqual([
      'lines', 'insert_before', 'insert_after', 'string', 'regex',
    ]);
  });
});

describe('replace_in_file: operation types', () => {
  it('replaces a line range and reports per-operation counts', async () => {
    const out = await run([{ type: 'lines', startLine: 2, endLine: 3, replaceWith: 'two-three' }]);
    expect(out).toBe('Successfully applied 1 replacement(s) to ten.txt (1 change):\n- [1] lines 2-3: replaced 2 lines with 1 line');
    expect(ws.read('ten.txt')).toBe(text('line 1', 'two-three', ...lines(4, 5, 6, 7, 8, 9, 10)));
  });

  it('numbers every line operation against the file as read', async () => {
    const out = await run([
      { type: 'lines', startLine: 1, endLine: 1, replaceWith: 'a\nb\nc' },
      { type: 'lines', startLine: 5, endLine: 6, replaceWith: '' },
      { type: 'insert_after', lineNumber: 8, insertText: 'after 8' },
      { type: 'insert_before', lineNumber: 3, insertText: 'before 3\n' },
    ]);
    expect(out).toContain('Successfully applied 4 replacement(s) to ten.txt (4 changes):');
    expect(out).toContain('- [2] lines 5-6: deleted 2 lines');
    expect(out).toContain('- [3] insert_after 8: inserted 1 line');
    expect(ws.read('ten.txt')).toBe(
      text('a', 'b', 'c', 'line 2', 'before 3', 'line 3', 'line 4', 'line 7', 'line 8', 'after 8', 'line 9', 'line 10'),
    );
  });

  it('inserts at the top and after the last line', async () => {
    await run([
      { type: 'insert_before', lineNumber: 1, insertText: '// header' },
      { type: 'insert_after', lineNumber: 10, insertText: '// footer' },
    ]);
    expect(ws.read('ten.txt')).toBe(text('// header', ...lines(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), '// footer'));
  });

  it('keeps several inserts at one point in request order', async () => {
    await run([
      { type: 'insert_after', lineNumber: 1, insertText: 'x' },
      { type: 'insert_before', lineNumber: 2, insertText: 'y' },
    ]);
    expect(ws.read('ten.txt').split('\n').slice(0, 4)).toEqual(['line 1', 'x', 'y', 'line 2']);
  });

  it('replaces every literal occurrence, after the line operations', async () => {
    const out = await run([
      { type: 'string', searchFor: 'line', replaceWith: 'row' },
      { type: 'lines', startLine: 10, endLine: 10, replaceWith: 'last line' },
    ]);
    expect(out).toContain('- [1] string "line": 10 occurrences replaced');
    expect(ws.read('ten.txt')).toBe(text(...Array.from({ length: 9 }, (_, i) => `row ${i + 1}`), 'last row'));
  });

  it('applies regex replacements with $1 captures, in order', async () => {
    const out = await run([
      { type: 'regex', searchFor: 'line (\\d+)', replaceWith: 'L${1}' },
      { type: 'regex', searchFor: '(?m)^L1$', replaceWith: 'first' },
    ]);
    expect(out).toContain('- [1] regex /line (\\d+)/: 10 occurrences replaced');
    expect(out).toContain('- [2] regex /(?m)^L1$/: 1 occurrence replaced');
    expect(ws.read('ten.txt').startsWith('first\nL2\n')).toBe(true);
    expect(ws.read('ten.txt').endsWith('L10\n')).toBe(true);
  });

  it('deletes with an empty replaceWith (string, regex and lines)', async () => {
    ws.write('d.txt', 'keep\ndrop me\nkeep too\n');
    await run([{ type: 'string', searchFor: ' me', replaceWith: '' }], 'd.txt');
    expect(ws.read('d.txt')).toBe('keep\ndrop\nkeep too\n');
    await run([{ type: 'regex', searchFor: 'k(ee)p', replaceWith: '' }], 'd.txt');
    expect(ws.read('d.txt')).toBe('\ndrop\n too\n');
    await run([{ type: 'lines', startLine: 1, endLine: 2, replaceWith: '' }], 'd.txt');
    expect(ws.read('d.txt')).toBe(' too\n');
  });

  it('accepts line numbers as numeric strings and replacements as a JSON string', async () => {
    const replacements = JSON.stringify([{ type: 'lines', startLine: '1', endLine: '1', replaceWith: 'first' }]);
    expect(await run(replacements)).toMatch(/^Successfully applied 1 replacement/);
    expect(ws.read('ten.txt').split('\n')[0]).toBe('first');
  });

  it('keeps the final-newline state of a file without one', async () => {
    ws.write('n.txt', 'a\nb');
    await run([{ type: 'insert_after', lineNumber: 2, insertText: 'c' }], 'n.txt');
    expect(ws.read('n.txt')).toBe('a\nb\nc');
  });

  it('reports an unchanged result without writing', async () => {
    const out = await run([{ type: 'string', searchFor: 'line 1', replaceWith: 'line 1' }]);
    expect(out).toContain('nothing was written');
    expect(ws.read('ten.txt')).toBe(TEN);
  });

  it('appends a unified diff with returnDiff', async () => {
    const t = replaceInFileTool({ allowedFolders: [ws.root], cwd: ws.root, historyDir, returnDiff: true });
    const out = await t.execute({ filePath: 'ten.txt', replacements: [{ type: 'lines', startLine: 2, endLine: 2, replaceWith: 'two' }] });
    expect(out).toContain('\n\nDiff:\n```diff\n--- a/ten.txt\n+++ b/ten.txt\n');
    expect(out).toContain('-line 2\n+two\n');
  });
});

describe('replace_in_file: CRLF and BOM files', () => {
  it('edits the LF view and writes CRLF back, BOM kept', async () => {
    ws.write('w.txt', Buffer.from('\uFEFFone\r\ntwo\r\nthree\r\n', 'utf8'));
    const out = await run([
      { type: 'lines', startLine: 2, endLine: 2, replaceWith: 'TWO\r\nTWO-B' },
      { type: 'insert_after', lineNumber: 3, insertText: 'four' },
      { type: 'string', searchFor: 'one\r\nTWO', replaceWith: 'ONE\nTWO' },
    ], 'w.txt');
    expect(out).toMatch(/^Successfully/);
    expect(ws.bytes('w.txt').toString('utf8')).toBe('\uFEFFONE\r\nTWO\r\nTWO-B\r\nthree\r\nfour\r\n');
  });
});

describe('replace_in_file: errors leave the file unchanged', () => {
  const cases = [
    ['overlapping ranges, naming both', [
      { type: 'lines', startLine: 2, endLine: 4, replaceWith: 'x' },
      { type: 'lines', startLine: 4, endLine: 6, replaceWith: 'y' },
    ], /^Error performing replacements: \[2\] lines 4-6 overlaps \[1\] lines 2-4; line ranges must not overlap/],
    ['an insert inside a replaced range', [
      { type: 'lines', startLine: 2, endLine: 4, replaceWith: 'x' },
      { type: 'insert_after', lineNumber: 3, insertText: 'y' },
    ], /^Error performing replacements: \[2\] insert_after 3 falls inside the range replaced by \[1\] lines 2-4/],
    ['a line beyond the file', [{ type: 'lines', startLine: 9, endLine: 11, replaceWith: 'x' }],
      /^Error performing replacements: \[1\] lines 9-11: line 11 is beyond the end of the file \(10 lines\)/],
    ['an insert beyond the file', [{ type: 'insert_after', lineNumber: 11, insertText: 'x' }],
      /\[1\] insert_after 11: line 11 is beyond the end of the file/],
    ['a reversed range', [{ type: 'lines', startLine: 5, endLine: 4, replaceWith: 'x' }],
      /\[1\] lines 5-4: endLine \(4\) is before startLine \(5\)/],
    ['an invalid regex, naming the pattern', [{ type: 'regex', searchFor: 'a(b', replaceWith: 'x' }],
      /^Error performing replacements: replacement \[1\] \(regex\): invalid regex `a\(b`: regex parse error:[\s\S]*unclosed group/],
    ['a string that matches nothing', [
      { type: 'lines', startLine: 1, endLine: 1, replaceWith: 'changed' },
      { type: 'string', searchFor: 'absent', replaceWith: 'x' },
    ], /^Error performing replacements: \[2\] string "absent" matched nothing in the file \(after the line operations were applied\)[\s\S]*No changes were made/],
    ['a regex that matches nothing', [{ type: 'regex', searchFor: 'z{3}', replaceWith: 'x' }],
      /\[1\] regex \/z\{3\}\/ matched nothing/],
    ['a missing startLine', [{ type: 'lines', endLine: 2, replaceWith: 'x' }],
      /^Error performing replacements: replacement \[1\] \(lines\): startLine is required/],
    ['a zero line number', [{ type: 'insert_before', lineNumber: 0, insertText: 'x' }],
      /replacement \[1\] \(insert_before\): lineNumber must be a positive integer \(line numbers start at 1\), got 0/],
    ['a fractional line number', [{ type: 'lines', startLine: 1.5, endLine: 2, replaceWith: 'x' }],
      /startLine must be an integer line number, got 1\.5/],
    ['a missing replaceWith', [{ type: 'lines', startLine: 1, endLine: 1 }],
      /replacement \[1\] \(lines\): replaceWith is required \(use "" to delete the lines\)/],
    ['a non-string replaceWith', [{ type: 'string', searchFor: 'a', replaceWith: 5 }],
      /replaceWith must be a string, got 5/],
    ['a missing insertText', [{ type: 'insert_after', lineNumber: 1 }], /insertText is required/],
    ['an empty insertText', [{ type: 'insert_after', lineNumber: 1, insertText: '' }], /insertText is empty/],
    ['an empty searchFor', [{ type: 'string', searchFor: '', replaceWith: 'x' }], /searchFor must not be empty/],
    ['an unknown type', [{ type: 'replace', searchFor: 'a' }],
      /^Error performing replacements: replacement \[1\] has an unknown type "replace"; use "lines", "insert_before", "insert_after", "string" or "regex"/],
    ['a non-object replacement', ['lines 1'], /replacement \[1\] must be an object/],
    ['an empty batch', [], /replacements is empty/],
    ['missing replacements', undefined, /replacements is required/],
    ['invalid JSON replacements', '[{', /replacements is not valid JSON/],
  ];
  it.each(cases)('refuses %s', async (_, replacements, message) => {
    const out = await run(replacements);
    expect(out).toMatch(message);
    expect(ws.read('ten.txt')).toBe(TEN);
  });

  it('writes nothing when the last of several valid operations fails (atomic)', async () => {
    const out = await run([
      { type: 'lines', startLine: 1, endLine: 1, replaceWith: 'x' },
      { type: 'insert_after', lineNumber: 2, insertText: 'y' },
      { type: 'string', searchFor: 'line 3', replaceWith: 'z' },
      { type: 'regex', searchFor: '[', replaceWith: 'w' },
    ]);
    expect(out).toMatch(/^Error performing replacements: replacement \[4\] \(regex\): invalid regex `\[`/);
    expect(ws.read('ten.txt')).toBe(TEN);
  });

  it('requires filePath and an existing file', async () => {
    expect(await tool.execute({ replacements: [] })).toMatch(/^Error performing replacements: filePath is required/);
    expect(await run([{ type: 'string', searchFor: 'a', replaceWith: 'b' }], 'missing.txt')).toMatch(
      /^Error performing replacements: File not found - missing\.txt/,
    );
    expect(await tool.execute(null)).toMatch(/^Error performing replacements: filePath is required/);
  });
});

describe('replace_in_file: confinement', () => {
  it('refuses paths outside the allowed folders, relative or absolute', async () => {
    const outside = makeWorkspace('edit-engine-outside-');
    try {
      outside.write('o.txt', 'secret\n');
      const op = [{ type: 'string', searchFor: 'secret', replaceWith: 'pwned' }];
      expect(await run(op, outside.path('o.txt'))).toMatch(/^Error performing replacements: Permission denied - .* is outside allowed directories/);
      expect(await run(op, '../' + outside.root.split('/').pop() + '/o.txt')).toMatch(/outside allowed directories/);
      expect(outside.read('o.txt')).toBe('secret\n');
    } finally {
      outside.cleanup();
    }
  });

  it('resolves relative paths against workingDirectory', async () => {
    ws.write('sub/s.txt', 'a\n');
    const out = await tool.execute({
      filePath: 's.txt',
      workingDirectory: ws.path('sub'),
      replacements: [{ type: 'string', searchFor: 'a', replaceWith: 'b' }],
    });
    expect(out).toMatch(/^Successfully applied 1 replacement\(s\) to s\.txt/);
    expect(ws.read('sub/s.txt')).toBe('b\n');
  });

  it('refuses protected paths and files over maxFileBytes', async () => {
    ws.write('.git/config', 'x\n');
    const t = replaceInFileTool({ allowedFolders: [ws.root], cwd: ws.root, protectedPaths: ['.git/'], maxFileBytes: 20, historyDir });
    const op = [{ type: 'string', searchFor: 'x', replaceWith: 'y' }];
    expect(await t.execute({ filePath: '.git/config', replacements: op })).toMatch(/is a protected path/);
    expect(await t.execute({ filePath: 'ten.txt', replacements: op })).toMatch(/over the 20-byte limit/);
  });
});

describe('replace_in_file: readTracker', () => {
  it('refuses an unread file and records its own writes as read', async () => {
    const readTracker = new FileReadTracker();
    const t = replaceInFileTool({ allowedFolders: [ws.root], cwd: ws.root, historyDir, readTracker });
    const call = (n) => t.execute({ filePath: 'ten.txt', replacements: [{ type: 'lines', startLine: n, endLine: n, replaceWith: `#${n}` }] });
    expect(await call(1)).toMatch(/^Error performing replacements: ten\.txt has not been read yet in this session/);
    expect(ws.read('ten.txt')).toBe(TEN);
    readTracker.recordRead(ws.path('ten.txt'), statSync(ws.path('ten.txt')).mtimeMs);
    expect(await call(1)).toMatch(/^Successfully/);
    expect(await call(2)).toMatch(/^Successfully/);
  });
});

describe('replace_in_file: concurrency', () => {
  it('serializes concurrent batches on one file: every success is in the file', async () => {
    const calls = Array.from({ length: 10 }, (_, i) =>
      run([{ type: 'string', searchFor: `line ${i + 1}\n`, replaceWith: `done ${i + 1}\n` }]),
    );
    const results = await Promise.all(calls);
    expect(results.every((r) => r.startsWith('Successfully'))).toBe(true);
    expect(ws.read('ten.txt')).toBe(text(...Array.from({ length: 10 }, (_, i) => `done ${i + 1}`)));
  });
});

describe('replace_in_file: progress events', () => {
  it('reports 10% before and 100% after', async () => {
    const events = [];
    const t = replaceInFileTool({ allowedFolders: [ws.root], cwd: ws.root, historyDir, onProgress: (e) => events.push(e) });
    await t.execute({
      filePath: 'ten.txt',
      replacements: [
        { type: 'lines', startLine: 1, endLine: 1, replaceWith: 'x' },
        { type: 'string', searchFor: 'line', replaceWith: 'row' },
      ],
    });
    expect(events).toEqual([
      { percentage: 10, operation: 'Processing 2 replacement(s)...', details: 'Reading file: ten.txt' },
      { percentage: 100, operation: 'Replacements completed', details: 'Applied 10 change(s)' },
    ]);
  });

  it('ends with a failure event on error', async () => {
    const events = [];
    const t = replaceInFileTool({ allowedFolders: [ws.root], cwd: ws.root, historyDir, onProgress: (e) => events.push(e) });
    const out = await t.execute({ filePath: 'ten.txt', replacements: [{ type: 'string', searchFor: 'zzz', replaceWith: 'x' }] });
    expect(events.map((e) => e.percentage)).toEqual([10, 100]);
    expect(events[1]).toEqual({ percentage: 100, operation: 'Replacements failed', details: out });
  });

  it('survives a throwing or rejecting callback', async () => {
    const throwing = replaceInFileTool({ allowedFolders: [ws.root], cwd: ws.root, historyDir, onProgress: () => { throw new Error('boom'); } });
    const rejecting = replaceInFileTool({ allowedFolders: [ws.root], cwd: ws.root, historyDir, onProgress: async () => { throw new Error('boom'); } });
    const op = { filePath: 'ten.txt', replacements: [{ type: 'lines', startLine: 1, endLine: 1, replaceWith: 'x' }] };
    expect(await throwing.execute(op)).toMatch(/^Successfully/);
    expect(await rejecting.execute({ ...op, replacements: [{ type: 'lines', startLine: 2, endLine: 2, replaceWith: 'y' }] })).toMatch(/^Successfully/);
    expect(ws.read('ten.txt').split('\n').slice(0, 2)).toEqual(['x', 'y']);
  });
});

describe('replace_in_file: undo', () => {
  it('records each batch so undoLastEdit restores the previous content', async () => {
    await run([{ type: 'lines', startLine: 1, endLine: 1, replaceWith: 'first' }]);
    await run([{ type: 'string', searchFor: 'line 2', replaceWith: 'second' }]);
    const opts = { allowedFolders: [ws.root], cwd: ws.root, historyDir };
    expect(await undoLastEdit('ten.txt', opts)).toBe(
      'Last edit to ten.txt undone successfully: restored the content from before the last replace_in_file write (1 earlier level remains).',
    );
    expect(ws.read('ten.txt')).toBe(text('first', ...lines(2, 3, 4, 5, 6, 7, 8, 9, 10)));
    await undoLastEdit(ws.path('ten.txt'), opts);
    expect(ws.read('ten.txt')).toBe(TEN);
    expect(await undoLastEdit('ten.txt', opts)).toMatch(/^Error: No edit history found for ten\.txt\./);
  });
});
