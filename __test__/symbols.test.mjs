// Symbol mode through the public API (per-language engine tests live in crates/engine).
import { describe, expect, it } from 'vitest';
import { editTool, FileTracker, findSymbol, findAllSymbols } from '../lib/index.mjs';
import { ws, edit, useEditWorkspace } from './support/edit-workspace.mjs';

useEditWorkspace();

const UTILS = [
  '/** Adds two numbers. */',
  'export function add(a, b) {',
  '  return a + b;',
  '}',
  '',
  'export const double = (x) => {',
  '  return x * 2;',
  '};',
  '',
  'function push(list, x) {',
  '  list.push(x);',
  '}',
  '',
  'class Stack {',
  '  push(x) {',
  '    this.items.push(x);',
  '  }',
  '}',
  '',
].join('\n');

describe('symbol replace', () => {
  it('replaces a function and keeps the export and doc comment the model left out', async () => {
    ws.write('u.js', UTILS);
    const out = await edit.execute({ file_path: 'u.js', symbol: 'add', new_string: 'function add(a, b) {\n  return Number(a) + Number(b);\n}' });
    // The symbol's new extent counts the kept doc comment: lines 1-4 again.
    expect(out).toBe('Successfully replaced symbol "add" in u.js (was lines 1-4, now 4 lines)');
    expect(ws.read('u.js').split('\n').slice(0, 4)).toEqual(['/** Adds two numbers. */', 'export function add(a, b) {', '  return Number(a) + Number(b);', '}']);
  });

  it('does not duplicate an export the model restated', async () => {
    ws.write('u.js', UTILS);
    await edit.execute({ file_path: 'u.js', symbol: 'add', new_string: 'export function add(a, b) {\n  return b + a;\n}' });
    const text = ws.read('u.js');
    expect(text).not.toContain('export export');
    expect(text.split('\n').slice(0, 3)).toEqual(['/** Adds two numbers. */', 'export function add(a, b) {', '  return b + a;']);
  });

  it('replaces an arrow function bound to a const', async () => {
    ws.write('u.js', UTILS);
    const out = await edit.execute({ file_path: 'u.js', symbol: 'double', new_string: 'const double = (x) => x + x;' });
    expect(out).toMatch(/^Successfully replaced symbol "double" in u\.js \(was lines 6-8, now 1 lines\)$/);
    expect(ws.read('u.js')).toContain('export const double = (x) => x + x;\n\nfunction push');
  });

  it('replaces a method of a one-line class without dropping the class\'s closing brace', async () => {
    ws.write('k.js', 'class K { m() { return 2; } }\nclass Z {}\n');
    const out = await edit.execute({ file_path: 'k.js', symbol: 'K.m', new_string: 'm() { return 3; }' });
    expect(out).toBe('Successfully replaced symbol "K.m" in k.js (was lines 1-1, now 1 lines)');
    expect(ws.read('k.js')).toBe('class K { m() { return 3; } }\nclass Z {}\n');
  });

  it('lists every definition when a bare name is ambiguous, and accepts the qualified name', async () => {
    ws.write('u.js', UTILS);
    const out = await edit.execute({ file_path: 'u.js', symbol: 'push', new_string: 'x' });
    expect(out).toBe('Error editing u.js: Found 2 symbols named "push". Use a qualified name to specify which one:\n  - push (function_declaration, line 10)\n  - Stack.push (method_definition, line 15)\n\nExample: <edit><file_path>u.js</file_path><symbol>push</symbol><new_string>...</new_string></edit>');
    expect(ws.read('u.js')).toBe(UTILS);
    const ok = await edit.execute({ file_path: 'u.js', symbol: 'Stack.push', new_string: 'push(x) {\n  this.items.unshift(x);\n}' });
    expect(ok).toBe('Successfully replaced symbol "Stack.push" in u.js (was lines 15-17, now 3 lines)');
    expect(ws.read('u.js')).toContain('  push(x) {\n    this.items.unshift(x);\n  }\n}');
  });

  it('finds a TypeScript method through a qualified name that omits the namespace', async () => {
    ws.write('calc.ts', 'namespace Demo {\n  export class Calc {\n    push(n: number): void {\n      this.stack.push(n);\n    }\n  }\n}\n');
    const out = await edit.execute({ file_path: 'calc.ts', symbol: 'Calc.push', new_string: 'push(n: number): void {\n  this.stack.unshift(n);\n}' });
    expect(out).toBe('Successfully replaced symbol "Calc.push" in calc.ts (was lines 3-5, now 3 lines)');
    expect(ws.read('calc.ts')).toBe('namespace Demo {\n  export class Calc {\n    push(n: number): void {\n      this.stack.unshift(n);\n    }\n  }\n}\n');
  });

  it('keeps Python decorators and edits a CRLF file as CRLF', async () => {
    ws.write('app.py', '@app.route("/")\ndef index():\r\n    return "hi"\r\n'.replace(/(?<!\r)\n/g, '\r\n'));
    const out = await edit.execute({ file_path: 'app.py', symbol: 'index', new_string: 'def index():\n    return "hello"' });
    expect(out).toBe('Successfully replaced symbol "index" in app.py (was lines 1-3, now 3 lines)');
    expect(ws.read('app.py')).toBe('@app.route("/")\r\ndef index():\r\n    return "hello"\r\n');
  });
});

