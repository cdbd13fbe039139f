'use strict';
// Which native binary this process needs, and the error to throw when it cannot be had. The
// supported targets are the `napi.targets` of package.json (the list the release builds).

const fs = require('node:fs');
const nodePath = require('node:path');
const { name, version, repository, napi } = require('../package.json');

const ARCHES = { x86_64: 'x64', aarch64: 'arm64' };

/** `linux-x64-gnu` for `x86_64-unknown-linux-gnu`, `darwin-arm64` for `aarch64-apple-darwin`: napi's package suffixes. */
function suffixOfTriple(triple) {
  const [arch, , os, abi] = triple.split('-');
  const cpu = ARCHES[arch] || arch;
  if (os === 'darwin') return `darwin-${cpu}`;
  return abi ? `${os}-${cpu}-${abi}` : `${os}-${cpu}`;
}

/** The package suffixes a release ships, in package.json order. */
const SUPPORTED = napi.targets.map(suffixOfTriple);

/** `gnu` or `musl` on Linux, decided as napi's loader decides (ldd's text, then the process report), else null. */
function libcOf(platform) {
  if (platform !== 'linux') return null;
  try {
    return fs.readFileSync('/usr/bin/ldd', 'utf8').includes('musl') ? 'musl' : 'gnu';
  } catch {
    const header = process.report && typeof process.report.getReport === 'function' ? process.report.getReport().header : null;
    return header && header.glibcVersionRuntime ? 'gnu' : 'musl';
  }
}

/** This process's package suffix (`linux-x64-gnu`, `darwin-arm64`, `win32-x64`, ...). */
function currentSuffix(platform = process.platform, arch = process.arch) {
  const libc = libcOf(platform);
  return libc ? `${platform}-${arch}-${libc}` : `${platform}-${arch}`;
}

const FROM_SOURCE =
  `build it from source with Rust (stable) and Node 20+: git clone ${repository.url.replace(/^git\+/, '')} && ` +
  `cd edit-engine && npm ci && npm run build, then set NAPI_RS_NATIVE_LIBRARY_PATH to the built edit-engine.*.node file`;

/** The error for a platform no release targets. */
function unsupportedError(suffix) {
  const windows = suffix.startsWith('win32-')
    ? ' Windows is not supported: the file layer is Unix-only (openat, flock, no-follow opens); use WSL.'
    : '';
  return new Error(
    `edit-engine has no native binary for ${suffix}.${windows} Supported targets: ${SUPPORTED.join(', ')}. ` +
      `To run elsewhere, ${FROM_SOURCE}.`,
  );
}

/** Whether the binary for `suffix` is present: beside the package (a source build) or as its package. */
function binaryPresent(suffix, root = nodePath.join(__dirname, '..')) {
  if (fs.existsSync(nodePath.join(root, `${napi.binaryName}.${suffix}.node`))) return true;
  try {
    require.resolve(`${name}-${suffix}/package.json`, { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

/** The error for a supported platform whose binary package did not load. */
function missingBinaryError(suffix, cause) {
  const pkg = `${name}-${suffix}`;
  const error = new Error(
    `edit-engine: the native binary for ${suffix} (package ${pkg}@${version}) is not installed ` +
      `(supported targets: ${SUPPORTED.join(', ')}). ` +
      `npm installs it as an optional dependency: reinstall without --omit=optional / --no-optional ` +
      `(e.g. rm -rf node_modules package-lock.json && npm install), or add it explicitly: npm install ${pkg}@${version}.`,
  );
  error.cause = cause;
  return error;
}

/** The error for a binary that is present but failed to load (a wrong libc, a corrupt file, ...). */
function loadFailedError(suffix, cause) {
  const first = cause && cause.message ? String(cause.message).split('\n')[0] : String(cause);
  const error = new Error(`edit-engine: the native binary for ${suffix} failed to load: ${first}. Reinstall edit-engine, or ${FROM_SOURCE}.`);
  error.cause = cause;
  return error;
}

/**
 * Loads the napi loader (`index.js`), turning its generic failure into an error that says what to
 * do: an unsupported platform is refused before anything is tried.
 */
function loadNative(load = () => require('../index.js')) {
  if (process.env.NAPI_RS_NATIVE_LIBRARY_PATH) return load();
  const suffix = currentSuffix();
  if (!SUPPORTED.includes(suffix)) throw unsupportedError(suffix);
  try {
    return load();
  } catch (error) {
    throw binaryPresent(suffix) ? loadFailedError(suffix, error) : missingBinaryError(suffix, error);
  }
}

module.exports = { SUPPORTED, suffixOfTriple, currentSuffix, loadNative };
