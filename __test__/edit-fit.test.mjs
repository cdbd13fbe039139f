// Edits land as the author meant: indentation frames, tabs, line endings, boundaries, escapes,
// C++ headers and line-mode corrections (each case minimized from a replayed real commit).
import { describe, expect, it } from 'vitest';
import { ws, edit, useEditWorkspace } from './support/edit-workspace.mjs';

useEditWorkspace();

const PY = ['class A:', '    def f(self):', '        if x:', '            y()', '        return 1', ''].join('\n');

describe('indentation frame', () => {
  it('moves every line of a hunk that starts deeper than it ends', async () => {
    ws.write('a.py', PY);
    const out = await edit.execute({ file_path: 'a.py', old_string: '        y()\n    return 1', new_string: '        z()\n    return 2' });
    expect(out).toMatch(/^Successfully edited/);
    expect(ws.read('a.py')).toBe(PY.replace('y()', 'z()').replace('return 1', 'return 2'));
  });

  it('tabs written for the file\'s spaces match and are written as the file\'s spaces at every level', async () => {
    ws.write('a.py', PY);
    const out = await edit.execute({ file_path: 'a.py', old_string: '\t\tif x:\n\t\t\ty()', new_string: '\t\tif x:\n\t\t\ty()\n\t\t\tw()' });
    expect(out).toMatch(/^Successfully edited/);
    expect(ws.read('a.py')).toBe(PY.replace('            y()\n', '            y()\n            w()\n'));
  });

  it('accepts a unique multi-line block copied two levels too shallow', async () => {
    ws.write('a.py', PY);
    const out = await edit.execute({ file_path: 'a.py', old_string: 'if x:\n    y()', new_string: 'if x:\n    y(1)' });
    expect(out).toMatch(/^Successfully edited a.py/);
    expect(ws.read('a.py')).toBe(PY.replace('y()', 'y(1)'));
  });
});

describe('line endings and boundaries', () => {
  it('matches an old_string that ends with its line break and is indented in tabs', async () => {
    ws.write('a.py', PY);
    const out = await edit.execute({ file_path: 'a.py', old_string: '\t\tif x:\n\t\t\ty()\n', new_string: '\t\tif x:\n\t\t\ty(2)\n' });
    expect(out).toMatch(/^Successfully edited/);
    expect(ws.read('a.py')).toBe(PY.replace('y()', 'y(2)'));
  });

  it('writes a CRLF new_string with the LF file\'s endings', async () => {
    ws.write('a.js', 'a();\nb();\n');
    await edit.execute({ file_path: 'a.js', old_string: 'b();', new_string: 'c();\r\nd();' });
    expect(ws.read('a.js')).toBe('a();\nc();\nd();\n');
  });

  it('keeps the line breaks around old_string when new_string has none', async () => {
    ws.write('a.js', 'a;\nfoo\nc;\n');
    await edit.execute({ file_path: 'a.js', old_string: '\nfoo\n', new_string: 'bar' });
    expect(ws.read('a.js')).toBe('a;\nbar\nc;\n');
  });

  it('still deletes whole lines with an empty new_string', async () => {
    ws.write('a.js', 'a;\nfoo\nc;\n');
    await edit.execute({ file_path: 'a.js', old_string: 'foo\n', new_string: '' });
    expect(ws.read('a.js')).toBe('a;\nc;\n');
  });
});

describe('escapes, headers, line mode', () => {
  it('unescapes \\` and \\$ of a template literal', async () => {
    ws.write('a.ts', 'const s = `a ${b}`;\n');
    const out = await edit.execute({ file_path: 'a.ts', old_string: 'const s = \\`a \\${b}\\`;', new_string: 'const s = \\`c \\${b}\\`;' });
    expect(out).toBe('Successfully edited a.ts (1 replacement, matched via escape-normalized)');
    expect(ws.read('a.ts')).toBe('const s = `c ${b}`;\n');
  });

  it('edits a symbol of a C++ header', async () => {
    ws.write('a.h', 'namespace n {\nclass A {\n public:\n  int f() { return 1; }\n};\n}\n');
    const out = await edit.execute({ file_path: 'a.h', symbol: 'A', new_string: 'class A {\n public:\n  int f() { return 2; }\n};' });
    expect(out).toMatch(/^Successfully replaced symbol "A"/);
    expect(ws.read('a.h')).toBe('namespace n {\nclass A {\n public:\n  int f() { return 2; }\n};\n}\n');
  });

  it('keeps a real closing line added next to its twin', async () => {
    const src = 'f(() => {\n  g(() => {\n    x();\n  });\n});\n';
    ws.write('a.js', src);
    await edit.execute({ file_path: 'a.js', start_line: '3', end_line: '4', new_string: '    x();\n  });\n  h(() => {\n    y();\n  });' });
    expect(ws.read('a.js')).toBe('f(() => {\n  g(() => {\n    x();\n  });\n  h(() => {\n    y();\n  });\n});\n');
  });

  it('keeps a deliberate re-indentation in line mode', async () => {
    ws.write('a.js', 'if (a) {\nx();\ny();\n}\n');
    await edit.execute({ file_path: 'a.js', start_line: '2', end_line: '3', new_string: '  x();\n  y();' });
    expect(ws.read('a.js')).toBe('if (a) {\n  x();\n  y();\n}\n');
  });
});
