import { beforeEach, describe, expect, it } from 'vitest';
import { ws, edit, useEditWorkspace } from './support/edit-workspace.mjs';

useEditWorkspace();
beforeEach(() => ws.write('c.js', 'let n = 0;\nn++;\nlog(n);\nn++;\nn++;\n'));

describe('edit with expected_replacements (Gemini CLI count)', () => {
  it('replaces every occurrence when the count matches', async () => {
    const out = await edit.execute({ file_path: 'c.js', old_string: 'n++;', new_string: 'n += 1;', expected_replacements: 3 });
    expect(out).toBe('Successfully edited c.js (3 replacements)');
    expect(ws.read('c.js')).toBe('let n = 0;\nn += 1;\nlog(n);\nn += 1;\nn += 1;\n');
  });

  it('refuses a different count with the real count and the lines, file unchanged', async () => {
    const out = await edit.execute({ file_path: 'c.js', old_string: 'n++;', new_string: 'n += 1;', expected_replacements: 2 });
    expect(out).toMatch(/^Error editing file: Expected 2 occurrences of old_string in c\.js but found 3 \(at lines 2, 4, 5\)/);
    expect(ws.read('c.js')).toBe('let n = 0;\nn++;\nlog(n);\nn++;\nn++;\n');
    const one = await edit.execute({ file_path: 'c.js', old_string: 'n++;', new_string: 'x', expected_replacements: '1' });
    expect(one).toMatch(/Expected 1 occurrence of old_string in c\.js but found 3/);
  });

  it('refuses a count that is not a positive integer', async () => {
    for (const bad of [0, -1, 1.5, 'two']) {
      const out = await edit.execute({ file_path: 'c.js', old_string: 'n++;', new_string: 'x', expected_replacements: bad });
      expect(out, String(bad)).toMatch(/^Error editing file: Invalid expected_replacements/);
    }
    expect(ws.read('c.js')).toBe('let n = 0;\nn++;\nlog(n);\nn++;\nn++;\n');
  });
});
