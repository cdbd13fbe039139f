// Each tool's contract in one place (types/contracts.ts, checked against the TypeScript types by
// tsc): here against the JSON schemas every adapter serves, and against the engine's own
// validation (leaving out any required parameter fails, naming it).
import { describe, it, expect, afterEach } from 'vitest';
import { CONTRACTS } from './types/contracts.ts';
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

  it('the JSON schemas list exactly the contract\'s properties and required keys', () => {
    expect(Object.keys(CONTRACTS).sort()).toEqual(TOOL_ENTRIES.map((e) => e.name).sort());
    for (const entry of TOOL_ENTRIES) {
      const { inputSchema } = buildTool(entry, {});
      const contract = CONTRACTS[entry.name];
      expect([entry.name, Object.keys(inputSchema.properties).sort()]).toEqual([entry.name, [...contract.properties].sort()]);
      expect([entry.name, [...inputSchema.required].sort()]).toEqual([entry.name, [...contract.required].sort()]);
    }
  });

  it('the engine refuses a call without any one required parameter, naming it', async () => {
    ws = makeWorkspace('edit-engine-contracts-');
    ws.write('a.txt', 'one\n');
    for (const entry of TOOL_ENTRIES) {
      const tool = buildTool(entry, rootOptions(ws.root));
      for (const key of CONTRACTS[entry.name].required) {
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
