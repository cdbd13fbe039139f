// Options mean what the docs say: relative folders resolve against `cwd` (the base for relative
// paths), and options and params are read as own properties only.
import { expect } from 'vitest';
import { mkdirSync } from 'node:fs';
import { createTool, editTool } from '../../lib/index.mjs';

/** Runs `fn` with `Object.prototype[key]` set to `value`, then removes it. */
async function withPolluted(key, value, fn) {
  Object.defineProperty(Object.prototype, key, { value, configurable: true, enumerable: true, writable: true });
  try {
    return await fn();
  } finally {
    delete Object.prototype[key];
  }
}

/** Runs `fn` with the process in `dir`, then back where it was. */
async function inDir(dir, fn) {
  const before = process.cwd();
  process.chdir(dir);
  try {
    return await fn();
  } finally {
    process.chdir(before);
  }
}

export default {
  category: 'options mean what the docs say',
  attacks: [
    {
      name: "allowedFolders ['.'] with cwd one folder below the process: files beside cwd stay untouched",
      run: async (ws) => {
        mkdirSync(ws.path('inner'));
        ws.write('beside.txt', 'orig\n');
        const text = await inDir(ws.root, () =>
          createTool({ allowedFolders: ['.'], cwd: ws.path('inner') }).execute({ file_path: '../beside.txt', content: 'pwned\n', overwrite: true }),
        );
        expect(text).toMatch(/^Error.*outside allowed directories/);
        expect(ws.read('beside.txt')).toBe('orig\n');
      },
    },
    {
      name: 'a relative allowed folder is the one below cwd (a write there lands)',
      run: async (ws) => {
        mkdirSync(ws.path('inner'));
        const text = await createTool({ allowedFolders: ['inner'], cwd: ws.root }).execute({ file_path: 'inner/new.txt', content: 'x\n' });
        expect(text).toMatch(/^Successfully created/);
        expect(ws.read('inner/new.txt')).toBe('x\n');
      },
    },
    {
      name: 'a polluted Object.prototype.allowedFolders does not widen confinement',
      run: async (ws) => {
        mkdirSync(ws.path('inner'));
        const text = await withPolluted('allowedFolders', ['/'], () =>
          createTool({ cwd: ws.path('inner') }).execute({ file_path: '../escaped.txt', content: 'pwned\n' }),
        );
        expect(text).toMatch(/^Error.*outside allowed directories/);
      },
    },
    {
      name: 'a polluted Object.prototype.replace_all does not turn an edit into a replace-all',
      run: async (ws) => {
        ws.write('a.txt', 'x = 1\nx = 1\n');
        const text = await withPolluted('replace_all', true, () =>
          editTool({ allowedFolders: [ws.root], cwd: ws.root }).execute({ file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' }),
        );
        expect(text).toMatch(/^Error/);
        expect(ws.read('a.txt')).toBe('x = 1\nx = 1\n');
      },
    },
    {
      name: 'a polluted Object.prototype.overwrite does not let create replace a file',
      run: async (ws) => {
        ws.write('a.txt', 'keep\n');
        const text = await withPolluted('overwrite', true, () =>
          createTool({ allowedFolders: [ws.root], cwd: ws.root }).execute({ file_path: 'a.txt', content: 'lost\n' }),
        );
        expect(text).toMatch(/^Error.*already exists/);
        expect(ws.read('a.txt')).toBe('keep\n');
      },
    },
  ],
};
