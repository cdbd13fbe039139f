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
