// Removes the run's undo-store folder (EDIT_ENGINE_HISTORY_ROOT, set by vitest.config.mjs).
import { rmSync } from 'node:fs';
import { basename } from 'node:path';

export default function setup() {
  return () => {
    const root = process.env.EDIT_ENGINE_HISTORY_ROOT;
    if (root && basename(root).startsWith('edit-engine-test-history-')) rmSync(root, { recursive: true, force: true });
  };
}
