// C and C++ function definitions found from the text alone (not by the engine), so that the
// replay's symbol calls on C/C++ include the definitions symbol mode fails to find: a call is
// made for every definition that holds a hunk, and a refusal counts against symbol mode.

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'catch', 'sizeof', 'defined', 'do', 'else', 'case', 'new', 'delete', 'throw', 'alignof', 'decltype', 'static_assert']);
const HEAD = /^\s*(?:[\w:*&<>,.~\s]*?[\s*&>:])?((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*)\s*\(/;

/**
 * Offsets of the code characters of `text` (string and character literals and comments blanked
 * to spaces, newlines kept), so braces and semicolons can be counted.
 */
function codeOnly(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') (out += ' '), i++;
      out += text[i] ?? '';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop - 1;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += ' '.repeat(Math.min(j, text.length - 1) - i + 1);
      i = j;
    } else out += ch;
  }
  return out;
}

/** The line (0-based) of the brace closing the one at `open` in `code`, or -1. */
function closingLine(code, open, lineOf) {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === '{') depth++;
    else if (code[i] === '}' && --depth === 0) return lineOf(i);
  }
  return -1;
}

/**
 * The innermost function definition whose body holds lines `first`..`last` (1-based):
 * `{ name, startLine, endLine }` (1-based, from the `template <...>` and return-type lines right
 * above the head;
 * `name` qualified as written, e.g. `Parser::parse`), or null. A head is a line with `name(`, not a keyword or a preprocessor line, whose parameter
 * list is followed by `{` before any `;`.
 */
export function cDefinition(content, first, last) {
  const code = codeOnly(content);
  const starts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') starts.push(i + 1);
  const lineOf = (off) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= off) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  for (let i = first - 2; i >= 0 && i >= first - 400; i--) {
    const line = code.slice(starts[i], starts[i + 1] ?? code.length);
    const m = HEAD.exec(line);
    if (!m || /^\s*#/.test(line) || KEYWORDS.has(m[1].split('::').pop())) continue;
    const open = bodyOpen(code, starts[i] + m.index + m[0].length - 1);
    if (open < 0 || lineOf(open) >= first - 1) continue;
    const end = closingLine(code, open, lineOf);
    let start = i;
    while (start > 0 && headPrefix(code.slice(starts[start - 1], starts[start]).trim())) start--;
    if (end + 1 > last) return { name: m[1], startLine: start + 1, endLine: end + 1 };
  }
  return null;
}

/** Whether a line above a head belongs to it: `template <...>`, or a return type on its own line. */
function headPrefix(t) {
  if (/^template\s*</.test(t)) return true;
  return /^[\w:<>,*&.~\s]+$/.test(t) && !/(^|[^:]):$/.test(t) && !/^(return|else|case|default|public|private|protected|do)\b/.test(t);
}

/** From the `(` at `paren`: the offset of the `{` opening the body, or -1 when `;` comes first. */
function bodyOpen(code, paren) {
  let depth = 0;
  for (let i = paren; i < code.length && i < paren + 2000; i++) {
    const ch = code[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && ch === '{') return i;
    else if (depth === 0 && (ch === ';' || ch === '}' || ch === '=')) return -1;
  }
  return -1;
}
