// Path attacks: for every tool that takes a path, every attempt to write outside
// the allowed folder or into a protected path must fail, and nothing outside may change.
//
// Unicode look-alikes (`.gіt/config` with a Cyrillic "і", full-width slashes) are different names
// on disk; they are deliberately allowed (they are not the protected file) and not counted here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeWorkspace } from './support/workspace.mjs';
import { LONG, TOOLS, report, reportsNoChange, snapshotTree, tempFilesUnder } from './support/trust.mjs';

const PROTECTED = ['.git/', '.env', 'secrets/**'];
const SECRET = 'SECRET counter\n';
// Only files outside the workspace contain this token: a read-only tool that shows it has escaped.
const TOKEN = 'outside0nly';
const OUTSIDE = `SECRET counter ${TOKEN}\n`;
// A result containing this has shown the outside file (a "no match" answer may echo TOKEN alone).
const SHOWN = `counter ${TOKEN}`;
const counts = { attacks: 0, escapes: 0, raceEdits: 0, raceCycles: 0, raceEscapes: 0 };

// Created at load time: the attack list (built while tests are collected) names their paths.
const ws = makeWorkspace('edit-engine-paths-');
const outside = makeWorkspace('edit-engine-outside-');
let holdDir;
beforeAll(() => {
  holdDir = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-hold-')));
  outside.write('secret.txt', OUTSIDE);
  outside.write('dir/f.txt', OUTSIDE);
  for (const p of ['.git/config', '.GIT/config', '.env', '.ENV', 'secrets/a.txt', 'SECRETS/a.txt', 'sub/.git/config', 'plain.txt']) ws.write(p, SECRET);
  symlinkSync(outside.path('secret.txt'), ws.path('link-file'));
  symlinkSync(outside.root, ws.path('link-dir'));
  symlinkSync(outside.path('not-yet.txt'), ws.path('dangling'));
  symlinkSync(ws.path('.git/config'), ws.path('alias-to-protected'));
  symlinkSync('../../' + basename(outside.root), ws.path('sub/rel-link'));
  linkSync(outside.path('secret.txt'), ws.path('hardlink.txt'));
});
afterAll(() => {
  report('paths', counts);
  ws.cleanup();
  outside.cleanup();
  rmSync(holdDir, { recursive: true, force: true });
});

/** Paths that must never be written, with what they try. */
function attackPaths() {
  const out = outside.root;
  const outName = basename(out);
  const long = 'a/'.repeat(2100) + 'f.txt';
  return [
    ['..-chain', `../${outName}/secret.txt`],
    ['..-chain deep', `${'../'.repeat(20)}${out.slice(1)}/secret.txt`],
    ['..-chain via sub', `sub/../../${outName}/secret.txt`],
    ['..-chain new file', `../${outName}/new.txt`],
    ['absolute outside', `${out}/secret.txt`],
    ['absolute outside new', `${out}/new.txt`],
    ['absolute outside dir', out],
    ['symlinked file', 'link-file'],
    ['symlinked dir', 'link-dir/secret.txt'],
    ['symlinked dir new file', 'link-dir/new.txt'],
    ['symlinked dir nested', 'link-dir/dir/f.txt'],
    ['relative symlink in sub', 'sub/rel-link/secret.txt'],
    ['dangling symlink to outside', 'dangling'],
    ['hardlink to outside', 'hardlink.txt'],
    ['NUL', 'plain.txt\0'],
    ['NUL in middle', 'pla\0in.txt'],
    ['NUL then ..', `plain.txt\0/../../${outName}/secret.txt`],
    ['path > 4096 bytes', long],
    ['component > 255 bytes', `${'x'.repeat(300)}.txt`],
    ['protected', '.git/config'],
    ['protected case', '.GIT/config'],
    ['protected ./', './.git/config'],
    ['protected .//', './/.git/config'],
    ['protected //', '.git//config'],
    ['protected nested', 'sub/.git/config'],
    ['protected nested //', 'sub//.git/config'],
    ['protected x/..', 'x/../.git/config'],
    ['protected sub/..', 'sub/../.git/config'],
    ['protected trailing slash', '.git/config/'],
    ['protected /./', '.git/./config'],
    ['protected absolute', ws.path('.git/config')],
    ['protected new file in dir', '.git/hooks/pre-commit'],
    ['protected via symlink', 'alias-to-protected'],
    ['protected file', '.env'],
    ['protected file case', '.ENV'],
    ['protected glob', 'secrets/a.txt'],
    ['protected glob case', 'SECRETS/a.txt'],
    ['protected glob new file', 'secrets/new.txt'],
  ];
}

