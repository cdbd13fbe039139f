// The code's shape: success is decided by the engine's outcome, never by reading an "Error"
// prefix; every write a tool makes lands through tools/apply.rs; every parameter docs/tools.md
// documents is in its tool's schema in the engine's spec table (a host that validates calls
// against the schema can send it); only the params parsers read a JSON value; the error kinds are
// one list (the engine's), which the types and the docs repeat exactly.
import { describe, it, expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import native from '../lib/native.cjs';
import { toolSpecs } from '../lib/specs.cjs';
import { DOC_SECTIONS, documentedParams, errorPrefixDecisions, undocumentedInSchema, valueReadsOutsideParsers, writesOutsideApply } from './support/architecture.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The input schema of the tool named `name`, from the engine's tool spec table. */
const schemaOf = (name) => toolSpecs().find((s) => s.name === name).inputSchema;

describe('architecture', () => {
  it('no shipped code decides success from an "Error" prefix', () => {
    expect(errorPrefixDecisions(root)).toEqual([]);
  });

  it('every file a tool changes lands through the one apply step', () => {
    expect(writesOutsideApply(root)).toEqual([]);
  });

  it('only the params parsers read a JSON value: every tool reads its params once, typed', () => {
    expect(valueReadsOutsideParsers(root)).toEqual([]);
  });

  it('every documented parameter is in its tool\'s schema', () => {
    const documented = documentedParams(root);
    for (const section of Object.values(DOC_SECTIONS)) expect([section, (documented[section] ?? []).length > 0]).toEqual([section, true]);
    expect(undocumentedInSchema(root, schemaOf)).toEqual([]);
  });

  it('the error kinds of the types and the docs are the engine\'s list', () => {
    const kinds = native.errorKinds();
    expect(kinds).toContain('not_found');
    const types = readFileSync(new URL('../lib/index.d.ts', import.meta.url), 'utf8');
    const union = /export type ErrorKind =([^;]+);/.exec(types)[1];
    expect([...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1])).toEqual(kinds);
    const docs = readFileSync(new URL('../docs/tools.md', import.meta.url), 'utf8');
    const table = docs.split('| kind | the call failed because |')[1].split('\n\n')[0];
    expect([...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1])).toEqual(kinds);
  });
});
