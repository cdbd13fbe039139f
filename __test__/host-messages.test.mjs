// Every failure whose message points the model to another tool (to read, to search, to create a
// file), for each naming a host gives: the texts are pinned so that moving the naming from the
// JS layer into the engine leaves every message byte-identical for every host.
import { describe, it, expect } from 'vitest';
import { FileTracker, editTool, multiEditTool, editFileTool, replaceInFileTool, textEditorTool, undoLastEdit } from '../lib/index.mjs';
import { makeWorkspace } from './support/workspace.mjs';

/** The namings hosts pass: Probe's (none given), the adapters' for their tool sets, and a partial one. */
const NAMINGS = {
  probe: undefined,
  'view, grep, create': { read: 'view', search: 'grep', create: 'create' },
  'view, grep': { read: 'view', search: 'grep', create: null },
  'view only': { read: 'view', search: null, create: null },
  'text editor': { read: 'str_replace_based_edit_tool', search: null, create: 'str_replace_based_edit_tool' },
  none: { read: null, search: null, create: null },
  'read only given': { read: 'read_file' },
};

const A = 'export function a() {\n  return 1;\n}\n';

/** Edit calls that fail with a pointer to another tool. */
const EDIT_FAILURES = [
  { file_path: 'missing.js', old_string: 'a', new_string: 'b' },
  { file_path: 'src/a.js', new_string: 'b' },
  { file_path: 'src/a.js', old_string: 'nowhere to be found', new_string: 'b' },
  { file_path: 'src/a.js', start_line: '99', new_string: 'b' },
  { file_path: 'src/a.js', symbol: 'noSuchSymbol', new_string: 'b' },
  { file_path: 'src/b.js', old_string: 'b = 2', new_string: 'b = 3' },
];

/** The texts of every pointing failure for a host naming `toolNames`, the workspace root elided. */
async function pointingTexts(toolNames) {
  const ws = makeWorkspace('edit-engine-host-messages-');
  try {
    ws.write('src/a.js', A);
    ws.write('src/b.js', 'const b = 2;\n');
    ws.write('src/c.js', 'const c = 1;\n');
    const fileTracker = new FileTracker();
    for (const f of ['src/a.js', 'src/c.js']) fileTracker.markFileSeen(ws.path(f));
    const options = { allowedFolders: [ws.root], cwd: ws.root, fileTracker, toolNames };
    const texts = [];
    const edit = editTool(options);
    for (const p of EDIT_FAILURES) texts.push(await edit.execute(p));
    texts.push(await multiEditTool(options).execute({ edits: EDIT_FAILURES }));
    for (let i = 0; i < 3; i++) fileTracker.recordTextEdit(ws.path('src/c.js')); // edited 3 times unread
    texts.push(await edit.execute({ file_path: 'src/c.js', old_string: 'c = 1', new_string: 'c = 3' }));
    fileTracker.trackSymbolContent(ws.path('src/a.js'), 'a', 'function a() {}', 1, 3, 'extract'); // read before a change
    texts.push(await edit.execute({ file_path: 'src/a.js', symbol: 'a', new_string: 'function a() {\n  return 2;\n}' }));
    texts.push(await editFileTool(options).execute({ path: 'missing.js', old_text: 'a', new_text: 'b' }));
    texts.push(await replaceInFileTool(options).execute({ filePath: 'missing.js', replacements: [{ type: 'string', searchFor: 'a', replaceWith: 'b' }] }));
    texts.push(await textEditorTool(options).execute({ command: 'str_replace', path: ws.path('missing.js'), old_str: 'a', new_str: 'b' }));
    texts.push(await undoLastEdit('missing.js', { ...options, historyDir: ws.path('.history') }));
    return texts.map((t) => t.split(ws.root).join('<root>'));
  } finally {
    ws.cleanup();
  }
}

describe('messages that point to other tools', () => {
  for (const [naming, toolNames] of Object.entries(NAMINGS)) {
    it(`name the host's tools: ${naming}`, async () => {
      expect(await pointingTexts(toolNames)).toMatchSnapshot();
    });
  }
});
