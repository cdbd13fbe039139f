// The native I/O baseline (crates/engine/examples/io_baseline.rs): building it, and a client of
// its `--serve` mode, which times one operation per request so a bench can take turns with it
// call by call. Used by bench/run.mjs and bench/disk-ratio.mjs.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds `io_baseline` (release) and returns its path, or `null` when it cannot be built (the
 * reason goes to `log`).
 */
export function nativeBaselineBinary(log = () => {}) {
  const bin = path.join(ROOT, 'target', 'release', 'examples', 'io_baseline');
  try {
    log('building the native I/O baseline (cargo build --release --example io_baseline) ...');
    execFileSync('cargo', ['build', '--release', '--quiet', '-p', 'edit-engine-core', '--example', 'io_baseline'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 900_000,
    });
    return fs.existsSync(bin) ? bin : null;
  } catch (e) {
    log(`native baseline not available: ${String(e.stderr || e.message).trim().split('\n').pop()}`);
    return null;
  }
}

/**
 * A running `io_baseline --serve`. `atomic(file)`, `write(file)`, `inplace(file)` and
 * `concurrent(threads, dir)` each perform one operation and resolve to the milliseconds it took,
 * timed inside the binary; a failed operation rejects with the binary's reason. One request at a
 * time; `close()` ends it.
 */
export class NativeServer {
  constructor(bin) {
    this.child = spawn(bin, ['--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.waiting = [];
    this.exited = null;
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(line));
    this.child.on('exit', (code) => {
      this.exited = `io_baseline --serve exited (${code})`;
      for (const answer of this.waiting.splice(0)) answer(`error: ${this.exited}`);
    });
  }

  request(command) {
    if (this.exited) return Promise.reject(new Error(this.exited));
    return new Promise((resolve, reject) => {
      this.waiting.push((line) => (line.startsWith('error') ? reject(new Error(`${command}: ${line}`)) : resolve(Number(line) / 1e6)));
      this.child.stdin.write(`${command}\n`);
    });
  }

  atomic(file) {
    return this.request(`atomic ${file}`);
  }

  /** `atomic`'s write alone: the file's bytes are read before the timer starts. */
  write(file) {
    return this.request(`write ${file}`);
  }

  inplace(file) {
    return this.request(`inplace ${file}`);
  }

  concurrent(threads, dir) {
    return this.request(`concurrent ${threads} ${dir}`);
  }

  close() {
    this.child.stdin.end();
  }
}
