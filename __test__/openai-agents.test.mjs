// OpenAI Agents SDK adapter: a fake model (no network) drives a run that views a file, fails one
// edit (the SDK's errorFunction hands our message to the model), edits, greps a tree whose first
// hit starts with "Error" (a success) and finishes.
import { describe, it, expect, afterEach } from 'vitest';
import { Agent, Runner, setTracingDisabled } from '@openai/agents';
import { createOpenAiTools, toOpenAiTool, viewTool, TOOL_PRESETS } from '../lib/openai.mjs';
import { editTool } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { functionCall as call, say, scriptedModel } from './support/openai-model.mjs';

setTracingDisabled(true);

/** The function_call_output items of a request's input, as [callId, output text]. */
const outputsIn = (request) =>
  request.input.filter((i) => i.type === 'function_call_result').map((i) => [i.callId, i.output.text ?? i.output]);

describe('edit-engine/openai', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('a fake model views, fails an edit, edits and greps in one run', async () => {
    ws = makeWorkspace('edit-engine-openai-');
    ws.write('src/cart.js', 'export function total(items) {\n  return items.length;\n}\n');
    ws.write('ErrorHandling/retry.ts', 'export const retries = 3;\n');
    const { model, requests } = scriptedModel([
      call('c1', 'view', { path: 'src/cart.js', view_range: null }),
      call('c2', 'edit', { file_path: 'src/cart.js', old_string: 'items.size', new_string: 'x', replace_all: null, symbol: null, position: null, start_line: null, end_line: null }),
      call('c3', 'edit', { file_path: 'src/cart.js', old_string: 'return items.length;', new_string: 'return items.reduce((s, i) => s + i.price, 0);', replace_all: null, symbol: null, position: null, start_line: null, end_line: null }),
      call('c4', 'grep', { pattern: 'retries', path: null, beforeContext: null, afterContext: null, context: null, fileType: null, ignoreCase: null, maxResults: null, lineHashes: null }),
      say('done'),
    ]);
    const agent = new Agent({ name: 'editor', instructions: 'edit', model, tools: createOpenAiTools({ allowedFolders: [ws.root], cwd: ws.root, tools: 'editing' }) });
    const result = await new Runner().run(agent, 'Make total() sum the prices.', { maxTurns: 8 });

    expect(result.finalOutput).toBe('done');
    expect(ws.read('src/cart.js')).toBe('export function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n');
    const seen = Object.fromEntries(outputsIn(requests[4]));
    expect(seen.c1).toContain('     2\t  return items.length;');
    expect(seen.c2).toMatch(/^Error editing file: String not found/);
    expect(seen.c2).toContain("Use 'grep' or 'view' to read");
    expect(seen.c3).toBe('Successfully edited src/cart.js (1 replacement)');
    expect(seen.c4).toMatch(/^ErrorHandling\/retry\.ts:1:/);
    // The tools were offered in strict mode, in the preset's order.
    const offered = requests[0].tools.map((t) => [t.name, t.strict]);
    expect(offered).toEqual([['view', true], ['grep', true], ['edit', true], ['create', true]]);
  });

  it('strict schemas: every property required, optional ones nullable, no extra properties', () => {
    ws = makeWorkspace('edit-engine-openai-');
    const [edit] = createOpenAiTools({ allowedFolders: [ws.root], tools: ['edit'] });
    expect(edit.strict).toBe(true);
    expect(edit.parameters.additionalProperties).toBe(false);
    expect(edit.parameters.required.sort()).toEqual(Object.keys(edit.parameters.properties).sort());
    expect(edit.parameters.properties.position).toMatchObject({ type: ['string', 'null'], enum: ['before', 'after', null] });
    const [multi] = createOpenAiTools({ tools: ['multi_edit'] });
    expect(multi.strict).toBe(false);
    expect(multi.parameters.additionalProperties).toBe(true);
  });

  it('chooses tool sets: presets, names, and a clear error for an unknown name', () => {
    expect(createOpenAiTools({ tools: 'read-only' }).map((t) => t.name)).toEqual(TOOL_PRESETS['read-only']);
    expect(createOpenAiTools({ tools: 'anthropic-style' }).map((t) => t.name)).toEqual(['str_replace_based_edit_tool']);
    expect(createOpenAiTools({ tools: ['edit', 'view'] }).map((t) => t.name)).toEqual(['view', 'edit']);
    expect(() => createOpenAiTools({ tools: ['edt'] })).toThrow(/unknown tool name "edt" in tools; the tools are view, grep, edit/);
    expect(toOpenAiTool(viewTool()).name).toBe('view');
    expect(toOpenAiTool(editTool()).name).toBe('edit');
  });
});
