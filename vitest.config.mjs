import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The tools' default undo stores go to a folder of this run (removed by the global teardown), not
// to the shared one under the OS temp dir: every test workspace would otherwise leave a store.
process.env.EDIT_ENGINE_HISTORY_ROOT ||= mkdtempSync(join(tmpdir(), 'edit-engine-test-history-'));

export default defineConfig({
  test: {
    include: ['__test__/**/*.test.mjs'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['__test__/support/global-setup.mjs'],
  },
});
