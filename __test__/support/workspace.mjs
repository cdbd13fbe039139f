// Temporary workspaces for tool tests: a real directory tree, removed after each test.
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fresh directory (real path) with helpers to write and read files in it. */
export function makeWorkspace(prefix = 'edit-engine-test-') {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return {
    root,
    path: (rel) => join(root, rel),
    write(rel, content) {
      const full = join(root, rel);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    read: (rel) => readFileSync(join(root, rel), 'utf8'),
    bytes: (rel) => readFileSync(join(root, rel)),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Reference DJB2 line hash written from the published definition (white space removed, UTF-16
 * code units, 32-bit wrap, low byte as two hex digits): an oracle independent of the engine.
 */
export function referenceLineHash(line) {
  const stripped = line.replace(/\s+/g, '');
  let h = 5381 >>> 0;
  for (let i = 0; i < stripped.length; i++) {
    h = (Math.imul(h, 33) + stripped.charCodeAt(i)) >>> 0;
  }
  return (h & 0xff).toString(16).padStart(2, '0');
}
