// Vitest's global setup: its teardown removes the run's undo-store folder.
import { createRequire } from 'node:module';

const { removeRunHistoryRoot } = createRequire(import.meta.url)('./history-root.cjs');

export default function setup() {
  return removeRunHistoryRoot;
}
