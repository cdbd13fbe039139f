'use strict';
// The read-only `view` tool the adapters serve. When the package exports `textEditorTool`, `view`
// is its `view` command (one native call). Until then it is a small JS reader: the path's real
// location must lie inside an allowed folder; files are shown `cat -n` style (the text editor's
// format), directories two levels deep. Never throws: failures resolve to "Error ..." strings.

const fs = require('node:fs/promises');
const nodePath = require('node:path');
const engine = require('./index.cjs');

const viewSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File or directory to show (absolute, or relative to the working directory)' },
    view_range: {
      type: 'array',
      items: { type: 'integer' },
      minItems: 2,
      maxItems: 2,
      description: 'Optional [start, end] line range, 1-based and inclusive; end -1 means to the end of the file',
    },
  },
  required: ['path'],
};

const viewDescription =
  'Show a text file with line numbers (optionally only view_range), or list a directory two levels deep (hidden entries excluded). Read-only.';

const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;
const MAX_LISTED = 1000;

const isObject = (v) => v !== null && typeof v === 'object';
const nonEmpty = (v) => (typeof v === 'string' && v !== '' ? v : undefined);

/** `viewTool(options)`: the tool object; options are the edit tools' (`allowedFolders`, `cwd`, ...). */
function viewTool(options = {}) {
  const o = isObject(options) ? options : {};
  const execute = typeof engine.textEditorTool === 'function' ? editorView(o) : (params) => jsView(o, params);
  return { name: 'view', description: viewDescription, inputSchema: viewSchema, execute };
}

/**
 * `view` through the native text editor's `view` command. A file it showed is recorded as read in
 * the `fileTracker` / `readTracker` options, as the JS reader does.
 */
function editorView(options) {
  const editor = engine.textEditorTool({ ...options, version: '20250728' });
  return async (params) => {
    const p = isObject(params) ? params : {};
    const input = { command: 'view', path: p.path };
    if (p.view_range !== undefined) input.view_range = p.view_range;
    if (p.workingDirectory !== undefined) input.workingDirectory = p.workingDirectory;
    const result = await editor.execute(input);
    if (typeof result === 'string' && !result.startsWith('Error') && typeof p.path === 'string') {
      await recordViewed(options, p);
    }
    return result;
  };
}

/** Marks the file a successful view showed as read (best effort; directories are skipped). */
async function recordViewed(options, p) {
  if (!options.fileTracker && !options.readTracker) return;
  try {
    const cwd = nonEmpty(p.workingDirectory) || nonEmpty(options.cwd) || process.cwd();
    const real = await fs.realpath(nodePath.resolve(cwd, p.path));
    const stat = await fs.stat(real);
    if (stat.isFile()) markSeen(options, real, stat.mtimeMs);
  } catch {
    // The view itself succeeded; tracking is best effort.
  }
}

/** The JS fallback reader. */
async function jsView(options, params) {
  try {
    const p = isObject(params) ? params : {};
    if (typeof p.path !== 'string' || p.path.trim() === '') {
      return 'Error: the `path` parameter is required: the file or directory to view.';
    }
    const cwd = nonEmpty(p.workingDirectory) || nonEmpty(options.cwd) || process.cwd();
    const allowed = Array.isArray(options.allowedFolders) && options.allowedFolders.length > 0
      ? options.allowedFolders.filter((f) => typeof f === 'string')
      : [nonEmpty(options.cwd) || process.cwd()];
    const real = await realTarget(nodePath.resolve(cwd, p.path), p.path);
    if (real.error) return real.error;
    if (!(await insideAny(real.path, allowed))) {
      return `Error: ${p.path} is outside the allowed folders (${allowed.join(', ')}). View a path inside them.`;
    }
    const stat = await fs.stat(real.path);
    if (stat.isDirectory()) {
      if (p.view_range != null) return 'Error: The `view_range` parameter is not allowed when `path` points to a directory.';
      return listDirectory(p.path, real.path);
    }
    if (!stat.isFile()) return `Error: ${p.path} is not a regular file or directory.`;
    return await viewFile(options, p, real.path, stat.size, stat.mtimeMs);
  } catch (error) {
    return `Error viewing file: ${error && error.message ? error.message : String(error)}`;
  }
}

