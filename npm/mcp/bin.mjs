#!/usr/bin/env node
// edit-engine-mcp: `edit-engine mcp` with the MCP SDK installed alongside (see README.md).
import { main } from 'edit-engine/cli';

process.env.EDIT_ENGINE_MCP_PACKAGE = '1';
const code = await main(['mcp', ...process.argv.slice(2)]);
if (code !== undefined) process.exitCode = code;
