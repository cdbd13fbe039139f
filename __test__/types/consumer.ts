// A TypeScript consumer of every edit-engine export, checked with `tsc --strict --noEmit`
// (npm run test:types). Lines marked @ts-expect-error prove the types reject misuse.
import {
  editTool,
  createTool,
  multiEditTool,
  editFileTool,
  FileTracker,
  computeContentHash,
  findFuzzyMatch,
  lineTrimmedMatch,
  whitespaceNormalizedMatch,
  indentFlexibleMatch,
  computeLineHash,
  parseLineRef,
  validateLineHash,
  annotateOutputWithHashes,
  stripHashlinePrefixes,
  stripEchoedBoundaries,
  restoreIndentation,
  cleanNewString,
  detectBaseIndent,
  reindent,
  findSymbol,
  findAllSymbols,
  QuoteNormalizer,
  editSchema,
  createSchema,
  multiEditSchema,
  editDescription,
  createDescription,
  multiEditDescription,
  editToolDefinition,
  createToolDefinition,
  multiEditToolDefinition,
  engineVersion,
  flushWrites,
  flushWritesAsync,
  grep,
  grepTool,
  grepSchema,
  grepDescription,
  FileReadTracker,
  ExternalModificationDetector,
  BackgroundTaskPersistence,
  createCheckpoints,
  type Checkpoints,
  type CheckpointInfo,
  type RewindResult,
  type GrepArgs,
  type FileSnapshot,
  type ModificationResult,
  type Tool,
  type ToolOptions,
  type ToolResult,
  type EditParams,
  type TextEditParams,
  type SymbolEditParams,
  type LineEditParams,
  type CreateParams,
  type MultiEditParams,
  type EditFileParams,
  type JsonSchema,
  type TrackerCheck,
  type SymbolContentRecord,
  type SymbolLocation,
  type FuzzyStrategy,
  type PreviewResult,
  type PreviewFile,
  type ToolCallResult,
} from 'edit-engine';
import { createAiTools, toAiTool, type EditEngineAiTool, type AiToolsOptions, type ViewParams } from 'edit-engine/ai';
import {
  TEXT_EDITOR_TOOL_NAMES,
  isTextEditorToolUse,
  createTextEditorHandler,
  textEditorDefinition,
  textEditorToolResult,
  textEditorToolResults,
  type TextEditorInput,
  type TextEditorLike,
  type ToolResultBlock,
  type TextEditorDefinition,
  type TextEditorToolName,
} from 'edit-engine/anthropic';
import { createMcpServer, serveStdio, mcpTools, type McpServerOptions, type McpToolDescriptor } from 'edit-engine/mcp';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

async function tools(root: string): Promise<void> {
  const tracker = new FileTracker({ debug: false });
  const options: ToolOptions = {
    allowedFolders: [root],
    cwd: root,
    workspaceRoot: root,
    debug: false,
    fileTracker: tracker,
    protectedPaths: ['.git/'],
    maxFileBytes: 1 << 20,
    returnDiff: true,
    durability: 'strict',
    lockTimeoutMs: 2000,
    syntaxCheck: 'refuse',
    syntaxCheckMaxBytes: 128 * 1024,
    previewTtlMs: 60 * 60 * 1000,
  };
  const edit: Tool<EditParams, 'edit'> = editTool(options);
  const flushed: void = flushWrites();
  const flushedLater: Promise<boolean> = flushWritesAsync();
  const create = createTool(options);
  const multi = multiEditTool();
  const editFile = editFileTool(options);
  const name: 'edit' = edit.name;
  const createName: 'create' = create.name;
  const multiName: 'multi_edit' = multi.name;
  const editFileName: 'edit_file' = editFile.name;
  const schema: JsonSchema = edit.inputSchema;
  const required: string[] = schema.required;

  const text: TextEditParams = { file_path: 'a.js', old_string: 'a', new_string: 'b', replace_all: true };
  const symbol: SymbolEditParams = { file_path: 'a.js', symbol: 'Cart.add', new_string: 'x', position: 'after' };
  const line: LineEditParams = { file_path: 'a.js', start_line: '12:ab', end_line: 14, new_string: '' };
  const r1: ToolResult = await edit.execute(text);
  const r2: string = await edit.execute(symbol);
  await edit.execute(line);
  await edit.execute({ file_path: 'a.js', old_string: 'a', new_string: 'b', workingDirectory: root });
  // @ts-expect-error new_string is required in every mode
  await edit.execute({ file_path: 'a.js', old_string: 'a' });
  // @ts-expect-error position is 'before' | 'after'
  await edit.execute({ file_path: 'a.js', symbol: 'f', new_string: 'x', position: 'inside' });

  const c: CreateParams = { file_path: 'b.js', content: 'x', overwrite: true };
  await create.execute(c);
  // @ts-expect-error content is required
  await create.execute({ file_path: 'b.js' });
  const m: MultiEditParams = { edits: [text, line], atomic: true };
  await multi.execute(m);
  await multi.execute({ edits: JSON.stringify([text]) });
  const ef: EditFileParams = { path: 'a.js', old_text: 'a', new_text: 'b', replace_all: false };
  await editFile.execute(ef);
  void [name, createName, multiName, editFileName, required, r1, r2];

  // FileTracker
  tracker.maxConsecutiveTextEdits = 5;
  const dbg: boolean = tracker.debug;
  tracker.markFileSeen('/x');
  const seen: boolean = tracker.isFileSeen('/x');
  tracker.trackSymbolContent('/x', 'f', 'code', 1, 3);
  tracker.trackSymbolContent('/x', 'f', 'code', 1, 3, 'extract');
  const rec: SymbolContentRecord | null = tracker.getSymbolRecord('/x', 'f');
  const check: TrackerCheck = tracker.checkSymbolContent('/x', 'f', 'code');
  await tracker.trackFilesFromExtract(['a.js#f'], root);
  await tracker.trackFilesFromOutput('a.js:1', root);
  const before: TrackerCheck = tracker.checkBeforeEdit('/x');
  await tracker.trackFileAfterWrite('/x');
  tracker.recordTextEdit('/x');
  const stale: boolean = tracker.checkTextEditStaleness('/x').ok;
  tracker.trackSymbolAfterWrite('/x', 'f', 'code', 1, 3);
  tracker.invalidateFileRecords('/x');
  const tracked: boolean = tracker.isTracked('/x');
  tracker.clear();
  void [dbg, seen, rec?.contentHash, check.reason, before.message, stale, tracked];
}

