// Types of edit-engine/langchain: edit-engine tools as LangChain StructuredTools.
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { ToolLike, ToolOptions } from './index.js';
import type { ToolChoice, ToolSetOptions } from './tool-sets.js';

export type { ToolChoice, ToolName, ToolPreset } from './tool-sets.js';
export * from './adapter-exports.js';

/** Wraps one edit-engine tool: a failure invoked with a tool call is a ToolMessage with status 'error'. */
export function toLangChainTool<P>(tool: ToolLike<P>): StructuredToolInterface;

/** StructuredTools for an agent or `model.bindTools()`. */
export function createLangChainTools<const T extends ToolChoice | undefined = undefined, E extends boolean | undefined = undefined>(
  options?: ToolOptions & ToolSetOptions<T, E>,
): StructuredToolInterface[];
