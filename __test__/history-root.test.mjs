// The default undo store lives under $EDIT_ENGINE_HISTORY_ROOT when it is set (vitest.config.mjs
// points it at a folder of the run), one private folder per workspace.
import { readdirSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { editTool, flushWrites, undoLastEdit } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
afterEach(() => ws?.cleanup());

describe('EDIT_ENGINE_HISTORY_ROOT', () => {
  it('holds the default store of a workspace, which undo reads back', async () => {
    const root = process.env.EDIT_ENGINE_HISTORY_ROOT;
    expect(root).toMatch(/edit-engine-test-history-/);
    ws = makeWorkspace('edit-engine-history-root-');
    ws.write('a.txt', 'one\n');
    const before = new Set(readdirSync(root));
    const options = { allowedFolders: [ws.root], cwd: ws.root };
    expect(await editTool(options).execute({ file_path: 'a.txt', old_string: 'one', new_string: 'two' })).toMatch(/^Successfully/);
    flushWrites(); // the undo level is recorded on the engine's background thread
    // Stores only: the root also holds collection's bookkeeping (.last-collection, .collect.lock).
    const added = readdirSync(root).filter((d) => !before.has(d) && !d.startsWith('.'));
    expect(added).toHaveLength(1);
    expect(statSync(`${root}/${added[0]}`).mode & 0o777).toBe(0o700);
    expect(await undoLastEdit('a.txt', options)).toMatch(/^Last edit to a.txt undone successfully/);
    expect(ws.read('a.txt')).toBe('one\n');
  });
});
