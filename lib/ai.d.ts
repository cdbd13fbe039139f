// Types of edit-engine/ai: edit-engine tools as Vercel AI SDK (`ai` 6 or 7) tools.
import type { Tool as AiTool } from 'ai';
import type { ToolLike, ToolOptions, ToolResult } from './index.js';
import type { ChosenNames, ToolChoice, ToolName, ToolParamsByName, ToolSetOptions } from './tool-sets.js';

export type { ViewParams } from './view.js';
export type { ToolChoice, ToolName, ToolPreset } from './tool-sets.js';
export * from './adapter-exports.js';

/** An `ai` tool whose output is the edit-engine message. */
export type EditEngineAiTool<P> = AiTool<P, ToolResult>;

/** Every tool `createAiTools` can return, by name (a type alias: assignable to the SDK's `ToolSet`). */
export type AiToolsByName = { [N in ToolName]: EditEngineAiTool<ToolParamsByName[N]> };
/** The tools of a `createAiTools` call with no `tools` and no `allowEdit` (read-only). */
export type ReadOnlyAiTools = Pick<AiToolsByName, 'view' | 'grep'>;
/** The editing tools `createAiTools({ allowEdit: true })` adds. */
export type EditingAiTools = Omit<AiToolsByName, 'view' | 'grep'>;

export type AiToolsOptions<T extends ToolChoice | undefined = ToolChoice | undefined, E extends boolean | undefined = boolean | undefined> = ToolOptions & ToolSetOptions<T, E>;

/**
 * Wraps one edit-engine tool object as an `ai` tool (`tool()` + `jsonSchema()` of its input
 * schema). Its `execute` never throws; a failed call reaches the model as error text.
 */
export function toAiTool<P>(tool: ToolLike<P>): EditEngineAiTool<P>;

/** A `ToolSet` keyed by tool name, for `generateText({ tools })` / `streamText({ tools })`. */
export function createAiTools<const T extends ToolChoice | undefined = undefined, E extends boolean | undefined = undefined>(
  options?: AiToolsOptions<T, E>,
): Pick<AiToolsByName, ChosenNames<T, E>>;
