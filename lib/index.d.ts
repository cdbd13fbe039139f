// Public types of edit-engine. The napi-generated `index.d.ts` at the package root types the raw
// native binding; this file types the package's API as users import it.

import type {
  ApplyDiffParams,
  ApplyPatchParams,
  CreateParams,
  EditFields,
  EditFileParams,
  GrepArgs,
  MultiEditParams,
  ReplaceInFileParams,
  TextEditorParams,
} from './tool-params.js';
// The parameter types, generated from the engine's tool spec table (scripts/tool-types.mjs).
export type {
  ApplyDiffParams,
  ApplyPatchParams,
  CreateParams,
  EditFields,
  EditFileParams,
  GrepArgs,
  MultiEditParams,
  ReplaceInFileParams,
  TextEditorParams,
} from './tool-params.js';

/**
 * JSON schema of a tool's input: an object schema that lists its properties and refuses others
 * (`additionalProperties: false`). A type alias (not an interface), so it is assignable to the
 * frameworks' schema types, which carry index signatures.
 */
export type JsonSchema = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: false;
};

/**
 * What a tool's `execute` resolves to: a message for the model. Success messages state what
 * changed (e.g. `"Successfully edited src/a.js (1 replacement)"`); failures start with `"Error"`
 * and say how to retry.
 */
export type ToolResult = string;

/**
 * The structured result of one tool call. Adapters decide success from `ok`, never from the
 * text: a successful grep may print a path such as `ErrorHandling/retry.ts` first.
 */
export interface ToolCallResult {
  /** Whether the call succeeded (decided by the engine, never from the text). */
  ok: boolean;
  /** The message `execute` resolves to. */
  text: string;
  /** Why a call failed (absent on success); see {@link ErrorKind}. */
  kind?: ErrorKind;
  /**
   * Files the call wrote, as the call named them (a patch's files as the patch names them; an
   * undo also lists the other files of a multi-file change it reverted); empty for reads, for
   * calls that changed nothing, and for failures (a non-atomic multi_edit lists the files its
   * successful operations wrote).
   */
  changedFiles: string[];
}

/**
 * Why a call failed: `bad_param` (a parameter or option is missing, mistyped or asks for no
 * change), `not_found` (the file, text, lines or symbol is not there; nothing to undo),
 * `ambiguous` (several matches, or not the expected count), `stale` (the file changed since it was
 * read, or was not read first), `exists` (create without overwrite), `syntax_refused`
 * (`syntaxCheck: 'refuse'`), `protected` (outside the allowed folders or a protected path),
 * `locked` (another edit held the file's lock for the whole wait), `fs` (I/O, not a regular file,
 * too large, not UTF-8 text), `partial` (a non-atomic multi_edit applied some operations and
 * failed others), `internal` (a bug in the engine; please report it).
 */
export type ErrorKind =
  | 'bad_param'
  | 'not_found'
  | 'ambiguous'
  | 'stale'
  | 'exists'
  | 'syntax_refused'
  | 'protected'
  | 'locked'
  | 'fs'
  | 'partial'
  | 'internal';

/**
 * A tool object in the Probe SDK's shape. `execute` never rejects: it resolves to a message;
 * failures start with `"Error"`. `executeResult` (non-enumerable) runs the same call and resolves
 * to a `ToolCallResult`. `N` is the tool's name.
 */
export interface Tool<P, N extends string = string> {
  name: N;
  description: string;
  inputSchema: JsonSchema;
  execute(params: P): Promise<ToolResult>;
  executeResult(params: P): Promise<ToolCallResult>;
}

/** One file of a preview: what the call would do to it, as a unified diff and line counts. */
export interface PreviewFile {
  /** The file, as the call's messages name it (a move's source). */
  path: string;
  action: 'update' | 'create' | 'delete' | 'move';
  /** A move's destination. */
  movedTo?: string;
  /** Unified diff from the file's content now to the content the call would leave. */
  diff: string;
  additions: number;
  deletions: number;
}

