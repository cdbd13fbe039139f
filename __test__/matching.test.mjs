// Fuzzy matching: wider rescue strategies that stay safe, strategy restriction, "did you mean".
import { describe, expect, it } from 'vitest';
import { QuoteNormalizer } from '../lib/index.mjs';
import { ws, edit, useEditWorkspace } from './support/edit-workspace.mjs';

useEditWorkspace();

const TWO_SCOPES = [
  'function total(items) {',
  '  let sum = 0;',
  '  return sum;',
  '}',
  'class Cart {',
  '  total() {',
  '    let sum = 0;',
  '    return sum;',
  '  }',
  '}',
  '',
].join('\n');

describe('ambiguity safety', () => {
  it('refuses candidates with different indentation instead of silently editing the first', async () => {
    ws.write('c.js', TWO_SCOPES);
    const out = await edit.execute({ file_path: 'c.js', old_string: 'let sum = 0;\nreturn sum;', new_string: 'let sum = 1;\nreturn sum;' });
    expect(out).toBe('Error editing file: Ambiguous match - the old_string matches 2 different places in c.js via line-trimmed (lines 2-3, lines 7-8); nothing was changed. To fix: (1) Include more surrounding lines or the exact indentation in old_string so only one place matches, or (2) set replace_all=true to replace every one of them.');
    expect(ws.read('c.js')).toBe(TWO_SCOPES);
  });

  it('replace_all replaces every candidate region, each at its own indentation', async () => {
    ws.write('c.js', TWO_SCOPES);
    const out = await edit.execute({ file_path: 'c.js', old_string: 'let sum = 0;\nreturn sum;', new_string: 'let sum = 1;\nreturn sum;', replace_all: true });
    expect(out).toBe('Successfully edited c.js (2 replacements, matched via line-trimmed)');
    expect(ws.read('c.js')).toBe(TWO_SCOPES.replace('  let sum = 0;', '  let sum = 1;').replace('    let sum = 0;', '    let sum = 1;'));
  });

  it('carries indentation over when new_string is written in old_string\'s frame', async () => {
    ws.write('m.js', 'class A {\n  run() {\n    start();\n    stop();\n  }\n}\n');
    const out = await edit.execute({ file_path: 'm.js', old_string: 'start();\nstop();', new_string: 'start();\nif (ok) {\n  stop();\n}' });
    expect(out).toBe('Successfully edited m.js (1 replacement, matched via line-trimmed)');
    expect(ws.read('m.js')).toBe('class A {\n  run() {\n    start();\n    if (ok) {\n      stop();\n    }\n  }\n}\n');
  });
});

describe('match_strategy', () => {
  it('"exact" disables fuzzy matching', async () => {
    ws.write('a.js', '    go();\n    next();\n');
    const out = await edit.execute({ file_path: 'a.js', old_string: 'go();\nnext();', new_string: 'stop();', match_strategy: 'exact' });
    expect(out).toMatch(/^Error editing file: String not found/);
    expect(ws.read('a.js')).toBe('    go();\n    next();\n');
    expect(await edit.execute({ file_path: 'a.js', old_string: 'go();\nnext();', new_string: 'stop();' })).toBe('Successfully edited a.js (1 replacement, matched via line-trimmed)');
  });

  it('a named strategy is the only fuzzy one tried', async () => {
    ws.write('a.js', 'let  a  =  1;\n');
    expect(await edit.execute({ file_path: 'a.js', old_string: 'let a = 1;', new_string: 'let a = 2;', match_strategy: 'line-trimmed' })).toMatch(/^Error editing file: String not found/);
    expect(await edit.execute({ file_path: 'a.js', old_string: 'let a = 1;', new_string: 'let a = 2;', match_strategy: 'whitespace-normalized' })).toBe('Successfully edited a.js (1 replacement, matched via whitespace-normalized)');
  });

  it('an unknown strategy is an error that lists the known ones', async () => {
    ws.write('a.js', 'x');
    expect(await edit.execute({ file_path: 'a.js', old_string: 'x', new_string: 'y', match_strategy: 'magic' })).toMatch(/^Error editing file: Invalid match_strategy "magic" - use "exact" or one of: line-trimmed, .*block-anchor\./);
  });
});

