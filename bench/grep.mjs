// Grep benchmark: a generated tree of many files (default 6,000 in 60 directories, ~40 lines
// each, a .gitignore'd build folder and a few binary files), searched through edit-engine's
// `grep`. Prints the median of several runs per query. Usage: node bench/grep.mjs [files] [runs]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { grep } from '../lib/index.mjs';

const files = Number(process.argv[2] ?? 6000);
const runs = Number(process.argv[3] ?? 7);
const root = mkdtempSync(join(tmpdir(), 'edit-engine-grep-bench-'));

function buildTree() {
  writeFileSync(join(root, '.gitignore'), 'build/\n');
  const dirs = 60;
  for (let d = 0; d < dirs; d++) mkdirSync(join(root, 'src', `mod${d}`), { recursive: true });
  mkdirSync(join(root, 'build'), { recursive: true });
  for (let i = 0; i < files; i++) {
    const lines = [];
    for (let l = 0; l < 40; l++) lines.push(`export function fn_${i}_${l}(arg) { return arg * ${l}; } // line ${l}`);
    if (i % 97 === 0) lines.push('  handleError(new Error("rare"));');
    const ext = i % 3 === 0 ? 'ts' : i % 3 === 1 ? 'js' : 'py';
    writeFileSync(join(root, 'src', `mod${i % dirs}`, `file${i}.${ext}`), lines.join('\n') + '\n');
  }
  for (let i = 0; i < 200; i++) writeFileSync(join(root, 'build', `out${i}.js`), 'handleError();\n'.repeat(50));
  for (let i = 0; i < 20; i++) writeFileSync(join(root, 'src', `blob${i}.bin`), Buffer.concat([Buffer.from('handleError'), Buffer.alloc(4096)]));
}

async function time(label, args) {
  const samples = [];
  let out = '';
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    out = await grep(args, { cwd: root, allowedFolders: [root] });
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const lines = out.startsWith('No matches') ? 0 : out.split('\n').length;
  console.log(`${label.padEnd(44)} median ${samples[samples.length >> 1].toFixed(1).padStart(7)} ms  min ${samples[0].toFixed(1).padStart(7)} ms  (${lines} output lines)`);
}

const t0 = performance.now();
buildTree();
console.log(`tree: ${files} source files + 200 ignored + 20 binary in ${root} (built in ${(performance.now() - t0).toFixed(0)} ms)`);
try {
  await time('rare literal (handleError)', { pattern: 'handleError' });
  await time('rare literal, context 2', { pattern: 'handleError', context: 2 });
  await time('rare literal, fileType ts', { pattern: 'handleError', fileType: 'ts' });
  await time('regex fn_\\d+_7\\b, maxResults 500', { pattern: 'fn_\\d+_7\\b', maxResults: 500 });
  await time('regex, lineHashes, maxResults 500', { pattern: 'fn_\\d+_7\\b', maxResults: 500, lineHashes: true });
  await time('no match (zzzz_nothing)', { pattern: 'zzzz_nothing' });
} finally {
  rmSync(root, { recursive: true, force: true });
}
