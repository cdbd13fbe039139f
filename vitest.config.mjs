import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// The tools' default undo stores go to a folder of this run (see __test__/support/history-root.cjs).
createRequire(import.meta.url)('./__test__/support/history-root.cjs').useRunHistoryRoot();

export default defineConfig({
  test: {
    include: ['__test__/**/*.test.mjs'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['__test__/support/global-setup.mjs'],
    setupFiles: ['__test__/support/runtime-setup.mjs'],
  },
});
