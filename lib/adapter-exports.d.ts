// What every framework adapter entry point re-exports (lib/adapter-exports.cjs).
export {
  grepTool,
  editTool,
  createTool,
  multiEditTool,
  editFileTool,
  replaceInFileTool,
  textEditorTool,
} from './index.js';
export { viewTool } from './view.js';
export { TOOL_PRESETS } from './tool-sets.js';
