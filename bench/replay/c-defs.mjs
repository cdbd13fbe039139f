// C and C++ definitions a commit touched, found from the text alone (never by the engine), so that
// symbol calls on C/C++ include the definitions symbol mode fails to find: a call is made for every
// definition that holds a hunk, and a refusal counts against symbol mode. Used by the main replay
// (`calls.mjs`) and by the C/C++ symbol corpus (`c-symbols.mjs`).
//
// Definitions come from braces, with comments, strings, directive lines and the later branches of
// `#if` blanked: functions (`f`, `A::f`, `~A`, `operator==`, a `template <...>` line above included)
// and class/struct/union/enum bodies. A call names the definition as a model would: the enclosing
// classes and the name as written (`Parser::parse`). A name the file defines more than once (overloads)
// is given bare when the commit keeps the definition's signature, so the engine must tell the overloads
// apart by it, and with `@LINE` (as the engine's refusal asks) when the commit changes it.

import { applyHunk } from './cases.mjs';

const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'sizeof', 'do', 'else',
  'defined', 'decltype', 'alignof', 'static_assert', 'noexcept', 'throw', 'requires', 'operator']);

/** The source with comments, string/char literals and `#` directive lines as spaces (newlines kept). */
export function blank(src) {
  let out = '';
  let i = 0;
  const keepNl = (s) => s.replace(/[^\n]/g, ' ');
  while (i < src.length) {
    const c = src[i], n = src[i + 1];
    let j = i + 1;
    if (c === '/' && n === '/') j = lineEnd(src, i);
    else if (c === '/' && n === '*') j = (src.indexOf('*/', i + 2) + 1 || src.length - 1) + 1;
    else if (c === '"' || (c === "'" && !/[0-9a-fA-F]/.test(src[i - 1] ?? ''))) j = literalEnd(src, i, c);
    else if (c === '#' && /^[ \t]*$/.test(src.slice(src.lastIndexOf('\n', i - 1) + 1, i))) j = lineEnd(src, i);
    else {
      out += c;
      i++;
      continue;
    }
    out += keepNl(src.slice(i, j));
    i = j;
  }
  return out;
}

/** End of the line at `i` (a `\`-continued line goes on). */
function lineEnd(src, i) {
  for (;;) {
    const nl = src.indexOf('\n', i);
    if (nl < 0) return src.length;
    if (src[nl - 1] !== '\\') return nl;
    i = nl + 1;
  }
}

function literalEnd(src, i, q) {
  for (let j = i + 1; j < src.length; j++) {
    if (src[j] === '\\') j++;
    else if (src[j] === q || src[j] === '\n') return j + 1;
  }
  return src.length;
}

/** The text with every `#else`/`#elif` branch blanked, so both branches of an `#if` do not both count. */
function firstBranches(src, blanked) {
  const lines = src.split('\n');
  const out = blanked.split('\n');
  const stack = [];
  for (let k = 0; k < lines.length; k++) {
    const d = /^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b/.exec(lines[k]);
    if (d?.[1].startsWith('if')) stack.push(false);
    else if (d && (d[1] === 'elif' || d[1] === 'else') && stack.length) stack[stack.length - 1] = true;
    else if (d?.[1] === 'endif') stack.pop();
    else if (stack.includes(true)) out[k] = out[k].replace(/[^\n]/g, ' ');
  }
  return out.join('\n');
}

const lineOf = (text, pos) => text.slice(0, pos).split('\n').length;

/** The parenthesised groups at depth 0 of `header`: [{ open, close }]. */
function parenGroups(header) {
  const groups = [];
  let depth = 0, open = -1;
  for (let i = 0; i < header.length; i++) {
    if (header[i] === '(' && depth++ === 0) open = i;
    else if (header[i] === ')' && depth > 0 && --depth === 0) groups.push({ open, close: i });
  }
  return groups;
}

const AFTER_PARAMS = /^\s*(?:(?:const|volatile|override|final|mutable|&&?|noexcept\s*(?:\([^)]*\))?|throw\s*\([^)]*\)|->\s*[^:{]+?|[A-Z_][A-Z0-9_]*(?:\([^)]*\))?)\s*)*(?::[\s\S]*)?$/;

