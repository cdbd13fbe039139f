// The `edit-engine` command: run one tool from a shell, serve the tools over MCP, or run the demo.
// `main(argv, io)` resolves to the exit code; it never throws.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { parseArgs as parseArgsOf } from 'node:util';

const require = createRequire(import.meta.url);
const registry = require('./registry.cjs');
const { resultOf } = require('./tools.cjs');
const { dryRunText } = require('./dry-run.cjs');
const { undoLastEditResult } = require('./undo.cjs');
const { createCheckpoints } = require('./checkpoints.cjs');
const { version } = require('../package.json');

const USAGE = `edit-engine ${version}: native file-editing tools for AI agents

Usage:
  edit-engine <tool> --json '<params>' [--root <dir>] [options]   run one tool call, print its result
  edit-engine apply_patch|apply_diff --text <file> [--root <dir>]  apply a patch or diff read from a file ("-": stdin)
  edit-engine undo --json '{"path":"<file>"}' [--root <dir>]       undo the last write an edit-engine tool made to a file
  edit-engine preview <tool> --json '<params>' [--root <dir>]      the change a call would make, without writing (= <tool> --dry-run)
  edit-engine checkpoint [--session <id>] [--label <text>]         take a checkpoint of the session's files (prints its id)
  edit-engine rewind <checkpoint id> [--session <id>] [--dry-run] [--on-conflict skip]  put the session's files back as they were at a checkpoint
  edit-engine <tool> --help                                        the tool's description and parameters
  edit-engine mcp [--root <dir>] [--allow-edit] [--tools <set>] [options]  serve the tools over MCP (stdio)
  edit-engine history list|size|collect [--dry-run] [--max-bytes N]  the default undo stores: list them, their total size, collect them now
  edit-engine demo                                                 run the demo on a copy of a sample project
  edit-engine tools                                                list the tools
  edit-engine --help | --version

Tools: ${cliEntries().map((e) => e.name).join(', ')}, undo

Options:
  --json <params>     the tool's parameters as a JSON object ("-" reads them from stdin)
  --text <file>       apply_patch / apply_diff: the patch or diff text from a file ("-": stdin)
  --root <dir>        the folder the tools may touch; relative paths resolve against it (default: cwd)
  --allow-edit        mcp: also serve the editing tools (default: read-only tools only)
  --tools <set>       mcp: a preset (${Object.keys(registry.PRESETS).join(', ')}) or tool names a,b
  --require-read      mcp: a file must be viewed (or found by grep) before it can be edited
  --read-only         <tool>: refuse editing tools (a one-shot call may edit by default)
  --dry-run           <tool>: write nothing; print the change the call would make
  --protect <glob>    gitignore-style glob never written nor shown (repeatable)
  --diff              append a unified diff of the change to success messages
  --max-file-bytes N  largest file a tool reads
  --session <id>      the session a call's writes belong to (checkpoint and rewind work on one session;
                      default: the root's own, cli:<real path of --root>, shared by every run there but mcp)
  --label <text>      checkpoint: a label to recognise it by
  --on-conflict skip  rewind: rewind the other files when some changed since (default: refuse the whole rewind)
  --dry-run           history collect: only say which stores would be removed
  --max-bytes N       history: the cap on all default undo stores together (default: EDIT_ENGINE_HISTORY_MAX_BYTES, else 1 GiB)

Exit status: 0 when the tool call succeeds, 1 when it fails, 2 for a usage error.

Examples:
  edit-engine view --json '{"path":"src/main.js"}'
  edit-engine edit --root . --json '{"file_path":"src/main.js","old_string":"a","new_string":"b"}'
  git diff | edit-engine apply_diff --root ../other-checkout --text -
  edit-engine undo --json '{"path":"src/main.js"}'
  npx edit-engine mcp --root ~/project --allow-edit`;

/** The options, as `node:util`'s `parseArgs` takes them. */
const OPTIONS = {
  json: { type: 'string' },
  text: { type: 'string' },
  root: { type: 'string' },
  protect: { type: 'string', multiple: true },
  'max-file-bytes': { type: 'string' },
  tools: { type: 'string' },
  'allow-edit': { type: 'boolean' },
  'require-read': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  diff: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'max-bytes': { type: 'string' },
  session: { type: 'string' },
  label: { type: 'string' },
  'on-conflict': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
};

