'use strict';
// Preload (`node -r`) that makes this process look like another platform, for loader tests:
// SIMULATE_PLATFORM / SIMULATE_ARCH replace process.platform / process.arch, SIMULATE_LIBC
// ('gnu' | 'musl') decides what /usr/bin/ldd and the process report say. Every module the napi
// loader asks for is logged to SIMULATE_LOG (one per line) and reported missing, so the test sees
// exactly which binaries would be tried on that platform (and no `.node` file exists).
const fs = require('node:fs');
const Module = require('node:module');

const { SIMULATE_PLATFORM: platform, SIMULATE_ARCH: arch, SIMULATE_LIBC: libc, SIMULATE_LOG: log } = process.env;
if (platform) Object.defineProperty(process, 'platform', { value: platform });
if (arch) Object.defineProperty(process, 'arch', { value: arch });
if (libc) {
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (file, ...rest) {
    if (file === '/usr/bin/ldd') return libc === 'musl' ? 'musl libc (x86_64)' : 'ldd (GNU libc) 2.36';
    return readFileSync.call(this, file, ...rest);
  };
  const header = libc === 'gnu' ? { glibcVersionRuntime: '2.36' } : {};
  process.report.getReport = () => ({ header, sharedObjects: libc === 'musl' ? ['/lib/ld-musl-x86_64.so.1'] : [] });
}
const existsSync = fs.existsSync;
fs.existsSync = (file) => (String(file).endsWith('.node') ? false : existsSync(file));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (/^edit-engine-|\.node$/.test(request)) {
    if (log) fs.appendFileSync(log, `${request}\n`);
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, parent, ...rest);
};
