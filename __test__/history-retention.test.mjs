// The default undo stores stay small: a cap across all of them, stores of removed workspaces and
// stores unused for 30 days collected, and `edit-engine history` to list, size and collect them.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/edit-engine.mjs', import.meta.url));
const child = fileURLToPath(new URL('./support/retention-edits.cjs', import.meta.url));
const CAP = 2 << 20;
const DAY_MS = 24 * 3600 * 1000;

describe('default undo stores: cap and collection', () => {
  let root;
  let run;
  const env = (extra = {}) => ({ ...process.env, EDIT_ENGINE_HISTORY_ROOT: root, ...extra });
  const cli = (args, extra) => spawnSync(process.execPath, [bin, 'history', ...args], { encoding: 'utf8', env: env(extra) });
  /** The stores `history list` prints: `{ exists, workspace }` per row. */
  const listed = (extra) =>
    cli(['list'], extra)
      .stdout.split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => {
        const [, exists, workspace] = line.match(/ {2}(yes|no|\?) +(\S+)/);
        return { exists, workspace };
      });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'edit-engine-retention-root-'));
    const out = spawnSync(process.execPath, [child, '30', '6', String(CAP)], { encoding: 'utf8', env: env() });
    expect(out.stderr).toBe('');
    run = JSON.parse(out.stdout);
  }, 300_000);
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    if (run) rmSync(run.parent, { recursive: true, force: true });
  });

  it('edits across many workspaces never take the stores over historyMaxBytes', () => {
    expect(run.edits).toBe(180);
    expect(run.peak).toBeLessThanOrEqual(CAP);
    // Unbounded, 180 edits of 9 KB files would take about twice the cap; collection starts at half.
    expect(run.peak).toBeGreaterThan(CAP / 4);
  });

  it('history size and list report the stores, their workspaces and whether they exist', () => {
    const size = cli(['size', '--max-bytes', String(CAP)]);
    expect(size.status).toBe(0);
    expect(size.stdout).toMatch(new RegExp(`^${root}: \\d+ stores, .* \\(\\d+ bytes\\) of a cap of 2\\.0 MiB\\n$`));
    expect(cli(['size'], { EDIT_ENGINE_HISTORY_MAX_BYTES: '3145728' }).stdout).toMatch(/of a cap of 3\.0 MiB/);
    const rows = listed();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.exists).toBe(run.kept.includes(row.workspace) ? 'yes' : 'no');
    expect(rows.some((row) => row.exists === 'no')).toBe(true);
  });

  it('history collect --dry-run removes nothing; collect leaves only stores of existing workspaces', () => {
    const before = listed();
    const dry = cli(['collect', '--dry-run']);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/would remove .*: its workspace no longer exists/);
    expect(listed()).toEqual(before);
    const done = cli(['collect']);
    expect(done.status).toBe(0);
    expect(done.stdout).toMatch(/^removed .*: its workspace no longer exists$/m);
    const after = listed();
    expect(after.length).toBeGreaterThan(0);
    for (const row of after) {
      expect(row.exists).toBe('yes');
      expect(run.kept).toContain(row.workspace);
    }
  });

  it('stores unused for 30 days are collected (clock set by EDIT_ENGINE_HISTORY_NOW_MS)', () => {
    const count = listed().length;
    const later = (days) => ({ EDIT_ENGINE_HISTORY_NOW_MS: String(Date.now() + days * DAY_MS) });
    expect(cli(['collect'], later(29)).stdout).toMatch(/^0 stores removed/);
    expect(listed()).toHaveLength(count);
    const old = cli(['collect'], later(31));
    expect(old.stdout.match(/: unused for 30 days$/gm)).toHaveLength(count);
    expect(listed()).toEqual([]);
  });

  it('answers a wrong subcommand or option with a usage error', () => {
    for (const args of [[], ['shrink'], ['list', '--dry-run'], ['size', '--max-bytes', 'lots']]) {
      const out = cli(args);
      expect(out.status).toBe(2);
      expect(out.stderr).toMatch(/^edit-engine: .*\nRun "edit-engine --help" for usage\.\n$/);
    }
  });
});

describe('default undo stores in a fallback parent', () => {
  /**
   * XDG_STATE_HOME names a file, so no store can live under it: the store falls back to
   * $HOME/.local/state. `history list` and `history collect` look in every default parent.
   */
  it('stores that fell back to a later default parent are listed and collected', () => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'edit-engine-fallback-')));
    try {
      const blocked = join(tmp, 'state-is-a-file');
      writeFileSync(blocked, '');
      const home = join(tmp, 'home');
      const ws = join(tmp, 'ws');
      mkdirSync(home);
      mkdirSync(ws);
      writeFileSync(join(ws, 'a.txt'), 'one\n');
      const env = { ...process.env, EDIT_ENGINE_HISTORY_ROOT: '', XDG_STATE_HOME: blocked, HOME: home };
      const run = (args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env });
      const edited = run(['edit', '--root', ws, '--json', JSON.stringify({ file_path: 'a.txt', old_string: 'one', new_string: 'two' })]);
      expect(edited.status, edited.stdout + edited.stderr).toBe(0);
      const fallback = join(home, '.local/state/edit-engine/history');
      const list = run(['history', 'list']);
      expect(list.status, list.stderr).toBe(0);
      expect(list.stdout).toContain(`${join(blocked, 'edit-engine/history')}: 0 stores`);
      expect(list.stdout).toContain(`${fallback}: 1 stores`);
      expect(list.stdout).toMatch(new RegExp(`yes {5}${ws} +${fallback}/[0-9a-f]+\\n`));
      rmSync(ws, { recursive: true });
      const dry = run(['history', 'collect', '--dry-run']);
      expect(dry.status, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(new RegExp(`^would remove ${fallback}/[0-9a-f]+ \\(${ws}, .*\\): its workspace no longer exists$`, 'm'));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
