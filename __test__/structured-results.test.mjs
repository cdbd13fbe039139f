// Structured results: every tool's `executeResult` resolves to `{ ok, text, changedFiles }` and the
// adapters (MCP, AI SDK, Anthropic, CLI) decide success from `ok`. A successful grep whose first
// hit is a file under `ErrorHandling/` starts with "Error" and must not be reported as a failure.
import { describe, it, expect, afterEach } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createMcpServer } from '../lib/mcp.mjs';
import { createAiTools } from '../lib/ai.mjs';
import { editTool, createTool, grepTool, multiEditTool, textEditorTool, undoLastEditResult, applyPatchTool, applyDiffTool, replaceInFileTool } from '../lib/index.mjs';
import { TOOL_ENTRIES, buildTool, rootOptions } from '../lib/registry.cjs';
import { makeWorkspace, referenceLineHash } from './support/workspace.mjs';

const bin = fileURLToPath(new URL('../bin/edit-engine.mjs', import.meta.url));
const GREP = { pattern: 'retryCount' };

/** A workspace whose only match for GREP is in ErrorHandling/retry.ts. */
function errorNamedWorkspace() {
  const ws = makeWorkspace('edit-engine-results-');
  ws.write('ErrorHandling/retry.ts', 'export const retryCount = 3;\n');
  ws.write('src/a.js', 'const a = 1;\n');
  return ws;
}

