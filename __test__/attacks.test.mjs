// The attack suite: what a hostile agent or local environment tries, by category. Each attack is
// one test that passes when the attack held (the documented guarantee kept); the table printed at
// the end counts tried / held per category. Categories live in `__test__/attacks/*.mjs`, each
// exporting `{ category, attacks: [{ name, run(ws), needsRoot? }] }`; add a file and list it below.
// An attack that needs root (mounting a tmpfs, giving a folder to another user) is skipped, and
// not counted, when the suite runs as another user outside CI; in CI it fails instead.
import { describe, it, afterAll, afterEach } from 'vitest';
import { makeWorkspace } from './support/workspace.mjs';
import protectedFiles from './attacks/protected-files.mjs';
import optionMeaning from './attacks/option-meaning.mjs';
import failureChannels from './attacks/failure-channels.mjs';
import inputFidelity from './attacks/input-fidelity.mjs';
import store from './attacks/store.mjs';
import sizeLimits from './attacks/size-limits.mjs';

const CATEGORIES = [protectedFiles, optionMeaning, failureChannels, inputFidelity, sizeLimits, store];
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

const tally = new Map(CATEGORIES.map((c) => [c.category, { tried: 0, held: 0 }]));

afterAll(() => {
  const rows = [...tally].map(([category, { tried, held }]) => `| ${category} | ${tried} | ${held} |`);
  console.log(['| category | tried | held |', '| --- | --- | --- |', ...rows].join('\n'));
});

for (const { category, attacks } of CATEGORIES) {
  describe(category, () => {
    let ws;
    afterEach(() => ws?.cleanup());
    for (const { name, run, needsRoot } of attacks) {
      it(name, async (ctx) => {
        if (needsRoot && !isRoot) {
          if (process.env.CI) throw new Error(`${name}: this attack needs root`);
          ctx.skip();
        }
        const count = tally.get(category);
        count.tried += 1;
        ws = makeWorkspace('edit-engine-attack-');
        await run(ws);
        count.held += 1;
      });
    }
  });
}
