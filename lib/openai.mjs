// edit-engine/openai: ESM entry, re-exporting the CommonJS build's named exports.
import cjs from './openai.cjs';

export const { toOpenAiTool, createOpenAiTools, ToolCallFailed, createEditor, viewTool, grepTool, editTool, createTool, multiEditTool, editFileTool, replaceInFileTool, textEditorTool, TOOL_PRESETS } = cjs;
export default cjs;