async function mcpClient(root) {
  const server = createMcpServer({ root, allowEdit: true });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'results-test', version: '0.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

describe('structured results', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('a multi_edit batch is ok only when every operation succeeded (the text does not start with Error either way)', async () => {
    ws = makeWorkspace('edit-engine-results-');
    ws.write('a.txt', 'one\ntwo\n');
    const multi = multiEditTool(rootOptions(ws.root));
    const op = (from, to) => ({ file_path: 'a.txt', old_string: from, new_string: to });
    const none = await multi.executeResult({ edits: [op('absent', 'x')] });
    expect(none.text).toMatch(/^Multi-edit: 0\/1 succeeded, 1 failed/);
    expect(none.ok).toBe(false);
    const some = await multi.executeResult({ edits: [op('one', '1'), op('absent', 'x')] });
    expect(some.text).toMatch(/^Multi-edit: 1\/2 succeeded, 1 failed/);
    expect(some.ok).toBe(false);
    const all = await multi.executeResult({ edits: [op('two', '2')] });
    expect(all.text).toMatch(/^Multi-edit: 1\/1 succeeded/);
    expect(all.ok).toBe(true);
    expect(ws.read('a.txt')).toBe('1\n2\n');
  });

  it('an edit already in the file succeeds without listing a changed file', async () => {
    ws = makeWorkspace('edit-engine-results-');
    ws.write('a.js', 'a();\nb();\nc();\n');
    const edit = editTool(rootOptions(ws.root));
    const result = await edit.executeResult({ file_path: 'a.js', old_string: 'x();\ny();', new_string: 'b();\nc();' });
    expect(result).toEqual({
      ok: true,
      text: 'No change needed: a.js already contains new_string at lines 2-3; nothing was written.',
      changedFiles: [],
    });
    const landed = await edit.executeResult({ file_path: 'a.js', old_string: 'a();', new_string: 'd();' });
    expect(landed.changedFiles).toEqual(['a.js']);
    expect(ws.read('a.js')).toBe('d();\nb();\nc();\n');
  });

  it('every served tool has a non-enumerable executeResult whose text is what execute returns', async () => {
    ws = errorNamedWorkspace();
    for (const entry of TOOL_ENTRIES) {
      const tool = buildTool(entry, rootOptions(ws.root));
      expect(Object.keys(tool)).not.toContain('executeResult');
      expect(typeof tool.executeResult).toBe('function');
      const bad = await tool.executeResult({});
      expect(bad.ok).toBe(false);
      expect(bad.text).toMatch(/^Error/);
      expect(await tool.execute({})).toBe(bad.text);
    }
  });

  it('a grep whose first hit is ErrorHandling/retry.ts is ok although its text starts with "Error"', async () => {
    ws = errorNamedWorkspace();
    const grep = grepTool(rootOptions(ws.root));
    const result = await grep.executeResult(GREP);
    expect(result.text).toMatch(/^ErrorHandling\/retry\.ts:1:/);
    expect(result).toEqual({ ok: true, text: result.text, changedFiles: [] });
    expect(await grep.execute(GREP)).toBe(result.text);
  });

  it('changedFiles names the file a successful write touched, and nothing for reads or failures', async () => {
    ws = errorNamedWorkspace();
    const options = rootOptions(ws.root);
    const edit = editTool(options);
    const done = await edit.executeResult({ file_path: 'src/a.js', old_string: '1', new_string: '2' });
    expect(done).toEqual({ ok: true, text: 'Successfully edited src/a.js (1 replacement)', changedFiles: ['src/a.js'] });
    const failed = await edit.executeResult({ file_path: 'src/a.js', old_string: 'zzz', new_string: '2' });
    expect(failed.ok).toBe(false);
    expect(failed.changedFiles).toEqual([]);
    const editor = textEditorTool({ ...options, version: '20250728' });
    expect((await editor.executeResult({ command: 'view', path: 'src/a.js' })).changedFiles).toEqual([]);
    const undone = await undoLastEditResult('src/a.js', options);
    expect(undone.ok).toBe(true);
    expect(undone.changedFiles).toEqual(['src/a.js']);
    expect(ws.read('src/a.js')).toBe('const a = 1;\n');
  });

  it('MCP: the grep is not an error, a failed edit is', async () => {
    ws = errorNamedWorkspace();
    const { client, close } = await mcpClient(ws.root);
    try {
      const grep = await client.callTool({ name: 'grep', arguments: GREP });
      expect(grep.content[0].text).toMatch(/^ErrorHandling/);
      expect(grep.isError).toBe(false);
      const edit = await client.callTool({ name: 'edit', arguments: { file_path: 'src/a.js', old_string: 'zzz', new_string: 'x' } });
      expect(edit.isError).toBe(true);
    } finally {
      await close();
    }
  });

  it('AI SDK: the grep reaches the model as text, a failed edit as error text', async () => {
    ws = errorNamedWorkspace();
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const call = (id, toolName, input) => ({
      content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage,
      warnings: [],
    });
    const steps = [
      call('g1', 'grep', GREP),
      call('e1', 'edit', { file_path: 'src/a.js', old_string: 'zzz', new_string: 'x' }),
      { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] },
    ];
    const model = new MockLanguageModelV3({ doGenerate: async () => steps.shift() });
    await generateText({ model, tools: createAiTools({ ...rootOptions(ws.root), allowEdit: true }), stopWhen: stepCountIs(5), prompt: 'x' });
    const seen = model.doGenerateCalls[2].prompt
      .filter((m) => m.role === 'tool')
      .flatMap((m) => m.content)
      .map((p) => [p.toolName, p.output.type, p.output.value.slice(0, 5)]);
    expect(seen).toEqual([
      ['grep', 'text', 'Error'],
      ['edit', 'error-text', 'Error'],
    ]);
  });

  it('CLI: the grep exits 0, a failed edit exits 1', () => {
    ws = errorNamedWorkspace();
    const grep = spawnSync(process.execPath, [bin, 'grep', '--root', ws.root, '--json', JSON.stringify(GREP)], { encoding: 'utf8' });
    expect(grep.stdout).toMatch(/^ErrorHandling/);
    expect(grep.status).toBe(0);
    const edit = spawnSync(process.execPath, [bin, 'edit', '--root', ws.root, '--json', JSON.stringify({ file_path: 'src/a.js', old_string: 'zzz', new_string: 'x' })], { encoding: 'utf8' });
    expect(edit.status).toBe(1);
  });
});

