// The edit-engine command line: one tool call per run, exit status by result.
import { describe, it, expect, afterEach } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeWorkspace } from './support/workspace.mjs';
import { viewTool } from '../lib/view.cjs';

const bin = fileURLToPath(new URL('../bin/edit-engine.mjs', import.meta.url));
const cli = (args, opts = {}) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', ...opts });

describe('edit-engine CLI', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('stops quietly when its reader closes the pipe early (edit-engine tools | head -1)', async () => {
    const child = spawn(process.execPath, [bin, 'tools'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the command writes its first line
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(status).toBe(0);
  });

  it('runs a tool once: exit 0 on success, 1 on an Error result', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('a.txt', 'one two\n');
    const ok = cli(['edit', '--root', ws.root, '--json', JSON.stringify({ file_path: 'a.txt', old_string: 'two', new_string: 'three' })]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe('Successfully edited a.txt (1 replacement)\n');
    expect(ws.read('a.txt')).toBe('one three\n');
    const failed = cli(['edit', '--root', ws.root, '--json', JSON.stringify({ file_path: 'a.txt', old_string: 'zzz', new_string: 'x' })]);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/^Error/);
    expect(ws.read('a.txt')).toBe('one three\n');
  });

  it('resolves paths against --root (default: cwd), reads --json - from stdin, --diff adds a diff', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('src/b.js', 'let x = 1;\n');
    const viewed = cli(['view', '--json', '-'], { cwd: ws.root, input: '{"path":"src/b.js"}' });
    expect(viewed.status).toBe(0);
    expect(viewed.stdout).toContain('     1\tlet x = 1;');
    const diffed = cli(['edit', '--diff', '--json={"file_path":"src/b.js","old_string":"1","new_string":"2"}'], { cwd: ws.root });
    expect(diffed.status).toBe(0);
    expect(diffed.stdout).toContain('+let x = 2;');
  });

  it('--protect and --read-only refuse writes', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('.env', 'SECRET=1\n');
    const params = JSON.stringify({ file_path: '.env', old_string: '1', new_string: '2' });
    const protectedRun = cli(['edit', '--root', ws.root, '--protect', '.env', '--json', params]);
    expect(protectedRun.status).toBe(1);
    const readOnly = cli(['edit', '--root', ws.root, '--read-only', '--json', params]);
    expect(readOnly.status).toBe(2);
    expect(readOnly.stderr).toContain('--read-only');
    expect(ws.read('.env')).toBe('SECRET=1\n');
  });

  it('usage errors exit 2 with a hint; --help and --version exit 0', () => {
    expect(cli(['nope', '--json', '{}']).status).toBe(2);
    expect(cli(['edit']).stderr).toContain('needs --json');
    expect(cli(['edit', '--json', '[1]']).stderr).toContain('JSON object');
    expect(cli(['edit', '--json', '{bad']).stderr).toContain('not valid JSON');
    expect(cli(['view', '--root', '/definitely/missing', '--json', '{"path":"."}']).status).toBe(2);
    expect(cli(['--bogus']).status).toBe(2);
    expect(cli([]).status).toBe(2);
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('edit-engine mcp');
    expect(cli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const tools = cli(['tools']);
    expect(tools.stdout).toMatch(/^view\s+read-only/m);
    expect(tools.stdout).toMatch(/^edit\s+edits/m);
  });
});