describe('new strategies', () => {
  it('quote-normalized matches curly quotes and keeps the file\'s style', async () => {
    ws.write('q.md', 'He said \u201chello\u201d and \u2018bye\u2019.\n');
    const out = await edit.execute({ file_path: 'q.md', old_string: 'He said "hello" and', new_string: 'He said "hello there" and' });
    expect(out).toBe('Successfully edited q.md (1 replacement, matched via quote-normalized)');
    expect(ws.read('q.md')).toBe('He said \u201chello there\u201d and \u2018bye\u2019.\n');
  });

  it('escape-normalized matches literal \\n and \\" in old_string', async () => {
    ws.write('e.js', 'log("a");\nlog("b");\n');
    const out = await edit.execute({ file_path: 'e.js', old_string: 'log(\\"a\\");\\nlog(\\"b\\");', new_string: 'log(\\"a\\");\\nlog(\\"c\\");' });
    expect(out).toBe('Successfully edited e.js (1 replacement, matched via escape-normalized)');
    expect(ws.read('e.js')).toBe('log("a");\nlog("c");\n');
  });

  it('trimmed-boundary ignores stray blank lines and spaces around old_string', async () => {
    ws.write('t.js', 'a();\n\nb();\nc();\n');
    const out = await edit.execute({ file_path: 't.js', old_string: '\n\n b(); \n', new_string: '\n B(); \n' });
    expect(out).toBe('Successfully edited t.js (1 replacement, matched via trimmed-boundary)');
    expect(ws.read('t.js')).toBe('a();\n\nB();\nc();\n');
  });

  it('trimmed-boundary keeps the line boundaries old_string carries: no match inside a line', async () => {
    ws.write('t.js', 'a(); b(); c();\n');
    const out = await edit.execute({ file_path: 't.js', old_string: '\n\n b(); \n', new_string: '\n B(); \n' });
    expect(out).toMatch(/^Error editing file: String not found/);
    expect(ws.read('t.js')).toBe('a(); b(); c();\n');
  });

  it('block-anchor matches a block whose first and last lines agree and middle drifted slightly', async () => {
    ws.write('b.js', 'function f() {\n  const value = compute(1, 2);\n  return value;\n}\n');
    const out = await edit.execute({ file_path: 'b.js', old_string: 'function f() {\n  const value = compute(1,2);\n  return value;\n}', new_string: 'function f() {\n  return compute(1, 2);\n}' });
    expect(out).toBe('Successfully edited b.js (1 replacement, matched via block-anchor)');
    expect(ws.read('b.js')).toBe('function f() {\n  return compute(1, 2);\n}\n');
  });
});

describe('did you mean', () => {
  it('shows the closest region with a diff for a renamed variable', async () => {
    ws.write('r.js', 'function area(w, h) {\n  const result = w * h;\n  return result;\n}\n');
    const out = await edit.execute({ file_path: 'r.js', old_string: '  const res = w * h;\n  return res;', new_string: 'x' });
    expect(out).toMatch(/^Error editing file: String not found/);
    expect(out).toMatch(/\n\nDid you mean lines 2-3 \(similarity 0\.\d\d\)\? Diff from your old_string to the file:\n```diff\n/);
    expect(out).toContain('-  const res = w * h;\n');
    expect(out).toContain('+  const result = w * h;\n');
  });

  it('says nothing more when nothing is close', async () => {
    ws.write('r.js', 'alpha\nbeta\n');
    const out = await edit.execute({ file_path: 'r.js', old_string: 'completely unrelated text here', new_string: 'x' });
    expect(out).not.toContain('Did you mean');
  });
});

describe('QuoteNormalizer', () => {
  const q = new QuoteNormalizer();

  it('normalize maps the six typographic quotes to straight ones and leaves the rest', () => {
    expect(q.normalize('\u2018a\u2019 \u201Ab\u2019 \u201Cc\u201D \u201Ed\u201D \u00ABe\u00BB `f`')).toBe(`'a' 'b' "c" "d" \u00ABe\u00BB \`f\``);
    expect(q.normalize('plain')).toBe('plain');
    expect(q.normalize('')).toBe('');
  });

  it('fuzzyMatch finds straight quotes in curly text and curly in straight, with a JS string index', () => {
    const haystack = '\u{1F600} say \u201CHello\u201D and \u2018bye\u2019';
    expect(q.fuzzyMatch('"Hello"', haystack)).toEqual({
      matched: true,
      originalMatch: '\u201CHello\u201D',
      normalizedMatch: '"Hello"',
      position: haystack.indexOf('\u201C'),
    });
    const straight = 'x = "Hello";';
    expect(q.fuzzyMatch('\u201CHello\u201D', straight)).toMatchObject({ matched: true, originalMatch: '"Hello"', position: 4 });
  });

  it('fuzzyMatch answers null for no match, an empty needle and non-strings (never throws)', () => {
    expect(q.fuzzyMatch('"Bye"', '\u201CHello\u201D')).toBeNull();
    expect(q.fuzzyMatch('', 'abc')).toBeNull();
    expect(q.fuzzyMatch(undefined, 'abc')).toBeNull();
    expect(q.fuzzyMatch('a', 42)).toBeNull();
    expect(q.normalize(null)).toBeNull();
  });
});