/**
 * A previewed call: `ok`, `text`, `kind` and `changedFiles` as the call itself would answer
 * (nothing is written); `token` applies exactly this change (`null` when it cannot be applied:
 * a failed call, one that changes nothing); `files` shows the change.
 */
export interface PreviewResult extends ToolCallResult {
  token: string | null;
  files: PreviewFile[];
}

/** `toolCallId`: the host's id of the call; the preview is then that call's (see `applyPreview`). */
export interface PreviewOptions {
  toolCallId?: string;
}

/**
 * A tool that writes files. `preview(params)` writes nothing and resolves to the change the call
 * would make; `applyPreview(token)` writes exactly that change if every file still holds what
 * the preview read (otherwise it is refused, showing what changed since), once, until the
 * preview expires (`previewTtlMs`). `applyPreview({ toolCallId })` applies the preview made for
 * that call. Both are non-enumerable and never reject.
 */
export interface WritingTool<P, N extends string = string> extends Tool<P, N> {
  preview(params: P, options?: PreviewOptions): Promise<PreviewResult>;
  applyPreview(token: string | { toolCallId: string }): Promise<ToolCallResult>;
}

/** What the adapters accept: any Probe-shaped tool (`executeResult` is used when present). */
export type ToolLike<P> = Omit<Tool<P>, 'executeResult'> & { executeResult?: Tool<P>['executeResult'] };

/** Options every tool factory accepts. */
/**
 * The host's tools that failure messages point to: `read` (default Probe's `extract`), `search`
 * (default `search`), `create` (default `create`); `null` when the host has no such tool. The MCP
 * server and every adapter set it to the tools they serve.
 */
export interface ToolNames {
  read?: string | null;
  search?: string | null;
  create?: string | null;
}

export interface ToolOptions {
  /** Tool names for messages that point to another tool (default: Probe's). */
  toolNames?: ToolNames;
  /** Folders the tool may touch (real paths; a relative one resolves against `cwd`). Default: `cwd`, else the process cwd. */
  allowedFolders?: string[];
  /** Base for relative paths (a call's `workingDirectory` takes priority). */
  cwd?: string;
  /** Base for the relative paths shown in messages (a relative one resolves against `cwd`). */
  workspaceRoot?: string;
  debug?: boolean;
  /** Read-before-edit and staleness guard (must be edit-engine's `FileTracker`). */
  fileTracker?: FileTracker;
  /** Read-state guard: refuse files not read, or changed on disk since they were read. */
  readTracker?: FileReadTracker;
  /** Gitignore-style globs that are never written nor shown (`view` refuses them; listings and grep leave them out). */
  protectedPaths?: string[];
  /** Largest file a tool reads, in bytes (default 64 MiB). */
  maxFileBytes?: number;
  /** Append a unified diff of the change to every success message. */
  returnDiff?: boolean;
  /** Directory of the persistent undo history (default: per workspace under `$XDG_STATE_HOME` or `~/.local/state`). */
  historyDir?: string;
  /** `false`: writes are not recorded and undo is refused. */
  history?: boolean;
  /**
   * Cap on the disk use of all default undo stores together, in bytes (default 1 GiB, or
   * `EDIT_ENGINE_HISTORY_MAX_BYTES`); collection keeps them under it.
   */
  historyMaxBytes?: number;
  /**
   * `"standard"` (default): a write returns once its new content is fsynced and renamed into
   * place; the directory fsync that makes the rename durable runs on a background thread right
   * after (a power loss in that window leaves the previous complete file). `"strict"`: the write
   * also waits for that directory fsync.
   */
  durability?: 'standard' | 'strict';
  /**
   * Longest wait, in milliseconds, for a file's edit lock held by another call or process
   * (default 5000). Past it the write fails with an error naming the file; nothing is written.
   */
  lockTimeoutMs?: number;
  /**
   * The syntax guard, for files in a language the engine parses: after an edit, parse errors the edit
   * introduced (not those already there) are listed in the reply with their line and likely cause.
   * `"warn"` (default): write and list them; `"refuse"`: leave the file untouched and answer with an
   * error listing them; `"off"`: no check.
   */
  syntaxCheck?: 'warn' | 'refuse' | 'off';
  /**
   * Largest file, in bytes, the syntax guard parses whole (default 262144) when the paragraphs the
   * edit changed do not parse alone; above it only the paragraphs around the edit are compared, and
   * when those are larger too the check is skipped and the reply says so.
   */
  syntaxCheckMaxBytes?: number;
  /**
   * How long a preview can be applied, in milliseconds (default 86400000: 24 hours). Previews
   * live in the history store (any process sharing it can apply them); with `history: false`, in
   * the memory of the tool object that made them.
   */
  previewTtlMs?: number;
  /**
   * The session this tool's writes belong to: `createCheckpoints` with the same `sessionId`
   * rewinds them (default: one session per process).
   */
  sessionId?: string;
}