/** `{ path }` (symlinks resolved) or `{ error }` when it does not exist. */
async function realTarget(absolute, shown) {
  try {
    return { path: await fs.realpath(absolute) };
  } catch (error) {
    if (error && error.code === 'ENOENT') {
      return { error: `Error: The path ${shown} does not exist. Please provide a valid path (view a directory to see its files).` };
    }
    throw error;
  }
}

/** Whether `real` lies inside (or is) one of `folders` (their real paths). */
async function insideAny(real, folders) {
  for (const folder of folders) {
    let base;
    try {
      base = await fs.realpath(nodePath.resolve(folder));
    } catch {
      continue;
    }
    const rel = nodePath.relative(base, real);
    if (rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel))) return true;
  }
  return false;
}

async function viewFile(options, p, real, size, mtimeMs) {
  const max = typeof options.maxFileBytes === 'number' ? options.maxFileBytes : DEFAULT_MAX_FILE_BYTES;
  if (size > max) return `Error: ${p.path} is ${size} bytes, over the ${max}-byte limit (maxFileBytes).`;
  const bytes = await fs.readFile(real);
  if (bytes.includes(0)) return `Error: ${p.path} looks binary (it contains NUL bytes); only text files can be viewed.`;
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return `Error: ${p.path} is not valid UTF-8; only UTF-8 text files can be viewed.`;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const range = viewRange(p.view_range, lines.length);
  if (typeof range === 'string') return range;
  markSeen(options, real, mtimeMs);
  const [start, end] = range;
  return catN(p.path, lines.slice(start - 1, end), start);
}

/** Records the read in the `fileTracker` / `readTracker` options, so the file can be edited next. */
function markSeen(options, real, mtimeMs) {
  try {
    const { fileTracker, readTracker } = options;
    if (fileTracker && typeof fileTracker.markFileSeen === 'function') fileTracker.markFileSeen(real);
    if (readTracker && typeof readTracker.recordRead === 'function') readTracker.recordRead(real, mtimeMs);
  } catch {
    // Tracking is best effort; the view itself succeeded.
  }
}

/** The 1-based inclusive range to show, or an error string (Anthropic's messages). */
function viewRange(raw, total) {
  if (raw == null) return [1, total];
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      value = null;
    }
  }
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isInteger(Number(n)) && n !== '' && n !== null)) {
    return 'Error: Invalid `view_range`. It should be a list of two integers, e.g. [1, 20] or [10, -1] (to the end).';
  }
  const [init, last] = value.map(Number);
  const shown = `[${init}, ${last}]`;
  if (init < 1 || init > total) {
    return `Error: Invalid \`view_range\`: ${shown}. Its first element \`${init}\` should be within the range of lines of the file: [1, ${total}]`;
  }
  if (last === -1) return [init, total];
  if (last > total) {
    return `Error: Invalid \`view_range\`: ${shown}. Its second element \`${last}\` should be smaller than the number of lines in the file: \`${total}\``;
  }
  if (last < init) {
    return `Error: Invalid \`view_range\`: ${shown}. Its second element \`${last}\` should be larger or equal than its first \`${init}\``;
  }
  return [init, last];
}

function catN(shown, lines, first) {
  const numbered = lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join('\n');
  return `Here's the result of running \`cat -n\` on ${shown}:\n${numbered}\n`;
}

/** Non-hidden entries of `dir`, sorted, with whether each is a directory (symlinks not followed). */
async function visibleEntries(dir) {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => !e.name.startsWith('.'))
      .map((e) => [e.name, e.isDirectory()])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  } catch {
    return [];
  }
}

async function listDirectory(shown, real) {
  const base = shown.replace(/\/+$/, '') || '/';
  const lines = [`${base}/`];
  let omitted = 0;
  const push = (line) => (lines.length <= MAX_LISTED ? lines.push(line) : omitted++);
  for (const [name, isDir] of await visibleEntries(real)) {
    push(`${base}/${name}${isDir ? '/' : ''}`);
    if (!isDir) continue;
    for (const [child, childDir] of await visibleEntries(nodePath.join(real, name))) {
      push(`${base}/${name}/${child}${childDir ? '/' : ''}`);
    }
  }
  if (omitted > 0) lines.push(`... and ${omitted} more entries (view a subdirectory to see them)`);
  return `Here's the files and directories up to 2 levels deep in ${shown}, excluding hidden items:\n${lines.join('\n')}\n`;
}

module.exports = { viewTool, viewSchema, viewDescription };
