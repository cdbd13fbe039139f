// Patch-format rows of `npm run bench`: a 20-hunk apply_patch (V4A) on a 1 MB file and a 10-file
// patch, ours (the apply_patch tool on disk, and applyPatchToText in memory) next to the OpenAI
// Agents SDK's JS `applyDiff` (in memory; plus a plain fs.writeFileSync per file for the 10-file
// row) when it can be loaded. The SDK is fetched with `npm pack @openai/agents-core` into a cache
// outside the repository (env EDIT_ENGINE_BENCH_AGENTS_CORE: a directory holding an unpacked copy).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as ours from '../lib/index.mjs';

const require = createRequire(import.meta.url);
const HUNKS = 20;
const FILES = 10;

/** The SDK's `applyDiff(input, diff)`, or a reason it is unavailable. */
function loadReference(log) {
  const dir =
    process.env.EDIT_ENGINE_BENCH_AGENTS_CORE ||
    path.join(process.env.EDIT_ENGINE_BENCH_CACHE || path.join(os.homedir(), '.cache', 'edit-engine-bench'), 'agents-core');
  const file = path.join(dir, 'package', 'dist', 'utils', 'applyDiff.js');
  try {
    if (!fs.existsSync(file)) {
      fs.mkdirSync(dir, { recursive: true });
      log(`fetching @openai/agents-core into ${dir} (npm pack) ...`);
      const tgz = execFileSync('npm', ['pack', '@openai/agents-core', '--silent', '--pack-destination', dir], { cwd: dir, encoding: 'utf8', timeout: 180_000 }).trim().split('\n').pop();
      execFileSync('tar', ['xzf', path.join(dir, tgz)], { cwd: dir, timeout: 60_000 });
    }
    const version = JSON.parse(fs.readFileSync(path.join(dir, 'package', 'package.json'), 'utf8')).version;
    return { ok: true, applyDiff: require(file).applyDiff, version };
  } catch (e) {
    return { ok: false, reason: `Agents SDK applyDiff not available (${String(e.message || e).split('\n')[0]})` };
  }
}

/** A ~1 MB file of numbered functions and a V4A section changing `hunks` of them, spread evenly. */
function bigFileAndSection(bytes, hunks) {
  const blocks = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const block = `function f${i}(a, b) {\n  const v${i} = a + b * ${i};\n  return v${i};\n}\n\n`;
    blocks.push(block);
    size += block.length;
  }
  const lines = [];
  const step = Math.floor(blocks.length / hunks);
  for (let h = 0; h < hunks; h++) {
    const i = h * step + 1;
    lines.push(`@@ function f${i}(a, b) {`, `-  const v${i} = a + b * ${i};`, `+  const v${i} = a - b * ${i};`, `   return v${i};`);
  }
  const text = blocks.join('');
  let expected = text;
  for (let h = 0; h < hunks; h++) {
    const i = h * step + 1;
    expected = expected.replace(`  const v${i} = a + b * ${i};\n`, `  const v${i} = a - b * ${i};\n`);
  }
  return { text, section: lines.join('\n'), expected };
}

/** Runs the patch rows with the bench's `measure`; prints them and returns them. */
export async function benchPatchFormats({ measure, work, log, cell }) {
  const ref = loadReference(log);
  const dir = path.join(work, 'patch');
  fs.mkdirSync(dir, { recursive: true });
  const tool = ours.applyPatchTool({ allowedFolders: [dir], cwd: dir, history: false });
  const rows = [];

  const big = bigFileAndSection(1024 * 1024, HUNKS);
  const bigFile = path.join(dir, 'big.js');
  const bigPatch = `*** Begin Patch\n*** Update File: big.js\n${big.section}\n*** End Patch`;
  const onDisk = (file, expected) => () => (fs.readFileSync(file, 'utf8') === expected ? null : 'file differs from the expected result');
  const row1 = { row: `apply_patch ${HUNKS} hunks`, size: '1 MB', sides: {} };
  row1.sides.ours = await measure({
    setup: () => fs.writeFileSync(bigFile, big.text),
    run: () => tool.execute({ input: bigPatch }),
    check: (out) => (out.startsWith('Success') ? onDisk(bigFile, big.expected)() : out.slice(0, 200)),
    maxReps: 30,
  });
  row1.sides.oursText = await measure({
    run: () => ours.applyPatchToText(big.text, bigPatch),
    check: (r) => (r.ok && r.text === big.expected ? null : r.message || 'text differs'),
    maxReps: 30,
  });
  if (ref.ok) {
    row1.sides.reference = await measure({
      run: () => ref.applyDiff(big.text, big.section),
      check: (t) => (t === big.expected ? null : 'text differs from the expected result'),
      maxReps: 30,
    });
  }
  rows.push(row1);

  const files = Array.from({ length: FILES }, (_, k) => bigFileAndSection(20 * 1024, 2));
  const names = files.map((_, k) => `m${k}.js`);
  const multiPatch = `*** Begin Patch\n${files.map((f, k) => `*** Update File: ${names[k]}\n${f.section}`).join('\n')}\n*** End Patch`;
  const writeAll = () => files.forEach((f, k) => fs.writeFileSync(path.join(dir, names[k]), f.text));
  const allExpected = () => files.every((f, k) => fs.readFileSync(path.join(dir, names[k]), 'utf8') === f.expected) ? null : 'a file differs';
  const row2 = { row: `apply_patch ${FILES} files`, size: `${FILES} x 20 KB`, sides: {} };
  row2.sides.ours = await measure({
    setup: writeAll,
    run: () => tool.execute({ input: multiPatch }),
    check: (out) => (out.startsWith('Success') ? allExpected() : out.slice(0, 200)),
    maxReps: 30,
  });
  if (ref.ok) {
    row2.sides.reference = await measure({
      setup: writeAll,
      run: () => names.forEach((n, k) => {
        const file = path.join(dir, n);
        fs.writeFileSync(file, ref.applyDiff(fs.readFileSync(file, 'utf8'), files[k].section));
      }),
      check: allExpected,
      maxReps: 30,
    });
  }
  rows.push(row2);

  console.log(`\nPatch formats (ms, median [p10-p90]); reference: ${ref.ok ? `@openai/agents-core ${ref.version} applyDiff` : ref.reason}`);
  console.log('row                        | size         | ours: tool on disk            | ours: applyPatchToText        | reference (in memory / + writeFileSync)');
  for (const r of rows) {
    const c = (m) => (m ? cell(m) : '-');
    console.log(`${r.row.padEnd(26)} | ${r.size.padEnd(12)} | ${c(r.sides.ours).padEnd(29)} | ${c(r.sides.oursText).padEnd(29)} | ${c(r.sides.reference)}`);
    for (const [side, m] of Object.entries(r.sides)) if (m && m.error) console.log(`    ! ${side}: ${m.error}`);
  }
  return rows;
}
