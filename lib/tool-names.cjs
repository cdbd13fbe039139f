'use strict';
// Host-aware messages: the engine's messages point the model to Probe's tools (`extract` to read,
// `search` to find, `create` to make a file). A host that exposes other tools passes
// `toolNames: { read, search, create }` (a name, or null when it has no such tool) and every
// message that points to another tool names the host's tool instead, or none.

/** Probe's names: what messages say when no `toolNames` option is given. */
const PROBE_TOOL_NAMES = Object.freeze({ read: 'extract', search: 'search', create: 'create' });

const nameOr = (v, fallback) => (v === null ? null : typeof v === 'string' && v !== '' ? v : fallback);

/** The `toolNames` option completed with Probe's names (null stays null: the host has no such tool). */
function resolveToolNames(option) {
  const o = option && typeof option === 'object' ? option : {};
  return {
    read: nameOr(o.read, PROBE_TOOL_NAMES.read),
    search: nameOr(o.search, PROBE_TOOL_NAMES.search),
    create: nameOr(o.create, PROBE_TOOL_NAMES.create),
  };
}

const isProbe = (n) => n.read === 'extract' && n.search === 'search' && n.create === 'create';

/** "a or b", "a" or "" for the names that exist, each wrapped by `q`. */
function either(names, q = (x) => x) {
  return names.filter(Boolean).map(q).join(' or ');
}

/**
 * The engine's phrasings that name Probe's tools, each with its host-aware replacement. Every
 * phrasing the engine uses is here (a test sends each failure through the MCP server and checks
 * that no unlisted tool is named).
 */
const REWRITES = [
  [/Use the extract tool with targets="([^"#]*)(?:#[^"]*)?" to (re-)?read/g,
    (n, m) => (n.read ? `Use the ${n.read} tool with path="${m[1]}" to ${m[2] || ''}read` : `${m[2] ? 'Re-read' : 'Read'}`)],
  [/Use 'search' or 'extract' to/g, (n) => (n.read || n.search ? `Use ${either([n.search, n.read], (x) => `'${x}'`)} to` : 'Re-read the file to')],
  [/Use extract or search to/g, (n) => (n.read || n.search ? `Use ${either([n.read, n.search])} to` : 'Re-read the file to')],
  [/Use 'extract' to/g, (n) => (n.read ? `Use '${n.read}' to` : 'Re-read the file to')],
  [/from extract\/search output/g, (n) => (n.read || n.search ? `from ${[n.read, n.search].filter(Boolean).join('/')} output` : 'from the file')],
  [/ Use 'search' to find files by name, or 'create' to make a new file\./g, (n) => {
    const parts = [n.search && `'${n.search}' to find files`, n.create && `'${n.create}' to make a new file`].filter(Boolean);
    return parts.length === 0 ? '' : ` Use ${parts.join(', or ')}.`;
  }],
];

/**
 * A tool message with every pointer to Probe's tools replaced by the host's names (`names` from
 * `resolveToolNames`). The patterns are the engine's own sentences (a multi_edit report carries
 * its failed operations' messages too), specific enough not to occur in a diff of user text.
 */
function hostMessage(text, names) {
  if (typeof text !== 'string' || !names || isProbe(names)) return text;
  let out = text;
  for (const [pattern, replace] of REWRITES) out = out.replace(pattern, (...m) => replace(names, m));
  return out;
}

module.exports = { PROBE_TOOL_NAMES, resolveToolNames, hostMessage };