// Attacks only on writes: a hard link inside the workspace is a file of the workspace (package
// stores such as pnpm's are made of them), so the read-only tools may show it; writing it would
// change the outside file too, so every writer refuses.
const WRITE_ONLY_ATTACKS = new Set(['hardlink to outside']);

/** Every (tool, params) pair that tries to change `path` (or, for read-only tools, show it). */
function attackCalls(path, extra = {}, { reads = true } = {}) {
  const calls = [];
  for (const t of TOOLS) {
    if (t.replace) calls.push([t, { ...t.replace(path, 'counter', 'PWNED'), ...extra }]);
    if (t.write) calls.push([t, { ...t.write(path, 'PWNED\n'), ...extra }]);
    if (t.read && reads) calls.push([t, { ...t.read(path, TOKEN), ...extra }]);
  }
  // Line mode of `edit` reaches the file by another code path.
  calls.push([TOOLS[0], { file_path: path, start_line: '1', new_string: 'PWNED', ...extra }]);
  calls.push([TOOLS[0], { file_path: path, start_line: '1', position: 'after', new_string: 'PWNED', ...extra }]);
  return calls;
}

const toolFor = (t) => t.factory({ allowedFolders: [ws.root], cwd: ws.root, protectedPaths: PROTECTED });

/** Runs the calls; counts attacks and escapes (a success, or any change outside / to protected files). */
async function runAttacks(label, calls) {
  const before = { out: snapshotTree(outside.root), ws: snapshotTree(ws.root) };
  const failures = [];
  for (const [t, params] of calls) {
    const result = await toolFor(t).execute(params);
    counts.attacks++;
    expect(typeof result).toBe('string');
    if (t.read ? result.includes(SHOWN) : !reportsNoChange(result)) {
      counts.escapes++;
      failures.push(`${label} / ${t.name}: ${JSON.stringify(params).slice(0, 200)} -> ${result.slice(0, 200)}`);
    }
  }
  const after = { out: snapshotTree(outside.root), ws: snapshotTree(ws.root) };
  if (JSON.stringify(after.out) !== JSON.stringify(before.out)) {
    counts.escapes++;
    failures.push(`${label}: the outside folder changed`);
  }
  if (JSON.stringify(after.ws) !== JSON.stringify(before.ws)) {
    counts.escapes++;
    failures.push(`${label}: the workspace changed`);
  }
  expect(failures).toEqual([]);
}

describe('path attacks (every tool)', () => {
  for (const [label, path] of attackPaths()) {
    it(`refuses ${label}`, async () => {
      await runAttacks(label, attackCalls(path, {}, { reads: !WRITE_ONLY_ATTACKS.has(label) }));
    });
  }

  it('refuses workingDirectory outside the root', async () => {
    await runAttacks('workingDirectory outside', [
      ...attackCalls('secret.txt', { workingDirectory: outside.root }),
      ...attackCalls(`${basename(outside.root)}/secret.txt`, { workingDirectory: '..' }),
      ...attackCalls('secret.txt', { workingDirectory: ws.path('link-dir') }),
    ]);
  });

  it('gives a clear error for NUL and over-long paths', async () => {
    const edit = toolFor(TOOLS[0]);
    expect(await edit.execute({ file_path: 'a\0b', old_string: 'x', new_string: 'y' })).toMatch(/^Error editing file: invalid path: .*NUL byte/);
    expect(await edit.execute({ file_path: 'a/'.repeat(2100) + 'f', old_string: 'x', new_string: 'y' })).toMatch(/^Error editing file: invalid path: the path is longer than 4096 bytes/);
  });

  it('allows unicode look-alikes of protected names (different files)', async () => {
    const create = toolFor(TOOLS[1]);
    expect(await create.execute({ file_path: '.g\u0456t/config', content: 'ok\n' })).toMatch(/^Successfully created/);
    rmSync(ws.path('.g\u0456t'), { recursive: true });
  });
});

