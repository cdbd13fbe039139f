// Packaging: `npm pack` -> install the tarball into an empty project (offline, from the npm cache
// that installing this repo filled) -> use it from `import`, `require`, the subpath exports and
// the `edit-engine` bin.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const aiVersion = JSON.parse(readFileSync(join(repo, 'node_modules/ai/package.json'), 'utf8')).version;
const quiet = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } };

function run(file, args, cwd) {
  return execFileSync(file, args, { ...quiet, cwd, maxBuffer: 64 << 20 });
}

describe('npm pack + install into an empty project', () => {
  let dir;
  let project;
  let packed;

  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-pack-')));
    [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], repo));
    project = join(dir, 'consumer');
    run('mkdir', ['-p', join(project, 'work')], dir);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    writeFileSync(join(project, 'work', 'a.txt'), 'hello world\n');
    run('npm', ['install', join(dir, packed.filename), `ai@${aiVersion}`, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], project);
  }, 240_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the tarball holds the native binary, the JS layer, the types and the bin, and no tests', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toContain('edit-engine.linux-x64-gnu.node');
    for (const f of ['index.js', 'index.d.ts', 'lib/index.cjs', 'lib/index.mjs', 'lib/index.d.ts', 'lib/ai.d.ts', 'lib/anthropic.d.ts', 'lib/mcp.d.ts', 'bin/edit-engine.mjs', 'examples/demo.mjs', 'package.json']) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => f.startsWith('__test__/') || f.startsWith('src/') || f.startsWith('crates/'))).toBe(false);
  });

  it('works from import', () => {
    const out = run('node', ['--input-type=module', '-e', `
      import { editTool, engineVersion } from 'edit-engine';
      import { createAiTools } from 'edit-engine/ai';
      import { textEditorDefinition } from 'edit-engine/anthropic';
      import { createMcpServer } from 'edit-engine/mcp';
      const root = process.cwd() + '/work';
      const r = await editTool({ allowedFolders: [root], cwd: root }).execute({ file_path: 'a.txt', old_string: 'world', new_string: 'esm' });
      console.log(JSON.stringify({ r, v: engineVersion(), ai: Object.keys(createAiTools({ cwd: root })), def: textEditorDefinition().name, mcp: typeof createMcpServer({ root }).connect }));
    `], project);
    const res = JSON.parse(out);
    expect(res.r).toBe('Successfully edited a.txt (1 replacement)');
    expect(res.v).toMatch(/^\d+\.\d+\.\d+/);
    expect(res.ai).toContain('view');
    expect(res.def).toBe('str_replace_based_edit_tool');
    expect(res.mcp).toBe('function');
    expect(readFileSync(join(project, 'work', 'a.txt'), 'utf8')).toBe('hello esm\n');
  });

  it('works from require', () => {
    const out = run('node', ['-e', `
      const { editTool, FileTracker } = require('edit-engine');
      const { toAiTool } = require('edit-engine/ai');
      const { isTextEditorToolUse } = require('edit-engine/anthropic');
      const root = process.cwd() + '/work';
      editTool({ allowedFolders: [root], cwd: root })
        .execute({ file_path: 'a.txt', old_string: 'esm', new_string: 'cjs' })
        .then((r) => console.log(JSON.stringify({ r, tracker: typeof new FileTracker().markFileSeen, ai: typeof toAiTool, anthropic: isTextEditorToolUse({ type: 'tool_use', name: 'str_replace_editor' }) })));
    `], project);
    expect(JSON.parse(out)).toEqual({ r: 'Successfully edited a.txt (1 replacement)', tracker: 'function', ai: 'function', anthropic: true });
    expect(readFileSync(join(project, 'work', 'a.txt'), 'utf8')).toBe('hello cjs\n');
  });

  it('installs the edit-engine bin', () => {
    const bin = join(project, 'node_modules', '.bin', 'edit-engine');
    const out = run(bin, ['view', '--root', 'work', '--json', '{"path":"a.txt"}'], project);
    expect(out).toContain('     1\thello cjs');
    expect(run(bin, ['--version'], project).trim()).toBe(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version);
  });
});
