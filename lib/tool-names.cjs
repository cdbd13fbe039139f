'use strict';
// Host-aware messages: the engine's messages point the model to Probe's tools (`extract` to read,
// `search` to find, `create` to make a file). A host that exposes other tools passes
// `toolNames: { read, search, create }` (a name, or null when it has no such tool); the engine
// then writes every such message with the host's tool, or names none.

/** Probe's names: what messages say when no `toolNames` option is given. */
const PROBE_TOOL_NAMES = Object.freeze({ read: 'extract', search: 'search', create: 'create' });

const nameOr = (v, fallback) => (v === null ? null : typeof v === 'string' && v !== '' ? v : fallback);

/** The `toolNames` option completed with Probe's names (null stays null: the host has no such tool), as the engine takes it. */
function resolveToolNames(option) {
  const o = option && typeof option === 'object' ? option : {};
  return {
    read: nameOr(o.read, PROBE_TOOL_NAMES.read),
    search: nameOr(o.search, PROBE_TOOL_NAMES.search),
    create: nameOr(o.create, PROBE_TOOL_NAMES.create),
  };
}

module.exports = { PROBE_TOOL_NAMES, resolveToolNames };
