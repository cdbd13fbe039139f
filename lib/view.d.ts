// Types of the read-only `view` tool the adapters serve (lib/view.cjs; not a package export).
import type { JsonSchema, Tool, ToolOptions } from './index.js';
import type { ViewParams } from './tool-params.js';
export type { ViewParams } from './tool-params.js';

export interface ViewOptions extends ToolOptions {
  /** Most characters of numbered lines one view returns (default 100,000), cut at a line end. */
  maxCharacters?: number;
}

export function viewTool(options?: ViewOptions): Tool<ViewParams, 'view'>;
export const viewSchema: JsonSchema;
export const viewDescription: string;
