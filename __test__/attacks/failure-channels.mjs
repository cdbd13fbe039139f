// Never an exception outside each framework's documented failure channel: Proxies, throwing
// getters and Symbols are answered, a schema-invalid LangChain call comes back as an error
// ToolMessage, and the MCP server answers an oversized message and goes on serving.
import { expect } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as engine from '../../lib/index.mjs';
import { createEditor } from '../../lib/openai.mjs';
import { createLangChainTools } from '../../lib/langchain.mjs';
import { createTextEditorHandler } from '../../lib/anthropic.mjs';
import { mcpTools } from '../../lib/mcp.mjs';

const bin = fileURLToPath(new URL('../../bin/edit-engine.mjs', import.meta.url));

/** A Proxy whose every trap throws. */
const hostile = () =>
  new Proxy({}, Object.fromEntries(['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf'].map((t) => [t, () => { throw new Error(`trap ${t}`); }])));

const TOOL_FACTORIES = ['editTool', 'createTool', 'multiEditTool', 'editFileTool', 'textEditorTool', 'viewTool', 'grepTool', 'replaceInFileTool', 'applyPatchTool', 'applyDiffTool'];

/** Sends raw lines to `edit-engine mcp` and collects its replies by id until `ids` are all answered. */
function mcpExchange(args, lines, ids) {
  const child = spawn(process.execPath, [bin, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env } });
  const replies = new Map();
  let buffered = '';
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) with ${[...replies.keys()]} answered`)));
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
        const reply = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        replies.set(reply.id, reply);
        if (ids.every((id) => replies.has(id))) {
          child.removeAllListeners('exit');
          child.kill();
          resolve(replies);
        }
      }
    });
    for (const line of lines) child.stdin.write(`${line}\n`);
  });
}

const rpc = (id, method, params = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const INIT = [rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attack', version: '0' } }), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })];

export default {
  category: 'never an exception outside the failure channel',
  attacks: [
    {
      name: 'view with Proxy params and with a throwing getter',
      run: async (ws) => {
        const view = engine.viewTool({ allowedFolders: [ws.root], cwd: ws.root });
        expect(await view.execute(hostile())).toMatch(/^Error: invalid parameters - /);
        expect(await view.execute({ get path() { throw new Error('getter'); } })).toMatch(/^Error: invalid parameters - getter/);
      },
    },
    {
      name: 'every tool with Proxy params answers an Error',
      run: async (ws) => {
        for (const name of TOOL_FACTORIES) {
          const text = await engine[name]({ allowedFolders: [ws.root], cwd: ws.root }).execute(hostile());
          expect(text, name).toMatch(/^Error/);
        }
      },
    },
    {
      name: 'every factory with Proxy options builds a tool whose calls answer an Error',
      run: async () => {
        for (const name of TOOL_FACTORIES) {
          const tool = engine[name](hostile());
          expect(await tool.execute({ path: 'a.txt', file_path: 'a.txt' }), name).toMatch(/^Error.*the tool options could not be read \(trap/);
        }
      },
    },
    {
      name: 'adapter factories with Proxy options do not throw',
      run: async () => {
        expect(createLangChainTools(hostile()).length).toBeGreaterThan(0);
        expect(mcpTools(hostile()).length).toBeGreaterThan(0);
        const handler = createTextEditorHandler(hostile());
        const result = await handler.handle({ type: 'tool_use', id: 't', name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'a.txt' } });
        expect(result.is_error).toBe(true);
      },
    },
    {
      name: 'undoLastEdit with Proxy options resolves to an Error',
      run: async () => {
        expect(await engine.undoLastEdit('a.txt', hostile())).toMatch(/^Error.*the tool options could not be read/);
      },
    },
    {
      name: "the OpenAI editor's deleteFile, createFile and updateFile with a Proxy operation",
      run: async (ws) => {
        const editor = createEditor({ allowedFolders: [ws.root], cwd: ws.root });
        for (const method of ['deleteFile', 'createFile', 'updateFile']) {
          const result = await editor[method](hostile());
          expect(result.status, method).toBe('failed');
          expect(result.output).toMatch(/^Error: the operation could not be read/);
        }
      },
    },
    {
      name: 'FileReadTracker methods given a Symbol',
      run: async () => {
        const tracker = new engine.FileReadTracker();
        expect(() => tracker.recordRead(Symbol('p'), 1)).not.toThrow();
        expect(tracker.size).toBe(0);
        expect(tracker.hasBeenRead(Symbol('p'))).toBe(false);
        expect(tracker.getReadTime(Symbol('p'))).toBeUndefined();
        expect(tracker.checkExternalModification(Symbol('p'), 1)).toBe(false);
      },
    },
    {
      name: 'LangChain: a tool call missing new_string comes back as an error ToolMessage',
      run: async (ws) => {
        ws.write('a.txt', 'one\n');
        const [edit] = createLangChainTools({ allowedFolders: [ws.root], cwd: ws.root, tools: ['edit'] });
        const message = await edit.invoke({ type: 'tool_call', id: 'call-1', name: 'edit', args: { file_path: 'a.txt', old_string: 'one' } });
        expect(message.status).toBe('error');
        expect(message.tool_call_id).toBe('call-1');
        expect(message.content).toMatch(/^Error: the edit call's arguments do not match its schema.*new_string/);
        expect(await edit.invoke({ file_path: 'a.txt', old_string: 'one' })).toMatch(/^Error: the edit call's arguments/);
        expect(ws.read('a.txt')).toBe('one\n');
      },
    },
    {
      name: 'MCP: a message over maxFileBytes + 1 MiB gets -32600 with its id, and serving goes on',
      run: async (ws) => {
        const big = rpc(7, 'tools/call', { name: 'view', arguments: { path: 'x'.repeat(2 * 1024 * 1024) } });
        const noId = `{"jsonrpc":"2.0","method":"tools/call","params":{"x":"${'y'.repeat(2 * 1024 * 1024)}"},"id":"tail"}`;
        const unreadable = `[${'1,'.repeat(1024 * 1024)}1]`;
        const replies = await mcpExchange(['--root', ws.root, '--max-file-bytes', '1000'], [...INIT, big, noId, unreadable, rpc(8, 'tools/list')], [1, 7, 'tail', null, 8]);
        for (const id of [7, 'tail', null]) {
          expect(replies.get(id).error.code, String(id)).toBe(-32600);
          expect(replies.get(id).error.message).toMatch(/over this server's limit of 1049576 bytes/);
        }
        expect(replies.get(8).result.tools.map((t) => t.name)).toContain('view');
      },
    },
  ],
};
