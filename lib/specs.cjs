'use strict';
// The engine's tool spec table (crates/engine/src/specs): for each tool its name, the factory
// that builds it, its access, the texts the model is shown and its parameters with the JSON
// schema hosts register. The factories, the Probe-style schema exports and the adapters' tool
// list all read it from here, so a tool's contract is stated once, in the engine.

const native = require('./native.cjs');

/** The table as the engine writes it (key order kept: the schemas are what hosts receive). */
const tableJson = native.toolSpecsJson();

/** The table the factories share (parsed once; each tool object gets the same schema object, as before). */
const SPECS = JSON.parse(tableJson);

/**
 * Every tool spec, a fresh copy: `{ name, factory, access, serving, summary, description,
 * definition, inputSchema, probeSchema, params }`.
 */
function toolSpecs() {
  return JSON.parse(tableJson);
}

/** The shared spec of the tool named `name` (throws for an unknown name: a bug in the package). */
function specOf(name) {
  const spec = SPECS.find((s) => s.name === name);
  if (!spec) throw new Error(`edit-engine has no tool spec named ${name}`);
  return spec;
}

/** What a tool object shows of its spec: `{ name, description, inputSchema }`. */
function shownSpec(name) {
  const { description, inputSchema } = specOf(name);
  return { name, description, inputSchema };
}

module.exports = { toolSpecs, specOf, shownSpec, SPECS };
