// Line endings in files of mixed endings, through every writing format: the k-th new line takes
// the ending of the k-th line it replaces, extra new lines the last replaced line's, added lines
// the ending of the line above; untouched lines keep theirs byte for byte.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyDiffTool, applyPatchTool, editFileTool, editTool, multiEditTool, replaceInFileTool, textEditorTool } from '../lib/index.mjs';
import { createEditor } from '../lib/openai.mjs';
import { makeWorkspace } from './support/workspace.mjs';

const MIXED = 'one\r\ntwo\nthree\r\nfour\n';
const EMBEDDED = 'foo\r\r\nbar\r\nbaz\r\n';

let ws;
let opts;
beforeEach(() => {
  ws = makeWorkspace();
  opts = { allowedFolders: [ws.root], cwd: ws.root, historyDir: ws.path('.history') };
});
afterEach(() => ws.cleanup());

const envelope = (...lines) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
const bytesOf = (rel) => ws.bytes(rel).toString('utf8');

describe('apply_patch on mixed endings', () => {
  it('a replaced line keeps its CRLF beside a line with an embedded carriage return', async () => {
    ws.write('e.txt', EMBEDDED);
    const out = await applyPatchTool(opts).execute({ input: envelope('*** Update File: e.txt', '@@', ' bar', '-baz', '+BAZ') });
    expect(out).toMatch(/^Success/);
    expect(bytesOf('e.txt')).toBe('foo\r\r\nbar\r\nBAZ\r\n');
  });

  it('an appended line takes the ending of the line above', async () => {
    ws.write('e.txt', EMBEDDED);
    const out = await applyPatchTool(opts).execute({ input: envelope('*** Update File: e.txt', '@@', '+qux') });
    expect(out).toMatch(/^Success/);
    expect(bytesOf('e.txt')).toBe('foo\r\r\nbar\r\nbaz\r\nqux\r\n');
  });

  it('untouched lines keep their own endings', async () => {
    ws.write('m.txt', MIXED);
    const out = await applyPatchTool(opts).execute({ input: envelope('*** Update File: m.txt', '@@', ' two', '-three', '+THREE', ' four') });
    expect(out).toMatch(/^Success/);
    expect(out).not.toMatch(/matched/);
    expect(bytesOf('m.txt')).toBe('one\r\ntwo\nTHREE\r\nfour\n');
  });
});

describe('apply_diff and the Agents SDK editor on mixed endings', () => {
  it('a unified diff gives extra new lines the last replaced line\'s ending', async () => {
    ws.write('m.txt', MIXED);
    const out = await applyDiffTool(opts).execute({ path: 'm.txt', diff: '@@ -2,2 +2,3 @@\n-two\n-three\n+2\n+3\n+3b\n' });
    expect(out).toMatch(/^Success/);
    expect(bytesOf('m.txt')).toBe('one\r\n2\n3\r\n3b\r\nfour\n');
  });

  it('an update_file operation keeps the replaced line\'s CRLF', async () => {
    ws.write('m.txt', MIXED);
    const result = await createEditor(opts).updateFile({ type: 'update_file', path: 'm.txt', diff: ' two\n-three\n+THREE\n' });
    expect(result.status).toBe('completed');
    expect(bytesOf('m.txt')).toBe('one\r\ntwo\nTHREE\r\nfour\n');
  });
});

