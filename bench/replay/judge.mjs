// Judging one replayed edit against the exact post-commit file, and the report tables.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';

const lf = (s) => s.replace(/\r\n/g, '\n');
const squeeze = (s) => s.replace(/\s+/g, '');

function refusalKind(reply) {
  if (/Ambiguous match|Multiple occurrences|Found \d+ symbols named/.test(reply)) return 'ambiguous';
  if (/Edit scope too large/.test(reply)) return 'scope';
  return 'other';
}

/** Lines of `expected` (trimmed, non-blank) missing from `actual`, as a multiset difference. */
function droppedLines(expected, actual) {
  const have = new Map();
  for (const l of lf(actual).split('\n')) have.set(l.trim(), (have.get(l.trim()) ?? 0) + 1);
  let dropped = 0;
  for (const l of lf(expected).split('\n')) {
    const t = l.trim();
    if (!t) continue;
    const n = have.get(t) ?? 0;
    if (n > 0) have.set(t, n - 1);
    else dropped++;
  }
  return dropped;
}

/**
 * outcome: correct | whitespace (same lines up to indentation/trailing white space and line
 * endings) | wrong | refused; flags: joined (fewer lines, same non-white text), dropped (real
 * lines of the expected file missing); `afterHash`: a hash of the file after the call, so the
 * per-call results of two builds can be compared byte for byte.
 */
export function judge(call, { file, reply, after }, c) {
  const afterHash = createHash('sha256').update(after).digest('hex').slice(0, 16);
  const base = { file, reply: reply.slice(0, 300), afterHash, joined: false, dropped: 0, refusal: null };
  if (reply.startsWith('Error')) {
    const untouched = after === call.content;
    return { ...base, outcome: untouched ? 'refused' : 'wrong', refusal: refusalKind(reply) };
  }
  if (file.endsWith('.py')) writeFileSync(file.replace(/\.py$/, '.expected.py'), call.expected);
  if (after === call.expected) return { ...base, outcome: 'correct' };
  const el = lf(call.expected).split('\n'), al = lf(after).split('\n');
  const sameText = squeeze(call.expected) === squeeze(after);
  const joined = sameText && al.length < el.length;
  const dropped = droppedLines(call.expected, after);
  const ws = el.length === al.length && el.every((l, i) => l.trim() === al[i].trim());
  return { ...base, outcome: ws ? 'whitespace' : 'wrong', joined, dropped };
}

/** Python results that do not compile while their expected file does (`py_compile`). */
function pythonFailures(results) {
  const files = results.filter((r) => r.file.endsWith('.py') && r.outcome !== 'refused').map((r) => r.file);
  if (!files.length) return new Set();
  const script = `
import py_compile, sys, warnings
warnings.simplefilter('ignore')
for f in sys.stdin.read().split('\\n'):
    if not f: continue
    def ok(p):
        try:
            py_compile.compile(p, doraise=True, cfile=p + 'c')
            return True
        except Exception:
            return False
    if ok(f.replace('.py', '.expected.py')) and not ok(f):
        print(f)
`;
  const out = execFileSync('python3', ['-c', script], { input: files.join('\n'), encoding: 'utf8', maxBuffer: 16 << 20 });
  return new Set(out.split('\n').filter(Boolean));
}

/** Sets `pyFail` on every result: a Python result that does not compile while its expected file does. */
export function markPythonFailures(results) {
  const pyFail = pythonFailures(results);
  for (const r of results) r.pyFail = pyFail.has(r.file);
}

function tally(rows) {
  const t = { total: rows.length, correct: 0, whitespace: 0, wrong: 0, refused: 0, ambiguous: 0, scope: 0, joined: 0, dropped: 0, pyFail: 0 };
  for (const r of rows) {
    t[r.outcome]++;
    if (r.outcome === 'refused' && r.refusal !== 'other') t[r.refusal]++;
    if (r.joined) t.joined++;
    if (r.dropped) t.dropped++;
    if (r.pyFail) t.pyFail++;
  }
  const defined = t.total - t.ambiguous - t.scope;
  t.pct = defined ? ((100 * t.correct) / defined).toFixed(1) : '-';
  return t;
}

function table(title, groups) {
  const cols = ['total', 'correct', 'whitespace', 'wrong', 'refused', 'ambiguous', 'scope', 'joined', 'dropped', 'pyFail', 'pct'];
  const rows = [`| ${title} | ${cols.join(' | ')} |`, `|${' --- |'.repeat(cols.length + 1)}`];
  for (const [name, rs] of groups) {
    const t = tally(rs);
    rows.push(`| ${name} | ${cols.map((c) => t[c]).join(' | ')} |`);
  }
  return rows.join('\n');
}

function groupBy(results, key) {
  const m = new Map();
  for (const r of results) m.set(r[key], [...(m.get(r[key]) ?? []), r]);
  return [...[...m.entries()].sort(([a], [b]) => a.localeCompare(b)), ['**all**', results]];
}

/**
 * Markdown tables per category, per language, and of symbol mode per language ("pct": correct
 * among non-ambiguous, in-scope).
 */
export function report(results) {
  const symbol = results.filter((r) => r.category === 'symbol');
  const tables = [table('category', groupBy(results, 'category')), table('language', groupBy(results, 'lang')), table('symbol: language', groupBy(symbol, 'lang'))];
  return `${tables.join('\n\n')}\n`;
}
