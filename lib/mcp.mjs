// edit-engine/mcp: ESM entry, re-exporting the CommonJS build's named exports.
import cjs from './mcp.cjs';

export const { createMcpServer, serveStdio, mcpTools } = cjs;
export default cjs;
