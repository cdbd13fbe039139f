// Builds the tarballs a release publishes, the way the release workflow does, from this checkout:
// `npm pack` of the package, napi's own `pre-publish` (which adds the platform packages as
// optionalDependencies) on an unpacked copy, this machine's platform package holding the built
// binary, and the edit-engine-mcp package.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { currentSuffix, SUPPORTED } = require('../../lib/platform.cjs');
const { napi } = require('../../package.json');

const quiet = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } };
export const run = (file, args, cwd, env = {}) => execFileSync(file, args, { ...quiet, cwd, env: { ...quiet.env, ...env } });

/** `npm pack --json` of `dir` into `dest`; returns npm's record of the tarball. */
export function pack(dir, dest) {
  const [record] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dest], dir));
  return { ...record, path: join(dest, record.filename) };
}

/**
 * Stages a release of the checkout `repo` in `dir`; returns `{ raw, main, platform, mcp }`: `raw`
 * is the plain `npm pack` record, the others are tarball paths as they would be published.
 */
export function stageRelease(repo, dir) {
  const raw = pack(repo, dir);
  const stage = join(dir, 'stage');
  mkdirSync(stage);
  run('tar', ['xzf', raw.path, '-C', stage]);
  const root = join(stage, 'package');
  cpSync(join(repo, 'npm'), join(root, 'npm'), { recursive: true });
  const suffix = currentSuffix();
  for (const s of SUPPORTED) {
    const binary = join(root, 'npm', s, `${napi.binaryName}.${s}.node`);
    // Other targets' binaries come from their own runners in the release workflow.
    if (s === suffix) copyFileSync(join(repo, `${napi.binaryName}.${s}.node`), binary);
    else writeFileSync(binary, 'built on its own runner\n');
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
