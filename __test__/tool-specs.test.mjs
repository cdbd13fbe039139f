// What hosts are given for each tool: names, descriptions, input schemas (and their OpenAI
// strict-mode forms) and the Probe-style exports. The snapshot was taken from the hand-written
// JS schemas before the engine's spec table replaced them, so any change to what a host sees
// shows up here, key order included.
import { describe, it, expect } from 'vitest';
import engine from '../lib/index.cjs';
import { viewSchema, viewDescription } from '../lib/view.cjs';
import { TOOL_ENTRIES, buildTool } from '../lib/registry.cjs';
import { strictSchema } from '../lib/strict-schema.cjs';

const json = (value) => JSON.stringify(value, null, 2);

/** The tool object as a host sees it, with the strict form OpenAI's adapter derives. */
const shown = (tool) =>
  json({ name: tool.name, type: tool.type, description: tool.description, inputSchema: tool.inputSchema, strict: strictSchema(tool.inputSchema) });

const EXPORTS = [
  'editSchema', 'createSchema', 'multiEditSchema', 'editDescription', 'createDescription', 'multiEditDescription',
  'editToolDefinition', 'createToolDefinition', 'multiEditToolDefinition', 'grepSchema', 'grepDescription',
  'replaceInFileSchema', 'replaceInFileDescription', 'applyPatchSchema', 'applyPatchDescription', 'applyDiffSchema',
  'applyDiffDescription',
];

describe('tool specs as hosts see them', () => {
  it('every served tool keeps its name, description and schemas', () => {
    for (const entry of TOOL_ENTRIES) expect(shown(buildTool(entry, {}))).toMatchSnapshot(entry.name);
  });

  it('every text editor version keeps its tool', () => {
    for (const version of ['20250124', '20250429', '20250728']) {
      expect(shown(engine.textEditorTool({ version }))).toMatchSnapshot(`text editor ${version}`);
      expect(json(engine.textEditorSchema(version))).toMatchSnapshot(`textEditorSchema ${version}`);
    }
  });

  it('the schema and description exports keep their values', () => {
    for (const name of EXPORTS) expect([name, json(engine[name])]).toMatchSnapshot(name);
    expect(json({ viewSchema, viewDescription })).toMatchSnapshot('view exports');
  });
});
