// Types of edit-engine/ai: edit-engine tools as Vercel AI SDK (`ai` 6 or 7) tools.
import type { Tool as AiTool } from 'ai';
import type { PreviewOptions, PreviewResult, ToolLike, ToolOptions, ToolResult } from './index.js';
import type { ChosenNames, SessionNames, SessionToolParamsByName, ToolChoice, ToolName, ToolParamsByName, ToolSetOptions } from './tool-sets.js';

export type { ViewParams } from './view.js';
export type { SessionToolName, SessionToolParamsByName, ToolChoice, ToolName, ToolPreset } from './tool-sets.js';
export * from './adapter-exports.js';

/**
 * An `ai` tool whose output is the edit-engine message; a writing tool also has `preview(input,
 * { toolCallId })`: the preview planned for that call when it needed approval.
 */
export type EditEngineAiTool<P> = AiTool<P, ToolResult> & {
  preview?(input: P, options?: PreviewOptions): Promise<PreviewResult>;
};

/**
 * When a writing call needs the host's approval: a boolean, or the SDK's `needsApproval`
 * function (called with the SDK's arguments). A call that needs it is previewed under its
 * `toolCallId`; its approved execution applies exactly that preview (refused if a file changed
 * in between); a denied call writes nothing. Reading tools never ask.
 */
export type NeedsApproval = NonNullable<AiTool<any, any>['needsApproval']>;

/** `toAiTool`'s options. */
export interface AiToolOptions {
  needsApproval?: NeedsApproval;
}

/** Every tool `createAiTools` can return, by name (a type alias: assignable to the SDK's `ToolSet`). */
export type AiToolsByName = { [N in ToolName]: EditEngineAiTool<ToolParamsByName[N]> };
/** The tools of a `createAiTools` call with no `tools` and no `allowEdit` (read-only). */
export type ReadOnlyAiTools = Pick<AiToolsByName, 'view' | 'grep'>;
/** The editing tools `createAiTools({ allowEdit: true })` adds. */
export type EditingAiTools = Omit<AiToolsByName, 'view' | 'grep'>;

export type AiToolsOptions<T extends ToolChoice | undefined = ToolChoice | undefined, E extends boolean | undefined = boolean | undefined> = ToolOptions & ToolSetOptions<T, E> & AiToolOptions;

/**
 * Wraps one edit-engine tool object as an `ai` tool (`tool()` + `jsonSchema()` of its input
 * schema). Its `execute` never throws; a failed call reaches the model as error text.
 */
export function toAiTool<P>(tool: ToolLike<P>, options?: AiToolOptions): EditEngineAiTool<P>;

/** The session tools (`checkpoint`, `rewind`) as `ai` tools, by name. */
export type SessionAiTools = { [N in keyof SessionToolParamsByName]: EditEngineAiTool<SessionToolParamsByName[N]> };

/**
 * A `ToolSet` keyed by tool name, for `generateText({ tools })` / `streamText({ tools })`; the
 * 'all' preset adds `checkpoint` and `rewind` unless `history: false`.
 */
export function createAiTools<const T extends ToolChoice | undefined = undefined, E extends boolean | undefined = undefined, H extends boolean | undefined = undefined>(
  options?: AiToolsOptions<T, E> & { history?: H },
): Pick<AiToolsByName, ChosenNames<T, E>> & Pick<SessionAiTools, SessionNames<T, H>>;
