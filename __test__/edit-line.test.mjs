import { beforeEach, describe, expect, it } from 'vitest';
import { referenceLineHash as h } from './support/workspace.mjs';
import { ws, edit, useEditWorkspace } from './support/edit-workspace.mjs';

const FILE = ['function main() {', '  const a = 1;', '  const b = 2;', '  return a + b;', '}'].join('\n');

useEditWorkspace();
beforeEach(() => ws.write('m.js', FILE));

/** Probe's context block: one line around the new lines, new ones marked with '>'. */
const ctx = (rows) => 'Context:\n' + rows.map(([mark, n, text]) => `${mark} ${n}:${h(text)} | ${text}\n`).join('');

describe('line-targeted mode', () => {
  it('replaces one line and shows context with hashes', async () => {
    const out = await edit.execute({ file_path: 'm.js', start_line: '2', new_string: '  const a = 10;' });
    expect(out).toBe('Successfully edited m.js (line 2 replaced with 1 line)\n' + ctx([
      [' ', 1, 'function main() {'], ['>', 2, '  const a = 10;'], [' ', 3, '  const b = 2;'],
    ]));
    expect(ws.read('m.js')).toBe(FILE.replace('const a = 1;', 'const a = 10;'));
  });

  it('replaces a verified range', async () => {
    const out = await edit.execute({
      file_path: 'm.js', start_line: `2:${h('  const a = 1;')}`, end_line: `3:${h('  const b = 2;')}`, new_string: '  const a = 1, b = 2;',
    });
    expect(out).toBe('Successfully edited m.js (lines 2-3 replaced with 1 line)\n' + ctx([
      [' ', 1, 'function main() {'], ['>', 2, '  const a = 1, b = 2;'], [' ', 3, '  return a + b;'],
    ]));
  });

  it('accepts a numeric start_line (XML coercion)', async () => {
    const out = await edit.execute({ file_path: 'm.js', start_line: 4, new_string: '  return a * b;' });
    expect(out).toMatch(/^Successfully edited m\.js \(line 4 replaced with 1 line\)\n/);
    expect(ws.read('m.js')).toContain('return a * b;');
  });

  it('inserts after and before an anchor line', async () => {
    const after = await edit.execute({ file_path: 'm.js', start_line: '1', position: 'after', new_string: '  // start' });
    expect(after).toBe('Successfully edited m.js (1 line inserted after line 1)\n' + ctx([
      [' ', 1, 'function main() {'], ['>', 2, '  // start'], [' ', 3, '  const a = 1;'],
    ]));
    const before = await edit.execute({ file_path: 'm.js', start_line: '1', position: 'before', new_string: "'use strict';\n" });
    expect(before).toBe('Successfully edited m.js (2 lines inserted before line 1)\n' + ctx([
      ['>', 1, "'use strict';"], ['>', 2, ''], [' ', 3, 'function main() {'],
    ]));
    expect(ws.read('m.js').split('\n').slice(0, 4)).toEqual(["'use strict';", '', 'function main() {', '  // start']);
  });

  it('deletes a range with an empty new_string', async () => {
    const out = await edit.execute({ file_path: 'm.js', start_line: '2', end_line: '3', new_string: '' });
    expect(out).toBe('Successfully edited m.js (2 lines deleted (lines 2-3))\n' + ctx([
      [' ', 1, 'function main() {'], [' ', 2, '  return a + b;'],
    ]));
    expect(ws.read('m.js')).toBe('function main() {\n  return a + b;\n}');
  });

  it('refuses a stale hash and gives the current reference', async () => {
    const actual = h('  const a = 1;');
    const wrong = actual === '00' ? '01' : '00';
    const out = await edit.execute({ file_path: 'm.js', start_line: `2:${wrong}`, new_string: 'x' });
    expect(out).toBe(`Error editing file: Line 2 has changed since last read. Expected hash '${wrong}' but content is now: 2:${actual} |   const a = 1;. Use '2:${actual}' instead.`);
    expect(ws.read('m.js')).toBe(FILE);
  });

  it('explains inverted ranges, with an insertion hint when adjacent', async () => {
    const adjacent = await edit.execute({ file_path: 'm.js', start_line: '3', end_line: '2', new_string: 'x' });
    expect(adjacent).toBe('Error editing file: end_line (2) must be >= start_line (3). Omitting position means replace/update the addressed lines, not insert. This looks like an insertion between lines 2 and 3. To insert there without replacing existing code, use start_line="3" with position="before" or start_line="2" with position="after". To delete lines, use new_string as the empty string "" with a valid non-inverted range.');
    const far = await edit.execute({ file_path: 'm.js', start_line: '5', end_line: '2', new_string: 'x' });
    expect(far).toBe('Error editing file: end_line (2) must be >= start_line (5). Omitting position means replace/update the addressed lines, not insert. To insert new code, choose a single anchor line in start_line and set position to "before" or "after" instead of using an inverted range. To delete lines, use new_string as the empty string "" with a valid non-inverted range.');
    expect(ws.read('m.js')).toBe(FILE);
  });

  it.each([
    ['start_line', { start_line: 'abc' }, "Error editing file: Invalid start_line 'abc'. Use a line number (e.g. \"42\") or line:hash (e.g. \"42:ab\"). Line numbers are 1-indexed."],
    ['start_line 0', { start_line: '0' }, "Error editing file: Invalid start_line '0'. Use a line number (e.g. \"42\") or line:hash (e.g. \"42:ab\"). Line numbers are 1-indexed."],
    ['end_line', { start_line: '1', end_line: '2:xyz' }, "Error editing file: Invalid end_line '2:xyz'. Use a line number (e.g. \"55\") or line:hash (e.g. \"55:cd\"). Must be >= start_line."],
    ['position', { start_line: '1', position: 'inside' }, 'Error editing file: Invalid position - must be "before" or "after". Use position="before" to insert before start_line, position="after" to insert after start_line, or omit position to replace/update the addressed lines.'],
    ['range', { start_line: '9' }, "Error editing file: Line 9 is beyond file length (5 lines). Use 'extract' to read the current file content."],
  ])('rejects a bad %s', async (_, extra, message) => {
    expect(await edit.execute({ file_path: 'm.js', new_string: 'x', ...extra })).toBe(message);
    expect(ws.read('m.js')).toBe(FILE);
  });

  it('auto-corrects echoed prefixes, boundaries and indentation', async () => {
    const out = await edit.execute({
      file_path: 'm.js', start_line: '2', end_line: '3',
      new_string: `1:${h('function main() {')} | function main() {\n2:aa | const a = 5;\n3:bb | const b = 6;`,
    });
    expect(out).toBe('Successfully edited m.js (lines 2-3 replaced with 2 lines) [auto-corrected: stripped line-number prefixes, stripped echoed line before range, reindented from "" to "  "]\n' + ctx([
      [' ', 1, 'function main() {'], ['>', 2, '  const a = 5;'], ['>', 3, '  const b = 6;'], [' ', 4, '  return a + b;'],
    ]));
    expect(ws.read('m.js')).toBe(FILE.replace('const a = 1;', 'const a = 5;').replace('const b = 2;', 'const b = 6;'));
  });

  it('names an insertion\'s echoed anchor line as Probe does', async () => {
    const after = await edit.execute({ file_path: 'm.js', start_line: '1', position: 'after', new_string: 'function main() {\n  const z = 0;' });
    expect(after.split('\n')[0]).toBe('Successfully edited m.js (1 line inserted after line 1) [auto-corrected: stripped echoed anchor line (insert-after)]');
    const before = await edit.execute({ file_path: 'm.js', start_line: '6', position: 'before', new_string: '  const y = 9;\n}' });
    expect(before.split('\n')[0]).toBe('Successfully edited m.js (1 line inserted before line 6) [auto-corrected: stripped echoed anchor line (insert-before)]');
    const lines = FILE.split('\n');
    expect(ws.read('m.js')).toBe([lines[0], '  const z = 0;', ...lines.slice(1, 4), '  const y = 9;', lines[4]].join('\n'));
  });

  it('symbol takes priority over start_line, start_line over old_string', async () => {
    const out = await edit.execute({ file_path: 'm.js', start_line: '2', old_string: 'return a + b;', new_string: '  const a = 3;' });
    expect(out).toMatch(/^Successfully edited m\.js \(line 2 replaced with 1 line\)/);
    expect(ws.read('m.js')).toContain('return a + b;');
  });
});
