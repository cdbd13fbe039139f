// Shared pieces of the trust suites (concurrency, crash, faults, property, paths): the list of
// tool factories every suite iterates over, a seeded PRNG, workspace snapshots, temp-file listing,
// the start of the crash suites' workers.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTool, editFileTool, editTool, grepTool, multiEditTool, replaceInFileTool, textEditorTool } from '../../lib/index.mjs';

/** True when the suites run as root (needed for tmpfs mounts and for `nobody` child processes). */
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

const NOBODY = 65534;

/**
 * `spawnSync` options for a child that must meet real permission failures: as root, the child
 * runs as `nobody` and the tree under `root` is handed to it; otherwise `options` as given. The
 * child gets an undo-history root of its own inside the run's (a write whose level cannot be
 * recorded is refused, and `nobody` cannot write the run's root).
 */
export function unprivileged(root, options) {
  if (!isRoot) return options;
  const chownTree = (p) => {
    chownSync(p, NOBODY, NOBODY);
    if (statSync(p).isDirectory()) for (const f of readdirSync(p)) chownTree(join(p, f));
  };
  chownTree(root);
  const env = { ...(options.env ?? process.env) };
  const runRoot = process.env.EDIT_ENGINE_HISTORY_ROOT;
  if (runRoot) {
    chmodSync(runRoot, 0o711);
    env.EDIT_ENGINE_HISTORY_ROOT = join(runRoot, 'unprivileged');
    mkdirSync(env.EDIT_ENGINE_HISTORY_ROOT, { recursive: true, mode: 0o700 });
    chownSync(env.EDIT_ENGINE_HISTORY_ROOT, NOBODY, NOBODY);
  }
  return { ...options, uid: NOBODY, gid: NOBODY, env };
}

const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));
let runtimeCopy;

/**
 * A copy of what a child needs to load the engine (lib's modules, the loader, the addon,
 * package.json, support/*.cjs) in a fresh folder under the system temp dir that every user can
 * read: a child running as `nobody` cannot read a checkout inside a private folder. Made once per
 * process, removed at exit.
 */
function childRuntime() {
  if (runtimeCopy) return runtimeCopy;
  const dir = mkdtempSync(join(tmpdir(), 'edit-engine-child-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const copy = (from, to, pick) => {
    mkdirSync(join(dir, to), { recursive: true });
    for (const f of readdirSync(join(CHECKOUT, from)).filter(pick)) copyFileSync(join(CHECKOUT, from, f), join(dir, to, f));
  };
  copy('lib', 'lib', (f) => f.endsWith('.cjs'));
  copy('.', '.', (f) => f === 'package.json' || f === 'index.js' || f.endsWith('.node'));
  copy('__test__/support', '__test__/support', (f) => f.endsWith('.cjs'));
  const open = (p) => {
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) for (const f of readdirSync(p)) open(join(p, f));
  };
  open(dir);
  runtimeCopy = dir;
  return dir;
}

/**
 * The path of `__test__/support/<name>` for a child started with `unprivileged` options: as
 * root, the same script in a copy every user can read (see `childRuntime`); otherwise the
 * checkout's own.
 */
export function childScript(name) {
  const root = isRoot ? childRuntime() : CHECKOUT;
  return join(root, '__test__', 'support', name);
}

/** Long variants (more kills, more fuzz cases, longer races) run when EDIT_ENGINE_LONG=1. */
export const LONG = process.env.EDIT_ENGINE_LONG === '1';

/** A result that reports no change at all: an error string, or a multi_edit where nothing succeeded. */
export const reportsNoChange = (result) =>
  result.startsWith('Error') || /^Multi-edit: 0\/\d+ succeeded/.test(result);

/** A result that reports every requested change as done. */
export const reportsSuccess = (result) =>
  /^Successfully /.test(result) ||
  /^Replaced \d+ occurrences?/.test(result) ||
  /^Multi-edit: (\d+)\/\1 succeeded/.test(result) ||
  /^The file .* has been edited\./.test(result);

/**
 * Every writing tool, described once so that the suites can iterate over them.
 *
 * - `factory(options)` builds the tool object.
 * - `replace(path, oldText, newText)` builds params that replace `oldText` by `newText` in `path`
 *   (null for tools that cannot express it).
 * - `write(path, content)` builds params that write the whole file (null when not supported).
 * - `read(path, pattern)` (read-only tools): params that search `path` for `pattern`; the path
 *   suite checks that nothing outside is ever shown, the property suite that nothing ever changes.
 * - `paramShapes` lists the parameter names the property test mixes into random objects;
 *   `fixed` (optional) params it always sets.
 *
 * A new tool gets an entry here (and, when it writes, one in support/tool-worker.cjs).
 */
