// Types of edit-engine/ai: edit-engine tools as Vercel AI SDK (`ai` v6) tools.
import type { Tool as AiTool } from 'ai';
import type { CreateParams, EditFileParams, EditParams, GrepArgs, MultiEditParams, ToolLike, ToolOptions, ToolResult } from './index.js';
import type { ViewParams } from './view.js';

export type { ViewParams } from './view.js';

/** An `ai` tool whose output is the edit-engine message (errors start with "Error"). */
export type EditEngineAiTool<P> = AiTool<P, ToolResult>;

/** The tools every `createAiTools` result has (read-only). */
export interface ReadOnlyAiTools {
  view: EditEngineAiTool<ViewParams>;
  grep: EditEngineAiTool<GrepArgs>;
}

/** The editing tools `createAiTools({ allowEdit: true })` adds. */
export interface EditingAiTools {
  edit: EditEngineAiTool<EditParams>;
  create: EditEngineAiTool<CreateParams>;
  multi_edit: EditEngineAiTool<MultiEditParams>;
  edit_file: EditEngineAiTool<EditFileParams>;
}

export interface AiToolsOptions extends ToolOptions {
  /** Add the editing tools (default false: read-only tools only). */
  allowEdit?: boolean;
}

/**
 * Wraps one edit-engine tool object as an `ai` tool (`tool()` + `jsonSchema()` of its input
 * schema). Its `execute` never throws; a failed call (`executeResult(...).ok === false`) reaches
 * the model as error text.
 */
export function toAiTool<P>(tool: ToolLike<P>): EditEngineAiTool<P>;

/** A `ToolSet` keyed by tool name, for `generateText({ tools })` / `streamText({ tools })`. */
export function createAiTools(options: AiToolsOptions & { allowEdit: true }): ReadOnlyAiTools & EditingAiTools;
export function createAiTools(options?: AiToolsOptions): ReadOnlyAiTools;
