'use strict';
// edit-engine: native file-editing tools for AI agents (CommonJS entry).

const native = require('./native.cjs');
const schemas = require('./schemas.cjs');
const helpers = require('./helpers.cjs');
const { editTool, createTool, multiEditTool, editFileTool } = require('./tools.cjs');
const moreTools = require('./more-tools.cjs');
const moreSchemas = require('./more-schemas.cjs');
const seed002 = require('./seed002.cjs');
const patchTools = require('./patch-tools.cjs');

module.exports = {
  editTool,
  createTool,
  multiEditTool,
  editFileTool,
  replaceInFileTool: moreTools.replaceInFileTool,
  textEditorTool: moreTools.textEditorTool,
  undoLastEdit: moreTools.undoLastEdit,
  undoLastEditResult: moreTools.undoLastEditResult,
  replaceInFileSchema: moreSchemas.replaceInFileSchema,
  replaceInFileDescription: moreSchemas.replaceInFileDescription,
  textEditorSchema: moreSchemas.textEditorSchema,
  FileTracker: require('./file-tracker.cjs').FileTracker,
  ...helpers,
  editSchema: schemas.editSchema,
  createSchema: schemas.createSchema,
  multiEditSchema: schemas.multiEditSchema,
  editDescription: schemas.editDescription,
  createDescription: schemas.createDescription,
  multiEditDescription: schemas.multiEditDescription,
  editToolDefinition: schemas.editToolDefinition,
  createToolDefinition: schemas.createToolDefinition,
  multiEditToolDefinition: schemas.multiEditToolDefinition,
  engineVersion: native.engineVersion,
  flushWrites: native.flushWrites,
  flushWritesAsync: native.flushWritesAsync,
  ...seed002,
  ...patchTools,
};

// view.cjs builds on the exports above (and may be loaded first): resolved on first access.
Object.defineProperty(module.exports, 'viewTool', { enumerable: true, get: () => require('./view.cjs').viewTool });
