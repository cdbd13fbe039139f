// Reading an aider chat history (`.aider.chat.history.md`): the SEARCH/REPLACE blocks the model
// wrote, the blocks aider reported as not matching, the commits it made and the model of each
// session. Pure text processing; nothing here touches git or the engine.

const SEARCH = /^<{5,9} SEARCH>?\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const REPLACE = /^>{5,9} REPLACE\s*$/;
const FAILURE = /^(> )?## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in (.+?)\s*$/;
const MODEL = /^>?\s*(?:Main model|Model): (\S+)/;
const COMMIT = /^> Commit ([0-9a-f]{7,40}) /;
const USER = /^#### /;
const FENCE = /^\s*(```|~~~)/;

/** The file name aider would take from the line above a block's fence (or the block itself). */
function pathAbove(lines, i) {
  for (let k = i - 1; k >= Math.max(0, i - 3); k--) {
    const l = lines[k].trim();
    if (!l || FENCE.test(l)) continue;
    const name = l.replace(/^[#*`\s]+|[*`:\s]+$/g, '');
    return /^[\w./\\@+-]+$/.test(name) && /[./\\]/.test(name) ? name.replace(/\\/g, '/') : null;
  }
  return null;
}

/** The block starting at `lines[i]` (a SEARCH marker): its two sides and the index after it. */
function readBlock(lines, i) {
  let k = i + 1;
  const search = [];
  while (k < lines.length && !DIVIDER.test(lines[k])) search.push(lines[k++]);
  const replace = [];
  k++;
  while (k < lines.length && !REPLACE.test(lines[k])) replace.push(lines[k++]);
  if (k >= lines.length) return null;
  const side = (ls) => (ls.length ? `${ls.join('\n')}\n` : '');
  return { search: side(search), replace: side(replace), end: k + 1 };
}

/** A line of a quoted tool message (`> text`, some with markdown's two trailing spaces) as text. */
const unquote = (l) => l.replace(/^> ?/, '').replace(/ {2}$/, '');

/** Comparable form of a block side: the same lines with their trailing white space removed. */
export const blockKey = (side) => side.split('\n').map((l) => l.trimEnd()).join('\n');

/**
 * The block an aider failure report at `lines[i]` quotes: `{ path, search, replace, end }`. Older
 * aider quotes the report line by line (`> `) and markdown may mangle it, so only the first line
 * of its SEARCH side is relied on (`firstLine`); its end is then the SEARCH marker's line.
 */
function readFailure(lines, i, header) {
  const quoted = Boolean(header[1]);
  const view = lines.slice(i + 1, i + 4000).map(quoted ? unquote : (l) => l);
  const at = view.findIndex((l, k) => k < 3 && SEARCH.test(l));
  if (at < 0) return null;
  const block = readBlock(view, at) ?? { search: view.slice(at + 1, at + 2).join('\n'), replace: '' };
  const end = quoted ? i + 2 + at : i + 1 + block.end;
  return { path: header[2].replace(/\\/g, '/'), search: block.search, replace: block.replace, end };
}

/** The first non-blank line of a block side, trimmed: how a failure report is tied to its block. */
export const firstLine = (side) => side.split('\n').map((l) => l.trim()).find(Boolean) ?? '';

/**
 * Everything a replay needs from one history, in order of appearance:
 * - `blocks`: the model's blocks `{ ordinal, line, path, search, replace, model, turn }`
 *   (`ordinal` counts only the model's blocks, from 0; `turn` counts user messages, each a run
 *   of `#### ` lines);
 * - `failures`: aider's reports `{ line, path, search, replace, turn }`, each quoting a block
 *   (compare with `blockKey`);
 * - `commits`: `{ line, hash }` of aider's "Commit <hash>" lines.
 */
export function parseHistory(text) {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out = { blocks: [], failures: [], commits: [] };
  let model = null;
  let turn = 0;
  let lastPath = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (USER.test(l) && !(i > 0 && USER.test(lines[i - 1]))) turn++;
    const m = MODEL.exec(l);
    if (m) model = m[1];
    const c = COMMIT.exec(l);
    if (c) out.commits.push({ line: i, hash: c[1] });
    const header = FAILURE.exec(l);
    if (header) {
      const failure = readFailure(lines, i, header);
      if (failure) out.failures.push({ line: i, path: failure.path, search: failure.search, replace: failure.replace, turn });
      i = failure ? failure.end - 1 : i;
      continue;
    }
    if (!SEARCH.test(l)) continue;
    const block = readBlock(lines, i);
    if (!block) break;
    const path = pathAbove(lines, i) ?? lastPath;
    lastPath = path;
    out.blocks.push({ ordinal: out.blocks.length, line: i, path, search: block.search, replace: block.replace, model, turn });
    i = block.end - 1;
  }
  return out;
}
