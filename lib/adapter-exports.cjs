'use strict';
// What every framework adapter entry point re-exports: the tool factories (viewTool included), so
// a caller can build any single tool and wrap it, and the presets of the `tools` option. Kept in
// the form Node's CommonJS export detection reads (see lib/index.cjs).

const { grepTool, editTool, createTool, multiEditTool, editFileTool, replaceInFileTool, textEditorTool } = require('./index.cjs');
const { viewTool } = require('./view.cjs');
const { PRESETS: TOOL_PRESETS } = require('./registry.cjs');

module.exports = {
  viewTool, grepTool, editTool, createTool, multiEditTool, editFileTool, replaceInFileTool, textEditorTool,
  TOOL_PRESETS,
};
