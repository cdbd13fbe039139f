// The engine's rules (DESIGN.md): no lost updates, fidelity, path safety, failures leave no trace.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, readdirSync, symlinkSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { editTool, createTool } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { ws, edit, useEditWorkspace } from './support/edit-workspace.mjs';
import { childScript, unprivileged } from './support/trust.mjs';

useEditWorkspace({ beforeCleanup: (w) => chmodSync(w.root, 0o755) });

/**
 * Runs an edit in a child process; as root, the child runs as `nobody` (and the workspace is
 * handed to it) so that permission failures really happen.
 */
function editAsUnprivileged(root, params) {
  const options = unprivileged(root, { encoding: 'utf8' });
  const child = spawnSync(process.execPath, [childScript('edit-once.cjs'), root, JSON.stringify(params)], options);
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

describe('no lost updates', () => {
  it('200 concurrent edits of different lines of one file all land', async () => {
    const n = 200;
    ws.write('many.txt', Array.from({ length: n }, (_, i) => `value_${i} = old`).join('\n') + '\n');
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        i % 2 === 0
          ? edit.execute({ file_path: 'many.txt', old_string: `value_${i} = old`, new_string: `value_${i} = new` })
          : edit.execute({ file_path: 'many.txt', start_line: String(i + 1), new_string: `value_${i} = new` }),
      ),
    );
    expect(results.filter((r) => r.startsWith('Successfully'))).toHaveLength(n);
    const lines = ws.read('many.txt').split('\n');
    for (let i = 0; i < n; i++) expect(lines[i]).toBe(`value_${i} = new`);
    expect(readdirSync(ws.root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('fidelity', () => {
  it('edits a CRLF file with an LF old_string and keeps CRLF', async () => {
    ws.write('w.txt', 'first line\r\nsecond line\r\nthird line\r\n');
    const out = await edit.execute({ file_path: 'w.txt', old_string: 'first line\nsecond line', new_string: 'one\ntwo\nthree' });
    expect(out).toBe('Successfully edited w.txt (1 replacement)');
    expect(ws.read('w.txt')).toBe('one\r\ntwo\r\nthree\r\nthird line\r\n');
  });

  it('line mode on a CRLF file keeps CRLF and the final newline', async () => {
    ws.write('w.txt', 'a\r\nb\r\nc\r\n');
    await edit.execute({ file_path: 'w.txt', start_line: '2', new_string: 'B1\nB2' });
    expect(ws.read('w.txt')).toBe('a\r\nB1\r\nB2\r\nc\r\n');
  });

  it('keeps a UTF-8 BOM', async () => {
    ws.write('b.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo wörld\n')]));
    expect(await edit.execute({ file_path: 'b.txt', old_string: 'wörld', new_string: 'monde' })).toBe('Successfully edited b.txt (1 replacement)');
    expect([...ws.bytes('b.txt').subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(ws.bytes('b.txt').subarray(3).toString('utf8')).toBe('héllo monde\n');
  });

  it('keeps a missing final newline missing', async () => {
    ws.write('n.txt', 'a\nb');
    await edit.execute({ file_path: 'n.txt', old_string: 'b', new_string: 'c' });
    expect(ws.read('n.txt')).toBe('a\nc');
  });

  it('refuses non-UTF-8 and NUL-containing files, byte-identical', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    ws.write('l.txt', latin1);
    const out = await edit.execute({ file_path: 'l.txt', old_string: 'caf', new_string: 'tea' });
    expect(out).toBe('Error editing file: l.txt is not valid UTF-8 text. Only UTF-8 text files can be edited; the file was not changed.');
    expect(ws.bytes('l.txt').equals(latin1)).toBe(true);
    const bin = Buffer.from('abc\0def');
    ws.write('bin.dat', bin);
    expect(await edit.execute({ file_path: 'bin.dat', start_line: '1', new_string: 'x' })).toBe('Error editing file: bin.dat contains NUL bytes (binary file). Only UTF-8 text files can be edited; the file was not changed.');
    expect(ws.bytes('bin.dat').equals(bin)).toBe(true);
  });

  it('keeps file permissions', async () => {
    ws.write('p.sh', 'echo a\n');
    chmodSync(ws.path('p.sh'), 0o741);
    await edit.execute({ file_path: 'p.sh', old_string: 'echo a', new_string: 'echo b' });
    expect(statSync(ws.path('p.sh')).mode & 0o777).toBe(0o741);
  });

  it('caps the file size with a clear error', async () => {
    ws.write('big.txt', 'x'.repeat(2048));
    const tool = editTool({ allowedFolders: [ws.root], cwd: ws.root, maxFileBytes: 1024 });
    expect(await tool.execute({ file_path: 'big.txt', old_string: 'x', new_string: 'y', replace_all: true }))
      .toBe('Error editing file: big.txt is 2048 bytes, over the 1024-byte limit. The file was not changed. Edit a smaller file, or raise the tool\'s maxFileBytes option.');
  });
});

describe('path safety', () => {
  let outside;
  beforeEach(() => {
    outside = makeWorkspace('edit-engine-outside-');
    outside.write('secret.txt', 'secret');
  });
  afterEach(() => outside.cleanup());

  it('refuses a symlinked file that points outside', async () => {
    symlinkSync(outside.path('secret.txt'), ws.path('link.txt'));
    const out = await edit.execute({ file_path: 'link.txt', old_string: 'secret', new_string: 'pwned' });
    expect(out).toMatch(/^Error editing file: Permission denied - .* is outside allowed directories/);
    expect(outside.read('secret.txt')).toBe('secret');
  });

  it('refuses a symlinked directory that points outside, for edit and create', async () => {
    symlinkSync(outside.root, ws.path('linkdir'));
    expect(await edit.execute({ file_path: 'linkdir/secret.txt', old_string: 'secret', new_string: 'pwned' })).toMatch(/Permission denied/);
    const create = createTool({ allowedFolders: [ws.root], cwd: ws.root });
    expect(await create.execute({ file_path: 'linkdir/new.txt', content: 'x' })).toMatch(/^Error creating file: Permission denied/);
    expect(outside.read('secret.txt')).toBe('secret');
    expect(readdirSync(outside.root)).toEqual(['secret.txt']);
  });

  it('follows a symlink that stays inside and edits its target', async () => {
    ws.write('real.txt', 'inside');
    symlinkSync(ws.path('real.txt'), ws.path('alias.txt'));
    expect(await edit.execute({ file_path: 'alias.txt', old_string: 'inside', new_string: 'changed' })).toBe('Successfully edited alias.txt (1 replacement)');
    expect(ws.read('real.txt')).toBe('changed');
  });

  it('a failing write (read-only directory) leaves the original intact and no temp file', async () => {
    ws.write('ro/a.txt', 'original');
    chmodSync(ws.path('ro'), 0o555);
    try {
      const out = editAsUnprivileged(ws.root, { file_path: 'ro/a.txt', old_string: 'original', new_string: 'changed' });
      expect(out).toMatch(/^Error editing file: could not .* The file was not changed\./);
      expect(ws.read('ro/a.txt')).toBe('original');
      expect(readdirSync(ws.path('ro'))).toEqual(['a.txt']);
    } finally {
      chmodSync(ws.path('ro'), 0o755);
    }
  });
});
