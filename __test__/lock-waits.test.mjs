// Waits that stall nothing: an edit waiting for a lock held by a stopped process occupies none of
// libuv's pool threads, so Node's own file work, edits of other files and process exit go on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fsp, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BackgroundTaskPersistence, editTool } from '../lib/index.mjs';
import { haveFlock, holdStopped } from './support/lock-holder.mjs';
import { makeWorkspace } from './support/workspace.mjs';

const { lockFilePath } = createRequire(import.meta.url)('../lib/native.cjs');
const WAITERS = 12;
const lines = (n, word) => Array.from({ length: n }, (_, i) => `${word} ${i}\n`).join('');

let ws;
let holder;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => {
  holder?.release();
  holder = undefined;
  ws.cleanup();
});

describe.skipIf(!haveFlock)('lock waits', () => {
  it('an unrelated read and an edit of another file complete while 12 edits wait on a stopped holder', async () => {
    const held = ws.write('held.txt', lines(WAITERS, 'line'));
    ws.write('other.txt', 'alpha\n');
    ws.write('unrelated.bin', 'x'.repeat(1 << 16));
    holder = await holdStopped(lockFilePath(held));
    const edit = editTool({ allowedFolders: [ws.root], cwd: ws.root, lockTimeoutMs: 600_000 });
    let settled = 0;
    const waiting = Array.from({ length: WAITERS }, (_, i) =>
      edit.execute({ file_path: 'held.txt', old_string: `line ${i}\n`, new_string: `edited ${i}\n` }).finally(() => settled++),
    );
    await new Promise((r) => setTimeout(r, 200));

    expect((await fsp.readFile(ws.path('unrelated.bin'))).length).toBe(1 << 16);
    expect(await edit.execute({ file_path: 'other.txt', old_string: 'alpha', new_string: 'beta' })).toMatch(/^Successfully edited/);
    expect(ws.read('other.txt')).toBe('beta\n');
    expect(settled).toBe(0);

    holder.release();
    const results = await Promise.all(waiting);
    expect(results.every((r) => r.startsWith('Successfully edited'))).toBe(true);
    expect(ws.read('held.txt')).toBe(lines(WAITERS, 'edited'));
  });

  it('process.exit() ends the process while edits still wait on a stopped holder', async () => {
    const held = ws.write('held.txt', lines(WAITERS, 'line'));
    holder = await holdStopped(lockFilePath(held));
    const script = fileURLToPath(new URL('./support/exit-while-waiting.cjs', import.meta.url));
    const child = spawn(process.execPath, [script, ws.root, 'held.txt', String(WAITERS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(out).toBe('waiting\n');
    expect(code).toBe(0);
    expect(ws.read('held.txt')).toBe(lines(WAITERS, 'line'));
  });
});

describe.skipIf(!haveFlock)('BackgroundTaskPersistence lock wait', () => {
  it('rejects after lockTimeoutMs when a stopped process holds the store, changing nothing', async () => {
    const file = ws.write('tasks.json', '[]\n');
    holder = await holdStopped(`${file}.lock`);
    const store = new BackgroundTaskPersistence({ filePath: file, lockTimeoutMs: 200 });
    await expect(store.save({ id: 'a' })).rejects.toThrow(
      /tasks\.json is locked: its lock file .*tasks\.json\.lock was held by another process or call for the whole 200 ms wait\. Nothing was changed; .*raise the lockTimeoutMs option/,
    );
    await expect(store.load()).rejects.toThrow(/is locked/);
    expect(ws.read('tasks.json')).toBe('[]\n');
    holder.release();
    await store.save({ id: 'a' });
    expect(await store.load()).toEqual([{ id: 'a' }]);
  });
});

describe('BackgroundTaskPersistence store kinds', () => {
  it('validates lockTimeoutMs', () => {
    expect(() => new BackgroundTaskPersistence({ lockTimeoutMs: -1 })).toThrow(/lockTimeoutMs must be a number of milliseconds >= 0/);
    expect(() => new BackgroundTaskPersistence({ lockTimeoutMs: '5' })).toThrow(/lockTimeoutMs must be a number/);
    expect(new BackgroundTaskPersistence({ lockTimeoutMs: 0 }).filePath).toMatch(/background-tasks\.json$/);
  });

  it.skipIf(spawnSync('mkfifo', ['--version']).status !== 0)('refuses a FIFO as the store without blocking on it', async () => {
    const fifo = ws.path('tasks.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const store = new BackgroundTaskPersistence({ filePath: fifo });
    const refusal = /tasks\.fifo is a FIFO, not a regular file; nothing was read or written\. Give filePath a regular JSON file/;
    await expect(store.load()).rejects.toThrow(refusal);
    await expect(store.save({ id: 'a' })).rejects.toThrow(refusal);
    await expect(store.cleanup()).rejects.toThrow(refusal);
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(existsSync(`${fifo}.lock`)).toBe(false);
  });

  it('refuses a device as the store (here through a symlink) without creating its lock file', async () => {
    const file = ws.path('tasks.json');
    symlinkSync('/dev/null', file);
    const store = new BackgroundTaskPersistence({ filePath: file });
    await expect(store.load()).rejects.toThrow(/tasks\.json is a device, not a regular file/);
    await expect(store.save({ id: 'a' })).rejects.toThrow(/is a device/);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
