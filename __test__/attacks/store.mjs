// The undo store: every write that lands can be undone, or it does not land. A full disk, a
// historyDir another user owns or others can write, store folders swapped for symlinks or for
// another user's folder, and a lock held by a stopped process each refuse the write ("nothing was
// written: the undo history at <path> cannot record (<reason>)") and leave the file as it was.
import { expect } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyPatchTool, editTool, flushWritesAsync, undoLastEdit } from '../../lib/index.mjs';

const NOBODY = 65534;
const REFUSED = /^Error.*nothing was written: the undo history at .* cannot record \(.*\); the host can set history: false/;

const opts = (ws, extra = {}) => ({ allowedFolders: [ws.root], cwd: ws.root, historyDir: ws.path('.hist'), ...extra });
const edit = (ws, from, to, extra) => editTool(opts(ws, extra)).execute({ file_path: 'a.txt', old_string: from, new_string: to });

/** Every path below `dir` (what was written into it). */
function tree(dir) {
  return readdirSync(dir, { recursive: true });
}

/** A workspace whose a.txt was edited once (one undo level in `.hist`); the tool instance. */
async function editedOnce(ws, extra) {
  ws.write('a.txt', 'one\n');
  const tool = editTool(opts(ws, extra));
  expect(await tool.execute({ file_path: 'a.txt', old_string: 'one', new_string: 'two' })).toMatch(/^Successfully/);
  return tool;
}

const indexPath = fileURLToPath(new URL('../../lib/index.cjs', import.meta.url));

/**
 * Runs `body` (the statements of an async CommonJS function that sees the package as `index`,
 * `fs` and `path`) in a child Node process whose environment is this one's with `vars` set
 * (undefined: set empty, which the engine reads as unset — Deno's child_process adds a deleted
 * variable back from the parent); resolves to what `body` returns. A child, because a runtime's
 * `process.env` need not reach the addon's environment (Bun's writes do not).
 */
