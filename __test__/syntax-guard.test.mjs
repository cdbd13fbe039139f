// The syntax guard (`syntaxCheck`, `syntaxCheckMaxBytes`): parse errors an edit introduces are listed in
// the reply ('warn', the default), or the write is refused with the file untouched ('refuse').
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool, createTool, editTool, multiEditTool, replaceInFileTool, textEditorTool } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const SOURCE = 'function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item;\n  }\n  return sum;\n}\n';
const opts = (extra = {}) => ({ allowedFolders: [ws.root], cwd: ws.root, ...extra });
// Drops the loop's closing brace: the file no longer parses.
const breaking = { file_path: 'a.js', old_string: '    sum += item;\n  }\n', new_string: '    sum += item;\n' };

describe('syntax guard', () => {
  it('warns by default: the edit lands and the reply names the line and the cause', async () => {
    ws.write('a.js', SOURCE);
    const text = await editTool(opts()).execute(breaking);
    expect(text).toMatch(/^Successfully edited/);
    expect(text).toContain('Syntax check: this edit introduced 1 syntax error in a.js (javascript); fix it in your next call:');
    expect(text).toMatch(/- line \d+: unbalanced braces/);
    expect(ws.read('a.js')).not.toBe(SOURCE);
  });

  it('says nothing for an edit that parses, and nothing about errors that were already there', async () => {
    ws.write('a.js', SOURCE);
    const clean = await editTool(opts()).execute({ file_path: 'a.js', old_string: 'let sum = 0;', new_string: 'let sum = 1;' });
    expect(clean).not.toContain('Syntax check');
    ws.write('b.js', 'function broken( {\n  return 1;\n}\n\nconst x = 1;\n');
    const old = await editTool(opts()).execute({ file_path: 'b.js', old_string: 'const x = 1;', new_string: 'const x = 2;' });
    expect(old).toMatch(/^Successfully/);
    expect(old).not.toContain('Syntax check');
  });

  it("refuse leaves the file untouched and says how to recover; 'off' writes silently", async () => {
    ws.write('a.js', SOURCE);
    const refused = await editTool(opts({ syntaxCheck: 'refuse' })).executeResult(breaking);
    expect(refused.ok).toBe(false);
    expect(refused.text).toMatch(/^Error editing file: the edit was not applied: it would introduce 1 syntax error in a\.js/);
    expect(refused.text).toContain("syntaxCheck option can be set to 'warn' or 'off'");
    expect(ws.read('a.js')).toBe(SOURCE);
    const off = await editTool(opts({ syntaxCheck: 'off' })).execute(breaking);
    expect(off).toMatch(/^Successfully/);
    expect(off).not.toContain('Syntax check');
  });

  it('every writing tool runs it', async () => {
    ws.write('a.py', 'def f(x):\n    return g(x)\n');
    const refuse = opts({ syntaxCheck: 'refuse' });
    const calls = [
      [editTool(refuse), { file_path: 'a.py', old_string: 'g(x)', new_string: 'g(x' }],
      [multiEditTool(refuse), { edits: [{ file_path: 'a.py', old_string: 'g(x)', new_string: 'g(x' }], atomic: true }],
      [replaceInFileTool(refuse), { filePath: 'a.py', replacements: [{ type: 'string', searchFor: 'g(x)', replaceWith: 'g(x' }] }],
      [textEditorTool(refuse), { command: 'str_replace', path: 'a.py', old_str: 'g(x)', new_str: 'g(x' }],
      [applyPatchTool(refuse), { input: '*** Begin Patch\n*** Update File: a.py\n@@\n def f(x):\n-    return g(x)\n+    return g(x\n*** End Patch' }],
    ];
    for (const [tool, params] of calls) {
      const text = await tool.execute(params);
      expect(text, tool.name).toMatch(/^Error/);
      expect(text, tool.name).toContain('syntax error');
      expect(ws.read('a.py'), tool.name).toBe('def f(x):\n    return g(x)\n');
    }
    const created = await createTool(opts()).execute({ file_path: 'b.py', content: 'def f(:\n    pass\n' });
    expect(created).toMatch(/^Successfully created/);
    expect(created).toContain('Syntax check');
  });

  it('names Python indentation', async () => {
    ws.write('m.py', 'def f(x):\n    y = 1\n    return y\n');
    const text = await editTool(opts()).execute({ file_path: 'm.py', old_string: '    return y', new_string: '        return y' });
    expect(text).toMatch(/- line 3: indentation: unexpected indent/);
  });

  it('says when a large file was not checked', async () => {
    const big = Array.from({ length: 20000 }, (_, i) => `x${i} = ${i}\n`).join('');
    ws.write('big.py', big);
    const text = await editTool(opts({ syntaxCheckMaxBytes: 64 * 1024 })).execute({ file_path: 'big.py', old_string: 'x7 = 7\n', new_string: 'x7 = (7\n' });
    expect(text).toMatch(/Syntax check skipped: big\.py is \d+ KB, above syntaxCheckMaxBytes \(64 KB\)/);
  });

  it('refuses bad option values on every call, naming the option', async () => {
    ws.write('a.js', SOURCE);
    for (const [options, pattern] of [
      [{ syntaxCheck: 'strict' }, /invalid syntaxCheck option "strict" \(use "warn", "refuse" or "off"\)/],
      [{ syntaxCheck: false }, /invalid syntaxCheck option "false"/],
      [{ syntaxCheckMaxBytes: -1 }, /invalid syntaxCheckMaxBytes option -1/],
      [{ syntaxCheckMaxBytes: '1MB' }, /invalid syntaxCheckMaxBytes option NaN/],
    ]) {
      const text = await editTool(opts(options)).execute({ file_path: 'a.js', old_string: 'let sum = 0;', new_string: 'let sum = 2;' });
      expect(text).toMatch(/^Error editing file: /);
      expect(text).toMatch(pattern);
    }
    expect(ws.read('a.js')).toBe(SOURCE);
  });
});
