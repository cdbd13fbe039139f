'use strict';
// Edits f0.txt..f19.txt under <root> (`value i` -> `new i`) at once, prints the answers as JSON
// and calls process.exit(0) right away: the writes must all be in place, flushed at exit.
const { editTool } = require('../../lib/index.cjs');

const root = process.argv[2];
const edit = editTool({ allowedFolders: [root], cwd: root });
Promise.all(Array.from({ length: 20 }, (_, i) => edit.execute({ file_path: `f${i}.txt`, old_string: `value ${i}`, new_string: `new ${i}` }))).then(
  (answers) => {
    process.stdout.write(JSON.stringify(answers));
    process.exit(0);
  },
);
