// Limits that hold for every write and every view: no tool leaves a file over `maxFileBytes`
// (refused before writing, naming the limit), `create` does not overwrite a file it cannot keep
// for undo, and a `view` returns at most `maxCharacters` (default 100,000), cut at a line end,
// saying which `view_range` shows the rest.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  applyPatchTool,
  createTool,
  editFileTool,
  editTool,
  replaceInFileTool,
  textEditorTool,
  undoLastEdit,
  viewTool,
  FileReadTracker,
} from '../lib/index.mjs';
import { createTextEditorHandler, textEditorDefinition } from '../lib/anthropic.mjs';
import { makeWorkspace } from './support/workspace.mjs';

const bin = fileURLToPath(new URL('../bin/edit-engine.mjs', import.meta.url));
const TEN = 'abcdefghij\n';
// Each line of TEN.repeat(n) is shown as `{n:>6}\t{line}\n`: 18 characters.
const SHOWN_PER_LINE = 18;

let ws;
const opts = (extra = {}) => ({ allowedFolders: [ws.root], cwd: ws.root, ...extra });
beforeEach(() => {
  ws = makeWorkspace('edit-engine-limits-');
});
afterEach(() => ws.cleanup());

describe('maxFileBytes holds for every write', () => {
  const LIMIT = 1000;
  const lines = TEN.repeat(20);
  const over = new RegExp(`^Error.*nothing was written: the new content of \\S+ would be \\d+ bytes, over the ${LIMIT}-byte limit \\(maxFileBytes`);

  it('refuses an edit, a regex batch, a create and an added file that would leave a file over it', async () => {
    ws.write('a.txt', lines);
    const o = opts({ maxFileBytes: LIMIT });
    const big = 'y'.repeat(LIMIT + 1);
    const calls = [
      [editTool(o), { file_path: 'a.txt', old_string: 'e', new_string: 'e'.repeat(60), replace_all: true }],
      [editFileTool(o), { path: 'a.txt', old_text: 'e', new_text: 'e'.repeat(60), replace_all: true }],
      [replaceInFileTool(o), { filePath: 'a.txt', replacements: [{ type: 'regex', searchFor: '(?m)^', replaceWith: 'x'.repeat(50) }] }],
      [createTool(o), { file_path: 'big.txt', content: big }],
      [textEditorTool(o), { command: 'create', path: 'big.txt', file_text: big }],
      [applyPatchTool(o), { input: `*** Begin Patch\n*** Add File: big.txt\n+${big}\n*** End Patch` }],
    ];
    for (const [tool, params] of calls) {
      const result = await tool.executeResult(params);
      expect(result.ok).toBe(false);
      expect(result.kind).toBe('fs');
      expect(result.text).toMatch(over);
      expect(result.text).toContain("raise the tool's maxFileBytes option");
    }
    expect(ws.read('a.txt')).toBe(lines);
    expect(existsSync(ws.path('big.txt'))).toBe(false);
    expect(await undoLastEdit('a.txt', o)).toMatch(/^Error: No edit history found/);
  });

  it('lets a write of exactly the limit land, and undo puts the file back', async () => {
    ws.write('a.txt', lines);
    const o = opts({ maxFileBytes: LIMIT });
    const out = await createTool(o).execute({ file_path: 'a.txt', content: 'z'.repeat(LIMIT), overwrite: true });
    expect(out).toMatch(/^Successfully overwrote a\.txt/);
    expect(await undoLastEdit('a.txt', o)).toMatch(/before the last create write/);
    expect(ws.read('a.txt')).toBe(lines);
  });

  it('create does not overwrite a file it cannot read back for undo, and names the limit', async () => {
    ws.write('a.txt', 'x'.repeat(100) + '\n');
    const out = await createTool(opts({ maxFileBytes: 50 })).execute({ file_path: 'a.txt', content: 'short\n', overwrite: true });
    expect(out).toBe(
      'Error creating file: nothing was written: a.txt could not be read back for the undo history (it is 101 bytes, over the 50-byte maxFileBytes limit), and a write that could not be undone is refused. Raise the tool\'s maxFileBytes option above the file\'s size (when that is the reason), or the host can set history: false.',
    );
    expect(ws.read('a.txt')).toBe('x'.repeat(100) + '\n');
    const off = await createTool(opts({ maxFileBytes: 50, history: false })).execute({ file_path: 'a.txt', content: 'short\n', overwrite: true });
    expect(off).toMatch(/^Successfully overwrote a\.txt/);
  });
});