class UsageError extends Error {}

/** The commands that are not a tool (their --help is the general usage). */
const COMMANDS = new Set(['help', 'mcp', 'demo', 'tools', 'history', 'checkpoint', 'rewind', 'preview']);

/** The commands that take a second word (history's subcommand, rewind's id, preview's tool). */
const TWO_WORDS = new Set(['history', 'rewind', 'preview']);

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
  const most = TWO_WORDS.has(positional[0]) ? 2 : 1;
  if (positional.length > most) throw new UsageError(`unexpected argument ${positional[most]}`);
  return { command: positional[0], flags, subcommand: positional[1] };
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

/**
 * The session of a run without --session, for the real path `root`: one per workspace root, so a
 * checkpoint, the writes after it and a rewind work across runs (each run is its own process).
 */
function defaultSession(root) {
  return `cli:${root}`;
}

/** Tool options from the shared flags; `session` is the session when --session is not given. */
function toolOptions(flags, session) {
  const options = {};
  if (flags.protect.length > 0) options.protectedPaths = flags.protect;
  if (flags.diff) options.returnDiff = true;
  const sessionId = flags.session ?? session;
  if (sessionId !== undefined) options.sessionId = sessionId;
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

/** The tools the command line runs: every tool, the optional ones (apply_patch, apply_diff) too. */
function cliEntries() {
  return registry.availableEntries({ allowEdit: true, includeOptional: true });
}

/** The entry of tool `name`, or a UsageError naming the tools. */
function cliEntry(name) {
  const entry = cliEntries().find((e) => e.name === name);
  if (!entry) throw new UsageError(`unknown tool "${name}" (tools: ${cliEntries().map((e) => e.name).join(', ')}, undo)`);
  return entry;
}

/** The parameter `--text` fills, for the tools whose input is one text. */
const TEXT_PARAM = { apply_patch: 'input', apply_diff: 'diff' };

/** The call's parameters from --json (a JSON object, "-": stdin) and --text (a file, "-": stdin). */
async function callParams(name, flags, io) {
  const textParam = TEXT_PARAM[name];
  if (flags.text !== undefined && !textParam) {
    throw new UsageError(`--text is for ${Object.keys(TEXT_PARAM).join(' and ')}; give ${name} --json '<params>'`);
  }
  if (flags.json === undefined && flags.text === undefined) {
    throw new UsageError(`${name} needs --json '<params>'${textParam ? ' or --text <file>' : ''}`);
  }
  if (flags.json === '-' && flags.text === '-') throw new UsageError('--json - and --text - cannot both read stdin');
  const params = flags.json === undefined ? {} : parseParams(flags.json === '-' ? await io.readStdin() : flags.json);
  if (flags.text !== undefined) params[textParam] = await readText(flags.text, io);
  return params;
}

/** The text of `file` (relative to cwd; "-": stdin). */
async function readText(file, io) {
  if (file === '-') return io.readStdin();
  try {
    return readFileSync(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`--text ${file} cannot be read (${error.code ?? error.message})`);
  }
}

/** Prints a tool's answer; the exit status by its result. */
function answer({ ok, text }, io) {
  io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  return ok ? 0 : 1;
}

async function runTool(name, flags, io) {
  const entry = cliEntry(name);
  if (flags['read-only'] && entry.access === 'write') {
    throw new UsageError(`${name} edits files; it is refused with --read-only`);
  }
  const params = await callParams(name, flags, io);
  const root = rootOf(flags, io.cwd);
  const toolNames = registry.hostToolNames(cliEntries().map((e) => e.name));
  const tool = registry.buildTool(entry, registry.rootOptions(root, { ...toolOptions(flags, defaultSession(root)), toolNames }));
  if (!flags['dry-run']) return answer(await resultOf(tool, params), io);
  if (typeof tool.preview !== 'function') throw new UsageError(`--dry-run is for the tools that edit files; ${name} does not`);
  const preview = await tool.preview(params);
  return answer({ ok: preview.ok, text: dryRunText(preview) }, io);
}

/** `undo --json '{"path":…}'`: undoes the last write any edit-engine tool made to that file. */
async function runUndo(flags, io) {
  if (flags['read-only']) throw new UsageError('undo edits files; it is refused with --read-only');
  const params = await callParams('undo', flags, io);
  const root = rootOf(flags, io.cwd);
  return answer(await undoLastEditResult(params.path, registry.rootOptions(root, toolOptions(flags, defaultSession(root)))), io);
}

const UNDO_HELP = `edit-engine undo: undoes the last write any edit-engine tool made to a file, from the
persistent undo history (a file a tool created is removed). Run it again to go back further.
A file changed since that write is left alone, and the answer says so.

Parameters (--json '<params>'):
  path (required): string - the file, relative to --root (default: cwd)

Example:
  edit-engine undo --root . --json '{"path":"src/main.js"}'
`;

/** The type of a JSON-schema property, in a word or two. */
function typeOf(property) {
  if (property.type === 'array') return `array of ${property.items ? typeOf(property.items) : 'values'}`;
  if (property.enum) return property.enum.map((v) => JSON.stringify(v)).join(' | ');
  return [].concat(property.type ?? 'value').join(' | ');
}

/** `edit-engine <tool> --help`: the tool's description and its parameters. */
function toolHelp(name, io) {
  if (name === 'undo') {
    io.stdout(UNDO_HELP);
    return 0;
  }
  const entry = cliEntry(name);
  const { description, inputSchema } = registry.buildTool(entry, {});
  const required = new Set(inputSchema.required ?? []);
  const params = Object.entries(inputSchema.properties ?? {}).map(([key, p]) => {
    const line = `  ${key}${required.has(key) ? ' (required)' : ''}: ${typeOf(p)}`;
    return p.description ? `${line} - ${p.description}` : line;
  });
  const text = TEXT_PARAM[name] ? `\n--text <file> fills ${TEXT_PARAM[name]} from a file ("-": stdin).\n` : '';
  io.stdout(`edit-engine ${name} (${entry.access === 'read' ? 'read-only' : 'edits files'})\n\n${description}\n\nParameters (--json '<params>'):\n${params.join('\n')}\n${text}`);
  return 0;
}

/** The session's checkpoints for `checkpoint` and `rewind` (--session, else the root's default session). */
function sessionCheckpoints(flags, io) {
  const root = rootOf(flags, io.cwd);
  return createCheckpoints(registry.rootOptions(root, toolOptions(flags, defaultSession(root))));
}

/** `checkpoint [--session S] [--label L]`: takes a checkpoint, prints its id. */
async function runCheckpoint(flags, io) {
  const taken = await sessionCheckpoints(flags, io).create(flags.label);
  io.stdout(`${taken.id}\n`);
  return 0;
}

/** `rewind <id> [--session S] [--dry-run] [--on-conflict skip]`: rewinds the session's files. */
async function runRewind(id, flags, io) {
  if (id === undefined) throw new UsageError('rewind needs the checkpoint id: edit-engine rewind <id>');
  if (flags['read-only']) throw new UsageError('rewind edits files; it is refused with --read-only');
  const checkpoints = sessionCheckpoints(flags, io);
  const result = await checkpoints.rewind(id, { dryRun: Boolean(flags['dry-run']), onConflict: flags['on-conflict'] });
  return answer(result, io);
}

/** Bytes in a unit a person reads (KiB, MiB, GiB). */
function sizeText(bytes) {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (bytes >= 1024 && i < units.length - 1) (bytes /= 1024), i++;
  return i === 0 ? `${bytes} bytes` : `${bytes.toFixed(1)} ${units[i]}`;
}

/** A time in milliseconds since the epoch as `YYYY-MM-DD HH:MM` UTC. */
const timeText = (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** The `--max-bytes` cap, checked (undefined: the environment's or the default). */
function historyCap(flags) {
  if (flags['max-bytes'] === undefined) return undefined;
  const n = Number(flags['max-bytes']);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError('--max-bytes needs a positive integer');
  return n;
}

/** One line per root of default stores: its stores' count and size (a root holds stores that fell back to it). */
function printRootSizes(roots, stores, capBytes, io) {
  for (const root of roots) {
    const own = stores.filter((s) => dirname(s.dir) === root);
    const total = own.reduce((sum, s) => sum + s.bytes, 0);
    io.stdout(`${root}: ${own.length} stores, ${sizeText(total)} (${total} bytes) of a cap of ${sizeText(capBytes)}\n`);
  }
}

/** `history list|size|collect`: the default undo stores (one per workspace). */
function runHistory(subcommand, flags, io) {
  const native = require('./native.cjs');
  const cap = historyCap(flags);
  if (flags['dry-run'] && subcommand !== 'collect') throw new UsageError('--dry-run goes with history collect');
  if (subcommand === 'list' || subcommand === 'size') {
    const { root, roots, stores, capBytes } = native.historyStores(cap);
    if (!root) throw new UsageError('no per-user state directory holds undo stores (set XDG_STATE_HOME or HOME)');
    printRootSizes(roots, stores, capBytes, io);
    if (subcommand === 'list') {
      io.stdout(`${'last used (UTC)'.padEnd(17)} ${'size'.padStart(10)}  exists  workspace\n`);
      for (const s of stores) {
        const exists = s.workspaceExists === undefined || s.workspaceExists === null ? '?' : s.workspaceExists ? 'yes' : 'no';
        io.stdout(`${timeText(s.lastUsedMs).padEnd(17)} ${sizeText(s.bytes).padStart(10)}  ${exists.padEnd(6)}  ${s.workspace ?? '(unknown)'}  ${s.dir}\n`);
      }
    }
    return 0;
  }
  if (subcommand !== 'collect') throw new UsageError(`history needs list, size or collect${subcommand ? ` (not ${subcommand})` : ''}`);
  const dry = Boolean(flags['dry-run']);
  const outcome = native.collectHistory(cap, dry);
  if (!outcome.root) throw new UsageError('no per-user state directory holds undo stores (set XDG_STATE_HOME or HOME)');
  if (!outcome.ran) {
    io.stderr('edit-engine: another process is collecting the undo stores right now; run this again in a moment\n');
    return 1;
  }
  for (const s of outcome.removed) {
    io.stdout(`${dry ? 'would remove' : 'removed'} ${s.dir} (${s.workspace ?? 'workspace unknown'}, ${sizeText(s.bytes)}): ${s.reason}\n`);
  }
  for (const dir of outcome.busy) io.stdout(`in use, left for a later collection: ${dir}\n`);
  const verb = dry ? 'would free' : 'freed';
  io.stdout(`${outcome.removed.length} stores ${dry ? 'to remove' : 'removed'}, ${verb} ${sizeText(outcome.bytesBefore - outcome.bytesAfter)}; ${sizeText(outcome.bytesAfter)} left of a cap of ${sizeText(outcome.capBytes)}\n`);
  return 0;
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
      io.stderr(`edit-engine: could not run npx (${error.message}). ${MCP_INSTEAD}\n`);
      resolveCode(1);
    });
    child.on('exit', (code, signal) => {
      if (signal || code !== 0) io.stderr(`edit-engine: edit-engine-mcp@${version} failed or is not on the registry (E404). ${MCP_INSTEAD}\n`);
      resolveCode(signal ? 1 : code);
    });
  });
}