function inChildWithEnv(vars, body) {
  const env = { ...process.env };
  for (const [k, v] of Object.entries(vars)) env[k] = v ?? '';
  const dir = mkdtempSync(join(tmpdir(), 'edit-engine-env-'));
  const file = join(dir, 'child.cjs');
  writeFileSync(
    file,
    `const index = require(${JSON.stringify(indexPath)});\nconst fs = require('node:fs');\nconst path = require('node:path');\n` +
      `(async () => {\n${body}\n})().then((out) => process.stdout.write(JSON.stringify(out ?? null)));\n`,
  );
  try {
    const out = spawnSync('node', [file], { encoding: 'utf8', env });
    if (out.status !== 0) throw new Error(`child failed (${out.status}): ${out.stderr}`);
    return JSON.parse(out.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Swaps the store's `sub` (or the store itself for '') for a symlink to a fresh folder; returns that folder. */
function swapForSymlink(ws, sub) {
  const target = ws.path(`target-${sub || 'store'}`);
  mkdirSync(target);
  const path = join(ws.path('.hist'), sub);
  renameSync(path, ws.path(`moved-${sub || 'store'}`));
  symlinkSync(target, path);
  return target;
}

export default {
  category: 'store',
  attacks: [
    {
      name: "the store's disk is full: the edit is refused, the file unchanged",
      needsRoot: true,
      run: async (ws) => {
        const mnt = ws.path('full');
        mkdirSync(mnt);
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], { stdio: 'pipe' });
        try {
          chmodSync(mnt, 0o700);
          ws.write('a.txt', 'x'.repeat(20000) + '\n');
          ws.write('b.txt', 'one\n');
          const tool = editTool(opts(ws, { historyDir: join(mnt, 'h') }));
          // The store is open (and has recorded a level of b.txt) before its disk fills up.
          expect(await tool.execute({ file_path: 'b.txt', old_string: 'one', new_string: 'two' })).toMatch(/^Successfully/);
          try {
            for (let i = 0; ; i++) writeFileSync(join(mnt, `fill-${i}`), Buffer.alloc(4096, 120));
          } catch (e) {
            expect(e.code).toBe('ENOSPC');
          }
          const text = await tool.execute({ file_path: 'a.txt', old_string: 'xxx\n', new_string: 'yyy\n' });
          expect(text).toMatch(REFUSED);
          expect(text).toMatch(/No space left on device/);
          expect(ws.read('a.txt')).toBe('x'.repeat(20000) + '\n');
          for (const f of readdirSync(mnt).filter((n) => n.startsWith('fill-'))) rmSync(join(mnt, f));
          expect(await undoLastEdit('b.txt', opts(ws, { historyDir: join(mnt, 'h') }))).toMatch(/^Last edit to b.txt undone successfully/);
          expect(ws.read('b.txt')).toBe('one\n');
        } finally {
          // The tool still holds its store open on the mount: detach it (lazily).
          await flushWritesAsync();
          const unmounted = spawnSync('umount', ['-l', mnt], { encoding: 'utf8' });
          if (unmounted.status !== 0) throw new Error(`umount ${mnt} failed: ${unmounted.stderr}`);
        }
      },
    },
    {
      name: 'historyDir is mode 0777: refused naming the option, nothing written',
      run: async (ws) => {
        ws.write('a.txt', 'one\n');
        mkdirSync(ws.path('.hist'));
        chmodSync(ws.path('.hist'), 0o777);
        const text = await edit(ws, 'one', 'two');
        expect(text).toMatch(REFUSED);
        expect(text).toMatch(/the historyDir option/);
        expect(ws.read('a.txt')).toBe('one\n');
        expect(tree(ws.path('.hist'))).toEqual([]);
      },
    },
    {
      name: 'historyDir is owned by another user: refused naming the option',
      needsRoot: true,
      run: async (ws) => {
        ws.write('a.txt', 'one\n');
        mkdirSync(ws.path('.hist'), { mode: 0o700 });
        chownSync(ws.path('.hist'), NOBODY, NOBODY);
        const text = await edit(ws, 'one', 'two');
        expect(text).toMatch(REFUSED);
        expect(text).toMatch(/the historyDir option: .* another user's/);
        expect(ws.read('a.txt')).toBe('one\n');
        expect(tree(ws.path('.hist'))).toEqual([]);
      },
    },
    {
      name: 'historyDir is a symlink: refused naming the option',
      run: async (ws) => {
        ws.write('a.txt', 'one\n');
        mkdirSync(ws.path('real'), { mode: 0o700 });
        symlinkSync(ws.path('real'), ws.path('.hist'));
        const text = await edit(ws, 'one', 'two');
        expect(text).toMatch(REFUSED);
        expect(text).toMatch(/the historyDir option/);
        expect(ws.read('a.txt')).toBe('one\n');
        expect(tree(ws.path('real'))).toEqual([]);
      },
    },
    ...['', 'objects', 'index', 'txns'].map((sub) => ({
      name: `the store${sub ? `'s ${sub}/` : ''} replaced by a symlink between two edits: refused, nothing written into its target`,
      run: async (ws) => {
        const tool = await editedOnce(ws);
        const target = swapForSymlink(ws, sub);
        const text = await tool.execute({ file_path: 'a.txt', old_string: 'two', new_string: 'three' });
        expect(text).toMatch(REFUSED);
        expect(text).toMatch(/was moved or replaced since the store was opened/);
        expect(ws.read('a.txt')).toBe('two\n');
        expect(tree(target)).toEqual([]);
      },
    })),
    {
      name: 'a multi-file patch while objects/ is a symlink: refused, no file changed',
      run: async (ws) => {
        await editedOnce(ws);
        ws.write('b.txt', 'bee\n');
        const patcher = applyPatchTool(opts(ws));
        const patch = (a1, a2, b1, b2) =>
          `*** Begin Patch\n*** Update File: a.txt\n@@\n-${a1}\n+${a2}\n*** Update File: b.txt\n@@\n-${b1}\n+${b2}\n*** End Patch`;
        expect(await patcher.execute({ input: patch('two', 'two2', 'bee', 'BEE') })).not.toMatch(/^Error/);
        const target = swapForSymlink(ws, 'objects');
        const text = await patcher.execute({ input: patch('two2', 'TWO', 'BEE', 'bee') });
        expect(text).toMatch(REFUSED);
        expect([ws.read('a.txt'), ws.read('b.txt')]).toEqual(['two2\n', 'BEE\n']);
        expect(tree(target)).toEqual([]);
      },
    },
    {
      name: "the store's lock held by a stopped process: refused after lockTimeoutMs, the earlier level still undoable",
      run: async (ws) => {
        await editedOnce(ws, { lockTimeoutMs: 1500 });
        // flock(1) and its sleep share the lock: the whole group is stopped, then killed.
        const holder = spawn('flock', [join(ws.path('.hist'), '.lock'), 'sleep', '600'], { stdio: 'ignore', detached: true });
        const exited = new Promise((r) => holder.once('exit', r));
        try {
          // The holder has the lock once a non-blocking flock of ours fails.
          for (;;) {
            if (spawnSync('flock', ['-n', join(ws.path('.hist'), '.lock'), 'true']).status !== 0) break;
            await new Promise((r) => setTimeout(r, 20));
          }
          process.kill(-holder.pid, 'SIGSTOP');
          const text = await edit(ws, 'two', 'three', { lockTimeoutMs: 1500 });
          expect(text).toMatch(REFUSED);
          expect(text).toMatch(/its lock is held by another process; waited 1500 ms/);
          expect(ws.read('a.txt')).toBe('two\n');
        } finally {
          process.kill(-holder.pid, 'SIGKILL');
          await exited;
        }
        expect(await undoLastEdit('a.txt', opts(ws))).toMatch(/^Last edit to a.txt undone successfully/);
        expect(ws.read('a.txt')).toBe('one\n');
      },
    },
    {
      name: 'the history root in a shared sticky folder, owned by another user who swaps the store: never written into',
      needsRoot: true,
      run: async (ws) => {
        const shared = ws.path('shared');
        mkdirSync(shared);
        chmodSync(shared, 0o1777);
        const root = join(shared, 'root');
        mkdirSync(root, { mode: 0o755 });
        chownSync(root, NOBODY, NOBODY);
        ws.write('a.txt', 'one\n');
        const o = JSON.stringify({ allowedFolders: [ws.root], cwd: ws.root });
        const text = inChildWithEnv(
          { EDIT_ENGINE_HISTORY_ROOT: root },
          `return index.editTool(${o}).execute({ file_path: 'a.txt', old_string: 'one', new_string: 'two' });`,
        );
        expect(text).toMatch(REFUSED);
        expect(text).toMatch(/another user's/);
        expect(ws.read('a.txt')).toBe('one\n');
        expect(tree(root)).toEqual([]);
      },
    },
    {
      name: "a default state folder another user owns and anyone can write is passed over, the edit still undoable",
      needsRoot: true,
      run: async (ws) => {
        const state = ws.path('their-state');
        mkdirSync(state);
        chmodSync(state, 0o777);
        chownSync(state, NOBODY, NOBODY);
        const home = ws.path('home');
        mkdirSync(home, { mode: 0o700 });
        ws.write('a.txt', 'one\n');
        const env = { EDIT_ENGINE_HISTORY_ROOT: undefined, XDG_STATE_HOME: state, HOME: home };
        const o = JSON.stringify({ allowedFolders: [ws.root], cwd: ws.root });
        const [edited, undone] = inChildWithEnv(
          env,
          `const o = ${o};
          const edited = await index.editTool(o).execute({ file_path: 'a.txt', old_string: 'one', new_string: 'two' });
          return [edited, await index.undoLastEdit('a.txt', o)];`,
        );
        expect(edited).toMatch(/^Successfully/);
        expect(undone).toMatch(/^Last edit to a.txt undone successfully/);
        expect(ws.read('a.txt')).toBe('one\n');
        expect(tree(state)).toEqual([]);
        expect(existsSync(join(home, '.local/state/edit-engine/history'))).toBe(true);
        rmSync(home, { recursive: true, force: true });
      },
    },
    {
      name: 'a default store removed while held open (as a collection does) is opened afresh; one replaced by a symlink is refused',
      run: async (ws) => {
        const root = ws.path('.roots');
        mkdirSync(root, { mode: 0o700 });
        ws.write('a.txt', 'one\n');
        const target = ws.path('target');
        mkdirSync(target);
        const [paths, o] = [JSON.stringify({ root, target, moved: ws.path('moved-store') }), JSON.stringify({ allowedFolders: [ws.root], cwd: ws.root })];
        // Every step runs in one child (one tool instance holding the store open); the child
        // reports each reply, and whether the removed store was made again.
        const out = inChildWithEnv(
          { EDIT_ENGINE_HISTORY_ROOT: root },
          `const { root, target, moved } = ${paths};
          const o = ${o};
          const tool = index.editTool(o);
          const step = (from, to) => tool.execute({ file_path: 'a.txt', old_string: from, new_string: to });
          const first = await step('one', 'two');
          const store = path.join(root, fs.readdirSync(root).find((n) => /^[0-9a-f]{32}$/.test(n)));
          fs.rmSync(store, { recursive: true });
          const afterRemoval = await step('two', 'three');
          const remade = fs.existsSync(path.join(store, 'index'));
          fs.renameSync(store, moved);
          fs.symlinkSync(target, store);
          const swapped = await step('three', 'four');
          const fileWhenSwapped = fs.readFileSync(path.join(o.cwd, 'a.txt'), 'utf8');
          fs.rmSync(store);
          fs.renameSync(moved, store);
          return { first, afterRemoval, remade, swapped, fileWhenSwapped, undone: await index.undoLastEdit('a.txt', o) };`,
        );
        expect(out.first).toMatch(/^Successfully/);
        expect(out.afterRemoval).toMatch(/^Successfully/);
        expect(out.remade).toBe(true);
        expect(out.swapped).toMatch(REFUSED);
        expect(out.fileWhenSwapped).toBe('three\n');
        expect(tree(target)).toEqual([]);
        expect(out.undone).toMatch(/^Last edit to a.txt undone successfully/);
        expect(ws.read('a.txt')).toBe('two\n');
      },
    },
  ],
};