describe('edit-engine apply_patch, apply_diff and undo', () => {
  let ws;
  afterEach(() => ws?.cleanup());
  const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+three\n*** End Patch\n';
  const DIFF = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-one\n+ONE\n three\n';

  it('apply_patch takes the patch from --text <file> or --json; a patch that does not apply exits 1 and changes nothing', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('a.txt', 'one\ntwo\n');
    ws.write('p.patch', PATCH);
    const applied = cli(['apply_patch', '--root', ws.root, '--text', 'p.patch'], { cwd: ws.root });
    expect(applied.status).toBe(0);
    expect(applied.stdout).toBe('Success. Patch applied to 1 file(s):\nM a.txt (1 hunk(s))\n');
    expect(ws.read('a.txt')).toBe('one\nthree\n');
    const again = cli(['apply_patch', '--root', ws.root, '--json', JSON.stringify({ input: PATCH })]);
    expect(again.status).toBe(1);
    expect(again.stdout).toMatch(/^Error/);
    expect(ws.read('a.txt')).toBe('one\nthree\n');
  });

  it('apply_diff reads the diff from stdin with --text -', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('a.txt', 'one\nthree\n');
    const applied = cli(['apply_diff', '--text', '-'], { cwd: ws.root, input: DIFF });
    expect(applied.status).toBe(0);
    expect(applied.stdout).toMatch(/^Success/);
    expect(ws.read('a.txt')).toBe('ONE\nthree\n');
  });

  it('undo steps back through the writes of earlier runs, then says there is nothing left (exit 1)', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('a.txt', 'one\ntwo\n');
    ws.write('p.patch', PATCH);
    expect(cli(['apply_patch', '--text', 'p.patch'], { cwd: ws.root }).status).toBe(0);
    expect(cli(['apply_diff', '--text', '-'], { cwd: ws.root, input: DIFF }).status).toBe(0);
    const undo = () => cli(['undo', '--root', ws.root, '--json', '{"path":"a.txt"}']);
    const first = undo();
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^Last edit to a\.txt undone successfully: restored the content from before the last apply_diff write/);
    expect(ws.read('a.txt')).toBe('one\nthree\n');
    expect(undo().status).toBe(0);
    expect(ws.read('a.txt')).toBe('one\ntwo\n');
    const none = undo();
    expect(none.status).toBe(1);
    expect(none.stdout).toMatch(/^Error: No edit history found for a\.txt/);
    expect(ws.read('a.txt')).toBe('one\ntwo\n');
  });

  it('refuses misuse with exit 2: undo under --read-only, --text for another tool, an unreadable --text file', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('a.txt', 'one\ntwo\n');
    const readOnly = cli(['undo', '--read-only', '--json', '{"path":"a.txt"}'], { cwd: ws.root });
    expect(readOnly.status).toBe(2);
    expect(readOnly.stderr).toContain('undo edits files; it is refused with --read-only');
    const textForEdit = cli(['edit', '--text', 'a.txt'], { cwd: ws.root });
    expect(textForEdit.status).toBe(2);
    expect(textForEdit.stderr).toContain('--text is for apply_patch and apply_diff');
    const missing = cli(['apply_patch', '--text', 'missing.patch'], { cwd: ws.root });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--text missing.patch cannot be read (ENOENT)');
    expect(cli(['apply_diff'], { cwd: ws.root }).stderr).toContain("apply_diff needs --json '<params>' or --text <file>");
    expect(ws.read('a.txt')).toBe('one\ntwo\n');
  });

  it('each of them has --help with its parameters, and `tools` lists them', () => {
    const patchHelp = cli(['apply_patch', '--help']);
    expect(patchHelp.status).toBe(0);
    expect(patchHelp.stdout).toContain('input (required): string');
    expect(patchHelp.stdout).toContain('*** Begin Patch');
    const diffHelp = cli(['apply_diff', '--help']);
    expect(diffHelp.status).toBe(0);
    expect(diffHelp.stdout).toContain('diff (required): string');
    expect(diffHelp.stdout).toContain('--text <file> fills diff');
    const undoHelp = cli(['undo', '--help']);
    expect(undoHelp.status).toBe(0);
    expect(undoHelp.stdout).toContain('path (required): string');
    expect(cli(['nope', '--help']).status).toBe(2);
    const tools = cli(['tools']).stdout;
    expect(tools).toMatch(/^apply_patch\s+edits\s+required: input$/m);
    expect(tools).toMatch(/^apply_diff\s+edits\s+required: diff$/m);
    expect(tools).toMatch(/^undo\s+edits\s+required: path$/m);
  });
});

