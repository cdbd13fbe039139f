import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, linkSync, readdirSync } from 'node:fs';
import {
  applyPatchTool,
  applyDiffTool,
  applyPatchToText,
  applyDiffToText,
  undoLastEdit,
} from '../lib/index.mjs';
import registry from '../lib/registry.cjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
let outside;
let patchTool;
let diffTool;
beforeEach(() => {
  ws = makeWorkspace();
  outside = makeWorkspace('edit-engine-outside-');
  const options = { allowedFolders: [ws.root], cwd: ws.root, historyDir: ws.path('.history') };
  patchTool = applyPatchTool(options);
  diffTool = applyDiffTool(options);
});
afterEach(() => {
  ws.cleanup();
  outside.cleanup();
});

const envelope = (...sections) => ['*** Begin Patch', ...sections, '*** End Patch'].join('\n');
const numbered = (n) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

describe('apply_patch (V4A)', () => {
  it('adds, updates, moves and deletes files in one call', async () => {
    ws.write('src/a.py', 'class A:\n    def run(self):\n        return 1\n');
    ws.write('old.txt', 'bye\n');
    ws.write('move.txt', 'x\ny\n');
    const out = await patchTool.execute({
      input: envelope(
        '*** Add File: docs/new.md',
        '+# New',
        '+text',
        '*** Update File: src/a.py',
        '@@ class A:',
        '@@     def run(self):',
        '-        return 1',
        '+        return 2',
        '*** Delete File: old.txt',
        '*** Update File: move.txt',
        '*** Move to: moved/there.txt',
        ' x',
        '-y',
        '+Y',
      ),
    });
    expect(out).toMatch(/^Success\. Patch applied to 5 file\(s\)/);
    expect(ws.read('docs/new.md')).toBe('# New\ntext\n');
    expect(ws.read('src/a.py')).toBe('class A:\n    def run(self):\n        return 2\n');
    expect(existsSync(ws.path('old.txt'))).toBe(false);
    expect(existsSync(ws.path('move.txt'))).toBe(false);
    expect(ws.read('moved/there.txt')).toBe('x\nY\n');
  });

  it('appends a chunk of added lines without context at the end, wherever it sits', async () => {
    ws.write('panic.txt', 'line1\nline2\nline3\n');
    const out = await patchTool.execute({
      input: envelope('*** Update File: panic.txt', '@@', '+after-context', '+second-line', '@@', ' line1', '-line2', '-line3', '+line2-replacement'),
    });
    expect(out).toMatch(/^Success/);
    expect(ws.read('panic.txt')).toBe('line1\nline2-replacement\nafter-context\nsecond-line\n');
  });

  it('keeps CRLF line endings and a BOM', async () => {
    ws.write('w.txt', '\uFEFFa\r\nb\r\n');
    const out = await patchTool.execute({ input: envelope('*** Update File: w.txt', ' a', '-b', '+c') });
    expect(out).toMatch(/^Success/);
    expect(ws.bytes('w.txt').toString('utf8')).toBe('\uFEFFa\r\nc\r\n');
  });

  it('is all-or-nothing: a failing second file leaves the first unchanged', async () => {
    ws.write('one.txt', 'alpha\n');
    ws.write('two.txt', 'beta\n');
    const out = await patchTool.execute({
      input: envelope(
        '*** Update File: one.txt',
        '-alpha',
        '+ALPHA',
        '*** Update File: two.txt',
        '-gamma',
        '+GAMMA',
        '*** Add File: three.txt',
        '+new',
      ),
    });
    expect(out).toMatch(/^Error: File operation 2 of 3: Hunk 1 of 1 for two\.txt failed/);
    expect(out).toContain('No file was changed.');
    expect(ws.read('one.txt')).toBe('alpha\n');
    expect(ws.read('two.txt')).toBe('beta\n');
    expect(existsSync(ws.path('three.txt'))).toBe(false);
  });

  it('refuses a new file under a path whose folder is a file, before writing anything', async () => {
    ws.write('a.txt', 'first\n');
    ws.write('b', 'a file where the patch wants a folder\n');
    const out = await patchTool.execute({
      input: envelope('*** Update File: a.txt', '-first', '+changed', '*** Add File: b/new.txt', '+x'),
    });
    expect(out).toMatch(/^Error: .*No file was changed\.$/s);
    expect(ws.read('a.txt')).toBe('first\n');
    expect(ws.read('b')).toBe('a file where the patch wants a folder\n');
  });

  it('restores the files already written when a later write of the commit fails', async () => {
    ws.write('a.txt', 'first\n');
    ws.write('z.txt', 'last\n');
    linkSync(ws.path('z.txt'), ws.path('z-link.txt'));
    const out = await patchTool.execute({
      input: envelope('*** Update File: a.txt', '-first', '+changed', '*** Update File: z.txt', '-last', '+LAST'),
    });
    expect(out).toMatch(/^Error: apply_patch could not write the patch: .*hard links.*No file was changed\.$/s);
    expect(ws.read('a.txt')).toBe('first\n');
    expect(ws.read('z.txt')).toBe('last\n');
  });

  it('names the failed hunk, shows the closest region and what to resend', async () => {
    ws.write('c.js', 'function total(a, b) {\n  return a + b;\n}\n');
    const out = await patchTool.execute({
      input: envelope('*** Update File: c.js', ' function total(a, b) {', '-  return a - b;', '+  return a * b;'),
    });
    expect(out).toContain('Hunk 1 of 1 for c.js failed');
    expect(out).toContain('closest region is lines 1-2');
    expect(out).toContain('return a + b;');
    expect(out).toContain('resend the patch');
    expect(ws.read('c.js')).toBe('function total(a, b) {\n  return a + b;\n}\n');
  });

  it('replaces an existing file on Add File and Move to (as the reference does), keeping its line endings', async () => {
    ws.write('here.txt', 'old\r\ntext\r\n');
    const added = await patchTool.execute({ input: envelope('*** Add File: here.txt', '+new', '+content') });
    expect(added).toContain('A here.txt (replaced the existing file)');
    expect(ws.read('here.txt')).toBe('new\r\ncontent\r\n');
    ws.write('src.txt', 'a\n');
    ws.write('dst.txt', 'overwritten\n');
    const moved = await patchTool.execute({ input: envelope('*** Update File: src.txt', '*** Move to: dst.txt', '-a', '+b') });
    expect(moved).toContain('R src.txt -> dst.txt (replaced the existing file)');
    expect(ws.read('dst.txt')).toBe('b\n');
    expect(existsSync(ws.path('src.txt'))).toBe(false);
  });

  it('refuses to delete a file that does not exist, or a folder', async () => {
    ws.write('dir/inner.txt', 'x\n');
    const folder = await patchTool.execute({ input: envelope('*** Delete File: dir') });
    expect(folder).toMatch(/^Error: .*not a regular file/);
    expect(ws.read('dir/inner.txt')).toBe('x\n');
    const deleted = await patchTool.execute({ input: envelope('*** Delete File: nowhere.txt') });
    expect(deleted).toMatch(/^Error: nowhere\.txt does not exist/);
  });

  it('explains a malformed envelope', async () => {
    expect(await patchTool.execute({ input: '*** Update File: a\n-x\n+y' })).toMatch(/first line must be '\*\*\* Begin Patch'/);
    expect(await patchTool.execute({})).toMatch(/^Error: Invalid input/);
  });

  it('one undo per file restores what the patch replaced', async () => {
    ws.write('u.txt', 'one\n');
    await patchTool.execute({ input: envelope('*** Update File: u.txt', '-one', '+two') });
    expect(ws.read('u.txt')).toBe('two\n');
    const undone = await undoLastEdit('u.txt', { allowedFolders: [ws.root], cwd: ws.root, historyDir: ws.path('.history') });
    expect(undone).not.toMatch(/^Error/);
    expect(ws.read('u.txt')).toBe('one\n');
  });
});

