// The loader on every platform: which binary package it asks for, and the error a user sees when
// none can be loaded. Platforms are simulated in child processes (see support/simulate-platform.cjs).
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const repo = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const { SUPPORTED, suffixOfTriple } = require('../lib/platform.cjs');
const { napi } = require('../package.json');
const loadAsScript = join(repo, '__test__', 'support', 'load-as-platform.cjs');

/** Requires edit-engine as `platform`/`arch`/`libc`; returns the error message and the modules tried. */
function loadAs(platform, arch, libc) {
  const dir = mkdtempSync(join(tmpdir(), 'edit-engine-platform-'));
  const log = join(dir, 'tried.txt');
  try {
    const env = { ...process.env, SIMULATE_PLATFORM: platform, SIMULATE_ARCH: arch, SIMULATE_LOG: log };
    delete env.NAPI_RS_NATIVE_LIBRARY_PATH;
    if (libc) env.SIMULATE_LIBC = libc;
    const child = spawnSync(process.execPath, [loadAsScript], { env, encoding: 'utf8' });
    let tried = [];
    try { tried = readFileSync(log, 'utf8').split('\n').filter(Boolean); } catch { /* nothing was tried */ }
    return { message: child.stdout.trim(), stderr: child.stderr, tried };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('platform targets', () => {
  it('the supported list is package.json napi.targets, in napi package-suffix form', () => {
    expect(SUPPORTED).toEqual(['linux-x64-gnu', 'linux-x64-musl', 'linux-arm64-gnu', 'darwin-arm64', 'darwin-x64']);
    expect(napi.targets.map(suffixOfTriple)).toEqual(SUPPORTED);
  });

  it('every target has its package under npm/ named, constrained and holding its binary as napi lays it out', () => {
    for (const suffix of SUPPORTED) {
      const pkg = JSON.parse(readFileSync(join(repo, 'npm', suffix, 'package.json'), 'utf8'));
      const [os, cpu, abi] = suffix.split('-');
      expect(pkg.name).toBe(`edit-engine-${suffix}`);
      expect(pkg.os).toEqual([os]);
      expect(pkg.cpu).toEqual([cpu]);
      expect(pkg.libc).toEqual(abi ? [abi === 'gnu' ? 'glibc' : 'musl'] : undefined);
      expect(pkg.main).toBe(`edit-engine.${suffix}.node`);
      expect(pkg.files).toEqual([`edit-engine.${suffix}.node`]);
      expect(pkg.version).toBe(require('../package.json').version);
    }
  });
});

describe('edit-engine-mcp', () => {
  it('is released at edit-engine\'s version, depends on exactly that version and on the SDK range edit-engine supports', () => {
    const root = require('../package.json');
    const mcp = JSON.parse(readFileSync(join(repo, 'npm', 'mcp', 'package.json'), 'utf8'));
    expect(mcp.version).toBe(root.version);
    expect(mcp.dependencies).toEqual({ 'edit-engine': root.version, '@modelcontextprotocol/sdk': root.peerDependencies['@modelcontextprotocol/sdk'] });
    expect(mcp.bin).toEqual({ 'edit-engine-mcp': 'bin.mjs' });
  });
});

describe('the loader on each platform', () => {
  const cases = [
    ['linux', 'x64', 'gnu', 'linux-x64-gnu'],
    ['linux', 'x64', 'musl', 'linux-x64-musl'],
    ['linux', 'arm64', 'gnu', 'linux-arm64-gnu'],
    ['darwin', 'arm64', null, 'darwin-arm64'],
    ['darwin', 'x64', null, 'darwin-x64'],
  ];
  it.each(cases)('%s %s %s asks for edit-engine-%s and says to reinstall optional dependencies when it is missing', (platform, arch, libc, suffix) => {
    const { message, tried } = loadAs(platform, arch, libc);
    expect(tried).toContain(`edit-engine-${suffix}`);
    expect(tried).toContain(`./edit-engine.${suffix}.node`);
    const others = SUPPORTED.filter((s) => s !== suffix).map((s) => `edit-engine-${s}`);
    expect(tried.filter((t) => others.includes(t))).toEqual([]);
    expect(message).toContain(`the native binary for ${suffix} (package edit-engine-${suffix}@`);
    expect(message).toContain('is not installed');
    expect(message).toContain('--omit=optional');
    expect(message).toContain(`supported targets: ${SUPPORTED.join(', ')}`);
  });

  it.each([
    ['win32', 'x64', null, 'win32-x64'],
    ['linux', 'arm64', 'musl', 'linux-arm64-musl'],
    ['freebsd', 'x64', null, 'freebsd-x64'],
    ['linux', 'ia32', 'gnu', 'linux-ia32-gnu'],
  ])('%s %s %s is refused before any binary is tried, naming the platform, the supported list and the source build', (platform, arch, libc, suffix) => {
    const { message, tried } = loadAs(platform, arch, libc);
    expect(tried).toEqual([]);
    expect(message).toContain(`edit-engine has no native binary for ${suffix}.`);
    expect(message).toContain(`Supported targets: ${SUPPORTED.join(', ')}.`);
    expect(message).toContain('npm ci && npm run build');
    expect(message).toContain('NAPI_RS_NATIVE_LIBRARY_PATH');
    if (platform === 'win32') expect(message).toContain('Windows is not supported');
  });

  it('loads on this machine, unsimulated', () => {
    const child = spawnSync(process.execPath, [join(repo, 'lib', 'index.cjs')], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
  });
});
