// edit-engine/ai: ESM entry, re-exporting the CommonJS build's named exports.
import cjs from './ai.cjs';

export const { toAiTool, createAiTools, viewTool, grepTool, editTool, createTool, multiEditTool, editFileTool, replaceInFileTool, textEditorTool, TOOL_PRESETS } = cjs;
export default cjs;
