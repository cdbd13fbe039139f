// FileReadTracker and ExternalModificationDetector, and the readTracker tool option.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { statSync, utimesSync, unlinkSync, writeFileSync } from 'node:fs';
import { createTool, editFileTool, editTool, multiEditTool, ExternalModificationDetector, FileReadTracker, FileTracker } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { asRuntimeMtime } from './support/mtime.mjs';

let ws;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const mtimeOf = (p) => statSync(p).mtimeMs;
const sha256 = (s) => createHash('sha256').update(s).digest('hex');
/** Moves a file's modification time by `seconds` without touching its content. */
const shiftMtime = (p, seconds) => {
  const st = statSync(p);
  utimesSync(p, st.atime, new Date(st.mtimeMs + seconds * 1000));
};

describe('FileReadTracker', () => {
  it('records reads and their modification times', () => {
    const t = new FileReadTracker();
    expect(t.hasBeenRead('/w/a.js')).toBe(false);
    expect(t.getReadTime('/w/a.js')).toBeUndefined();
    t.recordRead('/w/x/../a.js', 1234.5);
    expect(t.hasBeenRead('/w/a.js')).toBe(true);
    expect(t.getReadTime('/w/a.js')).toBe(1234.5);
    expect(t.size).toBe(1);
    t.clear();
    expect(t.hasBeenRead('/w/a.js')).toBe(false);
  });

  it('checks external modification against the recorded time', () => {
    const t = new FileReadTracker();
    const p = ws.write('a.txt', 'x');
    expect(t.checkExternalModification(p, mtimeOf(p))).toBe(false);
    t.recordRead(p, mtimeOf(p));
    expect(t.checkExternalModification(p, mtimeOf(p))).toBe(false);
    shiftMtime(p, 5);
    expect(t.checkExternalModification(p, mtimeOf(p))).toBe(true);
  });
});

