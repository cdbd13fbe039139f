// MCP server: the SDK's own client starts `edit-engine mcp` over stdio, lists and calls the tools.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeWorkspace } from './support/workspace.mjs';
import { editSchema, createSchema } from '../lib/index.mjs';
import { mcpTools } from '../lib/mcp.mjs';

const bin = fileURLToPath(new URL('../bin/edit-engine.mjs', import.meta.url));

async function connect(root, extra = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--root', root, ...extra],
    stderr: 'pipe',
    // The SDK passes only a few variables by default; keep the run's undo-store folder.
    env: { ...process.env },
  });
  const client = new Client({ name: 'edit-engine-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

const text = (result) => result.content.map((c) => c.text).join('');

describe('MCP server over stdio', () => {
  let ws;
  let readOnly;
  let editing;
  beforeAll(async () => {
    ws = makeWorkspace('edit-engine-mcp-');
    ws.write('src/a.js', 'const a = 1;\nexport default a;\n');
    [readOnly, editing] = await Promise.all([connect(ws.root), connect(ws.root, ['--allow-edit'])]);
  });
  afterAll(async () => {
    await Promise.all([readOnly?.close(), editing?.close()]);
    ws?.cleanup();
  });

  it('reports its name and version', () => {
    expect(readOnly.getServerVersion()).toMatchObject({ name: 'edit-engine' });
  });

  it('lists only read-only tools without --allow-edit', async () => {
    const { tools } = await readOnly.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('view');
    for (const name of ['edit', 'create', 'multi_edit', 'edit_file', 'replace_in_file']) expect(names).not.toContain(name);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it('lists the editing tools with --allow-edit, with the JS tools\' schemas plus dry_run', async () => {
    const { tools } = await editing.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['view', 'edit', 'create', 'multi_edit', 'edit_file']) expect(byName[name]).toBeDefined();
    const withDryRun = (schema) => ({ ...schema, properties: { ...schema.properties, dry_run: { type: 'boolean', description: expect.any(String) } } });
    expect(byName.edit.inputSchema).toEqual(withDryRun(editSchema));
    expect(byName.create.inputSchema).toEqual(withDryRun(createSchema));
    expect(byName.edit.annotations.readOnlyHint).toBe(false);
  });

  it('edits a file and views the result', async () => {
    const edited = await editing.callTool({
      name: 'edit',
      arguments: { file_path: 'src/a.js', old_string: 'const a = 1;', new_string: 'const a = 2;' },
    });
    expect(edited.isError).toBe(false);
    expect(text(edited)).toBe('Successfully edited src/a.js (1 replacement)');
    expect(ws.read('src/a.js')).toBe('const a = 2;\nexport default a;\n');

    const viewed = await readOnly.callTool({ name: 'view', arguments: { path: 'src/a.js' } });
    expect(viewed.isError).toBe(false);
    expect(text(viewed)).toContain('     1\tconst a = 2;');
    const range = await readOnly.callTool({ name: 'view', arguments: { path: 'src/a.js', view_range: [2, 2] } });
    expect(text(range)).toContain('     2\texport default a;');
    expect(text(range)).not.toContain('const a');
  });

  it('views at most 100,000 characters, cut at a line end, unless the call asks for fewer', async () => {
    ws.write('long.txt', 'abcdefghij\n'.repeat(20_000));
    const whole = text(await readOnly.callTool({ name: 'view', arguments: { path: 'long.txt' } }));
    expect(whole).toMatch(/\n  5555\tabcdefghij\n\[truncated at line 5555 of 20000; view_range \[5556, -1\] shows more\]$/);
    const few = await readOnly.callTool({ name: 'view', arguments: { path: 'long.txt', max_characters: 40 } });
    expect(few.isError).toBe(false);
    expect(text(few)).toMatch(/\n     2\tabcdefghij\n\[truncated at line 2 of 20000; view_range \[3, -1\] shows more\]$/);
  });

  it('creates files through create', async () => {
    const created = await editing.callTool({ name: 'create', arguments: { file_path: 'src/b.js', content: 'b\n' } });
    expect(created.isError).toBe(false);
    expect(ws.read('src/b.js')).toBe('b\n');
    const listing = await readOnly.callTool({ name: 'view', arguments: { path: 'src' } });
    expect(text(listing)).toContain('src/b.js');
  });

  it('returns failures with isError: true and leaves the file unchanged', async () => {
    const failed = await editing.callTool({
      name: 'edit',
      arguments: { file_path: 'src/a.js', old_string: 'not in the file', new_string: 'x' },
    });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/^Error/);
    expect(ws.read('src/a.js')).toBe('const a = 2;\nexport default a;\n');
  });

  it('confines view and edit to the root', async () => {
    const outside = await readOnly.callTool({ name: 'view', arguments: { path: '/etc/hostname' } });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/outside|not allowed|allowed/i);
    const escape = await editing.callTool({ name: 'create', arguments: { file_path: '../escape.txt', content: 'x' } });
    expect(escape.isError).toBe(true);
  });

  it('refuses editing tools on a read-only server with a hint, and unknown tools', async () => {
    const refused = await readOnly.callTool({
      name: 'edit',
      arguments: { file_path: 'src/a.js', old_string: 'a', new_string: 'b' },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('--allow-edit');
    expect(ws.read('src/a.js')).toBe('const a = 2;\nexport default a;\n');
    const unknown = await readOnly.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('unknown tool');
  });

  it('view reports missing files and bad ranges as errors', async () => {
    const missing = await readOnly.callTool({ name: 'view', arguments: { path: 'src/missing.js' } });
    expect(missing.isError).toBe(true);
    const badRange = await readOnly.callTool({ name: 'view', arguments: { path: 'src/a.js', view_range: [5, 9] } });
    expect(badRange.isError).toBe(true);
    expect(text(badRange)).toContain('view_range');
  });
});

describe('MCP tool list follows the registry', () => {
  it('serves a tool as soon as its factory is exported (grep, replace_in_file)', () => {
    const fake = (name, access) => () => ({ name, description: name, inputSchema: { type: 'object', properties: {}, required: [] }, execute: async () => access });
    const factories = {
      viewTool: fake('view', 'read'),
      grepTool: fake('grep', 'read'),
      editTool: fake('edit', 'write'),
      replaceInFileTool: fake('replace_in_file', 'write'),
    };
    const ro = mcpTools({ root: '.', factories }).map((t) => t.tool.name);
    expect(ro).toEqual(['view', 'grep']);
    const rw = mcpTools({ root: '.', allowEdit: true, factories }).map((t) => t.tool.name);
    expect(rw).toEqual(['view', 'grep', 'edit', 'replace_in_file']);
  });
});

describe('MCP grep', () => {
  it('is served read-only and searches the root', async () => {
    const ws = makeWorkspace('edit-engine-mcp-grep-');
    ws.write('src/a.js', 'const needle = 1;\n');
    const client = await connect(ws.root);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('grep');
      const found = await client.callTool({ name: 'grep', arguments: { pattern: 'needle' } });
      expect(found.isError).toBe(false);
      expect(text(found)).toContain('needle');
    } finally {
      await client.close();
      ws.cleanup();
    }
  });
});

describe('MCP replace_in_file', () => {
  it('is served only with --allow-edit and edits', async () => {
    const ws = makeWorkspace('edit-engine-mcp-rif-');
    ws.write('a.txt', 'one\ntwo\n');
    const [ro, rw] = await Promise.all([connect(ws.root), connect(ws.root, ['--allow-edit'])]);
    try {
      expect((await ro.listTools()).tools.map((t) => t.name)).not.toContain('replace_in_file');
      expect((await rw.listTools()).tools.map((t) => t.name)).toContain('replace_in_file');
      const done = await rw.callTool({
        name: 'replace_in_file',
        arguments: { filePath: 'a.txt', replacements: [{ type: 'string', searchFor: 'two', replaceWith: 'three' }] },
      });
      expect(done.isError).toBe(false);
      expect(ws.read('a.txt')).toBe('one\nthree\n');
    } finally {
      await Promise.all([ro.close(), rw.close()]);
      ws.cleanup();
    }
  });
});

describe('MCP --require-read', () => {
  it('refuses an edit of a file not viewed yet, then allows it after a view', async () => {
    const ws = makeWorkspace('edit-engine-mcp-read-');
    ws.write('a.txt', 'alpha\n');
    const client = await connect(ws.root, ['--allow-edit', '--require-read']);
    try {
      const args = { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' };
      const refused = await client.callTool({ name: 'edit', arguments: args });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('has not been read');
      expect(ws.read('a.txt')).toBe('alpha\n');
      expect((await client.callTool({ name: 'view', arguments: { path: 'a.txt' } })).isError).toBe(false);
      const done = await client.callTool({ name: 'edit', arguments: args });
      expect(text(done)).toBe('Successfully edited a.txt (1 replacement)');
      expect(ws.read('a.txt')).toBe('beta\n');
    } finally {
      await client.close();
      ws.cleanup();
    }
  });
});
