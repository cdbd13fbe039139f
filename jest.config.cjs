const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

// As in vitest.config.mjs: the tools' default undo stores go to a folder of this run, removed by
// the global teardown.
process.env.EDIT_ENGINE_HISTORY_ROOT ||= mkdtempSync(join(tmpdir(), 'edit-engine-test-history-'));

module.exports = {
  testMatch: ['<rootDir>/__test__/jest/**/*.test.cjs'],
  testEnvironment: 'node',
  globalTeardown: '<rootDir>/__test__/jest/teardown.cjs',
};
