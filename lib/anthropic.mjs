// edit-engine/anthropic: ESM entry, re-exporting the CommonJS build's named exports.
import cjs from './anthropic.cjs';

export const {
  TEXT_EDITOR_TOOL_NAMES,
  isTextEditorToolUse,
  createTextEditorHandler,
  textEditorDefinition,
  textEditorToolResult,
  textEditorToolResults,
} = cjs;
export default cjs;
