// Applies multi-file patches (and undoes some) in a loop until killed (the multi-file crash test
// SIGKILLs it at random moments).
//
//   node patch-crash-worker.cjs <root> <historyDir> <seed>
//
// Every patch inserts the same new id line before `END` in p0.txt, p1.txt and p2.txt, adds
// x.txt when it is absent or deletes it when present, and moves mv-a.txt to mv-b.txt (or back)
// inserting the id there too. So after n patches every p file and the moved file hold the same n
// ids, x.txt exists when n is odd, and the moved file is mv-b.txt when n is odd. An undo of any
// file reverts the whole last patch. At most 40 patches (below the history's 50 levels per file),
// then it idles. Prints "ready" after its first patch. Before each patch or undo it appends to
// <root>/journal the number of patches of the earlier of the two states that operation goes
// between, so a test that finds the files half-way knows which state an undo must bring back.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const lib = require('../../lib/index.cjs');

const [root, historyDir, seedArg] = process.argv.slice(2);
const opts = { allowedFolders: [root], cwd: root, historyDir };
const tool = lib.applyPatchTool(opts);
let seed = Number(seedArg) >>> 0;
const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const exists = (rel) => fs.existsSync(path.join(root, rel));
const insert = (id) => ['@@', '-END', `+${id}`, '+END'];

function patchFor(id) {
  const lines = ['*** Begin Patch'];
  for (const p of ['p0.txt', 'p1.txt', 'p2.txt']) lines.push(`*** Update File: ${p}`, ...insert(id));
  if (exists('x.txt')) lines.push('*** Delete File: x.txt');
  else lines.push('*** Add File: x.txt', `+${id}`);
  const [from, to] = exists('mv-a.txt') ? ['mv-a.txt', 'mv-b.txt'] : ['mv-b.txt', 'mv-a.txt'];
  lines.push(`*** Update File: ${from}`, `*** Move to: ${to}`, ...insert(id));
  lines.push('*** End Patch');
  return lines.join('\n');
}

(async () => {
  let applied = 0;
  for (let i = 0; ; i++) {
    if (applied > 0 && rand() < 0.3) {
      fs.appendFileSync(path.join(root, 'journal'), `${applied - 1}\n`);
      const r = await lib.undoLastEdit(`p${i % 3}.txt`, opts);
      if (!/undone successfully/.test(r)) process.stdout.write(`failed: undo: ${r}\n`);
      applied--;
      continue;
    }
    if (applied >= 40) {
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    fs.appendFileSync(path.join(root, 'journal'), `${applied}\n`);
    const r = await tool.execute({ input: patchFor(`${process.pid}-${i}`) });
    if (!r.startsWith('Success')) process.stdout.write(`failed: ${r}\n`);
    if (applied++ === 0) process.stdout.write('ready\n');
  }
})();
