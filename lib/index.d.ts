// Public types of edit-engine. The napi-generated `index.d.ts` at the package root types the raw
// native binding; this file types the package's API as users import it.

/** JSON schema of a tool's input. */
export interface JsonSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
}

/**
 * What a tool's `execute` resolves to: a message for the model. Success messages state what
 * changed (e.g. `"Successfully edited src/a.js (1 replacement)"`); failures start with `"Error"`
 * and say how to retry.
 */
export type ToolResult = string;

/**
 * A tool object in the Probe SDK's shape. `execute` never rejects: it resolves to a message;
 * failures start with `"Error"`. `N` is the tool's name.
 */
export interface Tool<P, N extends string = string> {
  name: N;
  description: string;
  inputSchema: JsonSchema;
  execute(params: P): Promise<ToolResult>;
}

/** Options every tool factory accepts. */
export interface ToolOptions {
  /** Folders the tool may touch (real paths). Default: `cwd`, else the process cwd. */
  allowedFolders?: string[];
  /** Base for relative paths (a call's `workingDirectory` takes priority). */
  cwd?: string;
  /** Base for the relative paths shown in messages. */
  workspaceRoot?: string;
  debug?: boolean;
  /** Read-before-edit and staleness guard (must be edit-engine's `FileTracker`). */
  fileTracker?: FileTracker;
  /**
   * Seed 002's read tracker (must be edit-engine's `FileReadTracker`): an edit needs a recorded
   * read of the file whose modification time is still current.
   */
  readTracker?: FileReadTracker;
  /** Gitignore-style globs that may never be written. */
  protectedPaths?: string[];
  /** Largest file a tool reads, in bytes (default 64 MiB). */
  maxFileBytes?: number;
  /** Append a unified diff of the change to every success message. */
  returnDiff?: boolean;
}

interface EditCommon {
  file_path: string;
  new_string: string;
  /** Resolves a relative `file_path`; takes priority over the tool's `cwd`. */
  workingDirectory?: string;
}

/** Text mode: find `old_string` (exact, then fuzzy) and replace it. */
export interface TextEditParams extends EditCommon {
  old_string: string;
  replace_all?: boolean;
  symbol?: undefined;
  start_line?: undefined;
}

/** Symbol mode: replace the definition named `symbol`, or insert next to it with `position`. */
export interface SymbolEditParams extends EditCommon {
  symbol: string;
  position?: 'before' | 'after';
}

/** Line-targeted mode: `"42"` or `"42:ab"` references; `new_string: ""` deletes. */
export interface LineEditParams extends EditCommon {
  start_line: string | number;
  end_line?: string | number;
  position?: 'before' | 'after';
  symbol?: undefined;
}

export type EditParams = TextEditParams | SymbolEditParams | LineEditParams;

export interface CreateParams {
  file_path: string;
  content: string;
  overwrite?: boolean;
  workingDirectory?: string;
}

export interface MultiEditParams {
  /** A JSON array (or a string holding one) of at most 50 edit operations. */
  edits: string | EditParams[];
  /** All-or-nothing: plan every operation, write only if all succeed. */
  atomic?: boolean;
  workingDirectory?: string;
}

export interface EditFileParams {
  path: string;
  old_text: string;
  new_text: string;
  replace_all?: boolean;
  workingDirectory?: string;
}

export function editTool(options?: ToolOptions): Tool<EditParams, 'edit'>;
export function createTool(options?: ToolOptions): Tool<CreateParams, 'create'>;
export function multiEditTool(options?: ToolOptions): Tool<MultiEditParams, 'multi_edit'>;
export function editFileTool(options?: ToolOptions): Tool<EditFileParams, 'edit_file'>;

export interface TrackerCheck {
  ok: boolean;
  reason?: string;
  message?: string;
  editCount?: number;
}

export interface SymbolContentRecord {
  contentHash: string;
  startLine: number;
  endLine: number;
  symbolName?: string;
  source: string;
  timestamp: number;
}

