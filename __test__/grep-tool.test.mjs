// grep / grepTool on ripgrep's crates, against a fixture tree in a temp dir.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { editTool, FileReadTracker, FileTracker, grep, grepTool } from '../lib/index.mjs';
import { makeWorkspace, referenceLineHash } from './support/workspace.mjs';
import { asRuntimeMtime } from './support/mtime.mjs';

let ws;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write('.gitignore', 'dist/\n*.log\n');
  ws.write('src/app.ts', ['import x from "y";', '', 'function handleError(e) {', '  log(e);', '  return null;', '}', '', 'export function other() {', '  handleError(1);', '}', ''].join('\n'));
  ws.write('src/util.js', 'export const handleError = () => {};\n');
  ws.write('src/tool.py', 'def handleError():\n    pass\n');
  ws.write('dist/bundle.js', 'function handleError(){}\n');
  ws.write('debug.log', 'handleError failed\n');
  ws.write('.secret/keys.ts', 'handleError\n');
  ws.write('assets/blob.bin', Buffer.from([0x68, 0x61, 0x6e, 0x64, 0x6c, 0x65, 0x45, 0x72, 0x72, 0x6f, 0x72, 0x00, 0x01, 0x0a]));
  ws.write('notes/crlf.md', 'one\r\nhandleError here\r\nthree\r\n');
});
afterEach(() => ws.cleanup());

const opts = () => ({ allowedFolders: [ws.root], cwd: ws.root });