type EditCommon = Pick<EditFields, 'file_path' | 'new_string' | 'workingDirectory'>;

/** Text mode: find `old_string` (exact, then fuzzy) and replace it. */
export interface TextEditParams extends EditCommon, Pick<EditFields, 'replace_all' | 'expected_replacements' | 'match_strategy'> {
  old_string: NonNullable<EditFields['old_string']>;
  symbol?: undefined;
  start_line?: undefined;
}

/** Symbol mode: replace the definition named `symbol`, or insert next to it with `position`. */
export interface SymbolEditParams extends EditCommon, Pick<EditFields, 'position'> {
  symbol: NonNullable<EditFields['symbol']>;
}

/** Line-targeted mode: `"42"` or `"42:ab"` references; `new_string: ""` deletes. */
export interface LineEditParams extends EditCommon, Pick<EditFields, 'end_line' | 'position'> {
  start_line: NonNullable<EditFields['start_line']>;
  symbol?: undefined;
}

/** The edit tool's parameters, one shape per mode. */
export type EditParams = TextEditParams | SymbolEditParams | LineEditParams;

export function editTool(options?: ToolOptions): WritingTool<EditParams, 'edit'>;
export function createTool(options?: ToolOptions): WritingTool<CreateParams, 'create'>;
export function multiEditTool(options?: ToolOptions): WritingTool<MultiEditParams, 'multi_edit'>;
export function editFileTool(options?: ToolOptions): WritingTool<EditFileParams, 'edit_file'>;

/** One operation of `replace_in_file`; line numbers refer to the file as read. */
export type Replacement =
  | { type: 'lines'; startLine: number | string; endLine: number | string; replaceWith: string }
  | { type: 'insert_before' | 'insert_after'; lineNumber: number | string; insertText: string }
  | { type: 'string' | 'regex'; searchFor: string; replaceWith: string };

/** Progress of a `replace_in_file` call: 10% before, 100% after (or failed). */
export interface ToolProgress {
  percentage: number;
  operation: string;
  details?: string;
}

export interface ReplaceInFileOptions extends ToolOptions {
  /** Called with progress events; whatever it throws is ignored. */
  onProgress?: (progress: ToolProgress) => void;
}

/**
 * The text editor's versions, as the engine's `textEditorVersions()` lists them (a test checks
 * that they agree): the tool name, the Messages API type, `undo_edit`, whether the definition advertises `max_characters`.
 */
export type TextEditorVersions = {
  '20250124': { name: 'str_replace_editor'; type: 'text_editor_20250124'; hasUndo: true; maxCharacters: false };
  '20250429': { name: 'str_replace_based_edit_tool'; type: 'text_editor_20250429'; hasUndo: false; maxCharacters: false };
  '20250728': { name: 'str_replace_based_edit_tool'; type: 'text_editor_20250728'; hasUndo: false; maxCharacters: true };
};
export type TextEditorVersion = keyof TextEditorVersions;

