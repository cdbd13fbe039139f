import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

let ws;
let tool;
beforeEach(() => {
  ws = makeWorkspace();
  tool = editFileTool({ allowedFolders: [ws.root], cwd: ws.root, protectedPaths: ['.obsidian/', '.smarthole/'] });
  ws.write('notes/todo.md', '- [ ] one\n- [ ] two\n- [ ] three\n');
});
afterEach(() => ws.cleanup());

describe('edit_file', () => {
  it('has the edit_file name and schema', () => {
    expect(tool.name).toBe('edit_file');
    expect(tool.inputSchema.required).toEqual(['path', 'old_text', 'new_text']);
  });

  it('replaces the first occurrence by default', async () => {
    expect(await tool.execute({ path: 'notes/todo.md', old_text: '- [ ]', new_text: '- [x]' })).toBe('Replaced 1 occurrence');
    expect(ws.read('notes/todo.md')).toBe('- [x] one\n- [ ] two\n- [ ] three\n');
  });

  it('replaces all occurrences with replace_all', async () => {
    expect(await tool.execute({ path: 'notes/todo.md', old_text: '- [ ]', new_text: '- [x]', replace_all: true })).toBe('Replaced 3 occurrences');
    expect(ws.read('notes/todo.md')).toBe('- [x] one\n- [x] two\n- [x] three\n');
  });

  it('reports text that is not there', async () => {
    expect(await tool.execute({ path: 'notes/todo.md', old_text: 'four', new_text: 'x' })).toBe("Error: Text 'four' not found in todo.md. Read the file again and copy the exact text, including white space.");
  });

  it('reports a missing file in the edit_file wording', async () => {
    expect(await tool.execute({ path: 'notes/none.md', old_text: 'a', new_text: 'b' })).toBe('Error: File not found: "notes/none.md"');
  });

  it('blocks protected paths', async () => {
    ws.write('.obsidian/app.json', '{"a":1}');
    const out = await tool.execute({ path: '.obsidian/app.json', old_text: '1', new_text: '2' });
    expect(out).toMatch(/^Error: Permission denied - \.obsidian\/app\.json is a protected path \(matches "\.obsidian\/"\)/);
    expect(ws.read('.obsidian/app.json')).toBe('{"a":1}');
  });

  it('validates required parameters', async () => {
    expect(await tool.execute({ old_text: 'a', new_text: 'b' })).toMatch(/^Error: path is required/);
    expect(await tool.execute({ path: 'notes/todo.md', new_text: 'b' })).toMatch(/^Error: old_text is required/);
    expect(await tool.execute({ path: 'notes/todo.md', old_text: 'a' })).toMatch(/^Error: new_text is required/);
  });
});
