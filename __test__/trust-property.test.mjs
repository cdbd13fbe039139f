// Property test: random parameter objects (wrong types, huge strings, NUL bytes,
// negative / enormous / NaN line numbers, invalid regex-like strings, arrays and objects where
// strings are expected) sent to every tool, on a workspace that also holds invalid UTF-8 and
// binary files. Properties: `execute` never throws or rejects and always resolves to a string; a
// result that reports no change ("Error..." or a multi_edit with 0 successes) leaves every file
// of the workspace (and of a folder outside it) byte-identical.
//
// The seed is printed; replay with EDIT_ENGINE_SEED=<seed>. EDIT_ENGINE_LONG=1 runs 10x the cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, symlinkSync } from 'node:fs';
import { makeWorkspace } from './support/workspace.mjs';
import { LONG, TOOLS, prng, report, reportsNoChange, seedFromEnv, snapshotTree } from './support/trust.mjs';

const OBJECTS = LONG ? 100_000 : 10_000;
const counts = { objects: 0, calls: 0, throws: 0, nonStrings: 0, changedOnError: 0, successes: 0 };

const FIXTURE = {
  'a.txt': 'alpha\n  beta = 1;\n\tgamma("x")\nalpha\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo “wörld”\n')]),
  'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'nul.bin': Buffer.from('abc\0def\n'),
  'empty.txt': '',
  'code.js': 'export function add(a, b) {\n  return a + b;\n}\n\nclass Calc {\n  push(x) { this.x = x; }\n}\n',
  'sub/b.py': 'def f(x):\n    return x\n',
  'no-newline.txt': 'last line',
};
const TEXT_SAMPLES = ['alpha', '  beta = 1;', 'beta = 1;', 'gamma("x")', 'gamma(“x”)', 'one\ntwo', 'one\r\ntwo', 'wörld', 'return a + b;', 'last line', 'def f(x):'];

let ws;
let outside;
function resetWorkspace() {
  for (const name of Object.keys(snapshotTree(ws.root))) {
    if (!name.includes('/')) rmSync(ws.path(name), { recursive: true, force: true });
  }
  for (const [rel, content] of Object.entries(FIXTURE)) ws.write(rel, content);
  symlinkSync(ws.path('a.txt'), ws.path('link.txt'));
  symlinkSync(outside.path('o.txt'), ws.path('out-link.txt'));
}
beforeAll(() => {
  ws = makeWorkspace('edit-engine-prop-');
  outside = makeWorkspace('edit-engine-prop-out-');
  outside.write('o.txt', 'alpha\n');
  resetWorkspace();
});
afterAll(() => {
  report('property', counts);
  ws.cleanup();
  outside.cleanup();
});

/** Random values of every JSON-ish kind, biased toward the nasty ones. */
function generator(rnd) {
  const huge = 'x'.repeat(300_000);
  const hugeLines = 'line\n'.repeat(60_000);
  const scalars = [
    undefined, null, true, false, 0, -0, -1, 1, 2, 3, NaN, Infinity, -Infinity, 1e300, -1e300, 2 ** 53, 2 ** 64, 4294967297, 1.5, -2.5,
    '', ' ', '\n', '\0', 'a\0b', '\ud800', '\udfff', '😀', 'ß', 'İ', '\u202e', '\r\n',
    '1', '0', '-1', '1:ab', '1:zz', '2:AB', '01', ' 2 ', '1e3', '0x10', 'NaN', 'Infinity', '99999999999999999999', '1'.repeat(400), '3-5', '1:',
    '(', '[a-', '*', '\\', '$&', '$1', '$$', '.*', '(?<x>', 'a{99999}',
    'before', 'after', 'replace', 'BEFORE', 'exact', 'line-trimmed', 'block-anchor', 'nope',
    'add', 'Calc.push', 'Calc', 'f', 'missing.symbol', '::add',
    'view', 'str_replace', 'create', 'insert', 'undo_edit', 'lines', 'insert_before', 'insert_after', 'string', 'regex',
    'a.txt', 'crlf.txt', 'bom.txt', 'latin1.txt', 'nul.bin', 'empty.txt', 'code.js', 'sub/b.py', 'no-newline.txt', 'link.txt', 'out-link.txt',
    'sub', '.', '..', '/', '../x.txt', 'x/../../a.txt', './a.txt', 'a.txt/', 'new-file.txt', 'deep/new/file.txt',
    ...TEXT_SAMPLES,
  ];
  const value = (depth = 0) => {
    const r = rnd.next();
    if (r < 0.55) return rnd.pick(scalars);
    if (r < 0.65) return rnd.int(2 ** 31) - 2 ** 30;
    if (r < 0.72) return String.fromCharCode(...Array.from({ length: rnd.int(40) }, () => rnd.int(0x3000)));
    if (r < 0.74) return rnd.chance(0.5) ? huge : hugeLines;
    if (r < 0.8) return rnd.pick(TEXT_SAMPLES) + rnd.pick(['', ' ', '\n', '  ', '\t', 'X']);
    if (r < 0.88 && depth < 3) return Array.from({ length: rnd.int(4) }, () => value(depth + 1));
    if (depth < 3) {
      const o = {};
      for (let k = rnd.int(4); k > 0; k--) o[rnd.pick(['a', 'file_path', 'toString', 'length', '0', 'old_string'])] = value(depth + 1);
      return o;
    }
    return null;
  };
  return value;
}

