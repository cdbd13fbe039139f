// edit-engine/mastra: ESM entry, re-exporting the CommonJS build's named exports.
import cjs from './mastra.cjs';

export const { toMastraTool, createMastraTools, ToolCallFailed, viewTool, grepTool, editTool, createTool, multiEditTool, editFileTool, replaceInFileTool, textEditorTool, TOOL_PRESETS } = cjs;
export default cjs;