/** Probe's session tracker; state held natively and consulted by the tools directly. */
export class FileTracker {
  constructor(options?: { debug?: boolean });
  readonly debug: boolean;
  maxConsecutiveTextEdits: number;
  markFileSeen(resolvedPath: string): void;
  isFileSeen(resolvedPath: string): boolean;
  trackSymbolContent(resolvedPath: string, symbolName: string, code: string, startLine: number, endLine: number, source?: string): void;
  getSymbolRecord(resolvedPath: string, symbolName: string): SymbolContentRecord | null;
  checkSymbolContent(resolvedPath: string, symbolName: string, currentCode: string): TrackerCheck;
  trackFilesFromExtract(targets: string[], cwd?: string): Promise<void>;
  trackFilesFromOutput(output: string, cwd?: string): Promise<void>;
  checkBeforeEdit(resolvedPath: string): TrackerCheck;
  trackFileAfterWrite(resolvedPath: string): Promise<void>;
  recordTextEdit(resolvedPath: string): void;
  checkTextEditStaleness(resolvedPath: string): TrackerCheck;
  trackSymbolAfterWrite(resolvedPath: string, symbolName: string, code: string, startLine: number, endLine: number): void;
  invalidateFileRecords(resolvedPath: string): void;
  isTracked(resolvedPath: string): boolean;
  clear(): void;
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

/** Version of the native engine. */
export function engineVersion(): string;

// ---- Seed 002: read tracking, change detection, grep, background tasks ----

/** Seed 002's read tracker; state lives natively and the tools consult it (`readTracker` option). */
export class FileReadTracker {
  constructor();
  /** Records that `filePath` was read while its modification time was `mtime` (`stats.mtimeMs`). */
  recordRead(filePath: string, mtime: number): void;
  /** True once `recordRead` was called for the file (paths are normalized: `a/../b` is `b`). */
  hasBeenRead(filePath: string): boolean;
  /** The modification time recorded at the last read, or `undefined`. */
  getReadTime(filePath: string): number | undefined;
  /** True when the file was read and `currentMtime` differs from the recorded time. */
  checkExternalModification(filePath: string, currentMtime: number): boolean;
  /** Forgets every read. */
  clear(): void;
  /** Number of files recorded. */
  readonly size: number;
}

/** A file's state as `ExternalModificationDetector.snapshot` records it (`hash`: SHA-256 hex). */
export interface FileSnapshot {
  path: string;
  mtime: number;
  size: number;
  hash?: string;
}

/** `modified`: the content differs or the file is gone; `deleted`: the file no longer exists. */
export interface ModificationResult {
  modified: boolean;
  deleted: boolean;
  changes: { mtimeChanged: boolean; sizeChanged: boolean; contentChanged: boolean };
}

/** Seed 002's change detector: mtime and size first, content hash only when needed. */
export class ExternalModificationDetector {
  constructor();
  /** Snapshot of a regular file; rejects when it is missing or unreadable. */
  snapshot(filePath: string): Promise<FileSnapshot>;
  /** Compares the file with `snapshot`; a missing file resolves to `{ modified: true, deleted: true, ... }`. */
  detect(filePath: string, snapshot: FileSnapshot): Promise<ModificationResult>;
}

/** A stored background task: `id` plus any other fields, kept as given. */
export interface BackgroundTask {
  id: string;
  pid?: number;
  [key: string]: unknown;
}

/** Seed 002's background task store: a JSON file updated under a lock with atomic writes. */
export class BackgroundTaskPersistence {
  /** `filePath` default: `~/.code-agent/background-tasks.json`. */
  constructor(options?: { filePath?: string });
  /** The JSON file this store uses (undefined when no default could be found). */
  readonly filePath: string | undefined;
  /** Adds the task, or replaces the stored one with the same `id`. */
  save(task: BackgroundTask): Promise<void>;
  /** Every stored task; rejects (after moving the file aside) when the file is corrupt. */
  load(): Promise<BackgroundTask[]>;
  /** Removes the task with `id`; resolves to whether one was stored. */
  remove(id: string): Promise<boolean>;
  /** Drops tasks whose `pid` is not a live process; resolves to the dropped tasks. */
  cleanup(): Promise<BackgroundTask[]>;
}

/** grep's arguments (ripgrep semantics). */
export interface GrepParams {
  /** Regular expression (ripgrep syntax). */
  pattern: string;
  /** File or directory to search (default: the working directory). */
  path?: string;
  beforeContext?: number;
  afterContext?: number;
  context?: number;
  /** ripgrep type name (js, ts, py, rust, ...) or a bare extension. */
  fileType?: string;
  ignoreCase?: boolean;
  /** Matching lines in total. */
  maxResults?: number;
  /** Print `line:hash` references usable as the edit tool's `start_line`. */
  lineHashes?: boolean;
}

/** Resolves to ripgrep-style output, `No matches found ...`, or a string starting `Error`; never rejects. */
export function grep(args: GrepParams, options?: ToolOptions): Promise<ToolResult>;
export function grepTool(options?: ToolOptions): Tool<GrepParams, 'grep'>;
export const grepSchema: JsonSchema & { additionalProperties: false };
export const grepDescription: string;
