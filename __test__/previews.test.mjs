// Previews bound to what is written: `preview(params)` on every writing tool writes nothing and
// shows the change; `applyPreview(token)` writes exactly that, only while every file holds what
// the preview read, once, before it expires, from any process sharing the history store.
import { describe, it, expect, afterEach } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  editTool, createTool, multiEditTool, editFileTool, textEditorTool, replaceInFileTool, applyPatchTool, applyDiffTool,
  applyDiffToText,
} from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

const JS = "function greet() {\n  return 'hi';\n}\n\nfunction other() {\n  return 1;\n}\n";
const FILES = { 'a.js': JS, 'b.txt': 'one\ntwo\none\n', 'm.txt': 'move me\n', 'd.txt': 'doomed\n' };

/** Every file under `root` (relative path -> bytes as a string), the history store excluded. */
function snapshot(root) {
  const out = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (name === '.history') continue;
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(root, full)] = readFileSync(full, 'latin1');
    }
  };
  walk(root);
  return out;
}

/** The writing tools and one call of each. */
const CALLS = [
  ['edit (text)', editTool, { file_path: 'a.js', old_string: "return 'hi';", new_string: "return 'hello';" }],
  ['edit (symbol)', editTool, { file_path: 'a.js', symbol: 'other', new_string: 'function other() {\n  return 3;\n}' }],
  ['edit (lines)', editTool, { file_path: 'b.txt', start_line: '2', new_string: 'deux' }],
  ['create', createTool, { file_path: 'dir/n.txt', content: 'new\n' }],
  ['create (overwrite)', createTool, { file_path: 'b.txt', content: 'fresh\n', overwrite: true }],
  ['multi_edit (atomic)', multiEditTool, { atomic: true, edits: [
    { file_path: 'a.js', old_string: 'return 1;', new_string: 'return 2;' },
    { file_path: 'b.txt', old_string: 'two', new_string: '2' },
  ] }],
  ['multi_edit (chained)', multiEditTool, { edits: [
    { file_path: 'b.txt', old_string: 'two', new_string: '2' },
    { file_path: 'b.txt', old_string: '2', new_string: 'zwei' },
  ] }],
  ['edit_file', editFileTool, { path: 'b.txt', old_text: 'one', new_text: '1', replace_all: true }],
  ['replace_in_file', replaceInFileTool, { filePath: 'b.txt', replacements: [{ type: 'string', searchFor: 'one', replaceWith: 'un' }] }],
  ['text editor', textEditorTool, { command: 'str_replace', path: 'b.txt', old_str: 'two', new_str: '2' }],
  ['apply_patch', applyPatchTool, { input: '*** Begin Patch\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** Add File: n.txt\n+new file\n*** Delete File: d.txt\n*** Update File: m.txt\n*** Move to: moved.txt\n@@\n-move me\n+moved\n*** End Patch' }],
  ['apply_diff', applyDiffTool, { diff: '<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE', path: 'b.txt' }],
];