/**
 * Starts the swapper child (see support/swapper.cjs); resolves with its cycle count, rejects with
 * its error output when it fails (a swapper that died early would leave the race untested).
 */
function startSwapper(mode, target, durationMs, linkTarget) {
  const script = fileURLToPath(new URL('./support/swapper.cjs', import.meta.url));
  const hold = join(holdDir, `hold-${mode}`);
  const child = spawn(process.execPath, [script, mode, target, hold, String(durationMs), linkTarget], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  let running = true;
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      running = false;
      if (code === 0) resolve(JSON.parse(out).cycles);
      else reject(new Error(`the swapper (${mode}) failed (${signal ?? `exit ${code}`}): ${err}`));
    });
  });
  return { done, isRunning: () => running };
}

/** Runs waves of edits of `rel` by every tool while the swapper flips it; nothing outside may change. */
async function raceAgainstSwap(mode, swapRel, rel, linkTarget) {
  const durationMs = LONG ? 10000 : 2500;
  const before = snapshotTree(outside.root);
  const swapper = startSwapper(mode, ws.path(swapRel), durationMs, linkTarget);
  const tools = TOOLS.map((t) => [t, toolFor(t)]);
  let successes = 0;
  const shown = new Set();
  while (swapper.isRunning()) {
    const wave = [];
    // Every tool a few times, and the plain edit many times: the race needs volume.
    for (const [t, tool] of [...tools, ...Array.from({ length: 4 }, () => tools[0])]) {
      for (let k = 0; k < 4; k++) {
        const params = t.replace ? t.replace(rel, 'counter', 'counter+') : t.write ? t.write(rel, SECRET) : t.read(rel, TOKEN);
        wave.push(tool.execute(params).then((r) => (t.read ? { read: r, by: t.name } : r)));
      }
    }
    // An edit whose old_string is not found answers with the closest region of what it read:
    // it must never have read the outside file either.
    for (let k = 0; k < 4; k++) {
      wave.push(tools[0][1].execute({ file_path: rel, old_string: 'SECRET counter outside', new_string: 'x' }).then((r) => ({ read: r, by: 'edit (not found)' })));
    }
    for (const r of await Promise.all(wave)) {
      counts.raceEdits++;
      if (typeof r === 'object') {
        // A read-only tool: it must never show the outside file's content.
        expect(typeof r.read).toBe('string');
        if (r.read.includes(SHOWN)) shown.add(`${r.by}: ${r.read.slice(0, 120)}`);
        continue;
      }
      expect(typeof r).toBe('string');
      if (!reportsNoChange(r)) successes++;
    }
  }
  counts.raceCycles += await swapper.done;
  const after = snapshotTree(outside.root);
  if (JSON.stringify(after) !== JSON.stringify(before)) counts.raceEscapes++;
  counts.raceEscapes += shown.size;
  expect([...shown]).toEqual([]);
  expect(after).toEqual(before);
  expect(tempFilesUnder(outside.root)).toEqual([]);
  expect(tempFilesUnder(ws.root)).toEqual([]);
  return successes;
}

describe('symlink swapped in between check and write', () => {
  it('a file flipped to a symlink to an outside file: the outside file is never modified', async () => {
    ws.write('race.txt', SECRET);
    // Its own target: secret.txt has a second hard link (hardlink.txt), which alone would refuse writes.
    outside.write('race-target.txt', OUTSIDE);
    const ok = await raceAgainstSwap('symlink-file', 'race.txt', 'race.txt', outside.path('race-target.txt'));
    expect(ok).toBeGreaterThan(0);
  });

  it('a directory flipped to a symlink to an outside directory: nothing outside is modified', async () => {
    ws.write('racedir/f.txt', SECRET);
    const ok = await raceAgainstSwap('symlink-dir', 'racedir', 'racedir/f.txt', outside.path('dir'));
    expect(ok).toBeGreaterThanOrEqual(0);
  });
});