async function previews(root: string): Promise<void> {
  const edit = editTool({ allowedFolders: [root] });
  const shown: PreviewResult = await edit.preview({ file_path: 'a.js', old_string: 'a', new_string: 'b' }, { toolCallId: 'c1' });
  const file: PreviewFile | undefined = shown.files[0];
  const action: 'update' | 'create' | 'delete' | 'move' | undefined = file?.action;
  const movedTo: string | undefined = file?.movedTo;
  const token: string | null = shown.token;
  const applied: ToolCallResult = await edit.applyPreview(token ?? '');
  const byCall: ToolCallResult = await edit.applyPreview({ toolCallId: 'c1' });
  // @ts-expect-error a preview takes the tool's own params
  await edit.preview({ path: 'a.js' });
  // @ts-expect-error applyPreview takes a token or { toolCallId }
  await edit.applyPreview(42);
  void [action, movedTo, applied, byCall];
}

async function checkpoints(root: string): Promise<void> {
  const session: Checkpoints = createCheckpoints({ allowedFolders: [root], sessionId: 'agent-1' });
  editTool({ allowedFolders: [root], sessionId: 'agent-1' });
  const taken: CheckpointInfo = await session.create('before the refactor');
  const all: CheckpointInfo[] = await session.list();
  const evicted: string[] = all[0]?.evicted ?? [];
  const dry: RewindResult = await session.rewind(taken.id, { dryRun: true, onConflict: 'skip' });
  const action: 'update' | 'create' | 'delete' | 'move' | undefined = dry.files[0]?.action;
  const movedTo: string | undefined = dry.files[0]?.movedTo;
  const counts: number = dry.filesChanged + dry.insertions + dry.deletions;
  const back: string | undefined = (await session.rewind(taken.id)).checkpoint?.id;
  // @ts-expect-error onConflict is 'refuse' or 'skip'
  await session.rewind(taken.id, { onConflict: 'overwrite' });
  void [evicted, action, counts, back, dry.canRewind, dry.conflicts[0]?.reason];
}

async function helpers(): Promise<void> {
  const h: string = computeContentHash('x') + computeLineHash('x') + computeContentHash(null);
  const fuzzy = findFuzzyMatch('abc', 'b');
  const strategy: FuzzyStrategy | undefined = fuzzy?.strategy;
  const lt: { matchedText: string; count: number } | null = lineTrimmedMatch(['a'], ['a']);
  whitespaceNormalizedMatch('a b', 'a  b');
  indentFlexibleMatch(['  a'], ['a']);
  const ref = parseLineRef('42:ab');
  const lineNo: number | undefined = ref?.line;
  const hash: string | null | undefined = ref?.hash;
  const v: boolean = validateLineHash(1, 'ab', ['x']).valid;
  const annotated: string = annotateOutputWithHashes('  1 | x');
  const stripped: boolean = stripHashlinePrefixes('1:ab | x').stripped;
  const echoed: string[] = stripEchoedBoundaries('x', ['a'], 1, 1, 'after').modifications;
  const restored: string = restoreIndentation('x', ['  a']).result;
  const cleaned: string = cleanNewString('x', ['a'], 1, 1).cleaned;
  const indent: string = detectBaseIndent('  x') + reindent('x', '  ');
  const sym: SymbolLocation | null = await findSymbol('a.js', 'f');
  const all = await findAllSymbols('a.js', 'f', '/');
  const qualified: string | undefined = all[0]?.qualifiedName;
  const schemas: JsonSchema[] = [editSchema, createSchema, multiEditSchema];
  const prose: string[] = [editDescription, createDescription, multiEditDescription, editToolDefinition, createToolDefinition, multiEditToolDefinition, engineVersion()];
  void [h, strategy, lt, lineNo, hash, v, annotated, stripped, echoed, restored, cleaned, indent, sym, qualified, schemas, prose];
}