describe('edit-engine checkpoint, rewind and preview', () => {
  let ws;
  afterEach(() => ws?.cleanup());

  it('a session\'s edits over several runs are rewound to a checkpoint; preview writes nothing', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('a.txt', 'one\n');
    const session = ['--root', ws.root, '--session', 'cli-s1'];
    const taken = cli(['checkpoint', ...session, '--label', 'start']);
    expect(taken.status, taken.stderr).toBe(0);
    const id = taken.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const params = JSON.stringify({ file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    const shown = cli(['preview', 'edit', ...session, '--json', params]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('+two');
    expect(ws.read('a.txt')).toBe('one\n');
    expect(cli(['edit', ...session, '--json', params]).status).toBe(0);
    expect(cli(['create', ...session, '--json', '{"file_path":"b.txt","content":"b\\n"}']).status).toBe(0);
    const dry = cli(['rewind', id, ...session, '--dry-run']);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/would change 2 files/);
    expect(ws.read('a.txt')).toBe('two\n');
    const other = cli(['rewind', id, '--root', ws.root, '--session', 'cli-s2']);
    expect(other.status).toBe(1);
    expect(other.stdout).toMatch(/belongs to another session/);
    const done = cli(['rewind', id, ...session]);
    expect(done.status, done.stdout).toBe(0);
    expect(done.stdout).toMatch(/^Rewound 2 files to checkpoint/);
    expect(ws.read('a.txt')).toBe('one\n');
    expect(() => ws.read('b.txt')).toThrow();
  });

  it('without --session, the runs in one root are one session: checkpoint, edit and rewind in separate runs', () => {
    ws = makeWorkspace('edit-engine-cli-');
    ws.write('a.txt', 'one\n');
    const root = ['--root', ws.root];
    const taken = cli(['checkpoint', ...root]);
    expect(taken.status, taken.stderr).toBe(0);
    const id = taken.stdout.trim();
    const params = JSON.stringify({ file_path: 'a.txt', old_string: 'one', new_string: 'two' });
    expect(cli(['edit', ...root, '--json', params]).status).toBe(0);
    // Writes of a named session are not the root's default session's.
    expect(cli(['create', ...root, '--session', 'named', '--json', '{"file_path":"b.txt","content":"b\\n"}']).status).toBe(0);
    const done = cli(['rewind', id, ...root]);
    expect(done.status, done.stdout).toBe(0);
    expect(done.stdout).toMatch(/^Rewound 1 file to checkpoint/);
    expect(ws.read('a.txt')).toBe('one\n');
    expect(ws.read('b.txt')).toBe('b\n');
    const named = cli(['rewind', id, ...root, '--session', 'named']);
    expect(named.status).toBe(1);
    expect(named.stdout).toMatch(/belongs to another session/);
    expect(cli(['--help']).stdout).toContain('default: the root\'s own, cli:<real path of --root>');
  });
});

describe('view tool', () => {
  let ws;
  let outside;
  afterEach(() => {
    ws?.cleanup();
    outside?.cleanup();
  });

  it('does not follow a symlink out of the allowed folders', async () => {
    ws = makeWorkspace('edit-engine-view-');
    outside = makeWorkspace('edit-engine-view-outside-');
    outside.write('secret.txt', 'secret\n');
    symlinkSync(outside.path('secret.txt'), ws.path('link.txt'));
    const view = viewTool({ allowedFolders: [ws.root], cwd: ws.root });
    const result = await view.execute({ path: 'link.txt' });
    expect(result).toMatch(/^Error/);
    expect(result).not.toContain('secret\n');
  });

  it('keeps CRLF out of the view, drops a BOM, refuses binary files and never throws', async () => {
    ws = makeWorkspace('edit-engine-view-');
    ws.write('crlf.txt', '\ufeffa\r\nb\r\n');
    ws.write('bin.dat', Buffer.from([1, 0, 2]));
    const view = viewTool({ allowedFolders: [ws.root], cwd: ws.root });
    expect(await view.execute({ path: 'crlf.txt' })).toBe("Here's the result of running `cat -n` on crlf.txt:\n     1\ta\n     2\tb\n");
    expect(await view.execute({ path: 'crlf.txt', view_range: [2, -1] })).toContain('     2\tb');
    expect(await view.execute({ path: 'bin.dat' })).toMatch(/^Error/);
    expect(await view.execute({ path: 'crlf.txt', view_range: 'x' })).toMatch(/^Error: Invalid `view_range`/);
    expect(await view.execute(null)).toMatch(/^Error/);
    expect(await view.execute({ path: '.', view_range: [1, 2] })).toMatch(/^Error/);
  });
});
