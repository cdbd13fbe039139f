// Runs one edit tool call in a separate process (used to run as an unprivileged user when the
// tests run as root) and prints the result string as JSON.
const { editTool } = require('../../lib/index.cjs');

const [root, paramsJson] = process.argv.slice(2);
editTool({ allowedFolders: [root], cwd: root })
  .execute(JSON.parse(paramsJson))
  .then((result) => process.stdout.write(JSON.stringify(result)));
