// Crash consistency of rewinds: a child process rewinds a session's files to a checkpoint and
// back, over and over, and is SIGKILLed at a random moment. Afterwards every file must be whole
// (its content at the checkpoint or its edited content, never torn or missing), a rewind to the
// checkpoint run again must complete (every file exactly as at the checkpoint), and rewinding
// that rewind must give back exactly the files as the kill left them.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckpoints, editTool } from '../lib/index.mjs';
import { LONG, prng, report, seedFromEnv, startCrashWorker } from './support/trust.mjs';

const RUNS = LONG ? 100 : 6;
const FILES = Array.from({ length: 30 }, (_, i) => `f${i}.txt`);
const at = (i) => `file ${i}\n${'checkpoint line\n'.repeat(20)}`;
const edited = (i) => `file ${i}\n${'edited line\n'.repeat(20)}`;
const counts = { runs: 0, killedMidRewind: 0, tornFiles: 0, inconsistentStates: 0, rerunsRefused: 0, rewindsOfRerunWrong: 0 };
afterAll(() => report('rewind-crash', counts));

/** Each file's content (undefined when absent). */
const contents = (root) => FILES.map((f) => (existsSync(join(root, f)) ? readFileSync(join(root, f), 'utf8') : undefined));

describe('SIGKILL during rewinds', () => {
  it(`every file is whole and a rerun completes the rewind after each of ${RUNS} kills`, async () => {
    const seed = seedFromEnv();
    console.log(`[trust:rewind-crash] seed=${seed} (replay with EDIT_ENGINE_SEED=${seed})`);
    const rnd = prng(seed);
    for (let run = 0; run < RUNS; run++) {
      const root = mkdtempSync(join(tmpdir(), 'edit-engine-rewind-crash-'));
      try {
        const opts = { allowedFolders: [root], cwd: root, historyDir: join(root, '.history'), sessionId: `crash-${run}` };
        FILES.forEach((f, i) => writeFileSync(join(root, f), at(i)));
        const checkpoints = createCheckpoints(opts);
        const cp = await checkpoints.create('start');
        const edit = editTool(opts);
        for (const [i, f] of FILES.entries()) {
          const out = await edit.execute({ file_path: f, old_string: at(i), new_string: edited(i) });
          expect(out).toMatch(/^Success/);
        }
        const w = startCrashWorker('rewind-crash-worker.cjs', [root, opts.historyDir, opts.sessionId, cp.id]);
        await w.ready;
        await new Promise((r) => setTimeout(r, 5 + rnd.int(LONG ? 300 : 120)));
        w.child.kill('SIGKILL');
        await w.exit;
        counts.runs++;
        const killed = contents(root);
        if (killed.some((c, i) => c !== at(i) && c !== edited(i))) {
          counts.tornFiles++;
          continue;
        }
        if (new Set(killed.map((c, i) => c === at(i))).size > 1) counts.killedMidRewind++;
        const rerun = await checkpoints.rewind(cp.id);
        if (!rerun.ok) {
          counts.rerunsRefused++;
          console.log(`[trust:rewind-crash] refused: ${rerun.text}`);
          continue;
        }
        if (contents(root).some((c, i) => c !== at(i))) counts.inconsistentStates++;
        const back = await checkpoints.rewind(rerun.checkpoint.id);
        if (!back.ok || contents(root).some((c, i) => c !== killed[i])) counts.rewindsOfRerunWrong++;
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
    expect(counts.tornFiles).toBe(0);
    expect(counts.rerunsRefused).toBe(0);
    expect(counts.inconsistentStates).toBe(0);
    expect(counts.rewindsOfRerunWrong).toBe(0);
    expect(counts.runs).toBe(RUNS);
  }, 600_000);
});
