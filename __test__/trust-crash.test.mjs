// Crash consistency: a child process edits files of 1 KB - 1 MB in a loop and
// is SIGKILLed at random moments. After every kill each file must be exactly one of its computed
// states (never torn, never older than already seen), and temp files left by the killed writer
// must be cleaned by the next successful write in their directory once they are stale. Stale means
// older than 60 s (fs/cleanup.rs); the test backdates leftovers instead of waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { flushWrites } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { LONG, TOOLS, prng, report, seedFromEnv, tempFilesUnder } from './support/trust.mjs';

const require = createRequire(import.meta.url);
const { layout, parseGeneration } = require('./support/generations.cjs');

const KILLS = LONG ? 400 : 50;
const FILES = [
  { rel: 'd0/small.txt', size: 1024 },
  { rel: 'd0/huge.txt', size: 1 << 20 },
  { rel: 'd1/mid.txt', size: 64 << 10 },
  { rel: 'd1/tiny.txt', size: 4 << 10 },
  { rel: 'd2/big.txt', size: 256 << 10 },
  { rel: 'd2/kb.txt', size: 1024 },
];
const counts = { edits: 0, kills: 0, torn: 0, regressions: 0, leftoverTemps: 0, tempsNotCleaned: 0, workerErrors: 0 };

let ws;
beforeAll(() => {
  ws = makeWorkspace('edit-engine-crash-');
  for (const f of FILES) ws.write(f.rel, layout(f.rel, f.size).content(0));
});
afterAll(() => {
  report('crash', counts);
  ws.cleanup();
});

/** Starts the worker; resolves `ready` when it has written every file once, `exit` when it dies. */
function startWorker() {
  const script = fileURLToPath(new URL('./support/crash-worker.cjs', import.meta.url));
  const child = spawn(process.execPath, [script, ws.root, JSON.stringify(FILES)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  const ready = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('ready\n')) resolve();
    });
    exit.then((e) => reject(new Error(`worker exited before ready: ${JSON.stringify(e)}`)));
  });
  return { child, ready, exit };
}

describe('SIGKILL during edits', () => {
  it(`every file is a valid state after each of ${KILLS} kills; stale temps are cleaned`, async () => {
    const seed = seedFromEnv();
    console.log(`[trust:crash] seed=${seed} (replay with EDIT_ENGINE_SEED=${seed})`);
    const rnd = prng(seed);
    const lays = new Map(FILES.map((f) => [f.rel, layout(f.rel, f.size)]));
    const lastGen = new Map(FILES.map((f) => [f.rel, 0]));
    let leftovers = [];
    const problems = [];
    for (let k = 0; k < KILLS; k++) {
      const w = startWorker();
      await w.ready;
      // The new process has written into every directory: temps backdated after the last kill are gone.
      const stillThere = leftovers.filter((p) => existsSync(p));
      counts.tempsNotCleaned += stillThere.length;
      if (stillThere.length) problems.push(`kill ${k}: stale temps not cleaned: ${stillThere.join(', ')}`);
      await new Promise((r) => setTimeout(r, rnd.int(LONG ? 150 : 100)));
      w.child.kill('SIGKILL');
      const e = await w.exit;
      counts.kills++;
      if (e.signal !== 'SIGKILL') {
        counts.workerErrors++;
        problems.push(`kill ${k}: worker ended by itself: ${JSON.stringify(e)}`);
      }
      for (const f of FILES) {
        const gen = parseGeneration(lays.get(f.rel), readFileSync(ws.path(f.rel), 'utf8'));
        if (gen < 0) {
          counts.torn++;
          problems.push(`kill ${k}: ${f.rel} is torn`);
          continue;
        }
        if (gen < lastGen.get(f.rel)) {
          counts.regressions++;
          problems.push(`kill ${k}: ${f.rel} went back from gen ${lastGen.get(f.rel)} to ${gen}`);
        }
        counts.edits += gen - lastGen.get(f.rel);
        lastGen.set(f.rel, gen);
      }
      leftovers = tempFilesUnder(ws.root);
      counts.leftoverTemps += leftovers.length;
      const past = new Date(Date.now() - 120_000);
      for (const p of leftovers) utimesSync(p, past, past);
      if (problems.length > 5) break;
    }
    // This process writes every directory once: its first write there scans for stale temps.
    const edit = TOOLS[0].factory({ allowedFolders: [ws.root], cwd: ws.root });
    for (const f of FILES) {
      const g = lastGen.get(f.rel);
      expect(await edit.execute({ file_path: f.rel, old_string: `gen ${g}\n`, new_string: `gen ${g + 1}\n` })).toMatch(/^Successfully/);
    }
    flushWrites(); // the stale-temp scan runs on the engine's background thread
    expect(tempFilesUnder(ws.root)).toEqual([]);
    console.log(`[trust:crash] generations reached: ${[...lastGen].map(([f, g]) => `${f}=${g}`).join(' ')}`);
    expect(problems).toEqual([]);
  }, LONG ? 1_800_000 : 120_000);
});
