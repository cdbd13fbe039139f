// Types of edit-engine/openai: edit-engine tools as OpenAI Agents SDK function tools.
import type { ApplyPatchResult, Editor, FunctionTool } from '@openai/agents';
import type { PreviewOptions, PreviewResult, ToolLike, ToolOptions } from './index.js';
import type { ToolChoice, ToolSetOptions } from './tool-sets.js';

export type { ToolChoice, ToolName, ToolPreset } from './tool-sets.js';
export * from './adapter-exports.js';

/** A failed tool call as thrown to the SDK; its `errorFunction` gives the model `message`. */
export declare class ToolCallFailed extends Error {}

/**
 * When a writing call needs the host's approval: a boolean, or the SDK's approval function
 * `(runContext, input, callId)`. A call that needs it is previewed under its call id; its approved
 * execution applies exactly that preview (refused if a file changed in between); a rejected call
 * writes nothing. Reading tools never ask.
 */
export type NeedsApproval = boolean | FunctionTool<unknown, any, string>['needsApproval'];

/** `toOpenAiTool`'s options. */
export interface OpenAiToolOptions {
  needsApproval?: NeedsApproval;
}

/** A function tool; a writing one also has `preview(input, { toolCallId })` (see `NeedsApproval`). */
export type EditEngineFunctionTool = FunctionTool<unknown, any, string> & {
  preview?(input: unknown, options?: PreviewOptions): Promise<PreviewResult>;
};

/** Wraps one edit-engine tool (strict schema where expressible; nulls read as absent). */
export function toOpenAiTool<P>(tool: ToolLike<P>, options?: OpenAiToolOptions): EditEngineFunctionTool;

/** Function tools for `new Agent({ tools })`. */
export function createOpenAiTools<const T extends ToolChoice | undefined = undefined, E extends boolean | undefined = undefined>(
  options?: ToolOptions & ToolSetOptions<T, E> & OpenAiToolOptions,
): EditEngineFunctionTool[];

/** What each method of the editor resolves to: `failed` with the message for the model, never a rejection. */
export type EditorResult = Required<ApplyPatchResult>;

/** The editor's methods, typed as the SDK's `Editor` with results that are always given. */
export type EngineEditor = {
  [K in keyof Editor]: (...args: Parameters<Editor[K]>) => Promise<EditorResult>;
};

/**
 * An `Editor` for `applyPatchTool({ editor })`: each create/update/delete operation (its V4A
 * diff) goes through the engine's `apply_patch` with the given tool options (path guard, lock,
 * atomic write, undo, context matching). Failures resolve to `{ status: 'failed', output }`.
 */
export function createEditor(options?: ToolOptions): EngineEditor;
