// Deterministic generator of code-like JavaScript / TypeScript sources for the benchmark.
//
// A source is a sequence of numbered "units" (documented functions, classes with methods, config
// objects, arrow helpers), each built from a seeded PRNG so the same size and flavour always give
// the same bytes. Every unit's identifiers carry its index, so any line of a unit is unique.

/** mulberry32: small, fast, deterministic PRNG returning floats in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['record', 'batch', 'token', 'session', 'payload', 'entry', 'segment', 'buffer', 'request', 'result', 'node', 'index'];
const VERBS = ['compute', 'resolve', 'collect', 'validate', 'normalize', 'merge', 'render', 'update'];
const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** The kind of unit `i` is: 0 checksum function (the edit target), 1 class, 2 config, 3 helpers. */
export const unitKind = (i) => i % 4;

function checksumFn(i, r, ts) {
  const word = WORDS[Math.floor(r() * WORDS.length)];
  const verb = VERBS[Math.floor(r() * VERBS.length)];
  const k = 2 + Math.floor(r() * 7);
  const m = 3 + Math.floor(r() * 9);
  const limit = 10 + Math.floor(r() * 90);
  const sig = ts
    ? `export function ${verb}${cap(word)}${i}(items: number[], options: { limit?: number } = {}): number {`
    : `export function ${verb}${cap(word)}${i}(items, options = {}) {`;
  return [
    '/**',
    ` * ${cap(verb)}s the ${word} checksum for unit ${i}.`,
    ts ? ' * @param items values to fold' : ' * @param {number[]} items values to fold',
    ' */',
    sig,
    `  const limit_${i} = options.limit ?? ${limit};`,
    `  let total${ts ? ': number' : ''} = 0;`,
    '  for (const item of items) {',
    `    if (item > limit_${i}) {`,
    `      total += item * ${k};`,
    '    } else {',
    `      total -= item % ${m};`,
    '    }',
    '  }',
    '  return total;',
    '}',
    '',
  ].join('\n');
}

function serviceClass(i, r, ts) {
  const word = WORDS[Math.floor(r() * WORDS.length)];
  const retries = 1 + Math.floor(r() * 5);
  const T = ts ? `${cap(word)}${i}` : '';
  const head = ts
    ? [
        `export interface ${T} {`,
        '  id: string;',
        '  value: number;',
        '  tags?: string[];',
        '}',
        '',
        `export class ${cap(word)}Service${i} {`,
        `  private cache_${i}: Map<string, ${T}> = new Map();`,
        '',
        `  constructor(private readonly client: { get(url: string): Promise<{ data: ${T} }> }, private retries: number = ${retries}) {}`,
      ]
    : [
        `export class ${cap(word)}Service${i} {`,
        `  constructor(client, retries = ${retries}) {`,
        '    this.client = client;',
        '    this.retries = retries;',
        `    this.cache_${i} = new Map();`,
        '  }',
      ];
  return [
    ...head,
    '',
    `  async fetch${cap(word)}${i}(id${ts ? ': string' : ''})${ts ? `: Promise<${T}>` : ''} {`,
    `    if (this.cache_${i}.has(id)) {`,
    `      return this.cache_${i}.get(id)${ts ? '!' : ''};`,
    '    }',
    `    const response = await this.client.get(\`/${word}s/\${id}?v=${i}\`);`,
    `    this.cache_${i}.set(id, response.data);`,
    '    return response.data;',
    '  }',
    '',
    `  clear${i}()${ts ? ': void' : ''} {`,
    `    this.cache_${i}.clear();`,
    '  }',
    '}',
    '',
  ].join('\n');
}

function configObject(i, r, ts) {
  const word = WORDS[Math.floor(r() * WORDS.length)];
  const lines = [`export const ${word}Config${i}${ts ? ': Record<string, unknown>' : ''} = {`];
  const n = 3 + Math.floor(r() * 4);
  for (let j = 0; j < n; j++) {
    const key = WORDS[Math.floor(r() * WORDS.length)];
    lines.push(`  ${key}_${i}_${j}: ${r() < 0.5 ? Math.floor(r() * 1000) : `'${VERBS[Math.floor(r() * VERBS.length)]}-${i}-${j}'`},`);
  }
  lines.push('};', '');
  return lines.join('\n');
}