export interface TextEditorOptions extends ToolOptions {
  /** Tool generation (a `text_editor_` prefix is accepted). Default `20250124`. */
  version?: TextEditorVersion | `text_editor_${TextEditorVersion}`;
  /**
   * Most characters of numbered lines one `view` returns (default 100,000), cut at a line end; a
   * call's `max_characters` wins. Version 20250728's tool object advertises it as `max_characters`.
   */
  maxCharacters?: number;
}

/** The text editor tool object; `type` is Anthropic's tool type (e.g. `text_editor_20250124`). */
export interface TextEditorTool extends WritingTool<TextEditorParams> {
  name: TextEditorVersions[TextEditorVersion]['name'];
  type: TextEditorVersions[TextEditorVersion]['type'];
  max_characters?: number;
}

export function replaceInFileTool(options?: ReplaceInFileOptions): WritingTool<ReplaceInFileParams>;
export function textEditorTool(options?: TextEditorOptions): TextEditorTool;
/**
 * Undoes the last write any edit-engine tool made to `path` (from the undo history). Never rejects;
 * failures start with `"Error"`.
 */
export function undoLastEdit(path: string, options?: ToolOptions & { workingDirectory?: string }): Promise<string>;
/** `undoLastEdit` as a structured result. */
export function undoLastEditResult(path: string, options?: ToolOptions & { workingDirectory?: string }): Promise<ToolCallResult>;

/** A checkpoint of a session (see `createCheckpoints`). */
export interface CheckpointInfo {
  id: string;
  label?: string | null;
  /** When it was taken, in milliseconds since the Unix epoch. */
  createdAt: number;
  /** Files whose history it needs were evicted (the store's size cap): it can no longer be rewound. */
  evicted: string[];
}

/** One file a rewind changes (or, with `dryRun`, would change). */
export interface RewindFile {
  path: string;
  /** `update`: content put back; `create`: a file deleted since, restored; `delete`: a file created since, removed; `move`: a file moved since, moved back from `path` to `movedTo`. */
  action: 'update' | 'create' | 'delete' | 'move';
  /** Where a move puts the file back (only on a move). */
  movedTo?: string;
  /** Unified diff from its content now to its content at the checkpoint. */
  diff: string;
  additions: number;
  deletions: number;
}

/** What a rewind did (or would do). */
export interface RewindResult {
  ok: boolean;
  canRewind: boolean;
  /** The failure's text; absent on success. */
  error?: string | null;
  kind?: ErrorKind | null;
  text: string;
  filesChanged: number;
  insertions: number;
  deletions: number;
  files: RewindFile[];
  /** Files changed since the session last wrote them (by a person, a program or another session): refused, or skipped with `onConflict: 'skip'`. */
  conflicts: Array<{ path: string; reason: string }>;
  /** The checkpoint taken before writing: rewinding to it undoes this rewind. Absent for a dry run or a refusal. */
  checkpoint?: CheckpointInfo | null;
}

/** A session's checkpoints (see `createCheckpoints`). */
export interface Checkpoints {
  /** The session (absent: this process's own). */
  readonly sessionId: string | undefined;
  /** Takes a checkpoint now (no copy of contents: the undo history holds them). */
  create(label?: string): Promise<CheckpointInfo>;
  /** The session's checkpoints, oldest first. */
  list(): Promise<CheckpointInfo[]>;
  /**
   * Puts every file the session changed since checkpoint `id` back as it was then, where the file
   * still holds what the session last wrote. `onConflict: 'refuse'` (default) refuses the whole
   * rewind when any file changed since; `'skip'` rewinds the rest and lists them. Never rejects.
   */
  rewind(id: string, options?: { dryRun?: boolean; onConflict?: 'refuse' | 'skip' }): Promise<RewindResult>;
}

/**
 * Checkpoints of the session `options.sessionId` (the tools made with it; default: this process's
 * tools). Throws an Error with `history: false` (checkpoints rewind from the undo history).
 */
export function createCheckpoints(options?: ToolOptions): Checkpoints;
export const replaceInFileSchema: JsonSchema;
export const replaceInFileDescription: string;
export function textEditorSchema(version: TextEditorVersion): JsonSchema;