describe('edit, str_replace and multi_edit on mixed endings', () => {
  it('edit: each new line takes the ending of the line it replaces', async () => {
    const edit = editTool(opts);
    ws.write('m.txt', MIXED);
    const out = await edit.execute({ file_path: 'm.txt', old_string: 'two\nthree\n', new_string: 'X\nY\nZ\n' });
    expect(out).toMatch(/^Successfully edited/);
    expect(bytesOf('m.txt')).toBe('one\r\nX\nY\r\nZ\r\nfour\n');
    ws.write('e.txt', EMBEDDED);
    await edit.execute({ file_path: 'e.txt', old_string: 'baz', new_string: 'BAZ\nQ' });
    expect(bytesOf('e.txt')).toBe('foo\r\r\nbar\r\nBAZ\r\nQ\r\n');
  });

  it('str_replace: a CRLF new_str gives way to the LF of the line it replaces', async () => {
    const editor = textEditorTool(opts);
    ws.write('m.txt', MIXED);
    await editor.execute({ command: 'view', path: ws.path('m.txt') });
    const out = await editor.execute({ command: 'str_replace', path: ws.path('m.txt'), old_str: 'two\nthree', new_str: '2\r\n3\r\n3b' });
    expect(out).not.toMatch(/^Error/);
    expect(bytesOf('m.txt')).toBe('one\r\n2\n3\r\n3b\r\nfour\n');
  });

  it('edit by line numbers: replaced lines pair up, inserted lines take the line above\'s ending', async () => {
    const edit = editTool(opts);
    ws.write('m.txt', MIXED);
    await edit.execute({ file_path: 'm.txt', start_line: '2', end_line: '3', new_string: 'X\nY\nZ' });
    expect(bytesOf('m.txt')).toBe('one\r\nX\nY\r\nZ\r\nfour\n');
    ws.write('m.txt', MIXED);
    await edit.execute({ file_path: 'm.txt', start_line: '1', position: 'after', new_string: 'A\nB' });
    expect(bytesOf('m.txt')).toBe('one\r\nA\r\nB\r\ntwo\nthree\r\nfour\n');
    ws.write('m.txt', MIXED);
    await edit.execute({ file_path: 'm.txt', start_line: '1', position: 'before', new_string: 'zero' });
    expect(bytesOf('m.txt')).toBe('zero\r\none\r\ntwo\nthree\r\nfour\n');
  });

  it('insert: inserted lines take the ending of the line above', async () => {
    const editor = textEditorTool(opts);
    ws.write('m.txt', MIXED);
    await editor.execute({ command: 'view', path: ws.path('m.txt') });
    const out = await editor.execute({ command: 'insert', path: ws.path('m.txt'), insert_line: 3, new_str: 'after three\nmore' });
    expect(out).not.toMatch(/^Error/);
    expect(bytesOf('m.txt')).toBe('one\r\ntwo\nthree\r\nafter three\r\nmore\r\nfour\n');
  });

  it('multi_edit: each edit follows the lines it replaces', async () => {
    ws.write('m.txt', MIXED);
    const edits = JSON.stringify([
      { file_path: 'm.txt', old_string: 'one', new_string: 'ONE\nONE-b' },
      { file_path: 'm.txt', old_string: 'two', new_string: 'TWO\nTWO-b' },
    ]);
    const out = await multiEditTool(opts).execute({ edits });
    expect(out.split('\n')[0]).toMatch(/2\/2 succeeded/);
    expect(bytesOf('m.txt')).toBe('ONE\r\nONE-b\r\nTWO\nTWO-b\nthree\r\nfour\n');
  });
});

describe('edit_file and replace_in_file on mixed endings', () => {
  it('edit_file: each new line takes the ending of the line it replaces, in every occurrence', async () => {
    ws.write('m.txt', MIXED);
    const out = await editFileTool(opts).execute({ path: 'm.txt', old_text: 'three', new_text: 'THREE\nTHREE-b' });
    expect(out).toBe('Replaced 1 occurrence');
    expect(bytesOf('m.txt')).toBe('one\r\ntwo\nTHREE\r\nTHREE-b\r\nfour\n');
    ws.write('r.txt', 'x\r\nx\n');
    await editFileTool(opts).execute({ path: 'r.txt', old_text: 'x', new_text: 'y\nz', replace_all: true });
    expect(bytesOf('r.txt')).toBe('y\r\nz\r\ny\nz\n');
  });

  it('replace_in_file: lines, insertions, strings and regexes follow the lines around them', async () => {
    ws.write('m.txt', MIXED);
    const out = await replaceInFileTool(opts).execute({
      filePath: 'm.txt',
      replacements: [
        { type: 'lines', startLine: 3, endLine: 3, replaceWith: '3\n3b' },
        { type: 'insert_after', lineNumber: 1, insertText: 'ins' },
        { type: 'string', searchFor: 'two', replaceWith: '2\n2b' },
        { type: 'regex', searchFor: '(?m)^o(ne)', replaceWith: 'O$1\nX' },
      ],
    });
    expect(out).toMatch(/^Successfully applied 4/);
    expect(bytesOf('m.txt')).toBe('One\r\nX\r\nins\r\n2\n2b\n3\r\n3b\r\nfour\n');
  });
});