describe('grep', () => {
  it('skips .gitignore\'d, hidden and binary files (no .git needed)', async () => {
    const out = await grep({ pattern: 'handleError' }, opts());
    expect(out).toBe([
      'notes/crlf.md:2:handleError here',
      'src/app.ts:3:function handleError(e) {',
      'src/app.ts:9:  handleError(1);',
      'src/tool.py:1:def handleError():',
      'src/util.js:1:export const handleError = () => {};',
    ].join('\n'));
  });

  it('honours nested .gitignore files and negations', async () => {
    ws.write('pkg/.gitignore', 'gen/\n*.tmp.ts\n!keep.tmp.ts\n');
    ws.write('pkg/gen/out.ts', 'handleError\n');
    ws.write('pkg/a.tmp.ts', 'handleError\n');
    ws.write('pkg/keep.tmp.ts', 'handleError\n');
    expect(await grep({ pattern: 'handleError', path: 'pkg' }, opts())).toBe('pkg/keep.tmp.ts:1:handleError');
  });

  it('prints context lines and -- between groups like ripgrep', async () => {
    const out = await grep({ pattern: 'handleError', path: 'src/app.ts', context: 1 }, opts());
    expect(out).toBe([
      'src/app.ts-2-',
      'src/app.ts:3:function handleError(e) {',
      'src/app.ts-4-  log(e);',
      '--',
      'src/app.ts-8-export function other() {',
      'src/app.ts:9:  handleError(1);',
      'src/app.ts-10-}',
    ].join('\n'));
    const after = await grep({ pattern: 'function handleError', path: 'src', afterContext: 2, beforeContext: 0, context: 5 }, opts());
    expect(after).toBe('src/app.ts:3:function handleError(e) {\nsrc/app.ts-4-  log(e);\nsrc/app.ts-5-  return null;');
  });

  it('filters by file type', async () => {
    expect(await grep({ pattern: 'handleError', fileType: 'py' }, opts())).toBe('src/tool.py:1:def handleError():');
    expect(await grep({ pattern: 'handleError', fileType: 'ts' }, opts())).toBe('src/app.ts:3:function handleError(e) {\nsrc/app.ts:9:  handleError(1);');
    expect(await grep({ pattern: 'handleError', fileType: 'js', path: 'src/' }, opts())).toBe('src/util.js:1:export const handleError = () => {};');
  });

  it('ignoreCase and maxResults', async () => {
    expect(await grep({ pattern: 'HANDLEERROR', fileType: 'py' }, opts())).toMatch(/^No matches found for pattern "HANDLEERROR"/);
    expect(await grep({ pattern: 'HANDLEERROR', fileType: 'py', ignoreCase: true }, opts())).toBe('src/tool.py:1:def handleError():');
    const out = await grep({ pattern: 'handleError', maxResults: 2 }, opts());
    expect(out.split('\n\n')[0].split('\n')).toHaveLength(2);
    expect(out).toMatch(/\[grep stopped at maxResults=2 matching lines/);
  });

  it('line hashes are the engine\'s and feed line-targeted edits', async () => {
    const out = await grep({ pattern: 'return null', path: 'src/app.ts', beforeContext: 1, lineHashes: true }, opts());
    expect(out).toBe(`src/app.ts-4:${referenceLineHash('  log(e);')}-  log(e);\nsrc/app.ts:5:${referenceLineHash('  return null;')}:  return null;`);
    const ref = out.split('\n')[1].split(':').slice(1, 3).join(':');
    const edited = await editTool(opts()).execute({ file_path: 'src/app.ts', start_line: ref, new_string: '  return undefined;' });
    expect(edited).toMatch(/^Successfully/);
    expect(ws.read('src/app.ts')).toContain('  return undefined;\n');
  });

  it('is confined to the allowed folders', async () => {
    expect(await grep({ pattern: 'root', path: '/etc' }, opts())).toMatch(/^Error: Permission denied - .* is outside allowed directories/);
    expect(await grep({ pattern: 'x', path: '../' }, opts())).toMatch(/^Error: Permission denied/);
  });

  it('reports bad input as errors, never throwing', async () => {
    expect(await grep({ pattern: 'foo(' }, opts())).toMatch(/^Error: invalid regular expression "foo\(":/);
    expect(await grep({}, opts())).toMatch(/^Error: pattern is required/);
    expect(await grep({ pattern: 'x', path: 'missing/' }, opts())).toMatch(/^Error: path not found - missing\//);
    expect(await grep({ pattern: 'x', context: -2 }, opts())).toMatch(/^Error: context must be a non-negative whole number/);
    expect(await grep(null, opts())).toMatch(/^Error: pattern is required/);
    expect(await grep({ pattern: 'x', path: 7 }, opts())).toMatch(/^Error: path must be a string/);
  });
});

describe('grepTool', () => {
  it('has the tool shape', () => {
    const tool = grepTool(opts());
    expect(tool.name).toBe('grep');
    expect(tool.inputSchema.required).toEqual(['pattern']);
    expect(Object.keys(tool.inputSchema.properties)).toEqual(expect.arrayContaining(['pattern', 'path', 'beforeContext', 'afterContext', 'context', 'fileType', 'ignoreCase', 'maxResults', 'lineHashes']));
    expect(typeof tool.description).toBe('string');
  });

  it('records every returned file as read (readTracker) and seen (fileTracker)', async () => {
    const readTracker = new FileReadTracker();
    const fileTracker = new FileTracker();
    const tool = grepTool({ ...opts(), readTracker, fileTracker });
    await tool.execute({ pattern: 'def handleError|const handleError' });
    for (const rel of ['src/tool.py', 'src/util.js']) {
      expect(asRuntimeMtime(readTracker.getReadTime(ws.path(rel)))).toBe(statSync(ws.path(rel)).mtimeMs);
      expect(fileTracker.isFileSeen(ws.path(rel))).toBe(true);
    }
    expect(readTracker.hasBeenRead(ws.path('src/app.ts'))).toBe(false);
    const edit = editTool({ ...opts(), readTracker });
    expect(await edit.execute({ file_path: 'src/tool.py', old_string: 'pass', new_string: 'return 1' })).toMatch(/^Successfully/);
    expect(await edit.execute({ file_path: 'src/app.ts', old_string: 'log(e)', new_string: 'warn(e)' })).toMatch(/has not been read yet/);
  });

  it('turns an invalid option into error strings', async () => {
    const tool = grepTool({ ...opts(), readTracker: 'nope' });
    expect(await tool.execute({ pattern: 'x' })).toMatch(/^Error: options\.readTracker must be a FileReadTracker/);
  });
});
