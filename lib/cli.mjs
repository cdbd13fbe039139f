// The `edit-engine` command: run one tool from a shell, serve the tools over MCP, or run the demo.
// `main(argv, io)` resolves to the exit code; it never throws.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { parseArgs as parseArgsOf } from 'node:util';

const require = createRequire(import.meta.url);
const registry = require('./registry.cjs');
const { resultOf } = require('./tools.cjs');
const { version } = require('../package.json');

const USAGE = `edit-engine ${version}: native file-editing tools for AI agents

Usage:
  edit-engine <tool> --json '<params>' [--root <dir>] [options]   run one tool call, print its result
  edit-engine mcp [--root <dir>] [--allow-edit] [--tools <set>] [options]  serve the tools over MCP (stdio)
  edit-engine demo                                                 run the demo on a copy of a sample project
  edit-engine tools                                                list the tools
  edit-engine --help | --version

Tools: ${registry.availableEntries({ allowEdit: true }).map((e) => e.name).join(', ')}

Options:
  --json <params>     the tool's parameters as a JSON object ("-" reads them from stdin)
  --root <dir>        the folder the tools may touch; relative paths resolve against it (default: cwd)
  --allow-edit        mcp: also serve the editing tools (default: read-only tools only)
  --tools <set>       mcp: a preset (${Object.keys(registry.PRESETS).join(', ')}) or tool names a,b
  --require-read      mcp: a file must be viewed (or found by grep) before it can be edited
  --read-only         <tool>: refuse editing tools (a one-shot call may edit by default)
  --protect <glob>    gitignore-style glob never written nor shown (repeatable)
  --diff              append a unified diff of the change to success messages
  --max-file-bytes N  largest file a tool reads

Exit status: 0 when the tool call succeeds, 1 when it fails, 2 for a usage error.

Examples:
  edit-engine view --json '{"path":"src/main.js"}'
  edit-engine edit --root . --json '{"file_path":"src/main.js","old_string":"a","new_string":"b"}'
  npx edit-engine mcp --root ~/project --allow-edit`;

/** The options, as `node:util`'s `parseArgs` takes them. */
const OPTIONS = {
  json: { type: 'string' },
  root: { type: 'string' },
  protect: { type: 'string', multiple: true },
  'max-file-bytes': { type: 'string' },
  tools: { type: 'string' },
  'allow-edit': { type: 'boolean' },
  'require-read': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  diff: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
};

class UsageError extends Error {}

/**
 * `{ command, flags }` from argv (`flags` by long option name; repeated `--protect` values
 * accumulate, another repeated option keeps its last value). Throws a UsageError for an unknown
 * option, an option without its value or a second command.
 */