describe('symbol insert', () => {
  it('inserts after a symbol with a blank line, reindented to its level', async () => {
    ws.write('u.js', UTILS);
    const out = await edit.execute({ file_path: 'u.js', symbol: 'Stack.push', position: 'after', new_string: 'pop() {\n  return this.items.pop();\n}' });
    expect(out).toBe('Successfully inserted 3 lines after symbol "Stack.push" in u.js (at line 18)');
    expect(ws.read('u.js')).toContain('    this.items.push(x);\n  }\n\n  pop() {\n    return this.items.pop();\n  }\n}');
  });

  it('inserts before a symbol', async () => {
    ws.write('u.js', UTILS);
    const out = await edit.execute({ file_path: 'u.js', symbol: 'add', position: 'before', new_string: "import { log } from './log.js';" });
    expect(out).toBe('Successfully inserted 1 lines before symbol "add" in u.js (at line 1)');
    expect(ws.read('u.js').split('\n').slice(0, 3)).toEqual(["import { log } from './log.js';", '', '/** Adds two numbers. */']);
  });
});

describe('symbol errors', () => {
  it('suggests the closest names when a symbol is missing', async () => {
    ws.write('u.js', UTILS);
    const out = await edit.execute({ file_path: 'u.js', symbol: 'ad', new_string: 'x' });
    expect(out).toMatch(/^Error editing file: Symbol "ad" not found in u\.js\. Verify the symbol name .* Closest symbols in this file: add/);
  });

  it('refuses unsupported file types with a pointer to text and line mode', async () => {
    ws.write('notes.txt', 'hello');
    expect(await edit.execute({ file_path: 'notes.txt', symbol: 'hello', new_string: 'x' })).toMatch(/^Error editing file: symbol mode does not support '\.txt' files\. .*use old_string \+ new_string \(text mode\) or start_line/);
  });

  it('edits a symbol whose own statement parses in a file with a syntax error elsewhere, and refuses a broken one', async () => {
    const broken = ['export in<terface Broken {', '  x: number;', '}', 'export function area(r: number): number {', '  return r * r;', '}', 'export function half(x: number) {', '  return x * ;', '}', ''].join('\n');
    ws.write('g.ts', broken);
    const out = await edit.execute({ file_path: 'g.ts', symbol: 'area', new_string: 'function area(r: number): number {\n  return Math.PI * r * r;\n}' });
    expect(out).toBe('Successfully replaced symbol "area" in g.ts (was lines 4-6, now 3 lines)');
    expect(ws.read('g.ts')).toBe(broken.replace('return r * r;', 'return Math.PI * r * r;'));
    const refused = await edit.execute({ file_path: 'g.ts', symbol: 'half', new_string: 'function half(x: number) {\n  return x / 2;\n}' });
    expect(refused).toMatch(/^Error editing file: typescript parse error at line \d+ in g\.ts; the symbol could not be located safely\. Fix the syntax error first/);
    expect(ws.read('g.ts')).toBe(broken.replace('return r * r;', 'return Math.PI * r * r;'));
  });

  it('validates symbol and position with Probe\'s messages', async () => {
    ws.write('u.js', UTILS);
    expect(await edit.execute({ file_path: 'u.js', symbol: '  ', new_string: 'x' })).toMatch(/^Error editing file: Invalid symbol - must be a non-empty string\./);
    expect(await edit.execute({ file_path: 'u.js', symbol: 'add', position: 'inside', new_string: 'x' })).toMatch(/^Error editing file: Invalid position - must be "before" or "after"\. Use position="before" to insert code above the symbol/);
  });
});

describe('symbol staleness with FileTracker', () => {
  it('refuses an edit of a symbol changed since it was read, allows it when only other code changed, and chains', async () => {
    const tracker = new FileTracker();
    const tool = editTool({ allowedFolders: [ws.root], cwd: ws.root, fileTracker: tracker });
    ws.write('u.js', UTILS);
    await tracker.trackFilesFromExtract(['u.js#add', 'u.js#double'], ws.root);
    expect(tracker.getSymbolRecord(ws.path('u.js'), 'add')).toMatchObject({ startLine: 1, endLine: 4, source: 'extract' });

    ws.write('u.js', UTILS.replace('return x * 2;', 'return x * 3;'));
    expect(await tool.execute({ file_path: 'u.js', symbol: 'double', new_string: 'const double = (x) => 2 * x;' }))
      .toBe('Error editing u.js: Symbol "double" has changed since you last read it. Use the extract tool with targets="u.js#double" to re-read the current content, then retry.');
    expect(await tool.execute({ file_path: 'u.js', symbol: 'add', new_string: 'function add(a, b) {\n  return a + b + 0;\n}' }))
      .toBe('Successfully replaced symbol "add" in u.js (was lines 1-4, now 4 lines)');
    expect(tracker.getSymbolRecord(ws.path('u.js'), 'add')).toMatchObject({ source: 'edit', startLine: 1, endLine: 4 });
    expect(await tool.execute({ file_path: 'u.js', symbol: 'add', new_string: 'function add(a, b) {\n  return a + b + 1;\n}' }))
      .toBe('Successfully replaced symbol "add" in u.js (was lines 1-4, now 4 lines)');
    expect(ws.read('u.js')).toContain('return a + b + 1;');
  });
});

describe('findSymbol / findAllSymbols', () => {
  it('return Probe\'s shapes', async () => {
    ws.write('u.js', UTILS);
    expect(await findSymbol('u.js', 'add', ws.root)).toEqual({ startLine: 1, endLine: 4, code: UTILS.split('\n').slice(0, 4).join('\n'), nodeType: 'function_declaration', file: ws.path('u.js') });
    const all = await findAllSymbols(ws.path('u.js'), 'push');
    expect(all.map((s) => [s.qualifiedName, s.startLine, s.endLine])).toEqual([['push', 10, 12], ['Stack.push', 15, 17]]);
    expect(await findSymbol('u.js', 'nope', ws.root)).toBeNull();
    expect(await findAllSymbols('missing.js', 'x', ws.root)).toEqual([]);
  });
});
