import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, realpathSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textEditorTool, editTool, createTool, multiEditTool, editFileTool, undoLastEdit, FileTracker, FileReadTracker, flushWrites } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { asRuntimeMtime } from './support/mtime.mjs';

const libIndex = fileURLToPath(new URL('../lib/index.cjs', import.meta.url));

let ws;
let historyDir;
let editor;
const opts = () => ({ allowedFolders: [ws.root], cwd: ws.root, historyDir });
beforeEach(() => {
  ws = makeWorkspace();
  historyDir = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-hist-')));
  editor = textEditorTool(opts());
  ws.write('a.py', 'def f():\n    return 1\n\n\ndef g():\n    return 2\n');
});
afterEach(() => {
  ws.cleanup();
  flushWrites(); // undo levels are recorded on the engine's background thread
  rmSync(historyDir, { recursive: true, force: true });
});

const numbered = (lines, first = 1) => lines.map((l, i) => `${String(first + i).padStart(6)}\t${l}`).join('\n');
const A_LINES = ['def f():', '    return 1', '', '', 'def g():', '    return 2'];

describe('text editor: versions', () => {
  it('20250124 is the default: str_replace_editor with undo_edit', () => {
    expect(editor.name).toBe('str_replace_editor');
    expect(editor.type).toBe('text_editor_20250124');
    expect(editor.inputSchema.properties.command.enum).toEqual(['view', 'create', 'str_replace', 'insert', 'undo_edit']);
    expect(editor.inputSchema.required).toEqual(['command', 'path']);
  });

  it.each(['20250429', '20250728', 'text_editor_20250728'])('%s is str_replace_based_edit_tool without undo_edit', async (version) => {
    const t = textEditorTool({ ...opts(), version });
    expect(t.name).toBe('str_replace_based_edit_tool');
    expect(t.inputSchema.properties.command.enum).not.toContain('undo_edit');
    expect(t.inputSchema.properties.insert_text.type).toBe('string');
    const out = await t.execute({ command: 'undo_edit', path: ws.path('a.py') });
    expect(out).toMatch(/^Error: The undo_edit command is not supported by str_replace_based_edit_tool \(text editor version 2025/);
  });

  it('answers every call of an unknown version with an error', async () => {
    const t = textEditorTool({ ...opts(), version: '2024' });
    expect(await t.execute({ command: 'view', path: ws.path('a.py') })).toMatch(/^Error: Unknown text editor version "2024"/);
  });

  it('rejects unknown and missing commands and a missing path', async () => {
    expect(await editor.execute({ command: 'delete', path: ws.path('a.py') })).toBe(
      'Error: Unrecognized command delete. The allowed commands for the str_replace_editor tool are: view, create, str_replace, insert, undo_edit',
    );
    expect(await editor.execute({ path: ws.path('a.py') })).toMatch(/^Error: Parameter `command` is required/);
    expect(await editor.execute({ command: 'view' })).toMatch(/^Error: Parameter `path` is required for command: view/);
  });
});

describe('text editor: view', () => {
  it('shows a file with cat -n numbering', async () => {
    const out = await editor.execute({ command: 'view', path: ws.path('a.py') });
    expect(out).toBe(`Here's the result of running \`cat -n\` on ${ws.path('a.py')}:\n${numbered(A_LINES)}\n`);
  });

  it('shows a view_range, and [start, -1] to the end', async () => {
    const path = ws.path('a.py');
    expect(await editor.execute({ command: 'view', path, view_range: [2, 3] })).toBe(
      `Here's the result of running \`cat -n\` on ${path}:\n${numbered(A_LINES.slice(1, 3), 2)}\n`,
    );
    expect(await editor.execute({ command: 'view', path, view_range: [5, -1] })).toBe(
      `Here's the result of running \`cat -n\` on ${path}:\n${numbered(A_LINES.slice(4), 5)}\n`,
    );
    expect(await editor.execute({ command: 'view', path, view_range: '[6, 6]' })).toContain('     6\t    return 2\n');
  });

  it.each([
    [[0, 2], 'Error: Invalid `view_range`: [0, 2]. Its first element `0` should be within the range of lines of the file: [1, 6]'],
    [[7, -1], 'Error: Invalid `view_range`: [7, -1]. Its first element `7` should be within the range of lines of the file: [1, 6]'],
    [[2, 9], 'Error: Invalid `view_range`: [2, 9]. Its second element `9` should be smaller than the number of lines in the file: `6`'],
    [[4, 3], 'Error: Invalid `view_range`: [4, 3]. Its second element `3` should be larger or equal than its first `4`'],
  ])('validates view_range %j', async (view_range, message) => {
    expect(await editor.execute({ command: 'view', path: ws.path('a.py'), view_range })).toBe(message);
  });

  it.each([[[1]], [[1, 'x']], ['nope'], [{ a: 1 }]])('refuses a malformed view_range %j', async (view_range) => {
    expect(await editor.execute({ command: 'view', path: ws.path('a.py'), view_range })).toMatch(
      /^Error: Invalid `view_range`\. It should be a list of two integers/,
    );
  });

  it('lists a directory two levels deep, sorted, without hidden entries', async () => {
    ws.write('src/lib/deep/x.js', '');
    ws.write('src/main.js', '');
    ws.write('.hidden/h.txt', '');
    ws.write('src/.secret', '');
    ws.write('b.txt', '');
    const out = await editor.execute({ command: 'view', path: ws.root });
    const r = ws.root;
    expect(out).toBe(
      `Here's the files and directories up to 2 levels deep in ${r}, excluding hidden items:\n` +
        [`${r}/`, `${r}/a.py`, `${r}/b.txt`, `${r}/src/`, `${r}/src/lib/`, `${r}/src/main.js`].join('\n') + '\n',
    );
    expect(await editor.execute({ command: 'view', path: ws.root, view_range: [1, 2] })).toBe(
      'Error: The `view_range` parameter is not allowed when `path` points to a directory.',
    );
  });

  it('records the read in the file tracker', async () => {
    const fileTracker = new FileTracker();
    const t = textEditorTool({ ...opts(), fileTracker });
    expect(fileTracker.isFileSeen(ws.path('a.py'))).toBe(false);
    await t.execute({ command: 'view', path: ws.path('a.py') });
    expect(fileTracker.isFileSeen(ws.path('a.py'))).toBe(true);
  });

  it('reports missing paths, binary files and files over maxFileBytes', async () => {
    expect(await editor.execute({ command: 'view', path: ws.path('nope.txt') })).toBe(
      `Error: The path ${ws.path('nope.txt')} does not exist. Please provide a valid path.`,
    );
    ws.write('bin.dat', Buffer.from([1, 0, 2]));
    expect(await editor.execute({ command: 'view', path: ws.path('bin.dat') })).toMatch(/^Error: bin\.dat contains NUL bytes/);
    const small = textEditorTool({ ...opts(), maxFileBytes: 10 });
    expect(await small.execute({ command: 'view', path: ws.path('a.py') })).toMatch(/^Error: a\.py is \d+ bytes, over the 10-byte limit/);
  });

  it('truncates to maxCharacters at a line end in every version and says where', async () => {
    ws.write('long.txt', 'abcdefghij\n'.repeat(10));
    const t = textEditorTool({ ...opts(), version: '20250728', maxCharacters: 40 });
    expect(t.max_characters).toBe(40);
    const out = await t.execute({ command: 'view', path: ws.path('long.txt') });
    expect(out).toBe(
      `Here's the result of running \`cat -n\` on ${ws.path('long.txt')}:\n${numbered(['abcdefghij', 'abcdefghij'])}\n` +
        '[truncated at line 2 of 10; view_range [3, -1] shows more]',
    );
    const perCall = await t.execute({ command: 'view', path: ws.path('long.txt'), max_characters: 5 });
    expect(perCall).toContain('[truncated before line 1 of 10: that line alone is 10 characters, over the 5-character limit;');
    const old = textEditorTool({ ...opts(), maxCharacters: 40 });
    expect(await old.execute({ command: 'view', path: ws.path('long.txt') })).toBe(out);
  });
});

describe('text editor: str_replace', () => {
  it('replaces the unique occurrence and shows a snippet', async () => {
    const path = ws.path('a.py');
    const out = await editor.execute({ command: 'str_replace', path, old_str: '    return 2', new_str: '    return 20' });
    const after = ['def f():', '    return 1', '', '', 'def g():', '    return 20'];
    expect(out).toBe(
      `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n` +
        `${numbered(after.slice(1), 2)}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`,
    );
    expect(ws.read('a.py')).toBe(after.join('\n') + '\n');
  });

  it('deletes old_str when new_str is omitted', async () => {
    await editor.execute({ command: 'str_replace', path: ws.path('a.py'), old_str: '\n\ndef g():\n    return 2' });
    expect(ws.read('a.py')).toBe('def f():\n    return 1\n\n');
  });

  it('refuses several occurrences, listing their lines', async () => {
    const out = await editor.execute({ command: 'str_replace', path: ws.path('a.py'), old_str: 'return', new_str: 'yield' });
    expect(out).toMatch(/^Error: No replacement was performed\. Multiple occurrences of old_str `return` in lines \[2, 6\]\. Please ensure it is unique/);
    expect(ws.read('a.py')).toContain('return 1');
  });

  it('refuses text that does not appear verbatim', async () => {
    const path = ws.path('a.py');
    expect(await editor.execute({ command: 'str_replace', path, old_str: 'return 3', new_str: 'x' })).toMatch(
      new RegExp(`^Error: No replacement was performed, old_str \`return 3\` did not appear verbatim in ${path}\\.`),
    );
  });

  it('validates old_str and new_str, and refuses directories', async () => {
    const path = ws.path('a.py');
    expect(await editor.execute({ command: 'str_replace', path, new_str: 'x' })).toMatch(/^Error: Parameter `old_str` is required for command: str_replace/);
    expect(await editor.execute({ command: 'str_replace', path, old_str: '' })).toMatch(/^Error: Parameter `old_str` must not be empty/);
    expect(await editor.execute({ command: 'str_replace', path, old_str: 'def', new_str: 3 })).toMatch(/^Error: Parameter `new_str` must be a string/);
    expect(await editor.execute({ command: 'str_replace', path: ws.root, old_str: 'x' })).toBe(
      `Error: The path ${ws.root} is a directory and only the \`view\` command can be used on directories.`,
    );
  });

  it('matches across CRLF line endings and keeps them', async () => {
    ws.write('w.txt', 'one\r\ntwo\r\nthree\r\n');
    const out = await editor.execute({ command: 'str_replace', path: ws.path('w.txt'), old_str: 'one\r\ntwo', new_str: 'ONE\ntwo' });
    expect(out).toMatch(/^The file .* has been edited\./);
    expect(ws.read('w.txt')).toBe('ONE\r\ntwo\r\nthree\r\n');
  });
});

describe('text editor: create', () => {
  it('creates a file (and its parents)', async () => {
    const path = ws.path('new/dir/n.txt');
    expect(await editor.execute({ command: 'create', path, file_text: 'hello\n' })).toBe(`File created successfully at: ${path}`);
    expect(ws.read('new/dir/n.txt')).toBe('hello\n');
  });

  it('refuses to overwrite and requires file_text', async () => {
    const path = ws.path('a.py');
    expect(await editor.execute({ command: 'create', path, file_text: 'x' })).toMatch(
      new RegExp(`^Error: File already exists at: ${path}\\. Cannot overwrite files using command \`create\`\\.`),
    );
    expect(await editor.execute({ command: 'create', path: ws.path('m.txt') })).toMatch(/^Error: Parameter `file_text` is required for command: create/);
    expect(ws.read('a.py')).toContain('def f');
  });

  it('refuses content over maxFileBytes', async () => {
    const t = textEditorTool({ ...opts(), maxFileBytes: 4 });
    expect(await t.execute({ command: 'create', path: ws.path('big.txt'), file_text: 'too big' })).toMatch(/over the 4-byte limit/);
    expect(existsSync(ws.path('big.txt'))).toBe(false);
  });
});

describe('text editor: insert', () => {
  it('inserts at the top with insert_line 0', async () => {
    const path = ws.path('a.py');
    const out = await editor.execute({ command: 'insert', path, insert_line: 0, new_str: 'import os\n' });
    expect(out).toBe(
      `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
        `${numbered(['import os', ...A_LINES.slice(0, 4)])}\n` +
        'Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.',
    );
    expect(ws.read('a.py').split('\n')[0]).toBe('import os');
  });

  it('inserts after a line, with insert_text (newer versions) or new_str', async () => {
    const t = textEditorTool({ ...opts(), version: '20250728' });
    await t.execute({ command: 'insert', path: ws.path('a.py'), insert_line: 6, insert_text: '# end' });
    expect(ws.read('a.py').endsWith('    return 2\n# end\n')).toBe(true);
    const out = await editor.execute({ command: 'insert', path: ws.path('a.py'), insert_line: '2', new_str: '    # x\n    # y' });
    expect(out).toContain(numbered(['def f():', '    return 1', '    # x', '    # y', '', '', 'def g():', '    return 2']));
  });

  it('validates insert_line and the text', async () => {
    const path = ws.path('a.py');
    expect(await editor.execute({ command: 'insert', path, insert_line: 7, new_str: 'x' })).toBe(
      'Error: Invalid `insert_line` parameter: 7. It should be within the range of lines of the file: [0, 6]',
    );
    expect(await editor.execute({ command: 'insert', path, insert_line: -1, new_str: 'x' })).toMatch(/^Error: Invalid `insert_line` parameter: -1/);
    expect(await editor.execute({ command: 'insert', path, new_str: 'x' })).toMatch(/^Error: Parameter `insert_line` is required/);
    expect(await editor.execute({ command: 'insert', path, insert_line: 'two', new_str: 'x' })).toMatch(/^Error: Invalid `insert_line` parameter: "two"/);
    expect(await editor.execute({ command: 'insert', path, insert_line: 1 })).toMatch(/^Error: Parameter `new_str` is required for command: insert/);
    const t = textEditorTool({ ...opts(), version: '20250429' });
    expect(await t.execute({ command: 'insert', path, insert_line: 1 })).toMatch(/^Error: Parameter `insert_text` is required/);
    expect(await editor.execute({ command: 'insert', path: ws.path('none.py'), insert_line: 0, new_str: 'x' })).toMatch(/does not exist/);
  });
});

describe('text editor: undo_edit', () => {
  it('undoes edits one level at a time, showing the restored file', async () => {
    const path = ws.path('a.py');
    const original = ws.read('a.py');
    await editor.execute({ command: 'str_replace', path, old_str: 'return 1', new_str: 'return 10' });
    await editor.execute({ command: 'insert', path, insert_line: 0, new_str: '# top' });
    const out = await editor.execute({ command: 'undo_edit', path });
    const middle = original.replace('return 1', 'return 10');
    expect(out).toBe(`Last edit to ${path} undone successfully. Here's the result of running \`cat -n\` on ${path}:\n${numbered(middle.split('\n').slice(0, -1))}\n`);
    expect(ws.read('a.py')).toBe(middle);
    await editor.execute({ command: 'undo_edit', path });
    expect(ws.read('a.py')).toBe(original);
    expect(await editor.execute({ command: 'undo_edit', path })).toMatch(new RegExp(`^Error: No edit history found for ${path}\\.`));
  });

  it('undoes a create by removing the file', async () => {
    const path = ws.path('c.txt');
    await editor.execute({ command: 'create', path, file_text: 'x' });
    expect(await editor.execute({ command: 'undo_edit', path })).toMatch(/undone successfully\. The file had been created by str_replace_editor, so it was removed\./);
    expect(existsSync(path)).toBe(false);
  });

  it('undoes the writes of other tools sharing the history (CRLF bytes restored)', async () => {
    ws.write('w.txt', 'a\r\nb\r\n');
    const edit = editTool(opts());
    expect(await edit.execute({ file_path: 'w.txt', old_string: 'a', new_string: 'A' })).toMatch(/^Successfully/);
    expect(ws.read('w.txt')).toBe('A\r\nb\r\n');
    expect(await editor.execute({ command: 'undo_edit', path: ws.path('w.txt') })).toMatch(/undone successfully/);
    expect(ws.read('w.txt')).toBe('a\r\nb\r\n');
  });

  it('persists across processes: a fresh tool instance in a new node process can undo', async () => {
    const path = ws.path('a.py');
    const original = ws.read('a.py');
    await editor.execute({ command: 'str_replace', path, old_str: 'return 2', new_str: 'return 22' });
    const script = `
      const { textEditorTool } = require(${JSON.stringify(libIndex)});
      const t = textEditorTool(${JSON.stringify(opts())});
      t.execute({ command: 'undo_edit', path: ${JSON.stringify(path)} }).then((out) => process.stdout.write(out));
    `;
    const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(out).toMatch(/^Last edit to .* undone successfully\./);
    expect(ws.read('a.py')).toBe(original);
  });

  it('uses the default per-workspace store when no historyDir is given', async () => {
    const base = { allowedFolders: [ws.root], cwd: ws.root };
    const t = textEditorTool(base);
    await t.execute({ command: 'str_replace', path: ws.path('a.py'), old_str: 'return 1', new_str: 'return 11' });
    const script = `
      const { undoLastEdit } = require(${JSON.stringify(libIndex)});
      undoLastEdit('a.py', ${JSON.stringify(base)}).then((out) => process.stdout.write(out));
    `;
    const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(out).toMatch(/^Last edit to a\.py undone successfully: restored the content from before the last str_replace_editor write/);
    expect(ws.read('a.py')).toContain('return 1\n');
  });

  it('is refused when history is turned off', async () => {
    const t = textEditorTool({ ...opts(), history: false });
    await t.execute({ command: 'str_replace', path: ws.path('a.py'), old_str: 'return 1', new_str: 'return 11' });
    expect(await t.execute({ command: 'undo_edit', path: ws.path('a.py') })).toMatch(/^Error: Undo is unavailable: undo history is turned off/);
    expect(await undoLastEdit(ws.path('a.py'), opts())).toMatch(/^Error: No edit history found/);
  });
});

describe('text editor: confinement', () => {
  it('refuses every command outside the allowed folders', async () => {
    const outside = makeWorkspace('edit-engine-outside-');
    try {
      const file = outside.write('o.txt', 'secret\n');
      for (const params of [
        { command: 'view', path: file },
        { command: 'view', path: outside.root },
        { command: 'str_replace', path: file, old_str: 'secret', new_str: 'x' },
        { command: 'insert', path: file, insert_line: 0, new_str: 'x' },
        { command: 'create', path: outside.path('new.txt'), file_text: 'x' },
        { command: 'undo_edit', path: file },
        { command: 'view', path: '../' + outside.root.split('/').pop() + '/o.txt' },
      ]) {
        expect(await editor.execute(params)).toMatch(/^Error: Permission denied - .* is outside allowed directories/);
      }
      expect(outside.read('o.txt')).toBe('secret\n');
      expect(existsSync(outside.path('new.txt'))).toBe(false);
    } finally {
      outside.cleanup();
    }
  });

  it('resolves relative paths against cwd / workingDirectory', async () => {
    expect(await editor.execute({ command: 'view', path: 'a.py', view_range: [1, 1] })).toBe(
      "Here's the result of running `cat -n` on a.py:\n     1\tdef f():\n",
    );
    ws.write('sub/s.txt', 'x\n');
    expect(await editor.execute({ command: 'view', path: 's.txt', workingDirectory: ws.path('sub') })).toContain('     1\tx');
  });

  it('neither shows nor writes protected paths', async () => {
    ws.write('.env', 'KEY=1\n');
    const t = textEditorTool({ ...opts(), protectedPaths: ['.env'] });
    const viewed = await t.execute({ command: 'view', path: ws.path('.env') });
    expect(viewed).toBe(
      'Error: Permission denied - .env is a protected path (matches ".env"), so its contents are not shown. Protected paths are neither shown nor written by these tools; view a file outside them.',
    );
    expect(await t.execute({ command: 'str_replace', path: ws.path('.env'), old_str: '1', new_str: '2' })).toMatch(/is a protected path/);
    expect(ws.read('.env')).toBe('KEY=1\n');
  });
});

describe('text editor: readTracker', () => {
  it('requires a view before str_replace / insert, and refuses a file changed since', async () => {
    const readTracker = new FileReadTracker();
    const t = textEditorTool({ ...opts(), readTracker });
    const path = ws.path('a.py');
    expect(await t.execute({ command: 'str_replace', path, old_str: 'return 1', new_str: 'return 9' })).toMatch(/^Error: a\.py has not been read yet in this session/);
    await t.execute({ command: 'view', path });
    expect(asRuntimeMtime(readTracker.getReadTime(path))).toBe(statSync(path).mtimeMs);
    expect(await t.execute({ command: 'str_replace', path, old_str: 'return 1', new_str: 'return 9' })).toMatch(/^The file .* has been edited/);
    expect(await t.execute({ command: 'insert', path, insert_line: 0, new_str: '# chained' })).toMatch(/^The file .* has been edited/);
    const later = new Date(statSync(path).mtimeMs + 10_000);
    utimesSync(path, later, later);
    expect(await t.execute({ command: 'insert', path, insert_line: 0, new_str: '# x' })).toMatch(/^Error: a\.py was modified externally since you last read it/);
    expect(ws.read('a.py').startsWith('# chained\n')).toBe(true);
  });
});

describe('undoLastEdit', () => {
  it('undoes the writes of every tool, newest first', async () => {
    const original = ws.read('a.py');
    await createTool(opts()).execute({ file_path: 'a.py', content: 'created\n', overwrite: true });
    await editFileTool(opts()).execute({ path: 'a.py', old_text: 'created', new_text: 'edited' });
    await multiEditTool(opts()).execute({ atomic: true, edits: [{ file_path: 'a.py', old_string: 'edited', new_string: 'multi' }] });
    expect(ws.read('a.py')).toBe('multi\n');
    const undo = () => undoLastEdit('a.py', opts());
    expect(await undo()).toMatch(/before the last multi_edit write \(2 earlier levels remain\)/);
    expect(ws.read('a.py')).toBe('edited\n');
    expect(await undo()).toMatch(/before the last edit_file write \(1 earlier level remains\)/);
    expect(ws.read('a.py')).toBe('created\n');
    expect(await undo()).toMatch(/before the last create write \(0 earlier levels remain\)/);
    expect(ws.read('a.py')).toBe(original);
  });

  it('removes a file that createTool created', async () => {
    await createTool(opts()).execute({ file_path: 'fresh.txt', content: 'x' });
    expect(await undoLastEdit('fresh.txt', opts())).toMatch(/the file had been created by create and was removed/);
    expect(existsSync(ws.path('fresh.txt'))).toBe(false);
  });

  it('validates its path and reports files without history', async () => {
    expect(await undoLastEdit('', opts())).toMatch(/^Error: path is required/);
    expect(await undoLastEdit('a.py', opts())).toMatch(/^Error: No edit history found for a\.py\./);
    expect(await undoLastEdit('/etc/hostname', opts())).toMatch(/outside allowed directories/);
  });
});
