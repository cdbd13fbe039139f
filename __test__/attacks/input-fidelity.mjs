// What lands is what was meant: a patch that puts two files at one path, text that is not Unicode
// (lone surrogates), a BOM repeated at line 1, and a process out of file descriptors are each
// refused or kept right, with a message that says which.
import { expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { editTool, createTool, multiEditTool, applyPatchTool, textEditorTool } from '../../lib/index.mjs';

const indexPath = fileURLToPath(new URL('../../lib/index.cjs', import.meta.url));
const opts = (ws) => ({ allowedFolders: [ws.root], cwd: ws.root });
const LONE = /lone surrogate \(U\+D800\) at character 1/;

export default {
  category: 'what lands is what was meant',
  attacks: [
    {
      name: 'a patch that Adds b.txt and Moves a.txt onto b.txt',
      run: async (ws) => {
        ws.write('a.txt', 'A\n');
        const patch = '*** Begin Patch\n*** Add File: b.txt\n+NEW\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-A\n+A2\n*** End Patch';
        const text = await applyPatchTool(opts(ws)).execute({ input: patch });
        expect(text).toMatch(/^Error: File operations 1 and 2 both put a whole file at b\.txt/);
        expect(text).toMatch(/No file was changed\.$/);
        expect(ws.read('a.txt')).toBe('A\n');
        expect(existsSync(ws.path('b.txt'))).toBe(false);
      },
    },
    {
      name: 'a patch that Moves two files onto one path',
      run: async (ws) => {
        ws.write('a.txt', 'A\n');
        ws.write('c.txt', 'C\n');
        const patch = '*** Begin Patch\n*** Update File: a.txt\n*** Move to: d.txt\n@@\n-A\n+A2\n*** Update File: c.txt\n*** Move to: d.txt\n@@\n-C\n+C2\n*** End Patch';
        const text = await applyPatchTool(opts(ws)).execute({ input: patch });
        expect(text).toMatch(/^Error: File operations 1 and 2 both put a whole file at d\.txt/);
        expect(existsSync(ws.path('d.txt'))).toBe(false);
      },
    },
    {
      name: 'a lone surrogate in an edit, a create, a multi_edit and a patch',
      run: async (ws) => {
        ws.write('a.txt', 'hello\n');
        const calls = [
          [editTool, { file_path: 'a.txt', old_string: 'hello', new_string: 'a\uD800b' }, 'new_string'],
          [createTool, { file_path: 'n.txt', content: 'a\uD800b' }, 'content'],
          [multiEditTool, { file_path: 'a.txt', edits: [{ old_string: 'hello', new_string: 'a\uD800b' }] }, 'edits\\[0\\]\\.new_string'],
          [applyPatchTool, { input: '*\uD800** Begin Patch\n*** End Patch' }, 'input'],
        ];
        for (const [factory, params, field] of calls) {
          const text = await factory(opts(ws)).execute(params);
          expect(text).toMatch(new RegExp(`^Error.*invalid parameters - ${field} holds a lone surrogate`));
        }
        expect(await textEditorTool(opts(ws)).execute({ command: 'create', path: 'm.txt', file_text: '\uDC00' })).toMatch(/lone surrogate \(U\+DC00\) at character 0/);
        expect(await editTool(opts(ws)).execute({ file_path: 'a.txt', old_string: 'hello', new_string: 'a\uD800b' })).toMatch(LONE);
        expect(ws.read('a.txt')).toBe('hello\n');
        expect(existsSync(ws.path('n.txt')) || existsSync(ws.path('m.txt'))).toBe(false);
      },
    },
    {
      name: 'a paired surrogate (an emoji) is written as it is',
      run: async (ws) => {
        ws.write('a.txt', 'hello\n');
        expect(await editTool(opts(ws)).execute({ file_path: 'a.txt', old_string: 'hello', new_string: 'hi \u{1F600}' })).toMatch(/^Successfully/);
        expect(ws.read('a.txt')).toBe('hi \u{1F600}\n');
      },
    },
    {
      name: 'a line-mode edit at line 1 whose text starts with the BOM',
      run: async (ws) => {
        ws.write('bom.txt', '\uFEFFline1\nline2\n');
        const text = await editTool(opts(ws)).execute({ file_path: 'bom.txt', start_line: '1', new_string: '\uFEFFfirst' });
        expect(text).toMatch(/^Successfully edited/);
        expect(ws.bytes('bom.txt').toString('latin1')).toBe('\xEF\xBB\xBFfirst\nline2\n');
        const inserted = await editTool(opts(ws)).execute({ file_path: 'bom.txt', start_line: '1', position: 'before', new_string: '\uFEFFzero' });
        expect(inserted).toMatch(/^Successfully edited/);
        expect(ws.bytes('bom.txt').toString('latin1')).toBe('\xEF\xBB\xBFzero\nfirst\nline2\n');
      },
    },
    {
      name: 'an edit in a process out of file descriptors is named as such',
      run: async (ws) => {
        ws.write('a.txt', 'one\n');
        const script = `
          const { openSync } = require('node:fs');
          const { editTool } = require(${JSON.stringify(indexPath)});
          const tool = editTool({ allowedFolders: [${JSON.stringify(ws.root)}], cwd: ${JSON.stringify(ws.root)} });
          const held = [];
          try { for (;;) held.push(openSync('/dev/null', 'r')); } catch {}
          tool.execute({ file_path: 'a.txt', old_string: 'one', new_string: 'two' }).then((t) => process.stdout.write(t));`;
        // The child is Node's (on PATH wherever npm runs): the descriptor limit is the engine's
        // concern, and Deno would need its permission flags to load the addon.
        const dir = mkdtempSync(join(tmpdir(), 'edit-engine-fds-'));
        const file = join(dir, 'out-of-fds.cjs');
        writeFileSync(file, script);
        const out = spawnSync('sh', ['-c', `ulimit -n 256 && exec node "$0"`, file], { encoding: 'utf8' });
        rmSync(dir, { recursive: true, force: true });
        expect(out.stdout).toMatch(/^Error.*Too many open files.*run out of file descriptors/);
        expect(out.stdout).not.toContain('cross-process locking is unavailable');
        expect(ws.read('a.txt')).toBe('one\n');
      },
    },
  ],
};
