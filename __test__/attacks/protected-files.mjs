// Protected means not shown: no tool, adapter, CLI or MCP path shows what a file under
// `protectedPaths` holds; the answer says the path is protected.
import { expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { viewTool, textEditorTool, grepTool, editTool, applyPatchTool } from '../../lib/index.mjs';
import { createTextEditorHandler } from '../../lib/anthropic.mjs';

const bin = fileURLToPath(new URL('../../bin/edit-engine.mjs', import.meta.url));
const SECRET = 'API_KEY=hunter2';

/** A workspace with a protected `.env` and `secrets/` folder; the tool options protecting them. */
function secrets(ws) {
  ws.write('.env', `${SECRET}\n`);
  ws.write('secrets/key.txt', `${SECRET}\n`);
  ws.write('SECRETS/KEY.TXT', `${SECRET}\n`);
  ws.write('src/app.js', 'const app = 1;\n');
  return { allowedFolders: [ws.root], cwd: ws.root, protectedPaths: ['.env', 'secrets/**'] };
}

/** The answer names the path as protected and shows nothing of the secret. */
function hidden(text) {
  expect(text).toMatch(/^Error: Permission denied - .* is a protected path .*not shown/);
  expect(text).not.toContain('hunter2');
}

async function viaMcp(ws, name, args) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--root', ws.root, '--protect', '.env', '--protect', 'secrets/**'],
    stderr: 'pipe',
    env: { ...process.env },
  });
  const client = new Client({ name: 'attack', version: '0.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError, text: result.content.map((c) => c.text).join('') };
  } finally {
    await client.close();
  }
}

export default {
  category: 'protected files are not shown',
  attacks: [
    {
      name: 'viewTool on a protected file',
      run: async (ws) => hidden(await viewTool(secrets(ws)).execute({ path: '.env' })),
    },
    {
      name: 'viewTool on a case variant of a protected folder (SECRETS/KEY.TXT for secrets/**)',
      run: async (ws) => hidden(await viewTool(secrets(ws)).execute({ path: 'SECRETS/KEY.TXT' })),
    },
    {
      name: 'viewTool with a view_range on a protected file',
      run: async (ws) => hidden(await viewTool(secrets(ws)).execute({ path: '.env', view_range: [1, 1] })),
    },
    {
      name: 'the text editor view of every generation',
      run: async (ws) => {
        const options = secrets(ws);
        for (const version of ['20250124', '20250429', '20250728']) {
          hidden(await textEditorTool({ ...options, version }).execute({ command: 'view', path: ws.path('secrets/key.txt') }));
        }
      },
    },
    {
      name: 'view through a symlink that points at a protected file',
      run: async (ws) => {
        const options = secrets(ws);
        symlinkSync(ws.path('.env'), ws.path('src/config'));
        hidden(await viewTool(options).execute({ path: 'src/config' }));
      },
    },
    {
      name: 'view of a protected folder and of a folder whose entries are protected',
      run: async (ws) => {
        const options = secrets(ws);
        mkdirSync(ws.path('secrets/inner'));
        const listed = await viewTool(options).execute({ path: 'secrets' });
        expect(listed).not.toMatch(/key\.txt|inner/);
        hidden(await viewTool({ ...options, protectedPaths: ['secrets/'] }).execute({ path: 'secrets' }));
      },
    },
    {
      name: 'a listing of the workspace leaves protected names out',
      run: async (ws) => {
        const text = await viewTool(secrets(ws)).execute({ path: '.' });
        expect(text).toContain('src/app.js');
        expect(text).not.toMatch(/secrets\/key\.txt|\.env/);
      },
    },
    {
      name: 'grep for the secret',
      run: async (ws) => {
        const text = await grepTool(secrets(ws)).execute({ pattern: 'API_KEY', path: '.' });
        expect(text).toMatch(/^No matches found/);
        expect(text).not.toContain('hunter2');
      },
    },
    {
      name: "an edit's not-found context and a patch's context on a protected file",
      run: async (ws) => {
        const options = secrets(ws);
        const edited = await editTool(options).execute({ file_path: '.env', old_string: 'API_KEY=hunter', new_string: 'x' });
        const patched = await applyPatchTool(options).execute({ input: '*** Begin Patch\n*** Update File: .env\n@@\n-API_KEY=nope\n+x\n*** End Patch' });
        for (const text of [edited, patched]) {
          expect(text).toMatch(/is a protected path/);
          expect(text).not.toContain('hunter2');
        }
      },
    },
    {
      name: "the Anthropic handler's view",
      run: async (ws) => {
        const handler = createTextEditorHandler(secrets(ws));
        const result = await handler.handle({ type: 'tool_use', id: 't1', name: 'str_replace_based_edit_tool', input: { command: 'view', path: '.env' } });
        expect(result.is_error).toBe(true);
        hidden(String(result.content));
      },
    },
    {
      name: 'edit-engine view --protect .env',
      run: async (ws) => {
        secrets(ws);
        const out = spawnSync(process.execPath, [bin, 'view', '--root', ws.root, '--protect', '.env', '--json', '{"path":".env"}'], { encoding: 'utf8' });
        expect(out.status).toBe(1);
        hidden(out.stdout);
      },
    },
    {
      name: 'edit-engine mcp --protect .env, then view',
      run: async (ws) => {
        secrets(ws);
        const { isError, text } = await viaMcp(ws, 'view', { path: '.env' });
        expect(isError).toBe(true);
        hidden(text);
      },
    },
  ],
};
