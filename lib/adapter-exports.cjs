'use strict';
// What every framework adapter entry point re-exports: the tool factories (viewTool included), so
// a caller can build any single tool and wrap it, and the presets of the `tools` option.

const engine = require('./index.cjs');
const { viewTool } = require('./view.cjs');
const { PRESETS } = require('./registry.cjs');

module.exports = {
  viewTool,
  grepTool: engine.grepTool,
  editTool: engine.editTool,
  createTool: engine.createTool,
  multiEditTool: engine.multiEditTool,
  editFileTool: engine.editFileTool,
  replaceInFileTool: engine.replaceInFileTool,
  textEditorTool: engine.textEditorTool,
  TOOL_PRESETS: PRESETS,
};
