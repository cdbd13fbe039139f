// The demo: copies the sample project (lib/demo-project) into a temporary directory and shows
// every tool and mode of edit-engine on it, with each result and a diff of the change.
// `runDemo({ log })` prints through `log` (default console.log) and removes the copy at the end.
import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { editTool, createTool, FileTracker, annotateOutputWithHashes, computeLineHash } from './index.mjs';
import { replaceInFileTool, textEditorTool, undoLastEdit } from './index.mjs';
import { multiEditTool, editFileTool, grep, viewTool, createCheckpoints } from './index.mjs';

const sample = fileURLToPath(new URL('./demo-project', import.meta.url));

/** Runs the demo in a fresh copy of the sample project. */
export async function runDemo({ log = console.log } = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-demo-')));
  cpSync(sample, root, { recursive: true });
  const options = { allowedFolders: [root], cwd: root, returnDiff: true, sessionId: 'demo' };
  const show = async (title, tool, params) => {
    log(`\n=== ${title}`);
    log(`${tool.name}(${JSON.stringify(params)})`);
    log(await tool.execute(params));
  };
  const demo = { root, options, log, show, edit: editTool(options) };
  try {
    log(`edit-engine demo in ${root}`);
    const checkpoints = createCheckpoints(options);
    const start = await checkpoints.create('demo start');
    await editModes(demo);
    await fileTools(demo);
    await guards(demo);
    await batches(demo);
    await searchThenEdit(demo);
    await rewindSession(demo, checkpoints, start);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The edit tool's text, line-targeted and symbol modes, and create. */
async function editModes({ show, edit, options }) {
  const create = createTool(options);
  await show('Text mode, exact match', edit, { file_path: 'src/cart.js', old_string: 'const TAX_RATE = 0.2;', new_string: 'const TAX_RATE = 0.25;' });
  await show('Text mode, fuzzy (indentation drift)', edit, {
    file_path: 'src/cart.js',
    old_string: 'add(item) {\nthis.items.push(item);',
    new_string: '  add(item) {\n    if (!item) throw new Error("item required");\n    this.items.push(item);',
  });
  await show('Text mode, replace_all', edit, { file_path: 'src/config.json', old_string: '"debug": false', new_string: '"debug": true', replace_all: true });
  const line = '  let total = 0;';
  await show('Line-targeted mode with a line hash', edit, { file_path: 'src/cart.js', start_line: `9:${computeLineHash(line)}`, new_string: '  let total = 0; // running sum' });
  await show('Line-targeted insert after a line', edit, { file_path: 'src/cart.js', start_line: '1', position: 'after', new_string: "// Prices are in cents." });
  await show('Line-targeted delete', edit, { file_path: 'src/config.json', start_line: '3', end_line: '3', new_string: '' });
  await show('Stale hash is refused with the current reference', edit, { file_path: 'src/cart.js', start_line: '9:00', new_string: 'x' });
  await show('Ambiguous text is refused', edit, { file_path: 'src/cart.js', old_string: 'total', new_string: 'sum' });
  await show('Symbol mode', edit, { file_path: 'src/cart.js', symbol: 'calculateTotal', new_string: 'function calculateTotal(items) {\n  return items.reduce((s, i) => s + i.price * i.quantity, 0);\n}' });
  await show('Create a file', create, { file_path: 'src/discount.js', content: 'export const discount = (total, pct) => total * (1 - pct / 100);\n' });
  await show('Create refuses to overwrite', create, { file_path: 'src/discount.js', content: 'x' });
  await show('Path outside the workspace is refused', edit, { file_path: '/etc/hostname', old_string: 'a', new_string: 'b' });
}

/** replace_in_file, the text editor and undoLastEdit. */
async function fileTools({ show, options, root, log }) {
  await show('replace_in_file: line numbers of the file as read, one atomic write', replaceInFileTool(options), {
    filePath: 'src/discount.js',
    replacements: [
      { type: 'insert_before', lineNumber: 1, insertText: '// Discounts, in percent.' },
      { type: 'regex', searchFor: '\\(total, pct\\)', replaceWith: '(total, percent)' },
      { type: 'string', searchFor: 'pct / 100', replaceWith: 'percent / 100' },
    ],
  });
  const editor = textEditorTool(options);
  await show('Text editor: view with a range', editor, { command: 'view', path: join(root, 'src/cart.js'), view_range: [1, 3] });
  await show('Text editor: str_replace', editor, { command: 'str_replace', path: join(root, 'src/cart.js'), old_str: '0.25', new_str: '0.3' });
  await show('Text editor: undo_edit', editor, { command: 'undo_edit', path: join(root, 'src/cart.js') });
  log('\n=== undoLastEdit (any tool\'s last write, from the persistent history)');
  log(await undoLastEdit('src/discount.js', options));
}

/** The read-before-edit guard and line-hash annotation. */
async function guards({ options, root, log }) {
  log('\n=== FileTracker: read-before-edit guard');
  const tracker = new FileTracker();
  const guarded = editTool({ ...options, fileTracker: tracker });
  log(await guarded.execute({ file_path: 'README.md', old_string: 'Sample project', new_string: 'Demo project' }));
  tracker.markFileSeen(join(root, 'README.md'));
  log(await guarded.execute({ file_path: 'README.md', old_string: 'Sample project', new_string: 'Demo project' }));
  log('\n=== annotateOutputWithHashes');
  log(annotateOutputWithHashes('  3 | const TAX_RATE = 0.25;\n  4 |'));
}

/** multi_edit (plain and atomic) and edit_file. */
async function batches({ show, options }) {
  const multi = multiEditTool(options);
  await show('multi_edit: several edits in one call', multi, {
    edits: [
      { file_path: 'src/cart.js', old_string: 'this.items = [];', new_string: 'this.items = [];\n    this.coupons = [];' },
      { file_path: 'src/config.json', old_string: '"debug": true,', new_string: '"debug": true,\n  "currency": "EUR",' },
    ],
  });
  await show('multi_edit, atomic: one failing edit means no file changes', multi, {
    atomic: true,
    edits: [
      { file_path: 'src/cart.js', old_string: 'return this;', new_string: 'return this; // chainable' },
      { file_path: 'src/config.json', old_string: '"missing": 1', new_string: '"missing": 2' },
    ],
  });
  await show('edit_file: the first occurrence of old_text', editFileTool(options), {
    path: 'src/config.json',
    old_text: '"debug": true',
    new_text: '"debug": false',
  });
}

/** grep with line hashes, a line-targeted edit at a reference it printed, and the view tool. */
async function searchThenEdit({ show, edit, options, log }) {
  log('\n=== grep with line hashes, then a line-targeted edit from its output');
  const found = await grep({ pattern: 'TAX_RATE =', path: 'src', lineHashes: true }, options);
  log(found);
  const ref = /^[^:\n]+:(\d+:[0-9a-f]{2}):/m.exec(found);
  if (ref) await show(`edit at the reference ${ref[1]} grep printed`, edit, { file_path: 'src/cart.js', start_line: ref[1], new_string: 'const TAX_RATE = 0.21;' });
  await show('view (the read-only tool the MCP server and the AI SDK adapter serve)', viewTool(options), { path: 'src/config.json' });
}

/** createCheckpoints: the whole session's changes, previewed, rewound, and the rewind rewound. */
async function rewindSession({ log }, checkpoints, start) {
  log(`\n=== Checkpoints: rewind every file this session changed to the checkpoint taken at the start`);
  const dry = await checkpoints.rewind(start.id, { dryRun: true });
  log(dry.text);
  const done = await checkpoints.rewind(start.id);
  log(`${done.text}\n(${done.filesChanged} files, +${done.insertions} -${done.deletions} lines)`);
  const back = await checkpoints.rewind(done.checkpoint.id);
  log(`Rewinding that rewind: ${back.text}`);
}