describe('path guard on every path field', () => {
  const cases = [
    ['Add File', () => envelope('*** Add File: ../escape.txt', '+x'), 'escape.txt'],
    ['Delete File', () => envelope(`*** Delete File: ${outside.path('victim.txt')}`), 'victim.txt'],
    ['Update File', () => envelope(`*** Update File: ${outside.path('victim.txt')}`, '-v', '+w'), 'victim.txt'],
    ['Move to', () => envelope('*** Update File: inside.txt', '*** Move to: ../moved.txt', '-i', '+j'), 'moved.txt'],
    ['Move to (absolute)', () => envelope('*** Update File: inside.txt', '*** Move to: /etc/edit-engine-x', '-i', '+j'), null],
  ];
  for (const [field, input, name] of cases) {
    it(`refuses ${field} outside the allowed folders`, async () => {
      ws.write('inside.txt', 'i\n');
      outside.write('victim.txt', 'v\n');
      const out = await patchTool.execute({ input: input() });
      expect(out).toMatch(/^Error: The patch's '\*\*\* (Add File|Delete File|Update File|Move to):' path .* is refused: Permission denied/);
      expect(ws.read('inside.txt')).toBe('i\n');
      expect(outside.read('victim.txt')).toBe('v\n');
      if (name) expect(readdirSync(outside.root)).toEqual(['victim.txt']);
    });
  }

  it('refuses +++ b/../../x in a unified diff', async () => {
    ws.write('inside.txt', 'i\n');
    const out = await diffTool.execute({ diff: '--- a/inside.txt\n+++ b/../../x.txt\n@@ -1 +1 @@\n-i\n+j\n' });
    expect(out).toMatch(/is refused: Permission denied/);
    expect(ws.read('inside.txt')).toBe('i\n');
  });

  it('refuses a SEARCH/REPLACE filename line and a path parameter outside', async () => {
    outside.write('victim.txt', 'v\n');
    const named = await diffTool.execute({
      diff: `${outside.path('victim.txt')}\n<<<<<<< SEARCH\nv\n=======\nw\n>>>>>>> REPLACE\n`,
    });
    expect(named).toMatch(/is refused: Permission denied/);
    const param = await diffTool.execute({ diff: '<<<<<<< SEARCH\nv\n=======\nw\n>>>>>>> REPLACE\n', path: '../x/victim.txt' });
    expect(param).toMatch(/is refused: Permission denied/);
    expect(outside.read('victim.txt')).toBe('v\n');
  });
});

describe('apply_diff', () => {
  it('applies hunks whose line numbers are shifted or missing', async () => {
    const text = numbered(200);
    const expected = text.replace('line 100\n', 'LINE 100\n').replace('line 150\n', 'LINE 150\n');
    for (const shift of [-30, -17, -5, 0, 5, 12, 30, null]) {
      ws.write('n.txt', text);
      const header = (l) => (shift === null ? '@@' : `@@ -${l + shift},3 +${l + shift},3 @@`);
      const diff = [
        '--- a/n.txt',
        '+++ b/n.txt',
        header(99),
        ' line 99',
        '-line 100',
        '+LINE 100',
        ' line 101',
        header(149),
        ' line 149',
        '-line 150',
        '+LINE 150',
        ' line 151',
        '',
      ].join('\n');
      const out = await diffTool.execute({ diff });
      expect(out, `shift ${shift}`).toMatch(/^Success/);
      expect(ws.read('n.txt'), `shift ${shift}`).toBe(expected);
    }
  });

  it('uses the line number to choose between equal contexts', async () => {
    ws.write('r.txt', 'x\nsame\nx\nsame\nx\n');
    const out = await diffTool.execute({ diff: '@@ -4,1 +4,1 @@\n-same\n+SAME\n', path: 'r.txt' });
    expect(out).toMatch(/^Success/);
    expect(ws.read('r.txt')).toBe('x\nsame\nx\nSAME\nx\n');
    ws.write('r.txt', 'x\nsame\nx\nsame\nx\n');
    const ambiguous = await diffTool.execute({ diff: '@@\n-same\n+SAME\n', path: 'r.txt' });
    expect(ambiguous).toMatch(/occur 2 times \(at lines 2, 4\)/);
  });

  it('picks the place clearly nearest the stated line (within 10 lines, others twice as far)', async () => {
    ws.write('t.txt', 'a\nx\ny\nb\nc\nx\ny\nd\n');
    const out = await diffTool.execute({ diff: '--- a/t.txt\n+++ b/t.txt\n@@ -7,2 +7,2 @@\n-x\n-y\n+X\n+Y\n' });
    expect(out).toMatch(/^Success/);
    expect(ws.read('t.txt')).toBe('a\nx\ny\nb\nc\nX\nY\nd\n');
    ws.write('t.txt', 'a\nx\ny\nb\nc\nx\ny\nd\n');
    const between = await diffTool.execute({ diff: '--- a/t.txt\n+++ b/t.txt\n@@ -4,2 +4,2 @@\n-x\n-y\n+X\n+Y\n' });
    expect(between).toMatch(/occur 2 times \(at lines 2, 6\)/);
    expect(ws.read('t.txt')).toBe('a\nx\ny\nb\nc\nx\ny\nd\n');
  });

  it('is all-or-nothing across the files of a diff', async () => {
    ws.write('one.txt', 'alpha\n');
    ws.write('two.txt', 'beta\n');
    const out = await diffTool.execute({
      diff: '--- a/one.txt\n+++ b/one.txt\n@@\n-alpha\n+ALPHA\n--- a/two.txt\n+++ b/two.txt\n@@\n-gamma\n+GAMMA\n',
    });
    expect(out).toMatch(/^Error: File operation 2 of 2/);
    expect(ws.read('one.txt')).toBe('alpha\n');
  });

  it('applies SEARCH/REPLACE blocks named by a filename line or the path parameter', async () => {
    ws.write('src/app.py', 'def f():\n    return 1\n');
    const out = await diffTool.execute({
      diff: 'src/app.py\n```python\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n',
    });
    expect(out).toMatch(/^Success/);
    expect(ws.read('src/app.py')).toBe('def f():\n    return 2\n');
    const byParam = await diffTool.execute({
      path: 'src/app.py',
      diff: '<<<<<<< SEARCH\n:start_line:2\n-------\n    return 2\n=======\n    return 3\n>>>>>>> REPLACE\n',
    });
    expect(byParam).toMatch(/^Success/);
    expect(ws.read('src/app.py')).toBe('def f():\n    return 3\n');
  });

  it('applies a block without a filename line to the previous block\'s file', async () => {
    ws.write('foo.txt', 'one\nthree\n');
    const diff = '```text\nfoo.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n\n...\n\n<<<<<<< SEARCH\nthree\n=======\nfour\n>>>>>>> REPLACE\n```\n';
    const out = await diffTool.execute({ diff });
    expect(out).toMatch(/^Success/);
    expect(ws.read('foo.txt')).toBe('two\nfour\n');
  });
});

describe('in-memory helpers and registry', () => {
  it('applyPatchToText and applyDiffToText apply with the same matching', () => {
    const patched = applyPatchToText('a\n  b  \n', envelope('*** Update File: x', ' a', '-b', '+c'));
    expect(patched).toEqual({ ok: true, text: 'a\nc\n', message: expect.stringContaining('ignoring indentation') });
    const diffed = applyDiffToText('a\r\nb\r\n', '@@\n a\n-b\n+c\n');
    expect(diffed.ok).toBe(true);
    expect(diffed.text).toBe('a\r\nc\r\n');
    const failed = applyDiffToText('a\n', '@@\n-zzz\n+y\n');
    expect(failed.ok).toBe(false);
    expect(failed.text).toBe('a\n');
    expect(failed.message).toMatch(/^Error: Hunk 1 of 1/);
    expect(applyPatchToText(5, 'x').ok).toBe(false);
  });

  it('registers apply_patch and apply_diff outside the default tool set', () => {
    const names = (o) => registry.availableEntries(o).map((e) => e.name);
    expect(names({ allowEdit: true })).not.toContain('apply_patch');
    expect(names({ allowEdit: true, includeOptional: true })).toEqual(expect.arrayContaining(['apply_patch', 'apply_diff']));
    const tool = registry.buildTool(registry.findEntry('apply_diff'), { cwd: ws.root });
    expect(tool.name).toBe('apply_diff');
  });
});
