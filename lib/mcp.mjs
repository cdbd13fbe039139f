// edit-engine/mcp: ESM entry. Node finds the named exports in lib/mcp.cjs (see lib/index.cjs).
export * from './mcp.cjs';
export { default } from './mcp.cjs';
