// Types of edit-engine/mcp: the tools served over the Model Context Protocol.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JsonSchema, Tool, ToolOptions } from './index.js';
import type { ToolChoice } from './tool-sets.js';

export interface McpServerOptions extends Omit<ToolOptions, 'allowedFolders' | 'cwd' | 'workspaceRoot'> {
  /** The folder every tool is confined to; relative paths resolve against it. Default: the process cwd. */
  root?: string;
  /** The tools to serve: a preset ('read-only', 'anthropic-style', 'editing', 'openai', 'all') or tool names. Default: every default tool (`allowEdit` decides the write ones). */
  tools?: ToolChoice;
  /** Also serve the editing tools (edit, create, multi_edit, edit_file, ...; of `tools` when given). Default false. */
  allowEdit?: boolean;
  /** Edits need a prior read: one `FileReadTracker` shared by the tools (view and grep record reads). */
  requireRead?: boolean;
  /** Tool factories by export name (default: the package's); for tests and custom builds. */
  factories?: Record<string, (options: Record<string, unknown>) => Tool<any>>;
}

/** A tool as `tools/list` describes it. */
export interface McpToolDescriptor {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Read tools: read-only and idempotent; write tools: destructive (they replace or remove content). */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
}

/** The tools a server built with `options` serves, with their MCP descriptors. */
export function mcpTools(options?: McpServerOptions): Array<{ tool: Tool<Record<string, unknown>>; descriptor: McpToolDescriptor }>;
/** An MCP server (not yet connected) serving the tools; connect it to any transport. */
export function createMcpServer(options?: McpServerOptions): Server;
/** Serves the tools over stdio (what `edit-engine mcp` runs); resolves once connected. */
export function serveStdio(options?: McpServerOptions): Promise<Server>;
