// The `durability` option: "standard" (default) leaves the directory fsync of a rename to a
// background thread, "strict" waits for it; any other value is refused by every call.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { editTool, createTool, multiEditTool, flushWrites } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const temps = () => readdirSync(ws.root).filter((n) => n.startsWith('.edit-engine-'));

describe('durability option', () => {
  for (const durability of [undefined, 'standard', 'strict']) {
    it(`${durability ?? 'default'}: edits, creates and batch edits land whole, no temp left`, async () => {
      const options = { allowedFolders: [ws.root], cwd: ws.root, durability };
      ws.write('a.js', 'const a = 1;\n');
      ws.write('b.js', 'const b = 2;\n');
      expect(await editTool(options).execute({ file_path: 'a.js', old_string: 'a = 1', new_string: 'a = 10' })).toMatch(/^Successfully/);
      expect(await createTool(options).execute({ file_path: 'c.js', content: 'const c = 3;\n' })).toMatch(/^Successfully|^File created/);
      const multi = await multiEditTool(options).execute({ edits: [{ file_path: 'b.js', old_string: 'b = 2', new_string: 'b = 20' }] });
      expect(multi).not.toMatch(/^Error/);
      expect(ws.read('a.js')).toBe('const a = 10;\n');
      expect(ws.read('b.js')).toBe('const b = 20;\n');
      expect(ws.read('c.js')).toBe('const c = 3;\n');
      expect(flushWrites()).toBeUndefined();
      expect(temps()).toEqual([]);
    });
  }

  it('refuses an unknown value on every call, naming the option and the accepted values', async () => {
    ws.write('a.js', 'const a = 1;\n');
    const edit = editTool({ allowedFolders: [ws.root], cwd: ws.root, durability: 'fast' });
    const result = await edit.execute({ file_path: 'a.js', old_string: 'a = 1', new_string: 'a = 2' });
    expect(result).toMatch(/^Error editing file: /);
    expect(result).toContain('invalid durability option "fast" (use "standard" or "strict")');
    expect(ws.read('a.js')).toBe('const a = 1;\n');
  });

  it('200 concurrent edits into one folder with background directory syncs all land', async () => {
    const edit = editTool({ allowedFolders: [ws.root], cwd: ws.root });
    for (let i = 0; i < 200; i++) ws.write(`f${i}.txt`, `value ${i}\n`);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => edit.execute({ file_path: `f${i}.txt`, old_string: `value ${i}`, new_string: `new ${i}` })),
    );
    expect(results.every((r) => r.startsWith('Successfully'))).toBe(true);
    flushWrites();
    for (let i = 0; i < 200; i++) expect(ws.read(`f${i}.txt`)).toBe(`new ${i}\n`);
    expect(temps()).toEqual([]);
  });

  it('a process that exits right after its edits exits cleanly with every edit in place', () => {
    for (let i = 0; i < 20; i++) ws.write(`f${i}.txt`, `value ${i}\n`);
    const script = fileURLToPath(new URL('./support/edit-and-exit.cjs', import.meta.url));
    const child = spawnSync(process.execPath, [script, ws.root], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout).every((r) => r.startsWith('Successfully'))).toBe(true);
    for (let i = 0; i < 20; i++) expect(ws.read(`f${i}.txt`)).toBe(`new ${i}\n`);
  });
});
