// The "openai" tool set (view, grep, apply_patch) in every adapter and the MCP server: the tools
// chosen, in order, and an apply_patch call through each adapter's own calling convention.
import { describe, it, expect, afterEach } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Agent, Runner, setTracingDisabled } from '@openai/agents';
import { createAiTools } from '../lib/ai.mjs';
import { createLangChainTools } from '../lib/langchain.mjs';
import { createMastraTools } from '../lib/mastra.mjs';
import { createOpenAiTools, TOOL_PRESETS } from '../lib/openai.mjs';
import { mcpTools } from '../lib/mcp.mjs';
import { main } from '../lib/cli.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { functionCall, say, scriptedModel } from './support/openai-model.mjs';

setTracingDisabled(true);

const PATCH = '*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch';
const PATCHED = 'def f():\n    return 2\n';
const bin = fileURLToPath(new URL('../bin/edit-engine.mjs', import.meta.url));

describe('the "openai" preset', () => {
  let ws;
  const fresh = () => {
    ws = makeWorkspace('edit-engine-preset-');
    ws.write('a.py', 'def f():\n    return 1\n');
    return { allowedFolders: [ws.root], cwd: ws.root, tools: 'openai' };
  };
  afterEach(() => ws?.cleanup());

  it('is view, grep and apply_patch', () => {
    expect(TOOL_PRESETS.openai).toEqual(['view', 'grep', 'apply_patch']);
  });

  it('AI SDK: a ToolSet of the three whose apply_patch edits', async () => {
    const tools = createAiTools(fresh());
    expect(Object.keys(tools)).toEqual(['view', 'grep', 'apply_patch']);
    const out = await tools.apply_patch.execute({ input: PATCH }, { toolCallId: 't1', messages: [] });
    expect(out).toMatch(/^Success\. Patch applied to 1 file/);
    expect(ws.read('a.py')).toBe(PATCHED);
  });

  it('LangChain: structured tools whose apply_patch edits', async () => {
    const tools = createLangChainTools(fresh());
    expect(tools.map((t) => t.name)).toEqual(['view', 'grep', 'apply_patch']);
    expect(await tools[2].invoke({ input: PATCH })).toMatch(/^Success/);
    expect(ws.read('a.py')).toBe(PATCHED);
  });

  it('Mastra: tools keyed by name whose apply_patch edits', async () => {
    const tools = createMastraTools(fresh());
    expect(Object.keys(tools)).toEqual(['view', 'grep', 'apply_patch']);
    expect(await tools.apply_patch.execute({ input: PATCH }, {})).toMatch(/^Success/);
    expect(ws.read('a.py')).toBe(PATCHED);
  });

  it('OpenAI Agents SDK: a fake model calls apply_patch as a strict function tool', async () => {
    const options = fresh();
    const { model, requests } = scriptedModel([functionCall('c1', 'apply_patch', { input: PATCH }), say('done')]);
    const agent = new Agent({ name: 'patcher', instructions: 'patch', model, tools: createOpenAiTools(options) });
    const result = await new Runner().run(agent, 'Return 2.', { maxTurns: 4 });
    expect(result.finalOutput).toBe('done');
    expect(requests[0].tools.map((t) => [t.name, t.strict])).toEqual([['view', true], ['grep', true], ['apply_patch', true]]);
    expect(ws.read('a.py')).toBe(PATCHED);
  });

  it('MCP: mcpTools serves the set, its write tool only with allowEdit; a wrong --tools is a usage error', async () => {
    ws = makeWorkspace('edit-engine-preset-');
    expect(mcpTools({ root: ws.root, tools: 'openai', allowEdit: true }).map((t) => t.descriptor.name)).toEqual(['view', 'grep', 'apply_patch']);
    expect(mcpTools({ root: ws.root, tools: 'openai' }).map((t) => t.descriptor.name)).toEqual(['view', 'grep']);
    const patch = mcpTools({ root: ws.root, tools: 'openai', allowEdit: true })[2].descriptor;
    expect(patch.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const err = [];
    const io = { cwd: ws.root, stdout: () => {}, stderr: (s) => err.push(s), readStdin: async () => '' };
    expect(await main(['mcp', '--tools', 'opena'], io)).toBe(2);
    expect(err.join('')).toMatch(/--tools: unknown tool name "opena" in tools; the tools are view, grep/);
  });

  it('MCP over stdio: `edit-engine mcp --tools openai --allow-edit` lists and runs apply_patch', async () => {
    const options = fresh();
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--root', options.cwd, '--tools', 'openai', '--allow-edit'], stderr: 'pipe', env: { ...process.env } });
    const client = new Client({ name: 'edit-engine-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['view', 'grep', 'apply_patch']);
      const result = await client.callTool({ name: 'apply_patch', arguments: { input: PATCH } });
      expect(result.isError).toBe(false);
      expect(ws.read('a.py')).toBe(PATCHED);
      const refused = await client.callTool({ name: 'edit', arguments: { file_path: 'a.py', old_string: 'f', new_string: 'g' } });
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toMatch(/unknown tool "edit"/);
    } finally {
      await client.close();
    }
  });
});
