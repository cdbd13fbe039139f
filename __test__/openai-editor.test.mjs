// The Agents SDK's `Editor` from edit-engine/openai: a fake model drives `applyPatchTool({ editor })`
// of the real SDK through create, a failed update (context not found), a fuzzy update with a
// rename, a path escape and a delete; direct calls cover the malformed operations.
import { describe, it, expect, afterEach } from 'vitest';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Agent, Runner, applyPatchTool, setTracingDisabled } from '@openai/agents';
import { createEditor } from '../lib/openai.mjs';
import { undoLastEditResult } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { say, scriptedModel } from './support/openai-model.mjs';

setTracingDisabled(true);

const patchCall = (id, operation) => ({ type: 'apply_patch_call', callId: id, status: 'completed', operation });

/** The apply_patch_call_output items of a request's input, by call id. */
const patchOutputs = (request) =>
  Object.fromEntries(request.input.filter((i) => i.type === 'apply_patch_call_output').map((i) => [i.callId, { status: i.status, output: i.output }]));

describe('createEditor (edit-engine/openai)', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('a fake model creates, fails an update, updates with a rename, is refused outside the root, and deletes', async () => {
    ws = makeWorkspace('edit-engine-editor-');
    ws.write('old.txt', 'obsolete\n');
    const outside = join(dirname(ws.root), `escape-${Date.now()}.txt`);
    const { model, requests } = scriptedModel([
      patchCall('p1', { type: 'create_file', path: 'src/greet.py', diff: '+class Greeter:\n+    def hello(self):\n+        return "hi"\n+\n+    def bye(self):\n+        return "bye"\n' }),
      patchCall('p2', { type: 'update_file', path: 'src/greet.py', diff: '@@ def hello(self):\n-        return "hello"\n+        return "hello there"\n' }),
      // Trailing spaces on the context line: found by the engine's fuzzy context matching.
      patchCall('p3', { type: 'update_file', path: 'src/greet.py', moveTo: 'src/greeter.py', diff: '@@ class Greeter:\n@@     def bye(self):   \n-        return "bye"\n+        return "goodbye"\n' }),
      patchCall('p4', { type: 'create_file', path: `../${outside.split('/').pop()}`, diff: '+pwned\n' }),
      patchCall('p5', { type: 'delete_file', path: 'old.txt' }),
      say('done'),
    ]);
    const agent = new Agent({ name: 'patcher', instructions: 'patch', model, tools: [applyPatchTool({ editor: createEditor({ allowedFolders: [ws.root], cwd: ws.root }) })] });
    const result = await new Runner().run(agent, 'Make the greeter friendlier.', { maxTurns: 8 });

    expect(result.finalOutput).toBe('done');
    const seen = patchOutputs(requests[5]);
    expect(seen.p1).toEqual({ status: 'completed', output: expect.stringContaining('A src/greet.py') });
    expect(seen.p2.status).toBe('failed');
    expect(seen.p2.output).toMatch(/^Error: Hunk 1 of 1 for src\/greet\.py failed/);
    expect(seen.p2.output).toContain('return "hi"'); // the closest region, to copy from
    expect(seen.p2.output).toContain('No file was changed.');
    expect(seen.p3).toEqual({ status: 'completed', output: expect.stringContaining('src/greeter.py') });
    expect(seen.p4.status).toBe('failed');
    expect(seen.p4.output).toMatch(/outside allowed directories/);
    expect(seen.p5).toEqual({ status: 'completed', output: expect.stringContaining('D old.txt') });

    expect(ws.read('src/greeter.py')).toBe('class Greeter:\n    def hello(self):\n        return "hi"\n\n    def bye(self):\n        return "goodbye"\n');
    expect(existsSync(ws.path('src/greet.py'))).toBe(false);
    expect(existsSync(ws.path('old.txt'))).toBe(false);
    expect(existsSync(outside)).toBe(false);
  });

  it('keeps CRLF line endings and refuses an escape through moveTo without touching the source', async () => {
    ws = makeWorkspace('edit-engine-editor-');
    ws.write('a.txt', 'one\r\ntwo\r\nthree\r\n');
    const editor = createEditor({ allowedFolders: [ws.root], cwd: ws.root });
    const ok = await editor.updateFile({ type: 'update_file', path: 'a.txt', diff: ' one\n-two\n+TWO\n three\n' });
    expect(ok.status).toBe('completed');
    expect(ws.read('a.txt')).toBe('one\r\nTWO\r\nthree\r\n');
    const escape = await editor.updateFile({ type: 'update_file', path: 'a.txt', moveTo: '/etc/edit-engine-x', diff: '-one\n+ONE\n' });
    expect(escape.status).toBe('failed');
    expect(escape.output).toMatch(/outside allowed directories/);
    expect(ws.read('a.txt')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('answers malformed operations with a failed result that says what to resend', async () => {
    ws = makeWorkspace('edit-engine-editor-');
    ws.write('a.txt', 'one\n');
    const editor = createEditor({ allowedFolders: [ws.root], cwd: ws.root });
    const notPlus = await editor.createFile({ type: 'create_file', path: 'b.txt', diff: '+first\nsecond\n' });
    expect(notPlus).toEqual({ status: 'failed', output: expect.stringContaining("line 2 of the create_file diff, \"second\", does not start with '+'") });
    const smuggled = await editor.updateFile({ type: 'update_file', path: 'a.txt', diff: '-one\n+ONE\n*** Delete File: a.txt\n' });
    expect(smuggled.status).toBe('failed');
    expect(smuggled.output).toMatch(/line 3 of the update_file diff, "\*\*\* Delete File: a.txt", is a patch header/);
    const unprefixed = await editor.updateFile({ type: 'update_file', path: 'a.txt', moveTo: 'c.txt', diff: '@@\n-one\nONE\n' });
    expect(unprefixed.output).toMatch(/^Error: Invalid patch: line 3 of the diff "ONE" in the update of a\.txt does not start with ' '/);
    const twoLines = await editor.deleteFile({ type: 'delete_file', path: 'a.txt\n*** Delete File: b.txt' });
    expect(twoLines.output).toMatch(/holds a line break/);
    expect(await editor.deleteFile(null)).toEqual({ status: 'failed', output: expect.stringMatching(/path must be a non-empty string/) });
    expect((await editor.updateFile({ type: 'update_file', path: 'a.txt' })).output).toMatch(/diff must be a string/);
    expect(ws.read('a.txt')).toBe('one\n');
    expect(existsSync(ws.path('b.txt'))).toBe(false);
    const missing = await editor.deleteFile({ type: 'delete_file', path: 'nope.txt' });
    expect(missing.status).toBe('failed');
    expect(missing.output).toMatch(/^Error/);
  });

  it('creates an empty file from an empty diff; an update is one undo level of the engine history', async () => {
    ws = makeWorkspace('edit-engine-editor-');
    const options = { allowedFolders: [ws.root], cwd: ws.root, historyDir: ws.path('.history') };
    const editor = createEditor(options);
    expect((await editor.createFile({ type: 'create_file', path: 'empty.txt', diff: '' })).status).toBe('completed');
    expect(ws.read('empty.txt')).toBe('');
    ws.write('n.txt', 'a\nb\nc\n');
    expect((await editor.updateFile({ type: 'update_file', path: 'n.txt', diff: ' a\n-b\n+B\n c\n' })).status).toBe('completed');
    expect(ws.read('n.txt')).toBe('a\nB\nc\n');
    const undone = await undoLastEditResult('n.txt', options);
    expect(undone.ok).toBe(true);
    expect(ws.read('n.txt')).toBe('a\nb\nc\n');
  });
  it('reads a line-number header as a position hint and text after its second @@ as an anchor', async () => {
    ws = makeWorkspace('edit-engine-editor-');
    const editor = createEditor({ allowedFolders: [ws.root], cwd: ws.root });
    ws.write('n.txt', 'one\ntwo\n');
    const numbered = await editor.updateFile({ type: 'update_file', path: 'n.txt', diff: '@@ -1,2 +1,2 @@\n one\n-two\n+2\n' });
    expect(numbered.status).toBe('completed');
    expect(ws.read('n.txt')).toBe('one\n2\n');
    ws.write('c.py', 'class A:\n    x = 1\nclass B:\n    x = 1\n');
    const anchored = await editor.updateFile({ type: 'update_file', path: 'c.py', diff: '@@ -3,2 +3,2 @@ class B:\n-    x = 1\n+    x = 2\n' });
    expect(anchored.status).toBe('completed');
    expect(ws.read('c.py')).toBe('class A:\n    x = 1\nclass B:\n    x = 2\n');
    const mismatch = await editor.updateFile({ type: 'update_file', path: 'n.txt', diff: '@@ -1,2 +1,2 @@\n x\n-2\n+3\n' });
    expect(mismatch.status).toBe('failed');
    expect(ws.read('n.txt')).toBe('one\n2\n');
  });
});
