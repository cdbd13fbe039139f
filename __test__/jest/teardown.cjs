// Jest's global teardown: removes the run's undo-store folder (see jest.config.cjs).
const { rmSync } = require('node:fs');
const { basename } = require('node:path');

module.exports = async () => {
  const root = process.env.EDIT_ENGINE_HISTORY_ROOT;
  if (root && basename(root).startsWith('edit-engine-test-history-')) rmSync(root, { recursive: true, force: true });
};
