// edit-engine/ai: ESM entry, re-exporting the CommonJS build's named exports.
import cjs from './ai.cjs';

export const { toAiTool, createAiTools } = cjs;
export default cjs;
