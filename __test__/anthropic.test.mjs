// Anthropic adapter: tool_use blocks for the text editor tool -> tool_result blocks.
import { describe, it, expect, afterEach } from 'vitest';
import { createRequire } from 'node:module';
import {
  TEXT_EDITOR_TOOL_NAMES,
  isTextEditorToolUse,
  createTextEditorHandler,
  textEditorDefinition,
  textEditorToolResult,
  textEditorToolResults,
} from '../lib/anthropic.mjs';
import { editFileTool, createTool } from '../lib/index.mjs';
import { viewTool } from '../lib/view.cjs';
import { makeWorkspace } from './support/workspace.mjs';

/**
 * A text editor with the `textEditorTool(options).execute(input) -> Promise<string>` interface,
 * backed by the engine's edit_file, create and view tools: it exercises the adapter end to end
 * whether or not this build has the native text editor.
 */
function engineBackedEditor(root) {
  const options = { allowedFolders: [root], cwd: root };
  const view = viewTool(options);
  const edit = editFileTool(options);
  const create = createTool(options);
  return {
    name: 'str_replace_based_edit_tool',
    async execute(input) {
      switch (input.command) {
        case 'view':
          return view.execute({ path: input.path, view_range: input.view_range });
        case 'str_replace':
          return edit.execute({ path: input.path, old_text: input.old_str, new_text: input.new_str ?? '' });
        case 'create':
          return create.execute({ file_path: input.path, content: input.file_text });
        default:
          throw new Error(`unsupported command ${input.command}`);
      }
    },
  };
}

const assistantTurn = (blocks) => [{ type: 'text', text: 'Let me look at the file.' }, ...blocks];

describe('edit-engine/anthropic', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('recognises text editor tool_use blocks only', () => {
    expect(TEXT_EDITOR_TOOL_NAMES).toEqual(['str_replace_editor', 'str_replace_based_edit_tool']);
    expect(isTextEditorToolUse({ type: 'tool_use', id: 't', name: 'str_replace_based_edit_tool', input: {} })).toBe(true);
    expect(isTextEditorToolUse({ type: 'tool_use', id: 't', name: 'str_replace_editor', input: {} })).toBe(true);
    expect(isTextEditorToolUse({ type: 'tool_use', id: 't', name: 'bash', input: {} })).toBe(false);
    expect(isTextEditorToolUse({ type: 'text', text: 'x' })).toBe(false);
    expect(isTextEditorToolUse(null)).toBe(false);
  });

  it('gives the Messages API tool definition per version', () => {
    expect(textEditorDefinition()).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 100_000 });
    expect(textEditorDefinition({ maxCharacters: 5000 })).toEqual({
      type: 'text_editor_20250728',
      name: 'str_replace_based_edit_tool',
      max_characters: 5000,
    });
    expect(textEditorDefinition({ version: '20250429' })).toEqual({ type: 'text_editor_20250429', name: 'str_replace_based_edit_tool' });
    expect(textEditorDefinition({ version: 'text_editor_20250124' })).toEqual({ type: 'text_editor_20250124', name: 'str_replace_editor' });
  });

  it('round trip through an editor with the textEditorTool interface', async () => {
    ws = makeWorkspace('edit-engine-anthropic-');
    ws.write('app.py', 'def greet():\n    return "hi"\n');
    const editor = engineBackedEditor(ws.root);
    const content = assistantTurn([
      { type: 'tool_use', id: 'toolu_1', name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'app.py' } },
      { type: 'tool_use', id: 'toolu_2', name: 'bash', input: { command: 'ls' } },
      {
        type: 'tool_use',
        id: 'toolu_3',
        name: 'str_replace_based_edit_tool',
        input: { command: 'str_replace', path: 'app.py', old_str: 'return "hi"', new_str: 'return "hello"' },
      },
      { type: 'tool_use', id: 'toolu_4', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'app.py', old_str: 'nope', new_str: 'x' } },
      { type: 'tool_use', id: 'toolu_5', name: 'str_replace_based_edit_tool', input: { command: 'undo_edit', path: 'app.py' } },
    ]);
    const results = await textEditorToolResults(content, editor);
    expect(results.map((r) => r.tool_use_id)).toEqual(['toolu_1', 'toolu_3', 'toolu_4', 'toolu_5']);
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: expect.stringContaining('     1\tdef greet():') });
    expect(results[0].is_error).toBeUndefined();
    expect(results[1]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_3', content: 'Replaced 1 occurrence' });
    expect(results[2]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_4', is_error: true, content: expect.stringMatching(/^Error/) });
    // A throwing editor still yields a tool_result, never a rejection.
    expect(results[3]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_5', content: 'Error: unsupported command undo_edit', is_error: true });
    expect(ws.read('app.py')).toBe('def greet():\n    return "hello"\n');
  });

  it('answers a block not addressed to the text editor with an error result, never a throw', async () => {
    const editor = { execute: async () => 'unused' };
    await expect(textEditorToolResult({ type: 'tool_use', id: 'x', name: 'bash', input: {} }, editor)).resolves.toEqual({
      type: 'tool_result',
      tool_use_id: 'x',
      content: expect.stringContaining('expected a tool_use block for str_replace_editor or str_replace_based_edit_tool'),
      is_error: true,
    });
    await expect(textEditorToolResult(undefined, editor)).resolves.toMatchObject({ is_error: true, tool_use_id: '' });
  });

  it('is loadable from require()', () => {
    const require = createRequire(import.meta.url);
    expect(typeof require('../lib/anthropic.cjs').textEditorToolResult).toBe('function');
  });

});

