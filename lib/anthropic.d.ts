// Types of edit-engine/anthropic: text editor tool_use blocks -> tool_result blocks.
import type { TextEditorVersion, TextEditorVersions, ToolOptions, ToolResult } from './index.js';

export type { TextEditorVersion };
export type TextEditorToolName = TextEditorVersions[TextEditorVersion]['name'];

/** The text editor's commands and their parameters. */
export type TextEditorInput =
  | { command: 'view'; path: string; view_range?: [number, number]; max_characters?: number }
  | { command: 'str_replace'; path: string; old_str: string; new_str?: string }
  | { command: 'create'; path: string; file_text: string }
  | { command: 'insert'; path: string; insert_line: number; insert_text?: string; new_str?: string }
  | { command: 'undo_edit'; path: string };

/** A `tool_use` content block addressed to the text editor. */
export interface TextEditorToolUseBlock {
  type: 'tool_use';
  id: string;
  name: TextEditorToolName;
  input: TextEditorInput;
}

/** The `tool_result` content block answering a `tool_use` block. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: ToolResult;
  /** Present (true) only when the call failed (the tool's structured result says `ok: false`). */
  is_error?: true;
}

/** Anything with the text editor tool's `execute` (e.g. `textEditorTool(options)`). */
export interface TextEditorLike {
  execute(input: TextEditorInput): Promise<ToolResult>;
}

/** The entry for the Messages API's `tools` list, per version (name tied to type, as the SDK's `ToolUnion` has it). */
export type TextEditorDefinitions = {
  [V in TextEditorVersion]: Pick<TextEditorVersions[V], 'type' | 'name'> &
    (TextEditorVersions[V]['maxCharacters'] extends true ? { max_characters: number } : {});
};
export type TextEditorDefinition<V extends TextEditorVersion = TextEditorVersion> = TextEditorDefinitions[V];
/** The version named by a `version` option (either spelling). */
export type VersionOf<V> = V extends `text_editor_${infer D extends TextEditorVersion}` ? D : V extends TextEditorVersion ? V : '20250728';

export interface TextEditorHandlerOptions<V extends TextEditorVersion | `text_editor_${TextEditorVersion}` = TextEditorVersion> extends ToolOptions {
  /** Text editor version for `str_replace_based_edit_tool` blocks (default '20250728'). */
  version?: V;
  /** Most characters one view returns (default 100,000); 20250728's definition advertises it as `max_characters`. */
  maxCharacters?: number;
  /** Use this editor for every block instead of building `textEditorTool`s. */
  editor?: TextEditorLike;
}

export interface TextEditorHandler<D = TextEditorDefinition> {
  definition: D;
  /** One block -> its tool_result; a block not addressed to the text editor gets an error result. */
  handle(block: unknown): Promise<ToolResultBlock>;
  /** Every text editor tool_use block of an assistant message's content, run in order. */
  handleAll(content: readonly unknown[]): Promise<ToolResultBlock[]>;
}

export const TEXT_EDITOR_TOOL_NAMES: readonly TextEditorToolName[];
export function isTextEditorToolUse(block: unknown): block is TextEditorToolUseBlock;
export function createTextEditorHandler<V extends TextEditorVersion | `text_editor_${TextEditorVersion}` = '20250728'>(
  options?: TextEditorHandlerOptions<V>,
): TextEditorHandler<TextEditorDefinition<VersionOf<V>>>;
export function textEditorDefinition<V extends TextEditorVersion | `text_editor_${TextEditorVersion}` = '20250728'>(
  options?: Pick<TextEditorHandlerOptions<V>, 'version' | 'maxCharacters'>,
): TextEditorDefinition<VersionOf<V>>;
export function textEditorToolResult(block: unknown, editorOrOptions?: TextEditorLike | TextEditorHandlerOptions): Promise<ToolResultBlock>;
export function textEditorToolResults(content: readonly unknown[], editorOrOptions?: TextEditorLike | TextEditorHandlerOptions): Promise<ToolResultBlock[]>;
