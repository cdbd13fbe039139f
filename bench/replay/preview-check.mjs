// `--preview`: each replayed call is first previewed and applied through its preview, then run
// directly on the same starting content; the two must agree byte for byte (reply and file), and
// an updated file's shown diff, applied to the old content, must give the new one.
import { readFileSync, writeFileSync } from 'node:fs';

/** Previews `call` on `file` (holding the call's content) and applies the preview: the preview, the reply, the file after. */
export async function previewThenApply(edit, file, call) {
  writeFileSync(file, call.content);
  const params = { file_path: file, ...call.params };
  const shown = await edit.preview(params);
  const applied = shown.ok ? await edit.applyPreview(shown.token) : shown;
  return { shown, reply: applied.text, after: readFileSync(file, 'utf8') };
}

/** The ways a previewed-then-applied call differs from the direct one (empty: none). */
export function previewMismatches(api, call, viaPreview, direct) {
  const out = [];
  if (viaPreview.shown.text !== direct.reply) out.push('preview text');
  if (viaPreview.reply !== direct.reply) out.push('applied reply');
  if (viaPreview.after !== direct.after) out.push('file');
  for (const f of viaPreview.shown.files.filter((x) => x.action === 'update')) {
    const applied = api.applyDiffToText(call.content, f.diff);
    if (!applied.ok || applied.text !== direct.after) out.push('diff');
  }
  return out;
}

/** One line for the report: calls checked, applied through a preview, and mismatches by kind. */
export function previewReport(checks) {
  const applied = checks.filter((c) => c.applied).length;
  const byKind = {};
  for (const c of checks) for (const k of c.mismatches) byKind[k] = (byKind[k] ?? 0) + 1;
  const bad = checks.filter((c) => c.mismatches.length > 0).length;
  const kinds = Object.entries(byKind).map(([k, n]) => `${k} ${n}`).join(', ');
  return `preview check: ${checks.length} calls, ${applied} applied through their preview, ${bad} differ from the direct call${kinds ? ` (${kinds})` : ''}`;
}
