// Edits and undoes one file in a loop until killed (the undo crash test SIGKILLs it at random
// moments).
//
//   node undo-crash-worker.cjs <root> <historyDir> <seed>
//
// The file is a list of unique id lines followed by `END`. An edit inserts a new id before `END`
// (rotating tools: edit text mode, edit_file, create with overwrite); an undo must take exactly the
// last id away. Prints "ready" after its first edit.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const lib = require('../../lib/index.cjs');

const [root, historyDir, seedArg] = process.argv.slice(2);
const opts = { allowedFolders: [root], cwd: root, historyDir };
const edit = lib.editTool(opts);
const editFile = lib.editFileTool(opts);
const create = lib.createTool(opts);
const file = path.join(root, 'f.txt');
let seed = Number(seedArg) >>> 0;
const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);

async function step(i) {
  const id = `${process.pid}-${i}`;
  if (i > 0 && rand() < 0.4) return lib.undoLastEdit('f.txt', opts);
  switch (i % 3) {
    case 0: return edit.execute({ file_path: 'f.txt', old_string: 'END\n', new_string: `${id}\nEND\n` });
    case 1: return editFile.execute({ path: 'f.txt', old_text: 'END\n', new_text: `${id}\nEND\n` });
    default: {
      const now = fs.readFileSync(file, 'utf8');
      return create.execute({ file_path: 'f.txt', content: now.replace(/END\n$/, `${id}\nEND\n`), overwrite: true });
    }
  }
}

(async () => {
  for (let i = 0; ; i++) {
    const r = await step(i);
    if (i === 0) process.stdout.write(r.startsWith('Error') ? `failed: ${r}\n` : 'ready\n');
  }
})();