/** A random parameter object for `tool`: mostly its own keys, with plausible or hostile values. */
function randomParams(rnd, value, tool) {
  const r = rnd.next();
  if (r < 0.03) return rnd.pick([null, undefined, 'string', 42, [], [{}], true]);
  const params = {};
  for (const key of tool.paramShapes) {
    if (rnd.chance(0.75)) params[key] = value();
  }
  if (tool.paramShapes.includes('edits') && rnd.chance(0.7)) {
    const editTool = TOOLS[0];
    const edits = Array.from({ length: rnd.chance(0.05) ? 51 : rnd.int(5) }, () => (rnd.chance(0.9) ? randomParams(rnd, value, editTool) : value()));
    params.edits = rnd.chance(0.2) ? JSON.stringify(edits) : edits;
    if (rnd.chance(0.1)) params.edits = '[{"file_path": "a.txt", "old_string": ';
  }
  if (rnd.chance(0.05)) params[rnd.pick(['__proto__', 'constructor', 'unknown', 'prototype'])] = value();
  return tool.fixed ? { ...params, ...tool.fixed } : params;
}

describe('random parameters to every tool', () => {
  it(`${OBJECTS} random parameter objects: always a string, never a throw, no change on error`, async () => {
    const seed = seedFromEnv();
    console.log(`[trust:property] seed=${seed} (replay with EDIT_ENGINE_SEED=${seed})`);
    const rnd = prng(seed);
    const value = generator(rnd);
    const opts = { allowedFolders: [ws.root], cwd: ws.root };
    const tools = TOOLS.map((t) => [t, t.factory(rnd.chance(0.5) ? opts : { ...opts, protectedPaths: ['sub/'], maxFileBytes: 64 })]);
    const failures = [];
    let before = { ws: snapshotTree(ws.root), out: snapshotTree(outside.root) };
    for (let i = 0; i < OBJECTS; i++) {
      const [t, tool] = tools[i % tools.length];
      const params = randomParams(rnd, value, t);
      counts.objects++;
      counts.calls++;
      let result;
      try {
        result = await tool.execute(params);
      } catch (e) {
        counts.throws++;
        failures.push(`#${i} ${t.name} threw: ${e && e.message}`);
        continue;
      }
      if (typeof result !== 'string') {
        counts.nonStrings++;
        failures.push(`#${i} ${t.name} returned ${typeof result}`);
        continue;
      }
      const after = { ws: snapshotTree(ws.root), out: snapshotTree(outside.root) };
      if (t.read) {
        // A read-only tool: nothing may change, whatever it answers.
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          counts.changedOnError++;
          failures.push(`#${i} ${t.name} (read-only) changed files: ${result.slice(0, 160)}`);
          resetWorkspace();
          before = { ws: snapshotTree(ws.root), out: snapshotTree(outside.root) };
        }
      } else if (reportsNoChange(result)) {
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          counts.changedOnError++;
          failures.push(`#${i} ${t.name} changed files but said: ${result.slice(0, 160)} params=${JSON.stringify(params)?.slice(0, 300)}`);
          resetWorkspace();
          before = { ws: snapshotTree(ws.root), out: snapshotTree(outside.root) };
        }
      } else {
        counts.successes++;
        if (JSON.stringify(after.out) !== JSON.stringify(before.out)) failures.push(`#${i} ${t.name} changed the outside folder`);
        resetWorkspace();
        before = { ws: snapshotTree(ws.root), out: snapshotTree(outside.root) };
      }
      if (failures.length > 20) break;
    }
    expect(failures).toEqual([]);
  }, LONG ? 3_600_000 : 120_000);
});