describe('readTracker tool option', () => {
  let reads;
  let path;
  beforeEach(() => {
    reads = new FileReadTracker();
    path = ws.write('src/a.js', 'const a = 1;\nconst b = 2;\n');
  });
  const opts = () => ({ allowedFolders: [ws.root], cwd: ws.root, readTracker: reads });

  it('refuses a file that was never read', async () => {
    const out = await editTool(opts()).execute({ file_path: 'src/a.js', old_string: 'a = 1', new_string: 'a = 9' });
    expect(out).toBe('Error editing file: src/a.js has not been read yet in this session. Read (view) the file first, then retry your edit.');
    expect(await editFileTool(opts()).execute({ path: 'src/a.js', old_text: 'a = 1', new_text: 'a = 9' })).toMatch(/^Error: src\/a\.js has not been read yet/);
    expect(await createTool(opts()).execute({ file_path: 'src/a.js', content: 'x', overwrite: true })).toMatch(/^Error creating file: src\/a\.js has not been read yet/);
    expect(ws.read('src/a.js')).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('allows an edit after a read and chained edits after it', async () => {
    reads.recordRead(path, mtimeOf(path));
    const tool = editTool(opts());
    expect(await tool.execute({ file_path: 'src/a.js', old_string: 'a = 1', new_string: 'a = 10' })).toMatch(/^Successfully edited/);
    expect(asRuntimeMtime(reads.getReadTime(path))).toBe(mtimeOf(path));
    expect(await tool.execute({ file_path: 'src/a.js', old_string: 'b = 2', new_string: 'b = 20' })).toMatch(/^Successfully edited/);
    expect(await editFileTool(opts()).execute({ path: 'src/a.js', old_text: '10', new_text: '11' })).toBe('Replaced 1 occurrence');
    const multi = await multiEditTool(opts()).execute({ edits: [{ file_path: 'src/a.js', old_string: '11', new_string: '12' }, { file_path: 'src/a.js', old_string: '20', new_string: '21' }], atomic: true });
    expect(multi).toMatch(/^Multi-edit: 2\/2 succeeded/);
    expect(ws.read('src/a.js')).toBe('const a = 12;\nconst b = 21;\n');
  });

  it('refuses a file touched after the read (mtime only)', async () => {
    reads.recordRead(path, mtimeOf(path));
    shiftMtime(path, 10);
    const out = await editTool(opts()).execute({ file_path: 'src/a.js', old_string: 'a = 1', new_string: 'a = 9' });
    expect(out).toBe('Error editing file: src/a.js was modified externally since you last read it (its modification time changed). Re-read the file to see its current content, then retry your edit.');
    reads.recordRead(path, mtimeOf(path));
    expect(await editTool(opts()).execute({ file_path: 'src/a.js', old_string: 'a = 1', new_string: 'a = 9' })).toMatch(/^Successfully/);
  });

  it('refuses a file whose content changed after the read', async () => {
    reads.recordRead(path, mtimeOf(path));
    writeFileSync(path, 'const a = 1;\nconst b = 3; // changed\n');
    shiftMtime(path, 3);
    expect(await editFileTool(opts()).execute({ path: 'src/a.js', old_text: 'a = 1', new_text: 'a = 9' })).toMatch(/^Error: src\/a\.js was modified externally/);
    expect(await createTool(opts()).execute({ file_path: 'src/a.js', content: 'x', overwrite: true })).toMatch(/modified externally/);
    expect(ws.read('src/a.js')).toBe('const a = 1;\nconst b = 3; // changed\n');
  });

  it('lets create make a new file without a read, then records it', async () => {
    expect(await createTool(opts()).execute({ file_path: 'src/new.js', content: 'n' })).toMatch(/^Successfully created/);
    expect(asRuntimeMtime(reads.getReadTime(ws.path('src/new.js')))).toBe(mtimeOf(ws.path('src/new.js')));
  });

  it('leaves Probe fileTracker behaviour as it was', async () => {
    const fileTracker = new FileTracker();
    const out = await editTool({ ...opts(), readTracker: undefined, fileTracker }).execute({ file_path: 'src/a.js', old_string: 'a = 1', new_string: 'a = 9' });
    expect(out).toMatch(/^Error editing src\/a\.js: This file has not been read yet in this session\. Use the extract tool/);
  });

  it('rejects a readTracker that is not a FileReadTracker', async () => {
    const out = await editTool({ ...opts(), readTracker: {} }).execute({ file_path: 'src/a.js', old_string: 'a', new_string: 'b' });
    expect(out).toMatch(/^Error editing file: options\.readTracker must be a FileReadTracker/);
  });
});

describe('ExternalModificationDetector', () => {
  const detector = new ExternalModificationDetector();

  it('snapshots mtime, size and SHA-256', async () => {
    const p = ws.write('a.txt', 'hello');
    const snap = await detector.snapshot(p);
    expect({ ...snap, mtime: asRuntimeMtime(snap.mtime) }).toEqual({ path: p, mtime: mtimeOf(p), size: 5, hash: sha256('hello') });
  });

  it('reports an unchanged file as not modified', async () => {
    const p = ws.write('a.txt', 'hello');
    const snap = await detector.snapshot(p);
    expect(await detector.detect(p, snap)).toEqual({ modified: false, deleted: false, changes: { mtimeChanged: false, sizeChanged: false, contentChanged: false } });
  });

  it('reports a touched but identical file as not modified, mtime changed', async () => {
    const p = ws.write('a.txt', 'hello');
    const snap = await detector.snapshot(p);
    shiftMtime(p, 7);
    expect(await detector.detect(p, snap)).toEqual({ modified: false, deleted: false, changes: { mtimeChanged: true, sizeChanged: false, contentChanged: false } });
  });

  it('reports a size change', async () => {
    const p = ws.write('a.txt', 'hello');
    const snap = await detector.snapshot(p);
    writeFileSync(p, 'hello world');
    const r = await detector.detect(p, snap);
    expect(r.modified).toBe(true);
    expect(r.changes).toMatchObject({ sizeChanged: true, contentChanged: true });
  });

  it('reports a same-size content change', async () => {
    const p = ws.write('a.txt', 'hello');
    const snap = await detector.snapshot(p);
    writeFileSync(p, 'jello');
    shiftMtime(p, 2);
    expect(await detector.detect(p, snap)).toEqual({ modified: true, deleted: false, changes: { mtimeChanged: true, sizeChanged: false, contentChanged: true } });
  });

  it('takes the cheap path: same mtime and size means no hashing', async () => {
    const p = ws.write('a.txt', 'hello');
    const snap = await detector.snapshot(p);
    const fake = { ...snap, hash: 'not-the-hash' };
    expect((await detector.detect(p, fake)).modified).toBe(false);
  });

  it('reports a deleted file', async () => {
    const p = ws.write('a.txt', 'hello');
    const snap = await detector.snapshot(p);
    unlinkSync(p);
    expect(await detector.detect(p, snap)).toEqual({ modified: true, deleted: true, changes: { mtimeChanged: true, sizeChanged: true, contentChanged: true } });
  });

  it('throws on a snapshot of a missing file (snapshotAsync rejects)', async () => {
    expect(() => detector.snapshot(ws.path('none.txt'))).toThrow(/cannot snapshot .*none\.txt/);
    await expect(detector.snapshotAsync(ws.path('none.txt'))).rejects.toThrow(/cannot snapshot .*none\.txt/);
  });
});

describe('ExternalModificationDetector, as the spec writes it (synchronous)', () => {
  const detector = new ExternalModificationDetector();

  it("the spec's example warns once the file is rewritten, and not before", () => {
    const p = ws.write('file.ts', 'export const a = 1;\n');
    const warnings = [];
    const check = () => {
      const snapshot = detector.snapshot(p);
      return (change) => {
        change();
        const result = detector.detect(p, snapshot);
        if (result.modified) {
          warnings.push('File was modified externally!');
          if (result.changes.contentChanged) warnings.push('Content has changed - please re-read the file');
        }
      };
    };
    check()(() => {});
    expect(warnings).toEqual([]);
    check()(() => {
      writeFileSync(p, 'export const a = 2;\n');
      shiftMtime(p, 3);
    });
    expect(warnings).toEqual(['File was modified externally!', 'Content has changed - please re-read the file']);
  });

  it('snapshot and detect return values, not Promises; the async variants agree', async () => {
    const p = ws.write('a.txt', 'hello');
    const snap = detector.snapshot(p);
    expect(snap).not.toBeInstanceOf(Promise);
    expect({ ...snap, mtime: asRuntimeMtime(snap.mtime) }).toEqual({ path: p, mtime: mtimeOf(p), size: 5, hash: sha256('hello') });
    expect(await detector.snapshotAsync(p)).toEqual(snap);
    writeFileSync(p, 'hello!');
    const sync = detector.detect(p, snap);
    expect(sync).toEqual({ modified: true, deleted: false, changes: { mtimeChanged: sync.changes.mtimeChanged, sizeChanged: true, contentChanged: true } });
    expect(await detector.detectAsync(p, snap)).toEqual(sync);
  });
});
