// Rewinds a session's files back and forth until killed (the rewind crash test SIGKILLs it at
// random moments).
//
//   node rewind-crash-worker.cjs <root> <historyDir> <sessionId> <checkpointId>
//
// Rewinds to <checkpointId>, then to the checkpoint that rewind returned (the files' edited
// state), and so on. Prints "ready" after its first rewind; "failed: ..." when one is refused.
'use strict';
const lib = require('../../lib/index.cjs');

const [root, historyDir, sessionId, checkpointId] = process.argv.slice(2);
const checkpoints = lib.createCheckpoints({ allowedFolders: [root], cwd: root, historyDir, sessionId });

(async () => {
  let target = checkpointId;
  for (let i = 0; ; i++) {
    const r = await checkpoints.rewind(target);
    if (!r.ok) process.stdout.write(`failed: ${r.text}\n`);
    target = i % 2 === 0 ? r.checkpoint.id : checkpointId;
    if (i === 0) process.stdout.write('ready\n');
  }
})();