/** What to do when npx cannot run edit-engine-mcp: serve from this install, with the SDK added. */
const MCP_INSTEAD = 'Install the MCP SDK next to edit-engine instead and run this command again: npm install @modelcontextprotocol/sdk (or install the edit-engine-mcp tarball that npm run pack:release builds in a clone).';

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
  for (const entry of cliEntries()) {
    const tool = registry.buildTool(entry, {});
    io.stdout(`${entry.name.padEnd(30)} ${entry.access === 'read' ? 'read-only' : 'edits    '}  required: ${(tool.inputSchema.required || []).join(', ')}\n`);
  }
  io.stdout(`${'undo'.padEnd(30)} edits      required: path\n`);
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
    const { command, flags, subcommand } = parseArgs(argv);
    if (flags.help && command !== undefined && !COMMANDS.has(command)) return toolHelp(command, io);
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
    if (command === 'history') return runHistory(subcommand, flags, io);
    if (command === 'undo') return await runUndo(flags, io);
    if (command === 'checkpoint') return await runCheckpoint(flags, io);
    if (command === 'rewind') return await runRewind(subcommand, flags, io);
    if (command === 'preview') {
      if (subcommand === undefined) throw new UsageError('preview needs a tool: edit-engine preview <tool> --json \'<params>\'');
      return await runTool(subcommand, { ...flags, 'dry-run': true }, io);
    }
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
