// BackgroundTaskPersistence over a locked JSON file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BackgroundTaskPersistence } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
let file;
beforeEach(() => {
  ws = makeWorkspace();
  file = ws.path('state/background-tasks.json');
});
afterEach(() => ws.cleanup());

const task = (id, extra = {}) => ({ id, type: 'shell', command: `run ${id}`, startTime: 1, workingDirectory: '/w', sessionId: 's', ...extra });

/** Runs support/save-tasks.cjs; resolves to its exit code. */
function saver(prefix, count) {
  const script = fileURLToPath(new URL('./support/save-tasks.cjs', import.meta.url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, file, prefix, String(count)], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => resolve(code));
  });
}

describe('BackgroundTaskPersistence', () => {
  it('defaults to ~/.code-agent/background-tasks.json', () => {
    expect(new BackgroundTaskPersistence().filePath).toMatch(/\.code-agent\/background-tasks\.json$/);
    expect(new BackgroundTaskPersistence({ filePath: file }).filePath).toBe(file);
  });

  it('rejects unknown or mistyped constructor options, naming the one option and the default file', () => {
    expect(() => new BackgroundTaskPersistence({ path: file })).toThrow(
      /BackgroundTaskPersistence: unknown option "path"; the options are filePath, .*default: ~\/\.code-agent\/background-tasks\.json/,
    );
    expect(() => new BackgroundTaskPersistence({ filePath: 7 })).toThrow(/filePath must be a non-empty string/);
    expect(() => new BackgroundTaskPersistence('tasks.json')).toThrow(/options must be an object/);
    expect(new BackgroundTaskPersistence(undefined).filePath).toMatch(/\.code-agent\/background-tasks\.json$/);
  });

  it('saves, loads, replaces and removes tasks', async () => {
    const store = new BackgroundTaskPersistence({ filePath: file });
    expect(await store.load()).toEqual([]);
    expect(await store.save(task('a'))).toBeUndefined();
    await store.save(task('b', { pid: 123 }));
    await store.save(task('a', { command: 'again' }));
    expect(await store.load()).toEqual([task('a', { command: 'again' }), task('b', { pid: 123 })]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(2);
    expect(await store.remove('a')).toBe(true);
    expect(await store.remove('a')).toBe(false);
    expect((await store.load()).map((t) => t.id)).toEqual(['b']);
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  it('a second instance sees the first one\'s tasks (restart)', async () => {
    await new BackgroundTaskPersistence({ filePath: file }).save(task('x'));
    expect(await new BackgroundTaskPersistence({ filePath: file }).load()).toEqual([task('x')]);
  });

  it('rejects invalid tasks without writing', async () => {
    const store = new BackgroundTaskPersistence({ filePath: file });
    await expect(store.save({ type: 'shell' })).rejects.toThrow(/task\.id must be a non-empty string/);
    await expect(store.save({ id: 'x', pid: -4 })).rejects.toThrow(/task\.pid must be a positive integer/);
    expect(existsSync(file)).toBe(false);
  });

  it('cleanup drops tasks whose process is gone', async () => {
    const store = new BackgroundTaskPersistence({ filePath: file });
    const dead = spawn(process.execPath, ['-e', '0']);
    const deadPid = dead.pid;
    await new Promise((r) => dead.on('exit', r));
    await store.save(task('alive', { pid: process.pid }));
    await store.save(task('dead', { pid: deadPid }));
    await store.save(task('nopid'));
    const dropped = await store.cleanup();
    expect(dropped.map((t) => t.id)).toEqual(['dead']);
    expect((await store.load()).map((t) => t.id)).toEqual(['alive', 'nopid']);
  });

  it('reports a corrupt file and preserves it aside', async () => {
    const store = new BackgroundTaskPersistence({ filePath: file });
    await store.save(task('a'));
    writeFileSync(file, '[{"id": "a"'); // truncated JSON
    await expect(store.load()).rejects.toThrow(/is corrupt \(invalid JSON.*moved aside to .*background-tasks\.json\.corrupt-\d+/);
    const aside = readdirSync(join(file, '..')).filter((n) => n.startsWith('background-tasks.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(file, '..', aside[0]), 'utf8')).toBe('[{"id": "a"');
    expect(await store.load()).toEqual([]);
    await store.save(task('b'));
    expect((await store.load()).map((t) => t.id)).toEqual(['b']);
  });

  it('never loses a task when two processes save at once', async () => {
    const codes = await Promise.all([saver('p1', 100), saver('p2', 100)]);
    expect(codes).toEqual([0, 0]);
    const tasks = await new BackgroundTaskPersistence({ filePath: file }).load();
    expect(tasks).toHaveLength(200);
    const ids = new Set(tasks.map((t) => t.id));
    for (let i = 0; i < 100; i++) {
      expect(ids.has(`p1-${i}`) && ids.has(`p2-${i}`)).toBe(true);
    }
  });

  it('concurrent saves in one process lose nothing either', async () => {
    const store = new BackgroundTaskPersistence({ filePath: file });
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.save(task(`t${i}`))));
    expect(await store.load()).toHaveLength(30);
  });
});
