import { describe, expect, it } from 'vitest';
import * as ee from '../lib/index.mjs';
import { referenceLineHash } from './support/workspace.mjs';

describe('line hashes', () => {
  it.each(['function foo() {}', '  return a + b;  ', '', 'const s = "héllo 😀 wörld";', '\t\tx\u00a0=\u20001;'])(
    'computeLineHash(%j) equals the reference DJB2',
    (line) => expect(ee.computeLineHash(line)).toBe(referenceLineHash(line)),
  );

  it('ignores white space entirely', () => {
    expect(ee.computeLineHash('a b\tc')).toBe(ee.computeLineHash('abc'));
  });

  it('parses line references', () => {
    expect(ee.parseLineRef('42')).toEqual({ line: 42, hash: null });
    expect(ee.parseLineRef(' 42:AB ')).toEqual({ line: 42, hash: 'ab' });
    expect(ee.parseLineRef(7)).toEqual({ line: 7, hash: null });
    for (const bad of ['0', '-1', '4.5', '42:abc', 'x', '', undefined, null]) expect(ee.parseLineRef(bad)).toBeNull();
  });

  it('validates a hash against file lines', () => {
    const lines = ['a', 'b'];
    expect(ee.validateLineHash(2, referenceLineHash('b'), lines)).toEqual({ valid: true, actualHash: referenceLineHash('b'), actualContent: 'b' });
    expect(ee.validateLineHash(3, 'ab', lines)).toEqual({ valid: false, actualHash: '', actualContent: '' });
  });

  it('annotates probe output with hashes', () => {
    const out = ee.annotateOutputWithHashes('  12 | const a = 1;\nplain\n  13 |   return a;\r');
    expect(out).toBe(`  12:${referenceLineHash(' const a = 1;')} | const a = 1;\nplain\n  13:${referenceLineHash('   return a;')} |   return a;\r`);
    expect(ee.annotateOutputWithHashes(undefined)).toBeUndefined();
  });
});

describe('auto-corrections', () => {
  it('strips hashline prefixes only when most lines carry them', () => {
    expect(ee.stripHashlinePrefixes('1:ab | a\n2 | b')).toEqual({ cleaned: 'a\nb', stripped: true });
    expect(ee.stripHashlinePrefixes('a\nb | c')).toEqual({ cleaned: 'a\nb | c', stripped: false });
    expect(ee.stripHashlinePrefixes(undefined)).toEqual({ cleaned: '', stripped: false });
  });

  it('strips echoed boundary lines', () => {
    const file = ['one', 'two', 'three', 'four'];
    expect(ee.stripEchoedBoundaries('one\nTWO\nthree', file, 2, 2)).toEqual({
      result: 'TWO',
      modifications: ['stripped echoed line before range', 'stripped echoed line after range'],
    });
    expect(ee.stripEchoedBoundaries('two\nnew', file, 2, 2, 'after')).toEqual({ result: 'new', modifications: ['stripped echoed anchor line (insert-after)'] });
    expect(ee.stripEchoedBoundaries('new\ntwo', file, 2, 2, 'before')).toEqual({ result: 'new', modifications: ['stripped echoed anchor line (insert-before)'] });
  });

  it('restores indentation within one level only', () => {
    expect(ee.restoreIndentation('x = 1;\ny = 2;', ['    a;', '    b;'])).toEqual({ result: '    x = 1;\n    y = 2;', modifications: ['reindented from "" to "    "'] });
    expect(ee.restoreIndentation('x;', ['          deep;'])).toEqual({ result: 'x;', modifications: [] });
  });

  it('cleans a new_string through the whole pipeline', () => {
    const r = ee.cleanNewString('1:aa | before\n2:bb | new', ['before', '  old', 'after'], 2, 2);
    expect(r).toEqual({ cleaned: '  new', modifications: ['stripped line-number prefixes', 'stripped echoed line before range', 'reindented from "" to "  "'] });
  });

  it('detects base indentation and reindents', () => {
    expect(ee.detectBaseIndent('\n    a\n  b')).toBe('    ');
    expect(ee.reindent('  a\n    b\n\n  c', '\t')).toBe('\ta\n\t  b\n\n\tc');
  });
});

describe('fuzzy helpers', () => {
  const content = 'function f() {\n    if (a) {\n        go();\n    }\n}\n';

  it('findFuzzyMatch returns the file\'s own text and the strategy', () => {
    expect(ee.findFuzzyMatch(content, 'if (a) {\n    go();\n}')).toEqual({ matchedText: '    if (a) {\n        go();\n    }', strategy: 'line-trimmed', count: 1 });
    expect(ee.findFuzzyMatch(content, 'nothing like it')).toBeNull();
    expect(ee.findFuzzyMatch(content, '   ')).toBeNull();
  });

  it('findFuzzyMatch lists its keys in Probe\'s order, so serialized results compare equal', () => {
    const found = ee.findFuzzyMatch(content, 'if (a) {\n    go();\n}');
    expect(Object.keys(found)).toEqual(['matchedText', 'count', 'strategy']);
    expect(JSON.stringify(found)).toBe('{"matchedText":"    if (a) {\\n        go();\\n    }","count":1,"strategy":"line-trimmed"}');
    expect(JSON.stringify(ee.findFuzzyMatch('x;\n  a = 1;\n', 'a  = 1;'))).toBe('{"matchedText":"a = 1;","count":1,"strategy":"whitespace-normalized"}');
  });

  it('line-trimmed rejects matches more than one indent level away', () => {
    const lines = ['class A {', '            deep();', '}'];
    expect(ee.lineTrimmedMatch(lines, ['deep();'])).toBeNull();
    expect(ee.lineTrimmedMatch(['  near();'], ['near();'])).toEqual({ matchedText: '  near();', count: 1 });
  });

  it('whitespace-normalized collapses runs of spaces and tabs', () => {
    expect(ee.whitespaceNormalizedMatch('a  =\t\tb;', 'a = b;')).toEqual({ matchedText: 'a  =\t\tb;', count: 1 });
  });

  it('indent-flexible keeps relative indentation', () => {
    const file = ['  if (x) {', '    y();', '  }'];
    expect(ee.indentFlexibleMatch(file, ['if (x) {', '  y();', '}'])).toEqual({ matchedText: file.join('\n'), count: 1 });
    expect(ee.indentFlexibleMatch(file, ['if (x) {', 'y();', '}'])).toBeNull();
  });
});

describe('exported constants', () => {
  it('exposes schemas, descriptions and definitions', () => {
    expect(ee.editSchema.required).toEqual(['file_path', 'new_string']);
    expect(ee.createSchema.required).toEqual(['file_path', 'content']);
    expect(ee.multiEditSchema.required).toEqual(['edits']);
    for (const s of [ee.editDescription, ee.createDescription, ee.multiEditDescription]) expect(s.length).toBeGreaterThan(20);
    expect(ee.editToolDefinition).toMatch(/^\n## edit\nDescription: /);
    expect(ee.createToolDefinition).toMatch(/^\n## create\nDescription: /);
    expect(ee.multiEditToolDefinition).toMatch(/^\n## multi_edit\nDescription: /);
  });
});
