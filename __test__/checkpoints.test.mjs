// Checkpoints of a session and rewinds to them, through the JS API: `createCheckpoints(options)`
// with `create`, `list` and `rewind(id, { dryRun, onConflict })`; tools join a session by their
// `sessionId` (default: one session per process).
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createCheckpoints, editTool, createTool, applyPatchTool, undoLastEdit } from '../lib/index.mjs';
import { mcpTools } from '../lib/mcp.mjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
let opts;
beforeEach(() => {
  ws = makeWorkspace();
  opts = { allowedFolders: [ws.root], cwd: ws.root, historyDir: join(ws.root, '.history') };
});
afterEach(() => ws.cleanup());

const text = (rel) => (existsSync(ws.path(rel)) ? ws.read(rel) : undefined);

/** Session `sessionId`'s tools and checkpoints. */
function session(sessionId) {
  const o = sessionId === undefined ? opts : { ...opts, sessionId };
  return { edit: editTool(o), create: createTool(o), patch: applyPatchTool(o), checkpoints: createCheckpoints(o) };
}

async function ok(promise) {
  const out = await promise;
  expect(out, out).toMatch(/^(Success|Successfully)/);
}

describe('createCheckpoints', () => {
  it('rewinds updates, creations, deletions and moves, and reports them', async () => {
    ws.write('a.txt', 'one\ntwo\n');
    ws.write('d.txt', 'doomed\n');
    ws.write('m.txt', 'move me\n');
    const s = session('agent');
    const cp = await s.checkpoints.create('start');
    expect(cp).toMatchObject({ label: 'start', evicted: [] });
    expect(cp.id).toMatch(/^[0-9a-f]{32}$/);
    expect(typeof cp.createdAt).toBe('number');
    await ok(s.edit.execute({ file_path: 'a.txt', old_string: 'two', new_string: 'TWO\nthree' }));
    await ok(s.create.execute({ file_path: 'n/new.txt', content: 'new\n' }));
    await ok(s.patch.execute({ input: '*** Begin Patch\n*** Delete File: d.txt\n*** Update File: m.txt\n*** Move to: moved.txt\n@@\n-move me\n+moved\n*** End Patch' }));
    const r = await s.checkpoints.rewind(cp.id);
    expect(r.ok, r.text).toBe(true);
    expect(r.canRewind).toBe(true);
    expect([text('a.txt'), text('d.txt'), text('m.txt'), text('n/new.txt'), text('moved.txt')]).toEqual([
      'one\ntwo\n', 'doomed\n', 'move me\n', undefined, undefined,
    ]);
    expect(r.filesChanged).toBe(5);
    const byPath = Object.fromEntries(r.files.map((f) => [f.path, f.action]));
    expect(byPath).toEqual({ 'a.txt': 'update', 'd.txt': 'create', 'm.txt': 'create', 'n/new.txt': 'delete', 'moved.txt': 'delete' });
    expect(r.insertions).toBe(r.files.reduce((n, f) => n + f.additions, 0));
    expect(r.deletions).toBeGreaterThanOrEqual(2);
    expect(r.conflicts).toEqual([]);
    expect(r.checkpoint.id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.error ?? undefined).toBeUndefined();
    // The rewind is one undo level: undoing any of its files reverts it whole.
    const undone = await undoLastEdit('d.txt', opts);
    expect(undone).toMatch(/undone successfully/);
    expect([text('a.txt'), text('d.txt'), text('moved.txt')]).toEqual(['one\nTWO\nthree\n', undefined, 'moved\n']);
  });

  it('lists a file moved since as one move back, in dry runs too', async () => {
    ws.write('m.txt', 'move me\n');
    const s = session('agent');
    const cp = await s.checkpoints.create();
    await ok(s.patch.execute({ input: '*** Begin Patch\n*** Update File: m.txt\n*** Move to: lib/moved.txt\n@@\n-move me\n+moved\n*** End Patch' }));
    const dry = await s.checkpoints.rewind(cp.id, { dryRun: true });
    const r = await s.checkpoints.rewind(cp.id);
    for (const result of [dry, r]) {
      expect(result.ok, result.text).toBe(true);
      expect(result.files).toHaveLength(1);
      expect(result.files[0]).toMatchObject({ path: 'lib/moved.txt', action: 'move', movedTo: 'm.txt', additions: 1, deletions: 1 });
      expect(result.filesChanged).toBe(2);
    }
    expect(r.text).toMatch(/lib\/moved\.txt moved back to m\.txt/);
    expect([text('m.txt'), text('lib/moved.txt')]).toEqual(['move me\n', undefined]);
  });

  it('puts back an edit made before the checkpoint and undone since, unless changed after the undo', async () => {
    ws.write('a.txt', 'v0\n');
    const s = session('agent');
    await ok(s.edit.execute({ file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }));
    const cp = await s.checkpoints.create();
    expect(await undoLastEdit('a.txt', opts)).toMatch(/undone successfully/);
    expect(ws.read('a.txt')).toBe('v0\n');
    const r = await s.checkpoints.rewind(cp.id);
    expect(r.ok, r.text).toBe(true);
    expect(r.files.map((f) => [f.path, f.action])).toEqual([['a.txt', 'update']]);
    expect(ws.read('a.txt')).toBe('v1\n');
    const cp2 = await s.checkpoints.create();
    expect(await undoLastEdit('a.txt', opts)).toMatch(/undone successfully/);
    ws.write('a.txt', 'theirs\n');
    const refused = await s.checkpoints.rewind(cp2.id);
    expect(refused).toMatchObject({ ok: false, kind: 'stale', conflicts: [{ path: 'a.txt' }] });
    expect(ws.read('a.txt')).toBe('theirs\n');
  });

  it('rewinds a rewind through the checkpoint it returns', async () => {
    ws.write('a.txt', 'v0\n');
    const s = session('agent');
    const cp = await s.checkpoints.create();
    await ok(s.edit.execute({ file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }));
    const r = await s.checkpoints.rewind(cp.id);
    expect(ws.read('a.txt')).toBe('v0\n');
    const back = await s.checkpoints.rewind(r.checkpoint.id);
    expect(back.ok, back.text).toBe(true);
    expect(ws.read('a.txt')).toBe('v1\n');
    const listed = await s.checkpoints.list();
    expect(listed.map((c) => c.id).slice(0, 2)).toEqual([cp.id, r.checkpoint.id]);
  });

  it('a dry run writes nothing and reports what the rewind then does', async () => {
    ws.write('a.txt', 'v0\n');
    const s = session('agent');
    const cp = await s.checkpoints.create();
    await ok(s.edit.execute({ file_path: 'a.txt', old_string: 'v0', new_string: 'v1\nmore' }));
    await ok(s.create.execute({ file_path: 'b.txt', content: 'b\n' }));
    const dry = await s.checkpoints.rewind(cp.id, { dryRun: true });
    expect(dry.ok, dry.text).toBe(true);
    expect(dry.text).toMatch(/Nothing was written \(dry run\)/);
    expect(dry.checkpoint ?? null).toBeNull();
    expect([ws.read('a.txt'), ws.read('b.txt')]).toEqual(['v1\nmore\n', 'b\n']);
    expect((await s.checkpoints.list()).length).toBe(1);
    const done = await s.checkpoints.rewind(cp.id);
    for (const key of ['filesChanged', 'insertions', 'deletions', 'files', 'conflicts']) expect(done[key]).toEqual(dry[key]);
    expect(text('b.txt')).toBeUndefined();
  });

  it('a file changed by someone else refuses the whole rewind; skip rewinds the rest', async () => {
    ws.write('a.txt', 'a0\n');
    ws.write('b.txt', 'b0\n');
    const s = session('agent');
    const cp = await s.checkpoints.create();
    await ok(s.edit.execute({ file_path: 'a.txt', old_string: 'a0', new_string: 'a1' }));
    await ok(s.edit.execute({ file_path: 'b.txt', old_string: 'b0', new_string: 'b1' }));
    ws.write('b.txt', 'b1\nthe user\n');
    const refused = await s.checkpoints.rewind(cp.id);
    expect(refused).toMatchObject({ ok: false, canRewind: false, kind: 'stale', filesChanged: 0 });
    expect(refused.error).toBe(refused.text);
    expect(refused.text).toMatch(/^Error: Cannot rewind to checkpoint .*b\.txt \(it changed since.*No file was changed/);
    expect(refused.conflicts.map((c) => c.path)).toEqual(['b.txt']);
    expect([ws.read('a.txt'), ws.read('b.txt')]).toEqual(['a1\n', 'b1\nthe user\n']);
    const skipped = await s.checkpoints.rewind(cp.id, { onConflict: 'skip' });
    expect(skipped.ok, skipped.text).toBe(true);
    expect(skipped.conflicts.map((c) => c.path)).toEqual(['b.txt']);
    expect([ws.read('a.txt'), ws.read('b.txt')]).toEqual(['a0\n', 'b1\nthe user\n']);
  });

  it('two sessions in one workspace never rewind each other', async () => {
    ws.write('a.txt', '0\n');
    ws.write('b.txt', '0\n');
    const one = session('one');
    const two = session('two');
    const cp = await one.checkpoints.create();
    await ok(one.edit.execute({ file_path: 'a.txt', old_string: '0', new_string: 'one' }));
    await ok(two.edit.execute({ file_path: 'b.txt', old_string: '0', new_string: 'two' }));
    const r = await one.checkpoints.rewind(cp.id);
    expect(r.ok, r.text).toBe(true);
    expect([ws.read('a.txt'), ws.read('b.txt')]).toEqual(['0\n', 'two\n']);
    const foreign = await two.checkpoints.rewind(cp.id);
    expect(foreign.ok).toBe(false);
    expect(foreign.text).toMatch(/belongs to another session/);
    expect(await two.checkpoints.list()).toEqual([]);
  });

  it('tools without a sessionId are this process\'s session', async () => {
    ws.write('a.txt', 'v0\n');
    const s = session(undefined);
    expect(s.checkpoints.sessionId).toBeUndefined();
    const cp = await s.checkpoints.create();
    await ok(s.edit.execute({ file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }));
    const r = await createCheckpoints(opts).rewind(cp.id);
    expect(r.ok, r.text).toBe(true);
    expect(ws.read('a.txt')).toBe('v0\n');
  });

  it('history: false is a configuration error; writes without history are never rewound', async () => {
    expect(() => createCheckpoints({ ...opts, history: false })).toThrow(/needs the undo history/);
    ws.write('a.txt', 'v0\n');
    const s = session('agent');
    const cp = await s.checkpoints.create();
    const off = editTool({ ...opts, history: false, sessionId: 'agent' });
    await ok(off.execute({ file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }));
    const r = await s.checkpoints.rewind(cp.id);
    expect(r.ok, r.text).toBe(true);
    expect(r.filesChanged).toBe(0);
    expect(ws.read('a.txt')).toBe('v1\n');
  });

  it('the MCP server serves checkpoint and rewind in its all preset', async () => {
    ws.write('a.txt', 'v0\n');
    const options = { root: ws.root, allowEdit: true, historyDir: opts.historyDir, sessionId: 'mcp' };
    const served = new Map(mcpTools({ ...options, tools: 'all' }).map((s) => [s.descriptor.name, s]));
    expect(served.get('rewind').descriptor.annotations.destructiveHint).toBe(true);
    expect(mcpTools({ ...options, tools: 'editing' }).map((s) => s.descriptor.name)).not.toContain('checkpoint');
    const taken = await served.get('checkpoint').tool.executeResult({ label: 'x' });
    expect(taken.ok, taken.text).toBe(true);
    const id = taken.text.match(/^Checkpoint ([0-9a-f]{32}) \("x"\) taken/)[1];
    await served.get('edit').tool.executeResult({ file_path: 'a.txt', old_string: 'v0', new_string: 'v1' });
    const dry = await served.get('rewind').tool.executeResult({ id, dry_run: true });
    expect(dry).toMatchObject({ ok: true, changedFiles: [] });
    expect(ws.read('a.txt')).toBe('v1\n');
    const r = await served.get('rewind').tool.executeResult({ id });
    expect(r).toMatchObject({ ok: true, changedFiles: ['a.txt'] });
    expect(ws.read('a.txt')).toBe('v0\n');
    expect((await served.get('rewind').tool.executeResult({})).text).toMatch(/^Error: id is required/);
  });

  it('bad input is answered, never thrown', async () => {
    const s = session('agent');
    const unknown = await s.checkpoints.rewind('0123456789abcdef0123456789abcdef');
    expect(unknown).toMatchObject({ ok: false, canRewind: false, kind: 'not_found' });
    expect(unknown.text).toMatch(/^Error: No checkpoint 0123456789abcdef0123456789abcdef/);
    const cp = await s.checkpoints.create();
    const bad = await s.checkpoints.rewind(cp.id, { onConflict: 'overwrite' });
    expect(bad).toMatchObject({ ok: false, kind: 'bad_param' });
    expect(bad.text).toMatch(/invalid onConflict "overwrite"/);
    const unusable = createCheckpoints({ ...opts, durability: 'sometimes' });
    await expect(unusable.create()).rejects.toThrow(/invalid durability option "sometimes"/);
    const answered = await unusable.rewind(cp.id);
    expect(answered).toMatchObject({ ok: false, canRewind: false, kind: 'bad_param', filesChanged: 0 });
    expect(answered.text).toMatch(/^Error: Cannot rewind: invalid durability option "sometimes"/);
  });
});
