import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { multiEditTool, FileTracker } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
let multi;
beforeEach(() => {
  ws = makeWorkspace();
  multi = multiEditTool({ allowedFolders: [ws.root], cwd: ws.root });
  ws.write('a.js', 'const a = 1;\nconst b = 2;\n');
  ws.write('b.js', 'let x = "x";\n');
});
afterEach(() => ws.cleanup());

describe('multi_edit (Probe behaviour)', () => {
  it('has Probe\'s name and takes edits as a JSON string', async () => {
    expect(multi.name).toBe('multi_edit');
    const edits = JSON.stringify([
      { file_path: 'a.js', old_string: 'const a = 1;', new_string: 'const a = 10;' },
      { file_path: 'b.js', start_line: '1', new_string: 'let x = "y";' },
    ]);
    const out = await multi.execute({ edits });
    expect(out.split('\n')[0]).toBe('Multi-edit: 2/2 succeeded');
    expect(out).toContain('[1] OK: Successfully edited a.js (1 replacement)');
    expect(out).toContain('[2] OK: Successfully edited b.js (line 1 replaced with 1 line)');
    expect(ws.read('a.js')).toBe('const a = 10;\nconst b = 2;\n');
    expect(ws.read('b.js')).toBe('let x = "y";\n');
  });

  it('keeps going after a failure and reports each operation', async () => {
    const out = await multi.execute({
      edits: [
        { file_path: 'a.js', old_string: 'missing', new_string: 'x' },
        'not an object',
        { file_path: 'a.js', old_string: 'const b = 2;', new_string: 'const b = 20;' },
      ],
    });
    const lines = out.split('\n');
    expect(lines[0]).toBe('Multi-edit: 1/3 succeeded, 2 failed');
    expect(lines[2]).toMatch(/^\[1\] FAIL: Error editing file: String not found/);
    expect(lines[3]).toBe('[2] FAIL: Invalid edit operation - must be an object');
    expect(lines[4]).toBe('[3] OK: Successfully edited a.js (1 replacement)');
    expect(ws.read('a.js')).toBe('const a = 1;\nconst b = 20;\n');
  });

  it.each([
    [{ edits: '[{"file_path": ' }, /^Error: Invalid JSON in edits parameter - .*\. Provide a raw JSON array between <edits> tags\.$/],
    [{ edits: 5 }, /^Error: edits must be a JSON array of edit operations\.$/],
    [{}, /^Error: edits must be a JSON array of edit operations\.$/],
    [{ edits: '[]' }, /^Error: edits must be a non-empty JSON array\.$/],
    [{ edits: '{"a":1}' }, /^Error: edits must be a non-empty JSON array\.$/],
    [{ edits: Array.from({ length: 51 }, () => ({})) }, /^Error: Too many edits \(51\)\. Maximum 50 per batch\.$/],
  ])('validates the batch %#', async (params, message) => {
    expect(await multi.execute(params)).toMatch(message);
  });
});

describe('multi_edit atomic mode', () => {
  it('applies every operation when all succeed', async () => {
    const out = await multi.execute({
      atomic: true,
      edits: [
        { file_path: 'a.js', old_string: 'const a = 1;', new_string: 'const a = 10;' },
        { file_path: 'a.js', start_line: '2', new_string: 'const b = 20;' },
        { file_path: 'b.js', old_string: '"x"', new_string: '"z"' },
      ],
    });
    expect(out.split('\n')[0]).toBe('Multi-edit: 3/3 succeeded (atomic)');
    expect(ws.read('a.js')).toBe('const a = 10;\nconst b = 20;\n');
    expect(ws.read('b.js')).toBe('let x = "z";\n');
  });

  it('later operations see earlier ones in the same file', async () => {
    const out = await multi.execute({
      atomic: true,
      edits: [
        { file_path: 'a.js', old_string: 'const a = 1;', new_string: 'const a = 1;\nconst c = 3;' },
        { file_path: 'a.js', old_string: 'const c = 3;', new_string: 'const c = 30;' },
      ],
    });
    expect(out).toMatch(/^Multi-edit: 2\/2 succeeded \(atomic\)/);
    expect(ws.read('a.js')).toBe('const a = 1;\nconst c = 30;\nconst b = 2;\n');
  });

  it('changes no file when one operation fails', async () => {
    const out = await multi.execute({
      atomic: true,
      edits: [
        { file_path: 'a.js', old_string: 'const a = 1;', new_string: 'const a = 10;' },
        { file_path: 'b.js', old_string: 'not there', new_string: 'x' },
        { file_path: 'a.js', start_line: '2', new_string: 'const b = 20;' },
      ],
    });
    const lines = out.split('\n');
    expect(lines[0]).toBe('Error: Multi-edit (atomic) failed at operation [2]; no file was changed. Fix that operation and resend the whole batch.');
    expect(lines[2]).toBe('[1] ROLLED BACK: planned, not written');
    expect(lines[3]).toMatch(/^\[2\] FAIL: Error editing file: String not found/);
    expect(lines[4]).toBe('[3] SKIPPED: not run');
    expect(ws.read('a.js')).toBe('const a = 1;\nconst b = 2;\n');
    expect(ws.read('b.js')).toBe('let x = "x";\n');
  });

  it('fails before touching anything when an operation is invalid', async () => {
    const out = await multi.execute({ atomic: true, edits: [{ file_path: 'a.js', old_string: 'const a = 1;', new_string: 'z' }, { file_path: '../outside.js', old_string: 'a', new_string: 'b' }] });
    expect(out).toMatch(/^Error: Multi-edit \(atomic\) failed at operation \[2\]/);
    expect(out).toMatch(/\[2\] FAIL: Error editing file: Permission denied/);
    expect(ws.read('a.js')).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('updates the tracker only after the batch lands', async () => {
    const tracker = new FileTracker();
    const tool = multiEditTool({ allowedFolders: [ws.root], cwd: ws.root, fileTracker: tracker });
    tracker.markFileSeen(ws.path('a.js'));
    const out = await tool.execute({ atomic: true, edits: [{ file_path: 'a.js', old_string: 'const a = 1;', new_string: 'const a = 2;' }] });
    expect(out).toMatch(/^Multi-edit: 1\/1 succeeded \(atomic\)/);
    expect(tracker.checkTextEditStaleness(ws.path('a.js'))).toEqual({ ok: true, editCount: 1 });
  });
});
