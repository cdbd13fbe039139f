// Types of the read-only `view` tool the adapters serve (lib/view.cjs; not a package export).
import type { JsonSchema, Tool, ToolOptions } from './index.js';

/** `view`: a file with `cat -n` numbering, or a directory listed two levels deep. */
export interface ViewParams {
  path: string;
  /** `[start, end]`, 1-based and inclusive; `end` -1 means to the end of the file. */
  view_range?: [number, number];
  /** Host-only (not in the schema): most characters of numbered lines to show; wins over the `maxCharacters` option. */
  max_characters?: number;
  /** Resolves a relative `path`; takes priority over the tool's `cwd`. */
  workingDirectory?: string;
}

export interface ViewOptions extends ToolOptions {
  /** Most characters of numbered lines one view returns (default 100,000), cut at a line end. */
  maxCharacters?: number;
}

export function viewTool(options?: ViewOptions): Tool<ViewParams, 'view'>;
export const viewSchema: JsonSchema;
export const viewDescription: string;
