#!/usr/bin/env node
// Two builds of the engine in one process, call by call: `node bench/ab.mjs --other DIR`, DIR being
// another checkout with its own `npm run build` done (its lib/ and .node are loaded beside ours).
// Each row alternates one call of this tree and one of the other (who goes first alternates too), so
// both see the same machine load; the ratio is this tree's median over the other's. See bench/README.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as here from '../lib/index.mjs';
import { KB, MB, concurrentRow, failureOf, median, now, rowsFor, sideOf } from './interleaved.mjs';

function args() {
  const a = { rounds: 1 };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--other') a.other = path.resolve(argv[++i]);
    else if (argv[i] === '--rounds') a.rounds = Number(argv[++i]);
    else if (argv[i] === '--json') a.json = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (usage: --other DIR [--rounds N] [--json OUT])`);
  }
  if (!a.other) throw new Error('--other DIR is required: a checkout of the build to compare against');
  return a;
}

/** Alternates the two sides call by call; returns both sides' times. */
async function measureRow(row, sides) {
  const reps = row.reps ?? (row.size === '4 MB' ? 25 : 100);
  const times = Object.fromEntries(sides.map((s) => [s.name, []]));
  for (const s of sides) {
    await row.prepare(s);
    const first = await row.call(s); // warm-up, and a check that the call works on both builds
    const failure = failureOf(first);
    if (failure !== undefined) throw new Error(`${row.row} ${row.size} on ${s.name}: ${failure}`);
  }
  for (let i = 0; i < reps; i++) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) {
      await row.prepare(s);
      const t = now();
      await row.call(s);
      times[s.name].push(now() - t);
    }
  }
  return times;
}

async function main() {
  const a = args();
  const otherLib = await import(pathToFileURL(path.join(a.other, 'lib', 'index.mjs')).href);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'edit-engine-ab-'));
  const sides = [sideOf('here', here, work), sideOf('other', otherLib, work)];
  const rows = [
    ...rowsFor('1 KB', KB, here.computeLineHash),
    ...rowsFor('100 KB', 100 * KB, here.computeLineHash),
    ...rowsFor('4 MB', 4 * MB, here.computeLineHash),
    concurrentRow(here.computeLineHash),
  ];
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; other: ${a.other}`);
  console.log('row                                   | size        | here ms | other ms | here/other');
  const out = [];
  try {
    for (let round = 0; round < a.rounds; round++) {
      for (const row of rows) {
        const t = await measureRow(row, sides);
        const r = { row: row.row, size: row.size, round, here: median(t.here), other: median(t.other) };
        out.push(r);
        console.log(`${r.row.padEnd(38)}| ${r.size.padEnd(12)}| ${r.here.toFixed(3).padStart(7)} | ${r.other.toFixed(3).padStart(8)} | ${(r.here / r.other).toFixed(2)}x`);
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (a.json) fs.writeFileSync(a.json, JSON.stringify(out, null, 2));
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
