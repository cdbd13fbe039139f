// One contract per tool, checked three ways: this file's key lists are compared with the JSON
// schemas at run time (__test__/tool-contracts.test.mjs, which also checks the engine's validation
// of every required key) and with the TypeScript parameter types here, under tsc --strict.
import type { ApplyDiffParams, ApplyPatchParams } from '../../lib/index.js';
import type { ToolParamsByName } from '../../lib/tool-sets.js';

export const CONTRACTS = {
  view: { properties: ['path', 'view_range'], required: ['path'] },
  grep: { properties: ['pattern', 'path', 'beforeContext', 'afterContext', 'context', 'fileType', 'ignoreCase', 'maxResults', 'lineHashes'], required: ['pattern'] },
  edit: { properties: ['file_path', 'old_string', 'new_string', 'replace_all', 'expected_replacements', 'match_strategy', 'symbol', 'position', 'start_line', 'end_line'], required: ['file_path', 'new_string'] },
  create: { properties: ['file_path', 'content', 'overwrite'], required: ['file_path', 'content'] },
  multi_edit: { properties: ['edits', 'atomic'], required: ['edits'] },
  edit_file: { properties: ['path', 'old_text', 'new_text', 'replace_all'], required: ['path', 'old_text', 'new_text'] },
  replace_in_file: { properties: ['filePath', 'replacements'], required: ['filePath', 'replacements'] },
  str_replace_based_edit_tool: { properties: ['command', 'path', 'file_text', 'old_str', 'new_str', 'insert_line', 'view_range', 'insert_text'], required: ['command', 'path'] },
  apply_patch: { properties: ['input'], required: ['input'] },
  apply_diff: { properties: ['diff', 'path'], required: ['diff'] },
} as const;

/** The adapters' tools' parameters by name (lib/tool-sets.d.ts), plus the optional patch tools. */
type Params = ToolParamsByName & { apply_patch: ApplyPatchParams; apply_diff: ApplyDiffParams };
type Contracts = typeof CONTRACTS;
/** Keys of any member of a union. */
type AnyKey<T> = T extends unknown ? keyof T : never;
/** Keys some member of a union requires... and every member requires `K`. */
type RequiredIn<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? ({} extends Pick<T, K> ? false : true) : false) : never;
/** Parameters the hosts add that are not in the schemas (never offered to the model). */
type HostOnly = 'workingDirectory' | 'max_characters';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

/** Every schema property is a typed parameter and vice versa (host-only ones aside). */
export type PropertiesAgree = Assert<
  Same<{ [N in keyof Params]: Same<Contracts[N]['properties'][number], Exclude<AnyKey<Params[N]>, HostOnly>> }[keyof Params], true>
>;
/** Every key the schema requires is required by the type (in every member of a union). */
export type RequiredAgree = Assert<
  Same<{ [N in keyof Params]: RequiredIn<Params[N], Contracts[N]['required'][number]> }[keyof Params], true>
>;
