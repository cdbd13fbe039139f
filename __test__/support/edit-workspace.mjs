// The setup most edit suites share: each test gets a fresh workspace and an edit tool confined to
// it. `import { ws, edit, useEditWorkspace } from './support/edit-workspace.mjs'; useEditWorkspace();`
// (`ws` and `edit` are live bindings: they name the current test's workspace and tool).
import { afterEach, beforeEach } from 'vitest';
import { editTool } from '../../lib/index.mjs';
import { makeWorkspace } from './workspace.mjs';

/** The current test's workspace (see makeWorkspace). */
export let ws;
/** An edit tool confined to `ws`. */
export let edit;

/**
 * Registers the hooks of the calling test file: before each test a new `ws` and `edit`; after it
 * `beforeCleanup(ws)` (if given), then the workspace is removed.
 */
export function useEditWorkspace({ beforeCleanup } = {}) {
  beforeEach(() => {
    ws = makeWorkspace();
    edit = editTool({ allowedFolders: [ws.root], cwd: ws.root });
  });
  afterEach(() => {
    if (beforeCleanup) beforeCleanup(ws);
    ws.cleanup();
  });
}