describe('preview and applyPreview', () => {
  const spaces = [];
  const space = () => {
    const ws = makeWorkspace('edit-engine-preview-');
    for (const [rel, content] of Object.entries(FILES)) ws.write(rel, content);
    spaces.push(ws);
    return ws;
  };
  const options = (ws, extra = {}) => ({ allowedFolders: [ws.root], cwd: ws.root, historyDir: join(ws.root, '.history'), ...extra });
  afterEach(() => spaces.splice(0).forEach((ws) => ws.cleanup()));

  it.each(CALLS)('%s: the applied preview leaves the bytes and reply of the direct call; its diffs turn old into new', async (_name, factory, params) => {
    const direct = space();
    const directResult = await factory(options(direct)).executeResult(params);
    expect(directResult.ok).toBe(true);
    const viaPreview = space();
    const tool = factory(options(viaPreview));
    const before = snapshot(viaPreview.root);
    const shown = await tool.preview(params);
    expect(snapshot(viaPreview.root)).toEqual(before);
    expect(shown.ok).toBe(true);
    expect(shown.text).toBe(directResult.text);
    expect(shown.files.length).toBeGreaterThan(0);
    for (const file of shown.files.filter((f) => f.action === 'update')) {
      const applied = applyDiffToText(before[file.path], file.diff);
      expect(applied.ok, applied.message).toBe(true);
      expect(applied.text).toBe(snapshot(direct.root)[file.path]);
    }
    const applied = await tool.applyPreview(shown.token);
    expect(applied).toEqual(directResult);
    expect(snapshot(viaPreview.root)).toEqual(snapshot(direct.root));
  });

  it('shows each file: action, move destination, diff and line counts', async () => {
    const ws = space();
    const shown = await applyPatchTool(options(ws)).preview(CALLS.find(([n]) => n === 'apply_patch')[2]);
    const byPath = Object.fromEntries(shown.files.map((f) => [f.path, f]));
    expect(byPath['b.txt']).toMatchObject({ action: 'update', additions: 1, deletions: 1 });
    expect(byPath['b.txt'].diff).toContain('-two\n+TWO\n');
    expect(byPath['n.txt']).toMatchObject({ action: 'create', additions: 1, deletions: 0 });
    expect(byPath['d.txt']).toMatchObject({ action: 'delete', additions: 0, deletions: 1 });
    expect(byPath['m.txt']).toMatchObject({ action: 'move', movedTo: 'moved.txt', additions: 1, deletions: 1 });
    expect(byPath['moved.txt']).toBeUndefined();
    expect(byPath['b.txt'].movedTo).toBeUndefined();
  });

  it('a file changed since the preview is refused: nothing written, the change shown, told to re-read', async () => {
    const ws = space();
    const tool = editFileTool(options(ws));
    const shown = await tool.preview({ path: 'b.txt', old_text: 'two', new_text: '2' });
    ws.write('b.txt', 'one\ntwo\nthree\n');
    const applied = await tool.applyPreview(shown.token);
    expect(applied.ok).toBe(false);
    expect(applied.kind).toBe('stale');
    expect(applied.text).toContain('b.txt changed since the preview. Nothing was written. Re-read the file and re-send the call.');
    expect(applied.text).toContain('-one\n+three');
    expect(ws.read('b.txt')).toBe('one\ntwo\nthree\n');
  });

  it('a token applies once; an expired one and an unknown one are refused', async () => {
    const ws = space();
    const tool = editFileTool(options(ws));
    const params = { path: 'b.txt', old_text: 'two', new_text: '2' };
    const { token } = await tool.preview(params);
    expect((await tool.applyPreview(token)).ok).toBe(true);
    ws.write('b.txt', FILES['b.txt']);
    const again = await tool.applyPreview(token);
    expect(again).toMatchObject({ ok: false, kind: 'not_found' });
    expect(again.text).toMatch(/Re-send the call\.$/);
    expect(ws.read('b.txt')).toBe(FILES['b.txt']);

    const brief = editFileTool(options(ws, { previewTtlMs: 1 }));
    const old = await brief.preview(params);
    await new Promise((r) => setTimeout(r, 20));
    const expired = await brief.applyPreview(old.token);
    expect(expired).toMatchObject({ ok: false, kind: 'stale' });
    expect(expired.text).toContain('has expired');
    expect(ws.read('b.txt')).toBe(FILES['b.txt']);
    expect(await tool.applyPreview('not a token')).toMatchObject({ ok: false, kind: 'not_found' });
    expect(await tool.applyPreview(42)).toMatchObject({ ok: false, kind: 'bad_param' });
  });

  it('a failing call previews as its failure, with no token; a failed operation fails the whole preview', async () => {
    const ws = space();
    const tool = multiEditTool(options(ws));
    const params = { edits: [
      { file_path: 'b.txt', old_string: 'two', new_string: '2' },
      { file_path: 'b.txt', old_string: 'absent', new_string: 'x' },
    ] };
    const shown = await tool.preview(params);
    const direct = await multiEditTool(options(space())).executeResult(params);
    expect(shown).toMatchObject({ ok: false, kind: 'partial', token: null, text: direct.text });
    expect(ws.read('b.txt')).toBe(FILES['b.txt']);
  });

  it('a preview made in one process is applied from another sharing the store', async () => {
    const ws = space();
    const lib = fileURLToPath(new URL('../lib/index.cjs', import.meta.url));
    const script = `const { editFileTool } = require(${JSON.stringify(lib)});
      editFileTool(${JSON.stringify(options(ws))}).preview({ path: 'b.txt', old_text: 'two', new_text: 'TWO' })
        .then((p) => process.stdout.write(JSON.stringify(p)));`;
    const shown = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(shown.ok).toBe(true);
    expect(ws.read('b.txt')).toBe(FILES['b.txt']);
    const applied = await editFileTool(options(ws)).applyPreview(shown.token);
    expect(applied.ok).toBe(true);
    expect(ws.read('b.txt')).toBe('one\nTWO\none\n');
  });

  it('with history off, previews stay with the tool object that made them', async () => {
    const ws = space();
    const params = { path: 'b.txt', old_text: 'two', new_text: '2' };
    const mine = editFileTool({ allowedFolders: [ws.root], cwd: ws.root, history: false });
    const other = editFileTool({ allowedFolders: [ws.root], cwd: ws.root, history: false });
    const { token } = await mine.preview(params);
    expect((await other.applyPreview(token)).kind).toBe('not_found');
    expect((await mine.applyPreview(token)).ok).toBe(true);
    expect(ws.read('b.txt')).toBe('one\n2\none\n');
    expect(existsSync(join(ws.root, '.history'))).toBe(false);
  });

  it('a preview by tool call id is planned once; applyPreview({ toolCallId }) applies it', async () => {
    const ws = space();
    const tool = editFileTool(options(ws));
    const first = await tool.preview({ path: 'b.txt', old_text: 'two', new_text: '2' }, { toolCallId: 'call-1' });
    const again = await tool.preview({ path: 'b.txt', old_text: 'two', new_text: '2' }, { toolCallId: 'call-1' });
    expect(again).toBe(first);
    expect((await tool.applyPreview({ toolCallId: 'call-1' })).ok).toBe(true);
    expect(ws.read('b.txt')).toBe('one\n2\none\n');
  });

  it('an applied preview is one undo level, and the read guard runs as for the direct call', async () => {
    const ws = space();
    const { undoLastEditResult, FileReadTracker } = await import('../lib/index.mjs');
    const tool = multiEditTool(options(ws));
    const { token } = await tool.preview(CALLS.find(([n]) => n === 'multi_edit (chained)')[2]);
    expect((await tool.applyPreview(token)).ok).toBe(true);
    expect(ws.read('b.txt')).toBe('one\nzwei\none\n');
    expect((await undoLastEditResult('b.txt', options(ws))).ok).toBe(true);
    expect(ws.read('b.txt')).toBe(FILES['b.txt']);

    const readTracker = new FileReadTracker();
    const guarded = editFileTool(options(ws, { readTracker }));
    const shown = await guarded.preview({ path: 'b.txt', old_text: 'two', new_text: '2' });
    expect(shown).toMatchObject({ ok: false, kind: 'stale', token: null });
    expect(shown.text).toContain('has not been read yet');
  });

  it('a preview leaves the trackers as they were; the applied preview has the direct call\'s effects', async () => {
    const ws = space();
    const { FileTracker, FileReadTracker } = await import('../lib/index.mjs');
    const fileTracker = new FileTracker();
    const created = createTool(options(ws, { fileTracker }));
    const shown = await created.preview({ file_path: 'new.txt', content: 'x\n' });
    expect(fileTracker.isFileSeen(join(ws.root, 'new.txt'))).toBe(false);
    expect((await created.applyPreview(shown.token)).ok).toBe(true);
    expect(fileTracker.isFileSeen(join(ws.root, 'new.txt'))).toBe(true);

    // The read tracker records the write as read, so the next edit needs no re-read.
    const readTracker = new FileReadTracker();
    const view = textEditorTool(options(ws, { readTracker }));
    expect((await view.executeResult({ command: 'view', path: 'b.txt' })).ok).toBe(true);
    const edit = editFileTool(options(ws, { readTracker }));
    const first = await edit.preview({ path: 'b.txt', old_text: 'two', new_text: '2' });
    expect((await edit.applyPreview(first.token)).ok).toBe(true);
    const next = await edit.executeResult({ path: 'b.txt', old_text: '2', new_text: 'deux' });
    expect(next.ok, next.text).toBe(true);
    expect(ws.read('b.txt')).toBe('one\ndeux\none\n');
  });

  it('an unusable previewTtlMs is named in every call', async () => {
    const ws = space();
    const tool = editFileTool(options(ws, { previewTtlMs: -5 }));
    const shown = await tool.preview({ path: 'b.txt', old_text: 'two', new_text: '2' });
    expect(shown.ok).toBe(false);
    expect(shown.text).toContain('invalid previewTtlMs option -5');
  });

  it("a failing call's preview names the host's tools as the call itself does", async () => {
    const ws = space();
    const toolNames = { read: 'read_file', search: 'grep_files', create: 'write_file' };
    const tool = editTool(options(ws, { toolNames }));
    const params = { file_path: 'b.txt', old_string: 'absent', new_string: 'x' };
    const [shown, direct] = [await tool.preview(params), await tool.executeResult(params)];
    expect([shown.ok, shown.token]).toEqual([false, null]);
    expect(shown.text).toBe(direct.text);
    expect(shown.text).toContain("Use 'grep_files' or 'read_file'");
  });
});

