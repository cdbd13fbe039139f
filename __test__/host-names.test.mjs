// Host-aware messages: a failure that points the model to another tool names a tool the host
// serves. Probe's names stay the default for the tools used alone.
import { describe, it, expect, afterEach } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../lib/mcp.mjs';
import { FileTracker, editTool, grepTool } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

/** Every edit failure that points to another tool, as edit parameters. */
const POINTING_FAILURES = [
  { file_path: 'missing.js', old_string: 'a', new_string: 'b' }, // file not found: search / create
  { file_path: 'src/a.js', new_string: 'b' }, // no mode: extract/search output
  { file_path: 'src/a.js', old_string: 'nowhere to be found', new_string: 'b' }, // search or extract
  { file_path: 'src/a.js', start_line: '99', new_string: 'b' }, // line beyond the file: extract
  { file_path: 'src/a.js', symbol: 'noSuchSymbol', new_string: 'b' }, // symbol not found: search or extract
  { file_path: 'src/b.js', old_string: 'b = 2', new_string: 'b = 3' }, // not read (fileTracker): extract tool
];

/** Probe's tool names as words in a message, minus those the host lists. */
function unlistedNames(text, listed) {
  const probe = ['extract', 'search', 'create'];
  return probe.filter((n) => !listed.includes(n) && new RegExp(`(^|[^\\w-])'?${n}'?( tool|[ /]|$)`, 'm').test(text) && /\b(Use|from)\b/.test(text));
}

async function serve(root, options) {
  const server = createMcpServer({ root, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'names-test', version: '0.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const listed = (await client.listTools()).tools.map((t) => t.name);
  return { client, listed, close: () => Promise.all([client.close(), server.close()]) };
}

describe('host-aware messages', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  const workspace = () => {
    ws = makeWorkspace('edit-engine-names-');
    ws.write('src/a.js', 'export function a() {\n  return 1;\n}\n');
    ws.write('src/b.js', 'const b = 2;\n');
    return ws;
  };

  it('no failure reachable through MCP names a tool the server does not list', async () => {
    workspace();
    const fileTracker = new FileTracker();
    fileTracker.markFileSeen(ws.path('src/a.js'));
    const { client, listed, close } = await serve(ws.root, { allowEdit: true, fileTracker });
    try {
      const texts = [];
      for (const args of POINTING_FAILURES) {
        const r = await client.callTool({ name: 'edit', arguments: args });
        expect(r.isError).toBe(true);
        texts.push(r.content[0].text);
      }
      const multi = await client.callTool({ name: 'multi_edit', arguments: { edits: POINTING_FAILURES } });
      texts.push(multi.content[0].text);
      for (const text of texts) expect([text, unlistedNames(text, listed)]).toEqual([text, []]);
      // They point to the host's tools instead.
      expect(texts[0]).toContain("Use 'grep' to find files, or 'create' to make a new file.");
      expect(texts[2]).toContain("Use 'grep' or 'view' to read");
      expect(texts[5]).toContain('Use the view tool with path="src/b.js" to read the file first');
    } finally {
      await close();
    }
  });

  it('the same failures through the tool used alone keep Probe\'s names', async () => {
    workspace();
    const edit = editTool({ allowedFolders: [ws.root], cwd: ws.root });
    const text = await edit.execute(POINTING_FAILURES[2]);
    expect(text).toContain("Use 'search' or 'extract' to read");
    const named = editTool({ allowedFolders: [ws.root], cwd: ws.root, toolNames: { read: 'read_file', search: null } });
    expect(await named.execute(POINTING_FAILURES[2])).toContain("Use 'read_file' to read");
  });

  it('a host without a search or create tool gets sentences without them', async () => {
    workspace();
    const edit = editTool({ allowedFolders: [ws.root], cwd: ws.root, toolNames: { read: 'view', search: null, create: null } });
    expect(await edit.execute(POINTING_FAILURES[0])).toBe('Error editing file: File not found - missing.js. Verify the path is correct and the file exists.');
    expect(await edit.execute(POINTING_FAILURES[2])).toContain("Try: (1) Use 'view' to read the current file");
    expect(await edit.execute(POINTING_FAILURES[1])).toContain('a line number from view output (e.g. "42"');
  });

  it('text the engine did not write is never renamed: a search hit keeps Probe\'s words', async () => {
    workspace();
    ws.write('docs/howto.md', "Use 'extract' to read a file.\nUse the extract tool with targets=\"x.js\" to read it\n");
    const grep = grepTool({ allowedFolders: [ws.root], cwd: ws.root, toolNames: { read: 'view', search: 'grep', create: null } });
    const text = await grep.execute({ pattern: 'extract', path: 'docs' });
    expect(text).toContain("Use 'extract' to read a file.");
    expect(text).toContain('Use the extract tool with targets="x.js" to read it');
  });

  it('a path holding "#" is named whole when the host\'s read tool is pointed to', async () => {
    workspace();
    ws.write('src/a#b.js', 'const x = 1;\n');
    const fileTracker = new FileTracker();
    const edit = editTool({ allowedFolders: [ws.root], cwd: ws.root, fileTracker, toolNames: { read: 'view', search: 'grep', create: 'create' } });
    const text = await edit.execute({ file_path: 'src/a#b.js', old_string: 'x = 1', new_string: 'x = 2' });
    expect(text).toContain('Use the view tool with path="src/a#b.js" to read the file first');
  });
});
