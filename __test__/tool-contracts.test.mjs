// Each tool's contract in one place, the engine's tool spec table (the TypeScript types are
// generated from it and checked by types/contracts.ts under tsc): here, every tool object the
// adapters serve carries its spec's texts and schema, and the engine's own validation agrees with
// the schema (leaving out any required parameter fails, naming it).
import { describe, it, expect, afterEach } from 'vitest';
import { specOf } from '../lib/specs.cjs';
import { TOOL_ENTRIES, buildTool, rootOptions } from '../lib/registry.cjs';
import { makeWorkspace } from './support/workspace.mjs';

/** A call of each tool with every required parameter given. */
const COMPLETE = {
  view: { path: 'a.txt' },
  grep: { pattern: 'one' },
  edit: { file_path: 'a.txt', new_string: 'two', old_string: 'one' },
  create: { file_path: 'new.txt', content: 'x' },
  multi_edit: { edits: [] },
  edit_file: { path: 'a.txt', old_text: 'one', new_text: 'two' },
  replace_in_file: { filePath: 'a.txt', replacements: [{ type: 'string', searchFor: 'one', replaceWith: 'two' }] },
  str_replace_based_edit_tool: { command: 'view', path: 'a.txt' },
  apply_patch: { input: '*** Begin Patch\n*** Update File: a.txt\n-one\n+two\n*** End Patch' },
  apply_diff: { diff: '<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE', path: 'a.txt' },
};

describe('tool contracts', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('every served tool object carries its spec\'s description and schema', () => {
    for (const entry of TOOL_ENTRIES) {
      const { name, description, inputSchema } = buildTool(entry, {});
      expect([name, description, inputSchema]).toEqual([entry.name, specOf(name).description, specOf(name).inputSchema]);
    }
  });

  it('the engine refuses a call without any one required parameter, naming it', async () => {
    ws = makeWorkspace('edit-engine-contracts-');
    ws.write('a.txt', 'one\n');
    for (const entry of TOOL_ENTRIES) {
      const tool = buildTool(entry, rootOptions(ws.root));
      for (const key of specOf(entry.name).inputSchema.required) {
        const params = { ...COMPLETE[entry.name] };
        delete params[key];
        const result = await tool.executeResult(params);
        expect([entry.name, key, result.ok]).toEqual([entry.name, key, false]);
        expect(result.text).toContain(key);
      }
    }
    expect(ws.read('a.txt')).toBe('one\n');
  });
});
