// Jest: the adapters load from require() through the package's subpath exports and work there.
const { mkdtempSync, writeFileSync, readFileSync, rmSync, realpathSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

let dir;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-jest-adapters-')));
  writeFileSync(join(dir, 'a.txt'), 'one\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('edit-engine/mcp serves the tools to an in-memory MCP client', async () => {
  const { createMcpServer } = require('edit-engine/mcp');
  const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ root: dir, allowEdit: true });
  const client = new Client({ name: 'jest', version: '0.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['view', 'edit', 'create']));
    const done = await client.callTool({ name: 'edit', arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } });
    expect(done).toEqual({ content: [{ type: 'text', text: 'Successfully edited a.txt (1 replacement)' }], isError: false });
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('two\n');
  } finally {
    await client.close();
  }
});

test('edit-engine/ai and edit-engine/anthropic load from require()', async () => {
  const { createAiTools } = require('edit-engine/ai');
  const tools = createAiTools({ allowedFolders: [dir], cwd: dir, allowEdit: true });
  expect(await tools.edit.execute({ file_path: 'a.txt', old_string: 'one', new_string: 'three' }, { toolCallId: 'j', messages: [] })).toBe(
    'Successfully edited a.txt (1 replacement)',
  );
  const { textEditorToolResult } = require('edit-engine/anthropic');
  const result = await textEditorToolResult(
    { type: 'tool_use', id: 'toolu_j', name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'a.txt' } },
    { execute: async (input) => `viewed ${input.path}` },
  );
  expect(result).toEqual({ type: 'tool_result', tool_use_id: 'toolu_j', content: 'viewed a.txt' });
});
