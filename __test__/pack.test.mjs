// Packaging, as a user on a clean machine meets it: the tarballs a release publishes (see
// scripts/pack-release.mjs, npm run pack:release) installed into empty projects without asking a registry for any name
// (registry packages come from this repository's lockfile, see support/consumer.mjs).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { readRepoLock, writeConsumer } from './support/consumer.mjs';
import { run, stageRelease } from '../scripts/pack-release.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = require('../package.json');
const { SUPPORTED } = require('../lib/platform.cjs');
const npmInstall = (project, tarballs) =>
  run('npm', ['install', ...tarballs, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], project);

/** Installed packages under `project` (every folder holding a package.json below node_modules) and their bytes. */
function installed(project) {
  const names = execFileSync('npm', ['ls', '--all', '--parseable'], { cwd: project, encoding: 'utf8' }).trim().split('\n').slice(1);
  const bytes = (p) => (statSync(p).isDirectory() ? readdirSync(p).reduce((n, e) => n + bytes(join(p, e)), 0) : statSync(p).size);
  return { count: names.length, bytes: bytes(join(project, 'node_modules')) };
}

describe('release tarballs installed into empty projects', () => {
  let dir;
  let release;
  const lock = readRepoLock(repo);

  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-pack-')));
    release = stageRelease(repo, dir);
  }, 300_000); // five npm runs and a 35 MB tarball: about a minute on a loaded 2-core machine

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the package tarball holds the JS layer, types, bin, demo and docs, and no binary, tests or sources', () => {
    const files = release.raw.files.map((f) => f.path);
    for (const f of ['index.js', 'index.d.ts', 'lib/index.cjs', 'lib/index.mjs', 'lib/index.d.ts', 'lib/ai.d.ts', 'lib/anthropic.d.ts', 'lib/mcp.d.ts', 'lib/platform.cjs', 'bin/edit-engine.mjs', 'examples/demo.mjs', 'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs/tools.md', 'docs/options.md', 'docs/guarantees.md']) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => f.endsWith('.node'))).toEqual([]);
    expect(files.filter((f) => /^(__test__|src|crates|npm|bench|scripts|fuzz|target)\//.test(f))).toEqual([]);
  });

  it('napi pre-publish lists every target package as an optional dependency at this version', () => {
    const published = JSON.parse(run('tar', ['xzOf', release.main, 'package/package.json'], dir));
    expect(published.optionalDependencies).toEqual(Object.fromEntries(SUPPORTED.map((s) => [`edit-engine-${s}`, pkg.version])));
    expect(published.dependencies).toBeUndefined();
  });

  describe('only edit-engine and its platform package', () => {
    let project;
    beforeAll(() => {
      project = join(dir, 'lean');
      writeConsumer(project, lock, {});
      mkdirSync(join(project, 'work'));
      writeFileSync(join(project, 'work', 'a.txt'), 'hello world\n');
      npmInstall(project, [release.main, release.platform]);
    }, 120_000);

    it('installs at most 15 packages', () => {
      const { count, bytes } = installed(project);
      console.log(`[pack] edit-engine + platform package: ${count} packages, ${(bytes / 1e6).toFixed(1)} MB`);
      expect(count).toBeLessThanOrEqual(15);
    });

    it('works from import and require', () => {
      const esm = run('node', ['--input-type=module', '-e', `
        import { editTool, engineVersion } from 'edit-engine';
        import { textEditorDefinition } from 'edit-engine/anthropic';
        const root = process.cwd() + '/work';
        const r = await editTool({ allowedFolders: [root], cwd: root }).execute({ file_path: 'a.txt', old_string: 'world', new_string: 'esm' });
        console.log(JSON.stringify({ r, v: engineVersion(), def: textEditorDefinition().name }));
      `], project);
      expect(JSON.parse(esm)).toEqual({ r: 'Successfully edited a.txt (1 replacement)', v: expect.stringMatching(/^\d+\.\d+\.\d+/), def: 'str_replace_based_edit_tool' });
      const cjs = run('node', ['-e', `
        const { editTool, FileTracker } = require('edit-engine');
        const { isTextEditorToolUse } = require('edit-engine/anthropic');
        const root = process.cwd() + '/work';
        editTool({ allowedFolders: [root], cwd: root }).execute({ file_path: 'a.txt', old_string: 'esm', new_string: 'cjs' })
          .then((r) => console.log(JSON.stringify({ r, tracker: typeof new FileTracker().markFileSeen, anthropic: isTextEditorToolUse({ type: 'tool_use', name: 'str_replace_editor' }) })));
      `], project);
      expect(JSON.parse(cjs)).toEqual({ r: 'Successfully edited a.txt (1 replacement)', tracker: 'function', anthropic: true });
      expect(readFileSync(join(project, 'work', 'a.txt'), 'utf8')).toBe('hello cjs\n');
    });

    it('an adapter whose framework is missing says what to install', () => {
      const out = run('node', ['-e', `
        const messages = {};
        for (const entry of ['edit-engine/mcp', 'edit-engine/ai', 'edit-engine/openai', 'edit-engine/langchain', 'edit-engine/mastra']) {
          try { require(entry); messages[entry] = 'loaded'; } catch (e) { messages[entry] = e.code + ': ' + e.message; }
        }
        console.log(JSON.stringify(messages));
      `], project);
      expect(JSON.parse(out)).toEqual({
        'edit-engine/mcp': `EDIT_ENGINE_MISSING_PEER: edit-engine/mcp needs the MCP SDK (@modelcontextprotocol/sdk ${pkg.peerDependencies['@modelcontextprotocol/sdk']}), which is not installed: npm install @modelcontextprotocol/sdk`,
        'edit-engine/ai': `EDIT_ENGINE_MISSING_PEER: edit-engine/ai needs the Vercel AI SDK (ai ${pkg.peerDependencies.ai}), which is not installed: npm install ai`,
        'edit-engine/openai': `EDIT_ENGINE_MISSING_PEER: edit-engine/openai needs the OpenAI Agents SDK (@openai/agents ${pkg.peerDependencies['@openai/agents']}), which is not installed: npm install @openai/agents`,
        'edit-engine/langchain': `EDIT_ENGINE_MISSING_PEER: edit-engine/langchain needs LangChain core (@langchain/core ${pkg.peerDependencies['@langchain/core']}), which is not installed: npm install @langchain/core`,
        'edit-engine/mastra': `EDIT_ENGINE_MISSING_PEER: edit-engine/mastra needs Mastra (@mastra/core ${pkg.peerDependencies['@mastra/core']}), which is not installed: npm install @mastra/core`,
      });
    });

    it('installs the edit-engine bin', () => {
      const bin = join(project, 'node_modules', '.bin', 'edit-engine');
      expect(run(bin, ['view', '--root', 'work', '--json', '{"path":"a.txt"}'], project)).toContain('     1\thello cjs');
      expect(run(bin, ['--version'], project).trim()).toBe(pkg.version);
    });

    it('`edit-engine mcp` without the SDK runs the same server from edit-engine-mcp through npx', () => {
      const fake = join(dir, 'fake-npx');
      mkdirSync(fake);
      writeFileSync(join(fake, 'npx'), '#!/bin/sh\nprintf "%s\\n" "$@" > "$NPX_ARGS_FILE"\nexit 7\n');
      chmodSync(join(fake, 'npx'), 0o755);
      const argsFile = join(dir, 'npx-args.txt');
      const child = spawnSync(join(project, 'node_modules', '.bin', 'edit-engine'), ['mcp', '--root', 'work', '--allow-edit'], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${fake}:${process.env.PATH}`, NPX_ARGS_FILE: argsFile },
      });
      expect(readFileSync(argsFile, 'utf8').trim().split('\n')).toEqual(['--yes', `edit-engine-mcp@${pkg.version}`, '--root', 'work', '--allow-edit']);
      expect(child.stderr).toContain(`running the same server from edit-engine-mcp@${pkg.version}`);
      // npx failed (as it does while the package is not on the registry): the way out is named.
      expect(child.stderr).toContain(`edit-engine-mcp@${pkg.version} failed or is not on the registry (E404). Install the MCP SDK next to edit-engine instead`);
      expect(child.status).toBe(7);
    });
  });

  describe.each([
    ['ai@6', 'node_modules/ai', /^6\./, 'MockLanguageModelV3'],
    ['ai@7', 'node_modules/ai-v7', /^7\./, 'MockLanguageModelV4'],
  ])('with %s', (label, lockKey, version, mock) => {
    it('installs without --legacy-peer-deps and a mock model edits through edit-engine/ai', () => {
      const project = join(dir, label.replace('@', '-'));
      writeConsumer(project, lock, { ai: lockKey });
      npmInstall(project, [release.main, release.platform]);
      // Run from inside the project, so `ai` and `edit-engine` resolve to what it installed.
      copyFileSync(join(repo, '__test__', 'support', 'ai-run.mjs'), join(project, 'ai-run.mjs'));
      const out = JSON.parse(run('node', ['ai-run.mjs'], project));
      expect(out.ai).toMatch(version);
      expect(out.mock).toBe(mock);
      expect(out).toMatchObject({
        text: 'Done.',
        steps: 4,
        seen: [['view', 'text'], ['edit', 'error-text'], ['edit', 'text']],
        file: 'export function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n',
      });
    }, 120_000);
  });

  it('edit-engine-mcp brings the MCP SDK and serves the tools over stdio', async () => {
    const project = join(dir, 'mcp');
    writeConsumer(project, lock, { '@modelcontextprotocol/sdk': 'node_modules/@modelcontextprotocol/sdk' });
    mkdirSync(join(project, 'work'));
    writeFileSync(join(project, 'work', 'a.txt'), 'one\n');
    npmInstall(project, [release.mcp, release.main, release.platform]);
    const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 'pack-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({
      command: join(project, 'node_modules', '.bin', 'edit-engine-mcp'),
      args: ['--root', join(project, 'work'), '--allow-edit'],
      cwd: project,
      stderr: 'pipe',
    }));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['view', 'grep', 'edit', 'create']));
      const done = await client.callTool({ name: 'edit', arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } });
      expect(done.isError).toBe(false);
      expect(readFileSync(join(project, 'work', 'a.txt'), 'utf8')).toBe('two\n');
    } finally {
      await client.close();
    }
  }, 120_000);
});