// Native classes, typed by the napi-generated declarations.
export {
  FileTrackerOptions,
  TrackerCheck,
  SymbolContentRecord,
  FileReadTracker,
  ExternalModificationDetector,
  FileSnapshot,
  ModificationResult,
  ModificationChanges,
  BackgroundTaskPersistence,
} from '../index';
import type { FileTracker as NativeFileTracker, FileReadTracker, SymbolContentRecord } from '../index';

/**
 * Probe's `FileTracker`: pass it to tool factories as `fileTracker`. With `debug: true` its
 * methods print Probe's `[FileTracker] ...` lines through `console.error`.
 */
export declare class FileTracker extends NativeFileTracker {
  /** Read-only view of the seen files' keys (normalized paths; iteration is sorted). */
  readonly _seenFiles: ReadonlySet<string>;
  /** Read-only view of the symbol records, keyed `"<normalized path>#<symbol>"` (sorted). */
  readonly _contentRecords: ReadonlyMap<string, SymbolContentRecord>;
}

/** `BackgroundTaskPersistence`'s options: `filePath` and `lockTimeoutMs` (any other key throws). */
export interface TaskPersistenceOptions {
  /** The JSON file of the tasks (default `~/.code-agent/background-tasks.json`); a FIFO or device is refused. */
  filePath?: string;
  /** Longest wait in ms for the store's lock held by another process or call (default 5000); past it the call rejects. */
  lockTimeoutMs?: number;
}

/** `QuoteNormalizer.fuzzyMatch`'s result. */
export interface QuoteFuzzyMatchResult {
  matched: boolean;
  /** The haystack's own text at the match (its quote style). */
  originalMatch: string;
  /** The needle with its quotes normalized. */
  normalizedMatch: string;
  /** String index of the match in the haystack. */
  position: number;
}

/** The quote normalizer: typographic and straight quotes compare equal. */
export class QuoteNormalizer {
  /** Typographic quotes (U+2018/2019/201A, U+201C/201D/201E) replaced by straight ones. */
  normalize(text: string): string;
  /** First occurrence of `needle` in `haystack` with quotes normalized, or null. */
  fuzzyMatch(needle: string, haystack: string): QuoteFuzzyMatchResult | null;
}

export type FuzzyStrategy = 'line-trimmed' | 'whitespace-normalized' | 'indent-flexible';

export function computeContentHash(content: string | null | undefined): string;
export function findFuzzyMatch(content: string, searchString: string): { matchedText: string; strategy: FuzzyStrategy; count: number } | null;
export function lineTrimmedMatch(contentLines: string[], searchLines: string[]): { matchedText: string; count: number } | null;
export function whitespaceNormalizedMatch(content: string, search: string): { matchedText: string; count: number } | null;
export function indentFlexibleMatch(contentLines: string[], searchLines: string[]): { matchedText: string; count: number } | null;
export function computeLineHash(line: string | null | undefined): string;
export function parseLineRef(ref: string | number | null | undefined): { line: number; hash: string | null } | null;
export function validateLineHash(lineNum: number, hash: string, fileLines: string[]): { valid: boolean; actualHash: string; actualContent: string };
export function annotateOutputWithHashes<T>(output: T): T;
export function stripHashlinePrefixes(text: string | null | undefined): { cleaned: string; stripped: boolean };
export function stripEchoedBoundaries(newStr: string, fileLines: string[], startLine: number, endLine: number, position?: 'before' | 'after'): { result: string; modifications: string[] };
export function restoreIndentation(newStr: string, originalLines: string[]): { result: string; modifications: string[] };
export function cleanNewString(newStr: string, fileLines: string[], startLine: number, endLine: number, position?: 'before' | 'after'): { cleaned: string; modifications: string[] };
export function detectBaseIndent(code: string): string;
export function reindent(newContent: string, targetIndent: string): string;

