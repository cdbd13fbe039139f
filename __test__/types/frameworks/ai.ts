// README's AI SDK example (the lines between the `README example` markers, copied verbatim into
// README.md; __test__/readme.test.mjs checks the copy) under tsc --strict, without a cast, for
// `ai` 6 and 7. The lines after it check the rest of edit-engine/ai's types.
// README example: begin
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { createAiTools } from 'edit-engine/ai';

export async function renameFoo(model: LanguageModel, root: string): Promise<string> {
  const tools = createAiTools({ allowedFolders: [root], cwd: root, allowEdit: true });
  const { text } = await generateText({ model, tools, stopWhen: stepCountIs(10), prompt: 'Rename foo to bar in src/a.js' });
  return text;
}
// README example: end

import type { ToolSet } from 'ai';
import { toAiTool, editTool, viewTool } from 'edit-engine/ai';

const root = '/repo';
const tools = createAiTools({ allowedFolders: [root], cwd: root, allowEdit: true });
const all: ToolSet = tools;
const names: Array<keyof typeof tools> = ['view', 'grep', 'edit', 'create', 'multi_edit', 'edit_file', 'replace_in_file', 'str_replace_based_edit_tool'];
const readOnly: ToolSet = createAiTools({ allowedFolders: [root] });
const chosen = createAiTools({ tools: ['edit', 'view'] });
const two: ToolSet = { edit: chosen.edit, view: chosen.view };
// @ts-expect-error a tool the choice left out
chosen.grep;
const preset: ToolSet = createAiTools({ tools: 'anthropic-style' });
const openai = createAiTools({ allowedFolders: [root], cwd: root, tools: 'openai' });
const patching: ToolSet = { apply_patch: openai.apply_patch, view: openai.view, grep: openai.grep };
// @ts-expect-error the openai preset has no edit tool
openai.edit;
// @ts-expect-error apply_patch is served only when chosen, not by allowEdit alone
tools.apply_patch;
const single: ToolSet = { edit: toAiTool(editTool({ cwd: root })), view: toAiTool(viewTool({ cwd: root })) };

export async function readOnlyRun(model: LanguageModel): Promise<unknown> {
  await generateText({ model, tools: readOnly, prompt: 'x' });
  return [all, names, two, preset, single, patching];
}

// Approval: `needsApproval` as a boolean or the SDK's own function; the host shows the preview
// planned for the call.
const gated = createAiTools({ allowedFolders: [root], cwd: root, allowEdit: true, needsApproval: true });
const asked = createAiTools({
  allowedFolders: [root],
  allowEdit: true,
  needsApproval: async (_input, { toolCallId }) => toolCallId.startsWith('c'),
});
const gatedSet: ToolSet = gated;
export async function showApproval(input: { file_path: string; old_string: string; new_string: string }): Promise<string[]> {
  const shown = await asked.edit.preview?.(input, { toolCallId: 'c1' });
  const diffs: string[] = shown ? shown.files.map((f) => `${f.action} ${f.path}\n${f.diff}`) : [];
  // @ts-expect-error needsApproval is a boolean or a function
  createAiTools({ needsApproval: 'yes' });
  return [...diffs, String(gatedSet)];
}

// The 'all' preset serves the session tools too (unless the undo history is off).
const everything = createAiTools({ allowedFolders: [root], cwd: root, tools: 'all', needsApproval: true });
const everythingSet: ToolSet = everything;
export async function rewindShown(id: string): Promise<unknown> {
  const shown = await everything.rewind.preview?.({ id, on_conflict: 'skip' }, { toolCallId: 'c2' });
  return [shown?.files.map((f) => f.diff), everything.checkpoint, everything.edit, everythingSet];
}
// @ts-expect-error without the undo history there is nothing to rewind from
createAiTools({ tools: 'all', history: false }).rewind;
// @ts-expect-error only the 'all' preset serves the session tools
tools.checkpoint;
