// Types of edit-engine/mastra: edit-engine tools as Mastra tools.
import type { ToolAction } from '@mastra/core/tools';
import type { ToolLike, ToolOptions } from './index.js';
import type { ChosenNames, SessionNames, ToolChoice, ToolSetOptions } from './tool-sets.js';

export type { ToolChoice, ToolName, ToolPreset } from './tool-sets.js';
export * from './adapter-exports.js';

/** A Mastra tool made from an edit-engine tool (input: its parameters; output: its message). */
export type EditEngineMastraTool = ToolAction<any, string, any, any, any, string>;

/** A failed tool call as thrown to Mastra, which reports `message` as that call's error. */
export declare class ToolCallFailed extends Error {}

export function toMastraTool<P>(tool: ToolLike<P>): EditEngineMastraTool;

/** Mastra tools keyed by name, for `new Agent({ tools })`; the 'all' preset adds `checkpoint` and `rewind` unless `history: false`. */
export function createMastraTools<const T extends ToolChoice | undefined = undefined, E extends boolean | undefined = undefined, H extends boolean | undefined = undefined>(
  options?: ToolOptions & ToolSetOptions<T, E> & { history?: H },
): { [N in ChosenNames<T, E> | SessionNames<T, H>]: EditEngineMastraTool };
