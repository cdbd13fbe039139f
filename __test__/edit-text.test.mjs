import { beforeEach, describe, expect, it } from 'vitest';
import { editTool, FileTracker } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';
import { ws, edit, useEditWorkspace } from './support/edit-workspace.mjs';

useEditWorkspace();

describe('edit tool object', () => {
  it('has Probe\'s shape', () => {
    expect(edit.name).toBe('edit');
    expect(typeof edit.description).toBe('string');
    expect(edit.inputSchema.required).toEqual(['file_path', 'new_string']);
    expect(Object.keys(edit.inputSchema.properties)).toEqual([
      'file_path', 'old_string', 'new_string', 'replace_all', 'expected_replacements', 'match_strategy', 'symbol', 'position', 'start_line', 'end_line',
    ]);
    expect(typeof edit.execute).toBe('function');
  });
});

describe('text mode', () => {
  it('replaces an exact, unique match', async () => {
    ws.write('src/main.js', 'function f() {\n  return false;\n}\n');
    const out = await edit.execute({ file_path: 'src/main.js', old_string: 'return false;', new_string: 'return true;' });
    expect(out).toBe('Successfully edited src/main.js (1 replacement)');
    expect(ws.read('src/main.js')).toBe('function f() {\n  return true;\n}\n');
  });

  it('rescues indentation drift via line-trimmed and names the strategy', async () => {
    ws.write('a.js', 'if (x) {\n    const x = 1;\n    const y = 2;\n}\n');
    const out = await edit.execute({ file_path: 'a.js', old_string: 'const x = 1;\nconst y = 2;', new_string: '    const x = 1;\n    const y = 3;' });
    expect(out).toBe('Successfully edited a.js (1 replacement, matched via line-trimmed)');
    expect(ws.read('a.js')).toBe('if (x) {\n    const x = 1;\n    const y = 3;\n}\n');
  });

  it('rescues inner white-space drift via whitespace-normalized', async () => {
    ws.write('a.js', 'let  total  =  a +  b;\n');
    const out = await edit.execute({ file_path: 'a.js', old_string: 'let total = a + b;', new_string: 'let total = a - b;' });
    expect(out).toBe('Successfully edited a.js (1 replacement, matched via whitespace-normalized)');
    expect(ws.read('a.js')).toBe('let total = a - b;\n');
  });

  it('refuses an ambiguous match with the occurrence count', async () => {
    ws.write('a.js', 'x = 1;\ny = 2;\nx = 1;\n');
    const out = await edit.execute({ file_path: 'a.js', old_string: 'x = 1;', new_string: 'x = 3;' });
    expect(out).toBe('Error editing file: Multiple occurrences found - the old_string appears 2 times in a.js. To fix: (1) Set replace_all=true to replace all occurrences, or (2) Include more surrounding lines in old_string to make the match unique (add the full line or adjacent lines for context).');
    expect(ws.read('a.js')).toBe('x = 1;\ny = 2;\nx = 1;\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    ws.write('c.json', '{"debug": false, "a": {"debug": false}, "b": {"debug": false}}');
    const out = await edit.execute({ file_path: 'c.json', old_string: '"debug": false', new_string: '"debug": true', replace_all: true });
    expect(out).toBe('Successfully edited c.json (3 replacements)');
    expect(ws.read('c.json')).toBe('{"debug": true, "a": {"debug": true}, "b": {"debug": true}}');
  });

  it('accepts replace_all as the string "true" and treats "false" as false', async () => {
    ws.write('a.txt', 'a a');
    expect(await edit.execute({ file_path: 'a.txt', old_string: 'a', new_string: 'b', replace_all: 'false' }))
      .toMatch(/^Error editing file: Multiple occurrences found - the old_string appears 2 times/);
    expect(await edit.execute({ file_path: 'a.txt', old_string: 'a', new_string: 'b', replace_all: 'true' }))
      .toBe('Successfully edited a.txt (2 replacements)');
  });

  it('reports a missing string with recovery steps and leaves the file alone', async () => {
    ws.write('a.js', 'const a = 1;\n');
    const out = await edit.execute({ file_path: 'a.js', old_string: 'const b = 2;', new_string: 'x' });
    expect(out).toBe("Error editing file: String not found - the specified old_string was not found in a.js. The text may have changed or differ from what you expected. Try: (1) Use 'search' or 'extract' to read the current file content and copy the exact text. (2) Use the symbol parameter to edit by function/class name instead. (3) Verify the file_path is correct.\n\nDid you mean line 1 (similarity 0.83)? Diff from your old_string to the file:\n```diff\n--- old_string\n+++ file\n@@ -1 +1 @@\n-const b = 2;\n+const a = 1;\n```");
    expect(ws.read('a.js')).toBe('const a = 1;\n');
  });

  it('refuses a no-op replacement', async () => {
    ws.write('a.js', 'const a = 1;\n');
    const out = await edit.execute({ file_path: 'a.js', old_string: 'const a = 1;', new_string: 'const a = 1;' });
    expect(out).toBe('Error editing file: No changes made - the replacement result is identical to the original. Verify that old_string and new_string are actually different. If fuzzy matching was used, the matched text may already equal new_string.');
  });

  it('guards against over-scoped replacements', async () => {
    const body = Array.from({ length: 24 }, (_, i) => `line ${i}`).join('\n');
    ws.write('big.txt', body + '\n');
    const out = await edit.execute({ file_path: 'big.txt', old_string: body, new_string: 'short' });
    expect(out).toBe('Error editing file: Edit scope too large — replacing 24 lines with 1 lines risks accidental content deletion. To fix: (1) Use line-targeted editing (start_line/end_line) instead to constrain scope, or (2) Split into smaller, focused edits that each target only the lines you intend to change.');
    expect(ws.read('big.txt')).toBe(body + '\n');
  });

  it('writes dollar signs literally (no String.replace patterns)', async () => {
    ws.write('a.js', 'const price = 0;\n');
    const out = await edit.execute({ file_path: 'a.js', old_string: '0', new_string: "'$$5 $& $1'" });
    expect(out).toBe('Successfully edited a.js (1 replacement)');
    expect(ws.read('a.js')).toBe("const price = '$$5 $& $1';\n");
  });

  it('refuses an empty old_string instead of inserting at the start', async () => {
    ws.write('a.js', 'abc');
    const out = await edit.execute({ file_path: 'a.js', old_string: '', new_string: 'x' });
    expect(out).toMatch(/^Error editing file: Invalid old_string - it is empty/);
    expect(ws.read('a.js')).toBe('abc');
  });

  it('resolves paths against workingDirectory first', async () => {
    ws.write('pkg/a.js', 'one');
    const out = await edit.execute({ file_path: 'a.js', old_string: 'one', new_string: 'two', workingDirectory: ws.path('pkg') });
    expect(out).toBe('Successfully edited a.js (1 replacement)');
    expect(ws.read('pkg/a.js')).toBe('two');
  });

  it('appends a unified diff with returnDiff', async () => {
    ws.write('a.js', 'a\nb\nc\n');
    const withDiff = editTool({ allowedFolders: [ws.root], cwd: ws.root, returnDiff: true });
    const out = await withDiff.execute({ file_path: 'a.js', old_string: 'b', new_string: 'B' });
    expect(out).toBe('Successfully edited a.js (1 replacement)\n\nDiff:\n```diff\n--- a/a.js\n+++ b/a.js\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n```');
  });
});

describe('parameter validation (Probe messages)', () => {
  beforeEach(() => ws.write('a.js', 'x'));

  it.each([
    [{ new_string: 'x' }],
    [{ file_path: '   ', new_string: 'x' }],
    [{ file_path: 42, new_string: 'x' }],
  ])('rejects a bad file_path %j', async (params) => {
    expect(await edit.execute(params)).toBe('Error editing file: Invalid file_path - must be a non-empty string. Provide an absolute path or a path relative to the working directory (e.g. "src/main.js").');
  });

  it('rejects a missing or non-string new_string', async () => {
    const msg = 'Error editing file: Invalid new_string - must be a string. Provide the replacement content as a string value (empty string "" is valid for deletions).';
    expect(await edit.execute({ file_path: 'a.js', old_string: 'x' })).toBe(msg);
    expect(await edit.execute({ file_path: 'a.js', old_string: 'x', new_string: 5 })).toBe(msg);
  });

  it('asks for a mode when none is given', async () => {
    expect(await edit.execute({ file_path: 'a.js', new_string: 'y' })).toMatch(/^Error editing file: Must provide either old_string \(for text edit\), symbol \(for AST-aware edit\), or start_line/);
  });

  it('rejects a non-string old_string', async () => {
    expect(await edit.execute({ file_path: 'a.js', old_string: ['x'], new_string: 'y' })).toBe('Error editing file: Invalid old_string - must be a string. Provide the exact text to find in the file, or use the symbol parameter instead for AST-aware editing by name.');
  });

  it('reports a missing file with what to do', async () => {
    expect(await edit.execute({ file_path: 'nope.js', old_string: 'x', new_string: 'y' })).toBe("Error editing file: File not found - nope.js. Verify the path is correct and the file exists. Use 'search' to find files by name, or 'create' to make a new file.");
  });

  it('never throws, even without params', async () => {
    await expect(edit.execute()).resolves.toMatch(/^Error editing file: Invalid file_path/);
    await expect(edit.execute(null)).resolves.toMatch(/^Error editing file: Invalid file_path/);
    await expect(edit.execute('a.js')).resolves.toMatch(/^Error editing file: Invalid file_path/);
  });
});

describe('path confinement', () => {
  it('refuses paths outside the allowed folders', async () => {
    const inner = makeWorkspace();
    try {
      ws.write('outside.js', 'secret');
      const tool = editTool({ allowedFolders: [inner.root], cwd: inner.root });
      const out = await tool.execute({ file_path: ws.path('outside.js'), old_string: 'secret', new_string: 'pwned' });
      expect(out).toMatch(/^Error editing file: Permission denied - .*outside\.js is outside allowed directories\. Use a file path within the project workspace\.$/);
      expect(ws.read('outside.js')).toBe('secret');
      const dotdot = await tool.execute({ file_path: '../' + ws.root.split('/').pop() + '/outside.js', old_string: 'secret', new_string: 'pwned' });
      expect(dotdot).toMatch(/Permission denied/);
      expect(ws.read('outside.js')).toBe('secret');
    } finally {
      inner.cleanup();
    }
  });

  it('refuses protectedPaths', async () => {
    ws.write('.git/config', 'x = 1');
    ws.write('src/a.js', 'x = 1');
    const tool = editTool({ allowedFolders: [ws.root], cwd: ws.root, protectedPaths: ['.git/'] });
    const out = await tool.execute({ file_path: '.git/config', old_string: 'x = 1', new_string: 'x = 2' });
    expect(out).toMatch(/^Error editing file: Permission denied - \.git\/config is a protected path \(matches "\.git\/"\)\. /);
    expect(ws.read('.git/config')).toBe('x = 1');
    expect(await tool.execute({ file_path: 'src/a.js', old_string: 'x = 1', new_string: 'x = 2' })).toBe('Successfully edited src/a.js (1 replacement)');
  });
});

describe('FileTracker integration', () => {
  it('refuses files never read, then allows them once seen', async () => {
    const tracker = new FileTracker();
    const tool = editTool({ allowedFolders: [ws.root], cwd: ws.root, fileTracker: tracker });
    ws.write('src/a.js', 'let a = 1;');
    const refused = await tool.execute({ file_path: 'src/a.js', old_string: 'let a = 1;', new_string: 'let a = 2;' });
    expect(refused).toBe('Error editing src/a.js: This file has not been read yet in this session. Use the extract tool with targets="src/a.js" to read the file first, then retry your edit.');
    tracker.markFileSeen(ws.path('src/a.js'));
    expect(await tool.execute({ file_path: 'src/a.js', old_string: 'let a = 1;', new_string: 'let a = 2;' })).toBe('Successfully edited src/a.js (1 replacement)');
  });

  it('asks for a re-read after maxConsecutiveTextEdits text edits', async () => {
    const tracker = new FileTracker();
    const tool = editTool({ allowedFolders: [ws.root], cwd: ws.root, fileTracker: tracker });
    ws.write('a.js', 'v0');
    tracker.markFileSeen(ws.path('a.js'));
    for (let i = 0; i < 3; i++) {
      expect(await tool.execute({ file_path: 'a.js', old_string: `v${i}`, new_string: `v${i + 1}` })).toBe('Successfully edited a.js (1 replacement)');
    }
    const stale = await tool.execute({ file_path: 'a.js', old_string: 'v3', new_string: 'v4' });
    expect(stale).toBe("Error editing a.js: This file has been edited 3 times without being re-read. Use 'extract' to re-read the current file content before making more edits, to ensure you are working with the actual state of the file.\n\nUse the extract tool with targets=\"a.js\" to re-read the file, then retry.");
    expect(ws.read('a.js')).toBe('v3');
    tracker.markFileSeen(ws.path('a.js'));
    expect(await tool.execute({ file_path: 'a.js', old_string: 'v3', new_string: 'v4' })).toBe('Successfully edited a.js (1 replacement)');
  });

  it('answers with an error when fileTracker is not an edit-engine FileTracker', async () => {
    ws.write('a.js', 'x');
    const tool = editTool({ allowedFolders: [ws.root], fileTracker: { isFileSeen: () => true } });
    expect(await tool.execute({ file_path: ws.path('a.js'), old_string: 'x', new_string: 'y' })).toMatch(/^Error editing file: options.fileTracker must be a FileTracker created by edit-engine/);
    expect(ws.read('a.js')).toBe('x');
  });
});
