// edit-engine/langchain: ESM entry, re-exporting the CommonJS build's named exports.
import cjs from './langchain.cjs';

export const { toLangChainTool, createLangChainTools, viewTool, grepTool, editTool, createTool, multiEditTool, editFileTool, replaceInFileTool, textEditorTool, TOOL_PRESETS } = cjs;
export default cjs;
