import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statSync, chmodSync } from 'node:fs';
import { createTool, FileTracker } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
let create;
beforeEach(() => {
  ws = makeWorkspace();
  create = createTool({ allowedFolders: [ws.root], cwd: ws.root });
});
afterEach(() => ws.cleanup());

describe('create tool', () => {
  it('has Probe\'s shape', () => {
    expect(create.name).toBe('create');
    expect(create.inputSchema.required).toEqual(['file_path', 'content']);
  });

  it('creates a file and its parent directories, counting UTF-8 bytes', async () => {
    const content = 'export const greeting = "héllo";\n';
    const out = await create.execute({ file_path: 'src/deep/new.js', content });
    expect(out).toBe(`Successfully created src/deep/new.js (${Buffer.byteLength(content)} bytes)`);
    expect(ws.read('src/deep/new.js')).toBe(content);
  });

  it('refuses to overwrite unless asked', async () => {
    ws.write('a.txt', 'old');
    expect(await create.execute({ file_path: 'a.txt', content: 'new' })).toBe('Error creating file: File already exists - a.txt. Use overwrite: true to replace it.');
    expect(ws.read('a.txt')).toBe('old');
    expect(await create.execute({ file_path: 'a.txt', content: 'new', overwrite: true })).toBe('Successfully overwrote a.txt (3 bytes)');
    expect(ws.read('a.txt')).toBe('new');
  });

  it('keeps the permissions of an overwritten file', async () => {
    ws.write('run.sh', 'echo 1');
    chmodSync(ws.path('run.sh'), 0o750);
    await create.execute({ file_path: 'run.sh', content: 'echo 2', overwrite: true });
    expect(statSync(ws.path('run.sh')).mode & 0o777).toBe(0o750);
  });

  it('creates an empty file', async () => {
    expect(await create.execute({ file_path: 'empty.txt', content: '' })).toBe('Successfully created empty.txt (0 bytes)');
    expect(ws.read('empty.txt')).toBe('');
  });

  it('validates its parameters with Probe\'s messages', async () => {
    expect(await create.execute({ content: 'x' })).toBe('Error creating file: Invalid file_path - must be a non-empty string. Provide an absolute path or a path relative to the working directory (e.g. "src/newFile.js").');
    expect(await create.execute({ file_path: 'a.txt' })).toBe('Error creating file: Invalid content - must be a string. Provide the file content as a string value (empty string "" is valid for an empty file).');
  });

  it('refuses paths outside the allowed folders and creates nothing', async () => {
    const out = await create.execute({ file_path: '../escape.txt', content: 'x' });
    expect(out).toMatch(/^Error creating file: Permission denied - .*escape\.txt is outside allowed directories\./);
  });

  it('refuses a directory target', async () => {
    ws.write('dir/keep.txt', 'k');
    const out = await create.execute({ file_path: 'dir', content: 'x', overwrite: true });
    expect(out).toMatch(/^Error creating file: dir is not a regular file/);
  });

  it('marks the written file as seen in the tracker', async () => {
    const tracker = new FileTracker();
    const tool = createTool({ allowedFolders: [ws.root], cwd: ws.root, fileTracker: tracker });
    await tool.execute({ file_path: 'n.js', content: 'x' });
    expect(tracker.isFileSeen(ws.path('n.js'))).toBe(true);
  });

  it('appends a diff with returnDiff', async () => {
    const tool = createTool({ allowedFolders: [ws.root], cwd: ws.root, returnDiff: true });
    const out = await tool.execute({ file_path: 'd.txt', content: 'one\n' });
    expect(out).toBe('Successfully created d.txt (4 bytes)\n\nDiff:\n```diff\n--- a/d.txt\n+++ b/d.txt\n@@ -0,0 +1 @@\n+one\n```');
  });
});