describe('native textEditorTool round trip', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('view, str_replace, insert, create and a failure, as tool_result blocks', async () => {
    ws = makeWorkspace('edit-engine-anthropic-native-');
    ws.write('notes.txt', 'alpha\nbeta\n');
    const handler = createTextEditorHandler({ allowedFolders: [ws.root], cwd: ws.root });
    expect(handler.definition).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 100_000 });
    const use = (id, input) => ({ type: 'tool_use', id, name: 'str_replace_based_edit_tool', input });
    const results = await handler.handleAll([
      use('v', { command: 'view', path: 'notes.txt' }),
      use('s', { command: 'str_replace', path: 'notes.txt', old_str: 'beta', new_str: 'gamma' }),
      use('i', { command: 'insert', path: 'notes.txt', insert_line: 0, insert_text: 'start' }),
      use('c', { command: 'create', path: 'new.txt', file_text: 'new\n' }),
      use('e', { command: 'str_replace', path: 'notes.txt', old_str: 'missing', new_str: 'x' }),
    ]);
    expect(results.map((r) => [r.tool_use_id, r.is_error === true])).toEqual([
      ['v', false],
      ['s', false],
      ['i', false],
      ['c', false],
      ['e', true],
    ]);
    expect(results[0].content).toContain('alpha');
    expect(ws.read('notes.txt')).toBe('start\nalpha\ngamma\n');
    expect(ws.read('new.txt')).toBe('new\n');
  });

  it('str_replace_editor blocks run on the 20250124 editor (with undo_edit)', async () => {
    ws = makeWorkspace('edit-engine-anthropic-native-');
    ws.write('a.txt', 'one\n');
    const handler = createTextEditorHandler({ allowedFolders: [ws.root], cwd: ws.root });
    const use = (id, input) => ({ type: 'tool_use', id, name: 'str_replace_editor', input });
    const [edit, undo] = await handler.handleAll([
      use('s', { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'two' }),
      use('u', { command: 'undo_edit', path: 'a.txt' }),
    ]);
    expect(edit.is_error).toBeUndefined();
    expect(undo.is_error).toBeUndefined();
    expect(ws.read('a.txt')).toBe('one\n');
  });
});
