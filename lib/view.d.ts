// Types of the read-only `view` tool the adapters serve (lib/view.cjs; not a package export).
import type { JsonSchema, Tool, ToolOptions } from './index.js';
import type { ViewParams } from './tool-params.js';
export type { ViewParams } from './tool-params.js';

export function viewTool(options?: ToolOptions): Tool<ViewParams, 'view'>;
export const viewSchema: JsonSchema;
export const viewDescription: string;
