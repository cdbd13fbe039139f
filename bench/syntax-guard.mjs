// The syntax guard's cost: the same exact edit with syntaxCheck "warn" and "off", on JavaScript,
// TypeScript, Python and Java files of about 16 KB, 64 KB and 1 MB (the Java file is one class: a
// single top-level paragraph). Two rows per file:
// - "cold": the file is restored before every call (an agent's first edit of a file: nothing cached);
// - "chained": the edit and its reverse alternate, as an agent's successive edits of one file do.
// Run alone: `node bench/syntax-guard.mjs`; `npm run bench` runs it too.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ours from '../lib/index.mjs';
import { generateSource, prng } from './gen.mjs';

const KB = 1024;
const SIZES = [
  ['16 KB', 16 * KB],
  ['64 KB', 64 * KB],
  ['1 MB', 1024 * KB],
];

/** Python source of at most `bytes` bytes: functions and classes, with one `limit_{i}` line per unit. */
export function generatePython(bytes, seed = 1) {
  const r = prng(seed * 31 + bytes);
  const parts = ['# Generated Python source, edit-engine bench.\nimport math\n\n\n'];
  let size = parts[0].length;
  for (let i = 0; ; i++) {
    const k = 2 + Math.floor(r() * 7);
    const unit =
      i % 2 === 0
        ? `def checksum_${i}(items, limit=None):\n    """Folds the items of unit ${i}."""\n    limit_${i} = limit if limit is not None else ${k * 10}\n    total = 0\n    for item in items:\n        if item > limit_${i}:\n            total += item * ${k}\n        else:\n            total -= math.floor(item % ${k + 1})\n    return total\n\n\n`
        : `class Service${i}:\n    retries = ${k}\n\n    def __init__(self, name):\n        self.name = name\n        self.calls = {"count": 0, "limit_${i}": ${k}}\n\n    def run(self, job):\n        for attempt in range(self.retries):\n            if job(attempt):\n                return attempt\n        raise RuntimeError(f"{self.name} failed")\n\n\n`;
    if (i > 0 && size + unit.length > bytes) break;
    parts.push(unit);
    size += unit.length;
  }
  return parts.join('');
}

/** Java source of at most `bytes` bytes: one class of methods, with one `limit_{i}` line per method. */
export function generateJava(bytes, seed = 1) {
  const r = prng(seed * 37 + bytes);
  const head = '// Generated Java source, edit-engine bench.\npackage bench;\n\nimport java.util.List;\n\npublic class Service {\n';
  const parts = [head];
  let size = head.length + 2;
  for (let i = 0; ; i++) {
    const k = 2 + Math.floor(r() * 7);
    const unit = `    public int checksum${i}(List<Integer> items, Integer limit) {\n        int limit_${i} = limit != null ? limit : ${k * 10};\n        int total = 0;\n        for (int item : items) {\n            if (item > limit_${i}) {\n                total += item * ${k};\n            } else {\n                total -= item % ${k + 1};\n            }\n        }\n        return total;\n    }\n\n`;
    if (i > 0 && size + unit.length > bytes) break;
    parts.push(unit);
    size += unit.length;
  }
  parts.push('}\n');
  return parts.join('');
}

const GENERATE = {
  py: generatePython,
  java: generateJava,
};

const LIMIT_LINE = {
  py: /^ {4}limit_\d+ = /,
  java: /^ {8}int limit_\d+ = /,
};

/** A file and one exact edit of a line near its middle (`old` -> `new`, both unique). */
function subject(flavour, bytes) {
  const text = GENERATE[flavour]?.(bytes) ?? generateSource(bytes, flavour).text;
  const pattern = LIMIT_LINE[flavour] ?? /^ {2}const limit_\d+ = /;
  const hits = text.split('\n').filter((l) => pattern.test(l));
  const old = hits[Math.floor(hits.length / 2)];
  const edited = old.endsWith(';') ? `${old.slice(0, -1)} + 1;` : `${old} + 1`;
  return { text, file: `guard_${bytes}.${flavour}`, old, new: edited };
}

const success = (msg) => (String(msg).startsWith('Success') ? null : `unexpected result: ${String(msg).slice(0, 200)}`);
const median = (times) => times.sort((x, y) => x - y)[Math.floor(times.length / 2)];

/**
 * Times warn vs off for one file, cold and chained. The two tools take turns call by call (their order
 * alternating), so a drift of the machine's speed during the run weighs on both alike.
 */
async function rowsFor(dir, flavour, label, bytes, budgetMs) {
  const s = subject(flavour, bytes);
  const target = path.join(dir, s.file);
  const tools = Object.fromEntries(
    ['off', 'warn'].map((syntaxCheck) => [
      syntaxCheck,
      ours.editTool({ allowedFolders: [dir], cwd: dir, history: false, syntaxCheck }),
    ]),
  );
  const rows = [];
  for (const chained of [false, true]) {
    const row = { file: `${flavour} ${label}`, bytes: Buffer.byteLength(s.text), mode: chained ? 'chained' : 'cold' };
    fs.writeFileSync(target, s.text);
    let forward = true;
    const call = async (mode) => {
      if (!chained) {
        fs.writeFileSync(target, s.text);
        forward = true;
      }
      const [a, b] = forward ? [s.old, s.new] : [s.new, s.old];
      forward = !forward;
      const t = performance.now();
      const out = await tools[mode].execute({ file_path: s.file, old_string: a, new_string: b });
      return { ms: performance.now() - t, problem: success(out) };
    };
    const times = { off: [], warn: [] };
    const problem = (await call('off')).problem ?? (await call('warn')).problem;
    const maxReps = bytes > 100 * KB ? 30 : 120;
    const start = performance.now();
    for (let i = 0; !problem && (i < 5 || (i < maxReps && performance.now() - start < budgetMs)); i++) {
      for (const mode of i % 2 ? ['off', 'warn'] : ['warn', 'off']) times[mode].push((await call(mode)).ms);
    }
    for (const mode of ['off', 'warn']) {
      row[mode] = problem ? { error: problem } : { median: median(times[mode]), n: times[mode].length };
    }
    fs.writeFileSync(target, s.text);
    rows.push(row);
  }
  return rows;
}

const ms = (m) => (m && m.median != null ? m.median.toFixed(3) : m?.error ?? '-');

/** Every row, printed as a table; returns the rows. */
export async function benchSyntaxGuard({ work, log = () => {}, budgetMs = 3000 } = {}) {
  const dir = fs.mkdtempSync(path.join(work ?? os.tmpdir(), 'syntax-guard-'));
  const rows = [];
  try {
    for (const flavour of ['js', 'ts', 'py', 'java']) {
      for (const [label, bytes] of SIZES) {
        log(`syntax guard: ${flavour} ${label}`);
        rows.push(...(await rowsFor(dir, flavour, label, bytes, budgetMs)));
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log('\nSyntax guard cost (exact edit, ms per call, median; syntaxCheck "warn" vs "off"):');
  console.log('| file | bytes | calls | off | warn | warn/off |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const ratio = r.off?.median && r.warn?.median ? (r.warn.median / r.off.median).toFixed(2) : '-';
    console.log(`| ${r.file} | ${r.bytes} | ${r.mode} | ${ms(r.off)} | ${ms(r.warn)} | ${ratio} |`);
  }
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchSyntaxGuard({ log: (m) => process.stderr.write(`[bench] ${m}\n`) }).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