/** A definition found by the AST engine (tree-sitter, in process). */
export interface SymbolLocation {
  startLine: number;
  endLine: number;
  code: string;
  nodeType: string;
  file: string;
}
/** Probe's `findSymbol`: the first definition named `symbolName`, or null. Never rejects. */
export function findSymbol(filePath: string, symbolName: string, cwd?: string): Promise<SymbolLocation | null>;
/** Probe's `findAllSymbols`: every definition named `symbolName`, with its qualified name. Never rejects. */
export function findAllSymbols(filePath: string, symbolName: string, cwd?: string): Promise<Array<SymbolLocation & { qualifiedName: string }>>;

export const editSchema: JsonSchema;
export const createSchema: JsonSchema;
export const multiEditSchema: JsonSchema;
export const editDescription: string;
export const createDescription: string;
export const multiEditDescription: string;
export const editToolDefinition: string;
export const createToolDefinition: string;
export const multiEditToolDefinition: string;

/** ripgrep-style search output (`path:line:text`, `path-line-text`, `--`); never rejects. */
export function grep(args: GrepArgs, options?: ToolOptions): Promise<ToolResult>;
export function grepTool(options?: ToolOptions): Tool<GrepArgs, 'grep'>;
export const grepSchema: JsonSchema;
export const grepDescription: string;

/** One parameter of a tool spec (`givenBy: 'host'`: never offered to the model, absent from the schema). */
export interface ToolSpecParam {
  name: string;
  required: boolean;
  givenBy: 'model' | 'host';
  description: string;
  /** Its TypeScript type when wider than the schema's. */
  tsType: string | null;
  schema: Record<string, unknown>;
}

/**
 * One tool's contract, from the engine's spec table: what it may do (`access`), whether the
 * adapters serve it by default, only when named, or never (a variant its factory builds), the
 * texts the model is shown and the input schema hosts register.
 */
export interface ToolSpec {
  name: string;
  factory: string;
  access: 'read' | 'write';
  serving: 'default' | 'when_named' | 'never';
  summary: string;
  description: string;
  /** Probe's XML-style tool definition, where Probe has one. */
  definition: string | null;
  inputSchema: JsonSchema;
  /** Probe's own schema export for the tool, where it differs from `inputSchema`. */
  probeSchema: JsonSchema | null;
  params: ToolSpecParam[];
}

/** Every tool's spec (a fresh copy), in the order the adapters serve the tools. */
export function toolSpecs(): ToolSpec[];

/** Version of the native engine. */
export function engineVersion(): string;

/**
 * Blocks until every write made so far in this process is durable, including the directory
 * fsync that `durability: "standard"` leaves to a background thread. Runs by itself when the
 * process exits normally. Waits at most 15 s.
 */
export function flushWrites(): void;

/**
 * `flushWrites` without blocking the event loop: resolves once every write made so far is
 * durable (true), or false if it gave up after 15 s.
 */
export function flushWritesAsync(): Promise<boolean>;

/** Result of an in-memory patch: on failure `text` is the input and `message` says what to resend. */
export interface TextPatchResult {
  ok: boolean;
  text: string;
  message: string;
}

/** OpenAI's `apply_patch` (V4A) tool; all files of a patch change together or none does. */
export function applyPatchTool(options?: ToolOptions): WritingTool<ApplyPatchParams, 'apply_patch'>;
/** Unified diffs (line numbers as hints) and SEARCH/REPLACE blocks; all-or-nothing across files. */
export function applyDiffTool(options?: ToolOptions): WritingTool<ApplyDiffParams, 'apply_diff'>;
/** Applies a V4A patch to a string (file names in the patch are not consulted). */
export function applyPatchToText(text: string, patch: string): TextPatchResult;
/** Applies a unified diff or SEARCH/REPLACE blocks to a string. */
export function applyDiffToText(text: string, diff: string): TextPatchResult;
export const applyPatchSchema: JsonSchema;
export const applyPatchDescription: string;
export const applyDiffSchema: JsonSchema;
export const applyDiffDescription: string;

export { viewTool } from './view.js';
