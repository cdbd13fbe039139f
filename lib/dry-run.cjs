'use strict';
// Dry runs for the MCP server and the CLI: a writing call with `dry_run: true` (MCP) or
// `--dry-run` (CLI) answers with its preview (see `preview` in tools.cjs) and writes nothing.

/** The MCP parameter a writing tool takes for a dry run. */
const DRY_RUN_PARAM = 'dry_run';

const dryRunProperty = {
  type: 'boolean',
  description: 'true: write nothing; answer with the change the call would make (a unified diff per file)',
};

/** `schema` with the `dry_run` parameter added (for a tool that can preview). */
function withDryRunParam(schema) {
  return { ...schema, properties: { ...(schema.properties || {}), [DRY_RUN_PARAM]: dryRunProperty } };
}

/** `params` without `dry_run`, and whether it asked for a dry run. */
function splitDryRun(params) {
  const { [DRY_RUN_PARAM]: flag, ...rest } = params;
  return { params: rest, dryRun: flag === true };
}

/**
 * The text of a preview for a person or a model: what the call would answer, then each file's
 * change (action, counts, unified diff). A failed preview is the call's failure text alone.
 */
function dryRunText(preview) {
  if (!preview.ok) return preview.text;
  const files = preview.files.map((f) => {
    const where = f.movedTo ? `${f.path} -> ${f.movedTo}` : f.path;
    return `${f.action} ${where} (+${f.additions} -${f.deletions})\n${f.diff}`;
  });
  return [`Dry run: nothing was written. The call would answer:\n${preview.text}`, ...files].join('\n\n');
}

module.exports = { DRY_RUN_PARAM, withDryRunParam, splitDryRun, dryRunText };
