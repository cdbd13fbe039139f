// Fetches the Probe SDK baseline at bench time into a cache directory outside the repository.
//
// Layout of the cache (default ~/.cache/edit-engine-bench/probe, env EDIT_ENGINE_BENCH_CACHE):
//   probelabs-probe-<version>.tgz   `npm pack @probelabs/probe`
//   pkg/                            the extracted package
//   package.json, node_modules/     only the npm packages that src/tools/edit.js and hashline.js
//                                   import (transitively), installed with --ignore-scripts
//   bin/probe                       the `probe` binary (symbol mode), built by the first run that
//                                   finds none (`cargo install probe-code --root <cache>`, minutes)
//   .probe-build-failed             why that build failed (not retried until EDIT_ENGINE_BENCH_REFRESH)
// Nothing here is ever written inside the repository. Every failure is reported, never thrown.

import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const cacheDir = () =>
  process.env.EDIT_ENGINE_BENCH_CACHE || path.join(os.homedir(), '.cache', 'edit-engine-bench', 'probe');

const ENTRY_POINTS = ['src/tools/edit.js', 'src/tools/hashline.js'];
const run = (cmd, args, cwd, timeout) =>
  execFileSync(cmd, args, { cwd, timeout, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** Bare package names imported (statically or dynamically) by `entries` and the files they import. */
export function importedPackages(pkgDir, entries = ENTRY_POINTS) {
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const seen = new Set();
  const packages = new Set();
  const queue = entries.map((e) => path.join(pkgDir, e));
  const re = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file) || !fs.existsSync(file)) continue;
    seen.add(file);
    const src = fs.readFileSync(file, 'utf8');
    for (const m of src.matchAll(re)) {
      const spec = m[1] || m[2] || m[3];
      if (spec.startsWith('.')) {
        let target = path.resolve(path.dirname(file), spec);
        if (!path.extname(target)) target += '.js';
        queue.push(target);
      } else if (!builtins.has(spec)) {
        const parts = spec.split('/');
        packages.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
      }
    }
  }
  return [...packages].sort();
}

function ensurePackage(dir, log) {
  const pkgDir = path.join(dir, 'pkg');
  if (fs.existsSync(path.join(pkgDir, 'src/tools/edit.js')) && !process.env.EDIT_ENGINE_BENCH_REFRESH) return pkgDir;
  fs.mkdirSync(dir, { recursive: true });
  log(`fetching @probelabs/probe into ${dir} (npm pack) ...`);
  const tgz = run('npm', ['pack', '@probelabs/probe', '--silent', '--pack-destination', dir], dir, 180_000)
    .trim()
    .split('\n')
    .pop();
  fs.rmSync(pkgDir, { recursive: true, force: true });
  fs.mkdirSync(pkgDir, { recursive: true });
  run('tar', ['xzf', path.join(dir, tgz), '-C', pkgDir, '--strip-components=1'], dir, 120_000);
  fs.rmSync(path.join(dir, '.deps-ready'), { force: true });
  return pkgDir;
}

function ensureDeps(dir, pkgDir, log) {
  const marker = path.join(dir, '.deps-ready');
  if (fs.existsSync(marker)) return JSON.parse(fs.readFileSync(marker, 'utf8'));
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const wanted = importedPackages(pkgDir);
  const specs = wanted.map((name) => {
    const range = manifest.dependencies?.[name] ?? manifest.peerDependencies?.[name];
    return range ? `${name}@${range}` : name;
  });
  log(`installing Probe's imported dependencies: ${specs.join(' ')}`);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'edit-engine-bench-probe', private: true }, null, 2));
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--silent', ...specs], dir, 300_000);
  fs.writeFileSync(marker, JSON.stringify(specs));
  return specs;
}

/**
 * The `probe` binary for symbol mode: PROBE_PATH, else <cache>/bin/probe, else built once with
 * `cargo install probe-code --root <cache>` (EDIT_ENGINE_BENCH_BUILD_PROBE=0 skips the build). A failed
 * build (no network, no registry) is remembered in <cache>/.probe-build-failed, so later runs skip the
 * symbol rows at once; EDIT_ENGINE_BENCH_REFRESH=1 tries again.
 */
function ensureBinary(dir, log) {
  if (process.env.PROBE_PATH && fs.existsSync(process.env.PROBE_PATH)) return { bin: process.env.PROBE_PATH };
  const bin = path.join(dir, 'bin', 'probe');
  if (fs.existsSync(bin)) return { bin };
  if (process.env.EDIT_ENGINE_BENCH_BUILD_PROBE === '0') {
    return { bin: null, reason: 'probe binary not available (not built: EDIT_ENGINE_BENCH_BUILD_PROBE=0)' };
  }
  const failedMarker = path.join(dir, '.probe-build-failed');
  if (fs.existsSync(failedMarker) && !process.env.EDIT_ENGINE_BENCH_REFRESH) {
    const why = fs.readFileSync(failedMarker, 'utf8').trim();
    return { bin: null, reason: `probe binary not available (an earlier build failed: ${why}; EDIT_ENGINE_BENCH_REFRESH=1 tries again)` };
  }
  const failed = (why) => {
    fs.writeFileSync(failedMarker, why);
    return { bin: null, reason: `probe binary not available (${why})` };
  };
  try {
    log('building the probe binary for Probe\'s symbol mode, once per cache: cargo install probe-code (a few minutes on 2 cores; EDIT_ENGINE_BENCH_BUILD_PROBE=0 skips it) ...');
    run('cargo', ['install', 'probe-code', '--root', dir], dir, 3_600_000);
    if (!fs.existsSync(bin)) return failed('cargo install probe-code produced no bin/probe');
    fs.rmSync(failedMarker, { force: true });
    return { bin };
  } catch (e) {
    return failed(`cargo install probe-code failed: ${firstLine(e)}`);
  }
}

const firstLine = (e) => String(e?.stderr || e?.message || e).trim().split('\n').pop().slice(0, 160);

/**
 * Loads Probe's tools. Returns `{ ok: true, version, editTool, createTool, annotateOutputWithHashes,
 * bin, binReason, deps }` or `{ ok: false, reason }`.
 */
export async function loadProbe(log = () => {}) {
  const dir = cacheDir();
  let pkgDir;
  let deps;
  try {
    pkgDir = ensurePackage(dir, log);
    deps = ensureDeps(dir, pkgDir, log);
  } catch (e) {
    return { ok: false, reason: `Probe not available (${firstLine(e)})` };
  }
  const { bin, reason } = ensureBinary(dir, log);
  // Probe's symbol mode downloads a binary when PROBE_PATH is unset: never let it.
  if (bin) process.env.PROBE_PATH = bin;
  try {
    const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
    const edit = await import(pathToFileURL(path.join(pkgDir, 'src/tools/edit.js')).href);
    const hashline = await import(pathToFileURL(path.join(pkgDir, 'src/tools/hashline.js')).href);
    return {
      ok: true,
      version,
      dir,
      deps,
      editTool: edit.editTool,
      createTool: edit.createTool,
      annotateOutputWithHashes: hashline.annotateOutputWithHashes,
      bin,
      binReason: reason,
    };
  } catch (e) {
    return { ok: false, reason: `Probe not available (import failed: ${firstLine(e)})` };
  }
}
