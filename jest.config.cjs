// The tools' default undo stores go to a folder of this run (see __test__/support/history-root.cjs).
require('./__test__/support/history-root.cjs').useRunHistoryRoot();

module.exports = {
  testMatch: ['<rootDir>/__test__/jest/**/*.test.cjs'],
  testEnvironment: 'node',
  // As in vitest.config.mjs: loading the adapters' SDKs alone can take seconds on a loaded machine.
  testTimeout: 60_000,
  setupFilesAfterEnv: ['<rootDir>/__test__/support/runtime-setup.cjs'],
  globalTeardown: '<rootDir>/__test__/support/history-root-teardown.cjs',
};
