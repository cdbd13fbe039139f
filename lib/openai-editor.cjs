'use strict';
// The OpenAI Agents SDK's `Editor` (for `applyPatchTool({ editor })`) on top of the engine's
// `apply_patch` tool: each operation becomes a one-file V4A envelope, so it gets the same path
// guard, lock, atomic write, undo level, context matching and messages as the tool. A failure is
// returned as `{ status: 'failed', output }` (the SDK's non-throwing channel: the model reads
// `output`, the run goes on); nothing here throws.

const { applyPatchTool } = require('./patch-tools.cjs');
const { resultOf } = require('./tools.cjs');
const { ownParams } = require('./own.cjs');

/** Envelope and section markers: an operation's diff must not carry them (one file per call). */
const MARKERS = ['*** Begin Patch', '*** End Patch', '*** Add File:', '*** Delete File:', '*** Update File:', '*** Move to:'];

const failed = (output) => ({ status: 'failed', output });

/** The diff's lines without the empty line a final newline leaves. */
function diffLines(diff) {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Why `value` is not a usable path for `field` of a `kind` operation, or null. */
function pathProblem(value, field, kind) {
  if (typeof value !== 'string' || value.trim() === '') {
    return `Error: the ${kind} operation's ${field} must be a non-empty string naming a file. Resend it with the file's path.`;
  }
  if (/[\r\n]/.test(value)) {
    return `Error: the ${kind} operation's ${field} ${JSON.stringify(value)} holds a line break. Resend it with one file's path.`;
  }
  return null;
}

/** Why `diff` cannot be the body of one `kind` section, or null. */
function diffProblem(diff, kind) {
  if (typeof diff !== 'string') {
    return `Error: the ${kind} operation's diff must be a string (the V4A lines of the file). Resend it.`;
  }
  const lines = diffLines(diff);
  const marker = lines.findIndex((l) => MARKERS.some((m) => l.trim().startsWith(m)));
  if (marker >= 0) {
    return `Error: line ${marker + 1} of the ${kind} diff, "${lines[marker].trim()}", is a patch header; the diff of one operation holds only that file's lines. Send each file as its own operation, without '*** Begin Patch' or file headers.`;
  }
  if (kind === 'create_file') {
    const bad = lines.findIndex((l) => !l.startsWith('+'));
    if (bad >= 0) {
      return `Error: line ${bad + 1} of the create_file diff, ${JSON.stringify(lines[bad])}, does not start with '+'. Every line of a new file is written as '+' followed by the line; resend the diff that way.`;
    }
  }
  return null;
}

/** The one-file V4A envelope of a section `header` (its lines) and `diff`. */
function envelope(header, diff = '') {
  const body = diffLines(diff);
  return ['*** Begin Patch', ...header, ...body, '*** End Patch'].join('\n');
}

/** An engine message about line N of the envelope, about that line of the operation's diff instead. */
function diffLineMessage(text, headerLines) {
  return text.replace(/^Error: Invalid patch: line (\d+) /, (_, n) => `Error: Invalid patch: line ${Number(n) - headerLines - 1} of the diff `);
}

/**
 * An `Editor` for the Agents SDK's `applyPatchTool({ editor })`. `options` are the tool options
 * (`allowedFolders`, `cwd`, `historyDir`, ...). Each method resolves to
 * `{ status: 'completed' | 'failed', output }` and never rejects.
 */
function createEditor(options = {}) {
  const tool = applyPatchTool(options);
  const run = async (header, diff) => {
    const { ok, text } = await resultOf(tool, { input: envelope(header, diff) });
    return ok ? { status: 'completed', output: text } : failed(diffLineMessage(text, header.length));
  };
  /** The operation's own fields, or `{ problem }` when they cannot be read. */
  const opOf = (operation) => {
    const { params, problem } = ownParams(operation);
    return problem === undefined ? params : { problem: `Error: the operation could not be read (${problem}). Resend it as a plain object.` };
  };
  return {
    async createFile(operation) {
      const { path, diff, problem: unread } = opOf(operation);
      const problem = unread ?? pathProblem(path, 'path', 'create_file') ?? diffProblem(diff, 'create_file');
      return problem ? failed(problem) : run([`*** Add File: ${path}`], diff);
    },
    async updateFile(operation) {
      const { path, diff, moveTo, problem: unread } = opOf(operation);
      const problem =
        unread ??
        pathProblem(path, 'path', 'update_file') ??
        (moveTo == null ? null : pathProblem(moveTo, 'moveTo', 'update_file')) ??
        diffProblem(diff, 'update_file');
      if (problem) return failed(problem);
      const header = [`*** Update File: ${path}`, ...(moveTo == null ? [] : [`*** Move to: ${moveTo}`])];
      return run(header, diff);
    },
    async deleteFile(operation) {
      const { path, problem: unread } = opOf(operation);
      const problem = unread ?? pathProblem(path, 'path', 'delete_file');
      return problem ? failed(problem) : run([`*** Delete File: ${path}`]);
    },
  };
}

module.exports = { createEditor };