describe('results as data: kind and changedFiles come from the engine', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  const setup = () => {
    ws = makeWorkspace('edit-engine-kinds-');
    ws.write('a.txt', 'one\ntwo\ntwo\n');
    ws.write('b.txt', 'alpha\n');
    return rootOptions(ws.root, { protectedPaths: ['secret/**'] });
  };

  it('each failure carries its kind; a success has none', async () => {
    const options = setup();
    ws.write('secret/k.txt', 'k\n');
    const edit = editTool(options);
    const kind = async (tool, params) => (await tool.executeResult(params)).kind;
    expect(await kind(edit, { file_path: 'a.txt', old_string: 'zzz', new_string: 'x' })).toBe('not_found');
    expect(await kind(edit, { file_path: 'a.txt', old_string: 'two', new_string: 'x' })).toBe('ambiguous');
    expect(await kind(edit, { file_path: 'a.txt', old_string: 'two', new_string: 'x', expected_replacements: 3 })).toBe('ambiguous');
    expect(await kind(edit, { file_path: 'a.txt', new_string: 'x' })).toBe('bad_param');
    expect(await kind(edit, { file_path: 'nope.txt', old_string: 'a', new_string: 'x' })).toBe('not_found');
    expect(await kind(edit, { file_path: 'secret/k.txt', old_string: 'k', new_string: 'x' })).toBe('protected');
    const wrongHash = referenceLineHash('one') === 'ff' ? 'fe' : 'ff';
    expect(await kind(edit, { file_path: 'a.txt', start_line: `1:${wrongHash}`, new_string: 'x' })).toBe('stale');
    expect(await kind(createTool(options), { file_path: 'b.txt', content: 'x' })).toBe('exists');
    const done = await edit.executeResult({ file_path: 'a.txt', old_string: 'one', new_string: '1' });
    expect(done.ok).toBe(true);
    expect('kind' in done).toBe(false);
    expect(ws.read('secret/k.txt')).toBe('k\n');
  });

  it('multi_edit lists the files its operations wrote; a partial batch is kind "partial"', async () => {
    const options = setup();
    const multi = multiEditTool(options);
    const atomic = await multi.executeResult({
      atomic: true,
      edits: [
        { file_path: 'b.txt', old_string: 'alpha', new_string: 'beta' },
        { file_path: 'a.txt', old_string: 'one', new_string: '1' },
        { file_path: 'b.txt', old_string: 'beta', new_string: 'gamma' },
      ],
    });
    expect(atomic).toMatchObject({ ok: true, changedFiles: ['a.txt', 'b.txt'] });
    const partial = await multi.executeResult({
      edits: [
        { file_path: 'a.txt', old_string: '1', new_string: 'uno' },
        { file_path: 'b.txt', old_string: 'absent', new_string: 'x' },
      ],
    });
    expect(partial).toMatchObject({ ok: false, kind: 'partial', changedFiles: ['a.txt'] });
    const refused = await multi.executeResult({ atomic: true, edits: [{ file_path: 'a.txt', old_string: 'absent', new_string: 'x' }] });
    expect(refused).toMatchObject({ ok: false, kind: 'not_found', changedFiles: [] });
  });

  it('apply_patch and apply_diff list the files as the patch names them (a move: both paths)', async () => {
    const options = setup();
    const patch = applyPatchTool(options);
    const moved = await patch.executeResult({
      input: '*** Begin Patch\n*** Update File: b.txt\n*** Move to: c.txt\n@@\n-alpha\n+beta\n*** Add File: d.txt\n+new\n*** End Patch',
    });
    expect(moved).toMatchObject({ ok: true, changedFiles: ['b.txt', 'c.txt', 'd.txt'] });
    expect(ws.read('c.txt')).toBe('beta\n');
    const diff = await applyDiffTool(options).executeResult({ diff: '<<<<<<< SEARCH\none\n=======\nuno\n>>>>>>> REPLACE', path: 'a.txt' });
    expect(diff).toMatchObject({ ok: true, changedFiles: ['a.txt'] });
    const failed = await applyDiffTool(options).executeResult({ diff: '<<<<<<< SEARCH\nnowhere\n=======\nx\n>>>>>>> REPLACE', path: 'a.txt' });
    expect(failed).toMatchObject({ ok: false, kind: 'not_found', changedFiles: [] });
  });

  it('a call that changes nothing lists no file; replace_in_file and the text editor list what they wrote', async () => {
    const options = setup();
    const same = await editTool(options).executeResult({ file_path: 'b.txt', start_line: '1', new_string: 'alpha' });
    expect(same).toMatchObject({ ok: true, changedFiles: [] });
    const replaced = await replaceInFileTool(options).executeResult({ filePath: 'b.txt', replacements: [{ type: 'string', searchFor: 'alpha', replaceWith: 'beta' }] });
    expect(replaced).toMatchObject({ ok: true, changedFiles: ['b.txt'] });
    const editor = textEditorTool({ ...options, version: '20250728' });
    expect(await editor.executeResult({ command: 'create', path: 'e.txt', file_text: 'e\n' })).toMatchObject({ ok: true, changedFiles: ['e.txt'] });
    expect(await editor.executeResult({ command: 'view', path: 'e.txt' })).toMatchObject({ ok: true, changedFiles: [] });
    expect(await editor.executeResult({ command: 'str_replace', path: 'e.txt', old_str: 'zz', new_str: 'x' })).toMatchObject({ ok: false, kind: 'not_found' });
  });
});