describe('view returns at most maxCharacters', () => {
  const header = (path) => `Here's the result of running \`cat -n\` on ${path}:\n`;
  const numbered = (from, count) =>
    Array.from({ length: count }, (_, i) => `${String(from + i).padStart(6)}\tabcdefghij\n`).join('');

  it('cuts every text editor version at a line end and says which view_range shows the rest', async () => {
    ws.write('long.txt', TEN.repeat(10));
    for (const version of ['20250124', '20250429', '20250728']) {
      const t = textEditorTool(opts({ version, maxCharacters: 40 }));
      expect(await t.execute({ command: 'view', path: 'long.txt' })).toBe(
        `${header('long.txt')}${numbered(1, 2)}[truncated at line 2 of 10; view_range [3, -1] shows more]`,
      );
      // The call's max_characters wins over the option.
      expect(await t.execute({ command: 'view', path: 'long.txt', view_range: [4, 9], max_characters: 60 })).toBe(
        `${header('long.txt')}${numbered(4, 3)}[truncated at line 6 of 10; view_range [7, 9] shows more]`,
      );
    }
  });

  it('keeps to 100,000 characters by default in viewTool, the text editor and its Anthropic handler', async () => {
    ws.write('big.txt', TEN.repeat(20_000));
    const shown = Math.floor(100_000 / SHOWN_PER_LINE);
    const expected = `${header('big.txt')}${numbered(1, shown)}[truncated at line ${shown} of 20000; view_range [${shown + 1}, -1] shows more]`;
    expect(await viewTool(opts()).execute({ path: 'big.txt' })).toBe(expected);
    expect(await textEditorTool(opts()).execute({ command: 'view', path: 'big.txt' })).toBe(expected);
    const handler = createTextEditorHandler(opts());
    const block = { type: 'tool_use', id: 't1', name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'big.txt' } };
    expect(await handler.handle(block)).toEqual({ type: 'tool_result', tool_use_id: 't1', content: expected });
    const perCall = await viewTool(opts({ maxCharacters: 10 })).execute({ path: 'big.txt', view_range: [2, 3], max_characters: 36 });
    expect(perCall).toBe(`${header('big.txt')}${numbered(2, 2)}`);
  });

  it('advertises the limit in effect in the 20250728 definition and tool object', () => {
    expect(textEditorDefinition()).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 100_000 });
    expect(textEditorDefinition({ maxCharacters: 5000 }).max_characters).toBe(5000);
    expect(createTextEditorHandler(opts()).definition.max_characters).toBe(100_000);
    expect(textEditorTool(opts({ version: '20250728' })).max_characters).toBe(100_000);
    expect(textEditorTool(opts({ version: '20250728', maxCharacters: 25 })).max_characters).toBe(25);
    expect(textEditorDefinition({ version: '20250429' })).toEqual({ type: 'text_editor_20250429', name: 'str_replace_based_edit_tool' });
  });

  it('records a truncated view as a read', async () => {
    ws.write('big.txt', TEN.repeat(20));
    const readTracker = new FileReadTracker();
    const t = textEditorTool(opts({ readTracker, maxCharacters: 40 }));
    expect(await t.execute({ command: 'view', path: 'big.txt' })).toContain('[truncated at line 2 of 20;');
    expect(readTracker.hasBeenRead(ws.path('big.txt'))).toBe(true);
    const edited = await t.execute({ command: 'str_replace', path: 'big.txt', old_str: 'abcdefghij\n'.repeat(20), new_str: 'one\n' });
    expect(edited).toMatch(/^The file .* has been edited/);
  });

  it('keeps to the limit in the CLI view', () => {
    ws.write('big.txt', TEN.repeat(20_000));
    const run = spawnSync(process.execPath, [bin, 'view', '--json', '{"path":"big.txt","max_characters":40}'], { cwd: ws.root, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`${numbered(1, 2)}[truncated at line 2 of 20000; view_range [3, -1] shows more]`);
    const whole = spawnSync(process.execPath, [bin, 'view', '--json', '{"path":"big.txt"}'], { cwd: ws.root, encoding: 'utf8' });
    expect(whole.stdout).toContain('[truncated at line 5555 of 20000; view_range [5556, -1] shows more]');
    expect(whole.stdout.length).toBeLessThan(100_200);
  });
});