describe('dry runs', () => {
  let ws;
  afterEach(() => ws?.cleanup());
  const bin = fileURLToPath(new URL('../bin/edit-engine.mjs', import.meta.url));

  it('the CLI with --dry-run prints the change and writes nothing', () => {
    ws = makeWorkspace('edit-engine-dry-');
    ws.write('a.txt', 'one two\n');
    const params = JSON.stringify({ file_path: 'a.txt', old_string: 'two', new_string: 'three' });
    const out = spawnSync(process.execPath, [bin, 'edit', '--root', ws.root, '--dry-run', '--json', params], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('Dry run: nothing was written. The call would answer:\nSuccessfully edited a.txt (1 replacement)');
    expect(out.stdout).toContain('update a.txt (+1 -1)\n--- a/a.txt\n+++ b/a.txt\n');
    expect(out.stdout).toContain('-one two\n+one three\n');
    expect(ws.read('a.txt')).toBe('one two\n');
    const missing = spawnSync(process.execPath, [bin, 'edit', '--root', ws.root, '--dry-run', '--json', JSON.stringify({ file_path: 'a.txt', old_string: 'zzz', new_string: 'x' })], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toMatch(/^Error editing file/);
    const view = spawnSync(process.execPath, [bin, 'view', '--root', ws.root, '--dry-run', '--json', '{"path":"a.txt"}'], { encoding: 'utf8' });
    expect(view.status).toBe(2);
    expect(view.stderr).toContain('--dry-run is for the tools that edit files');
  });

  it('the MCP server: dry_run on a writing tool answers with the preview and writes nothing', async () => {
    ws = makeWorkspace('edit-engine-dry-');
    ws.write('a.txt', 'one two\n');
    const { createMcpServer } = await import('../lib/mcp.mjs');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const server = createMcpServer({ root: ws.root, allowEdit: true, historyDir: join(ws.root, '.history') });
    const client = new Client({ name: 'dry-run-test', version: '0.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const listed = (await client.listTools()).tools;
    expect(listed.find((t) => t.name === 'edit').inputSchema.properties.dry_run).toMatchObject({ type: 'boolean' });
    expect(listed.find((t) => t.name === 'view').inputSchema.properties.dry_run).toBeUndefined();
    const args = { file_path: 'a.txt', old_string: 'two', new_string: 'three' };
    const dry = await client.callTool({ name: 'edit', arguments: { ...args, dry_run: true } });
    expect(dry.isError).toBe(false);
    expect(dry.content[0].text).toContain('-one two\n+one three\n');
    expect(ws.read('a.txt')).toBe('one two\n');
    const real = await client.callTool({ name: 'edit', arguments: { ...args, dry_run: false } });
    expect(real.isError).toBe(false);
    expect(ws.read('a.txt')).toBe('one three\n');
    await client.close();
  });
});
