#!/usr/bin/env node
// Builds the tarballs a release publishes, from this checkout and its built binary: edit-engine
// (after napi's `pre-publish`, which lists the platform packages as optionalDependencies), this
// machine's platform package holding the binary, and edit-engine-mcp. The release workflow
// publishes the same three (and the other platforms' packages from their own runners); the
// packaging tests (__test__/pack.test.mjs) install what `stageRelease` builds.
//
//   npm run pack:release                        # builds the addon, then writes release/*.tgz
//   node scripts/pack-release.mjs [--out <dir>] # the tarballs from the binary already built
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { currentSuffix, SUPPORTED } = require('../lib/platform.cjs');
const { napi } = require('../package.json');

const quiet = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } };
/** Runs `file args` in `cwd` quietly; returns its stdout (throws with its stderr on failure). */
export const run = (file, args, cwd, env = {}) => execFileSync(file, args, { ...quiet, cwd, env: { ...quiet.env, ...env } });

/** `npm pack --json` of `dir` into `dest`; returns npm's record of the tarball. */
export function pack(dir, dest) {
  const [record] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dest], dir));
  return { ...record, path: join(dest, record.filename) };
}

/** The binary `npm run build` left in `repo` for this machine, or an error saying to build it. */
function builtBinary(repo) {
  const binary = join(repo, `${napi.binaryName}.${currentSuffix()}.node`);
  if (!existsSync(binary)) throw new Error(`${basename(binary)} is missing: build it first (npm run build), or run npm run pack:release`);
  return binary;
}

/**
 * Stages a release of the checkout `repo` in `dir` (an empty folder); returns `{ raw, main,
 * platform, mcp }`: `raw` is the plain `npm pack` record, the others are tarball paths as they
 * would be published.
 */
export function stageRelease(repo, dir) {
  const binary = builtBinary(repo);
  const raw = pack(repo, dir);
  const stage = join(dir, 'stage');
  mkdirSync(stage);
  run('tar', ['xzf', raw.path, '-C', stage]);
  const root = join(stage, 'package');
  cpSync(join(repo, 'npm'), join(root, 'npm'), { recursive: true });
  const suffix = currentSuffix();
  for (const s of SUPPORTED) {
    const target = join(root, 'npm', s, `${napi.binaryName}.${s}.node`);
    // Other targets' binaries come from their own runners in the release workflow.
    if (s === suffix) copyFileSync(binary, target);
    else writeFileSync(target, 'built on its own runner\n');
  }
  run(join(repo, 'node_modules', '.bin', 'napi'), ['pre-publish', '-t', 'npm', '--skip-optional-publish', '--no-gh-release'], root);
  const out = join(dir, 'release');
  mkdirSync(out);
  return {
    raw,
    main: pack(root, out).path,
    platform: pack(join(root, 'npm', suffix), out).path,
    mcp: pack(join(repo, 'npm', 'mcp'), out).path,
  };
}

/** Writes the three tarballs into `out` (replacing earlier ones of the same names); returns their paths. */
function packRelease(repo, out) {
  const work = mkdtempSync(join(tmpdir(), 'edit-engine-release-'));
  try {
    const staged = stageRelease(repo, work);
    mkdirSync(out, { recursive: true });
    return [staged.main, staged.platform, staged.mcp].map((from) => {
      const to = join(out, basename(from));
      rmSync(to, { force: true });
      renameSync(from, to);
      return to;
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  try {
    const [main, platform, mcp] = packRelease(repo, resolve(values.out ?? join(repo, 'release')));
    console.log(`${main}\n${platform}\n${mcp}\n\nInstall them in a project (all three, or the first two without the MCP server):\n  npm install ${main} ${platform} ${mcp}`);
  } catch (error) {
    console.error(`pack:release: ${error.message}`);
    process.exitCode = 1;
  }
}
