// Crash consistency of multi-file commits (apply_patch): a child process applies patches that
// update three files, add or delete a fourth and move a fifth (and undoes some of them), and is
// SIGKILLed at random moments. Afterwards every file must be whole (an old or a new content, never
// torn), and undoing from any file of the last patch, level after level, must always leave a
// consistent workspace (every file of a patch reverted together), take exactly one patch back
// per undo (no skipped level) and end at the starting state. The first undo after a kill may
// only finish what the kill interrupted (a commit whose levels were recorded ahead, an undo whose
// files were restored before its levels were removed); when the kill left the files half-way
// between two states, it must bring back the earlier one (the worker's journal says which).
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { undoLastEdit } from '../lib/index.mjs';
import { LONG, prng, report, seedFromEnv, startCrashWorker } from './support/trust.mjs';

const RUNS = LONG ? 100 : 6;
const P_FILES = ['p0.txt', 'p1.txt', 'p2.txt'];
const counts = {
  runs: 0,
  patchesAtKill: 0,
  halfWayStates: 0,
  undosChecked: 0,
  completedAfterCrash: 0,
  skippedLevels: 0,
  inconsistentStates: 0,
  tornFiles: 0,
  refusedAfterCrash: 0,
  notBackAtStart: 0,
};
afterAll(() => report('patch-crash', counts));

/** Starts the worker; `ready` after its first patch, `exit` when it dies (see startCrashWorker). */
const startWorker = (root, historyDir, seed) => startCrashWorker('patch-crash-worker.cjs', [root, historyDir, String(seed)]);

/** The id lines of a whole file (ids then `END`), null when torn, undefined when absent. */
function ids(root, rel) {
  const file = join(root, rel);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  if (!text.endsWith('END\n')) return null;
  const lines = text.slice(0, -4).split('\n').filter((l) => l !== '');
  return lines.every((l) => /^\d+-\d+$/.test(l)) ? lines : null;
}

/** Every file's state; `torn` when one is not whole. */
function snapshot(root) {
  const p = P_FILES.map((f) => ids(root, f));
  const x = existsSync(join(root, 'x.txt')) ? readFileSync(join(root, 'x.txt'), 'utf8') : undefined;
  const mvA = ids(root, 'mv-a.txt');
  const mvB = ids(root, 'mv-b.txt');
  const torn = p.some((s) => s == null) || mvA === null || mvB === null || (x !== undefined && !/^\d+-\d+\n$/.test(x));
  return { p, x, mvA, mvB, torn };
}

/** The ids every file agrees on when the workspace is consistent (the state after n patches), else null. */
function consistent(s) {
  const [first] = s.p;
  if (s.torn || s.p.some((q) => q.join() !== first.join())) return null;
  const odd = first.length % 2 === 1;
  const moved = odd ? s.mvB : s.mvA;
  const other = odd ? s.mvA : s.mvB;
  if (moved === undefined || other !== undefined || moved.join() !== first.join()) return null;
  if (odd !== (s.x !== undefined)) return null;
  if (odd && s.x !== `${first[first.length - 1]}\n`) return null;
  return first;
}

describe('SIGKILL during multi-file commits and their undos', () => {
  it(`every file is whole and undo stays consistent after each of ${RUNS} kills`, async () => {
    const seed = seedFromEnv();
    console.log(`[trust:patch-crash] seed=${seed} (replay with EDIT_ENGINE_SEED=${seed})`);
    const rnd = prng(seed);
    for (let run = 0; run < RUNS; run++) {
      const root = mkdtempSync(join(tmpdir(), 'edit-engine-patch-crash-'));
      try {
        const historyDir = join(root, '.history');
        for (const f of [...P_FILES, 'mv-a.txt']) writeFileSync(join(root, f), 'END\n');
        const w = startWorker(root, historyDir, rnd.int(2 ** 31));
        await w.ready;
        await new Promise((r) => setTimeout(r, 10 + rnd.int(LONG ? 300 : 150)));
        w.child.kill('SIGKILL');
        await w.exit;
        counts.runs++;
        let state = snapshot(root);
        if (state.torn) {
          counts.tornFiles++;
          continue;
        }
        const longest = state.p.reduce((a, q) => (q.length > a.length ? q : a));
        const journal = readFileSync(join(root, 'journal'), 'utf8').trim().split('\n');
        const earlier = longest.slice(0, Number(journal[journal.length - 1]));
        counts.patchesAtKill += longest.length;
        let current = consistent(state);
        if (current === null) counts.halfWayStates++;
        for (let undo = 0; ; undo++) {
          const out = await undoLastEdit(rnd.pick(P_FILES), { allowedFolders: [root], cwd: root, historyDir });
          if (/No edit history/.test(out)) break;
          if (!/undone successfully/.test(out)) {
            counts.refusedAfterCrash++;
            console.log(`[trust:patch-crash] refused: ${out}`);
            break;
          }
          state = snapshot(root);
          if (state.torn) {
            counts.tornFiles++;
            break;
          }
          const after = consistent(state);
          if (after === null) {
            counts.inconsistentStates++;
            break;
          }
          counts.undosChecked++;
          if (undo === 0 && current === null) {
            // A commit or an undo cut short: finished back to the earlier of its two states.
            if (after.join() === earlier.join()) counts.completedAfterCrash++;
            else counts.skippedLevels++;
          } else if (undo === 0 && after.join() === current.join()) {
            counts.completedAfterCrash++; // only removed the levels of a commit that never wrote
          } else if (after.join() !== current.slice(0, -1).join()) counts.skippedLevels++;
          current = after;
        }
        if (!(current && current.length === 0)) counts.notBackAtStart++;
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
    expect(counts.tornFiles).toBe(0);
    expect(counts.inconsistentStates).toBe(0);
    expect(counts.skippedLevels).toBe(0);
    expect(counts.refusedAfterCrash).toBe(0);
    expect(counts.notBackAtStart).toBe(0);
    expect(counts.undosChecked).toBeGreaterThan(RUNS);
  }, 600_000);
});
