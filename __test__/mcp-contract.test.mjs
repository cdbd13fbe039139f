// What the MCP server promises in tools/list: annotations that say what each tool may do, and
// schemas that state additionalProperties at every object level.
import { describe, it, expect, afterEach } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../lib/mcp.mjs';
import { makeWorkspace } from './support/workspace.mjs';

export async function listedTools(root, options = {}) {
  const server = createMcpServer({ root, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'contract-test', version: '0.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const { tools } = await client.listTools();
  return { client, tools, close: () => Promise.all([client.close(), server.close()]) };
}

/** Paths of object schemas under `schema` that do not state additionalProperties. */
function openObjects(schema, at = '') {
  if (!schema || typeof schema !== 'object') return [];
  const here = schema.type === 'object' && !('additionalProperties' in schema) ? [at || '/'] : [];
  return here.concat(Object.entries(schema).flatMap(([k, v]) => openObjects(v, `${at}/${k}`)));
}

describe('MCP tools/list contract', () => {
  let ws;
  let session;
  afterEach(async () => {
    await session?.close();
    ws?.cleanup();
  });

  it('read tools are read-only and idempotent; every write tool is marked destructive', async () => {
    ws = makeWorkspace('edit-engine-mcp-contract-');
    session = await listedTools(ws.root, { allowEdit: true });
    const byName = Object.fromEntries(session.tools.map((t) => [t.name, t.annotations]));
    for (const name of ['view', 'grep']) {
      expect(byName[name]).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    }
    for (const name of ['edit', 'create', 'multi_edit', 'edit_file', 'replace_in_file', 'str_replace_based_edit_tool']) {
      expect(byName[name]).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    }
  });

  it('every schema states additionalProperties at every object level', async () => {
    ws = makeWorkspace('edit-engine-mcp-contract-');
    session = await listedTools(ws.root, { allowEdit: true });
    expect(session.tools.length).toBeGreaterThanOrEqual(8);
    for (const tool of session.tools) expect([tool.name, openObjects(tool.inputSchema)]).toEqual([tool.name, []]);
    const top = session.tools.map((t) => [t.name, t.inputSchema.additionalProperties]);
    expect(top.every(([, v]) => v === false)).toBe(true);
  });
});
