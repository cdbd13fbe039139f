'use strict';
// Checkpoints of a session's file changes, and rewinds to them (the engine's tools/rewind.rs).

const native = require('./native.cjs');
const { createToolbox, withPreview } = require('./tools.cjs');
const { ownOptions } = require('./own.cjs');

/** The result of a rewind that could not start (unusable tool options): nothing was written. */
function refused(error) {
  const text = `Error: Cannot rewind: ${error && error.message ? error.message : String(error)}. No file was changed.`;
  const none = { filesChanged: 0, insertions: 0, deletions: 0, files: [], conflicts: [], checkpoint: null };
  return { ok: false, canRewind: false, error: text, kind: 'bad_param', text, ...none };
}

/**
 * Checkpoints of one session: tools made with the same `sessionId` are the session (without one,
 * this process's tools are). `options`: the tools' options plus `sessionId`. Throws an Error when
 * the options cannot serve checkpoints (`history: false`, unusable options): a host configuration
 * mistake, not a tool call.
 */
function createCheckpoints(options = {}) {
  return sessionOf(options).checkpoints;
}

/** The checkpoints of `options`' session and the toolbox serving them (see `createCheckpoints`). */
function sessionOf(options) {
  const o = ownOptions(options);
  if (o.history === false) {
    throw new Error('createCheckpoints needs the undo history (checkpoints rewind from it): remove history: false from its options');
  }
  const toolbox = createToolbox(o);
  if (typeof toolbox === 'string') throw new Error(`createCheckpoints: ${toolbox}`);
  const sessionId = typeof o.sessionId === 'string' && o.sessionId.trim() !== '' ? o.sessionId : undefined;
  const checkpoints = {
    sessionId,
    /** Takes a checkpoint now: `{ id, label, createdAt, evicted }`. Rejects when the history store cannot record. */
    create: (label) => toolbox.createCheckpoint(typeof label === 'string' ? label : undefined),
    /** The session's checkpoints, oldest first; `evicted` names files whose history was evicted. */
    list: () => toolbox.listCheckpoints(),
    /** Rewinds the session's files to checkpoint `id`; never rejects (a refusal has `ok: false`). */
    rewind: (id, opts = {}) => {
      const r = ownOptions(opts);
      const onConflict = r.onConflict === undefined ? undefined : String(r.onConflict);
      return toolbox.rewind(String(id), Boolean(r.dryRun), onConflict).catch(refused);
    },
  };
  return { checkpoints, toolbox };
}

/** The text a model reads for a taken checkpoint. */
const takenText = (c) =>
  `Checkpoint ${c.id}${c.label ? ` ("${c.label}")` : ''} taken. To put every file this session changes from now on back as it is now, call rewind with this id.`;

/**
 * The `checkpoint` and `rewind` tools a server offers a model (the MCP server's 'all' preset):
 * tool objects `{ name, description, inputSchema, execute, executeResult }` over the session of
 * `options` (the server's tools, when it passes their options). Never reject.
 */
function checkpointTools(options = {}) {
  const { checkpoints, toolbox } = sessionOf(options);
  const answer = (ok, text) => ({ ok, text, kind: ok ? undefined : 'fs', changedFiles: [] });
  const checkpoint = {
    name: 'checkpoint',
    description: 'Take a checkpoint of the files this session has changed, to rewind them to later. Costs no copy. Returns the checkpoint id.',
    inputSchema: { type: 'object', properties: { label: { type: 'string', description: 'A short label to recognise the checkpoint by.' } }, additionalProperties: false },
    async executeResult(params = {}) {
      try {
        return answer(true, takenText(await checkpoints.create(typeof params.label === 'string' ? params.label : undefined)));
      } catch (error) {
        return answer(false, `Error: Cannot take a checkpoint: ${error && error.message ? error.message : String(error)}`);
      }
    },
  };
  const rewind = {
    name: 'rewind',
    description:
      'Put every file this session changed since a checkpoint back as it was then (created files removed, deleted and moved ones restored). Files changed since by anyone else are never overwritten: the rewind is refused unless on_conflict is "skip". dry_run shows what would change without writing.',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The checkpoint id the checkpoint tool returned.' },
        dry_run: { type: 'boolean', description: 'Only report what the rewind would change; write nothing.' },
        on_conflict: { type: 'string', enum: ['refuse', 'skip'], description: '"refuse" (default): refuse the whole rewind when a file changed since; "skip": rewind the other files.' },
      },
      required: ['id'],
      additionalProperties: false,
    },
    async executeResult(params = {}) {
      if (typeof params.id !== 'string' || params.id.trim() === '') {
        return { ok: false, text: 'Error: id is required: the checkpoint id the checkpoint tool returned.', kind: 'bad_param', changedFiles: [] };
      }
      const r = await checkpoints.rewind(params.id, { dryRun: params.dry_run === true, onConflict: params.on_conflict });
      const changed = r.ok && params.dry_run !== true ? r.files.flatMap((f) => (f.movedTo ? [f.path, f.movedTo] : [f.path])) : [];
      return { ok: r.ok, text: r.text, kind: r.kind ?? undefined, changedFiles: changed };
    },
  };
  for (const tool of [checkpoint, rewind]) tool.execute = async (params) => (await tool.executeResult(params)).text;
  // A rewind writes: it is previewed and applied like any writing tool (approval gates use this).
  withPreview(rewind, toolbox, 'rewind', native.toolErrorLabel('rewind'));
  return [checkpoint, rewind];
}

module.exports = { createCheckpoints, checkpointTools };
