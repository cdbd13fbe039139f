// The engine's tool spec table is the one home of each tool's contract: the generated parameter
// types, the adapters' tool list and the adapters' static factory exports must agree with it.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { toolTypes, TYPES_FILE } from '../scripts/tool-types.mjs';
import { toolSpecs } from '../lib/index.cjs';
import { TOOL_ENTRIES } from '../lib/registry.cjs';
import adapterExports from '../lib/adapter-exports.cjs';
import engine from '../lib/index.cjs';

describe('tool spec table', () => {
  it('lib/tool-params.d.ts is what scripts/tool-types.mjs generates (run `npm run build:types`)', () => {
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(toolTypes(toolSpecs()));
  });

  it('the adapters serve every spec but the unserved variants, in the table\'s order', () => {
    const served = toolSpecs().filter((s) => s.serving !== 'never');
    expect(TOOL_ENTRIES.map((e) => [e.name, e.factory, e.access, e.optional === true])).toEqual(
      served.map((s) => [s.name, s.factory, s.access, s.serving === 'when_named']),
    );
  });

  it('every factory a spec names is exported, and the adapters re-export the default-served ones', () => {
    for (const spec of toolSpecs()) expect([spec.factory, typeof engine[spec.factory]]).toEqual([spec.factory, 'function']);
    const defaults = [...new Set(toolSpecs().filter((s) => s.serving === 'default').map((s) => s.factory))];
    expect(Object.keys(adapterExports).filter((k) => k.endsWith('Tool')).sort()).toEqual(defaults.sort());
  });

  it('toolSpecs() hands out copies: changing one leaves the tools as they were', () => {
    const [first] = toolSpecs();
    first.inputSchema.properties = {};
    expect(Object.keys(toolSpecs()[0].inputSchema.properties).length).toBeGreaterThan(0);
  });
});