function helpers(i, r, ts) {
  const verb = VERBS[Math.floor(r() * VERBS.length)];
  const x = ts ? 'x: number' : 'x';
  return [
    `// Helpers for unit ${i}: ${verb} values and keep them within bounds.`,
    `export const ${verb}Value${i} = (${x}) => Math.max(0, Math.min(${100 + i}, x * ${1 + Math.floor(r() * 9)}));`,
    `export const is${cap(verb)}able${i} = (${x}) => x % ${2 + Math.floor(r() * 5)} === 0;`,
    '',
  ].join('\n');
}

const KINDS = [checksumFn, serviceClass, configObject, helpers];

/**
 * A source of at most `bytes` bytes (at least one unit), made of whole units.
 * @returns {{ text: string, units: number }}
 */
export function generateSource(bytes, flavour = 'js', seed = 1) {
  const ts = flavour === 'ts';
  const r = prng(seed * 7919 + bytes);
  const parts = [`// Generated ${flavour.toUpperCase()} source (${bytes} bytes target), edit-engine bench.\n\n`];
  let size = parts[0].length;
  for (let i = 0; ; i++) {
    const unit = KINDS[unitKind(i)](i, r, ts) + '\n';
    if (i > 0 && size + unit.length > bytes) break;
    parts.push(unit);
    size += unit.length;
  }
  return { text: parts.join(''), units: parts.length - 1 };
}

/** Index of the checksum function nearest the middle of a source with `units` units. */
export function middleTarget(units) {
  const mid = Math.floor(units / 2);
  return mid - (mid % 4);
}

/**
 * 100k lines of extract-style output (`  <n> | <code>`), the input of annotateOutputWithHashes.
 */
export function extractOutput(lines) {
  const code = generateSource(lines * 40, 'js', 3).text.split('\n');
  const out = [];
  for (let n = 1; n <= lines; n++) out.push(`${String(n).padStart(6)} | ${code[(n - 1) % code.length]}`);
  return out.join('\n');
}

/** Line numbers (1-based) and texts of the target checksum function's interesting lines. */
export function targetOf(text, units) {
  const t = middleTarget(units);
  const lines = text.split('\n');
  const ifLine = lines.indexOf(`    if (item > limit_${t}) {`);
  if (ifLine < 0) throw new Error(`generator: target unit ${t} not found`);
  const sig = lines.slice(0, ifLine).reverse().find((l) => l.startsWith('export function '));
  const name = /export function (\w+)\(/.exec(sig)[1];
  return { t, lines, ifLine, name };
}

/**
 * The edit rows' params for a source: each crafted so that exactly the named strategy matches
 * (`computeLineHash` from the engine under test, for the line-hash row).
 */
export function editRows(text, units, computeLineHash) {
  const { t, lines, ifLine } = targetOf(text, units);
  const [a, b, c] = lines.slice(ifLine, ifLine + 3); // if (...) {, total += ..., } else {
  const changed = [a.replace('>', '>='), b, c];
  const less = (l) => l.replace(/^ {2}/, ''); // one indentation level less: exact fails, line-trimmed matches
  return [
    { mode: 'exact edit', params: { old_string: a, new_string: changed[0] } },
    {
      mode: 'fuzzy: line-trimmed',
      strategy: 'line-trimmed',
      params: { old_string: [a, b, c].map(less).join('\n'), new_string: changed.map(less).join('\n') },
    },
    {
      mode: 'fuzzy: whitespace-normalized',
      strategy: 'whitespace-normalized',
      params: {
        old_string: [a.replace(' > ', '  >  '), b.replace(' += ', '  +=  ')].join('\n'),
        new_string: [changed[0], b].join('\n'),
      },
    },
    {
      mode: 'line edit (hashes)',
      params: {
        start_line: `${ifLine + 1}:${computeLineHash(a)}`,
        end_line: `${ifLine + 3}:${computeLineHash(c)}`,
        new_string: changed.join('\n'),
      },
    },
  ].map((r) => ({ ...r, unit: t }));
}
