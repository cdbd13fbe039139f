'use strict';
// The test runs' undo-store folder: vitest.config.mjs and jest.config.cjs point
// EDIT_ENGINE_HISTORY_ROOT at a fresh folder of the run (so test workspaces leave no store under
// the OS temp dir), and their global teardowns remove it.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { basename, join } = require('node:path');

const PREFIX = 'edit-engine-test-history-';

/** Sets EDIT_ENGINE_HISTORY_ROOT to a new folder unless it is already set. */
function useRunHistoryRoot() {
  process.env.EDIT_ENGINE_HISTORY_ROOT ||= mkdtempSync(join(tmpdir(), PREFIX));
}

/** Removes the folder `useRunHistoryRoot` made (never a folder the caller set). */
function removeRunHistoryRoot() {
  const root = process.env.EDIT_ENGINE_HISTORY_ROOT;
  if (root && basename(root).startsWith(PREFIX)) rmSync(root, { recursive: true, force: true });
}

module.exports = { useRunHistoryRoot, removeRunHistoryRoot };