export const TOOLS = [
  {
    name: 'edit',
    factory: editTool,
    replace: (p, o, n) => ({ file_path: p, old_string: o, new_string: n }),
    write: null,
    paramShapes: ['file_path', 'old_string', 'new_string', 'replace_all', 'start_line', 'end_line', 'position', 'symbol', 'match_strategy', 'workingDirectory'],
  },
  {
    name: 'create',
    factory: createTool,
    replace: null,
    write: (p, content) => ({ file_path: p, content, overwrite: true }),
    paramShapes: ['file_path', 'content', 'overwrite', 'workingDirectory'],
  },
  {
    name: 'multi_edit',
    factory: multiEditTool,
    replace: (p, o, n) => ({ edits: [{ file_path: p, old_string: o, new_string: n }] }),
    write: null,
    paramShapes: ['edits', 'atomic', 'workingDirectory'],
  },
  {
    name: 'multi_edit (atomic)',
    factory: multiEditTool,
    replace: (p, o, n) => ({ atomic: true, edits: [{ file_path: p, old_string: o, new_string: n }] }),
    write: null,
    paramShapes: ['edits', 'atomic', 'workingDirectory'],
  },
  {
    name: 'edit_file',
    factory: editFileTool,
    replace: (p, o, n) => ({ path: p, old_text: o, new_text: n }),
    write: null,
    paramShapes: ['path', 'old_text', 'new_text', 'replace_all', 'workingDirectory'],
  },
  {
    name: 'grep',
    factory: grepTool,
    replace: null,
    write: null,
    read: (p, pattern) => ({ pattern, path: p }),
    paramShapes: ['pattern', 'path', 'beforeContext', 'afterContext', 'context', 'fileType', 'ignoreCase', 'maxResults', 'lineHashes', 'workingDirectory'],
  },
  {
    name: 'replace_in_file',
    factory: replaceInFileTool,
    replace: (p, o, n) => ({ filePath: p, replacements: [{ type: 'string', searchFor: o, replaceWith: n }] }),
    write: null,
    paramShapes: ['filePath', 'replacements', 'type', 'searchFor', 'replaceWith', 'lineNumber', 'insertText', 'workingDirectory'],
  },
  {
    name: 'str_replace_editor',
    factory: textEditorTool,
    replace: (p, o, n) => ({ command: 'str_replace', path: p, old_str: o, new_str: n }),
    write: null,
    paramShapes: ['command', 'path', 'old_str', 'new_str', 'file_text', 'insert_line', 'insert_text', 'view_range', 'workingDirectory'],
  },
  {
    name: 'str_replace_editor (view)',
    factory: textEditorTool,
    replace: null,
    write: null,
    read: (p) => ({ command: 'view', path: p }),
    fixed: { command: 'view' },
    paramShapes: ['path', 'view_range', 'workingDirectory'],
  },
];

/** Mulberry32: a small seeded PRNG; `seed` is printed by the suites so a failure can be replayed. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
  };
}

/** The seed to use: EDIT_ENGINE_SEED when set, else a fresh one. */
export const seedFromEnv = () =>
  process.env.EDIT_ENGINE_SEED ? Number(process.env.EDIT_ENGINE_SEED) >>> 0 : (Math.random() * 2 ** 32) >>> 0;

/**
 * A snapshot of a directory tree: relative path -> sha256 of the content (files), `link:<target>`
 * (symlinks) or `dir` (directories). Two equal snapshots mean a byte-identical tree.
 */
export function snapshotTree(root) {
  const out = {};
  const walk = (dir, rel) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out[r] = `link:${readlinkSync(full)}`;
      else if (st.isDirectory()) {
        out[r] = 'dir';
        walk(full, r);
      } else out[r] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(root, '');
  return out;
}

/** Temp files of the engine's atomic writer (`.edit-engine-*.tmp`) anywhere below `root`. */
export function tempFilesUnder(root) {
  const found = [];
  const walk = (dir) => {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      let st;
      try {
        st = lstatSync(full);
      } catch {
        continue;
      }
      if (/^\.edit-engine-.*\.tmp$/.test(name)) found.push(full);
      else if (st.isDirectory()) walk(full);
    }
  };
  walk(root);
  return found;
}

/** Prints one line of counts (the issue note quotes these). */
export function report(suite, counts) {
  const parts = Object.entries(counts).map(([k, v]) => `${k}=${v}`);
  console.log(`[trust:${suite}] ${parts.join(' ')}`);
}

/**
 * Starts `worker` (a script in this folder) with `args` for a crash suite: `ready` resolves once
 * it prints "ready" and rejects when it prints "failed" (that wins) or exits first; `exit`
 * resolves with `{ code, signal }` when it dies.
 */
export function startCrashWorker(worker, args) {
  const script = fileURLToPath(new URL(`./${worker}`, import.meta.url));
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('failed')) reject(new Error(out));
      else if (out.includes('ready\n')) resolve();
    });
    exit.then((e) => reject(new Error(`worker exited before ready: ${JSON.stringify(e)}`)));
  });
  return { child, ready, exit };
}
