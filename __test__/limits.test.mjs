// Limits that hold for every write and every view: no tool leaves a file over `maxFileBytes`
// (refused before writing, naming the limit), `create` does not overwrite a file it cannot keep
// for undo, and a `view` returns at most `maxCharacters` (default 100,000), cut at a line end,
// saying which `view_range` shows the rest.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('maxFileBytes above what the undo history keeps', () => {
  /** The CLI with `--max-file-bytes max` on the workspace; `input` goes to `--json -`. */
  const cli = (env, max, args, input) =>
    spawnSync(process.execPath, [bin, ...args, '--root', ws.root, '--max-file-bytes', String(max)], { encoding: 'utf8', env, input });

  it("lets a write replacing a file larger than the store's cap land with that file's history cleared", () => {
    const root = mkdtempSync(join(tmpdir(), 'edit-engine-cap-root-'));
    try {
      // Default stores under a 4 MiB cap: one store keeps at most a quarter of it, 1 MiB.
      const env = { ...process.env, EDIT_ENGINE_HISTORY_ROOT: root, EDIT_ENGINE_HISTORY_MAX_BYTES: String(4 << 20) };
      const body = 'x'.repeat(1_500_000);
      ws.write('a.txt', 'head\n');
      const grow = cli(env, 8 << 20, ['edit', '--json', '-'], JSON.stringify({ file_path: 'a.txt', old_string: 'head', new_string: `head\n${body}` }));
      expect(grow.status, grow.stdout).toBe(0);
      const edit = cli(env, 8 << 20, ['edit', '--json', '-'], JSON.stringify({ file_path: 'a.txt', old_string: 'head', new_string: 'top' }));
      expect(edit.status, edit.stdout).toBe(0);
      expect(edit.stdout).toContain(
        "This write was not kept in the undo history: the content it replaced (1500006 bytes) is over the history store's 1048576-byte size cap, so the undo history of a.txt was cleared and undo cannot bring back its earlier contents.",
      );
      expect(grow.stdout).not.toContain('undo history');
      expect(ws.read('a.txt')).toBe(`top\n${body}\n`);
      const undo = cli(env, 8 << 20, ['undo', '--json', JSON.stringify({ path: 'a.txt' })]);
      expect(undo.status).toBe(1);
      expect(undo.stdout).toMatch(/^Error: No edit history found for a\.txt\./);
      expect(ws.read('a.txt')).toBe(`top\n${body}\n`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('undo through a tool whose maxFileBytes is below the file names the value that undoes it', async () => {
    const before = 'first\n' + TEN.repeat(300);
    ws.write('a.txt', before);
    const edited = await editTool(opts({ maxFileBytes: 8192 })).execute({ file_path: 'a.txt', old_string: 'first', new_string: 'one' });
    expect(edited).toMatch(/^Successfully/);
    const refused = await undoLastEdit('a.txt', opts({ maxFileBytes: 1000 }));
    expect(refused).toBe(
      "Error: Could not undo the last edit to a.txt: a.txt is 3304 bytes, over the 1000-byte limit (this tool's maxFileBytes, the largest file it reads). The file was not changed. Undo it through a tool made with the option maxFileBytes: 3304 or more.",
    );
    expect(await undoLastEdit('a.txt', opts({ maxFileBytes: 3304 }))).toMatch(/^Last edit to a\.txt undone successfully/);
    expect(ws.read('a.txt')).toBe(before);
  });
});

describe('max_characters and maxCharacters take a whole number of at least 1', () => {
  const refusal = (bad) =>
    `Error: Parameter \`max_characters\` must be a whole number of at least 1 (the most characters of numbered lines one view shows), not ${JSON.stringify(bad)}. Send such a number, or leave it out to use the tool's limit.`;

  it('refuses any other max_characters in viewTool, every text editor version and the CLI', async () => {
    ws.write('a.txt', TEN);
    for (const bad of [0, -3, 2.5, 'lots']) {
      const shown = await viewTool(opts()).executeResult({ path: 'a.txt', max_characters: bad });
      expect(shown).toMatchObject({ ok: false, kind: 'bad_param', text: refusal(bad) });
      for (const version of ['20250124', '20250429', '20250728']) {
        const t = textEditorTool(opts({ version }));
        expect(await t.execute({ command: 'view', path: 'a.txt', max_characters: bad })).toBe(refusal(bad));
      }
    }
    const run = spawnSync(process.execPath, [bin, 'view', '--json', '{"path":"a.txt","max_characters":0}'], { cwd: ws.root, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout.trim()).toBe(refusal(0));
  });

  it('fails every call of a text editor whose maxCharacters option is not such a number, naming it', async () => {
    ws.write('a.txt', TEN);
    for (const [bad, shown] of [[0, '0'], [-1, '-1'], [2.5, '2.5'], ['many', '(not a number)']]) {
      const out = await viewTool(opts({ maxCharacters: bad })).execute({ path: 'a.txt' });
      expect(out).toContain(`invalid maxCharacters option ${shown} (use a whole number of characters >= 1, default 100000)`);
    }
    expect(await viewTool(opts({ maxCharacters: 12 })).execute({ path: 'a.txt' })).toContain('[truncated');
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
