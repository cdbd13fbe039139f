// edit-engine: ESM entry, re-exporting the CommonJS build's named exports.
import cjs from './index.cjs';

export const {
  editTool,
  createTool,
  multiEditTool,
  editFileTool,
  FileTracker,
  computeContentHash,
  findFuzzyMatch,
  lineTrimmedMatch,
  whitespaceNormalizedMatch,
  indentFlexibleMatch,
  computeLineHash,
  parseLineRef,
  validateLineHash,
  annotateOutputWithHashes,
  stripHashlinePrefixes,
  stripEchoedBoundaries,
  restoreIndentation,
  cleanNewString,
  detectBaseIndent,
  reindent,
  findSymbol,
  findAllSymbols,
  editSchema,
  createSchema,
  multiEditSchema,
  editDescription,
  createDescription,
  multiEditDescription,
  editToolDefinition,
  createToolDefinition,
  multiEditToolDefinition,
  engineVersion,
} = cjs;

export default cjs;
