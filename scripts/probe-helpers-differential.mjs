// Differential check of the pure helpers edit-engine exports under Probe's names: each helper and
// Probe's own (from its installed package folder) get the same generated, well-typed inputs, and
// the results are compared as JSON (key order included). Used by probe-conformance.mjs --helpers.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

/** Probe module (under src/tools/) → helpers compared from it. */
const HELPERS = {
  fuzzyMatch: ['findFuzzyMatch', 'lineTrimmedMatch', 'whitespaceNormalizedMatch', 'indentFlexibleMatch'],
  hashline: ['computeLineHash', 'parseLineRef', 'validateLineHash', 'annotateOutputWithHashes', 'stripHashlinePrefixes'],
  lineEditHeuristics: ['stripEchoedBoundaries', 'restoreIndentation', 'cleanNewString'],
  symbolEdit: ['detectBaseIndent', 'reindent'],
  fileTracker: ['computeContentHash'],
};

const ATOMS = ['foo', 'bar', '(', ')', '{', '}', ' ', '  ', '\t', 'x = 1;', 'return', '', '42:ab | ', '7 | ', 'é', '  if (a) {', '//c', ';', '"s"', '\r'];
const INDENTS = ['', ' ', '  ', '    ', '\t'];
const REFS = ['1', '42', '42:ab', '42:AB', ' 42 ', '42:', '42:abc', 'a', '0', '-1', '3.5', '42:zz', ' 42:ab ', '007', 42, 7];

/** Generators of one call's arguments, from a random source `r` (a function returning [0, 1)). */
function generators(r, lineHash) {
  const pick = (a) => a[Math.floor(r() * a.length)];
  const line = () => (r() < 0.3 ? pick(INDENTS) : '') + Array.from({ length: Math.floor(r() * 5) }, () => pick(ATOMS)).join('');
  const lines = (max = 6) => Array.from({ length: 1 + Math.floor(r() * max) }, line);
  const part = (all) => {
    const a = Math.floor(r() * all.length);
    const cut = all.slice(a, a + 1 + Math.floor(r() * (all.length - a)));
    const v = r();
    if (v < 0.3) return cut.map((l) => l.trim());
    if (v < 0.5) return cut.map((l) => `  ${l}`);
    return v < 0.6 ? cut.map((l) => l.replace(/ +/g, ' ')) : cut;
  };
  const range = (f) => {
    const s = 1 + Math.floor(r() * f.length);
    return [s, s + Math.floor(r() * 2)];
  };
  const echo = (f, s, e) => {
    const ctx = f.slice(Math.max(0, s - 2), e + 1);
    return pick([ctx.join('\n'), [...ctx, line()].join('\n'), ctx.map((l) => l.trimStart()).join('\n'), ctx.map((l, i) => `${s + i - 1}:${lineHash(l)} | ${l}`).join('\n'), line()]);
  };
  const heuristic = () => {
    const f = lines(8);
    const [s, e] = range(f);
    return [echo(f, s, e), f, s, e, pick([undefined, 'before', 'after'])];
  };
  const numbered = () => lines().map((l, i) => pick([`${i + 1} | ${l}`, `  ${i + 1} | ${l}`, `${i + 1}:${lineHash(l)} | ${l}`, `${i + 1}\t${l}`, l])).join('\n');
  return {
    findFuzzyMatch: () => { const c = lines(); return [c.join('\n'), part(c).join('\n')]; },
    lineTrimmedMatch: () => { const c = lines(); return [c, part(c)]; },
    whitespaceNormalizedMatch: () => { const c = lines(); return [c.join('\n'), part(c).join('\n')]; },
    indentFlexibleMatch: () => { const c = lines(); return [c, part(c)]; },
    computeLineHash: () => [line()],
    parseLineRef: () => [pick(REFS)],
    validateLineHash: () => { const f = lines(); return [Math.floor(r() * (f.length + 2)), pick(['00', 'AB', lineHash(f[0])]), f]; },
    annotateOutputWithHashes: () => [numbered()],
    stripHashlinePrefixes: () => [numbered()],
    stripEchoedBoundaries: heuristic,
    restoreIndentation: () => { const o = lines(); return [part(o).map((l) => l.trimStart()).join('\n'), o]; },
    cleanNewString: heuristic,
    detectBaseIndent: () => [lines().join('\n')],
    reindent: () => [lines().join('\n'), pick(INDENTS)],
    computeContentHash: () => [lines().join('\n')],
  };
}

/** A seeded random source in [0, 1) (mulberry32). */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function outcome(fn, args) {
  try {
    return JSON.stringify(fn(...args)) ?? 'undefined';
  } catch (err) {
    return `throws ${err.message}`;
  }
}

/**
 * Compares `ours` (edit-engine's entry module) with Probe's helpers under `probeFolder`;
 * `{ helper: { calls, differ, example } }` (example: the first differing call).
 */
export async function compareHelpers(ours, probeFolder, { calls = 2000, seed = 1 } = {}) {
  const gens = generators(random(seed), ours.computeLineHash);
  const report = {};
  for (const [module, names] of Object.entries(HELPERS)) {
    const probe = await import(pathToFileURL(join(probeFolder, 'src', 'tools', `${module}.js`)).href);
    for (const name of names) {
      const entry = (report[name] = { calls, differ: 0, example: undefined });
      for (let i = 0; i < calls; i++) {
        const args = gens[name]();
        const theirs = outcome(probe[name], args);
        const mine = outcome(ours[name], args);
        if (theirs === mine) continue;
        entry.differ++;
        entry.example ??= { args, probe: theirs, ours: mine };
      }
    }
  }
  return report;
}
