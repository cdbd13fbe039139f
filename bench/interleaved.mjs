// The edit rows of the benches that take turns call by call (bench/ab.mjs, bench/disk-ratio.mjs):
// each build's tools in a folder of its own, and per row an untimed `prepare(side)` (restoring
// the file, as bench/run.mjs does) and a timed `call(side)`. Also Node's own read + write + fsync,
// the in-process baseline bench/run.mjs shows too.

import fs from 'node:fs';
import path from 'node:path';
import { editRows, generateSource } from './gen.mjs';

export const KB = 1024;
export const MB = 1024 * KB;

export const now = () => Number(process.hrtime.bigint()) / 1e6;

export const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor((s.length - 1) / 2)];
};

/** Rewrites `file` with `bytes` and fsyncs it. */
export function restore(file, bytes) {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** fsyncs the folder `dir` (the entries written in it are then durable). */
export function syncDir(dir) {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Node's own read + write + fsync of `file`, in place (the in-process baseline). */
export function nodeReadWriteFsync(file) {
  const bytes = fs.readFileSync(file);
  restore(file, bytes);
}

/** [`nodeReadWriteFsync`] through `fs.promises` (for many files at once). */
export async function nodeReadWriteFsyncAsync(file) {
  const bytes = await fs.promises.readFile(file);
  const fh = await fs.promises.open(file, 'w');
  try {
    await fh.write(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** One build's tools (`lib` is its lib/index.mjs) in the folder `<work>/<name>`, made with `extra` options. */
export function sideOf(name, lib, work, extra = {}) {
  const dir = path.join(work, name);
  fs.mkdirSync(path.join(dir, 'concurrent'), { recursive: true });
  const opts = { allowedFolders: [dir], cwd: dir, ...extra };
  return {
    name,
    dir,
    /** Waits until this build's background work (queued folder syncs, undo-level syncs) is done. */
    settle: () => lib.flushWritesAsync(),
    edit: lib.editTool(opts),
    strict: lib.editTool({ ...opts, durability: 'strict' }),
    create: lib.createTool(opts),
  };
}

let written = 0;

/**
 * `text` with a tag unique to this call (same length every call): a real edit leaves a content the
 * undo store has not seen, whose blob is written; repeating one edit's result would hide that.
 */
export function unique(text) {
  written = (written + 1) % 1e6;
  return `${text} // ${String(written).padStart(6, '0')}`;
}

/**
 * The rows of one size: the four edit modes of `editRows`, the strict exact edit and create.
 * Each row carries `bytes` (the file's content before the call, or the created content), `file`
 * (its name in a side's folder) and `target` (the bench/README.md speed target over the native
 * atomic write of the same bytes).
 */
export function rowsFor(label, bytes, computeLineHash) {
  const { text, units } = generateSource(bytes, 'js');
  const buf = Buffer.from(text);
  const file = `src_${bytes}.js`;
  const target = bytes <= KB ? 1.1 : 1.15;
  const restoreFile = (s) => restore(path.join(s.dir, file), buf);
  const modes = editRows(text, units, computeLineHash);
  const edits = modes.map((r) => ({
    row: r.mode,
    size: label,
    bytes: buf,
    file,
    target,
    prepare: restoreFile,
    call: (s) => s.edit.execute({ file_path: file, ...r.params, new_string: unique(r.params.new_string) }),
  }));
  edits.push({
    row: 'exact edit (durability: strict)',
    size: label,
    bytes: buf,
    file,
    target,
    prepare: restoreFile,
    call: (s) => s.strict.execute({ file_path: file, ...modes[0].params, new_string: unique(modes[0].params.new_string) }),
  });
  const created = `new_${bytes}.js`;
  edits.push({
    row: 'create',
    size: label,
    bytes: buf,
    file: created,
    target,
    // The removal is made durable here, so the timed create's own syncs do not commit it.
    prepare: (s) => {
      fs.rmSync(path.join(s.dir, created), { force: true });
      syncDir(s.dir);
    },
    call: (s) => s.create.execute({ file_path: created, content: unique(text) }),
  });
  return edits;
}

/** `files` distinct 1 KB files in a side's `concurrent/` folder, one exact edit each, all at once. */
export function concurrentRow(computeLineHash, files = 1000) {
  const { text, units } = generateSource(KB, 'js');
  const params = editRows(text, units, computeLineHash)[0].params;
  const names = Array.from({ length: files }, (_, i) => `c${i}.js`);
  // Distinct files hold distinct contents (each one's previous content is a blob of its own).
  const contents = names.map((n) => Buffer.from(`// ${n}\n${text}`));
  const buf = contents[0];
  return {
    row: `${files} concurrent edits`,
    size: `${files} x 1 KB`,
    reps: 10,
    bytes: buf,
    names,
    target: 1.1,
    prepare: (s) => {
      const dir = path.join(s.dir, 'concurrent');
      fs.mkdirSync(dir, { recursive: true });
      names.forEach((n, i) => restore(path.join(dir, n), contents[i]));
      syncDir(dir);
    },
    call: (s) => Promise.all(names.map((n) => s.edit.execute({ file_path: `concurrent/${n}`, ...params, new_string: unique(params.new_string) }))),
  };
}

/** Why a tool's reply (or replies) is not a success, or `undefined`. */
export function failureOf(reply) {
  const text = [reply].flat().find((t) => !String(t).startsWith('Success'));
  return text === undefined ? undefined : String(text).slice(0, 200);
}
