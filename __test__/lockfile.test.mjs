// scripts/complete-lockfile.mjs: platform parsing, and the committed lockfile is complete (npm ci
// refuses a lockfile that lacks any optional dependency it names).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completeLockfile, platformOf } from '../scripts/complete-lockfile.mjs';

describe('platformOf', () => {
  it('reads os, cpu and libc from platform package names', () => {
    expect(platformOf('@napi-rs/lzma-darwin-arm64')).toEqual({ os: ['darwin'], cpu: ['arm64'] });
    expect(platformOf('@napi-rs/tar-linux-arm-gnueabihf')).toEqual({ os: ['linux'], cpu: ['arm'], libc: ['glibc'] });
    expect(platformOf('@unrs/resolver-binding-linux-x64-musl')).toEqual({ os: ['linux'], cpu: ['x64'], libc: ['musl'] });
    expect(platformOf('@napi-rs/lzma-win32-ia32-msvc')).toEqual({ os: ['win32'], cpu: ['ia32'] });
    expect(platformOf('@napi-rs/lzma-wasm32-wasi')).toEqual({ cpu: ['wasm32'] });
    expect(platformOf('left-pad')).toBeNull();
    expect(platformOf('@scope/thing-linux')).toBeNull();
  });
});

describe('completeLockfile', () => {
  it('adds missing platform entries once, leaving present and non-platform ones alone', () => {
    const lock = {
      packages: {
        '': { name: 'x' },
        'node_modules/a': { version: '1.0.0', dev: true, optionalDependencies: { 'a-linux-x64-gnu': '1.0.0', 'a-darwin-x64': '1.0.0', helper: '^2.0.0' } },
        'node_modules/a-linux-x64-gnu': { version: '1.0.0', optional: true },
      },
    };
    expect(completeLockfile(lock)).toEqual(['a-darwin-x64@1.0.0']);
    expect(lock.packages['node_modules/a-darwin-x64']).toEqual({ version: '1.0.0', dev: true, optional: true, os: ['darwin'], cpu: ['x64'] });
    expect(Object.keys(lock.packages)[0]).toBe('');
    expect(completeLockfile(lock)).toEqual([]);
  });

  it('has nothing to add to the committed lockfile', () => {
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
    expect(completeLockfile(lock)).toEqual([]);
  });
});
