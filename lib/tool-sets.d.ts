// The tool sets every adapter's `tools` option chooses from (lib/registry.cjs), as types.
import type { OptionalToolName, ToolParamsByName } from './tool-params.js';
// Each served tool's name -> its parameters, and the tools served only when named: generated
// from the engine's tool spec table (scripts/tool-types.mjs).
export type { OptionalToolName, ToolParamsByName } from './tool-params.js';
export type ToolName = keyof ToolParamsByName;

/** The presets and their tools. */
export type ToolPresets = {
  'read-only': 'view' | 'grep';
  'anthropic-style': 'str_replace_based_edit_tool';
  editing: 'view' | 'grep' | 'edit' | 'create';
  openai: 'view' | 'grep' | 'apply_patch';
  all: ToolName;
};
export type ToolPreset = keyof ToolPresets;

/** `tools`: a preset, or a list of tool names. */
export type ToolChoice = ToolPreset | readonly ToolName[];

/** The tool names a `tools` choice (or, without one, `allowEdit`) selects. */
export type ChosenNames<T, AllowEdit> = T extends ToolPreset
  ? ToolPresets[T]
  : T extends readonly (infer N extends ToolName)[]
    ? N
    : AllowEdit extends true
      ? Exclude<ToolName, OptionalToolName>
      : 'view' | 'grep';

/**
 * The session tools and their parameters: `checkpoint` and `rewind` (see `createCheckpoints`),
 * served by the 'all' preset unless the undo history is off.
 */
export type SessionToolParamsByName = {
  checkpoint: { label?: string };
  rewind: { id: string; dry_run?: boolean; on_conflict?: 'refuse' | 'skip' };
};
export type SessionToolName = keyof SessionToolParamsByName;

/** The session tools a `tools` choice serves: both with 'all', none with `history: false` or another choice. */
export type SessionNames<T, History> = T extends 'all' ? (History extends false ? never : SessionToolName) : never;

/** Options every adapter's tool-set factory takes besides the tool options. */
export interface ToolSetOptions<T extends ToolChoice | undefined = undefined, AllowEdit extends boolean | undefined = undefined> {
  /** A preset ('read-only', 'anthropic-style', 'editing', 'openai', 'all') or tool names. */
  tools?: T;
  /** Without `tools`: add every editing tool (default false: read-only tools only). */
  allowEdit?: AllowEdit;
}

export declare const TOOL_PRESETS: { readonly [P in ToolPreset]: readonly ToolPresets[P][] };
