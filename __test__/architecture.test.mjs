// The code's shape: success is decided by the engine's outcome, never by reading an "Error"
// prefix; every parameter docs/tools.md documents is in its tool's schema (a host that validates
// calls against the schema can send it).
import { describe, it, expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { TOOL_ENTRIES, buildTool } from '../lib/registry.cjs';
import { DOC_SECTIONS, documentedParams, errorPrefixDecisions, undocumentedInSchema } from './support/architecture.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const schemaOf = (name) => buildTool(TOOL_ENTRIES.find((e) => e.name === name), {}).inputSchema;

describe('architecture', () => {
  it('no shipped code decides success from an "Error" prefix', () => {
    expect(errorPrefixDecisions(root)).toEqual([]);
  });

  it('every documented parameter is in its tool\'s schema', () => {
    const documented = documentedParams(root);
    for (const section of Object.values(DOC_SECTIONS)) expect([section, (documented[section] ?? []).length > 0]).toEqual([section, true]);
    expect(undocumentedInSchema(root, schemaOf)).toEqual([]);
  });
});