export function parseArgs(argv) {
  const { tokens } = parseArgsOf({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const flags = { protect: [] };
  const positional = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positional.push(token.value);
    else if (token.kind === 'option-terminator' || !Object.hasOwn(OPTIONS, token.name)) {
      throw new UsageError(`unknown option ${token.kind === 'option' ? token.rawName : '--'}`);
    } else if (OPTIONS[token.name].type === 'boolean') flags[token.name] = true;
    else if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
    else if (token.name === 'protect') flags.protect.push(token.value);
    else flags[token.name] = token.value;
  }
  if (positional.length > 1) throw new UsageError(`unexpected argument ${positional[1]}`);
  return { command: positional[0], flags };
}

/** The real path of the --root folder (default: cwd). */
function rootOf(flags, cwd) {
  const root = resolve(cwd, flags.root ?? '.');
  let stat;
  try {
    stat = statSync(root);
  } catch {
    throw new UsageError(`--root ${flags.root} does not exist`);
  }
  if (!stat.isDirectory()) throw new UsageError(`--root ${flags.root} is not a directory`);
  return realpathSync(root);
}

/** Tool options from the shared flags. */
function toolOptions(flags) {
  const options = {};
  if (flags.protect.length > 0) options.protectedPaths = flags.protect;
  if (flags.diff) options.returnDiff = true;
  if (flags['max-file-bytes'] !== undefined) {
    const n = Number(flags['max-file-bytes']);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError('--max-file-bytes needs a positive integer');
    options.maxFileBytes = n;
  }
  return options;
}

function parseParams(text) {
  let params;
  try {
    params = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--json is not valid JSON: ${error.message}`);
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new UsageError('--json must be a JSON object of the tool\'s parameters');
  }
  return params;
}

async function runTool(name, flags, io) {
  const entry = registry.findEntry(name);
  const available = registry.availableEntries({ allowEdit: true });
  if (!entry || !available.includes(entry)) {
    throw new UsageError(`unknown tool "${name}" (tools: ${available.map((e) => e.name).join(', ')})`);
  }
  if (flags['read-only'] && entry.access === 'write') {
    throw new UsageError(`${name} edits files; it is refused with --read-only`);
  }
  if (flags.json === undefined) throw new UsageError(`${name} needs --json '<params>'`);
  const params = parseParams(flags.json === '-' ? await io.readStdin() : flags.json);
  const root = rootOf(flags, io.cwd);
  const toolNames = registry.hostToolNames(available.map((e) => e.name));
  const tool = registry.buildTool(entry, registry.rootOptions(root, { ...toolOptions(flags), toolNames }));
  const { ok, text } = await resultOf(tool, params);
  io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  return ok ? 0 : 1;
}

/** Loads the MCP adapter, or returns null when the MCP SDK (an optional peer) is not installed. */
function loadMcp() {
  try {
    return require('./mcp.cjs');
  } catch (error) {
    if (error && error.code === 'EDIT_ENGINE_MISSING_PEER') return null;
    throw error;
  }
}

/**
 * Runs `npx --yes edit-engine-mcp@<this version> <args>`: the same server from the package that
 * brings the MCP SDK along, so `npx edit-engine mcp` works where only edit-engine is installed.
 */
function delegateMcp(args, io) {
  io.stderr(`edit-engine: the MCP SDK is not installed here; running the same server from edit-engine-mcp@${version} (npx)\n`);
  return new Promise((resolveCode) => {
    const child = spawn('npx', ['--yes', `edit-engine-mcp@${version}`, ...args], {
      stdio: 'inherit',
      env: { ...process.env, EDIT_ENGINE_MCP_PACKAGE: '1' },
    });
    child.on('error', (error) => {
      io.stderr(`edit-engine: could not run npx (${error.message}). Install the SDK instead: npm install @modelcontextprotocol/sdk\n`);
      resolveCode(1);
    });
    child.on('exit', (code, signal) => resolveCode(signal ? 1 : code));
  });
}

async function runMcp(flags, io, args) {
  const mcp = loadMcp();
  if (!mcp && !process.env.EDIT_ENGINE_MCP_PACKAGE) return delegateMcp(args, io);
  if (!mcp) throw new UsageError('the MCP SDK is not installed: npm install @modelcontextprotocol/sdk');
  const { serveStdio } = mcp;
  const root = rootOf(flags, io.cwd);
  const tools = toolChoice(flags.tools);
  await serveStdio({ root, allowEdit: Boolean(flags['allow-edit']), requireRead: Boolean(flags['require-read']), tools, ...toolOptions(flags) });
  io.stderr(`edit-engine MCP server on stdio (root ${root}, ${flags['allow-edit'] ? 'editing enabled' : 'read-only'})\n`);
  return undefined; // keeps running until stdin closes
}

function listTools(io) {
  for (const entry of registry.availableEntries({ allowEdit: true })) {
    const tool = registry.buildTool(entry, {});
    io.stdout(`${entry.name.padEnd(30)} ${entry.access === 'read' ? 'read-only' : 'edits    '}  required: ${(tool.inputSchema.required || []).join(', ')}\n`);
  }
  return 0;
}

/** The `tools` choice of `--tools` (a preset name, or comma-separated tool names), checked. */
function toolChoice(value) {
  if (value === undefined) return undefined;
  const choice = Object.hasOwn(registry.PRESETS, value) ? value : value.split(',').map((n) => n.trim()).filter(Boolean);
  try {
    registry.selectEntries({ tools: choice });
  } catch (error) {
    throw new UsageError(`--tools: ${error.message}`);
  }
  return choice;
}

function readStdin() {
  return new Promise((resolveText, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (text += chunk));
    process.stdin.on('end', () => resolveText(text));
    process.stdin.on('error', reject);
  });
}

const defaultIo = {
  cwd: process.cwd(),
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  readStdin,
};

/**
 * Runs the command line `argv` (without node and the script). Resolves to the exit code, or to
 * undefined for `mcp` (the server keeps the process alive).
 */
export async function main(argv, io = defaultIo) {
  try {
    const { command, flags } = parseArgs(argv);
    if (flags.help || command === 'help') {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (flags.version) {
      io.stdout(`${version}\n`);
      return 0;
    }
    if (command === undefined) throw new UsageError('missing command');
    if (command === 'mcp') return await runMcp(flags, io, argv.slice(argv.indexOf('mcp') + 1));
    if (command === 'demo') {
      const { runDemo } = await import('./demo.mjs');
      await runDemo({ log: (text) => io.stdout(`${text}\n`) });
      return 0;
    }
    if (command === 'tools') return listTools(io);
    return await runTool(command, flags, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`edit-engine: ${error.message}\nRun "edit-engine --help" for usage.\n`);
      return 2;
    }
    io.stderr(`edit-engine: ${error && error.stack ? error.stack : String(error)}\n`);
    return 1;
  }
}
