'use strict';
// edit-engine: native file-editing tools for AI agents (CommonJS entry). The object below is the
// one list of the package's exports: lib/index.mjs re-exports it with `export *`, which Node reads
// through its CommonJS export detection. Keep that form: shorthand names and `...require()` spreads
// of modules whose exports are all public (any other entry would end the names Node detects).

const { engineVersion, flushWrites, flushWritesAsync } = require('./native.cjs');
const { ExternalModificationDetector, BackgroundTaskPersistence } = require('./native.cjs');
const { FileReadTracker } = require('./read-tracker.cjs');
const { editTool, createTool, multiEditTool, editFileTool } = require('./tools.cjs');
const { editSchema, createSchema, multiEditSchema, editDescription, createDescription, multiEditDescription } = require('./schemas.cjs');
const { editToolDefinition, createToolDefinition, multiEditToolDefinition } = require('./schemas.cjs');
const { textEditorTool, textEditorSchema } = require('./text-editor.cjs');
const { FileTracker } = require('./file-tracker.cjs');
const { viewTool } = require('./view.cjs');
const { toolSpecs } = require('./specs.cjs');
const { createCheckpoints } = require('./checkpoints.cjs');

module.exports = {
  editTool, createTool, multiEditTool, editFileTool, textEditorTool, viewTool,
  editSchema, createSchema, multiEditSchema, textEditorSchema,
  editDescription, createDescription, multiEditDescription,
  editToolDefinition, createToolDefinition, multiEditToolDefinition,
  FileTracker, FileReadTracker, ExternalModificationDetector, BackgroundTaskPersistence,
  engineVersion, flushWrites, flushWritesAsync, toolSpecs, createCheckpoints,
  ...require('./replace-in-file.cjs'),
  ...require('./undo.cjs'),
  ...require('./grep.cjs'),
  ...require('./quotes.cjs'),
  ...require('./helpers.cjs'),
  ...require('./patch-tools.cjs'),
};
