'use strict';
// Probe's schema, description and XML-style definition exports, taken from the engine's tool
// spec table (lib/specs.cjs). Property names, types and required lists are the Probe SDK's (an
// interface); the prose is edit-engine's own.

const { specOf } = require('./specs.cjs');

const edit = specOf('edit');
const create = specOf('create');
const multiEdit = specOf('multi_edit');

module.exports = {
  editSchema: edit.inputSchema,
  createSchema: create.inputSchema,
  /** Probe's multi_edit schema (edits as a string); the tool object's is wider. */
  multiEditSchema: multiEdit.probeSchema,
  editDescription: edit.summary,
  createDescription: create.summary,
  multiEditDescription: multiEdit.summary,
  editToolDefinition: edit.definition,
  createToolDefinition: create.definition,
  multiEditToolDefinition: multiEdit.definition,
};
