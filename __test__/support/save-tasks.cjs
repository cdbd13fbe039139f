// Child process for the concurrency test: saves `count` tasks with ids `<prefix>-<i>` to `file`.
const { BackgroundTaskPersistence } = require('../../lib/index.cjs');

async function main() {
  const [file, prefix, count] = process.argv.slice(2);
  const store = new BackgroundTaskPersistence({ filePath: file });
  for (let i = 0; i < Number(count); i++) {
    await store.save({ id: `${prefix}-${i}`, type: 'shell', pid: process.pid, startTime: Date.now(), workingDirectory: '/', sessionId: prefix });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
