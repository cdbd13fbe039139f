// Jest smoke suite: Probe SDK users test with Jest; the package must load there, from require
// (CommonJS) and from import (ESM), and edit a file.
const { mkdtempSync, writeFileSync, readFileSync, rmSync, realpathSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');

const packageRoot = join(__dirname, '..', '..');
let dir;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-jest-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('require("edit-engine") edits a file', async () => {
  const { editTool, createTool, FileTracker } = require('edit-engine');
  expect(typeof FileTracker).toBe('function');
  const create = createTool({ allowedFolders: [dir], cwd: dir });
  expect(await create.execute({ file_path: 'a.js', content: 'let a = 1;\n' })).toBe('Successfully created a.js (11 bytes)');
  const edit = editTool({ allowedFolders: [dir], cwd: dir });
  expect(await edit.execute({ file_path: 'a.js', old_string: 'let a = 1;', new_string: 'let a = 2;' })).toBe('Successfully edited a.js (1 replacement)');
  expect(readFileSync(join(dir, 'a.js'), 'utf8')).toBe('let a = 2;\n');
});

test('import "edit-engine" (ESM) edits a file', () => {
  writeFileSync(join(dir, 'b.js'), 'const b = 1;\n');
  // A module file rather than `--input-type=module -e`: Deno and Bun run files, not Node's flags.
  const script = join(packageRoot, '__test__', 'support', 'import-edit.mjs');
  const out = execFileSync(process.execPath, [script, dir], { cwd: packageRoot, encoding: 'utf8' });
  expect(out.trim()).toBe('Successfully edited b.js (1 replacement)');
  expect(readFileSync(join(dir, 'b.js'), 'utf8')).toBe('const b = 2;\n');
});
