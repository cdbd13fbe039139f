// Edit calls for one hunk: text mode (exact and model-style perturbations), line mode, symbol
// mode. Each call is { category, content, expected, params } where `params` lacks file_path.

import { readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { applyHunk } from './cases.mjs';
import { cSymbolCall } from './c-defs.mjs';

const leading = (l) => /^[ \t]*/.exec(l)[0];
const countOf = (hay, needle) => hay.split(needle).length - 1;

/** The file's indentation unit: a tab, or the smallest common step of space indents. */
export function indentUnit(content) {
  let tabs = 0, spaces = 0, step = 0;
  for (const l of content.split('\n')) {
    const ind = leading(l);
    if (!ind || !l.trim()) continue;
    if (ind[0] === '\t') tabs++;
    else {
      spaces++;
      // One-space indents (` * ` doc-comment lines) are alignment, not a level.
      if (ind.length >= 2 && (!step || ind.length < step)) step = ind.length;
    }
  }
  if (tabs > spaces) return '\t';
  return ' '.repeat(step >= 2 && step <= 8 ? step : 4);
}

/** The hunk widened by context lines until its old text occurs exactly once. */
function uniqueWindow(lines, hunk) {
  const at = hunk.oldCount === 0 ? hunk.start : hunk.start - 1;
  const content = lines.join('\n');
  // Insertions and deletions take context: a bare deleted line replaced by "" would stay as
  // an empty line.
  const bare = hunk.oldCount === 0 || hunk.newLines.length === 0;
  for (let k = bare ? 1 : 0; k <= 4; k++) {
    const from = Math.max(0, at - k), to = Math.min(lines.length, at + hunk.oldCount + k);
    const old = lines.slice(from, to).join('\n');
    if (old.trim() && countOf(content, old) === 1) {
      const before = lines.slice(from, at), after = lines.slice(at + hunk.oldCount, to);
      return { old, new: [...before, ...hunk.newLines, ...after].join('\n'), oldLines: lines.slice(from, to) };
    }
  }
  return null;
}

const mapLines = (s, f) => s.split('\n').map((l) => (l.trim() ? f(l) : l)).join('\n');

/** Both strings one indentation level shallower (or deeper when old is at column 0). */
function shiftIndent(w, unit) {
  const oldNonBlank = w.oldLines.filter((l) => l.trim());
  const newNonBlank = w.new.split('\n').filter((l) => l.trim());
  if ([...oldNonBlank, ...newNonBlank].every((l) => l.startsWith(unit))) {
    return { old: mapLines(w.old, (l) => l.slice(unit.length)), new: mapLines(w.new, (l) => l.slice(unit.length)) };
  }
  return { old: mapLines(w.old, (l) => unit + l), new: mapLines(w.new, (l) => unit + l) };
}

/** Leading spaces written as tabs (one per unit), or leading tabs as four spaces. */
function swapTabs(w, unit) {
  const conv = (l) => {
    const ind = leading(l);
    const rest = l.slice(ind.length);
    if (unit === '\t') return ind.replace(/\t/g, '    ') + rest;
    const n = Math.floor(ind.length / unit.length);
    return '\t'.repeat(n) + ' '.repeat(ind.length - n * unit.length) + rest;
  };
  return { old: mapLines(w.old, conv), new: mapLines(w.new, conv) };
}

const jsonEscape = (s) => JSON.stringify(s).slice(1, -1);
const templateEscape = (s) => s.replace(/[`$]/g, (c) => '\\' + c);
function curly(s) {
  let open = true;
  return s.replace(/"/g, () => ((open = !open) ? '\u201D' : '\u201C')).replace(/'/g, '\u2019');
}

/** Text-mode calls for one hunk. */
export function textCalls(c) {
  const lines = c.content.split('\n');
  const w = uniqueWindow(lines, c.hunk);
  if (!w) return [];
  const expected = applyHunk(c.content, c.hunk);
  const unit = indentUnit(c.content);
  const calls = [];
  const add = (category, old, neu, content = c.content, exp = expected) => {
    if (old !== w.old && content.includes(old)) return; // the perturbation is itself file text
    calls.push({ category, content, expected: exp, params: { old_string: old, new_string: neu } });
  };
  add('exact', w.old, w.new);
  const hasIndent = w.oldLines.some((l) => l.trim() && leading(l));
  const shifted = shiftIndent(w, unit);
  add('indent-shift', shifted.old, shifted.new);
  add('indent-shift+newline', shifted.old + '\n', shifted.new + '\n');
  if (hasIndent) {
    const tabbed = swapTabs(w, unit);
    add('tabs-spaces', tabbed.old, tabbed.new);
  }
  const crlf = (s) => s.replace(/\n/g, '\r\n');
  add('crlf-file', w.old, w.new, crlf(c.content), crlf(expected));
  if (w.new.includes('\n')) add('crlf-new', w.old, crlf(w.new));
  if (w.old.includes('\n')) add('escaped', jsonEscape(w.old), jsonEscape(w.new));
  if (/[`$]/.test(w.old)) add('escaped-template', templateEscape(w.old), templateEscape(w.new));
  if (/["']/.test(w.old)) add('curly-quotes', curly(w.old), w.new);
  if (w.new.trim()) add('newline-boundary', '\n' + w.old + '\n', w.new);
  const deleted = lines.slice(c.hunk.start - 1, c.hunk.start - 1 + c.hunk.oldCount).join('\n');
  if (c.hunk.newLines.length === 0 && c.hunk.start < lines.length && countOf(c.content, deleted + '\n') === 1) {
    add('delete-lines', deleted + '\n', '');
  }
  return calls;
}

/** The line-mode call for one hunk. */
export function lineCall(c) {
  const h = c.hunk;
  const expected = applyHunk(c.content, h);
  const new_string = h.newLines.join('\n');
  let params;
  if (h.oldCount === 0) {
    params = h.start === 0
      ? { start_line: '1', position: 'before', new_string }
      : { start_line: String(h.start), position: 'after', new_string };
  } else {
    params = { start_line: String(h.start), end_line: String(h.start + h.oldCount - 1), new_string };
  }
  return { category: 'line', content: c.content, expected, params };
}

const DEF = /^\s*(?:export\s+|pub(?:\([^)]*\))?\s+|async\s+|static\s+|public\s+|private\s+|protected\s+|final\s+)*(?:def|function|fn|func|class|struct|impl|interface|module|enum)\s+(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)/;

/** Lua: `function name(`, `local function name(`, `function M.name(` / `M:name(` (dotted name kept). */
const LUA_DEF = /^\s*(?:local\s+)?function\s+([A-Za-z_]\w*(?:[.:][A-Za-z_]\w*)*)\s*\(/;

/** Names of definitions that open above the hunk (nearest first). */
export function candidateNames(c) {
  const lines = c.content.split('\n');
  const names = [];
  const def = c.lang === 'lua' ? LUA_DEF : DEF;
  for (let i = Math.min(lines.length - 1, c.hunk.start - 1); i >= 0 && names.length < 3; i--) {
    const m = def.exec(lines[i]);
    if (m && !names.includes(m[1])) names.push(m[1]);
  }
  return names;
}

/** The hunk's first and last old lines (1-based; an insertion's are the lines around it). */
function hunkSpan(h) {
  return h.oldCount === 0 ? [h.start + 1, h.start] : [h.start, h.start + h.oldCount - 1];
}

/** The symbol-mode call: the whole definition that holds the hunk, rewritten. */
export function symbolCall(c, defs) {
  const h = c.hunk;
  const [first, last] = hunkSpan(h);
  const def = defs.find((d) => d.startLine < first && d.endLine > last);
  if (!def) return null;
  const expected = applyHunk(c.content, h);
  const delta = h.newLines.length - h.oldCount;
  const exp = expected.split('\n');
  const new_string = exp.slice(def.startLine - 1, def.endLine + delta).join('\n');
  return { category: 'symbol', content: c.content, expected, params: { symbol: def.name, new_string } };
}

/** Definitions the symbol call may target: a unique name (found by `api` in `file`) above the hunk. */
async function symbolDefs(api, file, c) {
  const defs = [];
  for (const name of candidateNames(c)) {
    const all = await api.findAllSymbols(file, name);
    if (all.length === 1) defs.push({ name, ...all[0] });
  }
  return defs;
}

const C_FAMILY = new Set(['c', 'c-header', 'cpp']);

/**
 * Every call of case `c`: text mode, line mode, and symbol mode when a definition holds the hunk:
 * in C and C++ the definition found from the text (`c-defs.mjs`), whether or not the engine finds
 * it; elsewhere a name the engine finds once (looked up by `api` in a probe file written in `dir`).
 */
export async function caseCalls(api, dir, c) {
  const calls = [...textCalls(c), lineCall(c)];
  let sym;
  if (C_FAMILY.has(c.lang)) sym = cSymbolCall(c);
  else {
    const probe = join(dir, `defs${extname(c.path)}`);
    writeFileSync(probe, c.content);
    sym = symbolCall(c, await symbolDefs(api, probe, c));
  }
  if (sym) calls.push(sym);
  return calls;
}

/** Writes the call's starting content to `file`, runs it through `edit`; the reply and the file after. */
export async function applyCall(edit, file, call) {
  writeFileSync(file, call.content);
  const reply = await edit.execute({ file_path: file, ...call.params });
  return { file, reply, after: readFileSync(file, 'utf8') };
}
