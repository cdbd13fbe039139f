// Checks of the code's shape, each over a source tree given by its root (so the same check can be
// run on an older checkout): where success is decided, and whether the docs and schemas agree.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir` whose name ends with one of `exts`. */
function filesUnder(dir, exts) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, exts));
    else if (exts.some((e) => name.endsWith(e))) out.push(full);
  }
  return out;
}

/** A Rust file's code without its test module (everything from the first `#[cfg(test)]`). */
function rustCode(text) {
  const at = text.indexOf('#[cfg(test)]');
  return at < 0 ? text : text.slice(0, at);
}

const ERROR_PREFIX = [/starts_with\(\s*"Error/, /startsWith\(\s*['"`]Error/];

/**
 * The one place allowed to read a text for success: `resultOf` in lib/tools.cjs, for a host's own
 * Probe-shaped tool, which has no structured result (the Probe SDK's contract: failures start
 * with "Error").
 */
const FOREIGN_TOOL_RULE = /^\s*return \{ ok: !text\.startsWith\('Error'\), text, changedFiles: \[\] \};$/;

/**
 * `file:line` of each place in the shipped code (the addon's `src/`, the engine, `lib/`) that
 * tests a message for an "Error" prefix, i.e. decides success from the text.
 */
export function errorPrefixDecisions(root) {
  const rust = [join(root, 'src'), join(root, 'crates/engine/src')]
    .flatMap((d) => filesUnder(d, ['.rs']))
    .filter((f) => !/tests?\.rs$/.test(f));
  const js = filesUnder(join(root, 'lib'), ['.cjs', '.mjs']);
  const hits = [];
  for (const file of [...rust, ...js]) {
    const raw = readFileSync(file, 'utf8');
    const code = file.endsWith('.rs') ? rustCode(raw) : raw;
    code.split('\n').forEach((line, i) => {
      const foreign = file.endsWith('tools.cjs') && FOREIGN_TOOL_RULE.test(line);
      if (!foreign && ERROR_PREFIX.some((re) => re.test(line))) hits.push(`${relative(root, file)}:${i + 1}`);
    });
  }
  return hits;
}

/** Calls that write, remove or rename a file: the file layer's writers and std's. */
const FILE_WRITES = /\b(write_atomic(_confined)?|remove_file_confined|fs::write|fs::rename|fs::remove_file|File::create|OpenOptions)\b/;

/**
 * Folders of the engine that own files of their own and write them through the file layer
 * directly: the file layer itself, the undo store, the task store. Every other write — every
 * write a tool makes — lands through `tools/apply.rs`.
 */
const OWN_STORES = ['crates/engine/src/fs/', 'crates/engine/src/history/', 'crates/engine/src/tasks/'];

/**
 * `file:line` of each write, removal or rename in the shipped Rust code (the engine and the
 * addon) outside `tools/apply.rs` and the stores that own their files.
 */
export function writesOutsideApply(root) {
  const files = [join(root, 'src'), join(root, 'crates/engine/src')]
    .flatMap((d) => filesUnder(d, ['.rs']))
    .filter((f) => !/tests?\.rs$/.test(f));
  const hits = [];
  for (const file of files) {
    const rel = relative(root, file);
    if (rel === 'crates/engine/src/tools/apply.rs' || OWN_STORES.some((d) => rel.startsWith(d))) continue;
    rustCode(readFileSync(file, 'utf8'))
      .split('\n')
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (FILE_WRITES.test(code) && !/^\s*use /.test(code)) hits.push(`${rel}:${i + 1}`);
      });
  }
  return hits;
}

/** The docs' section heading of each tool whose parameters docs/tools.md tabulates. */
export const DOC_SECTIONS = {
  view: 'view',
  grep: 'grep',
  edit: 'edit',
  create: 'create',
  multi_edit: 'multi_edit',
  edit_file: 'edit_file',
  replace_in_file: 'replace_in_file',
  str_replace_based_edit_tool: 'Text editor',
};

/**
 * The parameters docs/tools.md lists for each section: the backticked names in the first column
 * of the section's tables headed `| parameter |`.
 */
export function documentedParams(root) {
  const lines = readFileSync(join(root, 'docs/tools.md'), 'utf8').split('\n');
  const params = {};
  let section = null;
  let inTable = false;
  for (const line of lines) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) [section, inTable] = [heading[1].trim(), false];
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const first = line.split('|')[1].trim();
    if (first === 'parameter') inTable = true;
    else if (inTable && section && !first.startsWith('---')) {
      const names = [...first.matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]);
      (params[section] ??= []).push(...names);
    }
  }
  return params;
}

/** `tool: param` for each documented parameter its schema (from `schemaOf(tool)`) lacks. */
export function undocumentedInSchema(root, schemaOf) {
  const documented = documentedParams(root);
  const missing = [];
  for (const [tool, section] of Object.entries(DOC_SECTIONS)) {
    const properties = Object.keys(schemaOf(tool).properties);
    for (const param of documented[section] ?? []) {
      if (!properties.includes(param)) missing.push(`${tool}: ${param}`);
    }
  }
  return missing;
}

/**
 * Reads of a `serde_json::Value`: matching or building its variants, its accessors, a lookup or
 * an index by key, parsing text into a `Value`, and the old key-reading helpers (`field`,
 * `flag`, `non_blank_str`) called as free functions.
 */
const VALUE_READS = [
  /\bValue::(Null|Bool|Number|String|Array|Object)\b/,
  /\bValue::(as|is)_\w+/,
  /\.(as_u64|as_i64|as_f64|as_bool|as_array|as_object|as_null|is_null|is_object|is_array|is_string|is_number|is_boolean)\(/,
  /\.get\(\s*"[^"]*"\s*\)/,
  /\w\[\s*"[A-Za-z_]+"\s*\]/,
  /\bfrom_(str|slice|value)::<Value>/,
  /(?<![.\w])(field|flag|non_blank_str)\(/,
];

/**
 * The modules allowed to read a `serde_json::Value`: the tools' params parser (`tools/params/`),
 * the task store, which keeps the caller's task objects as JSON (`tasks/`), and the binding that
 * reads that store's options (`src/tasks.rs`).
 */
const PARAMS_PARSERS = ['crates/engine/src/tools/params/', 'crates/engine/src/tasks/', 'src/tasks.rs'];

/**
 * `file:line` of each read of a `serde_json::Value` in the shipped Rust code (the engine and the
 * addon) outside the params parsers: every tool reads its params once, through them. Only files
 * that name `serde_json` can hold a `Value`, so only they are read.
 */
export function valueReadsOutsideParsers(root) {
  const files = [join(root, 'src'), join(root, 'crates/engine/src')]
    .flatMap((d) => filesUnder(d, ['.rs']))
    .filter((f) => !/tests?\.rs$/.test(f));
  const hits = [];
  for (const file of files) {
    const rel = relative(root, file);
    const code = rustCode(readFileSync(file, 'utf8'));
    if (PARAMS_PARSERS.some((p) => rel.startsWith(p)) || !code.includes('serde_json')) continue;
    code
      .split('\n')
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (!/^\s*use /.test(code) && VALUE_READS.some((re) => re.test(code))) hits.push(`${rel}:${i + 1}`);
      });
  }
  return hits;
}
