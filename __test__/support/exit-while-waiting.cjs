// Starts edits of `file` that wait on a lock held elsewhere (lockTimeoutMs: the 4th argument,
// default 10 minutes), prints "waiting" once they are queued, then calls process.exit(0) with
// every one still pending.
const { editTool } = require('../../lib/index.cjs');

const [root, file, count, lockMs = '600000'] = process.argv.slice(2);
const edit = editTool({ allowedFolders: [root], cwd: root, lockTimeoutMs: Number(lockMs) });
for (let i = 0; i < Number(count); i++) {
  edit.execute({ file_path: file, old_string: `line ${i}\n`, new_string: `edited ${i}\n` });
}
setTimeout(() => {
  process.stdout.write('waiting\n');
  process.exit(0);
}, 300);
