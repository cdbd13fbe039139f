// Limits: a call that would leave a file larger than `maxFileBytes` (the largest file the tools
// read, so the largest undo can check) is refused before anything is written; `create` does not
// overwrite a file it cannot read back; a view of a huge file returns at most 100,000 characters.
import { expect } from 'vitest';
import { createTool, editTool, replaceInFileTool, textEditorTool, undoLastEdit, viewTool } from '../../lib/index.mjs';

const MiB = 1024 * 1024;
const opts = (ws, extra = {}) => ({ allowedFolders: [ws.root], cwd: ws.root, ...extra });
const OVER_DEFAULT = new RegExp(`nothing was written: the new content of big\\.txt would be \\d+ bytes, over the ${64 * MiB}-byte limit \\(maxFileBytes`);

/** The refused call left `big.txt` as `before` and recorded no undo level for it. */
async function untouched(ws, before) {
  expect(ws.read('big.txt') === before).toBe(true);
  expect(await undoLastEdit('big.txt', opts(ws))).toMatch(/^Error: No edit history found/);
}

export default {
  category: 'limits',
  attacks: [
    {
      name: 'a regex matching every line start and a 1 KB replacement turn a 400 KB file into 191 MiB',
      run: async (ws) => {
        const before = 'a\n'.repeat(191 * 1024);
        ws.write('big.txt', before);
        const op = { type: 'regex', searchFor: '(?m)^', replaceWith: 'r'.repeat(1024) };
        const result = await replaceInFileTool(opts(ws)).executeResult({ filePath: 'big.txt', replacements: [op] });
        expect(result.ok).toBe(false);
        expect(result.text).toMatch(OVER_DEFAULT);
        await untouched(ws, before);
      },
    },
    {
      name: 'replace_all of one character with 1 KB grows a file to 188 MiB',
      run: async (ws) => {
        const before = 'a\n'.repeat(188 * 1024);
        ws.write('big.txt', before);
        const params = { file_path: 'big.txt', old_string: 'a', new_string: 'r'.repeat(1024), replace_all: true };
        const result = await editTool(opts(ws)).executeResult(params);
        expect(result.ok).toBe(false);
        expect(result.text).toMatch(OVER_DEFAULT);
        await untouched(ws, before);
      },
    },
    {
      name: 'create and the text editor create write a 100 MiB file',
      run: async (ws) => {
        const content = 'c'.repeat(100 * MiB);
        const created = await createTool(opts(ws)).executeResult({ file_path: 'big.txt', content });
        expect(created.ok).toBe(false);
        expect(created.text).toMatch(OVER_DEFAULT);
        const editor = await textEditorTool(opts(ws)).executeResult({ command: 'create', path: 'big.txt', file_text: content });
        expect(editor.ok).toBe(false);
        expect(editor.text).toMatch(OVER_DEFAULT);
        expect(() => ws.read('big.txt')).toThrow(/ENOENT/);
      },
    },
    {
      name: 'create overwrites a 101-byte file it cannot read back (maxFileBytes 50), leaving nothing to undo',
      run: async (ws) => {
        const before = 'x'.repeat(100) + '\n';
        ws.write('big.txt', before);
        const out = await createTool(opts(ws, { maxFileBytes: 50 })).execute({ file_path: 'big.txt', content: 'short\n', overwrite: true });
        expect(out).toMatch(/^Error creating file: nothing was written: big\.txt could not be read back for the undo history \(it is 101 bytes, over the 50-byte maxFileBytes limit\)/);
        await untouched(ws, before);
      },
    },
    {
      name: 'view of a 58 MB file returns it whole in one reply',
      run: async (ws) => {
        ws.write('big.txt', `${'v'.repeat(57)}\n`.repeat(1_000_000));
        const out = await viewTool(opts(ws)).execute({ path: 'big.txt' });
        const note = /\n\[truncated at line (\d+) of 1000000; view_range \[(\d+), -1\] shows more\]$/.exec(out);
        expect(note).not.toBeNull();
        expect(Number(note[2])).toBe(Number(note[1]) + 1);
        const body = out.slice(out.indexOf('\n') + 1, note.index + 1);
        expect(body.length).toBeLessThanOrEqual(100_000);
        expect(body.endsWith(`${note[1].padStart(6)}\t${'v'.repeat(57)}\n`)).toBe(true);
      },
    },
  ],
};
