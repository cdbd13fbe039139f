// Concurrency: no lost updates, in one process and across processes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeWorkspace } from './support/workspace.mjs';
import { LONG, TOOLS, report, reportsSuccess, tempFilesUnder } from './support/trust.mjs';

const run = promisify(execFile);
const byName = Object.fromEntries(TOOLS.map((t) => [t.name, t]));

let ws;
beforeEach(() => {
  ws = makeWorkspace('edit-engine-conc-');
});
afterEach(() => ws.cleanup());

describe('in-process: Promise.all of mixed edits of one file', () => {
  it('500 edits (edit text/line, multi_edit, atomic multi_edit, edit_file) + creates of other files: every success is present', async () => {
    const n = 500;
    const line = (i, state) => `m_${i} = ${state}`;
    ws.write('one.txt', Array.from({ length: n }, (_, i) => line(i, 'old')).join('\n') + '\n');
    const opts = { allowedFolders: [ws.root], cwd: ws.root };
    const tools = Object.fromEntries(TOOLS.map((t) => [t.name, t.factory(opts)]));
    const sides = 60;
    for (let k = 0; k < sides; k++) ws.write(`side/s_${k}.txt`, `side ${k} old\n`);
    const calls = [];
    for (let i = 0; i < n; i++) {
      const old = line(i, 'old');
      const neu = line(i, 'new');
      switch (i % 6) {
        case 0: calls.push(tools.edit.execute({ file_path: 'one.txt', old_string: old, new_string: neu })); break;
        // One line replaced by one line: line numbers never move, so line mode is safe under concurrency.
        case 1: calls.push(tools.edit.execute({ file_path: 'one.txt', start_line: String(i + 1), new_string: neu })); break;
        case 2: calls.push(tools.multi_edit.execute({ edits: [{ file_path: 'one.txt', old_string: old, new_string: neu }] })); break;
        case 3: {
          // Atomic batch over two files: locks of several files taken together.
          const k = i % sides;
          calls.push(tools['multi_edit (atomic)'].execute({ atomic: true, edits: [
            { file_path: 'one.txt', old_string: old, new_string: neu },
            { file_path: `side/s_${k}.txt`, old_string: `side ${k}`, new_string: `side ${k} +${i}`, replace_all: false },
          ] }));
          break;
        }
        case 4: calls.push(tools.edit_file.execute({ path: 'one.txt', old_text: old, new_text: neu })); break;
        default: calls.push(tools.edit.execute({ file_path: 'one.txt', old_string: old, new_string: neu, replace_all: true }));
      }
      // Creates and overwrites of other files, interleaved.
      if (i % 5 === 0) calls.push(tools.create.execute({ file_path: `other/o_${i}.txt`, content: `other ${i}\n` }));
      if (i % 5 === 1) calls.push(tools.create.execute({ file_path: `other/o_${i - 1}.txt`, content: `other ${i - 1} v2\n`, overwrite: true }));
    }
    const results = await Promise.all(calls);
    const failed = results.filter((r) => !reportsSuccess(r));
    // An overwrite may run before its create; that is the only failure allowed.
    const unexpected = failed.filter((r) => !/^Error creating file: File not found|^Error creating file: File already exists/.test(r));
    expect(unexpected).toEqual([]);
    const expected = Array.from({ length: n }, (_, i) => line(i, 'new')).join('\n') + '\n';
    const actual = ws.read('one.txt');
    let lost = 0;
    actual.split('\n').forEach((l, i) => { if (i < n && l !== line(i, 'new')) lost++; });
    report('concurrency-in-process', { issued: results.length, editsOfOneFile: n, lost, failed: failed.length });
    expect(actual).toBe(expected);
    // Each side file got exactly the atomic batches aimed at it, in some order.
    for (let k = 0; k < sides; k++) {
      const mine = Array.from({ length: n }, (_, i) => i).filter((i) => i % 6 === 3 && i % sides === k);
      const content = ws.read(`side/s_${k}.txt`);
      for (const i of mine) expect(content).toContain(`+${i}`);
    }
    for (let i = 0; i < n; i += 5) expect(ws.read(`other/o_${i}.txt`)).toMatch(new RegExp(`^other ${i}( v2)?\\n$`));
    expect(tempFilesUnder(ws.root)).toEqual([]);
  });
});

describe('cross-process: 4 node processes editing one file', () => {
  it('every success of every process is present', async () => {
    const procs = 4;
    const per = LONG ? 400 : 80;
    const line = (p, j, state) => `p${p}_${j} = ${state}`;
    const lines = [];
    for (let p = 0; p < procs; p++) for (let j = 0; j < per; j++) lines.push(line(p, j, 'old'));
    ws.write('shared.txt', lines.join('\n') + '\n');
    const worker = fileURLToPath(new URL('./support/tool-worker.cjs', import.meta.url));
    const jobs = Array.from({ length: procs }, (_, p) => {
      const calls = Array.from({ length: per }, (_, j) => {
        const old = line(p, j, 'old');
        const neu = line(p, j, 'new');
        switch (j % 4) {
          case 0: return { tool: 'edit', params: byName.edit.replace('shared.txt', old, neu) };
          case 1: return { tool: 'edit', params: { file_path: 'shared.txt', start_line: String(p * per + j + 1), new_string: neu } };
          case 2: return { tool: 'multi_edit', params: byName.multi_edit.replace('shared.txt', old, neu) };
          default: return { tool: 'edit_file', params: byName.edit_file.replace('shared.txt', old, neu) };
        }
      });
      const job = { options: { allowedFolders: [ws.root], cwd: ws.root }, calls, concurrency: 6 };
      return run(process.execPath, [worker, JSON.stringify(job)], { maxBuffer: 64 << 20 }).then(({ stdout }) => JSON.parse(stdout));
    });
    const results = await Promise.all(jobs);
    const content = ws.read('shared.txt');
    const present = new Set(content.split('\n'));
    let issued = 0;
    let succeeded = 0;
    let lost = 0;
    results.forEach((rs, p) => rs.forEach((r, j) => {
      issued++;
      if (reportsSuccess(r)) {
        succeeded++;
        if (!present.has(line(p, j, 'new'))) lost++;
      }
    }));
    report('concurrency-cross-process', { processes: procs, issued, succeeded, lost });
    expect(lost).toBe(0);
    expect(succeeded).toBe(issued);
    expect(content.split('\n')).toHaveLength(procs * per + 1);
    expect(tempFilesUnder(ws.root)).toEqual([]);
  });
});
