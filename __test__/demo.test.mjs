// The demo (lib/demo.mjs) as users start it: `edit-engine demo` and `node examples/demo.mjs`.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** Runs `args` with node; checks the demo's run and returns its output. */
function runDemo(args) {
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

describe('demo', () => {
  it.each([
    ['edit-engine demo', [file('bin/edit-engine.mjs'), 'demo']],
    ['examples/demo.mjs', [file('examples/demo.mjs')]],
  ])('%s shows each tool on a temporary copy of the sample project, then removes it', (_name, args) => {
    const out = runDemo(args);
    const root = /^edit-engine demo in (.+)$/m.exec(out)[1];
    expect(out).toContain('Successfully edited src/cart.js (1 replacement)');
    expect(out).toContain('=== replace_in_file');
    expect(out).toMatch(/=== edit at the reference \d+:[0-9a-f]{2} grep printed\nedit\(.*\)\nSuccessfully/);
    expect(out).toContain('=== view (the read-only tool');
    expect(out).toMatch(/=== Checkpoints: .*\nRewinding to checkpoint [0-9a-f]{32} \("demo start"\) would change \d+ files/);
    expect(out).toMatch(/\nRewound \d+ files to checkpoint/);
    expect(out).toMatch(/Rewinding that rewind: Rewound \d+ files to checkpoint/);
    expect(existsSync(root)).toBe(false);
    expect(existsSync(file('lib/demo-project/src/cart.js'))).toBe(true);
  });
});
