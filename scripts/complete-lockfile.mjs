#!/usr/bin/env node
// Completes package-lock.json with the platform-specific optional packages `npm install` could not
// describe here (the registry reachable from this machine serves only this platform's builds of
// some native packages, so their other-platform siblings are left out of the lockfile and
// `npm ci` then refuses it as out of sync).
//
// For every optional dependency named like `<name>-<os>-<cpu>[-<libc/abi>]` that the lockfile
// lacks, an entry is added with the version the parent pins and the `os` / `cpu` / `libc` fields
// its name states. `npm ci` skips such entries on any other platform without fetching them, so
// they need no download address or integrity. Idempotent; run it after `npm install` changes the
// lockfile: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OSES = new Set(['aix', 'android', 'darwin', 'freebsd', 'linux', 'netbsd', 'openbsd', 'openharmony', 'sunos', 'win32']);

/** `{ os, cpu, libc }` from a platform package's name, or null when the name states no platform. */
export function platformOf(name) {
  const tokens = name.slice(name.lastIndexOf('/') + 1).split('-');
  const wasm = tokens.indexOf('wasm32');
  if (wasm >= 0) return { cpu: ['wasm32'] };
  const at = tokens.findIndex((t) => OSES.has(t));
  if (at < 0 || at + 1 >= tokens.length) return null;
  const fields = { os: [tokens[at]], cpu: [tokens[at + 1]] };
  const abi = tokens[at + 2] || '';
  if (tokens[at] === 'linux' && abi.startsWith('gnu')) fields.libc = ['glibc'];
  if (tokens[at] === 'linux' && abi.startsWith('musl')) fields.libc = ['musl'];
  return fields;
}

/** Adds the missing entries to a parsed lockfile; returns the names added. */
export function completeLockfile(lock) {
  const packages = lock.packages || {};
  const added = [];
  for (const [location, entry] of Object.entries(packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies || {})) {
      const nested = `${location}/node_modules/${dep}`;
      const top = `node_modules/${dep}`;
      if (packages[nested] || packages[top]) continue;
      const platform = platformOf(dep);
      if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
      packages[top] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
      added.push(`${dep}@${version}`);
    }
  }
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
  return added;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = new URL('../package-lock.json', import.meta.url);
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  const added = completeLockfile(lock);
  writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
  console.log(added.length ? `added ${added.length} entries:\n  ${added.join('\n  ')}` : 'lockfile already complete');
}
