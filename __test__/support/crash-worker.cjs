// Edits files in a loop until killed (the crash test SIGKILLs it at random moments).
//
//   node crash-worker.cjs <root> '<json [{ rel, size }]>'
//
// Every edit flips one file's marker `gen N` -> `gen N+1`, by a rotating tool (edit text mode,
// edit line mode, edit_file, multi_edit, atomic multi_edit, create with overwrite). After one
// successful edit of every file it prints "ready" (by then each directory has had a successful
// write in this process, which queues the cleaning of stale temp files there; "ready" waits for it). Two lanes edit
// disjoint files at the same time, so several writes are in flight at a kill.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const lib = require('../../lib/index.cjs');
const { layout, parseGeneration } = require('./generations.cjs');

const [root, filesJson] = process.argv.slice(2);
const files = JSON.parse(filesJson).map((f) => {
  const lay = layout(f.rel, f.size);
  const gen = parseGeneration(lay, fs.readFileSync(path.join(root, f.rel), 'utf8'));
  if (gen < 0) throw new Error(`${f.rel} is torn at start`);
  return { ...f, lay, gen };
});
const opts = { allowedFolders: [root], cwd: root };
const edit = lib.editTool(opts);
const create = lib.createTool(opts);
const multi = lib.multiEditTool(opts);
const editFile = lib.editFileTool(opts);

function call(f, step) {
  const old = `gen ${f.gen}\n`;
  const neu = `gen ${f.gen + 1}\n`;
  switch (step % 6) {
    case 0: return edit.execute({ file_path: f.rel, old_string: old, new_string: neu });
    case 1: return edit.execute({ file_path: f.rel, start_line: String(f.lay.markerLine), new_string: `gen ${f.gen + 1}` });
    case 2: return editFile.execute({ path: f.rel, old_text: old, new_text: neu });
    case 3: return multi.execute({ edits: [{ file_path: f.rel, old_string: old, new_string: neu }] });
    case 4: return multi.execute({ atomic: true, edits: [{ file_path: f.rel, old_string: old, new_string: neu }] });
    default: return create.execute({ file_path: f.rel, content: f.lay.content(f.gen + 1), overwrite: true });
  }
}

const ok = (r) => /^(Successfully|Replaced 1 occurrence|Multi-edit: 1\/1 succeeded)/.test(r);

async function editOnce(f, step) {
  const r = await call(f, step);
  if (!ok(r)) {
    process.stderr.write(`edit of ${f.rel} failed: ${r}\n`);
    process.exit(3);
  }
  f.gen++;
}

async function main() {
  let step = Math.floor(Math.random() * 6);
  for (const f of files) await editOnce(f, step++);
  lib.flushWrites(); // the stale-temp scans queued by those writes have run
  process.stdout.write('ready\n');
  const lane = async (mine) => {
    for (;;) await editOnce(mine[Math.floor(Math.random() * mine.length)], step++);
  };
  await Promise.all([lane(files.filter((_, i) => i % 2 === 0)), lane(files.filter((_, i) => i % 2 === 1))]);
}

main();
