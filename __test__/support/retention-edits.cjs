'use strict';
// Child of history-retention.test.mjs: edits files in many temporary workspaces in turn, each
// tool using the default undo store (in $EDIT_ENGINE_HISTORY_ROOT) with historyMaxBytes = argv[4].
// After each edit it waits for any background collection and measures the root's disk use.
// Then removes all but every third workspace and prints { peak, edits, kept, removed } as JSON.
const { mkdtempSync, writeFileSync, rmSync, realpathSync, lstatSync, readdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { editTool } = require('../../lib/index.cjs');
const native = require('../../lib/native.cjs');

const [workspaceCount, rounds, cap] = process.argv.slice(2).map(Number);

/** Disk use (allocated blocks) of `path` and everything under it. */
function diskUse(path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  const own = stat.blocks * 512;
  if (!stat.isDirectory()) return own;
  return own + readdirSync(path).reduce((sum, name) => sum + diskUse(join(path, name)), 0);
}

async function main() {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-retention-ws-')));
  const workspaces = [];
  for (let i = 0; i < workspaceCount; i++) {
    const ws = join(parent, `ws${i}`);
    require('node:fs').mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'r0\n'.repeat(3000));
    workspaces.push({ ws, tool: editTool({ cwd: ws, allowedFolders: [ws], historyMaxBytes: cap }) });
  }
  let peak = 0;
  let edits = 0;
  for (let round = 0; round < rounds; round++) {
    for (const { tool } of workspaces) {
      const text = await tool.execute({ file_path: 'a.txt', old_string: `r${round}\n`, new_string: `r${round + 1}\n`, replace_all: true });
      if (!text.startsWith('Success')) throw new Error(text);
      edits++;
      native.settleHistoryCollection(120000);
      peak = Math.max(peak, diskUse(process.env.EDIT_ENGINE_HISTORY_ROOT));
    }
  }
  const kept = [];
  const removed = [];
  workspaces.forEach(({ ws }, i) => {
    if (i % 3 === 0) kept.push(ws);
    else {
      rmSync(ws, { recursive: true, force: true });
      removed.push(ws);
    }
  });
  process.stdout.write(JSON.stringify({ peak, edits, kept, removed, parent }));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
