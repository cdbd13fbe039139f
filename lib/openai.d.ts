// Types of edit-engine/openai: edit-engine tools as OpenAI Agents SDK function tools.
import type { FunctionTool } from '@openai/agents';
import type { ToolLike, ToolOptions } from './index.js';
import type { ToolChoice, ToolSetOptions } from './tool-sets.js';

export type { ToolChoice, ToolName, ToolPreset } from './tool-sets.js';
export * from './adapter-exports.js';

/** A failed tool call as thrown to the SDK; its `errorFunction` gives the model `message`. */
export declare class ToolCallFailed extends Error {}

/** Wraps one edit-engine tool (strict schema where expressible; nulls read as absent). */
export function toOpenAiTool<P>(tool: ToolLike<P>): FunctionTool<unknown, any, string>;

/** Function tools for `new Agent({ tools })`. */
export function createOpenAiTools<const T extends ToolChoice | undefined = undefined, E extends boolean | undefined = undefined>(
  options?: ToolOptions & ToolSetOptions<T, E>,
): FunctionTool<unknown, any, string>[];