async function readStateAndSearch(root: string): Promise<void> {
  const reads = new FileReadTracker();
  reads.recordRead(`${root}/a.js`, 1700000000000.5);
  const read: boolean = reads.hasBeenRead(`${root}/a.js`);
  const when: number | undefined = reads.getReadTime(`${root}/a.js`);
  const moved: boolean = reads.checkExternalModification(`${root}/a.js`, 1);
  const count: number = reads.size;
  reads.clear();
  const edit = editTool({ allowedFolders: [root], readTracker: reads });
  await edit.execute({ file_path: 'a.js', old_string: 'a', new_string: 'b' });

  const detector = new ExternalModificationDetector();
  const snap: FileSnapshot = await detector.snapshot('a.js');
  const change: ModificationResult = await detector.detect('a.js', snap);
  const contentChanged: boolean = change.changes.contentChanged;

  const store = new BackgroundTaskPersistence({ filePath: `${root}/tasks.json` });
  const file: string | undefined = store.filePath;
  await store.save({ id: 'build-1', pid: 42, command: 'npm run build' });
  // @ts-expect-error a task needs an id
  await store.save({ pid: 42 });
  const tasks: Array<Record<string, unknown>> = await store.load();
  const removed: boolean = await store.remove('build-1');
  const dropped: Array<Record<string, unknown>> = await store.cleanup();

  const args: GrepArgs = { pattern: 'fn \\w+', path: 'src', context: 2, fileType: 'rust', ignoreCase: true, maxResults: 10, lineHashes: true };
  const out: ToolResult = await grep(args, { cwd: root, readTracker: reads });
  const tool: Tool<GrepArgs, 'grep'> = grepTool({ allowedFolders: [root] });
  await tool.execute({ pattern: 'x' });
  // @ts-expect-error pattern is required
  await tool.execute({ path: 'src' });
  const closed: boolean | undefined = grepSchema.additionalProperties;
  void [read, when, moved, count, contentChanged, file, tasks, removed, dropped, out, closed, grepDescription];
}

async function aiSdk(root: string): Promise<string> {
  const readOnly = createAiTools({ allowedFolders: [root], cwd: root });
  const view: EditEngineAiTool<ViewParams> = readOnly.view;
  const grepping: EditEngineAiTool<GrepArgs> = readOnly.grep;
  // @ts-expect-error editing tools need allowEdit: true
  void readOnly.edit;
  const opts: AiToolsOptions & { allowEdit: true } = { allowedFolders: [root], allowEdit: true };
  const tools = createAiTools(opts);
  const single = toAiTool(editTool({ cwd: root }));
  const editing: EditEngineAiTool<EditParams> = tools.edit;
  const model = new MockLanguageModelV3({
    doGenerate: {
      content: [{ type: 'text', text: 'done' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    },
  });
  const result = await generateText({ model, tools: { ...tools, single }, stopWhen: stepCountIs(3), prompt: 'edit' });
  void [view, grepping, editing];
  return result.text;
}

async function anthropic(root: string): Promise<ToolResultBlock[]> {
  const names: readonly TextEditorToolName[] = TEXT_EDITOR_TOOL_NAMES;
  const def: TextEditorDefinition = textEditorDefinition({ version: '20250728', maxCharacters: 10_000 });
  const handler = createTextEditorHandler({ allowedFolders: [root], cwd: root, version: 'text_editor_20250429' });
  const block: unknown = { type: 'tool_use', id: 'toolu_1', name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'a.txt' } };
  if (isTextEditorToolUse(block)) {
    const input: TextEditorInput = block.input;
    void input;
  }
  const one: ToolResultBlock = await handler.handle(block);
  const isError: boolean = one.is_error === true;
  const editor: TextEditorLike = { execute: async (input) => (input.command === 'view' ? `viewed ${input.path}` : 'Error: no') };
  const viaEditor = await textEditorToolResult(block, editor);
  const viaOptions = await textEditorToolResults([block], { allowedFolders: [root] });
  void [names, def, handler.definition.name, isError];
  return [one, viaEditor, ...viaOptions];
}

async function mcp(root: string): Promise<void> {
  const options: McpServerOptions = { root, allowEdit: true, requireRead: true, protectedPaths: ['.env'], returnDiff: true };
  const listed: McpToolDescriptor[] = mcpTools(options).map((t) => t.descriptor);
  const server = createMcpServer(options);
  await server.close();
  const served = await serveStdio({ root });
  await served.close();
  void listed;
}

export { tools, previews, checkpoints, helpers, readStateAndSearch, aiSdk, anthropic, mcp };

function quotes(): string | null {
  const normalizer = new QuoteNormalizer();
  const plain: string = normalizer.normalize('\u201Chi\u201D');
  const found = normalizer.fuzzyMatch('"hi"', plain);
  // @ts-expect-error the needle is a string
  normalizer.fuzzyMatch(1, plain);
  return found ? `${found.originalMatch}@${found.position}:${found.matched}:${found.normalizedMatch}` : null;
}
void quotes;
