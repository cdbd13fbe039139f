// The Probe conformance script's offline parts: import rewriting and the verdict on differences
// (the run itself needs Probe's repository and is not part of the test suite).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify, missingExports, rewrite } from '../scripts/probe-conformance.mjs';

const entry = JSON.stringify(pathToFileURL(resolve('lib/index.mjs')).href);

describe('probe conformance: rewriting a test file', () => {
  const text = [
    "import { describe, test } from '@jest/globals';",
    "import { editTool, noSuchThing as alias } from '../../src/tools/edit.js';",
    "import { computeLineHash } from \"../../src/tools/hashline.js\";",
    "test('dynamic', async () => {",
    "  const { parseLineRef } = await import('../../src/tools/hashline.js');",
    '});',
  ].join('\n');

  it('points every replaced-module import, static or dynamic, at the package entry', () => {
    const out = rewrite({ name: 'x.test.js', text }, new Set(['editTool', 'computeLineHash', 'parseLineRef']));
    expect(out.text).not.toMatch(/src\/tools/);
    expect(out.text.split(entry)).toHaveLength(4);
    expect(out.original).toBe(text);
    expect(out.foreign).toEqual([]);
  });

  it('names imports the package does not export, reading only the braces of each import', () => {
    expect(missingExports(text, new Set(['editTool', 'computeLineHash', 'parseLineRef']))).toEqual(['noSuchThing']);
    expect(missingExports(text, new Set(['editTool', 'noSuchThing', 'computeLineHash']))).toEqual(['parseLineRef']);
  });

  it('reports imports of Probe modules the package does not replace', () => {
    const out = rewrite({ name: 'y.test.js', text: "import { extract } from '../../src/extract.js';\nimport { editTool } from '../../src/tools/edit.js';" }, new Set(['editTool']));
    expect(out.foreign).toEqual(['../../src/extract.js']);
  });
});

describe('probe conformance: the verdict', () => {
  const known = { 'a.test.js › refused on purpose': { class: 'b', reason: 'why' }, 'a.test.js › gone': { class: 'b', reason: 'why' } };

  it('classifies known differences and leaves others unclassified', () => {
    const verdict = classify({ 'a.test.js': [
      { name: 'refused on purpose', passed: false, message: 'm1' },
      { name: 'new failure', passed: false, message: 'm2' },
      { name: 'fine', passed: true, message: '' },
    ] }, known);
    expect(verdict.differ).toEqual([
      { key: 'a.test.js › refused on purpose', message: 'm1', known: known['a.test.js › refused on purpose'] },
      { key: 'a.test.js › new failure', message: 'm2', known: undefined },
    ]);
    expect(verdict.stale).toEqual([]);
    expect(verdict.absent).toEqual(['a.test.js › gone']);
  });

  it('flags a known difference that now passes as stale', () => {
    const verdict = classify({ 'a.test.js': [{ name: 'refused on purpose', passed: true, message: '' }] }, known);
    expect(verdict.differ).toEqual([]);
    expect(verdict.stale).toEqual(['a.test.js › refused on purpose']);
  });
});
