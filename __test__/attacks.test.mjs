// The attack suite: what a hostile agent or local environment tries, by category. Each attack is
// one test that passes when the attack held (the documented guarantee kept); the table printed at
// the end counts tried / held per category. Categories live in `__test__/attacks/*.mjs`, each
// exporting `{ category, attacks: [{ name, run(ws) }] }`; add a file and list it below.
import { describe, it, afterAll, afterEach } from 'vitest';
import { makeWorkspace } from './support/workspace.mjs';
import protectedFiles from './attacks/protected-files.mjs';
import optionMeaning from './attacks/option-meaning.mjs';
import failureChannels from './attacks/failure-channels.mjs';
import inputFidelity from './attacks/input-fidelity.mjs';
import sizeLimits from './attacks/size-limits.mjs';

const CATEGORIES = [protectedFiles, optionMeaning, failureChannels, inputFidelity, sizeLimits];

const tally = new Map(CATEGORIES.map((c) => [c.category, { tried: 0, held: 0 }]));

afterAll(() => {
  const rows = [...tally].map(([category, { tried, held }]) => `| ${category} | ${tried} | ${held} |`);
  console.log(['| category | tried | held |', '| --- | --- | --- |', ...rows].join('\n'));
});

for (const { category, attacks } of CATEGORIES) {
  describe(category, () => {
    let ws;
    afterEach(() => ws?.cleanup());
    for (const { name, run } of attacks) {
      it(name, async () => {
        const count = tally.get(category);
        count.tried += 1;
        ws = makeWorkspace('edit-engine-attack-');
        await run(ws);
        count.held += 1;
      });
    }
  });
}