/** A function header's name (`f`, `A::f`, `~A`, `operator==`) and where its declaration starts. */
function functionName(header) {
  if (/=\s*[^=]*$/.test(header.replace(/\([^()]*\)/g, '')) || /\]\s*\(/.test(header)) return null;
  for (const g of parenGroups(header)) {
    if (!AFTER_PARAMS.test(header.slice(g.close + 1))) continue;
    const before = header.slice(0, g.open);
    const m = /((?:~?[A-Za-z_]\w*(?:<[^<>]*>)?\s*::\s*)*(?:operator\s*(?:\(\)|[^\s(]+)|~?[A-Za-z_]\w*))\s*$/.exec(before);
    if (!m) return null;
    const name = m[1].replace(/\s+/g, '').replace(/<[^<>]*>/g, '');
    if (NOT_NAMES.has(name) || /^[A-Z0-9_]+$/.test(name)) return null;
    return { name, declStart: declarationStart(header, g.open) };
  }
  return null;
}

/** Offset in `header` of the line the declaration starts on: leading macro lines and labels left out. */
function declarationStart(header, paramsOpen) {
  let pos = 0;
  for (const line of header.slice(0, paramsOpen).split(/(?<=\n)/).slice(0, -1)) {
    const t = line.trim();
    if (!t || /^[A-Z_][A-Z0-9_]*\s*(?:\(.*\))?\s*;?$/.test(t) || /^(public|private|protected)\s*:$/.test(t)) pos += line.length;
    else break;
  }
  return pos + header.slice(pos).search(/\S/);
}

/** `class`/`struct`/`union`/`enum` headers: the name. */
function typeName(header) {
  const m = /^(?:template\s*<[\s\S]*>\s*)?(?:typedef\s+)?(class|struct|union|enum(?:\s+class|\s+struct)?)\s+(?:\[\[[^\]]*\]\]\s*|[A-Z_][A-Z0-9_]*\s+)*((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)\s*(?:final\s*)?(?::(?!:)[^{]*)?$/.exec(header.trim());
  return m ? m[2] : null;
}

/**
 * Definitions found from the text alone: [{ name, kind, startLine, endLine, scope }] (1-based lines).
 * Functions carry the enclosing class names in `scope`; namespaces and `extern "C"` are not listed.
 */
export function textDefs(src) {
  const text = firstBranches(src, blank(src));
  const defs = [];
  const stack = [];
  let lastStop = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      const header = text.slice(lastStop, i).replace(/^\s*(?:(?:public|private|protected)\s*:)+/, (s) => s.replace(/\S/g, ' '));
      const enclosingFn = stack.some((s) => s.def?.kind === 'function');
      const def = enclosingFn ? null : classify(header, lastStop);
      stack.push({ def, open: i });
      lastStop = i + 1;
    } else if (c === '}') {
      const top = stack.pop();
      if (top?.def) {
        let end = i + 1;
        if (/^[ \t]*;/.test(text.slice(end))) end = text.indexOf(';', end) + 1;
        const scope = stack.filter((s) => s.def?.kind === 'type').map((s) => s.def.name);
        defs.push({ ...top.def, scope, startLine: lineOf(text, top.def.start), endLine: lineOf(text, end) });
      }
      lastStop = i + 1;
    } else if (c === ';') lastStop = i + 1;
  }
  return defs;
}

function classify(header, offset) {
  if (!header.trim()) return null;
  const type = typeName(header);
  if (type) return { kind: 'type', name: type, start: offset + header.search(/\S/) };
  const fn = functionName(header);
  return fn ? { kind: 'function', name: fn.name, start: offset + fn.declStart } : null;
}

/** The innermost function (else type) holding lines first..last, strictly inside its first line. */
function holder(defs, first, last) {
  const holding = defs.filter((d) => d.startLine < first && d.endLine > last);
  const fns = holding.filter((d) => d.kind === 'function');
  const pick = (ds) => ds.sort((a, b) => (b.startLine - a.startLine))[0];
  return pick(fns.length ? fns : holding);
}

/** A function text's signature: up to the first `{` outside parentheses, comments and white space removed. */
export function signature(text) {
  const code = blank(text);
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    if (code[i] === '(') depth++;
    else if (code[i] === ')') depth--;
    else if (code[i] === '{' && depth === 0) return code.slice(0, i).replace(/\s+/g, '');
  }
  return null;
}

/**
 * The name a model would give: the enclosing classes and the name as written. A repeated name is
 * bare when `newText` keeps the definition's signature and no other definition of the name has it,
 * else it carries `@LINE`.
 */
function callName(defs, def, oldText, newText) {
  const full = (d) => [...d.scope, d.name].join('::');
  const same = defs.filter((d) => full(d) === full(def));
  if (same.length < 2) return full(def);
  const lines = oldText.split('\n');
  const sig = (d) => signature(lines.slice(d.startLine - 1, d.endLine).join('\n'));
  const kept = sig(def) !== null && sig(def) === signature(newText);
  const unique = same.filter((d) => sig(d) === sig(def)).length === 1;
  return kept && unique ? full(def) : `${full(def)}@${def.startLine}`;
}

/** The symbol call for one hunk, or null when no definition holds it. */
export function cSymbolCall(c) {
  const h = c.hunk;
  const first = h.oldCount === 0 ? h.start + 1 : h.start;
  const last = h.oldCount === 0 ? h.start : h.start + h.oldCount - 1;
  const defs = textDefs(c.content);
  const def = holder(defs, first, last);
  if (!def) return null;
  const expected = applyHunk(c.content, h);
  const delta = h.newLines.length - h.oldCount;
  const new_string = expected.split('\n').slice(def.startLine - 1, def.endLine + delta).join('\n');
  return { category: 'symbol', content: c.content, expected, params: { symbol: callName(defs, def, c.content, new_string), new_string } };
}
